/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record on the real kernel, beside other tracers and under failure: no veto over perf
 * or a second session, SIGKILL mid-run, a disk that fills up. Needs root and BPF.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record_helpers.h"

static char mnt_dir[RH_DIR_MAX + 16]; /* a tmpfs the test mounted, "" if none */

static void robust_fini(void)
{
	if (mnt_dir[0]) {
		umount2(mnt_dir, MNT_DETACH);
		rmdir(mnt_dir);
	}
	rh_teardown();
}

TestSuite(record_robust, .init = rh_setup, .fini = robust_fini, .timeout = 120);

/* perf stat needs the raw_syscalls tracepoints, which live in tracefs. */
static void tracefs_ensure(void)
{
	struct stat st;

	if (stat("/sys/kernel/tracing/events/raw_syscalls", &st) == 0)
		return;
	cr_assert_eq(mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL), 0, "mount tracefs: %s",
		     strerror(errno));
}

/* The count perf stat -x, wrote for raw_syscalls:sys_enter. */
static long perf_count(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long count = -1;

	cr_assert_not_null(f, "perf stat wrote no %s", path);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "raw_syscalls:sys_enter"))
			count = strtol(line, NULL, 10);
	fclose(f);
	return count;
}

Test(record_robust, no_veto_with_perf_and_a_second_session)
{
	const long n = 20000;
	char perf_out[RH_DIR_MAX + 16], pid[16], line[256], *rest = NULL;
	const char *argv[] = {"/usr/bin/perf", "stat", "-x,", "-o", perf_out, "-e",
			      "raw_syscalls:sys_enter", "--", rh_workload("nullwriter"), "20000", "7",
			      "announce", NULL};
	const char *args1[] = {"-o", rh_trace_path, "-p", pid, NULL};
	const char *args2[] = {"-o", rh_trace_path2, "-p", pid, NULL};
	struct rh_recorder r1, r2;
	struct rh_proc perf;
	struct rh_trace t;
	const char *paths[] = {rh_trace_path, rh_trace_path2};
	uint32_t wl;
	long counted;
	int status;

	cr_assert_eq(access("/usr/bin/perf", X_OK), 0, "perf is not installed (make deps)");
	tracefs_ensure();
	snprintf(perf_out, sizeof(perf_out), "%s/perf.txt", rh_dir);
	cr_assert_eq(rh_spawn(&perf, argv, false), 0);
	cr_assert_gt(rh_read_line(perf.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0, "perf stat did not start the workload");
	wl = (uint32_t)rh_field(line, "pid");
	snprintf(pid, sizeof(pid), "%u", wl);
	cr_assert_eq(rh_recorder_start(&r1, args1), 0, "recorder 1: %s", r1.err);
	cr_assert_eq(rh_recorder_start(&r2, args2), 0, "recorder 2: %s", r2.err);
	cr_assert_eq(rh_go(&perf), 0);
	cr_assert_eq(rh_read_all(perf.out_fd, &rest, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(perf.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	perf.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "perf stat status %#x", status);
	cr_assert_eq(rh_recorder_finish(&r1, 0, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_recorder_finish(&r2, 0, RH_TIMEOUT_MS), 0);
	counted = perf_count(perf_out);
	cr_assert_geq(counted, n + 1, "perf counted %ld syscalls, the workload made at least %ld", counted, n + 1);
	for (size_t i = 0; i < 2; i++) {
		struct rh_recorder *r = i ? &r2 : &r1;

		cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "recorder %zu: %s", i + 1, r->err);
		cr_assert_eq(rh_trace_read(paths[i], &t), 0);
		cr_assert_eq(t.err, 0);
		cr_assert_eq(t.nlost, 0);
		cr_assert_eq(rh_count_returns(&t, wl, t.nr_write, 7), (size_t)n, "session %zu", i + 1);
		cr_assert_eq(rh_count_syscalls(&t, wl, wl, t.nr_write), (size_t)n + 1, "session %zu", i + 1);
		cr_assert_leq(rh_count_syscalls(&t, wl, 0, -1), (size_t)counted,
			      "sct saw more syscalls than perf: perf lost some");
		rh_trace_free(&t);
	}
	free(rest);
	rh_proc_release(&perf);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

/*
 * Does the trace at path hold a SYSCALL record yet? Read up to the first one only: the file
 * grows while it is read, and a recorder of a syscall loop can outwrite a reader built with
 * sanitizers, which then never reaches the end.
 */
static bool has_syscall(const char *path)
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0, rc;

	r = sct_reader_open(path, &err);
	cr_assert(r, "reading %s: %s", path, sct_strerror(err));
	while ((rc = sct_reader_next(r, &rec)) == 1 && rec.type != SCT_REC_SYSCALL)
		;
	cr_assert_geq(rc, 0, "reading %s: %s", path, sct_strerror(rc));
	sct_reader_close(r);
	return rc == 1;
}

/* Wait until the trace at path holds at least one SYSCALL record (a block was flushed). */
static void wait_first_block(const char *path)
{
	struct timespec tick = {0, 20 * 1000 * 1000};
	off_t seen = file_size(path);

	for (int i = 0; i < 1500; i++) {
		off_t now = file_size(path);

		if (now > seen) {
			seen = now;
			if (has_syscall(path))
				return;
		}
		nanosleep(&tick, NULL);
	}
	cr_assert_fail("no block reached %s in 30 s", path);
}

/* Every record of the trace of `nullwriter 0 7` (pid) is well-formed. */
static void assert_writer_records(const struct rh_trace *t, uint32_t pid)
{
	size_t writes = 0;

	cr_assert_gt(t->nsc, 0);
	cr_assert_geq(t->nr_write, 0);
	for (size_t i = 0; i < t->nsc; i++) {
		const struct sct_syscall *sc = &t->sc[i];

		cr_assert_eq(sc->pid, pid);
		cr_assert_eq(sc->tid, pid);
		cr_assert_eq(sc->abi, SCT_ABI_NATIVE);
		cr_assert_gt(sc->time_ns, 0);
		if (sc->nr == t->nr_write && sc->ret == 7) {
			cr_assert_gt(sc->duration_ns, 0);
			writes++;
		}
	}
	cr_assert_gt(writes, 0);
	cr_assert_eq(t->stats.skipped_ranges, 0);
	cr_assert_eq(t->stats.bad_blocks, 0);
}

Test(record_robust, sigkill_leaves_a_readable_file)
{
	const char *wl[] = {rh_workload("nullwriter"), "0", "7", NULL};
	const char *args[] = {"-o", rh_trace_path, "--flush-interval", "0.2", "-p", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char pid[16];

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[5] = pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	wait_first_block(rh_trace_path);
	cr_assert_eq(rh_recorder_finish(&rec, SIGKILL, RH_TIMEOUT_MS), 0);
	cr_assert(WIFSIGNALED(rec.status) && WTERMSIG(rec.status) == SIGKILL);
	rh_proc_release(&p);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0, "reader: %s", sct_strerror(t.err));
	cr_assert_eq(t.sessions, 1);
	cr_assert(!t.has_trailer, "a killed recorder wrote a trailer");
	cr_assert_eq(t.stats.sessions_without_trailer, 1);
	cr_assert_geq(t.diags[SCT_DIAG_NO_TRAILER], 1, "the reader did not say the trace is incomplete");
	assert_writer_records(&t, (uint32_t)strtol(pid, NULL, 10));
	rh_trace_free(&t);
}

Test(record_robust, full_disk_stops_with_a_clear_message)
{
	const char *wl[] = {rh_workload("nullwriter"), "0", "7", NULL};
	char path[sizeof(mnt_dir) + 16], pid[16];
	const char *args[] = {"-o", path, "-p", pid, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;

	snprintf(mnt_dir, sizeof(mnt_dir), "%s/small", rh_dir);
	cr_assert_eq(mkdir(mnt_dir, 0700), 0);
	cr_assert_eq(mount("sct-test", mnt_dir, "tmpfs", 0, "size=256k"), 0, "mount tmpfs: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/trace.sct", mnt_dir);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	/* the workload writes forever: the recorder must stop on its own when the disk is full */
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop on a full disk");
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) != 0, "status %#x on a full disk:\n%s",
		  rec.status, rec.err);
	cr_assert_not_null(strstr(rec.err, strerror(ENOSPC)), "no '%s' in stderr:\n%s", strerror(ENOSPC), rec.err);
	rh_proc_release(&p);
	cr_assert_eq(rh_trace_read(path, &t), 0);
	cr_assert_eq(t.err, 0, "reader: %s", sct_strerror(t.err));
	assert_writer_records(&t, (uint32_t)strtol(pid, NULL, 10));
	rh_trace_free(&t);
}

Test(record_robust, duration_stops_the_recorder)
{
	const char *wl[] = {rh_workload("nullwriter"), "0", "7", NULL};
	char pid[16];
	const char *args[] = {"-o", rh_trace_path, "--duration", "0.5", "-p", pid, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	/* the workload never ends: only --duration can stop the recorder */
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder ran past --duration");
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	rh_proc_release(&p);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	/*
	 * No count is asserted: a writer that never stops can outrun a consumer that a loaded
	 * machine (or an emulated one) starves, and what it loses is then counted, as the
	 * overflow test below checks. Exact counts are for workloads that end.
	 */
	assert_writer_records(&t, (uint32_t)strtol(pid, NULL, 10));
	rh_trace_free(&t);
}

Test(record_robust, ring_buffer_overflow_is_counted_not_silent)
{
	const long n = 200000;
	const char *wl[] = {rh_workload("nullwriter"), "200000", "7", NULL};
	/* the smallest ring buffer cannot hold a burst of 200,000 syscalls: drops are likely */
	const char *extra[] = {"--ringbuf-size", "8K", NULL};
	struct rh_run run;
	struct rh_trace t;
	size_t writes;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run.rec.status) && WEXITSTATUS(run.rec.status) == 0, "%s", run.rec.err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	writes = rh_count_returns(&t, (uint32_t)run.wl_pid, t.nr_write, 7);
	cr_assert_leq(writes, (size_t)n);
	/* every write is either in the trace or counted in a LOST record */
	cr_assert_geq(writes + t.lost_count, (size_t)n, "%zu writes recorded, %lu lost, of %ld", writes,
		      (unsigned long)t.lost_count, n);
	cr_assert_eq(t.trailer.lost, t.lost_count, "trailer lost %lu, LOST records %lu",
		     (unsigned long)t.trailer.lost, (unsigned long)t.lost_count);
	if (writes < (size_t)n)
		cr_assert_gt(t.nlost, 0);
	rh_trace_free(&t);
	rh_run_release(&run);
}
