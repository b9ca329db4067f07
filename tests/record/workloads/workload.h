/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What every test workload shares: wait for the test's go byte, print ground truth with one
 * write(2) per line (atomic on a pipe, so lines of many processes never interleave), and die
 * loudly on a failed call. Raw syscalls keep libc from adding calls the tests would count.
 */
#ifndef SCT_WORKLOAD_H
#define SCT_WORKLOAD_H

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline void wl_die(const char *what)
{
	perror(what);
	exit(250);
}

/* One line to stdout in one write(2); a line longer than PIPE_BUF is a bug in the workload. */
static inline __attribute__((format(printf, 1, 2))) void wl_say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		wl_die("wl_say: line too long");
	if (syscall(SYS_write, 1, line, (size_t)n) != n)
		wl_die("write stdout");
}

/* Block until the test writes one byte to our stdin (after the recorder said it is ready). */
static inline void wl_wait_go(void)
{
	char c;

	if (syscall(SYS_read, 0, &c, 1) != 1)
		wl_die("read go byte from stdin");
}

static inline long wl_arg(const char *s, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "bad number '%s' (want %ld..%ld)\n", s, min, max);
		exit(2);
	}
	return v;
}

/* The benchmark generators' loop clock. */
static inline long long wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Keep to the first CPU we may use (threads started later inherit it); returns its number. */
static inline int wl_pin_first_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		wl_die("sched_getaffinity");
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		wl_die("sched_setaffinity");
	return cpu;
}

#endif
