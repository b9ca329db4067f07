// SPDX-License-Identifier: BSD-2-Clause
/*
 * The workload after "--": forked at startup, held on a pipe until tracing is live, then
 * released to exec. Its pid is known before it runs a single instruction of the workload,
 * so its exec and everything after is traced.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

static void command_child(int go_fd, char **cmd, bool stdout_is_trace)
{
	char go;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* A trace on stdout must not get the workload's output mixed into it. */
	if (stdout_is_trace && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	/* EOF without the go byte: the recorder failed to start. */
	if (read(go_fd, &go, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(cmd[0], cmd);
	fprintf(stderr, "sct-record: cannot run '%s': %s\n", cmd[0], strerror(errno));
	_exit(127);
}

int command_start(struct recorder *r, char **cmd)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0) {
		close(fds[1]);
		command_child(fds[0], cmd, !strcmp(r->env->output, "-"));
	}
	close(fds[0]);
	r->cmd_pid = pid;
	r->cmd_go_fd = fds[1];
	return 0;
}

int command_release(struct recorder *r)
{
	int err = 0;

	if (r->cmd_go_fd < 0)
		return 0;
	if (write(r->cmd_go_fd, "g", 1) != 1)
		err = -errno;
	close(r->cmd_go_fd);
	r->cmd_go_fd = -1;
	return err;
}

bool command_reaped(struct recorder *r)
{
	if (r->cmd_pid <= 0 || r->cmd_done)
		return r->cmd_done;
	if (waitpid(r->cmd_pid, NULL, WNOHANG) == r->cmd_pid)
		r->cmd_done = true;
	return r->cmd_done;
}

void command_abort(struct recorder *r)
{
	/* Closing the pipe without the go byte makes the child exit 127 before its exec. */
	if (r->cmd_go_fd < 0)
		return;
	close(r->cmd_go_fd);
	r->cmd_go_fd = -1;
	if (r->cmd_pid > 0 && !r->cmd_done) {
		waitpid(r->cmd_pid, NULL, 0);
		r->cmd_done = true;
	}
}
