/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_exec [COUNT]
 * The argv benchmark's generator (make bench-args): sleeps 1 s (the recorder attaches
 * meanwhile), then makes COUNT (default 1,000,000) execve(2) calls with the 8-entry argv of a
 * typical server command line (75 bytes with their NULs) and this process's environment, and prints
 * "loop_ns N calls COUNT". The program does not exist, so each call fails at once with ENOENT:
 * the recorder still reads the argv and counts the environment at the call's entry, and the
 * loop measures that capture rather than the cost of loading a program.
 */
#include "workload.h"

#include <errno.h>

extern char **environ;

int main(int argc, char **argv)
{
	static char *const exec_argv[] = { "/usr/bin/python3", "-m", "http.server", "--bind",
					   "127.0.0.1", "8000", "--directory", "/srv/www", NULL };
	long count = argc > 1 ? wl_arg(argv[1], 1, 1L << 40) : 1000000;
	struct timespec second = {1, 0};
	long long t0, t1;

	nanosleep(&second, NULL);
	t0 = wl_now_ns();
	for (long i = 0; i < count; i++)
		if (syscall(SYS_execve, "/nonexistent/sct-bench-exec", exec_argv, environ) != -1 ||
		    errno != ENOENT)
			wl_die("execve");
	t1 = wl_now_ns();
	wl_say("loop_ns %lld calls %ld\n", t1 - t0, count);
	return 0;
}
