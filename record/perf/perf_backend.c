// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf backend (backend.h): open the events (the /proc passes of targets.c for
 * thread targets, per-CPU events for -a and -G), write the TASK records from /proc, read the
 * rings in time order, pair enter and exit per tid, turn the side band and the sched samples
 * into FORK, EXEC and EXIT records, and at stop write the calls still in flight as unfinished.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"
#include "../probe.h"

/* No PERF_SAMPLE_CPU: each CPU has its own ring, 16 bytes a syscall saved. */
#define PERF_SAMPLE_BASE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			  PERF_SAMPLE_RAW)
/*
 * A record's time is taken a few microseconds before it is in its ring: records newer than
 * this before a pass started may still be missing from another ring, and wait for the next.
 */
#define PERF_HORIZON_SLACK_NS (2 * 1000 * 1000ull)
#define PERF_SWEEP_PERIOD_NS NSEC_PER_SEC
/* perf_sweep() checks at most this many tasks in /proc a call, as targets_sweep() does. */
#define PERF_SWEEP_MAX 64

struct perf_backend {
	struct recorder *r;
	struct perf_tps tps;
	struct perf_open open;
	struct perf_fds fds;
	struct perf_ring *rings;
	int ncpus;
	int epoll_fd;
	int cgroup_fd;
	struct perf_pair pair;
	struct perf_user user;   /* -e */
	uint64_t ids[PERF_TP_COUNT + SCT_MAX_EVENTS]; /* what is opened: perf_open's ids */
	uint32_t self;
	bool dedupe;             /* thread targets: one tid may have events of two origins */
	bool sampler;            /* -e beside the bpf backend: SAMPLE records only, bpf writes the rest */
	uint32_t *opened;        /* tids the /proc passes opened events for */
	size_t nopened, capopened;
	uint64_t gone;           /* slots of exited leaders kept for their group's exit code */
	uint64_t lost;           /* events the kernel dropped, not yet written as LOST records */
	uint64_t lost_from;
	uint64_t full_seen;      /* pair.full already written */
	uint64_t not_fit;        /* tasks alive at start that found no room in the table */
	size_t sweep_at;         /* the slot perf_sweep() checks next */
	const char *target_path; /* -G in the cgroup mount, for the TASK snapshot */
	bool started;            /* the first file's start is written */
	uint32_t comm_tid;       /* the last COMM record of an exec */
	char comm[SCT_COMM_LEN];
	char syscall_filter[8192]; /* -S as the kernel's filter of raw_syscalls */
	bool stacks;              /* --stack: sys_exit samples carry their user callchain */
};

/* The fixed head of a sample (PERF_SAMPLE_BASE), then the raw record. */
struct perf_sample_head {
	struct perf_event_header h;
	uint64_t id;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t raw_size;
} __attribute__((packed));

/* The sample_id_all trailer of side-band records with PERF_SAMPLE_BASE. */
struct perf_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
};

/* One sample, parsed and bounded. */
struct perf_sample {
	uint64_t id, time, cgroup_id;
	uint32_t pid, tid;
	const uint8_t *raw;
	uint32_t raw_size;
	const uint64_t *chain;    /* --stack: PERF_SAMPLE_CALLCHAIN's entries (unaligned), else NULL */
	uint32_t nchain;
};

static int record_note(struct perf_backend *b, int err)
{
	if (err && !b->r->err)
		b->r->err = err;
	return err;
}

/* The task slot a sample or side-band record of tid counts for; NULL: a duplicate or no room. */
static struct perf_task *task_for(struct perf_backend *b, uint32_t tid, uint32_t pid, uint64_t id)
{
	/* Thread targets enter the table at start and by FORK only, as they enter the BPF map. */
	struct perf_task *t = b->dedupe ? perf_pair_find(&b->pair, tid) : perf_pair_get(&b->pair, tid);
	uint32_t origin;

	if (!t)
		return NULL;
	t->pid = pid;
	if (!b->dedupe)
		return t;
	/* Opened for this tid and inherited from an ancestor too: keep the first origin seen. */
	origin = perf_fds_origin(&b->fds, id);
	if (!t->origin)
		t->origin = origin;
	return t->origin == origin ? t : NULL;
}

/* TASK, FORK, EXEC, EXIT: the bpf backend writes them when this one only samples for -e. */
static int lifecycle_append(struct perf_backend *b, const struct sct_record *rec)
{
	return b->sampler ? 0 : sct_writer_append(b->r->writer, rec);
}

static uint64_t raw_u64(const struct perf_sample *s, uint32_t off)
{
	uint64_t v = 0;

	if (off + 8 <= s->raw_size)
		memcpy(&v, s->raw + off, 8);
	return v;
}

static uint32_t raw_u32(const struct perf_sample *s, uint32_t off)
{
	uint32_t v = 0;

	if (off + 4 <= s->raw_size)
		memcpy(&v, s->raw + off, 4);
	return v;
}

/* The cgroup of a task: the kernel's with PERF_SAMPLE_CGROUP, else read once from /proc. */
static uint64_t task_cgroup(struct perf_backend *b, struct perf_task *t, const struct perf_sample *s)
{
	if (b->r->sample_cgroup)
		return s->cgroup_id;
	if (!t->cgroup_id)
		t->cgroup_id = perf_proc_cgroup(b->r->host.cgroup_mount, t->tid);
	return t->cgroup_id;
}

/* An exit or exit_group of t, under a filter: counted now, as it never reaches sys_exit. */
static void syscall_count_noreturn(struct perf_backend *b, const struct perf_task *t, const struct perf_sample *s)
{
	struct sct_tot_key k = { .pid = s->pid, .nr = t->nr, .cgroup_id = t->cgroup_id, .abi = SCT_ABI_NATIVE };

	if (!filter_syscall(&b->r->env->filter, t->nr, SCT_ABI_NATIVE))
		return;
	if (totals_add_call(&b->r->totals, &k, 0, 0))
		b->r->err = b->r->err ? b->r->err : -ENOMEM;
}

/*
 * --args: the registers taken at entry; a call whose argument is a path, or points to other
 * memory a session with captures records, says that it was not read (perf reads no user
 * memory).
 */
static void syscall_args(const struct recorder *r, const struct perf_task *t, struct sct_syscall *sc)
{
	bool known = t->nr < r->args.npath_args;
	uint8_t pa = known ? r->args.path_args[t->nr] : 0;
	uint8_t cap = known ? r->args.capture_args[t->nr].flags : 0;

	events_args_set(sc, t->args);
	if (pa & SCT_PATH_ARG_VALID)
		sc->path_flags = SCT_PATH_NOT_READ;
	if (pa >> SCT_PATH2_ARG_SHIFT)
		sc->path2_flags = SCT_PATH_NOT_READ;
	if (cap & SCT_CAP_ADDR)
		sc->addr_flags = SCT_PATH_NOT_READ;
	if (cap & (SCT_CAP_ARGV | SCT_CAP_ENVP))
		sc->argv_flags = SCT_PATH_NOT_READ;
	if (cap & (SCT_CAP_DATA | SCT_CAP_DATA_EXIT))
		sc->data_flags = SCT_PATH_NOT_READ;
}

/*
 * -c: the task's name: /proc's when the task was first read there (the snapshot at start, a
 * task met first in a sample), its parent's for a child, its exec's COMM record's; else /proc
 * now.
 */
static const char *task_comm(struct perf_backend *b, struct perf_task *t)
{
	struct perf_proc_task pt;

	if (!t->comm_known) {
		t->comm_known = true;
		if (!perf_proc_task(b->r->host.cgroup_mount, t->tid, &pt))
			memcpy(t->comm, pt.comm, SCT_COMM_LEN);
	}
	return t->comm;
}

/*
 * Under a filter: the call of sc counted in the totals if its syscall is selected (the
 * kernel's filter drops the others, but not always from a child's inherited events) and it
 * was not counted at entry (an exit made to return, by seccomp say); returns whether it gets
 * its SYSCALL record.
 */
static bool syscall_keep(struct perf_backend *b, struct perf_task *t, const struct sct_syscall *sc)
{
	const struct record_filter *f = &b->r->env->filter;
	struct sct_tot_key k = { .pid = sc->pid, .nr = sc->nr, .cgroup_id = sc->cgroup_id, .abi = sc->abi };

	if (!filter_syscall(f, sc->nr, sc->abi))
		return false;
	if (!filter_noreturn(f, sc->nr, sc->abi) && totals_add_call(&b->r->totals, &k, sc->ret, sc->duration_ns))
		b->r->err = b->r->err ? b->r->err : -ENOMEM;
	if (f->summary_only || !filter_result(f, sc->ret, sc->duration_ns))
		return false;
	return !f->ncomms || filter_comm(f, task_comm(b, t));
}

/*
 * --args (a session with captures): an exit or exit_group of t, just entered, written now, as
 * it never returns: duration 0, ret 0. Under a filter it passes those of the result as a call
 * that returned 0 at once, and no -P prefix, having no path.
 */
static int syscall_noreturn(struct perf_backend *b, struct perf_task *t)
{
	const struct record_filter *f = &b->r->env->filter;
	struct sct_syscall sc = { .time_ns = t->enter_ns };

	t->enter_ns = 0;
	t->noreturn_written = true;
	if (f->on && (!filter_syscall(f, t->nr, SCT_ABI_NATIVE) || f->summary_only || !filter_result(f, 0, 0) ||
		      f->path || !filter_comm(f, task_comm(b, t))))
		return 0;
	sc.cgroup_id = t->cgroup_id;
	sc.pid = t->pid;
	sc.tid = t->tid;
	sc.nr = t->nr;
	sc.abi = SCT_ABI_NATIVE;
	sc.unfinished = SCT_EV_NORETURN;
	syscall_args(b->r, t, &sc);
	return events_syscall(b->r, &sc);
}

static int syscall_enter(struct perf_backend *b, struct perf_task *t, const struct perf_sample *s)
{
	const struct perf_layout *l = &b->tps.layout;
	int64_t nr = (int64_t)raw_u64(s, l->enter_id);
	uint64_t arg0 = raw_u64(s, l->enter_args);

	t->enter_ns = s->time;
	t->sampled = true;
	t->nr = (uint32_t)nr;
	for (int i = 0; b->r->env->args && i < 6; i++)
		t->args[i] = raw_u64(s, l->enter_args + 8 * i);
	t->cgroup_id = task_cgroup(b, t, s);
	/* exit and exit_group never return: their argument is the exit code the EXIT record gives. */
	if (nr == SYS_exit || nr == SYS_exit_group)
		t->exit_code = arg0 & 0xff;
	if (nr == SYS_exit_group) {
		struct perf_task *leader = perf_pair_get(&b->pair, t->pid);

		if (leader)
			leader->group_code = arg0 & 0xff;
	}
	t->noreturn_written = false;
	if (!filter_noreturn(&b->r->env->filter, t->nr, SCT_ABI_NATIVE))
		return 0;
	if (b->r->env->filter.on)
		syscall_count_noreturn(b, t, s);
	return b->r->env->args ? syscall_noreturn(b, t) : 0;
}

/*
 * --stack: the user return addresses of the exit sample's callchain (only the user context is
 * asked for: its PERF_CONTEXT_USER marker is skipped) as sc's stack.
 */
static int syscall_stack(struct recorder *r, const struct perf_sample *s, struct sct_syscall *sc)
{
	uint64_t ips[SCT_STACK_DEPTH_MAX];
	size_t n = 0;

	for (uint32_t i = 0; i < s->nchain && n < SCT_STACK_DEPTH_MAX; i++) {
		uint64_t ip;

		memcpy(&ip, &s->chain[i], sizeof(ip));
		if (ip < PERF_CONTEXT_MAX)
			ips[n++] = ip;
	}
	return stacks_id(r, s->pid, sc->time_ns, NULL, 0, ips, n, &sc->stack_id);
}

static int syscall_exit(struct perf_backend *b, struct perf_task *t, const struct perf_sample *s)
{
	struct sct_syscall sc = { 0 };

	/*
	 * A task's first sample an exit: the call was in flight when tracing started. Or an exit
	 * made to return (by seccomp), written at its entry.
	 */
	if (!t->enter_ns) {
		b->pair.orphan_exits += t->sampled && !t->noreturn_written;
		t->sampled = true;
		t->noreturn_written = false;
		return 0;
	}
	sc.time_ns = t->enter_ns;
	sc.duration_ns = s->time > t->enter_ns ? s->time - t->enter_ns : 0;
	sc.cgroup_id = t->cgroup_id;
	sc.ret = (int64_t)raw_u64(s, b->tps.layout.exit_ret);
	sc.pid = s->pid;
	sc.tid = s->tid;
	sc.nr = t->nr;
	/* raw_syscalls gives no ABI: an ia32 call of a 64-bit task shows its compat number. */
	sc.abi = SCT_ABI_NATIVE;
	if (b->r->env->args)
		syscall_args(b->r, t, &sc);
	t->enter_ns = 0;
	if (b->r->env->filter.on && !syscall_keep(b, t, &sc))
		return 0;
	return (b->stacks ? syscall_stack(b->r, s, &sc) : 0) ?: events_syscall(b->r, &sc);
}

/*
 * A non-leader exec takes the leader's tid: the slot of the old tid, with the execve in
 * flight, moves over the leader's (which exited in the exec). Duplicates of the sample then
 * find no old slot and fail the origin check of the moved one.
 */
static void exec_move(struct perf_backend *b, uint32_t old, uint32_t tid)
{
	struct perf_task *o = perf_pair_find(&b->pair, old), *t, keep;

	if (!o || old == tid)
		return;
	keep = *o;
	perf_pair_drop(&b->pair, old);
	t = perf_pair_find(&b->pair, tid);
	if (t && t->enter_ns == UINT64_MAX)
		b->gone--;
	t = perf_pair_get(&b->pair, tid);
	if (!t)
		return;
	keep.tid = tid;
	*t = keep;
}

/* comm after an exec: the COMM record just before the exec sample, else the file's name. */
static void exec_comm(const struct perf_backend *b, uint32_t tid, const uint8_t *file, uint32_t len,
		      struct sct_bytes *comm)
{
	const uint8_t *base = file;

	if (b->comm_tid == tid) {
		comm->ptr = (const uint8_t *)b->comm;
		comm->len = strnlen(b->comm, SCT_COMM_LEN);
		return;
	}
	for (uint32_t i = 0; i < len; i++)
		if (file[i] == '/')
			base = file + i + 1;
	comm->ptr = base;
	comm->len = file + len - base < SCT_COMM_LEN - 1 ? file + len - base : SCT_COMM_LEN - 1;
}

static int task_exec(struct perf_backend *b, const struct perf_sample *s)
{
	struct sct_record rec = { .type = SCT_REC_EXEC };
	uint32_t loc = raw_u32(s, b->tps.layout.exec_filename), off = loc & 0xffff, len = loc >> 16;
	uint32_t old = raw_u32(s, b->tps.layout.exec_old);

	if (off > s->raw_size || len > s->raw_size - off)
		len = 0;
	/* The length counts the NUL. */
	if (len && !s->raw[off + len - 1])
		len--;
	exec_move(b, old, s->tid);
	if (!task_for(b, s->tid, s->pid, s->id))
		return 0;
	rec.exec.time_ns = s->time;
	rec.exec.pid = s->pid;
	rec.exec.tid = s->tid;
	rec.exec.old_tid = old;
	rec.exec.filename.ptr = s->raw + off;
	rec.exec.filename.len = len;
	exec_comm(b, s->tid, s->raw + off, len, &rec.exec.comm);
	if (b->r->stacks)
		stacks_note_exec(b->r->stacks, s->pid);
	return lifecycle_append(b, &rec);
}

/*
 * The exit of tid, told twice: by its sched_process_exit sample and by the PERF_RECORD_EXIT
 * of its events. The first one makes the EXIT record. Linux 6.1 tears a task's perf events
 * down before that tracepoint runs, so per-task events never see the sample there (per-CPU
 * ones see it after the side band); later kernels run the tracepoint first and give
 * group_dead with it.
 */
static int task_exit(struct perf_backend *b, struct perf_task *t, uint32_t pid, uint32_t tid,
		     uint64_t time_ns, bool group_dead)
{
	struct sct_record rec = { .type = SCT_REC_EXIT };
	struct perf_task *leader;
	int err;

	/* An exited leader kept for its group: this is the second word of its exit. */
	if (t->enter_ns == UINT64_MAX)
		return 0;
	leader = pid == tid ? t : perf_pair_find(&b->pair, pid);
	rec.exit.time_ns = time_ns;
	rec.exit.start_ns = t->start_ns;
	rec.exit.pid = pid;
	rec.exit.tid = tid;
	/* A thread killed by its group's exit_group() exits with the group's code. */
	rec.exit.exit_code = t->exit_code >= 0 ? t->exit_code :
			     leader && leader->group_code >= 0 ? leader->group_code : 0;
	rec.exit.signal = 0;
	rec.exit.group_dead = group_dead;
	if (b->r->stacks)
		stacks_note_exit(b->r->stacks, pid, tid, group_dead);
	err = lifecycle_append(b, &rec);
	if (err)
		return err;
	if (group_dead && leader && leader != t) {
		b->gone -= leader->enter_ns == UINT64_MAX;
		perf_pair_drop(&b->pair, pid);
		t = perf_pair_find(&b->pair, tid);
	}
	if (!t)
		return 0;
	if (t == leader && !group_dead) {
		/* Kept for the group code of the threads still running; no call in flight. */
		t->enter_ns = UINT64_MAX;
		b->gone++;
		return 0;
	}
	perf_pair_drop(&b->pair, tid);
	return 0;
}

/* A TASK record of a task as /proc shows it, after the CGROUP record of its cgroup. */
static int task_record(struct recorder *r, const struct perf_proc_task *pt, uint64_t now_ns)
{
	const struct sct_task task = {
		.time_ns = now_ns, .cgroup_id = pt->cgroup_id, .start_ns = pt->start_ns,
		.pid = pt->pid, .tid = pt->tid, .ppid = pt->ppid,
	};

	return events_task(r, pt->comm, &task);
}

/*
 * A task met first in a sample or as a parent, neither at start nor by a FORK: one that
 * entered -G's cgroup by a move, say. Its TASK record from /proc, stamped time_ns, in
 * cgroup_id when the sample gave one (0: /proc's). The rings are read up to a poll period
 * late: a task gone from /proc by then (or whose tid another task has taken since) is
 * described by its exit sample instead, which gives its comm (task_describe_exit()).
 */
static int task_describe(struct perf_backend *b, struct perf_task *t, uint64_t time_ns, uint64_t cgroup_id)
{
	struct perf_proc_task pt;

	if (t->described || b->sampler)
		return 0;
	t->described = true;
	/* a start after time_ns (to the tick) is a task given the tid since */
	if (perf_proc_task(b->r->host.cgroup_mount, t->tid, &pt) || pt.pid != t->pid || pt.start_ns > time_ns) {
		t->undescribed_ns = time_ns;
		return 0;
	}
	if (cgroup_id)
		pt.cgroup_id = cgroup_id;
	memcpy(t->comm, pt.comm, SCT_COMM_LEN);
	t->comm_known = true;
	return task_record(b->r, &pt, time_ns);
}

/*
 * The TASK record of a task that was gone from /proc when first met, from its exit sample:
 * comm and cgroup as it exited, parent and start time unknown (0).
 */
static int task_describe_exit(struct perf_backend *b, struct perf_task *t, const struct perf_sample *s)
{
	uint32_t off = b->tps.layout.exit_comm;
	struct perf_proc_task pt = { .pid = s->pid, .tid = s->tid, .cgroup_id = t->cgroup_id };
	uint64_t time_ns;

	if (!t->undescribed_ns)
		return 0;
	if (off <= s->raw_size && s->raw_size - off >= SCT_COMM_LEN)
		memcpy(pt.comm, s->raw + off, SCT_COMM_LEN);
	pt.comm[SCT_COMM_LEN - 1] = '\0';
	time_ns = t->undescribed_ns;
	t->undescribed_ns = 0;
	return task_record(b->r, &pt, time_ns);
}

static int exit_sample(struct perf_backend *b, struct perf_task *t, const struct perf_sample *s)
{
	const struct perf_layout *l = &b->tps.layout;
	bool group_dead = l->have_group_dead ? s->raw_size > l->exit_group_dead &&
					       s->raw[l->exit_group_dead] : s->pid == s->tid;
	int err = task_describe_exit(b, t, s);

	return err ? err : task_exit(b, t, s->pid, s->tid, s->time, group_dead);
}

/*
 * --stack: a sys_exit sample's PERF_SAMPLE_CALLCHAIN sits between the time and the raw
 * record: h with the callchain cut out is read as a sample without. Returns the bytes it
 * took, or -EPROTO.
 */
static int sample_chain(const struct perf_event_header *h, struct perf_sample *s)
{
	const size_t at = offsetof(struct perf_sample_head, raw_size);
	uint64_t nr;

	if (h->size < at + 8)
		return -EPROTO;
	memcpy(&nr, (const uint8_t *)h + at, 8);
	if (nr > (h->size - at - 8) / 8)
		return -EPROTO;
	s->chain = (const uint64_t *)((const uint8_t *)h + at + 8);
	s->nchain = (uint32_t)nr;
	return (int)(8 + 8 * nr);
}

static int sample_parse(struct perf_backend *b, const struct perf_event_header *h, struct perf_sample *s)
{
	const struct perf_sample_head *p = (const void *)h;
	const size_t at = offsetof(struct perf_sample_head, raw_size);
	uint32_t after, chain = 0;
	int n;

	s->chain = NULL;
	s->nchain = 0;
	if (h->size < sizeof(*p))
		return -EPROTO;
	if (b->stacks && perf_fds_chain(&b->fds, p->id)) {
		n = sample_chain(h, s);
		if (n < 0)
			return n;
		chain = (uint32_t)n;
	}
	if (h->size < sizeof(*p) + chain)
		return -EPROTO;
	s->id = p->id;
	s->pid = p->pid;
	s->tid = p->tid;
	s->time = p->time;
	memcpy(&s->raw_size, (const uint8_t *)h + at + chain, sizeof(s->raw_size));
	s->raw = (const uint8_t *)h + sizeof(*p) + chain;
	if (s->raw_size > h->size - sizeof(*p) - chain)
		return -EPROTO;
	after = sizeof(*p) + chain + s->raw_size;
	s->cgroup_id = 0;
	if (b->r->sample_cgroup) {
		if (after + 8 > h->size)
			return -EPROTO;
		memcpy(&s->cgroup_id, (const uint8_t *)h + after, 8);
	}
	return s->raw_size >= 8 ? 0 : -EPROTO;
}

/* A SAMPLE record of -e's event idx. */
static int sample_write(struct perf_backend *b, int cpu, struct perf_task *t,
			const struct perf_sample *s, int idx)
{
	struct sct_record rec = { .type = SCT_REC_SAMPLE };
	uint64_t cgroup = task_cgroup(b, t, s);
	int err = events_note_cgroup(b->r, cgroup, s->time);

	if (err)
		return err;
	rec.sample.time_ns = s->time;
	rec.sample.cgroup_id = cgroup;
	rec.sample.pid = s->pid;
	rec.sample.tid = s->tid;
	rec.sample.cpu = cpu;
	rec.sample.event = idx;
	rec.sample.payload.ptr = s->raw;
	rec.sample.payload.len = s->raw_size;
	return sct_writer_append(b->r->writer, &rec);
}

static int on_sample(struct perf_backend *b, int cpu, const struct perf_event_header *h)
{
	struct perf_sample s;
	struct perf_task *t, late = { .cgroup_id = 0 };
	uint16_t type;
	int err = sample_parse(b, h, &s), idx;

	if (err)
		return err;
	if (s.pid == b->self)
		return 0;
	memcpy(&type, s.raw, sizeof(type));
	if (type == b->tps.id[PERF_TP_EXEC]) {
		err = task_exec(b, &s);
		if (err || !b->user.n)
			return err;
	}
	/*
	 * An exit sample after the task's PERF_RECORD_EXIT (per-CPU events on Linux 6.1) finds
	 * its slot dropped: it must not make one again, only its -e sample is left to write.
	 */
	if (type == b->tps.id[PERF_TP_EXIT] && !perf_pair_find(&b->pair, s.tid)) {
		if (b->dedupe)
			return 0;
		late.tid = s.tid;
		late.pid = s.pid;
		t = &late;
	} else {
		/* No slot: a duplicate, or a task that found no room (counted when it appeared). */
		t = task_for(b, s.tid, s.pid, s.id);
	}
	if (!t)
		return 0;
	if (t != &late && (err = task_describe(b, t, s.time, b->r->sample_cgroup ? s.cgroup_id : 0)))
		return err;
	/* -e may name a tracepoint the backend reads too: the sample serves both. */
	if (b->user.n && (idx = perf_user_find(&b->user, type)) >= 0 &&
	    (err = sample_write(b, cpu, t, &s, idx)))
		return err;
	if (type == b->tps.id[PERF_TP_SYS_ENTER])
		return syscall_enter(b, t, &s);
	if (type == b->tps.id[PERF_TP_SYS_EXIT])
		return syscall_exit(b, t, &s);
	if (type == b->tps.id[PERF_TP_EXIT] && t != &late)
		return exit_sample(b, t, &s);
	return 0;
}

static const struct perf_sample_id *sample_id(const struct perf_event_header *h, size_t body)
{
	if (h->size < sizeof(*h) + body + sizeof(struct perf_sample_id))
		return NULL;
	return (const void *)((const uint8_t *)h + h->size - sizeof(struct perf_sample_id));
}

struct perf_task_rec {
	struct perf_event_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

static int on_fork(struct perf_backend *b, const struct perf_event_header *h)
{
	const struct perf_task_rec *f = (const void *)h;
	const struct perf_sample_id *sid = sample_id(h, sizeof(*f) - sizeof(*h));
	struct sct_record rec = { .type = SCT_REC_FORK };
	struct perf_task *parent, *child;
	int err;

	if (!sid || f->pid == b->self)
		return 0;
	parent = task_for(b, f->ptid, f->ppid, sid->id);
	if (b->dedupe && !parent)
		return 0;
	if (parent && (err = task_describe(b, parent, f->time, 0)))
		return err;
	child = perf_pair_get(&b->pair, f->tid);
	/* Beside bpf, its targets map decides what is traced and counts what did not fit. */
	b->pair.full += !child && !b->sampler;
	if (child) {
		child->pid = f->pid;
		child->start_ns = f->time;
		/*
		 * Its first sample names the events it counts by: a child made while its parent's
		 * events were being opened inherited none, and has only the ones of the second pass.
		 */
		child->origin = 0;
		child->cgroup_id = parent ? parent->cgroup_id : 0;
		child->described = true;
		/* a child has its parent's name until it execs (a COMM record) */
		child->comm_known = parent && parent->comm_known;
		if (child->comm_known)
			memcpy(child->comm, parent->comm, SCT_COMM_LEN);
	}
	rec.fork.time_ns = f->time;
	rec.fork.child_start_ns = f->time;
	rec.fork.parent_pid = f->ppid;
	rec.fork.parent_tid = f->ptid;
	rec.fork.child_pid = f->pid;
	rec.fork.child_tid = f->tid;
	rec.fork.is_thread = f->pid == f->ppid;
	if (b->r->stacks && !rec.fork.is_thread)
		stacks_note_fork(b->r->stacks, f->ppid, f->pid);
	return lifecycle_append(b, &rec);
}

/* PERF_RECORD_EXIT: { pid, ppid, tid, ptid, time }, as PERF_RECORD_FORK. */
static int on_exit_record(struct perf_backend *b, const struct perf_event_header *h)
{
	const struct perf_task_rec *e = (const void *)h;
	const struct perf_sample_id *sid = sample_id(h, sizeof(*e) - sizeof(*h));
	struct perf_task *t;

	if (!sid || e->pid == b->self)
		return 0;
	t = perf_pair_find(&b->pair, e->tid);
	if (!t || (b->dedupe && task_for(b, e->tid, e->pid, sid->id) != t))
		return 0;
	/* Per-CPU events see the exit sample after this (Linux 6.1): it describes the task too. */
	if (t->undescribed_ns && !b->dedupe)
		return 0;
	/* No group_dead in the side band: the leader's exit stands in, as without the field. */
	return task_exit(b, t, e->pid, e->tid, e->time, e->pid == e->tid);
}

/* The COMM record of an exec comes just before its sched_process_exec sample: keep it. */
static void on_comm(struct perf_backend *b, const struct perf_event_header *h)
{
	const struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[];
	} *c = (const void *)h;
	struct perf_task *t;
	size_t room;

	if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC) || h->size < sizeof(*c) + sizeof(struct perf_sample_id))
		return;
	room = h->size - sizeof(*c) - sizeof(struct perf_sample_id);
	b->comm_tid = c->tid;
	snprintf(b->comm, sizeof(b->comm), "%.*s", (int)(room < SCT_COMM_LEN ? room : SCT_COMM_LEN),
		 c->comm);
	t = perf_pair_get(&b->pair, c->tid);
	if (t) {
		memcpy(t->comm, b->comm, SCT_COMM_LEN);
		t->comm_known = true;
	}
}

static void on_lost(struct perf_backend *b, const struct perf_event_header *h, uint64_t count)
{
	uint64_t t = perf_record_time(h);

	if (!b->lost)
		b->lost_from = t;
	b->lost += count;
}

static int on_record(void *ctx, int cpu, const struct perf_event_header *h)
{
	struct perf_backend *b = ctx;
	const uint64_t *body = (const uint64_t *)(h + 1);
	int err = 0;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		err = on_sample(b, cpu, h);
		break;
	case PERF_RECORD_FORK:
		err = on_fork(b, h);
		break;
	case PERF_RECORD_EXIT:
		err = on_exit_record(b, h);
		break;
	case PERF_RECORD_COMM:
		on_comm(b, h);
		break;
	case PERF_RECORD_LOST:
		/* { id, lost } */
		if (h->size >= sizeof(*h) + 16)
			on_lost(b, h, body[1]);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= sizeof(*h) + 8)
			on_lost(b, h, body[0]);
		break;
	}
	return record_note(b, err);
}

/* LOST records for what the kernel dropped; WARNING records for tasks that found no room. */
static int perf_check(struct perf_backend *b, uint64_t now_ns)
{
	struct recorder *r = b->r;
	struct sct_record rec = { .type = SCT_REC_LOST };
	uint64_t full = b->pair.full - b->full_seen;
	int err = 0;

	if (b->lost) {
		rec.lost.time_ns = b->lost_from;
		rec.lost.end_ns = now_ns;
		rec.lost.cause = SCT_LOST_RINGBUF;
		rec.lost.count = b->lost;
		r->lost += b->lost;
		b->lost = 0;
		err = sct_writer_append(r->writer, &rec);
	}
	if (!err && full) {
		b->full_seen = b->pair.full;
		err = stats_targets_full(r, full, false);
	}
	r->stats_check_ns = now_ns;
	return err;
}

static int64_t perf_read(struct perf_backend *b, uint64_t horizon_ns)
{
	int64_t n = perf_rings_read(b->rings, b->ncpus, horizon_ns, on_record, b);

	return n < 0 && b->r->err ? b->r->err : n;
}

/* Thread targets: one pass of targets.c hands each tid it finds here once. */
static int open_tid(void *ctx, uint32_t tid)
{
	struct perf_backend *b = ctx;
	int err;

	if (b->nopened == b->capopened) {
		size_t n = b->capopened ? b->capopened * 2 : 64;
		uint32_t *tmp = realloc(b->opened, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		b->opened = tmp;
		b->capopened = n;
	}
	err = perf_open_thread(&b->fds, &b->open, tid);
	/* Gone before we could open it: a target may exit any time. */
	if (err == -ESRCH)
		return 0;
	if (!err)
		b->opened[b->nopened++] = tid;
	return err;
}

/*
 * A syscall costs two samples of ~100 bytes here, one event of 56 with bpf: each CPU's ring is
 * 4 x --ringbuf-size, so that it holds as many syscalls as the bpf ring (a busy thread fills
 * the ring of its CPU alone), but the rings together stay within PERF_RINGS_MAX or 1 x each.
 */
#define PERF_RINGS_MAX (256ull << 20)

static size_t ring_pages(const struct recorder *r, int ncpus)
{
	uint64_t size = 4 * r->env->ringbuf_size, share = PERF_RINGS_MAX / ncpus;
	size_t page = sysconf(_SC_PAGESIZE), pages, p = 1;

	if (size > share)
		size = share > r->env->ringbuf_size ? share : r->env->ringbuf_size;
	pages = size / page;
	while (p * 2 <= pages)
		p *= 2;
	return p;
}

/* Every target thread has events for each tracepoint on each CPU: fds, lots of them. */
static void nofile_raise(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * The backend's tracepoints, then -e's that are not among them. Beside bpf, no syscalls: exec
 * and exit keep the table of tasks that drops duplicate samples, the exec carries the side band.
 */
static void perf_ids(struct perf_backend *b)
{
	uint32_t n = 0;

	for (int i = b->sampler ? PERF_TP_EXEC : 0; i < PERF_TP_COUNT; i++)
		b->ids[n++] = b->tps.id[i];
	for (uint32_t i = 0; i < b->user.n; i++) {
		uint32_t j = 0;

		while (j < n && b->ids[j] != b->user.ids[i])
			j++;
		if (j == n)
			b->ids[n++] = b->user.ids[i];
	}
	b->open.ids = b->ids;
	b->open.nids = n;
	b->open.flush_id = b->tps.id[PERF_TP_SYS_ENTER];
}

static int perf_prepare_report(struct perf_backend *b)
{
	struct recorder *r = b->r;
	char why[512];
	int err;

	err = perf_tps_read(&b->tps, why, sizeof(why));
	if (err) {
		fprintf(stderr, "sct-record: perf backend: %s\n", why);
		return err;
	}
	b->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (b->ncpus <= 0)
		return -EINVAL;
	b->rings = calloc(b->ncpus, sizeof(*b->rings));
	if (!b->rings)
		return -ENOMEM;
	for (int i = 0; i < b->ncpus; i++)
		b->rings[i].fd = b->rings[i].flush_fd = -1;
	err = perf_pair_init(&b->pair, r->env->max_tasks);
	if (err)
		return err;
	err = perf_user_read_report(&b->user, b->tps.events, r->env->events, r->env->nevents);
	if (err)
		return err;
	perf_ids(b);
	if (r->env->filter.syscalls_arg && !b->sampler) {
		err = perf_syscall_filter(&r->env->filter, b->syscall_filter, sizeof(b->syscall_filter));
		if (err) {
			fprintf(stderr, "sct-record: perf backend: -S too long for the kernel's filter\n");
			return err;
		}
		if (b->syscall_filter[0])
			b->open.syscall_filter = b->syscall_filter;
	}
	r->host.info.events = b->user.desc;
	r->host.info.nevents = b->user.n;
	/* -e's samples beside the bpf backend carry no stack: it takes the calls' */
	b->stacks = r->env->stack_parts && !b->sampler;
	b->open.sample_type = PERF_SAMPLE_BASE | (r->sample_cgroup ? PERF_SAMPLE_CGROUP : 0);
	/* a call's stack is the one its sys_exit sample carries: sys_enter's would go unread */
	b->open.chain_id = b->stacks ? b->tps.id[PERF_TP_SYS_EXIT] : 0;
	b->open.stack_depth = b->stacks ? r->env->stack_depth : 0;
	b->open.rings = b->rings;
	b->open.ncpus = b->ncpus;
	b->open.data_pages = ring_pages(r, b->ncpus);
	/* Wake the reader past 1/8 of a ring, as the BPF backend does: not once per sample. */
	b->open.watermark = b->open.data_pages * sysconf(_SC_PAGESIZE) / 8;
	b->self = getpid();
	nofile_raise();
	return 0;
}

/* Thread targets: the /proc passes of targets.c open each tid's events. */
static void perf_hook(struct perf_backend *b)
{
	if (!b->sampler)
		b->r->targets.map_fd = -1;
	b->dedupe = true;
	b->r->targets.insert = open_tid;
	b->r->targets.insert_ctx = b;
}

static int perf_attach_report(struct perf_backend *b)
{
	struct recorder *r = b->r;
	char path[sizeof(r->host.cgroup_mount) + 4096];
	int err = 0;

	if (r->mode == SCT_MODE_TARGETS && !b->sampler) {
		perf_hook(b);
		/* Twice: a thread made before its parent's events were open inherited none. */
		err = targets_fill(r);
		if (!err)
			err = targets_fill(r);
	} else if (r->mode == SCT_MODE_TARGETS) {
		/* Beside bpf, its own /proc passes, before and after it attaches, opened them. */
	} else if (r->mode == SCT_MODE_CGROUP) {
		b->target_path = cgroups_path(r->cgroups, r->target_cgroup);
		snprintf(path, sizeof(path), "%s%s", r->host.cgroup_mount, b->target_path ? b->target_path : "");
		b->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		err = b->cgroup_fd < 0 ? -errno : perf_open_cpus(&b->fds, &b->open, b->cgroup_fd);
	} else {
		err = perf_open_cpus(&b->fds, &b->open, -1);
	}
	if (!err)
		err = perf_open_flush(&b->fds, &b->open);
	if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "sct-record: permission denied opening the tracepoints: the perf backend "
			"needs root, CAP_PERFMON or perf_event_paranoid -1\n");
	else if (err == -ENOENT && r->mode == SCT_MODE_CGROUP)
		fprintf(stderr, "sct-record: cannot open perf events for cgroup %s: the perf_event "
			"controller has no state there (sct-record --probe: perf-cgroup)\n",
			b->target_path ? b->target_path : "");
	else if (err)
		fprintf(stderr, "sct-record: cannot open the perf events: %s\n", strerror(-err));
	return err;
}

/* The rings wake epfd past their watermark. */
static int perf_epoll(struct perf_backend *b, int epfd)
{
	for (int i = 0; i < b->ncpus; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		if (b->rings[i].fd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, b->rings[i].fd, &ev))
			return -errno;
	}
	return 0;
}

/* A TASK record and a table slot for a task alive at start. */
static int task_snapshot(struct perf_backend *b, uint32_t tid, uint64_t now_ns)
{
	struct recorder *r = b->r;
	struct perf_proc_task pt;
	struct perf_task *t;

	if (perf_proc_task(r->host.cgroup_mount, tid, &pt))
		return 0;
	if (b->target_path) {
		const char *path = cgroups_path(r->cgroups, pt.cgroup_id);
		size_t n = strlen(b->target_path);

		if (!path || (strcmp(b->target_path, "/") && (strncmp(path, b->target_path, n) ||
							       (path[n] && path[n] != '/'))))
			return 0;
	}
	t = perf_pair_get(&b->pair, tid);
	if (!t) {
		b->not_fit++;
		return 0;
	}
	t->pid = pt.pid;
	t->start_ns = pt.start_ns;
	t->cgroup_id = pt.cgroup_id;
	t->described = true;
	memcpy(t->comm, pt.comm, SCT_COMM_LEN);
	t->comm_known = true;
	if (b->sampler)
		return 0;
	r->tasks++;
	return task_record(r, &pt, now_ns);
}

static int snapshot_one(void *ctx, uint32_t pid, uint32_t tid)
{
	struct perf_backend *b = ctx;

	(void)pid;
	return task_snapshot(b, tid, clock_now_ns());
}

static int perf_snapshot(struct perf_backend *b)
{
	int err = 0;

	if (!b->sampler)
		b->r->tasks = 0;
	if (b->r->mode != SCT_MODE_TARGETS)
		return perf_proc_walk(snapshot_one, b);
	for (size_t i = 0; !err && i < b->nopened; i++)
		err = task_snapshot(b, b->opened[i], clock_now_ns());
	return err;
}

/* TASK records of the traced tasks alive now, for a file after the first (rotation). */
static int perf_file_again(struct perf_backend *b)
{
	uint64_t now_ns = clock_now_ns();
	int err = 0;

	if (b->r->mode != SCT_MODE_TARGETS)
		return perf_proc_walk(snapshot_one, b);
	/* the tasks traced now: those of the start and every one followed since */
	for (size_t i = 0; !err && i < b->pair.nslots; i++) {
		const struct perf_task *t = &b->pair.slots[i];
		struct perf_proc_task pt;

		if (!t->tid || t->enter_ns == UINT64_MAX || perf_proc_task(b->r->host.cgroup_mount, t->tid, &pt))
			continue;
		err = task_record(b->r, &pt, now_ns);
	}
	return err;
}

/*
 * The first file's start also fills the table of tasks from the tasks alive at start; later
 * files start with the tasks traced then.
 */
static int perf_file_start(void *state)
{
	struct perf_backend *b = state;

	if (b->started)
		return perf_file_again(b);
	b->started = true;
	return perf_snapshot(b);
}

static int perf_start_report(void *state, uint64_t *not_fit, char *ready, size_t cap)
{
	struct perf_backend *b = state;

	*not_fit = b->not_fit;
	snprintf(ready, cap, "%s", b->r->sample_cgroup ? "perf, kernel cgroup ids" :
		 "perf, recorder cgroup ids");
	return 0;
}

/*
 * A task whose exit the recorder never sees would keep it waiting for good: its exit sample
 * was lost, or it was forked while its parent's events were being opened, inherited only
 * those already open, and exited on a CPU where it had none. Each call checks the next
 * PERF_SWEEP_MAX tasks of the table in /proc and drops the gone ones, so any number of
 * them goes within a bounded number of calls.
 */
static void perf_sweep(void *state)
{
	struct perf_backend *b = state;
	struct perf_pair *p = &b->pair;
	uint32_t gone[PERF_SWEEP_MAX];
	size_t n = 0, checked = 0;

	for (size_t k = 0; k < p->nslots && checked < PERF_SWEEP_MAX; k++) {
		const struct perf_task *t = &p->slots[b->sweep_at];

		b->sweep_at = (b->sweep_at + 1) & (p->nslots - 1);
		if (!t->tid || t->enter_ns == UINT64_MAX)
			continue;
		checked++;
		if (perf_proc_gone(t->tid, t->start_ns))
			gone[n++] = t->tid;
	}
	for (size_t i = 0; i < n; i++)
		perf_pair_drop(p, gone[i]);
}

static bool perf_tracing(void *state)
{
	struct perf_backend *b = state;

	return b->pair.used != b->gone;
}

/*
 * A snapshot (SIGUSR2), and the file a SIGHUP finishes (with its totals), hold every call made
 * before it was asked for: the horizon is waited out once, then the rings are read up to the
 * moment of asking.
 */
static int perf_snapshot_catch_up(struct perf_backend *b)
{
	const struct timespec slack = { 0, PERF_HORIZON_SLACK_NS };
	uint64_t asked_ns = clock_now_ns();
	int64_t n;

	nanosleep(&slack, NULL);
	n = perf_read(b, asked_ns);
	return n < 0 ? (int)n : 0;
}

static int perf_poll(void *state, int timeout_ms)
{
	struct perf_backend *b = state;
	struct epoll_event ev;
	int64_t n;

	if (epoll_wait(b->epoll_fd, &ev, 1, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	n = perf_read(b, clock_now_ns() - PERF_HORIZON_SLACK_NS);
	return n < 0 ? (int)n : 0;
}

/* The loss counts, then a snapshot or next file asked for waits until the calls before it are read. */
static int perf_backend_check(void *state, uint64_t now_ns)
{
	struct perf_backend *b = state;
	int err = perf_check(b, now_ns);

	if (!err && (record_snapshot || record_hup))
		err = perf_snapshot_catch_up(b);
	return err;
}

/* Calls still in flight at stop, written unfinished; then what could not be paired. */
static int perf_inflight(struct perf_backend *b)
{
	struct recorder *r = b->r;
	uint64_t now_ns = clock_now_ns();
	char text[160];
	int err = 0;

	for (size_t i = 0; !err && i < b->pair.nslots; i++) {
		const struct perf_task *t = &b->pair.slots[i];
		struct sct_syscall sc = { 0 };

		if (!t->tid || !t->enter_ns || t->enter_ns == UINT64_MAX ||
		    !filter_unfinished(&r->env->filter, t->nr, SCT_ABI_NATIVE,
				       now_ns > t->enter_ns ? now_ns - t->enter_ns : 0))
			continue;
		err = events_note_cgroup(r, t->cgroup_id, now_ns);
		if (err)
			break;
		sc.time_ns = t->enter_ns;
		sc.duration_ns = now_ns > t->enter_ns ? now_ns - t->enter_ns : 0;
		sc.cgroup_id = t->cgroup_id;
		sc.pid = t->pid;
		sc.tid = t->tid;
		sc.nr = t->nr;
		sc.abi = SCT_ABI_NATIVE;
		sc.unfinished = 1;
		if (r->env->args)
			syscall_args(r, t, &sc);
		err = sct_writer_append_syscall(r->writer, &sc);
	}
	if (!err && b->pair.orphan_exits) {
		snprintf(text, sizeof(text), "%llu syscall exit%s without %s enter (enter samples "
			 "lost): not recorded", (unsigned long long)b->pair.orphan_exits,
			 stats_plural(b->pair.orphan_exits), b->pair.orphan_exits == 1 ? "its" : "their");
		err = events_warning(r, SCT_WARN_OTHER, b->pair.orphan_exits, text);
	}
	return err;
}

/* Disable first, so that every record is in the rings and the in-flight set is final. */
static int perf_drain(void *state)
{
	struct perf_backend *b = state;
	int64_t n;
	int err;

	perf_fds_disable(&b->fds);
	n = perf_read(b, UINT64_MAX);
	if (n >= 0) {
		perf_rings_flush_lost(b->rings, b->ncpus);
		n = perf_read(b, UINT64_MAX);
	}
	err = n < 0 ? (int)n : perf_check(b, clock_now_ns());
	if (!err)
		err = perf_inflight(b);
	return b->r->err ? b->r->err : err;
}

/* What the backend holds; the session's objects (targets, cgroups, the files) are its own. */
static void perf_release(struct perf_backend *b)
{
	if (b->r->host.info.events == b->user.desc) {
		b->r->host.info.events = NULL;
		b->r->host.info.nevents = 0;
	}
	perf_user_free(&b->user);
	for (int i = 0; b->rings && i < b->ncpus; i++)
		perf_ring_unmap(&b->rings[i]);
	free(b->rings);
	perf_fds_close(&b->fds);
	perf_pair_free(&b->pair);
	if (b->epoll_fd >= 0)
		close(b->epoll_fd);
	if (b->cgroup_fd >= 0)
		close(b->cgroup_fd);
	free(b->opened);
	free(b);
}

static void perf_destroy(void *state)
{
	if (state)
		perf_release(state);
}

static int perf_new_report(struct recorder *r, const struct probes *p, void **state)
{
	struct perf_backend *b = calloc(1, sizeof(*b));

	(void)p;
	if (!b) {
		fprintf(stderr, "sct-record: out of memory\n");
		return -ENOMEM;
	}
	if (r->env->filter.path) {
		free(b);
		fprintf(stderr, "sct-record: -P needs the paths of the calls, which the perf backend does "
			"not read: use --backend bpf\n");
		return -EOPNOTSUPP;
	}
	/* --backend auto falling back: the options let it through */
	if (r->env->stack_parts & SCT_STACK_KERNEL) {
		free(b);
		fprintf(stderr, "sct-record: --stack=%s needs the bpf backend: perf records user stacks "
			"only\n", cli_stack_mode(r->env->stack_parts));
		return -EOPNOTSUPP;
	}
	b->r = r;
	b->epoll_fd = b->cgroup_fd = -1;
	*state = b;
	return 0;
}

/* Ready to record: the tracepoints read, the events open (the targets' or the CPUs'), polled. */
static int perf_backend_attach_report(void *state)
{
	struct perf_backend *b = state;
	int err = perf_prepare_report(b);

	if (err == -ENOMEM || err == -EINVAL)
		fprintf(stderr, "sct-record: perf backend: %s\n", strerror(-err));
	if (!err)
		err = perf_attach_report(b);
	if (!err) {
		b->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
		err = b->epoll_fd < 0 ? -errno : perf_epoll(b, b->epoll_fd);
		if (err)
			fprintf(stderr, "sct-record: cannot poll the perf events: %s\n", strerror(-err));
	}
	return err;
}

static int perf_require_report(const struct probes *p, unsigned mode)
{
	return probe_require_perf_report(p, mode);
}

const struct record_backend perf_backend = {
	.name = "perf",
	.samples = true,
	.require_report = perf_require_report,
	.new_report = perf_new_report,
	.attach_report = perf_backend_attach_report,
	.file_start = perf_file_start,
	.start_report = perf_start_report,
	.poll = perf_poll,
	.check = perf_backend_check,
	.sweep = perf_sweep,
	.tracing = perf_tracing,
	.drain = perf_drain,
	.destroy = perf_destroy,
};

struct perf_backend *perf_sampler_new_report(struct recorder *r, int *err)
{
	struct perf_backend *b = calloc(1, sizeof(*b));

	if (!b) {
		*err = -ENOMEM;
		return NULL;
	}
	b->r = r;
	b->epoll_fd = b->cgroup_fd = -1;
	b->sampler = true;
	*err = perf_prepare_report(b);
	if (!*err && r->mode == SCT_MODE_TARGETS)
		perf_hook(b);
	if (*err) {
		perf_sampler_free(b);
		return NULL;
	}
	return b;
}

int perf_sampler_start_report(struct perf_backend *b, int epfd)
{
	int err;

	if (!b)
		return 0;
	err = perf_attach_report(b);
	if (!err)
		err = perf_epoll(b, epfd);
	if (!err)
		err = perf_snapshot(b);
	return err;
}

int perf_sampler_read(struct perf_backend *b, uint64_t now_ns)
{
	int64_t n;

	if (!b)
		return 0;
	n = perf_read(b, now_ns - PERF_HORIZON_SLACK_NS);
	return n < 0 ? (int)n : perf_check(b, now_ns);
}

int perf_sampler_drain(struct perf_backend *b)
{
	return b ? perf_drain(b) : 0;
}

void perf_sampler_free(struct perf_backend *b)
{
	if (b)
		perf_release(b);
}
