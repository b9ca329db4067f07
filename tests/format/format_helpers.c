// SPDX-License-Identifier: BSD-2-Clause
/* Shared helpers of the format tests (see format_helpers.h). */
#include "format_helpers.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct sct_syscall_name names[] = {
	{ 0, "read" }, { 1, "write" }, { 257, "openat" },
};
static const struct sct_syscall_name compat_names[] = { { 4, "write" } };
static const char *const args[] = { "sct-record", "-p", "42" };

const struct sct_header_info fh_info = {
	.producer = "sct-test", .producer_version = "0.1", .args = args, .nargs = 3,
	.hostname = "testhost", .kernel = "6.18.0", .arch = "x86_64", .boot_id = "b00t",
	.clock = "CLOCK_MONOTONIC", .anchor_clock_ns = 1000, .anchor_realtime_ns = 1700000000000000000ull,
	.cgroup_hierarchy = "v2", .cgroup_mount = "/sys/fs/cgroup",
	.syscalls = names, .nsyscalls = 3,
	.compat_arch = "i386", .compat_syscalls = compat_names, .ncompat_syscalls = 1,
};

struct sct_writer *fh_writer(const struct sct_writer_opts *opts, int *fd)
{
	int mfd = memfd_create("sct-test", MFD_CLOEXEC);
	struct sct_writer *w;
	int err = 0;

	cr_assert(mfd >= 0);
	*fd = dup(mfd);
	cr_assert(*fd >= 0);
	w = sct_writer_open_fd(mfd, &fh_info, opts, &err);
	cr_assert(w, "writer open: %s", sct_strerror(err));
	return w;
}

void fh_collect_fd(int fd, struct fh_trace *t)
{
	off_t size = lseek(fd, 0, SEEK_END);

	cr_assert(size >= 0);
	t->len = (size_t)size;
	t->p = malloc(t->len + 1);
	cr_assert(t->p);
	cr_assert_eq(pread(fd, t->p, t->len, 0), (ssize_t)t->len);
	close(fd);
}

void fh_trace_free(struct fh_trace *t)
{
	free(t->p);
	t->p = NULL;
}

struct sct_record fh_syscall(uint64_t i)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall.time_ns = 1000000 + i * 300 + (i * 7919) % 50;
	r.syscall.duration_ns = 500 + (i * 104729) % 300;
	r.syscall.pid = 4242;
	r.syscall.tid = 4242 + (uint32_t)(i % 4);
	r.syscall.cgroup_id = 777;
	r.syscall.nr = i % 10 ? 1 : 0;
	r.syscall.ret = i % 13 ? 64 : -11;
	return r;
}

void fh_diag_count(void *ctx, const struct sct_diag *d)
{
	struct fh_read *out = ctx;

	cr_assert(d->kind >= 1 && d->kind <= SCT_DIAG_BAD_RECORD);
	cr_assert(d->text && strchr(d->text, '\n') == NULL);
	out->ndiag[d->kind]++;
	out->last_diag[d->kind] = *d;
	out->last_diag[d->kind].text = NULL;
}

void fh_read_mem(const void *p, size_t len, bool keep, struct fh_read *out)
{
	struct sct_reader *r;
	struct sct_record rec;
	size_t cap = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	r = sct_reader_open_mem(p, len, &err);
	cr_assert(r);
	sct_reader_set_diag(r, fh_diag_count, out);
	while ((out->rc = sct_reader_next(r, &rec)) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			if (sct_reader_session(r))
				out->nsessions++;
			else
				out->nheaderless++;
			continue;
		}
		if (keep) {
			if (out->nrecords == cap) {
				cap = cap ? cap * 2 : 1024;
				out->recs = realloc(out->recs, cap * sizeof(*out->recs));
				cr_assert(out->recs);
			}
			out->recs[out->nrecords] = rec;
		}
		out->nrecords++;
	}
	out->stats = *sct_reader_stats(r);
	snprintf(out->error, sizeof(out->error), "%s", sct_reader_error(r));
	sct_reader_close(r);
}

void fh_read_free(struct fh_read *out)
{
	free(out->recs);
	out->recs = NULL;
}
