// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which task made a call (spec/FORMAT.md 9.2), through every output: traces written in the
 * order a recorder that stages calls per CPU may write them (calls after their task's EXIT
 * and EXEC, before its FORK or TASK record, a reused tid, a non-leader exec), read from a
 * file (two passes) and from a pipe (the reorder window).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
}

TestSuite(report_attribution, .init = utc, .fini = rt_cleanup);

/*
 * A shell (100) whose first call comes before its TASK record runs /bin/true three times
 * on one reused tid (101): each child's first call after its exec comes before its FORK, one
 * before the exec stays the shell's name, its execve (entered before the EXEC, returning
 * after it) is "true"'s, two come after its EXIT. An app (200) whose thread 202 execs
 * /opt/run: the thread's call before the exec is "app"'s, the pid's call after it "run"'s, and
 * comes before the EXEC record; the thread's execve, recorded under the tid it returned with
 * (200), is the old leader's call by its entry and "run"'s by its return.
 * Calls: sh 1 + 3 (children before their exec), true 9 + 3 execve, app 1, run 1 + 1 execve.
 */
static const char *loop_trace(const char *name)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open(path, "h1", 0);

	rt_sc(w, 1000, 10, 100, 100, 0, RT_NR_WRITE, 1);
	rt_task(w, 1500, 100, 100, 1, 0, 0, "sh");
	for (uint64_t i = 1; i <= 3; i++) {
		uint64_t base = i * 10000;

		rt_sc(w, base + 500, 10, 101, 101, 0, RT_NR_OPEN, 3);
		rt_fork(w, base, 100, 100, 101, 101, 0);
		rt_sc(w, base + 100, 10, 101, 101, 0, RT_NR_READ, 0);
		rt_sc(w, base + 150, 100, 101, 101, 0, RT_NR_EXECVE, 0);
		rt_exec(w, base + 200, 101, 101, "/bin/true", "true");
		rt_exit(w, base + 1000, 101, 101, 0, 0, 1);
		rt_sc(w, base + 300, 10, 101, 101, 0, RT_NR_CLOSE, 0);
		rt_sc(w, base + 400, 10, 101, 101, 0, RT_NR_WRITE, 1);
	}
	rt_task(w, 1600, 200, 200, 1, 0, 0, "app");
	rt_fork(w, 50000, 200, 200, 200, 202, 1);
	rt_sc(w, 50100, 10, 200, 202, 0, RT_NR_READ, 0);
	rt_sc(w, 50200, 200, 200, 200, 0, RT_NR_EXECVE, 0);
	rt_exit(w, 50250, 200, 200, 0, 0, 0);
	rt_sc(w, 50400, 10, 200, 200, 0, RT_NR_WRITE, 1);
	rt_exec(w, 50300, 200, 202, "/opt/run", "run");
	rt_exit(w, 60000, 200, 200, 4, 0, 1);
	rt_close(w);
	return path;
}

/* Whether the summary has a row of calls calls whose label is label. */
static bool has_row(const char *out, unsigned calls, const char *label)
{
	char want[128];

	for (int i = 0; *rt_line(out, i); i++) {
		const char *l = rt_line(out, i);
		size_t n = strlen(l), m = strlen(label);
		unsigned c;

		snprintf(want, sizeof(want), "  %s", label);
		if (sscanf(l, "%u", &c) == 1 && c == calls && n > m + 2 && !strcmp(l + n - m - 2, want))
			return true;
	}
	return false;
}

/* "cat FILE |" for a pipe, "" for the file itself. */
static const char *const sources[] = { "", "cat %s | " };

static int run_on(char **out, int src, const char *args, const char *path)
{
	if (src)
		return rt_run(out, "cat %s | %s %s -", path, rt_report(), args);
	return rt_run(out, "%s %s %s", rt_report(), args, path);
}

Test(report_attribution, by_comm_names_every_call)
{
	const char *path = loop_trace("loop.sct");

	for (int src = 0; src < 2; src++) {
		char *out;

		cr_assert_eq(run_on(&out, src, "--by comm", path), 0);
		cr_assert(has_row(out, 12, "true"), "%s\n%s", sources[src], out);
		cr_assert(has_row(out, 4, "sh"), "%s\n%s", sources[src], out);
		cr_assert(has_row(out, 1, "app"), "%s\n%s", sources[src], out);
		cr_assert(has_row(out, 2, "run"), "%s\n%s", sources[src], out);
		cr_assert_null(strstr(out, "  ?\n"), "%s no call without a name:\n%s", sources[src], out);
		cr_assert_not_null(strstr(out, "total of 4 groups"), "%s\n%s", sources[src], out);
		free(out);
	}
}

Test(report_attribution, comm_filter_counts_every_call_of_the_name)
{
	const char *path = loop_trace("loop.sct");
	static const struct { const char *comm; unsigned calls; } want[] = {
		{ "true", 12 }, { "sh", 4 }, { "run", 2 }, { "app", 1 },
	};

	for (int src = 0; src < 2; src++)
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			char args[64], *out;

			snprintf(args, sizeof(args), "--by comm -c %s", want[i].comm);
			cr_assert_eq(run_on(&out, src, args, path), 0);
			cr_assert_not_null(strstr(out, "total of 1 group"), "%s -c %s:\n%s", sources[src], want[i].comm, out);
			cr_assert(has_row(out, want[i].calls, want[i].comm), "%s -c %s:\n%s", sources[src], want[i].comm, out);
			free(out);
		}
}

Test(report_attribution, by_process_keeps_reused_tids_apart)
{
	const char *path = loop_trace("loop.sct");

	for (int src = 0; src < 2; src++) {
		char *out;
		const char *p = NULL;
		int ntrue = 0;

		cr_assert_eq(run_on(&out, src, "--by process", path), 0);
		for (p = strstr(out, "  true 101\n"); p; p = strstr(p + 1, "  true 101\n"))
			ntrue++;
		cr_assert_eq(ntrue, 3, "%s three processes of tid 101:\n%s", sources[src], out);
		cr_assert(has_row(out, 5, "true 101"), "%s\n%s", sources[src], out);
		cr_assert(has_row(out, 1, "sh 100"), "%s\n%s", sources[src], out);
		cr_assert(has_row(out, 3, "run 200"), "%s\n%s", sources[src], out);
		cr_assert_not_null(strstr(out, "total of 5 groups"), "%s\n%s", sources[src], out);
		cr_assert_null(strstr(out, "?"), "%s\n%s", sources[src], out);
		free(out);
	}
}

Test(report_attribution, tree_lists_exactly_the_real_tasks)
{
	const char *path = loop_trace("loop.sct");

	for (int src = 0; src < 2; src++) {
		char *out;

		cr_assert_eq(run_on(&out, src, "--tree", path), 0);
		cr_assert_str_eq(rt_line(out, 0), "session 0: host h1", "%s\n%s", sources[src], out);
		cr_assert_str_eq(rt_line(out, 1), "100 sh +0.000000..alive at end, 1 syscall", "%s\n%s", sources[src], out);
		for (int i = 1; i <= 3; i++) {
			char want[128];

			snprintf(want, sizeof(want), "%s 101 true exec \"/bin/true\" +0.0000%d0..+0.0000%d1 (0.000001s) exit 0, 5 syscalls",
				 i < 3 ? "|--" : "`--", i, i);
			cr_assert_str_eq(rt_line(out, 1 + i), want, "%s\n%s", sources[src], out);
		}
		cr_assert_str_eq(rt_line(out, 5), "200 run exec \"/opt/run\" +0.000000..+0.000060 (0.000060s) exit 4, 3 syscalls, 1 thread",
				 "%s\n%s", sources[src], out);
		cr_assert_str_eq(rt_line(out, 6), "    thread 202 run exec \"/opt/run\" +0.000050..+0.000060 (0.000010s) exit 4, 2 syscalls",
				 "%s\n%s", sources[src], out);
		cr_assert_eq(strncmp(rt_line(out, 7), "-- session 0: host h1", 21), 0, "%s\n%s", sources[src], out);
		free(out);
	}
}

#define WINDOW_CALLS 16383u /* report/lib/window.c: the records read after a held one, less one */

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

Test(report_attribution, timeline_names_each_call_by_its_time)
{
	const char *path = loop_trace("loop.sct");
	static const struct { const char *who; int n; } want[] = {
		{ " write(sh 100/100) = 1 ", 1 }, { " read(sh 101/101) = 0 ", 3 }, { " open(true 101/101) = 3 ", 3 },
		{ " close(true 101/101) = 0 ", 3 }, { " write(true 101/101) = 1 ", 3 }, { " exit(true 101/101) = 0 ", 3 },
		{ " execve(true 101/101) = 0 ", 3 }, { " read(app 200/202) = 0 ", 1 }, { " exit(app 200/200) = 0\n", 1 },
		{ " execve(run 200/200) = 0 ", 1 }, { " write(run 200/200) = 1 ", 1 },
		{ " exit(run 200/200) = 4 ", 1 }, { "(? ", 0 },
	};

	for (int src = 0; src < 2; src++) {
		char *out;

		cr_assert_eq(run_on(&out, src, "-T", path), 0);
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			cr_assert_eq(count(out, want[i].who), want[i].n, "%s '%s':\n%s", sources[src], want[i].who, out);
		free(out);
	}
}

Test(report_attribution, csv_and_jsonl_comm_columns)
{
	const char *path = loop_trace("loop.sct");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv %s | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"comm\") c = i; next }"
			    " { print $c }' | tr -d '\\r' | sort | uniq -c", rt_convert(), path), 0);
	cr_assert_str_eq(out, "      1 app\n      2 run\n      4 sh\n     12 true\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s | grep -o '\"comm\":\"[a-z]*\"' | sort | uniq -c", rt_convert(), path), 0);
	cr_assert_str_eq(out, "      1 \"comm\":\"app\"\n      2 \"comm\":\"run\"\n      4 \"comm\":\"sh\"\n     12 \"comm\":\"true\"\n");
	free(out);
	/* EXIT rows: the task that exits, named then */
	cr_assert_eq(rt_run(&out, "%s --to jsonl --records exit %s | grep -o '\"comm\":\"[a-z]*\"' | sort | uniq -c",
			    rt_convert(), path), 0);
	cr_assert_str_eq(out, "      1 \"comm\":\"app\"\n      1 \"comm\":\"run\"\n      3 \"comm\":\"true\"\n");
	free(out);
}

/* The quick start's shape: the command's TASK record comes after its first calls. */
Test(report_attribution, a_task_described_after_its_calls_is_one_task)
{
	const char *path = rt_path("ls.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	char *out;

	for (int i = 0; i < 5; i++)
		rt_sc(w, 100 + (uint64_t)i, 10, 300, 300, 0, RT_NR_READ, 0);
	rt_task(w, 200, 300, 300, 1, 0, 50, "sct-record");
	rt_exec(w, 300, 300, 300, "/usr/bin/ls", "ls");
	for (int i = 0; i < 7; i++)
		rt_sc(w, 400 + (uint64_t)i, 10, 300, 300, 0, RT_NR_WRITE, 1);
	rt_exit(w, 1000, 300, 300, 0, 0, 1);
	rt_sc(w, 900, 10, 300, 300, 0, RT_NR_CLOSE, 0);
	rt_close(w);
	for (int src = 0; src < 2; src++) {
		cr_assert_eq(run_on(&out, src, "--tree", path), 0);
		cr_assert_str_eq(rt_line(out, 1), "300 ls exec \"/usr/bin/ls\" +0.000000..+0.000001 (0.000000s) exit 0, 13 syscalls",
				 "%s\n%s", sources[src], out);
		cr_assert_eq(strncmp(rt_line(out, 2), "-- session 0", 12), 0, "%s once:\n%s", sources[src], out);
		free(out);
	}
}

/*
 * The window's bound: on a stream, a call whose task is described 16,383 records later or
 * less gets its task; one described later still goes by '?' (a file is read in two passes).
 */
Test(report_attribution, a_stream_looks_ahead_a_bounded_window)
{
	const char *path = rt_path("late.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	const int n = 20000;
	char *out;

	for (int i = 0; i < n; i++)
		rt_sc(w, 1000 + (uint64_t)i, 10, 500, 500, 0, RT_NR_WRITE, 1);
	rt_task(w, 1000 + (uint64_t)n, 500, 500, 1, 0, 0, "late");
	rt_close(w);
	cr_assert_eq(run_on(&out, 0, "--by comm", path), 0);
	cr_assert(has_row(out, (unsigned)n, "late"), "%s", out);
	free(out);
	cr_assert_eq(run_on(&out, 1, "--by comm", path), 0);
	cr_assert(has_row(out, WINDOW_CALLS, "late"), "%s", out);
	cr_assert(has_row(out, (unsigned)n - WINDOW_CALLS, "?"), "%s", out);
	free(out);
}
