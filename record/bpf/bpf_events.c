// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF programs' ring buffer events (bpf/sct_events.h) -> trace records.
 * bpf_events_handle() runs once per ring buffer record (one event, or a CPU's staged batch of
 * calls): the SYSCALL path does no syscall and no allocation, only the first sight of a cgroup
 * id costs more.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bpf_backend.h"
#include "../output/output.h"

static size_t comm_len(const char *comm)
{
	return strnlen(comm, SCT_COMM_LEN);
}

static int event_fork(struct recorder *r, const struct sct_ev_fork *e)
{
	struct sct_record rec = { .type = SCT_REC_FORK };

	rec.fork.time_ns = e->time_ns;
	rec.fork.child_start_ns = e->child_start_ns;
	rec.fork.parent_pid = e->parent_pid;
	rec.fork.parent_tid = e->parent_tid;
	rec.fork.child_pid = e->child_pid;
	rec.fork.child_tid = e->child_tid;
	rec.fork.is_thread = e->is_thread;
	if (r->stacks && !e->is_thread)
		stacks_note_fork(r->stacks, e->parent_pid, e->child_pid);
	return sct_writer_append(r->writer, &rec);
}

static int event_exec(struct recorder *r, const struct sct_ev_exec *e)
{
	struct sct_record rec = { .type = SCT_REC_EXEC };
	uint32_t flen = e->filename_len < SCT_FILENAME_LEN ? e->filename_len : SCT_FILENAME_LEN;

	rec.exec.time_ns = e->time_ns;
	rec.exec.pid = e->pid;
	rec.exec.tid = e->tid;
	rec.exec.old_tid = e->old_tid;
	rec.exec.filename.ptr = (const uint8_t *)e->filename;
	rec.exec.filename.len = flen;
	rec.exec.comm.ptr = (const uint8_t *)e->comm;
	rec.exec.comm.len = comm_len(e->comm);
	if (r->stacks)
		stacks_note_exec(r->stacks, e->pid);
	return sct_writer_append(r->writer, &rec);
}

static int event_exit(struct recorder *r, const struct sct_ev_exit *e)
{
	struct sct_record rec = { .type = SCT_REC_EXIT };

	rec.exit.time_ns = e->time_ns;
	rec.exit.start_ns = e->start_ns;
	rec.exit.pid = e->pid;
	rec.exit.tid = e->tid;
	rec.exit.exit_code = e->exit_code;
	rec.exit.signal = e->signal;
	rec.exit.group_dead = e->group_dead;
	if (r->stacks)
		stacks_note_exit(r->stacks, e->pid, e->tid, e->group_dead);
	/* its totals keys go after the next read */
	if (e->group_dead && r->env->filter.on) {
		int err = totals_note_dead(&r->totals, e->pid);

		if (err)
			return err;
	}
	return sct_writer_append(r->writer, &rec);
}

/* A traced task that no record described yet, at its first call (bpf/sct_events.h). */
static int event_task(struct recorder *r, const struct sct_ev_task *e)
{
	const struct sct_task task = {
		.time_ns = e->time_ns, .cgroup_id = e->cgroup_id, .start_ns = e->start_ns,
		.pid = e->pid, .tid = e->tid, .ppid = e->ppid,
	};

	return events_task(r, e->comm, &task);
}

static int event_lifecycle(struct recorder *r, const void *data, size_t size)
{
	uint16_t type = *(const uint16_t *)data;

	if (type == SCT_EV_TASK && size >= sizeof(struct sct_ev_task))
		return event_task(r, data);
	if (type == SCT_EV_FORK && size >= sizeof(struct sct_ev_fork))
		return event_fork(r, data);
	if (type == SCT_EV_EXEC && size >= sizeof(struct sct_ev_exec))
		return event_exec(r, data);
	if (type == SCT_EV_EXIT && size >= sizeof(struct sct_ev_exit))
		return event_exit(r, data);
	if (type == SCT_EV_STACK && r->stacks)
		return stacks_hold(r->stacks, data, size);
	/* Only our own program writes here: anything else is a build mismatch. */
	return -EPROTO;
}

/* The fields of e's record, in sc; the argument fields are left as they are. */
static void syscall_set(struct sct_syscall *sc, const struct sct_ev_syscall *e)
{
	sc->time_ns = e->enter_ns;
	sc->duration_ns = e->duration_ns;
	sc->cgroup_id = e->cgroup_id;
	sc->ret = e->ret;
	sc->pid = e->pid;
	sc->tid = e->tid;
	sc->nr = e->nr;
	sc->abi = e->abi;
}

/* --stack: sc's stack, held since its stack event, named in the open file. */
static int event_stack_id(struct recorder *r, struct sct_syscall *sc)
{
	return r->stacks ? stacks_take(r, sc->tid, sc->time_ns, &sc->stack_id) : 0;
}

/* A SYSCALL event written straight to the ring buffer, not staged: rare, but every one under --stack. */
static int event_syscall(struct recorder *r, const struct sct_ev_syscall *e)
{
	struct sct_syscall sc = {0};

	syscall_set(&sc, e);
	return event_stack_id(r, &sc) ?: events_syscall(r, &sc);
}

/*
 * The CALL slots at s (at most n) of run's task straight into the writer's columns, up to the
 * first slot that is not a CALL. Returns how many, or a negative code.
 */
static int event_call_rows(struct recorder *r, const struct sct_ev_run *run, const union sct_stage_slot *s,
			   size_t n)
{
	/* locals: the compiler cannot tell that the column stores leave run alone */
	const uint64_t pid = run->pid, tid = run->tid, cgroup_id = run->cgroup_id;
	struct sct_syscall_rows c;
	int room = sct_writer_syscall_rows(r->writer, n, &c), k;

	if (room < 0)
		return room;
	for (k = 0; k < room && s[k].call.type == SCT_EV_CALL; k++) {
		const struct sct_ev_call *e = &s[k].call;

		c.time_ns[k] = e->enter_ns;
		c.duration_ns[k] = e->duration_ns;
		c.pid[k] = pid;
		c.tid[k] = tid;
		c.cgroup_id[k] = cgroup_id;
		c.nr[k] = e->nr;
		c.abi[k] = e->abi;
		c.ret[k] = (uint64_t)e->ret;
		c.unfinished[k] = 0;
	}
	return sct_writer_syscall_rows_commit(r->writer, k) ?: k;
}

/*
 * A CPU's staged batch of n slots: runs, each a RUN slot then its task's CALL slots, filled
 * into libsct's columns in place. A CGROUP record goes first where the run's cgroup id is not
 * the last one's.
 */
static int event_runs(struct recorder *r, const union sct_stage_slot *s, size_t n)
{
	while (n) {
		const struct sct_ev_run *run = &s->run;
		int k;

		if (run->type != SCT_EV_RUN)
			return -EPROTO;
		s++;
		n--;
		if (n && s->call.type == SCT_EV_CALL && run->cgroup_id != r->last_cgroup) {
			k = events_cgroup_change(r, run->cgroup_id, s->call.enter_ns);
			if (k)
				return k;
		}
		while (n && s->call.type == SCT_EV_CALL) {
			k = event_call_rows(r, run, s, n);
			if (k < 0)
				return k;
			s += k;
			n -= k;
		}
	}
	return 0;
}

/* Where a path event's captures are: after its paths, at a multiple of 8 bytes. */
static size_t event_mem_offset(const struct sct_ev_syscall_path *p)
{
	return offsetof(struct sct_ev_syscall_path, path) + ((p->path_len + p->path2_len + 7u) & ~7u);
}

/* --args: the captures m holds (their lengths checked by the caller) into sc. */
static void event_mem(struct sct_syscall *sc, const struct sct_ev_mem *m)
{
	const uint8_t *bytes = (const uint8_t *)(m + 1);

	sc->addr_flags = m->addr_flags;
	sc->addr.ptr = bytes;
	sc->addr.len = m->addr_len;
	sc->argv_flags = m->argv_flags;
	sc->envc = m->envc;
	sc->argv.ptr = bytes + m->addr_len;
	sc->argv.len = m->argv_len;
	sc->data_flags = m->data_flags;
	sc->data.ptr = bytes + m->addr_len + m->argv_len;
	sc->data.len = m->data_len;
}

/*
 * --args: e and its arguments; a path syscall's paths (their lengths checked by the caller),
 * the second right after the first, and its captures.
 */
static int event_syscall_args(struct recorder *r, const struct sct_ev_syscall_args *e,
			      const struct sct_ev_syscall_path *p)
{
	/* every field set below: zeroing the 144 bytes first compiled to a `rep stos` (~10 ns) */
	struct sct_syscall sc;

	syscall_set(&sc, &e->sc);
	sc.unfinished = e->sc.unfinished;
	events_args_set(&sc, e->args);
	sc.path_ref = sc.path2_ref = 0;
	sc.path_flags = p ? p->path_flags : 0;
	sc.path.ptr = p ? (const uint8_t *)p->path : NULL;
	sc.path.len = p ? p->path_len : 0;
	sc.path2_flags = p ? p->path2_flags : 0;
	sc.path2.ptr = p ? (const uint8_t *)p->path + p->path_len : NULL;
	sc.path2.len = p ? p->path2_len : 0;
	sc.stack_id = 0;
	events_captures_clear(&sc);
	if (p && p->mem)
		event_mem(&sc, (const struct sct_ev_mem *)((const uint8_t *)p + event_mem_offset(p)));
	return event_stack_id(r, &sc) ?: events_syscall(r, &sc);
}

/*
 * The bytes of path event p, of at most size: 0 if its lengths do not fit, or its exec
 * arguments do not end in a NUL (what the BPF programs never write).
 */
static size_t event_path_size(const struct sct_ev_syscall_path *p, size_t size)
{
	const size_t head = offsetof(struct sct_ev_syscall_path, path);
	const struct sct_ev_mem *m;
	size_t at;

	if (size < head || p->path_len > SCT_PATH_MAX || p->path2_len > SCT_PATH_MAX)
		return 0;
	if (!p->mem)
		return (head + p->path_len + p->path2_len + 7) & ~(size_t)7;
	at = event_mem_offset(p);
	if (at + sizeof(*m) > size)
		return 0;
	m = (const struct sct_ev_mem *)((const uint8_t *)p + at);
	if (m->addr_len > SCT_ADDR_MAX || m->argv_len + m->data_len > SCT_ARGV_ROOM ||
	    at + sizeof(*m) + m->addr_len + m->argv_len + m->data_len > size)
		return 0;
	if (m->argv_len && ((const uint8_t *)(m + 1))[m->addr_len + m->argv_len - 1])
		return 0;
	return (at + sizeof(*m) + m->addr_len + m->argv_len + m->data_len + 7) & ~(size_t)7;
}

/*
 * A batch of --args events back to back: each the size its type says, a path event cut after
 * its paths (and captures) and padded to 8 bytes. Returns 0 or the first error; -EPROTO for a
 * torn batch.
 */
static int event_args_batch(struct recorder *r, const uint8_t *p, size_t size)
{
	while (size) {
		const struct sct_ev_syscall_path *e = (const void *)p;
		size_t n;
		int err;

		if (size < sizeof(e->a) || (e->a.sc.unfinished && e->a.sc.unfinished != SCT_EV_NORETURN))
			return -EPROTO;
		if (e->a.sc.type == SCT_EV_SYSCALL_ARGS) {
			n = sizeof(e->a);
			err = event_syscall_args(r, &e->a, NULL);
		} else if (e->a.sc.type == SCT_EV_SYSCALL_PATH) {
			n = event_path_size(e, size);
			if (!n || n > size)
				return -EPROTO;
			err = event_syscall_args(r, &e->a, e);
		} else {
			return -EPROTO;
		}
		if (err)
			return err;
		p += n;
		size -= n;
	}
	return 0;
}

int bpf_events_handle(void *ctx, void *data, size_t size)
{
	const struct sct_ev_syscall *e = data;
	struct recorder *r = ctx;
	int err = 0;

	if (e->type == SCT_EV_RUN && size >= sizeof(union sct_stage_slot) && !(size % sizeof(union sct_stage_slot))) {
		err = event_runs(r, data, size / sizeof(union sct_stage_slot));
	} else if (e->type == SCT_EV_SYSCALL && size == sizeof(*e)) {
		err = event_syscall(r, e);
	} else if (e->type == SCT_EV_SYSCALL_ARGS || e->type == SCT_EV_SYSCALL_PATH) {
		err = event_args_batch(r, data, size);
	} else {
		err = event_lifecycle(r, data, size);
	}
	/* A non-zero return stops ring_buffer__poll(): the loop then reports r->err. */
	if (err && !r->err)
		r->err = err;
	return err;
}
