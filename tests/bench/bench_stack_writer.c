/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_stack_writer [COUNT]
 * The stacks benchmark's generator: bench_writer's timing with stacker's stacks. Sleeps 1 s
 * (the tracer attaches meanwhile), then a() calls b(), which makes COUNT (default 1,000,000)
 * write(2)s of one byte to /dev/null, and prints "loop_ns N writes COUNT". Built with frame
 * pointers at -O1 (bench.mk), each write an inline syscall instruction in b() itself: a
 * frame-pointer walk sees b, a, main, __libc_start_call_main from the first frame, the
 * 4-frame stack of the test workload stacker.
 */
#include "../record/workloads/workload.h"

#include <fcntl.h>
#include <time.h>

static inline long raw_write(long fd, const void *buf, long n)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "0"(SYS_write), "D"(fd), "S"(buf), "d"(n) : "rcx", "r11", "memory");
	return ret;
}

static __attribute__((noinline)) void b(long fd, long n)
{
	for (long i = 0; i < n; i++)
		if (raw_write(fd, "b", 1) != 1)
			wl_die("write /dev/null");
	asm volatile("" ::: "memory");
}

static __attribute__((noinline)) void a(long fd, long n)
{
	b(fd, n);
	asm volatile("" ::: "memory");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? wl_arg(argv[1], 1, 1L << 40) : 1000000;
	struct timespec second = {1, 0};
	long long t0;
	long fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		wl_die("open /dev/null");
	nanosleep(&second, NULL);
	t0 = now_ns();
	a(fd, count);
	wl_say("loop_ns %lld writes %ld\n", now_ns() - t0, count);
	return 0;
}
