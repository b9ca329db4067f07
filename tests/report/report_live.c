// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-report's live modes: -T on a pipe, --follow on a growing file and across a rotation,
 * --interval. A writer (this test) gives sct-report a crafted trace in steps and waits for
 * the output each step must produce before it writes the next: a line that comes while the
 * writer still holds its end open was printed live. Waits are bounded (a failure, not a
 * pace): nothing here sleeps for a time it hopes is enough.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report_helpers.h"

#define WAIT_MS 20000 /* a line that takes longer did not come */
#define MS 1000000ull

static void utc(void)
{
	setenv("TZ", "UTC", 1);
}

TestSuite(report_live, .init = utc, .fini = rt_cleanup);

/* A running sct-report: its stdin (or -1) and stdout, and what it printed so far. */
struct run {
	pid_t pid;
	int in, out;
	char *text;
	size_t len, cap;
};

static void run_start(struct run *r, bool feed, const char *fmt, ...)
{
	int pin[2], pout[2];
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	cr_assert_eq(pipe(pin), 0);
	cr_assert_eq(pipe(pout), 0);
	memset(r, 0, sizeof(*r));
	r->pid = fork();
	cr_assert_geq(r->pid, 0);
	if (!r->pid) {
		/* a failed test leaves no sct-report following a file for ever */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(feed ? pin[0] : open("/dev/null", O_RDONLY), 0);
		dup2(pout[1], 1);
		close(pin[0]);
		close(pin[1]);
		close(pout[0]);
		close(pout[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	r->in = pin[1];
	r->out = pout[0];
	if (!feed) {
		close(r->in);
		r->in = -1;
	}
	r->cap = 65536;
	r->text = calloc(1, r->cap);
	cr_assert_not_null(r->text);
}

/* Reads what came; false at the end of the output. */
static bool run_read(struct run *r, int timeout_ms)
{
	struct pollfd p = { .fd = r->out, .events = POLLIN };
	ssize_t n;

	cr_assert_gt(poll(&p, 1, timeout_ms), 0, "no output within %d ms; so far:\n%s", timeout_ms, r->text);
	if (r->len + 4096 > r->cap) {
		r->cap *= 2;
		r->text = realloc(r->text, r->cap);
		cr_assert_not_null(r->text);
	}
	n = read(r->out, r->text + r->len, r->cap - r->len - 1);
	cr_assert_geq(n, 0);
	r->len += (size_t)n;
	r->text[r->len] = 0;
	return n > 0;
}

/* Until the output holds needle: its offset. */
static size_t run_wait(struct run *r, const char *needle)
{
	char *p;

	while (!(p = strstr(r->text, needle)))
		cr_assert(run_read(r, WAIT_MS), "output ended without '%s':\n%s", needle, r->text);
	return (size_t)(p - r->text);
}

/* Until the end of the output: the exit status. */
static int run_end(struct run *r)
{
	int status;

	if (r->in >= 0)
		close(r->in);
	while (run_read(r, WAIT_MS))
		;
	close(r->out);
	cr_assert_eq(waitpid(r->pid, &status, 0), r->pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		cr_assert_gt(w, 0, "write: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The writer's bytes so far, after a block of what came since. */
static uint64_t step(struct sct_writer *w)
{
	cr_assert_eq(sct_writer_flush(w), 0);
	return sct_writer_bytes(w);
}

/*
 * The steps of the pipe test, blocks in this order: A write 10 ms, C close 30 ms; B read
 * 20 ms (it came late, as a CPU's stage does), D open 100 ms; E execve 300 ms.
 */
static const char *pipe_trace(uint64_t *cut)
{
	const char *path = rt_path("live.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);

	rt_task(w, 0, 100, 100, 1, 0, 0, "app");
	rt_sc(w, 10 * MS, 1000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_sc(w, 30 * MS, 1000, 100, 100, 0, RT_NR_CLOSE, 0);
	cut[0] = step(w);
	rt_sc(w, 20 * MS, 1000, 100, 100, 0, RT_NR_READ, 0);
	rt_sc(w, 100 * MS, 1000, 100, 100, 0, RT_NR_OPEN, 3);
	cut[1] = step(w);
	rt_sc(w, 300 * MS, 1000, 100, 100, 0, RT_NR_EXECVE, 0);
	cut[2] = step(w);
	rt_close(w);
	return path;
}

Test(report_live, timeline_on_a_pipe_prints_each_call_in_order_before_the_writer_ends)
{
	uint64_t cut[3];
	size_t len, a, b, c, d;
	const char *path = pipe_trace(cut);
	uint8_t *bytes = slurp(path, &len);
	struct run r;

	run_start(&r, true, "exec %s -T --flush-interval 0.05 -", rt_report());
	/* two blocks at once: B (20 ms) comes after C (30 ms) in the stream and is printed before it */
	write_all(r.in, bytes, cut[1]);
	a = run_wait(&r, " write(app 100/100) = 1 ");
	b = run_wait(&r, " read(app 100/100) = 0 ");
	c = run_wait(&r, " close(app 100/100) = 0 ");
	d = run_wait(&r, " open(app 100/100) = 3 ");
	cr_assert(a < b && b < c && c < d, "time order:\n%s", r.text);
	cr_assert_not_null(strstr(r.text, "+0.010000 "), "%s", r.text);
	cr_assert_null(strstr(r.text, "execve"), "%s", r.text);
	write_all(r.in, bytes + cut[1], cut[2] - cut[1]);
	run_wait(&r, "+0.300000 00:00:00.300000 execve(app 100/100) = 0 <0.000001> cg=cgroup:0\n");
	cr_assert_null(strstr(r.text, "-- "), "no footer before the end:\n%s", r.text);
	/* the rest (the TRAILER), then the end of the stream: the footer */
	write_all(r.in, bytes + cut[2], len - cut[2]);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- read 1 file, 6 records (syscall 5, task 1,"), "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- incomplete: no trailer: 0 sessions"), "%s", r.text);
	free(r.text);
	free(bytes);
}

Test(report_live, timeline_on_a_pipe_applies_filters)
{
	uint64_t cut[3];
	size_t len;
	const char *path = pipe_trace(cut);
	uint8_t *bytes = slurp(path, &len);
	struct run r;

	run_start(&r, true, "exec %s -T --flush-interval 0.05 -S open,execve -", rt_report());
	write_all(r.in, bytes, cut[1]);
	run_wait(&r, " open(app 100/100) = 3 ");
	write_all(r.in, bytes + cut[1], len - cut[1]);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_not_null(strstr(r.text, " execve(app 100/100) = 0 "), "%s", r.text);
	cr_assert_null(strstr(r.text, " write("), "%s", r.text);
	cr_assert_null(strstr(r.text, " read("), "%s", r.text);
	cr_assert_null(strstr(r.text, " close("), "%s", r.text);
	free(r.text);
	free(bytes);
}

Test(report_live, sigint_ends_a_stream_with_its_footer)
{
	uint64_t cut[3];
	size_t len;
	const char *path = pipe_trace(cut);
	uint8_t *bytes = slurp(path, &len);
	struct run r;

	run_start(&r, true, "exec %s -T --flush-interval 0.05 -", rt_report());
	write_all(r.in, bytes, cut[0]);
	run_wait(&r, " close(app 100/100) = 0 ");
	/* the writer still holds the pipe open: the signal, not an end of file, ends the run */
	kill(r.pid, SIGINT);
	run_wait(&r, "-- incomplete: no trailer: ");
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- read 1 file, 3 records (syscall 2, task 1,"), "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- incomplete: no trailer: 1 session"), "%s", r.text);
	free(r.text);
	free(bytes);
}

/* A file of one recording: a TASK and one call per rel_ns, cut after each call's block. */
static uint8_t *rec_file(const char *name, uint64_t seq, const uint64_t *rel_ns, uint32_t nr, uint32_t n,
			 uint64_t *cut, size_t *len)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open_recording(path, "h1", "0123456789abcdef0123456789abcdef", seq, false);

	rt_task(w, rel_ns[0], 100, 100, 1, 0, 0, "app");
	for (uint32_t i = 0; i < n; i++) {
		rt_sc(w, rel_ns[i], 1000, 100, 100, 0, nr, (int64_t)i);
		cut[i] = step(w);
	}
	rt_close(w);
	return slurp(path, len);
}

Test(report_live, follow_reads_a_growing_file_and_on_into_the_next_file_of_its_recording)
{
	static const uint64_t t1[] = { 10 * MS, 500 * MS }, t2[] = { 1200 * MS };
	uint64_t cut1[2], cut2[1];
	size_t len1, len2;
	uint8_t *f1 = rec_file("src1.sct", 1, t1, RT_NR_WRITE, 2, cut1, &len1);
	uint8_t *f2 = rec_file("src2.sct", 2, t2, RT_NR_READ, 1, cut2, &len2);
	const char *dest = rt_path("r.000001.sct");
	int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct run r;

	cr_assert_geq(fd, 0);
	write_all(fd, f1, cut1[0]);
	run_start(&r, false, "exec %s -T --follow --flush-interval 0.05 %s", rt_report(), dest);
	run_wait(&r, "+0.010000 00:00:00.010000 write(app 100/100) = 0 ");
	write_all(fd, f1 + cut1[0], cut1[1] - cut1[0]);
	run_wait(&r, "+0.500000 00:00:00.500000 write(app 100/100) = 1 ");
	/* the recorder finishes file 1, then makes file 2 */
	write_all(fd, f1 + cut1[1], len1 - cut1[1]);
	close(fd);
	fd = open(rt_path("r.000002.sct"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	write_all(fd, f2, len2);
	close(fd);
	run_wait(&r, "+1.200000 00:00:01.200000 read(app 100/100) = 0 ");
	cr_assert_null(strstr(r.text, "-- "), "no footer before the end:\n%s", r.text);
	kill(r.pid, SIGINT);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- read 1 file, 5 records (syscall 3, task 2,"), "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- incomplete: no trailer: 0 sessions"), "%s", r.text);
	free(r.text);
	free(f1);
	free(f2);
}

/* A call of a crafted recording: entry (from the anchor), duration, syscall, return value. */
struct rot_call {
	uint64_t rel_ns, dur;
	uint32_t nr;
	int64_t ret;
};

/* File seq of recording rot: a TASK, then each call in a block of its own, cut after it. */
static uint8_t *rot_file(const char *name, uint64_t seq, const struct rot_call *calls, uint32_t n, uint64_t *cut,
			 size_t *len)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open_recording(path, "h1", "fedcba9876543210fedcba9876543210", seq, false);

	rt_task(w, calls[0].rel_ns, 100, 100, 1, 0, 0, "app");
	for (uint32_t i = 0; i < n; i++) {
		rt_sc(w, calls[i].rel_ns, calls[i].dur, 100, 100, 0, calls[i].nr, calls[i].ret);
		cut[i] = step(w);
	}
	rt_close(w);
	return slurp(path, len);
}

/* What a run printed before its footer. */
static char *before_footer(const char *text)
{
	const char *end = strstr(text, "-- ");

	return strndup(text, end ? (size_t)(end - text) : strlen(text));
}

/* The timeline (-T) of the n files concatenated into cat, before its footer. */
static char *batch_of_files(const char *cat, uint8_t *const files[], const size_t lens[], size_t n)
{
	int fd = open(rt_path(cat), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *batch = NULL, *want;

	cr_assert_geq(fd, 0);
	for (size_t i = 0; i < n; i++)
		write_all(fd, files[i], lens[i]);
	close(fd);
	cr_assert_eq(rt_run(&batch, "%s -T %s", rt_report(), rt_path(cat)), 0);
	want = before_footer(batch);
	free(batch);
	return want;
}

/*
 * A rotation while sct-report follows: the read that file 2 holds entered (490 s) before the
 * last write of file 1 (500 s) and returned after the recorder went on to file 2. With a
 * flush interval of 100 s no line is due by sct-report's clock while the test runs: each is
 * printed once the stream holds a return 100 s past it, so the output does not depend on
 * the pace of the steps.
 */
Test(report_live, follow_across_a_rotation_prints_what_the_batch_timeline_of_the_files_prints)
{
	static const struct rot_call c1[] = { { 10000 * MS, 1000, RT_NR_WRITE, 0 }, { 500000 * MS, 1000, RT_NR_WRITE, 1 } },
				     c2[] = { { 490000 * MS, 50000 * MS, RT_NR_READ, 2 },
					      { 2000000 * MS, 1000, RT_NR_READ, 3 } };
	uint64_t cut1[2], cut2[2];
	size_t len1, len2;
	uint8_t *f1 = rot_file("rot1.sct", 1, c1, 2, cut1, &len1);
	uint8_t *f2 = rot_file("rot2.sct", 2, c2, 2, cut2, &len2);
	uint8_t *const files[] = { f1, f2 };
	const size_t lens[] = { len1, len2 };
	const char *dest = rt_path("rot.000001.sct");
	int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *live, *want = batch_of_files("rot-cat.sct", files, lens, 2);
	struct run r;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(strstr(want, ") = 2 <50.000000>"), "%s", want);

	write_all(fd, f1, cut1[0]);
	run_start(&r, false, "exec %s -T --follow --flush-interval 100 %s", rt_report(), dest);
	/* file 1 ends, the recorder makes file 2: its read returned at 540 s, so 10 s is due */
	write_all(fd, f1 + cut1[0], len1 - cut1[0]);
	close(fd);
	fd = open(rt_path("rot.000002.sct"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	write_all(fd, f2, cut2[0]);
	run_wait(&r, " write(app 100/100) = 0 ");
	/* a return at 2000 s: every call up to 1900 s is due, before the recording ends */
	write_all(fd, f2 + cut2[0], cut2[1] - cut2[0]);
	run_wait(&r, " write(app 100/100) = 1 ");
	cr_assert_lt(run_wait(&r, " read(app 100/100) = 2 "), run_wait(&r, " write(app 100/100) = 1 "), "%s",
		     r.text);
	cr_assert_null(strstr(r.text, ") = 3 "), "2000 s is not due yet:\n%s", r.text);
	write_all(fd, f2 + cut2[1], len2 - cut2[1]);
	close(fd);
	kill(r.pid, SIGINT);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	live = before_footer(r.text);
	cr_assert_str_eq(live, want);
	cr_assert_not_null(strstr(r.text, "-- recording fedcba9876543210fedcba9876543210: 2 files, sequence 1-2"),
			   "%s", r.text);
	free(live);
	free(want);
	free(r.text);
	free(f1);
	free(f2);
}

/* file 2's read printed before file 1's last write, each under its own file's frame */
#define STACKED_READ_THEN_WRITE                                                        \
	") = 2 <50.000000> cg=cgroup:0\n    two_b+0x20 (two)\n"                        \
	"+500.000000 00:08:20.000000 write(app 100/100) = 1 <0.000001> cg=cgroup:0\n" \
	"    one_a+0x10 (one)\n"

/*
 * File seq of recording rot made with stacks: a TASK, module 1 (path) with one symbol and
 * stack 1 in it (the frame at sym+off), then each call under stack 1 in a block of its own.
 */
static uint8_t *rot_stacks_file(const char *name, uint64_t seq, const char *path, const char *sym, uint64_t off,
				const struct rot_call *calls, uint32_t n, uint64_t *cut, size_t *len)
{
	const char *file = rt_path(name);
	struct sct_writer *w = rt_open_stacks(file, "h1", "user", "fedcba9876543210fedcba9876543210", seq);
	const struct sct_frame frame = { 1, 0x1000 + off };

	rt_task(w, calls[0].rel_ns, 100, 100, 1, 0, 0, "app");
	rt_module(w, calls[0].rel_ns, 1, SCT_MODULE_ELF, NULL, 0, path);
	rt_symbol(w, calls[0].rel_ns, 1, 0x1000, 0x100, sym);
	rt_stack(w, calls[0].rel_ns, 1, 100, &frame, 1);
	for (uint32_t i = 0; i < n; i++) {
		rt_sc_stack(w, calls[i].rel_ns, calls[i].dur, 100, 100, calls[i].nr, calls[i].ret, 1);
		cut[i] = step(w);
	}
	rt_close(w);
	return slurp(file, len);
}

/*
 * The same rotation in a recording with stacks: stack 1 is a frame of /usr/bin/one in file 1
 * and of /usr/bin/two in file 2 (stack ids are per file). The read of file 2 is printed
 * before the last write of file 1, each under its own file's frame, as the batch timeline of
 * the files prints them.
 */
Test(report_live, follow_across_a_rotation_with_stacks_prints_each_call_with_its_own_files_frames)
{
	static const struct rot_call c1[] = { { 10000 * MS, 1000, RT_NR_WRITE, 0 }, { 500000 * MS, 1000, RT_NR_WRITE, 1 } },
				     c2[] = { { 490000 * MS, 50000 * MS, RT_NR_READ, 2 },
					      { 2000000 * MS, 1000, RT_NR_READ, 3 } };
	uint64_t cut1[2], cut2[2];
	size_t len1, len2;
	uint8_t *f1 = rot_stacks_file("rots1.sct", 1, "/usr/bin/one", "one_a", 0x10, c1, 2, cut1, &len1);
	uint8_t *f2 = rot_stacks_file("rots2.sct", 2, "/usr/bin/two", "two_b", 0x20, c2, 2, cut2, &len2);
	uint8_t *const files[] = { f1, f2 };
	const size_t lens[] = { len1, len2 };
	const char *dest = rt_path("rots.000001.sct");
	int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *live, *want = batch_of_files("rots-cat.sct", files, lens, 2);
	struct run r;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(strstr(want, STACKED_READ_THEN_WRITE), "%s", want);

	write_all(fd, f1, cut1[0]);
	run_start(&r, false, "exec %s -T --follow --flush-interval 100 %s", rt_report(), dest);
	/* file 1 ends, the recorder makes file 2: its read returned at 540 s, so 10 s is due */
	write_all(fd, f1 + cut1[0], len1 - cut1[0]);
	close(fd);
	fd = open(rt_path("rots.000002.sct"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	write_all(fd, f2, cut2[0]);
	run_wait(&r, " write(app 100/100) = 0 ");
	/* a return at 2000 s: every call up to 1900 s is due, file 1's last write under its own frame */
	write_all(fd, f2 + cut2[0], cut2[1] - cut2[0]);
	run_wait(&r, " write(app 100/100) = 1 <0.000001> cg=cgroup:0\n    one_a+0x10 (one)\n");
	cr_assert_null(strstr(r.text, ") = 3 "), "2000 s is not due yet:\n%s", r.text);
	write_all(fd, f2 + cut2[1], len2 - cut2[1]);
	close(fd);
	kill(r.pid, SIGINT);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	live = before_footer(r.text);
	cr_assert_str_eq(live, want);
	free(live);
	free(want);
	free(r.text);
	free(f1);
	free(f2);
}

/*
 * Three files of a recording with stacks, the second shorter than the flush interval: when
 * the third comes, calls of the first two are still held, so the heap drains first (the
 * tables of two files at most) and each call still has its own file's frame.
 */
Test(report_live, follow_across_a_short_file_with_stacks_drains_with_each_calls_own_frames)
{
	static const struct rot_call c1[] = { { 10000 * MS, 1000, RT_NR_WRITE, 0 }, { 500000 * MS, 1000, RT_NR_WRITE, 1 } },
				     c2[] = { { 490000 * MS, 50000 * MS, RT_NR_READ, 2 } },
				     c3[] = { { 2000000 * MS, 1000, RT_NR_READ, 3 } };
	uint64_t cut1[2], cut2[1], cut3[1];
	size_t len1, len2, len3;
	uint8_t *f1 = rot_stacks_file("rott1.sct", 1, "/usr/bin/one", "one_a", 0x10, c1, 2, cut1, &len1);
	uint8_t *f2 = rot_stacks_file("rott2.sct", 2, "/usr/bin/two", "two_b", 0x20, c2, 1, cut2, &len2);
	uint8_t *f3 = rot_stacks_file("rott3.sct", 3, "/usr/bin/three", "three_c", 0x30, c3, 1, cut3, &len3);
	uint8_t *const files[] = { f1, f2, f3 };
	const size_t lens[] = { len1, len2, len3 };
	const char *dest = rt_path("rott.000001.sct");
	int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *live, *want = batch_of_files("rott-cat.sct", files, lens, 3);
	struct run r;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(strstr(want, STACKED_READ_THEN_WRITE), "%s", want);

	write_all(fd, f1, cut1[0]);
	run_start(&r, false, "exec %s -T --follow --flush-interval 100 %s", rt_report(), dest);
	write_all(fd, f1 + cut1[0], len1 - cut1[0]);
	close(fd);
	fd = open(rt_path("rott.000002.sct"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	write_all(fd, f2, len2);
	close(fd);
	run_wait(&r, " write(app 100/100) = 0 ");
	fd = open(rt_path("rott.000003.sct"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	write_all(fd, f3, len3);
	close(fd);
	run_wait(&r, " write(app 100/100) = 1 <0.000001> cg=cgroup:0\n    one_a+0x10 (one)\n");
	kill(r.pid, SIGINT);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	live = before_footer(r.text);
	cr_assert_str_eq(live, want);
	free(live);
	free(want);
	free(r.text);
	free(f1);
	free(f2);
	free(f3);
}

/*
 * What the reorder heap holds: a call is printed once the stream holds a return one flush
 * interval past its entry, so the heap holds only the calls of the stream's last flush
 * interval (with a flush interval of 100 s none is due by the clock while the test runs).
 */
Test(report_live, timeline_holds_only_the_calls_of_the_last_flush_interval)
{
	const char *path = rt_path("held.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	uint64_t cut[10];
	size_t len;
	uint8_t *bytes;
	struct run r;
	char want[64];

	rt_task(w, 0, 100, 100, 1, 0, 0, "app");
	for (uint32_t i = 0; i < 10; i++) {
		rt_sc(w, i * 50000 * MS, 1000, 100, 100, 0, RT_NR_WRITE, i);
		cut[i] = step(w);
	}
	rt_close(w);
	bytes = slurp(path, &len);
	run_start(&r, true, "exec %s -T --flush-interval 100 -", rt_report());
	write_all(r.in, bytes, cut[1]);
	for (uint32_t i = 2; i < 10; i++) {
		write_all(r.in, bytes + cut[i - 1], cut[i] - cut[i - 1]);
		snprintf(want, sizeof(want), " write(app 100/100) = %u ", i - 2);
		run_wait(&r, want);
		snprintf(want, sizeof(want), " write(app 100/100) = %u ", i - 1);
		cr_assert_null(strstr(r.text, want), "held after the call at %u s:\n%s", i * 50, r.text);
	}
	write_all(r.in, bytes + cut[9], len - cut[9]);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_not_null(strstr(r.text, " write(app 100/100) = 9 "), "%s", r.text);
	free(r.text);
	free(bytes);
}

/*
 * Calls at crafted times, 1 s intervals: 3 in [0, 1) (two writes, a read), 5 in [1, 2)
 * (writes by app, reads by db), none in [2, 3), 2 in [3, 4); one call comes a second late in
 * the file (one block), within its interval.
 */
static const char *interval_trace(void)
{
	const char *path = rt_path("iv.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);

	rt_task(w, 0, 100, 100, 1, 0, 0, "app");
	rt_task(w, 0, 200, 200, 1, 0, 0, "db");
	rt_sc(w, 100 * MS, 1000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_sc(w, 990 * MS, 1000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_sc(w, 1010 * MS, 1000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_sc(w, 980 * MS, 1000, 200, 200, 0, RT_NR_READ, 0);
	rt_sc(w, 1500 * MS, 1000, 200, 200, 0, RT_NR_READ, 0);
	rt_sc(w, 1600 * MS, 1000, 200, 200, 0, RT_NR_READ, 0);
	rt_sc(w, 1999 * MS, 1000, 200, 200, 0, RT_NR_READ, 0);
	rt_sc(w, 1000 * MS, 1000, 100, 100, 0, RT_NR_WRITE, -2);
	rt_sc(w, 3000 * MS, 1000, 100, 100, 0, RT_NR_OPEN, 3);
	rt_sc(w, 3999 * MS, 1000, 100, 100, 0, RT_NR_CLOSE, 0);
	rt_close(w);
	return path;
}

/* The "total" line of the block of interval k: its calls. */
static unsigned block_calls(const char *out, unsigned k)
{
	char head[64];
	const char *p, *t;
	unsigned calls;

	snprintf(head, sizeof(head), "interval %u: ", k);
	p = strstr(out, head);
	cr_assert_not_null(p, "no block %u:\n%s", k, out);
	t = strstr(p, " total of ");
	cr_assert_not_null(t, "%s", out);
	while (t > out && t[-1] != '\n')
		t--;
	cr_assert_eq(sscanf(t, "%u", &calls), 1, "%s", t);
	return calls;
}

Test(report_live, interval_blocks_count_each_interval_from_a_file_and_a_pipe)
{
	const char *path = interval_trace();

	for (int src = 0; src < 2; src++) {
		char *out;

		if (src)
			cr_assert_eq(rt_run(&out, "cat %s | %s --interval 1 --flush-interval 0.05 -", path, rt_report()), 0);
		else
			cr_assert_eq(rt_run(&out, "%s --interval 1 --flush-interval 0.05 %s", rt_report(), path), 0);
		cr_assert_eq(block_calls(out, 0), 3, "%s", out);
		cr_assert_eq(block_calls(out, 1), 5, "%s", out);
		cr_assert_null(strstr(out, "interval 2: "), "%s", out);
		cr_assert_not_null(strstr(out, "\n1 interval without a record\n"), "%s", out);
		cr_assert_eq(block_calls(out, 3), 2, "%s", out);
		cr_assert_not_null(strstr(out, "interval 1: 1.000000 .. 2.000000 s (2026-01-01 00:00:01.000000)\n"),
				   "%s", out);
		cr_assert(strstr(out, "interval 0: ") < strstr(out, "interval 1: ") &&
			  strstr(out, "interval 1: ") < strstr(out, "interval 3: ") &&
			  strstr(out, "interval 3: ") < strstr(out, "-- read 1 file, 12 records"), "%s", out);
		free(out);
	}
}

Test(report_live, interval_blocks_take_by_sort_and_top)
{
	const char *path = interval_trace();
	char *out;
	const char *b1;

	cr_assert_eq(rt_run(&out, "%s --interval 1 --by comm --sort calls --top 1 -e %s", rt_report(), path), 0);
	b1 = strstr(out, "interval 1: ");
	cr_assert_not_null(b1, "%s", out);
	/* interval 1: db 3 reads, app 2 writes (one failed): db first, the only one shown */
	cr_assert_not_null(strstr(b1, "  db\n"), "%s", out);
	cr_assert_not_null(strstr(b1, "total of 2 groups (top 1 shown)"), "%s", out);
	cr_assert_eq(block_calls(out, 0), 3, "%s", out);
	free(out);
}

Test(report_live, interval_block_is_printed_before_the_writer_ends)
{
	const uint64_t t[] = { 100 * MS, 1100 * MS, 2100 * MS };
	uint64_t cut[3];
	size_t len;
	uint8_t *bytes = rec_file("steps.sct", 1, t, RT_NR_WRITE, 3, cut, &len);
	struct run r;

	run_start(&r, true, "exec %s --interval 1 --flush-interval 0.05 -", rt_report());
	write_all(r.in, bytes, cut[1]);
	run_wait(&r, "total of 1 group\n");
	cr_assert_eq(block_calls(r.text, 0), 1, "%s", r.text);
	cr_assert_null(strstr(r.text, "interval 1: "), "%s", r.text);
	write_all(r.in, bytes + cut[1], cut[2] - cut[1]);
	run_wait(&r, "interval 1: ");
	cr_assert_eq(block_calls(r.text, 1), 1, "%s", r.text);
	cr_assert_null(strstr(r.text, "interval 2: "), "%s", r.text);
	write_all(r.in, bytes + cut[2], len - cut[2]);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_eq(block_calls(r.text, 2), 1, "%s", r.text);
	free(r.text);
	free(bytes);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * A quiet stream: each block is printed once its interval ended on the stream's clock and
 * the flush interval passed, with no record after it. The stream's clock runs the smallest
 * lag of an arrival behind the records read: a block cannot come before its end and the
 * flush interval are that far past a record's write. Which record's lag is the smallest
 * depends on how late the test wrote each one (a loaded machine writes the second late),
 * so block 1 is due at the earlier of the two bounds.
 */
Test(report_live, interval_block_of_a_quiet_stream_is_printed_when_its_interval_ends)
{
	const uint64_t t[] = { 100 * MS, 1100 * MS, 3500 * MS };
	uint64_t cut[3], at, at1, due;
	size_t len;
	uint8_t *bytes = rec_file("quiet.sct", 1, t, RT_NR_WRITE, 3, cut, &len);
	struct run r;

	run_start(&r, true, "exec %s --interval 1 --flush-interval 0.05 -", rt_report());
	at = mono_ms();
	write_all(r.in, bytes, cut[0]);
	run_wait(&r, "total of 1 group\n");
	cr_assert_geq(mono_ms() - at, 900 + 50, "interval 0 closed early:\n%s", r.text);
	cr_assert_eq(block_calls(r.text, 0), 1, "%s", r.text);
	cr_assert_null(strstr(r.text, "interval 1: "), "%s", r.text);
	at1 = mono_ms();
	write_all(r.in, bytes + cut[0], cut[1] - cut[0]);
	run_wait(&r, "interval 1: ");
	run_wait(&r, "interval 1: 1.000000 .. 2.000000 s (2026-01-01 00:00:01.000000)\n");
	while (!strstr(strstr(r.text, "interval 1: "), "total of 1 group\n"))
		cr_assert(run_read(&r, WAIT_MS), "%s", r.text);
	/* the end of interval 1 and the flush interval past the first record's write or the second's */
	due = at1 - at + 900 + 50 < 1900 + 50 ? at1 - at + 900 + 50 : 1900 + 50;
	cr_assert_geq(mono_ms() - at, due, "interval 1 closed early:\n%s", r.text);
	cr_assert_eq(block_calls(r.text, 1), 1, "%s", r.text);
	write_all(r.in, bytes + cut[1], cut[2] - cut[1]);
	run_wait(&r, "interval 3: ");
	cr_assert_not_null(strstr(r.text, "\n1 interval without a record\n\ninterval 3: "), "%s", r.text);
	while (!strstr(strstr(r.text, "interval 3: "), "total of 1 group\n"))
		cr_assert(run_read(&r, WAIT_MS), "%s", r.text);
	cr_assert_null(strstr(r.text, "-- "), "no footer before the end:\n%s", r.text);
	write_all(r.in, bytes + cut[2], len - cut[2]);
	cr_assert_eq(run_end(&r), 0, "%s", r.text);
	cr_assert_eq(block_calls(r.text, 3), 1, "%s", r.text);
	cr_assert_null(strstr(strstr(r.text, "interval 3: ") + 1, "interval "), "one block each:\n%s", r.text);
	cr_assert_null(strstr(r.text, "came late"), "%s", r.text);
	cr_assert_not_null(strstr(r.text, "-- read 1 file, 4 records (syscall 3, task 1,"), "%s", r.text);
	free(r.text);
	free(bytes);
}

/* What the wall clock does not change: an old file read from a pipe gives the blocks of the file. */
Test(report_live, interval_replay_of_an_old_file_gives_the_blocks_of_the_file)
{
	const char *path = interval_trace();
	char *piped, *read;
	const char *p, *f;

	cr_assert_eq(rt_run(&piped, "cat %s | %s --interval 1 --flush-interval 0.05 -", path, rt_report()), 0);
	cr_assert_eq(rt_run(&read, "%s --interval 1 --flush-interval 0.05 %s", rt_report(), path), 0);
	p = strstr(piped, "\n-- ");
	f = strstr(read, "\n-- ");
	cr_assert(p && f, "%s\n%s", piped, read);
	cr_assert_eq(p - piped, f - read, "%s\n%s", piped, read);
	cr_assert_eq(memcmp(piped, read, (size_t)(p - piped)), 0, "%s\n%s", piped, read);
	free(piped);
	free(read);
}

Test(report_live, usage_errors)
{
	static const char *const bad[] = {
		"--follow a b", "--interval 1 a b", "--interval 1 -T a", "--interval 0 a", "--follow -T -",
		"--follow a", "--interval 1 --tree a", "-T --flush-interval 0 -", "--follow --hist a",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(rt_run(NULL, "%s %s 2>/dev/null", rt_report(), bad[i]), 2, "%s", bad[i]);
}
