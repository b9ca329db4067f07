// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to perfetto: decoded by an independent decoder (tests/report/report_perfetto.py
 * and protoc --decode_raw) and checked against --to csv of the same traces.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

TestSuite(report_perfetto, .fini = rt_cleanup);

/*
 * Every example file, gen_report's hostile strings and extreme values, a sample of two
 * char[65536] fields (a packet of ~800 KB: lengths of three bytes), and a getpid of a trace
 * with arguments (no args annotation: the CSV's args is empty).
 */
Test(report_perfetto, slices_nest_and_equal_the_csv_rows)
{
	const char *script = getenv("SCT_REPORT_PERFETTO_PY");
	const char *hostile = rt_path("hostile.sct");
	const char *big = rt_path("big.sct");
	const char *no_args = rt_path("no_args.sct");
	char *out;
	int status;

	cr_assert_not_null(script, "SCT_REPORT_PERFETTO_PY is not set: run make test-report");
	cr_assert_eq(rt_run(NULL, "%s hostile %s %s", rt_gen(), hostile, rt_path("hostile.json")), 0);
	cr_assert_eq(rt_run(NULL, "%s big-sample %s 2", rt_gen(), big), 0);
	cr_assert_eq(rt_run(NULL, "%s no-args %s", rt_gen(), no_args), 0);
	status = rt_run(&out, "python3 %s %s %s spec/examples/*.sct %s %s %s 2>&1", script, rt_convert(), rt_dir(),
			hostile, big, no_args);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_not_null(strstr(out, ", 0 failures"), "%s", out);
	cr_assert_not_null(strstr(out, "report_perfetto: 36 traces, "), "%s", out);
	free(out);
}

Test(report_perfetto, usage_and_terminal)
{
	const char *path = "spec/examples/syscall.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to perfetto --records exec %s 2>&1", rt_convert(), path), 2);
	cr_assert_not_null(strstr(out, "sct-convert: --records and --event do not apply: every record type goes "
				       "into --to 'perfetto'\n"), "%s", out);
	free(out);
	/* protobuf never goes to a terminal */
	cr_assert_eq(rt_run(&out, "script -qec '%s --to perfetto %s' /dev/null", rt_convert(), path), 1);
	cr_assert_not_null(strstr(out, "stdout: Inappropriate ioctl for device (binary output: use -o OUT or a pipe)"),
			   "%s", out);
	free(out);
}
