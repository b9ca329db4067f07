// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF backend: tp_btf programs pair each call in the kernel and submit records to a ring
 * buffer (bpf/sct.bpf.c). Load, targets from /proc around the attach, the ring buffer and the
 * per-CPU stages in the loop, the task iterator at each file's start and at stop; -e's
 * tracepoints beside it come from perf/'s sampler.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_backend.h"
#include "load.h"
#include "../probe.h"
#include "../perf/perf.h"

static int bpf_require_report(const struct probes *p, unsigned mode)
{
	return capabilities_bpf_report() ?: probe_require_report(p, mode);
}

static int bpf_new_report(struct recorder *r, const struct probes *p, void **state)
{
	struct bpf_state *b = calloc(1, sizeof(*b));

	if (!b) {
		fprintf(stderr, "sct-record: out of memory\n");
		return -ENOMEM;
	}
	*state = b;
	b->r = r;
	ringbuf_init(&b->rb);
	stage_marks_init(&b->marks);
	b->inflight_in_hash = !p->have[PROBE_TASK_STORAGE];
	b->loader = &load_skel;
	if (p->have[PROBE_LIGHT_SKELETON] && !b->inflight_in_hash)
		b->loader = r->env->args ? &load_light_args : &load_light;
	/* --stack: a call's SYSCALL event follows its stack event, never staged after others */
	b->staged = p->have[PROBE_RUN_ON_CPU] && !r->env->stack_parts;
	r->staged = b->staged;
	b->task_cast = p->have[PROBE_TASK_CAST];
	if (r->env->args && b->inflight_in_hash) {
		fprintf(stderr, "sct-record: --args needs task storage for tracing programs (Linux "
			"5.12); see sct-record --probe\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * totals_cache's slots per CPU for a totals map of keys keys: as many, a power of two, at
 * most 2^SCT_TOT_CACHE_BITS_MAX (256 KiB a CPU); one on a CPU where the programs do not use
 * the cache (bpf/sct.bpf.c's totals_slot()).
 */
static __u32 bpf_totals_cache_bits(__u32 keys)
{
	__u32 bits = 0;

#if defined(__x86_64__)
	while (bits < SCT_TOT_CACHE_BITS_MAX && 2u << bits <= keys)
		bits++;
#else
	(void)keys;
#endif
	return bits;
}

/*
 * The filter's settings of the BPF programs. The totals map: a key per process, cgroup,
 * syscall and duration bucket; an unfiltered recording makes it one entry, and its cache
 * one slot per CPU.
 */
static void bpf_filter_settings(const struct record_filter *f, int ncpus, struct load_settings *s)
{
	s->max_totals = f->on ? record_totals_keys(f->totals_keys, ncpus) : 1;
	s->totals_cache_bits = f->on ? bpf_totals_cache_bits(s->max_totals) : 0;
	s->nsyscall_set = f->syscalls_arg ? f->nsyscalls : 1;
	memcpy(s->noreturn_nr, f->noreturn, sizeof(s->noreturn_nr));
	if (!f->on)
		return;
	s->totals_on = true;
	s->details_off = f->summary_only;
	s->filter_syscalls = f->syscalls_arg;
	s->syscall_compat_base = f->compat_base;
	s->filter_failed = f->failed;
	s->filter_errnos = f->errno_arg;
	s->filter_min_ns = f->min_duration_ns;
	s->filter_ncomms = f->ncomms;
	memcpy(s->filter_comms, f->comms, sizeof(s->filter_comms));
	if (f->path) {
		s->filter_path_len = strlen(f->path);
		memcpy(s->filter_path, f->path, s->filter_path_len);
	}
}

/* The filter's sets into their maps, before attach. */
static int bpf_filter_sets(const struct record_filter *f, const struct load_handles *h)
{
	__u8 one = 1;

	for (__u32 nr = 0; f->syscalls_arg && nr < f->nsyscalls; nr++)
		if (f->syscalls[nr] && bpf_map_update_elem(h->syscall_set_fd, &nr, &one, BPF_ANY))
			return -errno;
	for (__u32 e = 0; f->errno_arg && e < FILTER_ERRNO_MAX; e++)
		if (f->errnos[e] && bpf_map_update_elem(h->errno_set_fd, &e, &one, BPF_ANY))
			return -errno;
	return 0;
}

/*
 * --args: which arguments of each syscall are paths, and which point to memory its record
 * holds, for the BPF programs.
 */
static int bpf_capture_args(struct recorder *r, int fd)
{
	for (__u32 nr = 0; nr < r->args.npath_args; nr++) {
		struct sct_capture_args v = r->args.capture_args[nr];

		v.path = r->args.path_args[nr];
		if ((v.path || v.flags) && bpf_map_update_elem(fd, &nr, &v, BPF_ANY))
			return -errno;
	}
	return 0;
}

static void bpf_handles(struct bpf_state *b, const struct load_handles *h)
{
	b->r->targets.map_fd = h->targets_fd;
	b->r->targets.count = h->ntargets;
	b->stats_fd = h->stats_fd;
	b->iter_prog_fd = h->iter_prog_fd;
	b->stage_prog_fd = h->stage_prog_fd;
	b->cpu_calls_fd = h->cpu_calls_fd;
	b->cpu_calls_args_fd = h->cpu_calls_args_fd;
	b->totals_fd = h->totals_fd;
	b->iter_mode = h->iter_mode;
	b->snapshot_done = h->snapshot_done;
}

static int bpf_load_report(struct bpf_state *b)
{
	struct recorder *r = b->r;
	const struct env *env = r->env;
	int ncpus = libbpf_num_possible_cpus();
	struct load_settings s = {
		.self_tgid = getpid(),
		.mode = r->mode,
		.target_cgroup = r->target_cgroup,
		.target_level = r->target_level,
		/*
		 * Past 1/8 of the buffer, wake the consumer: it then has 7/8 of the buffer (~65 ms
		 * at 1,000,000 syscalls/s with the default size) to get a CPU before anything is lost.
		 */
		.wakeup_bytes = env->ringbuf_size / 8,
		.max_tasks = r->mode == SCT_MODE_TARGETS ? env->max_tasks : 1,
		/* At most one syscall in flight per task: the tasks bound the map. */
		.max_inflight = env->max_tasks,
		/* the children of the traced tasks that have not made a call yet: as many */
		.max_forked = env->max_tasks,
		.ringbuf_size = env->ringbuf_size,
		.inflight_in_hash = b->inflight_in_hash,
		.staged = b->staged,
		.stage_age_ns = (uint64_t)r->poll_ms * 1000000,
		.ncpus = (__u32)ncpus,
		.task_cast = b->task_cast,
		.args = env->args,
		.captures = env->args,
		.args_data = env->args_data,
		.args_max = env->args_max,
		.npath_args = r->args.npath_args ? r->args.npath_args : 1,
		.compat_path_base = r->args.compat_base,
		.stack_parts = env->stack_parts,
		.stack_depth = env->stack_depth,
		.max_stack_pids = env->stack_parts ? env->max_tasks : 1,
	};
	struct load_handles h;
	int err;

	if (ncpus <= 0) {
		err = ncpus ? ncpus : -EINVAL;
		fprintf(stderr, "sct-record: cannot count the possible CPUs: %s\n", strerror(-err));
		return err;
	}
	bpf_filter_settings(&env->filter, ncpus, &s);
	if (env->filter.on) {
		err = bpf_totals_init(&b->totals, s.max_totals);
		if (err) {
			fprintf(stderr, "sct-record: out of memory\n");
			return err;
		}
	}
	/* Every failure below gets one message of ours; libbpf's own lines would only repeat it. */
	libbpf_set_print(NULL);
	err = b->loader->load(&b->skel, &s, &h);
	if (err == -EPERM || err == -EACCES)
		return capabilities_bpf_denied();
	if (err) {
		fprintf(stderr, "sct-record: cannot load the BPF programs (%s): %s\n", b->loader->name,
			strerror(-err));
		return err;
	}
	bpf_handles(b, &h);
	err = bpf_filter_sets(&env->filter, &h);
	if (err) {
		fprintf(stderr, "sct-record: cannot fill the filter's maps: %s\n", strerror(-err));
		return err;
	}
	if (env->args) {
		err = bpf_capture_args(r, h.capture_args_fd);
		if (err) {
			fprintf(stderr, "sct-record: cannot fill the capture_args map: %s\n", strerror(-err));
			return err;
		}
	}
	err = ringbuf_open(&b->rb, h.events_fd, env->ringbuf_size);
	if (err) {
		fprintf(stderr, "sct-record: cannot map the ring buffer: %s\n", strerror(-err));
		return err;
	}
	if (b->staged)
		err = stage_marks_open(&b->marks, h.stage_marks_fd, ncpus);
	if (err) {
		fprintf(stderr, "sct-record: cannot map the CPUs' stage marks: %s\n", strerror(-err));
		return err;
	}
	if (env->filter.on)
		err = bpf_totals_map(&b->totals, h.totals_cache_fd, (size_t)ncpus << s.totals_cache_bits);
	if (err)
		fprintf(stderr, "sct-record: cannot map the totals cache: %s\n", strerror(-err));
	return err;
}

/* Targets from /proc, attach, /proc again, prune: no target task escapes the window. */
static int bpf_targets_attach_report(struct bpf_state *b)
{
	struct recorder *r = b->r;
	struct targets_result res = { 0 };
	int err = 0;

	if (r->mode == SCT_MODE_TARGETS)
		err = targets_fill(r);
	if (!err) {
		err = b->loader->attach(b->skel, b->inflight_in_hash, r->env->args);
		if (err) {
			fprintf(stderr, "sct-record: cannot attach the BPF programs: %s\n", strerror(-err));
			return err;
		}
	}
	if (!err && r->mode == SCT_MODE_TARGETS)
		err = targets_fill(r);
	if (!err && r->mode == SCT_MODE_TARGETS)
		targets_prune(r, &res);
	if (err)
		fprintf(stderr, "sct-record: cannot read the targets from /proc: %s\n", strerror(-err));
	b->not_fit = res.not_fit;
	return err;
}

static int bpf_attach_report(void *state)
{
	struct bpf_state *b = state;
	int err = bpf_load_report(b);

	/* -e: perf events opened by the /proc passes of the attach, beside the programs. */
	if (!err && b->r->env->nevents) {
		b->sampler = perf_sampler_new_report(b->r, &err);
		/* the perf backend would open the same tracepoints: no fall back */
		if (err) {
			b->r->fallback = NULL;
			return err;
		}
	}
	return err ? err : bpf_targets_attach_report(b);
}

static int bpf_file_start(void *state)
{
	return snapshot_tasks(state);
}

static int bpf_start_report(void *state, uint64_t *not_fit, char *ready, size_t cap)
{
	struct bpf_state *b = state;
	int err = perf_sampler_start_report(b->sampler, b->rb.epoll_fd);

	if (err) {
		fprintf(stderr, "sct-record: cannot start sampling the -e tracepoints: %s\n", strerror(-err));
		return err;
	}
	*not_fit = b->not_fit;
	snprintf(ready, cap, "%s, %s, %s", b->loader->name,
		 b->inflight_in_hash ? "tid hash map" : "task storage",
		 b->staged ? "staged" : "unstaged");
	return 0;
}

/* The stages a poll timeout old to the ring buffer, at each wakeup; every stage at stop. */
static int bpf_stage_flush(struct bpf_state *b, bool final)
{
	int err;

	if (!b->staged)
		return 0;
	if (final)
		err = stage_flush_all(b->stage_prog_fd);
	else
		err = stage_flush_old(&b->marks, b->stage_prog_fd, clock_now_ns(),
				      (uint64_t)b->r->poll_ms * 1000000);
	if (err)
		fprintf(stderr, "sct-record: cannot flush the per-CPU stages: %s\n", strerror(-err));
	return err;
}

static int bpf_poll(void *state, int timeout_ms)
{
	struct bpf_state *b = state;
	int64_t n;
	int err;

	err = ringbuf_wait(&b->rb, timeout_ms);
	if (!err)
		err = bpf_stage_flush(b, false);
	if (err)
		return err;
	n = ringbuf_consume(&b->rb, bpf_events_handle, b->r);
	if (n < 0)
		return b->r->err ? b->r->err : (int)n;
	return perf_sampler_read(b->sampler, clock_now_ns());
}

/* The stats map's counters summed over every CPU. */
static int bpf_counters(struct bpf_state *b, struct sct_stats *sum)
{
	int ncpus = libbpf_num_possible_cpus();
	struct sct_stats *per;
	__u32 zero = 0;
	int err = 0;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	per = calloc(ncpus, sizeof(*per));
	if (!per)
		return -ENOMEM;
	memset(sum, 0, sizeof(*sum));
	if (bpf_map_lookup_elem(b->stats_fd, &zero, per)) {
		err = -errno;
		goto out;
	}
	for (int i = 0; i < ncpus; i++) {
		sum->ringbuf_full += per[i].ringbuf_full;
		sum->inflight_full += per[i].inflight_full;
		sum->targets_full += per[i].targets_full;
		sum->stage_busy += per[i].stage_busy;
		sum->totals_full += per[i].totals_full;
	}
out:
	free(per);
	return err;
}

static int bpf_check(void *state, uint64_t now_ns)
{
	struct sct_stats counters;
	int err = bpf_counters(state, &counters);

	return err ? err : stats_check(((struct bpf_state *)state)->r, &counters, now_ns);
}

static int bpf_totals(void *state)
{
	struct bpf_state *b = state;
	int err = bpf_totals_read(&b->totals, &b->r->totals, b->totals_fd);

	if (err)
		fprintf(stderr, "sct-record: cannot read the totals map: %s\n", strerror(-err));
	return err;
}

static void bpf_sweep(void *state)
{
	targets_sweep(((struct bpf_state *)state)->r);
}

static bool bpf_tracing(void *state)
{
	return targets_any(((struct bpf_state *)state)->r);
}

/* Detach first, so that every event is in the ring buffer and the in-flight set is final. */
static int bpf_drain(void *state)
{
	struct bpf_state *b = state;
	struct recorder *r = b->r;
	int64_t n;
	int err;

	b->loader->detach(b->skel);
	err = bpf_stage_flush(b, true);
	if (err)
		return err;
	n = ringbuf_consume(&b->rb, bpf_events_handle, r);
	err = n < 0 ? (int)n : bpf_check(b, clock_now_ns());
	if (!err)
		err = perf_sampler_drain(b->sampler);
	if (!err)
		err = snapshot_inflight(b);
	return r->err ? r->err : err;
}

static void bpf_destroy(void *state)
{
	struct bpf_state *b = state;

	if (!b)
		return;
	perf_sampler_free(b->sampler);
	ringbuf_close(&b->rb);
	stage_marks_close(&b->marks);
	bpf_totals_free(&b->totals);
	if (b->skel) {
		b->loader->detach(b->skel);
		b->loader->destroy(b->skel);
	}
	free(b);
}

const struct record_backend bpf_backend = {
	.name = "bpf",
	.reads_paths = true,
	.require_report = bpf_require_report,
	.new_report = bpf_new_report,
	.attach_report = bpf_attach_report,
	.file_start = bpf_file_start,
	.start_report = bpf_start_report,
	.poll = bpf_poll,
	.check = bpf_check,
	.sweep = bpf_sweep,
	.totals = bpf_totals,
	.tracing = bpf_tracing,
	.drain = bpf_drain,
	.destroy = bpf_destroy,
};
