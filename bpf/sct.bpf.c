// SPDX-License-Identifier: GPL-2.0
/*
 * sct's kernel half: pairs sys_enter/sys_exit per task, emits one event per completed
 * syscall and the task lifecycle (fork, exec, exit) of the traced tasks into one ring buffer.
 * Every program returns 0: a raw or BTF tracepoint program cannot veto an event for other
 * listeners, and none of these tries to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "sct_events.h"
#include "sct.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * -DSCT_FLOOR=1 empties the syscall programs: the benchmark's floor, what the tracepoint
 * dispatch alone costs. Never shipped.
 */
#ifndef SCT_FLOOR
#define SCT_FLOOR 0
#endif

/*
 * The syscall programs an object carries. The ordinary skeleton's object has every pair and
 * the recorder picks one at load (autoload). A light skeleton's loader loads, so the kernel
 * verifies, every program of its object: ~0.4 to 1.3 ms each here, so each light object
 * carries one pair (bpf/build.mk builds the plain and the --args one; neither needs the hash
 * pair, since in-kernel CO-RE came after task storage).
 */
#define SCT_PROGS_ALL 0
#define SCT_PROGS_PLAIN 1
#define SCT_PROGS_ARGS 2
#ifndef SCT_PROGS
#define SCT_PROGS SCT_PROGS_ALL
#endif
#define SCT_HAS_PLAIN (SCT_PROGS != SCT_PROGS_ARGS)
#define SCT_HAS_ARGS (SCT_PROGS != SCT_PROGS_PLAIN)
#define SCT_HAS_HASH (SCT_PROGS == SCT_PROGS_ALL)

/* Set by the recorder before load. */
const volatile __u32 self_tgid;
const volatile __u32 mode = SCT_MODE_TARGETS;
const volatile __u64 target_cgroup;
const volatile __u32 target_level;
const volatile __u64 wakeup_bytes = 1 << 20;
/*
 * No task storage for tracing programs (before Linux 5.12): the in-flight syscalls live in
 * inflight_hash, keyed by tid, and the recorder attaches the *_hash variants of sys_enter and
 * sys_exit. The task storage programs stay free of this switch: they are the hot path.
 */
const volatile bool inflight_in_hash;
/*
 * SYSCALL events are staged per CPU and reach the ring buffer up to SCT_STAGE_LEN slots at a
 * time (sct_ev_run, sct_ev_call): its lock, its producer and consumer lines and the wakeup
 * check are paid once per batch. Off where the recorder cannot run stage_flush_cpu on a chosen
 * CPU (BPF_F_TEST_RUN_ON_CPU, 5.10): a CPU gone idle would keep its staged events.
 */
const volatile bool staged = true;
/*
 * A stage goes to the ring buffer when the next call does not fit it, or with the first call
 * staged this long after its oldest: a CPU that keeps making syscalls delivers them in time
 * by itself, and the recorder interrupts only a CPU whose stage_marks entry is this old (it
 * went idle).
 */
const volatile __u64 stage_age_ns = 100000000;
/*
 * sys_enter knows the slot's owner by its pt_regs and casts the task address the slot keeps
 * (bpf_rdonly_cast(), Linux 6.2, which the verifier inlines) instead of asking the helper,
 * ~17 ns a call here. Weak: a kernel without it loads the programs with this off.
 */
const volatile bool task_cast;
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;
/*
 * --args: the recorder attaches sys_enter_args/sys_exit_args instead of sys_enter/sys_exit,
 * which never look at these; args_max bytes of a path are kept.
 */
const volatile bool args_on;
const volatile __u32 args_max = 256;
/* --args: capture_args holds a compat syscall's value at compat_path_base + its number. */
const volatile __u32 compat_path_base;
/*
 * --args writes a session with captures (format 1.7): an exit or exit_group, which never
 * returns, gets its event at its entry (SCT_EV_NORETURN).
 */
const volatile bool captures_on;
/* --args-data: bytes of a call's data kept, 0 none (no syscall's capture_args asks for them) */
const volatile __u32 args_data;

/*
 * Filters and totals (sct-record(8), "Filters and totals"). Off in an unfiltered recording,
 * where the verifier drops every branch they guard: that path pays nothing for them.
 * totals_on: every call of the targets is counted in totals. A call gets a
 * SYSCALL event when it passes the filters known at sys_enter (syscall_set, filter_comms:
 * sct_inflight's detail) and those known at sys_exit (result, duration, path).
 */
const volatile bool totals_on;
/* totals_cache's slots per CPU: 2^totals_cache_bits (SCT_TOT_CACHE_BITS_MAX at most) */
const volatile __u32 totals_cache_bits;
const volatile bool details_off;       /* --summary-only */
const volatile bool filter_syscalls;   /* -S: syscall_set */
const volatile __u32 syscall_compat_base; /* syscall_set holds compat numbers from here */
const volatile bool filter_failed;     /* --failed */
const volatile bool filter_errnos;     /* --errno: errno_set */
const volatile __u64 filter_min_ns;    /* --min-duration */
const volatile __u32 filter_ncomms;    /* -c: the first filter_ncomms of filter_comms */
/* read as two __u64 each: aligned for them */
const volatile char filter_comms[8][SCT_COMM_LEN] __attribute__((aligned(8)));
const volatile __u32 filter_path_len;  /* -P: filter_path's bytes, 0 if none */
const volatile char filter_path[256];
/*
 * exit and exit_group by ABI (native, compat), ~0 where there is none: they never reach
 * sys_exit, so totals_on counts them at sys_enter, and captures_on writes them there.
 */
const volatile __u32 noreturn_nr[2][2];

/*
 * --stack: which stacks a call recorded in detail gets (SCT_STACK_USER, SCT_STACK_KERNEL), 0
 * none: the verifier then removes the capture from every program. stack_depth: return
 * addresses per part, at most SCT_STACK_DEPTH_MAX.
 */
const volatile __u32 stack_parts;
const volatile __u32 stack_depth = 64;

/* Set by the recorder between iterator runs. */
__u32 iter_mode;
/*
 * Set by the recorder once the first TASK snapshot is written. Until then any traced task may
 * make calls that no record describes yet (the snapshot comes after the attach, and the task
 * may be gone by then); from then on only -G's cgroup takes tasks in otherwise than by fork.
 */
bool snapshot_done;
/*
 * Entries in the targets map, so the recorder sees "every target exited" without walking the
 * map's buckets. Changed only beside a successful insert or delete: by targets_add(),
 * targets_del() and targets_move() here, and by their namesakes in record/host/targets.c.
 */
__u64 ntargets;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);   /* tid */
	__type(value, __u8);
	__uint(max_entries, 1); /* resized before load from --max-tasks */
} targets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sct_inflight);
} inflight SEC(".maps");

/*
 * The call in flight of the task running on each CPU, for as long as it stays there: the
 * plain sys_enter and sys_exit find it with an inlined array lookup and decide whether the
 * task is traced once per stay, where a task storage lookup on each side cost ~40 ns a call.
 * sched_switch parks a call still in flight in the task's storage (inflight) when its task
 * leaves the CPU, so the slot only ever holds the running task's. The three programs run
 * with preemption off (the tracepoints' own guard), and never in interrupts: on one CPU
 * they never interleave.
 * The CPU's stage of SYSCALL events is in the same value, so sys_exit pays one lookup for
 * both (a second one measured ~5 ns a call).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sct_cpu_slot);
	__uint(max_entries, 1);
} cpu_calls SEC(".maps");

/*
 * --args: cpu_calls with the arguments and paths of the call (sys_enter_args, sys_exit_args),
 * and the CPU's stage of argument events.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sct_cpu_slot_args);
	__uint(max_entries, 1);
} cpu_calls_args SEC(".maps");

/* The fallback of inflight: not created where task storage is used. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);   /* tid */
	__type(value, struct sct_inflight);
	__uint(max_entries, 1); /* resized before load from --max-tasks */
} inflight_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20); /* resized before load from --ringbuf-size */
} events SEC(".maps");

/*
 * --stack: each CPU's stack event, built here and output cut after its frames: most stacks
 * are a few frames of the 2 KiB a reserve of the largest would take from the ring buffer.
 * The syscall programs never interleave on a CPU (cpu_calls), so one is enough.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sct_ev_stack);
	__uint(max_entries, 1);
} stack_scratch SEC(".maps");

/*
 * --stack: the processes whose first stack since their exec has gone out. That one wakes the
 * recorder at once, so that it reads the process's mappings while the process lives: a short
 * command is gone by the next batched wakeup. Without --stack it is never used.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);   /* tgid */
	__type(value, __u8);
	__uint(max_entries, 1); /* resized before load from --max-tasks */
} stack_pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sct_stats);
	__uint(max_entries, 1);
} stats SEC(".maps");

/* Each CPU's stage as the recorder sees it (struct sct_stage_mark), by CPU number. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct sct_stage_mark);
	__uint(max_entries, 1); /* resized before load: the possible CPUs */
} stage_marks SEC(".maps");

/*
 * 1 once the task is described in the trace, by a TASK record (the iterator's, or
 * task_event()'s) or its FORK, while describing() holds. A traced task without it gets an
 * event at its first claim of a CPU slot: once per task, off the per-call path. With
 * inflight_hash instead of task storage, sct_inflight's described holds the flag.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} described SEC(".maps");

/*
 * With task storage, while describing(): tid -> start time of each child whose FORK is
 * recorded, until its first claim finds it here. The fork program cannot make the child's
 * storage itself: a raw tracepoint gives it no trusted pointer to the child.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);   /* tid */
	__type(value, __u64); /* start time */
	__uint(max_entries, 1); /* resized before load from --max-tasks */
} forked SEC(".maps");

/* --args: the in-flight syscall with its arguments; the hot path of --args only. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sct_inflight_args);
} inflight_args SEC(".maps");

/*
 * --args: syscall number -> its path arguments and the memory others point to (struct
 * sct_capture_args), from the kernel's syscall descriptions, filled by the recorder before
 * attach; compat numbers from compat_path_base. One lookup a call says all it reads.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct sct_capture_args);
	__uint(max_entries, 1); /* resized before load to the syscall table */
} capture_args SEC(".maps");

/* envc_count()'s chunks of pointers: 64 bytes, which an aligned chunk never takes across a page */
#define ENVP_PER_CHUNK 8
#define ENVP_CHUNKS (SCT_ENVC_MAX / ENVP_PER_CHUNK + 1)

/*
 * --args: each CPU's exec arguments as they are read, before they go to their event: a string
 * is read at a variable offset with as many bytes as the offset leaves, which the verifier
 * bounds only by both maxima. The offset lives here, not in a register: the verifier knows
 * nothing of a value loaded from a map, so each turn of the loop looks the same to it, where
 * one tracked exactly through 33 turns (a small --args-max) made too many states to verify.
 */
struct argv_scratch {
	__u32 used;
	__u32 envc;                 /* envc_count()'s count so far */
	__u64 envp[ENVP_PER_CHUNK]; /* envc_count()'s chunk of exec's environment */
	char buf[2 * SCT_ARGV_ROOM];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct argv_scratch);
	__uint(max_entries, 1);
} argv_scratch SEC(".maps");

/* -S: syscall number (compat ones from syscall_compat_base) -> 1 if selected. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1); /* resized before load to the syscall tables */
} syscall_set SEC(".maps");

/* --errno: error number -> 1 if selected. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 4096);
} errno_set SEC(".maps");

/*
 * Preallocated: a lookup measured ~70 ns less a call than in the same map allocated as keys
 * come (BPF_F_NO_PREALLOC). Its values, one per possible CPU for each entry, are memory paid
 * at load: the recorder sizes it to the CPUs (record.h).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct sct_tot_bucket_key);
	__type(value, struct sct_tot_value);
	__uint(max_entries, 1); /* resized before load */
} totals SEC(".maps");

/*
 * In front of totals: 2^totals_cache_bits slots per CPU, CPU-major, one key each, taken for
 * good by the first key to hash to a free one (the recorder frees a dead process's). A call
 * counted in its slot costs an array lookup the verifier inlines and four compares; through
 * the hash map it cost ~60 ns more here (its key hashed, the bucket walked, the per-CPU value
 * found), and more as the buckets spread. Mapped by the recorder, which reads it in place.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct sct_tot_slot);
	__uint(max_entries, 1); /* resized before load: the possible CPUs << totals_cache_bits */
} totals_cache SEC(".maps");

static __always_inline void stat_add(__u64 *counter)
{
	/*
	 * Programs on one CPU can nest (a tracepoint hit inside another program's helper, the
	 * stage flush run from an interrupt): a plain increment of this per-CPU slot could lose
	 * counts.
	 */
	__sync_fetch_and_add(counter, 1);
}

static __always_inline struct sct_stats *stats_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&stats, &zero);
}

static __always_inline void stat_ringbuf_full(void)
{
	struct sct_stats *s = stats_get();

	if (s)
		stat_add(&s->ringbuf_full);
}

/* Returns whether tid was the last target. */
static __always_inline bool targets_del(__u32 tid)
{
	if (bpf_map_delete_elem(&targets, &tid))
		return false;
	return __sync_fetch_and_sub(&ntargets, 1) == 1;
}

/* Insert tid; a failure other than -EEXIST (already traced, nothing lost) is counted. */
static __always_inline long targets_insert(__u32 tid)
{
	__u8 one = 1;
	struct sct_stats *s;
	long err = bpf_map_update_elem(&targets, &tid, &one, BPF_NOEXIST);

	if (!err || err == -EEXIST)
		return err;
	s = stats_get();
	if (s)
		stat_add(&s->targets_full);
	return err;
}

static __always_inline void targets_add(__u32 tid)
{
	if (!targets_insert(tid))
		__sync_fetch_and_add(&ntargets, 1);
}

/*
 * Rekey a target. Delete first: a full map keeps the task. The count never passes through
 * 0 on the way, or the recorder, which stops when it reads 0, could stop in between.
 */
static __always_inline void targets_move(__u32 old_tid, __u32 tid)
{
	if (bpf_map_delete_elem(&targets, &old_tid))
		targets_add(tid);
	else if (targets_insert(tid))
		__sync_fetch_and_sub(&ntargets, 1);
}

/* Is the current task traced? pid_tgid as bpf_get_current_pid_tgid() returns it. */
static __always_inline bool current_traced(__u64 pid_tgid)
{
	__u32 tid = (__u32)pid_tgid;

	/* The recorder never enters the targets map, so that mode needs no self check. */
	if (mode == SCT_MODE_TARGETS)
		return bpf_map_lookup_elem(&targets, &tid) != NULL;
	if ((pid_tgid >> 32) == self_tgid)
		return false;
	if (mode == SCT_MODE_CGROUP)
		return bpf_get_current_ancestor_cgroup_id(target_level) == target_cgroup;
	return true;
}

/* Output without waking the consumer, unless the buffer is filling up or wake is set. */
static __always_inline __u64 wakeup_flags(bool wake)
{
	if (wake || bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline void event_submit_wake(void *e, bool wake)
{
	bpf_ringbuf_submit(e, wakeup_flags(wake));
}

static __always_inline void event_submit(void *e)
{
	event_submit_wake(e, false);
}

static __always_inline void stat_inflight_full(void)
{
	struct sct_stats *s = stats_get();

	if (s)
		stat_add(&s->inflight_full);
}

/*
 * Can a traced task be without a record that describes it? Under -G, always: a task moved into
 * the cgroup has none. Elsewhere, until the first TASK snapshot: then one load a claim.
 */
static __always_inline bool describing(void)
{
	return mode == SCT_MODE_CGROUP || !*(volatile bool *)&snapshot_done;
}

/*
 * The TASK event of task (current, in cgroup_id); false if the ring buffer had no room
 * (counted). Read through CO-RE: the hash fallback's task has no BTF.
 */
static __always_inline bool task_event(struct task_struct *task, __u64 cgroup_id)
{
	struct sct_ev_task *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		stat_ringbuf_full();
		return false;
	}
	e->type = SCT_EV_TASK;
	e->pad = 0;
	e->pid = BPF_CORE_READ(task, tgid);
	e->tid = BPF_CORE_READ(task, pid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->time_ns = bpf_ktime_get_ns();
	e->start_ns = BPF_CORE_READ(task, start_time);
	e->cgroup_id = cgroup_id;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	event_submit(e);
	return true;
}

/* Is tid, started at start_ns, a child whose FORK is recorded? It is forgotten either way. */
static __always_inline bool forked_take(__u32 tid, __u64 start_ns)
{
	__u64 *start = bpf_map_lookup_elem(&forked, &tid);
	bool hit;

	if (!start)
		return false;
	hit = *start == start_ns;
	bpf_map_delete_elem(&forked, &tid);
	return hit;
}

/*
 * task (current, traced, in cgroup_id) described in the trace, by an event now if nothing
 * described it yet. The flag is taken with an atomic exchange: the iterator may mark the same
 * task on another CPU. A failed event clears it, for the next claim to try again.
 */
static __always_inline void task_describe(struct task_struct *task, __u64 cgroup_id)
{
	__u32 *d;

	if (!describing())
		return;
	d = bpf_task_storage_get(&described, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (d && (*d || __sync_val_compare_and_swap(d, 0, 1)))
		return;
	if (forked_take(task->pid, task->start_time))
		return;
	if (!task_event(task, cgroup_id) && d)
		*d = 0;
}

/* task_describe() for the hash fallback: the flag is in the task's slot, in. */
static __always_inline void task_describe_hash(struct sct_inflight *in, struct task_struct *task)
{
	if (!describing() || in->described)
		return;
	in->described = 1;
	if (!task_event(task, bpf_get_current_cgroup_id()))
		in->described = 0;
}

/*
 * The in-flight slot where the slots live in inflight_hash. sched_exit deletes them, but a
 * delete can fail (the map's per-CPU bucket lock busy): a slot can outlive its task and meet
 * a new task with the same tid, so every call checks that the task is traced.
 */
static __always_inline struct sct_inflight *inflight_hash_get(__u64 pid_tgid)
{
	static const struct sct_inflight empty;
	__u32 tid = (__u32)pid_tgid;
	struct sct_inflight *in;

	if (!current_traced(pid_tgid))
		return NULL;
	in = bpf_map_lookup_elem(&inflight_hash, &tid);
	if (in)
		return in;
	/* Only this task inserts its own tid: a failure means the map is full. */
	if (!bpf_map_update_elem(&inflight_hash, &tid, &empty, BPF_NOEXIST))
		in = bpf_map_lookup_elem(&inflight_hash, &tid);
	if (!in)
		stat_inflight_full();
	return in;
}

static __always_inline void inflight_start(struct sct_inflight *in, long id, __u8 abi)
{
	in->nr = id;
	in->abi = abi;
	in->active = 1;
	in->enter_ns = bpf_ktime_get_ns();
}

/* The identity of a finished call: who made it, in which cgroup, with what result. */
struct call_end {
	__u32 pid, tid;
	long ret;
	__u64 cgroup_id;
};

static __always_inline void syscall_fill(struct sct_ev_syscall *e, struct sct_inflight *in,
					 const struct call_end *c, __u64 now)
{
	e->type = SCT_EV_SYSCALL;
	e->abi = in->abi;
	e->unfinished = 0;
	e->nr = in->nr;
	e->pid = c->pid;
	e->tid = c->tid;
	e->enter_ns = in->enter_ns;
	e->duration_ns = now - in->enter_ns;
	e->cgroup_id = c->cgroup_id;
	e->ret = c->ret;
}

/*
 * -c: is the current task's name one of filter_comms? Compared as two __u64 each, so the
 * bytes after the name's NUL must be zero as filter_comms has them: the 6.1 kernel's
 * bpf_get_current_comm() leaves them as the stack held them (later kernels pad them).
 */
static __always_inline bool filter_comm_match(void)
{
	char comm[SCT_COMM_LEN] = {};
	__u64 *a = (__u64 *)comm;

	bpf_get_current_comm(comm, sizeof(comm));
	for (__u32 i = 0; i < 8; i++) {
		const volatile __u64 *b = (const volatile __u64 *)filter_comms[i];

		if (i >= filter_ncomms)
			break;
		if (a[0] == b[0] && a[1] == b[1])
			return true;
	}
	return false;
}

/* The filters known at sys_enter: may the call id (compat: an ia32 one) get a SYSCALL event? */
static __always_inline __u8 filter_enter(long id, __u8 compat)
{
	__u32 nr = id;
	__u8 *sel;

	if (details_off)
		return 0;
	if (filter_syscalls) {
		if (compat)
			nr += syscall_compat_base;
		sel = bpf_map_lookup_elem(&syscall_set, &nr);
		if (!sel || !*sel)
			return 0;
	}
	return !filter_ncomms || filter_comm_match();
}

/* The filters known at sys_exit, on the call's result and duration. */
static __always_inline bool filter_exit(long ret, __u64 duration)
{
	bool failed = ret < 0 && ret >= -4095;
	__u32 e = -ret;
	__u8 *sel;

	if (filter_failed && !failed)
		return false;
	if (filter_errnos) {
		if (!failed)
			return false;
		sel = bpf_map_lookup_elem(&errno_set, &e);
		if (!sel || !*sel)
			return false;
	}
	return duration >= filter_min_ns;
}

/* Duration d's bucket: exact below 2^(s+1), then 2^s buckets per power of two (s = 9). */
static __always_inline __u32 hist_bucket(__u64 d)
{
	__u64 v = d;
	__u32 e = 0;

	if (d < (2u << SCT_TOT_HIST_BITS))
		return d;
	/* e = floor(log2(d)), without a loop or a count-leading-zeros BPF does not have */
	if (v >> 32) { v >>= 32; e += 32; }
	if (v >> 16) { v >>= 16; e += 16; }
	if (v >> 8) { v >>= 8; e += 8; }
	if (v >> 4) { v >>= 4; e += 4; }
	if (v >> 2) { v >>= 2; e += 2; }
	if (v >> 1)
		e += 1;
	return (e - SCT_TOT_HIST_BITS) * (1u << SCT_TOT_HIST_BITS) + (__u32)(d >> (e - SCT_TOT_HIST_BITS));
}

/*
 * k's counts in this CPU's totals_cache: its slot, taken if free, or NULL (another key's: the
 * hash map's turn). x86 only: a taking is the key's words stored in order, the one with the
 * pid last, and the recorder relies on seeing them in that order, which x86 gives and BPF,
 * without a barrier before Linux 5.12, cannot ask of a weaker CPU.
 */
static __always_inline struct sct_tot_value *totals_slot(const struct sct_tot_bucket_key *k)
{
#ifdef __TARGET_ARCH_x86
	const __u64 *w = (const __u64 *)k;
	__u64 h = (w[0] ^ w[1] * 0x9e3779b97f4a7c15ull ^ (w[2] << 40) ^ (w[3] << 20)) * 0xc2b2ae3d27d4eb4full;
	__u32 idx = bpf_get_smp_processor_id() << totals_cache_bits | (h >> 32 & ((1u << totals_cache_bits) - 1));
	struct sct_tot_slot *s = bpf_map_lookup_elem(&totals_cache, &idx);
	volatile __u64 *sw;

	if (!s)
		return NULL;
	sw = (volatile __u64 *)&s->key;
	if (sw[0] == w[0] && sw[1] == w[1] && sw[2] == w[2] && sw[3] == w[3])
		return &s->v;
	if (sw[0])
		return NULL;
	sw[1] = w[1];
	sw[2] = w[2];
	sw[3] = w[3];
	sw[0] = w[0];
	return &s->v;
#else
	return NULL;
#endif
}

static __always_inline void stat_totals_full(void)
{
	struct sct_stats *s = stats_get();

	if (s)
		stat_add(&s->totals_full);
}

/*
 * The call in in (pid, cgroup of c) counted, ended after duration ns with c->ret; a full map
 * counts it as not counted. Another program on this CPU cannot come between the lookup and
 * the increments (sys_exit does not nest with itself), so plain ones are safe on the CPU's
 * slot or per-CPU value.
 */
static __always_inline void totals_add(const struct sct_inflight *in, const struct call_end *c,
				       __u64 duration)
{
	static const struct sct_tot_value zero;
	struct sct_tot_bucket_key k = {};
	struct sct_tot_value *t;
	long err;

	k.k.pid = c->pid;
	k.k.nr = in->nr;
	k.k.cgroup_id = c->cgroup_id;
	k.k.abi = in->abi;
	k.bucket = hist_bucket(duration);
	t = totals_slot(&k);
	if (!t)
		t = bpf_map_lookup_elem(&totals, &k);
	if (!t) {
		err = bpf_map_update_elem(&totals, &k, &zero, BPF_NOEXIST);
		if (!err || err == -EEXIST)
			t = bpf_map_lookup_elem(&totals, &k);
		if (!t) {
			stat_totals_full();
			return;
		}
	}
	t->calls++;
	t->errors += c->ret < 0 && c->ret >= -4095;
	t->duration_ns += duration;
	if (duration > t->max_ns)
		t->max_ns = duration;
}

/*
 * Under totals_on, at sys_enter: an exit or exit_group is counted now, with no error and no
 * duration, and given up, so that one made to return (by a seccomp filter) is not counted
 * again at sys_exit. sys_enter does not nest with sys_exit on a CPU either.
 */
static __always_inline bool call_noreturn(const struct sct_inflight *in)
{
	const volatile __u32 *n = noreturn_nr[in->abi & 1];

	return in->nr == n[0] || in->nr == n[1];
}

static __always_inline void totals_enter(struct sct_inflight *in, __u32 pid, __u64 cgroup_id)
{
	struct call_end c = { pid, 0, 0, cgroup_id };

	totals_add(in, &c, 0);
	in->active = 0;
}

/*
 * Under totals_on: the call in in, ended as c says at now, counted; returns whether it gets
 * a SYSCALL event (it passed the filters of sys_enter, and passes those of sys_exit).
 */
static __always_inline bool totals_keep(const struct sct_inflight *in, const struct call_end *c, __u64 now)
{
	__u64 duration = now - in->enter_ns;

	totals_add(in, c, duration);
	return in->detail && filter_exit(c->ret, duration);
}

/*
 * stage (the CPU's, in its cpu_calls or cpu_calls_args value), taken, or NULL. Callers test
 * the value for NULL in a branch of their own: the 6.1 verifier refuses what clang makes of
 * `value ? &value->stage : NULL` (arithmetic on a pointer that may be NULL). Only programs on
 * this CPU touch the stage, and they never preempt one another (cpu_calls); one can interrupt
 * another (the flush, run from an interrupt), but then ends before the one it interrupted goes
 * on. So a flag tested then set, with no atomic instruction, gives the stage to one program at
 * a time: an interrupt between the test and the set finds the flag clear and leaves the stage
 * as it found it, given back.
 */
static __always_inline void *stage_take(void *stage)
{
	struct sct_stage *st = stage;

	if (st->busy)
		return NULL;
	st->busy = 1;
	/* every access of the stage after the flag is set */
	asm volatile("" ::: "memory");
	return st;
}

/* Every later access of the stage is on this CPU: a compiler barrier orders the release. */
static __always_inline void stage_give(void *stage)
{
	struct sct_stage *st = stage;

	asm volatile("" ::: "memory");
	st->busy = 0;
}

/*
 * This CPU's stage_marks entry: since, when its stage takes its first event, or 0, when the
 * stage is flushed. Once per batch, not per event.
 */
static __always_inline void stage_mark(__u64 since)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct sct_stage_mark *m = bpf_map_lookup_elem(&stage_marks, &cpu);

	if (m)
		m->since_ns = since;
}

/* The first slot of an empty stage, staged at now, sets its time. */
static __always_inline void stage_start(__u64 *since, __u64 now)
{
	*since = now;
	stage_mark(now);
}

/* The staged slots to the ring buffer, as one record; the stage is taken. */
static __always_inline void stage_flush(struct sct_stage *st)
{
	__u32 n, calls, size;
	struct sct_stats *s;

	stage_mark(0);
	/*
	 * Read after the call above, and bounded before the next: a copy of n spilled across a
	 * call before its test is one the verifier of Linux 6.1 does not bound.
	 */
	n = st->n;
	calls = st->calls;
	if (!n || n > SCT_STAGE_LEN)
		return;
	size = n * sizeof(st->slot[0]);
	st->n = 0;
	st->calls = 0;
	if (!bpf_ringbuf_output(&events, st->slot, size, wakeup_flags(false)))
		return;
	s = stats_get();
	if (s)
		__sync_fetch_and_add(&s->ringbuf_full, calls);
}

static __always_inline void stat_stage_busy(void)
{
	struct sct_stats *s = stats_get();

	if (s)
		stat_add(&s->stage_busy);
}

/* One event straight into the ring buffer. */
static __always_inline void syscall_output(struct sct_inflight *in, const struct call_end *c, __u64 now)
{
	struct sct_ev_syscall *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		stat_ringbuf_full();
		return;
	}
	syscall_fill(e, in, c, now);
	event_submit(e);
}

/*
 * st flushed if it has no room for a call (two slots: a RUN slot may go first), if its oldest
 * slot is stage_age_ns old at now, or if the call does not fit a CALL slot (!fits: it goes out
 * alone, after the staged ones). One flush per path through the program, before the call is
 * staged, as the --args stage does.
 */
static __always_inline void stage_room(struct sct_stage *st, bool fits, __u64 now)
{
	__u32 n = st->n;

	if (!fits || n > SCT_STAGE_LEN - 2 || (n && now - st->since_ns >= stage_age_ns))
		stage_flush(st);
}

/*
 * The call in in, which ended as c says duration ns after it began, into st's slots: a RUN
 * slot first where the stage is empty or its last run is of another task or cgroup.
 */
static __always_inline void stage_call(struct sct_stage *st, struct sct_inflight *in, const struct call_end *c,
				       __u64 duration, __u64 now)
{
	struct sct_ev_call *call;
	__u32 n = st->n;

	if (n > SCT_STAGE_LEN - 2)
		return;
	if (!n || st->run_tid != c->tid || st->run_cgroup_id != c->cgroup_id) {
		if (!n)
			stage_start(&st->since_ns, now);
		st->slot[n].run = (struct sct_ev_run){ .type = SCT_EV_RUN, .pid = c->pid, .tid = c->tid,
						       .cgroup_id = c->cgroup_id };
		st->run_tid = c->tid;
		st->run_cgroup_id = c->cgroup_id;
		n++;
	}
	call = &st->slot[n].call;
	call->type = SCT_EV_CALL;
	call->abi = in->abi;
	call->nr = in->nr;
	call->duration_ns = duration;
	call->enter_ns = in->enter_ns;
	call->ret = c->ret;
	st->n = n + 1;
	st->calls++;
}

/*
 * The SYSCALL event of the call in in, which has just ended as c says at now: staged in
 * slot's stage (slot: the CPU's cpu_calls value), or direct.
 */
static __always_inline void syscall_submit(struct sct_inflight *in, const struct call_end *c,
					   struct sct_cpu_slot *slot, __u64 now)
{
	__u64 duration = now - in->enter_ns;
	struct sct_stage *st;
	bool fits;

	in->active = 0;
	st = staged ? stage_take(&slot->stage) : NULL;
	if (st) {
		fits = in->nr <= 0xffff && duration <= 0xffffffff;
		stage_room(st, fits, now);
		if (fits)
			stage_call(st, in, c, duration, now);
		stage_give(st);
		if (fits)
			return;
	} else if (staged) {
		stat_stage_busy();
	}
	syscall_output(in, c, now);
}

/* Bytes of a bpf_get_stack() result n, whole frames, at most a part's room. */
static __always_inline __u32 stack_bytes(long n)
{
	__u32 b = n > 0 ? (__u32)n : 0;

	if (b > SCT_STACK_DEPTH_MAX * 8)
		b = SCT_STACK_DEPTH_MAX * 8;
	return b & ~7u;
}

/*
 * --stack: the current task's stacks (kernel, then user) as the event of the call of c that
 * began at enter_ns, into the ring buffer ahead of its SYSCALL event. A stack that cannot be
 * taken is output empty, a full ring buffer counts the call's stack lost with the call: its
 * SYSCALL then has no stack.
 */
static __always_inline void stack_output(void *ctx, const struct call_end *c, __u64 enter_ns)
{
	__u32 zero = 0, kb = 0, ub = 0, room = stack_depth * 8, size;
	struct sct_ev_stack *e = bpf_map_lookup_elem(&stack_scratch, &zero);
	__u8 one = 1;
	bool first;

	if (!e)
		return;
	if (room > SCT_STACK_DEPTH_MAX * 8)
		room = SCT_STACK_DEPTH_MAX * 8;
	if (stack_parts & SCT_STACK_KERNEL)
		kb = stack_bytes(bpf_get_stack(ctx, e->ips, room, 0));
	if (stack_parts & SCT_STACK_USER)
		ub = stack_bytes(bpf_get_stack(ctx, (__u8 *)e->ips + kb, room, BPF_F_USER_STACK));
	e->type = SCT_EV_STACK;
	e->kernel_n = kb / 8;
	e->user_n = ub / 8;
	e->pid = c->pid;
	e->tid = c->tid;
	e->enter_ns = enter_ns;
	size = offsetof(struct sct_ev_stack, ips) + kb + ub;
	barrier_var(size);
	if (size > sizeof(*e))
		size = sizeof(*e);
	/*
	 * A lookup first, without the bucket lock an update takes; a full map wakes no one: the
	 * process's mappings are read at the next batch.
	 */
	first = ub && !bpf_map_lookup_elem(&stack_pids, &c->pid) &&
		!bpf_map_update_elem(&stack_pids, &c->pid, &one, BPF_NOEXIST);
	if (bpf_ringbuf_output(&events, e, size, wakeup_flags(first)))
		stat_ringbuf_full();
}

static __always_inline struct sct_cpu_slot *cpu_slot_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_calls, &zero);
}

static __always_inline struct sct_cpu_call *cpu_call_get(void)
{
	struct sct_cpu_slot *slot = cpu_slot_get();

	return slot ? &slot->call : NULL;
}

static __always_inline struct sct_cpu_slot_args *cpu_slot_args_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_calls_args, &zero);
}

static __always_inline struct sct_cpu_call_args *cpu_call_args_get(void)
{
	struct sct_cpu_slot_args *slot = cpu_slot_args_get();

	return slot ? &slot->call : NULL;
}

/*
 * Tasks moved from one cgroup to another since load, counted by cgroup_attach below. A slot
 * keeps the count under which it read its task's cgroup id: while the count holds, so does
 * the id, and checking costs one load where the walk to the id costs four. (Comparing the
 * task's css_set pointer would be as cheap at run time, but each load of a pointer from a
 * task costs the verifier linear searches of the kernel's BTF: ~0.7 ms of load per program.)
 */
__u64 cgroup_moves;

static __always_inline __u64 cgroup_moves_read(void)
{
	return *(volatile __u64 *)&cgroup_moves;
}

/*
 * The slot taken by task, at its first syscall on this CPU since it was switched in, or since
 * a task moved between cgroups in cgroup mode (it may have been this one, out of the cgroup).
 */
static __always_inline void cpu_owner_claim(struct sct_cpu_owner *o, struct task_struct *task,
					    struct pt_regs *regs)
{
	o->task = (__u64)task;
	o->regs = (__u64)regs;
	/* the count first: a move in between then shows at sys_exit as a new count */
	o->moves = cgroup_moves_read();
	o->traced = current_traced(bpf_get_current_pid_tgid());
	if (!o->traced)
		return;
	o->pid = task->tgid;
	o->tid = task->pid;
	o->cgroup_id = bpf_get_current_cgroup_id();
	task_describe(task, o->cgroup_id);
}

/*
 * Is the slot's owner not the task entering a syscall with regs, or must its verdict be taken
 * again (cgroup mode)?
 */
static __always_inline bool cpu_owner_stale(const struct sct_cpu_owner *o, struct pt_regs *regs)
{
	return o->regs != (__u64)regs || (mode == SCT_MODE_CGROUP && o->moves != cgroup_moves_read());
}

/*
 * current, entering a syscall with regs; the slot (whose call in flight is in) is claimed
 * for it, and the call given up, when it is stale.
 */
static __always_inline struct task_struct *cpu_owner_current(struct sct_cpu_owner *o,
							      struct sct_inflight *in,
							      struct pt_regs *regs)
{
	struct task_struct *task;

	if (task_cast && !cpu_owner_stale(o, regs))
		return bpf_rdonly_cast((void *)o->task, bpf_core_type_id_kernel(struct task_struct));
	task = bpf_get_current_task_btf();
	if (cpu_owner_stale(o, regs)) {
		in->active = 0;
		cpu_owner_claim(o, task, regs);
	}
	return task;
}

/* The cgroup id of the slot's task at its sys_exit: read again only after a move. */
static __always_inline __u64 cpu_owner_cgroup(struct sct_cpu_owner *o)
{
	__u64 moves = cgroup_moves_read();

	if (o->moves != moves) {
		/* in cgroup mode the count also dates the verdict: the next sys_enter takes both */
		if (mode != SCT_MODE_CGROUP)
			o->moves = moves;
		o->cgroup_id = bpf_get_current_cgroup_id();
	}
	return o->cgroup_id;
}

/*
 * A non-leader's exec gives it its leader's tid, which its call to execve returns with: the
 * CPU's slots, where sys_exit takes the tid from, follow. An owner still set is current: every
 * switch clears it.
 */
static __always_inline void cpu_owners_retid(__u32 tid)
{
	struct sct_cpu_call_args *s = cpu_call_args_get();
	struct sct_cpu_call *c = cpu_call_get();

	if (c && c->o.task)
		c->o.tid = tid;
	if (s && s->o.task)
		s->o.tid = tid;
}

/*
 * raw_tp, not tp_btf: regs is only compared and kept, never read, and the task comes from
 * bpf_get_current_task_btf(), so nothing needs the tracepoint's BTF arguments, and the load
 * is spared a tp_btf program's two linear searches of the kernel's BTF (~0.3 ms each here).
 * The --args pair reads the registers, and stays tp_btf.
 */
#if SCT_HAS_PLAIN
SEC("raw_tp/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task;
	struct sct_cpu_call *c;

	if (SCT_FLOOR)
		return 0;
	c = cpu_call_get();
	if (!c)
		return 0;
	task = cpu_owner_current(&c->o, &c->in, regs);
	if (!c->o.traced)
		return 0;
	inflight_start(&c->in, id, task_is_compat(task));
	if (!totals_on)
		return 0;
	c->in.detail = filter_enter(id, c->in.abi);
	if (call_noreturn(&c->in))
		totals_enter(&c->in, c->o.pid, cpu_owner_cgroup(&c->o));
	return 0;
}
#endif

/*
 * Before 6.2 the storage helper fails while the kernel's per-CPU task storage lock is held,
 * for instance by an exiting task preempted (PREEMPT_RT) in the middle of freeing its
 * storage: a traced task then finds no slot at sys_exit, and its call is counted, not dropped.
 * A task with storage of the described map only has no call parked: that lookup answering
 * says the lock was free.
 */
static __always_inline void inflight_missing(struct task_struct *task)
{
	if (!BPF_CORE_READ(task, bpf_storage) || !current_traced(bpf_get_current_pid_tgid()))
		return;
	if (!bpf_task_storage_get(&described, task, NULL, 0))
		stat_inflight_full();
}

/*
 * --stack: the syscall exit programs are each two inlined copies of one body, with and
 * without the capture, picked by the rodata switch at the top, which the verifier then
 * removes with the other copy. One body testing the switch where it captures kept ctx alive
 * across the whole program: without --stack, spills on the path every call takes (sys_exit
 * as loaded: 375 instructions, 363 before --stack); this way 367, the 4 more a copy of ctx
 * and the switch's load, before any lookup.
 */
#define SCT_EXIT_STACKED(body, ...) \
	(stack_parts ? body(__VA_ARGS__, true) : body(__VA_ARGS__, false))

/* sys_exit's body; stacks: the stack of a call that gets its event goes first. */
static __always_inline int sys_exit_do(void *ctx, struct pt_regs *regs, long ret, const bool stacks)
{
	struct sct_inflight *in, call;
	struct sct_cpu_slot *slot;
	struct task_struct *task;
	struct sct_cpu_call *c;
	struct call_end ce;
	__u64 now;

	if (SCT_FLOOR)
		return 0;
	slot = cpu_slot_get();
	if (!slot)
		return 0;
	c = &slot->call;
	if (c->o.regs == (__u64)regs) {
		if (!c->in.active)
			return 0;
		/*
		 * A copy on the stack, in both branches: the branches then meet in one state, and
		 * the verifier walks syscall_submit() once, not once per branch (932 -> 485
		 * instructions processed, about 0.4 ms less to load).
		 */
		call = c->in;
		c->in.active = 0;
		ce = (struct call_end){ c->o.pid, c->o.tid, ret, cpu_owner_cgroup(&c->o) };
	} else {
		task = bpf_get_current_task_btf();
		/* Switched out since its sys_enter: the call, if traced, was parked in its storage. */
		in = bpf_task_storage_get(&inflight, task, NULL, 0);
		if (!in) {
			inflight_missing(task);
			return 0;
		}
		if (!in->active)
			return 0;
		call = *in;
		in->active = 0;
		ce = (struct call_end){ task->tgid, task->pid, ret, bpf_get_current_cgroup_id() };
	}
	now = bpf_ktime_get_ns();
	if (totals_on && !totals_keep(&call, &ce, now))
		return 0;
	if (stacks)
		stack_output(ctx, &ce, call.enter_ns);
	syscall_submit(&call, &ce, slot, now);
	return 0;
}

#if SCT_HAS_PLAIN
SEC("raw_tp/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	return SCT_EXIT_STACKED(sys_exit_do, ctx, regs, ret);
}
#endif

/*
 * prev leaves the CPU with the call in in still in flight (in->active): it is given up, and
 * moves to prev's storage, unless prev leaves for good (its exit call never returns).
 */
static __always_inline void *cpu_call_park(void *storage, struct sct_inflight *in,
					   struct task_struct *prev)
{
	void *parked;

	in->active = 0;
	if (prev->flags & PF_EXITING)
		return NULL;
	parked = bpf_task_storage_get(storage, prev, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!parked)
		stat_inflight_full();
	return parked;
}

/* --args: the bytes ev's paths take, both of them (at most 2 * SCT_PATH_MAX). */
static __always_inline __u32 path_bytes(const struct sct_ev_syscall_path *ev)
{
	__u32 len = ev->path_len, len2 = ev->path2_len;

	if (len > SCT_PATH_MAX)
		len = SCT_PATH_MAX;
	if (len2 > SCT_PATH_MAX)
		len2 = SCT_PATH_MAX;
	return len + len2;
}

/* Where ev's captures go in its path: after its paths, at a multiple of 8 bytes. */
static __always_inline __u32 mem_offset(const struct sct_ev_syscall_path *ev)
{
	__u32 off = (path_bytes(ev) + 7) & ~7u;

	/* a no-op (path_bytes() bounds it), for the verifier */
	barrier_var(off);
	return off > 2 * SCT_PATH_MAX ? 2 * SCT_PATH_MAX : off;
}

static __always_inline struct sct_ev_mem *mem_at(struct sct_ev_syscall_path *ev)
{
	return (struct sct_ev_mem *)(ev->path + mem_offset(ev));
}

/* The bytes of m and what follows it: exec's arguments or data, never both. */
static __always_inline __u32 mem_bytes(const struct sct_ev_mem *m)
{
	__u32 a = m->addr_len, v = m->argv_len + m->data_len;

	if (a > SCT_ADDR_MAX)
		a = SCT_ADDR_MAX;
	if (v > SCT_ARGV_ROOM)
		v = SCT_ARGV_ROOM;
	return sizeof(*m) + a + v;
}

/* The bytes of ev's paths and, when it has them, of its captures. */
static __always_inline __u32 path_ev_bytes(struct sct_ev_syscall_path *ev)
{
	/* an offset, not a difference of pointers: the verifier bounds only the first */
	__u32 off;

	if (!ev->mem)
		return path_bytes(ev);
	off = mem_offset(ev);
	return off + mem_bytes((const struct sct_ev_mem *)(ev->path + off));
}

/*
 * --args: the parked copy holds the call, its arguments and as much of its paths and captures
 * as it read.
 */
static __always_inline void cpu_call_park_args(struct sct_cpu_call_args *s, struct task_struct *prev)
{
	struct sct_inflight_args *ia = cpu_call_park(&inflight_args, &s->ia.in, prev);
	__u32 size = offsetof(struct sct_inflight_args, ev.path);

	if (!ia)
		return;
	if (s->ia.ev.a.sc.type == SCT_EV_SYSCALL_PATH)
		size += path_ev_bytes(&s->ia.ev);
	if (!bpf_probe_read_kernel(ia, size, &s->ia))
		ia->in.active = 1;
}

/*
 * The tracepoint fires in __schedule() before the switch, so prev is current: the program
 * reaches it through bpf_get_current_task_btf(), where a tp_btf program would be given it,
 * and loads as a raw_tp one, without the tp_btf program's searches of the kernel's BTF.
 */
SEC("raw_tp/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev)
{
	struct sct_cpu_call_args *s;
	struct sct_inflight *in;
	struct sct_cpu_call *c;

	if (SCT_FLOOR)
		return 0;
	if (args_on) {
		s = cpu_call_args_get();
		if (!s || s->o.task != (__u64)prev)
			return 0;
		s->o.task = 0;
		s->o.regs = 0;
		if (s->ia.in.active)
			cpu_call_park_args(s, bpf_get_current_task_btf());
		return 0;
	}
	c = cpu_call_get();
	if (!c || c->o.task != (__u64)prev)
		return 0;
	c->o.task = 0;
	c->o.regs = 0;
	if (!c->in.active)
		return 0;
	in = cpu_call_park(&inflight, &c->in, bpf_get_current_task_btf());
	if (in) {
		*in = c->in;
		in->active = 1;
	}
	return 0;
}

/*
 * Fires once a move's tasks are in their new css_sets (a whole process counts once). The
 * attach that changes no cgroup v2 id (a v1 hierarchy's) only costs the slots a fresh read.
 */
SEC("raw_tp/cgroup_attach_task")
int BPF_PROG(cgroup_attach)
{
	__sync_fetch_and_add(&cgroup_moves, 1);
	return 0;
}

/* ---------------------------------------------------------------- --args */

/* The six argument registers at syscall entry, as the kernel's syscall wrappers read them. */
static __always_inline void args_read(__u64 *a, struct pt_regs *regs, __u8 compat)
{
#if defined(__TARGET_ARCH_x86)
	if (compat) {
		a[0] = regs->bx; a[1] = regs->cx; a[2] = regs->dx;
		a[3] = regs->si; a[4] = regs->di; a[5] = regs->bp;
		return;
	}
	a[0] = regs->di; a[1] = regs->si; a[2] = regs->dx;
	a[3] = regs->r10; a[4] = regs->r8; a[5] = regs->r9;
#elif defined(__TARGET_ARCH_arm64)
	/* x0 is the return value by sys_exit, but still the first argument at sys_enter */
	for (int i = 0; i < SCT_ARGS; i++)
		a[i] = regs->regs[i];
#endif
}

/*
 * A path read to dst (in ev's path), its length to *len and what it holds to *flags:
 * captured, perhaps cut, or a fault. One byte past args_max is asked for: a string that
 * fills it is longer than the bound, and is cut.
 */
static __always_inline void path_read(char *dst, __u64 ptr, __u16 *len, __u8 *flags)
{
	__u32 size = args_max + 2;
	long n;

	if (size > SCT_PATH_ROOM)
		size = SCT_PATH_ROOM;
	*len = 0;
	n = bpf_probe_read_user_str(dst, size, (const void *)ptr);
	if (n <= 0) {
		*flags = SCT_EV_PATH_FAULT;
		return;
	}
	n--;
	*flags = SCT_EV_PATH_CAPTURED;
	if (n > args_max) {
		n = args_max;
		*flags |= SCT_EV_PATH_CUT;
	}
	*len = n;
}

/* Where ev's second path goes: right after the first. */
static __always_inline char *path2_at(struct sct_ev_syscall_path *ev)
{
	__u32 off = ev->path_len;

	/* a no-op (path_read keeps it), for the verifier */
	barrier_var(off);
	if (off > SCT_PATH_MAX)
		off = SCT_PATH_MAX;
	return ev->path + off;
}

/* The argument index of ev's second path, or -1: the path_args value holds 1 + it. */
static __always_inline int path2_arg(const struct sct_ev_syscall_path *ev)
{
	return (ev->path_arg >> SCT_PATH2_ARG_SHIFT) - 1;
}

static __always_inline void path2_read(struct sct_ev_syscall_path *ev)
{
	int k = path2_arg(ev);

	if (k >= 0 && k < SCT_ARGS)
		path_read(path2_at(ev), ev->a.args[k], &ev->path2_len, &ev->path2_flags);
}

/* ---------------------------------------------------------------- --args' captures (format 1.7) */

/*
 * A message's name: msg_name and msg_namelen, the first two fields of struct user_msghdr (of
 * struct compat_msghdr for an ia32 call: 32-bit pointers). -1 if the message is unreadable.
 */
static __always_inline int msg_name_read(__u64 msg, __u8 compat, __u64 *ptr, __s64 *len)
{
	__u64 n[2];
	__u32 c[2];

	if (compat) {
		if (bpf_probe_read_user(c, sizeof(c), (const void *)msg))
			return -1;
		*ptr = c[0];
		*len = (__s32)c[1];
		return 0;
	}
	if (bpf_probe_read_user(n, sizeof(n), (const void *)msg))
		return -1;
	*ptr = n[0];
	*len = (__s32)n[1];
	return 0;
}

/*
 * The socket address of ia's call and its length: the call's arguments, or its message's
 * name; for a call the kernel fills the address of, the length its pointer argument holds
 * (the buffer's room at entry, what the kernel wrote at exit). -1 if a pointer to them is
 * unreadable.
 */
static __always_inline int addr_where(struct sct_inflight_args *ia, __u8 compat, __u64 *ptr, __s64 *len)
{
	__u32 k = ia->cap.addr;
	__s32 n;

	if (k >= SCT_ARGS - 1)
		return -1;
	if (ia->cap.flags & SCT_CAP_MSGHDR)
		return msg_name_read(ia->ev.a.args[k], compat, ptr, len);
	*ptr = ia->ev.a.args[k];
	if (!(ia->cap.flags & SCT_CAP_ADDR_EXIT)) {
		*len = (__s32)ia->ev.a.args[k + 1];
		return 0;
	}
	/* no length pointer (accept's may be NULL): no address either */
	if (!ia->ev.a.args[k + 1]) {
		*ptr = 0;
		*len = 0;
		return 0;
	}
	if (bpf_probe_read_user(&n, sizeof(n), (const void *)ia->ev.a.args[k + 1]))
		return -1;
	*len = n;
	return 0;
}

/*
 * len bytes at ptr into m's address, at most room and SCT_ADDR_MAX (cut past them); late: read
 * at exit. A NULL pointer is no address.
 */
static __always_inline void addr_read(struct sct_ev_mem *m, __u64 ptr, __s64 len, __s64 room, __u8 late)
{
	__u64 n;

	m->addr_len = 0;
	m->addr_flags = 0;
	if (!ptr)
		return;
	m->addr_flags = SCT_EV_PATH_CAPTURED | late;
	if (len <= 0)
		return;
	if (len > room || len > SCT_ADDR_MAX)
		m->addr_flags |= SCT_EV_PATH_CUT;
	n = len < room ? len : room;
	if (n > SCT_ADDR_MAX)
		n = SCT_ADDR_MAX;
	if (!n)
		return;
	/*
	 * The same n (1 .. SCT_ADDR_MAX), bounded in the register the read is given: clang
	 * tests a spilled copy otherwise, which the verifier of Linux 6.1 does not bound.
	 */
	if (bpf_probe_read_user(m + 1, ((n - 1) & (SCT_ADDR_MAX - 1)) + 1, (const void *)ptr)) {
		m->addr_flags = SCT_EV_PATH_FAULT | late;
		return;
	}
	m->addr_len = n;
}

/*
 * At entry: the address the call is given, or, for one the kernel fills, the room its buffer
 * has (kept in addr_len until the exit).
 */
static __always_inline void addr_enter(struct sct_inflight_args *ia, struct sct_ev_mem *m, __u8 compat)
{
	__u64 ptr;
	__s64 len;

	if (addr_where(ia, compat, &ptr, &len)) {
		m->addr_flags = SCT_EV_PATH_FAULT;
		return;
	}
	if (!(ia->cap.flags & SCT_CAP_ADDR_EXIT)) {
		addr_read(m, ptr, len, SCT_ADDR_MAX, 0);
		return;
	}
	m->addr_len = len < 0 ? 0 : (len > SCT_ADDR_MAX ? SCT_ADDR_MAX + 1 : len);
}

/* At exit: the address the kernel filled, as long as it says, if the call succeeded. */
static __always_inline void addr_exit(struct sct_inflight_args *ia, long ret)
{
	struct sct_ev_mem *m = mem_at(&ia->ev);
	__s64 room = m->addr_len, len;
	__u64 ptr;

	m->addr_len = 0;
	if (ret < 0)
		return;
	if (addr_where(ia, ia->in.abi, &ptr, &len)) {
		m->addr_flags = SCT_EV_PATH_FAULT | SCT_EV_PATH_LATE;
		return;
	}
	addr_read(m, ptr, len, room, SCT_EV_PATH_LATE);
}

/*
 * exec's arguments from the array at argv (of 32-bit pointers for an ia32 call): at most
 * SCT_ARGV_MAX of them and args_max bytes, each string with its NUL; cut past either.
 */
static __always_inline void argv_read(struct sct_ev_mem *m, __u64 argv, __u8 compat)
{
	__u32 zero = 0, step = compat ? 4 : 8, used, room, at, i;
	__u8 flags = SCT_EV_PATH_CAPTURED;
	struct argv_scratch *s;
	long n;

	s = bpf_map_lookup_elem(&argv_scratch, &zero);
	if (!s)
		return;
	s->used = 0;
	for (i = 0; argv && i <= SCT_ARGV_MAX; i++) {
		__u64 p = 0;

		if (bpf_probe_read_user(&p, step, (const void *)(argv + (__u64)i * step))) {
			flags = SCT_EV_PATH_FAULT;
			s->used = 0;
			break;
		}
		if (!p)
			break;
		used = s->used;
		/* a no-op (used never passes args_max), for the verifier */
		if (used >= SCT_ARGV_ROOM)
			break;
		room = args_max - used;
		if (i == SCT_ARGV_MAX || !room) {
			flags |= SCT_EV_PATH_CUT;
			break;
		}
		if (room > SCT_ARGV_ROOM)
			room = SCT_ARGV_ROOM;
		/* a byte more than room: a string that fills it is cut */
		n = bpf_probe_read_user_str(s->buf + used, room + 1, (const void *)p);
		if (n <= 0) {
			flags = SCT_EV_PATH_FAULT;
			s->used = 0;
			break;
		}
		if (n > room) {
			at = used + room - 1;
			/* a no-op (room is at least 1), for the verifier of Linux 6.1: kept by the barrier */
			barrier_var(at);
			if (at >= sizeof(s->buf))
				break;
			s->buf[at] = '\0';
			s->used = used + room;
			flags |= SCT_EV_PATH_CUT;
			break;
		}
		s->used = used + n;
	}
	m->argv_flags = flags;
	used = s->used;
	if (used > SCT_ARGV_ROOM)
		used = SCT_ARGV_ROOM;
	if (used && bpf_probe_read_kernel(m + 1, used, s->buf)) {
		m->argv_flags = SCT_EV_PATH_FAULT;
		used = 0;
	}
	m->argv_len = used;
}

/*
 * --args-data: count bytes at ptr (at most args_data, cut past it) into m, after its address;
 * late: read at exit.
 */
static __always_inline void data_read(struct sct_ev_mem *m, __u64 ptr, __u64 count, __u8 late)
{
	__u32 a = m->addr_len;
	__u64 n = count;

	m->data_len = 0;
	m->data_flags = SCT_EV_PATH_CAPTURED | late;
	if (n > args_data) {
		n = args_data;
		m->data_flags |= SCT_EV_PATH_CUT;
	}
	if (!n)
		return;
	/* no-ops (addr_read() and --args-data's range bound them), for the verifier as in addr_read() */
	if (a > SCT_ADDR_MAX)
		a = SCT_ADDR_MAX;
	if (bpf_probe_read_user((char *)(m + 1) + (a & (2 * SCT_ADDR_MAX - 1)), ((n - 1) & (SCT_DATA_MAX - 1)) + 1,
				(const void *)ptr)) {
		m->data_flags = SCT_EV_PATH_FAULT | late;
		return;
	}
	m->data_len = n;
}

/* At exit: what a read received, ret bytes, if the call succeeded. */
static __always_inline void data_exit(struct sct_inflight_args *ia, long ret)
{
	__u32 k = ia->cap.data;

	if (ret < 0 || k >= SCT_ARGS)
		return;
	data_read(mem_at(&ia->ev), ia->ev.a.args[k], ret, SCT_EV_PATH_LATE);
}

/* At exit: what the kernel filled, the address first (the data follows it). */
static __noinline void mem_exit(struct sct_inflight_args *ia, long ret)
{
	if (ia->cap.flags & SCT_CAP_ADDR_EXIT)
		addr_exit(ia, ret);
	if (ia->cap.flags & SCT_CAP_DATA_EXIT)
		data_exit(ia, ret);
}

/* The entries of an ia32 exec's environment at envp, counted one at a time up to n. */
static __always_inline __u32 envc_count_compat(__u64 envp, __u32 n)
{
	__u32 i;

	for (i = 0; envp && i < n; i++) {
		__u32 p = 0;

		if (bpf_probe_read_user(&p, sizeof(p), (const void *)(envp + (__u64)i * sizeof(p))) || !p)
			break;
	}
	return i;
}

/*
 * The entries of a native exec's environment at envp, counted up to n (more than n: counted
 * past it): one pointer at a time up to a multiple of ENVP_PER_CHUNK pointers in memory, then a
 * chunk at a time. An aligned chunk never crosses a page (the array's end may be its mapping's),
 * and 40 entries cost 10 reads at most, not 41; an array not aligned to its pointers (no C
 * program makes one) has its chunks read across pages, and its count stops at the first
 * chunk that is not all mapped. The count between the two loops is in
 * argv_scratch, as argv_read()'s offset, so the verifier walks the second loop once, not once
 * for each way out of the first.
 */
static __always_inline __u32 envc_count(struct argv_scratch *s, __u64 envp, __u32 n)
{
	__u32 i, r, j;

	for (i = 0; envp && i < ENVP_PER_CHUNK - 1; i++) {
		__u64 p = 0;

		if (!((envp + (__u64)i * sizeof(p)) & (sizeof(s->envp) - 1)))
			break;
		if (bpf_probe_read_user(&p, sizeof(p), (const void *)(envp + (__u64)i * sizeof(p))) || !p)
			return i;
	}
	s->envc = i;
	for (r = 0; envp && r < ENVP_CHUNKS; r++) {
		i = s->envc;
		if (i >= n)
			break;
		if (bpf_probe_read_user(s->envp, sizeof(s->envp), (const void *)(envp + (__u64)i * sizeof(__u64))))
			break;
		for (j = 0; j < ENVP_PER_CHUNK; j++)
			if (!s->envp[j])
				return i + j;
		s->envc = i + ENVP_PER_CHUNK;
	}
	return s->envc;
}

/* The entries of exec's environment at envp, counted up to SCT_ENVC_MAX. */
static __always_inline void envc_read(struct sct_ev_mem *m, __u64 envp, __u8 compat)
{
	__u32 zero = 0, n;
	struct argv_scratch *s;

	s = bpf_map_lookup_elem(&argv_scratch, &zero);
	if (!s)
		return;
	n = compat ? envc_count_compat(envp, SCT_ENVC_MAX) : envc_count(s, envp, SCT_ENVC_MAX);
	if (n >= SCT_ENVC_MAX) {
		n = SCT_ENVC_MAX;
		m->argv_flags |= SCT_EV_ENVC_LOWER;
	}
	m->envc = n;
}

/*
 * The captures of a call that has them (ca), after its paths, which are final: an exec's is
 * not read again at exit (its memory is the new program's then), and no call with a socket
 * address has a path. A function of its own, as mem_exit() and args_noreturn(): inlined, their
 * loops and reads made sys_enter_args five times as long, and the calls without captures
 * slower.
 */
static __noinline void mem_enter(struct sct_inflight_args *ia, const struct sct_capture_args *ca,
				      __u8 compat)
{
	struct sct_ev_mem *m;

	ia->cap = *ca;
	ia->ev.mem = 1;
	m = mem_at(&ia->ev);
	__builtin_memset(m, 0, sizeof(*m));
	if (ca->flags & SCT_CAP_ADDR)
		addr_enter(ia, m, compat);
	if ((ca->flags & SCT_CAP_ARGV) && ca->argv < SCT_ARGS)
		argv_read(m, ia->ev.a.args[ca->argv], compat);
	if ((ca->flags & SCT_CAP_ENVP) && ca->envp < SCT_ARGS)
		envc_read(m, ia->ev.a.args[ca->envp], compat);
	/* after the address, which it follows in the event; its length the next argument */
	if ((ca->flags & SCT_CAP_DATA) && ca->data < SCT_ARGS - 1)
		data_read(m, ia->ev.a.args[ca->data], ia->ev.a.args[ca->data + 1], 0);
}

/*
 * A tracepoint program cannot sleep, so a path in a page not yet present (a fresh mapping,
 * swapped out) cannot be read at entry: it is flagged, and read again at exit, when the
 * kernel has faulted it in to read it itself. Then the memory the call's other arguments
 * point to (captures_on).
 */
static __always_inline void path_enter(struct sct_inflight_args *ia, long id, __u8 compat)
{
	struct sct_ev_syscall_path *ev = &ia->ev;
	struct sct_capture_args *ca;
	__u32 nr = id;

	ev->a.sc.type = SCT_EV_SYSCALL_ARGS;
	if (compat)
		nr += compat_path_base;
	ca = bpf_map_lookup_elem(&capture_args, &nr);
	if (!ca || !((ca->path & SCT_PATH_ARG_VALID) || (captures_on && ca->flags)))
		return;
	ev->a.sc.type = SCT_EV_SYSCALL_PATH;
	ev->path_arg = ca->path;
	ev->path_len = 0;
	ev->path_flags = 0;
	ev->path2_len = 0;
	ev->path2_flags = 0;
	ev->mem = 0;
	if (ca->path & SCT_PATH_ARG_VALID) {
		path_read(ev->path, ev->a.args[ca->path & SCT_PATH_ARG_MASK], &ev->path_len, &ev->path_flags);
		path2_read(ev);
	}
	if (captures_on && ca->flags)
		mem_enter(ia, ca, compat);
}

/*
 * The paths that could not be read at entry, read again. A first path read now moves the
 * second, which follows it: that one is read again too, and keeps what it was read as.
 */
static __always_inline void path_exit(struct sct_ev_syscall_path *ev)
{
	__u8 pa = ev->path_arg, late2 = ev->path2_flags == SCT_EV_PATH_FAULT;
	bool again = ev->path_flags == SCT_EV_PATH_FAULT && !(pa & SCT_PATH_NO_RETRY);

	if (again) {
		path_read(ev->path, ev->a.args[pa & SCT_PATH_ARG_MASK], &ev->path_len, &ev->path_flags);
		if (ev->path_flags != SCT_EV_PATH_FAULT)
			ev->path_flags |= SCT_EV_PATH_LATE;
	}
	if (!again && !late2)
		return;
	path2_read(ev);
	if (late2 && ev->path2_flags != SCT_EV_PATH_FAULT)
		ev->path2_flags |= SCT_EV_PATH_LATE;
}

/* The staged argument events to the ring buffer, as one record; the stage is taken. */
static __always_inline void stage_args_flush(struct sct_stage_args *st)
{
	__u32 used = st->used, n = st->n;
	struct sct_stats *s;

	stage_mark(0);
	if (!used)
		return;
	/*
	 * Two tests, not one: clang folds them into one range check ((used - 1) < size) whose
	 * bound the verifier of Linux 6.1 does not carry back to used.
	 */
	barrier_var(used);
	if (used > sizeof(st->buf))
		return;
	st->used = 0;
	st->n = 0;
	if (!bpf_ringbuf_output(&events, st->buf, used, wakeup_flags(false)))
		return;
	s = stats_get();
	if (s)
		__sync_fetch_and_add(&s->ringbuf_full, n);
}

/* The largest argument event with paths, and with captures too. */
#define ARGS_EVENT_MAX (offsetof(struct sct_ev_syscall_path, path) + 2 * SCT_PATH_MAX)
#define ARGS_MEM_EVENT_MAX (ARGS_EVENT_MAX + SCT_MEM_ROOM)

/*
 * ia's event ready to output from where it was built: its size, its path cut and padded;
 * unfinished: the format's SYSCALL unfinished.
 */
static __always_inline __u32 args_event(struct sct_inflight_args *ia, const struct call_end *c, __u64 now,
					__u8 unfinished)
{
	struct sct_ev_syscall_path *ev = &ia->ev;
	__u16 kind = ev->a.sc.type; /* as sys_enter chose it: syscall_fill() writes the plain one */
	__u32 size;

	syscall_fill(&ev->a.sc, &ia->in, c, now);
	ev->a.sc.type = kind;
	ev->a.sc.unfinished = unfinished;
	if (kind != SCT_EV_SYSCALL_PATH)
		return sizeof(ev->a);
	/* a call with captures has its paths final at entry (mem_enter()) */
	if (!ev->mem)
		path_exit(ev);
	else if (ia->cap.flags & (SCT_CAP_ADDR_EXIT | SCT_CAP_DATA_EXIT))
		mem_exit(ia, c->ret);
	size = (offsetof(struct sct_ev_syscall_path, path) + path_ev_bytes(ev) + 7) & ~7u;
	/*
	 * A no-op (both are multiples of 8) that the verifier, which cannot see through the
	 * rounding, needs; the barrier keeps the compiler, which can, from dropping it.
	 */
	barrier_var(size);
	return size > ARGS_MEM_EVENT_MAX ? ARGS_MEM_EVENT_MAX : size;
}

/*
 * Room for size bytes in st, flushed first if it has less, or if its oldest event is
 * stage_age_ns old at now. A stage is flushed when the next event does not fit, so path-less
 * events fill it whole. The bounds are the verifier's too: flushing here, not after the event
 * is staged, keeps one flush per path through the program, where a second one made clang
 * check a copy of used that the verifier of Linux 6.1 does not bound.
 */
static __always_inline __u32 stage_args_room(struct sct_stage_args *st, __u32 size, __u64 now)
{
	__u32 used = st->used;

	if (used > sizeof(st->buf) - size || (used && now - st->since_ns >= stage_age_ns)) {
		stage_args_flush(st);
		used = 0;
	}
	return used;
}

/*
 * The event of the call in ia (the CPU's slot, or the task's storage), which has just ended as
 * c says at now (or never returns: unfinished SCT_EV_NORETURN): staged in slot's stage (slot:
 * the CPU's cpu_calls_args value) as a path-less one written in place, as sys_exit does, or a
 * path event copied from ia; or output straight from ia when the stage is taken.
 */
static __always_inline void args_submit(struct sct_inflight_args *ia, const struct call_end *c,
					struct sct_cpu_slot_args *slot, __u64 now, __u8 unfinished)
{
	struct sct_ev_syscall_args *e;
	struct sct_stage_args *st;
	__u32 size, used;

	ia->in.active = 0;
	st = staged ? stage_take(&slot->stage) : NULL;
	if (!st) {
		if (staged)
			stat_stage_busy();
		size = args_event(ia, c, now, unfinished);
		if (bpf_ringbuf_output(&events, &ia->ev, size, wakeup_flags(false)))
			stat_ringbuf_full();
		return;
	}
	if (ia->ev.a.sc.type == SCT_EV_SYSCALL_ARGS) {
		used = stage_args_room(st, sizeof(*e), now);
		e = (struct sct_ev_syscall_args *)(st->buf + used);
		syscall_fill(&e->sc, &ia->in, c, now);
		e->sc.type = SCT_EV_SYSCALL_ARGS;
		e->sc.unfinished = unfinished;
		__builtin_memcpy(e->args, ia->ev.a.args, sizeof(e->args));
		size = sizeof(*e);
	} else if (!ia->ev.mem) {
		size = args_event(ia, c, now, unfinished);
		barrier_var(size);
		if (size > ARGS_EVENT_MAX)
			size = ARGS_EVENT_MAX;
		used = stage_args_room(st, ARGS_EVENT_MAX, now);
		if (bpf_probe_read_kernel(st->buf + used, size, &ia->ev))
			size = 0;
	} else {
		/* apart from the other path events: the verifier bounds each copy by its own room */
		size = args_event(ia, c, now, unfinished);
		used = stage_args_room(st, ARGS_MEM_EVENT_MAX, now);
		if (bpf_probe_read_kernel(st->buf + used, size, &ia->ev))
			size = 0;
	}
	st->used = used + size;
	st->n += size != 0;
	if (size && st->n == 1)
		stage_start(&st->since_ns, now);
	stage_give(st);
}

/*
 * An exit or exit_group just entered, under captures_on: its event now, as the call never
 * returns (duration 0, ret 0), and none at sys_exit, should a seccomp filter make it return.
 * Under a filter it passes those of sys_exit as a call that returned 0 at once, and no -P
 * prefix, having no path.
 */
static __noinline void args_noreturn(struct sct_cpu_slot_args *slot)
{
	struct sct_cpu_call_args *s = &slot->call;
	struct call_end c = { s->o.pid, s->o.tid, 0, cpu_owner_cgroup(&s->o) };

	s->ia.in.active = 0;
	if (totals_on && (!s->ia.in.detail || !filter_exit(0, 0) || filter_path_len))
		return;
	args_submit(&s->ia, &c, slot, s->ia.in.enter_ns, SCT_EV_NORETURN);
}

#if SCT_HAS_ARGS
SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter_args, struct pt_regs *regs, long id)
{
	struct sct_cpu_slot_args *slot;
	struct sct_cpu_call_args *s;
	struct sct_inflight_args *ia;
	struct task_struct *task;
	__u8 compat;

	slot = cpu_slot_args_get();
	if (!slot)
		return 0;
	s = &slot->call;
	ia = &s->ia;
	task = cpu_owner_current(&s->o, &ia->in, regs);
	if (!s->o.traced)
		return 0;
	compat = task_is_compat(task);
	args_read(ia->ev.a.args, regs, compat);
	path_enter(ia, id, compat);
	/* last: the time of entry excludes the path's read, as a plain trace's does */
	inflight_start(&ia->in, id, compat);
	if (totals_on) {
		ia->in.detail = filter_enter(id, compat);
		if (call_noreturn(&ia->in))
			totals_enter(&ia->in, s->o.pid, cpu_owner_cgroup(&s->o));
	}
	if (captures_on && call_noreturn(&ia->in))
		args_noreturn(slot);
	return 0;
}
#endif

/* -P: does p, len bytes, start with filter_path? */
static __always_inline bool path_prefix(const char *p, __u32 len)
{
	__u32 n = filter_path_len;

	if (len < n)
		return false;
	for (__u32 i = 0; i < sizeof(filter_path); i++) {
		if (i >= n)
			break;
		if (p[i] != filter_path[i])
			return false;
	}
	return true;
}

/* -P: has the call in ev a path (read again now if it could not be at entry) with the prefix? */
static __always_inline bool filter_path_match(struct sct_ev_syscall_path *ev)
{
	if (ev->a.sc.type != SCT_EV_SYSCALL_PATH)
		return false;
	path_exit(ev);
	if ((ev->path_flags & SCT_EV_PATH_CAPTURED) && path_prefix(ev->path, ev->path_len))
		return true;
	return (ev->path2_flags & SCT_EV_PATH_CAPTURED) && path_prefix(path2_at(ev), ev->path2_len);
}

/* --args under totals_on: the call in ia counted; whether it gets its event. */
static __always_inline bool args_keep(struct sct_inflight_args *ia, const struct call_end *c)
{
	if (totals_keep(&ia->in, c, bpf_ktime_get_ns()) && (!filter_path_len || filter_path_match(&ia->ev)))
		return true;
	ia->in.active = 0;
	return false;
}

/* sys_exit_args' body; stacks as sys_exit_do()'s. */
static __always_inline int sys_exit_args_do(void *ctx, struct pt_regs *regs, long ret, const bool stacks)
{
	struct sct_cpu_slot_args *slot;
	struct sct_cpu_call_args *s;
	struct sct_inflight_args *ia;
	struct task_struct *task;

	slot = cpu_slot_args_get();
	if (!slot)
		return 0;
	s = &slot->call;
	if (s->o.regs == (__u64)regs) {
		if (s->ia.in.active) {
			struct call_end c = { s->o.pid, s->o.tid, ret, cpu_owner_cgroup(&s->o) };

			if (!totals_on || args_keep(&s->ia, &c)) {
				if (stacks)
					stack_output(ctx, &c, s->ia.in.enter_ns);
				args_submit(&s->ia, &c, slot, bpf_ktime_get_ns(), 0);
			}
		}
		return 0;
	}
	task = bpf_get_current_task_btf();
	/* Switched out since its sys_enter: the call, if traced, was parked in its storage. */
	ia = bpf_task_storage_get(&inflight_args, task, NULL, 0);
	if (!ia) {
		inflight_missing(task);
		return 0;
	}
	if (ia->in.active) {
		struct call_end c = { task->tgid, task->pid, ret, bpf_get_current_cgroup_id() };

		if (!totals_on || args_keep(ia, &c)) {
			if (stacks)
				stack_output(ctx, &c, ia->in.enter_ns);
			args_submit(ia, &c, slot, bpf_ktime_get_ns(), 0);
		}
	}
	return 0;
}
#if SCT_HAS_ARGS
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit_args, struct pt_regs *regs, long ret)
{
	return SCT_EXIT_STACKED(sys_exit_args_do, ctx, regs, ret);
}
#endif

/*
 * The pair above without task storage, and without bpf_get_current_task_btf(), which came
 * with it (5.11): the task is read through CO-RE, as kernels before BTF pointers need.
 */
#if SCT_HAS_HASH
SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter_hash, struct pt_regs *regs, long id)
{
	struct task_struct *task;
	struct sct_inflight *in;

	if (SCT_FLOOR)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	in = inflight_hash_get(bpf_get_current_pid_tgid());
	if (!in)
		return 0;
	task_describe_hash(in, task);
	inflight_start(in, id, task_is_compat_read(task));
	if (!totals_on)
		return 0;
	in->detail = filter_enter(id, in->abi);
	if (call_noreturn(in))
		totals_enter(in, bpf_get_current_pid_tgid() >> 32, bpf_get_current_cgroup_id());
	return 0;
}
#endif

/* sys_exit_hash's body; stacks as sys_exit_do()'s. */
static __always_inline int sys_exit_hash_do(void *ctx, struct pt_regs *regs, long ret, const bool stacks)
{
	struct sct_cpu_slot *slot;
	struct sct_inflight *in;
	__u64 pid_tgid;
	__u32 tid;

	if (SCT_FLOOR)
		return 0;
	slot = cpu_slot_get();
	if (!slot)
		return 0;
	pid_tgid = bpf_get_current_pid_tgid();
	tid = (__u32)pid_tgid;
	in = bpf_map_lookup_elem(&inflight_hash, &tid);
	if (in && in->active) {
		struct call_end c = { pid_tgid >> 32, tid, ret, bpf_get_current_cgroup_id() };
		__u64 now = bpf_ktime_get_ns();

		if (totals_on && !totals_keep(in, &c, now)) {
			in->active = 0;
			return 0;
		}
		if (stacks)
			stack_output(ctx, &c, in->enter_ns);
		syscall_submit(in, &c, slot, now);
	}
	return 0;
}
#if SCT_HAS_HASH
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit_hash, struct pt_regs *regs, long ret)
{
	return SCT_EXIT_STACKED(sys_exit_hash_do, ctx, regs, ret);
}
#endif

/* Deactivate first: a failed delete then leaves a slot no sys_exit_hash will report. */
static __always_inline void inflight_hash_drop(__u32 tid)
{
	struct sct_inflight *in = bpf_map_lookup_elem(&inflight_hash, &tid);

	if (!in)
		return;
	in->active = 0;
	bpf_map_delete_elem(&inflight_hash, &tid);
}

/*
 * A non-leader exec gave its thread the leader's tid, after the leader's exit dropped the
 * slot of that tid: the execve in flight moves to the new key, or its SYSCALL is lost.
 */
static __always_inline void inflight_hash_move(__u32 old_tid, __u32 tid)
{
	struct sct_inflight *in = bpf_map_lookup_elem(&inflight_hash, &old_tid);
	struct sct_inflight copy;

	if (!in)
		return;
	copy = *in;
	in->active = 0;
	bpf_map_delete_elem(&inflight_hash, &old_tid);
	if (bpf_map_update_elem(&inflight_hash, &tid, &copy, BPF_ANY))
		stat_inflight_full();
}

/*
 * A child whose FORK is recorded is described (a failed insert costs it a TASK record as well,
 * at its first call; nothing is lost). With the hash fallback its slot is made here.
 */
static __always_inline void forked_note(__u32 tid, __u64 start_ns)
{
	static const struct sct_inflight marked = { .described = 1 };

	if (inflight_in_hash)
		bpf_map_update_elem(&inflight_hash, &tid, &marked, BPF_ANY);
	else
		bpf_map_update_elem(&forked, &tid, &start_ns, BPF_ANY);
}

/*
 * The lifecycle programs are raw_tp, as the syscall pair is: they run rarely, so reading a
 * task through CO-RE costs nothing that matters.
 */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(sched_fork, struct task_struct *parent, struct task_struct *child)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 child_tid, child_pid;
	struct sct_ev_fork *e;
	__u64 child_start;

	/* The tracepoint runs in the thread that called clone (parent), before the child can run. */
	if (!current_traced(pid_tgid))
		return 0;
	child_tid = BPF_CORE_READ(child, pid);
	child_pid = BPF_CORE_READ(child, tgid);
	child_start = BPF_CORE_READ(child, start_time);
	if (mode == SCT_MODE_TARGETS)
		targets_add(child_tid);
	if (describing())
		forked_note(child_tid, child_start);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		stat_ringbuf_full();
		return 0;
	}
	e->type = SCT_EV_FORK;
	e->is_thread = child_pid == pid_tgid >> 32;
	e->pad = 0;
	e->parent_pid = pid_tgid >> 32;
	e->parent_tid = (__u32)pid_tgid;
	e->child_pid = child_pid;
	e->child_tid = child_tid;
	e->pad2 = 0;
	e->time_ns = bpf_ktime_get_ns();
	e->child_start_ns = child_start;
	event_submit(e);
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(sched_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(); /* p is current */
	__u32 old_tid = old_pid, tid = (__u32)pid_tgid;
	struct sct_ev_exec *e;
	long n;

	if (old_tid != tid)
		cpu_owners_retid(tid);
	if (inflight_in_hash && old_tid != tid)
		inflight_hash_move(old_tid, tid);
	if (mode == SCT_MODE_TARGETS) {
		if (!bpf_map_lookup_elem(&targets, &old_tid))
			return 0;
		/* A non-leader exec took the leader's tid. */
		if (old_tid != tid)
			targets_move(old_tid, tid);
	} else if (!current_traced(pid_tgid)) {
		return 0;
	}
	/* a new program: its first stack wakes the recorder again */
	if (stack_parts & SCT_STACK_USER) {
		__u32 tgid = pid_tgid >> 32;

		bpf_map_delete_elem(&stack_pids, &tgid);
	}
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		stat_ringbuf_full();
		return 0;
	}
	e->type = SCT_EV_EXEC;
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->old_tid = old_tid;
	e->time_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	n = bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), BPF_CORE_READ(bprm, filename));
	e->filename_len = n > 0 ? n - 1 : 0;
	event_submit(e);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(sched_exit, struct task_struct *p)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;
	struct sct_ev_exit *e;
	bool last = false;
	int code;

	/* Task storage dies with its task; a hash slot must be dropped by hand, traced or not. */
	if (inflight_in_hash)
		inflight_hash_drop(tid);
	/* a child that left the cgroup before its first call is not traced here: forget it anyway */
	else if (describing())
		bpf_map_delete_elem(&forked, &tid);
	if (!current_traced(pid_tgid))
		return 0;
	if (mode == SCT_MODE_TARGETS)
		last = targets_del(tid);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		stat_ringbuf_full();
		return 0;
	}
	code = BPF_CORE_READ(p, exit_code);
	e->type = SCT_EV_EXIT;
	/* do_exit() decremented signal->live before this tracepoint: 0 means the group is gone. */
	e->group_dead = BPF_CORE_READ(p, signal, live.counter) == 0;
	e->pad = 0;
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->exit_code = (code >> 8) & 0xff;
	e->signal = code & 0x7f;
	e->pad2 = 0;
	e->time_ns = bpf_ktime_get_ns();
	e->start_ns = BPF_CORE_READ(p, start_time);
	if ((stack_parts & SCT_STACK_USER) && e->group_dead) {
		/* a key on the stack: the 6.1 verifier takes none in ring buffer memory */
		__u32 tgid = pid_tgid >> 32;

		bpf_map_delete_elem(&stack_pids, &tgid);
	}
	/* The recorder stops when the last target is gone: tell it now, not at its poll timeout. */
	event_submit_wake(e, last);
	return 0;
}

/*
 * Run by the recorder (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU) on a CPU whose
 * stage_marks entry is a poll period old, and on each CPU at stop, so a CPU that went idle
 * still delivers what it staged. A stage found taken belongs to a program this run
 * interrupted: it stays for the recorder's next wakeup, and the run returns 1 so that the
 * final flush at stop tries again.
 * Never attached: the tracepoint in its section name only keeps bpftool 7.1's light
 * skeleton generator from crashing on a bare "raw_tp".
 */
SEC("raw_tp/sys_enter")
int stage_flush_cpu(void *ctx)
{
	struct sct_cpu_slot_args *slot_args;
	struct sct_stage_args *sa;
	struct sct_cpu_slot *slot;
	struct sct_stage *st;

	if (args_on) {
		slot_args = cpu_slot_args_get();
		if (!slot_args)
			return 1;
		sa = stage_take(&slot_args->stage);
		if (!sa)
			return 1;
		stage_args_flush(sa);
		stage_give(sa);
		return 0;
	}
	slot = cpu_slot_get();
	if (!slot)
		return 1;
	st = stage_take(&slot->stage);
	if (!st)
		return 1;
	stage_flush(st);
	stage_give(st);
	return 0;
}

/* Is task, not necessarily current, traced? For the iterator. */
static __always_inline bool task_traced(struct task_struct *task)
{
	__u32 tid = task->pid;

	if ((__u32)task->tgid == self_tgid)
		return false;
	if (mode == SCT_MODE_TARGETS)
		return bpf_map_lookup_elem(&targets, &tid) != NULL;
	if (mode == SCT_MODE_CGROUP)
		return task_cgroup_ancestor(task, target_level) == target_cgroup;
	return true;
}

/* The in-flight slot of any task, not necessarily current, without --args; for the iterator. */
static __always_inline struct sct_inflight *inflight_find(struct task_struct *task)
{
	__u32 tid = task->pid;

	if (inflight_in_hash)
		return bpf_map_lookup_elem(&inflight_hash, &tid);
	return bpf_task_storage_get(&inflight, task, NULL, 0);
}

/*
 * task, which the iterator reports for a TASK record, is described. Returns whether an event
 * described it already: in the first snapshot, its record is then not written again.
 */
static __always_inline bool iter_described(struct task_struct *task)
{
	static const struct sct_inflight marked = { .described = 1 };
	__u32 tid = task->pid;
	struct sct_inflight *in;
	bool first = !snapshot_done;
	__u32 *d;

	if (!describing())
		return false;
	if (inflight_in_hash) {
		in = bpf_map_lookup_elem(&inflight_hash, &tid);
		if (!in) {
			bpf_map_update_elem(&inflight_hash, &tid, &marked, BPF_NOEXIST);
			return false;
		}
		if (in->described)
			return first;
		in->described = 1;
		return false;
	}
	d = bpf_task_storage_get(&described, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	return d && __sync_val_compare_and_swap(d, 0, 1) && first;
}

/* --args: the arguments of ia's call, and what its paths hold, into out. */
static __always_inline void iter_args(struct sct_iter_task *out, struct sct_inflight_args *ia)
{
	__u16 len = ia->ev.path_len, len2 = ia->ev.path2_len;

	__builtin_memcpy(out->args, ia->ev.a.args, sizeof(out->args));
	out->has_args = 1;
	if (ia->ev.a.sc.type != SCT_EV_SYSCALL_PATH)
		return;
	out->path_flags = ia->ev.path_flags;
	out->path_len = len > SCT_PATH_MAX ? SCT_PATH_MAX : len;
	out->path2_flags = ia->ev.path2_flags;
	out->path2_len = len2 > SCT_PATH_MAX ? SCT_PATH_MAX : len2;
}

/*
 * One sct_iter_task per traced live user task: the TASK snapshot, or the in-flight calls
 * (under --args, each followed by the path_len bytes of its path and the path2_len of its
 * second).
 */
SEC("iter/task")
int iter_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct sct_inflight_args *ia = NULL;
	struct sct_iter_task out = {};
	struct sct_inflight *in;
	__u32 len;

	if (!task || (task->flags & PF_KTHREAD) || task->exit_state)
		return 0;
	if (!task_traced(task))
		return 0;
	if (iter_mode == SCT_ITER_INFLIGHT) {
		if (args_on)
			ia = bpf_task_storage_get(&inflight_args, task, NULL, 0);
		in = args_on ? (ia ? &ia->in : NULL) : inflight_find(task);
		if (!in || !in->active)
			return 0;
		out.enter_ns = in->enter_ns;
		out.nr = in->nr;
		out.abi = in->abi;
		if (ia)
			iter_args(&out, ia);
	} else {
		out.described = iter_described(task);
	}
	out.pid = task->tgid;
	out.tid = task->pid;
	out.ppid = BPF_CORE_READ(task, real_parent, tgid);
	out.start_ns = task->start_time;
	out.cgroup_id = task_cgroup_ancestor(task, -1);
	bpf_probe_read_kernel(out.comm, sizeof(out.comm), task->comm);
	bpf_seq_write(ctx->meta->seq, &out, sizeof(out));
	len = out.path_len + out.path2_len;
	if (ia && len && len <= 2 * SCT_PATH_MAX)
		bpf_seq_write(ctx->meta->seq, ia->ev.path, len);
	return 0;
}
