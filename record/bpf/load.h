/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The skeletons of bpf/sct.bpf.c behind one interface: load_light.c (bpftool's light
 * skeletons, one with the plain syscall programs and one with the --args ones: the kernel
 * applies CO-RE, Linux 5.17+) and load_skel.c (the ordinary skeleton, every program: libbpf
 * applies CO-RE from the vmlinux BTF). lifecycle.c picks one from the probes.
 *
 * load() sets *skel and fills the handles the recorder uses; on error *skel may be set, and
 * destroy() frees it. Functions return 0 or a negative errno.
 */
#ifndef SCT_RECORD_LOAD_H
#define SCT_RECORD_LOAD_H

#include <stdbool.h>
#include <string.h>
#include <linux/types.h>

/* What both skeletons set before load. */
struct load_settings {
	__u32 self_tgid;
	__u32 mode;               /* enum sct_mode */
	__u64 target_cgroup;
	__u32 target_level;
	__u64 wakeup_bytes;
	__u32 max_tasks;          /* entries of the targets map */
	__u32 max_inflight;       /* entries of inflight_hash, when it is used */
	__u32 max_forked;         /* entries of forked: children whose FORK describes them */
	__u64 ringbuf_size;
	bool inflight_in_hash;    /* no task storage: the *_hash syscall programs */
	bool staged;              /* SYSCALL events staged per CPU, flushed by stage_prog_fd */
	__u64 stage_age_ns;       /* a stage this old is due (the poll timeout) */
	__u32 ncpus;              /* entries of stage_marks: the possible CPUs */
	bool args;                /* --args: the *_args syscall programs (task storage only) */
	bool captures;            /* --args: a session with captures (exit at its entry) */
	__u32 args_data;          /* --args-data: bytes of a call's data kept, 0 none */
	bool task_cast;           /* sys_enter casts the task address its slot keeps */
	__u32 args_max;
	__u32 npath_args;         /* entries of capture_args: both syscall tables' numbers */
	__u32 compat_path_base;   /* where capture_args' compat numbers start */
	/* Filters and totals: the rodata of the same names in bpf/sct.bpf.c */
	bool totals_on;
	bool details_off;
	bool filter_syscalls;
	__u32 syscall_compat_base;
	__u32 nsyscall_set;       /* entries of syscall_set */
	bool filter_failed;
	bool filter_errnos;
	__u64 filter_min_ns;
	__u32 filter_ncomms;
	char filter_comms[8][16];
	__u32 filter_path_len;
	char filter_path[256];
	__u32 noreturn_nr[2][2];
	__u32 max_totals;         /* entries of totals */
	__u32 totals_cache_bits;  /* totals_cache: ncpus << this entries */
	__u32 stack_parts;        /* --stack: SCT_STACK_USER | SCT_STACK_KERNEL, 0 none */
	__u32 stack_depth;        /* --stack-depth */
	__u32 max_stack_pids;     /* entries of stack_pids: --max-tasks under --stack, else 1 */
};

/* What the recorder uses of the loaded skeleton. */
struct load_handles {
	int targets_fd, stats_fd, events_fd;
	int iter_prog_fd;
	int stage_prog_fd;        /* stage_flush_cpu: run on each CPU by the recorder */
	int stage_marks_fd;       /* each CPU's stage, mapped by the recorder */
	int capture_args_fd;      /* filled by the recorder before attach under --args */
	int cpu_calls_fd;         /* the calls in flight on each CPU, read at stop */
	int cpu_calls_args_fd;    /* the same under --args */
	int syscall_set_fd, errno_set_fd; /* the filter's sets, filled before attach */
	int totals_fd;            /* read by the recorder every flush interval */
	int totals_cache_fd;      /* the same, mapped */
	__u32 *iter_mode;         /* the iterator's switch, in the mapped .bss */
	bool *snapshot_done;      /* set once the first TASK snapshot is written, in the .bss */
	__u64 *ntargets;          /* entries in the targets map, in the mapped .bss */
};

struct loader {
	const char *name;         /* for the ready line */
	int (*load)(void **skel, const struct load_settings *s, struct load_handles *h);
	/*
	 * The syscall programs of the in-flight store chosen at load (or the --args ones), and
	 * the lifecycle ones, these first: sched_exit before sched_fork, so that no key
	 * sched_fork adds for a child outlives the child (the recorder would wait for a target
	 * long gone), and both before sys_enter, so that no in-flight slot misses its task's exit.
	 */
	int (*attach)(void *skel, bool inflight_in_hash, bool args);
	/* Close the links and forget them; the programs and maps stay. */
	void (*detach)(void *skel);
	/* Accepts NULL. */
	void (*destroy)(void *skel);
};

extern const struct loader load_light, load_light_args, load_skel;

/* The rodata of any skeleton: their objects come from one source, so the fields are the same. */
#define LOAD_RODATA_SET(ro, s)                                  \
	do {                                                    \
		(ro)->self_tgid = (s)->self_tgid;               \
		(ro)->mode = (s)->mode;                         \
		(ro)->target_cgroup = (s)->target_cgroup;       \
		(ro)->target_level = (s)->target_level;         \
		(ro)->wakeup_bytes = (s)->wakeup_bytes;         \
		(ro)->inflight_in_hash = (s)->inflight_in_hash; \
		(ro)->staged = (s)->staged;                     \
		(ro)->stage_age_ns = (s)->stage_age_ns;         \
		(ro)->task_cast = (s)->task_cast;               \
		(ro)->args_on = (s)->args;                      \
		(ro)->captures_on = (s)->captures;              \
		(ro)->args_data = (s)->args_data;               \
		(ro)->args_max = (s)->args_max;                 \
		(ro)->compat_path_base = (s)->compat_path_base; \
		(ro)->totals_on = (s)->totals_on;               \
		(ro)->totals_cache_bits = (s)->totals_cache_bits; \
		(ro)->details_off = (s)->details_off;           \
		(ro)->filter_syscalls = (s)->filter_syscalls;   \
		(ro)->syscall_compat_base = (s)->syscall_compat_base; \
		(ro)->filter_failed = (s)->filter_failed;       \
		(ro)->filter_errnos = (s)->filter_errnos;       \
		(ro)->filter_min_ns = (s)->filter_min_ns;       \
		(ro)->filter_ncomms = (s)->filter_ncomms;       \
		memcpy((void *)(ro)->filter_comms, (s)->filter_comms, sizeof((s)->filter_comms)); \
		(ro)->filter_path_len = (s)->filter_path_len;   \
		memcpy((void *)(ro)->filter_path, (s)->filter_path, sizeof((s)->filter_path)); \
		memcpy((void *)(ro)->noreturn_nr, (s)->noreturn_nr, sizeof((s)->noreturn_nr)); \
		(ro)->stack_parts = (s)->stack_parts;           \
		(ro)->stack_depth = (s)->stack_depth;           \
	} while (0)

#endif
