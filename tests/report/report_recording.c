// SPDX-License-Identifier: BSD-2-Clause
/*
 * The files of one recording (format 1.2: the HEADER's recording id and sequence number)
 * read as one session, in any order; a missing or repeated sequence number named in the
 * footer; snapshots and other recordings kept apart.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

#define ID_A "0123456789abcdef0123456789abcdef"
#define ID_B "fedcba9876543210fedcba9876543210"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
}

TestSuite(report_recording, .init = utc, .fini = rt_cleanup);

/*
 * File seq of recording id: the TASK record of 100 (every file starts with the live tasks)
 * and `writes` writes of 100, the k-th at seq seconds plus k microseconds.
 */
static const char *rec_file(const char *name, const char *id, uint64_t seq, bool snapshot, int writes)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open_recording(path, "h1", id, seq, snapshot);

	rt_cgroup(w, seq * 1000000000ull, 10, "/app");
	rt_task(w, seq * 1000000000ull, 100, 100, 1, 10, 0, "app");
	for (int k = 0; k < writes; k++)
		rt_sc(w, seq * 1000000000ull + (uint64_t)k * 1000, 500, 100, 100, 10, RT_NR_WRITE, 1);
	rt_close(w);
	return path;
}

Test(report_recording, files_of_one_recording_are_one_session)
{
	const char *f1 = rec_file("rec.000001.sct", ID_A, 1, false, 3);
	const char *f2 = rec_file("rec.000002.sct", ID_A, 2, false, 4);
	const char *f3 = rec_file("rec.000003.sct", ID_A, 3, false, 5);
	char *out;

	/* given in another order than the sequence: still one session */
	cr_assert_eq(rt_run(&out, "%s --by process %s %s %s", rt_report(), f2, f1, f3), 0);
	cr_assert_not_null(rt_find_line(out, "12        0"), "one group of 12 writes:\n%s", out);
	cr_assert_not_null(strstr(out, "app 100\n"), "the task, once:\n%s", out);
	cr_assert_not_null(strstr(out, "total of 1 group"), "%s", out);
	cr_assert_null(strstr(out, "session 1"), "%s", out);
	cr_assert_not_null(strstr(out, "-- recording " ID_A ": 3 files, sequence 1-3, read as session 0\n"), "%s",
			   out);
	cr_assert_null(strstr(out, "gap"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --tree %s %s %s", rt_report(), f1, f2, f3), 0);
	cr_assert_not_null(strstr(out, "app"), "%s", out);
	cr_assert_null(strstr(out, "session 1"), "one process, not three:\n%s", out);
	free(out);
}

Test(report_recording, a_missing_file_is_a_gap)
{
	const char *f1 = rec_file("rec.000001.sct", ID_A, 1, false, 1);
	const char *f2 = rec_file("rec.000002.sct", ID_A, 2, false, 1);
	const char *f5 = rec_file("rec.000005.sct", ID_A, 5, false, 1);
	const char *f7 = rec_file("rec.000007.sct", ID_A, 7, false, 1);
	char *out;

	cr_assert_eq(rt_run(&out, "%s %s %s %s %s %s", rt_report(), f1, f2, f5, f7, f5), 0);
	cr_assert_not_null(strstr(out, "-- recording " ID_A ": 5 files, sequence 1-7, read as session 0; "
				  "gap: sequence 3-4, 6 missing; read more than once: sequence 5\n"), "%s", out);
	free(out);
	/* older files deleted by --rotate-count are no gap: only holes between what was read */
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), f7), 0);
	cr_assert_not_null(strstr(out, "-- recording " ID_A ": 1 file, sequence 7-7, read as session 0\n"), "%s",
			   out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), f1), 0);
	cr_assert_null(strstr(out, "-- recording"), "a whole one-file recording needs no line:\n%s", out);
	free(out);
}

Test(report_recording, snapshots_and_other_recordings_stay_apart)
{
	const char *a1 = rec_file("a.000001.sct", ID_A, 1, false, 1);
	const char *b1 = rec_file("b.000001.sct", ID_B, 1, false, 1);
	const char *s1 = rec_file("a.snapshot-000001.sct", ID_A, 1, true, 1);
	const char *s2 = rec_file("a.snapshot-000002.sct", ID_A, 2, true, 1);
	char *out;

	cr_assert_eq(rt_run(&out, "%s %s %s %s %s", rt_report(), a1, b1, s1, s2), 0);
	for (int i = 0; i < 4; i++) {
		char want[32];

		snprintf(want, sizeof(want), "-- session %d: host h1", i);
		cr_assert_not_null(strstr(out, want), "%s missing:\n%s", want, out);
	}
	cr_assert_null(strstr(out, "-- recording"), "%s", out);
	free(out);
}

Test(report_recording, sct_convert_numbers_the_files_of_a_recording_as_one_session)
{
	const char *f1 = rec_file("rec.000001.sct", ID_A, 1, false, 1);
	const char *f2 = rec_file("rec.000002.sct", ID_A, 2, false, 1);
	const char *b1 = rec_file("b.000001.sct", ID_B, 1, false, 1);
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv %s %s %s", rt_convert(), f1, f2, b1), 0);
	cr_assert_eq(strncmp(rt_line(out, 1), "0,h1,", 5), 0, "%s", out);
	cr_assert_eq(strncmp(rt_line(out, 2), "0,h1,", 5), 0, "the second file is session 0 too:\n%s", out);
	cr_assert_eq(strncmp(rt_line(out, 3), "1,h1,", 5), 0, "another recording:\n%s", out);
	free(out);
}
