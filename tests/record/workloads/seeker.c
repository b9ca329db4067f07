/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * seeker COUNT
 * Waits for the go byte, then makes COUNT lseek(2)s on a memfd, the I-th (I from 1) to offset
 * I, so the I-th call returns I: a trace names each call by its return value. Prints
 * "seeker pid P tid T seeks COUNT", then waits for one more byte (or EOF) before it exits, so
 * a test can act while it is still alive.
 */
#include "workload.h"

#include <sys/mman.h>

int main(int argc, char **argv)
{
	long count, i;
	char c;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: seeker COUNT\n");
		return 2;
	}
	count = wl_arg(argv[1], 1, 1L << 40);
	fd = memfd_create("seeker", MFD_CLOEXEC);
	if (fd < 0)
		wl_die("memfd_create");
	wl_wait_go();
	for (i = 1; i <= count; i++)
		if (syscall(SYS_lseek, fd, i, SEEK_SET) != i)
			wl_die("lseek");
	wl_say("seeker pid %d tid %ld seeks %ld\n", getpid(), syscall(SYS_gettid), count);
	if (syscall(SYS_read, 0, &c, 1) < 0)
		wl_die("read stdin");
	return 0;
}
