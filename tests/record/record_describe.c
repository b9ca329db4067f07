/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record on the real kernel: every task that makes a recorded call is described in the
 * trace (a TASK record, or a FORK then EXEC records), with its pid and comm, however it came to
 * be traced: moved into -G's cgroup, a thread of a -p target made before the recorder started,
 * a child of a -p target, a command's exec loop, a tid given to a second task. Needs root.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

static char cg_dir[PATH_MAX]; /* the fresh cgroup of the test, "" if none */
static uint64_t test_start_ns; /* CLOCK_MONOTONIC: every task a test describes starts after it */

static void describe_init(void)
{
	rh_setup();
	test_start_ns = rh_mono_ns();
}

static void describe_fini(void)
{
	if (cg_dir[0])
		rmdir(cg_dir);
	rh_teardown();
}

TestSuite(record_describe, .init = describe_init, .fini = describe_fini, .timeout = 120);

/* What a call was made as: its task's pid and comm at the time of the call. */
struct who {
	uint32_t pid;
	char comm[32];
};

/*
 * When the task a record describes began: its start time, or the record's time where the
 * start time is unknown (0: the perf backend's task described by its exit). Every call of the
 * task comes after it; of two tasks with one tid, the later one is the newer.
 */
static uint64_t task_birth(const struct sct_task *task)
{
	return task->start_ns ? task->start_ns : task->time_ns;
}

/*
 * Who tid was at time_ns, from the records alone: the newest TASK or FORK of tid born by
 * then (a child takes its parent's comm at the fork), then the EXEC records of tid since.
 * False if no record describes it.
 */
static bool who_at(const struct rh_trace *t, uint32_t tid, uint64_t time_ns, struct who *w, int depth)
{
	uint64_t born = 0;
	bool found = false;

	for (size_t i = 0; i < t->ntask; i++) {
		const struct sct_task *task = &t->task[i].rec;

		if (task->tid == tid && task_birth(task) <= time_ns && (!found || task_birth(task) >= born)) {
			born = task_birth(task);
			w->pid = task->pid;
			snprintf(w->comm, sizeof(w->comm), "%s", t->task[i].comm);
			found = true;
		}
	}
	for (size_t i = 0; i < t->nfork; i++) {
		const struct sct_fork *f = &t->fork[i];
		struct who parent;

		if (f->child_tid != tid || f->child_start_ns > time_ns || (found && f->child_start_ns < born))
			continue;
		born = f->child_start_ns;
		w->pid = f->child_pid;
		if (depth > 64 || !who_at(t, f->parent_tid, f->time_ns, &parent, depth + 1))
			snprintf(parent.comm, sizeof(parent.comm), "(parent %u undescribed)", f->parent_tid);
		snprintf(w->comm, sizeof(w->comm), "%s", parent.comm);
		found = true;
	}
	for (size_t i = 0; found && i < t->nexec; i++) {
		const struct sct_exec *e = &t->exec[i].rec;

		if (e->tid == tid && e->time_ns >= born && e->time_ns <= time_ns) {
			born = e->time_ns;
			w->pid = e->pid;
			snprintf(w->comm, sizeof(w->comm), "%s", t->exec[i].comm);
		}
	}
	return found;
}

/* Every SYSCALL record's task is described, with the record's pid; its who into w[i]. */
static void assert_every_call_described(const struct rh_trace *t, struct who *w)
{
	cr_assert_gt(t->nsc, 0, "no SYSCALL record");
	for (size_t i = 0; i < t->nsc; i++) {
		const struct sct_syscall *sc = &t->sc[i];

		cr_assert(who_at(t, sc->tid, sc->time_ns, &w[i], 0),
			  "call %zu (nr %u) of pid %u tid %u: no TASK, FORK or EXEC record describes its task", i,
			  sc->nr, sc->pid, sc->tid);
		cr_assert_eq(w[i].pid, sc->pid, "call %zu of tid %u: pid %u, described as pid %u", i, sc->tid,
			     sc->pid, w[i].pid);
	}
}

static struct who *trace_described(struct rh_trace *t, const char *path)
{
	int err = rh_trace_read(path, t);
	struct who *w;

	cr_assert_eq(err, 0, "reading %s: %s", path, sct_strerror(err));
	cr_assert_eq(t->err, 0, "reader: %s", sct_strerror(t->err));
	cr_assert(t->has_trailer, "no trailer after a clean stop");
	/*
	 * A call the kernel's task storage lock refused (before 6.2, an exiting task preempted on
	 * PREEMPT_RT) is counted, not recorded: it needs no description. A lost ring buffer event
	 * could have been a TASK event: none may be.
	 */
	cr_assert_eq(t->lost_by_cause[SCT_LOST_RINGBUF] + t->lost_by_cause[0], 0,
		     "%lu events lost but for refused in-flight slots", (unsigned long)(t->lost_count -
		     t->lost_by_cause[SCT_LOST_INFLIGHT]));
	w = calloc(t->nsc ? t->nsc : 1, sizeof(*w));
	cr_assert_not_null(w);
	assert_every_call_described(t, w);
	return w;
}

/* The distinct tids whose calls were made as comm. */
static size_t tids_as(const struct rh_trace *t, const struct who *w, const char *comm)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++) {
		bool seen = false;

		if (strcmp(w[i].comm, comm))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = t->sc[j].tid == t->sc[i].tid && !strcmp(w[j].comm, comm);
		n += !seen;
	}
	return n;
}

/* The calls made as comm. */
static size_t calls_as(const struct rh_trace *t, const struct who *w, const char *comm)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++)
		n += !strcmp(w[i].comm, comm);
	return n;
}

/*
 * The calls named comm as sct-report names them (spec/FORMAT.md 9.2): by their task's name at
 * their return, at their entry if unfinished.
 */
static size_t calls_named(const struct rh_trace *t, const char *comm)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++) {
		const struct sct_syscall *sc = &t->sc[i];
		struct who w;

		n += who_at(t, sc->tid, sc->unfinished ? sc->time_ns : sc->time_ns + sc->duration_ns, &w, 0) &&
		     !strcmp(w.comm, comm);
	}
	return n;
}

/* The TASK records of tid, into out (at most max); returns how many there are. */
static size_t tasks_of(const struct rh_trace *t, uint32_t tid, const struct rh_task **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ntask; i++)
		if (t->task[i].rec.tid == tid) {
			if (n < max)
				out[n] = &t->task[i];
			n++;
		}
	/* in time order: the perf backend reads its CPUs' buffers one after another */
	for (size_t i = 1; i < n && i < max; i++)
		for (size_t k = i; k > 0 && out[k - 1]->rec.time_ns > out[k]->rec.time_ns; k--) {
			const struct rh_task *tmp = out[k];

			out[k] = out[k - 1];
			out[k - 1] = tmp;
		}
	return n;
}

/*
 * A TASK record's parent, start time (after the test began, before the record) and cgroup:
 * exact, or, from the perf backend for a task gone from /proc before it read the task's first
 * sample, parent and start time unknown (0), and the cgroup too where the recorder reads the
 * ids from /proc.
 */
static void assert_task_origin(const struct rh_trace *t, const struct sct_task *task, uint32_t ppid,
			       uint64_t cgroup_id)
{
	if (RH_PERF() && !task->ppid && !task->start_ns) {
		cr_assert(task->cgroup_id == cgroup_id || (t->recorder_cgroup_ids && !task->cgroup_id),
			  "TASK of tid %u: cgroup %lu, want %lu", task->tid, (unsigned long)task->cgroup_id,
			  (unsigned long)cgroup_id);
		return;
	}
	cr_assert_eq(task->cgroup_id, cgroup_id, "TASK of tid %u: cgroup %lu, want %lu", task->tid,
		     (unsigned long)task->cgroup_id, (unsigned long)cgroup_id);
	cr_assert_eq(task->ppid, ppid, "TASK of tid %u: ppid %u, want %u", task->tid, task->ppid, ppid);
	rh_assert_task_start(task, test_start_ns);
}

static void assert_exit0(const struct rh_recorder *r)
{
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "recorder status %#x, stderr:\n%s",
		  r->status, r->err);
}

/* Run the workload to its end (the go byte, its output, its exit 0) and reap it. */
static void workload_finish(struct rh_proc *p, char **out)
{
	int status;

	cr_assert_eq(rh_go(p), 0);
	cr_assert_eq(rh_read_all(p->out_fd, out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p->pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p->pid = -1;
	cr_assert(WIFEXITED(status), "workload status %#x", status);
}

/* Spawn `threads N park`: its "thread I tid T" lines into tids, up to "ready". */
static void threads_parked(struct rh_proc *p, long *tids, size_t n)
{
	char count[16], line[256];
	const char *wl[] = {rh_workload("threads"), count, "park", NULL};
	size_t got = 0;

	snprintf(count, sizeof(count), "%zu", n);
	cr_assert_eq(rh_spawn(p, wl, false), 0);
	for (;;) {
		cr_assert_geq(rh_read_line(p->out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
		if (!strcmp(line, "ready"))
			break;
		cr_assert_lt(got, n);
		tids[got++] = rh_field(line, "tid");
	}
	cr_assert_eq(got, n);
}

/* Each of the n parked threads' marker write (100 + i bytes) was made as "threads" of pid. */
static void assert_threads_described(const struct rh_trace *t, const struct who *w, pid_t pid,
				     const long *tids, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t markers = 0;

		for (size_t i = 0; i < t->nsc; i++) {
			if (t->sc[i].tid != (uint32_t)tids[k] || (int64_t)t->sc[i].nr != t->nr_write ||
			    t->sc[i].ret != (int64_t)(100 + k))
				continue;
			markers++;
			cr_assert_eq(w[i].pid, (uint32_t)pid);
			cr_assert_str_eq(w[i].comm, "threads", "thread %zu (tid %ld) described as '%s'", k, tids[k],
					 w[i].comm);
		}
		cr_assert_eq(markers, 1, "thread %zu (tid %ld): %zu marker writes", k, tids[k], markers);
	}
	cr_assert_eq(tids_as(t, w, "threads"), n + 1, "the threads and main");
}

Test(record_describe, shell_moving_itself_into_the_cgroup)
{
	char rel[64], script[PATH_MAX + 128], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "-G", cg_dir, NULL};
	const char *sh[] = {"/bin/sh", "-c", script, NULL};
	const struct rh_task *tasks[2];
	uint64_t id = rh_cgroup_make(cg_dir, "", rel, sizeof(rel));
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	struct who *w;
	pid_t shell;

	if (rh_perf_cgroup_refused(args))
		return;
	/* head takes the go byte outside the cgroup; then the shell moves itself in */
	snprintf(script, sizeof(script),
		 "head -c 1 >/dev/null; echo $$ > %s/cgroup.procs; for i in 1 2 3 4 5; do /bin/true; done", cg_dir);
	cr_assert_eq(rh_spawn(&p, sh, false), 0);
	shell = p.pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	assert_exit0(&rec);
	w = trace_described(&t, rh_trace_path);
	cr_assert_eq(tasks_of(&t, (uint32_t)shell, tasks, 2), 1, "TASK records of the shell");
	cr_assert_eq(tasks[0]->rec.pid, (uint32_t)shell);
	cr_assert_str_eq(tasks[0]->comm, "sh");
	assert_task_origin(&t, &tasks[0]->rec, (uint32_t)getpid(), id);
	cr_assert_gt(rh_count_syscalls(&t, (uint32_t)shell, (uint32_t)shell, -1), 0, "no call of the shell");
	for (size_t i = 0; i < t.nsc; i++) {
		cr_assert(!strcmp(w[i].comm, "sh") || !strcmp(w[i].comm, "true"), "call %zu of tid %u made as '%s'",
			  i, t.sc[i].tid, w[i].comm);
		if (t.sc[i].tid == (uint32_t)shell)
			cr_assert_str_eq(w[i].comm, "sh");
	}
	cr_assert_eq(tids_as(&t, w, "true"), 5, "the true processes");
	rh_trace_free(&t);
	free(w);
	free(out);
	rh_proc_release(&p);
}

/* A process of 8 threads made before the recorder started, moved into -G's cgroup whole. */
Test(record_describe, threads_moved_into_the_cgroup)
{
	char rel[64], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "-G", cg_dir, NULL};
	uint64_t id = rh_cgroup_make(cg_dir, "", rel, sizeof(rel));
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	struct who *w;
	long tids[8];
	pid_t pid;

	if (rh_perf_cgroup_refused(args))
		return;
	threads_parked(&p, tids, 8);
	pid = p.pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	rh_cgroup_move(cg_dir, pid);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	assert_exit0(&rec);
	w = trace_described(&t, rh_trace_path);
	assert_threads_described(&t, w, pid, tids, 8);
	for (size_t i = 0; i < t.ntask; i++) {
		cr_assert_eq(t.task[i].rec.pid, (uint32_t)pid, "TASK of pid %u", t.task[i].rec.pid);
		assert_task_origin(&t, &t.task[i].rec, (uint32_t)getpid(), id);
	}
	cr_assert_eq(t.ntask, 9, "one TASK record per thread");
	rh_trace_free(&t);
	free(w);
	free(out);
	rh_proc_release(&p);
}

/* -p of a process whose 8 threads exist before the recorder starts. */
Test(record_describe, threads_made_before_attach)
{
	char pid_arg[16], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "-p", pid_arg, NULL};
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	struct who *w;
	long tids[8];
	pid_t pid;

	threads_parked(&p, tids, 8);
	pid = p.pid;
	snprintf(pid_arg, sizeof(pid_arg), "%d", pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself");
	assert_exit0(&rec);
	w = trace_described(&t, rh_trace_path);
	assert_threads_described(&t, w, pid, tids, 8);
	cr_assert_eq(t.ntask, 9, "one TASK record per thread");
	rh_trace_free(&t);
	free(w);
	free(out);
	rh_proc_release(&p);
}

/* -p of a process that forks 50 children, each of which exits, then exits itself. */
Test(record_describe, pid_target_that_forks_and_exits)
{
	const char *wl[] = {rh_workload("forker"), "50", NULL};
	char pid_arg[16], line[256];
	const char *args[] = {"-o", rh_trace_path, "-p", pid_arg, NULL};
	static long children[50];
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	struct who *w;
	size_t n = 0;
	int status;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	snprintf(pid_arg, sizeof(pid_arg), "%d", p.pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	for (;;) {
		cr_assert_geq(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
		if (!strcmp(line, "done"))
			break;
		cr_assert_lt(n, 50);
		children[n++] = rh_field(line, "child");
	}
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself");
	assert_exit0(&rec);
	w = trace_described(&t, rh_trace_path);
	for (size_t i = 0; i < t.nsc; i++)
		cr_assert_str_eq(w[i].comm, "forker", "call %zu of tid %u made as '%s'", i, t.sc[i].tid, w[i].comm);
	for (size_t k = 0; k < n; k++) {
		size_t calls = 0;

		for (size_t i = 0; i < t.nsc; i++)
			if (t.sc[i].tid == (uint32_t)children[k] && (int64_t)t.sc[i].nr == t.nr_getppid) {
				cr_assert_eq(w[i].pid, (uint32_t)children[k]);
				calls++;
			}
		cr_assert_eq(calls, 1, "child %ld: %zu getppid calls", children[k], calls);
	}
	rh_trace_free(&t);
	free(w);
	rh_proc_release(&p);
}

/* The run of `sh -c 'for i in $(seq 100); do /bin/true; done'` under the recorder, into t. */
static struct who *exec_loop(struct rh_trace *t)
{
	const char *args[] = {"-o", rh_trace_path, "--", "/bin/sh", "-c",
			      "for i in $(seq 100); do /bin/true; done", NULL};
	struct rh_recorder rec;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself");
	assert_exit0(&rec);
	return trace_described(t, rh_trace_path);
}

Test(record_describe, exec_loop_describes_every_true)
{
	struct rh_trace t;
	struct who *w = exec_loop(&t);

	/* the command's own calls before its exec are the recorder's child's, held on a pipe */
	for (size_t i = 0; i < t.nsc; i++)
		cr_assert(!strcmp(w[i].comm, "sh") || !strcmp(w[i].comm, "seq") || !strcmp(w[i].comm, "true") ||
			  (!strcmp(w[i].comm, "sct-record") && t.sc[i].tid == t.task[0].rec.tid),
			  "call %zu of tid %u made as '%s'", i, t.sc[i].tid, w[i].comm);
	cr_assert_eq(t.ntask, 1, "TASK records: the command's");
	cr_assert_eq(tids_as(&t, w, "true"), 100, "the true processes");
	cr_assert_eq(tids_as(&t, w, "seq"), 1);
	rh_trace_free(&t);
	free(w);
}

/* sct-report's total line ("N ... total of G groups"): its calls, -1 if none. */
static long report_total(const char *out)
{
	const char *line = strstr(out, " total of ");
	const char *start;

	if (!line)
		return strstr(out, "no records") ? 0 : -1;
	for (start = line; start > out && start[-1] != '\n'; start--)
		;
	return strtol(start, NULL, 10);
}

/*
 * sct-report -c true counts every call named true, no more: the calls that returned after
 * the EXEC record of a true process, so its execve too, which entered as the shell's child.
 */
Test(record_describe, report_counts_every_call_of_true)
{
	const char *args[] = { "-c", "true", rh_trace_path, NULL };
	struct rh_trace t;
	struct who *w = exec_loop(&t);
	size_t calls = calls_named(&t, "true");
	char *out = rh_report(args);

	cr_assert_eq(calls, calls_as(&t, w, "true") + 100, "each true's execve, entered as sh, named true");
	cr_assert_eq(report_total(out), (long)calls, "sct-report -c true counts %ld calls, the trace holds %zu:\n%s",
		     report_total(out), calls, out);
	rh_trace_free(&t);
	free(w);
	free(out);
}

/*
 * A pid given to a second process within one session: two tasks, each described, each call
 * made as the one that made it. Both move themselves into -G's cgroup, after naming themselves
 * "first" and "second" (tests/record/workloads/reuser.c).
 */
Test(record_describe, tid_reused_within_a_session_is_two_tasks)
{
	char rel[64], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "-G", cg_dir, NULL};
	const char *wl[] = {rh_workload("reuser"), cg_dir, NULL};
	const struct rh_task *tasks[3];
	uint64_t id = rh_cgroup_make(cg_dir, "", rel, sizeof(rel));
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	size_t first = 0, second = 0, exits = 0;
	struct who *w;
	uint32_t tid;
	pid_t parent;

	if (rh_perf_cgroup_refused(args))
		return;
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	parent = p.pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	assert_exit0(&rec);
	tid = (uint32_t)rh_field(out, "pid");
	cr_assert_gt(tid, 0, "the pid was never given back: %s", out);
	w = trace_described(&t, rh_trace_path);
	cr_assert_eq(tasks_of(&t, tid, tasks, 3), 2, "TASK records of tid %u", tid);
	cr_assert_str_eq(tasks[0]->comm, "first", "tid %u described as '%s' at %lu, then '%s' at %lu", tid,
			 tasks[0]->comm, (unsigned long)tasks[0]->rec.time_ns, tasks[1]->comm,
			 (unsigned long)tasks[1]->rec.time_ns);
	cr_assert_str_eq(tasks[1]->comm, "second");
	for (size_t k = 0; k < 2; k++) {
		cr_assert_eq(tasks[k]->rec.pid, tid);
		assert_task_origin(&t, &tasks[k]->rec, (uint32_t)parent, id);
	}
	for (size_t i = 0; i < t.nsc; i++) {
		if (t.sc[i].tid != tid || (int64_t)t.sc[i].nr != t.nr_write)
			continue;
		if (t.sc[i].ret == 11) {
			cr_assert_str_eq(w[i].comm, tasks[0]->comm);
			cr_assert_lt(t.sc[i].time_ns, tasks[1]->rec.time_ns, "the first task's call after the second's start");
			first++;
		} else if (t.sc[i].ret == 22) {
			cr_assert_str_eq(w[i].comm, "second");
			second++;
		}
	}
	cr_assert_eq(first, 1);
	cr_assert_eq(second, 1);
	for (size_t i = 0; i < t.nexit; i++)
		exits += t.exit[i].tid == tid;
	cr_assert_eq(exits, 2, "EXIT records of tid %u", tid);
	rh_trace_free(&t);
	free(w);
	free(out);
	rh_proc_release(&p);
}
