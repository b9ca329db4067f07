/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_writer [COUNT]
 * The `make bench` generator: sleeps 1 s (the recorder attaches meanwhile), then does COUNT
 * (default 1,000,000) write(2)s of one byte to /dev/null and prints "loop_ns N writes COUNT".
 */
#include "workload.h"

#include <fcntl.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? wl_arg(argv[1], 1, 1L << 40) : 1000000, i;
	struct timespec second = {1, 0};
	long long t0, t1;
	char c = 0;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		wl_die("open /dev/null");
	nanosleep(&second, NULL);
	t0 = now_ns();
	for (i = 0; i < count; i++)
		if (syscall(SYS_write, fd, &c, 1) != 1)
			wl_die("write /dev/null");
	t1 = now_ns();
	wl_say("loop_ns %lld writes %ld\n", t1 - t0, count);
	return 0;
}
