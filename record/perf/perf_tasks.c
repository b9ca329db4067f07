// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf backend's view of tasks that existed at start, from /proc: the BPF backend reads
 * them with its task iterator, which perf events cannot. Start times come in clock ticks of
 * the boot-time clock and are moved to CLOCK_MONOTONIC, so they are exact to the tick only.
 */
#include <errno.h>
#include <fcntl.h>
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
 * /proc/TID as a directory: files opened under it are that task's, and fail once it is
 * reaped even if its tid was given to another task since (the directory stands for the
 * task, not for the number). Reading a task's files by path instead could mix two tasks:
 * its start time from one and, a moment later, the comm of the next holder of the tid.
 */
static int proc_dir_open(uint32_t tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%u", tid);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* File name under dir, NUL-terminated; -ESRCH if the task is gone. A proc file this small
   comes whole in one read. */
static int proc_read_at(int dir, const char *name, char *buf, size_t cap)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -ESRCH;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	return 0;
}

/*
 * ppid and start time (ticks since boot) from stat; -ESRCH for a task that is gone, a
 * zombie or a kernel thread, none of which the bpf backend's task iterator reports either.
 */
static int proc_stat(int dir, uint32_t *ppid, unsigned long long *start)
{
	char buf[1024], state;
	const char *p;
	unsigned long flags;

	if (proc_read_at(dir, "stat", buf, sizeof(buf)))
		return -ESRCH;
	/* comm may hold ')': the fields follow the last one */
	p = strrchr(buf, ')');
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
	   cutime cstime priority nice threads itrealvalue starttime */
	if (!p || sscanf(p + 1, " %c %u %*d %*d %*d %*d %lu %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &state, ppid, &flags, start) != 4)
		return -ESRCH;
	return state == 'Z' || state == 'X' || (flags & PF_KTHREAD) ? -ESRCH : 0;
}

static int proc_tgid_at(int dir, uint32_t *tgid)
{
	char buf[4096];
	const char *line;
	unsigned long v;

	if (proc_read_at(dir, "status", buf, sizeof(buf)))
		return -ESRCH;
	line = strstr(buf, "\nTgid:");
	if (!line || sscanf(line, "\nTgid: %lu", &v) != 1)
		return -ESRCH;
	*tgid = v;
	return 0;
}

/* The directory of the "0::PATH" line: a cgroup v2 id is its directory's inode number. */
static uint64_t proc_cgroup_at(const char *mount, int dir)
{
	char buf[8192], full[PATH_MAX * 2];
	char *line, *save = NULL;
	struct stat st;

	if (!mount || !mount[0] || proc_read_at(dir, "cgroup", buf, sizeof(buf)))
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0::", 3))
			continue;
		snprintf(full, sizeof(full), "%s%s", mount, line + 3);
		return stat(full, &st) ? 0 : st.st_ino;
	}
	return 0;
}

uint64_t perf_proc_cgroup(const char *mount, uint32_t tid)
{
	int dir = proc_dir_open(tid);
	uint64_t id;

	if (dir < 0)
		return 0;
	id = proc_cgroup_at(mount, dir);
	close(dir);
	return id;
}

/* A /proc start time (ticks since boot) on the CLOCK_MONOTONIC of the trace; tick in *tick_ns. */
static uint64_t start_mono_ns(unsigned long long start, uint64_t *tick_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t boot_ns, mono_ns, offset;

	*tick_ns = NSEC_PER_SEC / (hz > 0 ? hz : 100);
	boot_ns = start * *tick_ns;
	/*
	 * The boot-time clock runs ahead by the time spent suspended, often none: read second,
	 * it is never behind, where read first it would be behind by the gap between the reads
	 * and the difference would wrap.
	 */
	mono_ns = clock_ns(CLOCK_MONOTONIC);
	offset = clock_ns(CLOCK_BOOTTIME) - mono_ns;
	return boot_ns > offset ? boot_ns - offset : 1;
}

bool perf_proc_gone(uint32_t tid, uint64_t start_ns)
{
	unsigned long long start;
	uint64_t tick_ns, now_start;
	uint32_t ppid;
	int dir = proc_dir_open(tid), err;

	if (dir < 0)
		return true;
	err = proc_stat(dir, &ppid, &start);
	close(dir);
	if (err)
		return true;
	if (start_ns <= 1)
		return false;
	now_start = start_mono_ns(start, &tick_ns);
	/* /proc rounds down to a tick; the FORK record comes a little after the start. */
	return now_start > start_ns + tick_ns || start_ns > now_start + 2 * tick_ns;
}

static int proc_task_at(const char *cgroup_mount, int dir, struct perf_proc_task *t)
{
	unsigned long long start;
	uint64_t tick_ns;
	int err = proc_tgid_at(dir, &t->pid);

	if (!err)
		err = proc_stat(dir, &t->ppid, &start);
	if (!err)
		err = proc_read_at(dir, "comm", t->comm, sizeof(t->comm));
	if (err)
		return err;
	t->comm[strcspn(t->comm, "\n")] = '\0';
	t->start_ns = start_mono_ns(start, &tick_ns);
	t->cgroup_id = proc_cgroup_at(cgroup_mount, dir);
	return 0;
}

int perf_proc_task(const char *cgroup_mount, uint32_t tid, struct perf_proc_task *t)
{
	int dir = proc_dir_open(tid), err;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	if (dir < 0)
		return -ESRCH;
	err = proc_task_at(cgroup_mount, dir, t);
	close(dir);
	return err;
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
