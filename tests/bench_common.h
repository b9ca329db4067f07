/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the recorder benchmarks share: the clock, child processes, the environment, and a
 * recorder's BPF programs as the kernel's run-time statistics see them.
 */
#ifndef SCT_BENCH_COMMON_H
#define SCT_BENCH_COMMON_H

#include <sys/types.h>
#include <bpf/bpf.h>

#define BENCH_MAX_PROGS 16

/* CLOCK_MONOTONIC in seconds. */
double now_s(void);
/* Sleep until now_s() reaches t. */
void sleep_until(double t);
/* fork+exec argv with stdout to out_fd (or /dev/null) and stderr to err_path (or /dev/null). */
pid_t spawn(const char *const argv[], int out_fd, const char *err_path);
/* The environment variable name, or dflt when it is unset or empty. */
const char *env_or(const char *name, const char *dflt);
/* qsort() order of doubles. */
int cmp_double(const void *a, const void *b);
/* The median of v[0..k) (sorted in place); -1 when k is 0. */
double median_of(double *v, int k);

/* One BPF program of a recorder, from the kernel's run-time statistics. */
struct prog_stat {
	char name[BPF_OBJ_NAME_LEN];
	double runs, ns;
};

struct prog_stats {
	struct prog_stat p[BENCH_MAX_PROGS];
	int n;
};

/*
 * Hold the BPF programs process pid holds (as program or link fds): their statistics outlive
 * the recorder, which stops as soon as its target exits. Returns how many fds are in fds.
 */
int prog_stats_hold(pid_t pid, int *fds);
/* The run-time statistics of the programs prog_stats_hold() held, which it closes. */
void prog_stats_read(int *fds, int n, struct prog_stats *ps);

#endif
