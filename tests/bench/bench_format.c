// SPDX-License-Identifier: BSD-2-Clause
/*
 * Format micro-benchmark: write then read synthetic SYSCALL streams and print the writer's
 * CPU ns/record, bytes/record and the reader's records/s.
 *   bench_format [PATH] [N]                  both streams, N records each (default 10,000,000)
 *   bench_format --write-only PATH N [--mixed]  just write an N-record trace to PATH
 * Records are generated in batches outside the timed region; only the appends (one record per
 * sct_writer_append_syscall(), or runs of 64 per sct_writer_append_syscalls(), the size of
 * sct-record's staged batches) and sct_writer_close() (without fsync) are timed, on the
 * process CPU clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sct.h"

#define BATCH 65536u
#define DEFAULT_N 10000000ull

struct gen {
	uint64_t rng, t;
	bool mixed;
};

static uint64_t rnd(struct gen *g)
{
	/* xorshift64*: cheap and good enough for jitter */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1Dull;
}

/* One process, 4 threads, one cgroup; write(1) 95% of the time, ~300 ns apart. */
static void gen_uniform(struct gen *g, struct sct_syscall *sc)
{
	uint64_t r = rnd(g);
	unsigned pick = (unsigned)(r % 100);

	memset(sc, 0, sizeof(*sc));
	g->t += 260 + (r >> 8) % 80;
	sc->time_ns = g->t;
	sc->pid = 41230;
	sc->tid = 41230 + (uint32_t)((r >> 20) % 4);
	sc->cgroup_id = 8123;
	if (pick < 95) {
		sc->nr = 1;
		sc->ret = 64;
		sc->duration_ns = 170 + (r >> 32) % 40;
	} else if (pick < 98) {
		sc->nr = 0;
		sc->ret = 4096;
		sc->duration_ns = 200 + (r >> 32) % 200;
	} else {
		sc->nr = 202; /* futex */
		sc->ret = (r >> 40) % 8 ? 0 : -11;
		sc->duration_ns = 150 + (r >> 32) % 5000;
	}
}

/* 10 processes of 1..4 threads, 5 cgroups, 40 syscall numbers, varied latency and results. */
static void gen_mixed(struct gen *g, struct sct_syscall *sc)
{
	static const uint32_t nrs[40] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17,
					  19, 20, 21, 23, 39, 41, 42, 44, 45, 56, 59, 61, 62, 72,
					  79, 89, 202, 228, 230, 232, 257, 262, 270, 281 };
	uint64_t r = rnd(g);
	uint32_t proc = (uint32_t)(r % 10);

	memset(sc, 0, sizeof(*sc));
	g->t += 100 + (r >> 8) % 900;
	sc->time_ns = g->t;
	sc->pid = 20000 + proc * 37;
	sc->tid = sc->pid + (uint32_t)((r >> 16) % (1 + proc % 4));
	sc->cgroup_id = 9000 + proc % 5 * 17;
	sc->nr = nrs[(r >> 24) % 40];
	sc->duration_ns = 80 + ((r >> 32) % 1000) * (1 + (r >> 60));
	sc->ret = (r >> 42) % 10 ? (int64_t)((r >> 44) % 4097) : -(int64_t)((r >> 48) % 40 + 1);
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct sct_syscall_name names[] = { { 0, "read" }, { 1, "write" }, { 202, "futex" } };

/* The records appended per call when a run is timed against single appends. */
#define RUN 64u

/*
 * Write n records to path, run at a time (1: sct_writer_append_syscall()); *cpu gets the
 * timed CPU seconds. Returns file bytes or -1.
 */
static int64_t bench_write(const char *path, uint64_t n, bool mixed, uint32_t run, double *cpu)
{
	struct sct_header_info info = {
		.producer = "bench_format", .hostname = "bench", .arch = "x86_64",
		.clock = "CLOCK_MONOTONIC", .cgroup_hierarchy = "v2", .syscalls = names, .nsyscalls = 3,
	};
	struct sct_writer_opts opts = { .no_fsync = true };
	struct gen g = { .rng = 0x9e3779b97f4a7c15ull, .t = 1000000000ull, .mixed = mixed };
	struct sct_syscall *batch = malloc(BATCH * sizeof(*batch));
	struct sct_writer *w;
	uint64_t bytes;
	double t0;
	int err = 0;

	if (!batch)
		return -1;
	w = sct_writer_open(path, true, &info, &opts, &err);
	if (!w) {
		fprintf(stderr, "bench_format: cannot create %s: %s\n", path, sct_strerror(err));
		free(batch);
		return -1;
	}
	*cpu = 0;
	for (uint64_t done = 0; done < n;) {
		uint32_t m = n - done < BATCH ? (uint32_t)(n - done) : BATCH;

		for (uint32_t i = 0; i < m; i++)
			(mixed ? gen_mixed : gen_uniform)(&g, &batch[i]);
		t0 = cpu_now();
		for (uint32_t i = 0; i < m && !err; i += run)
			err = run == 1 ? sct_writer_append_syscall(w, &batch[i]) :
					 sct_writer_append_syscalls(w, &batch[i], m - i < run ? m - i : run);
		*cpu += cpu_now() - t0;
		if (err)
			break;
		done += m;
	}
	bytes = sct_writer_bytes(w);
	t0 = cpu_now();
	if (!err)
		err = sct_writer_close(w);
	else
		sct_writer_abandon(w);
	*cpu += cpu_now() - t0;
	free(batch);
	if (err) {
		fprintf(stderr, "bench_format: writing %s: %s\n", path, sct_strerror(err));
		return -1;
	}
	return (int64_t)bytes;
}

/* Read path back; returns records read (-1 on error), *wall gets seconds. */
static int64_t bench_read(const char *path, double *wall, double *cpu)
{
	struct sct_record rec;
	struct sct_reader *r;
	uint64_t n = 0, sum = 0;
	double w0, c0;
	int err = 0, rc;

	w0 = wall_now();
	c0 = cpu_now();
	r = sct_reader_open(path, &err);
	if (!r) {
		fprintf(stderr, "bench_format: cannot read %s: %s\n", path, sct_strerror(err));
		return -1;
	}
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		if (rec.type != SCT_REC_SYSCALL)
			continue;
		/* use the fields, as a report would */
		sum += rec.syscall.duration_ns + rec.syscall.tid + (uint64_t)rec.syscall.ret;
		n++;
	}
	*wall = wall_now() - w0;
	*cpu = cpu_now() - c0;
	if (rc < 0)
		fprintf(stderr, "bench_format: %s\n", sct_reader_error(r));
	sct_reader_close(r);
	if (sum == 42)
		fputs("", stderr); /* keep the sum alive */
	return rc < 0 ? -1 : (int64_t)n;
}

static int bench_stream(const char *path, uint64_t n, bool mixed)
{
	double wcpu, runcpu, rwall = 0, rcpu = 0;
	int64_t bytes = bench_write(path, n, mixed, RUN, &runcpu), got;

	if (bytes < 0)
		return -1;
	if (bench_write(path, n, mixed, 1, &wcpu) != bytes) {
		fprintf(stderr, "bench_format: runs of %u and single appends wrote other sizes\n", RUN);
		return -1;
	}
	got = bench_read(path, &rwall, &rcpu);
	if (got != (int64_t)n) {
		fprintf(stderr, "bench_format: read %" PRId64 " records of %" PRIu64 "\n", got, n);
		return -1;
	}
	/* the reader's rate is given by wall time (what a user waits) and by CPU time (what it
	 * costs, independent of other load on the machine) */
	printf("%-8s records %" PRIu64 ": writer %.1f ns/record (CPU; %.1f in runs of %u), "
	       "%.2f bytes/record, reader %.1f M records/s wall, %.1f M records/s CPU (%.1f ns/record)\n",
	       mixed ? "mixed" : "uniform", n, wcpu * 1e9 / (double)n, runcpu * 1e9 / (double)n, RUN,
	       (double)bytes / (double)n,
	       (double)n / rwall / 1e6, (double)n / rcpu / 1e6, rcpu * 1e9 / (double)n);
	return 0;
}

static int parse_count(const char *s, uint64_t *n)
{
	char *end;

	errno = 0;
	*n = strtoull(s, &end, 10);
	if (errno || end == s || *end || *n == 0) {
		fprintf(stderr, "bench_format: invalid record count: '%s'\n", s);
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_format [PATH] [N]\n"
			"       bench_format --write-only PATH N [--mixed]\n");
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/sct-bench-format.sct";
	uint64_t n = DEFAULT_N;
	double cpu;
	int err;

	if (argc > 1 && !strcmp(argv[1], "--write-only")) {
		if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "--mixed"))) {
			usage();
			return 2;
		}
		if (parse_count(argv[3], &n))
			return 2;
		return bench_write(argv[2], n, argc == 5, 1, &cpu) < 0;
	}
	if (argc > 3 || (argc > 1 && argv[1][0] == '-')) {
		usage();
		return 2;
	}
	if (argc > 1)
		path = argv[1];
	if (argc > 2 && parse_count(argv[2], &n))
		return 2;
	err = bench_stream(path, n, false);
	if (!err)
		err = bench_stream(path, n, true);
	unlink(path);
	return err ? 1 : 0;
}
