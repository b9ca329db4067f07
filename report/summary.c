// SPDX-License-Identifier: BSD-2-Clause
/*
 * Grouped syscall statistics. While reading, groups are keyed by raw atoms (session,
 * syscall number, task entry, cgroup entry...) that cost no string work; at the end they are
 * merged by what is printed (syscall name, cgroup path, comm, hostname), so one path seen
 * under two ids or two hosts is one row. The hot path is a compare with the last group.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct summary {
	const struct env *env;
	struct hashmap raw;
	struct group **groups, **merged;
	uint32_t ngroups, capgroups, nmerged;
	struct group *last;
	struct group ***direct;   /* --by syscall: [session][abi * NR_CACHE + nr] */
	uint32_t ndirect;
	uint64_t total_ns, calls, errors;
};

static const char *const by_names[BY_NKEYS] = { "syscall", "process", "thread", "cgroup", "comm", "host" };

struct summary *summary_new(const struct env *env)
{
	struct summary *sm = calloc(1, sizeof(*sm));

	if (!sm)
		return NULL;
	sm->env = env;
	hashmap_init(&sm->raw, env->nby);
	return sm;
}

static struct group *summary_group_new(struct summary *sm, const uint64_t *key)
{
	struct group *g;

	if (sm->ngroups == sm->capgroups) {
		uint32_t n = sm->capgroups ? sm->capgroups * 2 : 64;
		struct group **tmp = realloc(sm->groups, n * sizeof(*tmp));

		if (!tmp)
			return NULL;
		sm->groups = tmp;
		sm->capgroups = n;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	memcpy(g->key, key, sm->env->nby * sizeof(*key));
	lat_init(&g->lat);
	sm->groups[sm->ngroups++] = g;
	return g;
}

/* Labels that need the live session (syscall names) are taken when the group is made. */
static struct group *summary_group_make(struct summary *sm, struct sess *s, const struct sct_syscall *sc,
					const uint64_t *key)
{
	struct group *g = summary_group_new(sm, key);

	if (!g)
		return NULL;
	for (uint32_t k = 0; k < sm->env->nby; k++)
		if (sm->env->by[k] == BY_SYSCALL)
			g->label[k] = input_syscall_name(s, sc->nr, sc->abi);
	if (hashmap_put(&sm->raw, key, g))
		return NULL;
	return g;
}

static struct group **summary_direct(struct summary *sm, uint32_t sess)
{
	if (sess >= sm->ndirect) {
		uint32_t n = sess + 8;
		struct group ***tmp = realloc(sm->direct, n * sizeof(*tmp));

		if (!tmp)
			return NULL;
		memset(tmp + sm->ndirect, 0, (n - sm->ndirect) * sizeof(*tmp));
		sm->direct = tmp;
		sm->ndirect = n;
	}
	if (!sm->direct[sess])
		sm->direct[sess] = calloc(2 * NR_CACHE, sizeof(struct group *));
	return sm->direct[sess];
}

static int summary_key(struct summary *sm, struct sess *s, const struct sct_syscall *sc, uint64_t *key)
{
	struct task *t = NULL;

	for (uint32_t k = 0; k < sm->env->nby; k++) {
		uint32_t by = sm->env->by[k];

		if ((by == BY_PROCESS || by == BY_THREAD || by == BY_COMM) && !t) {
			t = tasks_lookup(s->id, sc->pid, sc->tid);
			if (!t)
				return -ENOMEM;
		}
		switch (by) {
		case BY_SYSCALL:
			key[k] = (uint64_t)s->id << 33 | (uint64_t)(sc->abi ? 1 : 0) << 32 | sc->nr;
			break;
		case BY_PROCESS:
			key[k] = t->process->index;
			break;
		case BY_THREAD:
			key[k] = t->index;
			break;
		case BY_CGROUP: {
			struct cgroup *cg = cgroups_get(s->id, sc->cgroup_id);

			if (!cg)
				return -ENOMEM;
			key[k] = (uint64_t)(uintptr_t)cg;
			break;
		}
		case BY_COMM:
			key[k] = t->comm;
			break;
		default:
			key[k] = s->host;
		}
	}
	return 0;
}

static struct group *summary_find(struct summary *sm, struct sess *s, const struct sct_syscall *sc)
{
	uint64_t key[BY_MAX];
	struct group *g, **slot = NULL;

	if (sm->env->nby == 1 && sm->env->by[0] == BY_SYSCALL && sc->nr < NR_CACHE) {
		struct group **d = summary_direct(sm, s->id);

		if (!d)
			return NULL;
		slot = &d[(sc->abi ? NR_CACHE : 0) + sc->nr];
		if (*slot)
			return *slot;
	}
	if (summary_key(sm, s, sc, key))
		return NULL;
	if (sm->last && !memcmp(sm->last->key, key, sm->env->nby * sizeof(key[0])))
		return sm->last;
	g = hashmap_get(&sm->raw, key);
	if (!g)
		g = summary_group_make(sm, s, sc, key);
	if (slot)
		*slot = g;
	sm->last = g;
	return g;
}

static int summary_errno(struct group *g, uint32_t e, uint64_t count)
{
	struct errcount *tmp;

	for (uint32_t i = 0; i < g->nerrs; i++)
		if (g->errs[i].err == e) {
			g->errs[i].count += count;
			return 0;
		}
	tmp = realloc(g->errs, (g->nerrs + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	g->errs = tmp;
	g->errs[g->nerrs].err = e;
	g->errs[g->nerrs++].count = count;
	return 0;
}

int summary_add(struct summary *sm, struct sess *s, const struct sct_syscall *sc)
{
	struct group *g = summary_find(sm, s, sc);

	if (!g || lat_add(&g->lat, sc->duration_ns))
		return -ENOMEM;
	if (names_is_error(sc->ret)) {
		g->errors++;
		return summary_errno(g, (uint32_t)-sc->ret, 1);
	}
	return 0;
}

/* "comm pid" or "comm pid/tid", with "@session" when several sessions were read. */
static uint32_t summary_task_label(const struct task *t, bool thread)
{
	uint32_t clen = strtab_len(t->comm);
	char buf[256];
	int n;

	if (clen > 200)
		clen = 200;
	memcpy(buf, clen ? strtab_get(t->comm) : "?", clen ? clen : 1);
	n = (int)(clen ? clen : 1);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, thread ? " %u/%u" : " %u", t->pid, t->tid);
	if (sessions_count() > 1)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "@%u", t->sess);
	return strtab_intern(buf, (size_t)n);
}

/* What a raw atom prints as, and the id rows merge by (equal labels merge, tasks never). */
static uint64_t summary_label(struct summary *sm, struct group *g, uint32_t k)
{
	switch (sm->env->by[k]) {
	case BY_SYSCALL:
		break;
	case BY_PROCESS:
	case BY_THREAD:
		g->label[k] = summary_task_label(tasks_at((uint32_t)g->key[k]), sm->env->by[k] == BY_THREAD);
		return (g->key[k] << 1) | 1;
	case BY_CGROUP:
		g->label[k] = cgroups_label((const struct cgroup *)(uintptr_t)g->key[k]);
		break;
	default: /* comm and host keys are strtab ids already */
		g->label[k] = (uint32_t)g->key[k];
	}
	return (uint64_t)g->label[k] << 1;
}

static struct group *summary_merge_one(struct summary *sm, struct hashmap *m, struct group *g)
{
	uint64_t canon[BY_MAX] = { 0 };
	struct group *dst;

	for (uint32_t k = 0; k < sm->env->nby; k++)
		canon[k] = summary_label(sm, g, k);
	dst = hashmap_get(m, canon);
	if (!dst) {
		dst = calloc(1, sizeof(*dst));
		if (!dst || hashmap_put(m, canon, dst)) {
			free(dst);
			return NULL;
		}
		lat_init(&dst->lat);
		memcpy(dst->label, g->label, sizeof(dst->label));
		sm->merged[sm->nmerged++] = dst;
	}
	if (lat_merge(&dst->lat, &g->lat))
		return NULL;
	dst->errors += g->errors;
	for (uint32_t i = 0; i < g->nerrs; i++)
		if (summary_errno(dst, g->errs[i].err, g->errs[i].count))
			return NULL;
	return dst;
}

static enum sort_key sort_by;
static uint32_t sort_nby;

static int summary_cmp_labels(const struct group *a, const struct group *b)
{
	for (uint32_t k = 0; k < sort_nby; k++) {
		int c;

		if (a->label[k] == b->label[k])
			continue;
		c = strcmp(strtab_get(a->label[k]), strtab_get(b->label[k]));
		if (c)
			return c;
	}
	return 0;
}

static uint64_t summary_sort_value(const struct group *g)
{
	switch (sort_by) {
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

/* Largest first, then by label so that equal rows always print in one order. */
static int summary_cmp(const void *pa, const void *pb)
{
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;

	if (sort_by != SORT_NAME) {
		uint64_t va = summary_sort_value(a), vb = summary_sort_value(b);

		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return summary_cmp_labels(a, b);
}

static int summary_errcmp(const void *pa, const void *pb)
{
	const struct errcount *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->err < b->err ? -1 : a->err > b->err;
}

int summary_groups(struct summary *sm, struct group ***out)
{
	struct hashmap m;

	if (!sm->merged) {
		hashmap_init(&m, sm->env->nby);
		sm->merged = calloc(sm->ngroups + 1, sizeof(*sm->merged));
		if (!sm->merged)
			return -ENOMEM;
		for (uint32_t i = 0; i < sm->ngroups; i++)
			if (!summary_merge_one(sm, &m, sm->groups[i])) {
				hashmap_free(&m);
				return -ENOMEM;
			}
		hashmap_free(&m);
		sort_by = sm->env->sort;
		sort_nby = sm->env->nby;
		qsort(sm->merged, sm->nmerged, sizeof(*sm->merged), summary_cmp);
		for (uint32_t i = 0; i < sm->nmerged; i++) {
			struct group *g = sm->merged[i];

			if (g->nerrs > 1)
				qsort(g->errs, g->nerrs, sizeof(*g->errs), summary_errcmp);
			sm->total_ns += g->lat.sum;
			sm->calls += g->lat.count;
			sm->errors += g->errors;
		}
	}
	*out = sm->merged;
	if (sm->env->top && sm->env->top < sm->nmerged)
		return (int)sm->env->top;
	return (int)sm->nmerged;
}

static void summary_out_us(struct out *o, uint64_t ns)
{
	out_printf(o, " %11llu.%03u", (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

static void summary_out_row(struct summary *sm, struct out *o, const struct group *g, const size_t *widths)
{
	const struct lat *l = &g->lat;
	uint64_t pct = sm->total_ns ? (uint64_t)((unsigned __int128)l->sum * 10000 / sm->total_ns) : 0;

	out_printf(o, "%10llu %8llu %3u.%02u %10llu.%06u", (unsigned long long)l->count,
		   (unsigned long long)g->errors, (unsigned)(pct / 100), (unsigned)(pct % 100),
		   (unsigned long long)(l->sum / 1000000000), (unsigned)(l->sum % 1000000000 / 1000));
	summary_out_us(o, l->count ? l->sum / l->count : 0);
	summary_out_us(o, l->count ? l->min : 0);
	summary_out_us(o, l->max);
	summary_out_us(o, lat_percentile(l, 50));
	summary_out_us(o, lat_percentile(l, 90));
	summary_out_us(o, lat_percentile(l, 99));
	for (uint32_t k = 0; k < sm->env->nby; k++) {
		uint32_t len = strtab_len(g->label[k]);

		out_str(o, "  ");
		names_out_escaped(o, len ? strtab_get(g->label[k]) : "?", len ? len : 1);
		if (k + 1 < sm->env->nby)
			for (size_t w = len ? len : 1; w < widths[k]; w++)
				out_char(o, ' ');
	}
	out_char(o, '\n');
}

static void summary_out_errors(struct out *o, const struct group *g)
{
	char tmp[16];

	if (!g->nerrs)
		return;
	out_str(o, "           errors:");
	for (uint32_t i = 0; i < g->nerrs; i++)
		out_printf(o, " %s %llu", names_errno((int)g->errs[i].err, tmp),
			   (unsigned long long)g->errs[i].count);
	out_char(o, '\n');
}

int summary_print(struct summary *sm, struct out *o)
{
	struct group **gs;
	size_t widths[BY_MAX] = { 0 };
	int n = summary_groups(sm, &gs);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		for (uint32_t k = 0; k < sm->env->nby; k++)
			if (strtab_len(gs[i]->label[k]) > widths[k])
				widths[k] = strtab_len(gs[i]->label[k]);
	out_printf(o, "%10s %8s %6s %17s %15s %15s %15s %15s %15s %15s", "calls", "errors", "%time",
		   "total(s)", "avg(us)", "min(us)", "max(us)", "p50(us)", "p90(us)", "p99(us)");
	for (uint32_t k = 0; k < sm->env->nby; k++) {
		const char *name = by_names[sm->env->by[k]];

		out_printf(o, "  %-*s", k + 1 < sm->env->nby ? (int)widths[k] : 0, name);
		if (strlen(name) > widths[k])
			widths[k] = strlen(name);
	}
	out_char(o, '\n');
	for (int i = 0; i < n; i++) {
		summary_out_row(sm, o, gs[i], widths);
		if (sm->env->errors)
			summary_out_errors(o, gs[i]);
	}
	out_printf(o, "%10llu %8llu %6s %10llu.%06u  total of %u group%s", (unsigned long long)sm->calls,
		   (unsigned long long)sm->errors, n ? "100.00" : "0.00",
		   (unsigned long long)(sm->total_ns / 1000000000), (unsigned)(sm->total_ns % 1000000000 / 1000),
		   sm->nmerged, sm->nmerged == 1 ? "" : "s");
	if ((uint32_t)n < sm->nmerged)
		out_printf(o, " (top %d shown)", n);
	out_char(o, '\n');
	return 0;
}

uint32_t summary_nby(const struct summary *sm)
{
	return sm->env->nby;
}

void summary_free(struct summary *sm)
{
	if (!sm)
		return;
	for (uint32_t i = 0; i < sm->ngroups; i++) {
		lat_free(&sm->groups[i]->lat);
		free(sm->groups[i]->errs);
		free(sm->groups[i]);
	}
	for (uint32_t i = 0; i < sm->nmerged; i++) {
		lat_free(&sm->merged[i]->lat);
		free(sm->merged[i]->errs);
		free(sm->merged[i]);
	}
	for (uint32_t i = 0; i < sm->ndirect; i++)
		free(sm->direct[i]);
	free(sm->direct);
	free(sm->groups);
	free(sm->merged);
	hashmap_free(&sm->raw);
	free(sm);
}
