// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-record --args writes sessions with captures (format 1.7), on both backends: the exit
 * and exit_group of a workload written at their entry, the socket addresses and exec arguments
 * its calls were given or got back (tests/record/workloads/captures.c knows them all). Needs
 * root and BPF.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "record_helpers.h"

TestSuite(record_captures, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

/* One SYSCALL of the workload with its captured bytes copied. */
struct cap_call {
	struct sct_syscall sc;
	uint8_t addr[SCT_MAX_ADDR];
	char argv[4200];
	char data[4200];
};

struct cap_trace {
	struct cap_call v[512];
	size_t n;
	bool has_captures;
	struct sct_header_captures captures;
	uint64_t exit_group_totals;
};

/* c's record pointing at c's own copies: again each time c moves. */
static void cap_point(struct cap_call *c)
{
	c->sc.addr.ptr = c->addr;
	c->sc.argv.ptr = (const uint8_t *)c->argv;
	c->sc.data.ptr = (const uint8_t *)c->data;
	c->sc.path.ptr = c->sc.path2.ptr = NULL;
}

static void cap_copy(struct cap_call *c, const struct sct_syscall *sc)
{
	c->sc = *sc;
	cr_assert_leq(sc->addr.len, sizeof(c->addr));
	memcpy(c->addr, sc->addr.ptr, sc->addr.len);
	cr_assert_lt(sc->argv.len, sizeof(c->argv));
	memcpy(c->argv, sc->argv.ptr, sc->argv.len);
	cr_assert_lt(sc->data.len, sizeof(c->data));
	memcpy(c->data, sc->data.ptr, sc->data.len);
	cap_point(c);
}

/* The SYSCALL records of pid, the HEADER's captures and the TOTALS of exit_group. */
static void cap_read(const char *path, uint32_t pid, struct cap_trace *t)
{
	int64_t nr_exit_group = -1;
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0, rc;

	memset(t, 0, sizeof(*t));
	r = sct_reader_open(path, &err);
	cr_assert(r, "reading %s: %s", path, sct_strerror(err));
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		const struct sct_session *s = sct_reader_session(r);

		if (rec.type == SCT_REC_SESSION) {
			const struct sct_header_captures *c = sct_session_captures(s);

			t->has_captures = c != NULL;
			if (c)
				t->captures = *c;
			nr_exit_group = sct_session_syscall_nr(s, "exit_group", SCT_ABI_NATIVE);
		} else if (rec.type == SCT_REC_TOTALS && (int64_t)rec.totals.nr == nr_exit_group &&
			   rec.totals.pid == pid) {
			t->exit_group_totals += rec.totals.calls;
		} else if (rec.type == SCT_REC_SYSCALL && rec.syscall.pid == pid) {
			cr_assert_lt(t->n, sizeof(t->v) / sizeof(t->v[0]));
			cap_copy(&t->v[t->n++], &rec.syscall);
		}
	}
	cr_assert_eq(rc, 0, "reader: %s", sct_strerror(rc));
	sct_reader_close(r);
}

/* The calls of number nr into out (at most cap); how many there are. */
static size_t cap_find(const struct cap_trace *t, long nr, const struct cap_call **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].sc.nr == (uint32_t)nr && n++ < cap)
			out[n - 1] = &t->v[i];
	return n;
}

/* Run captures with mode (and its argument) under backend with --args and extra, to its end. */
static void cap_run(struct rh_run *run, const char *backend, const char *mode, const char *arg,
		    const char *const extra[])
{
	const char *wl[] = { rh_workload("captures"), mode, arg, NULL };
	const char *args[16] = { "--backend", backend, "--args" };
	size_t n = 3;

	for (size_t i = 0; extra && extra[i] && n < 15; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	cr_assert_eq(rh_run_traced(run, wl, rh_trace_path, args), 0, "run failed (see stderr)");
	cr_assert(WIFEXITED(run->wl_status) && WEXITSTATUS(run->wl_status) == 3, "workload: %s", run->out);
	cr_assert(WIFEXITED(run->rec.status) && WEXITSTATUS(run->rec.status) == 0, "recorder:\n%s",
		  run->rec.err);
}

/* Parameters are arrays, not pointers: criterion may run a test in a new image of its binary. */
struct cap_backend {
	char name[8];
};

ParameterizedTestParameters(record_captures, exit_group_written_at_its_entry)
{
	static struct cap_backend backends[] = { { "bpf" }, { "perf" } };

	return cr_make_param_array(struct cap_backend, backends, 2);
}

/*
 * exit_group(3) never returns: exactly one SYSCALL of it, written at its entry as a call that
 * does not return (unfinished 2), duration 0 and ret 0, with its argument; a 1.7 session whose
 * HEADER gives the exec arguments' bounds (32 entries, --args-max bytes).
 */
ParameterizedTest(struct cap_backend *backend, record_captures, exit_group_written_at_its_entry)
{
	const struct cap_call *c[2];
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;

	cap_run(&run, backend->name, "exit", "3", NULL);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert(t.has_captures, "a session without captures");
	cr_assert_eq(t.captures.argv_max, 32);
	cr_assert_eq(t.captures.argv_bytes, 256);
	cr_assert_eq(t.captures.data, 0);
	cr_assert_eq(cap_find(&t, SYS_exit_group, c, 2), 1, "exit_group records");
	cr_assert_eq(c[0]->sc.unfinished, 2);
	cr_assert_eq(c[0]->sc.arg0, 3);
	cr_assert_eq(c[0]->sc.ret, 0);
	cr_assert_eq(c[0]->sc.duration_ns, 0);
	cr_assert_eq(c[0]->sc.tid, (uint32_t)run.wl_pid);
	cr_assert_eq(c[0]->sc.addr_flags | c[0]->sc.argv_flags | c[0]->sc.data_flags, 0);
	for (size_t i = 0; i < t.n; i++)
		cr_assert(t.v[i].sc.unfinished == 0 || t.v[i].sc.nr == SYS_exit_group,
			  "call %u unfinished %u", t.v[i].sc.nr, t.v[i].sc.unfinished);
	rh_run_release(&run);
}

struct cap_filter {
	char backend[8];
	char opt[16], arg[16]; /* arg "": none */
	size_t records; /* exit_group SYSCALL records */
	uint64_t counted; /* exit_group calls in the TOTALS */
};

ParameterizedTestParameters(record_captures, exit_group_filtered_and_counted_once)
{
	static struct cap_filter f[] = {
		{ "bpf", "-S", "exit_group", 1, 1 }, { "perf", "-S", "exit_group", 1, 1 },
		{ "bpf", "--failed", "", 0, 1 },     { "perf", "--failed", "", 0, 1 },
		/* the BPF programs count every call of the targets, the perf backend the selected */
		{ "bpf", "-S", "getpid", 0, 1 },     { "perf", "-S", "getpid", 0, 0 },
	};

	return cr_make_param_array(struct cap_filter, f, sizeof(f) / sizeof(f[0]));
}

/*
 * Under a filter the exit_group written at its entry passes the filters as a call that
 * returned 0 at once (--failed drops it), and the totals count it once, as without --args.
 */
ParameterizedTest(struct cap_filter *f, record_captures, exit_group_filtered_and_counted_once)
{
	const char *extra[] = { f->opt, f->arg[0] ? f->arg : NULL, NULL };
	const struct cap_call *c[2];
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;

	cap_run(&run, f->backend, "exit", "3", extra);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert_eq(cap_find(&t, SYS_exit_group, c, 2), f->records, "%s %s %s: exit_group records", f->backend,
		     f->opt, f->arg);
	cr_assert_eq(t.exit_group_totals, f->counted, "%s %s %s: exit_group counted %llu",
		     f->backend, f->opt, f->arg, (unsigned long long)t.exit_group_totals);
	rh_run_release(&run);
}

/* One call of the net workload: the address it holds and how it was read. */
struct net_call {
	long nr;
	uint32_t flags;        /* on the bpf backend */
	const void *addr;
	size_t len;
};

/* The six address calls of one net_pair() of the workload, in its order. */
static void net_calls(struct net_call *v, const void *given, size_t given_len, const void *bound, size_t bound_len,
		      const void *client, size_t client_len)
{
	const uint32_t entry = SCT_PATH_CAPTURED, exit = SCT_PATH_CAPTURED | SCT_PATH_LATE;

	v[0] = (struct net_call){ SYS_bind, entry, given, given_len };
	v[1] = (struct net_call){ SYS_getsockname, exit, bound, bound_len };
	v[2] = (struct net_call){ SYS_connect, entry, bound, bound_len };
	v[3] = (struct net_call){ SYS_accept4, exit, client, client_len };
	v[4] = (struct net_call){ SYS_getsockname, exit, client, client_len };
	v[5] = (struct net_call){ SYS_getpeername, exit, bound, bound_len };
}

static int cap_cmp_time(const void *a, const void *b)
{
	const struct cap_call *x = a, *y = b;

	return (x->sc.time_ns > y->sc.time_ns) - (x->sc.time_ns < y->sc.time_ns);
}

/*
 * t's calls in the order they were made. A file holds them in the order each CPU's stage
 * reached the ring buffer: a task that moved to another CPU can have its later calls first.
 * qsort() moves the calls, and each one's pointers must follow it to its own copies.
 */
static void cap_sort_by_time(struct cap_trace *t)
{
	qsort(t->v, t->n, sizeof(t->v[0]), cap_cmp_time);
	for (size_t i = 0; i < t->n; i++)
		cap_point(&t->v[i]);
}

static bool net_nr(uint32_t nr)
{
	return nr == SYS_bind || nr == SYS_getsockname || nr == SYS_connect || nr == SYS_accept4 ||
	       nr == SYS_getpeername;
}

static void net_hex(char *out, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = '\0';
}

ParameterizedTestParameters(record_captures, socket_addresses_as_the_calls_held_them)
{
	static struct cap_backend backends[] = { { "bpf" }, { "perf" } };

	return cr_make_param_array(struct cap_backend, backends, 2);
}

/*
 * Every socket address the workload gives or gets back, on 127.0.0.1, ::1, a path and an
 * abstract name: the exact bytes, read at entry (bind, connect) or at exit (getsockname,
 * accept4, getpeername: as long as the kernel says); the perf backend flags them not read.
 */
ParameterizedTest(struct cap_backend *backend, record_captures, socket_addresses_as_the_calls_held_them)
{
	bool perf = !strcmp(backend->name, "perf");
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in v4l = v4, v4c = v4;
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_in6 v6l = v6, v6c = v6;
	struct sockaddr_un path = { .sun_family = AF_UNIX }, abs = { .sun_family = AF_UNIX };
	sa_family_t unnamed = AF_UNIX;
	struct net_call want[24];
	size_t path_len, abs_len, k = 0;
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;
	char got[300], exp[300];
	const char *line;

	cap_run(&run, backend->name, "net", rh_dir, NULL);
	line = strstr(run.out, "inet ");
	cr_assert(line, "workload: %s", run.out);
	v4l.sin_port = htons((uint16_t)rh_field(line, "inet"));
	v4c.sin_port = htons((uint16_t)atol(strchr(line + 5, ' ') + 1));
	line = strstr(run.out, "inet6 ");
	cr_assert(line, "workload: %s", run.out);
	v6l.sin6_port = htons((uint16_t)rh_field(line, "inet6"));
	v6c.sin6_port = htons((uint16_t)atol(strchr(line + 6, ' ') + 1));
	snprintf(path.sun_path, sizeof(path.sun_path), "%s/s", rh_dir);
	path_len = offsetof(struct sockaddr_un, sun_path) + strlen(path.sun_path) + 1;
	abs_len = offsetof(struct sockaddr_un, sun_path) + 1 +
		  (size_t)snprintf(abs.sun_path + 1, sizeof(abs.sun_path) - 1, "sct-captures-%d", (int)run.wl_pid);
	net_calls(want, &v4, sizeof(v4), &v4l, sizeof(v4l), &v4c, sizeof(v4c));
	net_calls(want + 6, &v6, sizeof(v6), &v6l, sizeof(v6l), &v6c, sizeof(v6c));
	/* an unbound client's address is its family alone */
	net_calls(want + 12, &path, path_len, &path, path_len, &unnamed, sizeof(unnamed));
	net_calls(want + 18, &abs, abs_len, &abs, abs_len, &unnamed, sizeof(unnamed));

	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cap_sort_by_time(&t);
	for (size_t i = 0; i < t.n; i++) {
		const struct sct_syscall *sc = &t.v[i].sc;

		if (!net_nr(sc->nr))
			continue;
		cr_assert_lt(k, 24, "more address calls than the workload made");
		cr_assert_eq(sc->nr, (uint32_t)want[k].nr, "call %zu: nr %u, want %ld", k, sc->nr, want[k].nr);
		cr_assert_eq(sc->ret, sc->nr == SYS_accept4 ? sc->ret : 0, "call %zu failed", k);
		cr_assert_eq(sc->argv_flags | sc->data_flags, 0);
		if (perf) {
			cr_assert_eq(sc->addr_flags, SCT_PATH_NOT_READ, "call %zu: addr_flags %u", k, sc->addr_flags);
			cr_assert_eq(sc->addr.len, 0);
		} else {
			net_hex(got, sc->addr.ptr, sc->addr.len);
			net_hex(exp, want[k].addr, want[k].len);
			cr_assert_eq(sc->addr_flags, want[k].flags, "call %zu (nr %u): addr_flags %u", k, sc->nr,
				     sc->addr_flags);
			cr_assert_str_eq(got, exp, "call %zu (nr %u, %llu ns): addr %s, want %s", k, sc->nr,
					 (unsigned long long)sc->duration_ns, got, exp);
		}
		k++;
	}
	cr_assert_eq(k, 24, "address calls");
	rh_run_release(&run);
}

/*
 * Whether out (sct-report -T) has a call name whose text after its first argument starts with
 * rest, its line holding tail too: the arguments as the user reads them, whatever descriptor
 * the call had.
 */
static bool report_has_call(const char *out, const char *name, const char *rest, const char *tail)
{
	char head[32];

	snprintf(head, sizeof(head), " %s(", name);
	for (const char *p = strstr(out, head); p; p = strstr(p + 1, head)) {
		const char *eol = strchr(p, '\n'), *comma = strstr(p, ", "), *t = strstr(p, tail);

		if (!eol)
			eol = p + strlen(p);
		if (comma && comma < eol && !strncmp(comma + 2, rest, strlen(rest)) && t && t < eol)
			return true;
	}
	return false;
}

/*
 * What the user reads of the net workload's captures in sct-report -T: each socket address as
 * strace 6.1 writes it, with the ports the workload printed, and exit_group(3) = ?.
 */
Test(record_captures, report_shows_socket_addresses_as_strace)
{
	const char *args[] = { "-T", rh_trace_path, NULL };
	unsigned lport, cport, l6port;
	char want[6][256], *out;
	const char *line;
	struct rh_run run;

	cap_run(&run, "bpf", "net", rh_dir, NULL);
	line = strstr(run.out, "inet ");
	cr_assert(line, "workload: %s", run.out);
	lport = (unsigned)rh_field(line, "inet");
	cport = (unsigned)atol(strchr(line + 5, ' ') + 1);
	line = strstr(run.out, "inet6 ");
	cr_assert(line, "workload: %s", run.out);
	l6port = (unsigned)rh_field(line, "inet6");
	out = rh_report(args);
	snprintf(want[0], sizeof(want[0]),
		 "{sa_family=AF_INET, sin_port=htons(0), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0");
	snprintf(want[1], sizeof(want[1]),
		 "{sa_family=AF_INET, sin_port=htons(%u), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0", lport);
	snprintf(want[2], sizeof(want[2]),
		 "{sa_family=AF_INET, sin_port=htons(%u), sin_addr=inet_addr(\"127.0.0.1\")}, ", cport);
	snprintf(want[3], sizeof(want[3]),
		 "{sa_family=AF_INET6, sin6_port=htons(%u), sin6_flowinfo=htonl(0), "
		 "inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28) = 0", l6port);
	snprintf(want[4], sizeof(want[4]), "{sa_family=AF_UNIX, sun_path=\"%s/s\"}, %zu) = 0", rh_dir,
		 offsetof(struct sockaddr_un, sun_path) + strlen(rh_dir) + 3);
	snprintf(want[5], sizeof(want[5]), "{sa_family=AF_UNIX, sun_path=@\"sct-captures-%d\"}, %zu) = 0",
		 (int)run.wl_pid, offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)snprintf(NULL, 0,
		 "sct-captures-%d", (int)run.wl_pid));
	cr_assert(report_has_call(out, "bind", want[0], ""), "no bind(_, %s in:\n%s", want[0], out);
	cr_assert(report_has_call(out, "connect", want[1], ""), "no connect(_, %s in:\n%s", want[1], out);
	cr_assert(report_has_call(out, "accept4", want[2], ""), "no accept4(_, %s in:\n%s", want[2], out);
	for (size_t i = 3; i < 6; i++)
		cr_assert(report_has_call(out, "connect", want[i], ""), "no connect(_, %s in:\n%s", want[i], out);
	cr_assert(strstr(out, " exit_group(3) = ?"), "no exit_group(3) = ? in:\n%s", out);
	free(out);
	rh_run_release(&run);
}

/*
 * What the user reads of an exec in sct-report -T: its arguments quoted and escaped as strace
 * 6.1 does (octal for the UTF-8 bytes), the environment's count, and the new image's
 * exit_group(3) = ?.
 */
Test(record_captures, report_shows_exec_arguments_as_strace)
{
	const char *args[] = { "-T", rh_trace_path, NULL };
	char want[512], *out;
	struct rh_run run;

	cap_run(&run, "bpf", "exec", NULL, NULL);
	out = rh_report(args);
	snprintf(want, sizeof(want),
		 "[\"%s\", \"exit-now\", \"3\", \"with space\", "
		 "\"\\303\\274n\\303\\257c\\303\\270d\\303\\251 \\342\\234\\223\", \"aaaa",
		 rh_workload("captures"));
	cr_assert(report_has_call(out, "execve", want, "/* 3 vars */) = 0"),
		  "no execve(_, %s... /* 3 vars */) = 0 in:\n%s", want, out);
	cr_assert(strstr(out, " exit_group(3) = ?"), "no exit_group(3) = ? in:\n%s", out);
	free(out);
	rh_run_release(&run);
}

/*
 * A signal handler's return, rt_sigreturn, is a call as strace shows one: recorded with the
 * value it restored (tgkill's 0), in the timeline (without the frame's signal mask, which is
 * not captured) and counted in the summary.
 */
Test(record_captures, signal_return_recorded_and_shown)
{
	const char *timeline[] = { "-T", rh_trace_path, NULL }, *summary[] = { rh_trace_path, NULL };
	static struct cap_trace t;
	const struct cap_call *c[2];
	struct rh_run run;
	char *out;

	cap_run(&run, "bpf", "signal", NULL, NULL);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert_eq(cap_find(&t, SYS_rt_sigreturn, c, 2), 1, "rt_sigreturn records");
	cr_assert_eq(c[0]->sc.ret, 0);
	cr_assert_eq(c[0]->sc.unfinished, 0);
	out = rh_report(timeline);
	cr_assert(strstr(out, " tgkill(") && strstr(out, " rt_sigreturn() = 0 <"), "no rt_sigreturn() = 0 in:\n%s",
		  out);
	free(out);
	out = rh_report(summary);
	cr_assert(strstr(out, "  rt_sigreturn\n"), "no rt_sigreturn row in:\n%s", out);
	free(out);
	rh_run_release(&run);
}

ParameterizedTestParameters(record_captures, exec_arguments_and_environment_count)
{
	static struct cap_backend backends[] = { { "bpf" }, { "perf" } };

	return cr_make_param_array(struct cap_backend, backends, 2);
}

/*
 * The workload execs itself with known arguments (a space, UTF-8, one of 300 bytes) and three
 * environment entries: its execve holds them as given, each ending in a NUL, cut at --args-max
 * (256) bytes; then the new image's exit_group(3), written at its entry. The perf backend
 * flags them not read.
 */
ParameterizedTest(struct cap_backend *backend, record_captures, exec_arguments_and_environment_count)
{
	static const char utf8[] = "\xc3\xbcn\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9 \xe2\x9c\x93";
	bool perf = !strcmp(backend->name, "perf");
	const struct cap_call *c[2];
	char want[300];
	size_t n = 0;
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;

	cap_run(&run, backend->name, "exec", NULL, NULL);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert_eq(cap_find(&t, SYS_execve, c, 2), 1, "execve records");
	cr_assert_eq(c[0]->sc.ret, 0);
	if (perf) {
		cr_assert_eq(c[0]->sc.argv_flags, SCT_PATH_NOT_READ);
		cr_assert_eq(c[0]->sc.argv.len, 0);
		cr_assert_eq(c[0]->sc.envc, 0);
	} else {
		const char *parts[] = { rh_workload("captures"), "exit-now", "3", "with space", utf8 };

		for (size_t i = 0; i < 5; i++)
			n += (size_t)snprintf(want + n, sizeof(want) - n, "%s", parts[i]) + 1;
		cr_assert_lt(n, 255, "the workload's path leaves no room for the long argument");
		memset(want + n, 'a', 255 - n);
		want[255] = '\0';
		cr_assert_eq(c[0]->sc.argv_flags, SCT_PATH_CAPTURED | SCT_PATH_CUT, "argv_flags %u", c[0]->sc.argv_flags);
		cr_assert_eq(c[0]->sc.envc, 3);
		cr_assert_eq(c[0]->sc.argv.len, 256);
		cr_assert(!memcmp(c[0]->argv, want, 256), "argv %.*s", 256, c[0]->argv);
	}
	cr_assert_eq(c[0]->sc.addr_flags | c[0]->sc.data_flags, 0);
	cr_assert_eq(cap_find(&t, SYS_exit_group, c, 2), 1, "exit_group records");
	cr_assert_eq(c[0]->sc.unfinished, 2);
	cr_assert_eq(c[0]->sc.arg0, 3);
	rh_run_release(&run);
}

/*
 * Exec's environment counted exactly at every size around the recorder's chunks of 8 pointers
 * (the workload's sizes), from each of the 8 pointer slots of a 64-byte line, and up to the
 * last pointer of a page whose next page is not mapped; from 1,024 entries on, 1,024 flagged
 * as a lower bound. Then execveat's arguments and environment, as execve's.
 */
Test(record_captures, environment_counted_at_every_size_and_alignment)
{
	static struct cap_trace t;
	const struct cap_call *c[128];
	long sizes[16];
	size_t ns = 0, n;
	struct rh_run run;
	const char *p;
	char *end;

	cap_run(&run, "bpf", "envs", NULL, NULL);
	p = strstr(run.out, "envs ");
	cr_assert(p, "workload: %s", run.out);
	for (p += 4; *p == ' ' && ns < 16; p = end)
		sizes[ns++] = strtol(p, &end, 10);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	n = cap_find(&t, SYS_execve, c, 128);
	cr_assert_eq(n, ns * 9, "%zu execve records for %zu sizes", n, ns);
	for (size_t i = 0; i < n; i++) {
		long want = sizes[i < ns ? i : (i - ns) / 8];
		uint32_t lower = want >= 1024 ? SCT_ARGV_ENVC_LOWER : 0;

		cr_assert_eq(c[i]->sc.ret, -ENOENT);
		cr_assert_eq(c[i]->sc.envc, want < 1024 ? want : 1024, "execve %zu of %ld entries: envc %u", i,
			     want, c[i]->sc.envc);
		cr_assert_eq(c[i]->sc.argv_flags & SCT_ARGV_ENVC_LOWER, lower, "execve %zu: argv_flags %u", i,
			     c[i]->sc.argv_flags);
	}
	cr_assert_eq(cap_find(&t, SYS_execveat, c, 2), 1, "execveat records");
	cr_assert_eq(c[0]->sc.ret, -ENOENT);
	cr_assert_eq(c[0]->sc.argv_flags, SCT_PATH_CAPTURED, "execveat argv_flags %u", c[0]->sc.argv_flags);
	cr_assert_eq(c[0]->sc.argv.len, 6);
	cr_assert(!memcmp(c[0]->argv, "x\0y z\0", 6), "execveat argv %.*s", 6, c[0]->argv);
	cr_assert_eq(c[0]->sc.envc, 3);
	rh_run_release(&run);
}

struct cap_data {
	char backend[8];
	char bytes[8]; /* --args-data; "": without it */
};

ParameterizedTestParameters(record_captures, data_the_calls_moved)
{
	static struct cap_data d[] = { { "bpf", "64" }, { "bpf", "" }, { "perf", "64" } };

	return cr_make_param_array(struct cap_data, d, sizeof(d) / sizeof(d[0]));
}

/* The calls of the data workload that move data, in its order, and what each moved. */
static const struct data_call {
	long nr;
	uint32_t flags; /* with --args-data 64 on the bpf backend */
	const char *bytes;
} data_calls[] = {
	{ SYS_write, SCT_PATH_CAPTURED, "hello, world\n" },
	{ SYS_read, SCT_PATH_CAPTURED | SCT_PATH_LATE, "hello, world\n" },
	{ SYS_pwrite64, SCT_PATH_CAPTURED, "0123456789" },
	{ SYS_pread64, SCT_PATH_CAPTURED | SCT_PATH_LATE, "0123456789" },
	/* 300 bytes written, the first 64 kept */
	{ SYS_write, SCT_PATH_CAPTURED | SCT_PATH_CUT, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" },
	{ SYS_write, SCT_PATH_CAPTURED, NULL }, /* the "udp" line: its text is the workload's */
	{ SYS_sendto, SCT_PATH_CAPTURED, "ping" },
	{ SYS_recvfrom, SCT_PATH_CAPTURED | SCT_PATH_LATE, "ping" },
};

/*
 * --args-data 64: the first 64 bytes each read, pread64, recvfrom (at exit, as many as they
 * returned), write, pwrite64 and sendto (at entry) moved, with sendto's destination and
 * recvfrom's sender beside them; the HEADER says 64. Without it no data (HEADER "data" 0); the
 * perf backend flags the data not read.
 */
ParameterizedTest(struct cap_data *d, record_captures, data_the_calls_moved)
{
	const size_t ncalls = sizeof(data_calls) / sizeof(data_calls[0]);
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	bool perf = !strcmp(d->backend, "perf"), on = d->bytes[0];
	const char *extra[] = { "--args-data", d->bytes, NULL };
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;
	size_t k = 0;
	const char *line;

	cap_run(&run, d->backend, "data", rh_dir, on ? extra : NULL);
	line = strstr(run.out, "udp ");
	cr_assert(line, "workload: %s", run.out);
	v4.sin_port = htons((uint16_t)rh_field(line, "udp"));
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert_eq(t.captures.data, on ? 64 : 0);
	cap_sort_by_time(&t);
	for (size_t i = 0; i < t.n; i++) {
		const struct sct_syscall *sc = &t.v[i].sc;
		const struct data_call *w = &data_calls[k];

		if (sc->nr != SYS_write && sc->nr != SYS_read && sc->nr != SYS_pwrite64 && sc->nr != SYS_pread64 &&
		    sc->nr != SYS_sendto && sc->nr != SYS_recvfrom)
			continue;
		cr_assert_lt(k, ncalls, "more data calls than the workload made");
		cr_assert_eq(sc->nr, (uint32_t)w->nr, "call %zu: nr %u, want %ld", k, sc->nr, w->nr);
		if (!on) {
			cr_assert_eq(sc->data_flags, 0, "call %zu: data_flags %u", k, sc->data_flags);
		} else if (perf) {
			cr_assert_eq(sc->data_flags, SCT_PATH_NOT_READ, "call %zu: data_flags %u", k, sc->data_flags);
		} else {
			cr_assert_eq(sc->data_flags, w->flags, "call %zu: data_flags %u", k, sc->data_flags);
			if (w->bytes) {
				cr_assert_eq(sc->data.len, strlen(w->bytes), "call %zu: %u bytes", k, sc->data.len);
				cr_assert(!memcmp(t.v[i].data, w->bytes, sc->data.len), "call %zu: %.*s", k,
					  (int)sc->data.len, t.v[i].data);
			}
		}
		if ((sc->nr == SYS_sendto || sc->nr == SYS_recvfrom) && !perf) {
			cr_assert_eq(sc->addr.len, sizeof(v4), "call %zu: addr of %u bytes", k, sc->addr.len);
			cr_assert(!memcmp(t.v[i].addr, &v4, sizeof(v4)), "call %zu: not the socket's address", k);
		}
		k++;
	}
	cr_assert_eq(k, ncalls, "data calls");
	rh_run_release(&run);
}

/*
 * --args-max 16 bounds exec's arguments as it does a path: the first argument (the workload's
 * path, longer than that) cut to 15 bytes and its NUL, and nothing after it.
 */
Test(record_captures, exec_arguments_cut_at_args_max)
{
	const char *extra[] = { "--args-max", "16", NULL };
	const struct cap_call *c[2];
	static struct cap_trace t; /* megabytes: not on the stack */
	struct rh_run run;
	char want[16];

	cap_run(&run, "bpf", "exec", NULL, extra);
	cap_read(rh_trace_path, (uint32_t)run.wl_pid, &t);
	cr_assert_eq(t.captures.argv_bytes, 16);
	cr_assert_eq(cap_find(&t, SYS_execve, c, 2), 1, "execve records");
	memcpy(want, rh_workload("captures"), 15);
	want[15] = '\0';
	cr_assert_eq(c[0]->sc.argv_flags, SCT_PATH_CAPTURED | SCT_PATH_CUT, "argv_flags %u", c[0]->sc.argv_flags);
	cr_assert_eq(c[0]->sc.argv.len, 16);
	cr_assert(!memcmp(c[0]->argv, want, 16), "argv %.16s", c[0]->argv);
	cr_assert_eq(c[0]->sc.envc, 3);
	rh_run_release(&run);
}
