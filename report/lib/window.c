// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reorder window of a stream (spec/FORMAT.md 9.2: a record may come before the records
 * that describe its task). Records wait here, copied with their strings, while the next
 * WINDOW_RECORDS - 1 records are read and their lifecycle records fed to the task table; so a
 * record is attributed knowing every lifecycle record written within WINDOW_RECORDS - 1
 * records after it. Memory is bounded: WINDOW_RECORDS records and WINDOW_BYTES bytes of
 * strings; a window that holds more strings lets its oldest record go early.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

struct held {
	struct sct_record rec;
	uint8_t *bytes; /* the record's strings, NULL if it has none */
	size_t nbytes;
};

struct window {
	struct held *v;      /* ring of WINDOW_RECORDS */
	uint32_t head, n;
	size_t bytes;        /* strings held */
	uint8_t *out;        /* the strings of the record last popped, freed by the next call */
};

struct window *window_new(void)
{
	struct window *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->v = calloc(WINDOW_RECORDS, sizeof(*w->v));
	if (!w->v) {
		free(w);
		return NULL;
	}
	return w;
}

uint32_t window_count(const struct window *w)
{
	return w->n;
}

bool window_full(const struct window *w)
{
	return w->n == WINDOW_RECORDS || w->bytes > WINDOW_BYTES;
}

/* The string fields of a record of a type sct.h describes; others hold none. */
static uint32_t window_strings(struct sct_record *r, struct sct_bytes **out)
{
	switch (r->type) {
	case SCT_REC_SYSCALL:
		out[0] = &r->syscall.path;
		out[1] = &r->syscall.path2;
		return 2;
	case SCT_REC_TASK:
		out[0] = &r->task.comm;
		return 1;
	case SCT_REC_EXEC:
		out[0] = &r->exec.filename;
		out[1] = &r->exec.comm;
		return 2;
	case SCT_REC_CGROUP:
		out[0] = &r->cgroup.path;
		return 1;
	case SCT_REC_WARNING:
		out[0] = &r->warning.text;
		return 1;
	case SCT_REC_SAMPLE:
		out[0] = &r->sample.payload;
		return 1;
	case SCT_REC_TOTALS:
		out[0] = &r->totals.hist;
		return 1;
	case SCT_REC_STACK:
		out[0] = &r->stack.frames;
		return 1;
	case SCT_REC_MODULE:
		out[0] = &r->module.build_id;
		out[1] = &r->module.path;
		return 2;
	case SCT_REC_SYMBOL:
		out[0] = &r->symbol.name;
		return 1;
	default:
		return 0;
	}
}

int window_copy_strings(struct sct_record *rec, uint8_t **bytes, size_t *nbytes)
{
	struct sct_bytes *strs[2];
	uint32_t ns;
	size_t len = 0;
	uint8_t *p;

	if (rec->type > SCT_REC_MAX) { /* a newer type: its fields are not in the union */
		uint32_t type = rec->type;

		memset(rec, 0, sizeof(*rec));
		rec->type = type;
	}
	ns = window_strings(rec, strs);
	for (uint32_t i = 0; i < ns; i++)
		len += strs[i]->len;
	*bytes = NULL;
	*nbytes = len;
	if (!len)
		return 0;
	p = *bytes = malloc(len);
	if (!p)
		return -ENOMEM;
	for (uint32_t i = 0; i < ns; i++) {
		if (strs[i]->len)
			memcpy(p, strs[i]->ptr, strs[i]->len);
		strs[i]->ptr = p;
		p += strs[i]->len;
	}
	return 0;
}

int window_push(struct window *w, const struct sct_record *rec)
{
	struct held *h = &w->v[(w->head + w->n) % WINDOW_RECORDS];
	int err;

	if (w->n == WINDOW_RECORDS)
		return -ENOBUFS;
	h->rec = *rec;
	err = window_copy_strings(&h->rec, &h->bytes, &h->nbytes);
	if (err)
		return err;
	w->bytes += h->nbytes;
	w->n++;
	return 0;
}

void window_pop(struct window *w, struct sct_record *rec)
{
	struct held *h = &w->v[w->head];

	free(w->out);
	w->out = h->bytes;
	*rec = h->rec;
	w->bytes -= h->nbytes;
	w->head = (w->head + 1) % WINDOW_RECORDS;
	w->n--;
}

void window_free(struct window *w)
{
	if (!w)
		return;
	while (w->n) {
		struct sct_record rec;

		window_pop(w, &rec);
	}
	free(w->out);
	free(w->v);
	free(w);
}
