// SPDX-License-Identifier: BSD-2-Clause
/*
 * One recording session over the backend picked (backend.h): check, attach (the targets
 * read from /proc around it), open the trace, snapshot the tasks, go live, poll, stop, drain,
 * close. The order (sct-record(8), "Startup order") is what keeps any task created after the ready
 * line from escaping the trace.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "probe.h"

#define POLL_TIMEOUT_NS (100 * 1000 * 1000ull)
#define SWEEP_PERIOD_NS NSEC_PER_SEC

/* --backend's values (enum record_backend_id) to backends. */
#define SESSION_BACKEND(ID, NAME) [BACKEND_##ID] = &NAME##_backend,
static const struct record_backend *const backends[BACKEND_COUNT] = {
	RECORD_BACKENDS(SESSION_BACKEND)
};
#undef SESSION_BACKEND

/* --backend: the one asked for, or what auto finds usable, said in one stderr line. */
static int session_backend_report(struct recorder *r, const struct probes *p)
{
	char why[256];
	int b = r->env->backend, f;

	if (b == BACKEND_AUTO) {
		b = probe_pick_backend(p, r->mode, capabilities_bpf(), why, sizeof(why));
		if (b < 0)
			b = BACKEND_BPF;
		else if (!r->env->quiet)
			fprintf(stderr, "sct-record: backend auto: %s (%s)\n", backends[b]->name, why);
		/* what runs without the BPF privileges, if the backend picked fails to attach */
		f = probe_pick_backend(p, r->mode, false, why, sizeof(why));
		if (f >= 0 && f != b)
			r->fallback = backends[f];
	}
	r->backend = backends[b];
	r->sample_cgroup = p->have[PROBE_SAMPLE_CGROUP] && p->have[PROBE_PERF_CGROUP];
	return r->backend->require_report(p, r->mode);
}

/* Everything that can be checked before touching the kernel or the output file. */
static int session_check_report(struct recorder *r, struct probes *probes)
{
	const struct env *env = r->env;
	int err;

	err = probe_all_report(probes);
	if (!err)
		err = session_backend_report(r, probes);
	if (!err)
		err = r->backend->new_report(r, probes, &r->state);
	if (err)
		return err;
	/* perf samples carry the argument registers but no user memory: no path strings */
	if (env->args) {
		err = host_info_args_report(&r->host, &r->args, env, r->backend->reads_paths);
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

/* The backend's wait: a quarter of --flush-interval, at most POLL_TIMEOUT_NS, whole ms. */
static int session_poll_ms(const struct env *env)
{
	uint64_t poll_ns = env->flush_interval_ns / 4;

	if (poll_ns > POLL_TIMEOUT_NS)
		poll_ns = POLL_TIMEOUT_NS;
	/* rounded down: the bound holds; --flush-interval >= 10 ms gives >= 2 */
	return (int)(poll_ns / 1000000);
}

/* The cgroup resolver, before the attach: perf's -G events need the cgroup's path. */
static int session_cgroups_report(struct recorder *r)
{
	if (!r->host.cgroup_mount[0])
		return 0;
	r->cgroups = cgroups_new(r->host.cgroup_mount);
	if (r->cgroups)
		return 0;
	fprintf(stderr, "sct-record: out of memory\n");
	return -ENOMEM;
}

/* auto: programs the probes accepted can still fail to load or attach; the fallback can run. */
static int session_fall_back_report(struct recorder *r, const struct probes *p)
{
	int err;

	r->backend->destroy(r->state);
	r->state = NULL;
	targets_free(&r->targets);
	memset(&r->targets, 0, sizeof(r->targets));
	if (!r->env->quiet)
		fprintf(stderr, "sct-record: backend auto: %s (the BPF programs did not load or "
			"attach)\n", r->fallback->name);
	r->backend = r->fallback;
	r->fallback = NULL;
	r->staged = false;
	if (r->env->args && !r->backend->reads_paths)
		r->host.info.args_paths = "none";
	err = r->backend->new_report(r, p, &r->state);
	return err ? err : r->backend->attach_report(r->state);
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
static uint64_t session_writer_interval(const struct recorder *r)
{
	return r->env->flush_interval_ns - (r->staged ? 3 : 2) * (uint64_t)r->poll_ms * 1000000;
}

/*
 * What opens every file of the recording after its HEADER: TASK records of the traced tasks
 * alive now (the backend's own walk), and the traced cgroup's CGROUP record under -G.
 */
static int session_file_start(void *ctx)
{
	struct recorder *r = ctx;
	int err = r->backend->file_start(r->state);

	if (!err && r->mode == SCT_MODE_CGROUP)
		err = events_note_cgroup(r, r->target_cgroup, clock_now_ns());
	return err;
}

/* The trace: rotate.c's first file, or the flight recorder, with its start. */
static int session_open_report(struct recorder *r)
{
	struct sct_writer_opts opts = { .flush_interval_ns = session_writer_interval(r) };

	r->host.info.backend = r->backend->name;
	if (r->env->filter.on) {
		const struct record_filter *f = &r->env->filter;

		r->host.filter.text = f->text;
		r->host.filter.details = f->summary_only ? "none" : "filtered";
		/* perf's tracepoint filter drops the other syscalls before the recorder sees them */
		r->host.filter.totals = f->syscalls_arg && !strcmp(r->backend->name, "perf") ? "syscalls" : "all";
		r->host.info.filter = &r->host.filter;
	}
	if (r->backend->samples || r->env->nevents)
		r->host.info.sample_cgroup = r->sample_cgroup ? "kernel" : "recorder";
	if (r->env->stack_parts) {
		r->host.stacks = (struct sct_header_stacks){ cli_stack_mode(r->env->stack_parts), r->env->stack_depth,
							     "fp" };
		r->host.info.stacks = &r->host.stacks;
		r->stacks = stacks_new(r->env->stack_parts, r->env->stack_depth);
		if (!r->stacks) {
			fprintf(stderr, "sct-record: out of memory\n");
			return -ENOMEM;
		}
	}
	return rotate_open_report(r, &opts, session_file_start, r);
}

/*
 * The start is written (err: the first error writing it): flush it, print the ready line
 * "tracing N tasks (READY)" and release the command after --.
 */
static int session_ready_report(struct recorder *r, int err, const char *ready)
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
			stats_plural(r->tasks), ready);
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

/* Live: the backend's start, the targets-full warning after the file's start, the ready line. */
static int session_start_report(struct recorder *r)
{
	uint64_t not_fit = 0;
	char ready[64];
	int err;

	r->start_ns = clock_now_ns();
	r->status_ns = r->start_ns;
	r->status_tty = !r->env->quiet && isatty(STDERR_FILENO);
	r->sweep_ns = r->start_ns;
	r->totals.since_ns = r->start_ns;
	err = r->backend->start_report(r->state, &not_fit, ready, sizeof(ready));
	if (err)
		return err;
	if (not_fit)
		err = stats_targets_full(r, not_fit, true);
	return session_ready_report(r, err, ready);
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
	return r->mode == SCT_MODE_TARGETS && !r->backend->tracing(r->state);
}

/*
 * A target left behind by a dead task makes no records; a second with records proves some
 * target alive and skips the sweep (it walks every target: ~1 ms here).
 */
static void session_sweep(struct recorder *r, uint64_t now_ns)
{
	uint64_t records = rotate_records(r);

	r->sweep_ns = now_ns;
	if (records == r->sweep_records)
		r->backend->sweep(r->state);
	r->sweep_records = records;
}

/*
 * Under a filter or --summary-only: the totals of the interval as TOTALS records, once each
 * --flush-interval, and (final) before the file they go to is finished: at stop after the
 * drain, and before a rotation or a reopen, so that each file holds the totals of its calls.
 */
static int session_totals(struct recorder *r, uint64_t now_ns, bool final)
{
	int err = 0;

	if (!r->env->filter.on || (!final && now_ns - r->totals.since_ns < r->env->flush_interval_ns))
		return 0;
	if (r->backend->totals)
		err = r->backend->totals(r->state);
	/* Stamped once the counts are read: every call they count returned by then. */
	if (!err)
		err = totals_write(r, &r->totals, clock_now_ns());
	if (!err && r->totals.full > r->totals_full_said) {
		err = stats_totals_full(r, r->totals.full - r->totals_full_said);
		r->totals_full_said = r->totals.full;
	}
	return err;
}

static int session_loop(struct recorder *r)
{
	uint64_t now_ns;
	int err;

	for (;;) {
		err = r->backend->poll(r->state, r->poll_ms);
		if (err)
			return err;
		now_ns = clock_now_ns();
		err = sct_writer_flush_if_due(r->writer, now_ns);
		if (!err)
			err = r->backend->check(r->state, now_ns);
		if (!err)
			err = session_totals(r, now_ns, rotate_pending(r, now_ns));
		if (!err)
			err = stacks_warn(r);
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
	if (r->backend)
		r->backend->destroy(r->state);
	r->state = NULL;
	rotate_free(r);
	totals_free(&r->totals);
	cgroups_free(r->cgroups);
	stacks_free(r->stacks);
	r->stacks = NULL;
	targets_free(&r->targets);
	r->cgroups = NULL;
}

static int session_close_report(struct recorder *r, int err)
{
	/* Our terminal back from raw mode before the last lines are printed. */
	command_relay_end(&r->cmd);
	stats_status_clear(r);
	if (!err)
		err = stacks_warn(r);
	err = rotate_close_report(r, err);
	if (!err)
		session_summary(r);
	return err;
}

static int session_record(struct recorder *r)
{
	struct probes probes;
	int err;

	command_init(&r->cmd);
	/* perf's only totals; bpf's read of its map, whose keys (one per bucket) are no fewer */
	totals_init(&r->totals, r->env->filter.totals_keys ? r->env->filter.totals_keys : RECORD_TOTALS_KEYS, 0);
	r->mode = r->env->all ? SCT_MODE_ALL : r->env->cgroup ? SCT_MODE_CGROUP : SCT_MODE_TARGETS;
	r->poll_ms = session_poll_ms(r->env);
	host_info_fill(&r->host, r->env);
	err = session_check_report(r, &probes);
	if (err)
		goto out_destroy;
	if (r->env->cmd) {
		err = command_start_report(&r->cmd, r->env);
		if (err) {
			r->cmd_status = command_status(&r->cmd);
			goto out_destroy;
		}
	}
	err = session_cgroups_report(r);
	if (!err)
		err = r->backend->attach_report(r->state);
	if (err && r->fallback && !record_exiting)
		err = session_fall_back_report(r, &probes);
	if (err)
		goto out_abort;
	err = session_open_report(r);
	if (!err)
		err = session_start_report(r);
	if (err)
		goto out_discard;

	err = session_loop(r);
	command_stop(&r->cmd, r->env);
	if (!err)
		err = r->backend->drain(r->state);
	if (!err)
		err = session_totals(r, clock_now_ns(), true);
	err = session_close_report(r, err);
	session_destroy(r);
	r->cmd_status = command_finish_report(&r->cmd, r->env);
	return err;

out_discard:
	rotate_discard(r);
out_abort:
	command_abort(&r->cmd);
out_destroy:
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
