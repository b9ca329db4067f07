/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nullwriter COUNT LEN [announce]
 * One thread: waits for the go byte, then does COUNT write(2)s of LEN bytes to /dev/null
 * (COUNT 0: forever) and prints "nullwriter pid P tid T writes COUNT len LEN" in one more write.
 * With "announce" it first prints "start pid P" (before the go byte), for tests that learn the
 * pid from the output because the workload runs under another program (perf stat).
 */
#include "workload.h"

#include <fcntl.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	long count, len, i;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: nullwriter COUNT LEN [announce]\n");
		return 2;
	}
	count = wl_arg(argv[1], 0, 1L << 40);
	len = wl_arg(argv[2], 1, sizeof(buf));
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		wl_die("open /dev/null");
	if (argc > 3)
		wl_say("start pid %d\n", getpid());
	wl_wait_go();
	for (i = 0; count == 0 || i < count; i++)
		if (syscall(SYS_write, fd, buf, (size_t)len) != len)
			wl_die("write /dev/null");
	wl_say("nullwriter pid %d tid %ld writes %ld len %ld\n", getpid(), syscall(SYS_gettid), count, len);
	return 0;
}
