/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What sct-record needs from the running kernel, probed before anything is loaded: each
 * finding says yes or no, why, and the first Linux version that has the feature. A missing
 * feature either has a fallback (the load path changes) or stops the recorder with a message
 * that names it.
 *
 * SCT_RECORD_FORCE=no-FEATURE[,no-FEATURE...] (test only) makes a present feature look
 * missing, so every fallback and every stop runs on a kernel that has everything.
 *
 * Functions return 0 or a negative errno, as everywhere in record/.
 */
#ifndef SCT_RECORD_PROBE_H
#define SCT_RECORD_PROBE_H

#include <stdbool.h>
#include <stdio.h>

#define PROBE_FORCE_ENV "SCT_RECORD_FORCE"

enum probe_feature {
	PROBE_BTF,             /* /sys/kernel/btf/vmlinux */
	PROBE_CGROUP_V2,       /* a cgroup2 mount: cgroup paths and -G */
	PROBE_TP_BTF,          /* BPF_PROG_TYPE_TRACING attached to a raw tracepoint */
	PROBE_RINGBUF,         /* BPF_MAP_TYPE_RINGBUF */
	PROBE_TASK_ITER,       /* iter/task programs */
	PROBE_ANCESTOR_CGROUP, /* bpf_get_current_ancestor_cgroup_id() in tracing programs */
	PROBE_TASK_STORAGE,    /* task storage maps and their helper in tracing programs */
	PROBE_LIGHT_SKELETON,  /* BPF_PROG_TYPE_SYSCALL loader and in-kernel CO-RE */
	PROBE_RUN_ON_CPU,      /* BPF_F_TEST_RUN_ON_CPU: the per-CPU stages can be flushed */
	PROBE_TASK_CAST,       /* bpf_rdonly_cast(): sys_enter finds its task without a helper */
	PROBE_PERF_ACCESS,     /* perf backend: CAP_PERFMON, root or perf_event_paranoid -1 */
	PROBE_RAW_SYSCALLS,    /* perf backend: raw_syscalls and sched tracepoints in tracefs */
	PROBE_SAMPLE_CGROUP,   /* perf backend: PERF_SAMPLE_CGROUP */
	PROBE_PERF_CGROUP,     /* perf backend: the perf_event controller on cgroup2, for ids and -G */
	PROBE_COUNT,
};

struct probes {
	bool have[PROBE_COUNT];
	char why[PROBE_COUNT][256];
};

/*
 * Probe every feature into p, honouring SCT_RECORD_FORCE. Returns -EINVAL, with a message,
 * when that variable names no feature; a missing feature is a finding, not an error.
 */
int probe_all_report(struct probes *p);
/* --probe: probe, then one line per feature on f: name, yes/no, first Linux version, why. */
int probe_print_report(FILE *f);
/*
 * Whether the BPF backend can run in filter mode (enum sct_mode) with what p found; if not,
 * prints "sct-record: this kernel has no ... (Linux X+)" for the first missing requirement
 * and returns -EOPNOTSUPP.
 */
int probe_require_report(const struct probes *p, unsigned mode);
/* The same for the perf backend. */
int probe_require_perf_report(const struct probes *p, unsigned mode);
/*
 * --backend auto: BACKEND_BPF or BACKEND_PERF (enum record_backend_id), why into why; -1 when
 * neither can run (the caller then reports what bpf lacks).
 */
int probe_pick_backend(const struct probes *p, unsigned mode, bool bpf_privileged, char *why,
		       size_t cap);

#endif
