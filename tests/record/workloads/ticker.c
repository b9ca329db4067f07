/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ticker
 * For the I-th byte read on stdin (I from 1), one write(2) of 100+I bytes to /dev/null; exits 0
 * at EOF. The test times how long each of these writes takes to reach the trace file.
 */
#include "workload.h"

#include <fcntl.h>

int main(void)
{
	static char buf[4096];
	long i;
	char c;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		wl_die("open /dev/null");
	for (i = 1; syscall(SYS_read, 0, &c, 1) == 1; i++) {
		if (100 + i > (long)sizeof(buf))
			wl_die("ticker: too many ticks");
		if (syscall(SYS_write, fd, buf, (size_t)(100 + i)) != 100 + i)
			wl_die("write /dev/null");
	}
	return 0;
}
