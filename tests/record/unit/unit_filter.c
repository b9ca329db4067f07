// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-record's filter options (record/detail_filter.c), without root: the set -S selects, the parts
 * of the filter a call is checked against, the HEADER's text, and the line a person reads for
 * a word refused.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "unit_helpers.h"

TestSuite(unit_filter, .init = cr_redirect_stderr);

Test(unit_filter, no_filter_counts_nothing)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a"), 0);
	cr_assert_not(env.filter.on);
	cr_assert(filter_syscall(&env.filter, SYS_write, 0));
	cr_assert(filter_result(&env.filter, -2, 0));
	env_free(&env);
}

Test(unit_filter, class_names_and_exclusions)
{
	struct env env;
	const struct record_filter *f = &env.filter;

	cr_assert_eq(PARSE(&env, "-a", "-S", "%file,!openat,write,39"), 0);
	cr_assert(f->on);
	cr_assert(filter_syscall(f, SYS_open, 0));
	cr_assert(filter_syscall(f, SYS_unlink, 0));
	cr_assert_not(filter_syscall(f, SYS_openat, 0), "! takes it out");
	cr_assert(filter_syscall(f, SYS_write, 0));
	cr_assert(filter_syscall(f, SYS_getpid, 0), "39 is getpid");
	cr_assert_not(filter_syscall(f, SYS_read, 0));
	/* i386's open is 5, its write 4: names select both ABIs */
	cr_assert(filter_syscall(f, 5, 1));
	cr_assert(filter_syscall(f, 4, 1));
	cr_assert_not(filter_syscall(f, 3, 1), "i386 read");
	cr_assert_str_eq(f->text, "-S %file,!openat,write,39");
	env_free(&env);
}

Test(unit_filter, leading_bang_is_all_but)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "-S", "!write"), 0);
	cr_assert_not(filter_syscall(&env.filter, SYS_write, 0));
	cr_assert(filter_syscall(&env.filter, SYS_read, 0));
	env_free(&env);
}

Test(unit_filter, result_filters)
{
	struct env env;
	const struct record_filter *f = &env.filter;

	cr_assert_eq(PARSE(&env, "-a", "--errno", "ENOENT,EACCES", "--min-duration", "1.5ms"), 0);
	cr_assert_eq(f->min_duration_ns, 1500000);
	cr_assert(filter_result(f, -ENOENT, 1500000));
	cr_assert_not(filter_result(f, -ENOENT, 1499999));
	cr_assert_not(filter_result(f, -EPERM, 2000000));
	cr_assert_not(filter_result(f, 0, 2000000));
	cr_assert_str_eq(f->text, "--errno ENOENT,EACCES --min-duration 1.5ms");
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--failed", "-c", "nginx,sh"), 0);
	cr_assert(filter_result(f, -4095, 0));
	cr_assert_not(filter_result(f, -4096, 0), "not an error return");
	cr_assert(filter_comm(f, "sh"));
	cr_assert_not(filter_comm(f, "bash"));
	env_free(&env);
}

Test(unit_filter, summary_only)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--summary-only", "--totals-keys", "4096"), 0);
	cr_assert_eq(env.filter.totals_keys, 4096);
	cr_assert_eq(record_totals_keys(env.filter.totals_keys, 256), 4096);
	cr_assert_eq(record_totals_keys(0, 2), 65536);
	cr_assert_eq(record_totals_keys(0, 256), 4096);
	cr_assert(env.filter.on);
	cr_assert_str_eq(env.filter.text, "--summary-only");
	cr_assert_not(filter_unfinished(&env.filter, SYS_read, 0, 0));
	env_free(&env);
}

/* exit and exit_group of both ABIs never return: counted at entry; nothing else is. */
Test(unit_filter, noreturn_calls)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--summary-only"), 0);
	cr_assert(filter_noreturn(&env.filter, SYS_exit, SCT_ABI_NATIVE));
	cr_assert(filter_noreturn(&env.filter, SYS_exit_group, SCT_ABI_NATIVE));
	cr_assert_not(filter_noreturn(&env.filter, SYS_getppid, SCT_ABI_NATIVE));
#if defined(__x86_64__)
	/* i386: exit 1, exit_group 252; 1 is write natively */
	cr_assert(filter_noreturn(&env.filter, 1, SCT_ABI_COMPAT));
	cr_assert(filter_noreturn(&env.filter, 252, SCT_ABI_COMPAT));
	cr_assert_not(filter_noreturn(&env.filter, 1, SCT_ABI_NATIVE));
#endif
	env_free(&env);
}

/* A usage error names the word refused, first line of stderr; cli_parse gives -EINVAL (exit 2). */
#define REFUSED(line, ...)                                             \
	do {                                                           \
		struct env env;                                        \
		cr_assert_eq(PARSE(&env, "-a", __VA_ARGS__), -EINVAL); \
		unit_first_line_is(line);                                   \
		env_free(&env);                                        \
	} while (0)

Test(unit_filter, unknown_syscall)
{
	REFUSED("sct-record: invalid syscall: 'opne': no such syscall on this architecture\n", "-S", "openat,opne");
}

Test(unit_filter, unknown_class)
{
	REFUSED("sct-record: invalid syscall class: '%fil': see sct-record --help for the classes\n", "-S", "%fil");
}

Test(unit_filter, unknown_errno)
{
	REFUSED("sct-record: invalid errno: 'ENOTHERE': an error name such as ENOENT expected\n", "--errno", "ENOENT,ENOTHERE");
}

Test(unit_filter, duration_without_unit)
{
	REFUSED("sct-record: invalid min-duration: '500': a duration with its unit (ns, us, ms, s) expected\n",
		"--min-duration", "500");
}

Test(unit_filter, comm_too_long)
{
	REFUSED("sct-record: invalid comm: 'a-name-of-16-chr': a task name of 1 to 15 bytes expected\n", "-c",
		"a-name-of-16-chr");
}

Test(unit_filter, path_needs_args)
{
	REFUSED("sct-record: -P/--path needs --args (the paths are read with the arguments)\n", "-P", "/etc");
}

Test(unit_filter, summary_only_takes_no_detail_filter)
{
	REFUSED("sct-record: --summary-only writes no per-call records: -S, --failed, --errno, "
		"--min-duration, -c, -P and --args do not apply\n", "--summary-only", "--failed");
}

Test(unit_filter, totals_keys_need_totals)
{
	REFUSED("sct-record: --totals-keys needs a filter or --summary-only (no totals without)\n", "--totals-keys", "10");
}

Test(unit_filter, totals_keys_range)
{
	REFUSED("sct-record: invalid totals-keys: '0': 1..4194304 expected\n", "--summary-only", "--totals-keys", "0");
}
