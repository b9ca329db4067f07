// SPDX-License-Identifier: BSD-2-Clause
/*
 * Task attribution (spec/FORMAT.md section 9.2): tasks as incarnations, found by
 * (session, tid, time). Each tid of a session keeps its spans in start order: the task it
 * named from a start (FORK child start, TASK or EXIT start_ns, a non-leader EXEC's time) to
 * an end (EXIT time, a non-leader EXEC's time for the old tid), and a span is over at its end
 * or where the tid's next span starts. A task's names are its TASK and EXEC records in time
 * order.
 * Records come in file order, where a task may be described after its EXEC (the EXEC then
 * makes a task of unknown start that the TASK or FORK completes), and may come twice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"

#define SPAN_OPEN UINT64_MAX
/* task_new(): the tid has SCT_MAX_TASK_SPANS spans; the record that would add one is ignored. */
#define TASK_FULL (SCT_TASK_NONE - 1)
/* A fork chain's names are looked up at most this deep (a table fed garbage has cycles). */
#define COMM_DEPTH 64

struct name {                 /* interned: one per distinct byte string */
	uint32_t len;
	uint8_t bytes[];
};

struct name_ev {
	uint64_t time_ns;
	const struct name *comm, *filename; /* filename NULL: a TASK snapshot */
};

struct span {
	uint64_t start, end;      /* end SPAN_OPEN: until the next span of the tid starts */
	uint32_t task;
};

struct tid_spans {
	uint64_t key;             /* session << 32 | tid; 0 with v NULL: a free slot */
	struct span *v;
	uint32_t n, cap;
};

struct atask {
	uint32_t session, pid, tid, parent_tid;
	uint32_t snap_ppid, fork_ppid;    /* of its first TASK record; of its FORK (a process) */
	uint64_t start_ns, first_ns, fork_ns, snap_ns, end_ns, group_end_ns;
	uint64_t cgroup_id;
	int32_t exit_code, group_code;
	uint32_t signal, group_signal;
	uint8_t start_known, forked, is_thread, exited, group_dead, has_task;
	struct name_ev *names;
	uint32_t nnames, capnames, nexec;
};

/* A recent answer of sct_tasks_find(): id for times lo..hi of its tid, while gen holds. */
struct find_cache {
	uint64_t key, lo, hi;
	uint32_t id, gen;
};
#define FIND_CACHE 256u

struct sct_tasks {
	struct find_cache cache[FIND_CACHE];
	uint32_t gen;             /* changes with every record fed: cached answers go stale */
	struct atask *t;
	uint32_t nt, capt;
	struct tid_spans *slots;  /* open addressing, power of two */
	uint32_t nslots, used;
	const struct name **names; /* open addressing set of interned names */
	uint32_t capnames, nnames;
};

static const struct name empty_name = { 0 };

struct sct_tasks *sct_tasks_new(int *err)
{
	struct sct_tasks *ts = calloc(1, sizeof(*ts));

	if (!ts)
		*err = -ENOMEM;
	else
		ts->gen = 1;
	return ts;
}

void sct_tasks_free(struct sct_tasks *ts)
{
	if (!ts)
		return;
	for (uint32_t i = 0; i < ts->nt; i++)
		free(ts->t[i].names);
	for (uint32_t i = 0; i < ts->nslots; i++)
		free(ts->slots[i].v);
	for (uint32_t i = 0; i < ts->capnames; i++)
		free((void *)ts->names[i]);
	free(ts->names);
	free(ts->slots);
	free(ts->t);
	free(ts);
}

uint32_t sct_tasks_count(const struct sct_tasks *ts)
{
	return ts->nt;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_bytes(const uint8_t *p, uint32_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static int names_grow(struct sct_tasks *ts)
{
	uint32_t cap = ts->capnames ? ts->capnames * 2 : 64;
	const struct name **v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < ts->capnames; i++) {
		const struct name *n = ts->names[i];
		uint32_t j;

		if (!n)
			continue;
		for (j = (uint32_t)hash_bytes(n->bytes, n->len) & (cap - 1); v[j]; j = (j + 1) & (cap - 1))
			;
		v[j] = n;
	}
	free(ts->names);
	ts->names = v;
	ts->capnames = cap;
	return 0;
}

static const struct name *name_intern(struct sct_tasks *ts, struct sct_bytes b)
{
	struct name *n;
	uint32_t j;

	if (!b.len)
		return &empty_name;
	if (ts->nnames * 2 >= ts->capnames && names_grow(ts))
		return NULL;
	for (j = (uint32_t)hash_bytes(b.ptr, b.len) & (ts->capnames - 1); ts->names[j];
	     j = (j + 1) & (ts->capnames - 1)) {
		const struct name *m = ts->names[j];

		if (m->len == b.len && !memcmp(m->bytes, b.ptr, b.len))
			return m;
	}
	n = malloc(sizeof(*n) + b.len);
	if (!n)
		return NULL;
	n->len = b.len;
	memcpy(n->bytes, b.ptr, b.len);
	ts->names[j] = n;
	ts->nnames++;
	return n;
}

static uint64_t span_key(uint32_t session, uint32_t tid)
{
	return (uint64_t)session << 32 | tid;
}

static struct tid_spans *slot_find(const struct sct_tasks *ts, uint64_t key)
{
	if (!ts->nslots)
		return NULL;
	for (uint32_t j = (uint32_t)hash64(key) & (ts->nslots - 1);; j = (j + 1) & (ts->nslots - 1)) {
		struct tid_spans *s = &ts->slots[j];

		if (!s->v)
			return NULL;
		if (s->key == key)
			return s;
	}
}

static int slots_grow(struct sct_tasks *ts)
{
	uint32_t n = ts->nslots ? ts->nslots * 2 : 256;
	struct tid_spans *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < ts->nslots; i++) {
		struct tid_spans *s = &ts->slots[i];
		uint32_t j;

		if (!s->v)
			continue;
		for (j = (uint32_t)hash64(s->key) & (n - 1); v[j].v; j = (j + 1) & (n - 1))
			;
		v[j] = *s;
	}
	free(ts->slots);
	ts->slots = v;
	ts->nslots = n;
	return 0;
}

static struct tid_spans *slot_get(struct sct_tasks *ts, uint64_t key)
{
	struct tid_spans *s = slot_find(ts, key);
	uint32_t j;

	if (s)
		return s;
	if ((ts->used + 1) * 4 > ts->nslots * 3 && slots_grow(ts))
		return NULL;
	for (j = (uint32_t)hash64(key) & (ts->nslots - 1); ts->slots[j].v; j = (j + 1) & (ts->nslots - 1))
		;
	s = &ts->slots[j];
	s->v = malloc(2 * sizeof(*s->v));
	if (!s->v)
		return NULL;
	s->key = key;
	s->cap = 2;
	s->n = 0;
	ts->used++;
	return s;
}

/* The first span at or after which no span starts later than time: spans[lo].start > time. */
static uint32_t spans_after(const struct tid_spans *s, uint64_t time_ns)
{
	uint32_t lo = 0, hi = s->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].start > time_ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The span of s that time falls in: the first, in start order, not over at time (over: time
 * past its end, or the next span starts at or before time). Every span before the last one
 * that starts at or before time is over, so that one and the next are the only candidates.
 */
static const struct span *spans_at(const struct tid_spans *s, uint64_t time_ns)
{
	uint32_t i = spans_after(s, time_ns);

	if (i > 0 && (s->v[i - 1].end == SPAN_OPEN || time_ns <= s->v[i - 1].end))
		return &s->v[i - 1];
	if (i < s->n && (s->v[i].end == SPAN_OPEN || time_ns <= s->v[i].end))
		return &s->v[i];
	return NULL;
}

/*
 * Most calls of a trace come in runs of one thread: the last answer for a tid is kept with
 * the times it holds for (within its span, before the next one starts), so a run costs one
 * look-up. gen is never 0, so a zeroed entry is never current.
 */
uint32_t sct_tasks_find(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint64_t time_ns)
{
	uint64_t key = span_key(session, tid);
	struct find_cache *fc = &ts->cache[(tid ^ session * 0x9e3779b1u) % FIND_CACHE];
	const struct tid_spans *s;
	const struct span *sp;

	if (fc->gen == ts->gen && fc->key == key && time_ns >= fc->lo && time_ns <= fc->hi)
		return fc->id;
	s = slot_find(ts, key);
	sp = s ? spans_at(s, time_ns) : NULL;
	if (!sp)
		return SCT_TASK_NONE;
	if (time_ns >= sp->start) {
		uint32_t next = (uint32_t)(sp - s->v) + 1;

		fc->key = key;
		fc->lo = sp->start;
		fc->hi = sp->end;
		if (next < s->n && s->v[next].start <= fc->hi)
			fc->hi = s->v[next].start - 1;
		fc->id = sp->task;
		fc->gen = ts->gen;
	}
	return sp->task;
}

/*
 * Adds a span of task for (session, tid) from start, after the spans of that start, unless the
 * task has one there. 1: the tid has SCT_MAX_TASK_SPANS spans already (nothing added).
 */
static int span_add(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint64_t start, uint32_t task)
{
	struct tid_spans *s = slot_get(ts, span_key(session, tid));
	uint32_t i;

	if (!s)
		return -ENOMEM;
	i = spans_after(s, start);
	for (uint32_t j = i; j > 0 && s->v[j - 1].start == start; j--)
		if (s->v[j - 1].task == task)
			return 0;
	if (s->n == SCT_MAX_TASK_SPANS)
		return 1;
	if (s->n == s->cap) {
		struct span *v = realloc(s->v, (size_t)s->cap * 2 * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap *= 2;
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = (struct span){ .start = start, .end = SPAN_OPEN, .task = task };
	s->n++;
	return 0;
}

/* A span learns an earlier start (a TASK record after the EXEC that made it): keep the order. */
static void span_restart(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint32_t task, uint64_t start)
{
	struct tid_spans *s = slot_find(ts, span_key(session, tid));
	uint32_t i = 0;

	while (s && i < s->n && s->v[i].task != task)
		i++;
	if (!s || i == s->n || s->v[i].start <= start)
		return;
	s->v[i].start = start;
	for (; i > 0 && s->v[i - 1].start > start; i--) {
		struct span tmp = s->v[i - 1];

		s->v[i - 1] = s->v[i];
		s->v[i] = tmp;
	}
}

static struct span *span_of(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint32_t task)
{
	struct tid_spans *s = slot_find(ts, span_key(session, tid));

	for (uint32_t i = 0; s && i < s->n; i++)
		if (s->v[i].task == task)
			return &s->v[i];
	return NULL;
}

/* The task of tid whose start is start_ns: the same task described twice. */
static uint32_t task_by_start(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint64_t start_ns)
{
	const struct tid_spans *s = slot_find(ts, span_key(session, tid));

	for (uint32_t i = 0; s && i < s->n; i++) {
		const struct atask *t = &ts->t[s->v[i].task];

		if (t->start_known && t->start_ns == start_ns && t->tid == tid)
			return s->v[i].task;
	}
	return SCT_TASK_NONE;
}

static uint32_t task_new(struct sct_tasks *ts, uint32_t session, uint32_t pid, uint32_t tid, uint64_t start,
			 bool start_known)
{
	struct atask *t;

	if (ts->nt == TASK_FULL)
		return SCT_TASK_NONE;
	if (ts->nt == ts->capt) {
		uint32_t cap = ts->capt ? ts->capt * 2 : 64;
		struct atask *v = realloc(ts->t, (size_t)cap * sizeof(*v));

		if (!v)
			return SCT_TASK_NONE;
		ts->t = v;
		ts->capt = cap;
	}
	switch (span_add(ts, session, tid, start, ts->nt)) {
	case 0:
		break;
	case 1:
		return TASK_FULL;
	default:
		return SCT_TASK_NONE;
	}
	t = &ts->t[ts->nt];
	memset(t, 0, sizeof(*t));
	t->session = session;
	t->pid = pid;
	t->tid = tid;
	t->start_ns = start_known ? start : 0;
	t->first_ns = start;
	t->start_known = start_known;
	t->is_thread = pid != tid;
	return ts->nt++;
}

/*
 * Inserts a name in time order, after those of its time; a record fed twice adds nothing, nor
 * does one past SCT_MAX_TASK_NAMES. 1: added, 0: not, -ENOMEM.
 */
static int name_add(struct atask *t, uint64_t time_ns, const struct name *comm, const struct name *filename)
{
	uint32_t lo = 0, hi = t->nnames;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->names[mid].time_ns > time_ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (uint32_t j = lo; j > 0 && t->names[j - 1].time_ns == time_ns; j--)
		if (t->names[j - 1].comm == comm && t->names[j - 1].filename == filename)
			return 0;
	if (t->nnames == SCT_MAX_TASK_NAMES)
		return 0;
	if (t->nnames == t->capnames) {
		uint32_t cap = t->capnames ? t->capnames * 2 : 2;
		struct name_ev *v = realloc(t->names, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->names = v;
		t->capnames = cap;
	}
	memmove(&t->names[lo + 1], &t->names[lo], (t->nnames - lo) * sizeof(*t->names));
	t->names[lo] = (struct name_ev){ .time_ns = time_ns, .comm = comm, .filename = filename };
	t->nnames++;
	return 1;
}

static uint32_t task_process(const struct sct_tasks *ts, uint32_t id);

/*
 * The task a TASK or FORK record describes when no task of the tid has its start: one seen by
 * its EXEC alone so far (no start known) at the record's time, else a new one.
 */
static uint32_t task_described(struct sct_tasks *ts, uint32_t session, uint32_t pid, uint32_t tid, uint64_t time_ns,
			       uint64_t start)
{
	uint32_t id = sct_tasks_find(ts, session, tid, time_ns);

	if (id == SCT_TASK_NONE || ts->t[id].start_known)
		return task_new(ts, session, pid, tid, start, true);
	ts->t[id].start_known = 1;
	ts->t[id].start_ns = start;
	span_restart(ts, session, tid, id, start);
	return id;
}

static int tasks_task(struct sct_tasks *ts, uint32_t session, const struct sct_task *r)
{
	uint32_t id = task_by_start(ts, session, r->tid, r->start_ns);
	const struct name *comm = name_intern(ts, r->comm);
	struct atask *t;

	if (!comm)
		return -ENOMEM;
	if (id == SCT_TASK_NONE)
		id = task_described(ts, session, r->pid, r->tid, r->time_ns, r->start_ns);
	if (id >= TASK_FULL)
		return id == TASK_FULL ? 0 : -ENOMEM;
	t = &ts->t[id];
	if (!t->has_task || r->time_ns < t->snap_ns) {
		t->snap_ns = r->time_ns;
		t->snap_ppid = r->ppid;
		t->cgroup_id = r->cgroup_id;
		t->has_task = 1;
	}
	return name_add(t, r->time_ns, comm, NULL) < 0 ? -ENOMEM : 0;
}

static int tasks_fork(struct sct_tasks *ts, uint32_t session, const struct sct_fork *r)
{
	uint64_t start = r->child_start_ns && r->child_start_ns <= r->time_ns ? r->child_start_ns : r->time_ns;
	uint32_t id = task_by_start(ts, session, r->child_tid, start);
	struct atask *t;

	if (id == SCT_TASK_NONE)
		id = task_described(ts, session, r->child_pid, r->child_tid, r->time_ns, start);
	if (id >= TASK_FULL)
		return id == TASK_FULL ? 0 : -ENOMEM;
	t = &ts->t[id];
	t->forked = 1;
	t->fork_ns = r->time_ns;
	t->parent_tid = r->parent_tid;
	t->is_thread = r->is_thread ? 1 : 0;
	t->fork_ppid = r->is_thread ? 0 : r->parent_pid;
	return 0;
}

static int tasks_exec(struct sct_tasks *ts, uint32_t session, const struct sct_exec *r)
{
	const struct name *comm = name_intern(ts, r->comm), *file = name_intern(ts, r->filename);
	uint32_t id = sct_tasks_find(ts, session, r->old_tid, r->time_ns), leader;
	struct atask *t;
	struct span *sp;
	int added;

	if (!comm || !file)
		return -ENOMEM;
	if (id == SCT_TASK_NONE)
		id = task_new(ts, session, r->pid, r->old_tid, r->time_ns, false);
	if (id >= TASK_FULL)
		return id == TASK_FULL ? 0 : -ENOMEM;
	added = name_add(&ts->t[id], r->time_ns, comm, file);
	if (added < 0)
		return -ENOMEM;
	ts->t[id].nexec += (uint32_t)added;
	if (r->old_tid == r->pid)
		return 0;
	/* A non-leader exec: the thread goes on as the leader, under the pid. */
	leader = task_process(ts, id);
	sp = span_of(ts, session, r->old_tid, id);
	if (sp && (sp->end == SPAN_OPEN || sp->end > r->time_ns))
		sp->end = r->time_ns;
	if (span_add(ts, session, r->pid, r->time_ns, id) < 0)
		return -ENOMEM;
	if (leader == SCT_TASK_NONE || leader == id)
		return 0;
	/* the process keeps its identity (the kernel gives the thread the leader's start time) */
	t = &ts->t[leader];
	added = name_add(t, r->time_ns, comm, file);
	if (added < 0)
		return -ENOMEM;
	t->nexec += (uint32_t)added;
	return 0;
}

static int tasks_exit(struct sct_tasks *ts, uint32_t session, const struct sct_exit *r)
{
	uint32_t id = sct_tasks_find(ts, session, r->tid, r->time_ns), process;
	struct atask *t;
	struct span *sp;

	/* the tid's known tasks all start after it: an earlier one, known by its exit alone */
	if (id != SCT_TASK_NONE && ts->t[id].start_known && ts->t[id].start_ns > r->time_ns)
		id = SCT_TASK_NONE;
	if (id == SCT_TASK_NONE)
		id = task_new(ts, session, r->pid, r->tid, r->start_ns ? r->start_ns : r->time_ns, r->start_ns != 0);
	if (id >= TASK_FULL)
		return id == TASK_FULL ? 0 : -ENOMEM;
	t = &ts->t[id];
	t->exited = 1;
	t->end_ns = r->time_ns;
	t->exit_code = r->exit_code;
	t->signal = r->signal;
	sp = span_of(ts, session, r->tid, id);
	if (sp && (sp->end == SPAN_OPEN || sp->end > r->time_ns))
		sp->end = r->time_ns;
	if (!r->group_dead)
		return 0;
	/* the process ends with its last thread, which need not be its leader */
	process = task_process(ts, id);
	t = &ts->t[process == SCT_TASK_NONE ? id : process];
	if (t->group_dead && t->group_end_ns > r->time_ns)
		return 0;
	t->group_dead = 1;
	t->group_end_ns = r->time_ns;
	t->group_code = r->exit_code;
	t->group_signal = r->signal;
	return 0;
}

int sct_tasks_add(struct sct_tasks *ts, uint32_t session, const struct sct_record *rec)
{
	if (rec->type >= SCT_REC_TASK && rec->type <= SCT_REC_EXIT && ++ts->gen == 0) {
		memset(ts->cache, 0, sizeof(ts->cache));
		ts->gen = 1;
	}
	switch (rec->type) {
	case SCT_REC_TASK:
		return tasks_task(ts, session, &rec->task);
	case SCT_REC_FORK:
		return tasks_fork(ts, session, &rec->fork);
	case SCT_REC_EXEC:
		return tasks_exec(ts, session, &rec->exec);
	case SCT_REC_EXIT:
		return tasks_exit(ts, session, &rec->exit);
	default:
		return 0;
	}
}

/* When the task is known to exist: fork, start, or its first record. */
static uint64_t task_born(const struct atask *t)
{
	if (t->forked)
		return t->fork_ns;
	return t->start_known ? t->start_ns : t->first_ns;
}

static uint32_t task_forker(const struct sct_tasks *ts, const struct atask *t)
{
	if (!t->forked)
		return SCT_TASK_NONE;
	return sct_tasks_find((struct sct_tasks *)ts, t->session, t->parent_tid, t->fork_ns);
}

static uint32_t task_process(const struct sct_tasks *ts, uint32_t id)
{
	const struct atask *t = &ts->t[id];
	uint32_t p;

	if (!t->is_thread)
		return id;
	p = sct_tasks_find((struct sct_tasks *)ts, t->session, t->pid, task_born(t));
	return p != SCT_TASK_NONE && !ts->t[p].is_thread ? p : SCT_TASK_NONE;
}

static struct sct_bytes name_bytes(const struct name *n)
{
	return (struct sct_bytes){ .ptr = n->bytes, .len = n->len };
}

/*
 * The name at time: the last TASK or EXEC record of the task at or before it; else, for a
 * forked task, its parent's name at the fork; else the first TASK record's (a task described
 * after the fact had that name since its last exec, which no record shows).
 */
struct sct_bytes sct_tasks_comm(const struct sct_tasks *ts, uint32_t id, uint64_t time_ns)
{
	for (unsigned depth = 0; id < ts->nt && depth < COMM_DEPTH; depth++) {
		const struct atask *t = &ts->t[id];
		uint32_t i;

		for (i = t->nnames; i > 0 && t->names[i - 1].time_ns > time_ns; i--)
			;
		if (i > 0)
			return name_bytes(t->names[i - 1].comm);
		if (!t->forked) {
			for (i = 0; i < t->nnames; i++)
				if (!t->names[i].filename)
					return name_bytes(t->names[i].comm);
			break;
		}
		time_ns = t->fork_ns;
		id = task_forker(ts, t);
	}
	return name_bytes(&empty_name);
}

uint64_t sct_syscall_name_ns(const struct sct_syscall *sc)
{
	if (sc->unfinished)
		return sc->time_ns;
	return sc->duration_ns > UINT64_MAX - sc->time_ns ? UINT64_MAX : sc->time_ns + sc->duration_ns;
}

/* A forked task's cgroup is its parent's at the fork, unless a TASK record says. */
static uint64_t task_cgroup(const struct sct_tasks *ts, uint32_t id)
{
	for (unsigned depth = 0; id < ts->nt && depth < COMM_DEPTH; depth++) {
		const struct atask *t = &ts->t[id];

		if (t->has_task)
			return t->cgroup_id;
		id = task_forker(ts, t);
	}
	return 0;
}

static uint32_t task_ppid(const struct atask *t)
{
	return t->forked ? t->fork_ppid : t->snap_ppid;
}

static uint32_t task_parent(const struct sct_tasks *ts, const struct atask *t)
{
	uint32_t p;

	if (t->is_thread)
		return SCT_TASK_NONE;
	if (t->forked)
		p = task_forker(ts, t);
	else if (t->snap_ppid)
		p = sct_tasks_find((struct sct_tasks *)ts, t->session, t->snap_ppid, t->snap_ns);
	else
		return SCT_TASK_NONE;
	return p == SCT_TASK_NONE ? p : task_process(ts, p);
}

int sct_tasks_get(const struct sct_tasks *ts, uint32_t id, struct sct_task_info *out)
{
	const struct atask *t;

	if (id >= ts->nt)
		return -ERANGE;
	t = &ts->t[id];
	memset(out, 0, sizeof(*out));
	out->session = t->session;
	out->pid = t->pid;
	out->tid = t->tid;
	out->process = task_process(ts, id);
	out->parent = task_parent(ts, t);
	out->ppid = task_ppid(t);
	if (t->is_thread && out->process != SCT_TASK_NONE)
		out->ppid = task_ppid(&ts->t[out->process]);
	out->start_ns = t->start_ns;
	out->exited = t->exited;
	out->end_ns = t->end_ns;
	out->exit_code = t->exit_code;
	out->signal = t->signal;
	if (t->group_dead && !t->is_thread) {
		out->exited = 1;
		out->end_ns = t->group_end_ns;
		out->exit_code = t->group_code;
		out->signal = t->group_signal;
	}
	out->cgroup_id = task_cgroup(ts, id);
	out->nexec = t->nexec;
	out->is_thread = t->is_thread;
	out->described = t->forked || t->has_task;
	out->comm = sct_tasks_comm(ts, id, UINT64_MAX);
	for (uint32_t i = t->nnames; i > 0; i--)
		if (t->names[i - 1].filename) {
			out->filename = name_bytes(t->names[i - 1].filename);
			break;
		}
	return 0;
}
