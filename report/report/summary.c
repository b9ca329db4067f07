// SPDX-License-Identifier: BSD-2-Clause
/*
 * Grouped syscall statistics. While reading, groups are keyed by atoms that cost no string
 * work (interned syscall name, task entry, cgroup entry...); at the end they are merged by
 * what is printed (cgroup path, comm, hostname), so one path seen under two ids or two hosts
 * is one row. Keys never name a session: a file of many sessions costs no group per session.
 * A cgroup is keyed by its interned path; one without a path (yet) by its entry, until its
 * session ends and the group settles on its label. The hot path is a compare with the last
 * group, or the live session's table by number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_table.h"
#include "filter.h"
#include "hashmap.h"
#include "latency.h"
#include "names.h"
#include "outbuf.h"
#include "peer_text.h"
#include "report.h"
#include "sessions.h"
#include "sockaddr_text.h"
#include "socket_table.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

/* The direct tables of a session, one per cgroup with --by cgroup,syscall; calls of more go the whole way. */
#define DIRECT_CGROUPS 1024

struct summary {
	struct ctx *c;
	const struct env *env;
	struct hashmap raw;
	struct group **groups, **merged;
	uint32_t ngroups, capgroups, nmerged;
	struct group *last;
	/* --by syscall, --by cgroup,syscall: per cgroup (0 for all), [abi * NR_CACHE + nr] of direct_sess */
	struct hashmap direct;
	struct group **direct_tables[DIRECT_CGROUPS], **direct_last;
	uint64_t direct_last_cgroup;
	uint32_t ndirect, direct_sess;
	bool direct_on;           /* the groups are keyed by syscall, or by cgroup and syscall */
	bool direct_cgroup;       /* by cgroup and syscall: a table per cgroup */
	uint32_t sess, tail;      /* the live session, and its first group in groups[] */
	uint64_t total_ns, calls, errors;
	bool samples;             /* --by event: groups count samples, not syscalls */
	bool named;               /* a key is the syscall's or the event's name */
	bool paths;               /* a key is the call's path: calls without one are not counted */
	bool peers;               /* a key is the call's socket address: calls without one are "-" */
};

/* What a group key is taken from: a syscall or a sample. */
struct subject {
	uint32_t pid, tid;
	uint64_t cgroup_id;
	uint64_t time_ns;         /* which task (spec/FORMAT.md 9.2) */
	uint64_t name_ns;         /* its name then: a call's return, a sample's time */
	uint32_t name;            /* strtab id: syscall or event name (when sm->named) */
	uint32_t path;            /* strtab id: the first captured path (when sm->paths) */
	uint32_t peer;            /* strtab id: the peer of the captured address (when sm->peers) */
};

static const char *const by_names[BY_NKEYS] = { "syscall", "process", "thread", "cgroup", "comm", "host",
						"event", "path", "peer" };

struct summary *summary_new(struct ctx *c, const struct env *env)
{
	struct summary *sm = calloc(1, sizeof(*sm));

	if (!sm)
		return NULL;
	sm->c = c;
	sm->env = env;
	for (uint32_t k = 0; k < env->nby; k++) {
		sm->samples |= env->by[k] == BY_EVENT;
		sm->named |= env->by[k] == BY_EVENT || env->by[k] == BY_SYSCALL;
		sm->paths |= env->by[k] == BY_PATH;
		sm->peers |= env->by[k] == BY_PEER;
	}
	sm->direct_cgroup = env->nby == 2 && ((env->by[0] == BY_CGROUP && env->by[1] == BY_SYSCALL) ||
					      (env->by[0] == BY_SYSCALL && env->by[1] == BY_CGROUP));
	sm->direct_on = sm->direct_cgroup || (env->nby == 1 && env->by[0] == BY_SYSCALL);
	hashmap_init(&sm->raw, env->nby);
	hashmap_init(&sm->direct, 1);
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

static struct group *summary_group_make(struct summary *sm, const uint64_t *key)
{
	struct group *g = summary_group_new(sm, key);

	if (!g || hashmap_put(&sm->raw, key, g))
		return NULL;
	return g;
}

static void summary_direct_drop(struct summary *sm)
{
	for (uint32_t i = 0; i < sm->ndirect; i++)
		free(sm->direct_tables[i]);
	sm->ndirect = 0;
	sm->direct_last = NULL;
	hashmap_free(&sm->direct);
	hashmap_init(&sm->direct, 1);
}

/*
 * The direct table of a call's cgroup (any cgroup: --by syscall), or NULL when it has none
 * (more than DIRECT_CGROUPS of them, out of memory): the call goes the whole way. Numbers mean
 * other names in another session: the tables serve the live session only.
 */
static struct group **summary_direct(struct summary *sm, uint32_t sess, uint64_t cgroup)
{
	struct group **t;

	if (sm->direct_sess != sess) {
		summary_direct_drop(sm);
		sm->direct_sess = sess;
	}
	if (!sm->direct_cgroup)
		cgroup = 0;
	if (sm->direct_last && sm->direct_last_cgroup == cgroup)
		return sm->direct_last;
	t = hashmap_get(&sm->direct, &cgroup);
	if (!t) {
		if (sm->ndirect == DIRECT_CGROUPS)
			return NULL;
		t = calloc(2 * NR_CACHE, sizeof(*t));
		if (!t || hashmap_put(&sm->direct, &cgroup, t)) {
			free(t);
			return NULL;
		}
		sm->direct_tables[sm->ndirect++] = t;
	}
	sm->direct_last = t;
	sm->direct_last_cgroup = cgroup;
	return t;
}

/* Odd: a strtab id; even: a struct cgroup (aligned) whose path is not known yet. */
static uint64_t summary_label_key(uint32_t label)
{
	return (uint64_t)label << 1 | 1;
}

static int summary_key(struct summary *sm, struct live *lv, const struct subject *sc, uint64_t *key)
{
	struct task *t = NULL;

	for (uint32_t k = 0; k < sm->env->nby; k++) {
		uint32_t by = sm->env->by[k];

		if ((by == BY_PROCESS || by == BY_THREAD || by == BY_COMM) && !t) {
			t = tasks_lookup(lv->tasks, lv->s.id, sc->pid, sc->tid, sc->time_ns);
			if (!t)
				return -ENOMEM;
		}
		switch (by) {
		case BY_SYSCALL:
		case BY_EVENT:
			key[k] = sc->name;
			break;
		case BY_PROCESS:
			key[k] = t->process->index;
			break;
		case BY_THREAD:
			key[k] = t->index;
			break;
		case BY_CGROUP: {
			struct cgroup *cg = cgroups_get(lv->cgroups, lv->s.id, sc->cgroup_id);

			if (!cg)
				return -ENOMEM;
			key[k] = cg->path ? summary_label_key(cg->path - 1) : (uint64_t)(uintptr_t)cg;
			break;
		}
		case BY_COMM:
			key[k] = tasks_comm(lv->tasks, t, sc->name_ns);
			break;
		case BY_PATH:
			key[k] = sc->path;
			break;
		case BY_PEER:
			key[k] = sc->peer;
			break;
		default:
			key[k] = lv->s.host;
		}
	}
	return 0;
}

/* The group of a subject; slot: the direct table's entry to fill, or NULL. */
static struct group *summary_find_key(struct summary *sm, struct live *lv, const struct subject *sj,
				      struct group **slot)
{
	uint64_t key[BY_MAX];
	struct group *g;

	if (summary_key(sm, lv, sj, key))
		return NULL;
	if (sm->last && !memcmp(sm->last->key, key, sm->env->nby * sizeof(key[0])))
		return sm->last;
	g = hashmap_get(&sm->raw, key);
	if (!g)
		g = summary_group_make(sm, key);
	if (slot)
		*slot = g;
	sm->last = g;
	return g;
}

/* The peer a call's captured socket address names; "-" for a call without one. */
static uint32_t summary_peer(struct summary *sm, struct live *lv, const struct sct_syscall *sc)
{
	char text[PEER_TEXT_MAX];
	int netlink = -1;

	if (!sockaddr_captured(sc))
		return strtab_intern(sm->c->strs, "-", 1);
	if (sm->c->sockets)
		netlink = socket_table_netlink(sm->c->sockets, lv->s.id, sc->pid, sc->arg0);
	return strtab_intern(sm->c->strs, text, peer_text(text, sc->addr.ptr, sc->addr.len, netlink));
}

int summary_follow_sockets(struct ctx *c, struct live *lv, const struct sct_syscall *sc)
{
	if (!c->sockets || sc->abi != SCT_ABI_NATIVE)
		return 0;
	return socket_table_note(c->sockets, lv->s.id,
				 strtab_get(c->strs, input_syscall_name(c, lv, sc->nr, sc->abi)), sc);
}

static struct group *summary_find(struct summary *sm, struct live *lv, const struct sct_syscall *sc)
{
	struct subject sj;
	struct group **slot = NULL;

	if (sm->direct_on && sc->nr < NR_CACHE) {
		struct group **d = summary_direct(sm, lv->s.id, sc->cgroup_id);

		slot = d ? &d[(sc->abi ? NR_CACHE : 0) + sc->nr] : NULL;
		if (slot && *slot)
			return *slot;
	}
	sj = (struct subject){ sc->pid, sc->tid, sc->cgroup_id, sc->time_ns, sct_syscall_name_ns(sc), 0, 0, 0 };
	if (sm->named)
		sj.name = input_syscall_name(sm->c, lv, sc->nr, sc->abi);
	if (sm->paths)
		sj.path = strtab_intern(sm->c->strs, sc->path.ptr, sc->path.len);
	if (sm->peers)
		sj.peer = summary_peer(sm, lv, sc);
	return summary_find_key(sm, lv, &sj, slot);
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

static int summary_fold(struct group *dst, const struct group *g)
{
	if (lat_merge(&dst->lat, &g->lat))
		return -ENOMEM;
	dst->errors += g->errors;
	dst->noreturn += g->noreturn;
	for (uint32_t i = 0; i < g->nerrs; i++)
		if (summary_errno(dst, g->errs[i].err, g->errs[i].count))
			return -ENOMEM;
	return 0;
}

static void summary_group_free(struct group *g)
{
	if (!g)
		return;
	lat_free(&g->lat);
	free(g->errs);
	free(g);
}

/* Rekeys g by the labels of its pathless cgroups; 1 when it was folded into another group. */
static int summary_settle_one(struct summary *sm, struct group *g)
{
	uint64_t key[BY_MAX];
	struct group *dst;
	bool moved = false;

	memcpy(key, g->key, sizeof(key));
	for (uint32_t k = 0; k < sm->env->nby; k++)
		if (sm->env->by[k] == BY_CGROUP && !(key[k] & 1)) {
			key[k] = summary_label_key(cgroups_label(sm->c->cgroups,
								 (struct cgroup *)(uintptr_t)key[k]));
			moved = true;
		}
	if (!moved)
		return 0;
	hashmap_remove(&sm->raw, g->key);
	dst = hashmap_get(&sm->raw, key);
	if (dst)
		return summary_fold(dst, g) ? -ENOMEM : 1;
	memcpy(g->key, key, sizeof(key));
	return hashmap_put(&sm->raw, key, g);
}

/* A session is over: its pathless cgroups are named for good, so their groups merge by name. */
static int summary_settle(struct summary *sm)
{
	uint32_t keep = sm->tail;

	for (uint32_t i = sm->tail; i < sm->ngroups; i++) {
		struct group *g = sm->groups[i];
		int n = summary_settle_one(sm, g);

		if (n < 0)
			return n;
		if (n)
			summary_group_free(g);
		else
			sm->groups[keep++] = g;
	}
	sm->ngroups = keep;
	sm->last = NULL;
	return 0;
}

/* A new session: the groups of the one before settle on their labels. */
static int summary_session(struct summary *sm, struct live *lv)
{
	if (lv->s.id == sm->sess)
		return 0;
	if (summary_settle(sm))
		return -ENOMEM;
	sm->sess = lv->s.id;
	sm->tail = sm->ngroups;
	return 0;
}

int summary_add_sample(struct summary *sm, struct live *lv, const struct sct_sample *sample)
{
	struct subject sj = { sample->pid, sample->tid, sample->cgroup_id, sample->time_ns, sample->time_ns, 0, 0, 0 };
	struct group *g;

	if (summary_session(sm, lv))
		return -ENOMEM;
	sj.name = input_event_name(sm->c, lv, sample);
	g = summary_find_key(sm, lv, &sj, NULL);
	if (!g)
		return -ENOMEM;
	/* a sample has no duration: only the count of the latency record is used */
	g->lat.count++;
	return 0;
}

int summary_add(struct summary *sm, struct live *lv, const struct sct_syscall *sc)
{
	struct group *g;

	if (summary_session(sm, lv))
		return -ENOMEM;
	/* --by path: the calls whose first path was captured; a rename counts under its source */
	if (sm->paths && !(sc->path_flags & SCT_PATH_CAPTURED))
		return 0;
	g = summary_find(sm, lv, sc);
	if (!g)
		return -ENOMEM;
	/* as strace -c counts exit_group: a call, with no time of its own (nothing to time) */
	if (sc->unfinished == NAMES_NO_RETURN) {
		g->noreturn++;
		return 0;
	}
	if (lat_add(&g->lat, sc->duration_ns))
		return -ENOMEM;
	if (names_is_error(sc->ret)) {
		g->errors++;
		return summary_errno(g, (uint32_t)-sc->ret, 1);
	}
	return 0;
}

uint32_t summary_batch_lazy(const struct summary *sm)
{
	/* the tables' keys and the histograms' values are read on every row; the rest by a new group */
	if (!sm->direct_on)
		return 0;
	return SCT_BATCH_TIME | SCT_BATCH_PID | SCT_BATCH_TID | (sm->direct_cgroup ? 0 : SCT_BATCH_CGROUP_ID);
}

/* Row i of b the long way: a call unfinished or of no group yet (the batch filled first). */
static int summary_add_row(struct summary *sm, struct live *lv, struct input *in, const struct sct_syscall_batch *b,
			   uint32_t i, bool *filled)
{
	struct sct_syscall sc;

	if ((uint8_t)b->unfinished[i] == NAMES_IN_FLIGHT)
		return 0;
	if (!*filled) {
		input_batch_fill(in);
		*filled = true;
	}
	memset(&sc, 0, sizeof(sc));
	input_batch_row(b, i, &sc);
	return summary_add(sm, lv, &sc);
}

/*
 * summary_add() of each call of b that was not in flight at the stop, grouped by syscall (and
 * cgroup): a call that returned, whose group is in its direct table, goes straight to it; any
 * other the whole way.
 *
 * Inlined once by cgroup and once not, so that the loop reloads neither that choice nor the
 * table after each histogram store (which might alias them).
 */
static __attribute__((always_inline)) inline int summary_direct_rows(struct summary *sm, struct live *lv,
								      struct input *in,
								      const struct sct_syscall_batch *b,
								      bool by_cgroup)
{
	/* by syscall alone: one table for the whole batch, which is of one session */
	struct group **const all = by_cgroup ? NULL : summary_direct(sm, lv->s.id, 0);
	bool filled = false;
	int n;

	for (uint32_t i = 0; i < b->n; i++) {
		uint64_t nr = b->nr[i], ret = b->ret[i];
		struct group **d = by_cgroup ? summary_direct(sm, lv->s.id, b->cgroup_id[i]) : all;
		struct group *g = NULL;

		if (__builtin_expect(d && nr < NR_CACHE && !b->unfinished[i], 1))
			g = d[((uint8_t)b->abi[i] ? NR_CACHE : 0) + nr];
		if (__builtin_expect(!g, 0)) {
			n = summary_add_row(sm, lv, in, b, i, &filled);
			if (n)
				return n;
			continue;
		}
		if (lat_add(&g->lat, b->duration_ns[i]))
			return -ENOMEM;
		if (__builtin_expect(names_is_error((int64_t)ret), 0)) {
			g->errors++;
			if (summary_errno(g, (uint32_t)-(int64_t)ret, 1))
				return -ENOMEM;
		}
	}
	return 0;
}

static int summary_add_direct(struct summary *sm, struct live *lv, struct input *in, const struct sct_syscall_batch *b)
{
	return sm->direct_cgroup ? summary_direct_rows(sm, lv, in, b, true) : summary_direct_rows(sm, lv, in, b, false);
}

int summary_add_batch(struct summary *sm, struct live *lv, struct input *in, const struct sct_syscall_batch *b)
{
	struct sct_syscall sc;
	int n;

	if (summary_session(sm, lv))
		return -ENOMEM;
	if (sm->direct_on)
		return summary_add_direct(sm, lv, in, b);
	input_batch_fill(in);
	memset(&sc, 0, sizeof(sc));
	for (uint32_t i = 0; i < b->n; i++) {
		input_batch_row(b, i, &sc);
		if (sc.unfinished == NAMES_IN_FLIGHT)
			continue;
		n = summary_add(sm, lv, &sc);
		if (n)
			return n;
	}
	return 0;
}

int summary_add_totals(struct summary *sm, struct live *lv, const struct sct_totals *t)
{
	struct subject sj = { t->pid, t->pid, t->cgroup_id, filter_totals_task_ns(t), t->time_ns, 0, 0, 0 };
	struct group *g;

	if (summary_session(sm, lv))
		return -ENOMEM;
	if (sm->named)
		sj.name = input_syscall_name(sm->c, lv, t->nr, t->abi);
	g = summary_find_key(sm, lv, &sj, NULL);
	if (!g || lat_add_totals(&g->lat, t))
		return -ENOMEM;
	g->errors += t->errors;
	return 0;
}

int summary_add_errno(struct summary *sm, struct live *lv, const struct sct_syscall *sc)
{
	struct group *g;

	if (!names_is_error(sc->ret))
		return 0;
	if (summary_session(sm, lv))
		return -ENOMEM;
	g = summary_find(sm, lv, sc);
	return g ? summary_errno(g, (uint32_t)-sc->ret, 1) : -ENOMEM;
}

/* "comm pid" or "comm pid/tid", with "@session" when several sessions were read. */
static uint32_t summary_task_label(struct summary *sm, const struct task *t, bool thread)
{
	struct strtab *strs = sm->c->strs;
	uint32_t clen = strtab_len(strs, t->comm), id;
	/* the whole comm (a file's may be 64 KiB, NULs included), then at most " 4294967295/4294967295@4294967295" */
	char *buf = malloc((size_t)clen + 40);
	size_t n = clen ? clen : 1;

	if (!buf)
		abort(); /* as strtab_intern() does: the ids handed out must stay valid */
	memcpy(buf, clen ? strtab_get(strs, t->comm) : "?", n);
	n += (size_t)snprintf(buf + n, 40, thread ? " %u/%u" : " %u", t->pid, t->tid);
	if (sessions_count(sm->c->sessions) > 1)
		n += (size_t)snprintf(buf + n, (size_t)clen + 40 - n, "@%u", sessions_get(sm->c->sessions, t->sess)->number);
	id = strtab_intern(strs, buf, n);
	free(buf);
	return id;
}

/* What a raw atom prints as, and the id rows merge by (equal labels merge, tasks never). */
static uint64_t summary_label(struct summary *sm, struct group *g, uint32_t k)
{
	switch (sm->env->by[k]) {
	case BY_PROCESS:
	case BY_THREAD:
		g->label[k] = summary_task_label(sm, tasks_at(sm->c->tasks, (uint32_t)g->key[k]),
						 sm->env->by[k] == BY_THREAD);
		return (g->key[k] << 1) | 1;
	case BY_CGROUP:
		g->label[k] = g->key[k] & 1 ? (uint32_t)(g->key[k] >> 1)
					    : cgroups_label(sm->c->cgroups, (struct cgroup *)(uintptr_t)g->key[k]);
		break;
	default: /* syscall, comm, host and path keys are strtab ids already */
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
	return summary_fold(dst, g) ? NULL : dst;
}

static int summary_cmp_labels(const struct summary *sm, const struct group *a, const struct group *b)
{
	for (uint32_t k = 0; k < sm->env->nby; k++) {
		int c;

		if (a->label[k] == b->label[k])
			continue;
		c = strcmp(strtab_get(sm->c->strs, a->label[k]), strtab_get(sm->c->strs, b->label[k]));
		if (c)
			return c;
	}
	return 0;
}

static uint64_t summary_sort_value(const struct summary *sm, const struct group *g)
{
	if (sm->samples && sm->env->sort != SORT_NAME)
		return g->lat.count;
	switch (sm->env->sort) {
	case SORT_CALLS:
		return g->lat.count + g->noreturn;
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
static int summary_cmp(const void *pa, const void *pb, void *arg)
{
	const struct summary *sm = arg;
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;

	if (sm->env->sort != SORT_NAME) {
		uint64_t va = summary_sort_value(sm, a), vb = summary_sort_value(sm, b);

		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return summary_cmp_labels(sm, a, b);
}

static int summary_errcmp(const void *pa, const void *pb)
{
	const struct errcount *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->err < b->err ? -1 : a->err > b->err;
}

/* The raw groups are all folded into merged ones: what pointed at them goes too. */
static void summary_drop_raw(struct summary *sm)
{
	sm->ngroups = 0;
	sm->tail = 0;
	sm->last = NULL;
	summary_direct_drop(sm);
	hashmap_free(&sm->raw);
	hashmap_init(&sm->raw, sm->env->nby);
}

int summary_groups(struct summary *sm, struct group ***out)
{
	struct hashmap m;

	if (!sm->merged) {
		if (tasks_link(sm->c->tasks)) /* task labels name a task by its last name */
			return -ENOMEM;
		hashmap_init(&m, sm->env->nby);
		sm->merged = calloc(sm->ngroups + 1, sizeof(*sm->merged));
		if (!sm->merged)
			return -ENOMEM;
		/* each raw group goes as it is folded: the peak is one copy of the groups, not two */
		for (uint32_t i = 0; i < sm->ngroups; i++) {
			if (!summary_merge_one(sm, &m, sm->groups[i])) {
				hashmap_free(&m);
				return -ENOMEM;
			}
			summary_group_free(sm->groups[i]);
			sm->groups[i] = NULL;
		}
		hashmap_free(&m);
		summary_drop_raw(sm);
		qsort_r(sm->merged, sm->nmerged, sizeof(*sm->merged), summary_cmp, sm);
		for (uint32_t i = 0; i < sm->nmerged; i++) {
			struct group *g = sm->merged[i];

			if (g->nerrs > 1)
				qsort(g->errs, g->nerrs, sizeof(*g->errs), summary_errcmp);
			sm->total_ns += g->lat.sum;
			sm->calls += g->lat.count + g->noreturn;
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

/* Labels print escaped, "?" when empty. */
static size_t summary_label_width(const struct summary *sm, uint32_t label)
{
	uint32_t len = strtab_len(sm->c->strs, label);

	return len ? names_escaped_len(strtab_get(sm->c->strs, label), len) : 1;
}

static void summary_out_label(const struct summary *sm, struct out *o, uint32_t label)
{
	uint32_t len = strtab_len(sm->c->strs, label);

	names_out_escaped(o, len ? strtab_get(sm->c->strs, label) : "?", len ? len : 1);
}

static void summary_out_labels(struct summary *sm, struct out *o, const struct group *g,
			       const size_t *widths)
{
	for (uint32_t k = 0; k < sm->env->nby; k++) {
		out_str(o, "  ");
		summary_out_label(sm, o, g->label[k]);
		if (k + 1 < sm->env->nby)
			for (size_t w = summary_label_width(sm, g->label[k]); w < widths[k]; w++)
				out_char(o, ' ');
	}
	out_char(o, '\n');
}

static void summary_out_row(struct summary *sm, struct out *o, const struct group *g, const size_t *widths)
{
	const struct lat *l = &g->lat;
	uint64_t pct = sm->total_ns ? (uint64_t)((unsigned __int128)l->sum * 10000 / sm->total_ns) : 0;

	out_printf(o, "%10llu %8llu %3u.%02u %10llu.%06u", (unsigned long long)(l->count + g->noreturn),
		   (unsigned long long)g->errors, (unsigned)(pct / 100), (unsigned)(pct % 100),
		   (unsigned long long)(l->sum / 1000000000), (unsigned)(l->sum % 1000000000 / 1000));
	summary_out_us(o, l->count ? l->sum / l->count : 0);
	summary_out_us(o, l->count ? l->min : 0);
	summary_out_us(o, l->max);
	summary_out_us(o, lat_percentile(l, 50));
	summary_out_us(o, lat_percentile(l, 90));
	summary_out_us(o, lat_percentile(l, 99));
	summary_out_labels(sm, o, g, widths);
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

/* --by event: samples per group and their share of all samples. */
static void summary_out_samples(struct summary *sm, struct out *o, struct group **gs, int n,
				const size_t *widths)
{
	for (int i = 0; i < n; i++) {
		uint64_t c = gs[i]->lat.count;
		uint64_t pct = sm->calls ? (uint64_t)((unsigned __int128)c * 10000 / sm->calls) : 0;

		out_printf(o, "%10llu %3u.%02u", (unsigned long long)c, (unsigned)(pct / 100),
			   (unsigned)(pct % 100));
		summary_out_labels(sm, o, gs[i], widths);
	}
	out_printf(o, "%10llu %6s  total of %u group%s", (unsigned long long)sm->calls,
		   n ? "100.00" : "0.00", sm->nmerged, sm->nmerged == 1 ? "" : "s");
	if ((uint32_t)n < sm->nmerged)
		out_printf(o, " (top %d shown)", n);
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
			if (summary_label_width(sm, gs[i]->label[k]) > widths[k])
				widths[k] = summary_label_width(sm, gs[i]->label[k]);
	if (sm->samples)
		out_printf(o, "%10s %6s", "samples", "%");
	else
		out_printf(o, "%10s %8s %6s %17s %15s %15s %15s %15s %15s %15s", "calls", "errors", "%time",
			   "total(s)", "avg(us)", "min(us)", "max(us)", "p50(us)", "p90(us)", "p99(us)");
	for (uint32_t k = 0; k < sm->env->nby; k++) {
		const char *name = by_names[sm->env->by[k]];

		out_printf(o, "  %-*s", k + 1 < sm->env->nby ? (int)widths[k] : 0, name);
		if (strlen(name) > widths[k])
			widths[k] = strlen(name);
	}
	out_char(o, '\n');
	if (sm->samples) {
		summary_out_samples(sm, o, gs, n, widths);
		return 0;
	}
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
	for (uint32_t i = 0; i < sm->ngroups; i++)
		summary_group_free(sm->groups[i]);
	for (uint32_t i = 0; i < sm->nmerged; i++)
		summary_group_free(sm->merged[i]);
	summary_direct_drop(sm);
	hashmap_free(&sm->direct);
	free(sm->groups);
	free(sm->merged);
	hashmap_free(&sm->raw);
	free(sm);
}

void summary_totals(const struct summary *sm, struct summary_totals *t)
{
	t->calls = sm->calls;
	t->errors = sm->errors;
	t->total_ns = sm->total_ns;
	t->ngroups = sm->nmerged;
	t->samples = sm->samples;
}

const char *summary_by_name(uint32_t by)
{
	return by < BY_NKEYS ? by_names[by] : "?";
}
