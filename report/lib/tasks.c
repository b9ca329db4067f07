// SPDX-License-Identifier: BSD-2-Clause
/*
 * The task table: what the modes hang on a task (syscall counts, tree links, names as strtab
 * ids) over libsct's attribution (struct sct_tasks, spec/FORMAT.md 9.2), which says which
 * task made a record by (session, tid, time). A record of a tid no record describes at its
 * time gets a placeholder task per (session, tid): named "?", as the trace does not name it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "strtab.h"
#include "tasks.h"

#define RECENT 64u

struct tasks {
	struct strtab *strs;   /* comm and filenames, owned by the caller */
	struct sct_tasks *db;
	struct task **byid;    /* db id -> its task, made when first asked for */
	uint32_t capid;
	struct hashmap unknown; /* (sess, tid) -> placeholder */
	struct task *recent[RECENT]; /* placeholders by tid % RECENT: calls come in runs of a thread */
	struct hashmap names;  /* libsct's interned name (its address) -> strtab id + 1 */
	const uint8_t *last_name; /* the name last mapped, and its id: runs of one task's calls */
	uint32_t last_id;
	struct task **all;
	uint32_t nall, capall;
	bool linked;
};

struct tasks *tasks_new(struct strtab *strs)
{
	struct tasks *ts = calloc(1, sizeof(*ts));
	int err = 0;

	if (!ts)
		return NULL;
	ts->strs = strs;
	ts->db = sct_tasks_new(&err);
	if (!ts->db) {
		free(ts);
		return NULL;
	}
	hashmap_init(&ts->unknown, 2);
	hashmap_init(&ts->names, 1);
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

int tasks_apply(struct tasks *ts, uint32_t sess, const struct sct_record *rec)
{
	return sct_tasks_add(ts->db, sess, rec);
}

/* A name of libsct's table as a strtab id: equal names share one address there. */
static uint32_t tasks_name_id(struct tasks *ts, struct sct_bytes b)
{
	uint64_t key = (uint64_t)(uintptr_t)b.ptr;
	uint32_t id;

	if (!b.len)
		return 0;
	if (b.ptr == ts->last_name)
		return ts->last_id;
	id = (uint32_t)(uintptr_t)hashmap_get(&ts->names, &key);
	if (!id) {
		id = strtab_intern(ts->strs, b.ptr, b.len) + 1;
		/* without memory the name is interned again next time: slower, still right */
		(void)hashmap_put(&ts->names, &key, (void *)(uintptr_t)id);
	}
	ts->last_name = b.ptr;
	ts->last_id = id - 1;
	return id - 1;
}

static struct task *tasks_push(struct tasks *ts)
{
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
	t->id = SCT_TASK_NONE;
	ts->all[ts->nall++] = t;
	return t;
}

static struct task *tasks_placeholder(struct tasks *ts, uint32_t sess, uint32_t pid, uint32_t tid, uint64_t time_ns)
{
	uint64_t key[2] = { sess, tid };
	struct task *t = ts->recent[tid % RECENT];

	if (t && t->tid == tid && t->sess == sess)
		return t;
	t = hashmap_get(&ts->unknown, key);
	if (t) {
		ts->recent[tid % RECENT] = t;
		return t;
	}
	t = tasks_push(ts);
	if (!t)
		return NULL;
	t->sess = sess;
	t->pid = pid;
	t->tid = tid;
	t->first_ns = time_ns;
	t->is_thread = pid != tid;
	if (hashmap_put(&ts->unknown, key, t))
		return NULL;
	ts->recent[tid % RECENT] = t;
	if (!t->is_thread) {
		t->process = t;
		return t;
	}
	/* a thread no record describes, of a process one does (its TASK record is missing) */
	t->process = tasks_peek(ts, sess, pid, time_ns);
	if (!t->process || t->process->is_thread)
		t->process = tasks_placeholder(ts, sess, pid, pid, time_ns);
	return t->process ? t : NULL;
}

/* Copies what libsct knows of the task into t (names as strtab ids). */
static void tasks_fill(struct tasks *ts, struct task *t, const struct sct_task_info *ti)
{
	t->sess = ti->session;
	t->pid = ti->pid;
	t->tid = ti->tid;
	t->ppid = ti->ppid;
	t->start_ns = ti->start_ns;
	t->first_ns = ti->start_ns;
	t->seen_start = ti->described && ti->start_ns != 0;
	t->end_ns = ti->end_ns;
	t->exited = ti->exited;
	t->exit_code = ti->exit_code;
	t->signal = ti->signal;
	t->cgroup_id = ti->cgroup_id;
	t->nexec = ti->nexec;
	t->is_thread = ti->is_thread;
	t->comm = tasks_name_id(ts, ti->comm);
	t->filename = ti->filename.len ? tasks_name_id(ts, ti->filename) : 0;
}

static struct task *tasks_of_id(struct tasks *ts, uint32_t id)
{
	struct sct_task_info ti;
	struct task *t;

	if (id >= ts->capid) {
		uint32_t n = ts->capid ? ts->capid : 256;
		struct task **tmp;

		while (n <= id)
			n *= 2;
		tmp = realloc(ts->byid, n * sizeof(*tmp));
		if (!tmp)
			return NULL;
		memset(tmp + ts->capid, 0, (n - ts->capid) * sizeof(*tmp));
		ts->byid = tmp;
		ts->capid = n;
	}
	if (ts->byid[id])
		return ts->byid[id];
	if (sct_tasks_get(ts->db, id, &ti))
		return NULL;
	t = tasks_push(ts);
	if (!t)
		return NULL;
	t->id = id;
	ts->byid[id] = t;
	tasks_fill(ts, t, &ti);
	if (ti.process == id)
		t->process = t;
	else if (ti.process != SCT_TASK_NONE)
		t->process = tasks_of_id(ts, ti.process);
	else
		t->process = tasks_placeholder(ts, ti.session, ti.pid, ti.pid, ti.start_ns);
	return t->process ? t : NULL;
}

struct task *tasks_peek(struct tasks *ts, uint32_t sess, uint32_t tid, uint64_t time_ns)
{
	uint32_t id = sct_tasks_find(ts->db, sess, tid, time_ns);

	return id == SCT_TASK_NONE ? NULL : tasks_of_id(ts, id);
}

struct task *tasks_lookup(struct tasks *ts, uint32_t sess, uint32_t pid, uint32_t tid, uint64_t time_ns)
{
	uint32_t id = sct_tasks_find(ts->db, sess, tid, time_ns);

	return id == SCT_TASK_NONE ? tasks_placeholder(ts, sess, pid, tid, time_ns) : tasks_of_id(ts, id);
}

uint32_t tasks_comm(struct tasks *ts, const struct task *t, uint64_t time_ns)
{
	/* an undescribed thread of a described process goes by its process's name */
	if (t && t->id == SCT_TASK_NONE)
		t = t->process;
	if (!t || t->id == SCT_TASK_NONE)
		return 0;
	return tasks_name_id(ts, sct_tasks_comm(ts->db, t->id, time_ns));
}

/*
 * Every task the records describe (also those that made no call), with what the whole trace
 * says of it, linked into processes, threads and parents; then the child and thread lists.
 * Once, after reading: names and links no longer change.
 */
int tasks_link(struct tasks *ts)
{
	uint32_t n = sct_tasks_count(ts->db);

	if (ts->linked)
		return 0;
	ts->linked = true;
	for (uint32_t id = 0; id < n; id++) {
		struct sct_task_info ti;
		struct task *t = tasks_of_id(ts, id);

		if (!t || sct_tasks_get(ts->db, id, &ti))
			return -ENOMEM;
		tasks_fill(ts, t, &ti);
		if (!t->is_thread && ti.parent != SCT_TASK_NONE && ti.parent != id)
			t->parent = tasks_of_id(ts, ti.parent);
	}
	for (uint32_t i = ts->nall; i-- > 0;) {
		struct task *t = ts->all[i];

		if (t->is_thread) {
			t->next_thread = t->process->thread;
			t->process->thread = t;
		} else if (t->parent) {
			t->sibling = t->parent->child;
			t->parent->child = t;
		}
	}
	return 0;
}

void tasks_free(struct tasks *ts)
{
	if (!ts)
		return;
	for (uint32_t i = 0; i < ts->nall; i++)
		free(ts->all[i]);
	free(ts->all);
	free(ts->byid);
	hashmap_free(&ts->unknown);
	hashmap_free(&ts->names);
	sct_tasks_free(ts->db);
	free(ts);
}
