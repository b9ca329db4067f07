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

/* Run the recorder with args to its end; it must fail, say `needle` and leave no `out`. */
static void assert_refused(const char *const args[], const char *needle, const char *out)
{
	struct rh_recorder rec;
	struct stat st;
	int ret = rh_recorder_start(&rec, args);

	if (ret == 0) {
		rh_recorder_finish(&rec, SIGKILL, RH_TIMEOUT_MS);
		cr_assert_fail("the recorder started tracing:\n%s", rec.err);
	}
	cr_assert_eq(ret, -ECHILD, "the recorder neither failed nor got ready: %s", strerror(-ret));
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) != 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_not_null(strstr(rec.err, needle), "no '%s' in the message:\n%s", needle, rec.err);
	if (out)
		cr_assert_neq(stat(out, &st), 0, "%s was created", out);
}

Test(record_cli, bad_pid)
{
	const char *args[] = {"-o", rh_trace_path, "-p", "abc", NULL};

	assert_refused(args, "abc", rh_trace_path);
}

Test(record_cli, pid_that_does_not_exist)
{
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, NULL};
	char pid[16];
	pid_t p;

	for (p = 32000; p > 300 && (kill(p, 0) == 0 || errno != ESRCH); p--)
		;
	snprintf(pid, sizeof(pid), "%d", p);
	args[3] = pid;
	assert_refused(args, pid, rh_trace_path);
}

Test(record_cli, existing_output_needs_force)
{
	const char *wl[] = {rh_workload("writer"), "10", "7", NULL};
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
	char message[96]; /* the whole stderr line */
};

ParameterizedTestParameters(record_cli, missing_kernel_feature_stops_with_its_version)
{
	static struct missing missing[] = {
		{"no-btf", "-p", "sct-record: this kernel has no BTF (CONFIG_DEBUG_INFO_BTF=y) (Linux 5.4+)\n"},
		{"no-tp-btf", "-p", "sct-record: this kernel has no BTF tracepoint programs (tp_btf) (Linux 5.5+)\n"},
		{"no-ringbuf", "-p", "sct-record: this kernel has no BPF ring buffer (Linux 5.8+)\n"},
		{"no-task-iter", "-p", "sct-record: this kernel has no BPF task iterator (Linux 5.8+)\n"},
		{"no-ancestor-cgroup", "-G", "sct-record: this kernel has no "
		 "bpf_get_current_ancestor_cgroup_id() (Linux 5.7+)\n"},
	};

	return cr_make_param_array(struct missing, missing, sizeof(missing) / sizeof(missing[0]));
}

/* A kernel without a hard requirement: the recorder names it and the version that has it. */
ParameterizedTest(struct missing *m, record_cli, missing_kernel_feature_stops_with_its_version)
{
	char self[16];
	const char *args[] = {"-o", rh_trace_path, m->mode, self, NULL};

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
