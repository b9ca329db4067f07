// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf backend's table of tasks, keyed by tid: the syscall each one has in flight
 * (pairing enter with exit in userspace), its cgroup, start time and exit code. It grows by
 * doubling up to --max-tasks tasks; past that, a task's calls are counted, not recorded.
 * Slots are deleted by backward shifting, so no tombstones accumulate on a long recording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

#define PAIR_MIN_SLOTS 1024

int perf_pair_init(struct perf_pair *p, size_t max_tasks)
{
	memset(p, 0, sizeof(*p));
	p->nslots = PAIR_MIN_SLOTS;
	p->max = max_tasks;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	return p->slots ? 0 : -ENOMEM;
}

void perf_pair_free(struct perf_pair *p)
{
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static size_t pair_home(uint32_t tid, size_t nslots)
{
	return (tid * 2654435761u) & (nslots - 1);
}

static size_t pair_pos(const struct perf_task *slots, size_t nslots, uint32_t tid)
{
	size_t i = pair_home(tid, nslots);

	while (slots[i].tid && slots[i].tid != tid)
		i = (i + 1) & (nslots - 1);
	return i;
}

struct perf_task *perf_pair_find(struct perf_pair *p, uint32_t tid)
{
	struct perf_task *s = &p->slots[pair_pos(p->slots, p->nslots, tid)];

	return s->tid ? s : NULL;
}

static int pair_grow(struct perf_pair *p)
{
	size_t n = p->nslots * 2;
	struct perf_task *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < p->nslots; i++)
		if (p->slots[i].tid)
			slots[pair_pos(slots, n, p->slots[i].tid)] = p->slots[i];
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
	return 0;
}

struct perf_task *perf_pair_get(struct perf_pair *p, uint32_t tid)
{
	struct perf_task *s = perf_pair_find(p, tid);

	if (s)
		return s;
	if (p->used >= p->max)
		return NULL;
	if ((p->used + 1) * 2 > p->nslots && pair_grow(p))
		return NULL;
	s = &p->slots[pair_pos(p->slots, p->nslots, tid)];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->exit_code = -1;
	s->group_code = -1;
	p->used++;
	return s;
}

void perf_pair_drop(struct perf_pair *p, uint32_t tid)
{
	size_t mask = p->nslots - 1, i = pair_pos(p->slots, p->nslots, tid), j = i;

	if (!p->slots[i].tid)
		return;
	p->slots[i].tid = 0;
	p->used--;
	/* Move back every later slot of the run whose home is not between the hole and it. */
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!p->slots[j].tid)
			return;
		home = pair_home(p->slots[j].tid, p->nslots);
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			p->slots[i] = p->slots[j];
			p->slots[j].tid = 0;
			i = j;
		}
	}
}
