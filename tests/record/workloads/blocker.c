/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blocker [FIFO]
 * After the go byte, prints "blocker pid P" and blocks, so the test can stop the recorder with
 * that call in flight: in read(2) on stdin until it closes, or with FIFO in openat(2) of FIFO
 * for reading (O_RDONLY) until a writer opens it. Exits 0 at EOF or once FIFO opened.
 */
#include <fcntl.h>

#include "workload.h"

int main(int argc, char **argv)
{
	char c;

	wl_wait_go();
	wl_say("blocker pid %d\n", getpid());
	if (argc > 1) {
		if (syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY) < 0)
			wl_die("open FIFO");
		return 0;
	}
	if (syscall(SYS_read, 0, &c, 1) != 0)
		wl_die("read stdin: EOF expected");
	return 0;
}
