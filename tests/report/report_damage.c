// SPDX-License-Identifier: BSD-2-Clause
/* Damaged and foreign inputs: what is readable is reported, exit codes say what happened. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_helpers.h"

TestSuite(report_damage, .fini = rt_cleanup);

/* 1000 writes in blocks of 64 records, closed with a trailer. */
static const char *make_blocks(const char *name)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open(path, "h1", 64);

	for (uint64_t i = 0; i < 1000; i++)
		rt_sc(w, i * 1000, 1000 + i, 100, 100, 0, RT_NR_WRITE, 1);
	rt_close(w);
	return path;
}

static unsigned long long total_calls(const char *out)
{
	const char *total = rt_find_line(out, "total of");
	unsigned long long calls = 0;

	cr_assert_not_null(total, "no total line:\n%s", out);
	cr_assert_eq(sscanf(total, "%llu", &calls), 1);
	return calls;
}

Test(report_damage, truncated_file_reports_what_was_read)
{
	const char *path = make_blocks("t.sct");
	struct stat st;
	char *out;
	unsigned long long calls;

	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(truncate(path, st.st_size / 2), 0);
	cr_assert_eq(rt_run(&out, "%s %s 2>/dev/null", rt_report(), path), 0);
	calls = total_calls(out);
	cr_assert(calls > 0 && calls < 1000 && calls % 64 == 0, "calls %llu", calls);
	cr_assert_not_null(strstr(out, "-- incomplete: no trailer: 1 session\n"), "got\n%s", out);
	cr_assert_null(strstr(out, "truncated tail: 0 bytes"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --strict %s >/dev/null 2>&1", rt_report(), path), 3);
	cr_assert_eq(rt_run(NULL, "%s --to csv %s >/dev/null 2>&1", rt_convert(), path), 0);
	cr_assert_eq(rt_run(NULL, "%s --to csv --strict %s >/dev/null 2>&1", rt_convert(), path), 3);
}

Test(report_damage, corrupted_block_is_skipped)
{
	const char *path = make_blocks("c.sct");
	struct stat st;
	unsigned long long calls;
	char *out;
	FILE *f;
	int c;

	cr_assert_eq(stat(path, &st), 0);
	f = fopen(path, "r+b");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, st.st_size / 2, SEEK_SET), 0);
	c = fgetc(f);
	cr_assert_neq(c, EOF);
	cr_assert_eq(fseek(f, st.st_size / 2, SEEK_SET), 0);
	cr_assert_neq(fputc(c ^ 0xff, f), EOF);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(rt_run(&out, "%s %s 2>/dev/null", rt_report(), path), 0);
	calls = total_calls(out);
	cr_assert(calls >= 1000 - 64 && calls < 1000, "calls %llu\n%s", calls, out);
	cr_assert_null(strstr(out, "-- skipped/corrupt: 0 ranges"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --strict %s >/dev/null 2>&1", rt_report(), path), 3);
}

Test(report_damage, foreign_and_missing_files)
{
	const char *txt = rt_path("x.txt");
	const char *good = make_blocks("g.sct");
	FILE *f = fopen(txt, "w");
	char *out;

	cr_assert_not_null(f);
	fputs("hello, this is not a trace\n", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(rt_run(&out, "%s %s 2>&1 >/dev/null", rt_report(), txt), 1);
	cr_assert_not_null(strstr(out, txt), "got %s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s /nonexistent/trace.sct 2>&1 >/dev/null", rt_report()), 1);
	cr_assert_not_null(strstr(out, "/nonexistent/trace.sct: "), "got %s", out);
	free(out);
	/* the readable file is still reported */
	cr_assert_eq(rt_run(&out, "%s /nonexistent/trace.sct %s 2>/dev/null", rt_report(), good), 1);
	cr_assert_eq(total_calls(out), 1000);
	cr_assert_not_null(strstr(out, "-- unreadable inputs: 1"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --to jsonl %s >/dev/null 2>&1", rt_convert(), txt), 1);
}

/*
 * An input that cannot be read at all: one line that says why, on stderr, and nothing on
 * stdout (no empty table, no footer of nothing read), in every mode and in sct-convert.
 */
Test(report_damage, unreadable_inputs_alone_print_one_line_each)
{
	static const char *const modes[] = { "", "-T", "--tree", "-H", "--by comm" };
	static const char *const formats[] = { "csv", "jsonl", "clickhouse" };
	const char *txt = rt_path("x.txt");
	char want[512], *out;
	FILE *f = fopen(txt, "w");

	cr_assert_not_null(f);
	fputs("hello, this is not a trace\n", f);
	cr_assert_eq(fclose(f), 0);
	snprintf(want, sizeof(want), "sct-report: %s: not an sct trace: no sct label and no valid frame in the "
		 "first 1048576 bytes\n", txt);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		/* the timeline opens every input before it reads any: its open errors come first */
		cr_assert_eq(rt_run(&out, "%s %s %s /nonexistent/t.sct 2>&1 >/dev/null | sort", rt_report(), modes[i],
				    txt), 0);
		cr_assert_str_eq(rt_line(out, 0), "sct-report: /nonexistent/t.sct: No such file or directory", "%s",
				 modes[i]);
		cr_assert_str_eq(out + strlen(rt_line(out, 0)) + 1, want, "%s", modes[i]);
		free(out);
		cr_assert_eq(rt_run(&out, "%s %s %s /nonexistent/t.sct 2>/dev/null", rt_report(), modes[i], txt), 1);
		cr_assert_str_eq(out, "", "%s", modes[i]);
		free(out);
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		cr_assert_eq(rt_run(&out, "%s --to %s /nonexistent/t.sct 2>&1 >/dev/null", rt_convert(), formats[i]), 1);
		cr_assert_str_eq(out, "sct-convert: /nonexistent/t.sct: No such file or directory\n", "%s", formats[i]);
		free(out);
		cr_assert_eq(rt_run(&out, "%s --to %s --records exit %s 2>/dev/null", rt_convert(), formats[i], txt), 1);
		cr_assert_str_eq(out, "", "%s", formats[i]);
		free(out);
	}
}

/* getopt's line naming the option, then the usage line: two lines, exit status 2. */
#define REPORT_USAGE "Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n"
#define CONVERT_USAGE "Usage: sct-convert --to csv|jsonl|clickhouse|perfetto|folded [--records TYPE] [--event G:N] " \
		      "[-o OUT [--force]] FILE...\n"
Test(report_damage, unknown_option_is_one_line_and_the_usage)
{
	char *out;

	cr_assert_eq(rt_run(&out, "%s --bogus x.sct 2>&1", rt_report()), 2);
	cr_assert_str_eq(out, "sct-report: unrecognized option '--bogus'\n" REPORT_USAGE);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -Q x.sct 2>&1", rt_report()), 2);
	cr_assert_str_eq(out, "sct-report: invalid option -- 'Q'\n" REPORT_USAGE);
	free(out);
	cr_assert_eq(rt_run(&out, "%s x.sct --sort 2>&1", rt_report()), 2);
	cr_assert_str_eq(out, "sct-report: option '--sort' requires an argument\n" REPORT_USAGE);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv --bogus x.sct 2>&1", rt_convert()), 2);
	cr_assert_str_eq(out, "sct-convert: unrecognized option '--bogus'\n" CONVERT_USAGE);
	free(out);
	cr_assert_eq(rt_run(&out, "%s x.sct 2>&1", rt_convert()), 2);
	cr_assert_str_eq(out, "sct-convert: --to csv, --to jsonl, --to clickhouse, --to perfetto or --to folded is required\n" CONVERT_USAGE);
	free(out);
}

Test(report_damage, newer_major_version_is_refused)
{
	const char *good = make_blocks("v.sct");
	const char *newer = rt_path("v2.sct");
	char *out;

	cr_assert_eq(rt_run(NULL, "%s version %s %s", rt_gen(), good, newer), 0);
	cr_assert_eq(rt_run(&out, "%s %s 2>&1", rt_report(), newer), 1);
	cr_assert(rt_line(out, 1)[0] == 0, "more than one line:\n%s", out);
	cr_assert_not_null(strstr(out, ": file format 2.0 is newer than this reader (1.x): upgrade sct (HEADER at byte "),
			   "got %s", out);
	free(out);
}

Test(report_damage, stdin_is_read)
{
	const char *good = make_blocks("s.sct");
	char *out;

	cr_assert_eq(rt_run(&out, "cat %s | %s -", good, rt_report()), 0);
	cr_assert_eq(total_calls(out), 1000);
	free(out);
	/* two sessions in one stream (cat a b): both read, kept apart */
	cr_assert_eq(rt_run(&out, "cat %s %s | %s --by process -", good, good, rt_report()), 0);
	cr_assert_eq(total_calls(out), 2000);
	cr_assert_not_null(strstr(out, "? 100@0\n"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "? 100@1\n"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "-- session 1: host h1, file -,"), "got\n%s", out);
	free(out);
}

/* Blocks after a damaged HEADER are no session's: no number, no host, no clock, in every mode. */
Test(report_damage, blocks_without_a_header_are_shown_as_such)
{
	static const char *const modes[] = { "", "-T", "--tree", "-H" };
	const char *path = "spec/examples/bad_header.sct";
	char *out;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		cr_assert_eq(rt_run(&out, "TZ=UTC %s %s %s", rt_report(), modes[i], path), 0);
		cr_assert_not_null(strstr(out, "\n-- no HEADER (damaged or missing): host unknown, file "
					       "spec/examples/bad_header.sct, read with the built-in schema, "
					       "no syscall names, no wall clock\n"), "%s: %s", modes[i], out);
		cr_assert_null(strstr(out, "session 1"), "%s: %s", modes[i], out);
		cr_assert_null(strstr(out, "1970"), "%s: %s", modes[i], out);
		free(out);
	}
	cr_assert_eq(rt_run(&out, "TZ=UTC %s -T %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 2), "+1000.000000 ??:??:??.?????? task(server 1200/1200) ppid 1 cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 4), "+1000.000060 ??:??:??.?????? exit(? 1300/1300) = SIGKILL [process gone]");
	free(out);
	cr_assert_eq(rt_run(&out, "TZ=UTC %s -T %s %s", rt_report(), path, path), 0);
	cr_assert_str_eq(rt_line(out, 9), "+1000.000060 ??:??:??.?????? exit(? 1300/1300) = SIGKILL [process gone] @?");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --tree %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 3), "no HEADER (damaged or missing): host unknown");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>&1 >/dev/null | head -2", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "-- no HEADER (damaged or missing): host unknown, file spec/examples/bad_header.sct, "
					  "read with the built-in schema, no syscall names, no wall clock");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	/*
	 * the built-in schema has the argument fields: they read as 0, and no session renders
	 * them; no anchor gives a wall clock
	 */
	cr_assert_str_eq(rt_line(out, 3), ",,1000000001000,,2300,1200,1200,4242,1,0,6,,0,0,0,0,0,0,0,0,0,,0,0,,"
					  "syscall_1,server,,\r");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 2), "{\"session\":null,\"host\":null,\"time_ns\":1000000001000,\"wall_time\":null,"
					  "\"duration_ns\":2300,\"pid\":1200,\"tid\":1200,\"cgroup_id\":4242,\"nr\":1,"
					  "\"abi\":0,\"ret\":6,\"errno\":null,\"unfinished\":0,\"arg0\":0,\"arg1\":0,\"arg2\":0,\"arg3\":0,\"arg4\":0,"
					  "\"arg5\":0,\"path_flags\":0,\"path_ref\":0,\"path\":\"\",\"path2_flags\":0,"
					  "\"path2_ref\":0,\"path2\":\"\",\"name\":\"syscall_1\","
					  "\"comm\":\"server\",\"cgroup_path\":null,\"args\":null}");
	free(out);
}
