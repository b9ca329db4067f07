// SPDX-License-Identifier: BSD-2-Clause
/*
 * Blocks as frames (sct_writer_open_blocks(), sct_writer_append_block()): a writer without
 * output hands out each block it finishes, and a file writer appends such frames as they are,
 * counted in its TRAILER as if it had encoded them.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format_helpers.h"
#include "sct.h"

#define MAX_KEPT 64

/* Copies of the frames a blocks writer handed out. */
struct kept {
	struct sct_block_frame b[MAX_KEPT];
	size_t n;
	int fail_with; /* returned by the callback when non-zero */
};

static int keep_block(void *ctx, const struct sct_block_frame *b)
{
	struct kept *k = ctx;
	uint8_t *copy;

	if (k->fail_with)
		return k->fail_with;
	cr_assert_lt(k->n, MAX_KEPT);
	copy = malloc(b->len);
	cr_assert(copy);
	memcpy(copy, b->bytes, b->len);
	k->b[k->n] = *b;
	k->b[k->n++].bytes = copy;
	return 0;
}

static void kept_free(struct kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		free((void *)k->b[i].bytes);
	k->n = 0;
}

static struct sct_record lost_record(uint64_t t, uint64_t count)
{
	struct sct_record rec = { .type = SCT_REC_LOST };

	rec.lost.time_ns = t;
	rec.lost.end_ns = t + 1;
	rec.lost.count = count;
	rec.lost.cause = SCT_LOST_RINGBUF;
	return rec;
}

/* 250 syscalls, a LOST of 7 after the 100th and a WARNING after the 200th, in blocks of 100. */
static void fill_blocks(struct kept *k)
{
	struct sct_writer_opts opts = { .block_records = 100 };
	struct sct_record rec = { .type = SCT_REC_WARNING };
	struct sct_writer *w;
	int err = 0;

	w = sct_writer_open_blocks(&fh_info, &opts, keep_block, k, &err);
	cr_assert(w, "%s", sct_strerror(err));
	for (uint64_t i = 0; i < 250; i++) {
		struct sct_record sc = fh_syscall(i);

		cr_assert_eq(sct_writer_append(w, &sc), 0);
		if (i == 99) {
			struct sct_record lost = lost_record(sc.syscall.time_ns, 7);

			cr_assert_eq(sct_writer_append(w, &lost), 0);
		}
		if (i == 199) {
			rec.warning.time_ns = sc.syscall.time_ns;
			rec.warning.count = 1;
			rec.warning.kind = SCT_WARN_OTHER;
			rec.warning.text = (struct sct_bytes){ (const uint8_t *)"w", 1 };
			cr_assert_eq(sct_writer_append(w, &rec), 0);
		}
	}
	/* 252 records in blocks of 100: two full blocks now, the third on close */
	cr_assert_eq(k->n, 2);
	cr_assert_eq(sct_writer_close(w), 0);
	cr_assert_eq(k->n, 3);
}

Test(format_blocks, frames_handed_out_read_back_in_a_file)
{
	struct kept k = { 0 };
	struct sct_writer *w;
	struct sct_record task = { .type = SCT_REC_TASK };
	struct fh_trace t;
	struct fh_read rd;
	const struct sct_trailer_info *tr;
	struct sct_reader *r;
	struct sct_record rec;
	uint32_t sess;
	int fd, err = 0, n;

	fill_blocks(&k);
	cr_assert_eq(k.b[0].records[SCT_REC_SYSCALL], 100);
	cr_assert_eq(k.b[1].records[SCT_REC_SYSCALL], 99);
	cr_assert_eq(k.b[1].records[SCT_REC_LOST], 1);
	cr_assert_eq(k.b[0].lost + k.b[1].lost + k.b[2].lost, 7);
	cr_assert_eq(k.b[2].records[SCT_REC_WARNING], 1);
	cr_assert_eq(k.b[2].records[SCT_REC_SYSCALL], 51);
	cr_assert_eq(k.b[0].first_ns, fh_syscall(0).syscall.time_ns);

	w = fh_writer(NULL, &fd);
	task.task.pid = task.task.tid = 42;
	task.task.comm = (struct sct_bytes){ (const uint8_t *)"x", 1 };
	cr_assert_eq(sct_writer_append(w, &task), 0);
	/* the oldest block left out: a flight recorder's ring has dropped it */
	cr_assert_eq(sct_writer_append_block(w, &k.b[1]), 0);
	cr_assert_eq(sct_writer_append_block(w, &k.b[2]), 0);
	cr_assert_eq(sct_writer_records(w), 1 + 100 + 52);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);

	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 153);
	cr_assert_eq(rd.stats.records[SCT_REC_TASK], 1);
	cr_assert_eq(rd.stats.records[SCT_REC_SYSCALL], 150);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED] + rd.ndiag[SCT_DIAG_NO_TRAILER] + rd.ndiag[SCT_DIAG_BAD_BLOCK], 0);
	/* the task first (the pending block is flushed before a block is appended), then the
	   second block: the LOST record, the syscalls from the 101st on */
	cr_assert_eq(rd.recs[0].type, SCT_REC_TASK);
	cr_assert_eq(rd.recs[1].type, SCT_REC_LOST);
	cr_assert_eq(rd.recs[2].syscall.time_ns, fh_syscall(100).syscall.time_ns);

	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while ((n = sct_reader_next(r, &rec)) > 0)
		;
	cr_assert_eq(n, 0);
	tr = sct_reader_trailer(r, &sess);
	cr_assert(tr);
	cr_assert_eq(tr->blocks, 3);
	cr_assert_eq(tr->records[SCT_REC_SYSCALL], 150);
	cr_assert_eq(tr->records[SCT_REC_TASK], 1);
	cr_assert_eq(tr->lost, 7);
	cr_assert_eq(tr->warnings, 1);
	cr_assert_eq(tr->last_ns, fh_syscall(249).syscall.time_ns);
	sct_reader_close(r);
	fh_read_free(&rd);
	fh_trace_free(&t);
	kept_free(&k);
}

Test(format_blocks, a_damaged_frame_is_refused_and_the_writer_goes_on)
{
	struct kept k = { 0 };
	struct sct_block_frame bad;
	struct sct_writer *w;
	struct fh_trace t;
	struct fh_read rd;
	uint8_t *copy;
	int fd;

	fill_blocks(&k);
	w = fh_writer(NULL, &fd);
	bad = k.b[0];
	copy = malloc(bad.len);
	cr_assert(copy);
	memcpy(copy, bad.bytes, bad.len);
	copy[bad.len / 2] ^= 1;
	bad.bytes = copy;
	cr_assert_eq(sct_writer_append_block(w, &bad), -EINVAL, "a wrong checksum");
	bad.bytes = k.b[0].bytes;
	bad.len--;
	cr_assert_eq(sct_writer_append_block(w, &bad), -EINVAL, "a cut frame");
	cr_assert_eq(sct_writer_append_block(w, &k.b[0]), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.nrecords, 100);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 0);
	fh_read_free(&rd);
	fh_trace_free(&t);
	free(copy);
	kept_free(&k);
}

Test(format_blocks, a_failing_callback_fails_the_writer)
{
	struct sct_writer_opts opts = { .block_records = 10 };
	struct kept k = { .fail_with = -ENOSPC };
	struct sct_writer *w;
	int err = 0, rc = 0;
	uint64_t i;

	cr_assert_null(sct_writer_open_blocks(&fh_info, NULL, NULL, NULL, &err));
	cr_assert_eq(err, -EINVAL);
	w = sct_writer_open_blocks(NULL, &opts, keep_block, &k, &err);
	cr_assert(w);
	for (i = 0; i < 11 && !rc; i++) {
		struct sct_record rec = fh_syscall(i);

		rc = sct_writer_append(w, &rec);
	}
	cr_assert_eq(rc, -ENOSPC);
	cr_assert_eq(i, 11, "the 11th append flushes the first block");
	cr_assert_eq(sct_writer_bytes(w), 0);
	cr_assert_eq(sct_writer_flush(w), -ENOSPC, "the writer stays failed");
	cr_assert_eq(sct_writer_close(w), -ENOSPC);
}
