// SPDX-License-Identifier: BSD-2-Clause
/* sct-convert: CSV and JSON Lines checked by real parsers (tests/report_convert.py). */
#include <criterion/criterion.h>
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

Test(report_convert, empty_input_still_has_a_header_row)
{
	const char *path = rt_path("empty.sct");
	char *out;

	rt_close(rt_open(path, "h", 0));
	cr_assert_eq(rt_run(&out, "%s --to csv --records exit %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "session,host,time_ns,pid,tid,exit_code,signal,group_dead,start_ns,comm\r\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "");
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --to xml %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --to csv --records bogus %s 2>/dev/null", rt_convert(), path), 2);
}
