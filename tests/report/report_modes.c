// SPDX-License-Identifier: BSD-2-Clause
/* sct-report --timeline and --tree: exact lines on traces of known content. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
}

TestSuite(report_modes, .init = utc, .fini = rt_cleanup);

Test(report_modes, timeline_lines_exact)
{
	const char *path = rt_path("tl.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	char *out;

	rt_cgroup(w, 0, 10, "/system.slice/x.service");
	rt_task(w, 0, 100, 100, 1, 10, 0, "cgwriter");
	rt_sc(w, 1493712000, 2000, 100, 100, 10, RT_NR_WRITE, 1);
	rt_sc(w, 1500000000, 1500, 100, 100, 10, RT_NR_OPEN, -2);
	/* entered before the write, written after it: the timeline puts it first */
	rt_sc(w, 1400000000, 200000000, 100, 100, 10, RT_NR_READ, 5);
	rt_fork(w, 2000000000, 100, 100, 101, 101, 0);
	rt_exec(w, 2100000000, 101, 101, "/bin/l s,\"x\"", "ls");
	rt_sc(w, 2150000000, 1000, 101, 101, 99, RT_NR_CLOSE, 0);
	rt_exit(w, 2200000000, 101, 101, 3, 0, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --timeline %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.000000 00:00:00.000000 task(cgwriter 100/100) ppid 1 cg=/system.slice/x.service", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "+1.400000 00:00:01.400000 read(cgwriter 100/100) = 5 <0.200000> cg=/system.slice/x.service");
	cr_assert_str_eq(rt_line(out, 2), "+1.493712 00:00:01.493712 write(cgwriter 100/100) = 1 <0.000002> cg=/system.slice/x.service");
	cr_assert_str_eq(rt_line(out, 3), "+1.500000 00:00:01.500000 open(cgwriter 100/100) = -2 ENOENT <0.000001> cg=/system.slice/x.service");
	cr_assert_str_eq(rt_line(out, 4), "+2.000000 00:00:02.000000 fork(cgwriter 100/100) = 101/101 process");
	cr_assert_str_eq(rt_line(out, 5), "+2.100000 00:00:02.100000 exec(ls 101/101) \"/bin/l s,\"x\"\"");
	cr_assert_str_eq(rt_line(out, 6), "+2.150000 00:00:02.150000 close(ls 101/101) = 0 <0.000001> cg=cgroup:99");
	cr_assert_str_eq(rt_line(out, 7), "+2.200000 00:00:02.200000 exit(ls 101/101) = 3 [process gone]");
	cr_assert_eq(strncmp(rt_line(out, 8), "-- session 0: host h1", 21), 0, "got\n%s", out);
	free(out);
	/* filters apply: lifecycle lines of other tasks and other syscalls go */
	cr_assert_eq(rt_run(&out, "%s --timeline --pid 101 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+2.000000 00:00:02.000000 fork(cgwriter 100/100) = 101/101 process", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "+2.200000 00:00:02.200000 exit(ls 101/101) = 3 [process gone]");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --timeline --failed %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+1.500000 00:00:01.500000 open(cgwriter 100/100) = -2 ENOENT <0.000001> cg=/system.slice/x.service");
	cr_assert_eq(strncmp(rt_line(out, 1), "-- session 0", 12), 0, "got\n%s", out);
	free(out);
}

Test(report_modes, timeline_merges_files_by_wall_clock)
{
	const char *a = rt_path("a.sct"), *b = rt_path("b.sct");
	struct sct_writer *w = rt_open(a, "ha", 0);
	char *out;

	rt_sc(w, 1000000, 1000, 1, 1, 0, RT_NR_WRITE, 1);
	rt_sc(w, 3000000, 1000, 1, 1, 0, RT_NR_WRITE, 1);
	rt_close(w);
	w = rt_open(b, "hb", 0);
	rt_sc(w, 2000000, 1000, 2, 2, 0, RT_NR_READ, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s %s", rt_report(), a, b), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.001000 00:00:00.001000 write(? 1/1) = 1 <0.000001> cg=cgroup:0 @ha", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "+0.002000 00:00:00.002000 read(? 2/2) = 1 <0.000001> cg=cgroup:0 @hb");
	cr_assert_str_eq(rt_line(out, 2), "+0.003000 00:00:00.003000 write(? 1/1) = 1 <0.000001> cg=cgroup:0 @ha");
	free(out);
}

/*
 * Records out of place as the recorder's per-CPU staging leaves them: groups of 64 written
 * newest first, one record in 500 written 5,000 places late, and pairs of calls of the same
 * instant. The timeline gives every line once, oldest first, and a pair in the order it was
 * written (the read before the write).
 */
Test(report_modes, timeline_orders_late_lines)
{
	const char *path = rt_path("late.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	const uint32_t n = 20000;
	uint64_t prev = 0;
	char *out;
	int lines = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t slot = i % 500 == 499 && i >= 5000 ? i - 5000 : 64 * (i / 64) + 63 - i % 64;

		rt_sc(w, 1000000 + 4000 * slot + (i % 500 == 499 && i >= 5000 ? 2000 : 0), 1000, 1, 1, 0,
		      RT_NR_READ, 1);
		if (i % 1000 == 0)
			rt_sc(w, 1000000 + 4000 * slot, 1000, 1, 1, 0, RT_NR_WRITE, 1);
	}
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	for (const char *l = out; *l == '+'; l = strchr(l, '\n') + 1, lines++) {
		uint64_t us = strtoull(l + 1, NULL, 10) * 1000000 + strtoull(strchr(l, '.') + 1, NULL, 10);

		cr_assert(us > prev || (us == prev && !strncmp(strchr(l, ' ') + 17, "write(", 6)),
			  "line %d out of order: %.80s", lines, l);
		prev = us;
	}
	cr_assert_eq(lines, n + n / 1000, "%d lines", lines);
	free(out);
}

Test(report_modes, tree_structure)
{
	const char *path = rt_path("tree.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	char *out;

	rt_task(w, 0, 100, 100, 1, 0, 0, "bash");
	rt_fork(w, 100000000, 100, 100, 101, 101, 0);
	rt_exec(w, 200000000, 101, 101, "/bin/ls", "ls");
	for (int i = 0; i < 3; i++)
		rt_sc(w, 300000000 + (uint64_t)i, 10, 101, 101, 0, RT_NR_WRITE, 1);
	rt_exit(w, 400000000, 101, 101, 0, 0, 1);
	rt_fork(w, 500000000, 100, 100, 100, 102, 1);
	rt_sc(w, 550000000, 10, 100, 102, 0, RT_NR_READ, 1);
	rt_sc(w, 560000000, 10, 100, 102, 0, RT_NR_READ, 1);
	rt_exit(w, 600000000, 100, 102, 0, 0, 0);
	rt_fork(w, 700000000, 100, 100, 103, 103, 0);
	rt_fork(w, 710000000, 103, 103, 104, 104, 0);
	rt_exit(w, 800000000, 103, 103, 0, 9, 1);
	rt_sc(w, 900000000, 10, 100, 100, 0, RT_NR_CLOSE, 0);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --tree %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session 0: host h1", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "100 bash +0.000000..alive at end, 3 syscalls, 1 thread");
	cr_assert_str_eq(rt_line(out, 2), "|   thread 102 bash +0.500000..+0.600000 (0.100000s) exit 0, 2 syscalls");
	cr_assert_str_eq(rt_line(out, 3), "|-- 101 ls exec \"/bin/ls\" +0.100000..+0.400000 (0.300000s) exit 0, 3 syscalls");
	cr_assert_str_eq(rt_line(out, 4), "`-- 103 bash +0.700000..+0.800000 (0.100000s) killed by SIGKILL, 0 syscalls");
	cr_assert_str_eq(rt_line(out, 5), "    `-- 104 bash +0.710000..alive at end, 0 syscalls");
	free(out);
	/* a filter keeps the matching task and the ancestors that place it */
	cr_assert_eq(rt_run(&out, "%s --tree --pid 104 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "100 bash +0.000000..alive at end, 0 syscalls, 1 thread", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "`-- 103 bash +0.700000..+0.800000 (0.100000s) killed by SIGKILL, 0 syscalls");
	cr_assert_str_eq(rt_line(out, 3), "    `-- 104 bash +0.710000..alive at end, 0 syscalls");
	free(out);
}

Test(report_modes, footer_counts_lost_warnings_unfinished)
{
	const char *path = rt_path("footer.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	struct sct_record r = { .type = SCT_REC_LOST };
	char *out;

	r.lost = (struct sct_lost){ .time_ns = RT_ANCHOR_CLOCK + 1000000, .end_ns = RT_ANCHOR_CLOCK + 3000000,
				    .count = 5, .cause = SCT_LOST_RINGBUF };
	rt_record(w, &r);
	r.lost.count = 2;
	r.lost.cause = SCT_LOST_INFLIGHT;
	rt_record(w, &r);
	r.type = SCT_REC_WARNING;
	r.warning = (struct sct_warning){ .time_ns = RT_ANCHOR_CLOCK + 2000000, .count = 3,
					  .kind = SCT_WARN_TARGETS_FULL,
					  .text = { (const uint8_t *)"targets map full", 16 } };
	rt_record(w, &r);
	rt_sc(w, 4000000, 1000, 1, 1, 0, RT_NR_WRITE, 1);
	r.type = SCT_REC_SYSCALL;
	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + 5000000, .duration_ns = 200000000,
					  .pid = 1, .tid = 1, .nr = RT_NR_READ, .unfinished = 1 };
	rt_record(w, &r);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	/* the unfinished read is not in the statistics */
	cr_assert_str_eq(rt_line(out, 2), "         1        0 100.00          0.000001  total of 1 group", "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- lost events: 7 (ring buffer full 5, no room in flight 2) in 2 records\n"),
			   "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- warnings: 1 (targets map full: 3 tasks not traced, enumeration failures: 0, other: 0)\n"
				       "   "), "got\n%s", out);
	cr_assert_not_null(strstr(out, ": count 3: targets map full\n"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- unfinished syscalls: 1 (not in latency statistics)\n"), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.001000 00:00:00.001000 lost 5 events (ring buffer full) over 0.002000s", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "+0.001000 00:00:00.001000 lost 2 events (no room in flight) over 0.002000s");
	cr_assert_str_eq(rt_line(out, 2), "+0.002000 00:00:00.002000 warning(targets map full) count 3: targets map full");
	cr_assert_str_eq(rt_line(out, 4), "+0.005000 00:00:00.005000 read(? 1/1) = ? <0.200000 unfinished> cg=cgroup:0");
	free(out);
}

/* Counts of one take the singular: in the footer, the histogram, the timeline. */
Test(report_modes, counts_of_one_are_singular)
{
	const char *path = rt_path("one.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	struct sct_record r = { .type = SCT_REC_LOST };
	char *out;

	r.lost = (struct sct_lost){ .time_ns = RT_ANCHOR_CLOCK + 1000000, .end_ns = RT_ANCHOR_CLOCK + 3000000,
				    .count = 1, .cause = SCT_LOST_RINGBUF };
	rt_record(w, &r);
	r.type = SCT_REC_WARNING;
	r.warning = (struct sct_warning){ .time_ns = RT_ANCHOR_CLOCK + 2000000, .count = 1,
					  .kind = SCT_WARN_TARGETS_FULL, .text = { (const uint8_t *)"full", 4 } };
	rt_record(w, &r);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "\n-- read 1 file, 2 records (syscall 0, "), "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- lost events: 1 (ring buffer full 1, no room in flight 0) in 1 record\n"),
			   "got\n%s", out);
	cr_assert_not_null(strstr(out, "\n-- warnings: 1 (targets map full: 1 task not traced, "), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.001000 00:00:00.001000 lost 1 event (ring buffer full) over 0.002000s",
			 "got\n%s", out);
	free(out);
	w = rt_open(path, "h1", 0);
	rt_sc(w, 1000, 1000, 1, 1, 0, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "\n-- read 1 file, 1 record (syscall 1, "), "got\n%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -H %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "write: 1 call", "got\n%s", out);
	free(out);
}
