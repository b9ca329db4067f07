// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-record's option parsing (record/cli.c), without root: the settings each option gives,
 * its default, and the one line a person reads for a value or a combination refused.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "unit_helpers.h"

TestSuite(unit_cli, .init = cr_redirect_stderr);

Test(unit_cli, defaults)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a"), 0);
	cr_assert(env.all);
	cr_assert_str_eq(env.output, "sct.trace");
	cr_assert_eq(env.ringbuf_size, 4ull << 20);
	cr_assert_eq(env.flush_interval_ns, 1000000000ull);
	cr_assert_eq(env.args_max, 256);
	cr_assert_eq(env.backend, BACKEND_AUTO);
	cr_assert_eq(env.duration_ns, 0);
	cr_assert_gt(env.max_tasks, 0, "--max-tasks defaults to the host's limit");
	cr_assert_null(env.cmd);
	env_free(&env);
}

Test(unit_cli, pid_list_and_tids)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-p", "1,22", "-p", "333", "-t", "4"), 0);
	cr_assert_eq(env.npids, 3);
	cr_assert_eq(env.pids[0], 1);
	cr_assert_eq(env.pids[1], 22);
	cr_assert_eq(env.pids[2], 333);
	cr_assert_eq(env.ntids, 1);
	cr_assert_eq(env.tids[0], 4);
	env_free(&env);
}

Test(unit_cli, invalid_pid)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-p", "abc"), -EINVAL);
	unit_first_line_is("sct-record: invalid pid: 'abc'\n");
	env_free(&env);
}

Test(unit_cli, command_after_dashes)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-q", "--", "ls", "-l"), 0);
	cr_assert(env.quiet);
	cr_assert_not_null(env.cmd);
	cr_assert_str_eq(env.cmd[0], "ls");
	cr_assert_str_eq(env.cmd[1], "-l");
	cr_assert_null(env.cmd[2]);
	env_free(&env);
}

Test(unit_cli, stray_word)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "ls"), -EINVAL);
	unit_first_line_is("sct-record: unexpected argument 'ls' (a command goes after --)\n");
	env_free(&env);
}

Test(unit_cli, no_target)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-q"), -EINVAL);
	unit_first_line_is("sct-record: no target: give -p, -t, -G, -a or a command after --\n");
	env_free(&env);
}

Test(unit_cli, targets_do_not_combine)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "-p", "1"), -EINVAL);
	unit_first_line_is("sct-record: -p/-t, -G and -a cannot be combined\n");
	env_free(&env);
}

Test(unit_cli, sizes_and_durations)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--ringbuf-size", "8M", "--rotate-size", "64K",
			   "--rotate-interval", "0.5", "--rotate-count", "3", "-d", "2.5",
			   "--flush-interval", "0.01", "--max-tasks", "10"), 0);
	cr_assert_eq(env.ringbuf_size, 8ull << 20);
	cr_assert_eq(env.rotate_size, 64ull << 10);
	cr_assert_eq(env.rotate_interval_ns, 500000000ull);
	cr_assert_eq(env.rotate_count, 3);
	cr_assert_eq(env.duration_ns, 2500000000ull);
	cr_assert_eq(env.flush_interval_ns, 10000000ull);
	cr_assert_eq(env.max_tasks, 10);
	cr_assert(env_rotates(&env));
	env_free(&env);
}

Test(unit_cli, ringbuf_not_power_of_two)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--ringbuf-size", "3M"), -EINVAL);
	unit_first_line_is("sct-record: invalid ring buffer size: '3M': a power of two up to 1G expected\n");
	env_free(&env);
}

Test(unit_cli, max_tasks_range)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--max-tasks", "0"), -EINVAL);
	unit_first_line_is("sct-record: invalid max-tasks: '0': 1..4194304 expected\n");
	env_free(&env);
}

Test(unit_cli, backends)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--backend", "perf"), 0);
	cr_assert_eq(env.backend, BACKEND_PERF);
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--backend", "bpf"), 0);
	cr_assert_eq(env.backend, BACKEND_BPF);
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--backend", "dtrace"), -EINVAL);
	unit_first_line_is("sct-record: invalid backend: 'dtrace': auto, bpf or perf expected\n");
	env_free(&env);
}

Test(unit_cli, events)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "-e", "sched:sched_switch,irq:irq_handler_entry"), 0);
	cr_assert_eq(env.nevents, 2);
	cr_assert_str_eq(env.events[0], "sched:sched_switch");
	cr_assert_str_eq(env.events[1], "irq:irq_handler_entry");
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "-e", "../x:y"), -EINVAL);
	unit_first_line_is("sct-record: invalid event: '../x:y': GROUP:NAME[,GROUP:NAME...] of tracefs "
		      "expected\n");
	env_free(&env);
}

Test(unit_cli, long_run_conflicts)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--rotate-count", "2"), -EINVAL);
	unit_first_line_is("sct-record: --rotate-count needs --rotate-size or --rotate-interval\n");
	env_free(&env);
}

Test(unit_cli, snapshot_without_rotation)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--snapshot", "1M", "--rotate-size", "1M"), -EINVAL);
	unit_first_line_is("sct-record: --snapshot writes only snapshots: it does not combine with "
		      "rotation\n");
	env_free(&env);
}

Test(unit_cli, args_max_needs_args)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--args-max", "64"), -EINVAL);
	unit_first_line_is("sct-record: --args-max needs --args\n");
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--args", "--args-max", "64"), 0);
	cr_assert(env.args);
	cr_assert_eq(env.args_max, 64);
	env_free(&env);
}

/* --args-data: 1 to 4096 bytes, with --args only; off (0) by default. */
Test(unit_cli, args_data_needs_args_and_a_size)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--args-data", "64"), -EINVAL);
	unit_first_line_is("sct-record: --args-data needs --args\n");
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--args", "--args-data", "4097"), -EINVAL);
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--args", "--args-data", "0"), -EINVAL);
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--args"), 0);
	cr_assert_eq(env.args_data, 0);
	env_free(&env);
	cr_assert_eq(PARSE(&env, "-a", "--args", "--args-data", "4096"), 0);
	cr_assert_eq(env.args_data, 4096);
	env_free(&env);
}

Test(unit_cli, keep_command_needs_command)
{
	struct env env;

	cr_assert_eq(PARSE(&env, "-a", "--keep-command"), -EINVAL);
	unit_first_line_is("sct-record: --keep-command applies to a command after --\n");
	env_free(&env);
}

Test(unit_cli, version_exits, .init = cr_redirect_stdout)
{
	char line[128] = "";
	struct env env;

	cr_assert_eq(PARSE(&env, "--version"), CLI_EXIT);
	fflush(stdout);
	cr_assert_not_null(fgets(line, sizeof(line), cr_get_redirected_stdout()));
	cr_assert_eq(strncmp(line, "sct-record " RECORD_VERSION " ", 12 + strlen(RECORD_VERSION)), 0,
		     "%s", line);
	env_free(&env);
}
