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

/* Each file opens with the TASK record of tid and the CGROUP record of every id it uses. */
static void assert_starts_alone(const char *path, const struct rh_trace *t, uint32_t tid)
{
	bool task = false;

	for (size_t i = 0; i < t->ntask; i++)
		task |= t->task[i].rec.tid == tid;
	cr_assert(task, "%s: no TASK record of %u", path, tid);
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
	const char *wl[] = {rh_workload("writer"), "300000", "8", NULL};
	const char *extra[] = {"--rotate-size", "64K", NULL};
	struct across a = {0};
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
		assert_starts_alone(want, &t, (uint32_t)run.wl_pid);
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
	const char *wl[] = {rh_workload("writer"), "300000", "8", NULL};
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
