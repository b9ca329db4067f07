// SPDX-License-Identifier: BSD-2-Clause
/*
 * Kernel feature probes of both backends, for --probe and --backend auto's pick: what the
 * programs of bpf/ use (perf/'s own probes are perf_events.c's), checked before anything is
 * loaded, through libbpf's probes where they can answer and small direct checks where they
 * cannot (libbpf 1.1 cannot load a tracing program without a BTF attach target). All of them
 * cost ~0.5 ms of CPU here: none reads the vmlinux BTF, whose parsing would cost ~60 ms and
 * the light skeleton its advantage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record.h"
#include "perf/perf.h"
#include "probe.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

typedef bool (*probe_fn)(char *why, size_t cap);

struct feature {
	bool perf;            /* a requirement of the perf backend, not of the BPF one */
	const char *name;     /* --probe's name; SCT_RECORD_FORCE says no-NAME */
	const char *what;     /* "this kernel has no WHAT" */
	const char *since;    /* first Linux version with it */
	const char *fallback; /* what the recorder does without it; NULL: it cannot run */
	probe_fn probe;
};

/* r0 = 0; exit */
static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static bool why_errno(char *why, size_t cap, const char *what, int err)
{
	snprintf(why, cap, "%s: %s", what, strerror(err));
	return false;
}

static bool probe_btf(char *why, size_t cap)
{
	if (access(BTF_PATH, R_OK))
		return why_errno(why, cap, BTF_PATH, errno);
	snprintf(why, cap, "%s is readable", BTF_PATH);
	return true;
}

static bool probe_cgroup_v2(char *why, size_t cap)
{
	char mnt[4096];

	if (cgroups_find_mount(mnt, sizeof(mnt))) {
		snprintf(why, cap, "no cgroup2 file system in /proc/self/mountinfo%s",
			 cgroups_v1_mounted() ? " (cgroup v1 only)" : "");
		return false;
	}
	snprintf(why, cap, "cgroup2 mounted at %s", mnt);
	return true;
}

/*
 * A tracing program without a BTF target is refused either way; a kernel that knows the
 * program type says why in the verifier log, an older one refuses the type itself.
 */
static bool probe_tp_btf(char *why, size_t cap)
{
	char log[512] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .log_buf = log, .log_size = sizeof(log), .log_level = 1);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", ret0, 2, &opts);
	if (fd >= 0)
		close(fd);
	if (fd >= 0 || strstr(log, "btf_id")) {
		snprintf(why, cap, "the kernel knows BTF tracing programs");
		return true;
	}
	if (errno == EPERM || errno == EACCES)
		return why_errno(why, cap, "loading a tracing program", errno);
	snprintf(why, cap, "the kernel refuses BPF_PROG_TYPE_TRACING");
	return false;
}

static bool probe_map(enum bpf_map_type type, const char *name, char *why, size_t cap)
{
	int ret = libbpf_probe_bpf_map_type(type, NULL);

	if (ret < 0)
		return why_errno(why, cap, name, -ret);
	snprintf(why, cap, "%s %s", name, ret ? "created" : "refused by the kernel");
	return ret == 1;
}

static bool probe_ringbuf(char *why, size_t cap)
{
	return probe_map(BPF_MAP_TYPE_RINGBUF, "BPF_MAP_TYPE_RINGBUF", why, cap);
}

/*
 * Every helper of raw tracepoint programs is one of tp_btf programs too, and libbpf can probe
 * raw tracepoint programs.
 */
static bool probe_helper(enum bpf_func_id id, const char *name, char *why, size_t cap)
{
	int ret = libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, id, NULL);

	if (ret < 0)
		return why_errno(why, cap, name, -ret);
	snprintf(why, cap, "%s %s in tracing programs", name, ret ? "available" : "unknown");
	return ret == 1;
}

static bool probe_ancestor_cgroup(char *why, size_t cap)
{
	return probe_helper(BPF_FUNC_get_current_ancestor_cgroup_id,
			    "bpf_get_current_ancestor_cgroup_id()", why, cap);
}

static bool probe_task_storage(char *why, size_t cap)
{
	if (!probe_map(BPF_MAP_TYPE_TASK_STORAGE, "BPF_MAP_TYPE_TASK_STORAGE", why, cap))
		return false;
	return probe_helper(BPF_FUNC_task_storage_get, "bpf_task_storage_get()", why, cap);
}

/*
 * A raw tracepoint program run on a chosen CPU, as the recorder runs stage_flush_cpu: the
 * flag came in 5.10, after the ring buffer; an older kernel refuses it with EINVAL.
 */
static bool probe_run_on_cpu(char *why, size_t cap)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = 0);
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL, "GPL", ret0, 2, NULL);
	if (fd < 0)
		return why_errno(why, cap, "loading a raw tracepoint program", errno);
	err = bpf_prog_test_run_opts(fd, &opts);
	close(fd);
	if (err)
		return why_errno(why, cap, "BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU", -err);
	snprintf(why, cap, "a raw tracepoint program ran on CPU 0");
	return true;
}

/*
 * BPF_ITER_CREATE on a link fd that cannot exist: a kernel with iterators looks the fd up
 * (EBADF), an older one does not know the command (EINVAL). The task target came with the
 * iterators themselves (5.8) and is built into every kernel that has them.
 */
static bool probe_task_iter(char *why, size_t cap)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.iter_create.link_fd = -1;
	if (syscall(SYS_bpf, BPF_ITER_CREATE, &attr, sizeof(attr)) >= 0 || errno == EBADF) {
		snprintf(why, cap, "the kernel knows BPF_ITER_CREATE");
		return true;
	}
	if (errno == EINVAL) {
		snprintf(why, cap, "the kernel refuses BPF_ITER_CREATE");
		return false;
	}
	return why_errno(why, cap, "BPF_ITER_CREATE", errno);
}

/*
 * A BPF_PROG_LOAD that passes a CO-RE relocation record size: kernels that apply CO-RE
 * relocations themselves (5.17+) read the field, older ones refuse an attribute they do not
 * know. The light skeleton's loader also needs BPF_PROG_TYPE_SYSCALL programs (5.14+).
 */
static bool probe_light_skeleton(char *why, size_t cap)
{
	union bpf_attr attr;
	int fd, ret;

	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SYSCALL, NULL);
	if (ret < 0)
		return why_errno(why, cap, "BPF_PROG_TYPE_SYSCALL", -ret);
	if (!ret) {
		snprintf(why, cap, "no BPF_PROG_TYPE_SYSCALL loader programs");
		return false;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (__u64)(unsigned long)ret0;
	attr.insn_cnt = 2;
	attr.license = (__u64)(unsigned long)"GPL";
	attr.core_relo_rec_size = sizeof(struct bpf_core_relo);
	fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0 && (errno == EINVAL || errno == E2BIG)) {
		snprintf(why, cap, "the kernel applies no CO-RE relocations itself");
		return false;
	}
	if (fd < 0)
		return why_errno(why, cap, "loading a program with CO-RE relocations", errno);
	close(fd);
	snprintf(why, cap, "loader programs and in-kernel CO-RE");
	return true;
}

/*
 * Finding a kfunc takes the kernel's BTF, ~5 MB that only the light skeleton's loader searches
 * cheaply, in the kernel. The release tells instead: since 6.2 every kernel with BPF registers
 * bpf_rdonly_cast() for every program type.
 */
static bool probe_task_cast(char *why, size_t cap)
{
	unsigned major = 0, minor = 0;
	struct utsname u;

	if (uname(&u))
		return why_errno(why, cap, "uname", errno);
	if (sscanf(u.release, "%u.%u", &major, &minor) != 2 || major < 6 || (major == 6 && minor < 2)) {
		snprintf(why, cap, "Linux %s is older than 6.2", u.release);
		return false;
	}
	snprintf(why, cap, "Linux %s has bpf_rdonly_cast()", u.release);
	return true;
}

static bool probe_raw_syscalls(char *why, size_t cap)
{
	struct perf_tps tps;

	if (perf_tps_read(&tps, why, cap))
		return false;
	snprintf(why, cap, "raw_syscalls:sys_enter/sys_exit, sched_process_exec/exit in %s%s",
		 tps.events, tps.layout.have_group_dead ? "" : " (no group_dead: leader exit used)");
	return true;
}

/* One source of truth: --probe's lines, SCT_RECORD_FORCE's names, the stop messages. */
static const struct feature features[PROBE_COUNT] = {
	[PROBE_BTF] = { false, "btf", "BTF (CONFIG_DEBUG_INFO_BTF=y)", "5.4", NULL, probe_btf },
	[PROBE_CGROUP_V2] = { false, "cgroup-v2", "cgroup2 file system", "4.5",
			      "every cgroup id is the unified root's, no paths; -G stops",
			      probe_cgroup_v2 },
	[PROBE_TP_BTF] = { false, "tp-btf", "BTF tracepoint programs (tp_btf)", "5.5", NULL,
			   probe_tp_btf },
	[PROBE_RINGBUF] = { false, "ringbuf", "BPF ring buffer", "5.8", NULL, probe_ringbuf },
	[PROBE_TASK_ITER] = { false, "task-iter", "BPF task iterator", "5.8", NULL, probe_task_iter },
	[PROBE_ANCESTOR_CGROUP] = { false, "ancestor-cgroup", "bpf_get_current_ancestor_cgroup_id()",
				    "5.7", "-G stops, the other modes do not use it",
				    probe_ancestor_cgroup },
	[PROBE_TASK_STORAGE] = { false, "task-storage", "task storage for tracing programs", "5.12",
				 "in-flight syscalls in a hash map keyed by tid, ordinary skeleton",
				 probe_task_storage },
	[PROBE_LIGHT_SKELETON] = { false, "light-skeleton", "in-kernel CO-RE for the light skeleton",
				   "5.17", "the ordinary skeleton, relocated by libbpf",
				   probe_light_skeleton },
	[PROBE_RUN_ON_CPU] = { false, "run-on-cpu", "BPF_PROG_TEST_RUN on a chosen CPU", "5.10",
			       "SYSCALL events go to the ring buffer one by one, not staged per CPU",
			       probe_run_on_cpu },
	[PROBE_TASK_CAST] = { false, "task-cast", "bpf_rdonly_cast() kfunc", "6.2",
			      "each syscall's entry asks a helper for its task (~17 ns a call here)",
			      probe_task_cast },
	[PROBE_PERF_ACCESS] = { true, "perf-access", "CAP_PERFMON or perf_event_paranoid -1", "5.8",
				NULL, perf_probe_access },
	[PROBE_RAW_SYSCALLS] = { true, "raw-syscalls", "raw_syscalls tracepoints in tracefs",
				 "2.6", NULL, probe_raw_syscalls },
	[PROBE_SAMPLE_CGROUP] = { true, "sample-cgroup", "PERF_SAMPLE_CGROUP", "5.7",
				  "perf backend: cgroup ids as the recorder reads them from /proc",
				  perf_probe_sample_cgroup },
	[PROBE_PERF_CGROUP] = { true, "perf-cgroup", "perf_event cgroup controller on cgroup2", "4.11",
				"perf backend: cgroup ids as the recorder reads them from /proc; "
				"-G stops", perf_probe_cgroup },
};

/* Apply SCT_RECORD_FORCE's list of no-NAME items. */
static int probe_force_report(struct probes *p, const char *list)
{
	char item[64];

	while (*list) {
		size_t len = strcspn(list, ","), i;

		snprintf(item, sizeof(item), "%.*s", (int)len, list);
		for (i = 0; i < PROBE_COUNT; i++)
			if (!strncmp(item, "no-", 3) && !strcmp(item + 3, features[i].name))
				break;
		if (i == PROBE_COUNT) {
			fprintf(stderr, "sct-record: invalid %s item '%s': no-FEATURE expected, with a "
				"feature of sct-record --probe\n", PROBE_FORCE_ENV, item);
			return -EINVAL;
		}
		p->have[i] = false;
		snprintf(p->why[i], sizeof(p->why[i]), "forced off by %s (test only)", PROBE_FORCE_ENV);
		list += len + (list[len] == ',');
	}
	return 0;
}

int probe_all_report(struct probes *p)
{
	const char *force = getenv(PROBE_FORCE_ENV);

	for (int i = 0; i < PROBE_COUNT; i++)
		p->have[i] = features[i].probe(p->why[i], sizeof(p->why[i]));
	return force ? probe_force_report(p, force) : 0;
}

int probe_print_report(FILE *f)
{
	struct probes probes, *p = &probes;
	int err = probe_all_report(p), b;
	char why[256];

	if (err)
		return err;
	for (int i = 0; i < PROBE_COUNT; i++) {
		const char *fallback = p->have[i] ? NULL : features[i].fallback;

		fprintf(f, "%-16s %-3s Linux %-5s %s%s%s\n", features[i].name, p->have[i] ? "yes" : "no",
			features[i].since, p->why[i], fallback ? "; without it: " : "",
			fallback ? fallback : "");
	}
	/* --probe runs privileged (main.c checks first): what auto would pick here and now. */
	b = probe_pick_backend(p, SCT_MODE_TARGETS, true, why, sizeof(why));
	fprintf(f, "%-16s %-4s %s\n", "backend-auto", b == BACKEND_BPF ? "bpf" : b == BACKEND_PERF ?
		"perf" : "none", b < 0 ? "neither backend can run here" : why);
	return 0;
}

static int probe_missing(enum probe_feature i)
{
	fprintf(stderr, "sct-record: this kernel has no %s (Linux %s+)\n", features[i].what,
		features[i].since);
	return -EOPNOTSUPP;
}

/* The first requirement of a backend that p lacks, or -1. */
static int probe_first_missing(const struct probes *p, bool perf, unsigned mode)
{
	for (int i = 0; i < PROBE_COUNT; i++)
		if (features[i].perf == perf && !p->have[i] && !features[i].fallback)
			return i;
	if (!perf && mode == SCT_MODE_CGROUP && !p->have[PROBE_ANCESTOR_CGROUP])
		return PROBE_ANCESTOR_CGROUP;
	if (perf && mode == SCT_MODE_CGROUP && !p->have[PROBE_PERF_CGROUP])
		return PROBE_PERF_CGROUP;
	return -1;
}

int probe_require_report(const struct probes *p, unsigned mode)
{
	int i = probe_first_missing(p, false, mode);

	return i < 0 ? 0 : probe_missing(i);
}

int probe_require_perf_report(const struct probes *p, unsigned mode)
{
	int i = probe_first_missing(p, true, mode);

	if (i == PROBE_PERF_ACCESS) {
		fprintf(stderr, "sct-record: permission denied: the perf backend needs root, CAP_PERFMON "
			"or perf_event_paranoid -1 (%s)\n", p->why[i]);
		return -EPERM;
	}
	if (i == PROBE_PERF_CGROUP) {
		fprintf(stderr, "sct-record: -G with the perf backend needs the perf_event controller "
			"on cgroup2: %s\n", p->why[i]);
		return -EOPNOTSUPP;
	}
	return i < 0 ? 0 : probe_missing(i);
}

int probe_pick_backend(const struct probes *p, unsigned mode, bool bpf_privileged, char *why,
		       size_t cap)
{
	int bpf = bpf_privileged ? probe_first_missing(p, false, mode) : PROBE_COUNT;
	int perf = probe_first_missing(p, true, mode);

	if (bpf < 0) {
		snprintf(why, cap, "BTF, tp_btf programs, ring buffer and task iterator are there");
		return BACKEND_BPF;
	}
	if (perf >= 0)
		return -1;
	if (bpf == PROBE_COUNT)
		snprintf(why, cap, "no privilege for BPF (root, or CAP_BPF and CAP_PERFMON)");
	else
		snprintf(why, cap, "no %s: %s", features[bpf].what, p->why[bpf]);
	return BACKEND_PERF;
}
