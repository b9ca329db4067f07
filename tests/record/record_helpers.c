/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers of the sct-record integration tests: see record_helpers.h. */
#include "record_helpers.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The recorder's stderr line once tracing is live (record/main.c prints it). */
#define RH_READY_PREFIX "sct-record: tracing "

bool rh_in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

const char *rh_recorder_path(void)
{
	const char *p = getenv("SCT_RECORD");

	return p && *p ? p : "build/sct-record";
}

const char *rh_workload(const char *name)
{
	static char path[PATH_MAX];
	const char *dir = getenv("SCT_WORKLOADS");
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/%s", dir && *dir ? dir : "build/tests/record/workloads", name);
	if (!realpath(rel, path))
		snprintf(path, sizeof(path), "%s", rel);
	return path;
}

void rh_require_root(void)
{
	const char *why = NULL;

	if (geteuid() != 0)
		why = "not root: the sct-record tests load BPF programs";
	else if (access(rh_recorder_path(), X_OK) != 0)
		why = "the recorder binary is missing (set SCT_RECORD or build it)";
	if (!why)
		return;
	if (rh_in_ci())
		cr_assert_fail("CI=true and %s (%s)", why, rh_recorder_path());
	fprintf(stderr, "\n*** SKIPPING sct-record integration test: %s ***\n\n", why);
	cr_skip_test("%s", why);
}

/* In a child, since where ia32 calls do not run, the first one kills the process making it. */
static bool rh_ia32_runs(void)
{
	const long ia32_getpid = 20;
	int status;
	pid_t pid;

	pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		long ret;

		/* the fault is an answer: a sanitizer's handler would report it as a crash */
		signal(SIGSEGV, SIG_DFL);
		__asm__ volatile("int $0x80"
				 : "=a"(ret)
				 : "a"(ia32_getpid)
				 : "memory", "r8", "r9", "r10", "r11");
		_exit(ret == getpid() ? 0 : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid, "waitpid: %s", strerror(errno));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void rh_require_ia32(void)
{
	const char *why = "this kernel runs no ia32 calls of a 64-bit process (ia32 emulation off)";

	if (rh_ia32_runs())
		return;
	fprintf(stderr, "\n*** SKIPPING: %s; the kernel matrix's guests run them ***\n\n", why);
	cr_skip_test("%s", why);
}

void rh_require_cpus(long n)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online >= n)
		return;
	fprintf(stderr, "\n*** SKIPPING: %ld CPU(s) online, the test needs %ld ***\n\n", online, n);
	cr_skip_test("%ld CPU(s) online, the test needs %ld", online, n);
}

static int64_t rh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until fd has something to read (or EOF) before the deadline. */
static int rh_poll_in(int fd, int64_t deadline_ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	for (;;) {
		int64_t left = deadline_ms - rh_now_ms();
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Every child spawned by this test, so that a failed assertion leaves none running. */
#define RH_MAX_CHILDREN 64
static pid_t rh_children[RH_MAX_CHILDREN];
static size_t rh_nchildren;

/* Kill and reap the children still running; a reaped pid is no longer ours to signal. */
static void rh_children_kill(void)
{
	for (size_t i = 0; i < rh_nchildren; i++)
		if (waitpid(rh_children[i], NULL, WNOHANG) == 0) {
			kill(rh_children[i], SIGKILL);
			waitpid(rh_children[i], NULL, 0);
		}
	rh_nchildren = 0;
}

/*
 * Return once the child has exec'd (or died): the exec closes the write end of a CLOEXEC pipe.
 * A tracer started next must find the program, not a copy of the test still on its way there.
 */
static void rh_wait_exec(int ex[2])
{
	char c;

	close(ex[1]);
	while (read(ex[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ex[0]);
}

int rh_spawn(struct rh_proc *p, const char *const argv[], bool pipe_err)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, ex[2] = {-1, -1};
	int ret;

	p->pid = -1;
	p->in_fd = p->out_fd = p->err_fd = -1;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || (pipe_err && pipe2(err, O_CLOEXEC)) ||
	    pipe2(ex, O_CLOEXEC)) {
		ret = -errno;
		goto close_pipes;
	}
	p->pid = fork();
	if (p->pid < 0) {
		ret = -errno;
		goto close_pipes;
	}
	if (p->pid == 0) {
		/* even a test killed by its timeout leaves nothing running */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || (pipe_err && dup2(err[1], 2) < 0))
			_exit(126);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (rh_nchildren < RH_MAX_CHILDREN)
		rh_children[rh_nchildren++] = p->pid;
	rh_wait_exec(ex);
	close(in[0]);
	close(out[1]);
	if (pipe_err)
		close(err[1]);
	p->in_fd = in[1];
	p->out_fd = out[0];
	p->err_fd = err[0];
	return 0;

close_pipes:
	for (int i = 0; i < 2; i++) {
		if (ex[i] >= 0)
			close(ex[i]);
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return ret;
}

int rh_go(struct rh_proc *p)
{
	return write(p->in_fd, "g", 1) == 1 ? 0 : -errno;
}

bool rh_blocked_in(pid_t tid, long nr)
{
	char path[64], buf[256];
	FILE *f;
	bool in;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)tid);
	f = fopen(path, "re");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	in = fgets(buf, sizeof(buf), f) && strtol(buf, NULL, 10) == nr && buf[0] != 'r';
	fclose(f);
	return in;
}

int rh_read_line(int fd, char *buf, size_t cap, int timeout_ms)
{
	int64_t deadline = rh_now_ms() + timeout_ms;
	size_t len = 0;
	bool any = false;

	for (;;) {
		char c;
		ssize_t n;
		int ret = rh_poll_in(fd, deadline);

		if (ret)
			return ret;
		n = read(fd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		any = true;
		if (c == '\n')
			break;
		if (len + 1 < cap)
			buf[len++] = c;
	}
	buf[len] = '\0';
	return any ? (int)len : -ENODATA;
}

int rh_read_all(int fd, char **out, int timeout_ms)
{
	int64_t deadline = rh_now_ms() + timeout_ms;
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *tmp;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			tmp = realloc(buf, cap * 2);
			if (!tmp) {
				ret = -ENOMEM;
				break;
			}
			buf = tmp;
			cap *= 2;
		}
		ret = rh_poll_in(fd, deadline);
		if (ret)
			break;
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	return ret;
}

int rh_wait(pid_t pid, int timeout_ms, int *status, struct rusage *ru)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int st = 0, ret = 0;

	if (pidfd < 0)
		return -errno;
	ret = rh_poll_in(pidfd, rh_now_ms() + timeout_ms);
	close(pidfd);
	if (ret)
		return ret;
	while (wait4(pid, &st, 0, ru) < 0)
		if (errno != EINTR)
			return -errno;
	if (status)
		*status = st;
	return 0;
}

void rh_proc_release(struct rh_proc *p)
{
	if (p->in_fd >= 0)
		close(p->in_fd);
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	p->in_fd = p->out_fd = p->err_fd = -1;
	if (p->pid > 0 && waitpid(p->pid, NULL, WNOHANG) == 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	p->pid = -1;
}

char *rh_report(const char *const args[])
{
	char report[PATH_MAX], *out = NULL, *slash;
	const char *argv[16] = { report };
	struct rh_proc p;
	size_t n = 1;
	int status;

	for (; args[n - 1]; n++)
		cr_assert_lt(n, sizeof(argv) / sizeof(argv[0]) - 1, "too many sct-report arguments");
	memcpy(argv + 1, args, (n - 1) * sizeof(*args));
	snprintf(report, sizeof(report), "%s", rh_recorder_path());
	slash = strrchr(report, '/');
	cr_assert_not_null(slash);
	snprintf(slash + 1, sizeof(report) - (size_t)(slash + 1 - report), "sct-report");
	cr_assert_eq(rh_spawn(&p, argv, false), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, &status, NULL), 0);
	p.pid = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "sct-report status %#x:\n%s", status, out);
	rh_proc_release(&p);
	return out;
}

/* Append stderr bytes to r->err, keeping it NUL-terminated and bounded. */
static void rh_err_append(struct rh_recorder *r, const char *s, size_t n)
{
	size_t room = sizeof(r->err) - 1 - r->errlen;

	if (n > room)
		n = room;
	memcpy(r->err + r->errlen, s, n);
	r->errlen += n;
	r->err[r->errlen] = '\0';
}

const char *rh_backend(void)
{
	const char *b = getenv(RH_BACKEND_ENV);

	return b && *b ? b : NULL;
}

/* Field 5 of the cgroup2 line of /proc/self/mountinfo (the fstype follows " - "). */
void rh_cgroup2_mount(char *out, size_t cap)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[PATH_MAX];

	cr_assert_not_null(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sep && !strncmp(sep + 3, "cgroup2 ", 8) &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			snprintf(out, cap, "%s", mnt);
			break;
		}
	}
	fclose(f);
	cr_assert(out[0], "no cgroup2 mount in /proc/self/mountinfo");
}

uint64_t rh_cgroup_make(char *dir, const char *suffix, char *rel, size_t cap)
{
	char mnt[PATH_MAX];
	struct stat st;

	rh_cgroup2_mount(mnt, sizeof(mnt));
	snprintf(rel, cap, "/sct-test-%d%s", getpid(), suffix);
	snprintf(dir, PATH_MAX, "%s%s", mnt, rel);
	rmdir(dir);
	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s: %s", dir, strerror(errno));
	cr_assert_eq(stat(dir, &st), 0);
	return st.st_ino;
}

void rh_cgroup_move(const char *dir, pid_t pid)
{
	char path[PATH_MAX + 16], buf[16];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	n = snprintf(buf, sizeof(buf), "%d", pid);
	cr_assert_eq(write(fd, buf, (size_t)n), n, "move %d into %s: %s", pid, dir, strerror(errno));
	close(fd);
}

bool rh_perf_cgroup(void)
{
	const char *argv[] = {rh_recorder_path(), "--probe", NULL};
	struct rh_proc p;
	char *out = NULL;
	const char *line;
	bool yes;

	cr_assert_eq(rh_spawn(&p, argv, false), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_wait(p.pid, RH_TIMEOUT_MS, NULL, NULL), 0);
	p.pid = -1;
	rh_proc_release(&p);
	line = strstr(out, "\nperf-cgroup ");
	cr_assert_not_null(line, "no perf-cgroup line in --probe's output:\n%s", out);
	line += strlen("\nperf-cgroup");
	line += strspn(line, " ");
	yes = !strncmp(line, "yes", 3);
	free(out);
	return yes;
}

bool rh_perf_cgroup_refused(const char **args)
{
	struct rh_recorder rec;

	if (!RH_PERF() || rh_perf_cgroup())
		return false;
	cr_assert_eq(rh_recorder_start(&rec, args), -ECHILD, "ready:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x", rec.status);
	cr_assert_not_null(strstr(rec.err, "sct-record: -G with the perf backend needs the "
				  "perf_event controller on cgroup2: perf_event has no state in "),
			  "%s", rec.err);
	return true;
}

int rh_recorder_start_under(struct rh_recorder *r, const char *const prefix[], const char *const args[])
{
	const char *argv[64];
	size_t n = 0;
	char line[1024];
	int ret;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	for (size_t i = 0; prefix[i] && n < 60; i++)
		argv[n++] = prefix[i];
	argv[n++] = rh_recorder_path();
	if (rh_backend()) {
		argv[n++] = "--backend";
		argv[n++] = rh_backend();
	}
	for (size_t i = 0; args[i] && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	ret = rh_spawn(&r->proc, argv, true);
	if (ret)
		return ret;
	for (;;) {
		ret = rh_read_line(r->proc.err_fd, line, sizeof(line), RH_TIMEOUT_MS);
		if (ret == -ENODATA) {
			/* EOF before the ready line: the recorder failed; collect its status. */
			rh_wait(r->proc.pid, RH_TIMEOUT_MS, &r->status, &r->ru);
			r->proc.pid = -1;
			rh_proc_release(&r->proc);
			return -ECHILD;
		}
		if (ret < 0)
			break;
		rh_err_append(r, line, strlen(line));
		rh_err_append(r, "\n", 1);
		if (!strncmp(line, RH_READY_PREFIX, strlen(RH_READY_PREFIX)))
			return 0;
	}
	return ret;
}

int rh_recorder_start(struct rh_recorder *r, const char *const args[])
{
	const char *none[] = {NULL};

	return rh_recorder_start_under(r, none, args);
}

int rh_recorder_start_straced(struct rh_recorder *r, const char *log, const char *const args[])
{
	/* LeakSanitizer cannot run under ptrace: a sanitized recorder's leak check is off here. */
	const char *strace[] = {"/usr/bin/strace", "-f", "-q", "-e", "trace=epoll_wait,bpf", "-o", log,
				"-E", "ASAN_OPTIONS=detect_leaks=0", NULL};

	return rh_recorder_start_under(r, strace, args);
}

/*
 * strace -f lines: "PID epoll_wait(FD, EVENTS, MAX, TIMEOUT) = RET", split into
 * "... <unfinished ...>" and "PID <... epoll_wait resumed>...) = RET" when another process
 * ran in between, and "PID +++ exited with N +++" when a process ends. Only the recorder
 * calls epoll_wait: the pid of the first such line is the recorder's.
 */
int rh_strace_epoll_waits(const char *log, struct rh_epoll_wait *w, size_t cap)
{
	FILE *f = fopen(log, "re");
	char line[4096];
	long recorder = -1, timeout = -1;
	size_t n = 0;
	bool others_exited = false;

	if (!f)
		return -errno;
	while (recorder < 0 && fgets(line, sizeof(line), f))
		if (strstr(line, "epoll_wait"))
			recorder = strtol(line, NULL, 10);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		const char *call = strstr(line, "epoll_wait("), *eq = strrchr(line, '=');

		if (strtol(line, NULL, 10) != recorder) {
			others_exited |= strstr(line, "+++ exited with") || strstr(line, "+++ killed by");
			continue;
		}
		if (call) {
			const char *last_comma = strrchr(call, ',');

			timeout = last_comma ? strtol(last_comma + 1, NULL, 10) : -1;
		}
		if ((call || strstr(line, "epoll_wait resumed>")) && !strstr(line, "<unfinished") && eq &&
		    n < cap) {
			w[n].timeout_ms = timeout;
			w[n].ret = strtol(eq + 1, NULL, 10);
			w[n].after_last_exit = others_exited;
			n++;
		}
	}
	fclose(f);
	return (int)n;
}

/* strace prints a run on a chosen CPU as "bpf(BPF_PROG_TEST_RUN, {test={... flags=BPF_F_TEST_RUN_ON_CPU, cpu=N, ...". */
int rh_strace_cpu_runs(const char *log, unsigned *runs, unsigned ncpus)
{
	static const char mark[] = "BPF_F_TEST_RUN_ON_CPU, cpu=";
	FILE *f = fopen(log, "re");
	char line[4096];
	int n = 0;

	if (!f)
		return -errno;
	memset(runs, 0, ncpus * sizeof(*runs));
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, mark);
		unsigned long cpu;

		if (!p || !strstr(line, "bpf(BPF_PROG_TEST_RUN"))
			continue;
		cpu = strtoul(p + sizeof(mark) - 1, NULL, 10);
		if (cpu < ncpus)
			runs[cpu]++;
		n++;
	}
	fclose(f);
	return n;
}

int rh_recorder_finish(struct rh_recorder *r, int sig, int timeout_ms)
{
	char *rest = NULL;
	int ret;

	if (r->proc.pid <= 0)
		return 0;
	if (sig && kill(r->proc.pid, sig))
		return -errno;
	ret = rh_read_all(r->proc.err_fd, &rest, timeout_ms);
	if (rest)
		rh_err_append(r, rest, strlen(rest));
	free(rest);
	if (ret)
		return ret;
	ret = rh_wait(r->proc.pid, timeout_ms, &r->status, &r->ru);
	if (!ret) {
		r->proc.pid = -1;
		rh_proc_release(&r->proc);
	}
	return ret;
}

size_t rh_drain_to_file(int fd, const char *path)
{
	int out = open(path, O_CREAT | O_WRONLY | O_EXCL, 0600);
	char buf[65536];
	size_t total = 0;

	cr_assert_geq(out, 0);
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		cr_assert_eq(poll(&pfd, 1, RH_TIMEOUT_MS), 1, "no data and no EOF from the FIFO");
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		cr_assert_geq(n, 0, "read: %s", strerror(errno));
		if (n == 0)
			break;
		cr_assert_eq(write(out, buf, n), n);
		total += n;
	}
	close(out);
	return total;
}

int rh_tmp_make(char *dir, size_t cap)
{
	if (snprintf(dir, cap, "/tmp/sct-test-XXXXXX") >= (int)cap)
		return -ENAMETOOLONG;
	return mkdtemp(dir) ? 0 : -errno;
}

void rh_tmp_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

/* Room for one more element of size sz in *arr_p: capacity is 16, then doubles at powers of 2. */
static void *rh_push(void *arr_p, size_t *n, size_t sz)
{
	void **arr = arr_p;
	void *tmp;

	if (*n == 0 || (*n >= 16 && (*n & (*n - 1)) == 0)) {
		tmp = realloc(*arr, (*n ? *n * 2 : 16) * sz);
		if (!tmp)
			return NULL;
		*arr = tmp;
	}
	return (char *)*arr + (*n)++ * sz;
}

static void rh_copy_bytes(char *dst, size_t cap, struct sct_bytes b)
{
	size_t n = b.len < cap - 1 ? b.len : cap - 1;

	memcpy(dst, b.ptr, n);
	dst[n] = '\0';
}

static void rh_diag_count(void *ctx, const struct sct_diag *d)
{
	struct rh_trace *t = ctx;

	if (d->kind <= SCT_DIAG_NO_HEADER)
		t->diags[d->kind]++;
}

static void rh_session_note(struct rh_trace *t, const struct sct_session *s)
{
	t->sessions++;
	t->nr_write = sct_session_syscall_nr(s, "write", SCT_ABI_NATIVE);
	t->nr_getppid = sct_session_syscall_nr(s, "getppid", SCT_ABI_NATIVE);
	t->nr_execve = sct_session_syscall_nr(s, "execve", SCT_ABI_NATIVE);
	snprintf(t->cgroup_mount, sizeof(t->cgroup_mount), "%s", sct_session_get(s, SCT_SESSION_CGROUP_MOUNT));
	snprintf(t->recording_id, sizeof(t->recording_id), "%s",
		 sct_session_get(s, SCT_SESSION_RECORDING_ID));
	t->sequence = sct_session_sequence(s);
	t->snapshot = sct_session_snapshot(s);
	t->recorder_cgroup_ids = !strcmp(sct_session_get(s, SCT_SESSION_SAMPLE_CGROUP), "recorder");
	t->has_filter = sct_session_has_filter(s);
	snprintf(t->filter_text, sizeof(t->filter_text), "%s", sct_session_get(s, SCT_SESSION_FILTER_TEXT));
	snprintf(t->filter_details, sizeof(t->filter_details), "%s",
		 sct_session_get(s, SCT_SESSION_FILTER_DETAILS));
	snprintf(t->filter_totals, sizeof(t->filter_totals), "%s", sct_session_get(s, SCT_SESSION_FILTER_TOTALS));
}

static int rh_trace_add(struct rh_trace *t, const struct sct_record *rec)
{
	void *slot = NULL;

	switch (rec->type) {
	case SCT_REC_SYSCALL:
		if ((slot = rh_push(&t->sc, &t->nsc, sizeof(*t->sc))))
			*(struct sct_syscall *)slot = rec->syscall;
		break;
	case SCT_REC_TASK:
		if ((slot = rh_push(&t->task, &t->ntask, sizeof(*t->task)))) {
			struct rh_task *k = slot;

			k->rec = rec->task;
			rh_copy_bytes(k->comm, sizeof(k->comm), rec->task.comm);
			k->rec.comm = (struct sct_bytes){0};
		}
		break;
	case SCT_REC_FORK:
		if ((slot = rh_push(&t->fork, &t->nfork, sizeof(*t->fork))))
			*(struct sct_fork *)slot = rec->fork;
		break;
	case SCT_REC_EXEC:
		if ((slot = rh_push(&t->exec, &t->nexec, sizeof(*t->exec)))) {
			struct rh_exec *e = slot;

			e->rec = rec->exec;
			rh_copy_bytes(e->filename, sizeof(e->filename), rec->exec.filename);
			rh_copy_bytes(e->comm, sizeof(e->comm), rec->exec.comm);
			e->rec.filename = e->rec.comm = (struct sct_bytes){0};
		}
		break;
	case SCT_REC_EXIT:
		if ((slot = rh_push(&t->exit, &t->nexit, sizeof(*t->exit))))
			*(struct sct_exit *)slot = rec->exit;
		break;
	case SCT_REC_CGROUP:
		if ((slot = rh_push(&t->cgroup, &t->ncgroup, sizeof(*t->cgroup)))) {
			struct rh_cgroup *c = slot;

			c->id = rec->cgroup.cgroup_id;
			rh_copy_bytes(c->path, sizeof(c->path), rec->cgroup.path);
		}
		break;
	case SCT_REC_WARNING:
		if ((slot = rh_push(&t->warning, &t->nwarning, sizeof(*t->warning)))) {
			struct rh_warning *w = slot;

			w->rec = rec->warning;
			rh_copy_bytes(w->text, sizeof(w->text), rec->warning.text);
			w->rec.text = (struct sct_bytes){0};
		}
		break;
	case SCT_REC_TOTALS:
		if ((slot = rh_push(&t->totals, &t->ntotals, sizeof(*t->totals)))) {
			*(struct sct_totals *)slot = rec->totals;
			((struct sct_totals *)slot)->hist = (struct sct_bytes){0};
		}
		break;
	case SCT_REC_LOST:
		t->nlost++;
		t->lost_count += rec->lost.count;
		t->lost_by_cause[rec->lost.cause < 3 ? rec->lost.cause : 0] += rec->lost.count;
		return 0;
	default:
		return 0;
	}
	return slot ? 0 : -ENOMEM;
}

int rh_trace_read(const char *path, struct rh_trace *t)
{
	struct sct_reader *r;
	struct sct_record rec;
	const struct sct_session *s = NULL;
	int err = 0, ret;

	memset(t, 0, sizeof(*t));
	t->nr_write = t->nr_getppid = t->nr_execve = -1;
	r = sct_reader_open(path, &err);
	if (!r)
		return err;
	sct_reader_set_diag(r, rh_diag_count, t);
	while ((ret = sct_reader_next(r, &rec)) > 0) {
		if (rec.type == SCT_REC_SESSION) {
			/* kept: the reader has no current session once the input ended */
			s = sct_reader_session(r);
			rh_session_note(t, s);
		}
		else if ((err = rh_trace_add(t, &rec)))
			break;
	}
	if (ret < 0)
		t->err = ret;
	if (s && sct_session_trailer(s)) {
		t->has_trailer = true;
		t->trailer = *sct_session_trailer(s);
	}
	t->stats = *sct_reader_stats(r);
	sct_reader_close(r);
	return err;
}

void rh_trace_free(struct rh_trace *t)
{
	free(t->sc);
	free(t->task);
	free(t->fork);
	free(t->exec);
	free(t->exit);
	free(t->cgroup);
	free(t->warning);
	free(t->totals);
	memset(t, 0, sizeof(*t));
}

size_t rh_count_syscalls(const struct rh_trace *t, uint32_t pid, uint32_t tid, int64_t nr)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++)
		if ((!pid || t->sc[i].pid == pid) && (!tid || t->sc[i].tid == tid) &&
		    (nr < 0 || t->sc[i].nr == nr))
			n++;
	return n;
}

size_t rh_count_returns(const struct rh_trace *t, uint32_t tid, int64_t nr, int64_t ret)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++)
		if (t->sc[i].tid == tid && t->sc[i].nr == nr && t->sc[i].ret == ret)
			n++;
	return n;
}

uint64_t rh_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rh_assert_task_start(const struct sct_task *task, uint64_t not_before_ns)
{
	uint64_t tick_ns = 1000000000u / (uint64_t)sysconf(_SC_CLK_TCK);

	cr_assert_geq(task->start_ns + tick_ns, not_before_ns, "TASK of tid %u: start %lu, before %lu",
		      task->tid, (unsigned long)task->start_ns, (unsigned long)not_before_ns);
	cr_assert_leq(task->start_ns, task->time_ns, "TASK of tid %u: start %lu after the record's time %lu",
		      task->tid, (unsigned long)task->start_ns, (unsigned long)task->time_ns);
}

const struct sct_fork *rh_find_fork(const struct rh_trace *t, uint32_t child_tid)
{
	const struct sct_fork *found = NULL;

	for (size_t i = 0; i < t->nfork; i++)
		if (t->fork[i].child_tid == child_tid && (!found || t->fork[i].time_ns >= found->time_ns))
			found = &t->fork[i];
	return found;
}

const struct sct_exit *rh_find_exit(const struct rh_trace *t, uint32_t tid)
{
	const struct sct_exit *found = NULL;

	for (size_t i = 0; i < t->nexit; i++)
		if (t->exit[i].tid == tid && (!found || t->exit[i].time_ns >= found->time_ns))
			found = &t->exit[i];
	return found;
}

long rh_field(const char *line, const char *key)
{
	size_t klen = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		bool word_start = p == line || p[-1] == ' ';

		if (word_start && p[klen] == ' ')
			return strtol(p + klen + 1, NULL, 10);
		p += klen;
	}
	return -1;
}

char rh_dir[RH_DIR_MAX], rh_trace_path[RH_DIR_MAX + 16], rh_trace_path2[RH_DIR_MAX + 16];

void rh_setup(void)
{
	rh_require_root();
	cr_assert_eq(rh_tmp_make(rh_dir, sizeof(rh_dir)), 0, "mkdtemp: %s", strerror(errno));
	snprintf(rh_trace_path, sizeof(rh_trace_path), "%s/trace.sct", rh_dir);
	snprintf(rh_trace_path2, sizeof(rh_trace_path2), "%s/trace2.sct", rh_dir);
}

void rh_teardown(void)
{
	rh_children_kill();
	if (rh_dir[0])
		rh_tmp_remove(rh_dir);
}

static int rh_run_fail(struct rh_run *run, const char *step, int err)
{
	fprintf(stderr, "rh_run_traced: %s: %s\nrecorder stderr:\n%s\n", step, strerror(-err),
		run->rec.err);
	return err;
}

/* Whether some thread of pid is blocked in read(0, ...): /proc's "NR ARG0 ..." of it. */
static bool rh_blocked_at_go(pid_t pid, int *err)
{
	char path[64], line[64];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		*err = -errno;
		return false;
	}
	while (!found && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/syscall", (int)pid, d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		found = fgets(line, sizeof(line), f) && !strncmp(line, "0 0x0 ", 6);
		fclose(f);
	}
	closedir(dir);
	return found;
}

/*
 * Wait until the workload pid waits for its go byte: what its loader and main() do before
 * then must not be traced by a recorder started next, or only sometimes (a recorder starts in
 * tens of ms, a loader on a busy machine may take as long), and counts would depend on it.
 */
int rh_wait_at_go(pid_t pid, int timeout_ms)
{
	int64_t deadline = rh_now_ms() + timeout_ms;
	const struct timespec tick = { 0, 1000000 };
	int err = 0;

	while (!rh_blocked_at_go(pid, &err)) {
		if (err)
			return err;
		if (rh_now_ms() > deadline)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
	}
	return 0;
}

static int rh_run_do(struct rh_run *run, const char *const wl_argv[], const char *trace,
		     const char *const extra[], int timeout_ms, bool at_go)
{
	const char *args[48] = {"-o", trace, "-p"};
	char pid[16];
	size_t n = 4;
	int ret;

	memset(run, 0, sizeof(*run));
	run->rec.proc.pid = -1;
	ret = rh_spawn(&run->wl, wl_argv, false);
	if (ret)
		return rh_run_fail(run, "spawn workload", ret);
	run->wl_pid = run->wl.pid;
	ret = at_go ? rh_wait_at_go(run->wl.pid, timeout_ms) : 0;
	if (ret)
		return rh_run_fail(run, "workload never waited for its go byte", ret);
	snprintf(pid, sizeof(pid), "%d", run->wl.pid);
	args[3] = pid;
	for (size_t i = 0; extra && extra[i] && n < 47; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	ret = rh_recorder_start(&run->rec, args);
	if (ret)
		return rh_run_fail(run, "recorder did not report ready", ret);
	ret = rh_go(&run->wl);
	if (ret)
		return rh_run_fail(run, "send go byte", ret);
	ret = rh_read_all(run->wl.out_fd, &run->out, timeout_ms);
	if (ret)
		return rh_run_fail(run, "read workload output", ret);
	ret = rh_wait(run->wl.pid, timeout_ms, &run->wl_status, NULL);
	if (ret)
		return rh_run_fail(run, "wait workload", ret);
	run->wl.pid = -1;
	ret = rh_recorder_finish(&run->rec, 0, timeout_ms);
	if (ret)
		return rh_run_fail(run, "recorder did not stop after the workload exited", ret);
	return 0;
}

int rh_run_traced(struct rh_run *run, const char *const wl_argv[], const char *trace,
		  const char *const extra[])
{
	return rh_run_do(run, wl_argv, trace, extra, RH_TIMEOUT_MS, true);
}

int rh_run_traced_within(struct rh_run *run, const char *const wl_argv[], const char *trace,
			 const char *const extra[], int timeout_ms)
{
	return rh_run_do(run, wl_argv, trace, extra, timeout_ms, false);
}

void rh_run_release(struct rh_run *run)
{
	rh_proc_release(&run->wl);
	rh_proc_release(&run->rec.proc);
	free(run->out);
	run->out = NULL;
}

unsigned long rh_kernel_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long stime = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* the fields after the comm, up to stime (the 15th) */
	cr_assert(p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %lu", &stime) == 1,
		  "%s: %s", path, buf);
	return stime;
}

void rh_assert_stop_during_call(const char *const wl[], long nr, bool on_cpu, const uint64_t *arg1)
{
	const char *args[] = {"-o", rh_trace_path, "-p", NULL, arg1 ? "--args" : NULL, NULL};
	struct rh_recorder rec;
	struct rh_proc p;
	struct rh_trace t;
	char line[128], pid[16];
	size_t unfinished = 0;
	unsigned long ticks;

	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	args[3] = pid;
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_gt(rh_read_line(p.out_fd, line, sizeof(line), RH_TIMEOUT_MS), 0);
	ticks = rh_kernel_ticks(p.pid);
	for (int i = 0; on_cpu ? rh_kernel_ticks(p.pid) < ticks + 2 : !rh_blocked_in(p.pid, nr); i++) {
		cr_assert_lt(i, RH_TIMEOUT_MS, "pid %d never got into call %ld", p.pid, nr);
		usleep(1000);
	}
	cr_assert_eq(rh_recorder_finish(&rec, SIGINT, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_eq(rh_trace_read(rh_trace_path, &t), 0);
	for (size_t i = 0; i < t.nsc; i++) {
		if (!t.sc[i].unfinished)
			continue;
		unfinished++;
		cr_assert_eq(t.sc[i].tid, (uint32_t)p.pid);
		cr_assert_eq(t.sc[i].nr, nr);
		cr_assert_gt(t.sc[i].time_ns, 0);
		cr_assert_eq(t.sc[i].arg1, arg1 ? *arg1 : 0);
	}
	cr_assert_eq(unfinished, 1, "%zu unfinished SYSCALL records", unfinished);
	rh_trace_free(&t);
	rh_proc_release(&p);
}
