/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mover
 * For a test that moves it to another cgroup while it runs. After the go byte: one getppid(2),
 * then prints "mover pid P", then calls getppid(2) and polls its stdin (non-blocking reads)
 * until a second byte comes, sent once the test has moved it; then one getuid(2), and exits 0.
 * It never sleeps in between, so a tracer that only learns a task's cgroup when the task is
 * switched in would still show the old cgroup after the move.
 */
#include <errno.h>
#include <fcntl.h>

#include "workload.h"

int main(void)
{
	char c;
	long n;

	wl_wait_go();
	syscall(SYS_getppid);
	if (fcntl(0, F_SETFL, O_NONBLOCK))
		wl_die("fcntl stdin");
	wl_say("mover pid %d\n", getpid());
	do {
		syscall(SYS_getppid);
		n = syscall(SYS_read, 0, &c, 1);
		if (n < 0 && errno != EAGAIN)
			wl_die("read stdin");
	} while (n != 1);
	syscall(SYS_getuid);
	return 0;
}
