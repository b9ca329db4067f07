// SPDX-License-Identifier: BSD-2-Clause
/*
 * One recording session: check, load, fill targets, attach, read /proc again, prune, open
 * the trace, snapshot the tasks, go live, poll, stop, drain, close. The order (README "Startup
 * order") is what keeps any task created after the ready line from escaping the trace.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record.h"
#include "bpf/load.h"
#include "perf/perf.h"
#include "bpf/probe.h"

#define POLL_TIMEOUT_NS (100 * 1000 * 1000ull)
#define SWEEP_PERIOD_NS NSEC_PER_SEC

static bool has_bpf_caps(void)
{
	/* CAP_SYS_ADMIN covers both, as it did before CAP_BPF and CAP_PERFMON existed. */
	return probe_has_cap(CAP_SYS_ADMIN) || (probe_has_cap(CAP_BPF) && probe_has_cap(CAP_PERFMON));
}

static int privilege_error(void)
{
	fprintf(stderr, "sct-record: permission denied: loading BPF programs needs root, or CAP_BPF "
		"and CAP_PERFMON (try sudo)\n");
	return -EPERM;
}

int session_privilege_report(void)
{
	return has_bpf_caps() ? 0 : privilege_error();
}

/* --backend: the one asked for, or what auto finds usable, said in one stderr line. */
static int session_backend_report(struct recorder *r, const struct probes *p)
{
	char why[256];
	int b = r->env->backend;

	if (b == BACKEND_AUTO) {
		b = probe_pick_backend(p, r->mode, has_bpf_caps(), why, sizeof(why));
		if (b < 0)
			b = BACKEND_BPF;
		else if (!r->env->quiet)
			fprintf(stderr, "sct-record: backend auto: %s (%s)\n",
				b == BACKEND_BPF ? "bpf" : "perf", why);
	}
	r->backend = b;
	r->backend_name = b == BACKEND_PERF ? "perf" : "bpf";
	r->sample_cgroup = p->have[PROBE_SAMPLE_CGROUP] && p->have[PROBE_PERF_CGROUP];
	r->perf_fallback = r->env->backend == BACKEND_AUTO && b == BACKEND_BPF &&
			   probe_pick_backend(p, r->mode, false, why, sizeof(why)) == BACKEND_PERF;
	if (b == BACKEND_PERF)
		return probe_require_perf_report(p, r->mode);
	return session_privilege_report() ?: probe_require_report(p, r->mode);
}

/* Everything that can be checked before touching the kernel or the output file. */
static int session_check_report(struct recorder *r)
{
	const struct env *env = r->env;
	struct probes probes;
	int err;

	err = probe_all_report(&probes);
	if (!err)
		err = session_backend_report(r, &probes);
	if (err)
		return err;
	r->inflight_in_hash = !probes.have[PROBE_TASK_STORAGE];
	r->loader = &load_skel;
	if (probes.have[PROBE_LIGHT_SKELETON] && !r->inflight_in_hash)
		r->loader = env->args ? &load_light_args : &load_light;
	/* The perf backend reads its rings directly: nothing is staged, no flush adds its delay. */
	r->staged = r->backend == BACKEND_BPF && probes.have[PROBE_RUN_ON_CPU];
	r->task_cast = probes.have[PROBE_TASK_CAST];
	if (env->args && r->backend == BACKEND_BPF && r->inflight_in_hash) {
		fprintf(stderr, "sct-record: --args needs task storage for tracing programs (Linux "
			"5.12); see sct-record --probe\n");
		return -EOPNOTSUPP;
	}
	/* perf samples carry the argument registers but no user memory: no path strings */
	if (env->args) {
		err = host_info_args_report(&r->host, &r->args, env, r->backend == BACKEND_BPF);
		if (err)
			return err;
	}
	err = targets_check_report(env);
	if (err)
		return err;
	if (env->cgroup) {
		if (!r->host.cgroup_mount[0]) {
			fprintf(stderr, "sct-record: cannot trace cgroup '%s': no cgroup2 file system is "
				"mounted\n", env->cgroup);
			return -ENOENT;
		}
		err = cgroups_target(r->host.cgroup_mount, env->cgroup, &r->target_cgroup,
				     &r->target_level);
		if (err) {
			fprintf(stderr, "sct-record: cannot trace cgroup '%s': %s under %s\n", env->cgroup,
				err == -EXDEV ? "not a cgroup v2 directory" : "no such cgroup",
				r->host.cgroup_mount);
			return err;
		}
	}
	return output_check_report(env);
}

/* --args: which argument of each syscall is a path, for the BPF programs. */
static int session_path_args(struct recorder *r, int fd)
{
	for (__u32 nr = 0; nr < r->args.npath_args; nr++) {
		__u8 v = r->args.path_args[nr];

		if (v && bpf_map_update_elem(fd, &nr, &v, BPF_ANY))
			return -errno;
	}
	return 0;
}

/* The ring buffer wait: a quarter of --flush-interval, at most POLL_TIMEOUT_NS, whole ms. */
static int session_poll_ms(const struct env *env)
{
	uint64_t poll_ns = env->flush_interval_ns / 4;

	if (poll_ns > POLL_TIMEOUT_NS)
		poll_ns = POLL_TIMEOUT_NS;
	/* rounded down: the bound holds; --flush-interval >= 10 ms gives >= 2 */
	return (int)(poll_ns / 1000000);
}

static int session_load_report(struct recorder *r)
{
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
		.inflight_in_hash = r->inflight_in_hash,
		.staged = r->staged,
		.stage_age_ns = (uint64_t)session_poll_ms(env) * 1000000,
		.ncpus = (__u32)ncpus,
		.task_cast = r->task_cast,
		.args = env->args,
		.args_max = env->args_max,
		.npath_args = r->args.npath_args ? r->args.npath_args : 1,
		.compat_path_base = r->args.compat_base,
	};
	struct load_handles h;
	int err;

	if (ncpus <= 0) {
		err = ncpus ? ncpus : -EINVAL;
		fprintf(stderr, "sct-record: cannot count the possible CPUs: %s\n", strerror(-err));
		return err;
	}
	/* Every failure below gets one message of ours; libbpf's own lines would only repeat it. */
	libbpf_set_print(NULL);
	err = r->loader->load(&r->skel, &s, &h);
	if (err == -EPERM || err == -EACCES)
		return privilege_error();
	if (err) {
		fprintf(stderr, "sct-record: cannot load the BPF programs (%s): %s\n", r->loader->name,
			strerror(-err));
		return err;
	}
	r->targets.map_fd = h.targets_fd;
	r->stats_fd = h.stats_fd;
	r->iter_prog_fd = h.iter_prog_fd;
	r->stage_prog_fd = h.stage_prog_fd;
	r->cpu_calls_fd = h.cpu_calls_fd;
	r->cpu_calls_args_fd = h.cpu_calls_args_fd;
	r->iter_mode = h.iter_mode;
	r->snapshot_done = h.snapshot_done;
	r->targets.count = h.ntargets;
	if (env->args) {
		err = session_path_args(r, h.path_args_fd);
		if (err) {
			fprintf(stderr, "sct-record: cannot fill the path_args map: %s\n", strerror(-err));
			return err;
		}
	}
	err = ringbuf_open(&r->rb, h.events_fd, env->ringbuf_size);
	if (err) {
		fprintf(stderr, "sct-record: cannot map the ring buffer: %s\n", strerror(-err));
		return err;
	}
	if (r->staged)
		err = stage_marks_open(&r->marks, h.stage_marks_fd, ncpus);
	if (err)
		fprintf(stderr, "sct-record: cannot map the CPUs' stage marks: %s\n", strerror(-err));
	return err;
}

/* Targets from /proc, attach, /proc again, prune: no target task escapes the window. */
static int session_attach_report(struct recorder *r, struct targets_result *res)
{
	int err = 0;

	if (r->mode == SCT_MODE_TARGETS)
		err = targets_fill(r);
	if (!err) {
		err = r->loader->attach(r->skel, r->inflight_in_hash, r->env->args);
		if (err) {
			fprintf(stderr, "sct-record: cannot attach the BPF programs: %s\n", strerror(-err));
			return err;
		}
	}
	if (!err && r->mode == SCT_MODE_TARGETS)
		err = targets_fill(r);
	if (!err && r->mode == SCT_MODE_TARGETS)
		targets_prune(r, res);
	if (err)
		fprintf(stderr, "sct-record: cannot read the targets from /proc: %s\n", strerror(-err));
	return err;
}

/*
 * An event waits up to one poll timeout in the ring buffer, up to the writer's interval in
 * the pending block, and up to one more timeout until the loop sees the block is due. A
 * staged SYSCALL event first waits for its stage: one timeout after the stage's oldest event
 * it goes with the CPU's next event, or the loop flushes it when it next wakes (within one
 * more timeout), right before it reads the ring buffer: up to two timeouts in all before it
 * is read. A timeout of at most a quarter of --flush-interval, and a writer interval of what
 * the timeouts leave, put every event in the file within --flush-interval of its submission.
 */
static void session_timing(struct recorder *r, uint64_t *writer_interval_ns)
{
	r->poll_ms = session_poll_ms(r->env);
	*writer_interval_ns = r->env->flush_interval_ns -
			      (r->staged ? 3 : 2) * (uint64_t)r->poll_ms * 1000000;
}

int session_open_report(struct recorder *r)
{
	struct sct_writer_opts opts = { 0 };

	session_timing(r, &opts.flush_interval_ns);
	r->host.info.backend = r->backend_name;
	if (r->backend == BACKEND_PERF || r->env->nevents)
		r->host.info.sample_cgroup = r->sample_cgroup ? "kernel" : "recorder";

	if (r->host.cgroup_mount[0]) {
		r->cgroups = cgroups_new(r->host.cgroup_mount);
		if (!r->cgroups) {
			fprintf(stderr, "sct-record: out of memory\n");
			return -ENOMEM;
		}
	}
	return rotate_open_report(r, &opts);
}

int session_file_start(struct recorder *r)
{
	int err;

	if (r->backend == BACKEND_PERF) {
		/* the first file opens before the perf events: perf_start_report() starts it */
		if (!r->perf)
			return 0;
		err = perf_file_start(r->perf);
	} else {
		err = snapshot_tasks(r);
	}
	if (!err && r->mode == SCT_MODE_CGROUP)
		err = events_note_cgroup(r, r->target_cgroup, clock_now_ns());
	return err;
}

int session_ready_report(struct recorder *r, int err, const char *path)
{
	if (!err)
		err = sct_writer_flush(r->writer);
	if (err) {
		fprintf(stderr, "sct-record: cannot write the start of %s: %s\n", r->env->output,
			sct_strerror(err));
		return err;
	}
	if (!r->env->quiet)
		fprintf(stderr, "sct-record: tracing %llu task%s (%s)\n", (unsigned long long)r->tasks,
			stats_plural(r->tasks), path);
	/* Stopped while starting: the loop ends at once, so the command must never start. */
	if (record_exiting) {
		command_abort(&r->cmd);
		return 0;
	}
	err = command_release(&r->cmd);
	if (err)
		fprintf(stderr, "sct-record: cannot start the command: %s\n", strerror(-err));
	return err;
}

/* The targets-full warning after the file's start, then the ready line. */
static int session_start_report(struct recorder *r, const struct targets_result *res)
{
	char path[64];
	int err = 0;

	if (res->not_fit)
		err = stats_targets_full(r, res->not_fit, true);
	snprintf(path, sizeof(path), "%s, %s, %s", r->loader->name,
		 r->inflight_in_hash ? "tid hash map" : "task storage",
		 r->staged ? "staged" : "unstaged");
	return session_ready_report(r, err, path);
}

/* Whether recording should stop now. */
static bool session_done(struct recorder *r, uint64_t now_ns)
{
	const struct env *env = r->env;

	if (record_exiting)
		return true;
	if (env->duration_ns && now_ns - r->start_ns >= env->duration_ns)
		return true;
	/* Reaping also keeps the finished command from lingering as a zombie. */
	if (command_reaped(&r->cmd) && r->mode != SCT_MODE_TARGETS)
		return true;
	return r->mode == SCT_MODE_TARGETS && !targets_any(r);
}

/*
 * A key left behind by a dead task makes no records; a second with records proves some
 * target alive and skips the sweep (it walks every bucket of the map: ~1 ms here).
 */
static void session_sweep(struct recorder *r, uint64_t now_ns)
{
	uint64_t records = rotate_records(r);

	r->sweep_ns = now_ns;
	if (records == r->sweep_records)
		targets_sweep(r);
	r->sweep_records = records;
}

/* The stages a poll timeout old to the ring buffer, at each wakeup; every stage at stop. */
static int session_stage_flush(struct recorder *r, bool final)
{
	int err;

	if (!r->staged)
		return 0;
	if (final)
		err = stage_flush_all(r->stage_prog_fd);
	else
		err = stage_flush_old(&r->marks, r->stage_prog_fd, clock_now_ns(),
				      (uint64_t)r->poll_ms * 1000000);
	if (err)
		fprintf(stderr, "sct-record: cannot flush the per-CPU stages: %s\n", strerror(-err));
	return err;
}

static int session_loop(struct recorder *r)
{
	uint64_t now_ns;
	int64_t n;
	int err;

	for (;;) {
		err = ringbuf_wait(&r->rb, r->poll_ms);
		if (!err)
			err = session_stage_flush(r, false);
		if (err)
			return err;
		n = ringbuf_consume(&r->rb, events_handle, r);
		if (n < 0)
			return r->err ? r->err : (int)n;
		now_ns = clock_now_ns();
		err = perf_sampler_read(r->sampler, now_ns);
		if (!err)
			err = sct_writer_flush_if_due(r->writer, now_ns);
		if (!err)
			err = stats_check(r, now_ns);
		if (!err)
			err = rotate_tick_report(r, now_ns);
		if (err)
			return err;
		stats_status(r, now_ns);
		if (r->mode == SCT_MODE_TARGETS && now_ns - r->sweep_ns >= SWEEP_PERIOD_NS)
			session_sweep(r, now_ns);
		if (session_done(r, now_ns))
			return 0;
	}
}

/* Detach first, so that every event is in the ring buffer and the in-flight set is final. */
static int session_drain(struct recorder *r)
{
	int64_t n;
	int err;

	r->loader->detach(r->skel);
	err = session_stage_flush(r, true);
	if (err)
		return err;
	n = ringbuf_consume(&r->rb, events_handle, r);
	err = n < 0 ? (int)n : stats_check(r, clock_now_ns());
	if (!err)
		err = perf_sampler_drain(r->sampler);
	if (!err)
		err = snapshot_inflight(r);
	return r->err ? r->err : err;
}

static void session_summary(struct recorder *r)
{
	uint64_t records = rotate_records(r), bytes;
	char where[2 * PATH_MAX + 64];

	stats_status_clear(r);
	if (r->env->quiet)
		return;
	bytes = rotate_describe(r, where, sizeof(where));
	fprintf(stderr, "sct-record: %llu record%s, %llu lost, %llu warning%s; %llu byte%s written to %s\n",
		(unsigned long long)records, stats_plural(records), (unsigned long long)r->lost,
		(unsigned long long)r->warnings, stats_plural(r->warnings), (unsigned long long)bytes,
		stats_plural(bytes), where);
	/* Not a loss: each went to the ring buffer by itself, as without staging. */
	if (r->seen.stage_busy)
		fprintf(stderr, "sct-record: %llu SYSCALL event%s bypassed %s CPU's stage (a program "
			"nested there)\n", (unsigned long long)r->seen.stage_busy, stats_plural(r->seen.stage_busy),
			r->seen.stage_busy == 1 ? "its" : "their");
}

static void session_destroy(struct recorder *r)
{
	perf_sampler_free(r->sampler);
	r->sampler = NULL;
	ringbuf_close(&r->rb);
	stage_marks_close(&r->marks);
	if (r->skel) {
		r->loader->detach(r->skel);
		r->loader->destroy(r->skel);
	}
	rotate_free(r);
	cgroups_free(r->cgroups);
	targets_free(&r->targets);
	r->skel = NULL;
	r->cgroups = NULL;
}

int session_close_report(struct recorder *r, int err)
{
	/* Our terminal back from raw mode before the last lines are printed. */
	command_relay_end(&r->cmd);
	stats_status_clear(r);
	err = rotate_close_report(r, err);
	if (!err)
		session_summary(r);
	return err;
}

/* The session with the bpf backend, or with perf when it is the one picked. */
static int session_record(struct recorder *r)
{
	struct targets_result res = { 0 };
	int err;

	command_init(&r->cmd);
	ringbuf_init(&r->rb);
	stage_marks_init(&r->marks);
	r->mode = r->env->all ? SCT_MODE_ALL : r->env->cgroup ? SCT_MODE_CGROUP : SCT_MODE_TARGETS;
	host_info_fill(&r->host, r->env);
	err = session_check_report(r);
	if (err)
		return err;
	if (r->backend == BACKEND_PERF)
		return perf_session_run(r);
	if (r->env->cmd) {
		err = command_start_report(&r->cmd, r->env);
		if (err) {
			r->cmd_status = command_status(&r->cmd);
			return err;
		}
	}
	err = session_load_report(r);
	/* -e: perf events opened by the /proc passes of the attach, beside the programs. */
	if (!err && r->env->nevents) {
		r->sampler = perf_sampler_new_report(r, &err);
		if (err)
			goto out_abort;
	}
	if (!err)
		err = session_attach_report(r, &res);
	/* auto: programs the probes accepted can still fail to load or attach; perf can run. */
	if (err && r->perf_fallback && !record_exiting) {
		session_destroy(r);
		if (!r->env->quiet)
			fprintf(stderr, "sct-record: backend auto: perf (the BPF programs did not load or "
				"attach)\n");
		r->backend = BACKEND_PERF;
		r->backend_name = "perf";
		r->staged = false;
		if (r->env->args)
			r->host.info.args_paths = "none";
		return perf_session_run(r);
	}
	if (err)
		goto out_abort;
	err = session_open_report(r);
	if (err)
		goto out_discard;
	r->start_ns = clock_now_ns();
	r->status_ns = r->start_ns;
	r->status_tty = !r->env->quiet && isatty(STDERR_FILENO);
	r->sweep_ns = r->start_ns;
	err = perf_sampler_start_report(r->sampler, r->rb.epoll_fd);
	if (err)
		fprintf(stderr, "sct-record: cannot start sampling the -e tracepoints: %s\n", strerror(-err));
	if (!err)
		err = session_start_report(r, &res);
	if (err)
		goto out_discard;

	err = session_loop(r);
	command_stop(&r->cmd, r->env);
	if (!err)
		err = session_drain(r);
	err = session_close_report(r, err);
	session_destroy(r);
	r->cmd_status = command_finish_report(&r->cmd, r->env);
	return err;

out_discard:
	rotate_discard(r);
out_abort:
	command_abort(&r->cmd);
	session_destroy(r);
	return err;
}

/* The argument descriptions outlive a fall back from bpf to perf: freed once, at the end. */
int session_run(struct recorder *r)
{
	int err = session_record(r);

	args_free(&r->args);
	return err;
}
