/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record/host/: what sct-record learns of and does to the host: targets, cgroups, the kernel's
 * syscall descriptions, the command after -- and its terminal relay. Included through
 * record.h; the error convention is record.h's.
 */
#ifndef SCT_RECORD_HOST_H
#define SCT_RECORD_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "sct.h"

struct env;
struct recorder;

/* capabilities.c: the recorder's privileges. */
/* Whether cap (CAP_*) is in the effective set; always for root. */
bool capabilities_have(unsigned cap);
/* Root, or CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): what loading the programs needs. */
bool capabilities_bpf(void);
/* Says that loading BPF programs needs those privileges; returns -EPERM. */
int capabilities_bpf_denied(void);
/* capabilities_bpf(), or capabilities_bpf_denied(). */
int capabilities_bpf_report(void);

/* cgroup_paths.c: cgroup v2 id -> path under the mount. */
struct cgroups;
/* Find the cgroup2 mount in /proc/self/mountinfo into buf; -ENOENT if there is none. */
int cgroups_find_mount(char *buf, size_t cap);
/* Whether a cgroup v1 hierarchy is mounted (for the HEADER on a v1-only host). */
bool cgroups_v1_mounted(void);
struct cgroups *cgroups_new(const char *mount);
void cgroups_free(struct cgroups *c);
/* 1 the first time id is passed, 0 afterwards, -ENOMEM. */
int cgroups_first_seen(struct cgroups *c, uint64_t id);
/* Every id becomes unseen again: a new file names its cgroups anew. */
void cgroups_forget_seen(struct cgroups *c);
/* Path of id below the mount ("/" = root); rescans the mount on a miss. NULL if not found. */
const char *cgroups_path(struct cgroups *c, uint64_t id);
/*
 * Resolve -G's argument (absolute under the mount or relative to it) to its id and depth
 * (root = 0). -ENOENT if it is no directory there, -EXDEV if it is outside the mount.
 */
int cgroups_target(const char *mount, const char *arg, uint64_t *id, uint32_t *level);

/* syscall_formats.c: --args, the kernel's syscall descriptions. */
struct args_table {
	struct sct_syscall_args *v;  /* the HEADER's native descriptions, n of them */
	uint32_t n;
	struct sct_syscall_args *compat; /* the compat ABI's (HEADER "compat"), ncompat of them */
	uint32_t ncompat;
	bool *wide;                  /* v[i] takes a 64-bit integer: split in two on ia32 */
	/*
	 * The BPF capture_args map's values: its path byte from path_args, the rest from
	 * capture_args (format 1.7); native syscall nr at nr, compat nr at compat_base + nr.
	 */
	uint8_t *path_args;
	struct sct_capture_args *capture_args;
	uint32_t npath_args, compat_base;
	bool paths;                  /* the descriptions were read: paths are captured */
};
/*
 * Read every sys_enter_* format of tracefs (mounted if it is not); data: the read and write
 * calls' buffers are "buf" arguments (--args-data). Returns 0, -ENOENT when tracefs or its
 * syscall events are missing (t then holds an empty path_args), -errno.
 */
int args_describe(struct args_table *t, bool data);
void args_free(struct args_table *t);


/* The command after --. */
struct relay;
struct command {
	pid_t pid;                  /* 0: none */
	struct relay *relay;        /* -u on a terminal: the command's own pseudo-terminal */
	int go_fd;                  /* write end of the hold pipe until released, or -1 */
	int err_fd;                 /* read end of the exec result pipe, or -1 */
	bool done;                  /* reaped */
	int exec_err;               /* errno of a failed exec (or of the switch to -u's user) */
};

/* A set of ids (open addressing, 0 is never an id). */
struct idset {
	uint32_t *slots;
	size_t nslots, used;
};

/* The targets map as userspace sees it (targets.c). */
struct targets {
	int map_fd;
	__u64 *count;               /* entries in the map, in the mapped .bss: BPF keeps it too */
	struct idset inserted;      /* put in the map by the /proc passes: the prune checks them */
	struct idset not_fit;       /* found no room: retried after the prune */
	/*
	 * Set for perf events (the perf backend, -e): called once per tid the /proc passes find,
	 * before the map insert, or instead of it when map_fd is -1.
	 */
	int (*insert)(void *ctx, uint32_t tid);
	void *insert_ctx;
	struct idset hooked;        /* the tids insert was called for */
};


/* command.c: the workload after --, held on a pipe until tracing is live. */
void command_init(struct command *c);
/*
 * Fork the command, held before its exec with everything before it done: -u's user taken,
 * its terminal set up, the program found through PATH. Prints its message on failure:
 * "cannot run 'CMD': why" when the command cannot run (command_status() says with what
 * status to exit), else "cannot fork the command". Returns 0 or -errno.
 */
int command_start_report(struct command *c, const struct env *env);
/* 127 for a command that was not found, 126 for one that cannot run otherwise, else 0. */
int command_status(const struct command *c);
/* Let it exec (after starting the terminal relay, if any). */
int command_release(struct command *c);
/*
 * The recording has ended: the command's output is relayed until its side of its terminal
 * closes (bounded), and our terminal is restored, before the recorder's last lines.
 */
void command_relay_end(struct command *c);
/* Reap the command if it exited; true once it has. */
bool command_reaped(struct command *c);
/* Never release it: it exits before its exec; reaped. */
void command_abort(struct command *c);
/* The recording ended: SIGTERM to a command still running, unless --keep-command. */
void command_stop(struct command *c, const struct env *env);
/*
 * At exit: abort a command never released; reap a stopped one (SIGKILL past a grace period).
 * Returns 0, or the shell's status for a command that could not be executed (127 not found,
 * 126 otherwise) after printing "cannot run 'CMD': why".
 */
int command_finish_report(struct command *c, const struct env *env);

/*
 * relay.c: with -u on a terminal, the command's own pseudo-terminal, relayed to ours by a
 * thread of the recorder.
 */
/* Whether stdin, stdout or stderr is a terminal. */
bool relay_wanted(void);
/*
 * A new pseudo-terminal with our terminal's modes and size; *slave (close-on-exec) is its
 * command side, owned by uid. Returns 0 or -errno (nothing left open).
 */
int relay_open(struct relay **r, int *slave, uid_t uid);
/* Bit n set: fd n (0..2) is a terminal, for the command to get the slave instead. */
unsigned relay_terminals(const struct relay *r);
/* Our terminal in raw mode, and the thread started. Returns 0 or -errno (terminal restored). */
int relay_start(struct relay *r);
/*
 * Relay until the command's side closes (or is idle a moment: something outlived the
 * recording), restore our terminal, join the thread. Accepts a relay never started, or NULL.
 */
void relay_stop(struct relay *r);
void relay_free(struct relay *r);

/* targets.c: fill the targets map from /proc and prune it. */
struct targets_result {
	uint64_t not_fit;        /* live target tasks the map had no room for */
};
/* fn for every number-named entry of a /proc folder (0 if the folder is gone), until an error. */
typedef int (*proc_id_fn)(void *ctx, uint32_t id);
int proc_each_id(const char *path, proc_id_fn fn, void *ctx);
/* The fields of /proc/TID/stat after its "(comm)" (read into buf), NULL if tid is gone. */
const char *proc_stat_fields(uint32_t tid, char *buf, size_t cap);
/* Tgid of tid from /proc/TID/status; -ESRCH if it is gone. */
int proc_tgid(uint32_t tid, uint32_t *tgid);
/* Whether tid is surely past its exit tracepoint: gone or a zombie. */
bool proc_task_gone(uint32_t tid);
/* Every -p/-t id exists; prints "cannot trace pid N: no such process" otherwise. */
int targets_check_report(const struct env *env);
int targets_fill(struct recorder *r);
void targets_prune(struct recorder *r, struct targets_result *res);
/*
 * Drop keys of tasks that are gone or zombies when only a few targets remain: their exit
 * tracepoint has run, so a key left behind could only keep the recorder waiting.
 */
void targets_sweep(struct recorder *r);
/* Whether the targets map holds any task. */
bool targets_any(struct recorder *r);
void targets_free(struct targets *t);

#endif
