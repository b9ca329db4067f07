// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reorder heap of a live stream: a min-heap of record copies (their strings with them,
 * window.c's copy) by key, ties in arrival order, each with the caller's tag, and how many
 * records of each tag are held (the caller's: which files' stack tables are still needed);
 * and when records arrived, each with the largest key read by then, so that the caller can
 * tell which keys are due at a time. Memory is bounded by REORDER_RECORDS records and
 * REORDER_BYTES bytes of strings; the caller lets the oldest go when either is reached.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reorder.h"
#include "window.h"

/* A record held, in a slot that does not move while the heap of small nodes reorders. */
struct ro_slot {
	struct sct_record rec;
	uint8_t *bytes;
	size_t nbytes;
	uint64_t tag;
};

/* How many records of one tag are held: never 0, so there are at most as many as records. */
struct ro_tag {
	uint64_t tag;
	uint32_t n;
};

struct ro_entry {
	uint64_t key, seq;
	uint32_t slot;
};

/* When records arrived, and the largest key read by then (a FIFO, oldest first). */
struct arrival {
	uint64_t at, key;
};

struct reorder {
	struct ro_entry *heap; /* REORDER_RECORDS */
	uint32_t n;
	struct ro_slot *slots; /* REORDER_RECORDS */
	uint32_t *free_slots;  /* a stack of the slots not in use: REORDER_RECORDS - n of them */
	struct arrival *arr;   /* ring of REORDER_RECORDS */
	struct ro_tag *tags;   /* REORDER_RECORDS, by tag; ntags of them in use */
	uint32_t ntags;
	uint32_t ahead, an;
	uint64_t maxkey;       /* the largest key read */
	/*
	 * The smallest lag of an arrival behind the largest key read by then (at - key, the
	 * clocks' difference plus the quickest delivery seen), and the last arrival: where the
	 * stream's clock stands while nothing comes (reorder_arrival_of()).
	 */
	int64_t lag;
	uint64_t last_at;
	uint64_t due_key;      /* records up to it are due, once due_set */
	bool due_set;
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
	ro->slots = calloc(REORDER_RECORDS, sizeof(*ro->slots));
	ro->free_slots = calloc(REORDER_RECORDS, sizeof(*ro->free_slots));
	ro->arr = calloc(REORDER_RECORDS, sizeof(*ro->arr));
	ro->tags = calloc(REORDER_RECORDS, sizeof(*ro->tags));
	if (!ro->heap || !ro->slots || !ro->free_slots || !ro->arr || !ro->tags) {
		reorder_free(ro);
		return NULL;
	}
	for (uint32_t i = 0; i < REORDER_RECORDS; i++)
		ro->free_slots[i] = REORDER_RECORDS - 1 - i;
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

/* The first entry of tags whose tag is not below tag (ntags if none). */
static uint32_t ro_tag_find(const struct reorder *ro, uint64_t tag)
{
	uint32_t lo = 0, hi = ro->ntags;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ro->tags[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Tags come in order (a stream's files): the new one is last, found at once. */
static void ro_tag_add(struct reorder *ro, uint64_t tag)
{
	uint32_t i = ro->ntags && ro->tags[ro->ntags - 1].tag < tag ? ro->ntags : ro_tag_find(ro, tag);

	if (i < ro->ntags && ro->tags[i].tag == tag) {
		ro->tags[i].n++;
		return;
	}
	memmove(&ro->tags[i + 1], &ro->tags[i], (size_t)(ro->ntags - i) * sizeof(*ro->tags));
	ro->tags[i] = (struct ro_tag){ tag, 1 };
	ro->ntags++;
}

static void ro_tag_drop(struct reorder *ro, uint64_t tag)
{
	uint32_t i = ro_tag_find(ro, tag);

	if (--ro->tags[i].n)
		return;
	ro->ntags--;
	memmove(&ro->tags[i], &ro->tags[i + 1], (size_t)(ro->ntags - i) * sizeof(*ro->tags));
}

int reorder_push(struct reorder *ro, const struct sct_record *rec, uint64_t key, uint64_t tag)
{
	struct ro_entry *e;
	struct ro_slot *sl;
	uint32_t i;
	int err;

	if (ro->n == REORDER_RECORDS)
		return -ENOBUFS;
	e = &ro->heap[ro->n];
	e->slot = ro->free_slots[REORDER_RECORDS - 1 - ro->n];
	sl = &ro->slots[e->slot];
	sl->rec = *rec;
	err = window_copy_strings(&sl->rec, &sl->bytes, &sl->nbytes);
	if (err)
		return err;
	sl->tag = tag;
	ro_tag_add(ro, tag);
	e->key = key;
	e->seq = ro->seq++;
	ro->bytes += sl->nbytes;
	i = ro->n++;
	while (i && ro_less(&ro->heap[i], &ro->heap[(i - 1) / 2])) {
		ro_swap(&ro->heap[i], &ro->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

void reorder_arrived(struct reorder *ro, uint64_t at, uint64_t key)
{
	struct arrival *last = ro->an ? &ro->arr[(ro->ahead + ro->an - 1) % REORDER_RECORDS] : NULL;

	if (key > ro->maxkey)
		ro->maxkey = key;
	if (!ro->last_at || (int64_t)(at - ro->maxkey) < ro->lag)
		ro->lag = (int64_t)(at - ro->maxkey);
	ro->last_at = at;
	/* a full ring stamps its newest entry later: what it covers is due later, never early */
	if (last && (ro->an == REORDER_RECORDS || last->at == at)) {
		last->at = at;
		last->key = ro->maxkey;
		return;
	}
	ro->arr[(ro->ahead + ro->an++) % REORDER_RECORDS] = (struct arrival){ at, ro->maxkey };
}

bool reorder_due_key(struct reorder *ro, uint64_t until, uint64_t *key)
{
	while (ro->an && ro->arr[ro->ahead].at <= until) {
		ro->due_key = ro->arr[ro->ahead].key;
		ro->due_set = true;
		ro->ahead = (ro->ahead + 1) % REORDER_RECORDS;
		ro->an--;
	}
	*key = ro->due_key;
	return ro->due_set;
}

uint64_t reorder_next_arrival(const struct reorder *ro)
{
	return ro->an ? ro->arr[ro->ahead].at : 0;
}

uint64_t reorder_arrival_of(const struct reorder *ro, uint64_t key)
{
	uint64_t at = (uint64_t)((int64_t)key + ro->lag);

	if (!ro->last_at)
		return 0;
	return at > ro->last_at ? at : ro->last_at;
}

void reorder_clock_reset(struct reorder *ro)
{
	ro->maxkey = 0;
	ro->due_key = 0;
	ro->due_set = false;
	ro->an = 0;
	ro->lag = 0;
	ro->last_at = 0;
}

uint64_t reorder_min_key(const struct reorder *ro)
{
	return ro->heap[0].key;
}

uint32_t reorder_tags(const struct reorder *ro)
{
	return ro->ntags;
}

uint64_t reorder_min_tag(const struct reorder *ro)
{
	return ro->tags[0].tag;
}

uint64_t reorder_pop(struct reorder *ro, struct sct_record *rec)
{
	struct ro_entry top = ro->heap[0];
	struct ro_slot *sl = &ro->slots[top.slot];
	uint32_t i = 0;

	ro->heap[0] = ro->heap[--ro->n];
	ro->free_slots[REORDER_RECORDS - 1 - ro->n] = top.slot;
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
	ro->out = sl->bytes;
	ro->bytes -= sl->nbytes;
	ro_tag_drop(ro, sl->tag);
	*rec = sl->rec;
	return sl->tag;
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
	for (uint32_t i = 0; ro->heap && ro->slots && i < ro->n; i++)
		free(ro->slots[ro->heap[i].slot].bytes);
	free(ro->out);
	free(ro->heap);
	free(ro->slots);
	free(ro->free_slots);
	free(ro->arr);
	free(ro->tags);
	free(ro);
}
