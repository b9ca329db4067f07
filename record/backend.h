/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What records the syscalls: the interface between the session (lifecycle.c), which owns the
 * one lifecycle and loop, and a backend (a folder of record/), which owns its kernel objects
 * in a private state. The session calls, in this order:
 *
 *   new_report     at the checks, before the command or the output: the probes say what
 *                  this kernel offers; refuses what the backend cannot do (prints why)
 *   attach_report  after the command is forked (held): load, open, attach, and the targets
 *                  read from /proc around it, so that no target escapes; before the trace
 *                  opens. A failure here under --backend auto may fall back (see below)
 *   file_start     each file's start (after its HEADER): TASK records of the traced tasks
 *                  alive now; the first call is the recording's first file
 *   start_report   the first file started: what must run before the ready line; says the
 *                  tasks that found no room and the words of the ready line
 *   poll           the loop: wait up to timeout_ms, read what the kernel made into records
 *   check          the loop: the kernel's loss counters into LOST/WARNING records
 *   sweep          the loop, once a second without records: drop targets that are gone
 *   totals         under a filter, each flush interval and after drain: the kernel's
 *                  totals into the recorder's (NULL: the backend counts in the recorder)
 *   tracing        the loop: whether any target is left (thread targets)
 *   drain          at stop: detach, then every event still held into records
 *   destroy        always, once new_report has run (accepts a state never attached)
 *
 * Functions return 0 or a negative errno; those ending in _report print their own message.
 * Adding a backend: a folder that defines its struct record_backend NAME_backend, and its line
 * in RECORD_BACKENDS (then --backend NAME runs it; --backend auto picks from probe.c's
 * probe_pick_backend()).
 */
#ifndef SCT_RECORD_BACKEND_H
#define SCT_RECORD_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct probes;
struct recorder;

struct record_backend {
	const char *name;         /* --backend NAME, and the HEADER's backend */
	bool reads_paths;         /* --args: path strings read from user memory at the call */
	bool samples;             /* records made of perf samples: the HEADER says whose cgroup ids */
	/* The kernel features the backend needs for r->mode; prints the first one missing. */
	int (*require_report)(const struct probes *p, unsigned mode);
	int (*new_report)(struct recorder *r, const struct probes *p, void **state);
	int (*attach_report)(void *state);
	int (*file_start)(void *state);
	int (*start_report)(void *state, uint64_t *not_fit, char *ready, size_t cap);
	int (*poll)(void *state, int timeout_ms);
	int (*check)(void *state, uint64_t now_ns);
	void (*sweep)(void *state);
	int (*totals)(void *state);
	bool (*tracing)(void *state);
	int (*drain)(void *state);
	void (*destroy)(void *state);
};

/*
 * Every backend, X(ID, NAME): BACKEND_ID in enum record_backend_id (record.h), NAME its
 * --backend name and the prefix of its NAME_backend. The one list: the --backend names, the
 * session's table and the enum come from it.
 */
#define RECORD_BACKENDS(X) \
	X(BPF, bpf)   /* tp_btf programs, pairing in the kernel */ \
	X(PERF, perf) /* perf_event_open() on tracepoints, pairing in userspace */

#define RECORD_BACKEND_EXTERN(ID, NAME) extern const struct record_backend NAME##_backend;
RECORD_BACKENDS(RECORD_BACKEND_EXTERN)
#undef RECORD_BACKEND_EXTERN

#endif
