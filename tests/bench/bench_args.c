/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make bench-args`: what sct-record --args costs. Four generators of 1,000,000 calls each:
 * bench_writer (write(2)s to /dev/null: raw arguments, no path), bench_access (faccessat(2)s
 * over four paths: a path read per call, and the same few paths over and over), bench_connect
 * (a UDP socket's connect(2)s to 127.0.0.1:9: a socket address per call) and bench_exec
 * (execve(2)s of a missing program with an 8-entry argv: the argv and the environment count
 * read per call, no program loaded). Each runs
 * untraced, under sct-record, and under sct-record --args, interleaved, BENCH_TRIALS times
 * (default 5); medians. Method as bench_record.c: the recorder starts on the generator's pid
 * 0.2 s after launch, the calls start 1 s after launch, SIGINT 0.3 s after they end.
 * Reported: ns per call of each loop; the BPF programs' run time per call (sys_enter* plus
 * sys_exit*, from the kernel's run-time statistics, on for every trial: they add a clock read
 * per run to both recordings alike); the cost --args adds per call, by both measures; recorder
 * CPU per record; file bytes per record and what --args adds. On a machine shared with other
 * work the loop times swing by more than the cost measured: the programs' run time is the
 * steadier figure.
 * Environment: SCT_RECORD, SCT_WORKLOADS, BENCH_TRIALS.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "sct.h"

#define CALLS 1000000.0
#define MAX_TRIALS 15

enum gen { G_WRITE, G_ACCESS, G_CONNECT, G_EXEC, G_COUNT };
enum tool { T_NONE, T_SCT, T_ARGS, T_COUNT };

static const char *const gen_names[G_COUNT] = { "bench_writer", "bench_access", "bench_connect",
						      "bench_exec" };
static const char *const tool_names[T_COUNT] = { "untraced", "sct-record", "sct-record --args" };

struct trial {
	double loop_ns, cpu_ns, records, bytes, bpf_ns;
	bool ok;
};

static char dir[64];

/* SYSCALL records in an sct trace. */
static double count_records(const char *path)
{
	struct sct_reader *r;
	struct sct_record rec;
	double n = 0;
	int err = 0;

	r = sct_reader_open(path, &err);
	if (!r)
		return -1;
	while (sct_reader_next(r, &rec) == 1)
		n += rec.type == SCT_REC_SYSCALL;
	sct_reader_close(r);
	return n;
}

/* Run time of the syscall programs per syscall: enter and exit together. */
static double bpf_ns_per_call(const struct prog_stats *ps)
{
	double ns = 0, calls = 0;

	for (int i = 0; i < ps->n; i++) {
		if (strncmp(ps->p[i].name, "sys_enter", 9) && strncmp(ps->p[i].name, "sys_exit", 8))
			continue;
		ns += ps->p[i].ns * ps->p[i].runs;
		if (!strncmp(ps->p[i].name, "sys_enter", 9))
			calls += ps->p[i].runs;
	}
	return calls ? ns / calls : 0;
}

static int trial_run(enum gen g, enum tool tool, int idx, struct trial *t)
{
	char gen_path[PATH_MAX], out[128], pid_s[16];
	const char *gen[] = { gen_path, "1000000", NULL };
	const char *rec[] = { env_or("SCT_RECORD", "build/sct-record"), "-q", "-o", out, "-p", pid_s,
			      tool == T_ARGS ? "--args" : NULL, NULL };
	struct prog_stats ps = { 0 };
	struct bench_run run;
	struct stat st;
	int err;

	memset(t, 0, sizeof(*t));
	snprintf(gen_path, sizeof(gen_path), "%s/%s", env_or("SCT_WORKLOADS", "build/tests/record/workloads"),
		 gen_names[g]);
	snprintf(out, sizeof(out), "%s/t%d-%d-%d", dir, g, tool, idx);
	err = bench_run(gen, tool != T_NONE ? rec : NULL, pid_s, NULL, &ps, &run);
	if (err)
		return err;
	t->loop_ns = run.loop_ns;
	if (tool != T_NONE) {
		if (!WIFEXITED(run.tracer_status) || WEXITSTATUS(run.tracer_status))
			return -EIO;
		t->bpf_ns = bpf_ns_per_call(&ps);
		t->cpu_ns = run.cpu_ns;
		t->bytes = stat(out, &st) == 0 ? (double)st.st_size : 0;
		t->records = count_records(out);
		unlink(out);
	}
	t->ok = t->loop_ns > 0 && t->records >= 0;
	return t->ok ? 0 : -EIO;
}

/* Median of one field (at offset off) of the trials that ran. */
static double median(const struct trial *tr, int n, size_t off)
{
	double v[MAX_TRIALS];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (tr[i].ok)
			v[k++] = *(const double *)((const char *)&tr[i] + off);
	return k ? median_of(v, k) : 0;
}

struct summary {
	double loop_ns, cpu_per_record, bytes_per_record, bpf_ns;
};

static struct summary summarize(const struct trial *tr, int n)
{
	struct trial per[MAX_TRIALS];
	struct summary s;

	for (int i = 0; i < n; i++) {
		per[i] = tr[i];
		per[i].cpu_ns = tr[i].records > 0 ? tr[i].cpu_ns / tr[i].records : 0;
		per[i].bytes = tr[i].records > 0 ? tr[i].bytes / tr[i].records : 0;
	}
	s.loop_ns = median(tr, n, offsetof(struct trial, loop_ns));
	s.cpu_per_record = median(per, n, offsetof(struct trial, cpu_ns));
	s.bytes_per_record = median(per, n, offsetof(struct trial, bytes));
	s.bpf_ns = median(tr, n, offsetof(struct trial, bpf_ns));
	return s;
}

static const char *met(bool ok)
{
	return ok ? "MET" : "MISSED";
}

int main(void)
{
	static struct trial tr[G_COUNT][T_COUNT][MAX_TRIALS];
	struct summary s[G_COUNT][T_COUNT];
	int trials = atoi(env_or("BENCH_TRIALS", "5")), stats_fd;
	double added[G_COUNT], added_bpf[G_COUNT], grow;

	if (trials < 1 || trials > MAX_TRIALS) {
		fprintf(stderr, "bench-args: BENCH_TRIALS must be 1..%d\n", MAX_TRIALS);
		return 2;
	}
	snprintf(dir, sizeof(dir), "/tmp/sct-bench-args-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("bench-args: mkdtemp");
		return 1;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		fprintf(stderr, "bench-args: BPF_ENABLE_STATS failed (%s): no program run times\n",
			strerror(-stats_fd));
	for (int i = 0; i < trials; i++)
		for (int g = 0; g < G_COUNT; g++)
			for (int k = 0; k < T_COUNT; k++) {
				fprintf(stderr, "bench-args: trial %d/%d %s, %s\n", i + 1, trials, gen_names[g],
					tool_names[k]);
				if (trial_run((enum gen)g, (enum tool)k, i, &tr[g][k][i]))
					fprintf(stderr, "bench-args: that trial failed\n");
			}
	if (stats_fd >= 0)
		close(stats_fd);
	printf("\nsct-record --args benchmark: 1,000,000 calls per loop, median of %d trials\n", trials);
	printf("%-14s %-18s %9s %12s %13s %14s %13s\n", "generator", "tool", "ns/call", "x untraced",
	       "BPF ns/call", "CPU ns/record", "bytes/record");
	for (int g = 0; g < G_COUNT; g++)
		for (int k = 0; k < T_COUNT; k++) {
			s[g][k] = summarize(tr[g][k], trials);
			printf("%-14s %-18s %9.1f %11.2fx", gen_names[g], tool_names[k], s[g][k].loop_ns / CALLS,
			       s[g][T_NONE].loop_ns > 0 ? s[g][k].loop_ns / s[g][T_NONE].loop_ns : 0);
			if (k == T_NONE)
				printf(" %13s %14s %13s\n", "-", "-", "-");
			else
				printf(" %13.1f %14.1f %13.2f\n", s[g][k].bpf_ns, s[g][k].cpu_per_record,
				       s[g][k].bytes_per_record);
		}
	for (int g = 0; g < G_COUNT; g++) {
		added[g] = (s[g][T_ARGS].loop_ns - s[g][T_SCT].loop_ns) / CALLS;
		added_bpf[g] = s[g][T_ARGS].bpf_ns - s[g][T_SCT].bpf_ns;
	}
	grow = s[G_ACCESS][T_ARGS].bytes_per_record - s[G_ACCESS][T_SCT].bytes_per_record;
	printf("\n--args adds per call (by the loop / by the BPF run time, ns): raw arguments %.1f / %.1f;"
	       " a path %.1f / %.1f;\n         a socket address %.1f / %.1f; an argv %.1f / %.1f\n",
	       added[G_WRITE], added_bpf[G_WRITE], added[G_ACCESS], added_bpf[G_ACCESS], added[G_CONNECT],
	       added_bpf[G_CONNECT], added[G_EXEC], added_bpf[G_EXEC]);
	printf("targets (BPF run time): raw arguments <= 10 ns/call more: %.1f %s; a path <= 150 ns/path"
	       " call more: %.1f %s;\n         a socket address <= 150 ns/call more: %.1f %s; an argv <="
	       " 1000 ns/exec more: %.1f %s;\n         repeated paths <= 2 bytes/record more: %.2f %s\n",
	       added_bpf[G_WRITE], met(added_bpf[G_WRITE] <= 10), added_bpf[G_ACCESS],
	       met(added_bpf[G_ACCESS] <= 150), added_bpf[G_CONNECT], met(added_bpf[G_CONNECT] <= 150),
	       added_bpf[G_EXEC], met(added_bpf[G_EXEC] <= 1000), grow, met(grow <= 2));
	rmdir(dir);
	return 0;
}
