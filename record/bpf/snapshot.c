// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF task iterator: TASK records for every traced task alive at start, and SYSCALL
 * records (unfinished) for the calls still in flight at stop, found in the tasks' storage
 * and in the CPUs' slots. Reading tasks in BPF gives
 * start times in the clock of FORK and EXIT records (task->start_time, CLOCK_MONOTONIC),
 * which /proc (clock ticks of the boot-time clock) cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_backend.h"

typedef int (*snapshot_fn)(struct recorder *r, const struct sct_iter_task *t, const char *path,
			   uint64_t now_ns);

/* Exactly n bytes of the iterator's output: 0, 1 at its end (before any byte), or -errno. */
static int iter_read(int fd, void *buf, size_t n)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = read(fd, (char *)buf + have, n - have);

		if (got < 0)
			return -errno;
		if (got == 0)
			return have ? -EPROTO : 1;
		have += (size_t)got;
	}
	return 0;
}

/* Each task of fd (with the paths after it, if any) to fn. */
static int snapshot_each(struct recorder *r, int fd, snapshot_fn fn)
{
	char path[2 * SCT_PATH_MAX];
	struct sct_iter_task t;
	uint64_t now_ns = clock_now_ns();
	int err;

	while (!(err = iter_read(fd, &t, sizeof(t)))) {
		size_t len = (size_t)t.path_len + t.path2_len;

		if (t.path_len > SCT_PATH_MAX || t.path2_len > SCT_PATH_MAX)
			return -EPROTO;
		err = len ? iter_read(fd, path, len) : 0;
		if (err)
			return err > 0 ? -EPROTO : err;
		err = fn(r, &t, path, now_ns);
		if (err)
			return err;
	}
	return err > 0 ? 0 : err;
}

/* Run the iterator in mode and hand each task to fn. */
static int snapshot_run(struct bpf_state *b, uint32_t mode, snapshot_fn fn)
{
	int link, fd, err;

	*b->iter_mode = mode;
	link = bpf_link_create(b->iter_prog_fd, 0, BPF_TRACE_ITER, NULL);
	if (link < 0)
		return -errno;
	fd = bpf_iter_create(link);
	if (fd < 0) {
		err = -errno;
	} else {
		err = snapshot_each(b->r, fd, fn);
		close(fd);
	}
	close(link);
	return err;
}

static int task_write(struct recorder *r, const struct sct_iter_task *t, const char *path,
		      uint64_t now_ns)
{
	const struct sct_task task = {
		.time_ns = now_ns, .cgroup_id = t->cgroup_id, .start_ns = t->start_ns,
		.pid = t->pid, .tid = t->tid, .ppid = t->ppid,
	};

	(void)path;
	r->tasks++;
	/* made a call since the attach: its TASK event is in the ring buffer */
	return t->described ? 0 : events_task(r, t->comm, &task);
}

/*
 * An unfinished SYSCALL record; under --args with its arguments and the paths read so far
 * (path: the first's bytes, then the second's).
 */
static int inflight_write(struct recorder *r, const struct sct_iter_task *t, const char *path,
			  uint64_t now_ns)
{
	struct sct_syscall sc = {
		.time_ns = t->enter_ns,
		.duration_ns = now_ns > t->enter_ns ? now_ns - t->enter_ns : 0,
		.cgroup_id = t->cgroup_id,
		.ret = 0,
		.pid = t->pid,
		.tid = t->tid,
		.nr = t->nr,
		.abi = t->abi,
		.unfinished = 1,
	};
	int err;

	if (!filter_unfinished(&r->env->filter, t->nr, t->abi, sc.duration_ns))
		return 0;
	if (t->has_args) {
		events_args_set(&sc, t->args);
		sc.path_flags = t->path_flags;
		sc.path.ptr = (const uint8_t *)path;
		sc.path.len = t->path_len;
		sc.path2_flags = t->path2_flags;
		sc.path2.ptr = (const uint8_t *)path + t->path_len;
		sc.path2.len = t->path2_len;
	}
	err = events_note_cgroup(r, t->cgroup_id, now_ns);
	if (err)
		return err;
	return sct_writer_append_syscall(r->writer, &sc);
}

int snapshot_tasks(struct bpf_state *b)
{
	int err;

	b->r->tasks = 0;
	err = snapshot_run(b, SCT_ITER_TASKS, task_write);
	/* from now on only -G's cgroup takes tasks in otherwise than by fork (bpf/sct.bpf.c) */
	if (!err)
		*b->snapshot_done = true;
	return err;
}

/* The call in a CPU's slot, unfinished, if its owner is traced and in a call; ia: --args. */
static int slot_write(struct recorder *r, const struct sct_cpu_owner *o, const struct sct_inflight *in,
		      const struct sct_inflight_args *ia, uint64_t now_ns)
{
	struct sct_iter_task t = { .pid = o->pid, .tid = o->tid, .nr = in->nr, .cgroup_id = o->cgroup_id,
				   .enter_ns = in->enter_ns, .abi = in->abi };
	const char *path = NULL;

	if (!o->task || !o->traced || !in->active)
		return 0;
	if (ia) {
		memcpy(t.args, ia->ev.a.args, sizeof(t.args));
		t.has_args = 1;
		if (ia->ev.a.sc.type == SCT_EV_SYSCALL_PATH && ia->ev.path_len <= SCT_PATH_MAX &&
		    ia->ev.path2_len <= SCT_PATH_MAX) {
			t.path_flags = ia->ev.path_flags;
			t.path_len = ia->ev.path_len;
			t.path2_flags = ia->ev.path2_flags;
			t.path2_len = ia->ev.path2_len;
			path = ia->ev.path;
		}
	}
	return inflight_write(r, &t, path, now_ns);
}

/*
 * The calls left in the CPUs' slots (cpu_calls, or cpu_calls_args under --args): their tasks
 * were on a CPU when the programs were detached, so sched_switch never parked them.
 */
static int snapshot_cpu_calls(struct bpf_state *b)
{
	struct recorder *r = b->r;
	bool args = r->env->args;
	/*
	 * A per-CPU map's values come one per possible CPU, 8-byte aligned; each value is the
	 * CPU's call, then its stage.
	 */
	size_t stride = ((args ? sizeof(struct sct_cpu_slot_args) : sizeof(struct sct_cpu_slot)) + 7) & ~(size_t)7;
	int ncpus = libbpf_num_possible_cpus();
	uint32_t zero = 0;
	uint64_t now_ns;
	uint8_t *vals;
	int err = 0;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	vals = calloc((size_t)ncpus, stride);
	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(args ? b->cpu_calls_args_fd : b->cpu_calls_fd, &zero, vals))
		err = -errno;
	now_ns = clock_now_ns();
	for (int cpu = 0; !err && cpu < ncpus; cpu++) {
		const void *v = vals + (size_t)cpu * stride;
		const struct sct_cpu_call_args *s = v;
		const struct sct_cpu_call *c = v;

		err = args ? slot_write(r, &s->o, &s->ia.in, &s->ia, now_ns) :
			     slot_write(r, &c->o, &c->in, NULL, now_ns);
	}
	free(vals);
	return err;
}

int snapshot_inflight(struct bpf_state *b)
{
	int err = snapshot_run(b, SCT_ITER_INFLIGHT, inflight_write);

	return err ? err : snapshot_cpu_calls(b);
}
