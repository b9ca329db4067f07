// SPDX-License-Identifier: BSD-2-Clause
/*
 * Symbols by address. Symbols may overlap (a file's sizes need not agree with one another):
 * a symbol's own extent decides, so an address is never given a name that does not cover
 * it, and a lookup costs a binary search and a few steps back whatever the file holds.
 */
#include <errno.h>
#include <stdlib.h>

#include "sym_index.h"

#define SYM_INDEX_BACK 8u /* symbols looked at below the nearest start */

int sym_index_add(struct sym_index *ix, uint64_t addr, uint64_t size, const char *name, uint32_t len)
{
	if (ix->n == ix->cap) {
		uint32_t cap = ix->cap ? ix->cap * 2 : 16;
		struct sym *tmp = realloc(ix->v, (size_t)cap * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		ix->v = tmp;
		ix->cap = cap;
	}
	ix->v[ix->n] = (struct sym){ .addr = addr, .size = size, .name = name, .len = len, .seq = ix->n };
	ix->n++;
	ix->sorted = false;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const struct sym *sym_index_find(struct sym_index *ix, uint64_t addr)
{
	uint32_t lo = 0, hi = ix->n;
	const struct sym *s;

	if (!ix->sorted) {
		if (ix->n)
			qsort(ix->v, ix->n, sizeof(*ix->v), sym_cmp);
		ix->sorted = true;
	}
	/* lo becomes the first symbol starting above addr */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ix->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &ix->v[lo - 1];
	if (!s->size)
		return lo == ix->n || addr < ix->v[lo].addr ? s : NULL;
	/*
	 * A sized symbol that ends before addr may sit inside a larger one that covers it (a
	 * local label in its function): the few starts before it are looked at, not all.
	 */
	for (uint32_t i = lo; i > 0 && lo - i < SYM_INDEX_BACK; i--) {
		s = &ix->v[i - 1];
		if (s->size && addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

void sym_index_free(struct sym_index *ix)
{
	free(ix->v);
	ix->v = NULL;
	ix->n = ix->cap = 0;
	ix->sorted = false;
}
