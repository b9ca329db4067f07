// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reorder heap of a live stream: a min-heap of record copies (their strings with them,
 * window.c's copy) by key, ties in arrival order. Memory is bounded by REORDER_RECORDS
 * records and REORDER_BYTES bytes of strings; the caller lets the oldest go when either is
 * reached.
 */
#include <errno.h>
#include <stdlib.h>

#include "reorder.h"
#include "window.h"

struct ro_entry {
	uint64_t key, seq;
	struct sct_record rec;
	uint8_t *bytes;
	size_t nbytes;
};

struct reorder {
	struct ro_entry *heap; /* REORDER_RECORDS */
	uint32_t n;
	uint64_t seq;
	size_t bytes;
	uint8_t *out; /* the strings of the record last popped */
};

struct reorder *reorder_new(void)
{
	struct reorder *ro = calloc(1, sizeof(*ro));

	if (!ro)
		return NULL;
	ro->heap = calloc(REORDER_RECORDS, sizeof(*ro->heap));
	if (!ro->heap) {
		free(ro);
		return NULL;
	}
	return ro;
}

static bool ro_less(const struct ro_entry *a, const struct ro_entry *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void ro_swap(struct ro_entry *a, struct ro_entry *b)
{
	struct ro_entry t = *a;

	*a = *b;
	*b = t;
}

int reorder_push(struct reorder *ro, const struct sct_record *rec, uint64_t key)
{
	struct ro_entry *e;
	uint32_t i;
	int err;

	if (ro->n == REORDER_RECORDS)
		return -ENOBUFS;
	e = &ro->heap[ro->n];
	e->rec = *rec;
	err = window_copy_strings(&e->rec, &e->bytes, &e->nbytes);
	if (err)
		return err;
	e->key = key;
	e->seq = ro->seq++;
	ro->bytes += e->nbytes;
	i = ro->n++;
	while (i && ro_less(&ro->heap[i], &ro->heap[(i - 1) / 2])) {
		ro_swap(&ro->heap[i], &ro->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

uint64_t reorder_min_key(const struct reorder *ro)
{
	return ro->heap[0].key;
}

void reorder_pop(struct reorder *ro, struct sct_record *rec)
{
	struct ro_entry top = ro->heap[0];
	uint32_t i = 0;

	ro->heap[0] = ro->heap[--ro->n];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < ro->n && ro_less(&ro->heap[l], &ro->heap[m]))
			m = l;
		if (r < ro->n && ro_less(&ro->heap[r], &ro->heap[m]))
			m = r;
		if (m == i)
			break;
		ro_swap(&ro->heap[i], &ro->heap[m]);
		i = m;
	}
	free(ro->out);
	ro->out = top.bytes;
	ro->bytes -= top.nbytes;
	*rec = top.rec;
}

uint32_t reorder_count(const struct reorder *ro)
{
	return ro->n;
}

bool reorder_full(const struct reorder *ro)
{
	return ro->n == REORDER_RECORDS || ro->bytes > REORDER_BYTES;
}

void reorder_free(struct reorder *ro)
{
	if (!ro)
		return;
	for (uint32_t i = 0; i < ro->n; i++)
		free(ro->heap[i].bytes);
	free(ro->out);
	free(ro->heap);
	free(ro);
}
