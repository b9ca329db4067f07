// SPDX-License-Identifier: BSD-2-Clause
/*
 * The names of a recording's files (record/output/output.c output_name()): rotation's numbered
 * files and the flight recorder's snapshots, from -o.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <string.h>

#include "record.h"

/* Arrays, not pointers: each test runs in a new process of its own, its addresses its own. */
struct name_case {
	char output[32];
	bool snapshot;
	uint64_t seq;
	char want[48];
};

ParameterizedTestParameters(unit_output_name, names)
{
	static struct name_case cases[] = {
		{ "rec.sct", false, 1, "rec.000001.sct" },
		{ "rec.sct", false, 2, "rec.000002.sct" },
		{ "rec.sct", true, 2, "rec.snapshot-000002.sct" },
		{ "rec.sct", false, 1234567, "rec.1234567.sct" },
		/* no extension: the number goes last */
		{ "rec", false, 3, "rec.000003" },
		/* a dot in a folder name is no extension */
		{ "/var/log.d/rec", false, 4, "/var/log.d/rec.000004" },
		{ "/var/log.d/rec.trace", true, 5, "/var/log.d/rec.snapshot-000005.trace" },
		/* a leading dot is part of the name */
		{ "dir/.hidden", false, 6, "dir/.hidden.000006" },
		/* the last dot: one extension */
		{ "a.b.sct", false, 7, "a.b.000007.sct" },
	};

	return cr_make_param_array(struct name_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct name_case *c, unit_output_name, names)
{
	struct env env = { .output = c->output };
	char buf[256];

	cr_assert_eq(output_name(&env, c->snapshot, c->seq, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, c->want);
}

Test(unit_output_name, too_long)
{
	struct env env = { .output = "rec.sct" };
	char buf[14];

	/* "rec.000001.sct" is 14 bytes and its NUL */
	cr_assert_eq(output_name(&env, false, 1, buf, sizeof(buf)), -ENAMETOOLONG);
}

Test(unit_output_name, fits_exactly)
{
	struct env env = { .output = "rec.sct" };
	char buf[15];

	cr_assert_eq(output_name(&env, false, 1, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "rec.000001.sct");
}

Test(unit_output_name, streams)
{
	cr_assert(output_is_stream_path("-"));
	cr_assert(output_is_stream_path("/dev/null"));
	cr_assert_not(output_is_stream_path("/nonexistent-dir-of-sct/rec.sct"));
}
