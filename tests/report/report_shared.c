/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-convert -o in a folder other users write to (sticky, as /tmp): what another user
 * (nobody) put at the output's name is never written into, forced or not: a FIFO (it would
 * stream the report to them), a file of theirs, a hard link; nor a file with other links
 * with --force. Needs root, to act as nobody: skipped loudly without it, failed under CI.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_helpers.h"

#define NOBODY 65534

static char shared[256], out[300], trace[300];

static void shared_setup(void)
{
	const char *ci = getenv("CI");
	struct sct_writer *w;

	if (geteuid()) {
		cr_assert(!ci || strcmp(ci, "true"), "report_shared needs root (to act as another user)");
		cr_skip_test("report_shared: SKIPPED, not root: another user's objects cannot be made");
	}
	snprintf(trace, sizeof(trace), "%s", rt_path("in.sct"));
	w = rt_open(trace, "host", 0);
	rt_sc(w, 1000, 10, 100, 100, 1, 0, 0);
	rt_close(w);
	cr_assert_eq(chmod(rt_dir(), 0711), 0);
	snprintf(shared, sizeof(shared), "%s/shared", rt_dir());
	cr_assert_eq(mkdir(shared, 0777), 0);
	cr_assert_eq(chmod(shared, 01777), 0);
	snprintf(out, sizeof(out), "%s/out.csv", shared);
}

TestSuite(report_shared, .init = shared_setup, .fini = rt_cleanup);

/* As nobody in a child: a FIFO (kind 'p'), a file ('f') or a hard link of its file ('l'). */
static void plant(char kind)
{
	char own[300];
	int status, fd;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
			_exit(errno);
		if (kind == 'p')
			_exit(mkfifo(out, 0666) ? errno : 0);
		snprintf(own, sizeof(own), "%s/own", shared);
		fd = open(kind == 'f' ? out : own, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd < 0)
			_exit(errno);
		close(fd);
		_exit(kind == 'l' && link(own, out) ? errno : 0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "planting '%c': %s", kind, strerror(WEXITSTATUS(status)));
}

/* sct-convert -o OUT [--force]: refused with why, and nothing written into what is there. */
static void assert_refused(char kind, bool force, const char *why)
{
	char *text = NULL, c;
	struct stat st;
	int reader = -1, status;

	if (kind == 'p') {
		reader = open(out, O_RDONLY | O_NONBLOCK);
		cr_assert_geq(reader, 0);
	}
	status = rt_run(&text, "%s --to csv %s -o %s %s 2>&1", rt_convert(), force ? "--force" : "", out, trace);
	cr_assert_eq(status, 1, "exit %d:\n%s", status, text);
	cr_assert_not_null(strstr(text, why), "no '%s' in:\n%s", why, text);
	if (reader >= 0) {
		cr_assert_lt(read(reader, &c, 1), 1, "the report went into the FIFO");
		close(reader);
	} else {
		cr_assert_eq(lstat(out, &st), 0);
		cr_assert_eq(st.st_size, 0, "%lld bytes written into it", (long long)st.st_size);
	}
	free(text);
}

#define NOT_OURS "Operation not permitted (it belongs to another user: not written)"

Test(report_shared, a_fifo_of_another_user_is_refused)
{
	plant('p');
	assert_refused('p', false, NOT_OURS);
	assert_refused('p', true, NOT_OURS);
}

Test(report_shared, a_file_of_another_user_is_refused)
{
	plant('f');
	assert_refused('f', false, NOT_OURS);
	assert_refused('f', true, NOT_OURS);
}

Test(report_shared, a_hard_link_of_another_user_is_refused)
{
	plant('l');
	assert_refused('l', false, NOT_OURS);
	assert_refused('l', true, NOT_OURS);
}

/* A file of ours with a second name (what protected_hardlinks=0 lets another user make). */
Test(report_shared, force_refuses_a_file_with_other_links)
{
	char other[320];
	int fd;

	snprintf(other, sizeof(other), "%s/other", shared);
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(link(other, out), 0);
	assert_refused('f', true, "Too many links (a file with other hard links: not written)");
}

/* What stays allowed: a file of ours is overwritten with --force, and /dev/null is written. */
Test(report_shared, force_overwrites_our_own_file)
{
	char *text = NULL;
	struct stat st;
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "old\n", 4), 4);
	close(fd);
	cr_assert_eq(rt_run(&text, "%s --to csv --force -o %s %s 2>&1", rt_convert(), out, trace), 0, "%s", text);
	cr_assert_eq(stat(out, &st), 0);
	cr_assert_gt(st.st_size, 4);
	free(text);
	cr_assert_eq(rt_run(&text, "%s --to csv -o /dev/null %s 2>&1", rt_convert(), trace), 0, "%s", text);
	free(text);
}
