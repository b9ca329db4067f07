// SPDX-License-Identifier: BSD-2-Clause
/*
 * The task table: every task seen, keyed while alive by (session, tid). Pids are reused:
 * a FORK or a TASK snapshot with another start time makes a new entry, and an EXIT takes
 * the entry out of the live map, so two tasks with one pid are never merged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Live tasks by tid % RECENT: most records come from a few threads; skips the hash. */
#define RECENT 64u

struct tasks {
	struct strtab *strs;  /* comm and filenames, owned by the caller */
	struct hashmap live;  /* (sess, tid) -> struct task * */
	struct task **all;
	uint32_t nall, capall;
	struct task *recent[RECENT];
};

struct tasks *tasks_new(struct strtab *strs)
{
	struct tasks *ts = calloc(1, sizeof(*ts));

	if (!ts)
		return NULL;
	ts->strs = strs;
	hashmap_init(&ts->live, 2);
	return ts;
}

uint32_t tasks_count(const struct tasks *ts)
{
	return ts->nall;
}

struct task *tasks_at(const struct tasks *ts, uint32_t index)
{
	return index < ts->nall ? ts->all[index] : NULL;
}

static struct task *tasks_add(struct tasks *ts, uint32_t sess, uint32_t pid, uint32_t tid, uint64_t time_ns)
{
	uint64_t key[2] = { sess, tid };
	struct task *t;

	if (ts->nall == ts->capall) {
		uint32_t n = ts->capall ? ts->capall * 2 : 256;
		struct task **tmp = realloc(ts->all, n * sizeof(*tmp));

		if (!tmp)
			return NULL;
		ts->all = tmp;
		ts->capall = n;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->index = ts->nall;
	t->sess = sess;
	t->pid = pid;
	t->tid = tid;
	t->first_ns = time_ns;
	if (hashmap_put(&ts->live, key, t)) {
		free(t);
		return NULL;
	}
	ts->all[ts->nall++] = t;
	ts->recent[tid % RECENT] = t;
	if (tid == pid) {
		t->process = t;
		return t;
	}
	t->is_thread = 1;
	t->process = tasks_lookup(ts, sess, pid, pid);
	if (!t->process)
		return NULL;
	t->comm = t->process->comm;
	return t;
}

static struct task *tasks_find(struct tasks *ts, uint32_t sess, uint32_t tid)
{
	uint64_t key[2] = { sess, tid };
	struct task *t = ts->recent[tid % RECENT];

	if (t && t->tid == tid && t->sess == sess)
		return t;
	t = hashmap_get(&ts->live, key);
	if (t)
		ts->recent[tid % RECENT] = t;
	return t;
}

struct task *tasks_peek(struct tasks *ts, uint32_t sess, uint32_t tid)
{
	return tasks_find(ts, sess, tid);
}

struct task *tasks_lookup(struct tasks *ts, uint32_t sess, uint32_t pid, uint32_t tid)
{
	struct task *t = tasks_find(ts, sess, tid);

	if (t)
		return t;
	return tasks_add(ts, sess, pid, tid, 0);
}

static void tasks_unlive(struct tasks *ts, struct task *t)
{
	uint64_t key[2] = { t->sess, t->tid };

	if (hashmap_get(&ts->live, key) == t)
		hashmap_remove(&ts->live, key);
	if (ts->recent[t->tid % RECENT] == t)
		ts->recent[t->tid % RECENT] = NULL;
}

static int tasks_snapshot(struct tasks *ts, uint32_t sess, const struct sct_task *r)
{
	struct task *t = tasks_find(ts, sess, r->tid);

	if (!t || (t->seen_start && t->start_ns != r->start_ns))
		t = tasks_add(ts, sess, r->pid, r->tid, r->time_ns);
	if (!t)
		return -ENOMEM;
	t->start_ns = r->start_ns;
	t->seen_start = 1;
	t->ppid = r->ppid;
	t->cgroup_id = r->cgroup_id;
	t->comm = strtab_intern(ts->strs, r->comm.ptr, r->comm.len);
	return 0;
}

static int tasks_fork(struct tasks *ts, uint32_t sess, const struct sct_fork *r)
{
	struct task *parent = tasks_lookup(ts, sess, r->parent_pid, r->parent_tid);
	struct task *child;

	if (!parent)
		return -ENOMEM;
	child = tasks_add(ts, sess, r->child_pid, r->child_tid, r->time_ns);
	if (!child)
		return -ENOMEM;
	child->start_ns = r->child_start_ns;
	child->seen_start = 1;
	child->comm = parent->comm;
	child->cgroup_id = parent->cgroup_id;
	child->ppid = r->is_thread ? parent->process->ppid : r->parent_pid;
	if (!child->is_thread)
		child->parent = parent->process;
	return 0;
}

static int tasks_exec(struct tasks *ts, uint32_t sess, const struct sct_exec *r)
{
	struct task *leader = tasks_lookup(ts, sess, r->pid, r->pid);

	if (!leader)
		return -ENOMEM;
	if (r->old_tid != r->pid) {
		/* A non-leader exec'd: it takes over the leader's pid and the old tid is gone. */
		struct task *old = tasks_find(ts, sess, r->old_tid);

		if (old) {
			old->exited = 1;
			old->end_ns = r->time_ns;
			tasks_unlive(ts, old);
		}
	}
	leader->comm = strtab_intern(ts->strs, r->comm.ptr, r->comm.len);
	leader->filename = strtab_intern(ts->strs, r->filename.ptr, r->filename.len);
	leader->nexec++;
	return 0;
}

static int tasks_exit(struct tasks *ts, uint32_t sess, const struct sct_exit *r)
{
	struct task *t = tasks_lookup(ts, sess, r->pid, r->tid);
	struct task *p;

	if (!t)
		return -ENOMEM;
	t->exited = 1;
	t->end_ns = r->time_ns;
	t->exit_code = r->exit_code;
	t->signal = r->signal;
	p = t->process;
	if (r->group_dead) {
		p->exited = 1;
		p->end_ns = r->time_ns;
		p->exit_code = r->exit_code;
		p->signal = r->signal;
		tasks_unlive(ts, p);
	}
	/* A leader whose threads live on keeps the pid: its threads still belong to it. */
	if (t != p || r->group_dead)
		tasks_unlive(ts, t);
	return 0;
}

int tasks_apply(struct tasks *ts, uint32_t sess, const struct sct_record *rec)
{
	switch (rec->type) {
	case SCT_REC_TASK:
		return tasks_snapshot(ts, sess, &rec->task);
	case SCT_REC_FORK:
		return tasks_fork(ts, sess, &rec->fork);
	case SCT_REC_EXEC:
		return tasks_exec(ts, sess, &rec->exec);
	case SCT_REC_EXIT:
		return tasks_exit(ts, sess, &rec->exit);
	default:
		return 0;
	}
}

/*
 * TASK snapshots name their parent by pid only (and may come before it): link them to the
 * last process of that session with that pid, then build the child and thread lists.
 */
void tasks_link(struct tasks *ts)
{
	struct hashmap bypid;

	hashmap_init(&bypid, 2);
	for (uint32_t i = 0; i < ts->nall; i++) {
		uint64_t key[2] = { ts->all[i]->sess, ts->all[i]->pid };

		if (!ts->all[i]->is_thread && hashmap_put(&bypid, key, ts->all[i]))
			break; /* without memory, snapshot tasks stay roots */
	}
	for (uint32_t i = ts->nall; i-- > 0;) {
		struct task *t = ts->all[i];
		uint64_t key[2] = { t->sess, t->ppid };

		if (t->is_thread) {
			t->next_thread = t->process->thread;
			t->process->thread = t;
			continue;
		}
		if (!t->parent && t->ppid)
			t->parent = hashmap_get(&bypid, key);
		if (t->parent == t)
			t->parent = NULL;
		if (t->parent) {
			t->sibling = t->parent->child;
			t->parent->child = t;
		}
	}
	hashmap_free(&bypid);
}

void tasks_free(struct tasks *ts)
{
	if (!ts)
		return;
	for (uint32_t i = 0; i < ts->nall; i++)
		free(ts->all[i]);
	free(ts->all);
	hashmap_free(&ts->live);
	free(ts);
}
