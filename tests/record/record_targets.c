/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record on the real kernel: who gets traced. Cgroup ids and -G, -t, the startup race of
 * a forking target, and a targets map too small for the target. Needs root and BPF.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

static char cg_dir[PATH_MAX];   /* the fresh cgroup of the test, "" if none */
static char cg_other[PATH_MAX]; /* a second one, for the tests that move a task */

static void targets_fini(void)
{
	if (cg_dir[0])
		rmdir(cg_dir);
	if (cg_other[0])
		rmdir(cg_other);
	rh_teardown();
}

TestSuite(record_targets, .init = rh_setup, .fini = targets_fini, .timeout = 120);

static void trace_load(struct rh_trace *t, const char *path)
{
	int err = rh_trace_read(path, t);

	cr_assert_eq(err, 0, "reading %s: %s", path, sct_strerror(err));
	cr_assert_eq(t->err, 0, "reader: %s", sct_strerror(t->err));
	cr_assert(t->has_trailer, "no trailer after a clean stop");
	cr_assert_eq(t->nlost, 0, "%zu LOST records", t->nlost);
	cr_assert_geq(t->nr_write, 0);
	cr_assert_geq(t->nr_getppid, 0);
}

static void assert_exit0(const struct rh_recorder *r)
{
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "recorder status %#x, stderr:\n%s",
		  r->status, r->err);
}

static uint64_t cgroup_make(char *rel, size_t cap)
{
	return rh_cgroup_make(cg_dir, "", rel, cap);
}

static void cgroup_enter(pid_t pid)
{
	rh_cgroup_move(cg_dir, pid);
}

/* Run the workload to its end and reap it. */
static void workload_finish(struct rh_proc *p, char **out)
{
	int status;

	cr_assert_eq(rh_go(p), 0);
	cr_assert_eq(rh_read_all(p->out_fd, out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p->pid, RH_TIMEOUT_MS, &status, NULL), 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "workload status %#x", status);
	p->pid = -1;
}

Test(record_targets, cgroup_id_and_path)
{
	const char *wl[] = {rh_workload("nullwriter"), "100", "7", NULL};
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char rel[64], pid[16], *out = NULL;
	uint64_t id = cgroup_make(rel, sizeof(rel));
	size_t writes = 0, paths = 0;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	cgroup_enter(p.pid);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[3] = pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	for (size_t i = 0; i < t.nsc; i++) {
		cr_assert_eq(t.sc[i].cgroup_id, id, "cgroup id %lu, want %lu (inode of %s)",
			     (unsigned long)t.sc[i].cgroup_id, (unsigned long)id, cg_dir);
		writes += t.sc[i].nr == t.nr_write && t.sc[i].ret == 7;
	}
	cr_assert_eq(writes, 100);
	for (size_t i = 0; i < t.ncgroup; i++)
		if (t.cgroup[i].id == id) {
			cr_assert_str_eq(t.cgroup[i].path, rel);
			paths++;
		}
	cr_assert_eq(paths, 1, "%zu CGROUP records map id %lu", paths, (unsigned long)id);
	rh_trace_free(&t);
	free(out);
	rh_proc_release(&p);
}

Test(record_targets, cgroup_filter_traces_only_inside)
{
	const char *in_wl[] = {rh_workload("nullwriter"), "100", "7", NULL};
	const char *out_wl[] = {rh_workload("nullwriter"), "100", "9", NULL};
	const char *args[] = {"-o", rh_trace_path, "-G", cg_dir, NULL};
	struct rh_proc in, outside;
	struct rh_recorder rec;
	struct rh_trace t;
	char rel[64], *in_out = NULL, *outside_out = NULL;
	uint64_t id = cgroup_make(rel, sizeof(rel));
	uint32_t in_pid, outside_pid;

	if (rh_perf_cgroup_refused(args))
		return;
	cr_assert_eq(rh_spawn(&in, in_wl, false), 0);
	cgroup_enter(in.pid);
	cr_assert_eq(rh_spawn(&outside, out_wl, false), 0);
	in_pid = (uint32_t)in.pid;
	outside_pid = (uint32_t)outside.pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	workload_finish(&in, &in_out);
	workload_finish(&outside, &outside_out);
	/* a cgroup may get new tasks at any time: -G records until told to stop */
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	cr_assert_eq(rh_count_returns(&t, in_pid, t.nr_write, 7), 100);
	cr_assert_eq(rh_count_syscalls(&t, outside_pid, 0, -1), 0,
		     "the workload outside the cgroup was traced");
	for (size_t i = 0; i < t.nsc; i++)
		cr_assert_eq(t.sc[i].cgroup_id, id, "record of pid %u in cgroup %lu", t.sc[i].pid,
			     (unsigned long)t.sc[i].cgroup_id);
	rh_trace_free(&t);
	free(in_out);
	free(outside_out);
	rh_proc_release(&in);
	rh_proc_release(&outside);
}

/* Spawn `threads N park` and read its "thread I tid T" lines up to "ready". */
static void threads_parked(struct rh_proc *p, const char *n, long *tids, size_t max)
{
	const char *wl[] = {rh_workload("threads"), n, "park", NULL};
	char line[256];
	size_t got = 0;

	cr_assert_eq(rh_spawn(p, wl, false), 0);
	for (;;) {
		cr_assert_geq(rh_read_line(p->out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
		if (!strcmp(line, "ready"))
			break;
		cr_assert_lt(got, max);
		tids[got++] = rh_field(line, "tid");
	}
	cr_assert_eq(got, max);
}

Test(record_targets, tid_filter_leaves_siblings_out)
{
	const char *args[] = {"-o", rh_trace_path, "-t", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	long tids[8];
	char tid[16], *out = NULL;
	int status;

	threads_parked(&p, "8", tids, 8);
	snprintf(tid, sizeof(tid), "%ld", tids[3]);
	args[3] = tid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	cr_assert_eq(rh_count_returns(&t, (uint32_t)tids[3], t.nr_write, 103), 1, "the traced thread's marker");
	for (size_t i = 0; i < t.nsc; i++)
		cr_assert_eq(t.sc[i].tid, (uint32_t)tids[3], "sibling %u traced", t.sc[i].tid);
	for (size_t i = 0; i < t.nexit; i++)
		cr_assert_eq(t.exit[i].tid, (uint32_t)tids[3], "EXIT of sibling %u", t.exit[i].tid);
	cr_assert_eq(t.nexit, 1);
	cr_assert_eq(t.nfork, 0);
	rh_trace_free(&t);
	free(out);
	rh_proc_release(&p);
}

Test(record_targets, startup_race_with_forking_target)
{
	const char *wl[] = {rh_workload("forker"), "200", NULL};
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	static long children[200];
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char line[256], pid[16];
	size_t n = 0;
	uint32_t forker;
	int status;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	forker = (uint32_t)rh_field(line, "pid");
	cr_assert_eq(forker, (uint32_t)p.pid);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[3] = pid;
	/* the forker is busy forking while the recorder starts */
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0); /* from now on every child is one created after "ready" */
	for (;;) {
		cr_assert_geq(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
		if (!strcmp(line, "done"))
			break;
		cr_assert_lt(n, 200);
		children[n++] = rh_field(line, "child");
	}
	cr_assert_eq(n, 200);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	for (size_t i = 0; i < n; i++) {
		uint32_t c = (uint32_t)children[i];
		const struct sct_fork *f = rh_find_fork(&t, c);
		const struct sct_exit *e = rh_find_exit(&t, c);

		cr_assert_not_null(f, "child %u forked after ready: no FORK", c);
		cr_assert_eq(f->parent_pid, forker);
		cr_assert_eq(f->child_pid, c);
		cr_assert_eq(f->is_thread, 0);
		cr_assert_not_null(e, "child %u forked after ready: no EXIT", c);
		cr_assert_eq(e->exit_code, 3);
		cr_assert_geq(rh_count_returns(&t, c, t.nr_getppid, forker), 1, "child %u: no getppid", c);
	}
	rh_trace_free(&t);
	rh_proc_release(&p);
}

Test(record_targets, max_tasks_warning_counts_the_rest)
{
	const char *args[] = {"-o", rh_trace_path, "--max-tasks", "8", "-p", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	long tids[64];
	char pid[16], *out = NULL;
	size_t full = 0;
	int status;

	threads_parked(&p, "64", tids, 64);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[5] = pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	/* 65 tasks (the main thread and 64 threads) were alive at start; 8 fit */
	for (size_t i = 0; i < t.nwarning; i++)
		if (t.warning[i].rec.kind == SCT_WARN_TARGETS_FULL) {
			cr_assert_eq(t.warning[i].rec.count, 57, "WARNING says %lu did not fit: %s",
				     (unsigned long)t.warning[i].rec.count, t.warning[i].text);
			full++;
		}
	cr_assert_eq(full, 1, "%zu targets-full WARNING records", full);
	cr_assert_not_null(strstr(rec.err, "57"), "no stderr line with the count:\n%s", rec.err);
	rh_trace_free(&t);
	free(out);
	rh_proc_release(&p);
}

Test(record_targets, full_map_at_run_time_counts_every_untraced_child)
{
	const char *wl[] = {rh_workload("tree"), "5", "2", NULL};
	const char *extra[] = {"--max-tasks", "4", NULL};
	struct rh_run run;
	struct rh_trace t;
	uint64_t warned = 0;
	size_t untraced = 0, traced = 0;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	assert_exit0(&run.rec);
	trace_load(&t, rh_trace_path);
	for (size_t i = 0; i < t.nwarning; i++)
		if (t.warning[i].rec.kind == SCT_WARN_TARGETS_FULL)
			warned += t.warning[i].rec.count;
	/* a traced parent's child either fit in the map (it has an EXIT) or was counted */
	for (size_t i = 0; i < t.nfork; i++) {
		const struct sct_exit *e = rh_find_exit(&t, t.fork[i].child_tid);

		if (e) {
			traced++;
			cr_assert_gt(rh_count_syscalls(&t, t.fork[i].child_pid, 0, -1), 0);
		} else {
			untraced++;
			cr_assert_eq(rh_count_syscalls(&t, t.fork[i].child_pid, 0, -1), 0);
		}
	}
	cr_assert_gt(untraced, 0, "4 slots held the whole tree of 63 processes");
	cr_assert_eq(warned, untraced, "WARNING records count %lu untraced tasks, the trace shows %zu",
		     (unsigned long)warned, untraced);
	cr_assert_eq(t.nexit, traced + 1, "EXIT records of the root and every traced child");
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_targets, pid_list)
{
	const char *wl1[] = {rh_workload("nullwriter"), "300", "7", NULL};
	const char *wl2[] = {rh_workload("nullwriter"), "400", "9", NULL};
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	struct rh_proc p1, p2;
	struct rh_recorder rec;
	struct rh_trace t;
	char pids[40], *out1 = NULL, *out2 = NULL;
	uint32_t pid1, pid2;

	cr_assert_eq(rh_spawn(&p1, wl1, false), 0);
	cr_assert_eq(rh_spawn(&p2, wl2, false), 0);
	pid1 = (uint32_t)p1.pid;
	pid2 = (uint32_t)p2.pid;
	snprintf(pids, sizeof(pids), "%u,%u", pid1, pid2);
	args[3] = pids;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_neq(strstr(rec.err, "tracing 2 tasks"), NULL, "%s", rec.err);
	workload_finish(&p1, &out1);
	workload_finish(&p2, &out2);
	/* both gone: the recorder stops by itself */
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	assert_exit0(&rec);
	trace_load(&t, rh_trace_path);
	cr_assert_eq(rh_count_returns(&t, pid1, t.nr_write, 7), 300);
	cr_assert_eq(rh_count_returns(&t, pid2, t.nr_write, 9), 400);
	cr_assert_eq(rh_count_syscalls(&t, pid1, pid1, t.nr_write), 301);
	cr_assert_eq(rh_count_syscalls(&t, pid2, pid2, t.nr_write), 401);
	cr_assert_eq(t.ntask, 2);
	rh_trace_free(&t);
	free(out1);
	free(out2);
	rh_proc_release(&p1);
	rh_proc_release(&p2);
}

/*
 * A run of the mover, moved from cgroup from to cgroup to by a write(2) of the test that
 * started at moving_ns. A call that ended before then ran in from: a recorder reads the
 * cgroup id before it stamps a call's end. A call made later may have been judged (traced,
 * in which cgroup) before the move was done: a program stamps a call's entry after it judges
 * the call, and in a VM a vCPU can stall for a long time in between. Only the getuid(2) the
 * mover makes once the test has told it it was moved is surely judged after the move.
 */
struct mover {
	uint32_t pid;
	uint64_t from, to;
	uint64_t moving_ns;
	bool kernel_ids; /* the recorder's cgroup ids are the kernel's at each call */
	struct rh_trace t;
};

static void cpu_pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	cr_assert_eq(sched_setaffinity(pid, sizeof(set), &set), 0, "pin %d to CPU %d: %s", pid, cpu,
		     strerror(errno));
}

/*
 * The mover runs from one cgroup to the other without sleeping: it is moved while it calls
 * getppid(2) in a loop, told so, and calls getuid(2). args: the recorder's, "-p" followed by
 * *pid_arg, filled in here, or "-G DIR" (pid_arg NULL). False: -G refused by rh_perf_cgroup_refused().
 */
static bool mover_run(const char **args, const char **pid_arg, struct mover *m)
{
	const char *wl[] = {rh_workload("mover"), NULL};
	char rel[64], rel2[64], pid_s[16], line[128], *out = NULL;
	struct rh_recorder rec;
	struct rh_proc p;

	m->from = cgroup_make(rel, sizeof(rel));
	m->to = rh_cgroup_make(cg_other, "-to", rel2, sizeof(rel2));
	if (!pid_arg && rh_perf_cgroup_refused(args))
		return false;
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	m->pid = (uint32_t)p.pid;
	/*
	 * The mover alone on a CPU, the test and the recorder it starts on another: no wakeup
	 * preempts the mover, so a recorder that learnt of the move only at a context switch
	 * would show it (each process of this test is its own, criterion forks per test).
	 */
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		cpu_pin(0, 0);
		cpu_pin(p.pid, 1);
	}
	cgroup_enter(p.pid);
	snprintf(pid_s, sizeof(pid_s), "%d", p.pid);
	if (pid_arg)
		*pid_arg = pid_s;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	/* perf without PERF_SAMPLE_CGROUP reads a task's cgroup once (README: Backends) */
	m->kernel_ids = !strstr(rec.err, "recorder cgroup ids");
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	m->moving_ns = rh_mono_ns();
	rh_cgroup_move(cg_other, p.pid);
	workload_finish(&p, &out);
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	assert_exit0(&rec);
	trace_load(&m->t, rh_trace_path);
	free(out);
	rh_proc_release(&p);
	return true;
}

/* The mover's calls of nr; only those that ended before the move with before. */
static size_t mover_count(const struct mover *m, long nr, bool before)
{
	size_t n = 0;

	for (size_t i = 0; i < m->t.nsc; i++) {
		const struct sct_syscall *sc = &m->t.sc[i];

		n += sc->pid == m->pid && sc->nr == nr &&
		     (!before || sc->time_ns + sc->duration_ns < m->moving_ns);
	}
	return n;
}

/* The cgroup id of the mover's getuid(2) record: it must have exactly one. */
static uint64_t mover_getuid_cgroup(const struct mover *m)
{
	cr_assert_eq(mover_count(m, SYS_getuid, false), 1, "no getuid record after the move");
	for (size_t i = 0; i < m->t.nsc; i++)
		if (m->t.sc[i].pid == m->pid && m->t.sc[i].nr == SYS_getuid)
			return m->t.sc[i].cgroup_id;
	return 0;
}

/* Every call of the mover that ended before the move is in cgroup from. */
static void mover_assert_before(const struct mover *m)
{
	cr_assert_gt(mover_count(m, SYS_getppid, true), 0, "no getppid before the move");
	for (size_t i = 0; i < m->t.nsc; i++) {
		const struct sct_syscall *sc = &m->t.sc[i];

		if (sc->pid == m->pid && sc->time_ns + sc->duration_ns < m->moving_ns)
			cr_assert_eq(sc->cgroup_id, m->from, "before the move: syscall %u in cgroup %lu, want %lu",
				     sc->nr, (unsigned long)sc->cgroup_id, (unsigned long)m->from);
	}
}

Test(record_targets, cgroup_id_follows_a_move_while_running)
{
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	struct mover m;
	uint64_t id;

	cr_assert(mover_run(args, &args[3], &m));
	mover_assert_before(&m);
	id = mover_getuid_cgroup(&m);
	if (m.kernel_ids)
		cr_assert_eq(id, m.to, "after the move: cgroup %lu, want %lu", (unsigned long)id,
			     (unsigned long)m.to);
	rh_trace_free(&m.t);
}

Test(record_targets, cgroup_filter_drops_a_task_moved_out_while_running)
{
	const char *args[] = {"-o", rh_trace_path, "-G", cg_dir, NULL};
	struct mover m;

	if (!mover_run(args, NULL, &m))
		return;
	mover_assert_before(&m);
	cr_assert_eq(mover_count(&m, SYS_getuid, false), 0,
		     "the getuid after the move out of the cgroup was traced");
	rh_trace_free(&m.t);
}
