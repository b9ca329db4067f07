// SPDX-License-Identifier: BSD-2-Clause
/*
 * Call stacks (format 1.6) in sct-report and sct-convert: a trace of known stacks (symbols
 * with offsets, a module's address no symbol covers, a module-0 frame, an undefined module,
 * kernel frames, an undefined stack, a call without one) in two files whose ids differ for
 * one stack (two files of one rotated recording, or of two) gives exactly the expected
 * --stacks groups, timeline lines, folded lines and CSV/JSONL columns, read as two inputs,
 * concatenated or from a pipe; --debug-dir names the frames of a
 * stripped ELF from its unstripped copy; C++ names are demangled unless --no-demangle; a
 * hostile trace neither crashes nor misleads.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

#define KBASE 0xffffffff81000000ull
#define KENTRY 0xffffffff82000000ull
#define PID 100

static const uint8_t bid[] = { 0xab, 0xcd, 0xef };

static void stk_task(struct sct_writer *w)
{
	rt_task(w, 0, PID, PID, 1, 0, 0, "workload");
}

/* The modules and symbols of file 1 (module ids 1 and 2) or file 2 (5 and 6). */
static void stk_modules(struct sct_writer *w, uint32_t user, uint32_t kernel)
{
	rt_module(w, 1, user, SCT_MODULE_ELF, bid, sizeof(bid), "/usr/bin/workload");
	rt_module(w, 1, kernel, SCT_MODULE_KERNEL, NULL, 0, "[kernel.kallsyms]");
	rt_symbol(w, 1, user, 0x1000, 0x100, "main");
	rt_symbol(w, 1, user, 0x1200, 0x20, "b");
	rt_symbol(w, 1, kernel, KBASE, 0x200, "do_syscall_64");
	rt_symbol(w, 1, kernel, KENTRY, 0, "entry_SYSCALL_64");
}

/*
 * File 1: write x2 (one failed) under stack 1 (kernel and user frames, an uncovered address,
 * module 0, module 9 undefined), read under stack 2, a write without a stack, a read whose
 * stack 77 no STACK defines. File 2: a read under stack 3, the frames of stack 2 in modules
 * of other ids.
 */
#define STK_RECORDING "0123456789abcdef0123456789abcdef"

/* rotated: the two files of one recording (sequence 1 and 2), else two recordings. */
static void stk_files(const char *one, const char *two, bool rotated)
{
	const struct sct_frame s1[] = { { 2, KBASE + 0x10 }, { 2, KENTRY }, { 1, 0x1212 }, { 1, 0x1000 },
					{ 1, 0x5000 }, { 0, 0x7fff1234 }, { 9, 0x10 } };
	const struct sct_frame s2[] = { { 1, 0x1210 }, { 1, 0x1005 } };
	const struct sct_frame s3[] = { { 5, 0x1210 }, { 5, 0x1005 } };
	struct sct_writer *w = rt_open_stacks(one, "h", "both", rotated ? STK_RECORDING : NULL, 1);

	stk_task(w);
	stk_modules(w, 1, 2);
	rt_stack(w, 10, 1, PID, s1, 7);
	rt_sc_stack(w, 10, 1000, PID, PID, RT_NR_WRITE, 5, 1);
	rt_sc_stack(w, 20, 3000, PID, PID, RT_NR_WRITE, -9, 1);
	rt_stack(w, 30, 2, PID, s2, 2);
	rt_sc_stack(w, 30, 500, PID, PID, RT_NR_READ, 1, 2);
	rt_sc_stack(w, 40, 100, PID, PID, RT_NR_WRITE, 1, 0);
	rt_sc_stack(w, 50, 50, PID, PID, RT_NR_READ, 1, 77);
	rt_close(w);
	w = rt_open_stacks(two, "h", "both", rotated ? STK_RECORDING : NULL, 2);
	stk_task(w);
	stk_modules(w, 5, 6);
	rt_stack(w, 60, 3, PID, s3, 2);
	rt_sc_stack(w, 60, 700, PID, PID, RT_NR_READ, 1, 3);
	rt_close(w);
}

/* stack 1's frames as the tools write them */
#define STACK1 "    do_syscall_64+0x10 ([kernel.kallsyms])\n" \
	"    entry_SYSCALL_64 ([kernel.kallsyms])\n" \
	"    b+0x12 (workload)\n" \
	"    main (workload)\n" \
	"    [workload+0x5000] (workload)\n" \
	"    [0x7fff1234]\n" \
	"    [unknown]\n"

#define S1CSV "do_syscall_64+0x10 ([kernel.kallsyms]);entry_SYSCALL_64 ([kernel.kallsyms]);b+0x12 (workload);" \
	"main (workload);[workload+0x5000] (workload);[0x7fff1234];[unknown]"

static const char *const stacks_want =
	"     calls   errors          total(s)         p99(us)  syscall, stack innermost first\n"
	"         2        1          0.000004           3.000  write\n"
	STACK1
	"         2        0          0.000001           0.700  read\n"
	"    b+0x10 (workload)\n"
	"    main+0x5 (workload)\n"
	"         1        0          0.000000           0.100  write\n"
	"    no stack\n"
	"         1        0          0.000000           0.050  read\n"
	"    [unknown stack]\n"
	"         6        1          0.000005  total of 4 groups\n";

static char *stk_run(const char *fmt, const char *a, const char *b)
{
	char *out;
	int rc = rt_run(&out, fmt, a, b);

	if (rc)
		free(out); /* the assertion ends the test: its output is not freed after it */
	cr_assert_eq(rc, 0, "%s: exit %d", fmt, rc);
	return out;
}

Test(report_stacks, groups_by_syscall_and_stack_over_files_of_other_ids, .fini = rt_cleanup)
{
	const char *one = rt_path("one.sct"), *two = rt_path("two.sct"), *cat = rt_path("cat.sct");
	char cmd[2048];
	char *out;

	/* the two files of one rotated recording, then of two recordings */
	stk_files(one, two, true);
	snprintf(cmd, sizeof(cmd), "%s --stacks %%s %%s | sed -n '1,/total of/p'", rt_report());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, stacks_want);
	free(out);
	stk_files(one, two, false);
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, stacks_want);
	free(out);
	/* concatenated: the tables end at the second HEADER, and stack 3 is stack 2 again */
	snprintf(cmd, sizeof(cmd), "cat %%s %%s > %s && %s --stacks %s | sed -n '1,/total of/p'", cat, rt_report(),
		 cat);
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, stacks_want);
	free(out);
	/* --top, --sort and the filters as for the summary's groups */
	snprintf(cmd, sizeof(cmd), "%s --stacks --top 1 %%s %%s | sed -n '1,/total of/p'", rt_report());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "     calls   errors          total(s)         p99(us)  syscall, stack innermost first\n"
			 "         2        1          0.000004           3.000  write\n" STACK1
			 "         6        1          0.000005  total of 4 groups (top 1 shown)\n");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --stacks --sort calls -S read %%s %%s | sed -n '1,/total of/p' | grep -v '^    [^ ]'",
		 rt_report());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "     calls   errors          total(s)         p99(us)  syscall, stack innermost first\n"
			 "         2        0          0.000001           0.700  read\n"
			 "         1        0          0.000000           0.050  read\n"
			 "         3        0          0.000001  total of 2 groups\n");
	free(out);
}

Test(report_stacks, folded_lines_by_calls_and_by_time, .fini = rt_cleanup)
{
	const char *one = rt_path("one.sct"), *two = rt_path("two.sct");
	char cmd[1024];
	char *out;

	stk_files(one, two, false);
	snprintf(cmd, sizeof(cmd), "%s --to folded %%s %%s 2>/dev/null", rt_convert());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "workload;[unknown stack];read 1\n"
			 "workload;[unknown];[unknown];[workload];main;b;entry_SYSCALL_64_[k];do_syscall_64_[k];write 2\n"
			 "workload;main;b;read 2\n"
			 "workload;write 1\n");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --to folded --by time %%s %%s 2>/dev/null", rt_convert());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "workload;[unknown stack];read 50\n"
			 "workload;[unknown];[unknown];[workload];main;b;entry_SYSCALL_64_[k];do_syscall_64_[k];write 4000\n"
			 "workload;main;b;read 1200\n"
			 "workload;write 100\n");
	free(out);
}

/* The calls of stk_files() on the timeline, each with its frames. */
#define TIMELINE_WANT "+0.000000 00:00:00.000000 write(workload 100/100) = 5 <0.000001> cg=cgroup:0 @h\n" \
	STACK1 \
	"+0.000000 00:00:00.000000 write(workload 100/100) = -9 EBADF <0.000003> cg=cgroup:0 @h\n" \
	STACK1 \
	"+0.000000 00:00:00.000000 read(workload 100/100) = 1 <0.000000> cg=cgroup:0 @h\n" \
	"    b+0x10 (workload)\n" \
	"    main+0x5 (workload)\n" \
	"+0.000000 00:00:00.000000 write(workload 100/100) = 1 <0.000000> cg=cgroup:0 @h\n" \
	"+0.000000 00:00:00.000000 read(workload 100/100) = 1 <0.000000> cg=cgroup:0 @h\n" \
	"    [unknown stack]\n" \
	"+0.000000 00:00:00.000000 read(workload 100/100) = 1 <0.000000> cg=cgroup:0 @h\n" \
	"    b+0x10 (workload)\n" \
	"    main+0x5 (workload)\n"

Test(report_stacks, timeline_prints_frames_under_each_call, .fini = rt_cleanup)
{
	const char *one = rt_path("one.sct"), *two = rt_path("two.sct");
	char cmd[1024];
	char *out;

	stk_files(one, two, false);
	snprintf(cmd, sizeof(cmd), "%s -T %%s %%s | grep -v -e '^--' -e 'task('", rt_report());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, TIMELINE_WANT);
	free(out);
	/* the files of one rotated recording: read at once, each with tables of its own */
	stk_files(one, two, true);
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, TIMELINE_WANT);
	free(out);
	snprintf(cmd, sizeof(cmd), "%s -T --no-stacks %%s %%s | grep '^ ' | wc -l", rt_report());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "0\n");
	free(out);
}

Test(report_stacks, csv_and_jsonl_have_stack_columns, .fini = rt_cleanup)
{
	const char *one = rt_path("one.sct"), *two = rt_path("two.sct");
	char cmd[1024];
	char *out;

	stk_files(one, two, false);
	snprintf(cmd, sizeof(cmd), "%s --to csv %%s %%s 2>/dev/null | tr -d '\\r'", rt_convert());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out,
		"session,host,time_ns,wall_time,duration_ns,pid,tid,cgroup_id,nr,abi,ret,errno,unfinished,stack_id,"
		"arg0,arg1,arg2,arg3,arg4,arg5,path_flags,path_ref,path,path2_flags,path2_ref,path2,name,comm,"
		"cgroup_path,args,stack\n"
		"0,h,1000000000010,2026-01-01T00:00:00.000000010Z,1000,100,100,0,1,0,5,,0,1,,,,,,,,,,,,,write,workload,,,"
		S1CSV "\n"
		"0,h,1000000000020,2026-01-01T00:00:00.000000020Z,3000,100,100,0,1,0,-9,EBADF,0,1,,,,,,,,,,,,,write,"
		"workload,,," S1CSV "\n"
		"0,h,1000000000030,2026-01-01T00:00:00.000000030Z,500,100,100,0,0,0,1,,0,2,,,,,,,,,,,,,read,workload,,,"
		"b+0x10 (workload);main+0x5 (workload)\n"
		"0,h,1000000000040,2026-01-01T00:00:00.000000040Z,100,100,100,0,1,0,1,,0,0,,,,,,,,,,,,,write,workload,,,\n"
		"0,h,1000000000050,2026-01-01T00:00:00.000000050Z,50,100,100,0,0,0,1,,0,77,,,,,,,,,,,,,read,workload,,,"
		"[unknown stack]\n"
		"1,h,1000000000060,2026-01-01T00:00:00.000000060Z,700,100,100,0,0,0,1,,0,3,,,,,,,,,,,,,read,workload,,,"
		"b+0x10 (workload);main+0x5 (workload)\n");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --to jsonl %%s %%s 2>/dev/null | sed -n '1p;4p' | "
		 "sed 's/.*\\(\"stack_id\"[^,]*\\).*\\(\"stack\":.*\\)/\\1 \\2/'", rt_convert());
	out = stk_run(cmd, one, two);
	cr_assert_str_eq(out, "\"stack_id\":1 \"stack\":\"" S1CSV "\"}\n"
			 "\"stack_id\":0 \"stack\":null}\n");
	free(out);
}

/* A tiny program built with symbols, a stripped copy's build id in the trace. */
static void stk_prog(const char *dir, char *build_id, size_t cap, unsigned long long *leaf, unsigned long long *main_)
{
	char cmd[2048];
	char *out;

	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf 'int leaf(int x) { return x * 3; }\\nint main(void) { return leaf(2) - 6; }\\n' > p.c && "
		 "gcc -g -O0 -Wl,--build-id -o prog p.c && strip -o prog.stripped prog && "
		 "readelf -n prog.stripped | sed -n 's/.*Build ID: //p' && "
		 "nm prog | awk '$3 == \"leaf\" || $3 == \"main\" { print $3, $1 }' | sort", dir);
	cr_assert_eq(rt_run(&out, "%s", cmd), 0, "%s", out);
	cr_assert_eq(sscanf(out, "%127s\nleaf %llx\nmain %llx", build_id, leaf, main_), 3, "%s", out);
	cr_assert_lt(strlen(build_id), cap);
	free(out);
}

static size_t stk_unhex(const char *hex, uint8_t *b)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n < 64; hex += 2)
		cr_assert_eq(sscanf(hex, "%2hhx", &b[n++]), 1);
	return n;
}

Test(report_stacks, debug_dir_names_a_stripped_module, .fini = rt_cleanup)
{
	const char *trace = rt_path("dbg.sct"), *dir = rt_dir();
	char id[128], cmd[2048];
	unsigned long long leaf, main_;
	uint8_t b[64];
	size_t n;
	struct sct_writer *w;
	char *out;

	stk_prog(dir, id, sizeof(id), &leaf, &main_);
	n = stk_unhex(id, b);
	w = rt_open_stacks(trace, "h", "user", NULL, 0);
	rt_task(w, 0, PID, PID, 1, 0, 0, "prog");
	rt_module(w, 1, 1, SCT_MODULE_ELF, b, (uint32_t)n, "/opt/app/prog");
	{
		const struct sct_frame f[] = { { 1, leaf + 4 }, { 1, main_ } };

		rt_stack(w, 10, 1, PID, f, 2);
	}
	rt_sc_stack(w, 10, 1000, PID, PID, RT_NR_WRITE, 1, 1);
	rt_close(w);
	/* the unstripped copy by basename, and by build id as /usr/lib/debug lays it out */
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir -p base ids/.build-id/%.2s other && cp prog base/prog && "
		 "objcopy --only-keep-debug prog ids/.build-id/%.2s/%s.debug && "
		 "printf 'int main(void) { return 1; }\\n' > o.c && gcc -g -o other/prog o.c", dir, id, id, id + 2);
	cr_assert_eq(rt_run(&out, "%s", cmd), 0, "%s", out);
	free(out);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(rt_run(&out, "%s --stacks --debug-dir %s/%s %s | sed -n 3,4p", rt_report(), dir,
				    i ? "ids" : "base", trace), 0);
		cr_assert_str_eq(out, "    leaf+0x4 (prog)\n    main (prog)\n");
		free(out);
	}
	cr_assert_eq(rt_run(&out, "%s --to folded --debug-dir %s/base %s 2>/dev/null", rt_convert(), dir, trace), 0);
	cr_assert_str_eq(out, "prog;main;leaf;write 1\n");
	free(out);
	/* without the directory, or with a program of another build id in it: no names */
	cr_assert_eq(rt_run(&out, "%s --stacks %s | sed -n 3,4p", rt_report(), trace), 0);
	snprintf(cmd, sizeof(cmd), "    [prog+0x%llx] (prog)\n    [prog+0x%llx] (prog)\n", leaf + 4, main_);
	cr_assert_str_eq(out, cmd);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --stacks --debug-dir %s/other %s | sed -n 3,4p", rt_report(), dir, trace), 0);
	cr_assert_str_eq(out, cmd);
	free(out);
	/* a directory that is not there is a usage error, not a run without names */
	cr_assert_eq(rt_run(&out, "%s --stacks --debug-dir %s/none %s 2>&1", rt_report(), dir, trace), 2);
	snprintf(cmd, sizeof(cmd), "sct-report: --debug-dir '%s/none': No such file or directory\n"
		 "Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n", dir);
	cr_assert_str_eq(out, cmd);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to folded --debug-dir %s/p.c %s 2>&1 | head -1", rt_convert(), dir, trace), 0);
	snprintf(cmd, sizeof(cmd), "sct-convert: --debug-dir '%s/p.c': Not a directory\n", dir);
	cr_assert_str_eq(out, cmd);
	free(out);
}

/*
 * Hostile stacks: symbols that overlap resolve to one that covers the address; a module path
 * of escapes and separators stays text; stacks past the tables' bound are ignored, said so,
 * and their calls show "[unknown stack]", not another stack's frames.
 */
Test(report_stacks, hostile_stacks_neither_crash_nor_mislead, .fini = rt_cleanup)
{
	const char *trace = rt_path("hostile.sct");
	struct sct_writer *w = rt_open_stacks(trace, "h", "user", NULL, 0);
	const struct sct_frame f[] = { { 1, 0x1105 }, { 1, 0x1050 }, { 1, 0x1200 }, { 1, 0x3000 }, { 2, 0x10 } };
	char *out, *err;

	rt_task(w, 0, PID, PID, 1, 0, 0, "w");
	rt_module(w, 1, 1, SCT_MODULE_ELF, NULL, 0, "/usr/bin/workload");
	rt_module(w, 1, 2, SCT_MODULE_ELF, NULL, 0, "/tmp/\x1b]2;evil\a;x y");
	rt_symbol(w, 1, 1, 0x1000, 0x1000, "outer");
	rt_symbol(w, 1, 1, 0x1100, 0x10, "inner");
	rt_symbol(w, 1, 1, 0, UINT64_MAX, "everything");
	rt_symbol(w, 1, 2, 0, 0x100, "evil\x1b[2J;name");
	rt_stack(w, 2, 1, PID, f, 5);
	for (uint32_t id = 2; id <= (1u << 20) + 5; id++)
		rt_stack(w, 2, id, PID, f + 4, 1);
	rt_sc_stack(w, 10, 1000, PID, PID, RT_NR_WRITE, 1, 1);
	rt_sc_stack(w, 20, 1000, PID, PID, RT_NR_WRITE, 1, (1u << 20) + 3);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --stacks --sort name %s 2>%s.err | sed -n '1,/total of/p'", rt_report(), trace,
			    trace), 0);
	cr_assert_str_eq(out, "     calls   errors          total(s)         p99(us)  syscall, stack innermost first\n"
			 "         1        0          0.000001           1.000  write\n"
			 "    [unknown stack]\n"
			 "         1        0          0.000001           1.000  write\n"
			 "    inner+0x5 (workload)\n"
			 "    outer+0x50 (workload)\n"
			 "    outer+0x200 (workload)\n"
			 "    everything+0x3000 (workload)\n"
			 "    evil\\x1b[2J;name+0x10 (\\x1b]2;evil\\x07;x y)\n"
			 "         2        0          0.000002  total of 2 groups\n");
	free(out);
	cr_assert_eq(rt_run(&err, "cat %s.err", trace), 0);
	cr_assert_str_eq(err, "sct-report: 5 stack, module or symbol records ignored: past the bounds of a file's "
			 "tables (1048576 stacks, 65536 modules, 4194304 symbols, 256 MiB)\n");
	free(err);
	cr_assert_eq(rt_run(&out, "%s --to folded %s 2>/dev/null", rt_convert(), trace), 0);
	cr_assert_str_eq(out, "w;[unknown stack];write 1\n"
			 "w;evil_[2J_name;everything;outer;outer;inner;write 1\n");
	free(out);
}

/*
 * C++ names read as in source by default and as the file holds them with --no-demangle, in
 * both tools; a name that only looks mangled ("_Z" then nonsense) and a C name stay as they are.
 */
Test(report_stacks, cxx_names_demangled_unless_no_demangle, .fini = rt_cleanup)
{
	const char *trace = rt_path("cxx.sct");
	struct sct_writer *w = rt_open_stacks(trace, "h", "user", NULL, 0);
	const struct sct_frame f[] = { { 1, 0x1004 }, { 1, 0x2000 }, { 1, 0x3000 } };
	char *out;

	rt_task(w, 0, PID, PID, 1, 0, 0, "w");
	rt_module(w, 1, 1, SCT_MODULE_ELF, NULL, 0, "/usr/bin/app");
	rt_symbol(w, 1, 1, 0x1000, 0x10, "_ZN3foo3barEv");
	rt_symbol(w, 1, 1, 0x2000, 0x10, "_Zjunk");
	rt_symbol(w, 1, 1, 0x3000, 0x10, "main");
	rt_stack(w, 2, 1, PID, f, 3);
	rt_sc_stack(w, 10, 1000, PID, PID, RT_NR_WRITE, 1, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --stacks %s | sed -n 3,5p", rt_report(), trace), 0);
	cr_assert_str_eq(out, "    foo::bar()+0x4 (app)\n"
			 "    _Zjunk (app)\n"
			 "    main (app)\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --stacks --no-demangle %s | sed -n 3p", rt_report(), trace), 0);
	cr_assert_str_eq(out, "    _ZN3foo3barEv+0x4 (app)\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to folded %s", rt_convert(), trace), 0);
	cr_assert_str_eq(out, "w;main;_Zjunk;foo::bar();write 1\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to folded --no-demangle %s", rt_convert(), trace), 0);
	cr_assert_str_eq(out, "w;main;_Zjunk;_ZN3foo3barEv;write 1\n");
	free(out);
}

/* The format's example of stacks (spec/examples/stacks.sct), as its README describes it. */
Test(report_stacks, the_spec_example_reads_as_written)
{
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to folded spec/examples/stacks.sct 2>/dev/null", rt_convert()), 0);
	cr_assert_str_eq(out, "server;[unknown stack];read 1\n"
			 "server;[unknown];main;server::handle();__open64;entry_SYSCALL_64_[k];do_syscall_64_[k];"
			 "openat 2\n"
			 "server;close 1\n"
			 "server;main;__read;entry_SYSCALL_64_[k];[kernel.kallsyms]_[k];read 1\n");
	free(out);
	/* a pipe is read live (-T) or through the stream window (-c needs each call's task) */
	cr_assert_eq(rt_run(&out, "cat spec/examples/stacks.sct | %s --stacks -c server - | sed /^--/d > %s && "
			    "%s --stacks spec/examples/stacks.sct | sed /^--/d | diff - %s", rt_report(),
			    rt_path("w.txt"), rt_report(), rt_path("w.txt")), 0, "%s", out);
	free(out);
	rt_cleanup();
	cr_assert_eq(rt_run(&out, "cat spec/examples/stacks.sct | %s -T - | sed -n 16,23p", rt_report()), 0);
	cr_assert_str_eq(out, "+0.000700 10:00:00.000700 read(server 1200/1200) = 512 <0.000002> cg=cgroup:4242\n"
			 "    [kernel.kallsyms+0xffffffff8142c1d5] ([kernel.kallsyms])\n"
			 "    entry_SYSCALL_64+0x36 ([kernel.kallsyms])\n"
			 "    __read+0x11 (libc.so.6)\n"
			 "    main+0x10 (server)\n"
			 "+0.000800 10:00:00.000800 close(server 1200/1200) = 0 <0.000001> cg=cgroup:4242\n"
			 "+0.000900 10:00:00.000900 read(server 1200/1200) = 0 <0.000002> cg=cgroup:4242\n"
			 "    [unknown stack]\n");
	free(out);
}
