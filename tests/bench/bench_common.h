/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the recorder benchmarks share: the clock, child processes, the environment, and a
 * recorder's BPF programs as the kernel's run-time statistics see them.
 */
#ifndef SCT_BENCH_COMMON_H
#define SCT_BENCH_COMMON_H

#include <sys/resource.h>
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
/* User plus system time of a struct rusage, in ns. */
double rusage_cpu_ns(const struct rusage *ru);

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

/* What one bench_run() measured. */
struct bench_run {
	double loop_ns;    /* the generator's "loop_ns N" line; 0 if it printed none */
	double cpu_ns;     /* the tracer's CPU time (user + system) */
	double gen_cpu_ns; /* the generator's, which holds what the kernel's tracing costs it */
	int gen_status;    /* waitpid() statuses */
	int tracer_status;
};

/*
 * One generator run, as both recorder benchmarks time it: gen starts at t0 and makes its calls
 * from t0 + 1 s (it sleeps first); the tracer rec (NULL: untraced), whose argv names the
 * buffer pid_s where the generator's pid is written once it runs, starts at t0 + 0.2 s with
 * stderr to err_path (NULL: /dev/null), gets SIGINT 0.3 s after the generator ends, and is
 * waited for. ps (or NULL): the statistics of the tracer's BPF programs, held from
 * t0 + 0.9 s. 0 or -errno.
 */
int bench_run(const char *const gen[], const char *const *rec, char pid_s[16], const char *err_path,
	      struct prog_stats *ps, struct bench_run *out);

#endif
