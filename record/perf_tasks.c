// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf backend's view of tasks that existed at start, from /proc: the BPF backend reads
 * them with its task iterator, which perf events cannot. Start times come in clock ticks of
 * the boot-time clock and are moved to CLOCK_MONOTONIC, so they are exact to the tick only.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

#define PF_KTHREAD 0x00200000

/*
 * ppid and start time (ticks since boot) from /proc/TID/stat; -ESRCH for a task that is gone,
 * a zombie or a kernel thread, none of which the bpf backend's task iterator reports either.
 */
static int proc_stat(uint32_t tid, uint32_t *ppid, unsigned long long *start)
{
	char buf[1024], state;
	const char *p = proc_stat_fields(tid, buf, sizeof(buf));
	unsigned long flags;

	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
	   cutime cstime priority nice threads itrealvalue starttime */
	if (!p || sscanf(p, " %c %u %*d %*d %*d %*d %lu %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &state, ppid, &flags, start) != 4)
		return -ESRCH;
	return state == 'Z' || state == 'X' || (flags & PF_KTHREAD) ? -ESRCH : 0;
}

/* The directory of the "0::PATH" line: a cgroup v2 id is its directory's inode number. */
uint64_t perf_proc_cgroup(const char *mount, uint32_t tid)
{
	char path[64], line[PATH_MAX], full[PATH_MAX * 2];
	struct stat st;
	uint64_t id = 0;
	FILE *f;

	if (!mount || !mount[0])
		return 0;
	snprintf(path, sizeof(path), "/proc/%u/cgroup", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(full, sizeof(full), "%s%s", mount, line + 3);
		if (!stat(full, &st))
			id = st.st_ino;
		break;
	}
	fclose(f);
	return id;
}

/* A /proc start time (ticks since boot) on the CLOCK_MONOTONIC of the trace; tick in *tick_ns. */
static uint64_t start_mono_ns(unsigned long long start, uint64_t *tick_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t boot_ns, offset;

	*tick_ns = NSEC_PER_SEC / (hz > 0 ? hz : 100);
	boot_ns = start * *tick_ns;
	offset = clock_ns(CLOCK_BOOTTIME) - clock_ns(CLOCK_MONOTONIC);
	return boot_ns > offset ? boot_ns - offset : 1;
}

bool perf_proc_gone(uint32_t tid, uint64_t start_ns)
{
	unsigned long long start;
	uint64_t tick_ns, now_start;
	uint32_t ppid;

	if (proc_stat(tid, &ppid, &start))
		return true;
	if (start_ns <= 1)
		return false;
	now_start = start_mono_ns(start, &tick_ns);
	/* /proc rounds down to a tick; the FORK record comes a little after the start. */
	return now_start > start_ns + tick_ns || start_ns > now_start + 2 * tick_ns;
}

int perf_proc_task(const char *cgroup_mount, uint32_t tid, struct perf_proc_task *t)
{
	unsigned long long start;
	char path[64];
	uint64_t tick_ns;
	FILE *f;
	int err;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	err = proc_tgid(tid, &t->pid);
	if (!err)
		err = proc_stat(tid, &t->ppid, &start);
	if (err)
		return err;
	snprintf(path, sizeof(path), "/proc/%u/comm", tid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(t->comm, sizeof(t->comm), f))
			t->comm[0] = '\0';
		t->comm[strcspn(t->comm, "\n")] = '\0';
		fclose(f);
	}
	t->start_ns = start_mono_ns(start, &tick_ns);
	t->cgroup_id = perf_proc_cgroup(cgroup_mount, tid);
	return 0;
}

struct proc_walk {
	perf_tid_fn fn;
	void *ctx;
	uint32_t pid;
};

static int walk_thread(void *ctx, uint32_t tid)
{
	struct proc_walk *w = ctx;

	return w->fn(w->ctx, w->pid, tid);
}

static int walk_process(void *ctx, uint32_t pid)
{
	struct proc_walk *w = ctx;
	char path[64];

	if ((pid_t)pid == getpid())
		return 0;
	w->pid = pid;
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	return proc_each_id(path, walk_thread, w);
}

int perf_proc_walk(perf_tid_fn fn, void *ctx)
{
	struct proc_walk w = { .fn = fn, .ctx = ctx };

	return proc_each_id("/proc", walk_process, &w);
}
