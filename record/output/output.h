/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record/output/: records into the trace: the HEADER fill, the output file, the files of a
 * recording (rotation), the flight recorder, events, stats. Included through record.h; the
 * error convention is record.h's.
 */
#ifndef SCT_RECORD_OUTPUT_H
#define SCT_RECORD_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "sct.h"

struct env;
struct recorder;

/* header_fill.c: what the HEADER says of the host. Strings live in struct host_info. */
struct host_info {
	char hostname[256], kernel[256], arch[256], boot_id[64];
	char recording_id[SCT_RECORDING_ID_LEN + 1];
	char cgroup_mount[4096];
	const char *cgroup_hierarchy;
	struct sct_header_filter filter; /* info.filter's, under a filter or --summary-only */
	struct sct_header_stacks stacks; /* info.stacks', under --stack */
	struct sct_header_captures captures; /* info.captures', under --args */
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
 * What opens every file (and snapshot) of the recording after its HEADER, and nothing
 * before it: the recorder's TASK records of the traced tasks alive now. 0 or -errno.
 */
typedef int (*rotate_start_fn)(void *ctx);
/*
 * Open the first file (or the flight recorder) with its start (start(ctx), as every later
 * file); prints its message on failure. opts: of every writer of the recording.
 */
int rotate_open_report(struct recorder *r, const struct sct_writer_opts *opts, rotate_start_fn start,
		       void *ctx);
/*
 * Once per poll: SIGHUP (next file, or reopen -o), a file past --rotate-size or
 * --rotate-interval, SIGUSR2 (a snapshot). Prints its message on failure.
 */
int rotate_tick_report(struct recorder *r, uint64_t now_ns);
/* Whether rotate_tick_report() at now_ns will finish the open file (what it holds must be in it by then). */
bool rotate_pending(const struct recorder *r, uint64_t now_ns);
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
/* r->writer becomes a writer (of opts) whose blocks go to the ring; start: each snapshot's. */
int flight_open(struct recorder *r, const struct sct_writer_opts *opts, rotate_start_fn start,
		void *ctx);
/* A record of the block being built uses cgroup id: its snapshot names it. */
void flight_note_cgroup(struct flight *f, uint64_t id);
/*
 * Write snapshot seq: label, HEADER, TASK records of the traced tasks alive now, CGROUP
 * records of every cgroup its blocks use, the blocks, TRAILER. Its name goes into name (cap
 * bytes), its size into *bytes. Returns 0 or the error (no file is left then).
 */
int flight_write(struct recorder *r, uint64_t seq, char *name, size_t cap, uint64_t *bytes);
void flight_free(struct flight *f);


/* events.c: the records every backend writes beside its own. */
/* A TASK record (its comm from comm, at most SCT_COMM_LEN bytes), after its cgroup's CGROUP. */
RECORD_MUST_CHECK int events_task(struct recorder *r, const char *comm, const struct sct_task *task);
/* The CGROUP record before a call whose cgroup id is not the last call's; it becomes the last. */
RECORD_MUST_CHECK int events_cgroup_change(struct recorder *r, uint64_t id, uint64_t time_ns);
/* A SYSCALL record, after the CGROUP record of its id if that is new. */
RECORD_MUST_CHECK int events_syscall(struct recorder *r, const struct sct_syscall *sc);
/* --args: the six argument registers into sc's arg0 .. arg5. */
void events_args_set(struct sct_syscall *sc, const __u64 args[SCT_ARGS]);
/* --args: sc's captured memory (format 1.7) empty, its flags 0. */
void events_captures_clear(struct sct_syscall *sc);
/* Write a CGROUP record for id the first time it is seen. */
RECORD_MUST_CHECK int events_note_cgroup(struct recorder *r, uint64_t id, uint64_t now_ns);
RECORD_MUST_CHECK int events_warning(struct recorder *r, uint32_t kind, uint64_t count, const char *text);


/* keytab.c: a hash table of fixed-size keys and values, at most max_keys of them. */
struct keytab {
	size_t key_size, val_size, slot_size, max_keys;
	size_t n, cap;            /* keys held; slots (a power of two, or 0) */
	uint8_t *slots;
};
void keytab_init(struct keytab *t, size_t key_size, size_t val_size, size_t max_keys);
/* Frees the slots; the table stays usable, empty. */
void keytab_free(struct keytab *t);
/* key's value, or NULL. */
void *keytab_get(struct keytab *t, const void *key);
/* key's value, made zero if new; NULL with *err -ENOSPC (max_keys held) or -ENOMEM. */
void *keytab_put(struct keytab *t, const void *key, int *err);
void keytab_del(struct keytab *t, const void *key);
/* Walk: slot i's key (NULL if empty) and value, for i < cap; no put or del meanwhile. */
void *keytab_key(const struct keytab *t, size_t i);
void *keytab_val(const struct keytab *t, size_t i);
void keytab_del_at(struct keytab *t, size_t i);


/*
 * totals.c: the totals of the flush interval under way, per (pid, cgroup, syscall, abi),
 * written as TOTALS records by totals_write(). Functions return 0 or -ENOMEM; a key that
 * finds the table full is not counted, and its calls are added to full.
 */
struct totals {
	struct keytab keys;       /* struct sct_tot_key -> the interval's counts */
	uint64_t since_ns;        /* the interval's start */
	uint64_t full;            /* calls not counted: no room for their key */
	uint32_t *dead;           /* processes gone since the last read (the bpf backend's keys) */
	size_t ndead, capdead;
};
void totals_init(struct totals *t, uint32_t max_keys, uint64_t start_ns);
void totals_free(struct totals *t);
/* One call (perf). */
int totals_add_call(struct totals *t, const struct sct_tot_key *key, int64_t ret, uint64_t duration_ns);
/*
 * calls more in bucket of key, with their errors and summed durations; max_ns: their largest
 * (bpf: the largest its bucket ever held, within 0.2% of theirs).
 */
int totals_add_bucket(struct totals *t, const struct sct_tot_key *key, uint32_t bucket, uint64_t calls,
		      uint64_t errors, uint64_t duration_ns, uint64_t max_ns);
/* Process pid is gone: its keys can go after the next read. */
int totals_note_dead(struct totals *t, uint32_t pid);
/* One TOTALS record per key with calls, for (since_ns, now_ns]; the next interval starts empty. */
RECORD_MUST_CHECK int totals_write(struct recorder *r, struct totals *t, uint64_t now_ns);


/* stats.c: loss counters -> LOST/WARNING records; the live status line. */
/*
 * The backend's loss counters, totals since the start, into LOST records (and WARNING records
 * for targets that found no room) for what they grew by since the last check.
 */
RECORD_MUST_CHECK int stats_check(struct recorder *r, const struct sct_stats *counters, uint64_t now_ns);
/* The WARNING record (and stderr line) for count tasks that found no room, at start or later. */
RECORD_MUST_CHECK int stats_targets_full(struct recorder *r, uint64_t count, bool at_start);
/* The WARNING record (and stderr line) for count calls the totals had no room for. */
RECORD_MUST_CHECK int stats_totals_full(struct recorder *r, uint64_t count);
void stats_status(struct recorder *r, uint64_t now_ns);
void stats_status_clear(struct recorder *r);
/* "s" after a count of n things but 1: "1 task", "2 tasks". */
static inline const char *stats_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

#endif
