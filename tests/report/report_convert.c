// SPDX-License-Identifier: BSD-2-Clause
/* sct-convert: CSV and JSON Lines checked by real parsers (tests/report_convert.py). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

TestSuite(report_convert, .fini = rt_cleanup);

Test(report_convert, csv_sqlite_and_json_parsers_read_back_every_record)
{
	const char *script = getenv("SCT_REPORT_CONVERT_PY");
	char *out;
	int status;

	cr_assert_not_null(script, "SCT_REPORT_CONVERT_PY is not set: run make test-report");
	status = rt_run(&out, "python3 %s %s %s %s 2>&1", script, rt_convert(), rt_gen(), rt_dir());
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_not_null(strstr(out, "0 failures"), "%s", out);
	free(out);
}

/*
 * -j8: eight copies render chunks of 1,024 rows in turn, more copies than cores. The last
 * chunk is not the first copy's, which may still be reading when the writer is done: it reads
 * on to the end (its footer counts every record), and the rows are -j1's, byte for byte.
 */
Test(report_convert, eight_copies_write_every_row_once_and_read_every_record)
{
	const char *path = rt_path("big.sct");
	char *out;

	cr_assert_eq(rt_run(NULL, "%s bench %s 100000", rt_gen(), path), 0);
	cr_assert_eq(rt_run(NULL, "%s -j1 --to csv %s > %s 2>&1", rt_convert(), path, rt_path("j1")), 0);
	for (int run = 0; run < 5; run++) {
		cr_assert_eq(rt_run(&out, "%s -j8 --to csv %s 2>&1 | cmp - %s && echo same", rt_convert(), path,
				    rt_path("j1")), 0);
		cr_assert_str_eq(out, "same\n", "run %d: %s", run, out);
		free(out);
	}
	cr_assert_eq(rt_run(&out, "grep -c '^0,bench,' %s; grep -- '-- read' %s", rt_path("j1"), rt_path("j1")), 0);
	cr_assert_eq(strncmp(out, "100000\n-- read 1 file, 100000 records", 37), 0, "%s", out);
	free(out);
}

Test(report_convert, empty_input_still_has_a_header_row)
{
	const char *path = rt_path("empty.sct");
	char *out;

	rt_close(rt_open(path, "h", 0));
	cr_assert_eq(rt_run(&out, "%s --to csv --records exit %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "session,host,time_ns,wall_time,pid,tid,exit_code,signal,group_dead,start_ns,comm\r\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "");
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --to xml %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --to csv --records bogus %s 2>/dev/null", rt_convert(), path), 2);
}

/* A type newer than this library that its HEADER's schema describes is data: columns from the schema. */
Test(report_convert, newer_type_described_by_its_header_is_delivered)
{
	const char *path = rt_path("future.sct");
	char *out;

	cr_assert_eq(rt_run(NULL, "%s future %s", rt_gen(), path), 0);
	cr_assert_eq(rt_run(&out, "%s --to csv --records 20 %s 2>/dev/null", rt_convert(), path), 0);
	/* its time_ns is a time like every type's: its wall clock beside it */
	cr_assert_str_eq(out, "session,host,time_ns,wall_time,value,blob\r\n"
			      "0,crafthost,1100,1970-01-01T00:00:00.000001100Z,-7,\"a,\"\"b\"\"\"\r\n"
			      "0,crafthost,1200,1970-01-01T00:00:00.000001200Z,3,\r\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl --records future %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "{\"session\":0,\"host\":\"crafthost\",\"time_ns\":1100,"
			      "\"wall_time\":\"1970-01-01T00:00:00.000001100Z\",\"value\":-7,\"blob\":\"a,\\\"b\\\"\"}\n"
			      "{\"session\":0,\"host\":\"crafthost\",\"time_ns\":1200,"
			      "\"wall_time\":\"1970-01-01T00:00:00.000001200Z\",\"value\":3,\"blob\":\"\"}\n");
	free(out);
	/* the report counts them as records, neither unknown nor damage, and shows only the syscall */
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.000001 00:00:00.000001 syscall_1(? 1/1) = 5 <0.000000> cg=cgroup:0");
	cr_assert_not_null(strstr(out, "\n-- read 1 file, 3 records (syscall 1, task 0, fork 0, exec 0, exit 0, cgroup 0, "
				       "lost 0, warning 0, newer types 2)\n"), "%s", out);
	cr_assert_not_null(strstr(out, "\n-- unknown (newer format, skipped): 0 frames, 0 records\n"), "%s", out);
	cr_assert_not_null(strstr(out, "\n-- skipped/corrupt: 0 ranges, 0 bytes;"), "%s", out);
	free(out);
}

/*
 * spec/examples/schema_edges.sct: HEADERs that follow FORMAT.md section 5 but not sct's writer.
 * Session 0 (1.0): a SYSCALL entry of five fields, the second named "dur", shows every field
 * of section 9 by its own name (nr ... unfinished 0, not null), and its type 9 "probe" is a
 * type its HEADER describes (not SAMPLE): delivered, counted. Sessions 1 (1.3 with arguments)
 * and 2 (1.4 without) list 21 fields: those past their version's are shown as stored.
 */
Test(report_convert, header_schemas_read_by_position_with_trailing_fields_as_stored)
{
	const char *path = "spec/examples/schema_edges.sct";
	const char *want = "{\"session\":0,\"host\":\"crafthost\",\"time_ns\":1000000000000,"
			   "\"wall_time\":\"1970-01-01T00:16:40.000000000Z\",\"duration_ns\":300,\"pid\":1200,\"tid\":1201,"
			   "\"cgroup_id\":4242,\"nr\":0,\"abi\":0,\"ret\":0,\"errno\":null,\"unfinished\":0,"
			   "\"arg0\":null,";
	char *out, *err;

	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_eq(strncmp(rt_line(out, 0), want, strlen(want)), 0, "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "\"path_flags\":1,\"path_ref\":1,\"path\":\"/a\",\"path2_flags\":1,"
				  "\"path2_ref\":1,\"path2\":\"\","), "1.3: path resolved, path2 as stored:\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 5), "\"arg0\":4294967196,\"arg1\":4096,\"arg2\":4294967196,\"arg3\":8192,"
				  "\"arg4\":0,\"arg5\":0,\"path_flags\":1,\"path_ref\":1,\"path\":\"\",\"path2_flags\":1,"
				  "\"path2_ref\":1,\"path2\":\"\","), "1.4 without arguments: all as stored:\n%s", out);
	cr_assert_not_null(strstr(rt_line(out, 5), "\"args\":null}"), "%s", out);
	free(out);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(rt_run(&out, "%s --to jsonl --records %s %s 2>/dev/null", rt_convert(), i ? "probe" : "9",
				    path), 0);
		cr_assert_str_eq(out, "{\"session\":0,\"host\":\"crafthost\",\"time_ns\":1000000000050,"
				      "\"wall_time\":\"1970-01-01T00:16:40.000000050Z\",\"value\":7,\"note\":\"x\"}\n");
		free(out);
	}
	cr_assert_eq(rt_run(&err, "%s --to jsonl %s 2>&1 >/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(err, "-- read 1 file, 7 records (syscall 6, task 0, fork 0, exec 0, exit 0, cgroup 0, "
				       "lost 0, warning 0, newer types 1)\n"), "%s", err);
	free(err);
}

/*
 * 3,000 tasks, each with a comm and a cgroup path of its own (700 KiB of strings), calling
 * in turn, then in the other order: far more than the converter's cache of rendered strings
 * holds, so it evicts and renders them again, and ids that share a slot take turns in it.
 * Every row still names its own task and cgroup, in CSV and JSON Lines, with one copy and
 * with three.
 */
Test(report_convert, rows_name_their_own_task_among_thousands)
{
	enum { N = 3000 };
	const char *path = rt_path("names.sct"), *rows = rt_path("rows"), *script = rt_path("check.py");
	static const char check[] =
		"import csv, json, sys\n"
		"rows = list(csv.DictReader(open(sys.argv[1], newline=''))) if sys.argv[2] == 'csv' else "
		"[json.loads(l) for l in open(sys.argv[1])]\n"
		"bad = [r for r in rows if r['comm'] != 'task%05d' % (int(r['pid']) - 10000) or "
		"not r['cgroup_path'].endswith('-%05d' % (int(r['pid']) - 10000))]\n"
		"print('rows %d bad %d' % (len(rows), len(bad)))\n";
	struct sct_writer *w = rt_open(path, "h", 0);
	char comm[16], cg[256], *out;
	FILE *py;

	for (uint32_t i = 0; i < N; i++) {
		snprintf(comm, sizeof(comm), "task%05u", i);
		snprintf(cg, sizeof(cg), "/system.slice/%0200u-%05u", i, i);
		rt_cgroup(w, i, 1000 + i, cg);
		rt_task(w, i, 10000 + i, 10000 + i, 1, 1000 + i, 0, comm);
	}
	for (uint32_t i = 0; i < 2 * N; i++) {
		uint32_t k = i < N ? i : 2 * N - 1 - i;

		rt_sc(w, N + i, 10, 10000 + k, 10000 + k, 1000 + k, RT_NR_WRITE, 1);
	}
	rt_close(w);
	py = fopen(script, "w");
	cr_assert_not_null(py);
	cr_assert_geq(fputs(check, py), 0);
	cr_assert_eq(fclose(py), 0);
	for (int f = 0; f < 2; f++)
		for (int j = 1; j <= 3; j += 2) {
			const char *to = f ? "jsonl" : "csv";

			cr_assert_eq(rt_run(NULL, "%s -j%d --to %s %s > %s 2>/dev/null", rt_convert(), j, to, path, rows), 0);
			cr_assert_eq(rt_run(&out, "python3 %s %s %s", script, rows, to), 0);
			cr_assert_str_eq(out, "rows 6000 bad 0\n", "--to %s -j%d: %s", to, j, out);
			free(out);
		}
}
