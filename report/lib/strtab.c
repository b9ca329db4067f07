// SPDX-License-Identifier: BSD-2-Clause
/* Interned strings: comm, paths, syscall and host names are stored once and compared by id. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"

struct str {
	uint32_t len;
	char bytes[]; /* len bytes and a NUL */
};

struct strtab {
	struct str **strs;
	uint32_t nstrs, capstrs;
	uint32_t *slots; /* hash slots: id + 1, 0 empty */
	uint32_t nslots;
};

struct strtab *strtab_new(void)
{
	return calloc(1, sizeof(struct strtab));
}

static uint64_t strtab_hash(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int strtab_grow(struct strtab *st)
{
	uint32_t n = st->nslots ? st->nslots * 2 : 1024;
	uint32_t *tmp = calloc(n, sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	for (uint32_t id = 0; id < st->nstrs; id++) {
		uint64_t h = strtab_hash(st->strs[id]->bytes, st->strs[id]->len);
		uint32_t i = (uint32_t)h & (n - 1);

		while (tmp[i])
			i = (i + 1) & (n - 1);
		tmp[i] = id + 1;
	}
	free(st->slots);
	st->slots = tmp;
	st->nslots = n;
	return 0;
}

static int strtab_add(struct strtab *st, const void *p, size_t len)
{
	struct str *s;

	if (st->nstrs == st->capstrs) {
		uint32_t n = st->capstrs ? st->capstrs * 2 : 1024;
		struct str **tmp = realloc(st->strs, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		st->strs = tmp;
		st->capstrs = n;
	}
	s = malloc(sizeof(*s) + len + 1);
	if (!s)
		return -ENOMEM;
	s->len = (uint32_t)len;
	if (len)
		memcpy(s->bytes, p, len);
	s->bytes[len] = 0;
	st->strs[st->nstrs++] = s;
	return 0;
}

/* Aborts on memory exhaustion: every caller would have to, and ids must stay valid. */
uint32_t strtab_intern(struct strtab *st, const void *p, size_t len)
{
	uint64_t h;
	uint32_t i;

	if (!st->nstrs && strtab_add(st, "", 0))
		abort();
	if ((st->nstrs + 1) * 2 > st->nslots && strtab_grow(st))
		abort();
	if (!len)
		return 0;
	h = strtab_hash(p, len);
	for (i = (uint32_t)h & (st->nslots - 1); st->slots[i]; i = (i + 1) & (st->nslots - 1)) {
		struct str *s = st->strs[st->slots[i] - 1];

		if (s->len == len && !memcmp(s->bytes, p, len))
			return st->slots[i] - 1;
	}
	if (strtab_add(st, p, len))
		abort();
	st->slots[i] = st->nstrs;
	return st->nstrs - 1;
}

const char *strtab_get(const struct strtab *st, uint32_t id)
{
	return id < st->nstrs ? st->strs[id]->bytes : "";
}

uint32_t strtab_len(const struct strtab *st, uint32_t id)
{
	return id < st->nstrs ? st->strs[id]->len : 0;
}

void strtab_free(struct strtab *st)
{
	if (!st)
		return;
	for (uint32_t i = 0; i < st->nstrs; i++)
		free(st->strs[i]);
	free(st->strs);
	free(st->slots);
	free(st);
}
