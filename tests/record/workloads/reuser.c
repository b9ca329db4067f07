/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reuser CGROUP_DIR
 * Two processes with one pid, each of which moves itself into CGROUP_DIR. After the go byte:
 * the first child names itself "first" (PR_SET_NAME), moves in, writes 11 bytes to /dev/null
 * and exits. Once it is reaped, /proc/sys/kernel/ns_last_pid is set so that the next fork
 * gets its pid back, 20 ms after its exit: two clock ticks, so that even /proc's start times
 * tell the two apart. The second child, if it has the pid, does the same as "second" with 22
 * bytes; another process may have taken the pid in between, and the second child then exits
 * at once, outside the cgroup, and the pair is tried again (at most 100 times). Prints
 * "reused pid P" and exits 0, or exits 1 if the pid was never given back.
 */
#include "workload.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

static char procs[PATH_MAX];
static int devnull;

static void child_run(const char *name, size_t marker)
{
	static const char buf[32];
	char pid[16];
	int fd, n;

	if (prctl(PR_SET_NAME, name))
		wl_die("prctl");
	fd = open(procs, O_WRONLY);
	n = snprintf(pid, sizeof(pid), "%ld", (long)syscall(SYS_getpid));
	if (fd < 0 || write(fd, pid, (size_t)n) != n)
		wl_die("move into the cgroup");
	if (syscall(SYS_write, devnull, buf, marker) != (long)marker)
		wl_die("write /dev/null");
	_exit(0);
}

static pid_t child_start(const char *name, size_t marker, pid_t want)
{
	pid_t pid = fork();

	if (pid < 0)
		wl_die("fork");
	if (!pid) {
		if (want && syscall(SYS_getpid) != want)
			_exit(0);
		child_run(name, marker);
	}
	return pid;
}

static void child_reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		wl_die("child");
}

/* The next fork gets pid, unless another process forks first. */
static void pid_give_back(pid_t pid)
{
	char buf[16];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY), n;

	n = snprintf(buf, sizeof(buf), "%d", pid - 1);
	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		wl_die("ns_last_pid");
	close(fd);
}

int main(int argc, char **argv)
{
	const struct timespec ticks = { 0, 20000000 };
	pid_t first, second;

	if (argc != 2) {
		fprintf(stderr, "usage: reuser CGROUP_DIR\n");
		return 2;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", argv[1]);
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0)
		wl_die("open /dev/null");
	wl_wait_go();
	for (int i = 0; i < 100; i++) {
		first = child_start("first", 11, 0);
		child_reap(first);
		nanosleep(&ticks, NULL);
		pid_give_back(first);
		second = child_start("second", 22, first);
		child_reap(second);
		if (second == first) {
			wl_say("reused pid %d\n", first);
			return 0;
		}
	}
	return 1;
}
