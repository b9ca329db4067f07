/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forker AFTER [CALLS]
 * Forks short-lived children back to back, from before the recorder starts. Before each fork
 * it polls stdin without blocking for the test's flag byte (sent after the recorder said it
 * is ready). Every child forked after the flag was seen is printed as "child PID" (the child
 * makes CALLS getppid(), default 1, and exits with code 3); after AFTER such children it
 * prints "done".
 */
#include "workload.h"

#include <fcntl.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	long after, calls = 1, seen = 0;
	int flag = 0, status;
	char c;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: forker AFTER [CALLS]\n");
		return 2;
	}
	after = wl_arg(argv[1], 1, 100000);
	if (argc == 3)
		calls = wl_arg(argv[2], 1, 1000000);
	if (fcntl(0, F_SETFL, O_NONBLOCK) < 0)
		wl_die("fcntl stdin");
	wl_say("forker pid %d\n", getpid());
	while (seen < after) {
		pid_t pid;

		if (!flag && syscall(SYS_read, 0, &c, 1) == 1)
			flag = 1;
		pid = fork();
		if (pid < 0)
			wl_die("fork");
		if (pid == 0) {
			for (long i = 0; i < calls; i++)
				syscall(SYS_getppid);
			syscall(SYS_exit_group, 3);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 3)
			wl_die("waitpid");
		if (flag) {
			wl_say("child %d\n", pid);
			seen++;
		}
	}
	wl_say("done\n");
	return 0;
}
