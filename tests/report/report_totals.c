// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-report over filtered sessions (format 1.5): the summary, --by groups, percentiles and
 * histograms come from TOTALS records, exact for every call, whatever the few detailed calls
 * say; the timeline shows the detailed calls; the footer says what was filtered and how the
 * totals were used; damaged TOTALS are skipped and counted; -S takes strace's classes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

TestSuite(report_totals, .fini = rt_cleanup);

#define SEC 1000000000ull

/* The calls of one workload, known exactly: */
static uint64_t write_durs[100]; /* write: 1024 * i ns, i = 1..100 */
static const uint64_t open_durs[20] = { 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, /* ENOENT */
					700, 700, 700, 700, 700,                      /* EACCES */
					300, 300, 300, 300, 300 };                    /* ok */
static const uint64_t close_durs[1] = { 100 };

static void durs_fill(void)
{
	for (int i = 0; i < 100; i++)
		write_durs[i] = 1024ull * (uint64_t)(100 - i);
}

/* The workload with every call in detail, as an unfiltered recording has it. */
static const char *make_detailed(void)
{
	const char *path = rt_path("detailed.sct");
	struct sct_writer *w = rt_open(path, "h1", 16);

	durs_fill();
	rt_task(w, 0, 100, 100, 1, 10, 0, "server");
	for (int i = 0; i < 100; i++)
		rt_sc(w, (uint64_t)(i + 1) * 1000000, write_durs[i], 100, 100, 10, RT_NR_WRITE, 1);
	for (int i = 0; i < 20; i++)
		rt_sc(w, 1200 * 1000000ull + (uint64_t)i, open_durs[i], 100, 100, 10, RT_NR_OPEN,
		      i < 10 ? -2 : i < 15 ? -13 : 3);
	rt_sc(w, 1500 * 1000000ull, 100, 100, 100, 10, RT_NR_CLOSE, 0);
	rt_close(w);
	return path;
}

/*
 * The same workload recorded with a filter: its TOTALS (write over two flush intervals, 60
 * calls then 40), and three failed opens in detail whose durations (999999 ns) none of the
 * totals has: a summary from the details would differ in every column.
 */
static const char *make_filtered(void)
{
	const char *path = rt_path("filtered.sct");
	struct sct_writer *w = rt_open_filter(path, "h1", "-S open --failed", "filtered", "all");

	durs_fill();
	rt_task(w, 0, 100, 100, 1, 10, 0, "server");
	rt_sc(w, 1200 * 1000000ull, 999999, 100, 100, 10, RT_NR_OPEN, -2);
	rt_sc(w, 1200 * 1000000ull + 1, 999999, 100, 100, 10, RT_NR_OPEN, -2);
	rt_sc(w, 1200 * 1000000ull + 2, 999999, 100, 100, 10, RT_NR_OPEN, -13);
	rt_totals(w, 0, SEC, 100, 10, RT_NR_WRITE, 0, write_durs, 60);
	rt_totals(w, SEC, 2 * SEC, 100, 10, RT_NR_WRITE, 0, write_durs + 60, 40);
	rt_totals(w, SEC, 2 * SEC, 100, 10, RT_NR_OPEN, 15, open_durs, 20);
	rt_totals(w, SEC, 2 * SEC, 100, 10, RT_NR_CLOSE, 0, close_durs, 1);
	rt_close(w);
	return path;
}

/* The output's lines before the footer. */
static char *body(char *out)
{
	char *f = strstr(out, "\n--");

	if (f)
		f[1] = '\0';
	return out;
}

/* The same command over both recordings prints the same table. */
static void same_table(const char *opts)
{
	const char *detailed = make_detailed(), *filtered = make_filtered();
	char *a, *b;

	cr_assert_eq(rt_run(&a, "%s %s %s", rt_report(), opts, detailed), 0);
	cr_assert_eq(rt_run(&b, "%s %s %s", rt_report(), opts, filtered), 0);
	cr_assert_str_eq(body(b), body(a), "%s: from TOTALS:\n%s\nfrom every call:\n%s", opts, b, a);
	free(a);
	free(b);
}

Test(report_totals, summary_is_the_totals_not_the_details)
{
	const char *path = make_filtered();
	char *out;

	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	/* 100 writes of 1024..102400 ns, 20 opens (15 failed) of 10000 ns, a close of 100 ns */
	cr_assert_str_eq(rt_line(out, 1), "       100        0  99.80          0.005171          51.712           1.024         102.400          51.200          92.160         101.376  write", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "        20       15   0.19          0.000010           0.500           0.300           0.700           0.500           0.700           0.700  open", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 4), "       121       15 100.00          0.005181  total of 3 groups", "got\n%s", out);
	cr_assert_not_null(strstr(out, "; filter -S open --failed: details: the calls its filter matched; totals: every call\n"), "%s", out);
	cr_assert_not_null(strstr(out, "\n-- filtered sessions: calls, errors, times, percentiles and histograms from their TOTALS records (every call counted), not from their detailed calls\n"), "%s", out);
	cr_assert_not_null(strstr(out, "totals 4)"), "%s", out);
	free(out);
}

Test(report_totals, totals_equal_the_per_call_sums)
{
	same_table("");
	same_table("-H");
	same_table("--by comm,syscall --sort calls");
	same_table("--by process --sort name");
	same_table("--by cgroup,syscall");
	same_table("--by host");
	same_table("-S %file");
	same_table("-S '!%file'");
	same_table("-S write,close");
	same_table("-p 100 -c server");
	same_table("-g 10 --sort p99");
}

Test(report_totals, errno_breakdown_comes_from_the_details)
{
	const char *path = make_filtered();
	char *out;

	cr_assert_eq(rt_run(&out, "%s -e -S open %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "        20       15 100.00          0.000010           0.500           0.300           0.700           0.500           0.700           0.700  open", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "           errors: ENOENT 2 EACCES 1", "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- filtered sessions: the errno breakdown (-e) has their detailed calls only\n"), "%s", out);
	free(out);
}

Test(report_totals, timeline_shows_the_detailed_calls)
{
	const char *path = make_filtered();
	char *out;

	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "open(server 100/100) = -2 ENOENT <0.000999>"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "open(server 100/100) = -13 EACCES <0.000999>"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 4), ", started 2026-01-01 00:00:00.000000; filter -S open --failed: details: the calls its filter matched; totals: every call"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- filtered sessions: the timeline shows their detailed calls only; the summary counts every call\n"), "%s", out);
	free(out);
}

/* What TOTALS cannot answer comes from the details, and the footer says why. */
Test(report_totals, per_call_groups_and_filters_use_the_details)
{
	static const struct { const char *opts, *why; } cases[] = {
		{ "--by thread", "--by thread needs each call's thread" },
		{ "-t 100", "--tid needs each call's thread" },
		{ "--failed", "--failed needs each call's return value" },
		{ "-d 1us", "--min-duration needs each call's duration" },
	};
	const char *path = make_filtered();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out, want[256];

		cr_assert_eq(rt_run(&out, "%s %s %s", rt_report(), cases[i].opts, path), 0);
		cr_assert_not_null(strstr(out, "         3        3 100.00          0.002999"), "%s:\n%s", cases[i].opts, out);
		snprintf(want, sizeof(want), "\n-- filtered sessions: from their detailed calls only, not their TOTALS records: %s\n",
			 cases[i].why);
		cr_assert_not_null(strstr(out, want), "%s:\n%s", cases[i].opts, out);
		free(out);
	}
}

/*
 * A process that exited before the flush that wrote its totals is still found: its TOTALS
 * is attributed at the start of its interval, and named at its end (after its exec).
 */
Test(report_totals, totals_of_an_exited_process_are_its_own)
{
	const char *path = rt_path("exited.sct");
	struct sct_writer *w = rt_open_filter(path, "h1", "--summary-only", "none", "all");
	static const uint64_t durs[3] = { 1000, 2000, 3000 };
	char *out;

	rt_task(w, 0, 100, 100, 1, 10, 0, "sh");
	rt_fork(w, SEC / 2, 100, 100, 200, 200, 0);
	rt_exec(w, SEC / 2 + 10, 200, 200, "/bin/true", "true");
	rt_exit(w, SEC / 2 + 20, 200, 200, 0, 0, 1);
	/* the same pid reused by a later process, after the flush */
	rt_fork(w, SEC + 5, 100, 100, 200, 200, 0);
	rt_totals(w, 0, SEC, 200, 10, RT_NR_READ, 0, durs, 3);
	rt_totals(w, 0, SEC, 100, 10, RT_NR_READ, 0, durs, 1);
	rt_totals(w, SEC, 2 * SEC, 200, 10, RT_NR_READ, 0, durs + 2, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --by comm --sort name %s", rt_report(), path), 0);
	/* sh: pid 100's call and the reused pid 200's, which never exec'd; true: the first pid 200 */
	cr_assert_str_eq(rt_line(out, 1), "         2        0  40.00          0.000004           2.000           1.000           3.000           1.000           3.000           3.000  sh", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         3        0  60.00          0.000006           2.000           1.000           3.000           2.000           3.000           3.000  true", "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by process --sort name %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "         1        0  10.00          0.000001           1.000           1.000           1.000           1.000           1.000           1.000  sh 100", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         1        0  30.00          0.000003           3.000           3.000           3.000           3.000           3.000           3.000  sh 200", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "         3        0  60.00          0.000006           2.000           1.000           3.000           2.000           3.000           3.000  true 200", "got\n%s", out);
	free(out);
}

/* A TOTALS record is in the window by its interval; one across an edge counts whole. */
Test(report_totals, time_window_counts_whole_intervals)
{
	const char *path = make_filtered();
	char *out;

	/* (0, 1 s]: the first 60 writes only */
	cr_assert_eq(rt_run(&out, "%s --until 0.9 %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "        60        0 100.00"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- time window: TOTALS records counted whole across its edges: 1; its edges are rounded to the recorder's flush interval\n"), "%s", out);
	free(out);
	/* (1 s, 2 s]: the other 40 writes, the opens and the close, the three across 1.5 s */
	cr_assert_eq(rt_run(&out, "%s --since 1.5 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 4), "        61       15 100.00          0.000849  total of 3 groups", "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- time window: TOTALS records counted whole across its edges: 3; "), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --since 2.5 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "         0        0   0.00          0.000000  total of 0 groups", "got\n%s", out);
	cr_assert_null(strstr(out, "straddle"), "%s", out);
	free(out);
}

/* A damaged TOTALS record (its histogram does not check) is skipped and counted, not summed. */
Test(report_totals, damaged_totals_are_counted_not_summed)
{
	const char *path = rt_path("bad.sct");
	char *out;

	cr_assert_eq(rt_run(NULL, "%s bad-totals %s", rt_gen(), path), 0);
	cr_assert_eq(rt_run(&out, "%s --sort name %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "         2        0  40.00          0.000000           0.005           0.005           0.007           0.005           0.007           0.007  syscall_0", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         3        0  60.00          0.000000           0.005           0.007           0.007           0.007           0.007           0.007  syscall_1", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "         5        0 100.00          0.000000  total of 2 groups", "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- damaged records (skipped, listed above): 4\n"), "%s", out);
	cr_assert_not_null(strstr(out, "TOTALS record of pid 15, syscall 1: its histogram does not check (skipped)\n"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --strict %s 2>/dev/null", rt_report(), path), 3);
	/* sct-convert delivers the good ones only */
	cr_assert_eq(rt_run(&out, "%s --to csv --records totals %s", rt_convert(), path), 0);
	cr_assert_not_null(strstr(out, ",10,0,0,0,2,0,10,7,9,"), "%s", out);
	cr_assert_null(strstr(out, ",12,0,0,0,"), "%s", out);
	free(out);
}

/* strace's classes and '!' in -S, on a session of every class. */
Test(report_totals, syscall_classes_and_negation)
{
	const char *path = make_detailed();
	char *out;

	cr_assert_eq(rt_run(&out, "%s -S %%file %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "  open"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "total of 1 group"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -S %%desc,!write --sort name %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "  close"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "  open"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "total of 2 groups"), "got\n%s", out);
	free(out);
	/* strace's trace=!SET: all but the set */
	cr_assert_eq(rt_run(&out, "%s -S '!open,close' %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "  write"), "got\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "total of 1 group"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -S 3 %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "  close"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -S %%fiel %s 2>&1", rt_report(), path), 2);
	cr_assert_str_eq(out, "sct-report: unknown syscall class '%fiel'; the classes are %file %process %network %signal %ipc %desc %memory %creds %stat %lstat %fstat %statfs %fstatfs %clock %pure %net\n"
			      "Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s -S '%%file,!frob' %s 2>&1", rt_report(), path), 2);
	cr_assert_str_eq(out, "sct-report: unknown syscall 'frob': no syscall table of the inputs names it\n"
			      "Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n");
	free(out);
}

/* sct-convert: TOTALS rows with their histogram as two arrays, and the names resolved. */
Test(report_totals, convert_carries_totals)
{
	const char *path = make_filtered();
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv --records totals %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session,host,time_ns,wall_time,since_ns,pid,cgroup_id,nr,abi,calls,errors,duration_ns,max_ns,hist_bits,hist_ns,hist_calls,name,comm,cgroup_path\r", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "0,h1,1002000000000,2026-01-01T00:00:02.000000000Z,1001000000000,100,10,2,0,20,15,10000,700,9,\"[300,500,700]\",\"[5,10,5]\",open,server,\r", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 5), "", "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl --records totals %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 3), "{\"session\":0,\"host\":\"h1\",\"time_ns\":1002000000000,\"wall_time\":\"2026-01-01T00:00:02.000000000Z\",\"since_ns\":1001000000000,\"pid\":100,\"cgroup_id\":10,\"nr\":3,\"abi\":0,\"calls\":1,\"errors\":0,\"duration_ns\":100,\"max_ns\":100,\"hist_bits\":9,\"hist_ns\":[100],\"hist_calls\":[1],\"name\":\"close\",\"comm\":\"server\",\"cgroup_path\":null}", "got\n%s", out);
	free(out);
	/* the SYSCALL rows are the three details */
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null | wc -l", rt_convert(), path), 0);
	cr_assert_str_eq(out, "4\n");
	free(out);
}
