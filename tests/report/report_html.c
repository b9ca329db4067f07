// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-report --html: the page opened by headless Chromium (tests/report/report_html.py), its
 * numbers against the text output; the options it refuses and the files it will not write.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_helpers.h"

TestSuite(report_html, .fini = rt_cleanup);

/* Chromium is in make deps: under CI its absence fails; elsewhere the test says it skipped. */
Test(report_html, chromium_renders_the_page_and_its_numbers_are_the_text_ones)
{
	const char *script = getenv("SCT_REPORT_HTML_PY");
	const char *ci = getenv("CI");
	const char *bench = rt_path("bench.sct");
	char *out;
	int status;

	cr_assert_not_null(script, "SCT_REPORT_HTML_PY is not set: run make test-report");
	cr_assert_eq(rt_run(NULL, "%s bench %s 20000", rt_gen(), bench), 0);
	status = rt_run(&out, "python3 %s %s %s spec/examples/all_types.sct spec/examples/totals.sct %s 2>&1", script, rt_report(), rt_dir(),
			bench);
	if (status == 77 && !(ci && !strcmp(ci, "true"))) {
		free(out);
		cr_skip_test("chromium is not installed (make deps installs it): the page is not checked in a browser");
	}
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_not_null(strstr(out, "all_types.sct: 4 rows, 4 heat maps, 4 histograms\n"), "%s", out);
	/* a filtered recording's heat maps from its TOTALS: every call, not only the detailed ones */
	cr_assert_not_null(strstr(out, "totals.sct --by cgroup,syscall --sort calls -e --top 3: 3 rows, 3 heat maps, 3 histograms\n"), "%s", out);
	cr_assert_not_null(strstr(out, "report_html: 3 traces, 0 failures\n"), "%s", out);
	free(out);
}

Test(report_html, other_modes_and_symlinks_are_refused)
{
	const char *path = "spec/examples/syscall.sct";
	const char *page = rt_path("page.html");
	const char *link = rt_path("link.html");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --html %s -T %s 2>&1", rt_report(), page, path), 2);
	cr_assert_not_null(strstr(out, "sct-report: --html is a page of the summary: no --timeline, --tree or --hist "
				       "with it\n"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --html %s --by event %s 2>&1", rt_report(), page, path), 2);
	cr_assert_not_null(strstr(out, "sct-report: --html shows syscall latencies: not with --by event\n"), "%s", out);
	free(out);
	cr_assert_eq(symlink(page, link), 0);
	cr_assert_eq(rt_run(&out, "%s --html %s %s 2>&1", rt_report(), link, path), 1);
	cr_assert_not_null(strstr(out, "link.html: Too many levels of symbolic links (a symlink: not followed)\n"),
			   "%s", out);
	cr_assert_eq(access(page, F_OK), -1, "the symlink's target was written");
	free(out);
	/* the page is replaced, 0600 */
	cr_assert_eq(rt_run(NULL, "%s --html %s %s >/dev/null 2>&1", rt_report(), page, path), 0);
	cr_assert_eq(rt_run(&out, "%s --html %s %s >/dev/null 2>&1 && stat -c %%a %s", rt_report(), page, path, page), 0);
	cr_assert_str_eq(out, "600\n");
	free(out);
}

/*
 * A hostile trace's strings (host, comm, cgroup path, a syscall name from its HEADER) are
 * text on the page, never markup: each would run a script or fetch an image if it were not.
 */
Test(report_html, trace_strings_are_text_not_markup)
{
	const char *path = rt_path("markup.sct");
	const char *page = rt_path("markup.html");
	struct sct_writer *w = rt_open(path, "<b>h</b>", 16);
	char *out;

	rt_cgroup(w, 0, 10, "/\"><img src=x onerror=alert(1)>");
	rt_task(w, 0, 100, 100, 1, 10, 0, "<script>1</x>");
	rt_sc(w, 1000, 500, 100, 100, 10, RT_NR_WRITE, 1);
	rt_close(w);
	rt_patch(path, "write", "<xmp>");
	cr_assert_eq(rt_run(NULL, "%s --html %s --by comm,cgroup,syscall %s >/dev/null 2>&1", rt_report(), page,
			    path), 0);
	cr_assert_eq(rt_run(&out, "cat %s", page), 0);
	cr_assert_null(strstr(out, "<script"), "%s", out);
	cr_assert_null(strstr(out, "<img"), "%s", out);
	cr_assert_null(strstr(out, "<xmp>"), "%s", out);
	cr_assert_null(strstr(out, "<b>h"), "%s", out);
	cr_assert_not_null(strstr(out, "&lt;script&gt;1&lt;/x&gt;"), "%s", out);
	cr_assert_not_null(strstr(out, "&lt;img src=x onerror=alert(1)&gt;"), "%s", out);
	cr_assert_not_null(strstr(out, "&lt;xmp&gt;"), "%s", out);
	free(out);
}
