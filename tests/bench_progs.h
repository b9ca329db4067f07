/* SPDX-License-Identifier: BSD-2-Clause */
/* The recorder benchmarks' view of a recorder's BPF programs: the kernel's run-time statistics. */
#ifndef SCT_BENCH_PROGS_H
#define SCT_BENCH_PROGS_H

#include <sys/types.h>
#include <bpf/bpf.h>

#define BENCH_MAX_PROGS 16

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
