// SPDX-License-Identifier: BSD-2-Clause
/*
 * Opening the perf backend's events. Thread targets get events per thread and per CPU with
 * inherit, so what they create later is followed by the kernel; a thread that existed
 * before its parent's events were opened inherits nothing, which is why every thread of a
 * target is opened by itself. Per-CPU events serve -a, and -G with PERF_FLAG_PID_CGROUP. All
 * events of one CPU write into one ring (PERF_EVENT_IOC_SET_OUTPUT).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "perf.h"

#define ID_HASH_MIN 1024

static const char *const tp_names[PERF_TP_COUNT][2] = {
	[PERF_TP_SYS_ENTER] = { "raw_syscalls", "sys_enter" },
	[PERF_TP_SYS_EXIT] = { "raw_syscalls", "sys_exit" },
	[PERF_TP_EXEC] = { "sched", "sched_process_exec" },
	[PERF_TP_EXIT] = { "sched", "sched_process_exit" },
};

static int field_read(struct perf_tps *t, enum perf_tp tp, const char *field, uint32_t *off,
		      char *why, size_t cap)
{
	uint32_t size;
	int err = perf_field(t->events, tp_names[tp][0], tp_names[tp][1], field, off, &size);

	if (err)
		snprintf(why, cap, "no field '%s' in %s/%s/%s/format: %s", field, t->events,
			 tp_names[tp][0], tp_names[tp][1], strerror(-err));
	return err;
}

int perf_tps_read(struct perf_tps *t, char *why, size_t cap)
{
	struct perf_layout *l = &t->layout;
	uint32_t size;
	int err;

	memset(t, 0, sizeof(*t));
	err = perf_tracefs_events(t->events, sizeof(t->events));
	if (err) {
		snprintf(why, cap, "no tracefs (mount -t tracefs nodev /sys/kernel/tracing): %s",
			 strerror(-err));
		return err;
	}
	for (int i = 0; i < PERF_TP_COUNT; i++) {
		err = perf_tracepoint_id(t->events, tp_names[i][0], tp_names[i][1], &t->id[i]);
		if (err) {
			snprintf(why, cap, "no tracepoint %s:%s in %s: %s", tp_names[i][0], tp_names[i][1],
				 t->events, strerror(-err));
			return err;
		}
	}
	err = field_read(t, PERF_TP_SYS_ENTER, "id", &l->enter_id, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_SYS_ENTER, "args", &l->enter_args, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_SYS_EXIT, "id", &l->exit_id, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_SYS_EXIT, "ret", &l->exit_ret, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_EXEC, "filename", &l->exec_filename, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_EXEC, "old_pid", &l->exec_old, why, cap);
	if (!err)
		err = field_read(t, PERF_TP_EXIT, "comm", &l->exit_comm, why, cap);
	if (err)
		return err;
	/* Recent kernels give group_dead in the exit tracepoint; older ones: the leader exit stands in. */
	l->have_group_dead = !perf_field(t->events, "sched", "sched_process_exit", "group_dead",
					 &l->exit_group_dead, &size);
	return 0;
}

static int perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group, unsigned long flags)
{
	int fd = syscall(SYS_perf_event_open, attr, pid, cpu, group, flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A software event that samples with bits: the kernel checks sample_type at open. */
static int probe_open(uint64_t bits)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
		.sample_type = bits,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return perf_event_open(&attr, 0, -1, -1, 0);
}

bool perf_probe_sample_cgroup(char *why, size_t cap)
{
	int fd = probe_open(PERF_SAMPLE_CGROUP);

	if (fd < 0) {
		snprintf(why, cap, "an event sampling PERF_SAMPLE_CGROUP: %s", strerror(-fd));
		return false;
	}
	close(fd);
	snprintf(why, cap, "an event sampling PERF_SAMPLE_CGROUP opened");
	return true;
}

/* The first cgroup below the cgroup2 root into dir; false if there is none. */
static bool cgroup_child(const char *mnt, char *dir, size_t cap)
{
	DIR *d = opendir(mnt);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		if (e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			found = snprintf(dir, cap, "%s/%s", mnt, e->d_name) < (int)cap;
	if (d)
		closedir(d);
	return found;
}

/*
 * PERF_SAMPLE_CGROUP and PERF_FLAG_PID_CGROUP see a task's perf_event cgroup: its cgroup2
 * one only where that controller has state. The kernel gives the implicit controllers state
 * in the root's descendants only once the root's cgroup.subtree_control has been written
 * (systemd does at boot), and none while perf_event is bound to a v1 hierarchy: then every
 * task counts as the root's, and an event for a cgroup fails with ENOENT. That is one
 * setting of the whole hierarchy, so one cgroup below the root tells.
 */
bool perf_probe_cgroup(char *why, size_t cap)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
	};
	char mnt[PATH_MAX], dir[PATH_MAX + 256];
	int cg, fd;

	if (cgroups_find_mount(mnt, sizeof(mnt))) {
		snprintf(why, cap, "no cgroup2 mount");
		return false;
	}
	if (!cgroup_child(mnt, dir, sizeof(dir))) {
		snprintf(why, cap, "no cgroup below the cgroup2 root: every task is in the root");
		return true;
	}
	cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0) {
		snprintf(why, cap, "%s: %s", dir, strerror(errno));
		return false;
	}
	fd = perf_event_open(&attr, cg, 0, -1, PERF_FLAG_PID_CGROUP);
	close(cg);
	if (fd >= 0) {
		close(fd);
		snprintf(why, cap, "an event for cgroup %s opened", dir + strlen(mnt));
		return true;
	}
	if (fd == -ENOENT)
		snprintf(why, cap, "perf_event has no state in %s: it gets it once the cgroup2 root's "
			 "cgroup.subtree_control is written, as systemd does (e.g. echo +pids > it)",
			 dir + strlen(mnt));
	else
		snprintf(why, cap, "an event for cgroup %s: %s", dir + strlen(mnt), strerror(-fd));
	return false;
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

bool perf_probe_access(char *why, size_t cap)
{
	int paranoid = read_paranoid();

	/* CAP_SYS_ADMIN covered it before it existed (Linux 5.8). */
	if (capabilities_have(CAP_PERFMON) || capabilities_have(CAP_SYS_ADMIN)) {
		snprintf(why, cap, "root or CAP_PERFMON (perf_event_paranoid %d does not apply)", paranoid);
		return true;
	}
	if (paranoid <= -1) {
		snprintf(why, cap, "perf_event_paranoid %d allows raw tracepoint samples", paranoid);
		return true;
	}
	snprintf(why, cap, "neither root nor CAP_PERFMON, and perf_event_paranoid is %d: raw "
		 "tracepoint samples need -1", paranoid);
	return false;
}

/* Event i of o->ids; the first one carries the side band. */
static void attr_fill(struct perf_event_attr *a, const struct perf_open *o, uint32_t i, bool inherit)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_TRACEPOINT;
	a->size = sizeof(*a);
	a->config = o->ids[i];
	a->sample_period = 1;
	a->sample_type = o->sample_type;
	if (o->chain_id && o->ids[i] == o->chain_id) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		/* user frames only, as perf trace takes them: a kernel walk is the bpf backend's */
		a->exclude_callchain_kernel = 1;
		a->sample_max_stack = o->stack_depth;
	}
	a->inherit = inherit;
	a->watermark = 1;
	a->wakeup_watermark = o->watermark;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	/* The clock of the TASK snapshot, the HEADER's anchor and the BPF backend. */
	a->clockid = CLOCK_MONOTONIC;
	/* One event per task carries the side band, or every FORK and COMM would come 4 times. */
	if (i == 0) {
		a->task = 1;
		a->comm = 1;
		a->comm_exec = 1;
	}
}

static int fds_push(struct perf_fds *f, int fd)
{
	if (f->n == f->cap) {
		size_t n = f->cap ? f->cap * 2 : 64;
		int *tmp = realloc(f->fd, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		f->fd = tmp;
		f->cap = n;
	}
	f->fd[f->n++] = fd;
	return 0;
}

static size_t id_pos(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t i = (id * 0x9E3779B97F4A7C15ull) >> 32 & (n - 1);

	while (ids[i] && ids[i] != id)
		i = (i + 1) & (n - 1);
	return i;
}

/* Remember what event fd's samples are; the table holds at most half its slots. */
static int ids_add(struct perf_fds *f, int fd, struct perf_id_info what)
{
	uint64_t id;
	size_t i;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return -errno;
	if ((f->n + 1) * 2 > f->nids) {
		size_t n = f->nids ? f->nids * 2 : ID_HASH_MIN;
		uint64_t *ids = calloc(n, sizeof(*ids));
		struct perf_id_info *info = calloc(n, sizeof(*info));

		if (!ids || !info) {
			free(ids);
			free(info);
			return -ENOMEM;
		}
		for (size_t j = 0; j < f->nids; j++)
			if (f->ids[j]) {
				i = id_pos(ids, n, f->ids[j]);
				ids[i] = f->ids[j];
				info[i] = f->info[j];
			}
		free(f->ids);
		free(f->info);
		f->ids = ids;
		f->info = info;
		f->nids = n;
	}
	i = id_pos(f->ids, f->nids, id);
	f->ids[i] = id;
	f->info[i] = what;
	return 0;
}

static const struct perf_id_info *ids_find(const struct perf_fds *f, uint64_t id)
{
	size_t i;

	if (!f->nids)
		return NULL;
	i = id_pos(f->ids, f->nids, id);
	return f->ids[i] == id ? &f->info[i] : NULL;
}

uint32_t perf_fds_origin(const struct perf_fds *f, uint64_t id)
{
	const struct perf_id_info *what = ids_find(f, id);

	return what ? what->origin : 0;
}

bool perf_fds_chain(const struct perf_fds *f, uint64_t id)
{
	const struct perf_id_info *what = ids_find(f, id);

	return what && what->chain;
}

/* Route fd's samples into its CPU's ring, mapping the ring with the first event of the CPU. */
static int ring_attach(const struct perf_open *o, int cpu, int fd)
{
	struct perf_ring *rb = &o->rings[cpu];

	if (rb->fd < 0)
		return perf_ring_map(rb, fd, o->data_pages);
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rb->fd) ? -errno : 0;
}

/* Open an event kept in f: the fd, or -errno. */
static int fds_open(struct perf_fds *f, struct perf_event_attr *attr, int pid, int cpu,
		    unsigned long flags)
{
	int fd = perf_event_open(attr, pid, cpu, -1, flags), err;

	if (fd < 0)
		return fd;
	err = fds_push(f, fd);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int open_one(struct perf_fds *f, const struct perf_open *o, uint32_t i, int pid, int cpu,
		    unsigned long flags, uint32_t origin)
{
	struct perf_event_attr attr;
	struct perf_id_info what = { .origin = origin };
	int fd, err;

	attr_fill(&attr, o, i, origin != 0);
	what.chain = attr.sample_type & PERF_SAMPLE_CALLCHAIN;
	fd = fds_open(f, &attr, pid, cpu, flags);
	if (fd < 0)
		return fd;
	/* the kernel drops the other syscalls before they reach a ring */
	if (o->syscall_filter && i <= 1 && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, o->syscall_filter))
		return -errno;
	err = ring_attach(o, cpu, fd);
	if (!err && (what.origin || what.chain))
		err = ids_add(f, fd, what);
	return err;
}

/*
 * A child inherits the events its parent has when it forks, and its FORK record comes from
 * the parent's side-band events (the first tracepoint's). Those are opened last: a child
 * forked while the thread's events are being opened then has a FORK record only if it got
 * every tracepoint, not a FORK record and no samples.
 */
int perf_open_thread(struct perf_fds *f, const struct perf_open *o, uint32_t tid)
{
	int err = 0;

	for (uint32_t i = 1; !err && i <= o->nids; i++)
		for (int cpu = 0; !err && cpu < o->ncpus; cpu++)
			err = open_one(f, o, i % o->nids, tid, cpu, 0, tid);
	return err;
}

int perf_open_cpus(struct perf_fds *f, const struct perf_open *o, int cgroup_fd)
{
	unsigned long flags = cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0;
	int err = 0;

	for (int cpu = 0; !err && cpu < o->ncpus; cpu++)
		for (uint32_t i = 0; !err && i < o->nids; i++)
			err = open_one(f, o, i, cgroup_fd, cpu, flags, 0);
	return err;
}

int perf_open_flush(struct perf_fds *f, const struct perf_open *o)
{
	struct perf_event_attr attr;
	int err = 0;

	attr_fill(&attr, o, 0, false);
	attr.config = o->flush_id;
	attr.disabled = 1;
	attr.task = attr.comm = attr.comm_exec = 0;
	for (int cpu = 0; !err && cpu < o->ncpus; cpu++) {
		int fd;

		if (o->rings[cpu].fd < 0)
			continue;
		fd = fds_open(f, &attr, 0, cpu, 0);
		if (fd < 0)
			return fd;
		o->rings[cpu].flush_fd = fd;
		err = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, o->rings[cpu].fd) ? -errno : 0;
	}
	return err;
}

void perf_rings_flush_lost(struct perf_ring *rings, int n)
{
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (int cpu = 0; cpu < n; cpu++) {
		if (rings[cpu].flush_fd < 0)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		ioctl(rings[cpu].flush_fd, PERF_EVENT_IOC_ENABLE, 0);
		syscall(SYS_getppid);
		ioctl(rings[cpu].flush_fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

void perf_fds_disable(struct perf_fds *f)
{
	for (size_t i = 0; i < f->n; i++)
		ioctl(f->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

void perf_fds_close(struct perf_fds *f)
{
	for (size_t i = 0; i < f->n; i++)
		close(f->fd[i]);
	free(f->fd);
	free(f->ids);
	free(f->info);
	memset(f, 0, sizeof(*f));
}

/*
 * The ids whose set entry is want, as ranges: "id == A || (id >= B && id <= C)", or with neg
 * the ids left out, "id != A && (id < B || id > C)".
 */
static int filter_runs(const uint8_t *set, uint32_t n, uint8_t want, bool neg, char *buf, size_t cap)
{
	const char *join = neg ? " && " : " || ";
	size_t len = 0;
	uint32_t a = 0;
	int k;

	buf[0] = '\0';
	while (a < n) {
		uint32_t b;

		if (set[a] != want) {
			a++;
			continue;
		}
		for (b = a; b + 1 < n && set[b + 1] == want; b++)
			;
		if (a == b)
			k = snprintf(buf + len, cap - len, "%sid %s %u", len ? join : "", neg ? "!=" : "==", a);
		else
			k = snprintf(buf + len, cap - len, neg ? "%s(id < %u || id > %u)" : "%s(id >= %u && id <= %u)",
				     len ? join : "", a, b);
		if (k < 0 || (size_t)k >= cap - len)
			return -E2BIG;
		len += k;
		a = b + 1;
	}
	return 0;
}

int perf_syscall_filter(const struct record_filter *f, char *buf, size_t cap)
{
	uint32_t n = f->compat_base, on = 0;
	char *alt;
	int err, err_alt;

	for (uint32_t i = 0; i < n; i++)
		on += f->syscalls[i];
	/* none: a filter no call passes; all: no filter ("") */
	if (!on || on == n) {
		snprintf(buf, cap, "%s", on ? "" : "id == -1");
		return 0;
	}
	alt = malloc(cap);
	if (!alt)
		return -ENOMEM;
	err = filter_runs(f->syscalls, n, 1, false, buf, cap);
	err_alt = filter_runs(f->syscalls, n, 0, true, alt, cap);
	if (!err_alt && (err || strlen(alt) < strlen(buf))) {
		strcpy(buf, alt);
		err = 0;
	}
	free(alt);
	return err;
}
