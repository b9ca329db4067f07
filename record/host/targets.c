// SPDX-License-Identifier: BSD-2-Clause
/*
 * The targets map from /proc: -p PIDs with all their threads and descendants, -t TIDs with
 * their descendants, the command after --. Each thread group's task list is read once per
 * pass, so N threads cost O(N) reads. BPF keeps the map up to date once attached; these
 * passes cover what existed before.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "../record.h"

static void idset_free(struct idset *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

static size_t idset_pos(const uint32_t *slots, size_t nslots, uint32_t id)
{
	size_t i = (id * 2654435761u) & (nslots - 1);

	while (slots[i] && slots[i] != id)
		i = (i + 1) & (nslots - 1);
	return i;
}

/* 1 if added, 0 if present, -ENOMEM. */
static int idset_add(struct idset *s, uint32_t id)
{
	if ((s->used + 1) * 2 > s->nslots) {
		size_t n = s->nslots ? s->nslots * 2 : 64;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < s->nslots; i++)
			if (s->slots[i])
				slots[idset_pos(slots, n, s->slots[i])] = s->slots[i];
		free(s->slots);
		s->slots = slots;
		s->nslots = n;
	}
	size_t i = idset_pos(s->slots, s->nslots, id);

	if (s->slots[i] == id)
		return 0;
	s->slots[i] = id;
	s->used++;
	return 1;
}

/* A pass over /proc. */
struct walk {
	struct targets *t;
	struct idset groups;      /* thread groups already read this pass */
	uint32_t *stack;          /* thread groups still to read */
	size_t nstack, capstack;
};

/*
 * The one place where userspace changes the map, so the count BPF keeps with it stays
 * right. 0 when added, -EEXIST, -E2BIG when full, or another -errno.
 */
static int targets_add(struct targets *t, uint32_t tid)
{
	__u8 one = 1;

	if (bpf_map_update_elem(t->map_fd, &tid, &one, BPF_NOEXIST))
		return -errno;
	__atomic_fetch_add(t->count, 1, __ATOMIC_RELAXED);
	return 0;
}

/* A tid no longer in the map (already gone: nothing to count). */
static void targets_del(struct targets *t, uint32_t tid)
{
	if (!bpf_map_delete_elem(t->map_fd, &tid))
		__atomic_fetch_sub(t->count, 1, __ATOMIC_RELAXED);
}

static int target_insert(struct walk *w, uint32_t tid)
{
	int err;

	/* Perf events follow the targets too: each tid is handed over once. No map: perf only. */
	if (w->t->insert) {
		err = idset_add(&w->t->hooked, tid);
		if (err > 0)
			err = w->t->insert(w->t->insert_ctx, tid);
		if (err < 0 || w->t->map_fd < 0)
			return err < 0 ? err : 0;
	}
	err = targets_add(w->t, tid);

	if (!err)
		return idset_add(&w->t->inserted, tid) < 0 ? -ENOMEM : 0;
	if (err == -EEXIST)
		return 0;
	if (err == -E2BIG)
		return idset_add(&w->t->not_fit, tid) < 0 ? -ENOMEM : 0;
	return err;
}

static int stack_push(struct walk *w, uint32_t pid)
{
	if (w->nstack == w->capstack) {
		size_t n = w->capstack ? w->capstack * 2 : 64;
		uint32_t *tmp = realloc(w->stack, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		w->stack = tmp;
		w->capstack = n;
	}
	w->stack[w->nstack++] = pid;
	return 0;
}

/* Queue the children that thread tid of pid forked. A vanished thread has none. */
static int children_queue(struct walk *w, uint32_t pid, uint32_t tid)
{
	char path[64];
	unsigned long child;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/children", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!err && fscanf(f, "%lu", &child) == 1)
		if (child && child <= UINT32_MAX)
			err = stack_push(w, child);
	fclose(f);
	return err;
}

int proc_each_id(const char *path, proc_id_fn fn, void *ctx)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	int err = 0;

	/* Gone before we could read it: not an error, a target may exit any time. */
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		char *end;
		unsigned long id = strtoul(d->d_name, &end, 10);

		if (!*end && id && id <= UINT32_MAX)
			err = fn(ctx, id);
	}
	closedir(dir);
	return err;
}

struct group {
	struct walk *w;
	uint32_t pid;
};

static int group_thread(void *ctx, uint32_t tid)
{
	struct group *g = ctx;
	int err = target_insert(g->w, tid);

	return err ? err : children_queue(g->w, g->pid, tid);
}

/* Insert every thread of pid and queue their children. */
static int group_read(struct walk *w, uint32_t pid)
{
	struct group g = { .w = w, .pid = pid };
	char path[64];
	int err;

	if ((pid_t)pid == getpid())
		return 0;
	err = idset_add(&w->groups, pid);
	if (err <= 0)
		return err;
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	return proc_each_id(path, group_thread, &g);
}

static int walk_drain(struct walk *w)
{
	int err = 0;

	while (!err && w->nstack)
		err = group_read(w, w->stack[--w->nstack]);
	return err;
}

int proc_tgid(uint32_t tid, uint32_t *tgid)
{
	char path[64], line[256];
	unsigned long v;
	FILE *f;
	int err = -ESRCH;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %lu", &v) == 1) {
			*tgid = v;
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

static int walk_thread(struct walk *w, uint32_t tid)
{
	uint32_t pid;
	int err;

	if (proc_tgid(tid, &pid))
		return 0;
	if ((pid_t)pid == getpid())
		return 0;
	err = target_insert(w, tid);
	if (!err)
		err = children_queue(w, pid, tid);
	return err ? err : walk_drain(w);
}

int targets_fill(struct recorder *r)
{
	const struct env *env = r->env;
	struct walk w = { .t = &r->targets };
	int err = 0;

	for (size_t i = 0; !err && i < env->npids; i++) {
		err = stack_push(&w, env->pids[i]);
		if (!err)
			err = walk_drain(&w);
	}
	for (size_t i = 0; !err && i < env->ntids; i++)
		err = walk_thread(&w, env->tids[i]);
	if (!err && r->cmd.pid > 0) {
		err = stack_push(&w, r->cmd.pid);
		if (!err)
			err = walk_drain(&w);
	}
	idset_free(&w.groups);
	free(w.stack);
	return err;
}

#define PF_EXITING 0x00000004
/* targets_sweep() checks at most this many tasks, a few hundred microseconds of /proc. */
#define TARGETS_SWEEP_MAX 64

const char *proc_stat_fields(uint32_t tid, char *buf, size_t cap)
{
	char path[64], *paren;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	/* comm may hold ')': the fields follow the last one. */
	paren = strrchr(buf, ')');
	return paren ? paren + 1 : NULL;
}

/* State letter and flags of tid from /proc/TID/stat; false if it is gone. */
static bool task_stat(uint32_t tid, char *state, unsigned long *flags)
{
	char buf[512];
	const char *p = proc_stat_fields(tid, buf, sizeof(buf));

	/* state ppid pgrp sid tty tpgid flags */
	return p && sscanf(p, " %c %*d %*d %*d %*d %*d %lu", state, flags) == 2;
}

/*
 * Whether tid has not reached its exit tracepoint yet. do_exit() sets PF_EXITING before
 * the tracepoint, and the task still shows as running until exit_notify(): a task past
 * that point when we inserted its key would leave the key behind for good.
 */
static bool task_alive(uint32_t tid)
{
	unsigned long flags;
	char state;

	return task_stat(tid, &state, &flags) && state != 'Z' && state != 'X' &&
	       !(flags & PF_EXITING);
}

bool proc_task_gone(uint32_t tid)
{
	unsigned long flags;
	char state;

	return !task_stat(tid, &state, &flags) || state == 'Z' || state == 'X';
}

static int keys_read(int fd, uint32_t **keys, size_t *n)
{
	uint32_t key, *prev = NULL, *tmp;
	size_t cap = 0;

	*keys = NULL;
	*n = 0;
	while (bpf_map_get_next_key(fd, prev, &key) == 0) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			tmp = realloc(*keys, cap * sizeof(*tmp));
			if (!tmp)
				return -ENOMEM;
			*keys = tmp;
		}
		(*keys)[(*n)++] = key;
		prev = &(*keys)[*n - 1];
	}
	return errno == ENOENT ? 0 : -errno;
}

void targets_prune(struct recorder *r, struct targets_result *res)
{
	struct targets *t = &r->targets;

	for (size_t i = 0; i < t->inserted.nslots; i++) {
		uint32_t tid = t->inserted.slots[i];

		if (tid && !task_alive(tid))
			targets_del(t, tid);
	}
	idset_free(&t->inserted);
	/* The prune may have made room for tasks that did not fit. */
	for (size_t i = 0; i < t->not_fit.nslots; i++) {
		uint32_t tid = t->not_fit.slots[i];
		int err;

		if (!tid || !task_alive(tid))
			continue;
		err = targets_add(t, tid);
		if (err) {
			if (err != -EEXIST)
				res->not_fit++;
			continue;
		}
		/* Check after the insert: an exit in between would otherwise leave the key. */
		if (!task_alive(tid))
			targets_del(t, tid);
	}
	idset_free(&t->not_fit);
}

int targets_check_report(const struct env *env)
{
	char path[64];

	for (size_t i = 0; i < env->npids; i++) {
		snprintf(path, sizeof(path), "/proc/%u/stat", env->pids[i]);
		if (access(path, F_OK)) {
			fprintf(stderr, "sct-record: cannot trace pid %u: no such process\n", env->pids[i]);
			return -ESRCH;
		}
	}
	for (size_t i = 0; i < env->ntids; i++) {
		uint32_t tgid;

		if (proc_tgid(env->tids[i], &tgid)) {
			fprintf(stderr, "sct-record: cannot trace tid %u: no such thread\n", env->tids[i]);
			return -ESRCH;
		}
	}
	return 0;
}

void targets_sweep(struct recorder *r)
{
	struct targets *t = &r->targets;
	uint64_t left = __atomic_load_n(t->count, __ATOMIC_RELAXED);
	uint32_t *keys;
	size_t n;
	int err;

	/* A safety net for the last few targets, so "every target exited" cannot hang. */
	if (!left || left > TARGETS_SWEEP_MAX)
		return;
	/* A failed read only skips this sweep; the next one comes a second later. */
	err = keys_read(t->map_fd, &keys, &n);
	for (size_t i = 0; !err && i < n; i++)
		if (proc_task_gone(keys[i]))
			targets_del(t, keys[i]);
	free(keys);
}

bool targets_any(struct recorder *r)
{
	return __atomic_load_n(r->targets.count, __ATOMIC_RELAXED) > 0;
}

void targets_free(struct targets *t)
{
	idset_free(&t->hooked);
	idset_free(&t->inserted);
	idset_free(&t->not_fit);
}
