/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chain N
 * After the go byte, a chain of N short-lived processes: each forks the next and exits at
 * once (exit_group, code 0), so few are alive at any time while N go by. The last one prints
 * "chain N" and exits.
 */
#include "workload.h"

int main(int argc, char **argv)
{
	long n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: chain N\n");
		return 2;
	}
	n = wl_arg(argv[1], 1, 1000000);
	wl_wait_go();
	for (i = 1; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			wl_die("fork");
		if (pid > 0)
			syscall(SYS_exit_group, 0);
	}
	wl_say("chain %ld\n", n);
	return 0;
}
