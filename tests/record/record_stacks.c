/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record --stack on the real kernel: a workload built with frame pointers (stacker: b()
 * called by a(), c(), and a short-lived child's d(), each writing a known number of times)
 * gets exactly that many write(2) records per symbolized stack, read back with libsct from the
 * file alone: after the workload's binary is deleted and the trace moved. Kernel stacks hold
 * the syscall entry. Reruns with SCT_TEST_BACKEND=perf check the perf backend's user stacks.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_stacks, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

#define MAX_ITEMS 4096
#define NAME_MAX_LEN 128

struct symbol {
	uint32_t module_id;
	uint64_t addr, size;
	char name[NAME_MAX_LEN];
};

struct stack {
	uint32_t stack_id;
	uint8_t frames[SCT_STACK_FRAMES_MAX_BYTES];
	size_t len;
};

/* What a trace says of the stacks of one process's write(2)s. */
struct stack_trace {
	char mode[16];
	uint32_t depth;
	struct symbol sym[MAX_ITEMS];
	size_t nsym;
	struct stack st[256];
	size_t nst;
	uint32_t kernel_module;   /* the module_id of [kernel.kallsyms], 0 if none */
	size_t modules;
	int64_t nr_write;
	/* the write(2)s: their stack_id */
	uint32_t *ids;
	uint32_t *pids;
	size_t nids;
};

static const char *symbol_of(const struct stack_trace *t, const struct sct_frame *f)
{
	for (size_t i = 0; i < t->nsym; i++)
		if (t->sym[i].module_id == f->module_id && f->addr >= t->sym[i].addr &&
		    f->addr - t->sym[i].addr < (t->sym[i].size ? t->sym[i].size : 1))
			return t->sym[i].name;
	return "?";
}

static const struct stack *stack_of(const struct stack_trace *t, uint32_t id)
{
	for (size_t i = 0; i < t->nst; i++)
		if (t->st[i].stack_id == id)
			return &t->st[i];
	return NULL;
}

static void trace_note(struct stack_trace *t, const struct sct_record *rec)
{
	if (rec->type == SCT_REC_MODULE) {
		t->modules++;
		if (rec->module.kind == SCT_MODULE_KERNEL)
			t->kernel_module = rec->module.module_id;
	} else if (rec->type == SCT_REC_SYMBOL) {
		struct symbol *s = &t->sym[t->nsym++];

		cr_assert_lt(t->nsym, MAX_ITEMS);
		s->module_id = rec->symbol.module_id;
		s->addr = rec->symbol.addr;
		s->size = rec->symbol.size;
		snprintf(s->name, sizeof(s->name), "%.*s", (int)rec->symbol.name.len, rec->symbol.name.ptr);
	} else if (rec->type == SCT_REC_STACK) {
		struct stack *s = &t->st[t->nst++];

		cr_assert_lt(t->nst, 256);
		cr_assert_null(stack_of(t, rec->stack.stack_id), "stack %u written twice in one file",
			       rec->stack.stack_id);
		s->stack_id = rec->stack.stack_id;
		cr_assert_leq(rec->stack.frames.len, sizeof(s->frames));
		memcpy(s->frames, rec->stack.frames.ptr, rec->stack.frames.len);
		s->len = rec->stack.frames.len;
	} else if (rec->type == SCT_REC_SYSCALL && (int64_t)rec->syscall.nr == t->nr_write) {
		/* every stack a SYSCALL names comes before it */
		cr_assert(!rec->syscall.stack_id || stack_of(t, rec->syscall.stack_id), "stack %u not yet written",
			  rec->syscall.stack_id);
		t->ids = realloc(t->ids, (t->nids + 1) * sizeof(*t->ids));
		t->pids = realloc(t->pids, (t->nids + 1) * sizeof(*t->pids));
		cr_assert(t->ids && t->pids);
		t->ids[t->nids] = rec->syscall.stack_id;
		t->pids[t->nids++] = rec->syscall.pid;
	}
}

static void trace_read(const char *path, struct stack_trace *t)
{
	const struct sct_header_stacks *hs;
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0, ret;

	memset(t, 0, sizeof(*t));
	t->nr_write = -1;
	r = sct_reader_open(path, &err);
	cr_assert_not_null(r, "open %s: %s", path, sct_strerror(err));
	while ((ret = sct_reader_next(r, &rec)) > 0) {
		if (rec.type != SCT_REC_SESSION) {
			trace_note(t, &rec);
			continue;
		}
		hs = sct_session_stacks(sct_reader_session(r));
		cr_assert_not_null(hs, "no \"stacks\" in the HEADER");
		snprintf(t->mode, sizeof(t->mode), "%s", hs->mode);
		t->depth = hs->depth;
		cr_assert_str_eq(hs->unwind, "fp");
		for (uint32_t nr = 0; nr < 1024 && t->nr_write < 0; nr++) {
			const char *name = sct_session_syscall_name(sct_reader_session(r), nr, 0);

			if (name && !strcmp(name, "write"))
				t->nr_write = nr;
		}
	}
	cr_assert_eq(ret, 0, "reader: %s", sct_strerror(ret));
	cr_assert_eq(sct_reader_stats(r)->damaged_records, 0);
	sct_reader_close(r);
}

static void trace_free(struct stack_trace *t)
{
	free(t->ids);
	free(t->pids);
}

/*
 * Stack id's frames by name, innermost first, joined by ';': the user frames up to main
 * (what libc's start code adds past it is not the workload's), after the kernel frames if
 * kernel; "" for no stack.
 */
static void stack_text(const struct stack_trace *t, uint32_t id, bool kernel, char *out, size_t cap)
{
	const struct stack *s = stack_of(t, id);
	struct sct_bytes b;
	struct sct_frame f;
	size_t pos = 0, n = 0;
	int ret;

	out[0] = 0;
	if (!s)
		return;
	b.ptr = s->frames;
	b.len = s->len;
	while ((ret = sct_stack_frame_next(&b, &pos, &f)) > 0) {
		const char *name = symbol_of(t, &f);

		if (f.module_id == t->kernel_module && !kernel)
			continue;
		n += snprintf(out + n, n < cap ? cap - n : 0, "%s%s", n ? ";" : "", name);
		if (!strcmp(name, "main"))
			break;
	}
	cr_assert_geq(ret, 0, "a STACK's frames do not parse");
	cr_assert_lt(n, cap);
}

/* write(2)s of pid whose stack reads text. */
static size_t count_stack(const struct stack_trace *t, uint32_t pid, const char *text, bool kernel)
{
	char buf[4096];
	size_t n = 0;

	for (size_t i = 0; i < t->nids; i++) {
		if (t->pids[i] != pid)
			continue;
		stack_text(t, t->ids[i], kernel, buf, sizeof(buf));
		n += !strcmp(buf, text);
	}
	return n;
}

/* write(2) records of the trace at path with a stack, as far as it is written now. */
static size_t stacked_writes(const char *path)
{
	struct sct_record rec;
	struct sct_reader *r;
	size_t n = 0;
	int err = 0;

	r = sct_reader_open(path, &err);
	if (!r)
		return 0;
	while (sct_reader_next(r, &rec) > 0)
		n += rec.type == SCT_REC_SYSCALL && rec.syscall.stack_id &&
		     !strcmp(sct_session_syscall_name(sct_reader_session(r), rec.syscall.nr, rec.syscall.abi) ?: "",
			     "write");
	sct_reader_close(r);
	return n;
}

/* Numbered file seq of a rotated recording into -o trace ("t.sct" -> "t.000002.sct"). */
static void numbered(const char *trace, unsigned seq, char *out, size_t cap)
{
	const char *dot = strrchr(trace, '.');

	snprintf(out, cap, "%.*s.%06u%s", (int)(dot - trace), trace, seq, dot);
}

/* stacked_writes() over the files of a rotated recording, or trace alone. */
static size_t stacked_writes_all(const char *trace, bool rotated)
{
	char path[PATH_MAX];
	size_t n = 0;

	if (!rotated)
		return stacked_writes(trace);
	for (unsigned seq = 1; numbered(trace, seq, path, sizeof(path)), !access(path, F_OK); seq++)
		n += stacked_writes(path);
	return n;
}

/*
 * Run stacker n m k (the program at wl) traced with extra into trace (rotated: numbered files);
 * its pid and its child's. Both stay until their n + m + k writes are in the trace with their
 * stacks (the recorder reads mappings from /proc while a process lives), then exit.
 */
static void run_stacker_nmk(const char *wl, const char *trace, const char *const extra[], const char *const nmk[3],
			    bool rotated, long *pid, long *child)
{
	const char *argv[] = { wl, nmk[0], nmk[1], nmk[2], NULL };
	const size_t want = strtoul(nmk[0], NULL, 10) + strtoul(nmk[1], NULL, 10) + strtoul(nmk[2], NULL, 10) + 1;
	const char *args[16] = { "-o", trace, "-p", NULL, "--flush-interval", "0.05" };
	struct rh_recorder rec = { .proc.pid = -1 };
	struct rh_proc p;
	char line[256], pidbuf[16];
	uint64_t until = rh_mono_ns() + 30 * 1000000000ull;
	int status, n = 6;

	cr_assert_eq(rh_spawn(&p, argv, false), 0);
	snprintf(pidbuf, sizeof(pidbuf), "%d", p.pid);
	args[3] = pidbuf;
	for (int i = 0; extra[i] && n < 15; i++)
		args[n++] = extra[i];
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	*pid = rh_field(line, "pid");
	*child = rh_field(line, "child");
	cr_assert(*pid > 0 && *child > 0, "workload said: %s", line);
	/* the last one is the line above: its stack is libc's */
	while (stacked_writes_all(trace, rotated) < want) {
		cr_assert_lt(rh_mono_ns(), until, "the writes' stacks are not in the trace after 30 s");
		usleep(10000);
	}
	cr_assert_eq(write(p.in_fd, "gg", 2), 2);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	rh_proc_release(&p);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "workload status %#x", status);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "recorder status %#x, stderr:\n%s",
		  rec.status, rec.err);
	rh_proc_release(&rec.proc);
}

/* stacker 40 30 20. */
static void run_stacker(const char *wl, const char *trace, const char *const extra[], long *pid, long *child)
{
	const char *const nmk[3] = { "40", "30", "20" };

	run_stacker_nmk(wl, trace, extra, nmk, false, pid, child);
}

/* The stacks of pid's write(2)s, with their calls, to stderr: what a failed count saw. */
static void stacks_print(const struct stack_trace *t, uint32_t pid)
{
	char buf[4096];

	for (size_t i = 0; i < t->nst; i++) {
		size_t n = 0;

		for (size_t k = 0; k < t->nids; k++)
			n += t->pids[k] == pid && t->ids[k] == t->st[i].stack_id;
		stack_text(t, t->st[i].stack_id, true, buf, sizeof(buf));
		if (n)
			fprintf(stderr, "pid %u: %zu calls: %s\n", pid, n, buf);
	}
}

static void assert_user_counts(const struct stack_trace *t, long pid, long child)
{
	if (count_stack(t, pid, "b;a;main", false) != 40 || count_stack(t, child, "d;main", false) != 20) {
		stacks_print(t, pid);
		stacks_print(t, child);
	}
	cr_assert_eq(count_stack(t, pid, "b;a;main", false), 40, "b;a;main: %zu calls",
		     count_stack(t, pid, "b;a;main", false));
	cr_assert_eq(count_stack(t, pid, "c;main", false), 30);
	cr_assert_eq(count_stack(t, child, "d;main", false), 20);
}

Test(record_stacks, user_stacks_count_exactly)
{
	const char *extra[] = { "--stack", "-S", "write", NULL };
	struct stack_trace *t = malloc(sizeof(*t));
	long pid, child;

	cr_assert_not_null(t);
	run_stacker(rh_workload("stacker"), rh_trace_path, extra, &pid, &child);
	trace_read(rh_trace_path, t);
	cr_assert_str_eq(t->mode, "user");
	cr_assert_eq(t->depth, 64);
	assert_user_counts(t, pid, child);
	cr_assert_eq(t->kernel_module, 0, "a kernel module in a user-only trace");
	trace_free(t);
	free(t);
}

/* --args takes its own programs (and perf its own arguments): the stacks come with them. */
Test(record_stacks, user_stacks_with_args)
{
	const char *extra[] = { "--stack", "--args", "-S", "write", NULL };
	const char *forced = getenv("SCT_RECORD_FORCE");
	struct stack_trace *t;
	long pid, child;

	if (forced && strstr(forced, "no-task-storage"))
		cr_skip_test("--args needs task storage (refused without it: record_cli)");
	t = malloc(sizeof(*t));
	cr_assert_not_null(t);
	run_stacker(rh_workload("stacker"), rh_trace_path, extra, &pid, &child);
	trace_read(rh_trace_path, t);
	assert_user_counts(t, pid, child);
	trace_free(t);
	free(t);
}

/* The file alone symbolizes: the binary gone, the trace elsewhere. */
Test(record_stacks, trace_symbolizes_after_the_binary_is_deleted)
{
	const char *extra[] = { "--stack", "-S", "write", NULL };
	struct stack_trace *t = malloc(sizeof(*t));
	char wl[PATH_MAX], moved[PATH_MAX], cmd[3 * PATH_MAX];
	long pid, child;

	cr_assert_not_null(t);
	snprintf(wl, sizeof(wl), "%s/stacker-copy", rh_dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", rh_workload("stacker"), wl);
	cr_assert_eq(system(cmd), 0);
	run_stacker(wl, rh_trace_path, extra, &pid, &child);
	cr_assert_eq(unlink(wl), 0);
	snprintf(moved, sizeof(moved), "%s/elsewhere", rh_dir);
	cr_assert_eq(mkdir(moved, 0700), 0);
	strcat(moved, "/moved.sct");
	cr_assert_eq(rename(rh_trace_path, moved), 0);
	trace_read(moved, t);
	assert_user_counts(t, pid, child);
	trace_free(t);
	free(t);
}

/*
 * Each file of a rotated recording symbolizes alone (trace_read asserts that every stack a
 * SYSCALL names is in its file), and the files together hold every call's stack once.
 */
Test(record_stacks, each_rotated_file_has_its_own_stacks)
{
	const char *extra[] = { "--stack", "-S", "write", "--rotate-size", "64K", NULL };
	const char *const nmk[3] = { "150000", "100000", "20" };
	struct stack_trace *t = malloc(sizeof(*t));
	size_t b = 0, c = 0, d = 0, stacks = 0;
	char path[PATH_MAX];
	long pid, child;
	unsigned seq;

	cr_assert_not_null(t);
	run_stacker_nmk(rh_workload("stacker"), rh_trace_path, extra, nmk, true, &pid, &child);
	for (seq = 1; numbered(rh_trace_path, seq, path, sizeof(path)), !access(path, F_OK); seq++) {
		trace_read(path, t);
		b += count_stack(t, pid, "b;a;main", false);
		c += count_stack(t, pid, "c;main", false);
		d += count_stack(t, child, "d;main", false);
		stacks += t->nst;
		trace_free(t);
	}
	cr_assert_geq(seq, 3, "one file: nothing rotated");
	cr_assert_eq(b, 150000);
	cr_assert_eq(c, 100000);
	cr_assert_eq(d, 20);
	/* a stack again in each file that has its calls, never twice in one */
	cr_assert_geq(stacks, seq - 1);
	free(t);
}

/* Whether every write(2) of pid has a kernel frame in the syscall entry. */
static bool kernel_entry_in_every_stack(const struct stack_trace *t, uint32_t pid, size_t *calls)
{
	char buf[8192];

	*calls = 0;
	for (size_t i = 0; i < t->nids; i++) {
		if (t->pids[i] != pid)
			continue;
		++*calls;
		stack_text(t, t->ids[i], true, buf, sizeof(buf));
		if (!strstr(buf, "entry_SYSCALL_64") && !strstr(buf, "do_syscall_64"))
			return false;
	}
	return true;
}

Test(record_stacks, kernel_stacks_hold_the_syscall_entry)
{
	const char *extra[] = { "--stack=kernel", "-S", "write", NULL };
	struct stack_trace *t = malloc(sizeof(*t));
	long pid, child;
	size_t calls;

	cr_assert_not_null(t);
	if (RH_PERF())
		cr_skip_test("--stack=kernel is the bpf backend's (a usage error with perf: record_cli)");
	run_stacker(rh_workload("stacker"), rh_trace_path, extra, &pid, &child);
	trace_read(rh_trace_path, t);
	cr_assert_str_eq(t->mode, "kernel");
	cr_assert_neq(t->kernel_module, 0);
	cr_assert(kernel_entry_in_every_stack(t, pid, &calls));
	cr_assert_geq(calls, 70);
	cr_assert(kernel_entry_in_every_stack(t, child, &calls));
	cr_assert_eq(calls, 20);
	trace_free(t);
	free(t);
}

Test(record_stacks, both_puts_the_kernel_frames_first)
{
	const char *extra[] = { "--stack=both", "--stack-depth", "32", "-S", "write", NULL };
	struct stack_trace *t = malloc(sizeof(*t));
	char buf[8192];
	long pid, child;
	size_t calls;

	cr_assert_not_null(t);
	if (RH_PERF())
		cr_skip_test("--stack=both is the bpf backend's (a usage error with perf: record_cli)");
	run_stacker(rh_workload("stacker"), rh_trace_path, extra, &pid, &child);
	trace_read(rh_trace_path, t);
	cr_assert_str_eq(t->mode, "both");
	cr_assert_eq(t->depth, 32);
	assert_user_counts(t, pid, child);
	cr_assert(kernel_entry_in_every_stack(t, child, &calls));
	cr_assert_eq(calls, 20);
	for (size_t i = 0; i < t->nids; i++) {
		char *user;

		if (t->pids[i] != (uint32_t)child)
			continue;
		stack_text(t, t->ids[i], true, buf, sizeof(buf));
		user = strstr(buf, ";d;main");
		cr_assert_not_null(user, "%s", buf);
		cr_assert_eq(user[sizeof(";d;main") - 1], 0, "user frames after main: %s", buf);
	}
	trace_free(t);
	free(t);
}

/* Usage errors: the message names the mistake, nothing is recorded. */
struct usage_case {
	char args[64];  /* split at spaces (criterion copies the struct, not what it points to) */
	char says[64];
};

ParameterizedTestParameters(record_stacks, usage_errors)
{
	static struct usage_case cases[] = {
		{ "--stack=stack", "invalid stack mode: 'stack'" },
		{ "--stack --stack-depth 0", "invalid stack depth: '0'" },
		{ "--stack --stack-depth 128", "invalid stack depth: '128'" },
		{ "--stack-depth 8", "--stack-depth needs --stack" },
		{ "--stack --summary-only", "does not combine with --summary-only" },
		{ "--stack --snapshot 1M", "--stack does not combine with --snapshot" },
		{ "--stack=kernel --backend perf", "need the bpf backend" },
		{ "--stack=both --backend perf", "need the bpf backend" },
	};

	return cr_make_param_array(struct usage_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct usage_case *c, record_stacks, usage_errors)
{
	const char *argv[16] = { rh_recorder_path(), "-o", rh_trace_path };
	char *err = NULL, *save = NULL;
	struct rh_proc p;
	int status, n = 3;

	for (char *w = strtok_r(c->args, " ", &save); w && n < 12; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n++] = "--";
	argv[n++] = "/bin/true";
	cr_assert_eq(rh_spawn(&p, argv, true), 0);
	cr_assert_eq(rh_read_all(p.err_fd, &err, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	rh_proc_release(&p);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %#x: %s", status, err);
	cr_assert_not_null(strstr(err, c->says), "stderr: %s", err);
	cr_assert_neq(access(rh_trace_path, F_OK), 0, "a trace was written");
	free(err);
}
