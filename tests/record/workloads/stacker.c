/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stacker N M K
 * Calls with known stacks, for the --stack tests: after the go byte, a() calls b(), which
 * makes N write(2)s to /dev/null; c() makes M; a forked child's d() makes K. Prints
 * "stacker pid P child C" in one write; then the child, and the parent once the child is
 * gone, each exit after one more byte on stdin: the recorder reads a process's mappings
 * while it lives, so the test lets them go only once their calls are in the trace. Built with
 * frame pointers at -O1 (tests/record/record.mk), each write an inline syscall instruction in
 * its own function: a frame-pointer walk then sees b, a, main (or c, main; d, main) from the
 * first frame.
 */
#include "workload.h"

#include <fcntl.h>
#include <sys/wait.h>

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

static __attribute__((noinline)) void c(long fd, long n)
{
	for (long i = 0; i < n; i++)
		if (raw_write(fd, "c", 1) != 1)
			wl_die("write /dev/null");
	asm volatile("" ::: "memory");
}

static __attribute__((noinline)) void d(long fd, long n)
{
	for (long i = 0; i < n; i++)
		if (raw_write(fd, "d", 1) != 1)
			wl_die("write /dev/null");
	asm volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n, m, k, fd;
	pid_t child;
	int status;

	if (argc != 4) {
		fprintf(stderr, "usage: stacker N M K\n");
		return 2;
	}
	n = wl_arg(argv[1], 0, 10000000);
	m = wl_arg(argv[2], 0, 10000000);
	k = wl_arg(argv[3], 0, 10000000);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		wl_die("open /dev/null");
	wl_wait_go();
	a(fd, n);
	c(fd, m);
	child = fork();
	if (child < 0)
		wl_die("fork");
	if (!child) {
		d(fd, k);
		wl_wait_go();
		_exit(0);
	}
	wl_say("stacker pid %d child %d\n", (int)getpid(), (int)child);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		wl_die("waitpid");
	wl_wait_go();
	return 0;
}
