/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command after "--": run as -u's user with no capabilities, stopped with everything it
 * started when the recording ends first (or left running with --keep-command), killed by the
 * kernel when the recorder dies, never released by a recorder stopped while starting, and
 * an exec failure reported as a shell does. Needs root.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_command, .init = rh_setup, .fini = rh_teardown, .timeout = 90);

#define HELD_MAX 8

/* The processes of `holder`, as pidfds: they are not our children. */
struct held {
	int fd[HELD_MAX];
	size_t n;
};

/* Read n "held pid P" lines from the command's stdout (the recorder's) and open their pidfds. */
static void held_read(struct rh_recorder *rec, size_t n, struct held *h)
{
	char line[256];

	h->n = 0;
	while (h->n < n) {
		int ret = rh_read_line(rec->proc.out_fd, line, sizeof(line), RH_TIMEOUT_MS);
		long pid;

		cr_assert_gt(ret, 0, "%zu of %zu held lines: %s", h->n, n, strerror(-ret));
		pid = rh_field(line, "pid");
		cr_assert_gt(pid, 0, "line: %s", line);
		h->fd[h->n] = pidfd_open((pid_t)pid, 0);
		cr_assert_geq(h->fd[h->n], 0, "pidfd_open %ld: %s", pid, strerror(errno));
		h->n++;
	}
}

/* How many of them are still running; the survivors are killed, so a failure leaves none. */
static size_t held_running_then_kill(struct held *h)
{
	size_t running = 0;

	for (size_t i = 0; i < h->n; i++) {
		struct pollfd pfd = {.fd = h->fd[i], .events = POLLIN};

		if (poll(&pfd, 1, 0) == 0) {
			running++;
			syscall(SYS_pidfd_send_signal, h->fd[i], SIGKILL, NULL, 0);
		}
		close(h->fd[i]);
	}
	h->n = 0;
	return running;
}

/* Start `sct-record -o trace [opts...] -- holder ARGS...` and read its n held lines. */
static void holder_start(struct rh_recorder *rec, const char *const opts[], const char *const hargs[],
			 size_t n, struct held *h)
{
	const char *args[32] = {"-o", rh_trace_path};
	size_t k = 2;

	for (size_t i = 0; opts[i]; i++)
		args[k++] = opts[i];
	args[k++] = "--";
	args[k++] = rh_workload("holder");
	for (size_t i = 0; hargs[i]; i++)
		args[k++] = hargs[i];
	args[k] = NULL;
	cr_assert_eq(rh_recorder_start(rec, args), 0, "recorder: %s", rec->err);
	held_read(rec, n, h);
}

static void assert_clean_exit(const struct rh_recorder *rec)
{
	struct rh_trace t;

	cr_assert(WIFEXITED(rec->status) && WEXITSTATUS(rec->status) == 0, "status %#x:\n%s", rec->status,
		  rec->err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	rh_trace_free(&t);
}

/* End the recording with sig (0: it ends by itself): the n processes of holder must be gone. */
static void assert_end_stops_holder(const char *const opts[], const char *const hargs[], size_t n, int sig)
{
	struct rh_recorder rec;
	struct held h;
	size_t running;

	holder_start(&rec, opts, hargs, n, &h);
	cr_assert_eq(rh_recorder_finish(&rec, sig, RH_TIMEOUT_MS), 0, "the recorder did not stop:\n%s", rec.err);
	running = held_running_then_kill(&h);
	cr_assert_eq(running, 0, "%zu of %zu processes of the command outlived the recording", running, n);
	assert_clean_exit(&rec);
}

Test(record_command, duration_stops_the_command_and_its_children)
{
	const char *opts[] = {"--duration", "1", NULL}, *hargs[] = {"2", NULL};

	assert_end_stops_holder(opts, hargs, 3, 0);
}

/* Orphans of the tree are found too: the recorder is their subreaper. */
Test(record_command, sigterm_stops_orphans_of_the_command)
{
	const char *opts[] = {NULL}, *hargs[] = {"2", "orphans", NULL};

	assert_end_stops_holder(opts, hargs, 3, SIGTERM);
}

/* SIGTERM ignored: SIGKILL after the grace period. */
Test(record_command, a_command_ignoring_sigterm_is_killed)
{
	const char *opts[] = {NULL}, *hargs[] = {"1", "ignore-term", NULL};

	assert_end_stops_holder(opts, hargs, 2, SIGINT);
}

Test(record_command, keep_command_leaves_it_running)
{
	const char *opts[] = {"--keep-command", NULL}, *hargs[] = {"0", NULL};
	struct rh_recorder rec;
	struct held h;

	holder_start(&rec, opts, hargs, 1, &h);
	/* The command still holds the recorder's stdout and stderr: wait for the exit, not EOF. */
	cr_assert_eq(kill(rec.proc.pid, SIGINT), 0);
	cr_assert_eq(rh_wait(rec.proc.pid, RH_TIMEOUT_MS, &rec.status, NULL), 0);
	rec.proc.pid = -1;
	cr_assert_eq(held_running_then_kill(&h), 1, "the command did not outlive the recording");
	rh_proc_release(&rec.proc);
	assert_clean_exit(&rec);
}

/* A recorder killed outright takes the command with it (parent-death signal). */
Test(record_command, sigkill_of_the_recorder_kills_the_command)
{
	const char *opts[] = {NULL}, *hargs[] = {"0", NULL};
	struct pollfd pfd = {.events = POLLIN};
	struct rh_recorder rec;
	struct held h;

	holder_start(&rec, opts, hargs, 1, &h);
	cr_assert_eq(rh_recorder_finish(&rec, SIGKILL, RH_TIMEOUT_MS), 0);
	pfd.fd = h.fd[0];
	cr_assert_eq(poll(&pfd, 1, 10000), 1, "the command outlived the killed recorder by 10 s");
	held_running_then_kill(&h);
}

/*
 * SIGINT while the recorder starts: it is blocked writing the start of the trace into a FIFO
 * whose 4 KiB buffer the test does not drain yet, after the command was forked and before it
 * is released. The command must never run; the trace is still complete.
 */
Test(record_command, sigint_during_startup_never_releases_the_command)
{
	char fifo[RH_DIR_MAX + 16], *out = NULL, *err = NULL;
	const char *argv[] = {rh_recorder_path(), "-o", fifo, "--", rh_workload("holder"), "0", NULL};
	struct pollfd pfd = {.events = POLLIN};
	struct rh_proc p;
	struct rh_trace t;
	int status;

	snprintf(fifo, sizeof(fifo), "%s/fifo", rh_dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	pfd.fd = open(fifo, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(pfd.fd, 0);
	cr_assert_eq(fcntl(pfd.fd, F_SETPIPE_SZ, 4096), 4096);
	cr_assert_eq(rh_spawn(&p, argv, true), 0);
	/* The first bytes of the trace: the command is forked, the ready line not yet possible. */
	cr_assert_eq(poll(&pfd, 1, RH_TIMEOUT_MS), 1, "nothing written to the FIFO");
	cr_assert_eq(kill(p.pid, SIGINT), 0);
	rh_drain_to_file(pfd.fd, rh_trace_path);
	close(pfd.fd);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_read_all(p.err_fd, &err, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert_str_empty(out, "the command ran: %s", out);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x:\n%s", status, err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(t.nexec, 0, "the command was released to exec");
	rh_trace_free(&t);
	free(out);
	free(err);
	rh_proc_release(&p);
}

/*
 * `sct-record -- CMD` where CMD cannot be executed: found out before tracing starts, as
 * strace does: the shell's status, a message, no trace.
 */
static void assert_cannot_run(const char *cmd, int want_status, int want_errno)
{
	const char *args[] = {"-o", rh_trace_path, "--", cmd, NULL};
	char msg[512];
	struct rh_recorder rec;
	struct stat st;

	cr_assert_eq(rh_recorder_start(&rec, args), -ECHILD, "the recorder started:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == want_status, "status %#x, want exit %d:\n%s",
		  rec.status, want_status, rec.err);
	snprintf(msg, sizeof(msg), "sct-record: cannot run '%s': %s\n", cmd, strerror(want_errno));
	cr_assert_not_null(strstr(rec.err, msg), "no '%s' in:\n%s", msg, rec.err);
	cr_assert_neq(stat(rh_trace_path, &st), 0, "a trace was created");
}

/*
 * The exit of the last target wakes the recorder: once the command has exited, no epoll_wait
 * of the recorder times out (a poll timeout noticed it at the next period before).
 */
Test(record_command, the_end_of_the_last_target_is_noticed_at_once)
{
	const char *args[] = {"-o", rh_trace_path, "--force", "--", "true", NULL};
	struct rh_epoll_wait w[4096];
	char log[RH_DIR_MAX + 16];
	struct rh_recorder rec;
	int n;

	snprintf(log, sizeof(log), "%s/strace.log", rh_dir);
	cr_assert_eq(rh_recorder_start_straced(&rec, log, args), 0, "%s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	n = rh_strace_epoll_waits(log, w, 4096);
	cr_assert_gt(n, 0, "no epoll_wait of the recorder in %s", log);
	for (int i = 0; i < n; i++)
		cr_assert(!(w[i].after_last_exit && w[i].ret == 0),
			  "epoll_wait %d of %d timed out (%ld ms) after the command had exited", i + 1, n,
			  w[i].timeout_ms);
}

Test(record_command, command_not_found_exits_127)
{
	assert_cannot_run("/nonexistent/command", 127, ENOENT);
}

Test(record_command, command_not_found_in_path_exits_127)
{
	setenv("PATH", "/nonexistent/a:/nonexistent/b", 1);
	assert_cannot_run("true", 127, ENOENT);
}

/* A file without the execute bit at CMD's path, or in PATH where nothing else is found. */
static void script_make(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
}

Test(record_command, command_not_executable_exits_126)
{
	char path[RH_DIR_MAX + 16];

	snprintf(path, sizeof(path), "%s/script", rh_dir);
	script_make(path);
	assert_cannot_run(path, 126, EACCES);
}

Test(record_command, command_not_executable_in_path_exits_126)
{
	char path[RH_DIR_MAX + 16];

	snprintf(path, sizeof(path), "%s/script", rh_dir);
	script_make(path);
	setenv("PATH", rh_dir, 1);
	assert_cannot_run("script", 126, EACCES);
}

/*
 * The command's start is its own: `sct-record -- true` with true found in the last of a long
 * PATH records one execve, the one that ran (execvp would try every folder before it).
 */
static void assert_one_execve(const char *backend)
{
	const char *args[] = {"-o", rh_trace_path, "--", "true", NULL};
	char path[4096];
	size_t len = 0, execs;
	struct rh_recorder rec;
	struct rh_trace t;

	setenv(RH_BACKEND_ENV, backend, 1);
	for (int i = 0; i < 10; i++)
		len += snprintf(path + len, sizeof(path) - len, "%s/none%d:", rh_dir, i);
	snprintf(path + len, sizeof(path) - len, "/usr/bin");
	setenv("PATH", path, 1);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(t.err, 0);
	execs = rh_count_syscalls(&t, 0, 0, t.nr_execve);
	cr_assert_eq(execs, 1, "%zu execve calls in the trace (%s)", execs, backend);
	cr_assert_eq(rh_count_returns(&t, t.sc[0].tid, t.nr_execve, 0), 1, "the execve did not succeed");
	cr_assert_eq(t.nexec, 1);
	cr_assert_str_eq(t.exec[0].filename, "/usr/bin/true");
	rh_trace_free(&t);
}

Test(record_command, one_execve_found_through_path_bpf)
{
	assert_one_execve("bpf");
}

Test(record_command, one_execve_found_through_path_perf)
{
	assert_one_execve("perf");
}

/* The value of "Key:" in the /proc/PID/status text, tabs made spaces, "" if absent. */
static void status_field(const char *text, const char *key, char *out, size_t cap)
{
	const char *p = strstr(text, key);
	size_t n = 0;

	out[0] = '\0';
	if (!p)
		return;
	for (p += strlen(key); *p == '\t' || *p == ' '; p++)
		;
	while (*p && *p != '\n' && n + 1 < cap)
		out[n++] = *p == '\t' ? ' ' : *p, p++;
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* Run `cat /proc/self/status` as user and return what it printed. */
static char *status_as(const char *user)
{
	const char *args[] = {"-o", rh_trace_path, "-u", user, "--", "/bin/cat", "/proc/self/status", NULL};
	struct rh_recorder rec;
	char *out = NULL;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_read_all(rec.proc.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	return out;
}

static void assert_no_capabilities(const char *status)
{
	const char *keys[] = {"CapInh:", "CapPrm:", "CapEff:", "CapAmb:"};
	char v[128];

	for (size_t i = 0; i < 4; i++) {
		status_field(status, keys[i], v, sizeof(v));
		cr_assert_str_eq(v, "0000000000000000", "%s %s", keys[i], v);
	}
}

Test(record_command, user_by_name_gets_its_ids_and_groups_and_no_capabilities)
{
	struct passwd *pw = getpwnam("nobody");
	gid_t groups[64];
	int ngroups = 64;
	char want[512], got[512], *status;
	size_t len = 0;

	cr_assert_not_null(pw, "no user nobody on this host");
	cr_assert_geq(getgrouplist(pw->pw_name, pw->pw_gid, groups, &ngroups), 0);
	status = status_as("nobody");
	snprintf(want, sizeof(want), "%u %u %u %u", pw->pw_uid, pw->pw_uid, pw->pw_uid, pw->pw_uid);
	status_field(status, "Uid:", got, sizeof(got));
	cr_assert_str_eq(got, want);
	snprintf(want, sizeof(want), "%u %u %u %u", pw->pw_gid, pw->pw_gid, pw->pw_gid, pw->pw_gid);
	status_field(status, "Gid:", got, sizeof(got));
	cr_assert_str_eq(got, want);
	/* the kernel lists groups sorted */
	for (int i = 1; i < ngroups; i++)
		for (int j = i; j > 0 && groups[j - 1] > groups[j]; j--) {
			gid_t g = groups[j];

			groups[j] = groups[j - 1];
			groups[j - 1] = g;
		}
	want[0] = '\0';
	for (int i = 0; i < ngroups; i++)
		len += snprintf(want + len, sizeof(want) - len, "%s%u", i ? " " : "", groups[i]);
	status_field(status, "Groups:", got, sizeof(got));
	cr_assert_str_eq(got, want);
	assert_no_capabilities(status);
	free(status);
}

Test(record_command, user_as_uid_gid_gets_no_supplementary_groups)
{
	char got[128], *status = status_as("12345:23456");

	status_field(status, "Uid:", got, sizeof(got));
	cr_assert_str_eq(got, "12345 12345 12345 12345");
	status_field(status, "Gid:", got, sizeof(got));
	cr_assert_str_eq(got, "23456 23456 23456 23456");
	status_field(status, "Groups:", got, sizeof(got));
	cr_assert_str_empty(got, "groups: %s", got);
	assert_no_capabilities(status);
	free(status);
}

Test(record_command, unknown_user_is_a_usage_error)
{
	const char *args[] = {"-o", rh_trace_path, "-u", "no-such-user-here", "--", "/bin/true", NULL};
	struct rh_recorder rec;
	struct stat st;

	cr_assert_eq(rh_recorder_start(&rec, args), -ECHILD, "the recorder started:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 2, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_not_null(strstr(rec.err, "sct-record: invalid user: 'no-such-user-here'"), "%s", rec.err);
	cr_assert_neq(stat(rh_trace_path, &st), 0, "a trace was created");
}
