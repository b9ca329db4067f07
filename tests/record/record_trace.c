/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record on the real kernel: what lands in the trace, checked against the ground truth
 * that each workload (tests/record/workloads/) prints. Needs root and BPF (see rh_require_root).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_trace, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

/* The recorder stopped by itself with status 0 and the trace is whole and lossless. */
static void assert_clean(const struct rh_run *run, const struct rh_trace *t)
{
	cr_assert(WIFEXITED(run->rec.status) && WEXITSTATUS(run->rec.status) == 0,
		  "recorder status %#x, stderr:\n%s", run->rec.status, run->rec.err);
	cr_assert_eq(t->err, 0, "reader: %s", sct_strerror(t->err));
	cr_assert_eq(t->sessions, 1);
	cr_assert(t->has_trailer, "no trailer after a clean stop");
	cr_assert_eq(t->nlost, 0, "%zu LOST records (%lu events)", t->nlost, (unsigned long)t->lost_count);
	cr_assert_eq(t->trailer.lost, 0);
	cr_assert_eq(t->stats.skipped_ranges + t->stats.bad_blocks + t->stats.truncated_bytes, 0);
	cr_assert_geq(t->nr_write, 0, "no 'write' in the session's syscall table");
	cr_assert_geq(t->nr_getppid, 0, "no 'getppid' in the session's syscall table");
}

static void trace_load(struct rh_trace *t, const char *path)
{
	int err = rh_trace_read(path, t);

	cr_assert_eq(err, 0, "reading %s: %s", path, sct_strerror(err));
}

/* Lines of the workload's output that start with prefix, copied into lines (at most max). */
static size_t lines_with(const char *out, const char *prefix, char lines[][256], size_t max)
{
	size_t n = 0, plen = strlen(prefix);

	for (const char *p = out; p && *p && n < max;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len < 256 && !strncmp(p, prefix, plen)) {
			memcpy(lines[n], p, len);
			lines[n++][len] = '\0';
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

Test(record_trace, exact_writes_of_one_thread)
{
	const long n = 1000, len = 7;
	const char *wl[] = {rh_workload("nullwriter"), "1000", "7", NULL};
	char report[256];
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	pid = (uint32_t)run.wl_pid;
	cr_assert_eq(lines_with(run.out, "nullwriter pid", (char(*)[256])report, 1), 1, "output: %s", run.out);
	cr_assert_eq(rh_field(report, "pid"), pid);
	cr_assert_eq(rh_field(report, "tid"), pid);
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	/* n writes to /dev/null, then one write of the report line to stdout */
	cr_assert_eq(rh_count_syscalls(&t, pid, pid, t.nr_write), (size_t)n + 1);
	cr_assert_eq(rh_count_returns(&t, pid, t.nr_write, len), (size_t)n);
	cr_assert_eq(rh_count_returns(&t, pid, t.nr_write, (int64_t)strlen(report) + 1), 1);
	for (size_t i = 0; i < t.nsc; i++) {
		cr_assert_eq(t.sc[i].pid, pid, "record of pid %u", t.sc[i].pid);
		cr_assert_eq(t.sc[i].tid, pid);
		cr_assert_eq(t.sc[i].abi, SCT_ABI_NATIVE);
		if (t.sc[i].nr == t.nr_write) {
			cr_assert_gt(t.sc[i].duration_ns, 0);
			cr_assert_eq(t.sc[i].unfinished, 0);
		}
	}
	cr_assert_eq(t.trailer.records[SCT_REC_SYSCALL], t.nsc);
	rh_trace_free(&t);
	rh_run_release(&run);
}

/*
 * Calls whose record does not fit the BPF stage's 24-byte slot (a number past 16 bits, a
 * duration past 32) go to the ring buffer whole, after the calls their CPU staged before them:
 * on one CPU, the trace has every call once, in the order it was made, and exactly as made.
 */
Test(record_trace, calls_too_big_for_a_stage_slot_keep_their_place)
{
	enum { calls = 200 };
	char arg[16];
	const char *wl[] = {rh_workload("unusual"), arg, NULL};
	int64_t want[3 * calls + 2], nr, sleep_ns;
	const struct sct_syscall *big = NULL, *nap = NULL;
	struct rh_run run;
	struct rh_trace t;
	size_t n = 0, k = 0;
	uint32_t pid;

	snprintf(arg, sizeof(arg), "%d", calls);
	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0, "workload: %s", run.out);
	pid = (uint32_t)run.wl_pid;
	nr = rh_field(run.out, "nr");
	sleep_ns = rh_field(run.out, "sleep");
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	for (int i = 0; i < 3 * calls; i++) {
		if (i == calls)
			want[n++] = nr;
		if (i == 2 * calls)
			want[n++] = SYS_nanosleep;
		want[n++] = t.nr_getppid;
	}
	for (size_t i = 0; i < t.nsc; i++) {
		const struct sct_syscall *sc = &t.sc[i];

		if (sc->pid != pid || (sc->nr != t.nr_getppid && sc->nr != nr && sc->nr != SYS_nanosleep))
			continue;
		cr_assert_lt(k, n, "more calls than made");
		cr_assert_eq(sc->nr, want[k], "call %zu: nr %lld, not %lld", k, (long long)sc->nr, (long long)want[k]);
		big = sc->nr == nr ? sc : big;
		nap = sc->nr == SYS_nanosleep ? sc : nap;
		k++;
	}
	cr_assert_eq(k, n, "%zu of the %zu calls", k, n);
	cr_assert_eq(big->ret, -ENOSYS);
	cr_assert_eq(big->unfinished, 0);
	cr_assert_eq(nap->ret, 0);
	cr_assert_geq(nap->duration_ns, (uint64_t)sleep_ns, "slept %llu ns", (unsigned long long)nap->duration_ns);
	cr_assert_lt(big->time_ns, nap->time_ns);
	rh_trace_free(&t);
	rh_run_release(&run);
}

/* SYSCALL records of pid with that ABI, number and return value. */
static size_t count_abi(const struct rh_trace *t, uint32_t pid, uint8_t abi, int64_t nr, int64_t ret)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++)
		n += t->sc[i].pid == pid && t->sc[i].abi == abi && t->sc[i].nr == nr && t->sc[i].ret == ret;
	return n;
}

/*
 * ia32 calls (int $0x80) of a 64-bit process, among its native ones: each record has the ABI
 * its call was made with, whether sys_enter found the task by the helper or by its slot. The
 * perf backend has no ABI to give (raw_syscalls): it writes them as native, with their ia32
 * numbers, as the README says.
 */
Test(record_trace, ia32_calls_of_a_64_bit_process_are_compat)
{
	const char *wl[] = {rh_workload("compat"), rh_dir, NULL};
	const uint8_t abi = RH_PERF() ? SCT_ABI_NATIVE : SCT_ABI_COMPAT;
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;
	size_t compat = 0;
	long fd;

	rh_require_ia32();
	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0, "workload: %s", run.out);
	pid = (uint32_t)run.wl_pid;
	fd = rh_field(strstr(run.out, "fd"), "fd");
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	/* ia32 open, close and rename */
	cr_assert_eq(count_abi(&t, pid, abi, 5, fd), 1);
	cr_assert_eq(count_abi(&t, pid, abi, 6, 0), 1);
	cr_assert_eq(count_abi(&t, pid, abi, 38, 0), 1);
	for (size_t i = 0; i < t.nsc; i++)
		compat += t.sc[i].abi == SCT_ABI_COMPAT;
	cr_assert_eq(compat, abi == SCT_ABI_COMPAT ? 3 : 0, "%zu compat records", compat);
	/* then the native write of its "fd N" line */
	cr_assert_eq(count_abi(&t, pid, SCT_ABI_NATIVE, t.nr_write, (int64_t)strlen(run.out)), 1);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_trace, process_tree_lifecycle)
{
	const char *wl[] = {rh_workload("tree"), "5", "2", NULL}; /* 6 levels, 63 processes */
	static char nodes[63][256];
	struct rh_run run;
	struct rh_trace t;
	uint32_t root;
	size_t n, forks = 0;
	uint64_t began_ns = rh_mono_ns();

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	root = (uint32_t)run.wl_pid;
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 1);
	n = lines_with(run.out, "node ", nodes, 63);
	cr_assert_eq(n, 63, "tree printed %zu nodes", n);
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	for (size_t i = 0; i < n; i++) {
		uint32_t pid = (uint32_t)rh_field(nodes[i], "pid"), ppid = (uint32_t)rh_field(nodes[i], "ppid");
		int32_t code = (int32_t)rh_field(nodes[i], "code");
		const struct sct_fork *f = rh_find_fork(&t, pid);
		const struct sct_exit *e = rh_find_exit(&t, pid);

		if (pid == root) {
			cr_assert_null(f, "the root was forked before the recorder started");
		} else {
			cr_assert_not_null(f, "no FORK for %s", nodes[i]);
			cr_assert_eq(f->child_pid, pid);
			cr_assert_eq(f->parent_pid, ppid, "FORK parent %u for %s", f->parent_pid, nodes[i]);
			cr_assert_eq(f->parent_tid, ppid);
			cr_assert_eq(f->is_thread, 0);
			cr_assert_gt(f->child_start_ns, 0);
			forks++;
		}
		cr_assert_not_null(e, "no EXIT for %s", nodes[i]);
		cr_assert_eq(e->pid, pid);
		cr_assert_eq(e->exit_code, code, "EXIT code %d for %s", e->exit_code, nodes[i]);
		cr_assert_eq(e->signal, 0);
		cr_assert_eq(e->group_dead, 1);
		cr_assert_eq(rh_count_returns(&t, pid, t.nr_getppid, ppid), 1, "marker of %s", nodes[i]);
	}
	/* the root existed when the recorder started: a TASK snapshot instead of a FORK */
	cr_assert_eq(t.ntask, 1, "%zu TASK records", t.ntask);
	cr_assert_eq(t.task[0].rec.pid, root);
	cr_assert_eq(t.task[0].rec.tid, root);
	cr_assert_eq(t.task[0].rec.ppid, (uint32_t)getpid());
	rh_assert_task_start(&t.task[0].rec, began_ns);
	cr_assert_str_eq(t.task[0].comm, "tree");
	cr_assert_eq(forks, 62);
	cr_assert_eq(t.nfork, 62, "%zu FORK records for 62 forks", t.nfork);
	cr_assert_eq(t.nexit, 63);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_trace, threads_lifecycle)
{
	const char *wl[] = {rh_workload("threads"), "64", "life", NULL};
	static char threads[64][256];
	struct rh_run run;
	struct rh_trace t;
	const struct sct_exit *e;
	uint32_t pid;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	pid = (uint32_t)run.wl_pid;
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 7);
	cr_assert_eq(lines_with(run.out, "thread ", threads, 64), 64, "output: %s", run.out);
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	for (size_t i = 0; i < 64; i++) {
		long idx = rh_field(threads[i], "thread");
		uint32_t tid = (uint32_t)rh_field(threads[i], "tid");
		const struct sct_fork *f = rh_find_fork(&t, tid);

		cr_assert_not_null(f, "no FORK for %s", threads[i]);
		cr_assert_eq(f->child_pid, pid);
		cr_assert_eq(f->parent_pid, pid);
		cr_assert_eq(f->parent_tid, pid);
		cr_assert_eq(f->is_thread, 1);
		e = rh_find_exit(&t, tid);
		cr_assert_not_null(e, "no EXIT for %s", threads[i]);
		cr_assert_eq(e->pid, pid);
		cr_assert_eq(e->exit_code, 0);
		cr_assert_eq(e->group_dead, 0, "a joined thread's exit does not end the group");
		cr_assert_eq(rh_count_returns(&t, tid, t.nr_write, 100 + idx), 1, "marker of %s", threads[i]);
	}
	e = rh_find_exit(&t, pid);
	cr_assert_not_null(e, "no EXIT for the main thread");
	cr_assert_eq(e->exit_code, 7);
	cr_assert_eq(e->group_dead, 1);
	cr_assert_eq(t.nfork, 64);
	cr_assert_eq(t.nexit, 65);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_trace, exec_chain)
{
	const char *wl[] = {rh_workload("execchain"), "chain", "3", NULL};
	char lines[4][256];
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	pid = (uint32_t)run.wl_pid;
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0);
	cr_assert_eq(lines_with(run.out, "exec level ", lines, 4), 4, "output: %s", run.out);
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	cr_assert_eq(t.nexec, 3, "%zu EXEC records for 3 execs", t.nexec);
	for (size_t i = 0; i < 3; i++) {
		const char *file = strstr(lines[i], " file ") + 6;

		cr_assert_eq(rh_field(lines[i], "pid"), pid);
		cr_assert_eq(t.exec[i].rec.pid, pid);
		cr_assert_eq(t.exec[i].rec.tid, pid);
		cr_assert_eq(t.exec[i].rec.old_tid, pid);
		cr_assert_str_eq(t.exec[i].filename, file);
		cr_assert_str_eq(t.exec[i].comm, "execchain");
	}
	/* every image, before and after each exec, made its marker write */
	for (long level = 0; level <= 3; level++)
		cr_assert_eq(rh_count_returns(&t, pid, t.nr_write, 200 + level), 1, "marker of level %ld", level);
	rh_trace_free(&t);
	rh_run_release(&run);
}

/*
 * The smallest ring buffer accepted holds an EXEC event with its whole filename. The first
 * exec comes when the buffer holds at most three syscall events (the workload was blocked on
 * its go byte), so it is always there; later ones can be lost to so small a buffer on a busy
 * machine, but never silently.
 */
Test(record_trace, exec_fits_the_smallest_ring_buffer)
{
	const char *wl[] = {rh_workload("execchain"), "chain", "3", NULL};
	const char *extra[] = {"--ringbuf-size", "8K", NULL};
	char lines[4][256];
	struct rh_run run;
	struct rh_trace t;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0);
	cr_assert_eq(lines_with(run.out, "exec level ", lines, 4), 4, "output: %s", run.out);
	trace_load(&t, rh_trace_path);
	cr_assert_geq(t.nexec, 1, "no EXEC record, %lu events lost", (unsigned long)t.lost_count);
	cr_assert_str_eq(t.exec[0].filename, strstr(lines[0], " file ") + 6);
	cr_assert(t.nexec == 3 || t.nlost > 0, "%zu EXEC records for 3 execs and no LOST record", t.nexec);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_trace, exec_by_non_leader_thread)
{
	const char *wl[] = {rh_workload("execchain"), "thread", NULL};
	char thread[1][256], post[1][256];
	struct rh_run run;
	struct rh_trace t;
	const struct rh_exec *x;
	uint32_t pid, old_tid;
	size_t after = 0;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, NULL), 0, "run failed (see stderr)");
	pid = (uint32_t)run.wl_pid;
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0);
	cr_assert_eq(lines_with(run.out, "thread tid ", thread, 1), 1, "output: %s", run.out);
	cr_assert_eq(lines_with(run.out, "post pid ", post, 1), 1, "output: %s", run.out);
	old_tid = (uint32_t)rh_field(thread[0], "tid");
	cr_assert_neq(old_tid, pid);
	cr_assert_eq(rh_field(post[0], "pid"), pid);
	cr_assert_eq(rh_field(post[0], "tid"), pid, "after exec the thread has the leader's pid");
	trace_load(&t, rh_trace_path);
	assert_clean(&run, &t);
	cr_assert_eq(t.nexec, 1);
	x = &t.exec[0];
	cr_assert_eq(x->rec.pid, pid);
	cr_assert_eq(x->rec.tid, pid);
	cr_assert_eq(x->rec.old_tid, old_tid);
	cr_assert_str_eq(x->filename, strstr(thread[0], " file ") + 6);
	/* the execve returns to the thread under its new tid, whether it slept or not */
	cr_assert_eq(rh_count_returns(&t, pid, t.nr_execve, 0), 1);
	cr_assert_eq(rh_count_syscalls(&t, pid, pid, t.nr_execve), 1);
	/* still traced under its new tid: the post-exec image's three writes are there */
	for (size_t i = 0; i < t.nsc; i++)
		if (t.sc[i].tid == pid && t.sc[i].nr == t.nr_write && t.sc[i].ret == 300 &&
		    t.sc[i].time_ns > x->rec.time_ns)
			after++;
	cr_assert_eq(after, 3, "%zu of the 3 post-exec writes traced", after);
	for (size_t i = 0; i < t.nsc; i++)
		cr_assert(t.sc[i].tid != old_tid || t.sc[i].time_ns < x->rec.time_ns,
			  "a record of the old tid %u after the exec", old_tid);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_trace, command_after_dashdash_is_traced_from_its_exec)
{
	const char *writer = rh_workload("nullwriter");
	char file[PATH_MAX], report[1][256], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "--", file, "50", "7", NULL};
	struct rh_recorder rec;
	struct rh_trace t;
	uint32_t pid;
	const struct sct_exit *e;

	snprintf(file, sizeof(file), "%s", writer);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	/* the command shares the recorder's stdin and stdout */
	cr_assert_eq(rh_go(&rec.proc), 0);
	cr_assert_eq(rh_read_all(rec.proc.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_eq(lines_with(out, "nullwriter pid ", report, 1), 1, "command output: %s", out);
	pid = (uint32_t)rh_field(report[0], "pid");
	trace_load(&t, rh_trace_path);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(t.nlost, 0);
	cr_assert_eq(t.nexec, 1, "%zu EXEC records", t.nexec);
	cr_assert_eq(t.exec[0].rec.pid, pid);
	cr_assert_eq(t.exec[0].rec.old_tid, pid);
	cr_assert_str_eq(t.exec[0].filename, file);
	cr_assert_str_eq(t.exec[0].comm, "nullwriter");
	cr_assert_eq(rh_count_returns(&t, pid, t.nr_write, 7), 50);
	cr_assert_eq(rh_count_syscalls(&t, pid, pid, t.nr_write), 51);
	e = rh_find_exit(&t, pid);
	cr_assert_not_null(e, "no EXIT of the command");
	cr_assert_eq(e->exit_code, 0);
	cr_assert_eq(e->group_dead, 1);
	rh_trace_free(&t);
	free(out);
}

Test(record_trace, exec_by_traced_thread_under_tid_filter)
{
	const char *wl[] = {rh_workload("execchain"), "thread", NULL};
	const char *args[] = {"-o", rh_trace_path, "-t", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char line[256], tid[16], *out = NULL;
	uint32_t pid, old_tid;
	uint64_t exec_ns;
	size_t after = 0, execs = 0;
	int status;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	pid = (uint32_t)p.pid;
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	old_tid = (uint32_t)rh_field(line, "tid");
	cr_assert_neq(old_tid, pid);
	snprintf(tid, sizeof(tid), "%u", old_tid);
	args[3] = tid;
	/* only the second thread is traced; its exec makes it the leader, under the pid */
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	trace_load(&t, rh_trace_path);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(t.nexec, 1, "%zu EXEC records", t.nexec);
	cr_assert_eq(t.exec[0].rec.tid, pid);
	cr_assert_eq(t.exec[0].rec.old_tid, old_tid);
	exec_ns = t.exec[0].rec.time_ns;
	for (size_t i = 0; i < t.nsc; i++) {
		/*
		 * The execve itself ends under the new tid: the kernel swapped the thread's pid with
		 * the leader's before sys_exit. Every other record before the exec is the thread's.
		 */
		if (t.sc[i].time_ns < exec_ns && t.sc[i].nr == t.nr_execve && t.sc[i].ret == 0) {
			cr_assert_eq(t.sc[i].tid, pid);
			execs++;
		} else if (t.sc[i].time_ns < exec_ns) {
			cr_assert_eq(t.sc[i].tid, old_tid, "a record of the untraced leader %u before the exec",
				     t.sc[i].tid);
		}
		after += t.sc[i].tid == pid && t.sc[i].nr == t.nr_write && t.sc[i].ret == 300;
	}
	cr_assert_eq(execs, 1, "%zu successful execve records", execs);
	cr_assert_eq(after, 3, "%zu of the 3 post-exec writes traced", after);
	cr_assert_not_null(rh_find_exit(&t, pid), "no EXIT after the exec");
	rh_trace_free(&t);
	free(out);
	rh_proc_release(&p);
}

Test(record_trace, all_tasks_but_the_recorder)
{
	const char *wl[] = {rh_workload("nullwriter"), "500", "7", NULL};
	const char *args[] = {"-o", rh_trace_path, "-a", NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char *out = NULL;
	uint32_t pid, self;
	int status;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	pid = (uint32_t)p.pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	self = (uint32_t)rec.proc.pid;
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	trace_load(&t, rh_trace_path);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	if (t.nlost == 0) {
		cr_assert_eq(rh_count_returns(&t, pid, t.nr_write, 7), 500);
		cr_assert_eq(rh_count_syscalls(&t, pid, pid, t.nr_write), 501);
	}
	cr_assert_eq(rh_count_syscalls(&t, self, 0, -1), 0, "the recorder traced itself");
	for (size_t i = 0; i < t.nfork; i++)
		cr_assert_neq(t.fork[i].parent_pid, self, "the recorder's own fork was traced");
	rh_trace_free(&t);
	free(out);
	rh_proc_release(&p);
}

/*
 * A call still blocked when the recorder stops is written once, as unfinished: the task
 * iterator reads it from the in-flight slot of its task (task storage or the tid hash map).
 * After its line the workload makes one more call: the read that blocks.
 */
Test(record_trace, call_in_flight_at_stop_is_unfinished)
{
	const char *wl[] = {rh_workload("blocker"), NULL};

	rh_assert_stop_during_call(wl, SYS_read, false, NULL);
}

/*
 * A call still running on its CPU when the recorder stops is written once, as unfinished:
 * the recorder reads it from the CPU's slot (cpu_calls), since its task never left the CPU
 * for sched_switch to park the call (or from its task storage, if it did). After its line
 * the workload's only kernel time is its getrandom.
 */
Test(record_trace, call_running_at_stop_is_unfinished)
{
	const char *wl[] = {rh_workload("spinner"), "134217728", NULL};

	rh_assert_stop_during_call(wl, SYS_getrandom, true, NULL);
}
