/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record's command line on bad input: a non-zero exit, a message that names the problem,
 * and no output file. Needs root (the recorder checks its privileges first).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

static char ro_dir[RH_DIR_MAX + 16]; /* a read-only tmpfs the test mounted, "" if none */

static void cli_fini(void)
{
	if (ro_dir[0]) {
		umount2(ro_dir, MNT_DETACH);
		rmdir(ro_dir);
	}
	rh_teardown();
}

TestSuite(record_cli, .init = rh_setup, .fini = cli_fini, .timeout = 60);

/* Run the recorder with args to its end: it must fail without tracing and leave no `out`. */
static void run_refused(const char *const args[], const char *out, struct rh_recorder *rec)
{
	struct stat st;
	int ret = rh_recorder_start(rec, args);

	if (ret == 0) {
		rh_recorder_finish(rec, SIGKILL, RH_TIMEOUT_MS);
		cr_assert_fail("the recorder started tracing:\n%s", rec->err);
	}
	cr_assert_eq(ret, -ECHILD, "the recorder neither failed nor got ready: %s", strerror(-ret));
	cr_assert(WIFEXITED(rec->status) && WEXITSTATUS(rec->status) != 0, "status %#x:\n%s", rec->status,
		  rec->err);
	if (out)
		cr_assert_neq(stat(out, &st), 0, "%s was created", out);
}

/* Refused with `needle` in the message. */
static void assert_refused(const char *const args[], const char *needle, const char *out)
{
	struct rh_recorder rec;

	run_refused(args, out, &rec);
	cr_assert_not_null(strstr(rec.err, needle), "no '%s' in the message:\n%s", needle, rec.err);
}

#define RC_USAGE "Usage: sct-record [OPTIONS] (-p PID | -t TID | -G CGROUP | -a) [-- CMD [ARGS...]]  " \
		 "(sct-record --help for more)\n"

/* Refused as a usage error: the message, then the usage line, exit status 2. */
static void assert_usage_error(const char *const args[], const char *needle)
{
	struct rh_recorder rec;
	const char *at;

	run_refused(args, rh_trace_path, &rec);
	at = strstr(rec.err, needle);
	cr_assert_not_null(at, "no '%s' in the message:\n%s", needle, rec.err);
	cr_assert_not_null(strstr(at, "\n" RC_USAGE), "no usage line after the message:\n%s", rec.err);
	cr_assert_eq(WEXITSTATUS(rec.status), 2, "exit status %d:\n%s", WEXITSTATUS(rec.status), rec.err);
}

/* An option getopt does not know, or one without its value: getopt's line, the usage line, no more. */
Test(record_cli, unknown_option_is_one_line_and_the_usage)
{
	static const struct {
		const char *arg, *line;
	} cases[] = {
		{ "--bogus", "sct-record: unrecognized option '--bogus'\n" },
		{ "-Q", "sct-record: invalid option -- 'Q'\n" },
		{ "--duration", "sct-record: option '--duration' requires an argument\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { "-o", rh_trace_path, "-a", cases[i].arg, NULL };
		struct rh_recorder rec;
		char want[256];

		run_refused(args, rh_trace_path, &rec);
		snprintf(want, sizeof(want), "%s%s", cases[i].line, RC_USAGE);
		cr_assert_str_eq(rec.err, want);
		cr_assert_eq(WEXITSTATUS(rec.status), 2, "exit status %d:\n%s", WEXITSTATUS(rec.status), rec.err);
	}
}

/* A pid no process has now. */
static pid_t unused_pid(void)
{
	pid_t p;

	for (p = 32000; p > 300 && (kill(p, 0) == 0 || errno != ESRCH); p--)
		;
	return p;
}

/*
 * A -p/-t argument that must be refused with `invalid WHAT: 'shown'` and exit status 2.
 * Arrays, not pointers: Criterion runs each case in a new process image.
 */
struct bad_ids {
	char flag[4], arg[64], shown[80];
};

ParameterizedTestParameters(record_cli, bad_id_lists)
{
	static struct bad_ids cases[] = {
		{"-p", "abc", "pid: 'abc'"},
		{"-p", "", "pid: ''"},
		{"-p", "0", "pid: '0'"},
		{"-p", "-1", "pid: '-1'"},
		{"-p", "+1", "pid: '+1'"},
		{"-p", " 1", "pid: ' 1'"},
		{"-p", "1 ", "pid: '1 '"},
		{"-p", "1x", "pid: '1x'"},
		{"-p", "2147483648", "pid: '2147483648'"},
		{"-p", "4294967297", "pid: '4294967297'"},
		{"-p", "99999999999999999999999", "pid: '99999999999999999999999'"},
		{"-p", "00000000000000000000000000000002627junkjunk",
		 "pid: '00000000000000000000000000000002627junkjunk'"},
		{"-p", "1,", "pid: '1,'"},
		{"-p", ",1", "pid: ',1'"},
		{"-p", "1,,1", "pid: '1,,1'"},
		{"-p", "1,abc,1", "pid: 'abc'"},
		{"-t", "0", "tid: '0'"},
		{"-t", "1,-2", "tid: '-2'"},
		{"-t", "000000000000000000000000000000001x", "tid: '000000000000000000000000000000001x'"},
	};

	return cr_make_param_array(struct bad_ids, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_ids *c, record_cli, bad_id_lists)
{
	const char *args[] = {"-o", rh_trace_path, c->flag, c->arg, NULL};
	char needle[128];

	snprintf(needle, sizeof(needle), "sct-record: invalid %s\n", c->shown);
	assert_usage_error(args, needle);
}

/* An item longer than any buffer is read whole: here a pid that does not exist, never pid 1. */
Test(record_cli, long_pid_is_not_cut)
{
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	char arg[64], needle[64];
	pid_t p = unused_pid();

	snprintf(arg, sizeof(arg), "%040d", p);
	snprintf(needle, sizeof(needle), "cannot trace pid %d: no such process", p);
	args[3] = arg;
	assert_refused(args, needle, rh_trace_path);
}

Test(record_cli, pid_that_does_not_exist)
{
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", unused_pid());
	args[3] = pid;
	assert_refused(args, pid, rh_trace_path);
}

Test(record_cli, existing_output_needs_force)
{
	const char *wl[] = {rh_workload("nullwriter"), "10", "7", NULL};
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	const char *forced[] = {"-o", rh_trace_path, "--force", "-p", NULL, NULL};
	struct rh_proc p;
	struct rh_recorder rec;
	struct rh_trace t;
	char pid[16], keep[8] = {0};
	int fd = open(rh_trace_path, O_CREAT | O_WRONLY | O_EXCL, 0600);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "keep", 4), 4);
	close(fd);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[3] = forced[4] = pid;
	assert_refused(args, rh_trace_path, NULL);
	fd = open(rh_trace_path, O_RDONLY);
	cr_assert_eq(read(fd, keep, sizeof(keep)), 4, "the existing file was changed");
	cr_assert_str_eq(keep, "keep");
	close(fd);
	/* with --force the same run records over it */
	cr_assert_eq(rh_recorder_start(&rec, forced), 0, "recorder --force: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop by itself:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	cr_assert_eq(rh_count_returns(&t, (uint32_t)p.pid, t.nr_write, 7), 10);
	rh_trace_free(&t);
	rh_proc_release(&p);
}

Test(record_cli, unwritable_output_dir)
{
	char out[sizeof(ro_dir) + 16], pid[16];
	const char *args[] = {"-o", out, "-p", pid, NULL};

	snprintf(ro_dir, sizeof(ro_dir), "%s/ro", rh_dir);
	cr_assert_eq(mkdir(ro_dir, 0700), 0);
	/* root ignores mode bits: only a read-only mount makes a folder unwritable for it */
	cr_assert_eq(mount("sct-test", ro_dir, "tmpfs", MS_RDONLY, "size=64k"), 0, "mount: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/trace.sct", ro_dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	assert_refused(args, out, out);
}

/* A ring buffer too small for an exec event would lose every EXEC: refused, with the minimum. */
Test(record_cli, ring_buffer_too_small_for_an_exec)
{
	char pid[16];
	const char *args[] = {"-o", rh_trace_path, "--ringbuf-size", "4K", "-p", pid, NULL};

	cr_assert_eq(sysconf(_SC_PAGESIZE), 4096, "the message below is the one of 4K pages");
	snprintf(pid, sizeof(pid), "%d", getpid());
	assert_usage_error(args, "sct-record: invalid ring buffer size: '4K': 8K at least");
}

/* -e takes GROUP:NAME items of tracefs, nothing that could climb out of its folder. */
Test(record_cli, bad_event_names)
{
	static const char *const bad[] = {"write", "syscalls:", ":sys_enter_write", "../x:y",
					  "syscalls:sys_enter_write,", "a:b:c"};
	char pid[16];
	const char *args[] = {"-o", rh_trace_path, "-e", NULL, "-p", pid, NULL};

	snprintf(pid, sizeof(pid), "%d", getpid());
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		args[3] = bad[i];
		assert_usage_error(args, "sct-record: invalid event: ");
	}
}

/* A tracepoint tracefs does not have: refused before any file, with either backend. */
Test(record_cli, unknown_tracepoint_is_refused)
{
	static const char *const backends[] = {"perf", "bpf"};
	char pid[16];
	const char *args[] = {"--backend", NULL, "-o", rh_trace_path, "-e", "nosuch:event", "-p", pid,
			      NULL};

	snprintf(pid, sizeof(pid), "%d", getpid());
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		args[1] = backends[i];
		assert_refused(args, "sct-record: no tracepoint nosuch:event in ", rh_trace_path);
	}
}

Test(record_cli, bad_flag_value)
{
	char pid[16];
	const char *args[] = {"-o", rh_trace_path, "--duration", "soon", "-p", pid, NULL};

	snprintf(pid, sizeof(pid), "%d", getpid());
	assert_refused(args, "soon", rh_trace_path);
}

/* --help and --version print to stdout and exit 0 without tracing anything. */
static void assert_info(const char *flag, const char *needle)
{
	const char *argv[] = {rh_recorder_path(), flag, NULL};
	struct rh_proc p;
	char *out = NULL;
	int status;

	cr_assert_eq(rh_spawn(&p, argv, false), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %#x", flag, status);
	cr_assert_not_null(strstr(out, needle), "%s printed:\n%s", flag, out);
	free(out);
	rh_proc_release(&p);
}

Test(record_cli, help_and_version)
{
	assert_info("--help", "--max-tasks");
	assert_info("--version", "sct-record");
}

struct missing {
	char force[32];   /* SCT_RECORD_FORCE */
	char mode[8];     /* -G needs one more feature than the other modes */
	char backend[8];  /* --backend: auto would take the other one */
	char message[96]; /* the whole stderr line */
};

ParameterizedTestParameters(record_cli, missing_kernel_feature_stops_with_its_version)
{
	static struct missing missing[] = {
		{"no-btf", "-p", "bpf", "sct-record: this kernel has no BTF (CONFIG_DEBUG_INFO_BTF=y) (Linux 5.4+)\n"},
		{"no-tp-btf", "-p", "bpf", "sct-record: this kernel has no BTF tracepoint programs (tp_btf) (Linux 5.5+)\n"},
		{"no-ringbuf", "-p", "bpf", "sct-record: this kernel has no BPF ring buffer (Linux 5.8+)\n"},
		{"no-task-iter", "-p", "bpf", "sct-record: this kernel has no BPF task iterator (Linux 5.8+)\n"},
		{"no-ancestor-cgroup", "-G", "bpf", "sct-record: this kernel has no "
		 "bpf_get_current_ancestor_cgroup_id() (Linux 5.7+)\n"},
		{"no-raw-syscalls", "-p", "perf", "sct-record: this kernel has no raw_syscalls tracepoints "
		 "in tracefs (Linux 2.6+)\n"},
		/* with neither backend, auto names what bpf lacks */
		{"no-btf,no-raw-syscalls", "-p", "auto", "sct-record: this kernel has no BTF "
		 "(CONFIG_DEBUG_INFO_BTF=y) (Linux 5.4+)\n"},
	};

	return cr_make_param_array(struct missing, missing, sizeof(missing) / sizeof(missing[0]));
}

/* A kernel without a hard requirement: the recorder names it and the version that has it. */
ParameterizedTest(struct missing *m, record_cli, missing_kernel_feature_stops_with_its_version)
{
	char self[16];
	const char *args[] = {"--backend", m->backend, "-o", rh_trace_path, m->mode, self, NULL};

	snprintf(self, sizeof(self), "%d", getpid());
	if (!strcmp(m->mode, "-G"))
		snprintf(self, sizeof(self), "/");
	setenv("SCT_RECORD_FORCE", m->force, 1);
	assert_refused(args, m->message, rh_trace_path);
	unsetenv("SCT_RECORD_FORCE");
}

/* -G alone needs the ancestor helper: the other modes run without it. */
Test(record_cli, ancestor_helper_is_needed_by_cgroup_mode_only)
{
	const char *args[] = {"-o", rh_trace_path, "--", "true", NULL};
	struct rh_recorder rec;

	setenv("SCT_RECORD_FORCE", "no-ancestor-cgroup", 1);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "%s", rec.err);
	unsetenv("SCT_RECORD_FORCE");
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status,
		  rec.err);
}

/* --args-max outside 1..4096, or without --args: refused with the range and the usage line. */
Test(record_cli, args_max_range)
{
	static const char *const bad[] = { "0", "4097", "256x", "-1" };
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = {"-o", rh_trace_path, "--args", "--args-max", bad[i], "-p", pid, NULL};
		char needle[128];

		snprintf(needle, sizeof(needle), "sct-record: invalid args-max: '%s': 1..4096 bytes expected",
			 bad[i]);
		assert_usage_error(args, needle);
	}
	{
		const char *args[] = {"-o", rh_trace_path, "--args-max", "64", "-p", pid, NULL};

		assert_usage_error(args, "sct-record: --args-max needs --args");
	}
}

/* --args needs task storage: without it, refused before any file is made, with the reason. */
Test(record_cli, args_need_task_storage)
{
	/* the bpf backend's need: the perf backend reads the registers from its samples */
	const char *args[] = {"-o", rh_trace_path, "--backend", "bpf", "--args", "--", "true", NULL};

	setenv("SCT_RECORD_FORCE", "no-task-storage", 1);
	assert_refused(args, "sct-record: --args needs task storage for tracing programs (Linux 5.12)",
		       rh_trace_path);
	unsetenv("SCT_RECORD_FORCE");
}
