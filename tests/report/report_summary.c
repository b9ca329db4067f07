// SPDX-License-Identifier: BSD-2-Clause
/* sct-report summary and histograms: exact numbers on traces of known content. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

TestSuite(report_summary, .fini = rt_cleanup);

/* The row sct-report prints for these numbers (ns), built independently of its code. */
static const char *row(uint64_t calls, uint64_t errors, unsigned pct100, uint64_t total, uint64_t avg,
		       uint64_t min, uint64_t max, uint64_t p50, uint64_t p90, uint64_t p99, const char *label)
{
	static char buf[512];
	uint64_t v[6] = { avg, min, max, p50, p90, p99 };
	int n = snprintf(buf, sizeof(buf), "%10llu %8llu %3u.%02u %10llu.%06llu", (unsigned long long)calls,
			 (unsigned long long)errors, pct100 / 100, pct100 % 100,
			 (unsigned long long)(total / 1000000000), (unsigned long long)(total % 1000000000 / 1000));

	for (int i = 0; i < 6; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %11llu.%03llu", (unsigned long long)(v[i] / 1000),
			      (unsigned long long)(v[i] % 1000));
	snprintf(buf + n, sizeof(buf) - (size_t)n, "  %s", label);
	return buf;
}

/* write: 100 calls lasting 1024 * i ns (i = 1..100); open: 15 failures and 5 successes. */
static const char *make_known(void)
{
	const char *path = rt_path("known.sct");
	struct sct_writer *w = rt_open(path, "h1", 16);

	for (int i = 1; i <= 100; i++)
		rt_sc(w, (uint64_t)i * 1000000, 1024ull * (uint64_t)(101 - i), 100, 100, 10, RT_NR_WRITE, 1);
	for (int i = 0; i < 10; i++)
		rt_sc(w, 200000000 + (uint64_t)i, 500, 100, 100, 10, RT_NR_OPEN, -2);
	for (int i = 0; i < 5; i++)
		rt_sc(w, 300000000 + (uint64_t)i, 700, 100, 100, 10, RT_NR_OPEN, -13);
	for (int i = 0; i < 5; i++)
		rt_sc(w, 400000000 + (uint64_t)i, 300, 100, 100, 10, RT_NR_OPEN, 3);
	rt_sc(w, 500000000, 100, 100, 100, 10, RT_NR_CLOSE, 0);
	rt_close(w);
	return path;
}

#define WRITE_ROW(label) row(100, 0, 9980, 5171200, 51712, 1024, 102400, 51200, 92160, 101376, label)
#define OPEN_ROW(label) row(20, 15, 19, 10000, 500, 300, 700, 500, 700, 700, label)
#define CLOSE_ROW(label) row(1, 0, 0, 100, 100, 100, 100, 100, 100, 100, label)

Test(report_summary, exact_numbers_and_percentiles)
{
	const char *path = make_known();
	char *out;

	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), WRITE_ROW("write"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), OPEN_ROW("open"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), CLOSE_ROW("close"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 4), "       121       15 100.00          0.005181  total of 3 groups");
	cr_assert_not_null(strstr(out, "-- lost events: 0"));
	cr_assert_not_null(strstr(out, "-- incomplete: no trailer: 0 sessions"));
	free(out);
}

Test(report_summary, errno_breakdown_by_name)
{
	const char *path = make_known();
	char *out;

	cr_assert_eq(rt_run(&out, "%s --errors %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 2), OPEN_ROW("open"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "           errors: ENOENT 10 EACCES 5", "got\n%s", out);
	free(out);
}

Test(report_summary, sort_and_top)
{
	const char *path = make_known();
	char *out;

	cr_assert_eq(rt_run(&out, "%s --sort errors %s", rt_report(), path), 0);
	/* equal keys are ordered by name */
	cr_assert_str_eq(rt_line(out, 1), OPEN_ROW("open"));
	cr_assert_str_eq(rt_line(out, 2), CLOSE_ROW("close"));
	cr_assert_str_eq(rt_line(out, 3), WRITE_ROW("write"));
	free(out);
	cr_assert_eq(rt_run(&out, "%s --sort name --top 2 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), CLOSE_ROW("close"));
	cr_assert_str_eq(rt_line(out, 2), OPEN_ROW("open"));
	cr_assert_str_eq(rt_line(out, 3), "       121       15 100.00          0.005181  total of 3 groups (top 2 shown)");
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --sort bogus %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --top -1 %s 2>/dev/null", rt_report(), path), 2);
}

/* Two hosts; one path under two ids merges; an id without a CGROUP record shows as such. */
static void make_cgroups(const char **a, const char **b)
{
	struct sct_writer *w;

	*a = rt_path("h1.sct");
	*b = rt_path("h2.sct");
	w = rt_open(*a, "h1", 0);
	rt_cgroup(w, 0, 10, "/a/x");
	rt_cgroup(w, 0, 11, "/b");
	for (int i = 0; i < 3; i++)
		rt_sc(w, 1000 + (uint64_t)i, 1000, 100, 100, 10, RT_NR_WRITE, 1);
	for (int i = 0; i < 2; i++)
		rt_sc(w, 2000 + (uint64_t)i, 2000, 101, 101, 11, RT_NR_READ, 1);
	rt_close(w);
	w = rt_open(*b, "h2", 0);
	rt_cgroup(w, 0, 12, "/a/x");
	for (int i = 0; i < 4; i++)
		rt_sc(w, 1000 + (uint64_t)i, 1000, 100, 100, 12, RT_NR_WRITE, 1);
	rt_sc(w, 3000, 4000, 100, 100, 13, RT_NR_READ, 1);
	rt_close(w);
}

Test(report_summary, by_cgroup_path_across_hosts)
{
	const char *a, *b;
	char *out;

	make_cgroups(&a, &b);
	cr_assert_eq(rt_run(&out, "%s --by cgroup %s %s", rt_report(), a, b), 0);
	/* total 7000 + 4000 + 4000 = 15000 ns */
	cr_assert_str_eq(rt_line(out, 0), "     calls   errors  %time          total(s)         avg(us)         min(us)         max(us)         p50(us)         p90(us)         p99(us)  cgroup");
	cr_assert_str_eq(rt_line(out, 1), row(7, 0, 4666, 7000, 1000, 1000, 1000, 1000, 1000, 1000, "/a/x"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), row(2, 0, 2666, 4000, 2000, 2000, 2000, 2000, 2000, 2000, "/b"));
	cr_assert_str_eq(rt_line(out, 3), row(1, 0, 2666, 4000, 4000, 4000, 4000, 4000, 4000, 4000, "cgroup:13"));
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by cgroup,syscall %s %s", rt_report(), a, b), 0);
	cr_assert_str_eq(rt_line(out, 1), row(7, 0, 4666, 7000, 1000, 1000, 1000, 1000, 1000, 1000, "/a/x       write"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), row(2, 0, 2666, 4000, 2000, 2000, 2000, 2000, 2000, 2000, "/b         read"));
	cr_assert_str_eq(rt_line(out, 3), row(1, 0, 2666, 4000, 4000, 4000, 4000, 4000, 4000, 4000, "cgroup:13  read"));
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by host --sort name %s %s", rt_report(), a, b), 0);
	cr_assert_str_eq(rt_line(out, 1), row(5, 0, 4666, 7000, 1400, 1000, 2000, 1000, 2000, 2000, "h1"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), row(5, 0, 5333, 8000, 1600, 1000, 4000, 1000, 4000, 4000, "h2"));
	cr_assert_not_null(strstr(out, "-- session 1: host h2"));
	free(out);
}

Test(report_summary, by_process_thread_comm)
{
	const char *path = rt_path("p.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	char *out;

	rt_task(w, 0, 100, 100, 1, 0, 0, "alpha");
	rt_task(w, 0, 200, 200, 1, 0, 0, "beta");
	rt_task(w, 0, 200, 201, 1, 0, 0, "beta-io");
	rt_sc(w, 10, 3000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_sc(w, 20, 1000, 200, 200, 0, RT_NR_WRITE, 1);
	rt_sc(w, 30, 1000, 200, 201, 0, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --by process %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), row(1, 0, 6000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, "alpha 100"), "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), row(2, 0, 4000, 2000, 1000, 1000, 1000, 1000, 1000, 1000, "beta 200"));
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by thread --sort name %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 3), row(1, 0, 2000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, "beta-io 200/201"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by comm,syscall --sort name %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), row(1, 0, 6000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, "alpha    write"), "got\n%s", out);
	free(out);
}

Test(report_summary, histogram_bars)
{
	const char *path = make_known();
	char *out;

	cr_assert_eq(rt_run(&out, "%s --hist --syscall open %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "open: 20 calls", "got\n%s", out);
	/* 300 ns: [256, 511] holds 5 (300) + 10 (500); [512, 1023] holds 5 (700) */
	cr_assert_str_eq(rt_line(out, 1), "   duration (ns) : count      distribution", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "   256 -> 511    : 15         |****************************************|");
	cr_assert_str_eq(rt_line(out, 3), "   512 -> 1023   : 5          |*************                           |");
	free(out);
}

/*
 * Calls of every kind a summary treats apart: native and compat, numbers past the direct
 * tables, unfinished ones, errors of several kinds, two cgroups, two files (two sessions).
 */
static const char *make_mixed(const char *name, uint64_t seed)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open(path, "h1", 100);

	for (uint64_t i = 0; i < 3000; i++) {
		struct sct_record r = { .type = SCT_REC_SYSCALL };
		uint64_t k = i * 2654435761u + seed;

		r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + i * 1000, .duration_ns = 100 + k % 5000,
						  .cgroup_id = 10 + k % 2, .pid = 100, .tid = 100 + (uint32_t)(k % 3),
						  .nr = (uint32_t[]){ RT_NR_WRITE, RT_NR_OPEN, 2000, 5 }[k % 4],
						  .abi = k % 7 == 0, .ret = k % 5 == 0 ? -(int64_t)(1 + k % 3) : 1,
						  .unfinished = k % 11 == 0 };
		rt_record(w, &r);
		if (i % 450 == 0)
			rt_sc(w, i * 1000 + 1, 10, 100, 100, 10, RT_NR_CLOSE, 0);
	}
	rt_close(w);
	return path;
}

/*
 * The summary reads unfiltered calls in runs of columns; a filter that passes every call sends
 * them one record at a time: both print the same groups, numbers and errors.
 */
Test(report_summary, calls_read_in_runs_sum_as_calls_read_one_by_one)
{
	const char *a = make_mixed("mixed1.sct", 1), *b = make_mixed("mixed2.sct", 7);
	static const char *const modes[] = { "", "--errors", "--by cgroup,syscall", "--by thread", "--sort calls" };
	char *runs, *each;

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		cr_assert_eq(rt_run(&runs, "%s %s %s %s", rt_report(), modes[m], a, b), 0);
		cr_assert_eq(rt_run(&each, "%s %s --pid 100 %s %s", rt_report(), modes[m], a, b), 0);
		cr_assert_str_eq(runs, each, "%s: in runs\n%s\none by one\n%s", modes[m], runs, each);
		cr_assert(strstr(runs, "syscall_2000") || strstr(modes[m], "thread"), "%s", runs);
		free(runs);
		free(each);
	}
}

/* Does line start with start and end with end? */
static bool row_is(const char *line, const char *start, const char *end)
{
	size_t n = strlen(line), k = strlen(end);

	return !strncmp(line, start, strlen(start)) && n >= k && !strcmp(line + n - k, end);
}

/*
 * --by cgroup,syscall keeps a table of groups per cgroup: a cgroup named after some of its calls
 * (its CGROUP record later in the session) has them all in one row, and calls of cgroups past
 * the tables' bound (1,024) go the whole way to the same numbers.
 */
Test(report_summary, cgroup_and_syscall_rows_of_many_cgroups_and_a_late_name)
{
	const char *path = rt_path("cgroups.sct");
	struct sct_writer *w = rt_open(path, "h1", 100);
	char *out;

	rt_sc(w, 1000, 500, 100, 100, 7, RT_NR_WRITE, 1);
	for (uint64_t i = 0; i < 1100; i++)
		rt_sc(w, 2000 + i * 10, 300, 100, 100, 1000 + i, RT_NR_WRITE, i % 2 ? 1 : -9);
	rt_cgroup(w, 20000, 7, "/late");
	rt_sc(w, 21000, 500, 100, 100, 7, RT_NR_WRITE, 1);
	rt_sc(w, 22000, 500, 100, 100, 2099, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --by cgroup,syscall %s", rt_report(), path), 0);
	/* a row per cgroup: 1,100 and /late */
	cr_assert(strstr(out, "      1103      550 100.00 ") && strstr(out, "total of 1101 groups\n"), "%s",
		  out + strlen(out) - 1500);
	cr_assert(row_is(rt_line(out, 1), "         2        0   0.30 ", "  /late        write"), "%.600s", out);
	cr_assert(row_is(rt_line(out, 2), "         2        0   0.24 ", "  cgroup:2099  write"), "%.600s", out);
	cr_assert(row_is(rt_line(out, 3), "         1        1   0.09 ", "  cgroup:1000  write"), "%.600s", out);
	free(out);
}
