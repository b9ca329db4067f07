/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-report: its settings (struct env) and its modes (summary, hist, timeline, tree).
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_REPORT_H
#define SCT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "filter.h"
#include "latency.h"
#include "outbuf.h"
#include "sct.h"
#include "trace_input.h"

enum by_key { BY_SYSCALL, BY_PROCESS, BY_THREAD, BY_CGROUP, BY_COMM, BY_HOST, BY_EVENT, BY_PATH, BY_PEER,
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
	uint64_t noreturn;      /* calls that do not return: counted, not in lat (no duration) */
	struct lat lat;
	struct errcount *errs;
	uint32_t nerrs;
	uint32_t label[BY_MAX]; /* strtab ids, set when grouped for output */
};

enum mode { MODE_SUMMARY, MODE_TIMELINE, MODE_TREE, MODE_HIST, MODE_STACKS };

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
	bool follow;          /* --follow: the file as it grows, into its recording's next files */
	bool live;            /* one stream or --follow: records in time order as they come (-T, --interval) */
	uint64_t flush_ns;    /* --flush-interval: the recorder's */
	uint64_t interval_ns; /* --interval: a summary of each so many ns; 0: one of everything */
	const char *html;    /* --html FILE: the summary's page too, NULL: none */
	bool no_stacks;      /* --no-stacks: the timeline without the calls' frames */
	bool no_demangle;    /* --no-demangle: symbol names as the trace holds them */
	const char *debug_dir_path; /* --debug-dir DIR, NULL: none */
	struct debug_dir *debug_dir;
	uint32_t jobs;       /* -j: threads that decode blocks */
};

struct summary;
struct summary *summary_new(struct ctx *c, const struct env *env);
int summary_add(struct summary *sm, struct live *lv, const struct sct_syscall *sc);
/*
 * summary_add() of each call of b not in flight at the stop (b's rows have no paths or
 * arguments), from in, whose batches may lack the arrays summary_batch_lazy() names.
 */
int summary_add_batch(struct summary *sm, struct live *lv, struct input *in, const struct sct_syscall_batch *b);
/* The batch arrays (SCT_BATCH_ bits) summary_add_batch() reads only now and then. */
uint32_t summary_batch_lazy(const struct summary *sm);
/*
 * --by peer: follow what every call read (filtered out or not) does to its process's netlink
 * sockets, which name their peers; 0 or -ENOMEM. Nothing without c->sockets.
 */
int summary_follow_sockets(struct ctx *c, struct live *lv, const struct sct_syscall *sc);
/*
 * The calls of a TOTALS record (format 1.5) that passed the filters: its group found as a
 * SYSCALL's is, for its pid at filter_totals_task_ns() and named at time_ns.
 */
int summary_add_totals(struct summary *sm, struct live *lv, const struct sct_totals *t);
/* A detailed call's errno only, for -e where TOTALS give the counts (no errno breakdown). */
int summary_add_errno(struct summary *sm, struct live *lv, const struct sct_syscall *sc);
/* --by event: count a sample. */
int summary_add_sample(struct summary *sm, struct live *lv, const struct sct_sample *sample);
/* Groups merged by label, sorted; returns the count and the array (owned by sm). */
int summary_groups(struct summary *sm, struct group ***out);
int summary_print(struct summary *sm, struct out *o);
uint32_t summary_nby(const struct summary *sm);
/* The totals over every group (shown or not), after summary_groups(). */
struct summary_totals {
	uint64_t calls, errors, total_ns;
	uint32_t ngroups;
	bool samples; /* --by event: calls are samples */
};
void summary_totals(const struct summary *sm, struct summary_totals *t);
/* The name of a --by key ("syscall"). */
const char *summary_by_name(uint32_t by);
void summary_free(struct summary *sm);

int hist_print(const struct ctx *c, struct summary *sm, struct out *o);

struct timeline;
struct timeline *timeline_new(struct ctx *c, const struct env *env);
int timeline_add(struct timeline *tl, struct live *lv, const struct sct_record *rec, struct out *o);
int timeline_finish(struct timeline *tl, struct out *o);
void timeline_free(struct timeline *tl);

int tree_print(struct ctx *c, struct out *o);

/* --stacks (stack_report.c): detailed calls grouped by syscall and call stack. */
struct stacks;
struct stack_report;
struct stack_report *stack_report_new(struct ctx *c, const struct env *env);
/* A call whose stack id names a stack of st (the tables of its file). 0 or -ENOMEM. */
int stack_report_add(struct stack_report *sr, struct stacks *st, struct live *lv, const struct sct_syscall *sc);
int stack_report_print(struct stack_report *sr, struct out *o);
void stack_report_free(struct stack_report *sr);

/* --interval: a summary of each interval of the input (interval.c). */
/* select.c: which records a summary counts (a filtered session's come from its TOTALS). */
bool select_pass(struct ctx *c, const struct env *env, struct live *lv, const struct sct_syscall *sc);
const char *select_refused(const struct env *env);
/* Whether the summary reads only the fields every SYSCALL record has (no path, argument or address). */
bool select_base_fields(const struct env *env);
int select_add_totals(struct ctx *c, struct summary *sm, struct live *lv, const struct sct_totals *t);
int select_add_detail(struct ctx *c, const struct env *env, struct summary *sm, struct live *lv,
		      const struct sct_syscall *sc);

int interval_run(struct ctx *c, const struct env *env, struct out *o);
/* An input's idle callback (struct input): what is printed goes out before it waits. */
void report_flush(void *out);

#endif
