/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record internals shared by the files of record/. Each file does one job; this header
 * holds the settings (struct env), the running recorder (struct recorder) and the functions
 * one file offers the others.
 *
 * Error convention: functions return 0 or a negative errno (libsct calls may also return
 * -SCT_E*); the caller that can say what to do prints the one message. Functions whose name
 * ends in _report print their own message and return the error.
 */
#ifndef SCT_RECORD_H
#define SCT_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "sct.h"
#include "../bpf/sct_events.h"

#define RECORD_NAME "sct-record"
#define RECORD_VERSION "1.0.0"
#define RECORD_MUST_CHECK __attribute__((warn_unused_result))

#define NSEC_PER_SEC 1000000000ull

/* Every command-line setting, with its default from env_init(). */
struct env {
	uint32_t *pids;          /* -p */
	size_t npids;
	uint32_t *tids;          /* -t */
	size_t ntids;
	const char *cgroup;      /* -G, as given */
	bool all;                /* -a */
	char **cmd;              /* after --, NULL-terminated; NULL if none */
	bool user_set;           /* -u: run cmd as uid/gid with user_name's groups */
	uid_t uid;
	gid_t gid;
	char *user_name;         /* for initgroups(); NULL for -u UID:GID (no supplementary groups) */
	bool keep_command;       /* --keep-command: leave cmd running when the recording ends */
	const char *output;      /* -o; "-" = stdout */
	bool force;              /* --force: overwrite output */
	uint64_t duration_ns;    /* --duration; 0 = until the targets are gone or a signal */
	uint32_t max_tasks;      /* --max-tasks: targets map size */
	uint64_t ringbuf_size;   /* --ringbuf-size, bytes */
	uint64_t flush_interval_ns; /* --flush-interval */
	bool quiet;              /* -q */
	bool probe;              /* --probe: print the kernel feature probes and exit */
	bool args;               /* --args: SYSCALL records carry arguments and paths */
	uint32_t args_max;       /* --args-max: bytes of a path kept */
	bool args_max_set;
	int argc;                /* the command line, for the HEADER */
	char **argv;
};

/* cli.c */
#define CLI_EXIT 1 /* cli_parse: --help or --version was handled, exit 0 */
void env_init(struct env *env);
void env_free(struct env *env);
/* Parse argv into env; prints its own message on error (returns -EINVAL). */
int cli_parse(struct env *env, int argc, char **argv);

/* Host limits read from /proc for defaults. */
uint32_t host_default_max_tasks(void);

/* cgroups.c: cgroup v2 id -> path under the mount. */
struct cgroups;
/* Find the cgroup2 mount in /proc/self/mountinfo into buf; -ENOENT if there is none. */
int cgroups_find_mount(char *buf, size_t cap);
/* Whether a cgroup v1 hierarchy is mounted (for the HEADER on a v1-only host). */
bool cgroups_v1_mounted(void);
struct cgroups *cgroups_new(const char *mount);
void cgroups_free(struct cgroups *c);
/* 1 the first time id is passed, 0 afterwards, -ENOMEM. */
int cgroups_first_seen(struct cgroups *c, uint64_t id);
/* Path of id below the mount ("/" = root); rescans the mount on a miss. NULL if not found. */
const char *cgroups_path(struct cgroups *c, uint64_t id);
/*
 * Resolve -G's argument (absolute under the mount or relative to it) to its id and depth
 * (root = 0). -ENOENT if it is no directory there, -EXDEV if it is outside the mount.
 */
int cgroups_target(const char *mount, const char *arg, uint64_t *id, uint32_t *level);

/* args.c: --args, the kernel's syscall descriptions. */
struct args_table {
	struct sct_syscall_args *v;  /* the HEADER's descriptions, n of them */
	uint32_t n;
	uint8_t *path_args;          /* by syscall number: the BPF path_args map's values */
	uint32_t npath_args;
	bool paths;                  /* the descriptions were read: paths are captured */
};
/*
 * Read every sys_enter_* format of tracefs (mounted if it is not). Returns 0, -ENOENT when
 * tracefs or its syscall events are missing (t then holds an empty path_args), -errno.
 */
int args_describe(struct args_table *t);
void args_free(struct args_table *t);

/* header.c: what the HEADER says of the host. Strings live in struct host_info. */
struct host_info {
	char hostname[256], kernel[256], arch[256], boot_id[64];
	char recording_id[SCT_RECORDING_ID_LEN + 1];
	char cgroup_mount[4096];
	const char *cgroup_hierarchy;
	struct sct_header_info info;
};
void host_info_fill(struct host_info *h, const struct env *env);
/*
 * --args: the kernel's syscall descriptions into t and the HEADER; read_paths: the backend
 * reads path strings (the HEADER's "paths" is "enter", else "none"). Without descriptions,
 * raw arguments only (a warning says so). Prints its own message; 0 or -errno.
 */
int host_info_args_report(struct host_info *h, struct args_table *t, const struct env *env,
			  bool read_paths);


/* Monotonic clock, the clock of bpf_ktime_get_ns(). */
uint64_t clock_now_ns(void);

/* ringbuf.c: the BPF ring buffer consumer. */
typedef int (*ringbuf_fn)(void *ctx, void *data, size_t size);
struct ringbuf {
	int epoll_fd;
	size_t page_size, size, mask, publish_every;
	unsigned long *consumer_pos;         /* written by us */
	const unsigned long *producer_pos;   /* written by the kernel */
	uint8_t *data;                       /* mapped twice: a record never wraps */
};
void ringbuf_init(struct ringbuf *rb);
int ringbuf_open(struct ringbuf *rb, int map_fd, size_t size);
void ringbuf_close(struct ringbuf *rb);
/* Hand every submitted record to fn; returns records seen, or fn's non-zero result / -errno. */
int64_t ringbuf_consume(struct ringbuf *rb, ringbuf_fn fn, void *ctx);
/* Wait up to timeout_ms for a wakeup (a signal ends the wait early). Returns 0 or -errno. */
int ringbuf_wait(struct ringbuf *rb, int timeout_ms);

/*
 * stage.c: run bpf/'s stage_flush_cpu on every CPU, so the SYSCALL events each one staged
 * are in the ring buffer; final (at stop, programs detached): retry a CPU whose stage a
 * program still holds. Returns 0 or -errno.
 */
int stage_flush_all(int prog_fd, bool final);

/* output.c: the trace file (or stdout, a FIFO, a device). */
/* Refuse, with a message, an output that output_open() would refuse: before any work is done. */
int output_check_report(const struct env *env);
/*
 * Open env->output for sct_writer_open_fd(): a new 0600 file (renamed over the old one with
 * --force), an existing FIFO or device, or stdout. Never follows a final symbolic link.
 * Returns the fd or -errno; *created says whether a file was made that a failed start unlinks.
 */
int output_open(const struct env *env, bool *created);
/* sct_writer_close(), and the bytes the writer wrote over its whole life into *bytes. */
int output_close(struct sct_writer *w, uint64_t *bytes);

/* The command after --. */
struct command {
	pid_t pid;                  /* 0: none */
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
};

/* The running recorder. */
struct loader;

struct recorder {
	const struct env *env;
	uint32_t mode;              /* enum sct_mode */
	uint64_t target_cgroup;
	uint32_t target_level;
	struct host_info host;
	const struct loader *loader; /* load.h: which skeleton */
	void *skel;                 /* the loader's skeleton */
	bool inflight_in_hash;      /* no task storage: in-flight syscalls in a hash map */
	int stats_fd;               /* map of the loaded skeleton */
	struct targets targets;
	int iter_prog_fd;
	int stage_prog_fd;          /* stage_flush_cpu, when SYSCALL events are staged */
	bool staged;
	uint64_t stage_flush_ns;    /* last stage_flush_all() */
	__u32 *iter_mode;           /* the iterator's switch, in the mapped .bss */
	struct ringbuf rb;
	struct sct_writer *writer;
	struct cgroups *cgroups;
	struct args_table args;     /* --args */
	bool output_created;        /* unlink it on a startup failure */
	int err;                    /* first error of the event loop */
	uint64_t last_cgroup;       /* cgroup id of the previous SYSCALL record: known */
	uint64_t tasks;             /* tasks traced at start */
	uint64_t start_ns;
	int poll_ms;                /* ring buffer wait, from --flush-interval */
	struct command cmd;         /* after -- */
	int cmd_status;             /* exit status for a command that could not run, or 0 */
	/* stats.c state */
	struct sct_stats seen;      /* totals already written as LOST/WARNING records */
	uint64_t stats_check_ns;
	uint64_t lost, warnings;
	uint64_t status_ns, status_records;
	bool status_tty;            /* stderr is a terminal and not -q: show the status line */
	bool status_shown;
	bool targets_full_said;     /* the stderr line for a runtime overflow was printed */
	uint64_t sweep_ns;          /* last session_sweep() */
	uint64_t sweep_records;     /* records written at that time */
};

/* command.c: the workload after --, held on a pipe until tracing is live. */
void command_init(struct command *c);
/* Fork the command (as -u's user, if given), held before its exec. */
int command_start(struct command *c, const struct env *env);
/* Let it exec. */
int command_release(struct command *c);
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

/* targets.c: fill the targets map from /proc and prune it. */
struct targets_result {
	uint64_t not_fit;        /* live target tasks the map had no room for */
};
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

/* session.c: load, attach, loop, drain. */
int session_run(struct recorder *r);
/* Root, or CAP_BPF and CAP_PERFMON; otherwise says so and returns -EPERM. */
int session_privilege_report(void);

/* events.c: ring buffer events -> records. */
int events_handle(void *ctx, void *data, size_t size);
/* Write a CGROUP record for id the first time it is seen. */
RECORD_MUST_CHECK int events_note_cgroup(struct recorder *r, uint64_t id, uint64_t now_ns);
RECORD_MUST_CHECK int events_warning(struct recorder *r, uint32_t kind, uint64_t count, const char *text);

/* snapshot.c: the task iterator: TASK records at start, unfinished syscalls at stop. */
RECORD_MUST_CHECK int snapshot_tasks(struct recorder *r);
RECORD_MUST_CHECK int snapshot_inflight(struct recorder *r);

/* stats.c: BPF counters -> LOST/WARNING records; the live status line. */
RECORD_MUST_CHECK int stats_check(struct recorder *r, uint64_t now_ns);
void stats_status(struct recorder *r, uint64_t now_ns);
void stats_status_clear(struct recorder *r);

extern volatile sig_atomic_t record_exiting;

#endif
