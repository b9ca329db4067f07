// SPDX-License-Identifier: BSD-2-Clause
/* BPF run-time statistics of a recorder's programs (see bench_progs.h). */
#include "bench_progs.h"

#include <dirent.h>
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

