// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-report --stacks: the calls recorded in detail grouped by syscall and call stack, with
 * each group's frames under it. A group is keyed by the text of its frames, not by a stack
 * id: ids are per file, and the same stack in two files (rotated, or hosts of one build)
 * is one group. Its memory grows with the distinct (syscall, stack) pairs, never with calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "latency.h"
#include "names.h"
#include "report.h"
#include "stacks.h"
#include "strtab.h"

struct stack_group {
	uint64_t key[3]; /* the syscall's name, enum stack_kind, the frames' text (strtab ids) */
	uint64_t errors;
	struct lat lat;
};

struct stack_report {
	struct ctx *c;
	const struct env *env;
	struct hashmap map;
	struct stack_group **v;
	uint32_t n, cap;
};

struct stack_report *stack_report_new(struct ctx *c, const struct env *env)
{
	struct stack_report *sr = calloc(1, sizeof(*sr));

	if (!sr)
		return NULL;
	sr->c = c;
	sr->env = env;
	hashmap_init(&sr->map, 3);
	return sr;
}

static struct stack_group *stack_report_group(struct stack_report *sr, const uint64_t *key)
{
	struct stack_group *g = hashmap_get(&sr->map, key);

	if (g)
		return g;
	if (sr->n == sr->cap) {
		uint32_t cap = sr->cap ? sr->cap * 2 : 64;
		struct stack_group **tmp = realloc(sr->v, (size_t)cap * sizeof(*tmp));

		if (!tmp)
			return NULL;
		sr->v = tmp;
		sr->cap = cap;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	lat_init(&g->lat);
	memcpy(g->key, key, sizeof(g->key));
	if (hashmap_put(&sr->map, key, g)) {
		free(g);
		return NULL;
	}
	sr->v[sr->n++] = g;
	return g;
}

int stack_report_add(struct stack_report *sr, struct stacks *st, struct live *lv, const struct sct_syscall *sc)
{
	uint64_t key[3];
	uint32_t text;
	struct stack_group *g;

	key[0] = input_syscall_name(sr->c, lv, sc->nr, sc->abi);
	key[1] = stacks_text(st, sc->stack_id, &text);
	key[2] = text;
	g = stack_report_group(sr, key);
	if (!g || lat_add(&g->lat, sc->duration_ns))
		return -ENOMEM;
	g->errors += names_is_error(sc->ret);
	return 0;
}

static uint64_t stack_report_value(const struct stack_report *sr, const struct stack_group *g)
{
	switch (sr->env->sort) {
	case SORT_CALLS:
		return g->lat.count;
	case SORT_ERRORS:
		return g->errors;
	case SORT_AVG:
		return g->lat.count ? g->lat.sum / g->lat.count : 0;
	case SORT_MAX:
		return g->lat.max;
	case SORT_P99:
		return lat_percentile(&g->lat, 99);
	default:
		return g->lat.sum;
	}
}

static int stack_report_strcmp(const struct strtab *s, uint64_t a, uint64_t b)
{
	uint32_t la = strtab_len(s, (uint32_t)a), lb = strtab_len(s, (uint32_t)b);
	int c = memcmp(strtab_get(s, (uint32_t)a), strtab_get(s, (uint32_t)b), la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/* Largest first, then by syscall, then frames, so that equal groups print in one order. */
static int stack_report_cmp(const void *pa, const void *pb, void *arg)
{
	const struct stack_report *sr = arg;
	const struct stack_group *a = *(const struct stack_group *const *)pa;
	const struct stack_group *b = *(const struct stack_group *const *)pb;
	int c;

	if (sr->env->sort != SORT_NAME) {
		uint64_t va = stack_report_value(sr, a), vb = stack_report_value(sr, b);

		if (va != vb)
			return va > vb ? -1 : 1;
	}
	c = stack_report_strcmp(sr->c->strs, a->key[0], b->key[0]);
	if (c)
		return c;
	if (a->key[1] != b->key[1])
		return a->key[1] < b->key[1] ? -1 : 1;
	return stack_report_strcmp(sr->c->strs, a->key[2], b->key[2]);
}

static void stack_report_row(struct stack_report *sr, struct out *o, const struct stack_group *g)
{
	const struct strtab *s = sr->c->strs;
	uint64_t p99 = lat_percentile(&g->lat, 99);

	out_printf(o, "%10llu %8llu %10llu.%06u %11llu.%03u  ", (unsigned long long)g->lat.count,
		   (unsigned long long)g->errors, (unsigned long long)(g->lat.sum / 1000000000),
		   (unsigned)(g->lat.sum % 1000000000 / 1000), (unsigned long long)(p99 / 1000), (unsigned)(p99 % 1000));
	names_out_escaped(o, strtab_get(s, (uint32_t)g->key[0]), strtab_len(s, (uint32_t)g->key[0]));
	out_char(o, '\n');
	if (g->key[1] == STACK_NONE)
		out_str(o, "    no stack\n");
	else
		stacks_out_lines(o, s, (uint32_t)g->key[2], "    ");
}

int stack_report_print(struct stack_report *sr, struct out *o)
{
	uint64_t calls = 0, errors = 0, ns = 0;
	uint32_t n = sr->n;

	if (sr->n)
		qsort_r(sr->v, sr->n, sizeof(*sr->v), stack_report_cmp, sr);
	if (sr->env->top && sr->env->top < n)
		n = (uint32_t)sr->env->top;
	out_printf(o, "%10s %8s %17s %15s  %s\n", "calls", "errors", "total(s)", "p99(us)", "syscall, stack innermost first");
	for (uint32_t i = 0; i < sr->n; i++) {
		calls += sr->v[i]->lat.count;
		errors += sr->v[i]->errors;
		ns += sr->v[i]->lat.sum;
		if (i < n)
			stack_report_row(sr, o, sr->v[i]);
	}
	out_printf(o, "%10llu %8llu %10llu.%06u  total of %u group%s", (unsigned long long)calls,
		   (unsigned long long)errors, (unsigned long long)(ns / 1000000000), (unsigned)(ns % 1000000000 / 1000),
		   sr->n, sr->n == 1 ? "" : "s");
	if (n < sr->n)
		out_printf(o, " (top %u shown)", n);
	out_char(o, '\n');
	return 0;
}

void stack_report_free(struct stack_report *sr)
{
	if (!sr)
		return;
	for (uint32_t i = 0; i < sr->n; i++) {
		lat_free(&sr->v[i]->lat);
		free(sr->v[i]);
	}
	free(sr->v);
	hashmap_free(&sr->map);
	free(sr);
}
