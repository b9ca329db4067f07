// SPDX-License-Identifier: BSD-2-Clause
/*
 * Memory per session: a file of many small sessions (cat of N traces) costs the tools what
 * the output needs (a footer line per session), not per-session tables. Measured as the peak
 * RSS of each tool beside the peak RSS of a bare libsct read of the same file, so the reader's
 * own cost is not counted here.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_helpers.h"

#define NSESSIONS 6000
#define EXTRA_KB (12 * 1024) /* 2 KiB a session at most, reorder window and buffers included */

TestSuite(report_memory, .fini = rt_cleanup);

/* Runs argv with stdout and stderr to /dev/null; its peak RSS in KiB; the status in *status. */
static long peak_kb(char *const argv[], int *status)
{
	struct rusage ru;
	int st = 0;
	pid_t pid = fork();

	cr_assert_neq(pid, -1);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		/* under SAN=1: freed memory ASan holds back (quarantines) is not the tool's */
		setenv("ASAN_OPTIONS", "quarantine_size_mb=0:thread_local_quarantine_size_kb=0", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	cr_assert_eq(wait4(pid, &st, 0, &ru), pid);
	cr_assert(WIFEXITED(st), "%s died", argv[0]);
	*status = WEXITSTATUS(st);
	return ru.ru_maxrss;
}

Test(report_memory, many_sessions_cost_what_the_output_needs, .timeout = 120)
{
	const char *path = rt_path("sessions.sct");
	char *gen = (char *)rt_gen(), *report = (char *)rt_report(), *convert = (char *)rt_convert();
	char *file = (char *)path, *read_argv[] = { gen, "read", file, NULL };
	char *const runs[][6] = {
		{ report, file, NULL },
		{ report, "-T", file, NULL },
		{ report, "--tree", file, NULL },
		{ report, "-H", "--by", "cgroup,syscall", file, NULL },
		{ report, "--by", "comm,host", file, NULL },
		{ report, "-T", "--comm", "init", file, NULL },
		{ convert, "--to", "csv", file, NULL },
	};
	long base;
	char *out;
	int status;

	cr_assert_eq(rt_run(NULL, "%s sessions %s %d", rt_gen(), path, NSESSIONS), 0);
	base = peak_kb(read_argv, &status);
	cr_assert_eq(status, 0);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		long kb = peak_kb(runs[i], &status);

		cr_assert_eq(status, 0, "%s %s: status %d", runs[i][0], runs[i][1], status);
		cr_assert(kb - base < EXTRA_KB, "%s %s: %ld KiB beside the reader's %ld KiB", runs[i][0],
			  runs[i][1], kb - base, base);
	}
	/* and what they print is what one session each gives */
	cr_assert_eq(rt_run(&out, "%s --by cgroup,syscall %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "      6000        0 100.00 "), "got\n%.2000s", out);
	cr_assert_not_null(strstr(out, "  cgroup:0  write\n"), "got\n%.2000s", out);
	cr_assert_not_null(strstr(out, "total of 1 group\n"), "got\n%.2000s", out);
	cr_assert_not_null(strstr(out, "\n-- session 19: host h, file "), "no 20th session");
	cr_assert_not_null(strstr(out, "\n-- ... 5980 more sessions\n-- read "), "no count of the others");
	cr_assert_not_null(strstr(out, "-- read 1 file, 12000 records (syscall 6000, task 6000,"), "bad counts");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null | cut -d, -f2- | sort | uniq -c | sort -rn", rt_convert(), path), 0);
	cr_assert_str_eq(out, "   6000 h,2000,2026-01-01T00:00:00.000001000Z,5,1,1,0,1,0,1,,0,,,,,,,,,,,,,write,init,,\r\n"
			 "      1 host,time_ns,wall_time,duration_ns,pid,tid,cgroup_id,nr,abi,ret,errno,unfinished,arg0,arg1,arg2,"
			 "arg3,arg4,arg5,path_flags,path_ref,path,path2_flags,path2_ref,path2,name,comm,"
			 "cgroup_path,args\r\n");
	free(out);
}

/*
 * 50,000 sessions of a bare HEADER each: the footer lists 20 and counts the rest, so only the
 * modes that name every session (tree, task labels) keep a few dozen bytes for each. Each
 * mode is measured against itself on one such session, so that what the tool's own code and
 * tables cost (more under SAN=1) is not counted.
 */
Test(report_memory, bare_headers_cost_only_what_is_listed, .timeout = 120)
{
	const char *path = rt_path("headers.sct"), *one = rt_path("header.sct");
	char *report = (char *)rt_report(), *convert = (char *)rt_convert();
	char *file = (char *)path;
	/* sct-convert -j2 is two conversions that each keep every table (sct-convert(1), --jobs) */
	struct { long max_kb; char *argv[8]; } runs[] = {
		{ 1024, { report, file, NULL } },
		{ 1024, { report, "-T", file, NULL } },
		{ 1024, { report, "-H", file, NULL } },
		{ 1024, { report, "--by", "comm,host", file, NULL } },
		{ 1024, { convert, "-j1", "--to", "csv", file, NULL } },
		{ 2048, { convert, "-j2", "--to", "csv", file, NULL } },
		{ 1024, { convert, "-j1", "--to", "jsonl", "--records", "task", file, NULL } },
		{ 6144, { report, "--tree", file, NULL } },
		{ 6144, { report, "--by", "process", file, NULL } },
	};
	char *out;
	int status;

	cr_assert_eq(rt_run(NULL, "%s headers %s 50000", rt_gen(), path), 0);
	cr_assert_eq(rt_run(NULL, "%s headers %s 1", rt_gen(), one), 0);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char **argv = runs[i].argv;
		size_t last = 0;
		long kb, base;

		while (argv[last + 1])
			last++;
		argv[last] = (char *)one;
		base = peak_kb(argv, &status);
		argv[last] = file;
		kb = peak_kb(argv, &status);
		/* no record and no TRAILER anywhere: "input damaged: nothing could be read" */
		cr_assert_eq(status, 3, "%s %s: status %d", argv[0], argv[1], status);
		cr_assert(kb - base < runs[i].max_kb, "%s %s: %ld KiB beside its %ld KiB on one session",
			  argv[0], argv[1], kb - base, base);
	}
	rt_run(&out, "%s %s", rt_report(), path);
	cr_assert_not_null(strstr(out, "\n-- session 19: host , file "), "%s", out);
	cr_assert_not_null(strstr(out, "\n-- ... 49980 more sessions\n-- read 1 file, 0 records"), "%s", out);
	cr_assert_null(strstr(out, "-- session 20:"));
	free(out);
}
