/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record internals shared by the files of record/. Each file does one job; this header
 * holds the settings (struct env), the running recorder (struct recorder) and the session's
 * functions. The folders have their own headers, included here: host/host.h (what the
 * recorder learns of the host), output/output.h (records into the trace), backend.h (the
 * interface every backend implements); a backend's own header (bpf/bpf_backend.h,
 * perf/perf.h) is for its folder only.
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
#include "backend.h"

#define RECORD_NAME "sct-record"
#define RECORD_VERSION "1.0.0"
#define RECORD_MUST_CHECK __attribute__((warn_unused_result))

#define NSEC_PER_SEC 1000000000ull

/* --backend: what records the syscalls (backend.h's RECORD_BACKENDS). */
#define RECORD_BACKEND_ID(ID, NAME) BACKEND_##ID,
enum record_backend_id {
	BACKEND_AUTO = 0,        /* bpf when its programs can load and attach, else perf */
	RECORD_BACKENDS(RECORD_BACKEND_ID)
	BACKEND_COUNT
};
#undef RECORD_BACKEND_ID

/* detail_filter.c: the detail filter and --summary-only (sct-record(8), "Filters and totals"). */
#define FILTER_COMMS 8          /* -c names, compared in BPF one by one */
#define FILTER_PATH_MAX 255     /* -P bytes, compared in BPF byte by byte */
#define FILTER_ERRNO_MAX 4096   /* error returns are -4095 .. -1 */
struct record_filter {
	bool on;                    /* a detail filter or --summary-only: totals are counted */
	const char *syscalls_arg;   /* -S as given; NULL: every syscall */
	uint8_t *syscalls;          /* -S: 1 per selected syscall, native numbers then compat ones */
	uint32_t nsyscalls;         /* entries of syscalls */
	uint32_t compat_base;       /* where syscalls' compat numbers start */
	bool failed;                /* --failed */
	const char *errno_arg;      /* --errno as given */
	uint8_t errnos[FILTER_ERRNO_MAX]; /* --errno: 1 per selected error number */
	const char *min_duration_arg;
	uint64_t min_duration_ns;   /* --min-duration */
	const char *comm_arg;
	char comms[FILTER_COMMS][SCT_COMM_LEN]; /* -c, NUL-padded */
	uint32_t ncomms;
	const char *path;           /* -P: a captured path starts with it */
	bool summary_only;          /* --summary-only: no SYSCALL records */
	uint32_t totals_keys;       /* --totals-keys; 0: record_totals_keys()'s default */
	/*
	 * exit and exit_group by ABI ([SCT_ABI_NATIVE], [SCT_ABI_COMPAT]), UINT32_MAX where the
	 * table has none: they never reach sys_exit, so the totals count them at entry.
	 */
	uint32_t noreturn[2][2];
	char text[1024];            /* the HEADER's "text" */
};

/*
 * Keys of the totals: (pid, cgroup, syscall, abi, duration bucket) in the BPF map, (pid,
 * cgroup, syscall, abi) of one flush interval in the recorder. A call that finds no room is
 * not counted, and a WARNING says how many. The BPF map is preallocated with a 32-byte value
 * per possible CPU for each key, at load (~1.5 us of the recorder's system time a key here,
 * half of it at exit): by default 65536 keys, fewer above 16 CPUs (RECORD_TOTALS_BYTES of
 * values at most: 4096 keys with 256); --totals-keys sets it.
 */
#define RECORD_TOTALS_KEYS 65536
#define RECORD_TOTALS_MAX_KEYS (1u << 22)
#define RECORD_TOTALS_BYTES (32u << 20)
/* The BPF map's keys for ncpus possible CPUs: --totals-keys, else the default. */
static inline uint32_t record_totals_keys(uint32_t asked, int ncpus)
{
	uint64_t n = RECORD_TOTALS_BYTES / (32ull * (ncpus > 0 ? (uint64_t)ncpus : 1));

	if (asked)
		return asked;
	return n < RECORD_TOTALS_KEYS ? (uint32_t)n : RECORD_TOTALS_KEYS;
}

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
	unsigned backend;        /* --backend: enum record_backend_id */
	char **events;           /* -e GROUP:NAME tracepoints sampled into SAMPLE records */
	size_t nevents;
	bool args;               /* --args: SYSCALL records carry arguments and paths */
	uint32_t args_max;       /* --args-max: bytes of a path kept */
	uint32_t args_data;      /* --args-data: bytes of a call's data kept, 0 none */
	bool args_max_set;
	struct record_filter filter; /* -S, --failed, --errno, --min-duration, -c, -P, --summary-only */
	uint32_t stack_parts;    /* --stack: SCT_STACK_USER | SCT_STACK_KERNEL; 0 = no stacks */
	uint32_t stack_depth;    /* --stack-depth: return addresses per part */
	bool stack_depth_set;
	int argc;                /* the command line, for the HEADER */
	char **argv;
};

/* cli.c */
#define CLI_EXIT 1 /* cli_parse: --help or --version was handled, exit 0 */
void env_init(struct env *env);
void env_free(struct env *env);
/* Parse argv into env; prints its own message on error (returns -EINVAL). */
int cli_parse(struct env *env, int argc, char **argv);

/* The one line after a usage error's message. */
void cli_usage_short(void);

/* detail_filter.c: the options cli.c hands over, by getopt value. */
enum {
	FILTER_OPT_SYSCALL = 'S', FILTER_OPT_COMM = 'c', FILTER_OPT_PATH = 'P',
	FILTER_OPT_FAILED = 512, FILTER_OPT_ERRNO, FILTER_OPT_MIN_DURATION, FILTER_OPT_SUMMARY_ONLY,
	FILTER_OPT_TOTALS_KEYS,
};
/* One filter option into f; prints its own usage error (-EINVAL). */
int filter_option(struct record_filter *f, int opt, const char *arg);
/* After every option: combinations, f->on, the HEADER's text; prints its own usage error. */
int filter_check(struct record_filter *f, bool args);
void filter_free(struct record_filter *f);
/* Whether a detail filter (not --summary-only) was given. */
bool filter_details(const struct record_filter *f);
/* The parts of the detail filter, each true when that option was not given. */
bool filter_syscall(const struct record_filter *f, uint32_t nr, uint8_t abi);
bool filter_comm(const struct record_filter *f, const char *comm);
bool filter_result(const struct record_filter *f, int64_t ret, uint64_t duration_ns);
/* Whether syscall nr of abi never returns (exit, exit_group): counted at its entry. */
bool filter_noreturn(const struct record_filter *f, uint32_t nr, uint8_t abi);
/* Whether a call in flight at stop gets its unfinished SYSCALL record. */
bool filter_unfinished(const struct record_filter *f, uint32_t nr, uint8_t abi, uint64_t duration_ns);

/* --stack's mode as the HEADER names it ("user", "kernel", "both"), NULL without stacks. */
const char *cli_stack_mode(uint32_t parts);

/* Host limits read from /proc for defaults. */
uint32_t host_default_max_tasks(void);
/* The number a file (/proc, tracefs) starts with. */
int read_file_u64(const char *path, uint64_t *out);

#include "host/host.h"
#include "output/output.h"
#include "stack/stack.h"

/* Monotonic clock, the clock of bpf_ktime_get_ns(). */
uint64_t clock_now_ns(void);

/* The running recorder. */
struct recorder {
	const struct env *env;
	uint32_t mode;              /* enum sct_mode */
	uint64_t target_cgroup;
	uint32_t target_level;
	struct host_info host;
	const struct record_backend *backend; /* backend.h: what records, once picked */
	void *state;                /* the backend's private state */
	const struct record_backend *fallback; /* auto: what runs if backend fails to attach */
	bool sample_cgroup;         /* perf samples carry the kernel's cgroup id */
	bool staged;                /* events wait in a per-CPU stage: one more poll before read */
	struct targets targets;
	struct sct_writer *writer;
	struct cgroups *cgroups;
	struct stacks *stacks;      /* --stack, NULL otherwise */
	struct rotation *rot;       /* rotate.c: the files of the recording */
	struct flight *flight;      /* flight.c: --snapshot, NULL otherwise */
	uint64_t last_noted;        /* cgroup id of the last events_note_cgroup() */
	struct args_table args;     /* --args */
	int err;                    /* first error of the event loop */
	uint64_t last_cgroup;       /* cgroup id of the previous SYSCALL record: known */
	uint64_t tasks;             /* tasks traced at start */
	uint64_t start_ns;
	int poll_ms;                /* the backend's wait in poll(), from --flush-interval */
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
	struct totals totals;       /* under a filter or --summary-only: the interval's */
	uint64_t totals_full_said;  /* calls not counted, already in WARNING records */
};

/* lifecycle.c: the recording, start to end, over the backend picked. */
int session_run(struct recorder *r);

extern volatile sig_atomic_t record_exiting;
extern volatile sig_atomic_t record_hup;       /* SIGHUP: next file, or reopen -o */
extern volatile sig_atomic_t record_snapshot;  /* SIGUSR2: write a snapshot */

#endif
