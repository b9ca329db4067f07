/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The perf backend: the same SYSCALL, TASK, FORK, EXEC, EXIT, CGROUP and LOST records as the
 * BPF backend, from perf_event_open() on tracepoints, for hosts without BPF or BTF.
 *
 *   perf_format.c   tracefs: tracepoint ids and the field offsets of their format files
 *   perf_events.c   opening the events: per thread with inherit, per CPU, per cgroup
 *   perf_ring.c     the per-CPU mmap rings, read in time order across CPUs
 *   perf_pair.c     enter/exit pairing per tid in a bounded table
 *   perf_tasks.c    TASK records of the tasks alive at start, from /proc
 *   perf_backend.c  the session: open, read, turn perf records into trace records, drain
 *
 * Functions return 0 or a negative errno, as everywhere in record/.
 */
#ifndef SCT_RECORD_PERF_H
#define SCT_RECORD_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "../record.h"

/* perf_format.c ------------------------------------------------------------------------ */

/* Mount tracefs if needed; the events folder (…/events) into buf, or -errno with a reason. */
int perf_tracefs_events(char *buf, size_t cap);
/* The id of GROUP/NAME from tracefs. */
int perf_tracepoint_id(const char *events, const char *group, const char *name, uint64_t *id);
/* Offset and size of field name in GROUP/NAME's format; -ENOENT if it has no such field. */
int perf_field(const char *events, const char *group, const char *name, const char *field,
	       uint32_t *offset, uint32_t *size);

/*
 * Every field of GROUP/NAME's format, as the HEADER event table describes it (name, the
 * declaration as written, offset, size, signedness, __data_loc); -ENODATA if none.
 */
int perf_event_format(const char *events, const char *group, const char *name,
		      struct sct_event_field **fields, uint32_t *nfields);
void perf_event_format_free(struct sct_event_field *fields, uint32_t n);

/* perf_events.c ------------------------------------------------------------------------ */

/* The tracepoints the backend reads, in the order of struct perf_tps. */
enum perf_tp {
	PERF_TP_SYS_ENTER,
	PERF_TP_SYS_EXIT,
	PERF_TP_EXEC,
	PERF_TP_EXIT,
	PERF_TP_COUNT,
};

/* Where the fields the backend reads sit in each tracepoint's raw record. */
struct perf_layout {
	uint32_t enter_id, enter_args;    /* raw_syscalls:sys_enter: id, args[6] */
	uint32_t exit_id, exit_ret;       /* raw_syscalls:sys_exit: id, ret */
	uint32_t exec_filename, exec_old; /* sched:sched_process_exec: __data_loc filename, old_pid */
	uint32_t exit_group_dead;         /* sched:sched_process_exit: group_dead, 0 if absent */
	uint32_t exit_comm;               /* sched:sched_process_exit: comm */
	bool have_group_dead;
};

struct perf_tps {
	char events[4096];                /* tracefs events folder */
	uint64_t id[PERF_TP_COUNT];
	struct perf_layout layout;
};

/* Ids and layouts of the backend's tracepoints; -errno and why not into why. */
int perf_tps_read(struct perf_tps *tps, char *why, size_t cap);
/* Whether the kernel accepts PERF_SAMPLE_CGROUP (Linux 5.7+); why into why. */
bool perf_probe_sample_cgroup(char *why, size_t cap);
/*
 * Whether the perf_event cgroup controller has state in the cgroup2 hierarchy, so that
 * PERF_SAMPLE_CGROUP and -G's per-cgroup events see cgroup2 ids; why into why.
 */
bool perf_probe_cgroup(char *why, size_t cap);
/* Whether this process may open the tracepoints: CAP_PERFMON, root or perf_event_paranoid. */
bool perf_probe_access(char *why, size_t cap);

/* One event open per (tracepoint, origin, CPU); origin = the tid it was opened for, or 0. */
struct perf_id_info {
	uint32_t origin;
	bool chain;                       /* PERF_SAMPLE_CALLCHAIN: perf_open's chain_id */
};
struct perf_fds {
	int *fd;
	size_t n, cap;
	/*
	 * event id (PERF_EVENT_IOC_ID) -> what its samples are: the origin tid (thread targets)
	 * and whether they carry a callchain (open addressing); events of neither are left out
	 */
	uint64_t *ids;
	struct perf_id_info *info;
	size_t nids;                      /* power of two */
};

struct perf_ring;
struct perf_open {
	const uint64_t *ids;              /* tracepoints: the backend's (sys_enter first), then -e's */
	uint32_t nids;
	uint64_t flush_id;                /* raw_syscalls:sys_enter, for perf_open_flush() */
	uint64_t sample_type;             /* of every event */
	/*
	 * --stack: the tracepoint whose samples also carry PERF_SAMPLE_CALLCHAIN (sys_exit: a
	 * call's stack is taken where it returns), 0: none; stack_depth frames, user only
	 */
	uint64_t chain_id;
	uint16_t stack_depth;
	uint32_t watermark;               /* bytes in a ring before the reader is woken */
	size_t data_pages;                /* of each ring, a power of two */
	struct perf_ring *rings;          /* one per CPU, the first event of each CPU maps it */
	int ncpus;
	/* -S: the tracefs filter of raw_syscalls' events (ids[0] and ids[1]), or NULL */
	const char *syscall_filter;
};
/*
 * -S as a tracefs filter of raw_syscalls' "id" (native numbers): runs of numbers as ranges,
 * or the numbers left out when that is shorter. -E2BIG if it does not fit cap.
 */
int perf_syscall_filter(const struct record_filter *f, char *buf, size_t cap);

/*
 * Events of every tracepoint for thread tid, on every CPU, inherited by what it creates.
 */
int perf_open_thread(struct perf_fds *f, const struct perf_open *o, uint32_t tid);
/* Events of every tracepoint on every CPU: for every task (cgroup_fd < 0) or a cgroup's. */
int perf_open_cpus(struct perf_fds *f, const struct perf_open *o, int cgroup_fd);
/*
 * The kernel writes the count of records a full ring dropped (PERF_RECORD_LOST) only before
 * the next record it can write there: once the traced tasks are gone, none may come. An
 * event of the recorder's own sys_enter per CPU, disabled, writes into each ring, and
 * perf_rings_flush_lost() makes one sample on each CPU at stop (the reader drops it).
 */
int perf_open_flush(struct perf_fds *f, const struct perf_open *o);
void perf_rings_flush_lost(struct perf_ring *rings, int n);
/* Stop every event (they start enabled): what is in the rings is then final. */
void perf_fds_disable(struct perf_fds *f);
/* The tid an event was opened for (0 for per-CPU events and unknown ids). */
uint32_t perf_fds_origin(const struct perf_fds *f, uint64_t id);
/* Whether the event's samples carry a callchain (perf_open's chain_id; false for unknown ids). */
bool perf_fds_chain(const struct perf_fds *f, uint64_t id);
void perf_fds_close(struct perf_fds *f);

/* perf_ring.c -------------------------------------------------------------------------- */

struct perf_ring {
	int fd;                           /* -1 until an event maps it */
	int flush_fd;                     /* perf_open_flush()'s event on this CPU, or -1 */
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	size_t size, mask, map_len;
	uint64_t head, tail;              /* head read at the start of a pass; tail is ours */
	uint8_t *copy;                    /* a record that wraps, copied whole */
	const struct perf_event_header *cur; /* the record at the tail during a pass */
	uint64_t cur_ns;
};

/* Map the ring of fd (data_pages a power of two); the ring stays with its fd. */
int perf_ring_map(struct perf_ring *rb, int fd, size_t data_pages);
void perf_ring_unmap(struct perf_ring *rb);

/* A record of the ring of cpu. */
typedef int (*perf_record_fn)(void *ctx, int cpu, const struct perf_event_header *h);
/*
 * Hand fn the records of every ring in time order, up to horizon_ns (UINT64_MAX: all).
 * A thread moves between CPUs inside a syscall: its enter is in one ring and its exit in
 * another, so a record is only handed over once no ring can still receive an older one.
 * Returns the records handed over, or fn's error.
 */
int64_t perf_rings_read(struct perf_ring *rings, int n, uint64_t horizon_ns, perf_record_fn fn,
			void *ctx);
/* Time of a record: samples and side-band records (sample_id_all) carry it. */
uint64_t perf_record_time(const struct perf_event_header *h);

/* perf_pair.c -------------------------------------------------------------------------- */

/* What the table knows of one tid. */
struct perf_task {
	uint32_t tid;                     /* 0: empty slot */
	uint32_t pid;
	uint32_t origin;                  /* events whose samples count for it (duplicates dropped) */
	uint32_t nr;                      /* syscall in flight */
	__u64 args[SCT_ARGS];             /* its argument registers (--args) */
	uint64_t enter_ns;                /* 0: no syscall in flight; UINT64_MAX: an exited leader */
	uint64_t cgroup_id;
	uint64_t start_ns;
	int32_t exit_code;                /* argument of its exit/exit_group; -1 none */
	int32_t group_code;               /* exit_group of the group whose leader is tid; -1 none */
	bool sampled;                     /* a syscall sample of it was seen */
	bool noreturn_written;            /* its exit or exit_group was written at entry (--args) */
	bool comm_known;                  /* -c: comm is the task's name */
	char comm[SCT_COMM_LEN];
	bool described;                   /* a TASK or FORK record of it is written (or tried) */
	uint64_t undescribed_ns;          /* gone from /proc when first met, then: its exit describes it */
};

struct perf_pair {
	struct perf_task *slots;
	size_t nslots, used, max;         /* nslots a power of two; used bounded by max */
	uint64_t full;                    /* calls not recorded: no room for their task */
	uint64_t orphan_exits;            /* exits without their enter, past a task's first sample */
};

int perf_pair_init(struct perf_pair *p, size_t max_tasks);
void perf_pair_free(struct perf_pair *p);
/* The slot of tid, NULL if it has none. */
struct perf_task *perf_pair_find(struct perf_pair *p, uint32_t tid);
/* The slot of tid, made if missing; NULL when the table is at its bound. */
struct perf_task *perf_pair_get(struct perf_pair *p, uint32_t tid);
/* Forget tid (its task exited). */
void perf_pair_drop(struct perf_pair *p, uint32_t tid);

/* perf_user.c: the -e tracepoints ---------------------------------------------------- */

struct perf_user {
	struct sct_event_desc *desc;      /* the HEADER's event table, n entries */
	uint64_t *ids;                    /* tracepoint id of each */
	uint32_t n;
};

/* Ids and formats of names[n] ("GROUP:NAME") in tracefs; prints why not and returns -errno. */
int perf_user_read_report(struct perf_user *u, const char *events, char *const *names, size_t n);
/* Index of the -e event with tracepoint id, or -1. */
int perf_user_find(const struct perf_user *u, uint64_t id);
void perf_user_free(struct perf_user *u);

/* perf_tasks.c ------------------------------------------------------------------------- */

/* /proc/TID facts for a TASK record. */
struct perf_proc_task {
	uint32_t pid, tid, ppid;
	uint64_t start_ns;                /* CLOCK_MONOTONIC, to the clock tick */
	uint64_t cgroup_id;               /* 0 unknown */
	char comm[SCT_COMM_LEN];
};

/* Read tid's facts; -ESRCH if it is gone. cgroup_mount "" (none): cgroup ids 0. */
int perf_proc_task(const char *cgroup_mount, uint32_t tid, struct perf_proc_task *t);
/*
 * Whether the task tid that started at start_ns (<= 1: unknown) is gone: no /proc/TID, a
 * zombie, a kernel thread, or another task that was given the tid since.
 */
bool perf_proc_gone(uint32_t tid, uint64_t start_ns);
/* The cgroup v2 id of tid as /proc/TID/cgroup names it; 0 if unknown. */
uint64_t perf_proc_cgroup(const char *cgroup_mount, uint32_t tid);
/* Every thread of every process in /proc, except the recorder's: fn for each. */
typedef int (*perf_tid_fn)(void *ctx, uint32_t pid, uint32_t tid);
int perf_proc_walk(perf_tid_fn fn, void *ctx);

/* perf_backend.c ----------------------------------------------------------------------- */

/*
 * -e beside the bpf backend: perf events of the -e tracepoints only, for the same targets,
 * written as SAMPLE records. new: before bpf's /proc passes (which then open each target
 * thread's events) and before the trace is created (the HEADER's event table); prints why
 * not. start: per-CPU events for -G/-a, the rings into epfd, the tasks alive at start. read:
 * a pass over the rings, as the loop goes. drain: at stop. Every function accepts NULL.
 */
struct perf_backend *perf_sampler_new_report(struct recorder *r, int *err);
int perf_sampler_start_report(struct perf_backend *b, int epfd);
int perf_sampler_read(struct perf_backend *b, uint64_t now_ns);
int perf_sampler_drain(struct perf_backend *b);
void perf_sampler_free(struct perf_backend *b);

#endif
