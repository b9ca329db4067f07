// SPDX-License-Identifier: BSD-2-Clause
/*
 * --timeline: one line per record in time order. Records reach a file roughly in time
 * order (a syscall is written when it returns, stamped with its entry), so lines pass
 * through a bounded reorder window keyed by wall-clock time: exact order whenever records are
 * less than TIMELINE_WINDOW records out of place, and memory bounded by that window and by
 * TIMELINE_BYTES of lines (a hostile file's lines can be megabytes each: a 900 KB host name is
 * on every line of several inputs). The window is a run of lines that came in order (a ring)
 * and a heap of those that came late: most lines are later than every line before them and
 * pass through the ring in constant time; the window gives out the oldest line of either.
 * Inputs read together are merged by wall-clock time (report_main.c feeds the oldest first).
 * A live input orders its records itself, as they come (input_open_live()): each line goes
 * out at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "args_text.h"
#include "cgroup_table.h"
#include "fdpaths.h"
#include "filter.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "samples.h"
#include "sessions.h"
#include "stacks.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

#define TIMELINE_WINDOW 65536u
#define TIMELINE_BYTES (64u << 20)
/*
 * A line's first room; it grows for longer ones (HEADER strings of up to 1 MiB escaped, 64 KiB
 * record strings, arguments), so a line is never cut: a few MiB at most, well within len.
 */
#define LINE_CAP (64u << 10)

/*
 * One line waiting in the window. A call with arguments has fd marks to fill and an effect
 * on fds to apply: its struct fd_effect is stored in front of its line, so that the window's
 * 65,536 entries stay small.
 */
struct tl_entry {
	uint64_t key, seq;
	char *line;
	uint32_t len;
	bool marks;
};

struct timeline {
	struct ctx *c;
	const struct env *env;
	struct tl_entry *run;  /* a ring: each line later than the one before it, oldest at run_head */
	uint32_t run_head, run_len;
	struct tl_entry *heap; /* the lines that came before the run's newest */
	uint32_t nheap;
	size_t held; /* bytes of the lines in the heap */
	uint64_t seq;
	uint64_t last_key; /* wall clock of the newest line of a session with a clock */
	struct out line;
	struct wall_second wall_last; /* the clock column: the second last rendered */
	struct fdpaths *fds; /* traces with arguments: the files of fds */
	bool live; /* the input gives its records in time order once due (input_open_live()) */
	/* the stack tables of each input (its struct live), inputs being read at once */
	struct tl_stacks { const struct live *lv; struct stacks *st; } *stacks;
	uint32_t nstacks;
};

struct timeline *timeline_new(struct ctx *c, const struct env *env)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->c = c;
	tl->env = env;
	tl->live = env->live;
	tl->run = calloc(TIMELINE_WINDOW, sizeof(*tl->run));
	tl->heap = calloc(TIMELINE_WINDOW, sizeof(*tl->heap));
	tl->fds = fdpaths_new(c->strs);
	tl->stacks = calloc((size_t)env->nfiles, sizeof(*tl->stacks));
	if (!tl->run || !tl->heap || out_open_mem(&tl->line, LINE_CAP) || !tl->fds || !tl->stacks) {
		timeline_free(tl);
		return NULL;
	}
	return tl;
}

static bool tl_less(const struct tl_entry *a, const struct tl_entry *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void tl_swap(struct tl_entry *a, struct tl_entry *b)
{
	struct tl_entry t = *a;

	*a = *b;
	*b = t;
}

static struct tl_entry *tl_run_at(struct timeline *tl, uint32_t i)
{
	return &tl->run[(tl->run_head + i) % TIMELINE_WINDOW];
}

static void tl_push(struct timeline *tl, struct tl_entry e)
{
	uint32_t i;

	if (!tl->run_len || !tl_less(&e, tl_run_at(tl, tl->run_len - 1))) {
		*tl_run_at(tl, tl->run_len++) = e;
		return;
	}
	i = tl->nheap++;
	tl->heap[i] = e;
	while (i && tl_less(&tl->heap[i], &tl->heap[(i - 1) / 2])) {
		tl_swap(&tl->heap[i], &tl->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static struct tl_entry tl_heap_take(struct timeline *tl)
{
	struct tl_entry top = tl->heap[0];
	uint32_t i = 0;

	tl->heap[0] = tl->heap[--tl->nheap];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < tl->nheap && tl_less(&tl->heap[l], &tl->heap[m]))
			m = l;
		if (r < tl->nheap && tl_less(&tl->heap[r], &tl->heap[m]))
			m = r;
		if (m == i)
			break;
		tl_swap(&tl->heap[i], &tl->heap[m]);
		i = m;
	}
	return top;
}

/* The oldest line of the window, taken out of it. */
static struct tl_entry tl_take(struct timeline *tl)
{
	struct tl_entry top;

	if (tl->nheap && (!tl->run_len || tl_less(&tl->heap[0], tl_run_at(tl, 0))))
		return tl_heap_take(tl);
	top = *tl_run_at(tl, 0);
	tl->run_head = (tl->run_head + 1) % TIMELINE_WINDOW;
	tl->run_len--;
	return top;
}

/* Lines in the window. */
static uint32_t tl_held(const struct timeline *tl)
{
	return tl->run_len + tl->nheap;
}

/* The oldest line out, its fds followed in print order. 0 or -ENOMEM. */
static int tl_pop(struct timeline *tl, struct out *o)
{
	struct tl_entry top = tl_take(tl);
	struct fd_effect fx;

	tl->held -= top.len;
	if (!top.marks) {
		out_mem(o, top.line, top.len);
		free(top.line);
		return 0;
	}
	memcpy(&fx, top.line, sizeof(fx));
	fdpaths_out(tl->fds, o, top.line + sizeof(fx), top.len, fx.sess, fx.pid);
	free(top.line);
	return fdpaths_apply(tl->fds, &fx);
}

/* "(comm pid/tid)": the task's name at time_ns (spec/FORMAT.md 9.2), "?" if none is known. */
static void tl_who(struct timeline *tl, struct out *l, const struct task *t, uint64_t time_ns, uint32_t pid,
		   uint32_t tid)
{
	uint32_t comm = tasks_comm(tl->c->tasks, t, time_ns);
	uint32_t len = strtab_len(tl->c->strs, comm);

	out_char(l, '(');
	names_out_escaped(l, len ? strtab_get(tl->c->strs, comm) : "?", len ? len : 1);
	out_char(l, ' ');
	out_u64(l, pid);
	out_char(l, '/');
	out_u64(l, tid);
	out_char(l, ')');
}

static void tl_cgroup(struct timeline *tl, struct out *l, struct live *lv, uint64_t id)
{
	struct cgroup *cg = cgroups_get(lv->cgroups, lv->s.id, id);
	uint32_t label;

	if (!cg)
		return;
	label = cgroups_label(lv->cgroups, cg);
	out_str(l, " cg=");
	names_out_escaped(l, strtab_get(tl->c->strs, label), strtab_len(tl->c->strs, label));
}

/*
 * " = RET ERRNO <DURATION>", " = ? <DURATION unfinished>", or " = ?" for a call that does not
 * return (exit_group); an address (mmap's, brk's) in hex as strace shows it.
 */
static void tl_result(struct out *l, const struct sct_syscall *sc, bool address)
{
	char tmp[16];

	if (sc->unfinished == NAMES_NO_RETURN) {
		out_str(l, " = ?");
		return;
	}
	if (sc->unfinished) {
		out_str(l, " = ? <");
		names_out_secs(l, (int64_t)sc->duration_ns, false);
		out_str(l, " unfinished>");
		return;
	}
	out_str(l, " = ");
	if (address && !names_is_error(sc->ret))
		out_printf(l, "%#llx", (unsigned long long)sc->ret);
	else
		out_i64(l, sc->ret);
	if (names_is_error(sc->ret)) {
		out_char(l, ' ');
		out_str(l, names_errno((int)-sc->ret, tmp));
	}
	out_str(l, " <");
	names_out_secs(l, (int64_t)sc->duration_ns, false);
	out_char(l, '>');
}

/*
 * name(comm pid/tid) = ret <duration>; with arguments (format 1.3) as strace shows a call,
 * name(args) = ret <duration>, then (comm pid/tid), fds marked for their files (e gets the
 * call's effect on them).
 */
static void tl_syscall(struct timeline *tl, struct out *l, struct live *lv, const struct sct_syscall *sc,
		       struct tl_entry *e, struct fd_effect *fx)
{
	uint32_t name = input_syscall_name(tl->c, lv, sc->nr, sc->abi);
	const struct task *t = tasks_lookup(lv->tasks, lv->s.id, sc->pid, sc->tid, sc->time_ns);
	bool address = args_ret_is_address(strtab_get(tl->c->strs, name), strtab_len(tl->c->strs, name));

	names_out_escaped(l, strtab_get(tl->c->strs, name), strtab_len(tl->c->strs, name));
	if (lv->session && sct_session_has_args(lv->session)) {
		out_char(l, '(');
		args_out(l, lv->session, sc, true);
		e->marks = true;
		fdpaths_effect(tl->fds, lv->s.id, lv->session, sc, fx);
		out_char(l, ')');
		tl_result(l, sc, address);
		out_char(l, ' ');
		tl_who(tl, l, t, sct_syscall_name_ns(sc), sc->pid, sc->tid);
	} else {
		tl_who(tl, l, t, sct_syscall_name_ns(sc), sc->pid, sc->tid);
		tl_result(l, sc, address);
	}
	tl_cgroup(tl, l, lv, sc->cgroup_id);
}

/* Room for the fields of one sample line (the rest of LINE_CAP holds the last field). */
#define SAMPLE_TEXT_MAX (64u << 10)

static void tl_sample(struct timeline *tl, struct out *l, struct live *lv, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = input_event(lv, sm);
	uint32_t name = input_event_name(tl->c, lv, sm);

	names_out_escaped(l, strtab_get(tl->c->strs, name), strtab_len(tl->c->strs, name));
	tl_who(tl, l, tasks_lookup(lv->tasks, lv->s.id, sm->pid, sm->tid, sm->time_ns), sm->time_ns, sm->pid, sm->tid);
	out_printf(l, " cpu %u", sm->cpu);
	if (ev)
		sample_text_fields(l, ev, sm->payload, SAMPLE_TEXT_MAX);
	/* 0: the session's sample_cgroup is "none", or the recorder did not know the task */
	if (sm->cgroup_id)
		tl_cgroup(tl, l, lv, sm->cgroup_id);
}

static void tl_string(struct out *l, struct sct_bytes b)
{
	out_char(l, '"');
	names_out_escaped(l, b.ptr, b.len);
	out_char(l, '"');
}

static void tl_lifecycle(struct timeline *tl, struct out *l, struct live *lv, const struct sct_record *rec)
{
	const struct sess *s = &lv->s;
	struct tasks *ts = lv->tasks;
	static const char *const causes[] = { "unknown cause", "ring buffer full", "no room in flight" };
	static const char *const kinds[] = { "other", "targets map full", "enumeration failed", "other" };
	char tmp[16];

	switch (rec->type) {
	case SCT_REC_TASK:
		out_str(l, "task(");
		names_out_escaped(l, rec->task.comm.ptr, rec->task.comm.len);
		out_printf(l, " %u/%u) ppid %u", rec->task.pid, rec->task.tid, rec->task.ppid);
		tl_cgroup(tl, l, lv, rec->task.cgroup_id);
		break;
	case SCT_REC_FORK:
		out_str(l, "fork");
		tl_who(tl, l, tasks_peek(ts, s->id, rec->fork.parent_tid, rec->fork.time_ns), rec->fork.time_ns,
		       rec->fork.parent_pid, rec->fork.parent_tid);
		out_printf(l, " = %u/%u %s", rec->fork.child_pid, rec->fork.child_tid,
			   rec->fork.is_thread ? "thread" : "process");
		break;
	case SCT_REC_EXEC:
		out_str(l, "exec(");
		names_out_escaped(l, rec->exec.comm.ptr, rec->exec.comm.len);
		out_printf(l, " %u/%u) ", rec->exec.pid, rec->exec.tid);
		tl_string(l, rec->exec.filename);
		if (rec->exec.old_tid != rec->exec.tid)
			out_printf(l, " from tid %u", rec->exec.old_tid);
		break;
	case SCT_REC_EXIT:
		out_str(l, "exit");
		tl_who(tl, l, tasks_peek(ts, s->id, rec->exit.tid, rec->exit.time_ns), rec->exit.time_ns, rec->exit.pid,
		       rec->exit.tid);
		if (rec->exit.signal)
			out_printf(l, " = %s", names_signal((int)rec->exit.signal, tmp));
		else
			out_printf(l, " = %d", rec->exit.exit_code);
		if (rec->exit.group_dead)
			out_str(l, " [process gone]");
		break;
	case SCT_REC_LOST:
		out_printf(l, "lost %llu event%s (%s) over ", (unsigned long long)rec->lost.count,
			   names_plural(rec->lost.count), causes[rec->lost.cause < 3 ? rec->lost.cause : 0]);
		names_out_secs(l, (int64_t)(rec->lost.end_ns - rec->lost.time_ns), false);
		out_char(l, 's');
		break;
	default:
		out_printf(l, "warning(%s) count %llu: ", kinds[rec->warning.kind < 4 ? rec->warning.kind : 0],
			   (unsigned long long)rec->warning.count);
		names_out_escaped(l, rec->warning.text.ptr, rec->warning.text.len);
	}
}

/* Lines for syscalls, samples and lifecycle records: CGROUP records are shown as cg= paths. */
static bool tl_wanted(struct ctx *c, struct live *lv, const struct sct_record *rec)
{
	const struct filter *f = c->filter;
	const struct sess *s = &lv->s;

	switch (rec->type) {
	case SCT_REC_SYSCALL:
		return filter_syscall(c, lv, &rec->syscall);
	case SCT_REC_CGROUP:
		return false;
	case SCT_REC_SAMPLE:
		return filter_sample(c, lv, &rec->sample);
	case SCT_REC_LOST:
	case SCT_REC_WARNING:
		return filter_window(f, s, rec->lost.time_ns);
	default:
		break;
	}
	if (filter_any_syscall_only(f))
		return false;
	switch (rec->type) {
	case SCT_REC_TASK:
		return filter_task(c, lv->cgroups, s, rec->task.pid, rec->task.tid, rec->task.cgroup_id,
				   rec->task.time_ns, tasks_peek(lv->tasks, s->id, rec->task.tid, rec->task.time_ns));
	case SCT_REC_FORK: {
		const struct sct_fork *k = &rec->fork;
		const struct task *p = tasks_peek(lv->tasks, s->id, k->parent_tid, k->time_ns);
		uint64_t cg = p ? p->cgroup_id : 0;

		return filter_task(c, lv->cgroups, s, k->parent_pid, k->parent_tid, cg, k->time_ns, p) ||
		       filter_task(c, lv->cgroups, s, k->child_pid, k->child_tid, cg, k->time_ns, p);
	}
	case SCT_REC_EXEC: {
		const struct task *t = tasks_peek(lv->tasks, s->id, rec->exec.old_tid, rec->exec.time_ns);
		uint64_t cg = t ? t->cgroup_id : 0;

		return filter_task(c, lv->cgroups, s, rec->exec.pid, rec->exec.tid, cg, rec->exec.time_ns, t) ||
		       filter_task(c, lv->cgroups, s, rec->exec.pid, rec->exec.old_tid, cg, rec->exec.time_ns, t);
	}
	case SCT_REC_EXIT: {
		const struct task *t = tasks_peek(lv->tasks, s->id, rec->exit.tid, rec->exit.time_ns);

		return filter_task(c, lv->cgroups, s, rec->exit.pid, rec->exit.tid, t ? t->cgroup_id : 0, rec->exit.time_ns, t);
	}
	default:
		return false;
	}
}

/* The stack tables of lv's input, made at its first use; NULL on ENOMEM. */
static struct stacks *tl_stacks(struct timeline *tl, const struct live *lv)
{
	struct tl_stacks *ts = NULL;

	for (uint32_t i = 0; i < tl->nstacks && !ts; i++)
		if (tl->stacks[i].lv == lv)
			ts = &tl->stacks[i];
	if (!ts && tl->nstacks < (uint32_t)tl->env->nfiles) {
		ts = &tl->stacks[tl->nstacks];
		ts->st = stacks_new(tl->c->strs, tl->env->debug_dir, !tl->env->no_demangle);
		if (!ts->st)
			return NULL;
		ts->lv = lv;
		tl->nstacks++;
	}
	if (!ts)
		return NULL;
	stacks_session(ts->st, lv);
	return ts->st;
}

/* A call's frames under its line, indented (a session with stacks, unless --no-stacks). */
static int tl_frames(struct timeline *tl, struct out *l, const struct live *lv, const struct sct_syscall *sc)
{
	struct stacks *st;
	uint32_t text;

	if (!sc->stack_id || tl->env->no_stacks)
		return 0;
	st = tl_stacks(tl, lv);
	if (!st)
		return -ENOMEM;
	stacks_text(st, sc->stack_id, &text);
	stacks_out_lines(l, tl->c->strs, text, "    ");
	return 0;
}

int timeline_add(struct timeline *tl, struct live *lv, const struct sct_record *rec, struct out *o)
{
	const struct sess *s = &lv->s;
	uint64_t t = rec->syscall.time_ns; /* field 0 of every type: time_ns (sct.h layouts) */
	struct tl_entry e = { 0 };
	struct fd_effect fx;
	struct out *l = &tl->line;
	size_t head;
	int err;

	if (rec->type >= SCT_REC_STACK && rec->type <= SCT_REC_SYMBOL && !tl->env->no_stacks) {
		struct stacks *st = tl_stacks(tl, lv);

		return st ? stacks_add(st, rec) : -ENOMEM;
	}
	if (!tl_wanted(tl->c, lv, rec))
		return 0;
	l->len = 0;
	names_out_secs(l, sess_rel(s, t), true);
	out_char(l, ' ');
	if (s->headless)
		out_str(l, "??:??:??.??????");
	else
		names_out_wall_cached(l, sess_wall(s, t), false, &tl->wall_last);
	out_char(l, ' ');
	if (rec->type == SCT_REC_SYSCALL) {
		tl_syscall(tl, l, lv, &rec->syscall, &e, &fx);
	} else if (rec->type == SCT_REC_SAMPLE) {
		tl_sample(tl, l, lv, &rec->sample);
	} else {
		tl_lifecycle(tl, l, lv, rec);
	}
	if (tl->env->nfiles > 1) {
		out_str(l, " @");
		if (s->headless)
			out_char(l, '?'); /* no HEADER: host unknown */
		else
			names_out_escaped(l, strtab_get(tl->c->strs, s->host), strtab_len(tl->c->strs, s->host));
	}
	out_char(l, '\n');
	if (rec->type == SCT_REC_SYSCALL && tl_frames(tl, l, lv, &rec->syscall))
		return -ENOMEM;
	if (l->err)
		return l->err;
	/* without a HEADER no clock is known: the line stays where the input has it */
	if (!s->headless)
		tl->last_key = sess_wall(s, t);
	e.key = tl->last_key;
	e.seq = tl->seq++;
	e.len = (uint32_t)l->len;
	head = e.marks ? sizeof(fx) : 0;
	e.line = malloc(head + l->len);
	if (!e.line)
		return -ENOMEM;
	if (e.marks)
		memcpy(e.line, &fx, sizeof(fx));
	memcpy(e.line + head, l->buf, l->len);
	while (tl_held(tl) && (tl_held(tl) == TIMELINE_WINDOW || tl->held + e.len > TIMELINE_BYTES)) {
		err = tl_pop(tl, o);
		if (err) {
			free(e.line);
			return err;
		}
	}
	tl->held += e.len;
	tl_push(tl, e);
	return tl->live ? tl_pop(tl, o) : 0;
}

int timeline_finish(struct timeline *tl, struct out *o)
{
	uint64_t ignored = 0;
	int err = 0;

	for (uint32_t i = 0; i < tl->nstacks; i++)
		ignored += stacks_ignored(tl->stacks[i].st);
	stacks_warn_ignored(tl->c->tool, ignored);

	while (tl_held(tl) && !err)
		err = tl_pop(tl, o);
	return err;
}

void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	for (uint32_t i = 0; i < tl->nheap; i++)
		free(tl->heap[i].line);
	for (uint32_t i = 0; i < tl->run_len; i++)
		free(tl_run_at(tl, i)->line);
	free(tl->heap);
	free(tl->run);
	free(tl->line.buf);
	fdpaths_free(tl->fds);
	for (uint32_t i = 0; i < tl->nstacks; i++)
		stacks_free(tl->stacks[i].st);
	free(tl->stacks);
	free(tl);
}
