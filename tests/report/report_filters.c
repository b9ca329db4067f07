// SPDX-License-Identifier: BSD-2-Clause
/* sct-report filters: each one alone, on a trace whose per-filter counts are known. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

/*
 * pid 100 "alpha" (cgroup 10 /svc/a): 10 writes at +1..+10 s, 1 us each.
 * pid 200 "beta" (cgroup 11 /svc/b): tid 200: 5 reads at +1..+5 s, 5 us, 2 of them EAGAIN;
 * tid 201 "beta-io": 3 opens at +20 s, 100 us.
 */
static const char *make_trace(void)
{
	const char *path = rt_path("f.sct");
	struct sct_writer *w = rt_open(path, "h1", 4);

	rt_cgroup(w, 0, 10, "/svc/a");
	rt_cgroup(w, 0, 11, "/svc/b");
	rt_task(w, 0, 100, 100, 1, 10, 0, "alpha");
	rt_task(w, 0, 200, 200, 1, 11, 0, "beta");
	rt_task(w, 0, 200, 201, 1, 11, 0, "beta-io");
	for (uint64_t i = 1; i <= 10; i++)
		rt_sc(w, i * 1000000000, 1000, 100, 100, 10, RT_NR_WRITE, 1);
	for (uint64_t i = 1; i <= 5; i++)
		rt_sc(w, i * 1000000000 + 1, 5000, 200, 200, 11, RT_NR_READ, i <= 2 ? -11 : 8);
	for (uint64_t i = 0; i < 3; i++)
		rt_sc(w, 20000000000 + i, 100000, 200, 201, 11, RT_NR_OPEN, 3);
	rt_close(w);
	return path;
}

struct filter_case {
	char args[96];
	unsigned long long calls;
};

ParameterizedTestParameters(report_filters, counts)
{
	static struct filter_case cases[] = {
		{ "", 18 },
		{ "--pid 100", 10 },
		{ "--pid 100,200", 18 },
		{ "--tid 201", 3 },
		{ "--comm beta", 5 },
		{ "--comm beta,beta-io", 8 },
		{ "--cgroup /svc/a", 10 },
		{ "--cgroup 11", 8 },
		{ "--cgroup /svc", 18 },
		{ "--cgroup /sv", 0 },
		{ "--syscall read,open", 8 },
		{ "--failed", 2 },
		{ "--min-duration 5us", 8 },
		{ "--min-duration 5001ns", 3 },
		{ "--since 5", 10 },
		{ "--until 2.5", 4 },
		{ "--since 2 --until 3", 3 }, /* writes at +2 s, +3 s; the read at +2 s + 1 ns */
		{ "--since '2026-01-01 00:00:05'", 10 },
		{ "--since @1767225605", 10 },
		{ "--pid 200 --failed", 2 },
	};

	return cr_make_param_array(struct filter_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct filter_case *fc, report_filters, counts, .fini = rt_cleanup)
{
	const char *path = make_trace();
	unsigned long long calls = 99, errors;
	const char *total;
	char *out;

	setenv("TZ", "UTC", 1);
	cr_assert_eq(rt_run(&out, "%s %s %s", rt_report(), fc->args, path), 0);
	total = rt_find_line(out, "total of");
	cr_assert_not_null(total, "no total line:\n%s", out);
	cr_assert_eq(sscanf(total, "%llu %llu", &calls, &errors), 2);
	cr_assert_eq(calls, fc->calls, "%s: %llu calls, expected %llu\n%s", fc->args, calls, fc->calls, out);
	free(out);
}

Test(report_filters, bad_values_are_usage_errors, .fini = rt_cleanup)
{
	const char *path = make_trace();

	cr_assert_eq(rt_run(NULL, "%s --pid abc %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --min-duration 5parsecs %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --since yesterday %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --by color %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s 2>/dev/null", rt_report()), 2);
}

/* Another architecture's trace: its own table, where 5 is fstat and open does not exist. */
static const char *make_other_arch(void)
{
	static const struct sct_syscall_name names[] = { { 5, "fstat" }, { 56, "openat" } };
	const char *path = rt_path("arm.sct");
	struct sct_writer *w = rt_open_names(path, "h2", names, 2, 0);

	rt_task(w, 0, 300, 300, 1, 0, 0, "gamma");
	for (uint64_t i = 1; i <= 4; i++)
		rt_sc(w, i * 1000, 1000, 300, 300, 0, 5, 0);
	rt_close(w);
	return path;
}

/* The calls sct-report counts with args over files, or -1 when it exits non-zero. */
static long long calls_of(const char *args, const char *files)
{
	unsigned long long calls = 0;
	const char *total;
	char *out;
	int status = rt_run(&out, "%s %s %s 2>/dev/null", rt_report(), args, files);

	if (status) {
		free(out);
		return -1;
	}
	total = rt_find_line(out, "total of");
	cr_assert_not_null(total, "no total line:\n%s", out);
	cr_assert_eq(sscanf(total, "%llu", &calls), 1);
	free(out);
	return (long long)calls;
}

#define REPORT_USAGE "Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n"

/* A name no table has is a typo, in every mode: said once per name, nothing printed, exit 2. */
Test(report_filters, unknown_syscall_names_are_usage_errors, .fini = rt_cleanup)
{
	static const char *const modes[] = { "", "-T", "--tree", "-H", "--by comm", "-e --by process" };
	const char *path = make_trace();
	char *out;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		cr_assert_eq(rt_run(&out, "%s %s -S opnat,write,frob %s 2>&1", rt_report(), modes[i], path), 2, "%s",
			     modes[i]);
		cr_assert_str_eq(out, "sct-report: unknown syscall 'opnat': no syscall table of the inputs names it\n"
				      "sct-report: unknown syscall 'frob': no syscall table of the inputs names it\n"
				      REPORT_USAGE, "%s", modes[i]);
		free(out);
	}
	/* an unknown class: refused before reading, with the classes there are */
	cr_assert_eq(rt_run(&out, "%s -S read,%%fiel %s 2>&1", rt_report(), path), 2);
	cr_assert_not_null(strstr(out, "sct-report: unknown syscall class '%fiel'; the classes are %file "), "%s", out);
	free(out);
	cr_assert_eq(calls_of("-S syscall_5", path), 0);
	cr_assert_eq(calls_of("-S syscall_5x", path), -1);
	cr_assert_eq(calls_of("-S compat:open", path), -1); /* no compat table */
}

/* Several files, several architectures: a name is known when one of their tables has it. */
Test(report_filters, syscall_names_are_checked_against_every_input, .fini = rt_cleanup)
{
	char both[512];
	const char *x86 = make_trace(), *arm = make_other_arch();

	snprintf(both, sizeof(both), "%s %s", x86, arm);
	cr_assert_eq(calls_of("-S fstat", both), 4);
	cr_assert_eq(calls_of("-S open", both), 3);
	cr_assert_eq(calls_of("-S fstat,open", both), 7);
	cr_assert_eq(calls_of("-S fstat", x86), -1);
	cr_assert_eq(calls_of("-S open", arm), -1);
	/* by what each session's table says: nr 5 is fstat on one, unnamed on the other */
	cr_assert_eq(calls_of("-S syscall_5", both), 0);
}
