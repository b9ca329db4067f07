/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tasks of the sessions read (tasks.c): names at a time, parents, children, threads.
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_TASKS_H
#define SCT_TASKS_H

#include <stdint.h>

#include "sct.h"
#include "strtab.h"

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
	uint8_t tree_mark;      /* proc_tree.c: shown */
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

#endif
