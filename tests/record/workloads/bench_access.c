/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_access [COUNT]
 * The path benchmark's generator (make bench-args): sleeps 1 s (the recorder attaches
 * meanwhile), then makes COUNT (default 1,000,000) faccessat(2) calls, one syscall with one
 * path each, over the same four existing paths in turn (a workload that looks at a few files
 * again and again), and prints "loop_ns N calls COUNT".
 */
#include "workload.h"

#include <fcntl.h>

int main(int argc, char **argv)
{
	static const char *const paths[] = { "/", "/etc", "/dev/null", "/proc/self" };
	long count = argc > 1 ? wl_arg(argv[1], 1, 1L << 40) : 1000000;
	struct timespec second = {1, 0};
	long long t0, t1;

	nanosleep(&second, NULL);
	t0 = wl_now_ns();
	for (long i = 0; i < count; i++)
		if (syscall(SYS_faccessat, AT_FDCWD, paths[i & 3], F_OK) != 0)
			wl_die("faccessat");
	t1 = wl_now_ns();
	wl_say("loop_ns %lld calls %ld\n", t1 - t0, count);
	return 0;
}
