/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Long-running capture: numbered files by size, by time and on SIGHUP, retention by count,
 * the flight recorder's snapshots, a full disk and SIGKILL during a rotation. Every test
 * waits for the recorder's own stderr lines ("file NAME", "snapshot NAME") or for strace's,
 * never for a time. Needs root.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

static char mnt[RH_DIR_MAX + 16];

static void rotate_teardown(void)
{
	if (mnt[0])
		umount2(mnt, MNT_DETACH);
	mnt[0] = '\0';
	rh_teardown();
}

TestSuite(record_rotate, .init = rh_setup, .fini = rotate_teardown, .timeout = 120);

/* Read stderr lines into r->err until one starts with prefix; its rest goes into rest. */
static void wait_line(struct rh_recorder *r, const char *prefix, char *rest, size_t cap)
{
	char line[1024];
	int n;

	for (;;) {
		n = rh_read_line(r->proc.err_fd, line, sizeof(line), RH_TIMEOUT_MS);
		cr_assert_geq(n, 0, "no '%s' line: %s; stderr so far:\n%s", prefix, strerror(-n), r->err);
		strncat(r->err, line, sizeof(r->err) - strlen(r->err) - 2);
		strcat(r->err, "\n");
		if (!strncmp(line, prefix, strlen(prefix))) {
			snprintf(rest, cap, "%s", line + strlen(prefix));
			return;
		}
	}
}

/* The numbered files of stem in rh_dir, sorted (glob sorts); the caller frees with globfree. */
static size_t numbered(const char *pattern, glob_t *g)
{
	char pat[RH_DIR_MAX + 64];

	snprintf(pat, sizeof(pat), "%s/%s", rh_dir, pattern);
	memset(g, 0, sizeof(*g));
	if (glob(pat, 0, NULL, g) == GLOB_NOMATCH)
		return 0;
	return g->gl_pathc;
}

/* Entries of dir, "." and ".." left out. */
static size_t dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	cr_assert(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* A file that reads whole: one session, its TRAILER, no damage of any kind. */
static void assert_complete(const char *path, struct rh_trace *t)
{
	cr_assert_eq(rh_trace_read(path, t), 0, "%s", path);
	cr_assert_eq(t->err, 0, "%s: %s", path, sct_strerror(t->err));
	cr_assert_eq(t->sessions, 1, "%s", path);
	cr_assert(t->has_trailer, "%s has no TRAILER", path);
	cr_assert_eq(t->stats.skipped_ranges + t->stats.bad_blocks + t->stats.truncated_bytes +
		     t->stats.sessions_without_trailer, 0, "%s is damaged", path);
}

/*
 * A file that holds calls of tid opens with the TASK record of tid, unless tid had exited by
 * then: its last records may still come after a rotation, its EXIT record with them, or even
 * after its EXIT record in an earlier file (gone: a per-CPU stage flushed late; file order
 * is not time order). It has the CGROUP record of every id it uses.
 */
static void assert_starts_alone(const char *path, const struct rh_trace *t, uint32_t tid, bool gone)
{
	bool task = gone || !rh_count_syscalls(t, 0, tid, -1);

	for (size_t i = 0; i < t->ntask; i++)
		task |= t->task[i].rec.tid == tid;
	cr_assert(task || rh_find_exit(t, tid), "%s: no TASK record of %u", path, tid);
	for (size_t i = 0; i < t->nsc; i++) {
		bool named = false;

		for (size_t k = 0; k < t->ncgroup && !named; k++)
			named = t->cgroup[k].id == t->sc[i].cgroup_id;
		cr_assert(named, "%s: cgroup %llu has no CGROUP record", path,
			  (unsigned long long)t->sc[i].cgroup_id);
	}
}

/*
 * The entry times of tid's writes over every file. Records are not in time order (a CPU's
 * staged batch may come after a newer one of another CPU), so duplicates are found sorted.
 */
struct across {
	uint64_t *times;
	size_t n, cap, files_with_writes;
};

static void across_add(struct across *a, const struct rh_trace *t, uint32_t tid)
{
	size_t before = a->n;

	for (size_t i = 0; i < t->nsc; i++) {
		if (t->sc[i].tid != tid || (int64_t)t->sc[i].nr != t->nr_write)
			continue;
		if (a->n == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 4096;
			a->times = realloc(a->times, a->cap * sizeof(*a->times));
			cr_assert(a->times);
		}
		a->times[a->n++] = t->sc[i].time_ns;
	}
	a->files_with_writes += a->n > before;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Exactly want writes, none twice. */
static void across_check(struct across *a, size_t want)
{
	cr_assert_eq(a->n, want, "writes over all files: %zu", a->n);
	qsort(a->times, a->n, sizeof(*a->times), cmp_u64);
	for (size_t i = 1; i < a->n; i++)
		cr_assert_neq(a->times[i], a->times[i - 1], "a write in two files (or twice in one)");
	free(a->times);
}

Test(record_rotate, rotated_files_hold_every_record_once)
{
	const char *wl[] = {rh_workload("nullwriter"), "300000", "8", NULL};
	/*
	 * A ring that holds much of the 2,400,000 writes: this is a test of rotation, and on a
	 * machine busy with other work the recorder can fall behind 8 writers and lose events.
	 */
	const char *extra[] = {"--rotate-size", "64K", "--ringbuf-size", "32M", NULL};
	struct across a = {0};
	char id[SCT_RECORDING_ID_LEN + 1] = "";
	bool gone = false;
	struct rh_run run;
	glob_t g;
	size_t n;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0);
	cr_assert_eq(run.rec.status, 0, "recorder:\n%s", run.rec.err);
	n = numbered("trace.*.sct", &g);
	cr_assert_geq(n, 4, "300000 writes in files of 64K: %zu files", n);
	/* the files and nothing else: trace.000001.sct to trace.00000N.sct */
	cr_assert_eq(dir_entries(rh_dir), n);
	for (size_t i = 0; i < n; i++) {
		char want[RH_DIR_MAX + 32];
		struct rh_trace t;

		snprintf(want, sizeof(want), "%s/trace.%06zu.sct", rh_dir, i + 1);
		cr_assert_str_eq(g.gl_pathv[i], want);
		assert_complete(want, &t);
		cr_assert_eq(t.lost_count, 0, "%s: events lost", want);
		cr_assert_eq(t.sequence, i + 1, "%s: sequence %llu", want, (unsigned long long)t.sequence);
		cr_assert_not(t.snapshot);
		cr_assert_eq(strlen(t.recording_id), SCT_RECORDING_ID_LEN);
		if (i)
			cr_assert_str_eq(t.recording_id, id, "one recording, one id");
		snprintf(id, sizeof(id), "%s", t.recording_id);
		assert_starts_alone(want, &t, (uint32_t)run.wl_pid, gone);
		gone |= rh_find_exit(&t, (uint32_t)run.wl_pid) != NULL;
		across_add(&a, &t, (uint32_t)run.wl_pid);
		rh_trace_free(&t);
	}
	/* 300000 to /dev/null, and the line that says so */
	across_check(&a, 300001);
	/* the burst runs through at least three boundaries */
	cr_assert_geq(a.files_with_writes, 4);
	cr_assert_not_null(strstr(run.rec.err, "trace.000001.sct .. "), "summary:\n%s", run.rec.err);
	globfree(&g);
	rh_run_release(&run);
}

static void touch(const char *name)
{
	char path[RH_DIR_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", rh_dir, name);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0600);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	close(fd);
}

static bool exists(const char *name)
{
	char path[RH_DIR_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", rh_dir, name);
	return access(path, F_OK) == 0;
}

Test(record_rotate, rotate_count_deletes_only_this_recordings_files)
{
	const char *wl[] = {rh_workload("nullwriter"), "300000", "8", NULL};
	const char *refused[] = {"--rotate-size", "64K", "--rotate-count", "2", "-p", "1", "-o", rh_trace_path, NULL};
	const char *extra[] = {"--rotate-size", "64K", "--rotate-count", "2", "--force", NULL};
	static const char *const others[] = {"trace.sct", "trace.000001.sct.bak", "trace.000001.txt",
					     "other.000001.sct", "trace.x000001.sct"};
	struct rh_recorder rec;
	struct rh_run run;
	unsigned long newest;
	char name[32];
	glob_t g;
	size_t n;

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		touch(others[i]);
	/* an earlier recording's file: refused without --force, kept with it */
	touch("trace.999999.sct");
	cr_assert_eq(rh_recorder_start(&rec, refused), -ECHILD);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1);
	cr_assert_not_null(strstr(rec.err, "trace.999999.sct exists: use --force"), "%s", rec.err);

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0);
	cr_assert_eq(run.rec.status, 0, "recorder:\n%s", run.rec.err);
	n = numbered("trace.[0-9][0-9][0-9][0-9][0-9][0-9].sct", &g);
	cr_assert_eq(n, 3, "the newest two files and the earlier recording's");
	/* sorted: the two newest of this recording, K-1 and K, then the earlier one's */
	cr_assert_str_eq(strrchr(g.gl_pathv[2], '/') + 1, "trace.999999.sct");
	newest = strtoul(strrchr(g.gl_pathv[1], '/') + 7, NULL, 10);
	cr_assert_geq(newest, 3, "retention was never needed");
	snprintf(name, sizeof(name), "trace.%06lu.sct", newest - 1);
	cr_assert_str_eq(strrchr(g.gl_pathv[0], '/') + 1, name);
	globfree(&g);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		cr_assert(exists(others[i]), "%s was deleted", others[i]);
	rh_run_release(&run);
}

/* A ticker traced into numbered files; the test drives ticks and rotations. */
struct ticked {
	struct rh_proc wl;
	struct rh_recorder rec;
	char pid[16];
};

static void ticked_start_at(struct ticked *tk, const char *trace, const char *const opts[])
{
	const char *wl[] = {rh_workload("ticker"), NULL};
	const char *args[16] = {"-o", trace, "-p", tk->pid};
	size_t n = 4;

	cr_assert_eq(rh_spawn(&tk->wl, wl, false), 0);
	snprintf(tk->pid, sizeof(tk->pid), "%d", tk->wl.pid);
	for (size_t i = 0; opts[i] && n < 15; i++)
		args[n++] = opts[i];
	args[n] = NULL;
	cr_assert_eq(rh_recorder_start(&tk->rec, args), 0, "recorder: %s", tk->rec.err);
}

static void ticked_start(struct ticked *tk, const char *const opts[])
{
	ticked_start_at(tk, rh_trace_path, opts);
}

/* One tick: one write(2) of 100+I bytes. */
static void tick(struct ticked *tk)
{
	cr_assert_eq(rh_go(&tk->wl), 0);
}

/* Close the ticker's stdin: it exits, and the recorder with it. */
static void ticked_finish(struct ticked *tk)
{
	close(tk->wl.in_fd);
	tk->wl.in_fd = -1;
	cr_assert_eq(rh_wait(tk->wl.pid, RH_TIMEOUT_MS, NULL, NULL), 0);
	tk->wl.pid = -1;
	cr_assert_eq(rh_recorder_finish(&tk->rec, 0, RH_TIMEOUT_MS), 0, "%s", tk->rec.err);
	cr_assert(WIFEXITED(tk->rec.status) && WEXITSTATUS(tk->rec.status) == 0, "%s", tk->rec.err);
	rh_proc_release(&tk->wl);
}

/* The ticks (writes of 101.. bytes) of file path: a bit per tick in *seen, none twice. */
static size_t ticks_in(const char *path, uint32_t tid, uint64_t *seen)
{
	struct rh_trace t;
	size_t n = 0;

	assert_complete(path, &t);
	for (size_t i = 0; i < t.nsc; i++) {
		int64_t k = t.sc[i].ret - 101;

		if (t.sc[i].tid != tid || (int64_t)t.sc[i].nr != t.nr_write || k < 0 || k >= 64)
			continue;
		cr_assert_not(*seen & (1ull << k), "tick %lld twice", (long long)k + 1);
		*seen |= 1ull << k;
		n++;
	}
	rh_trace_free(&t);
	return n;
}

/*
 * Ticks in the order they were made, each in one file. Which file a tick goes to depends on
 * when the recorder reads it, not on when it was made: only the order is the test's to know.
 */
static void assert_ticks_in_order(const uint64_t *per_file_first, size_t nfiles)
{
	uint64_t last = 0;

	for (size_t i = 0; i < nfiles; i++) {
		/* a file the recorder switched away from before it read a tick orders nothing */
		if (per_file_first[i] == 64)
			continue;
		cr_assert_geq(per_file_first[i], last, "file %zu holds an older tick", i + 1);
		last = per_file_first[i];
	}
}

/* The lowest tick of a file, 64 if none. */
static uint64_t lowest_tick(uint64_t bits)
{
	return bits ? (uint64_t)__builtin_ctzll(bits) : 64;
}

Test(record_rotate, sighup_and_the_interval_start_the_next_file)
{
	const char *opts[] = {"--rotate-interval", "0.5", NULL};
	char name[RH_DIR_MAX + 32], path[RH_DIR_MAX + 32];
	struct ticked tk;
	uint64_t seen = 0, first[4], bits[4] = {0};

	ticked_start(&tk, opts);
	tick(&tk);
	kill(tk.rec.proc.pid, SIGHUP);
	wait_line(&tk.rec, "sct-record: file ", name, sizeof(name));
	snprintf(path, sizeof(path), "%s/trace.000002.sct", rh_dir);
	cr_assert_str_eq(name, path);
	tick(&tk);
	tick(&tk);
	/* no SIGHUP: the interval ends the second file, records or not */
	wait_line(&tk.rec, "sct-record: file ", name, sizeof(name));
	snprintf(path, sizeof(path), "%s/trace.000003.sct", rh_dir);
	cr_assert_str_eq(name, path);
	tick(&tk);
	wait_line(&tk.rec, "sct-record: file ", name, sizeof(name));
	ticked_finish(&tk);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/trace.%06zu.sct", rh_dir, i + 1);
		ticks_in(path, (uint32_t)strtol(tk.pid, NULL, 10), &bits[i]);
		cr_assert_not(seen & bits[i], "a tick in two files");
		seen |= bits[i];
		first[i] = lowest_tick(bits[i]);
	}
	cr_assert_eq(seen, 0xf, "ticks 1 to 4, each in one file");
	assert_ticks_in_order(first, 4);
	/* ticks made after a file was there are in it or a later one */
	cr_assert_eq(bits[0] & 0xe, 0, "ticks 2-4 in the first file");
	cr_assert_eq((bits[0] | bits[1]) & 0x8, 0, "tick 4 before the third file");
}

Test(record_rotate, sighup_reopens_the_output_for_logrotate)
{
	const char *opts[] = {NULL};
	char moved[RH_DIR_MAX + 32], rest[256];
	struct ticked tk;
	struct rh_trace a, b;
	uint64_t seen = 0;

	ticked_start(&tk, opts);
	tick(&tk);
	/* what logrotate does without copytruncate: move the file, then SIGHUP */
	snprintf(moved, sizeof(moved), "%s.1", rh_trace_path);
	cr_assert_eq(rename(rh_trace_path, moved), 0);
	kill(tk.rec.proc.pid, SIGHUP);
	wait_line(&tk.rec, "sct-record: reopened ", rest, sizeof(rest));
	cr_assert_str_eq(rest, rh_trace_path);
	tick(&tk);
	ticked_finish(&tk);
	/* tick 1 in either file (whenever the recorder read it), tick 2 in the new one */
	cr_assert_eq(ticks_in(moved, (uint32_t)strtol(tk.pid, NULL, 10), &seen) +
		     ticks_in(rh_trace_path, (uint32_t)strtol(tk.pid, NULL, 10), &seen), 2);
	cr_assert_eq(seen, 3);
	assert_complete(moved, &a);
	assert_complete(rh_trace_path, &b);
	cr_assert_str_eq(a.recording_id, b.recording_id);
	cr_assert_eq(a.sequence, 1);
	cr_assert_eq(b.sequence, 2);
	rh_trace_free(&a);
	rh_trace_free(&b);
}

/* The lseeks of a trace: their returns (the seeker's I) in a bitmap of count bits. */
static size_t seeks_in(const struct rh_trace *t, uint32_t tid, uint8_t *seen, long count, long *lo)
{
	int64_t nr = -1;
	size_t n = 0;

	for (size_t i = 0; i < t->nsc; i++)
		if (t->sc[i].tid == tid && t->sc[i].ret >= 1 && t->sc[i].ret <= count &&
		    t->sc[i].nr != (uint32_t)t->nr_write && t->sc[i].nr != (uint32_t)t->nr_getppid) {
			if (nr < 0)
				nr = t->sc[i].nr;
			if (t->sc[i].nr != nr)
				continue;
			cr_assert_not(seen[t->sc[i].ret], "lseek %lld twice", (long long)t->sc[i].ret);
			seen[t->sc[i].ret] = 1;
			if (t->sc[i].ret < *lo)
				*lo = t->sc[i].ret;
			n++;
		}
	return n;
}

Test(record_rotate, a_snapshot_holds_the_newest_records_and_nothing_older)
{
	enum { COUNT = 400000 };
	const char *wl[] = {rh_workload("seeker"), "400000", NULL};
	char pid[16], name[512], want[RH_DIR_MAX + 64], *out = NULL;
	const char *args[] = {"-o", rh_trace_path, "--snapshot", "256K", "--snapshot-on-exit", "-p", pid, NULL};
	struct rh_recorder rec;
	struct rh_trace t;
	struct rh_proc p;
	struct stat st;
	uint8_t *seen = calloc(COUNT + 1, 1);
	long lo = COUNT + 1;
	size_t n;

	cr_assert(seen);
	cr_assert_eq(rh_spawn(&p, wl, false), 0);
	snprintf(pid, sizeof(pid), "%d", p.pid);
	/*
	 * Without per-CPU stages, events reach the recorder in the order they happened, so the
	 * blocks the ring keeps hold exactly the newest calls (a stage flushed late would put a
	 * few older calls after newer ones, at the window's edge too). The perf backend stages
	 * nothing and merges its rings by time.
	 */
	setenv("SCT_RECORD_FORCE", "no-run-on-cpu", 1);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	unsetenv("SCT_RECORD_FORCE");
	cr_assert(strstr(rec.err, "unstaged") || strstr(rec.err, "(perf, "), "%s", rec.err);
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_geq(rh_read_line(p.out_fd, name, sizeof(name), RH_TIMEOUT_MS), 0);
	cr_assert_eq(rh_field(name, "seeks"), COUNT, "%s", name);
	/* every lseek is done and the seeker still alive: the snapshot ends with them */
	kill(rec.proc.pid, SIGUSR2);
	wait_line(&rec, "sct-record: snapshot ", name, sizeof(name));
	snprintf(want, sizeof(want), "%s/trace.snapshot-000001.sct", rh_dir);
	cr_assert_str_eq(name, want);
	cr_assert_eq(stat(rh_trace_path, &st), -1, "-o itself is never written");

	assert_complete(name, &t);
	cr_assert(t.snapshot);
	cr_assert_eq(t.sequence, 1);
	assert_starts_alone(name, &t, (uint32_t)p.pid, false);
	cr_assert_eq(t.lost_count, 0);
	n = seeks_in(&t, (uint32_t)p.pid, seen, COUNT, &lo);
	/* the newest calls, from lo to the last, every one; nothing older than lo */
	cr_assert_gt(lo, 1, "400000 lseeks do not fit in 256K: the oldest must be gone");
	cr_assert_eq(n, (size_t)(COUNT - lo + 1), "lseeks %ld..%d: %zu of them", lo, COUNT, n);
	cr_assert(seen[COUNT]);
	/* the blocks fill the window: 256K, plus one block at most */
	cr_assert_eq(stat(name, &st), 0);
	cr_assert_gt(st.st_size, 128 << 10, "%lld bytes", (long long)st.st_size);
	rh_trace_free(&t);

	/* the seeker exits: the recorder stops and --snapshot-on-exit writes the last one */
	cr_assert_eq(rh_go(&p), 0);
	cr_assert_eq(rh_read_all(p.out_fd, &out, RH_TIMEOUT_MS), 0);
	free(out);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "%s", rec.err);
	snprintf(want, sizeof(want), "%s/trace.snapshot-000002.sct", rh_dir);
	cr_assert_not_null(strstr(rec.err, want), "%s", rec.err);
	assert_complete(want, &t);
	cr_assert_eq(t.sequence, 2);
	cr_assert_not_null(rh_find_exit(&t, (uint32_t)p.pid), "the exit is the newest record");
	rh_trace_free(&t);
	rh_proc_release(&p);
	free(seen);
}

Test(record_rotate, a_full_disk_during_rotation_stops_with_every_closed_file_complete)
{
	const char *wl[] = {rh_workload("nullwriter"), "0", "8", NULL};
	char out[RH_DIR_MAX + 32];
	const char *args[] = {"-o", out, "--rotate-size", "64K", "--", wl[0], wl[1], wl[2], NULL};
	struct rh_recorder rec;
	struct rh_trace t;
	glob_t g;
	char pat[RH_DIR_MAX + 32];
	size_t n;

	snprintf(mnt, sizeof(mnt), "%s/small", rh_dir);
	cr_assert_eq(mkdir(mnt, 0700), 0);
	cr_assert_eq(mount("sct-test", mnt, "tmpfs", 0, "size=400k"), 0, "mount tmpfs: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/rec.sct", mnt);
	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&rec.proc), 0);
	/* the command writes forever: the recorder must stop on its own when the disk is full */
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "the recorder did not stop");
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x:\n%s", rec.status, rec.err);
	cr_assert_not_null(strstr(rec.err, strerror(ENOSPC)), "no '%s' in stderr:\n%s", strerror(ENOSPC), rec.err);
	snprintf(pat, sizeof(pat), "%s/rec.*.sct", mnt);
	cr_assert_eq(glob(pat, 0, NULL, &g), 0);
	n = g.gl_pathc;
	cr_assert_geq(n, 2, "the disk filled before a rotation:\n%s", rec.err);
	for (size_t i = 0; i + 1 < n; i++) {
		assert_complete(g.gl_pathv[i], &t);
		rh_trace_free(&t);
	}
	/* the newest: readable, whole frames only (the partial one was cut off), maybe no TRAILER */
	cr_assert_eq(rh_trace_read(g.gl_pathv[n - 1], &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert_eq(t.sessions, 1);
	cr_assert_eq(t.stats.skipped_ranges + t.stats.bad_blocks + t.stats.truncated_bytes, 0);
	cr_assert_gt(t.ntask, 0, "the newest file has its start");
	rh_trace_free(&t);
	globfree(&g);
	/* nothing but the numbered files: no temporary file left behind */
	cr_assert_eq(dir_entries(mnt), n);
}

/* The one hidden temporary file in rh_dir, into path. */
static void find_tmp(char *path, size_t cap)
{
	DIR *d = opendir(rh_dir);
	struct dirent *e;
	int n = 0;

	cr_assert(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, ".sct-record.", 12) && ++n)
			snprintf(path, cap, "%s/%s", rh_dir, e->d_name);
	closedir(d);
	cr_assert_eq(n, 1, "temporary files: %d", n);
}

Test(record_rotate, sigkill_during_a_rotation_leaves_every_closed_file_complete)
{
	char log[RH_DIR_MAX + 16], path[RH_DIR_MAX + 300];
	const char *wl[] = {rh_workload("nullwriter"), "0", "8", NULL};
	/*
	 * SIGKILL at the entry of the second file's rename: the first file is finished, the
	 * second has its start written, and the kernel runs no syscall with a fatal signal
	 * pending at its entry, so the kill lands exactly inside that rotation.
	 */
	const char *strace[] = {"/usr/bin/strace", "-q", "-f", "-o", log, "-e", "trace=renameat2",
				"-e", "inject=renameat2:signal=SIGKILL:when=2",
				"-E", "ASAN_OPTIONS=detect_leaks=0", NULL};
	const char *args[] = {"-o", rh_trace_path, "--rotate-size", "64K", "--", wl[0], wl[1], wl[2], NULL};
	struct rh_recorder rec;
	struct rh_trace t;

	snprintf(log, sizeof(log), "%s/strace.log", rh_dir);
	cr_assert_eq(rh_recorder_start_under(&rec, strace, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&rec.proc), 0);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0, "%s", rec.err);
	/* strace ends as its tracee did */
	cr_assert(WIFSIGNALED(rec.status) && WTERMSIG(rec.status) == SIGKILL, "status %#x:\n%s", rec.status,
		  rec.err);

	snprintf(path, sizeof(path), "%s/trace.000001.sct", rh_dir);
	assert_complete(path, &t);
	cr_assert_gt(t.nsc, 0);
	rh_trace_free(&t);
	snprintf(path, sizeof(path), "%s/trace.000002.sct", rh_dir);
	cr_assert_neq(access(path, F_OK), 0, "the second file was never named");
	/* the open file, under its temporary name: its start, readable, no TRAILER */
	find_tmp(path, sizeof(path));
	cr_assert_eq(rh_trace_read(path, &t), 0);
	cr_assert_eq(t.err, 0);
	cr_assert_eq(t.sessions, 1);
	cr_assert_eq(t.sequence, 2);
	cr_assert_not(t.has_trailer);
	cr_assert_gt(t.ntask, 0);
	cr_assert_eq(t.stats.skipped_ranges + t.stats.bad_blocks + t.stats.truncated_bytes, 0);
	rh_trace_free(&t);
}

/*
 * A start that fails once the first numbered file is made leaves no file, as without rotation:
 * the perf backend publishes its output before it polls its events, and strace fails that
 * epoll_create1(2).
 */
Test(record_rotate, failed_start_leaves_no_numbered_file)
{
	char log[RH_DIR_MAX + 16];
	const char *strace[] = {"/usr/bin/strace", "-q", "-f", "-o", log, "-e", "trace=epoll_create1",
				"-e", "inject=epoll_create1:error=EMFILE",
				"-E", "ASAN_OPTIONS=detect_leaks=0", NULL};
	const char *args[] = {"--backend", "perf", "-a", "-o", rh_trace_path, "--rotate-size", "64K", NULL};
	struct rh_recorder rec;
	struct dirent *de;
	DIR *d;

	unsetenv(RH_BACKEND_ENV);
	snprintf(log, sizeof(log), "%s/strace.log", rh_dir);
	cr_assert_eq(rh_recorder_start_under(&rec, strace, args), -ECHILD, "ready:\n%s", rec.err);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1, "status %#x:\n%s", rec.status,
		  rec.err);
	cr_assert(strstr(rec.err, "sct-record: cannot poll the perf events: Too many open files\n"),
		  "%s", rec.err);
	d = opendir(rh_dir);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		cr_assert(strncmp(de->d_name, "trace", 5), "%s left behind", de->d_name);
	closedir(d);
}

/* Any moment: whatever file is open when the recorder is killed, the ones before it are whole. */
Test(record_rotate, sigkill_while_rotating_under_load_leaves_whole_files)
{
	const char *wl[] = {rh_workload("nullwriter"), "0", "8", NULL};
	const char *args[] = {"-o", rh_trace_path, "--rotate-size", "64K", "--", wl[0], wl[1], wl[2], NULL};
	char rest[RH_DIR_MAX + 64];
	struct rh_recorder rec;
	struct rh_trace t;
	glob_t g;
	size_t n;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_go(&rec.proc), 0);
	wait_line(&rec, "sct-record: file ", rest, sizeof(rest));
	cr_assert_eq(rh_recorder_finish(&rec, SIGKILL, RH_TIMEOUT_MS), 0);
	cr_assert(WIFSIGNALED(rec.status) && WTERMSIG(rec.status) == SIGKILL);
	n = numbered("trace.*.sct", &g);
	cr_assert_geq(n, 2);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(rh_trace_read(g.gl_pathv[i], &t), 0);
		cr_assert_eq(t.err, 0, "%s", g.gl_pathv[i]);
		cr_assert_eq(t.sequence, i + 1, "%s", g.gl_pathv[i]);
		cr_assert_gt(t.ntask, 0, "%s has its start", g.gl_pathv[i]);
		/* a frame cut by the kill is a truncated tail; nothing is ever skipped */
		cr_assert_eq(t.stats.skipped_ranges + t.stats.bad_blocks, 0, "%s", g.gl_pathv[i]);
		if (i + 1 < n)
			cr_assert(t.has_trailer && !t.stats.truncated_bytes, "%s is not complete", g.gl_pathv[i]);
		rh_trace_free(&t);
	}
	globfree(&g);
}

Test(record_rotate, bad_options_are_refused)
{
	static const char *const bad[][8] = {
		{"--rotate-size", "1K", "-a", NULL},
		{"--rotate-size", "2T", "-a", NULL},
		{"--rotate-interval", "0.01", "-a", NULL},
		{"--rotate-count", "0", "--rotate-size", "1M", "-a", NULL},
		{"--rotate-count", "3", "-a", NULL},
		{"--snapshot", "1M", "--rotate-size", "1M", "-a", NULL},
		{"--snapshot-on-exit", "-a", NULL},
		{"--snapshot", "abc", "-a", NULL},
	};
	static const char *const why[] = {
		"invalid rotate size", "invalid rotate size", "invalid rotate interval", "invalid rotate count",
		"--rotate-count needs", "does not combine with rotation", "--snapshot-on-exit needs",
		"invalid snapshot size",
	};
	const char *stdout_args[] = {"--rotate-size", "1M", "-o", "-", "-a", NULL};
	struct rh_recorder rec;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(rh_recorder_start(&rec, bad[i]), -ECHILD, "case %zu started", i);
		cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 2, "case %zu: %#x", i, rec.status);
		cr_assert_not_null(strstr(rec.err, why[i]), "case %zu: %s", i, rec.err);
	}
	cr_assert_eq(rh_recorder_start(&rec, stdout_args), -ECHILD);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 1);
	cr_assert_not_null(strstr(rec.err, "give -o a file name, not stdout"), "%s", rec.err);
}

/* The ticker's write calls so far, from /proc/PID/io. */
static unsigned long ticker_writes(const struct ticked *tk)
{
	char path[64], line[128];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/io", tk->pid);
	f = fopen(path, "re");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "syscw: ", 7))
			n = strtoul(line + 7, NULL, 10);
	fclose(f);
	return n;
}

/* n ticks, each waited for: its write has returned, so it is counted. */
static void ticks_made(struct ticked *tk, int n)
{
	for (int k = 0; k < n; k++) {
		unsigned long before = ticker_writes(tk);

		tick(tk);
		for (int i = 0; ticker_writes(tk) == before; i++) {
			cr_assert_lt(i, RH_TIMEOUT_MS, "the ticker made no write");
			usleep(1000);
		}
	}
}

/* The calls of syscall nr in t's TOTALS records; *records counts those records. */
static uint64_t totals_calls(const struct rh_trace *t, int64_t nr, size_t *records)
{
	uint64_t calls = 0;

	for (size_t i = 0; i < t->ntotals; i++)
		if ((int64_t)t->totals[i].nr == nr) {
			calls += t->totals[i].calls;
			(*records)++;
		}
	return calls;
}

/*
 * --summary-only into three files (two SIGHUPs, ticks before each): every file stands alone
 * with the TOTALS of the writes made while it was the output, and the files' totals add up to
 * what an unfiltered recording of the same ticks has, syscall by syscall, and the exit_group
 * that has no SYSCALL record.
 */
Test(record_rotate, summary_only_totals_in_each_file_add_up)
{
	/* numbered files, the next one on SIGHUP only */
	const char *opts[] = {"--summary-only", "--rotate-interval", "3600", NULL};
	const int ticks[3] = {2, 3, 1};
	uint64_t reads = 0, writes = 0, exits = 0, all = 0;
	char name[RH_DIR_MAX + 32], path[RH_DIR_MAX + 32];
	struct ticked tk, plain;
	struct rh_trace t, u;

	ticked_start(&tk, opts);
	for (int f = 0; f < 3; f++) {
		ticks_made(&tk, ticks[f]);
		if (f == 2)
			break;
		kill(tk.rec.proc.pid, SIGHUP);
		wait_line(&tk.rec, "sct-record: file ", name, sizeof(name));
	}
	ticked_finish(&tk);
	for (int f = 0; f < 3; f++) {
		size_t records = 0, none = 0;
		uint64_t w;

		snprintf(path, sizeof(path), "%s/trace.%06d.sct", rh_dir, f + 1);
		assert_complete(path, &t);
		cr_assert_eq(t.nsc, 0, "%s: SYSCALL records", path);
		cr_assert_eq(t.nwarning, 0, "%s: %s", path, t.nwarning ? t.warning[0].text : "");
		w = totals_calls(&t, SYS_write, &records);
		cr_assert_eq(w, (uint64_t)ticks[f], "%s: %llu writes, %d ticks", path, (unsigned long long)w, ticks[f]);
		writes += w;
		reads += totals_calls(&t, SYS_read, &none);
		exits += totals_calls(&t, SYS_exit_group, &none);
		for (size_t i = 0; i < t.ntotals; i++)
			all += t.totals[i].calls;
		rh_trace_free(&t);
	}

	ticked_start_at(&plain, rh_trace_path2, (const char *const[]){NULL});
	for (int f = 0; f < 3; f++)
		ticks_made(&plain, ticks[f]);
	ticked_finish(&plain);
	assert_complete(rh_trace_path2, &u);
	cr_assert_eq(writes, rh_count_syscalls(&u, 0, 0, SYS_write));
	cr_assert_eq(reads, rh_count_syscalls(&u, 0, 0, SYS_read));
	cr_assert_eq(exits, 1, "the ticker's exit_group");
	cr_assert_eq(all, u.nsc + 1, "%llu calls in the totals, %zu SYSCALL records", (unsigned long long)all, u.nsc);
	rh_trace_free(&u);
}
