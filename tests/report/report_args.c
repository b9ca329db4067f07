// SPDX-License-Identifier: BSD-2-Clause
/*
 * Syscall arguments as strace shows them (report/lib/args_text.c), and where they show: the timeline,
 * sct-convert's argument columns. The descriptions come from a trace's HEADER, as they would
 * from sct-record --args.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "args_text.h"
#include "outbuf.h"
#include "report_helpers.h"

TestSuite(report_args, .fini = rt_cleanup);

enum { NR_OPENAT = 257, NR_MMAP = 9, NR_CLONE = 56, NR_LSEEK = 8, NR_KILL = 62, NR_ACCESS = 21,
       NR_UNLINKAT = 263, NR_RENAME = RT_NR_RENAME, NR_RENAMEAT = RT_NR_RENAMEAT, NR_UNKNOWN = 400 };

#define ARG(n, k, f) { n, SCT_ARG_##k, f }
static const struct sct_syscall_args descs[] = {
	{ NR_LSEEK, 3, { ARG("fd", FD, ""), ARG("offset", INT, ""), ARG("whence", ENUM, "whence") } },
	{ NR_MMAP, 6, { ARG("addr", PTR, ""), ARG("len", SIZE, ""), ARG("prot", FLAGS, "mmap_prot"),
			ARG("flags", FLAGS, "mmap"), ARG("fd", FD, ""), ARG("off", INT, "") } },
	{ NR_ACCESS, 2, { ARG("filename", PATH, ""), ARG("mode", FLAGS, "access") } },
	{ NR_CLONE, 2, { ARG("clone_flags", FLAGS, "clone"), ARG("newsp", PTR, "") } },
	{ NR_KILL, 2, { ARG("pid", INT, ""), ARG("sig", ENUM, "signal") } },
	{ NR_OPENAT, 4, { ARG("dfd", DIRFD, ""), ARG("filename", PATH, ""), ARG("flags", FLAGS, "open"),
			  ARG("mode", MODE, "") } },
	{ NR_UNLINKAT, 3, { ARG("dfd", DIRFD, ""), ARG("pathname", PATH, ""), ARG("flag", FLAGS, "at") } },
	{ NR_RENAME, 2, { ARG("oldname", PATH, ""), ARG("newname", PATH, "") } },
	{ NR_RENAMEAT, 4, { ARG("olddfd", DIRFD, ""), ARG("oldname", PATH, ""), ARG("newdfd", DIRFD, ""),
			    ARG("newname", PATH, "") } },
};

/* A trace with the descriptions above and one call, read back for its session. */
struct args_session {
	struct sct_reader *r;
	const struct sct_session *s;
};

static void session_open(struct args_session *as)
{
	const char *path = rt_path("args.sct");
	struct sct_record rec;
	int err = 0;

	rt_close(rt_open_args(path, "h", descs, sizeof(descs) / sizeof(descs[0])));
	as->r = sct_reader_open(path, &err);
	cr_assert(as->r);
	cr_assert_eq(sct_reader_next(as->r, &rec), 1);
	as->s = sct_reader_session(as->r);
	cr_assert(as->s && sct_session_has_args(as->s));
}

/* Strings in place: Criterion hands a parameter to a new process, where pointers mean nothing. */
struct args_case {
	uint32_t nr;
	uint64_t a[6];
	char path[32];
	uint32_t path_flags;
	char want[96];
};

ParameterizedTestParameters(report_args, rendered_as_strace_does)
{
	static struct args_case cases[] = {
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x7ffc00, O_RDONLY | O_CLOEXEC, 0 }, "/etc/x",
		  SCT_PATH_CAPTURED, "AT_FDCWD, \"/etc/x\", O_RDONLY|O_CLOEXEC" },
		{ NR_OPENAT, { 3, 0x10, O_WRONLY | O_CREAT | O_TRUNC, 0640 }, "a \"q\"\\\n\xc3\xa9",
		  SCT_PATH_CAPTURED, "3, \"a \\\"q\\\"\\\\\\x0a\\xc3\\xa9\", O_WRONLY|O_CREAT|O_TRUNC, 0640" },
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x10, O_RDWR | 0x40000000, 0 }, "/long",
		  SCT_PATH_CAPTURED | SCT_PATH_CUT, "AT_FDCWD, \"/long\"..., O_RDWR|0x40000000" },
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x1, O_RDONLY, 0 }, "", SCT_PATH_FAULT,
		  "AT_FDCWD, 0x1, O_RDONLY" },
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x7f00, O_RDONLY, 0 }, "", SCT_PATH_NOT_READ,
		  "AT_FDCWD, 0x7f00, O_RDONLY" },
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x7f00, O_RDONLY, 0 }, "", SCT_PATH_CAPTURED,
		  "AT_FDCWD, \"\", O_RDONLY" },
		{ NR_MMAP, { 0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 },
		  "", 0, "NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0" },
		{ NR_MMAP, { 0x7f0000, 4096, PROT_NONE, MAP_SHARED | MAP_FIXED, 3, 4096 }, "", 0,
		  "0x7f0000, 4096, PROT_NONE, MAP_SHARED|MAP_FIXED, 3, 0x1000" },
		{ NR_ACCESS, { 0x10, R_OK | W_OK }, "/p", SCT_PATH_CAPTURED, "\"/p\", R_OK|W_OK" },
		{ NR_ACCESS, { 0x10, F_OK }, "/p", SCT_PATH_CAPTURED, "\"/p\", F_OK" },
		{ NR_CLONE, { CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, 0 }, "", 0,
		  "CLONE_VM|CLONE_FS|CLONE_FILES|SIGCHLD, NULL" },
		{ NR_LSEEK, { 4, (uint64_t)-8, SEEK_END }, "", 0, "4, -8, SEEK_END" },
		{ NR_LSEEK, { 4, 0, 9 }, "", 0, "4, 0, 0x9 /* SEEK_??? */" },
		{ NR_KILL, { 1234, SIGTERM }, "", 0, "1234, SIGTERM" },
		{ NR_UNLINKAT, { 5, 0x10, AT_REMOVEDIR }, "d", SCT_PATH_CAPTURED, "5, \"d\", AT_REMOVEDIR" },
		{ NR_UNKNOWN, { 1, 2, 3, 4, 5, 0xffffffffffffffffull }, "", 0,
		  "0x1, 0x2, 0x3, 0x4, 0x5, 0xffffffffffffffff" },
		/* the mode of an open that creates: O_CREAT, or O_TMPFILE (which holds O_DIRECTORY) */
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x10, O_RDWR | O_TMPFILE, 0600 }, "/tmp", SCT_PATH_CAPTURED,
		  "AT_FDCWD, \"/tmp\", O_RDWR|O_TMPFILE, 0600" },
		{ NR_OPENAT, { (uint32_t)AT_FDCWD, 0x10, O_RDONLY | O_DIRECTORY, 0600 }, "/tmp",
		  SCT_PATH_CAPTURED, "AT_FDCWD, \"/tmp\", O_RDONLY|O_DIRECTORY" },
	};

	return cr_make_param_array(struct args_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct args_case *c, report_args, rendered_as_strace_does)
{
	struct sct_syscall sc = { .nr = c->nr, .arg0 = c->a[0], .arg1 = c->a[1], .arg2 = c->a[2],
				  .arg3 = c->a[3], .arg4 = c->a[4], .arg5 = c->a[5],
				  .path_flags = c->path_flags };
	struct out o = { .cap = 4096, .fd = -1 };
	struct args_session as;

	session_open(&as);
	sc.path = (struct sct_bytes){ (const uint8_t *)c->path, (uint32_t)strlen(c->path) };
	o.buf = malloc(o.cap);
	cr_assert(o.buf);
	args_out(&o, as.s, &sc, false);
	cr_assert_eq(o.len, strlen(c->want), "got '%.*s'", (int)o.len, o.buf);
	cr_assert(!memcmp(o.buf, c->want, o.len), "got '%.*s', want '%s'", (int)o.len, o.buf, c->want);
	free(o.buf);
	sct_reader_close(as.r);
}

/* A call with two path arguments: the first from path, the second from path2 (format 1.4). */
struct two_paths_case {
	uint32_t nr;
	uint64_t a[6];
	char path[32];
	uint32_t path_flags;
	char path2[32];
	uint32_t path2_flags;
	char want[96];
};

#define AT_CWD ((uint32_t)AT_FDCWD)
#define CAPTURED SCT_PATH_CAPTURED

ParameterizedTestParameters(report_args, second_path_rendered_as_the_first)
{
	static struct two_paths_case cases[] = {
		{ NR_RENAMEAT, { AT_CWD, 0x10, AT_CWD, 0x20 }, "/a", CAPTURED, "/b", CAPTURED,
		  "AT_FDCWD, \"/a\", AT_FDCWD, \"/b\"" },
		{ NR_RENAME, { 0x10, 0x20 }, "/x y", CAPTURED, "n \"q\"\\\n\xc3\xa9", CAPTURED,
		  "\"/x y\", \"n \\\"q\\\"\\\\\\x0a\\xc3\\xa9\"" },
		/* cut, unreadable, not read: the second as the first would be */
		{ NR_RENAMEAT, { 3, 0x10, 4, 0x20 }, "a", CAPTURED, "/very/lo", CAPTURED | SCT_PATH_CUT,
		  "3, \"a\", 4, \"/very/lo\"..." },
		{ NR_RENAME, { 0x10, 0x20 }, "/lo", CAPTURED | SCT_PATH_CUT, "/b", CAPTURED, "\"/lo\"..., \"/b\"" },
		{ NR_RENAMEAT, { AT_CWD, 0x10, AT_CWD, 0x1 }, "/a", CAPTURED, "", SCT_PATH_FAULT,
		  "AT_FDCWD, \"/a\", AT_FDCWD, 0x1" },
		{ NR_RENAME, { 0x10, 0x7f00 }, "", SCT_PATH_NOT_READ, "", SCT_PATH_NOT_READ, "0x10, 0x7f00" },
		{ NR_RENAME, { 0x1, 0x20 }, "", SCT_PATH_FAULT, "/b", CAPTURED, "0x1, \"/b\"" },
		{ NR_RENAME, { 0x10, 0x20 }, "/a", CAPTURED, "/late", CAPTURED | SCT_PATH_LATE, "\"/a\", \"/late\"" },
		{ NR_RENAME, { 0x10, 0x20 }, "/a", CAPTURED, "", CAPTURED, "\"/a\", \"\"" },
		/* a 1.3 trace has no second path (flags 0): its pointer, as 1.3 readers showed it */
		{ NR_RENAMEAT, { AT_CWD, 0x10, AT_CWD, 0x7ffc20 }, "/a", CAPTURED, "", 0,
		  "AT_FDCWD, \"/a\", AT_FDCWD, 0x7ffc20" },
		/* a call with one path argument ignores path2 */
		{ NR_UNLINKAT, { 5, 0x10, 0 }, "d", CAPTURED, "/stray", CAPTURED, "5, \"d\", 0" },
	};

	return cr_make_param_array(struct two_paths_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct two_paths_case *c, report_args, second_path_rendered_as_the_first)
{
	struct sct_syscall sc = { .nr = c->nr, .arg0 = c->a[0], .arg1 = c->a[1], .arg2 = c->a[2],
				  .arg3 = c->a[3], .arg4 = c->a[4], .arg5 = c->a[5],
				  .path_flags = c->path_flags, .path2_flags = c->path2_flags };
	struct out o = { .cap = 4096, .fd = -1 };
	struct args_session as;

	session_open(&as);
	sc.path = (struct sct_bytes){ (const uint8_t *)c->path, (uint32_t)strlen(c->path) };
	sc.path2 = (struct sct_bytes){ (const uint8_t *)c->path2, (uint32_t)strlen(c->path2) };
	o.buf = malloc(o.cap);
	cr_assert(o.buf);
	args_out(&o, as.s, &sc, false);
	cr_assert_eq(o.len, strlen(c->want), "got '%.*s', want '%s'", (int)o.len, o.buf, c->want);
	cr_assert(!memcmp(o.buf, c->want, o.len), "got '%.*s', want '%s'", (int)o.len, o.buf, c->want);
	free(o.buf);
	sct_reader_close(as.r);
}

/* An unfinished call shows its arguments; one recorded without them (six zeros, no flags), "...". */
Test(report_args, unfinished_call_shows_its_arguments)
{
	struct sct_syscall with = { .nr = NR_OPENAT, .arg0 = (uint32_t)AT_FDCWD, .arg1 = 0x10,
				    .arg2 = O_RDONLY, .path_flags = SCT_PATH_CAPTURED, .unfinished = 1,
				    .path = { (const uint8_t *)"/f", 2 } };
	struct sct_syscall without = { .nr = NR_OPENAT, .unfinished = 1 };
	struct out o = { .cap = 4096, .fd = -1 };
	struct args_session as;

	session_open(&as);
	o.buf = malloc(o.cap);
	cr_assert(o.buf);
	args_out(&o, as.s, &with, false);
	cr_assert_eq(o.len, strlen("AT_FDCWD, \"/f\", O_RDONLY"), "got '%.*s'", (int)o.len, o.buf);
	cr_assert(!memcmp(o.buf, "AT_FDCWD, \"/f\", O_RDONLY", o.len));
	o.len = 0;
	args_out(&o, as.s, &without, false);
	cr_assert_eq(o.len, 3, "got '%.*s'", (int)o.len, o.buf);
	cr_assert(!memcmp(o.buf, "...", 3));
	free(o.buf);
	sct_reader_close(as.r);
}

/* The timeline of spec/examples/args.sct: calls as strace shows them, then who made them. */
Test(report_args, timeline_shows_calls_with_their_arguments)
{
	const char *path = "spec/examples/args.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "TZ=UTC %s -T %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.000000 10:00:00.000000 openat(AT_FDCWD, \"/etc/ld.so.cache\", "
			 "O_RDONLY|O_CLOEXEC) = 3 <0.000000> (? 300/300) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 1), "+0.000001 10:00:00.000001 read(3</etc/ld.so.cache>, 0x7ffc3b00, 832) "
			 "= 832 <0.000000> (? 300/300) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 3), "+0.000003 10:00:00.000003 openat(AT_FDCWD, \"/usr/share/a very long "
			 "name\"..., O_RDONLY|O_CLOEXEC) = -2 ENOENT <0.000000> (? 300/300) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 5), "+0.000005 10:00:00.000005 openat(AT_FDCWD, 0x7ffc4d98, "
			 "O_RDONLY|O_CLOEXEC) = -14 EFAULT <0.000000> (? 300/300) cg=cgroup:4242");
	free(out);
}

/*
 * sct-convert: raw values, the resolved paths and the rendered text, in CSV and JSON Lines. A
 * 1.3 trace (the frozen example) has no second path: those columns are empty (null).
 */
Test(report_args, convert_has_the_argument_columns)
{
	const char *path = "spec/examples/args.sct", *path13 = "spec/examples/args_1_3.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session,host,time_ns,wall_time,duration_ns,pid,tid,cgroup_id,nr,abi,ret,"
			 "errno,unfinished,arg0,arg1,arg2,arg3,arg4,arg5,path_flags,path_ref,path,path2_flags,"
			 "path2_ref,path2,name,comm,cgroup_path,args\r");
	cr_assert_str_eq(rt_line(out, 3), "0,example-host,1000000002000,2025-11-29T10:00:00.000002000Z,900,300,300,"
			 "4242,257,0,-2,ENOENT,0,4294967196,2147238368,524288,0,0,0,1,1,/etc/ld.so.cache,0,0,,openat,,,"
			 "\"AT_FDCWD, \"\"/etc/ld.so.cache\"\", O_RDONLY|O_CLOEXEC\"\r");
	/* a rename repeated: both paths by reference, each to its own column's table */
	cr_assert_str_eq(rt_line(out, 10), "0,example-host,1000000009000,2025-11-29T10:00:00.000009000Z,900,300,300,"
			 "4242,264,0,-2,ENOENT,0,"
			 "4294967196,2147245368,4294967196,2147245896,0,0,1,4,/etc/ld.so.cache~,1,1,"
			 "/etc/ld.so.cache,renameat,,,\"AT_FDCWD, \"\"/etc/ld.so.cache~\"\", AT_FDCWD, "
			 "\"\"/etc/ld.so.cache\"\"\"\r");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 8), "\"path_flags\":1,\"path_ref\":3,"
				  "\"path\":\"/tmp/fresh p\xc3\xa4ge\",\"path2_flags\":5,\"path2_ref\":0,"
				  "\"path2\":\"/home/user/documents/report\",\"name\":\"renameat\""), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 8), "\"args\":\"AT_FDCWD, \\\"/tmp/fresh p\\\\xc3\\\\xa4ge\\\", "
				  "AT_FDCWD, \\\"/home/user/documents/report\\\"...\"}"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path13), 0);
	cr_assert_str_eq(rt_line(out, 3), "0,example-host,1000000002000,2025-11-29T10:00:00.000002000Z,900,300,300,"
			 "4242,257,0,-2,ENOENT,0,4294967196,2147238368,524288,0,0,0,1,1,/etc/ld.so.cache,,,,openat,,,"
			 "\"AT_FDCWD, \"\"/etc/ld.so.cache\"\", O_RDONLY|O_CLOEXEC\"\r");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path13), 0);
	cr_assert_not_null(strstr(rt_line(out, 4), "\"path_flags\":3,\"path_ref\":0,"
				  "\"path\":\"/tmp/fresh p\xc3\xa4ge\",\"path2_flags\":null,\"path2_ref\":null,"
				  "\"path2\":null,\"name\":\"openat\""), "%s", out);
	free(out);
}

/* --by path: the calls whose path was captured, one group per path; --path filters by prefix. */
Test(report_args, by_path_and_path_prefix)
{
	const char *path = "spec/examples/args.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "%s --by path --sort name %s 2>/dev/null", rt_report(), path), 0);
	/* the i386 open's path, captured by its compat description */
	cr_assert_not_null(strstr(rt_line(out, 1), "  /etc/hosts"), "%s", out);
	cr_assert(!strncmp(rt_line(out, 1), "         1        0 ", 20), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "  /etc/ld.so.cache"), "%s", out);
	cr_assert(!strncmp(rt_line(out, 2), "         3        2 ", 20), "%s", out);
	/* renames group by their first path */
	cr_assert_not_null(strstr(rt_line(out, 3), "  /etc/ld.so.cache~"), "%s", out);
	cr_assert(!strncmp(rt_line(out, 3), "         2        1 ", 20), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 4), "  /tmp/fresh p\\xc3\\xa4ge"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 5), "  /usr/share/a very long name"), "%s", out);
	cr_assert(!strncmp(rt_line(out, 6), "         9        4 100.00 ", 27), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --timeline --path /etc/ --path /tmp %s 2>/dev/null | grep -c openat",
			    rt_report(), path), 0);
	cr_assert_str_eq(out, "4\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by syscall --path /usr %s 2>/dev/null", rt_report(), path), 0);
	cr_assert(!strncmp(rt_line(out, 1), "         1        1 ", 20), "%s", out);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --path '' %s 2>/dev/null", rt_report(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --by event,path %s 2>/dev/null", rt_report(), path), 2);
}

static void call(struct sct_writer *w, uint64_t rel_ns, uint32_t nr, int64_t ret, uint64_t arg0,
		 const char *path)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = 10,
					  .ret = ret, .pid = 7, .tid = 7, .nr = nr, .arg0 = arg0 };
	if (path) {
		r.syscall.path = (struct sct_bytes){ (const uint8_t *)path, (uint32_t)strlen(path) };
		r.syscall.path_flags = SCT_PATH_CAPTURED;
	}
	rt_record(w, &r);
}

/*
 * fds shown with the file they were opened on, within the process, in time order whatever
 * the order of the records in the file (a read written before the open that gave its fd).
 */
Test(report_args, timeline_follows_fds_to_their_files)
{
	static const struct sct_syscall_args fd_descs[] = {
		{ RT_NR_READ, 1, { ARG("fd", FD, "") } },
		{ RT_NR_CLOSE, 1, { ARG("fd", FD, "") } },
		{ RT_NR_OPENAT, 2, { ARG("dfd", DIRFD, ""), ARG("filename", PATH, "") } },
	};
	const char *path = rt_path("fds.sct");
	struct sct_writer *w = rt_open_args(path, "h", fd_descs, 3);
	char *out;

	call(w, 200, RT_NR_READ, 5, 3, NULL);
	call(w, 100, RT_NR_OPENAT, 3, (uint32_t)AT_FDCWD, "/etc/hosts");
	call(w, 300, RT_NR_CLOSE, 0, 3, NULL);
	call(w, 400, RT_NR_READ, -9, 3, NULL);
	call(w, 500, RT_NR_OPENAT, 3, 4, "rel");
	call(w, 600, RT_NR_READ, 0, 3, NULL);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "openat(AT_FDCWD, \"/etc/hosts\") = 3 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 1), "read(3</etc/hosts>) = 5 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 2), "close(3</etc/hosts>) = 0 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 3), "read(3) = -9 EBADF <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 4), "openat(4, \"rel\") = 3 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 5), "read(3<rel>) = 0 <0.000000> (? 7/7) cg=cgroup:0");
	free(out);
}

static void call2(struct sct_writer *w, uint64_t rel_ns, uint32_t nr, int64_t ret, const uint64_t a[4],
		  const char *path, uint32_t path_flags, const char *path2, uint32_t path2_flags)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = 10,
					  .ret = ret, .pid = 7, .tid = 7, .nr = nr, .arg0 = a[0],
					  .arg1 = a[1], .arg2 = a[2], .arg3 = a[3], .path_flags = path_flags,
					  .path = { (const uint8_t *)path, (uint32_t)strlen(path) },
					  .path2_flags = path2_flags,
					  .path2 = { (const uint8_t *)path2, (uint32_t)strlen(path2) } };
	rt_record(w, &r);
}

/*
 * A trace of calls with two paths, written by libsct (format 1.4): both renameat calls of one
 * block store "/var/b" once in path2's table, and openat's "/var/b" again in path's.
 */
static const char *two_paths_trace(void)
{
	const char *path = rt_path("two.sct");
	struct sct_writer *w = rt_open_args(path, "h", descs, sizeof(descs) / sizeof(descs[0]));

	call2(w, 1000, NR_RENAMEAT, 0, (const uint64_t[4]){ AT_CWD, 0x10, AT_CWD, 0x20 }, "/etc/a", CAPTURED,
	      "/var/b", CAPTURED);
	call2(w, 2000, NR_RENAMEAT, -2, (const uint64_t[4]){ AT_CWD, 0x30, AT_CWD, 0x20 }, "/etc/c", CAPTURED,
	      "/var/b", CAPTURED);
	call2(w, 3000, NR_RENAMEAT, 0, (const uint64_t[4]){ AT_CWD, 0x10, AT_CWD, 0x20 }, "/tmp/x", CAPTURED,
	      "/tmp/lo", CAPTURED | SCT_PATH_CUT);
	call2(w, 4000, NR_RENAME, -14, (const uint64_t[4]){ 0x10, 0x1 }, "/home/u", CAPTURED, "", SCT_PATH_FAULT);
	call2(w, 5000, NR_OPENAT, 3, (const uint64_t[4]){ AT_CWD, 0x40, O_RDONLY }, "/var/b", CAPTURED, "", 0);
	rt_close(w);
	return path;
}

Test(report_args, timeline_shows_both_paths)
{
	const char *path = two_paths_trace();
	char *out;

	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "renameat(AT_FDCWD, \"/etc/a\", AT_FDCWD, \"/var/b\") = 0 <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 1), "renameat(AT_FDCWD, \"/etc/c\", AT_FDCWD, \"/var/b\") = -2 ENOENT "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 2), "renameat(AT_FDCWD, \"/tmp/x\", AT_FDCWD, \"/tmp/lo\"...) = 0 "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 3), "rename(\"/home/u\", 0x1) = -14 EFAULT <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 4), "openat(AT_FDCWD, \"/var/b\", O_RDONLY) = 3 <0.000000> (? 7/7) "
			 "cg=cgroup:0");
	free(out);
}

/*
 * A compat call reads by the HEADER's compat table (format 1.4), whose numbers are not the
 * native ones (ia32 open is 5, native fstat); one it does not describe shows raw values.
 */
Test(report_args, compat_calls_render_by_the_compat_table)
{
	static const struct sct_syscall_args compat[] = {
		{ 5, 3, { ARG("filename", PATH, ""), ARG("flags", FLAGS, "open"), ARG("mode", MODE, "") } },
	};
	const char *path = rt_path("compat.sct");
	struct sct_writer *w = rt_open_args_compat(path, "h", descs, sizeof(descs) / sizeof(descs[0]), compat, 1);
	struct sct_record r = { .type = SCT_REC_SYSCALL };
	char *out;

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + 1000, .duration_ns = 10, .ret = 3,
					  .pid = 7, .tid = 7, .nr = 5, .abi = SCT_ABI_COMPAT, .arg0 = 0x4000,
					  .arg1 = O_WRONLY | O_CREAT, .arg2 = 0640,
					  .path = { (const uint8_t *)"/c/one", 6 }, .path_flags = CAPTURED };
	rt_record(w, &r);
	r.syscall.time_ns += 1000;
	r.syscall.nr = 38;
	r.syscall.arg1 = 0x5000;
	r.syscall.path_flags = 0;
	r.syscall.path = (struct sct_bytes){ (const uint8_t *)"", 0 };
	rt_record(w, &r);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "compat:open(\"/c/one\", O_WRONLY|O_CREAT, 0640) = 3 <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 1), "compat:rename(0x4000, 0x5000, 0x1a0, 0, 0, 0) = 3 <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	free(out);
}

/* --path keeps a call when either of its paths matches; --by path groups by the first only. */
Test(report_args, path_prefix_matches_the_second_path)
{
	static const struct { const char *prefix; const char *want; } cases[] = {
		{ "/var/", "1\n2\n5\n" },  /* renameat's targets, openat's path */
		{ "/etc/a", "1\n" },         /* a source */
		{ "/tmp/lo", "3\n" },        /* a cut target: its captured bytes */
		{ "/tmp/long", "" },         /* longer than what was captured */
		{ "/home", "4\n" },          /* the source of a call whose target is unreadable */
		{ "/nowhere", "" },
	};
	const char *path = two_paths_trace();
	char *out;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* a call is known by its wall-clock microsecond */
		cr_assert_eq(rt_run(&out, "TZ=UTC %s -T --path %s %s 2>/dev/null | grep '^+' | cut -d' ' -f2 | "
				    "cut -c15", rt_report(), cases[i].prefix, path), 0);
		cr_assert_str_eq(out, cases[i].want, "--path %s", cases[i].prefix);
		free(out);
	}
	cr_assert_eq(rt_run(&out, "%s --by path --sort name %s 2>/dev/null | grep -o '  /.*'", rt_report(), path), 0);
	cr_assert_str_eq(out, "  /etc/a\n  /etc/c\n  /home/u\n  /tmp/x\n  /var/b\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by path --path /tmp/lo %s 2>/dev/null | grep -o '  /.*'", rt_report(), path), 0);
	cr_assert_str_eq(out, "  /tmp/x\n");
	free(out);
}

/* sct-convert: path2_flags, path2_ref and path2 after the first path's columns, exactly. */
Test(report_args, convert_has_the_second_path_columns)
{
	const char *path = two_paths_trace();
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null | cut -d, -f13-", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "unfinished,arg0,arg1,arg2,arg3,arg4,arg5,path_flags,path_ref,path,"
			 "path2_flags,path2_ref,path2,name,comm,cgroup_path,args\r");
	cr_assert_str_eq(rt_line(out, 1), "0,4294967196,16,4294967196,32,0,0,1,0,/etc/a,1,0,/var/b,renameat,,,"
			 "\"AT_FDCWD, \"\"/etc/a\"\", AT_FDCWD, \"\"/var/b\"\"\"\r");
	cr_assert_str_eq(rt_line(out, 2), "0,4294967196,48,4294967196,32,0,0,1,0,/etc/c,1,1,/var/b,renameat,,,"
			 "\"AT_FDCWD, \"\"/etc/c\"\", AT_FDCWD, \"\"/var/b\"\"\"\r");
	cr_assert_str_eq(rt_line(out, 3), "0,4294967196,16,4294967196,32,0,0,1,0,/tmp/x,5,0,/tmp/lo,renameat,,,"
			 "\"AT_FDCWD, \"\"/tmp/x\"\", AT_FDCWD, \"\"/tmp/lo\"\"...\"\r");
	cr_assert_str_eq(rt_line(out, 4), "0,16,1,0,0,0,0,1,0,/home/u,8,0,,rename,,,\"\"\"/home/u\"\", 0x1\"\r");
	cr_assert_str_eq(rt_line(out, 5), "0,4294967196,64,0,0,0,0,1,0,/var/b,0,0,,openat,,,"
			 "\"AT_FDCWD, \"\"/var/b\"\", O_RDONLY\"\r");
	cr_assert_str_eq(rt_line(out, 6), "");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "\"path_flags\":1,\"path_ref\":0,\"path\":\"/etc/c\","
				  "\"path2_flags\":1,\"path2_ref\":1,\"path2\":\"/var/b\",\"name\":\"renameat\""),
			   "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 1), "\"args\":\"AT_FDCWD, \\\"/etc/c\\\", AT_FDCWD, "
				  "\\\"/var/b\\\"\"}"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "\"path2_flags\":8,\"path2_ref\":0,\"path2\":\"\","), "%s", out);
	free(out);
}
