/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record's filters and totals on the real kernel: a workload that knows its calls (callmix:
 * failing and good opens, long and short sleeps, getppids) gets exactly the SYSCALL records its
 * filter matches, and TOTALS records that count every call exactly as an unfiltered recording
 * of the same workload does, per syscall, process and cgroup. Needs root and BPF; reruns with
 * SCT_TEST_BACKEND=perf check the perf backend, whose totals cover -S's syscalls only.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_filter, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

/* The calls of one syscall of one process: from TOTALS records, or from SYSCALL records. */
struct counts {
	uint64_t calls, errors;
	uint64_t cgroup_id;     /* of the last one */
	size_t records;
};

static struct counts totals_of(const struct rh_trace *t, uint32_t pid, int64_t nr)
{
	struct counts c = {0};

	for (size_t i = 0; i < t->ntotals; i++) {
		const struct sct_totals *k = &t->totals[i];

		if (k->pid != pid || (int64_t)k->nr != nr)
			continue;
		cr_assert_gt(k->time_ns, k->since_ns, "an empty interval");
		cr_assert_eq(k->hist_bits, 9);
		cr_assert_geq(k->calls, k->errors);
		cr_assert_leq(k->max_ns, k->duration_ns);
		c.calls += k->calls;
		c.errors += k->errors;
		c.cgroup_id = k->cgroup_id;
		c.records++;
	}
	return c;
}

static struct counts records_of(const struct rh_trace *t, uint32_t pid, int64_t nr)
{
	struct counts c = {0};

	for (size_t i = 0; i < t->nsc; i++) {
		const struct sct_syscall *sc = &t->sc[i];

		if (sc->pid != pid || (int64_t)sc->nr != nr || sc->unfinished)
			continue;
		c.calls++;
		c.errors += sc->ret < 0 && sc->ret >= -4095;
		c.cgroup_id = sc->cgroup_id;
	}
	return c;
}

/* callmix's numbers, as it printed them */
struct mix {
	long fails, oks, longs, shorts, pures;
};

/* wl recorded into trace with extra, exiting with code, read into t, nothing lost. */
static void run_read(struct rh_run *run, const char *trace, const char *const wl[], const char *const extra[],
		     int code, struct rh_trace *t)
{
	int err;

	cr_assert_eq(rh_run_traced(run, wl, trace, extra), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run->wl_status) && WEXITSTATUS(run->wl_status) == code, "workload: %s", run->out);
	cr_assert(WIFEXITED(run->rec.status) && WEXITSTATUS(run->rec.status) == 0,
		  "recorder status %#x, stderr:\n%s", run->rec.status, run->rec.err);
	err = rh_trace_read(trace, t);
	cr_assert_eq(err, 0, "reading %s: %s", trace, sct_strerror(err));
	cr_assert_eq(t->err, 0, "reader: %s", sct_strerror(t->err));
	cr_assert(t->has_trailer);
	cr_assert_eq(t->nlost, 0);
	cr_assert_eq(t->stats.damaged_records, 0, "TOTALS records that do not check");
}

/* run_read(), and nothing warned either. */
static void run_coded(struct rh_run *run, const char *trace, const char *const wl[], const char *const extra[],
		      int code, struct rh_trace *t)
{
	run_read(run, trace, wl, extra, code, t);
	cr_assert_eq(t->nwarning, 0, "warning: %s", t->nwarning ? t->warning[0].text : "");
}

static void run_mix(struct rh_run *run, const char *trace, const char *const wl[], const char *const extra[],
		    struct rh_trace *t)
{
	run_coded(run, trace, wl, extra, 0, t);
}

/* The totals of pid's syscalls in f equal the calls of the unfiltered trace u, nr by nr. */
static void assert_totals_exact(const struct rh_trace *f, const struct rh_trace *u, uint32_t fpid,
				uint32_t upid, const int64_t *nrs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct counts tot = totals_of(f, fpid, nrs[i]), rec = records_of(u, upid, nrs[i]);

		cr_assert_eq(tot.calls, rec.calls, "nr %lld: totals count %llu calls, the unfiltered trace %llu",
			     (long long)nrs[i], (unsigned long long)tot.calls, (unsigned long long)rec.calls);
		cr_assert_eq(tot.errors, rec.errors, "nr %lld: errors %llu, not %llu", (long long)nrs[i],
			     (unsigned long long)tot.errors, (unsigned long long)rec.errors);
		if (tot.calls)
			cr_assert_eq(tot.cgroup_id, rec.cgroup_id, "nr %lld: another cgroup", (long long)nrs[i]);
	}
}

static const char *const mix_wl[] = {"callmix", "5", "7", "2", "30", "3", "4", NULL};
static const struct mix mix_want = {5, 7, 2, 3, 4};

static void wl_argv(const char *argv[8])
{
	argv[0] = rh_workload("callmix");
	for (int i = 1; i < 8; i++)
		argv[i] = mix_wl[i];
}

/*
 * -S openat --failed: the failing opens in detail, nothing else; the totals count every call
 * (with perf, every openat: its kernel filter drops the others) as the unfiltered trace does.
 */
Test(record_filter, failed_opens_in_detail_every_call_in_the_totals)
{
	const char *extra[] = {"-S", "openat", "--failed", NULL};
	const char *wl[8];
	const int64_t nrs[] = {SYS_openat, SYS_close, SYS_nanosleep, SYS_getppid, SYS_write};
	struct rh_run run, plain;
	struct rh_trace t, u;
	uint32_t pid;

	wl_argv(wl);
	run_mix(&run, rh_trace_path, wl, extra, &t);
	pid = (uint32_t)run.wl_pid;
	cr_assert(t.has_filter);
	cr_assert_str_eq(t.filter_text, "-S openat --failed");
	cr_assert_str_eq(t.filter_details, "filtered");
	cr_assert_str_eq(t.filter_totals, RH_PERF() ? "syscalls" : "all");
	cr_assert_eq(t.nsc, (size_t)mix_want.fails, "%zu SYSCALL records", t.nsc);
	for (size_t i = 0; i < t.nsc; i++) {
		cr_assert_eq(t.sc[i].pid, pid);
		cr_assert_eq(t.sc[i].nr, SYS_openat);
		cr_assert_eq(t.sc[i].ret, -ENOENT);
	}
	cr_assert_eq(totals_of(&t, pid, SYS_openat).calls, (uint64_t)(mix_want.fails + mix_want.oks));
	cr_assert_eq(totals_of(&t, pid, SYS_openat).errors, (uint64_t)mix_want.fails);

	run_mix(&plain, rh_trace_path2, wl, NULL, &u);
	cr_assert_not(u.has_filter);
	cr_assert_eq(u.ntotals, 0, "an unfiltered recording writes no TOTALS");
	if (RH_PERF()) {
		assert_totals_exact(&t, &u, pid, (uint32_t)plain.wl_pid, nrs, 1);
		for (size_t i = 0; i < t.ntotals; i++)
			cr_assert_eq(t.totals[i].nr, SYS_openat, "perf counted nr %u", t.totals[i].nr);
	} else {
		assert_totals_exact(&t, &u, pid, (uint32_t)plain.wl_pid, nrs, sizeof(nrs) / sizeof(nrs[0]));
		cr_assert_eq(totals_of(&t, pid, SYS_nanosleep).calls, (uint64_t)(mix_want.longs + mix_want.shorts));
		cr_assert_eq(totals_of(&t, pid, SYS_getppid).calls, (uint64_t)mix_want.pures);
	}
	rh_trace_free(&t);
	rh_trace_free(&u);
	rh_run_release(&run);
	rh_run_release(&plain);
}

/* --min-duration 20ms: the 30 ms sleeps, not the 0 ns ones nor anything else. */
Test(record_filter, min_duration_keeps_the_long_calls)
{
	const char *extra[] = {"--min-duration", "20ms", NULL};
	const char *wl[8];
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;

	wl_argv(wl);
	run_mix(&run, rh_trace_path, wl, extra, &t);
	pid = (uint32_t)run.wl_pid;
	cr_assert_str_eq(t.filter_totals, "all");
	cr_assert_eq(t.nsc, (size_t)mix_want.longs, "%zu SYSCALL records", t.nsc);
	for (size_t i = 0; i < t.nsc; i++) {
		cr_assert_eq(t.sc[i].nr, SYS_nanosleep);
		cr_assert_geq(t.sc[i].duration_ns, 20000000);
	}
	cr_assert_eq(totals_of(&t, pid, SYS_nanosleep).calls, (uint64_t)(mix_want.longs + mix_want.shorts));
	rh_trace_free(&t);
	rh_run_release(&run);
}

/* -S %file,!close -c callmix: the class, less one name, of a task of that name. */
Test(record_filter, class_and_comm)
{
	const char *extra[] = {"-S", "%desc,!close", "-c", "callmix", NULL};
	const char *other[] = {"-S", "%desc,!close", "-c", "nosuchtask", NULL};
	const char *wl[8];
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;

	wl_argv(wl);
	run_mix(&run, rh_trace_path, wl, extra, &t);
	pid = (uint32_t)run.wl_pid;
	/* %desc: the opens and the write of the result line; close taken out */
	cr_assert_eq(records_of(&t, pid, SYS_openat).calls, (uint64_t)(mix_want.fails + mix_want.oks));
	cr_assert_eq(records_of(&t, pid, SYS_write).calls, 1);
	cr_assert_eq(records_of(&t, pid, SYS_close).calls, 0);
	cr_assert_eq(records_of(&t, pid, SYS_nanosleep).calls, 0);
	cr_assert_eq(totals_of(&t, pid, SYS_openat).calls, (uint64_t)(mix_want.fails + mix_want.oks));
	rh_trace_free(&t);
	rh_run_release(&run);

	run_mix(&run, rh_trace_path2, wl, other, &t);
	cr_assert_eq(t.nsc, 0, "a call of another name recorded");
	cr_assert_eq(totals_of(&t, (uint32_t)run.wl_pid, SYS_openat).calls, (uint64_t)(mix_want.fails + mix_want.oks));
	rh_trace_free(&t);
	rh_run_release(&run);
}

/* --summary-only: no SYSCALL record at all, the totals and the lifecycle. */
Test(record_filter, summary_only_writes_totals_and_lifecycle)
{
	const char *extra[] = {"--summary-only", NULL};
	const char *wl[8];
	struct rh_run run;
	struct rh_trace t;
	uint32_t pid;

	wl_argv(wl);
	run_mix(&run, rh_trace_path, wl, extra, &t);
	pid = (uint32_t)run.wl_pid;
	cr_assert_str_eq(t.filter_details, "none");
	cr_assert_str_eq(t.filter_totals, "all");
	cr_assert_eq(t.nsc, 0);
	cr_assert_not_null(rh_find_exit(&t, pid));
	cr_assert_eq(totals_of(&t, pid, SYS_openat).calls, (uint64_t)(mix_want.fails + mix_want.oks));
	cr_assert_eq(totals_of(&t, pid, SYS_openat).errors, (uint64_t)mix_want.fails);
	cr_assert_eq(totals_of(&t, pid, SYS_close).calls, (uint64_t)mix_want.oks);
	cr_assert_eq(totals_of(&t, pid, SYS_getppid).calls, (uint64_t)mix_want.pures);
	rh_trace_free(&t);
	rh_run_release(&run);
}

/* sct-report's output for trace (its default summary), read whole. */
static char *report_of(const char *trace)
{
	const char *args[] = { trace, NULL };

	return rh_report(args);
}

/* Whether the summary in out has the line "calls errors ... name". */
static bool report_has(const char *out, const char *name, long calls, long errors)
{
	char tail[64];

	snprintf(tail, sizeof(tail), " %s\n", name);
	for (const char *q = out; (q = strstr(q, tail)); q++) {
		const char *bol = q;
		char *end;

		while (bol > out && bol[-1] != '\n')
			bol--;
		if (strtol(bol, &end, 10) == calls && strtol(end, NULL, 10) == errors)
			return true;
	}
	return false;
}

/* What a person reads: sct-report's summary of a filtered trace counts every call. */
Test(record_filter, report_prints_the_totals)
{
	const char *extra[] = {"-S", "openat", "--failed", NULL};
	const char *wl[8];
	struct rh_run run;
	struct rh_trace t;
	char *out;

	wl_argv(wl);
	run_mix(&run, rh_trace_path, wl, extra, &t);
	out = report_of(rh_trace_path);
	/* every openat, not the 5 in detail */
	cr_assert(report_has(out, "openat", mix_want.fails + mix_want.oks, mix_want.fails),
		  "no line of %ld openat calls, %ld failed, in the report:\n%s", mix_want.fails + mix_want.oks,
		  mix_want.fails, out);
	free(out);
	rh_trace_free(&t);
	rh_run_release(&run);
}

static uint64_t totals_all(const struct rh_trace *t, int64_t nr)
{
	uint64_t calls = 0;

	for (size_t i = 0; i < t->ntotals; i++)
		calls += (int64_t)t->totals[i].nr == nr ? t->totals[i].calls : 0;
	return calls;
}

/*
 * exit and exit_group never return, and are counted at their entry: tree 1 4's five processes
 * one exit_group each; threads 3 life's three threads one exit each, then its exit_group. In
 * the TOTALS and in sct-report's summary, under --summary-only and under a filter (--failed:
 * with perf too, its totals then cover every syscall).
 */
static void assert_exits_counted(const char *const extra[])
{
	/* rh_workload()'s path lives until its next call */
	const char *tree[] = {NULL, "1", "4", NULL}, *threads[] = {NULL, "3", "life", NULL};
	struct rh_run run;
	struct rh_trace t;
	char *out;

	tree[0] = rh_workload("tree");
	/* the root's exit code: its node number + 1 */
	run_coded(&run, rh_trace_path, tree, extra, 1, &t);
	cr_assert_eq(totals_all(&t, SYS_exit_group), 5);
	cr_assert_eq(totals_of(&t, (uint32_t)run.wl_pid, SYS_exit_group).calls, 1);
	cr_assert_eq(totals_of(&t, (uint32_t)run.wl_pid, SYS_exit_group).errors, 0);
	out = report_of(rh_trace_path);
	cr_assert(report_has(out, "exit_group", 5, 0), "no line of 5 exit_group calls in the report:\n%s", out);
	free(out);
	rh_trace_free(&t);
	rh_run_release(&run);

	threads[0] = rh_workload("threads");
	run_coded(&run, rh_trace_path2, threads, extra, 7, &t);
	cr_assert_eq(totals_of(&t, (uint32_t)run.wl_pid, SYS_exit).calls, 3);
	cr_assert_eq(totals_of(&t, (uint32_t)run.wl_pid, SYS_exit_group).calls, 1);
	out = report_of(rh_trace_path2);
	cr_assert(report_has(out, "exit", 3, 0), "no line of 3 exit calls in the report:\n%s", out);
	cr_assert(report_has(out, "exit_group", 1, 0), "no line of 1 exit_group in the report:\n%s", out);
	free(out);
	rh_trace_free(&t);
	rh_run_release(&run);
}

Test(record_filter, exits_counted_summary_only)
{
	const char *extra[] = {"--summary-only", NULL};

	assert_exits_counted(extra);
}

Test(record_filter, exits_counted_filtered)
{
	const char *extra[] = {"--failed", NULL};

	assert_exits_counted(extra);
}

/*
 * --totals-keys 2 (a map of 2 keys, a cache of 2 slots a CPU): callmix's calls need more keys
 * than that. They are counted in the slots and in the map, both read into TOTALS, until a
 * call's slot is another key's and the map is full: such calls are counted in WARNING
 * records (kind "other": the format has no kind for it), and with those
 * counted they make every call of an unfiltered recording of the same workload, and its
 * exit_group; sct-report's footer names them.
 */
Test(record_filter, calls_past_the_totals_keys_counted_in_a_warning)
{
	const char *extra[] = {"--summary-only", "--totals-keys", "2", NULL};
	uint64_t counted = 0, warned = 0, made = 0;
	const char *wl[8];
	struct rh_run run, plain;
	struct rh_trace t, u;
	char *out;

	wl_argv(wl);
	run_read(&run, rh_trace_path, wl, extra, 0, &t);
	run_mix(&plain, rh_trace_path2, wl, NULL, &u);
	for (size_t i = 0; i < t.ntotals; i++)
		counted += t.totals[i].calls;
	cr_assert_gt(t.nwarning, 0, "no WARNING with %zu TOTALS records", t.ntotals);
	for (size_t i = 0; i < t.nwarning; i++) {
		cr_assert_eq(t.warning[i].rec.kind, SCT_WARN_OTHER);
		cr_assert(strstr(t.warning[i].text, "totals full"), "warning: %s", t.warning[i].text);
		warned += t.warning[i].rec.count;
	}
	for (size_t i = 0; i < u.nsc; i++)
		made += !u.sc[i].unfinished;
	/* + callmix's exit_group, which has no SYSCALL record */
	cr_assert_eq(counted + warned, made + 1, "%llu counted, %llu in warnings, %llu made",
		     (unsigned long long)counted, (unsigned long long)warned, (unsigned long long)made + 1);
	out = report_of(rh_trace_path);
	cr_assert(strstr(out, t.warning[0].text), "the report's footer does not say '%s':\n%s", t.warning[0].text,
		  out);
	free(out);
	rh_trace_free(&t);
	rh_trace_free(&u);
	rh_run_release(&run);
	rh_run_release(&plain);
}

/*
 * A process's keys leave the totals once they are written: chain 2000's processes each fork
 * the next and exit, two keys each (clone, exit_group), 4000 in all, through a map of 1024
 * and a cache of 1024 slots a CPU over many flush intervals of 10 ms: no call finds both full
 * (slots are freed too), and every process's exit_group is counted.
 */
Test(record_filter, dead_processes_leave_the_totals)
{
	const char *extra[] = {"--summary-only", "--totals-keys", "1024", "--flush-interval", "0.01", NULL};
	const char *wl[] = {rh_workload("chain"), "2000", NULL};
	struct rh_run run;
	struct rh_trace t;

	run_coded(&run, rh_trace_path, wl, extra, 0, &t);
	cr_assert_eq(totals_all(&t, SYS_exit_group), 2000);
	cr_assert_eq(totals_all(&t, SYS_clone), 1999);
	rh_trace_free(&t);
	rh_run_release(&run);
}
