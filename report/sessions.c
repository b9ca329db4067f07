// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every session read, numbered over all inputs: only what outlives the session (host, file,
 * clock anchor) is kept, a few dozen bytes each, and only for the sessions the output names
 * (the footer's first lines, or all of them for the process tree), so a file of many HEADERs
 * costs what its output needs.
 */
#include <errno.h>
#include <stdlib.h>

#include "report.h"

struct sessions {
	struct sess *v;
	uint32_t n;        /* sessions added */
	uint32_t numbered; /* of them, with a HEADER */
	uint32_t kept, cap, keep;
};

struct sessions *sessions_new(uint32_t keep)
{
	struct sessions *ss = calloc(1, sizeof(struct sessions));

	if (ss)
		ss->keep = keep;
	return ss;
}

int sessions_add(struct sessions *ss, struct sess *s)
{
	bool keep = ss->kept < ss->keep;

	if (ss->n == UINT32_MAX)
		return -E2BIG;
	if (keep && ss->kept == ss->cap) {
		uint32_t n = ss->cap ? (ss->cap > UINT32_MAX / 2 ? UINT32_MAX : ss->cap * 2) : 64;
		struct sess *tmp = realloc(ss->v, (size_t)n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		ss->v = tmp;
		ss->cap = n;
	}
	s->id = ss->n++;
	s->number = ss->numbered;
	ss->numbered += !s->headless;
	if (keep)
		ss->v[ss->kept++] = *s;
	return 0;
}

const struct sess *sessions_get(const struct sessions *ss, uint32_t id)
{
	return id < ss->kept ? &ss->v[id] : NULL;
}

uint32_t sessions_count(const struct sessions *ss)
{
	return ss->n;
}

/* Blocks without a HEADER take no session number (spec/FORMAT.md, 10.5). */
void sessions_out_label(struct out *o, const struct sess *s, const struct strtab *strs)
{
	if (s->headless) {
		out_str(o, "no HEADER (damaged or missing): host unknown");
		return;
	}
	out_printf(o, "session %u: host ", s->number);
	names_out_escaped(o, strtab_get(strs, s->host), strtab_len(strs, s->host));
}

void sessions_free(struct sessions *ss)
{
	if (!ss)
		return;
	free(ss->v);
	free(ss);
}
