// SPDX-License-Identifier: BSD-2-Clause
/*
 * The workload after "--": forked at startup, held on a pipe until tracing is live, then
 * released to exec. Its pid is known before it runs a single instruction of the workload,
 * so its exec and everything after is traced.
 *
 * Everything before its exec happens before tracing starts, so the trace holds one execve:
 * the program is found through PATH by the child (as strace does), not by execvp's failed
 * calls. It never runs with more than it was given: with -u it takes that user's ids and
 * groups (and so loses every capability) before it can exec, and a session of its own: it
 * never shares our terminal (relay.c gives it its own). It never runs untraced unless asked:
 * the kernel kills it if the recorder dies (parent-death signal), and a recording that ends
 * first stops it and everything it started (SIGTERM, then SIGKILL after a grace period),
 * unless --keep-command. The recorder is the subreaper of that tree, so a process orphaned
 * by its parent's exit is still found among the recorder's descendants.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../record.h"

/* How long a command has to exit after SIGTERM before it gets SIGKILL. */
#define COMMAND_STOP_GRACE_MS 5000
/* After it, how often what is left of the tree is sought and sent SIGKILL again. */
#define COMMAND_KILL_RESCAN_MS 50
/* A deeper process tree is left to the command's own handling of SIGTERM. */
#define COMMAND_TREE_MAX_DEPTH 64

void command_init(struct command *c)
{
	memset(c, 0, sizeof(*c));
	c->go_fd = c->err_fd = -1;
}

/* Take the -u user's uid, gid and groups; a uid other than 0 leaves no capability. */
static int command_become(const struct env *env)
{
	if (env->user_name ? initgroups(env->user_name, env->gid) : setgroups(0, NULL))
		return errno;
	if (setresgid(env->gid, env->gid, env->gid) || setresuid(env->uid, env->uid, env->uid))
		return errno;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return errno;
	return 0;
}

/*
 * -u: a session of its own, so our terminal is not its controlling terminal (TIOCSTI on it
 * would type into the shell that started us). With a relay, the new terminal becomes its
 * controlling terminal and replaces ours on the fds where ours was.
 */
static int command_detach(int slave, unsigned ttys)
{
	if (setsid() < 0)
		return errno;
	if (slave < 0)
		return 0;
	if (ioctl(slave, TIOCSCTTY, 0))
		return errno;
	for (int fd = 0; fd < 3; fd++)
		if ((ttys & (1u << fd)) && dup2(slave, fd) < 0)
			return errno;
	if (slave > STDERR_FILENO)
		close(slave);
	return 0;
}

/* Whether path is a file this process can execute: 0, or the errno execve would give. */
static int command_runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	return S_ISREG(st.st_mode) && !access(path, X_OK) ? 0 : EACCES;
}

/*
 * The program cmd[0] names, found as execvp(3) finds it (in PATH, "/bin:/usr/bin" without
 * one; a name with a slash as it is), before tracing starts: a search by execve, as execvp
 * makes it, would put a failed execve per folder tried into the trace as the command's.
 * Returns 0 or the errno execvp would fail with: EACCES if some candidate could not run.
 */
static int command_resolve(const char *name, char *path, size_t cap)
{
	const char *dirs = getenv("PATH");
	bool denied = false;

	if (strchr(name, '/')) {
		if ((size_t)snprintf(path, cap, "%s", name) >= cap)
			return ENAMETOOLONG;
		return command_runnable(path);
	}
	if (!*name)
		return ENOENT;
	for (const char *p = dirs ? dirs : "/bin:/usr/bin";; p++) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p), err;

		/* An empty entry is the current folder, as for execvp. */
		if ((size_t)snprintf(path, cap, "%.*s%s%s", len, p, len ? "/" : "", name) < cap) {
			err = command_runnable(path);
			if (!err)
				return 0;
			denied |= err == EACCES;
		}
		if (!*end)
			break;
		p = end;
	}
	return denied ? EACCES : ENOENT;
}

/* execve, and as execvp does for a file that is no executable format: sh runs it. */
static int command_exec(const char *path, char *const argv[])
{
	size_t n = 0;
	char **sh;

	execve(path, argv, environ);
	if (errno != ENOEXEC)
		return errno;
	while (argv[n])
		n++;
	sh = calloc(n + 2, sizeof(*sh));
	if (!sh)
		return ENOEXEC;
	sh[0] = "/bin/sh";
	sh[1] = (char *)path;
	for (size_t i = 1; i < n; i++)
		sh[i + 1] = argv[i];
	execve(sh[0], sh, environ);
	return errno;
}

/*
 * Everything up to the exec; returns the errno that stopped it, or 0 if the recorder gave up.
 * The result pipe gets 0 once everything before the exec is done: tracing starts after it.
 */
static int command_prepare(const struct env *env, pid_t recorder, int go_fd, int res_fd, int slave,
			   unsigned ttys)
{
	char path[PATH_MAX], go;
	int err, ready = 0;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (env->user_set && (err = command_detach(slave, ttys)))
		return err;
	/* A trace on stdout must not get the workload's output mixed into it. */
	if (!strcmp(env->output, "-") && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return errno;
	if (env->user_set && (err = command_become(env)))
		return err;
	/* After the ids changed: a change of credentials clears the parent-death signal. */
	if (!env->keep_command && prctl(PR_SET_PDEATHSIG, SIGKILL))
		return errno;
	/* The recorder died before the prctl: nobody would ever stop us. */
	if (!env->keep_command && getppid() != recorder)
		return 0;
	/* As the user: what it may search and run. */
	err = command_resolve(env->cmd[0], path, sizeof(path));
	if (err)
		return err;
	if (write(res_fd, &ready, sizeof(ready)) != (ssize_t)sizeof(ready))
		return 0;
	/* EOF without the go byte: the recorder failed to start, or was stopped while starting. */
	if (read(go_fd, &go, 1) != 1)
		return 0;
	return command_exec(path, env->cmd);
}

/* Send sig to every descendant of pid, deepest first, so none is orphaned before it is seen. */
static void command_tree_signal(pid_t pid, int sig, int depth)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = depth < COMMAND_TREE_MAX_DEPTH ? opendir(path) : NULL;
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		FILE *f;
		int child;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid, d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &child) == 1 && child > 0) {
			command_tree_signal(child, sig, depth + 1);
			kill(child, sig);
		}
		fclose(f);
	}
	closedir(dir);
}

/* The child's word that it is ready, or why it cannot run: tracing starts after it. */
static int command_wait_prepared(struct command *c)
{
	ssize_t n;
	int err;

	do
		n = read(c->err_fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(err) && !err)
		return fcntl(c->err_fd, F_SETFL, O_NONBLOCK) ? -errno : 0;
	if (n == (ssize_t)sizeof(err))
		c->exec_err = err;
	command_abort(c);
	close(c->err_fd);
	c->err_fd = -1;
	return n == (ssize_t)sizeof(err) ? -err : -ECHILD;
}

static int command_fork(struct command *c, const struct env *env, int slave)
{
	int go[2], res[2] = { -1, -1 }, err = 0;
	pid_t recorder = getpid();

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(res, O_CLOEXEC)) {
		err = -errno;
		goto out_close;
	}
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		goto out_close;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(res[0]);
		err = command_prepare(env, recorder, go[0], res[1], slave,
				      c->relay ? relay_terminals(c->relay) : 0);
		/* Data past the ready word means the exec failed. */
		if (err && write(res[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(err && err != ENOENT ? 126 : 127);
	}
	close(go[0]);
	close(res[1]);
	/* Orphans of the command's tree become our children: command_stop() still finds them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	c->go_fd = go[1];
	c->err_fd = res[0];
	return 0;

out_close:
	for (int i = 0; i < 2; i++) {
		close(go[i]);
		if (res[i] >= 0)
			close(res[i]);
	}
	return err;
}

int command_start_report(struct command *c, const struct env *env)
{
	int slave = -1, err;

	if (env->user_set && relay_wanted()) {
		err = relay_open(&c->relay, &slave, env->uid);
		if (err) {
			fprintf(stderr, "sct-record: cannot open a terminal for the command: %s\n",
				strerror(-err));
			return err;
		}
	}
	err = command_fork(c, env, slave);
	if (slave >= 0)
		close(slave);
	if (err) {
		relay_free(c->relay);
		c->relay = NULL;
		fprintf(stderr, "sct-record: cannot fork the command: %s\n", strerror(-err));
		return err;
	}
	err = command_wait_prepared(c);
	if (err == -ECHILD && !c->exec_err)
		fprintf(stderr, "sct-record: the command exited before its exec\n");
	else if (err)
		fprintf(stderr, "sct-record: cannot run '%s': %s\n", env->cmd[0], strerror(-err));
	return err;
}

int command_status(const struct command *c)
{
	if (!c->exec_err)
		return 0;
	return c->exec_err == ENOENT ? 127 : 126;
}

int command_release(struct command *c)
{
	int err = 0;

	if (c->go_fd < 0)
		return 0;
	if (c->relay) {
		err = relay_start(c->relay);
		if (err)
			return err;
	}
	/* EPIPE: it failed before it could wait for us; command_finish_report() says why. */
	if (write(c->go_fd, "g", 1) != 1 && errno != EPIPE)
		err = -errno;
	close(c->go_fd);
	c->go_fd = -1;
	return err;
}

/* The exec's errno from the result pipe, once it is known (EOF: the exec succeeded). */
static void command_collect(struct command *c)
{
	ssize_t n;
	int err;

	if (c->err_fd < 0)
		return;
	n = read(c->err_fd, &err, sizeof(err));
	if (n < 0 && errno == EAGAIN)
		return;
	if (n == (ssize_t)sizeof(err))
		c->exec_err = err;
	close(c->err_fd);
	c->err_fd = -1;
}

/*
 * Reap every child that exited: the command and the orphans of its tree, whose subreaper we
 * are. True once none is left, the whole tree gone.
 */
static bool command_reap_all(struct command *c)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		if (pid == c->pid)
			c->done = true;
	return pid < 0 && errno == ECHILD;
}

bool command_reaped(struct command *c)
{
	if (c->pid > 0)
		command_reap_all(c);
	return c->done;
}

/* Block until the command itself has exited. */
static void command_wait(struct command *c)
{
	if (c->pid > 0 && !c->done && waitpid(c->pid, NULL, 0) == c->pid)
		c->done = true;
	command_reaped(c);
}

void command_abort(struct command *c)
{
	/* Closing the pipe without the go byte makes the child exit before its exec. */
	if (c->go_fd >= 0) {
		close(c->go_fd);
		c->go_fd = -1;
		command_wait(c);
	}
	relay_free(c->relay);
	c->relay = NULL;
}

void command_relay_end(struct command *c)
{
	relay_stop(c->relay);
}

void command_stop(struct command *c, const struct env *env)
{
	if (c->pid > 0 && !env->keep_command)
		command_tree_signal(getpid(), SIGTERM, 0);
}

/*
 * Give the tree sent SIGTERM the grace period to exit, then SIGKILL what is left until none of
 * it is: a process forked while its parent was being killed is new to each scan, and none of
 * the tree may be seen alive once the recorder has exited. As the subreaper, the recorder has
 * children as long as any process of the tree is alive, and gets SIGCHLD whenever one exits.
 */
static void command_wait_stopped(struct command *c)
{
	uint64_t deadline = clock_now_ns() + COMMAND_STOP_GRACE_MS * 1000000ull;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	while (!command_reap_all(c)) {
		uint64_t now = clock_now_ns(), wait_ns = COMMAND_KILL_RESCAN_MS * 1000000ull;
		struct timespec left;

		if (now >= deadline)
			command_tree_signal(getpid(), SIGKILL, 0);
		else if (deadline - now < wait_ns)
			wait_ns = deadline - now;
		left.tv_sec = wait_ns / NSEC_PER_SEC;
		left.tv_nsec = wait_ns % NSEC_PER_SEC;
		sigtimedwait(&chld, NULL, &left);
	}
	command_wait(c);
}

int command_finish_report(struct command *c, const struct env *env)
{
	if (c->pid <= 0)
		return 0;
	if (c->go_fd >= 0)
		command_abort(c);
	else if (env->keep_command)
		command_reaped(c);
	else
		command_wait_stopped(c);
	relay_free(c->relay);
	c->relay = NULL;
	command_collect(c);
	if (!c->exec_err)
		return 0;
	fprintf(stderr, "sct-record: cannot run '%s': %s\n", env->cmd[0], strerror(c->exec_err));
	return command_status(c);
}
