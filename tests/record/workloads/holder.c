/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * holder N [orphans] [ignore-term]
 * Processes that wait for a signal: itself and N children, each printing "held pid P" and
 * then blocking in pause(). With "orphans" each child forks the process that holds and exits
 * at once, so those are orphans (reparented to the nearest subreaper). With "ignore-term"
 * every one of them ignores SIGTERM. No go byte: it holds from its first instruction.
 */
#include "workload.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

static void hold(void)
{
	wl_say("held pid %d\n", getpid());
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int orphans = 0;
	long n;

	if (argc < 2) {
		fprintf(stderr, "usage: holder N [orphans] [ignore-term]\n");
		return 2;
	}
	n = wl_arg(argv[1], 0, 64);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "orphans"))
			orphans = 1;
		else if (!strcmp(argv[i], "ignore-term"))
			signal(SIGTERM, SIG_IGN);
	}
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			wl_die("fork");
		if (pid > 0)
			continue;
		if (orphans) {
			pid = fork();
			if (pid < 0)
				wl_die("fork");
			if (pid > 0)
				_exit(0);
		}
		hold();
	}
	/* Reap the children that left their orphans, so only holders remain. */
	while (orphans && wait(NULL) > 0)
		;
	hold();
}
