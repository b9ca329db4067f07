/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The terminal of a command run with -u: the recorder runs on a terminal the test holds the
 * other side of (forkpty), as it would in root's shell. A command that pushes input into its
 * controlling terminal (TIOCSTI) must not reach that one; what is typed still reaches the
 * command and what it prints still shows, its window size follows, and the terminal's modes
 * are back when the recorder exits. Needs root.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "record_helpers.h"

#define LEGACY_TIOCSTI "/proc/sys/dev/tty/legacy_tiocsti"
#define TERM_OUT_MAX 65536

/* The session that runs the recorder on its terminal, as a shell would. */
struct term_run {
	int master;             /* the test's side of that terminal */
	pid_t pid;              /* the session leader */
	int report_fd;          /* what it reports once the recorder has exited */
	char tty[64];           /* the terminal's name */
	char out[TERM_OUT_MAX]; /* everything the terminal showed */
	size_t len;
};

/* What the session leader found once the recorder had exited. */
struct term_report {
	int status;             /* the recorder's wait status */
	int restored;           /* the terminal's modes are those from before the recorder */
	int pending;            /* bytes waiting to be read on the terminal: typed, or pushed */
	char input[256];        /* those bytes, NUL-terminated */
};

static char legacy_saved[8];

/* TIOCSTI open to every process, as on 6.1 (which has no switch): the attack must be able to run. */
static void term_setup(void)
{
	int fd;

	rh_setup();
	fd = open(LEGACY_TIOCSTI, O_RDWR);
	if (fd < 0)
		return;
	cr_assert_gt(read(fd, legacy_saved, sizeof(legacy_saved) - 1), 0);
	cr_assert_eq(pwrite(fd, "1\n", 2, 0), 2);
	close(fd);
}

static void term_teardown(void)
{
	int fd = open(LEGACY_TIOCSTI, O_WRONLY);

	if (fd >= 0 && legacy_saved[0])
		cr_assert_gt(write(fd, legacy_saved, strlen(legacy_saved)), 0);
	if (fd >= 0)
		close(fd);
	rh_teardown();
}

TestSuite(record_terminal, .init = term_setup, .fini = term_teardown, .timeout = 90);

/* The session leader: run argv, then report. Only calls that are safe after a fork. */
static void term_session(const char *const argv[], int report_fd)
{
	struct term_report rep = { 0 };
	struct termios before, after;
	pid_t pid;

	tcgetattr(0, &before);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &rep.status, 0);
	tcgetattr(0, &after);
	rep.restored = before.c_iflag == after.c_iflag && before.c_oflag == after.c_oflag &&
		       before.c_lflag == after.c_lflag && before.c_cflag == after.c_cflag;
	ioctl(0, FIONREAD, &rep.pending);
	fcntl(0, F_SETFL, O_NONBLOCK);
	if (rep.pending > 0 && read(0, rep.input, sizeof(rep.input) - 1) < 0)
		rep.input[0] = '\0';
	if (write(report_fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(1);
	_exit(0);
}

/* `sct-record -o TRACE -u nobody -- cmd...` on a new terminal of rows x cols. */
static void term_start(struct term_run *t, const char *const cmd[], unsigned short rows, unsigned short cols)
{
	const char *argv[32] = {rh_recorder_path(), "-o", rh_trace_path, "-u", "nobody"};
	struct winsize ws = {.ws_row = rows, .ws_col = cols};
	size_t n = 5;
	int rep[2];

	if (rh_backend()) {
		argv[n++] = "--backend";
		argv[n++] = rh_backend();
	}
	argv[n++] = "--";
	for (size_t i = 0; cmd[i]; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	memset(t, 0, sizeof(*t));
	cr_assert_eq(pipe2(rep, O_CLOEXEC), 0);
	t->pid = forkpty(&t->master, t->tty, NULL, &ws);
	cr_assert_geq(t->pid, 0, "forkpty: %s", strerror(errno));
	if (t->pid == 0)
		term_session(argv, rep[1]);
	close(rep[1]);
	t->report_fd = rep[0];
}

/* Read what the terminal shows for up to timeout_ms; false once its other side is closed. */
static bool term_read(struct term_run *t, int timeout_ms)
{
	struct pollfd p = {.fd = t->master, .events = POLLIN};
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return true;
	n = read(t->master, t->out + t->len, sizeof(t->out) - 1 - t->len);
	if (n <= 0)
		return false;
	t->len += (size_t)n;
	t->out[t->len] = '\0';
	return true;
}

/* Wait until the terminal has shown text; returns where it starts. */
static const char *term_expect(struct term_run *t, const char *text)
{
	for (int waited = 0; waited < RH_TIMEOUT_MS; waited += 100) {
		const char *at = strstr(t->out, text);

		if (at)
			return at;
		cr_assert(term_read(t, 100), "the terminal closed before showing '%s':\n%s", text, t->out);
	}
	cr_assert_fail("no '%s' on the terminal within %d ms:\n%s", text, RH_TIMEOUT_MS, t->out);
	return NULL;
}

/* Everything up to the session's end, and its report. */
static void term_finish(struct term_run *t, struct term_report *rep)
{
	struct pollfd p = {.fd = t->report_fd, .events = POLLIN};
	int status;

	cr_assert_eq(poll(&p, 1, RH_TIMEOUT_MS), 1, "the recorder did not exit:\n%s", t->out);
	cr_assert_eq(read(t->report_fd, rep, sizeof(*rep)), (ssize_t)sizeof(*rep));
	while (term_read(t, 0) && t->len + 1 < sizeof(t->out))
		if (poll(&(struct pollfd){.fd = t->master, .events = POLLIN}, 1, 0) <= 0)
			break;
	cr_assert_eq(waitpid(t->pid, &status, 0), t->pid);
	close(t->report_fd);
	close(t->master);
}

/*
 * The attack: a program run as nobody pushes a command line into its controlling terminal.
 * Sharing the recorder's, it would be read by root's shell once the recorder exits.
 */
Test(record_terminal, tiocsti_does_not_reach_the_recorders_terminal)
{
	const char *cmd[] = {rh_workload("tiocsti"), "echo INJECTED\n", NULL};
	struct term_run *t = calloc(1, sizeof(*t));
	struct term_report rep;
	char line[128];
	const char *at;

	cr_assert_not_null(t);
	term_start(t, cmd, 24, 80);
	at = term_expect(t, "tiocsti ");
	term_finish(t, &rep);
	cr_assert(WIFEXITED(rep.status) && WEXITSTATUS(rep.status) == 0, "status %#x:\n%s", rep.status, t->out);
	cr_assert_eq(rep.pending, 0, "the command typed %d bytes into the recorder's terminal: '%s'", rep.pending,
		     rep.input);
	cr_assert(rep.restored, "the terminal's modes were not restored");
	/* It did push them: into a terminal of its own, not the recorder's. */
	snprintf(line, sizeof(line), "tiocsti 14 of 14 tty ");
	cr_assert_eq(strncmp(at, line, strlen(line)), 0, "%s", t->out);
	cr_assert_neq(strncmp(at + strlen(line), t->tty, strlen(t->tty)), 0, "the command had the recorder's terminal %s",
		      t->tty);
	free(t);
}

/*
 * What is typed reaches the command and what it prints shows; its window size is the
 * terminal's, and follows a change (SIGWINCH); its exit code is in the trace.
 */
Test(record_terminal, input_output_and_size_flow_through_the_commands_terminal)
{
	const char *cmd[] = {"/bin/sh", "-c",
			     "echo \"size $(stty size) pid $$\"; read line; echo \"got $line size $(stty size)\"; exit 3",
			     NULL};
	struct winsize ws = {.ws_row = 44, .ws_col = 122};
	struct term_run *t = calloc(1, sizeof(*t));
	struct term_report rep;
	const struct sct_exit *ex;
	struct rh_trace tr;
	const char *at;
	long pid;

	cr_assert_not_null(t);
	term_start(t, cmd, 33, 111);
	at = term_expect(t, "size 33 111 pid ");
	pid = strtol(at + strlen("size 33 111 pid "), NULL, 10);
	cr_assert_eq(ioctl(t->master, TIOCSWINSZ, &ws), 0);
	cr_assert_eq(write(t->master, "hello\r", 6), 6);
	term_expect(t, "got hello size 44 122");
	term_finish(t, &rep);
	cr_assert(WIFEXITED(rep.status) && WEXITSTATUS(rep.status) == 0, "status %#x:\n%s", rep.status, t->out);
	cr_assert(rep.restored, "the terminal's modes were not restored");
	cr_assert_eq(rep.pending, 0, "left on the terminal: '%s'", rep.input);
	cr_assert_eq(rh_trace_read(rh_trace_path, &tr), 0);
	ex = rh_find_exit(&tr, (uint32_t)pid);
	cr_assert_not_null(ex, "no EXIT record of the command (pid %ld)", pid);
	cr_assert_eq(ex->exit_code, 3);
	rh_trace_free(&tr);
	free(t);
}

/* The recorder: the one child of the session leader. */
static pid_t term_recorder(const struct term_run *t)
{
	char path[64];
	FILE *f;
	int pid = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)t->pid, (int)t->pid);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fscanf(f, "%d", &pid), 1, "the session leader has no child");
	fclose(f);
	return pid;
}

/* A recording ended by SIGTERM while the command runs: the terminal's modes are back too. */
Test(record_terminal, sigterm_to_the_recorder_restores_the_terminal)
{
	const char *cmd[] = {"/bin/sh", "-c", "echo running; exec sleep 1000", NULL};
	struct term_run *t = calloc(1, sizeof(*t));
	struct term_report rep;

	cr_assert_not_null(t);
	term_start(t, cmd, 24, 80);
	term_expect(t, "running");
	cr_assert_eq(kill(term_recorder(t), SIGTERM), 0);
	term_finish(t, &rep);
	cr_assert(WIFEXITED(rep.status) && WEXITSTATUS(rep.status) == 0, "status %#x:\n%s", rep.status, t->out);
	cr_assert(rep.restored, "the terminal's modes were not restored:\n%s", t->out);
	free(t);
}
