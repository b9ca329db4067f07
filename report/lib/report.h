/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared declarations of sct-report and sct-convert (report/).
 * Error convention: functions return 0 or a count on success and a negative errno (or
 * -SCT_E* from libsct) on failure; only report_main.c / convert_main.c print the message.
 * Memory grows with tasks, cgroups and groups, a few dozen bytes per session where the output
 * names every session (the tree, task labels), and never with the number of records. State lives in objects created and freed
 * by main (struct ctx holds them), so every module can be tested alone.
 */
#ifndef SCT_REPORT_H
#define SCT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sct.h"

#define EXIT_INPUT 1   /* an input could not be read at all, or output failed */
#define EXIT_USAGE 2   /* bad command line */
#define EXIT_DAMAGED 3 /* damaged input and --strict, or nothing readable in it */

/* ---------------------------------------------------------------- strtab.c */
/* Interned byte strings: equal bytes get one id; id 0 is the empty string. */
struct strtab;
struct strtab *strtab_new(void); /* NULL on ENOMEM */
/* Aborts without memory: ids handed out must stay valid. */
uint32_t strtab_intern(struct strtab *st, const void *p, size_t len);
const char *strtab_get(const struct strtab *st, uint32_t id); /* NUL-terminated; may hold NULs */
uint32_t strtab_len(const struct strtab *st, uint32_t id);
void strtab_free(struct strtab *st); /* NULL is fine */

/* ---------------------------------------------------------------- hashmap.c */
/* Open addressing map from a tuple of nkeys uint64 to a non-NULL pointer. */
struct hashmap {
	uint64_t *keys;
	void **vals;
	size_t cap, count;
	uint32_t nkeys;
};
void hashmap_init(struct hashmap *m, uint32_t nkeys);
void *hashmap_get(const struct hashmap *m, const uint64_t *key);
int hashmap_put(struct hashmap *m, const uint64_t *key, void *val);
void hashmap_remove(struct hashmap *m, const uint64_t *key);
void hashmap_free(struct hashmap *m);

/* ---------------------------------------------------------------- outbuf.c */
/*
 * Buffered output to an fd; the first write error sticks and out_close() returns it. An out
 * with fd -1 is a memory buffer (out_open_mem()) that grows to hold whatever is written: a
 * value from a file is as long as the format's limits allow, never cut; a growth that fails
 * sets err to -ENOMEM, which its user must check. With put, an out passes each full buffer
 * through put() into the out to instead (an escaping filter: a value of any size streams
 * through a fixed buffer).
 */
struct out {
	char *buf;
	size_t len, cap;
	int fd;
	int err;
	bool own_fd;
	void (*put)(struct out *to, const void *p, size_t n);
	struct out *to;
};
/*
 * "-" or NULL = stdout. A file is created with mode (less the umask), never through a final
 * symlink (-ELOOP), never over an existing file unless force (-EEXIST); a forced regular
 * file is truncated and loses the permissions mode lacks.
 */
int out_open(struct out *o, const char *path, bool force, mode_t mode);
/* A memory out of at least cap bytes (fd -1; the caller frees o->buf). 0 or -ENOMEM. */
int out_open_mem(struct out *o, size_t cap);
int out_close(struct out *o);
/* out_close(), then 0, or EXIT_INPUT with "TOOL: writing NAME: reason" on stderr (silent on
 * EPIPE: whoever read the output chose to stop). */
int out_finish(struct out *o, const char *tool, const char *name);
void out_flush(struct out *o);
void out_mem(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Room for n bytes at o->buf + o->len (n <= 4096); the caller advances o->len. */
char *out_reserve(struct out *o, size_t n);
static inline void out_char(struct out *o, char c)
{
	if (o->len == o->cap)
		out_flush(o);
	o->buf[o->len++] = c;
}

/* ---------------------------------------------------------------- names.c */
/* "ENOENT" for 2; "E123" for numbers glibc does not name. */
const char *names_errno(int e, char tmp[16]);
/* "SIGKILL" for 9; "SIG123" otherwise. */
const char *names_signal(int s, char tmp[16]);
/*
 * args.c: a syscall's arguments as strace shows them, "AT_FDCWD, \"/etc/x\", O_RDONLY", by
 * the session's descriptions (format 1.3); the six registers in hex for a syscall it does
 * not describe. For a record of a session with arguments (sct_session_has_args()).
 */
/*
 * fd_marks: fd and dirfd arguments (but AT_FDCWD) go out between FDPATHS_MARK and
 * FDPATHS_END, for fdpaths_out() to fill in their files. An unfinished call recorded without
 * its arguments (six zeros, no path flags: recorders before they kept them) goes out as "...".
 */
void args_out(struct out *o, const struct sct_session *s, const struct sct_syscall *sc, bool fd_marks);

/*
 * fdpaths.c: the path each fd of a process was opened on, as the trace's calls show it,
 * followed in the order lines are printed. The marks are bytes no escaped string holds.
 */
#define FDPATHS_NONE UINT32_MAX
#define FDPATHS_MARK '\x01'
#define FDPATHS_END '\x02'
enum fd_call { FD_NONE, FD_OPEN, FD_DUP, FD_CLOSE };
/* What a call does to its process's fds. */
struct fd_effect {
	uint32_t sess, pid;
	uint32_t call;        /* enum fd_call */
	uint32_t path;        /* FD_OPEN: strtab id */
	uint64_t fd, newfd;   /* the fd argument (dup, close), the fd returned (open, dup) */
};
struct fdpaths;
struct fdpaths *fdpaths_new(struct strtab *strs); /* NULL on ENOMEM */
void fdpaths_free(struct fdpaths *fp);
/* The effect of sc, a call of session sess described by s. */
void fdpaths_effect(struct fdpaths *fp, uint32_t sess, const struct sct_session *s,
		    const struct sct_syscall *sc, struct fd_effect *e);
/* Apply an effect, in print order. 0 or -ENOMEM. */
int fdpaths_apply(struct fdpaths *fp, const struct fd_effect *e);
/* line with its fd marks filled in: "3</etc/hosts>", or "3" for an fd not followed. */
void fdpaths_out(const struct fdpaths *fp, struct out *o, const char *line, size_t len, uint32_t sess,
		 uint32_t pid);
/* "s" after a count of n things but 1: "1 call", "2 calls". */
static inline const char *names_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}
/* True when a return value is a failed syscall's -errno. */
static inline bool names_is_error(int64_t ret)
{
	return ret < 0 && ret >= -4095;
}
/*
 * The one way a string from a file reaches a terminal: printable ASCII as is, '\\' doubled,
 * every other byte as \xNN (C0, DEL, C1 raw or UTF-8-encoded, any UTF-8), so no file can
 * send an escape sequence.
 */
void names_out_escaped(struct out *o, const void *p, size_t len);
/* Columns names_out_escaped() takes for these bytes. */
size_t names_escaped_len(const void *p, size_t len);
/* The same escapes into dst (cap bytes, NUL-terminated; whole escapes only): bytes written. */
size_t names_escape(char *dst, size_t cap, const void *p, size_t len);
/* Seconds with 6 decimals from ns (truncated toward zero), with a sign if asked. */
void names_out_secs(struct out *o, int64_t ns, bool sign);
/*
 * Wall clock as ISO 8601 UTC with nanoseconds, 2026-01-01T00:00:00.000000007Z. The text of
 * the second last rendered is kept in *last (zeroed at first): rows come in time order.
 */
#define ISO_SECOND_LEN 19 /* 2026-01-01T00:00:00 */
struct iso_second {
	uint64_t sec;
	bool valid;
	char text[ISO_SECOND_LEN + 1];
};
void names_out_iso(struct out *o, uint64_t realtime_ns, struct iso_second *last);
/* Wall clock as YYYY-MM-DD HH:MM:SS.ffffff (local time zone) or HH:MM:SS.ffffff. */
void names_out_wall(struct out *o, uint64_t realtime_ns, bool with_date);

/* ---------------------------------------------------------------- sessions.c */
/* What outlives a session: kept for every session of every input. */
struct sess {
	uint32_t id;        /* over all inputs, from 0: the key of the tables */
	uint32_t number;    /* shown: sessions with a HEADER over all inputs, from 0 */
	bool headless;      /* blocks with no HEADER (damaged or missing): no number, host, clock */
	uint32_t host;      /* strtab id of the hostname */
	uint32_t file;      /* strtab id of the input path */
	uint32_t last_file; /* the last file of its recording read, file if one */
	uint64_t anchor_clock, anchor_real;
	bool cgroup_v1;
	uint32_t backend;       /* strtab ids of the HEADER's strings ("" before format 1.1) */
	uint32_t sample_cgroup;
};
#define SESSIONS_LISTED 20 /* sessions the footer lists; then "... N more sessions" */
struct sessions;
/* A table that keeps the first keep sessions (UINT32_MAX: all) and counts the others. */
struct sessions *sessions_new(uint32_t keep);
/* Numbers s (s->id and s->number are set) and keeps a copy if it is among the kept; -ENOMEM. */
int sessions_add(struct sessions *ss, struct sess *s);
/*
 * A file of recording_id (its HEADER's; "" or sequence 0: none): the first file of a
 * recording is added as sessions_add() does; a later one takes its session (*s becomes it)
 * and its sequence number is noted for the footer. -ENOMEM.
 */
int sessions_add_file(struct sessions *ss, struct sess *s, const char *recording_id, uint64_t seq);
/* A footer line per recording read from several files (or not from its first): gaps, repeats. */
void sessions_out_recordings(const struct sessions *ss, struct out *o);
/* A kept session, NULL for others; valid until the next sessions_add(). */
const struct sess *sessions_get(const struct sessions *ss, uint32_t id);
/* Sessions added, kept or not. */
uint32_t sessions_count(const struct sessions *ss);
/* "session N: host H", or what a stretch of blocks without a HEADER is, escaped. */
void sessions_out_label(struct out *o, const struct sess *s, const struct strtab *strs);
void sessions_free(struct sessions *ss);
/* Wall clock of a session time, and time relative to the session's anchor. */
static inline uint64_t sess_wall(const struct sess *s, uint64_t t)
{
	return t - s->anchor_clock + s->anchor_real;
}
static inline int64_t sess_rel(const struct sess *s, uint64_t t)
{
	return (int64_t)(t - s->anchor_clock);
}

/* ---------------------------------------------------------------- cgroups.c */
struct cgroup {
	uint32_t sess;
	uint64_t id;
	uint32_t path;  /* strtab id + 1, 0 = no CGROUP record (yet) */
	uint8_t pass;   /* --cgroup filter: 0 not decided, 1 pass, 2 drop */
};
struct cgroups;
struct cgroups *cgroups_new(struct strtab *strs); /* paths are interned in strs */
struct cgroup *cgroups_get(struct cgroups *cgs, uint32_t sess, uint64_t id); /* creates; NULL on ENOMEM */
int cgroups_set_path(struct cgroups *cgs, uint32_t sess, uint64_t id, const void *path, size_t len);
/* Label: the path, or "cgroup:ID" when no CGROUP record named it. */
uint32_t cgroups_label(struct cgroups *cgs, const struct cgroup *cg);
void cgroups_free(struct cgroups *cgs);

/* ---------------------------------------------------------------- tasks.c */
struct task {
	uint32_t index;         /* in creation order */
	uint32_t id;            /* libsct's (struct sct_tasks), SCT_TASK_NONE: no record describes it */
	uint32_t sess, pid, tid, ppid;
	uint64_t start_ns;      /* 0 when unknown */
	uint64_t first_ns, end_ns; /* first_ns: its start, else when first asked for */
	uint64_t cgroup_id;
	uint32_t comm;          /* strtab id of its last name (0 = none); tasks_comm(): at a time */
	uint32_t filename;      /* strtab id of the last exec'd file, 0 = none */
	uint32_t nexec;
	int32_t exit_code;
	uint32_t signal;
	uint8_t exited, is_thread, seen_start; /* seen_start: TASK or FORK record known */
	uint8_t tree_mark;      /* tree.c: shown */
	uint64_t nsyscalls;     /* syscalls of this thread passing the filters */
	struct task *process;   /* thread-group leader (self for leaders) */
	struct task *parent;    /* parent process, NULL if unknown (set by tasks_link()) */
	struct task *child, *sibling;  /* processes */
	struct task *thread, *next_thread; /* non-leader threads */
};
struct tasks;
struct tasks *tasks_new(struct strtab *strs); /* comm and filenames are interned in strs */
/*
 * The task that tid was in sess at time_ns (spec/FORMAT.md 9.2), or a placeholder per
 * (sess, tid) when no record describes one. NULL on ENOMEM.
 */
struct task *tasks_lookup(struct tasks *ts, uint32_t sess, uint32_t pid, uint32_t tid, uint64_t time_ns);
/* The same, NULL when no record describes one; never makes a placeholder. */
struct task *tasks_peek(struct tasks *ts, uint32_t sess, uint32_t tid, uint64_t time_ns);
/* Strtab id of t's name at time_ns; 0 (the empty string) if unknown or t is NULL. */
uint32_t tasks_comm(struct tasks *ts, const struct task *t, uint64_t time_ns);
/* Feed a lifecycle record (others are ignored); in file order, twice is harmless. -ENOMEM. */
int tasks_apply(struct tasks *ts, uint32_t sess, const struct sct_record *rec);
/* After reading: every described task, its last name, parents, children and threads. -ENOMEM. */
int tasks_link(struct tasks *ts);
uint32_t tasks_count(const struct tasks *ts);
struct task *tasks_at(const struct tasks *ts, uint32_t index);
void tasks_free(struct tasks *ts);

/* ---------------------------------------------------------------- input.c */
#define NR_CACHE 1024u /* syscall numbers below this have direct lookup tables */

/*
 * The current session of one input: its entry, and caches that end with it. Its tasks and
 * cgroups go to the tables of struct ctx when the output needs them after the session
 * (keep_sessions, keep_ended), else to tables of its own that end with it too.
 */
struct live {
	struct sess s;
	const struct sct_session *session; /* the reader's: valid until its next SESSION record */
	/*
	 * Which HEADER (or stretch without one) this is, unique over all inputs: the files of one
	 * recording share s.id, so what is cached per HEADER is keyed by this.
	 */
	uint64_t serial;
	struct tasks *tasks;
	struct cgroups *cgroups;
	uint32_t nr_name[2][NR_CACHE];  /* [abi][nr] -> strtab id + 1 of the name; 0 = not looked up */
	uint8_t nr_pass[2][NR_CACHE];   /* --syscall filter per [abi][nr]: 0 unknown, 1 pass, 2 drop */
};

/* ---------------------------------------------------------------- window.c */
#define WINDOW_RECORDS 16384u     /* records a stream holds back (spec/FORMAT.md 9.2) */
#define WINDOW_BYTES (4u << 20)   /* bytes of their strings */
struct window;
struct window *window_new(void); /* NULL on ENOMEM */
/* A copy of rec, strings included, at the back. -ENOMEM; -ENOBUFS when full of records. */
int window_push(struct window *w, const struct sct_record *rec);
/* The oldest record into *rec (its strings valid until the next pop or free). n > 0. */
void window_pop(struct window *w, struct sct_record *rec);
uint32_t window_count(const struct window *w);
/* Past either bound: the oldest record is due. */
bool window_full(const struct window *w);
void window_free(struct window *w);

/* ---------------------------------------------------------------- input.c (more) */
/* A session numbered by the first pass over an input (input_open(), for task identity). */
struct input_pre {
	uint32_t id, number;
};

struct input {
	struct sct_reader *r;
	const char *path;
	struct live *cur;  /* current session, NULL before the first record */
	bool read;         /* a record or a clean end came: counted in ctx.inputs_read */
	struct input_pre *pre; /* the sessions of the first pass, in input order */
	uint32_t npre, ipre, cappre;
	struct window *win;    /* a stream whose records need their task: held back here */
	bool session_due;      /* the reader returned a SESSION: the window drains first */
	bool ended;            /* the reader is done: the window drains, then end_rc */
	int end_rc;
};

struct ctx;
/* The tables every mode shares (strings, sessions, cgroups, tasks), into c; -ENOMEM. */
int input_tables_new(struct ctx *c);
void input_tables_free(struct ctx *c);
int input_open(struct ctx *c, struct input *in, const char *path);
/* sct_reader_next(), counting the input in c->inputs_read once it gives a record or its end. */
int input_read(struct ctx *c, struct input *in, struct sct_record *rec);
/*
 * Next record, with sessions and cgroups kept up to date. 1, 0 at end, or -err. Records of a
 * type above SCT_REC_MAX that the session's HEADER describes come too (read their fields with
 * sct_reader_field()): modes that do not show them pass them by.
 */
int input_next(struct ctx *c, struct input *in, struct sct_record *rec);
/* Apply a lifecycle record to the task table: after the mode has seen it (an EXIT line
 * still names the task it ends). */
int input_track(struct ctx *c, struct input *in, const struct sct_record *rec);
/* An input that failed (err): "TOOL: PATH: reason" on stderr, escaped, and in the footer. */
void input_error(struct ctx *c, struct input *in, const char *path, int err);
/* Adds the reader's statistics to the footer and closes it. */
void input_close(struct ctx *c, struct input *in);
/* Name of syscall nr in the live session's table: strtab id ("syscall_N" if unknown). */
uint32_t input_syscall_name(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi);
/* The live session's description of a sample's event, NULL if its HEADER has none. */
const struct sct_event_desc *input_event(const struct live *lv, const struct sct_sample *sm);
/* Name of a sample's event: strtab id of "GROUP:NAME" ("event_N" if the HEADER has none). */
uint32_t input_event_name(struct ctx *c, struct live *lv, const struct sct_sample *sm);
/* Type 9 is SAMPLE in the live session: from format 1.1 on (and without a HEADER). */
bool input_sample_session(const struct live *lv);

/* ---------------------------------------------------------------- filter.c */
#define FILTER_MAX_IDS 256

struct filter {
	uint32_t pids[FILTER_MAX_IDS], npids;
	uint32_t tids[FILTER_MAX_IDS], ntids;
	char **comms; uint32_t ncomms;
	char **cgroups; uint32_t ncgroups; /* path prefixes or ids */
	char **syscalls; uint32_t nsyscalls;
	uint8_t *syscall_known; /* per --syscall name: a HEADER's table names it (or it is syscall_N) */
	bool tables_seen;       /* a session with a HEADER was read: the names could be checked */
	char **paths; uint32_t npaths;     /* --path: prefixes of a captured path (format 1.3) */
	bool failed;
	uint64_t min_duration;
	/* time window: relative (to the session anchor) or wall clock ns */
	bool has_since, has_until, since_wall, until_wall;
	int64_t since, until;
	bool need_task; /* comm filter: the task table must be consulted */
};
/* Whether any filter is set (the summary's hot path skips them all otherwise). */
bool filter_active(const struct filter *f);
int filter_parse_ids(uint32_t *ids, uint32_t *n, const char *arg);
int filter_parse_list(char ***list, uint32_t *n, const char *arg);
/* One item, taken whole (a path may hold commas). */
int filter_add_item(char ***list, uint32_t *n, const char *item);
/*
 * --syscall NAME[,NAME...]: 0, -EINVAL (empty), -ENOMEM, or -EPROTONOSUPPORT with *bad the
 * first of strace's classes (%file, ...), which no tool takes yet.
 */
int filter_parse_syscalls(struct filter *f, const char *arg, const char **bad);
/* A session's HEADER was read: its tables say which --syscall names exist. */
void filter_note_session(struct filter *f, const struct sct_session *s);
/*
 * Once every input is read: the next --syscall name (from *from on) that no HEADER's table
 * names, or NULL; none when no HEADER was read (blocks without one have no names to check).
 */
const char *filter_unknown_syscall(const struct filter *f, uint32_t *from);
int filter_parse_duration(const char *arg, uint64_t *ns);
int filter_parse_time(const char *arg, int64_t *v, bool *wall);
/* Task-level filters on a sample; false under a syscall-only filter (--syscall, ...). */
bool filter_sample(struct ctx *c, struct live *lv, const struct sct_sample *sm);
/* Every filter of c->env on a syscall of the live session. */
bool filter_syscall(struct ctx *c, struct live *lv, const struct sct_syscall *sc);
/* Task-level filters (pid, tid, comm, cgroup, time) for lifecycle records; cgroups of s in cgs. */
bool filter_task(struct ctx *c, struct cgroups *cgs, const struct sess *s, uint32_t pid, uint32_t tid,
		 uint64_t cgroup_id, uint64_t time_ns, const struct task *t);
bool filter_window(const struct filter *f, const struct sess *s, uint64_t t);
bool filter_any_syscall_only(const struct filter *f);
void filter_free(struct filter *f);

/* ---------------------------------------------------------------- latency.c */
/*
 * Log-linear latency histogram. Values below 1024 ns are counted exactly; above, each
 * power of two is cut in 512 buckets, so a bucket's lower bound is at most 1/512 (0.2%)
 * below any value in it. Percentiles report that lower bound, clamped to [min, max].
 * The first LAT_SMALL values are kept as they are, with no buckets: a group of a few calls
 * (one per process of many short sessions) costs bytes, not the 4-8 KiB of an octave.
 */
#define LAT_SUB_BITS 9
#define LAT_LINEAR (1u << (LAT_SUB_BITS + 1))
#define LAT_SUB (1u << LAT_SUB_BITS)
#define LAT_SMALL 4
struct lat {
	uint64_t count, sum, min, max;
	uint64_t *oct[64]; /* [0]: 0..1023 exact; [e], e >= 10: [2^e, 2^(e+1)) in 512 */
	uint64_t small[LAT_SMALL]; /* while no octave exists: every value (nsmall == count) */
	uint32_t nsmall;
};
int lat_add_slow(struct lat *l, uint64_t v);
/* count, sum, min and max of a value that was put in a bucket or kept. */
static inline void lat_note(struct lat *l, uint64_t v)
{
	l->count++;
	l->sum += v;
	if (v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
}
static inline int lat_add(struct lat *l, uint64_t v)
{
	uint64_t *b;
	unsigned e, i;

	if (v < LAT_LINEAR) {
		e = 0;
		i = (unsigned)v;
	} else {
		e = 63u - (unsigned)__builtin_clzll(v);
		i = (unsigned)(v >> (e - LAT_SUB_BITS)) & (LAT_SUB - 1);
	}
	b = l->oct[e];
	if (!b)
		return lat_add_slow(l, v);
	b[i]++;
	lat_note(l, v);
	return 0;
}
void lat_init(struct lat *l);
int lat_merge(struct lat *dst, const struct lat *src);
/* Nearest-rank percentile (p in 0..100]: the lower bound of the bucket of rank ceil(p*n/100). */
uint64_t lat_percentile(const struct lat *l, double p);
/* Counts per power of two: out[0] = value 0, out[k] = [2^(k-1), 2^k). */
void lat_log2(const struct lat *l, uint64_t out[65]);
void lat_free(struct lat *l);

/* ---------------------------------------------------------------- groups (summary.c) */
enum by_key { BY_SYSCALL, BY_PROCESS, BY_THREAD, BY_CGROUP, BY_COMM, BY_HOST, BY_EVENT, BY_PATH,
	      BY_NKEYS };
#define BY_MAX 6

enum sort_key { SORT_TIME, SORT_CALLS, SORT_ERRORS, SORT_AVG, SORT_MAX, SORT_P99, SORT_NAME };

struct errcount {
	uint32_t err;
	uint64_t count;
};

struct group {
	uint64_t key[BY_MAX];
	uint64_t errors;
	struct lat lat;
	struct errcount *errs;
	uint32_t nerrs;
	uint32_t label[BY_MAX]; /* strtab ids, set when grouped for output */
};

/* ---------------------------------------------------------------- context */
enum mode { MODE_SUMMARY, MODE_TIMELINE, MODE_TREE, MODE_HIST };

struct env {
	enum mode mode;
	uint32_t by[BY_MAX], nby;
	enum sort_key sort;
	bool sort_given;
	uint64_t top;        /* 0 = all */
	bool errors;
	bool strict;
	struct filter filter;
	bool filter_active;
	char **files;
	int nfiles;
};

struct footer;

struct ctx {
	const char *tool;    /* for messages: "sct-report" */
	struct env *env;
	struct footer *footer;
	bool track_tasks;    /* keep the task table (comm, process tree) */
	bool hold_streams;   /* with track_tasks: a stream's records wait in a window (window.c) */
	bool keep_ended;     /* keep cgroups of sessions that are over (tree, summary) */
	bool keep_sessions;  /* the output names sessions and tasks after they end (tree, task labels) */
	struct strtab *strs;
	struct sessions *sessions;
	struct cgroups *cgroups;
	struct tasks *tasks;
	/*
	 * Inputs that gave a record or a clean end. With none, every input failed and its
	 * message said why: no table or footer of nothing follows.
	 */
	uint32_t inputs_read;
	uint64_t nlive;      /* HEADERs and stretches without one read so far (struct live's serial) */
	/*
	 * input_next() also returns records of type 9 of a 1.0 session, a type only its HEADER's
	 * schema describes (read them with sct_reader_field()); else it passes them by.
	 */
	bool schema_type9;
};

/* ---------------------------------------------------------------- footer.c */
struct footer *footer_new(void);
/* Diagnostics callback for sct_reader_set_diag(); ctx is the footer. */
void footer_diag(void *footer, const struct sct_diag *d);
void footer_set_file(struct footer *f, const char *path);
void footer_record(struct footer *f, const struct sct_record *rec);
/* A record of a type its session's version does not define, which its HEADER describes. */
void footer_schema_record(struct footer *f);
void footer_add_stats(struct footer *f, const struct sct_reader_stats *st);
void footer_input_error(struct footer *f, const char *path, const char *msg);
/* The footer, with a line per session of ss (names in strs). */
void footer_print(struct footer *f, const struct sessions *ss, const struct strtab *strs, struct out *o);
/*
 * The tool's exit status after reading every input (err: a fatal error, 0 if none): prints
 * the reason for a non-zero status on stderr as "TOOL: ...". Damage alone is not an error,
 * unless strict or nothing could be read.
 */
int footer_exit_status(const struct footer *f, const char *tool, bool strict, int err);
void footer_free(struct footer *f);

/* ---------------------------------------------------------------- csv.c, jsonl.c */
/* One CSV field (RFC 4180 quoting when needed; bytes as they are). */
void csv_bytes(struct out *o, const void *p, size_t len);
/* Bytes inside a quoted CSV field: quotes doubled, no surrounding quotes. */
void csv_quoted_part(struct out *o, const void *p, size_t len);
/* One JSON string: valid UTF-8 as is but C1 controls (\u0080..\u009f), other bytes as \u00XX of their value. */
void json_string(struct out *o, const void *p, size_t len);

/* ---------------------------------------------------------------- samples.c */
/*
 * A tracepoint sample's fields, decoded by the HEADER's event table (sct_sample_field()):
 * integers as numbers, strings as strings, other arrays as arrays of numbers, and a field
 * whose data lies outside the payload as an error marker, never its bytes.
 */
/* Bytes a field's JSON text takes at most (a 64 KiB payload as \u00XX escapes): the first
 * size of a scratch, which then never grows for one field. */
#define SAMPLE_JSON_MAX (512u << 10)
/* JSON value of one field. */
void sample_json_value(struct out *o, const struct sct_event_field *f, struct sct_bytes payload);
/* JSON object of every field: {"name":value,...}. */
void sample_json_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload);
/* The same object as one CSV field; scratch: a memory out (out_open_mem()). */
void sample_csv_fields(struct out *o, struct out *scratch, const struct sct_event_desc *ev,
		       struct sct_bytes payload);
/* One field as a CSV field: numbers, strings as their bytes, arrays and errors as JSON. */
void sample_csv_value(struct out *o, struct out *scratch, const struct sct_event_field *f,
		      struct sct_bytes payload);
/* " name=value ..." for the timeline, common_* fields left out, escaped, at most max bytes. */
void sample_text_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload,
			size_t max);

/* ---------------------------------------------------------------- modes */
struct summary;
struct summary *summary_new(struct ctx *c);
int summary_add(struct summary *sm, struct live *lv, const struct sct_syscall *sc);
/* --by event: count a sample. */
int summary_add_sample(struct summary *sm, struct live *lv, const struct sct_sample *sample);
/* Groups merged by label, sorted; returns the count and the array (owned by sm). */
int summary_groups(struct summary *sm, struct group ***out);
int summary_print(struct summary *sm, struct out *o);
uint32_t summary_nby(const struct summary *sm);
void summary_free(struct summary *sm);

int hist_print(const struct ctx *c, struct summary *sm, struct out *o);

struct timeline;
struct timeline *timeline_new(struct ctx *c);
int timeline_add(struct timeline *tl, struct live *lv, const struct sct_record *rec, struct out *o);
int timeline_finish(struct timeline *tl, struct out *o);
void timeline_free(struct timeline *tl);

int tree_print(struct ctx *c, struct out *o);

#endif
