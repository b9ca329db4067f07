/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record's output: never through a symbolic link, never into another name's inode, the
 * real byte count for a FIFO, blocks on disk as often as --flush-interval says, a fresh
 * recording id in every recording's HEADER. Needs root.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_output, .init = rh_setup, .fini = rh_teardown, .timeout = 60);

static char victim[RH_DIR_MAX + 16];

/* A 0644 file holding "keep", the file an attacker would like root to overwrite. */
static void victim_make(void)
{
	int fd;

	snprintf(victim, sizeof(victim), "%s/victim", rh_dir);
	fd = open(victim, O_CREAT | O_WRONLY | O_EXCL, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fchmod(fd, 0644), 0);
	cr_assert_eq(write(fd, "keep", 4), 4);
	close(fd);
}

static void victim_assert_untouched(void)
{
	char buf[16] = {0};
	struct stat st;
	int fd = open(victim, O_RDONLY);

	cr_assert_geq(fd, 0);
	cr_assert_eq(read(fd, buf, sizeof(buf)), 4, "the victim's size changed");
	close(fd);
	cr_assert_str_eq(buf, "keep");
	cr_assert_eq(stat(victim, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0644, "the victim's mode is now %o", st.st_mode & 07777);
}

Test(record_output, symlink_is_refused_with_and_without_force)
{
	char pid[16];
	const char *plain[] = {"-o", rh_trace_path, "-p", pid, NULL};
	const char *forced[] = {"-o", rh_trace_path, "--force", "-p", pid, NULL};
	const char *const *runs[] = {plain, forced};
	struct stat st;

	victim_make();
	cr_assert_eq(symlink(victim, rh_trace_path), 0);
	snprintf(pid, sizeof(pid), "%d", getpid());
	for (size_t i = 0; i < 2; i++) {
		struct rh_recorder rec;
		int ret = rh_recorder_start(&rec, runs[i]);

		if (ret == 0)
			rh_recorder_finish(&rec, SIGKILL, RH_TIMEOUT_MS);
		cr_assert_eq(ret, -ECHILD, "run %zu was not refused:\n%s", i, rec.err);
		cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x:\n%s", rec.status,
			  rec.err);
		cr_assert_not_null(strstr(rec.err, "is a symbolic link"), "run %zu:\n%s", i, rec.err);
		victim_assert_untouched();
		cr_assert_eq(lstat(rh_trace_path, &st), 0);
		cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
	}
}

/* --force replaces the name: the old inode, shared with another name, keeps its bytes and mode. */
Test(record_output, force_replaces_the_name_not_a_hard_linked_file)
{
	const char *wl[] = {rh_workload("nullwriter"), "10", "7", NULL};
	char pid[16];
	const char *args[] = {"-o", rh_trace_path, "--force", "-p", pid, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	struct stat st;

	victim_make();
	cr_assert_eq(link(victim, rh_trace_path), 0);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	victim_assert_untouched();
	cr_assert_eq(stat(rh_trace_path, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0600, "trace mode %o", st.st_mode & 07777);
	cr_assert_eq(st.st_nlink, 1);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(rh_count_returns(&t, (uint32_t)p.pid, t.nr_write, 7), 10);
	rh_trace_free(&t);
	rh_proc_release(&p);
}

/* A FIFO is written into without --force, and the summary counts what went through it. */
Test(record_output, fifo_bytes_are_counted)
{
	const char *wl[] = {rh_workload("nullwriter"), "10", "7", NULL};
	char fifo[RH_DIR_MAX + 16], pid[16], want[128];
	const char *args[] = {"-o", fifo, "-p", pid, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	size_t got;
	int fd;

	snprintf(fifo, sizeof(fifo), "%s/fifo", rh_dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	/* The read end first, so the recorder's open for writing does not wait. */
	fd = open(fifo, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(fd, 0);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	got = rh_drain_to_file(fd, rh_trace_path);
	close(fd);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	snprintf(want, sizeof(want), "; %zu bytes written to %s\n", got, fifo);
	cr_assert_not_null(strstr(rec.err, want), "no '%s' in:\n%s", want, rec.err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(rh_count_returns(&t, (uint32_t)p.pid, t.nr_write, 7), 10);
	rh_trace_free(&t);
	rh_proc_release(&p);
}

/* Wait until the trace holds pid's write(2) of len bytes, as the file grows. */
static void wait_for_write(int in_fd, const char *path, uint32_t pid, int64_t len)
{
	struct rh_trace t;
	char ev[4096];

	for (;;) {
		struct pollfd pfd = {.fd = in_fd, .events = POLLIN};
		size_t found;

		cr_assert_eq(rh_trace_read(path, &t), 0);
		found = rh_count_returns(&t, pid, t.nr_write, len);
		rh_trace_free(&t);
		if (found)
			return;
		cr_assert_eq(poll(&pfd, 1, RH_TIMEOUT_MS), 1, "the trace did not grow in %d ms", RH_TIMEOUT_MS);
		cr_assert_gt(read(in_fd, ev, sizeof(ev)), 0);
	}
}

/*
 * n ticks of the ticker p, each waited for until its write (of 101, 102, ... bytes) is in the
 * trace. Where the recorder stages, a write the ticker makes then waits in read(2) reaches the
 * file only once the recorder has flushed its CPU's stage: n ticks span n poll timeouts.
 */
static void ticks_recorded(struct rh_proc *p, int n)
{
	int in_fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);

	cr_assert_geq(in_fd, 0);
	cr_assert_geq(inotify_add_watch(in_fd, rh_trace_path, IN_MODIFY), 0);
	for (int i = 0; i < n; i++) {
		cr_assert_eq(rh_go(p), 0);
		wait_for_write(in_fd, rh_trace_path, (uint32_t)p->pid, 101 + i);
	}
	close(in_fd);
}

/*
 * --flush-interval 0.02: each write is in the file while recording goes on, and the recorder
 * never waits for events longer than a quarter of the interval (5 ms), where a fixed 100 ms
 * poll timeout made an event wait up to 200 ms. The waits are read from strace, not timed.
 */
Test(record_output, flush_interval_below_the_poll_timeout_is_honoured)
{
	const char *wl[] = {rh_workload("ticker"), NULL};
	char pid[16], log[RH_DIR_MAX + 16];
	const char *args[] = {"-o", rh_trace_path, "--flush-interval", "0.02", "-p", pid, NULL};
	struct rh_epoll_wait w[4096];
	struct rh_proc p;
	struct rh_recorder rec;
	int n;

	snprintf(log, sizeof(log), "%s/strace.log", rh_dir);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start_straced(&rec, log, args), 0, "recorder: %s", rec.err);
	ticks_recorded(&p, 5);
	rh_proc_release(&p);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	n = rh_strace_epoll_waits(log, w, 4096);
	cr_assert_gt(n, 0, "no epoll_wait of the recorder in %s", log);
	for (int i = 0; i < n; i++)
		cr_assert_leq(w[i].timeout_ms, 5, "epoll_wait %d of %d waited up to %ld ms", i + 1, n,
			      w[i].timeout_ms);
}

/*
 * A CPU where nothing traced runs stages nothing, and the recorder never interrupts it to
 * flush its stage: the target pinned to CPU 0, CPU 1 sees the one flush at stop, where a
 * flush of every CPU at each poll timeout (5 ms here) interrupted it at every tick. Ticks, not
 * a busy loop of writes: the session spans a poll timeout per tick however fast the machine
 * (a busy loop could end within two poll timeouts of a slow guest's clock). A recorder that
 * stages nothing (unstaged, or the perf backend) flushes no CPU.
 */
Test(record_output, a_cpu_with_nothing_staged_is_not_interrupted)
{
	enum { TICKS = 8 };
	const char *wl[] = {rh_workload("ticker"), NULL};
	char pid[16], log[RH_DIR_MAX + 16];
	const char *args[] = {"-o", rh_trace_path, "--flush-interval", "0.02", "-p", pid, NULL};
	unsigned runs[2];
	struct rh_proc p;
	struct rh_recorder rec;
	cpu_set_t cpu0;
	bool staged;

	rh_require_cpus(2);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	snprintf(log, sizeof(log), "%s/strace.log", rh_dir);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	cr_assert_eq(sched_setaffinity(p.pid, sizeof(cpu0), &cpu0), 0, "pin: %s", strerror(errno));
	snprintf(pid, sizeof(pid), "%d", p.pid);
	cr_assert_eq(rh_recorder_start_straced(&rec, log, args), 0, "recorder: %s", rec.err);
	ticks_recorded(&p, TICKS);
	rh_proc_release(&p);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	staged = strstr(rec.err, ", staged)") != NULL;
	cr_assert_geq(rh_strace_cpu_runs(log, runs, 2), 0, "%s", log);
	if (staged)
		cr_assert_geq(runs[0], TICKS + 1, "CPU 0 flushed %u times for %d ticks and the stop", runs[0],
			      TICKS);
	cr_assert_eq(runs[1], staged ? 1 : 0, "CPU 1 interrupted %u times (%s)", runs[1],
		     staged ? "staged" : "unstaged");
}

/* The HEADER of a `-- true` recording into path. */
static void record_true(const char *path, struct rh_trace *t)
{
	const char *args[] = {"-o", path, "--", "true", NULL};
	struct rh_recorder rec;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "no stop:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	cr_assert_eq(rh_trace_read(path, t), 0);
}

Test(record_output, every_recording_names_itself_with_a_fresh_id)
{
	struct rh_trace a, b;

	record_true(rh_trace_path, &a);
	record_true(rh_trace_path2, &b);
	cr_assert_eq(strlen(a.recording_id), SCT_RECORDING_ID_LEN, "id \"%s\"", a.recording_id);
	cr_assert_eq(strspn(a.recording_id, "0123456789abcdef"), SCT_RECORDING_ID_LEN);
	cr_assert_str_neq(a.recording_id, b.recording_id);
	cr_assert_eq(a.sequence, 1);
	cr_assert_not(a.snapshot);
	rh_trace_free(&a);
	rh_trace_free(&b);
}
