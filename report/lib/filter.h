/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The filters the tools share (filter.c): pid, tid, comm, cgroup, syscall, path, duration,
 * time window; parsed from the command line, applied to records of the live session.
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_FILTER_H
#define SCT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "sct.h"

struct ctx;
struct live;
struct sess;
struct cgroups;
struct task;

#define FILTER_MAX_IDS 256

struct filter {
	uint32_t pids[FILTER_MAX_IDS], npids;
	uint32_t tids[FILTER_MAX_IDS], ntids;
	char **comms; uint32_t ncomms;
	char **cgroups; uint32_t ncgroups; /* path prefixes or ids */
	char **syscalls; uint32_t nsyscalls; /* --syscall items: NAME, N, %CLASS, each may start with '!' */
	bool syscalls_invert;   /* the first --syscall list started with '!': all but what it names */
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
 * --syscall LIST: names, numbers and strace's classes (%file, ...), '!' before an item to
 * drop what it names, a first list starting with '!' for all but what it names (as
 * sct_syscall_set_parse() reads it). 0, -EINVAL (an empty item), -ENOENT (an unknown class),
 * -ENOMEM; *bad is the item refused.
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
/* Every filter of c->filter on a syscall of the live session. */
bool filter_syscall(struct ctx *c, struct live *lv, const struct sct_syscall *sc);
/* Task-level filters (pid, tid, comm, cgroup, time) for lifecycle records; cgroups of s in cgs. */
bool filter_task(struct ctx *c, struct cgroups *cgs, const struct sess *s, uint32_t pid, uint32_t tid,
		 uint64_t cgroup_id, uint64_t time_ns, const struct task *t);
bool filter_window(const struct filter *f, const struct sess *s, uint64_t t);
/*
 * When a TOTALS record's task is found (spec/FORMAT.md 9.3): the start of its interval,
 * since_ns + 1, so that a process that exited before the flush is still found; it is named
 * at time_ns.
 */
uint64_t filter_totals_task_ns(const struct sct_totals *t);
/*
 * The filters a TOTALS record can answer (syscall, pid, cgroup, comm, time window) on one
 * of the live session: 0 it fails, 1 it passes, 2 it passes but its interval
 * (since_ns, time_ns] straddles an edge of the time window (it is counted whole). The
 * per-call filters (tid, --failed, --min-duration, --path) are the caller's to rule out.
 */
int filter_totals(struct ctx *c, struct live *lv, const struct sct_totals *t);
bool filter_any_syscall_only(const struct filter *f);
void filter_free(struct filter *f);

#endif
