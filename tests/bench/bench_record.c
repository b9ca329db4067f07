/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make bench` recorder benchmark: the workload's slowdown against the floor, recorder CPU per
 * record, beside the peers. Method: the generator (tests/record/workloads/bench_writer) sleeps 1 s,
 * then makes 1,000,000 write(2)s of one byte to /dev/null from each of its writers and prints
 * its loop time. The tracer is started on its pid 0.2 s after launch; 0.3 s after the
 * generator ends the tracer gets SIGINT, and its CPU time (utime+stime) is read with wait4.
 * Two configurations: one writer, and one writer pinned to each CPU.
 * sct-record runs with its default backend (bpf here) and with --backend perf ("sct perf").
 * The floor is sct-record built with its syscall programs emptied (SCT_RECORD_FLOOR, built by
 * `make bench-record` into build/bench/): what attaching to the two tracepoints costs by
 * itself, the bound any BPF tracer of them pays. sct's loop time is shown as a ratio to it.
 * Each tool runs BENCH_TRIALS times (default 5), interleaved with the others and with untraced
 * runs; the tables show medians, so every ratio compares figures of the same run.
 * Then one more trial each of the floor and sct with the kernel's BPF run-time statistics on
 * (BPF_ENABLE_STATS; they add a clock read per program run, so the timed trials run without),
 * for each program's run_time_ns / run_cnt; and `sct-record -- true` 11 times, for its wall time.
 * Peers (one writer only): perf record of raw_syscalls enter+exit, perf trace, strace -f
 * (where installed).
 * Filters (one writer only): sct-record with a filter that drops every write at sys_enter
 * (-S openat), at sys_exit (--failed: no write fails), and --summary-only, against the floor;
 * their CPU and bytes are per call dropped (each is still counted in the totals). Then the
 * generator with every 100th write failing (EBADF), recorded plain and with --failed: the
 * filtered file's size against the plain one's; beside it perf trace -e write --failure.
 * strace --seccomp-bpf is not among them: its seccomp filter is installed at exec, so it
 * cannot attach by pid as every tracer here does.
 * Stacks (one writer): the generator bench_stack_writer (tests/bench/: 1,000,000 writes from
 * b(), called by a(), built with frame pointers: 4-frame user stacks) recorded by
 * sct-record --stack -S write with either backend, beside perf record -g -e
 * raw_syscalls:sys_enter and perf trace --call-graph fp -e write (where perf runs), untraced
 * and under the floor (-S write --stack too) for the loop's ratios. Their CPU per write is the
 * tracer's plus what the generator spent above its untraced runs (the median of those): the
 * kernel's share, the stack walks first, is spent in the generator's time.
 * Environment: SCT_RECORD, SCT_RECORD_FLOOR (the recorders), SCT_WORKLOADS (folder of
 * bench_writer), SCT_STACK_WRITER (bench_stack_writer), BENCH_TRIALS, BENCH_PEERS=0 (no peers,
 * for a quick look: ~2 minutes), BENCH_FILTERS=0 (no filters), BENCH_STACKS=0 (no stacks rows)
 * or BENCH_STACKS=only (the stacks rows alone: ~3 minutes a trial on this loaded machine, most of
 * it perf trace).
 * On this 2-core machine 5 trials with peers take about 10 minutes when it is otherwise idle,
 * most of it strace (~55 s a trial) and perf trace (~35 s).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bench_common.h"
#include "sct.h"

#define BENCH_WRITES 1000000.0
#define BENCH_MAX_TRIALS 15
#define BENCH_TRUE_RUNS 11

enum tool {
	T_NONE, T_FLOOR, T_SCT, T_SCT_PERF, T_PERF_RECORD, T_PERF_TRACE, T_STRACE,
	/* the filters, one writer */
	T_SCT_DROP_ENTER, T_SCT_DROP_EXIT, T_SCT_SUMMARY, T_SCT_PERF_DROP,
	/* every 100th write failing: all recorded, the failed ones, perf trace's failed ones */
	T_SCT_1PCT_ALL, T_SCT_1PCT_FAILED, T_PERF_TRACE_FAILED,
	/* the stacks, one writer of bench_stack_writer: untraced, the floor, sct both backends, perf */
	T_STK_NONE, T_STK_FLOOR, T_STK_SCT, T_STK_SCT_PERF, T_STK_PERF_RECORD, T_STK_PERF_TRACE,
	T_COUNT
};
#define T_FIRST_FILTER T_SCT_DROP_ENTER
#define T_FIRST_STACK T_STK_NONE
#define FAIL_EVERY "100"

static const char *const tool_names[T_COUNT] = {"untraced", "floor", "sct-record", "sct perf",
						"perf record", "perf trace", "strace -f",
						"sct -S openat", "sct --failed", "sct --summary", "sct perf -S",
						"sct 1%: all", "sct 1%: failed", "perf trace 1%",
						"untraced", "floor", "sct --stack", "sct perf --stack",
						"perf record -g", "perf trace -g"};

/* The two configurations: one writer, one writer per CPU. */
enum { C_ONE, C_PER_CPU, C_COUNT };

/* One trial's figures; NaN-free: ok says whether the trial produced them. */
struct trial {
	double loop_ns, cpu_ns, gen_cpu_ns, events, bytes, lost;
	double stacked; /* sct's SYSCALL records that name a stack */
	double file_bytes; /* the output's size */
	bool ok;
};

static char dir[64];
static int writers[C_COUNT];


static const char *recorder_path(enum tool tool)
{
	return tool == T_FLOOR || tool == T_STK_FLOOR ? env_or("SCT_RECORD_FLOOR", "build/bench/sct-record") :
				 env_or("SCT_RECORD", "build/sct-record");
}

/* The recorders that write an sct trace: the floor build and both backends. */
static bool tool_is_sct(enum tool tool)
{
	return tool == T_FLOOR || tool == T_SCT || tool == T_SCT_PERF ||
	       (tool >= T_FIRST_FILTER && tool < T_FIRST_STACK && tool != T_PERF_TRACE_FAILED) ||
	       tool == T_STK_FLOOR || tool == T_STK_SCT || tool == T_STK_SCT_PERF;
}

/* The floors: the recorder built with its syscall programs emptied. */
static bool tool_is_floor(enum tool tool)
{
	return tool == T_FLOOR || tool == T_STK_FLOOR;
}

/* The untraced runs. */
static bool tool_is_none(enum tool tool)
{
	return tool == T_NONE || tool == T_STK_NONE;
}

/* The perf trace runs: perf trace -e write --failure is one of them. */
static bool tool_is_perf_trace(enum tool tool)
{
	return tool == T_PERF_TRACE || tool == T_PERF_TRACE_FAILED || tool == T_STK_PERF_TRACE;
}

/* The perf record runs. */
static bool tool_is_perf_record(enum tool tool)
{
	return tool == T_PERF_RECORD || tool == T_STK_PERF_RECORD;
}

/* Why tool cannot run here (its probe failed), or NULL when it can. */
static const char *tool_unavailable(enum tool tool)
{
	const char *probe_trace[] = {"perf", "trace", "-o", "/dev/null", "true", NULL};
	const char *probe_record[] = {"perf", "record", "-q", "-e", "raw_syscalls:sys_enter", "-o",
				      "/dev/null", "true", NULL};
	const char *probe_strace[] = {"strace", "-o", "/dev/null", "true", NULL};
	const char *probe_floor[] = {recorder_path(T_FLOOR), "--help", NULL};
	const char *const *probe = tool_is_perf_trace(tool) ? probe_trace :
				   tool_is_perf_record(tool) ? probe_record :
				   tool_is_floor(tool) ? probe_floor : probe_strace;
	int status;
	pid_t pid;

	if (tool_is_none(tool) || (tool_is_sct(tool) && !tool_is_floor(tool)))
		return NULL;
	pid = spawn(probe, -1, NULL);
	if (pid <= 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return "its probe did not run";
	return WEXITSTATUS(status) == 127 ? "not installed" : WEXITSTATUS(status) ? "its probe failed" : NULL;
}

static void tool_argv(enum tool tool, const char *pid, const char *out, const char **argv)
{
	const char *sct[] = {recorder_path(tool), "-o", out, "-p", pid, NULL};
	const char *sct_perf[] = {recorder_path(tool), "-o", out, "-p", pid, "--backend", "perf", NULL};
	const char *perf_record[] = {"perf", "record", "-e", "raw_syscalls:sys_enter,raw_syscalls:sys_exit",
				     "--all-cgroups", "-p", pid, "-o", out, NULL};
	const char *perf_trace[] = {"perf", "trace", "-p", pid, "-o", out, NULL};
	const char *strace[] = {"strace", "-f", "-p", pid, "-o", out, NULL};
	const char *perf_trace_failed[] = {"perf", "trace", "-e", "write", "--failure", "-p", pid, "-o", out, NULL};
	const char *perf_record_stacks[] = {"perf", "record", "-g", "-e", "raw_syscalls:sys_enter", "-p", pid,
					    "-o", out, NULL};
	const char *perf_trace_stacks[] = {"perf", "trace", "--call-graph", "fp", "-e", "write", "-p", pid,
					   "-o", out, NULL};
	const char *const *src = tool == T_SCT || tool_is_floor(tool) || tool == T_SCT_1PCT_ALL ||
				 tool == T_STK_SCT ? sct :
				 tool == T_SCT_PERF || tool == T_STK_SCT_PERF ? sct_perf :
				 tool == T_STK_PERF_RECORD ? perf_record_stacks :
				 tool == T_STK_PERF_TRACE ? perf_trace_stacks :
				 tool == T_PERF_RECORD ? perf_record :
				 tool == T_PERF_TRACE ? perf_trace :
				 tool == T_PERF_TRACE_FAILED ? perf_trace_failed :
				 tool_is_sct(tool) ? sct : strace;
	size_t n;

	for (n = 0; (argv[n] = src[n]); n++)
		;
	/* the filters after sct's own arguments */
	if (tool == T_SCT_DROP_ENTER || tool == T_SCT_PERF_DROP) {
		argv[n++] = "-S";
		argv[n++] = "openat";
	}
	if (tool == T_SCT_PERF_DROP) {
		argv[n++] = "--backend";
		argv[n++] = "perf";
	}
	if (tool == T_SCT_DROP_EXIT || tool == T_SCT_1PCT_FAILED)
		argv[n++] = "--failed";
	if (tool == T_SCT_SUMMARY)
		argv[n++] = "--summary-only";
	if (tool == T_STK_FLOOR || tool == T_STK_SCT || tool == T_STK_SCT_PERF) {
		argv[n++] = "--stack";
		argv[n++] = "-S";
		argv[n++] = "write";
	}
	argv[n] = NULL;
}

/* SYSCALL records and lost events in an sct trace. */
static int count_sct(const char *path, struct trial *t)
{
	struct sct_record rec;
	int err = 0, ret;
	struct sct_reader *r = sct_reader_open(path, &err);

	if (!r) {
		fprintf(stderr, "bench: %s: %s\n", path, sct_strerror(err));
		return err;
	}
	while ((ret = sct_reader_next(r, &rec)) > 0) {
		if (rec.type == SCT_REC_SYSCALL) {
			t->events++;
			t->stacked += rec.syscall.stack_id != 0;
		} else if (rec.type == SCT_REC_LOST)
			t->lost += (double)rec.lost.count;
	}
	sct_reader_close(r);
	return ret;
}

/*
 * perf record reports "(N samples)" on stderr; each write is two samples (enter and exit), one
 * where it records sys_enter alone.
 */
static int count_perf_record(const char *err_path, enum tool tool, struct trial *t)
{
	double want = (tool == T_STK_PERF_RECORD ? 1 : 2) * BENCH_WRITES;
	FILE *f = fopen(err_path, "r");
	char line[1024];
	const char *p;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if ((p = strstr(line, " MB ")) && (p = strchr(p, '(')))
			t->events = strtod(p + 1, NULL);
	fclose(f);
	t->lost = t->events < want ? want - t->events : 0;
	return t->events > 0 ? 0 : -EINVAL;
}

/*
 * Text tracers: one line per syscall, and with --call-graph a line per frame after it (there
 * the write lines are the events); perf trace writes "LOST N events!" lines when it drops.
 */
static int count_lines(const char *path, enum tool tool, struct trial *t)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	double writes = 0;
	const char *p;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if ((p = strstr(line, "LOST ")) && tool_is_perf_trace(tool)) {
			t->lost += strtod(p + 5, NULL);
			continue;
		}
		t->events++;
		writes += strstr(line, "write(") != NULL;
	}
	fclose(f);
	if (tool == T_STK_PERF_TRACE)
		t->events = writes;
	/* strace stops the tracee per call and never drops; count what is missing anyway */
	if (tool == T_STRACE)
		t->lost = writes < BENCH_WRITES ? BENCH_WRITES - writes : 0;
	return 0;
}

/* One run of the generator with nwriters writers, traced by tool; ps: read the BPF statistics. */
static int trial_run(enum tool tool, int nwriters, int idx, struct trial *t, struct prog_stats *ps)
{
	char gen_path[PATH_MAX], nw[16];
	bool one_pct = tool >= T_SCT_1PCT_ALL && tool < T_FIRST_STACK;
	const char *gen[] = {gen_path, "1000000", tool < T_FIRST_STACK ? nw : NULL, one_pct ? FAIL_EVERY : NULL,
			     NULL};
	const char *argv[16];
	char out[128], err_path[160], pid_s[16];
	struct bench_run run;
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	if (tool >= T_FIRST_STACK)
		snprintf(gen_path, sizeof(gen_path), "%s",
			 env_or("SCT_STACK_WRITER", "build/tests/bench/bench_stack_writer"));
	else
		snprintf(gen_path, sizeof(gen_path), "%s/bench_writer",
			 env_or("SCT_WORKLOADS", "build/tests/record/workloads"));
	snprintf(nw, sizeof(nw), "%d", nwriters);
	snprintf(out, sizeof(out), "%s/t%d-%d", dir, tool, idx);
	snprintf(err_path, sizeof(err_path), "%s.err", out);
	if (!tool_is_none(tool))
		tool_argv(tool, pid_s, out, argv);
	ret = bench_run(gen, !tool_is_none(tool) ? argv : NULL, pid_s, err_path, ps, &run);
	if (ret)
		return ret;
	t->loop_ns = run.loop_ns;
	t->gen_cpu_ns = run.gen_cpu_ns;
	if (!t->loop_ns) {
		fprintf(stderr, "bench: the generator printed no loop time (status %#x)\n", run.gen_status);
		ret = -EIO;
	}
	if (!tool_is_none(tool)) {
		t->cpu_ns = run.cpu_ns;
		if (tool_is_sct(tool) && !(WIFEXITED(run.tracer_status) && WEXITSTATUS(run.tracer_status) == 0)) {
			fprintf(stderr, "bench: %s exited with status %#x (stderr in %s)\n", argv[0],
				run.tracer_status, err_path);
			ret = -EIO;
		}
		t->bytes = stat(out, &st) == 0 ? (double)st.st_size : 0;
		t->file_bytes = t->bytes;
		if (!ret)
			ret = tool_is_sct(tool) ? count_sct(out, t) :
			      tool_is_perf_record(tool) ? count_perf_record(err_path, tool, t) :
							  count_lines(out, tool, t);
		unlink(out);
		if (!ret)
			unlink(err_path);
	}
	t->ok = ret == 0;
	return ret;
}

/* Run the recorder with argv to a clean exit: its wall time in ns (-1 on failure), its CPU in *cpu_ns. */
static double sct_run(const char **argv, double *cpu_ns)
{
	struct rusage ru;
	int status;
	double t0 = now_s(), wall;
	pid_t rec = spawn(argv, -1, NULL);

	if (rec <= 0 || wait4(rec, &status, 0, &ru) != rec || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	wall = (now_s() - t0) * 1e9;
	*cpu_ns = rusage_cpu_ns(&ru);
	return wall;
}

/*
 * The recorder's fixed cost: CPU of a 1 s session on an idle target (load, attach, /proc,
 * BTF), so the per-record figure can be read apart from it. Returns ns, or -1.
 */
static double sct_idle_cpu_ns(void)
{
	const char *target[] = {"sleep", "3", NULL};
	const char *argv[16];
	char out[128], pid_s[16];
	double ns = -1;
	pid_t t;

	snprintf(out, sizeof(out), "%s/idle", dir);
	t = spawn(target, -1, NULL);
	if (t < 0)
		return -1;
	snprintf(pid_s, sizeof(pid_s), "%d", t);
	tool_argv(T_SCT, pid_s, out, argv);
	argv[5] = "--duration";
	argv[6] = "1";
	argv[7] = NULL;
	if (sct_run(argv, &ns) < 0)
		ns = -1;
	kill(t, SIGKILL);
	waitpid(t, NULL, 0);
	unlink(out);
	return ns;
}

/* Wall time of `sct-record -- true` in ns: startup, the command, noticing its end, closing. */
static double sct_true_wall_ns(void)
{
	char out[128];
	const char *argv[] = {recorder_path(T_SCT), "-q", "--force", "-o", out, "--", "true", NULL};
	double cpu, wall;

	snprintf(out, sizeof(out), "%s/true", dir);
	wall = sct_run(argv, &cpu);
	unlink(out);
	return wall;
}

/* Median of field (an offset into struct trial) over the trials that succeeded; -1 if none. */
static double median(const struct trial *tr, int n, size_t field)
{
	double v[BENCH_MAX_TRIALS];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (tr[i].ok)
			v[k++] = *(const double *)((const char *)&tr[i] + field);
	return median_of(v, k);
}

struct summary {
	double cpu_per_event, bytes_per_event, lost, events, loop_ns, vs_none, vs_floor;
	double cpu_per_call, bytes_per_call, file_bytes; /* per call made (the filters' dropped calls) */
	double gen_cpu_ns, cpu_with_gen_ns, stacked; /* the generator's CPU, and the tracer's added */
	bool ran;
};

static struct summary summarize(const struct trial *tr, int n)
{
	struct trial per[BENCH_MAX_TRIALS];
	struct summary s = {0};

	/* per-trial ratios first, then medians of those */
	for (int i = 0; i < n; i++) {
		per[i] = tr[i];
		per[i].cpu_ns = tr[i].events ? tr[i].cpu_ns / tr[i].events : 0;
		per[i].bytes = tr[i].events ? tr[i].bytes / tr[i].events : 0;
	}
	s.file_bytes = median(tr, n, offsetof(struct trial, file_bytes));
	for (int i = 0; i < n; i++) {
		per[i].cpu_ns = tr[i].cpu_ns / BENCH_WRITES;
		per[i].bytes = tr[i].bytes / BENCH_WRITES;
	}
	s.cpu_per_call = median(per, n, offsetof(struct trial, cpu_ns));
	s.bytes_per_call = median(per, n, offsetof(struct trial, bytes));
	for (int i = 0; i < n; i++)
		per[i].cpu_ns = tr[i].cpu_ns + tr[i].gen_cpu_ns;
	s.cpu_with_gen_ns = median(per, n, offsetof(struct trial, cpu_ns));
	s.gen_cpu_ns = median(tr, n, offsetof(struct trial, gen_cpu_ns));
	s.stacked = median(tr, n, offsetof(struct trial, stacked));
	for (int i = 0; i < n; i++) {
		per[i].cpu_ns = tr[i].events ? tr[i].cpu_ns / tr[i].events : 0;
		per[i].bytes = tr[i].events ? tr[i].bytes / tr[i].events : 0;
	}
	s.loop_ns = median(tr, n, offsetof(struct trial, loop_ns));
	s.ran = s.loop_ns > 0;
	s.cpu_per_event = median(per, n, offsetof(struct trial, cpu_ns));
	s.bytes_per_event = median(per, n, offsetof(struct trial, bytes));
	s.lost = median(tr, n, offsetof(struct trial, lost));
	s.events = median(tr, n, offsetof(struct trial, events));
	return s;
}

/* Ratios to the untraced run and to the floor of the same generator, of medians of the same run. */
static void summaries_relate(struct summary *s)
{
	for (int k = 0; k < T_COUNT; k++) {
		const struct summary *none = &s[k >= T_FIRST_STACK ? T_STK_NONE : T_NONE];
		const struct summary *floor = &s[k >= T_FIRST_STACK ? T_STK_FLOOR : T_FLOOR];

		s[k].vs_none = none->ran && s[k].ran ? s[k].loop_ns / none->loop_ns : 0;
		s[k].vs_floor = floor->ran && s[k].ran ? s[k].loop_ns / floor->loop_ns : 0;
	}
}

static void table_print(const struct summary *s, const bool *avail, int c)
{
	printf("\n%s (%d writer%s, each 1,000,000 writes):\n", c == C_ONE ? "one writer" : "one writer per CPU",
	       writers[c], writers[c] > 1 ? "s" : "");
	printf("%-12s %10s %9s %10s %9s %14s %12s %10s %8s\n", "tool", "loop ms", "ns/call", "x untraced",
	       "x floor", "CPU ns/event", "bytes/event", "events", "lost");
	for (int k = 0; k < T_COUNT; k++) {
		if (!avail[k] || (c != C_ONE && k > T_SCT_PERF) || k >= T_FIRST_FILTER)
			continue;
		if (!s[k].ran) {
			printf("%-12s every trial failed\n", tool_names[k]);
			continue;
		}
		printf("%-12s %10.1f %9.1f %9.2fx", tool_names[k], s[k].loop_ns / 1e6, s[k].loop_ns / BENCH_WRITES,
		       s[k].vs_none);
		if (s[k].vs_floor > 0)
			printf(" %8.2fx", s[k].vs_floor);
		else
			printf(" %9s", "-");
		if (k == T_NONE || k == T_FLOOR)
			printf(" %14s %12s %10s %8s\n", "-", "-", "-", "-");
		else
			printf(" %14.1f %12.1f %10.0f %8.0f\n", s[k].cpu_per_event, s[k].bytes_per_event,
			       s[k].events, s[k].lost);
	}
}

static void peers_print(const struct summary *s, const bool *avail)
{
	printf("(perf record: events are samples, 2 per syscall, lost = 2,000,000 - samples;"
	       " strace: lost = writes missing from its output)\n");
	printf("\nratios, peer / sct, one writer (higher = sct ahead):\n");
	printf("%-12s %14s %10s %12s\n", "peer", "CPU/event", "slowdown", "bytes/event");
	for (int k = T_PERF_RECORD; k < T_FIRST_FILTER; k++)
		if (avail[k] && s[k].ran && s[T_SCT].ran)
			printf("%-12s %13.1fx %9.1fx %11.1fx\n", tool_names[k],
			       s[k].cpu_per_event / s[T_SCT].cpu_per_event, s[k].vs_none / s[T_SCT].vs_none,
			       s[k].bytes_per_event / s[T_SCT].bytes_per_event);
	if (s[T_SCT_PERF].ran && avail[T_PERF_RECORD] && s[T_PERF_RECORD].ran)
		printf("\nsct perf against perf record (per record; perf record's events are samples, 2 per"
		       " syscall): CPU %.1f vs %.1f ns %s; bytes %.1f vs %.1f %s\n",
		       s[T_SCT_PERF].cpu_per_event, s[T_PERF_RECORD].cpu_per_event,
		       s[T_SCT_PERF].cpu_per_event < s[T_PERF_RECORD].cpu_per_event ? "MET" : "MISSED",
		       s[T_SCT_PERF].bytes_per_event, s[T_PERF_RECORD].bytes_per_event,
		       s[T_SCT_PERF].bytes_per_event < s[T_PERF_RECORD].bytes_per_event ? "MET" : "MISSED");
}

static void stats_print(const struct prog_stats *ps, int stats_ok)
{
	printf("\nBPF programs, one writer, one trial each with the kernel's run-time statistics on:\n");
	if (stats_ok < 0) {
		printf("not measured: BPF_ENABLE_STATS failed: %s\n", strerror(-stats_ok));
		return;
	}
	printf("%-12s %-16s %12s %10s\n", "recorder", "program", "runs", "ns/run");
	for (int k = T_FLOOR; k <= T_SCT; k++)
		for (int i = 0; i < ps[k].n; i++)
			printf("%-12s %-16s %12.0f %10.1f\n", tool_names[k], ps[k].p[i].name, ps[k].p[i].runs,
			       ps[k].p[i].ns);
}

static void targets_print(const struct summary s[C_COUNT][T_COUNT], double idle_ns, const double *true_ns)
{
	const struct summary *one = s[C_ONE], *all = s[C_PER_CPU];
	double per_record = one[T_SCT].cpu_per_event;

	if (!one[T_SCT].ran)
		return;
	if (idle_ns >= 0 && one[T_SCT].events > 0) {
		per_record -= idle_ns / one[T_SCT].events;
		printf("\nsct-record fixed cost: %.1f ms CPU for a 1 s session on an idle target; per record"
		       " without it: %.1f ns\n", idle_ns / 1e6, per_record);
	}
	printf("sct-record -- true: %.1f ms wall (median of %d; %.1f to %.1f)\n", true_ns[BENCH_TRUE_RUNS / 2] / 1e6,
	       BENCH_TRUE_RUNS, true_ns[0] / 1e6, true_ns[BENCH_TRUE_RUNS - 1] / 1e6);
	printf("\ntargets: one writer <= 1.4x floor: %.2fx %s; one writer per CPU <= 1.6x floor: %.2fx %s;\n",
	       one[T_SCT].vs_floor, one[T_SCT].vs_floor <= 1.4 ? "MET" : "MISSED", all[T_SCT].vs_floor,
	       all[T_SCT].vs_floor <= 1.6 ? "MET" : "MISSED");
	printf("         CPU <= 40 ns/record: %.1f %s; 0 lost: %.0f, %.0f %s; -- true <= 30 ms: %.1f %s\n",
	       one[T_SCT].cpu_per_event, one[T_SCT].cpu_per_event <= 40 ? "MET" : "MISSED", one[T_SCT].lost,
	       all[T_SCT].lost, one[T_SCT].lost + all[T_SCT].lost == 0 ? "MET" : "MISSED",
	       true_ns[BENCH_TRUE_RUNS / 2] / 1e6, true_ns[BENCH_TRUE_RUNS / 2] <= 30e6 ? "MET" : "MISSED");
}

/* The filters: a dropped call against the floor, and the file of a 1% match. */
static void filters_print(const struct summary *s, const bool *avail)
{
	const double drop_max = 1.10, summary_max = 1.15, size_max = 0.02;
	double ratio;

	printf("\nfilters, one writer (1,000,000 writes; CPU and bytes per call made, each one counted in"
	       " the totals):\n");
	printf("%-16s %10s %9s %9s %14s %14s %10s\n", "tool", "loop ms", "ns/call", "x floor", "CPU ns/call",
	       "bytes/call", "records");
	for (int k = T_FIRST_FILTER; k < T_FIRST_STACK; k++) {
		if (!avail[k])
			continue;
		if (!s[k].ran) {
			printf("%-16s every trial failed\n", tool_names[k]);
			continue;
		}
		printf("%-16s %10.1f %9.1f %8.2fx %14.1f %14.3f %10.0f\n", tool_names[k], s[k].loop_ns / 1e6,
		       s[k].loop_ns / BENCH_WRITES, s[k].vs_floor, s[k].cpu_per_call, s[k].bytes_per_call, s[k].events);
	}
	if (!s[T_FLOOR].ran)
		return;
	printf("\ntargets: a call dropped at sys_enter <= %.2fx floor: %.2fx %s; at sys_exit: %.2fx %s;"
	       " --summary-only <= %.2fx floor: %.2fx %s\n", drop_max,
	       s[T_SCT_DROP_ENTER].vs_floor, s[T_SCT_DROP_ENTER].vs_floor <= drop_max ? "MET" : "MISSED",
	       s[T_SCT_DROP_EXIT].vs_floor, s[T_SCT_DROP_EXIT].vs_floor <= drop_max ? "MET" : "MISSED",
	       summary_max, s[T_SCT_SUMMARY].vs_floor, s[T_SCT_SUMMARY].vs_floor <= summary_max ? "MET" : "MISSED");
	if (s[T_SCT_1PCT_ALL].ran && s[T_SCT_1PCT_FAILED].ran && s[T_SCT_1PCT_ALL].file_bytes > 0) {
		ratio = s[T_SCT_1PCT_FAILED].file_bytes / s[T_SCT_1PCT_ALL].file_bytes;
		printf("         1%% of the calls match (--failed): %.0f of %.0f bytes, %.2f%% of the unfiltered"
		       " file (<= %.0f%%): %s\n", s[T_SCT_1PCT_FAILED].file_bytes, s[T_SCT_1PCT_ALL].file_bytes,
		       100 * ratio, 100 * size_max, ratio <= size_max ? "MET" : "MISSED");
	}
}

/*
 * The stacks: CPU per write, the tracer's plus the generator's above its untraced median (the
 * kernel's walks and copies run in the generator's time), and bytes per write, beside perf.
 */
static void stacks_print(const struct summary *s, const char *const *why)
{
	double none_gen = s[T_STK_NONE].gen_cpu_ns, cpu[T_COUNT] = {0};

	printf("\nstacks, one writer (bench_stack_writer: 1,000,000 writes from b() called by a(), 4-frame"
	       " user stacks;\nsct with --stack -S write; CPU per write: the tracer's, the generator's above"
	       " its untraced %.1f ms, both):\n", none_gen / 1e6);
	printf("%-16s %9s %10s %8s %10s %12s %10s %10s %9s %9s %8s\n", "tool", "loop ms", "x untraced",
	       "x floor", "tracer us", "workload us", "CPU us", "bytes", "events", "stacks", "lost");
	for (int k = T_FIRST_STACK; k < T_COUNT; k++) {
		if (why[k]) {
			printf("%-16s skipped: %s\n", tool_names[k], why[k]);
			continue;
		}
		if (!s[k].ran) {
			printf("%-16s every trial failed\n", tool_names[k]);
			continue;
		}
		printf("%-16s %9.1f %9.2fx", tool_names[k], s[k].loop_ns / 1e6, s[k].vs_none);
		if (s[k].vs_floor > 0)
			printf(" %7.2fx", s[k].vs_floor);
		else
			printf(" %8s", "-");
		if (tool_is_none((enum tool)k)) {
			printf(" %10s %12.3f %10s %10s %9s %9s %8s\n", "-", s[k].gen_cpu_ns / BENCH_WRITES / 1e3, "-",
			       "-", "-", "-", "-");
			continue;
		}
		cpu[k] = (s[k].cpu_with_gen_ns - none_gen) / BENCH_WRITES / 1e3;
		printf(" %10.3f %12.3f %10.3f %10.2f %9.0f", s[k].cpu_per_call / 1e3,
		       (s[k].gen_cpu_ns - none_gen) / BENCH_WRITES / 1e3, cpu[k], s[k].bytes_per_call, s[k].events);
		if (tool_is_sct((enum tool)k))
			printf(" %9.0f %8.0f\n", s[k].stacked, s[k].lost);
		else
			printf(" %9s %8.0f\n", "-", s[k].lost);
	}
	printf("(tracer us, workload us (its CPU above the untraced runs), CPU us (both) and bytes are per write made; perf record's events are samples)\n");
	for (int j = T_STK_SCT; j <= T_STK_SCT_PERF; j++)
		for (int k = T_STK_PERF_RECORD; k < T_COUNT; k++)
			if (!why[j] && s[j].ran && !why[k] && s[k].ran)
				printf("target: %s below %s: CPU %.2f vs %.2f us/write %s; bytes %.2f vs %.2f/write"
				       " %s\n", tool_names[j], tool_names[k], cpu[j], cpu[k],
				       cpu[j] < cpu[k] ? "MET" : "MISSED", s[j].bytes_per_call, s[k].bytes_per_call,
				       s[j].bytes_per_call < s[k].bytes_per_call ? "MET" : "MISSED");
}

/* Whether the row of tool runs: BENCH_STACKS=0 leaves the stacks out, =only runs them alone. */
static bool tool_selected(enum tool tool)
{
	const char *stacks = env_or("BENCH_STACKS", "1");

	if (tool >= T_FIRST_STACK)
		return strcmp(stacks, "0") != 0;
	if (!strcmp(stacks, "only"))
		return false;
	if (tool >= T_FIRST_FILTER && !strcmp(env_or("BENCH_FILTERS", "1"), "0"))
		return false;
	return tool <= T_SCT_PERF || (tool >= T_FIRST_FILTER && tool != T_PERF_TRACE_FAILED) ||
	       strcmp(env_or("BENCH_PEERS", "1"), "0") != 0;
}

int main(void)
{
	static struct trial tr[C_COUNT][T_COUNT][BENCH_MAX_TRIALS];
	static struct summary s[C_COUNT][T_COUNT];
	struct prog_stats ps[T_COUNT] = {0};
	struct trial extra;
	const char *why[T_COUNT];
	bool avail[T_COUNT], stacks_only = !strcmp(env_or("BENCH_STACKS", "1"), "only");
	double idle[BENCH_MAX_TRIALS], true_ns[BENCH_TRUE_RUNS];
	int trials = atoi(env_or("BENCH_TRIALS", "5")), stats_fd;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (trials < 1 || trials > BENCH_MAX_TRIALS) {
		fprintf(stderr, "bench: BENCH_TRIALS must be 1..%d\n", BENCH_MAX_TRIALS);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "bench: the recorder benchmark needs root (BPF)\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/sct-bench-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("bench: mkdtemp");
		return 1;
	}
	writers[C_ONE] = 1;
	writers[C_PER_CPU] = cpus > 1 ? (int)cpus : 1;
	for (int k = 0; k < T_COUNT; k++) {
		why[k] = tool_selected((enum tool)k) ? tool_unavailable((enum tool)k) : NULL;
		avail[k] = tool_selected((enum tool)k) && !why[k];
	}
	for (int i = 0; i < trials; i++)
		for (int c = 0; c < C_COUNT; c++)
			for (int k = 0; k < T_COUNT; k++) {
				if (!avail[k] || (c != C_ONE && k > T_SCT_PERF))
					continue;
				fprintf(stderr, "bench: trial %d/%d %s, %d writer(s)\n", i + 1, trials, tool_names[k],
					writers[c]);
				if (trial_run((enum tool)k, writers[c], i, &tr[c][k][i], NULL))
					fprintf(stderr, "bench: trial %d of %s failed\n", i + 1, tool_names[k]);
			}
	for (int c = 0; c < C_COUNT; c++) {
		for (int k = 0; k < T_COUNT; k++)
			s[c][k] = summarize(tr[c][k], trials);
		summaries_relate(s[c]);
	}
	if (stacks_only) {
		printf("\nsct-record benchmark, the stacks alone: median of %d trials\n", trials);
		stacks_print(s[C_ONE], why);
		rmdir(dir);
		return s[C_ONE][T_STK_SCT].ran ? 0 : 1;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd >= 0) {
		for (int k = T_FLOOR; k <= T_SCT; k++)
			if (avail[k])
				trial_run((enum tool)k, 1, trials, &extra, &ps[k]);
		close(stats_fd);
	}
	for (int i = 0; i < trials; i++)
		idle[i] = sct_idle_cpu_ns();
	for (int i = 0; i < BENCH_TRUE_RUNS; i++)
		true_ns[i] = sct_true_wall_ns();
	qsort(true_ns, BENCH_TRUE_RUNS, sizeof(true_ns[0]), cmp_double);
	printf("\nsct-record benchmark: write(2)s of 1 byte to /dev/null, median of %d trials\n", trials);
	for (int c = 0; c < C_COUNT; c++)
		table_print(s[c], avail, c);
	peers_print(s[C_ONE], avail);
	if (strcmp(env_or("BENCH_FILTERS", "1"), "0"))
		filters_print(s[C_ONE], avail);
	if (strcmp(env_or("BENCH_STACKS", "1"), "0"))
		stacks_print(s[C_ONE], why);
	stats_print(ps, stats_fd < 0 ? stats_fd : 0);
	targets_print(s, median_of(idle, trials), true_ns);
	rmdir(dir);
	return s[C_ONE][T_SCT].ran ? 0 : 1;
}
