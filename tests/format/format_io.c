// SPDX-License-Identifier: BSD-2-Clause
/*
 * Files and pipes: writer on a pipe with the reader on the other end, concatenated sessions,
 * flush_if_due, creation rules (0600, O_EXCL, nothing left on failure), abandon, and a full
 * disk (a 64 KiB tmpfs: needs root; skipped loudly outside CI, failed in CI).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format_helpers.h"
#include "sct.h"

#define PIPE_RECORDS 300000u

static void *pipe_writer(void *arg)
{
	int fd = *(int *)arg, err = 0;
	struct sct_writer *w = sct_writer_open_fd(fd, &fh_info, NULL, &err);
	struct sct_record rec;
	intptr_t rc = 0;

	if (!w)
		return (void *)(intptr_t)err;
	for (uint64_t i = 0; i < PIPE_RECORDS && !rc; i++) {
		rec = fh_syscall(i);
		rc = sct_writer_append(w, &rec);
	}
	if (rc)
		sct_writer_abandon(w);
	else
		rc = sct_writer_close(w);
	return (void *)rc;
}

Test(format_io, reader_on_a_pipe)
{
	struct sct_record rec;
	struct sct_reader *r;
	pthread_t th;
	uint64_t n = 0, sessions = 0;
	void *wrc;
	int p[2], err = 0, rc;

	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(pthread_create(&th, NULL, pipe_writer, &p[1]), 0);
	r = sct_reader_open_fd(p[0], true, &err);
	cr_assert(r);
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			sessions++;
			continue;
		}
		cr_assert_eq(rec.syscall.time_ns, fh_syscall(n).syscall.time_ns);
		n++;
	}
	cr_assert_eq(pthread_join(th, &wrc), 0);
	cr_assert_eq((intptr_t)wrc, 0, "writer: %s", sct_strerror((int)(intptr_t)wrc));
	cr_assert_eq(rc, 0);
	cr_assert_eq(sessions, 1);
	cr_assert_eq(n, PIPE_RECORDS);
	cr_assert(sct_session_trailer(sct_reader_session(r)));
	cr_assert_eq(sct_reader_stats(r)->sessions_without_trailer, 0);
	sct_reader_close(r);
}

/* One complete trace in memory with the given hostname and n records. */
static void trace_for(const char *host, uint64_t n, struct fh_trace *t)
{
	struct sct_header_info info = fh_info;
	int fd = memfd_create("t", MFD_CLOEXEC), dfd = dup(fd), err = 0;
	struct sct_writer *w;
	struct sct_record rec;

	info.hostname = host;
	w = sct_writer_open_fd(fd, &info, &(struct sct_writer_opts){ .no_fsync = true }, &err);
	cr_assert(w);
	for (uint64_t i = 0; i < n; i++) {
		rec = fh_syscall(i);
		cr_assert_eq(sct_writer_append(w, &rec), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(dfd, t);
}

Test(format_io, concatenated_files_are_two_sessions)
{
	const struct sct_trailer_info *t;
	uint64_t per[2] = { 0, 0 };
	uint32_t tsession;
	struct fh_trace a, b;
	struct sct_record rec;
	struct sct_reader *r;
	uint8_t *cat;
	int err = 0, cur = -1;

	trace_for("host-a", 10000, &a);
	trace_for("host-b", 123, &b);
	cat = malloc(a.len + b.len);
	memcpy(cat, a.p, a.len);
	memcpy(cat + a.len, b.p, b.len);
	r = sct_reader_open_mem(cat, a.len + b.len, &err);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			cr_assert_lt(++cur, 2);
			cr_assert_eq(sct_session_index(sct_reader_session(r)), cur);
			cr_assert_str_eq(sct_session_get(sct_reader_session(r), SCT_SESSION_HOSTNAME),
					 cur ? "host-b" : "host-a");
			/* the first session's TRAILER was read on the way to the second */
			t = sct_reader_trailer(r, &tsession);
			cr_assert_eq(!!t, cur == 1);
			if (t) {
				cr_assert_eq(tsession, 0);
				cr_assert_eq(t->records[SCT_REC_SYSCALL], 10000);
			}
			continue;
		}
		per[cur]++;
	}
	cr_assert_eq(cur, 1);
	cr_assert_eq(per[0], 10000);
	cr_assert_eq(per[1], 123);
	cr_assert_eq(sct_session_trailer(sct_reader_session(r))->records[SCT_REC_SYSCALL], 123);
	t = sct_reader_trailer(r, &tsession);
	cr_assert_eq(tsession, 1);
	cr_assert_eq(t->records[SCT_REC_SYSCALL], 123);
	cr_assert_eq(sct_reader_stats(r)->sessions_without_trailer, 0);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_SESSION], 2);
	sct_reader_close(r);
	free(cat);
	fh_trace_free(&a);
	fh_trace_free(&b);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

Test(format_io, flush_if_due_writes_a_block)
{
	struct sct_writer_opts opts = { .flush_interval_ns = 5000000, .no_fsync = true };
	struct sct_record rec = fh_syscall(0);
	struct sct_writer *w;
	struct fh_trace t;
	struct fh_read rd;
	uint64_t before, bytes;
	int fd;

	w = fh_writer(&opts, &fd);
	cr_assert_eq(sct_writer_flush_if_due(w, now_ns() + 1000000000), 0); /* nothing pending */
	bytes = sct_writer_bytes(w);
	before = now_ns();
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_flush_if_due(w, before), 0);
	cr_assert_eq(sct_writer_bytes(w), bytes, "flushed before the interval");
	cr_assert_eq(sct_writer_flush_if_due(w, now_ns() + opts.flush_interval_ns), 0);
	cr_assert_gt(sct_writer_bytes(w), bytes, "not flushed after the interval");
	/* what a SIGKILL leaves: the flushed block, no trailer */
	sct_writer_abandon(w);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 0);
	fh_trace_free(&t);
}

static char tmpdir[] = "/tmp/sct-format-io-XXXXXX";

static void dir_setup(void)
{
	cr_assert(mkdtemp(tmpdir));
}

static void dir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	cr_assert_eq(system(cmd), 0);
}

Test(format_io, create_rules, .init = dir_setup, .fini = dir_teardown)
{
	struct sct_header_info huge = fh_info;
	struct sct_syscall_name *names;
	struct sct_writer *w;
	char path[256], bad[256];
	struct stat st;
	int err = 0;

	snprintf(path, sizeof(path), "%s/t.sct", tmpdir);
	umask(0);
	w = sct_writer_open(path, false, &fh_info, NULL, &err);
	cr_assert(w, "%s", sct_strerror(err));
	cr_assert_eq(sct_writer_close(w), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0600);

	cr_assert_null(sct_writer_open(path, false, &fh_info, NULL, &err));
	cr_assert_eq(err, -EEXIST);
	cr_assert_eq(chmod(path, 0644), 0);
	w = sct_writer_open(path, true, &fh_info, NULL, &err);
	cr_assert(w);
	cr_assert_eq(sct_writer_close(w), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0600);

	/* a HEADER past its limit: refused, and nothing is left behind */
	names = calloc(200000, sizeof(*names));
	for (uint32_t i = 0; i < 200000; i++)
		names[i] = (struct sct_syscall_name){ i, "a_rather_long_syscall_name" };
	huge.syscalls = names;
	huge.nsyscalls = 200000;
	snprintf(bad, sizeof(bad), "%s/huge.sct", tmpdir);
	cr_assert_null(sct_writer_open(bad, false, &huge, NULL, &err));
	cr_assert_eq(err, -SCT_E_LIMIT);
	cr_assert_eq(access(bad, F_OK), -1);
	free(names);

	snprintf(bad, sizeof(bad), "%s/no/such/dir.sct", tmpdir);
	cr_assert_null(sct_writer_open(bad, false, &fh_info, NULL, &err));
	cr_assert_eq(err, -ENOENT);
}

Test(format_io, failed_writer_stays_failed, .init = dir_setup, .fini = dir_teardown)
{
	struct sct_record rec = fh_syscall(0);
	struct sct_writer *w;
	int fd, err = 0;

	/* a read-only fd: the HEADER write fails at open */
	fd = open("/dev/null", O_RDONLY);
	cr_assert_null(sct_writer_open_fd(fd, &fh_info, NULL, &err));
	cr_assert_eq(err, -EBADF);

	fd = open("/dev/full", O_WRONLY);
	cr_assert_null(sct_writer_open_fd(fd, &fh_info, NULL, &err));
	cr_assert_eq(err, -ENOSPC);

	/* /dev/null takes everything: the writer works on a character device */
	w = sct_writer_open("/dev/null", true, &fh_info, NULL, &err);
	cr_assert(w);
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_close(w), 0);
}

static bool in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

Test(format_io, full_disk_keeps_every_whole_block, .init = dir_setup, .fini = dir_teardown)
{
	struct sct_writer_opts opts = { .block_records = 100, .no_fsync = false };
	struct sct_writer *w;
	struct sct_record rec;
	struct fh_trace t;
	struct fh_read rd;
	char path[256];
	uint64_t i, failed_at = 0;
	int err = 0, rc = 0, fd;

	if (mount("sct-test", tmpdir, "tmpfs", 0, "size=64k")) {
		if (in_ci())
			cr_assert_fail("cannot mount a tmpfs (%s): this test needs root", strerror(errno));
		fprintf(stderr, "SKIPPED format_io::full_disk: cannot mount a tmpfs (%s); "
				"run as root (CI=true makes this a failure)\n", strerror(errno));
		cr_skip_test("needs root to mount a tmpfs");
	}
	snprintf(path, sizeof(path), "%s/full.sct", tmpdir);
	w = sct_writer_open(path, false, &fh_info, &opts, &err);
	cr_assert(w, "%s", sct_strerror(err));
	for (i = 0; i < 10000000 && !rc; i++) {
		rec = fh_syscall(i);
		/* values that do not compress, so the disk fills fast */
		rec.syscall.duration_ns = (i * 0x9e3779b97f4a7c15ull) >> 8;
		rec.syscall.cgroup_id = (i * 0xc2b2ae3d27d4eb4full);
		rc = sct_writer_append(w, &rec);
		if (rc)
			failed_at = i;
	}
	cr_assert_eq(rc, -ENOSPC, "append: %s", sct_strerror(rc));
	cr_assert_eq(sct_writer_append(w, &rec), -ENOSPC, "the writer must stay failed");
	cr_assert_eq(sct_writer_flush(w), -ENOSPC);
	cr_assert_eq(sct_writer_close(w), -ENOSPC);

	fd = open(path, O_RDONLY);
	cr_assert(fd >= 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	/* the append that failed was flushing records failed_at-100 .. failed_at-1 */
	cr_assert_eq(failed_at % 100, 0);
	cr_assert_eq(rd.nrecords, failed_at - 100);
	cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 0, "the partial frame was not cut off");
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	fh_trace_free(&t);
	cr_assert_eq(umount(tmpdir), 0);
}

Test(format_io, appending_a_session_to_a_file, .init = dir_setup, .fini = dir_teardown)
{
	struct sct_record rec = fh_syscall(1);
	struct sct_writer *w;
	struct fh_trace t;
	struct fh_read rd;
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/two.sct", tmpdir);
	for (int i = 0; i < 2; i++) {
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		cr_assert(fd >= 0);
		w = sct_writer_open_fd(fd, &fh_info, &(struct sct_writer_opts){ .no_fsync = true }, &err);
		cr_assert(w);
		cr_assert_eq(sct_writer_append(w, &rec), 0);
		cr_assert_eq(sct_writer_close(w), 0);
	}
	fd = open(path, O_RDONLY);
	cr_assert(fd >= 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 2);
	cr_assert_eq(rd.nrecords, 2);
	cr_assert_eq(rd.stats.sessions_without_trailer, 0);
	fh_trace_free(&t);
}

Test(format_io, truncated_then_concatenated)
{
	struct fh_trace a, b;
	struct fh_read rd;
	size_t cut;
	uint8_t *cat;

	trace_for("host-a", 20000, &a); /* 3 blocks of 8192, 8192, 3616 records */
	trace_for("host-b", 10, &b);
	cut = a.len / 2;                /* inside the second block */
	cat = malloc(cut + b.len);
	memcpy(cat, a.p, cut);
	memcpy(cat + cut, b.p, b.len);
	fh_read_mem(cat, cut + b.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 2);
	cr_assert_eq(rd.nrecords, 8192 + 10);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].offset + rd.last_diag[SCT_DIAG_SKIPPED].length,
		     cut);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 0);
	free(cat);
	fh_trace_free(&a);
	fh_trace_free(&b);
}

/* After finish, the writer's count is every byte the pipe received, trailer included. */
Test(format_io, finish_counts_every_byte_on_a_pipe)
{
	static uint8_t got[1 << 16];
	struct sct_record rec = fh_syscall(1);
	struct sct_writer *w;
	uint64_t counted;
	size_t n = 0;
	ssize_t r;
	int fds[2], err = 0;

	cr_assert_eq(pipe(fds), 0);
	w = sct_writer_open_fd(fds[1], &fh_info, NULL, &err);
	cr_assert_not_null(w, "%s", sct_strerror(err));
	for (int i = 0; i < 100; i++)
		cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_finish(w), 0);
	counted = sct_writer_bytes(w);
	cr_assert_eq(sct_writer_append(w, &rec), -SCT_E_STATE);
	cr_assert_eq(sct_writer_append_syscall(w, &rec.syscall), -SCT_E_STATE);
	cr_assert_eq(sct_writer_flush(w), -SCT_E_STATE);
	cr_assert_eq(sct_writer_finish(w), 0, "a second finish does nothing");
	cr_assert_eq(sct_writer_records(w), 100);
	cr_assert_eq(sct_writer_close(w), 0);
	while ((r = read(fds[0], got + n, sizeof(got) - n)) > 0)
		n += (size_t)r;
	cr_assert_eq(r, 0);
	close(fds[0]);
	cr_assert_lt(n, sizeof(got));
	cr_assert_eq(counted, n, "counted %llu, the pipe got %zu", (unsigned long long)counted, n);
}
