// SPDX-License-Identifier: BSD-2-Clause
/* What the recorder benchmarks share (see bench_common.h). */
#include "bench_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Hold the BPF programs process pid holds (as program or link fds): their statistics outlive
 * the recorder, which stops as soon as its target exits. Returns how many fds are in fds.
 */
int prog_stats_hold(pid_t pid, int *fds)
{
	char path[64], line[256];
	__u32 ids[BENCH_MAX_PROGS];
	int nids = 0, n = 0;
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
	dp = opendir(path);
	if (!dp)
		return 0;
	while ((d = readdir(dp)) && nids < BENCH_MAX_PROGS) {
		unsigned int id;
		bool found = false, seen = false;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%.20s", pid, d->d_name);
		f = d->d_name[0] != '.' ? fopen(path, "r") : NULL;
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = sscanf(line, "prog_id: %u", &id) == 1;
		fclose(f);
		for (int k = 0; found && k < nids; k++)
			seen |= ids[k] == id;
		if (found && !seen)
			ids[nids++] = id;
	}
	closedir(dp);
	for (int k = 0; k < nids; k++)
		if ((fds[n] = bpf_prog_get_fd_by_id(ids[k])) >= 0)
			n++;
	return n;
}

/* The run-time statistics of the programs prog_stats_hold() held, which it closes. */
void prog_stats_read(int *fds, int n, struct prog_stats *ps)
{
	ps->n = 0;
	for (int k = 0; k < n; k++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fds[k], &info, &len) && info.run_cnt) {
			struct prog_stat *p = &ps->p[ps->n++];

			snprintf(p->name, sizeof(p->name), "%s", info.name);
			p->runs = (double)info.run_cnt;
			p->ns = (double)info.run_time_ns / (double)info.run_cnt;
		}
		close(fds[k]);
	}
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_until(double t)
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
pid_t spawn(const char *const argv[], int out_fd, const char *err_path)
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

const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median_of(double *v, int k)
{
	if (!k)
		return -1;
	qsort(v, (size_t)k, sizeof(v[0]), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double rusage_cpu_ns(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e9 +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e3;
}

/* The generator's loop time from its first line; 0 if it printed none. */
static double loop_ns_read(int fd)
{
	char line[256];
	double ns = 0;
	FILE *f = fdopen(fd, "r");

	if (!f) {
		close(fd);
		return 0;
	}
	if (!fgets(line, sizeof(line), f) || sscanf(line, "loop_ns %lf", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

int bench_run(const char *const gen[], const char *const *rec, char pid_s[16], const char *err_path,
	      struct prog_stats *ps, struct bench_run *out)
{
	int fds[2], progs[BENCH_MAX_PROGS], nprogs = 0;
	pid_t gen_pid, tracer = -1;
	struct rusage ru;
	double t0;

	memset(out, 0, sizeof(*out));
	if (pipe(fds))
		return -errno;
	t0 = now_s();
	gen_pid = spawn(gen, fds[1], NULL);
	close(fds[1]);
	if (gen_pid < 0) {
		close(fds[0]);
		return -errno;
	}
	snprintf(pid_s, 16, "%d", gen_pid);
	if (rec) {
		sleep_until(t0 + 0.2);
		tracer = spawn(rec, -1, err_path);
	}
	if (ps && tracer > 0) {
		sleep_until(t0 + 0.9);
		nprogs = prog_stats_hold(tracer, progs);
	}
	out->loop_ns = loop_ns_read(fds[0]);
	if (wait4(gen_pid, &out->gen_status, 0, &ru) == gen_pid)
		out->gen_cpu_ns = rusage_cpu_ns(&ru);
	if (tracer <= 0)
		return rec ? -ECHILD : 0;
	sleep_until(now_s() + 0.3);
	if (ps)
		prog_stats_read(progs, nprogs, ps);
	/* strace and perf trace may already have left with the tracee */
	kill(tracer, SIGINT);
	if (wait4(tracer, &out->tracer_status, 0, &ru) != tracer)
		return -errno;
	out->cpu_ns = rusage_cpu_ns(&ru);
	return 0;
}
