// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-record --args on the real kernel: every argument and path of a workload whose calls,
 * flags, byte counts and file names are known (tests/record/workloads/argpaths.c), a path cut at
 * --args-max, one in a page not present at entry, one at a bad address. Needs root and BPF.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_args, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

/* One SYSCALL of the workload, its paths copied. */
struct call {
	struct sct_syscall sc;
	char path[4200];
	char path2[4200];
};

struct calls {
	struct call v[256];
	size_t n;
	bool has_args;
	uint32_t args_max;
	int64_t nr_openat, nr_write, nr_mmap, nr_renameat, nr_linkat;
	const struct sct_syscall_args *openat_desc;
	struct sct_syscall_args openat;
};

static int call_cmp_time(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	return (x->sc.time_ns > y->sc.time_ns) - (x->sc.time_ns < y->sc.time_ns);
}

/*
 * The calls of pid in the order it made them (by entry time: file order follows the CPUs'
 * stages, and the workload may move between CPUs), with the session's facts about arguments.
 */
static void calls_read(const char *path, uint32_t pid, struct calls *c)
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0, rc;

	memset(c, 0, sizeof(*c));
	r = sct_reader_open(path, &err);
	cr_assert(r, "reading %s: %s", path, sct_strerror(err));
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		const struct sct_session *s = sct_reader_session(r);

		if (rec.type == SCT_REC_SESSION) {
			c->has_args = sct_session_has_args(s);
			c->args_max = sct_session_args_max(s);
			c->nr_openat = sct_session_syscall_nr(s, "openat", SCT_ABI_NATIVE);
			c->nr_write = sct_session_syscall_nr(s, "write", SCT_ABI_NATIVE);
			c->nr_mmap = sct_session_syscall_nr(s, "mmap", SCT_ABI_NATIVE);
			c->nr_renameat = sct_session_syscall_nr(s, "renameat", SCT_ABI_NATIVE);
			c->nr_linkat = sct_session_syscall_nr(s, "linkat", SCT_ABI_NATIVE);
			if (c->nr_openat >= 0 && sct_session_syscall_args(s, (uint32_t)c->nr_openat)) {
				c->openat = *sct_session_syscall_args(s, (uint32_t)c->nr_openat);
				c->openat_desc = &c->openat;
			}
			continue;
		}
		if (rec.type != SCT_REC_SYSCALL || rec.syscall.pid != pid)
			continue;
		cr_assert_lt(c->n, 256);
		c->v[c->n].sc = rec.syscall;
		cr_assert_lt(rec.syscall.path.len, sizeof(c->v[c->n].path));
		memcpy(c->v[c->n].path, rec.syscall.path.ptr, rec.syscall.path.len);
		c->v[c->n].path[rec.syscall.path.len] = '\0';
		c->v[c->n].sc.path.ptr = NULL;
		cr_assert_lt(rec.syscall.path2.len, sizeof(c->v[c->n].path2));
		memcpy(c->v[c->n].path2, rec.syscall.path2.ptr, rec.syscall.path2.len);
		c->v[c->n].path2[rec.syscall.path2.len] = '\0';
		c->v[c->n].sc.path2.ptr = NULL;
		c->n++;
	}
	cr_assert_eq(rc, 0, "reader: %s", sct_strerror(rc));
	qsort(c->v, c->n, sizeof(c->v[0]), call_cmp_time);
	/* the argument names are the session's: keep what the checks need before closing */
	if (c->openat_desc) {
		for (uint32_t k = 0; k < c->openat.nargs; k++) {
			c->openat.args[k].name = strdup(c->openat.args[k].name);
			c->openat.args[k].family = strdup(c->openat.args[k].family);
		}
	}
	sct_reader_close(r);
}

static void calls_free(struct calls *c)
{
	for (uint32_t k = 0; c->openat_desc && k < c->openat.nargs; k++) {
		free((char *)c->openat.args[k].name);
		free((char *)c->openat.args[k].family);
	}
}

/* The i-th call of number nr, NULL if there are fewer. */
static const struct call *nth(const struct calls *c, int64_t nr, size_t i)
{
	for (size_t k = 0; k < c->n; k++)
		if (c->v[k].sc.nr == nr && !i--)
			return &c->v[k];
	return NULL;
}

static void run_argpaths(struct rh_run *run, const char *const extra[])
{
	const char *wl[] = { rh_workload("argpaths"), rh_dir, NULL };

	cr_assert_eq(rh_run_traced(run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run->wl_status) && WEXITSTATUS(run->wl_status) == 0, "workload: %s", run->out);
	cr_assert(WIFEXITED(run->rec.status) && WEXITSTATUS(run->rec.status) == 0, "recorder:\n%s",
		  run->rec.err);
}

static void assert_open(const struct call *o, const char *path, uint32_t flags, long oflags,
			long mode, int64_t ret)
{
	cr_assert(o, "missing openat of %s", path);
	cr_assert_eq((int32_t)o->sc.arg0, AT_FDCWD);
	cr_assert_eq(o->sc.arg2, (uint64_t)oflags, "%s: flags %#llx", path, (unsigned long long)o->sc.arg2);
	cr_assert_eq(o->sc.arg3, (uint64_t)mode);
	cr_assert_eq(o->sc.ret, ret, "%s: ret %lld", path, (long long)o->sc.ret);
	cr_assert_eq(o->sc.path_flags, flags, "%s: path_flags %u", path, o->sc.path_flags);
	cr_assert_str_eq(o->path, path);
}

/* A call of two paths (rename, link) with its dirfds AT_FDCWD. */
static void assert_two_paths(const struct call *o, const char *path, uint32_t flags, const char *path2,
			     uint32_t flags2, int64_t ret)
{
	cr_assert(o, "missing call of %s, %s", path, path2);
	cr_assert_eq((int32_t)o->sc.arg0, AT_FDCWD);
	cr_assert_eq((int32_t)o->sc.arg2, AT_FDCWD);
	cr_assert_eq(o->sc.ret, ret, "%s: ret %lld", path2, (long long)o->sc.ret);
	cr_assert_eq(o->sc.path_flags, flags, "%s: path_flags %u", path, o->sc.path_flags);
	cr_assert_str_eq(o->path, path);
	cr_assert_eq(o->sc.path2_flags, flags2, "%s: path2_flags %u", path2, o->sc.path2_flags);
	cr_assert_str_eq(o->path2, path2);
}

Test(record_args, every_argument_and_path_of_known_calls)
{
	const char *extra[] = { "--args", NULL };
	char a[512], b[512], name[512], cut[257], longp[1024], renamed[512], linked[512];
	int len;
	struct rh_run run;
	struct calls c;
	const struct call *w;
	long fd1, fd2, fd3, fd4;

	run_argpaths(&run, extra);
	fd1 = rh_field(strstr(run.out, "fd1"), "fd1");
	fd2 = rh_field(strstr(run.out, "fd2"), "fd2");
	fd3 = rh_field(strstr(run.out, "fd3"), "fd3");
	fd4 = rh_field(strstr(run.out, "fd4"), "fd4");
	calls_read(rh_trace_path, (uint32_t)run.wl_pid, &c);
	cr_assert(c.has_args);
	cr_assert_eq(c.args_max, 256);
	cr_assert(c.openat_desc, "no description of openat in the HEADER");
	cr_assert_eq(c.openat.nargs, 4);
	cr_assert_str_eq(c.openat.args[0].name, "dfd");
	cr_assert_eq(c.openat.args[0].kind, SCT_ARG_DIRFD);
	cr_assert_str_eq(c.openat.args[1].name, "filename");
	cr_assert_eq(c.openat.args[1].kind, SCT_ARG_PATH);
	cr_assert_eq(c.openat.args[2].kind, SCT_ARG_FLAGS);
	cr_assert_str_eq(c.openat.args[2].family, "open");
	cr_assert_eq(c.openat.args[3].kind, SCT_ARG_MODE);

	snprintf(a, sizeof(a), "%s/with space", rh_dir);
	snprintf(b, sizeof(b), "%s/\xc3\xbcn\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9 \xe2\x9c\x93", rh_dir);
	snprintf(name, sizeof(name), "%s/name", rh_dir);
	/* the workload's "DIR/" + "d/" x 200, cut at the default --args-max */
	len = snprintf(longp, sizeof(longp), "%s/", rh_dir);
	for (int i = 0; i < 200; i++)
		len += snprintf(longp + len, sizeof(longp) - (size_t)len, "d/");
	memcpy(cut, longp, 256);
	cut[256] = '\0';
	cr_assert_eq(strlen(cut), 256);
	assert_open(nth(&c, c.nr_openat, 0), a, SCT_PATH_CAPTURED,
		    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640, fd1);
	assert_open(nth(&c, c.nr_openat, 1), b, SCT_PATH_CAPTURED, O_WRONLY | O_CREAT | O_EXCL, 0600, fd2);
	assert_open(nth(&c, c.nr_openat, 2), name, SCT_PATH_CAPTURED, O_WRONLY | O_CREAT | O_TRUNC, 0600, fd3);
	assert_open(nth(&c, c.nr_openat, 3), cut, SCT_PATH_CAPTURED | SCT_PATH_CUT, O_RDONLY, 0, -ENOENT);
	assert_open(nth(&c, c.nr_openat, 4), name, SCT_PATH_CAPTURED, O_RDONLY, 0, fd3);
	/* the page held the name, but was not present when the call began: read at its exit */
	assert_open(nth(&c, c.nr_openat, 5), a, SCT_PATH_CAPTURED | SCT_PATH_LATE, O_RDONLY, 0, fd4);
	assert_open(nth(&c, c.nr_openat, 6), "", SCT_PATH_FAULT, O_RDONLY, 0, -EFAULT);
	cr_assert_eq(nth(&c, c.nr_openat, 6)->sc.arg1, 1);
	cr_assert_null(nth(&c, c.nr_openat, 7));

	snprintf(renamed, sizeof(renamed), "%s/renamed", rh_dir);
	snprintf(linked, sizeof(linked), "%s/linked", rh_dir);
	assert_two_paths(nth(&c, c.nr_renameat, 0), a, SCT_PATH_CAPTURED, renamed, SCT_PATH_CAPTURED, 0);
	/* the second path's page was not present at entry */
	assert_two_paths(nth(&c, c.nr_linkat, 0), renamed, SCT_PATH_CAPTURED, linked,
			 SCT_PATH_CAPTURED | SCT_PATH_LATE, 0);
	cr_assert_eq(nth(&c, c.nr_linkat, 0)->sc.arg4, 0);
	/* the first path unreadable: the second, read at entry, stays as it was read */
	assert_two_paths(nth(&c, c.nr_renameat, 1), "", SCT_PATH_FAULT, renamed, SCT_PATH_CAPTURED, -EFAULT);
	cr_assert_eq(nth(&c, c.nr_renameat, 1)->sc.arg1, 1);
	cr_assert_null(nth(&c, c.nr_renameat, 2));
	for (size_t i = 0; i < c.n; i++)
		if (c.v[i].sc.nr != c.nr_renameat && c.v[i].sc.nr != c.nr_linkat)
			cr_assert_eq(c.v[i].sc.path2_flags, 0, "call %zu (nr %u)", i, c.v[i].sc.nr);

	w = nth(&c, c.nr_write, 0);
	cr_assert(w);
	cr_assert_eq(w->sc.arg0, (uint64_t)fd1);
	cr_assert_eq(w->sc.arg2, 5);
	cr_assert_eq(w->sc.ret, 5);
	cr_assert_eq(w->sc.path_flags, 0);
	w = nth(&c, c.nr_write, 1);
	cr_assert_eq(w->sc.arg0, (uint64_t)fd2);
	cr_assert_eq(w->sc.arg2, 123);
	cr_assert_eq(w->sc.ret, 123);
	w = nth(&c, c.nr_write, 2);
	cr_assert_eq(w->sc.arg2, strlen(a) + 1);
	w = nth(&c, c.nr_mmap, 0);
	cr_assert(w);
	cr_assert_eq(w->sc.arg0, 0);
	cr_assert_eq(w->sc.arg1, 4096);
	cr_assert_eq(w->sc.arg2, PROT_READ);
	cr_assert_eq(w->sc.arg3, MAP_PRIVATE);
	cr_assert_eq(w->sc.arg4, (uint64_t)fd3);
	cr_assert_eq(w->sc.arg5, 0);
	cr_assert_eq(w->sc.path_flags, 0);
	calls_free(&c);
	rh_run_release(&run);
}

Test(record_args, args_max_cuts_and_flags_the_path)
{
	const char *extra[] = { "--args", "--args-max", "16", NULL };
	struct rh_run run;
	struct calls c;
	const struct call *o;
	char a[512];

	run_argpaths(&run, extra);
	calls_read(rh_trace_path, (uint32_t)run.wl_pid, &c);
	cr_assert_eq(c.args_max, 16);
	snprintf(a, sizeof(a), "%s/with space", rh_dir);
	o = nth(&c, c.nr_openat, 0);
	cr_assert(o);
	cr_assert_eq(o->sc.path_flags, SCT_PATH_CAPTURED | SCT_PATH_CUT);
	cr_assert_eq(strlen(o->path), 16);
	cr_assert(!strncmp(o->path, a, 16));
	o = nth(&c, c.nr_renameat, 0);
	cr_assert(o);
	snprintf(a, sizeof(a), "%s/renamed", rh_dir);
	cr_assert_eq(o->sc.path_flags, SCT_PATH_CAPTURED | SCT_PATH_CUT);
	cr_assert_eq(o->sc.path2_flags, SCT_PATH_CAPTURED | SCT_PATH_CUT);
	cr_assert_eq(strlen(o->path2), 16);
	cr_assert(!strncmp(o->path2, a, 16));
	calls_free(&c);
	rh_run_release(&run);
}

/*
 * The arguments whose values read by name (spec/FORMAT.md section 5) as the running kernel's
 * tracefs names them: each found and given its kind and family in the HEADER.
 */
Test(record_args, named_values_are_described)
{
	static const struct {
		const char *syscall, *arg;
		uint32_t kind;
		const char *family;
	} want[] = {
		{ "futex", "op", SCT_ARG_ENUM, "futex_op" },
		{ "futex", "uaddr", SCT_ARG_PTR, "" },
		{ "prctl", "option", SCT_ARG_ENUM, "prctl" },
		{ "arch_prctl", "option", SCT_ARG_ENUM, "arch_prctl" },
		{ "clock_nanosleep", "which_clock", SCT_ARG_ENUM, "clock" },
		{ "clock_nanosleep", "flags", SCT_ARG_FLAGS, "timer" },
		{ "clock_gettime", "which_clock", SCT_ARG_ENUM, "clock" },
		{ "socket", "family", SCT_ARG_ENUM, "socket_domain" },
		{ "socket", "type", SCT_ARG_ENUM, "socket_type" },
		{ "socket", "protocol", SCT_ARG_ENUM, "socket_protocol" },
		{ "accept4", "flags", SCT_ARG_FLAGS, "socket_flags" },
		{ "fcntl", "cmd", SCT_ARG_ENUM, "fcntl" },
		{ "ioctl", "cmd", SCT_ARG_ENUM, "ioctl" },
		{ "ioctl", "arg", SCT_ARG_PTR, "" },
		{ "mmap", "addr", SCT_ARG_PTR, "" },
		{ "mmap", "prot", SCT_ARG_FLAGS, "mmap_prot" },
		{ "mprotect", "start", SCT_ARG_PTR, "" },
		{ "munmap", "addr", SCT_ARG_PTR, "" },
		{ "madvise", "start", SCT_ARG_PTR, "" },
		{ "madvise", "behavior", SCT_ARG_ENUM, "madvise" },
		{ "mremap", "flags", SCT_ARG_FLAGS, "mremap" },
		{ "brk", "brk", SCT_ARG_PTR, "" },
		{ "rt_sigprocmask", "how", SCT_ARG_ENUM, "sigprocmask" },
		{ "rt_sigaction", "sig", SCT_ARG_ENUM, "signal" },
		{ "kill", "sig", SCT_ARG_ENUM, "signal" },
		{ "tgkill", "sig", SCT_ARG_ENUM, "signal" },
		{ "wait4", "options", SCT_ARG_FLAGS, "wait" },
		{ "waitid", "options", SCT_ARG_FLAGS, "wait" },
		{ "clone", "clone_flags", SCT_ARG_FLAGS, "clone" },
		{ "prlimit64", "resource", SCT_ARG_ENUM, "rlimit" },
		{ "getrlimit", "resource", SCT_ARG_ENUM, "rlimit" },
		{ "setrlimit", "resource", SCT_ARG_ENUM, "rlimit" },
		{ "pipe2", "fildes", SCT_ARG_PTR, "" },
		{ "pipe2", "flags", SCT_ARG_FLAGS, "open_flags" },
		{ "dup3", "flags", SCT_ARG_FLAGS, "open_flags" },
		{ "rseq", "rseq", SCT_ARG_PTR, "" },
		{ "rseq", "rseq_len", SCT_ARG_FLAGS, "" },
		{ "rseq", "flags", SCT_ARG_FLAGS, "" },
		{ "rseq", "sig", SCT_ARG_FLAGS, "" },
	};
	const char *extra[] = { "--args", NULL };
	struct sct_reader *r;
	struct sct_record rec;
	struct rh_run run;
	int err = 0;

	run_argpaths(&run, extra);
	r = sct_reader_open(rh_trace_path, &err);
	cr_assert(r, "reading %s: %s", rh_trace_path, sct_strerror(err));
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sct_session *s = sct_reader_session(r);
		int64_t nr = sct_session_syscall_nr(s, want[i].syscall, SCT_ABI_NATIVE);
		const struct sct_syscall_args *a = nr >= 0 ? sct_session_syscall_args(s, (uint32_t)nr) : NULL;
		uint32_t k = 0;

		cr_assert(a, "no description of %s", want[i].syscall);
		while (k < a->nargs && strcmp(a->args[k].name, want[i].arg))
			k++;
		cr_assert_lt(k, a->nargs, "%s has no argument %s", want[i].syscall, want[i].arg);
		cr_assert_eq(a->args[k].kind, want[i].kind, "%s %s: kind %u", want[i].syscall, want[i].arg,
			     a->args[k].kind);
		cr_assert_str_eq(a->args[k].family, want[i].family, "%s %s", want[i].syscall, want[i].arg);
	}
	sct_reader_close(r);
	rh_run_release(&run);
}

/* Without --args the session is what it was: no descriptions, no argument fields. */
Test(record_args, without_args_nothing_changes)
{
	struct rh_run run;
	struct calls c;
	const struct call *o;

	run_argpaths(&run, NULL);
	calls_read(rh_trace_path, (uint32_t)run.wl_pid, &c);
	cr_assert_not(c.has_args);
	o = nth(&c, c.nr_openat, 0);
	cr_assert(o);
	cr_assert_eq(o->sc.arg2, 0);
	cr_assert_eq(o->sc.path_flags, 0);
	cr_assert_str_eq(o->path, "");
	calls_free(&c);
	rh_run_release(&run);
}

/* The first compat call of ia32 number nr made by pid; *desc0: its first argument's description. */
static bool compat_call(const char *trace, uint32_t pid, uint32_t nr, struct call *out,
			struct sct_arg_desc *desc0)
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0;
	bool found = false;

	r = sct_reader_open(trace, &err);
	cr_assert(r, "reading %s: %s", trace, sct_strerror(err));
	while (!found && sct_reader_next(r, &rec) == 1) {
		const struct sct_syscall_args *a;

		if (rec.type != SCT_REC_SYSCALL || rec.syscall.pid != pid || rec.syscall.abi != SCT_ABI_COMPAT ||
		    rec.syscall.nr != nr)
			continue;
		a = sct_session_compat_syscall_args(sct_reader_session(r), nr);
		cr_assert(a, "no description of compat call %u in the HEADER", nr);
		cr_assert_gt(a->nargs, 0);
		desc0->kind = a->args[0].kind;
		out->sc = rec.syscall;
		cr_assert_lt(rec.syscall.path.len, sizeof(out->path));
		cr_assert_lt(rec.syscall.path2.len, sizeof(out->path2));
		memcpy(out->path, rec.syscall.path.ptr, rec.syscall.path.len);
		out->path[rec.syscall.path.len] = '\0';
		memcpy(out->path2, rec.syscall.path2.ptr, rec.syscall.path2.len);
		out->path2[rec.syscall.path2.len] = '\0';
		found = true;
	}
	sct_reader_close(r);
	return found;
}

/*
 * ia32 calls of a 64-bit process (int $0x80): described in the HEADER's compat table as the
 * native calls of their names, their arguments read from the ia32 registers, their paths read.
 */
Test(record_args, compat_calls_carry_their_arguments_and_paths)
{
	const char *extra[] = { "--args", NULL };
	const char *wl[] = { rh_workload("compat"), rh_dir, NULL };
	char one[512], two[512];
	struct sct_arg_desc d0;
	struct rh_run run;
	struct call c;
	long fd;

	rh_require_ia32();
	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 0, "workload: %s", run.out);
	cr_assert(WIFEXITED(run.rec.status) && WEXITSTATUS(run.rec.status) == 0, "recorder:\n%s",
		  run.rec.err);
	fd = rh_field(strstr(run.out, "fd"), "fd");
	snprintf(one, sizeof(one), "%s/c one", rh_dir);
	snprintf(two, sizeof(two), "%s/c two", rh_dir);
	cr_assert(compat_call(rh_trace_path, (uint32_t)run.wl_pid, 5, &c, &d0), "no ia32 open");
	cr_assert_eq(d0.kind, SCT_ARG_PATH);
	cr_assert_eq(c.sc.arg1, O_WRONLY | O_CREAT | O_TRUNC);
	cr_assert_eq(c.sc.arg2, 0640);
	cr_assert_eq(c.sc.ret, fd);
	cr_assert_eq(c.sc.path_flags, SCT_PATH_CAPTURED);
	cr_assert_str_eq(c.path, one);
	cr_assert_eq(c.sc.path2_flags, 0);
	cr_assert(compat_call(rh_trace_path, (uint32_t)run.wl_pid, 38, &c, &d0), "no ia32 rename");
	cr_assert_eq(c.sc.ret, 0);
	cr_assert_eq(c.sc.path_flags, SCT_PATH_CAPTURED);
	cr_assert_str_eq(c.path, one);
	cr_assert_eq(c.sc.path2_flags, SCT_PATH_CAPTURED);
	cr_assert_str_eq(c.path2, two);
	rh_run_release(&run);
}

/*
 * The perf backend: the six registers from raw_syscalls:sys_enter's samples, exact; a call
 * with a path argument says its string was not read (perf reads no user memory).
 */
Test(record_args, perf_backend_records_the_registers_and_reads_no_path)
{
	const char *extra[] = { "--backend", "perf", "--args", NULL };
	struct rh_run run;
	struct calls c;
	const struct call *o, *w;
	long fd1 = 0;

	run_argpaths(&run, extra);
	cr_assert_not_null(strstr(run.rec.err, "(perf, "), "%s", run.rec.err);
	fd1 = rh_field(strstr(run.out, "fd1"), "fd1");
	calls_read(rh_trace_path, (uint32_t)run.wl_pid, &c);
	cr_assert(c.has_args);
	cr_assert(c.openat_desc, "no description of openat in the HEADER");
	o = nth(&c, c.nr_openat, 0);
	cr_assert(o);
	cr_assert_eq((int32_t)o->sc.arg0, AT_FDCWD);
	cr_assert_eq(o->sc.arg2, (uint64_t)(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC));
	cr_assert_eq(o->sc.arg3, 0640);
	cr_assert_eq(o->sc.ret, fd1);
	cr_assert_eq(o->sc.path_flags, SCT_PATH_NOT_READ);
	cr_assert_str_eq(o->path, "");
	o = nth(&c, c.nr_openat, 6);
	cr_assert(o);
	cr_assert_eq(o->sc.arg1, 1, "the bad address as it was passed");
	cr_assert_eq(o->sc.path_flags, SCT_PATH_NOT_READ);
	o = nth(&c, c.nr_renameat, 0);
	cr_assert(o);
	cr_assert_eq(o->sc.path_flags, SCT_PATH_NOT_READ);
	cr_assert_eq(o->sc.path2_flags, SCT_PATH_NOT_READ);
	cr_assert_str_eq(o->path2, "");
	w = nth(&c, c.nr_write, 0);
	cr_assert(w);
	cr_assert_eq(w->sc.arg0, (uint64_t)fd1);
	cr_assert_eq(w->sc.arg2, 5);
	cr_assert_eq(w->sc.path_flags, 0);
	w = nth(&c, c.nr_mmap, 0);
	cr_assert(w);
	cr_assert_eq(w->sc.arg1, 4096);
	cr_assert_eq(w->sc.arg2, PROT_READ);
	cr_assert_eq(w->sc.arg3, MAP_PRIVATE);
	calls_free(&c);
	rh_run_release(&run);
}

/*
 * A call in flight at stop keeps its arguments and the path read at its entry: the workload
 * blocks in openat(2) of a FIFO no one opens for writing. perf reads no path.
 */
static void assert_open_in_flight(bool perf)
{
	const char *args[] = { "--args", "-o", rh_trace_path, "-p", NULL, NULL, NULL, NULL };
	const char *wl[] = { rh_workload("blocker"), NULL, NULL };
	char fifo[RH_DIR_MAX + 8], line[128], pid[16];
	const struct call *o = NULL;
	struct rh_recorder rec;
	struct rh_proc p;
	struct calls c;

	snprintf(fifo, sizeof(fifo), "%s/fifo", rh_dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0, "mkfifo %s: %s", fifo, strerror(errno));
	wl[1] = fifo;
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[4] = pid;
	if (perf) {
		args[5] = "--backend";
		args[6] = "perf";
	}
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	for (int i = 0; !rh_blocked_in(p.pid, SYS_openat); i++) {
		cr_assert_lt(i, RH_TIMEOUT_MS, "pid %d never blocked in openat", p.pid);
		usleep(1000);
	}
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status,
		  rec.err);
	calls_read(rh_trace_path, (uint32_t)p.pid, &c);
	for (size_t i = 0; i < c.n; i++) {
		if (!c.v[i].sc.unfinished)
			continue;
		cr_assert_null(o, "two unfinished calls");
		o = &c.v[i];
	}
	cr_assert(o, "no unfinished call");
	cr_assert_eq(o->sc.nr, c.nr_openat);
	cr_assert_eq((int32_t)o->sc.arg0, AT_FDCWD);
	cr_assert_eq(o->sc.arg2, O_RDONLY);
	cr_assert_eq(o->sc.path_flags, perf ? SCT_PATH_NOT_READ : SCT_PATH_CAPTURED);
	cr_assert_str_eq(o->path, perf ? "" : fifo);
	calls_free(&c);
	rh_proc_release(&p);
}

Test(record_args, call_in_flight_at_stop_keeps_its_arguments)
{
	assert_open_in_flight(false);
}

Test(record_args, perf_backend_call_in_flight_at_stop_keeps_its_registers)
{
	assert_open_in_flight(true);
}

/*
 * A call running on its CPU at stop keeps its arguments (getrandom's count): read from the
 * CPU's slot (cpu_calls_args), or from the task's storage if it was switched out.
 */
Test(record_args, call_running_at_stop_keeps_its_arguments)
{
	const char *wl[] = {rh_workload("spinner"), "134217728", NULL};
	const uint64_t count = 134217728;

	rh_assert_stop_during_call(wl, SYS_getrandom, true, &count);
}
