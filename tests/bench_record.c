/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make bench` recorder benchmark: recorder CPU per record and workload slowdown, beside peers.
 * Method: the generator (tests/workloads/bench_writer) sleeps 1 s, then makes 1,000,000
 * write(2)s of one byte to /dev/null and prints its loop time. The tracer is started on its
 * pid 0.2 s after launch; 0.3 s after the generator ends the tracer gets SIGINT, and its CPU
 * time (utime+stime) is read with wait4. Each tool runs BENCH_TRIALS times (default 5),
 * interleaved with the others and with untraced runs; the table shows medians.
 * sct-record runs with its default backend (bpf here) and with --backend perf ("sct perf").
 * Peers: perf record of raw_syscalls enter+exit, perf trace, strace -f (where installed).
 * Environment: SCT_RECORD (the recorder), SCT_WORKLOADS (folder of bench_writer), BENCH_TRIALS,
 * BENCH_PEERS=0 (sct and untraced only, for a quick look).
 * On this 2-core machine 5 trials take about 8.5 minutes when it is otherwise idle (11 with
 * other jobs running), most of it strace (~55 s a trial) and perf trace (~35 s).
 */
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

#include "sct.h"

#define BENCH_WRITES 1000000.0
#define BENCH_MAX_TRIALS 15

enum tool { T_NONE, T_SCT, T_SCT_PERF, T_PERF_RECORD, T_PERF_TRACE, T_STRACE, T_COUNT };

static const char *const tool_names[T_COUNT] = {"untraced", "sct-record", "sct perf", "perf record",
						"perf trace", "strace -f"};

/* One trial's figures; NaN-free: ok says whether the trial produced them. */
struct trial {
	double loop_ns, cpu_ns, events, bytes, lost;
	bool ok;
};

static char dir[64];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	double left = t - now_s();
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* fork+exec argv with stdout to out_fd (or /dev/null) and stderr to err_path (or /dev/null). */
static pid_t spawn(const char *const argv[], int out_fd, const char *err_path)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	int err = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : null;

	if (null < 0 || err < 0 || dup2(null, 0) < 0 || dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(126);
	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

static bool tool_available(enum tool tool)
{
	const char *probe_trace[] = {"perf", "trace", "-o", "/dev/null", "true", NULL};
	const char *probe_record[] = {"perf", "record", "-q", "-e", "raw_syscalls:sys_enter", "-o",
				      "/dev/null", "true", NULL};
	const char *probe_strace[] = {"strace", "-o", "/dev/null", "true", NULL};
	const char *const *probe = tool == T_PERF_TRACE ? probe_trace :
				   tool == T_PERF_RECORD ? probe_record : probe_strace;
	int status;
	pid_t pid;

	if (tool == T_NONE || tool == T_SCT || tool == T_SCT_PERF)
		return true;
	pid = spawn(probe, -1, NULL);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void tool_argv(enum tool tool, const char *pid, const char *out, const char **argv)
{
	const char *sct[] = {env_or("SCT_RECORD", "build/sct-record"), "-o", out, "-p", pid, NULL};
	const char *sct_perf[] = {env_or("SCT_RECORD", "build/sct-record"), "-o", out, "-p", pid,
				  "--backend", "perf", NULL};
	const char *perf_record[] = {"perf", "record", "-e", "raw_syscalls:sys_enter,raw_syscalls:sys_exit",
				     "--all-cgroups", "-p", pid, "-o", out, NULL};
	const char *perf_trace[] = {"perf", "trace", "-p", pid, "-o", out, NULL};
	const char *strace[] = {"strace", "-f", "-p", pid, "-o", out, NULL};
	const char *const *src = tool == T_SCT ? sct : tool == T_SCT_PERF ? sct_perf :
				 tool == T_PERF_RECORD ? perf_record :
				 tool == T_PERF_TRACE ? perf_trace : strace;

	for (size_t i = 0; (argv[i] = src[i]); i++)
		;
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
		if (rec.type == SCT_REC_SYSCALL)
			t->events++;
		else if (rec.type == SCT_REC_LOST)
			t->lost += (double)rec.lost.count;
	}
	sct_reader_close(r);
	return ret;
}

/* perf record reports "(N samples)" on stderr; each write is two samples (enter and exit). */
static int count_perf_record(const char *err_path, struct trial *t)
{
	FILE *f = fopen(err_path, "r");
	char line[1024];
	const char *p;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if ((p = strstr(line, " MB ")) && (p = strchr(p, '(')))
			t->events = strtod(p + 1, NULL);
	fclose(f);
	t->lost = t->events < 2 * BENCH_WRITES ? 2 * BENCH_WRITES - t->events : 0;
	return t->events > 0 ? 0 : -EINVAL;
}

/* Text tracers: one line per syscall; perf trace writes "LOST N events!" lines when it drops. */
static int count_lines(const char *path, enum tool tool, struct trial *t)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	double writes = 0;
	const char *p;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if ((p = strstr(line, "LOST ")) && tool == T_PERF_TRACE) {
			t->lost += strtod(p + 5, NULL);
			continue;
		}
		t->events++;
		writes += strstr(line, "write(") != NULL;
	}
	fclose(f);
	/* strace stops the tracee per call and never drops; count what is missing anyway */
	if (tool == T_STRACE)
		t->lost = writes < BENCH_WRITES ? BENCH_WRITES - writes : 0;
	return 0;
}

static int trial_run(enum tool tool, int idx, struct trial *t)
{
	char gen_path[PATH_MAX];
	const char *gen[] = {gen_path, NULL};
	const char *argv[16];
	char out[128], err_path[160], pid_s[16], line[256] = {0};
	struct rusage ru;
	struct stat st;
	pid_t gen_pid, tracer = -1;
	int fds[2], status, ret = 0;
	double t0;
	ssize_t n;
	FILE *gen_out;

	memset(t, 0, sizeof(*t));
	snprintf(gen_path, sizeof(gen_path), "%s/bench_writer", env_or("SCT_WORKLOADS", "build/tests/workloads"));
	snprintf(out, sizeof(out), "%s/t%d-%d", dir, tool, idx);
	snprintf(err_path, sizeof(err_path), "%s.err", out);
	if (pipe(fds))
		return -errno;
	t0 = now_s();
	gen_pid = spawn(gen, fds[1], NULL);
	close(fds[1]);
	if (gen_pid < 0)
		return -errno;
	snprintf(pid_s, sizeof(pid_s), "%d", gen_pid);
	if (tool != T_NONE) {
		sleep_until(t0 + 0.2);
		tool_argv(tool, pid_s, out, argv);
		tracer = spawn(argv, -1, err_path);
	}
	gen_out = fdopen(fds[0], "r");
	n = gen_out && fgets(line, sizeof(line), gen_out) ? (ssize_t)strlen(line) : -1;
	if (gen_out)
		fclose(gen_out);
	waitpid(gen_pid, &status, 0);
	if (n <= 0 || sscanf(line, "loop_ns %lf", &t->loop_ns) != 1) {
		fprintf(stderr, "bench: the generator printed no loop time (status %#x)\n", status);
		ret = -EIO;
	}
	if (tracer > 0) {
		sleep_until(now_s() + 0.3);
		kill(tracer, SIGINT); /* strace and perf trace may already have left with the tracee */
		if (wait4(tracer, &status, 0, &ru) != tracer)
			return -errno;
		t->cpu_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
			    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
		if ((tool == T_SCT || tool == T_SCT_PERF) && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			fprintf(stderr, "bench: sct-record exited with status %#x (stderr in %s)\n", status, err_path);
			ret = -EIO;
		}
		t->bytes = stat(out, &st) == 0 ? (double)st.st_size : 0;
		if (!ret)
			ret = tool == T_SCT || tool == T_SCT_PERF ? count_sct(out, t) :
			      tool == T_PERF_RECORD ? count_perf_record(err_path, t) : count_lines(out, tool, t);
		unlink(out);
		if (!ret)
			unlink(err_path);
	}
	t->ok = ret == 0;
	return ret;
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
	struct rusage ru;
	pid_t t, rec;
	int status;
	double ns = -1;

	snprintf(out, sizeof(out), "%s/idle", dir);
	t = spawn(target, -1, NULL);
	if (t < 0)
		return -1;
	snprintf(pid_s, sizeof(pid_s), "%d", t);
	tool_argv(T_SCT, pid_s, out, argv);
	argv[5] = "--duration";
	argv[6] = "1";
	argv[7] = NULL;
	rec = spawn(argv, -1, NULL);
	if (rec > 0 && wait4(rec, &status, 0, &ru) == rec && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	kill(t, SIGKILL);
	waitpid(t, NULL, 0);
	unlink(out);
	return ns;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of field (an offset into struct trial) over the trials that succeeded; -1 if none. */
static double median(const struct trial *tr, int n, size_t field)
{
	double v[BENCH_MAX_TRIALS];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (tr[i].ok)
			v[k++] = *(const double *)((const char *)&tr[i] + field);
	if (!k)
		return -1;
	qsort(v, (size_t)k, sizeof(v[0]), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

struct summary {
	double cpu_per_event, slowdown, bytes_per_event, lost, events, loop_ns;
	bool ran;
};

static struct summary summarize(const struct trial *tr, int n, double base_loop)
{
	struct trial per[BENCH_MAX_TRIALS];
	struct summary s = {0};

	/* per-trial ratios first, then medians of those */
	for (int i = 0; i < n; i++) {
		per[i] = tr[i];
		per[i].cpu_ns = tr[i].events ? tr[i].cpu_ns / tr[i].events : 0;
		per[i].bytes = tr[i].events ? tr[i].bytes / tr[i].events : 0;
	}
	s.loop_ns = median(tr, n, offsetof(struct trial, loop_ns));
	s.ran = s.loop_ns > 0;
	s.cpu_per_event = median(per, n, offsetof(struct trial, cpu_ns));
	s.bytes_per_event = median(per, n, offsetof(struct trial, bytes));
	s.lost = median(tr, n, offsetof(struct trial, lost));
	s.events = median(tr, n, offsetof(struct trial, events));
	s.slowdown = base_loop > 0 ? s.loop_ns / base_loop : 0;
	return s;
}

static void table_print(const struct summary *s, const bool *avail, int trials, double idle_ns)
{
	printf("\nsct-record benchmark: 1,000,000 write(2)s of 1 byte to /dev/null, median of %d trials\n", trials);
	printf("%-12s %12s %14s %10s %12s %12s %12s\n", "tool", "loop ms", "CPU ns/event", "slowdown",
	       "bytes/event", "events", "lost");
	for (int k = 0; k < T_COUNT; k++) {
		if (!avail[k]) {
			printf("%-12s not run: not installed, not working here, or BENCH_PEERS=0\n", tool_names[k]);
			continue;
		}
		if (!s[k].ran) {
			printf("%-12s every trial failed\n", tool_names[k]);
			continue;
		}
		if (k == T_NONE) {
			printf("%-12s %12.1f %14s %9.2fx %12s %12s %12s\n", tool_names[k], s[k].loop_ns / 1e6, "-",
			       1.0, "-", "-", "-");
			continue;
		}
		printf("%-12s %12.1f %14.1f %9.2fx %12.1f %12.0f %12.0f\n", tool_names[k], s[k].loop_ns / 1e6,
		       s[k].cpu_per_event, s[k].slowdown, s[k].bytes_per_event, s[k].events, s[k].lost);
	}
	printf("(perf record: events are samples, 2 per syscall, lost = 2,000,000 - samples;"
	       " strace: lost = writes missing from its output)\n");
	if (!s[T_SCT].ran)
		return;
	if (idle_ns >= 0 && s[T_SCT].events > 0)
		printf("sct-record fixed cost: %.1f ms CPU for a 1 s session on an idle target; per record"
		       " without it: %.1f ns\n", idle_ns / 1e6,
		       s[T_SCT].cpu_per_event - idle_ns / s[T_SCT].events);
	printf("\nratios, peer / sct (higher = sct ahead):\n");
	printf("%-12s %14s %10s %12s\n", "peer", "CPU/event", "slowdown", "bytes/event");
	for (int k = T_PERF_RECORD; k < T_COUNT; k++)
		if (avail[k] && s[k].ran)
			printf("%-12s %13.1fx %9.1fx %11.1fx\n", tool_names[k],
			       s[k].cpu_per_event / s[T_SCT].cpu_per_event, s[k].slowdown / s[T_SCT].slowdown,
			       s[k].bytes_per_event / s[T_SCT].bytes_per_event);
	if (s[T_SCT_PERF].ran && avail[T_PERF_RECORD] && s[T_PERF_RECORD].ran)
		printf("\nsct perf against perf record (per record; perf record's events are samples, 2 per"
		       " syscall): CPU %.1f vs %.1f ns %s; bytes %.1f vs %.1f %s\n",
		       s[T_SCT_PERF].cpu_per_event, s[T_PERF_RECORD].cpu_per_event,
		       s[T_SCT_PERF].cpu_per_event < s[T_PERF_RECORD].cpu_per_event ? "MET" : "MISSED",
		       s[T_SCT_PERF].bytes_per_event, s[T_PERF_RECORD].bytes_per_event,
		       s[T_SCT_PERF].bytes_per_event < s[T_PERF_RECORD].bytes_per_event ? "MET" : "MISSED");
	printf("\ntargets: sct CPU <= 60 ns/record: %.1f %s; slowdown <= 2.0x: %.2fx %s; 0 lost: %.0f %s\n",
	       s[T_SCT].cpu_per_event, s[T_SCT].cpu_per_event <= 60 ? "MET" : "MISSED", s[T_SCT].slowdown,
	       s[T_SCT].slowdown <= 2.0 ? "MET" : "MISSED", s[T_SCT].lost, s[T_SCT].lost == 0 ? "MET" : "MISSED");
}

int main(void)
{
	static struct trial tr[T_COUNT][BENCH_MAX_TRIALS];
	struct summary s[T_COUNT];
	bool avail[T_COUNT];
	double idle[BENCH_MAX_TRIALS];
	int trials = atoi(env_or("BENCH_TRIALS", "5"));

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
	for (int k = 0; k < T_COUNT; k++)
		avail[k] = (k <= T_SCT_PERF || strcmp(env_or("BENCH_PEERS", "1"), "0")) && tool_available((enum tool)k);
	for (int i = 0; i < trials; i++)
		for (int k = 0; k < T_COUNT; k++) {
			if (!avail[k])
				continue;
			fprintf(stderr, "bench: trial %d/%d %s\n", i + 1, trials, tool_names[k]);
			if (trial_run((enum tool)k, i, &tr[k][i]))
				fprintf(stderr, "bench: trial %d of %s failed\n", i + 1, tool_names[k]);
		}
	for (int i = 0; i < trials; i++)
		idle[i] = sct_idle_cpu_ns();
	qsort(idle, (size_t)trials, sizeof(idle[0]), cmp_double);
	s[T_NONE] = summarize(tr[T_NONE], trials, 0);
	for (int k = 0; k < T_COUNT; k++)
		s[k] = summarize(tr[k], trials, s[T_NONE].loop_ns);
	table_print(s, avail, trials, idle[trials / 2]);
	rmdir(dir);
	return s[T_SCT].ran ? 0 : 1;
}
