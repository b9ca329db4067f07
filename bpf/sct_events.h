/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ABI between bpf/sct.bpf.c and record/: ring buffer events, map values, iterator
 * output. Fixed-width kernel types only and no includes: the BPF side gets the types from
 * vmlinux.h, userspace from <linux/types.h> included before this file.
 */
#ifndef SCT_EVENTS_H
#define SCT_EVENTS_H

#define SCT_COMM_LEN 16
/* Exec filenames longer than this are cut; PATH_MAX is the kernel's own bound. */
#define SCT_FILENAME_LEN 4096

#define SCT_EV_NORETURN 2

/* Filter modes, set in rodata before load. */
enum sct_mode {
	SCT_MODE_TARGETS = 0, /* tids in the targets map and what they fork */
	SCT_MODE_CGROUP = 1,  /* tasks in a cgroup v2 directory or below it */
	SCT_MODE_ALL = 2,     /* every task except the recorder */
};

/* First field of every ring buffer event. */
enum sct_ev_type {
	SCT_EV_SYSCALL = 1,
	SCT_EV_FORK = 2,
	SCT_EV_EXEC = 3,
	SCT_EV_EXIT = 4,
	SCT_EV_SYSCALL_ARGS = 5, /* --args: sct_ev_syscall_args, staged per CPU as is */
	SCT_EV_SYSCALL_PATH = 6, /* --args, a path syscall: sct_ev_syscall_path, one at a time */
	SCT_EV_RUN = 7,          /* a staged batch: sct_ev_run, then its task's sct_ev_call slots */
	SCT_EV_CALL = 8,         /* a staged call, after its task's SCT_EV_RUN slot */
	SCT_EV_TASK = 9,         /* a traced task no record describes yet, at its first call */
	SCT_EV_STACK = 10,       /* --stack: sct_ev_stack, before its call's SYSCALL event */
};

/* One completed syscall, written straight to the ring buffer (not staged): 48 bytes. */
struct sct_ev_syscall {
	__u16 type; /* SCT_EV_SYSCALL */
	__u8 abi;   /* 0 native, 1 compat (ia32 call of a 64-bit task) */
	/*
	 * The format's SYSCALL unfinished: 0, or SCT_EV_NORETURN for an exit or exit_group
	 * written at its entry (--args: a session with captures)
	 */
	__u8 unfinished;
	__u32 nr;
	__u32 pid, tid;
	__u64 enter_ns;
	__u64 duration_ns;
	__u64 cgroup_id;
	__s64 ret;
};

/*
 * A CPU's staged batch of completed syscalls is one ring buffer record of 24-byte slots (1 to
 * SCT_STAGE_LEN): runs, each a RUN slot naming a task then a CALL slot for each of its calls.
 * Half the bytes of sct_ev_syscall per call, and it is these bytes that the recorder reads
 * from the cache of the CPU that wrote them. A call that does not fit a CALL slot (a number
 * past 16 bits, a duration past 32) goes out alone as sct_ev_syscall, after the stage.
 */
#define SCT_STAGE_LEN 64
struct sct_ev_run {
	__u8 type;  /* SCT_EV_RUN; the next byte 0, so it reads as a __u16 type too */
	__u8 pad[3];
	__u32 pid, tid;
	__u32 pad2;
	__u64 cgroup_id;
};

struct sct_ev_call {
	__u8 type; /* SCT_EV_CALL */
	__u8 abi;  /* as sct_ev_syscall's */
	__u16 nr;
	__u32 duration_ns;
	__u64 enter_ns;
	__s64 ret;
};

union sct_stage_slot {
	struct sct_ev_run run;
	struct sct_ev_call call;
};

/*
 * --args: a completed syscall with its six raw arguments. A path syscall adds its strings:
 * sct_ev_syscall_path, cut after the path_len bytes of its first path and the path2_len of its
 * second (right after the first in path) and padded to a multiple of 8. A ring buffer record
 * of --args events holds one or more of either kind back to back (a CPU's staged batch, at
 * most SCT_ARGS_STAGE_BYTES), each telling its size by its type.
 */
#define SCT_ARGS 6
/* Bytes of path read, at most: --args-max's bound, the kernel's PATH_MAX. */
#define SCT_PATH_MAX 4096
#define SCT_ARGS_STAGE_BYTES 16384
/* Exec arguments kept at most (HEADER "argv" "max"; bytes: --args-max), as strace shows 32. */
#define SCT_ARGV_MAX 32
struct sct_ev_syscall_args {
	struct sct_ev_syscall sc; /* sc.type SCT_EV_SYSCALL_ARGS or SCT_EV_SYSCALL_PATH */
	__u64 args[SCT_ARGS];
};

/* path_flags: the format's SYSCALL path_flags (enum sct_path_flag), bit for bit. */
#define SCT_EV_PATH_CAPTURED 1
#define SCT_EV_PATH_LATE 2
#define SCT_EV_PATH_CUT 4
#define SCT_EV_PATH_FAULT 8
/* Room for one path: one more byte than --args-max could ask, and the NUL (a cut is seen). */
#define SCT_PATH_ROOM (SCT_PATH_MAX + 8)

/*
 * --args, format 1.7: the memory a call's other arguments point to, after its paths (padded to
 * 8 bytes) in a path event whose mem is 1: this header, addr_len bytes of socket address, then
 * argv_len bytes of exec's arguments (each ending in a NUL), then data_len bytes of data. A
 * call has exec's arguments or data, never both: they share SCT_ARGV_ROOM. The flags are the
 * format's addr_flags, argv_flags and data_flags, bit for bit.
 */
#define SCT_ADDR_MAX 128          /* the format's SCT_MAX_ADDR */
#define SCT_ARGV_ROOM SCT_PATH_MAX /* exec's arguments: --args-max bytes at most */
#define SCT_DATA_MAX SCT_ARGV_ROOM /* --args-data's bound */
#define SCT_ENVC_MAX 1024         /* environment entries counted, at most */
#define SCT_EV_ENVC_LOWER 32      /* argv_flags: envc stopped at SCT_ENVC_MAX */
struct sct_ev_mem {
	__u16 addr_len;
	__u8 addr_flags;
	__u8 argv_flags;
	__u16 argv_len;
	__u16 data_len;
	__u32 envc;
	__u8 data_flags;
	__u8 pad[3];
};
#define SCT_MEM_ROOM (16 + SCT_ADDR_MAX + SCT_ARGV_ROOM)

struct sct_ev_syscall_path {
	struct sct_ev_syscall_args a;
	__u16 path_len;   /* bytes of the first path, no NUL */
	__u8 path_flags;
	__u8 path_arg;    /* the capture_args path it was read by (for sys_exit) */
	__u16 path2_len;  /* bytes of the second path, at path + path_len */
	__u8 path2_flags;
	__u8 mem;         /* 1: struct sct_ev_mem follows the paths (format 1.7) */
	char path[2 * SCT_PATH_ROOM + SCT_MEM_ROOM];
};

/* capture_args' path: which arguments of a syscall are its paths. */
#define SCT_PATH_ARG_MASK 7   /* the first path argument's index, 0 .. 5 */
#define SCT_PATH_NO_RETRY 8   /* exec family: at exit the memory is another program's */
#define SCT_PATH_ARG_VALID 16 /* the syscall has a path argument */
#define SCT_PATH2_ARG_SHIFT 5 /* bits 5..7: 1 + the second path argument's index, 0 if none */

/*
 * capture_args map values (--args): which arguments of a syscall are its paths (path,
 * SCT_PATH_ARG_*), and (format 1.7) the memory other ones point to that its SYSCALL record
 * holds, by argument index; flags say which (SCT_CAP_*).
 */
struct sct_capture_args {
	__u8 path;
	__u8 addr;  /* a struct sockaddr * (its length the next argument) or a struct user_msghdr * */
	__u8 argv;  /* exec's arguments */
	__u8 envp;  /* exec's environment */
	__u8 data;  /* a data buffer (its length the next argument) */
	__u8 flags;
	__u8 pad[2];
};
#define SCT_CAP_ADDR 1      /* addr holds a socket address, read at entry */
#define SCT_CAP_ADDR_EXIT 2 /* read at exit instead: the kernel fills it (the length's pointer too) */
#define SCT_CAP_MSGHDR 4    /* addr is a message: its msg_name and msg_namelen */
#define SCT_CAP_ARGV 8
#define SCT_CAP_ENVP 16
#define SCT_CAP_DATA 32     /* data is what the call writes, read at entry */
#define SCT_CAP_DATA_EXIT 64 /* data is what it reads, at exit */

/*
 * --stack: the stacks of a call recorded in detail, taken at its sys_exit and output just
 * before its SYSCALL event, which is the next one of tid (nothing is staged under --stack):
 * kernel_n kernel return addresses in ips, then user_n user ones, innermost first each. The
 * record is cut after them.
 */
#define SCT_STACK_DEPTH_MAX 127 /* per part: the format's bound */
#define SCT_STACK_USER 1
#define SCT_STACK_KERNEL 2
struct sct_ev_stack {
	__u16 type; /* SCT_EV_STACK */
	__u16 kernel_n, user_n;
	__u16 pad;
	__u32 pid, tid;
	__u64 enter_ns;
	__u64 ips[2 * SCT_STACK_DEPTH_MAX];
};

struct sct_ev_fork {
	__u16 type; /* SCT_EV_FORK */
	__u8 is_thread;
	__u8 pad;
	__u32 parent_pid, parent_tid, child_pid, child_tid;
	__u32 pad2;
	__u64 time_ns;
	__u64 child_start_ns;
};

struct sct_ev_exit {
	__u16 type; /* SCT_EV_EXIT */
	__u8 group_dead;
	__u8 pad;
	__u32 pid, tid;
	__s32 exit_code;
	__u32 signal;
	__u32 pad2;
	__u64 time_ns;
	__u64 start_ns;
};

struct sct_ev_exec {
	__u16 type; /* SCT_EV_EXEC */
	__u16 filename_len; /* bytes of filename used, no NUL */
	__u32 pid, tid, old_tid;
	__u64 time_ns;
	char comm[SCT_COMM_LEN];
	char filename[SCT_FILENAME_LEN];
};

/*
 * A traced task that no TASK or FORK record describes, at the first call it makes: under -G one
 * that entered the cgroup other than by a traced parent's fork (moved in, cloned into it); in
 * every mode one that made a call between the attach and the first TASK snapshot (it may be
 * gone by the snapshot). The facts of a TASK record.
 */
struct sct_ev_task {
	__u16 type; /* SCT_EV_TASK */
	__u16 pad;
	__u32 pid, tid, ppid;
	__u64 time_ns;
	__u64 start_ns;
	__u64 cgroup_id;
	char comm[SCT_COMM_LEN];
};

/* Per-task storage of the syscall in flight. */
struct sct_inflight {
	__u64 enter_ns;
	__u32 nr;
	__u8 abi;
	__u8 active; /* 1 between sys_enter and sys_exit */
	/*
	 * -G without task storage (inflight_hash): the task is described in the trace. With
	 * task storage this lives in the described map, apart from the call parked here.
	 */
	__u8 described;
	/*
	 * Under a filter: the call passed the filters known at sys_enter (syscall, comm) and
	 * may get a SYSCALL record; 0, it is only counted in the totals.
	 */
	__u8 detail;
};

/*
 * Under a filter or --summary-only, every call of the targets is counted per process, cgroup,
 * syscall, ABI and duration bucket: in its CPU's slot of totals_cache when the slot is free
 * or the key's, else in the per-CPU hash map totals; a key's sums are those of its buckets.
 * The counts only grow; the recorder writes what they grew by since its last read (TOTALS
 * records) and frees a dead process's slots and keys.
 */
#define SCT_TOT_HIST_BITS 9 /* the format's sub-bucket bits of the TOTALS it writes */
struct sct_tot_key {
	__u32 pid;
	__u32 nr;
	__u64 cgroup_id;
	__u8 abi;
	__u8 pad[7];
};

/* totals' key: a key and one bucket of its histogram */
struct sct_tot_bucket_key {
	struct sct_tot_key k;
	__u32 bucket;      /* the format's histogram bucket with SCT_TOT_HIST_BITS sub-bucket bits */
	__u32 pad;
};

struct sct_tot_value {
	__u64 calls;
	__u64 errors;      /* returned -4095 .. -1 */
	__u64 duration_ns; /* their sum */
	__u64 max_ns;      /* the largest since the key was made: within its bucket */
};

/*
 * One slot of totals_cache: 64 bytes, one cache line. key.k.pid 0: free. Its CPU's programs
 * take it by writing the key with the first word (pid, nr) last, and only then count in it;
 * the recorder reads the first word first, and frees a dead process's slot by zeroing the
 * rest before it (x86's stores are seen in program order: bpf/sct.bpf.c's totals_slot()).
 */
struct sct_tot_slot {
	struct sct_tot_bucket_key key;
	struct sct_tot_value v;
};

/* totals_cache's slots per CPU: 2^bits, bits at most this */
#define SCT_TOT_CACHE_BITS_MAX 12

/*
 * The task that last entered a syscall on a CPU and has not been switched out since: the head
 * of the per-CPU values of cpu_calls and cpu_calls_args.
 */
struct sct_cpu_owner {
	__u64 task;      /* its task_struct's address; 0: none since the last switch */
	/*
	 * Its pt_regs' address, the same at its sys_enter and sys_exit and unique among live
	 * tasks: the programs know the running task is the owner without a helper call; cleared
	 * with task.
	 */
	__u64 regs;
	__u32 traced;    /* the filter's verdict on it, taken once per stay on the CPU */
	__u32 pid, tid;
	__u32 pad;
	__u64 cgroup_id; /* its cgroup v2 id, read when cgroup_moves was moves */
	__u64 moves;
};

/* Its call in flight: the head of the per-CPU value of cpu_calls. Read by the recorder at stop. */
struct sct_cpu_call {
	struct sct_cpu_owner o;
	struct sct_inflight in;
};

/* One CPU's SYSCALL events not yet in the ring buffer (bpf/sct.bpf.c). */
struct sct_stage {
	__u32 busy; /* taken by a program on this CPU: another one writes directly */
	__u32 n;    /* slots used, at most SCT_STAGE_LEN */
	__u64 since_ns; /* when the first of them was staged */
	__u32 calls;    /* CALL slots used */
	__u32 run_tid;  /* the last run's task, while n > 0 */
	__u64 run_cgroup_id;
	union sct_stage_slot slot[SCT_STAGE_LEN];
};

/*
 * A CPU's entry of stage_marks, which the recorder reads mapped: since_ns of the CPU's stage
 * while it holds events, 0 once they are in the ring buffer. A cache line each, as each CPU
 * writes its own.
 */
struct sct_stage_mark {
	__u64 since_ns;
	__u64 pad[7];
};

/*
 * Per-CPU value (cpu_calls): the CPU's call in flight and its stage side by side, so that
 * sys_exit finds both with one lookup.
 */
struct sct_cpu_slot {
	struct sct_cpu_call call;
	struct sct_stage stage;
};

/*
 * --args: the syscall in flight with its arguments and path, in its CPU's slot
 * (cpu_calls_args) or, once its task left the CPU, in the task's storage (inflight_args): the
 * event is built in place and output from there. cap: its capture_args value, when ev.mem.
 */
struct sct_inflight_args {
	struct sct_inflight in;
	struct sct_capture_args cap;
	struct sct_ev_syscall_path ev;
};

/* --args: its call in flight, arguments and paths: the head of cpu_calls_args' value. */
struct sct_cpu_call_args {
	struct sct_cpu_owner o;
	struct sct_inflight_args ia;
};

/*
 * --args: one CPU's argument events not yet in the ring buffer, of both kinds and sizes, back
 * to back: a path event is staged like any other, so the ring buffer's lock and lines are paid
 * per batch.
 */
struct sct_stage_args {
	__u32 busy, n; /* as struct sct_stage's */
	__u64 since_ns;
	__u32 used;    /* bytes of buf staged */
	__u32 pad;
	__u8 buf[SCT_ARGS_STAGE_BYTES];
};

/* --args: per-CPU value (cpu_calls_args): the CPU's call and its stage, found with one lookup. */
struct sct_cpu_slot_args {
	struct sct_cpu_call_args call;
	struct sct_stage_args stage;
};

/* Per-CPU counters (stats map, one element). Only ever grow. */
struct sct_stats {
	__u64 ringbuf_full;  /* events dropped: ring buffer reserve failed */
	__u64 inflight_full; /* syscalls not recorded: no task storage */
	__u64 targets_full;  /* tasks not traced: targets map insert failed */
	__u64 stage_busy;    /* SYSCALL events not staged, written directly: the stage was taken */
	__u64 totals_full;   /* calls not counted in the totals: a totals map was full */
};

/* The task iterator writes one of these per task it reports (see sct_iter_mode). */
enum sct_iter_mode {
	SCT_ITER_TASKS = 0,    /* every traced task: TASK snapshot */
	SCT_ITER_INFLIGHT = 1, /* every traced task with a syscall in flight */
};

struct sct_iter_task {
	__u32 pid, tid, ppid;
	union {
		__u32 nr;        /* INFLIGHT */
		/*
		 * TASKS, the first snapshot: an SCT_EV_TASK event describes the task already (it
		 * made a call since the attach): counted among the tasks, not written again.
		 */
		__u32 described;
	};
	__u64 start_ns;
	__u64 cgroup_id;
	__u64 enter_ns;
	__u8 abi;
	__u8 has_args;   /* INFLIGHT under --args: args and path_flags are the call's */
	__u8 path_flags; /* SCT_EV_PATH_* of a call with a path argument, else 0 */
	__u8 path2_flags; /* of its second path argument */
	__u16 path_len;  /* bytes of the path, right after this struct in the iterator's output */
	__u16 path2_len; /* bytes of the second path, right after the first */
	char comm[SCT_COMM_LEN];
	__u64 args[SCT_ARGS];
};

/*
 * The layouts both compilations must agree on (clang -target bpf and the host compiler):
 * a field moved on one side only would be read as another field, with no error anywhere.
 */
#define SCT_ABI_ASSERT_AT(type, field, off) \
	_Static_assert(__builtin_offsetof(struct type, field) == (off), #type "." #field)
_Static_assert(sizeof(struct sct_ev_syscall) == 48, "sct_ev_syscall");
SCT_ABI_ASSERT_AT(sct_ev_syscall, nr, 4);
SCT_ABI_ASSERT_AT(sct_ev_syscall, enter_ns, 16);
SCT_ABI_ASSERT_AT(sct_ev_syscall, ret, 40);
_Static_assert(sizeof(struct sct_ev_run) == 24, "sct_ev_run");
SCT_ABI_ASSERT_AT(sct_ev_run, pid, 4);
SCT_ABI_ASSERT_AT(sct_ev_run, cgroup_id, 16);
_Static_assert(sizeof(struct sct_ev_call) == 24, "sct_ev_call");
SCT_ABI_ASSERT_AT(sct_ev_call, duration_ns, 4);
SCT_ABI_ASSERT_AT(sct_ev_call, enter_ns, 8);
SCT_ABI_ASSERT_AT(sct_ev_call, ret, 16);
_Static_assert(sizeof(struct sct_ev_syscall_args) == 96, "sct_ev_syscall_args");
SCT_ABI_ASSERT_AT(sct_ev_syscall_path, path_len, 96);
SCT_ABI_ASSERT_AT(sct_ev_syscall_path, path2_len, 100);
SCT_ABI_ASSERT_AT(sct_ev_syscall_path, path, 104);
_Static_assert(__builtin_offsetof(struct sct_ev_syscall_path, path) + 2 * SCT_PATH_MAX + SCT_MEM_ROOM <=
	       SCT_ARGS_STAGE_BYTES, "a path event fits a stage");
_Static_assert(sizeof(struct sct_ev_mem) == 16, "sct_ev_mem");
/* bpf/sct.bpf.c bounds the sizes of its reads by masks */
_Static_assert(!(SCT_ADDR_MAX & (SCT_ADDR_MAX - 1)) && !(SCT_DATA_MAX & (SCT_DATA_MAX - 1)), "powers of two");
/* the kernel's bound on a per-CPU value (PCPU_MIN_UNIT_SIZE) */
_Static_assert(sizeof(struct sct_cpu_slot_args) <= 32768, "sct_cpu_slot_args");
_Static_assert(sizeof(struct sct_ev_stack) == 24 + 16 * SCT_STACK_DEPTH_MAX, "sct_ev_stack");
_Static_assert(sizeof(struct sct_capture_args) == 8, "sct_capture_args");
SCT_ABI_ASSERT_AT(sct_ev_stack, enter_ns, 16);
_Static_assert(sizeof(struct sct_ev_fork) == 40, "sct_ev_fork");
SCT_ABI_ASSERT_AT(sct_ev_fork, time_ns, 24);
SCT_ABI_ASSERT_AT(sct_ev_fork, child_start_ns, 32);
_Static_assert(sizeof(struct sct_ev_exit) == 40, "sct_ev_exit");
SCT_ABI_ASSERT_AT(sct_ev_exit, exit_code, 12);
SCT_ABI_ASSERT_AT(sct_ev_exit, time_ns, 24);
SCT_ABI_ASSERT_AT(sct_ev_exit, start_ns, 32);
_Static_assert(sizeof(struct sct_ev_task) == 56, "sct_ev_task");
SCT_ABI_ASSERT_AT(sct_ev_task, time_ns, 16);
SCT_ABI_ASSERT_AT(sct_ev_task, comm, 40);
_Static_assert(sizeof(struct sct_ev_exec) == 40 + SCT_FILENAME_LEN, "sct_ev_exec");
SCT_ABI_ASSERT_AT(sct_ev_exec, time_ns, 16);
SCT_ABI_ASSERT_AT(sct_ev_exec, comm, 24);
SCT_ABI_ASSERT_AT(sct_ev_exec, filename, 40);
_Static_assert(sizeof(struct sct_inflight) == 16, "sct_inflight");
_Static_assert(sizeof(struct sct_cpu_owner) == 48, "sct_cpu_owner");
SCT_ABI_ASSERT_AT(sct_cpu_owner, cgroup_id, 32);
_Static_assert(sizeof(struct sct_cpu_call) == 64, "sct_cpu_call");
SCT_ABI_ASSERT_AT(sct_cpu_call, in, 48);
SCT_ABI_ASSERT_AT(sct_cpu_call_args, ia, 48);
SCT_ABI_ASSERT_AT(sct_cpu_slot, stage, 64);
_Static_assert(sizeof(struct sct_cpu_slot) == 96 + 24 * SCT_STAGE_LEN, "sct_cpu_slot");
_Static_assert(sizeof(struct sct_stage_mark) == 64, "sct_stage_mark");
_Static_assert(sizeof(struct sct_stats) == 40, "sct_stats");
_Static_assert(sizeof(struct sct_tot_key) == 24, "sct_tot_key");
_Static_assert(sizeof(struct sct_tot_value) == 32, "sct_tot_value");
_Static_assert(sizeof(struct sct_tot_bucket_key) == 32, "sct_tot_bucket_key");
SCT_ABI_ASSERT_AT(sct_tot_key, cgroup_id, 8);
_Static_assert(sizeof(struct sct_iter_task) == 112, "sct_iter_task");
SCT_ABI_ASSERT_AT(sct_iter_task, path_len, 44);
SCT_ABI_ASSERT_AT(sct_iter_task, path2_len, 46);
SCT_ABI_ASSERT_AT(sct_iter_task, args, 64);
SCT_ABI_ASSERT_AT(sct_iter_task, start_ns, 16);
SCT_ABI_ASSERT_AT(sct_iter_task, enter_ns, 32);
SCT_ABI_ASSERT_AT(sct_iter_task, comm, 48);
#undef SCT_ABI_ASSERT_AT

#endif
