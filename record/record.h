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

/* --backend: what records the syscalls. */
enum record_backend {
	BACKEND_AUTO = 0,        /* bpf when its programs can load and attach, else perf */
	BACKEND_BPF,             /* tp_btf programs, pairing in the kernel */
	BACKEND_PERF,            /* perf_event_open() on tracepoints, pairing in userspace */
};

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
	uint64_t rotate_size;    /* --rotate-size, bytes; 0 = no size limit */
	uint64_t rotate_interval_ns; /* --rotate-interval; 0 = no time limit */
	uint32_t rotate_count;   /* --rotate-count; 0 = keep every file */
	uint64_t snapshot_size;  /* --snapshot, bytes; 0 = no flight recorder */
	bool snapshot_on_exit;   /* --snapshot-on-exit */
	unsigned backend;        /* --backend: enum record_backend */
	char **events;           /* -e GROUP:NAME tracepoints sampled into SAMPLE records */
	size_t nevents;
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
/* The number a file (/proc, tracefs) starts with. */
int read_file_u64(const char *path, uint64_t *out);

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
/* Every id becomes unseen again: a new file names its cgroups anew. */
void cgroups_forget_seen(struct cgroups *c);
/* Path of id below the mount ("/" = root); rescans the mount on a miss. NULL if not found. */
const char *cgroups_path(struct cgroups *c, uint64_t id);
/*
 * Resolve -G's argument (absolute under the mount or relative to it) to its id and depth
 * (root = 0). -ENOENT if it is no directory there, -EXDEV if it is outside the mount.
 */
int cgroups_target(const char *mount, const char *arg, uint64_t *id, uint32_t *level);

/* args.c: --args, the kernel's syscall descriptions. */
struct args_table {
	struct sct_syscall_args *v;  /* the HEADER's native descriptions, n of them */
	uint32_t n;
	struct sct_syscall_args *compat; /* the compat ABI's (HEADER "compat"), ncompat of them */
	uint32_t ncompat;
	bool *wide;                  /* v[i] takes a 64-bit integer: split in two on ia32 */
	/*
	 * The BPF path_args map's values: native syscall nr at nr, compat nr at compat_base + nr.
	 */
	uint8_t *path_args;
	uint32_t npath_args, compat_base;
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
	uint8_t *data;                       /* mapped once: see ringbuf_record() */
	uint8_t *wrap;                       /* the last record that wrapped, copied whole */
	size_t wrap_cap;
};
void ringbuf_init(struct ringbuf *rb);
int ringbuf_open(struct ringbuf *rb, int map_fd, size_t size);
void ringbuf_close(struct ringbuf *rb);
/* Hand every submitted record to fn; returns records seen, or fn's non-zero result / -errno. */
int64_t ringbuf_consume(struct ringbuf *rb, ringbuf_fn fn, void *ctx);
/* Wait up to timeout_ms for a wakeup (a signal ends the wait early). Returns 0 or -errno. */
int ringbuf_wait(struct ringbuf *rb, int timeout_ms);

/* stage.c: each CPU's stage_marks entry (bpf/sct_events.h), mapped read-only. */
struct stage_marks {
	const struct sct_stage_mark *m;
	size_t len;               /* bytes mapped */
	int ncpus;
};
void stage_marks_init(struct stage_marks *sm);
int stage_marks_open(struct stage_marks *sm, int map_fd, int ncpus);
void stage_marks_close(struct stage_marks *sm);
/*
 * Run bpf/'s stage_flush_cpu on each CPU whose stage has held events for age_ns or longer at
 * now_ns (CLOCK_MONOTONIC), so that they are in the ring buffer. Returns 0 or -errno.
 */
int stage_flush_old(const struct stage_marks *sm, int prog_fd, uint64_t now_ns, uint64_t age_ns);
/*
 * At stop, the programs detached: the flush on every CPU, retried on a CPU whose stage a
 * program still holds. Returns 0 or -errno.
 */
int stage_flush_all(int prog_fd);

struct recorder;

/* output.c: the trace file (or stdout, a FIFO, a device). */
/* Whether the recording goes into numbered files (--rotate-size, --rotate-interval). */
static inline bool env_rotates(const struct env *env)
{
	return env->rotate_size || env->rotate_interval_ns;
}
/* Refuse, with a message, an output that output_open() would refuse: before any work is done. */
int output_check_report(const struct env *env);
/*
 * Open env->output for sct_writer_open_fd(): a new 0600 file (renamed over the old one with
 * --force), an existing FIFO or device, or stdout. Never follows a final symbolic link.
 * Returns the fd or -errno; *created says whether a file was made that a failed start unlinks.
 */
int output_open(const struct env *env, bool *created);
/* Whether -o is a FIFO, a device or stdout: written into, never reopened or rotated. */
bool output_is_stream_path(const char *path);
/*
 * Whether fd, opened at an output's name, may be written into: a regular file of ours with
 * no other link or, if stream_ok, a FIFO or character device of ours or of root. 0, -EPERM
 * (another user's), -EEXIST (another type), -EMLINK (a file with other links), -errno.
 */
int output_check_fd(int fd, bool stream_ok);
/* The text of output_check_fd()'s refusals, else sct_strerror(err). */
const char *output_strerror(int err);
/*
 * SIGHUP without rotation: -o created anew (O_EXCL), or appended to if it is a file that
 * output_check_fd() accepts (one that was made while -o was away). Returns the fd or -errno.
 */
int output_reopen(const char *path);
/*
 * The name of file seq of a rotated recording ("rec.000002.sct" for -o rec.sct), or of
 * snapshot seq ("rec.snapshot-000002.sct"): -o's stem, a dot, the number, -o's extension.
 * -ENAMETOOLONG if it does not fit in cap.
 */
int output_name(const struct env *env, bool snapshot, uint64_t seq, char *buf, size_t cap);
/*
 * A new 0600 file for a name of output_name(): created under a temporary name in the same
 * folder; output_publish() gives it its name once its start is written, so a file with that
 * name always reads. Returns the fd or -errno; tmp (cap bytes) gets the temporary name.
 */
int output_create_tmp(const char *name, char *tmp, size_t cap);
/* Rename tmp to name; never over an existing file without --force (-EEXIST). */
int output_publish(const struct env *env, const char *tmp, const char *name);
/* sct_writer_close(), and the bytes the writer wrote over its whole life into *bytes. */
int output_close(struct sct_writer *w, uint64_t *bytes);

/*
 * rotate.c: the recording's files. One file, or numbered files (rotation), or none but
 * snapshots (flight.c). The open file's writer is r->writer.
 */
struct rotation;
/*
 * Open the first file (or the flight recorder) with its start (session_file_start());
 * prints its message on failure. opts: of every writer of the recording.
 */
int rotate_open_report(struct recorder *r, const struct sct_writer_opts *opts);
/*
 * Once per poll: SIGHUP (next file, or reopen -o), a file past --rotate-size or
 * --rotate-interval, SIGUSR2 (a snapshot). Prints its message on failure.
 */
int rotate_tick_report(struct recorder *r, uint64_t now_ns);
/* End the recording: the last file's TRAILER (or the last snapshot); err: the loop's error. */
int rotate_close_report(struct recorder *r, int err);
/* Startup failed: the files made so far are removed. */
void rotate_discard(struct recorder *r);
/* Records of every file of the recording so far (the flight recorder: every record made). */
uint64_t rotate_records(const struct recorder *r);
/* "rec.sct", "rec.000001.sct .. rec.000004.sct (4 files)", "2 snapshots (...)", and its bytes. */
uint64_t rotate_describe(const struct recorder *r, char *buf, size_t cap);
void rotate_free(struct recorder *r);

/*
 * flight.c: --snapshot, the flight recorder: the newest blocks in memory, written as a
 * complete file on SIGUSR2. Memory: --snapshot bytes of blocks plus the block being built.
 */
struct flight;
/* r->writer becomes a writer (of opts) whose blocks go to the ring. */
int flight_open(struct recorder *r, const struct sct_writer_opts *opts);
/* A record of the block being built uses cgroup id: its snapshot names it. */
void flight_note_cgroup(struct flight *f, uint64_t id);
/*
 * Write snapshot seq: label, HEADER, TASK records of the traced tasks alive now, CGROUP
 * records of every cgroup its blocks use, the blocks, TRAILER. Its name goes into name (cap
 * bytes), its size into *bytes. Returns 0 or the error (no file is left then).
 */
int flight_write(struct recorder *r, uint64_t seq, char *name, size_t cap, uint64_t *bytes);
void flight_free(struct flight *f);

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

/* The running recorder. */
struct loader;

struct recorder {
	const struct env *env;
	uint32_t mode;              /* enum sct_mode */
	uint64_t target_cgroup;
	uint32_t target_level;
	struct host_info host;
	unsigned backend;           /* enum record_backend, never AUTO once picked */
	const char *backend_name;   /* "bpf" or "perf": the HEADER says it */
	bool sample_cgroup;         /* perf: samples carry the kernel's cgroup id */
	bool perf_fallback;         /* auto took bpf, and perf can run if bpf fails to start */
	struct perf_backend *sampler; /* bpf backend with -e: the perf events of the tracepoints */
	struct perf_backend *perf;  /* perf backend, once its events are open (each file's TASKs) */
	const struct loader *loader; /* load.h: which skeleton */
	void *skel;                 /* the loader's skeleton */
	bool inflight_in_hash;      /* no task storage: in-flight syscalls in a hash map */
	int stats_fd;               /* map of the loaded skeleton */
	struct targets targets;
	int iter_prog_fd;
	int stage_prog_fd;          /* stage_flush_cpu, when SYSCALL events are staged */
	int cpu_calls_fd;           /* the calls in flight on each CPU (bpf/sct.bpf.c cpu_calls) */
	int cpu_calls_args_fd;      /* the same under --args (cpu_calls_args) */
	bool staged;
	bool task_cast;             /* sys_enter casts its slot's task address (bpf_rdonly_cast) */
	struct stage_marks marks;   /* when SYSCALL events are staged */
	__u32 *iter_mode;           /* the iterator's switch, in the mapped .bss */
	bool *snapshot_done;        /* the BPF side's: the first TASK snapshot is written */
	struct ringbuf rb;
	struct sct_writer *writer;
	struct cgroups *cgroups;
	struct rotation *rot;       /* rotate.c: the files of the recording */
	struct flight *flight;      /* flight.c: --snapshot, NULL otherwise */
	uint64_t last_noted;        /* cgroup id of the last events_note_cgroup() */
	struct args_table args;     /* --args */
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

/* session.c: load, attach, loop, drain. */
int session_run(struct recorder *r);
/*
 * The steps both backends share: create the trace (rotate.c's first file, or the flight
 * recorder), and close it with the summary line.
 */
int session_open_report(struct recorder *r);
int session_close_report(struct recorder *r, int err);
/*
 * The start is written (err: the first error writing it): flush it, print the ready line
 * "tracing N tasks (PATH)" and release the command after --.
 */
int session_ready_report(struct recorder *r, int err, const char *path);
/*
 * What opens every file of the recording after its HEADER: TASK records of the traced tasks
 * alive now (the backend's own walk), and the traced cgroup's CGROUP record under -G.
 */
RECORD_MUST_CHECK int session_file_start(struct recorder *r);
/* Root, or CAP_BPF and CAP_PERFMON; otherwise says so and returns -EPERM. */
int session_privilege_report(void);

/* events.c: ring buffer events -> records. */
int events_handle(void *ctx, void *data, size_t size);
/* A SYSCALL record, after the CGROUP record of its id if that is new. */
RECORD_MUST_CHECK int events_syscall(struct recorder *r, const struct sct_syscall *sc);
/* --args: the six argument registers into sc's arg0 .. arg5. */
void events_args_set(struct sct_syscall *sc, const __u64 args[SCT_ARGS]);
/* Write a CGROUP record for id the first time it is seen. */
RECORD_MUST_CHECK int events_note_cgroup(struct recorder *r, uint64_t id, uint64_t now_ns);
RECORD_MUST_CHECK int events_warning(struct recorder *r, uint32_t kind, uint64_t count, const char *text);

/* snapshot.c: the task iterator: TASK records at start, unfinished syscalls at stop. */
RECORD_MUST_CHECK int snapshot_tasks(struct recorder *r);
RECORD_MUST_CHECK int snapshot_inflight(struct recorder *r);

/* stats.c: BPF counters -> LOST/WARNING records; the live status line. */
RECORD_MUST_CHECK int stats_check(struct recorder *r, uint64_t now_ns);
/* The WARNING record (and stderr line) for count tasks that found no room, at start or later. */
RECORD_MUST_CHECK int stats_targets_full(struct recorder *r, uint64_t count, bool at_start);
void stats_status(struct recorder *r, uint64_t now_ns);
void stats_status_clear(struct recorder *r);
/* "s" after a count of n things but 1: "1 task", "2 tasks". */
static inline const char *stats_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

extern volatile sig_atomic_t record_exiting;
extern volatile sig_atomic_t record_hup;       /* SIGHUP: next file, or reopen -o */
extern volatile sig_atomic_t record_snapshot;  /* SIGUSR2: write a snapshot */

#endif
