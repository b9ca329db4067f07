// SPDX-License-Identifier: BSD-2-Clause
/* Interned strings: comm, paths, syscall and host names are stored once and compared by id. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct str {
	uint32_t len;
	char bytes[]; /* len bytes and a NUL */
};

static struct str **strs;
static uint32_t nstrs, capstrs;
static uint32_t *slots; /* hash slots: id + 1, 0 empty */
static uint32_t nslots;

static uint64_t strtab_hash(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int strtab_grow(void)
{
	uint32_t n = nslots ? nslots * 2 : 1024;
	uint32_t *tmp = calloc(n, sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	for (uint32_t id = 0; id < nstrs; id++) {
		uint64_t h = strtab_hash(strs[id]->bytes, strs[id]->len);
		uint32_t i = (uint32_t)h & (n - 1);

		while (tmp[i])
			i = (i + 1) & (n - 1);
		tmp[i] = id + 1;
	}
	free(slots);
	slots = tmp;
	nslots = n;
	return 0;
}

static int strtab_add(const void *p, size_t len)
{
	struct str *s;

	if (nstrs == capstrs) {
		uint32_t n = capstrs ? capstrs * 2 : 1024;
		struct str **tmp = realloc(strs, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		strs = tmp;
		capstrs = n;
	}
	s = malloc(sizeof(*s) + len + 1);
	if (!s)
		return -ENOMEM;
	s->len = (uint32_t)len;
	if (len)
		memcpy(s->bytes, p, len);
	s->bytes[len] = 0;
	strs[nstrs++] = s;
	return 0;
}

/* Aborts on memory exhaustion: every caller would have to, and ids must stay valid. */
uint32_t strtab_intern(const void *p, size_t len)
{
	uint64_t h;
	uint32_t i;

	if (!nstrs && strtab_add("", 0))
		abort();
	if ((nstrs + 1) * 2 > nslots && strtab_grow())
		abort();
	if (!len)
		return 0;
	h = strtab_hash(p, len);
	for (i = (uint32_t)h & (nslots - 1); slots[i]; i = (i + 1) & (nslots - 1)) {
		struct str *s = strs[slots[i] - 1];

		if (s->len == len && !memcmp(s->bytes, p, len))
			return slots[i] - 1;
	}
	if (strtab_add(p, len))
		abort();
	slots[i] = nstrs;
	return nstrs - 1;
}

const char *strtab_get(uint32_t id)
{
	return id < nstrs ? strs[id]->bytes : "";
}

uint32_t strtab_len(uint32_t id)
{
	return id < nstrs ? strs[id]->len : 0;
}

void strtab_free(void)
{
	for (uint32_t i = 0; i < nstrs; i++)
		free(strs[i]);
	free(strs);
	free(slots);
	strs = NULL;
	slots = NULL;
	nstrs = capstrs = nslots = 0;
}
