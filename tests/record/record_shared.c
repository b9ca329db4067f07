/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -o in a folder other users write to (sticky, as /tmp): what another user (nobody) put at
 * the output's name is never written into: a FIFO (it would stream root's trace to them), a
 * file of theirs, a hard link, at the start and when SIGHUP reopens -o after logrotate moved
 * it. The recorder says why and exits 1; the files it wrote before are complete. Needs root.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

#define NOBODY 65534

static char shared[RH_DIR_MAX + 16], out[RH_DIR_MAX + 32];

static void shared_setup(void)
{
	rh_setup();
	cr_assert_eq(chmod(rh_dir, 0711), 0);
	snprintf(shared, sizeof(shared), "%s/shared", rh_dir);
	cr_assert_eq(mkdir(shared, 0777), 0);
	cr_assert_eq(chmod(shared, 01777), 0);
	snprintf(out, sizeof(out), "%s/trace.sct", shared);
}

TestSuite(record_shared, .init = shared_setup, .fini = rh_teardown, .timeout = 60);

/* What another user leaves at the output's name. */
enum planted { PLANT_FIFO, PLANT_FILE, PLANT_LINK, PLANT_ROOT_LINK };

static const char *planted_name(enum planted p)
{
	static const char *const names[] = {"a FIFO of nobody", "a file of nobody", "a hard link of nobody",
					    "a root file with another link"};

	return names[p];
}

/* As nobody (its uid and gid, no groups); returns 0 or errno. Runs in a child. */
static int plant_as_nobody(enum planted p, const char *path)
{
	char own[RH_DIR_MAX + 32];
	int fd;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
		return errno;
	if (p == PLANT_FIFO)
		return mkfifo(path, 0666) ? errno : 0;
	snprintf(own, sizeof(own), "%s/own", shared);
	fd = open(p == PLANT_FILE ? path : own, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0)
		return errno;
	close(fd);
	return p == PLANT_LINK && link(own, path) ? errno : 0;
}

/*
 * Put p at path. A root file with a second link stands for what protected_hardlinks=0 lets
 * another user make: a link to a file of root's.
 */
static void plant(enum planted p, const char *path)
{
	char other[RH_DIR_MAX + 32];
	int status, fd;
	pid_t pid;

	if (p == PLANT_ROOT_LINK) {
		snprintf(other, sizeof(other), "%s/root-file", shared);
		fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
		cr_assert_geq(fd, 0);
		close(fd);
		cr_assert_eq(link(other, path), 0);
		return;
	}
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(plant_as_nobody(p, path));
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "planting %s: %s", planted_name(p),
		  strerror(WEXITSTATUS(status)));
}

/* A reader of a planted FIFO, as its owner would hold it; -1 for the other kinds. */
static int plant_reader(enum planted p, const char *path)
{
	int fd;

	if (p != PLANT_FIFO)
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(fd, 0);
	return fd;
}

/* Nothing reached what was planted: the FIFO has nothing to read, the file is empty. */
static void assert_untouched(enum planted p, const char *path, int reader)
{
	struct stat st;
	char c;

	if (p == PLANT_FIFO) {
		cr_assert_lt(read(reader, &c, 1), 1, "the trace went into the FIFO");
		close(reader);
		return;
	}
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert_eq(st.st_size, 0, "%lld bytes were written into %s", (long long)st.st_size, planted_name(p));
}

/* Parameters are copied by value into each test's process: no pointers in them. */
struct start_case {
	enum planted planted;
	bool force;
};

ParameterizedTestParameters(record_shared, start_over_what_another_user_planted)
{
	static struct start_case cases[] = {
		{PLANT_FIFO, false}, {PLANT_FIFO, true}, {PLANT_FILE, false},
		{PLANT_FILE, true},  {PLANT_LINK, false}, {PLANT_LINK, true},
	};

	return cr_make_param_array(struct start_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct start_case *c, record_shared, start_over_what_another_user_planted)
{
	const char *args[] = {"-o", out, c->force ? "--force" : "-q", "--", "/bin/true", NULL};
	struct rh_recorder rec;
	char want[256];
	int reader;

	plant(c->planted, out);
	reader = plant_reader(c->planted, out);
	cr_assert_eq(rh_recorder_start(&rec, args), -ECHILD, "the recorder started over %s:\n%s",
		     planted_name(c->planted), rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x:\n%s", rec.status, rec.err);
	snprintf(want, sizeof(want), "sct-record: %s belongs to uid %d: give -o a path of your own\n", out,
		 NOBODY);
	cr_assert_not_null(strstr(rec.err, want), "no '%s' in:\n%s", want, rec.err);
	assert_untouched(c->planted, out, reader);
}

/* Read stderr lines into r->err until one holds text. */
static void wait_text(struct rh_recorder *r, const char *text)
{
	char line[1024];
	int n;

	while (!strstr(r->err, text)) {
		n = rh_read_line(r->proc.err_fd, line, sizeof(line), RH_TIMEOUT_MS);
		cr_assert_geq(n, 0, "no '%s': %s; stderr so far:\n%s", text, strerror(-n), r->err);
		strncat(r->err, line, sizeof(r->err) - strlen(r->err) - 2);
		strcat(r->err, "\n");
	}
}

struct reopen_case {
	enum planted planted;
	char reason[64];
};

ParameterizedTestParameters(record_shared, sighup_reopen_over_what_another_user_planted)
{
	static struct reopen_case cases[] = {
		{PLANT_FIFO, "it belongs to another user: refused"},
		{PLANT_FILE, "it belongs to another user: refused"},
		{PLANT_LINK, "it belongs to another user: refused"},
		{PLANT_ROOT_LINK, "a file with other hard links: refused"},
	};

	return cr_make_param_array(struct reopen_case, cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * logrotate moved -o away; before the SIGHUP, another user made something at its name. The
 * reopen refuses it: the recording stops, the moved file complete, nothing written there.
 */
ParameterizedTest(struct reopen_case *c, record_shared, sighup_reopen_over_what_another_user_planted)
{
	const char *args[] = {"-o", out, "--", "/bin/sleep", "1000", NULL};
	char moved[RH_DIR_MAX + 48], want[512];
	struct rh_recorder rec;
	struct rh_trace t;
	int reader;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	snprintf(moved, sizeof(moved), "%s.1", out);
	cr_assert_eq(rename(out, moved), 0);
	plant(c->planted, out);
	reader = plant_reader(c->planted, out);
	cr_assert_eq(kill(rec.proc.pid, SIGHUP), 0);
	snprintf(want, sizeof(want), "sct-record: cannot reopen %s: %s; recording stopped, the files before it are complete",
		 out, c->reason);
	wait_text(&rec, want);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x:\n%s", rec.status, rec.err);
	assert_untouched(c->planted, out, reader);
	cr_assert_eq(rh_trace_read(moved, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer, "%s has no TRAILER", moved);
	cr_assert_eq(t.sessions, 1);
	rh_trace_free(&t);
}

/* Our own file still at the name (copytruncate, or no logrotate at all): appended to. */
Test(record_shared, sighup_reopen_appends_to_our_own_file)
{
	const char *args[] = {"-o", out, "--", "/bin/sleep", "1000", NULL};
	struct rh_recorder rec;
	struct rh_trace t;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(kill(rec.proc.pid, SIGHUP), 0);
	wait_text(&rec, "sct-record: reopened ");
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0, "%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_eq(rh_trace_read(out, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert_eq(t.sessions, 2);
	rh_trace_free(&t);
}

/*
 * -o - with stdout redirected to a file: still stdout, never reopened by name (a SIGHUP must
 * not create a file named '-'); the trace in the redirected file is whole.
 */
Test(record_shared, sighup_with_stdout_on_a_file_reopens_nothing)
{
	const char *prefix[] = {"/bin/sh", "-c", "exec \"$@\" > trace.sct", "sh", NULL};
	const char *args[] = {"-o", "-", "--", "/bin/sleep", "1000", NULL};
	struct rh_recorder rec;
	struct rh_trace t;
	struct stat st;
	char path[RH_DIR_MAX + 16];

	cr_assert_eq(chdir(rh_dir), 0);
	cr_assert_eq(rh_recorder_start_under(&rec, prefix, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(kill(rec.proc.pid, SIGHUP), 0);
	wait_text(&rec, "sct-record: SIGHUP ignored: no file to reopen");
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0, "%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_neq(lstat("-", &st), 0, "a file named '-' was created");
	snprintf(path, sizeof(path), "%s/trace.sct", rh_dir);
	cr_assert_eq(rh_trace_read(path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert(t.has_trailer);
	cr_assert_eq(t.sessions, 1);
	rh_trace_free(&t);
}
