// SPDX-License-Identifier: BSD-2-Clause
/* What the recorder benchmarks share (see bench_common.h). */
#include "bench_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
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
