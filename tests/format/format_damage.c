// SPDX-License-Identifier: BSD-2-Clause
/*
 * Damaged traces: a small multi-block file cut at every byte offset, and hit by every
 * single-byte corruption. Frame boundaries come from the writer's byte counter after each
 * explicit flush, so the expected outcome of every case is exact.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "format_helpers.h"
#include "sct.h"

#define NBLOCKS 6
#define PER_BLOCK 20
#define TOTAL (NBLOCKS * PER_BLOCK)

struct layout {
	struct fh_trace t;
	uint64_t header_start, header_end; /* after the 12-byte label */
	uint64_t block_start[NBLOCKS], block_end[NBLOCKS];
	uint64_t trailer_start;
};

static void small_file(struct layout *l)
{
	struct sct_writer *w;
	struct sct_record rec;
	uint64_t n = 0;
	int fd;

	w = fh_writer(&(struct sct_writer_opts){ .block_records = 1000, .no_fsync = true }, &fd);
	l->header_start = 12;
	l->header_end = sct_writer_bytes(w);
	for (int b = 0; b < NBLOCKS; b++) {
		l->block_start[b] = sct_writer_bytes(w);
		for (int i = 0; i < PER_BLOCK; i++) {
			rec = fh_syscall(n++);
			cr_assert_eq(sct_writer_append(w, &rec), 0);
		}
		cr_assert_eq(sct_writer_flush(w), 0);
		l->block_end[b] = sct_writer_bytes(w);
	}
	l->trailer_start = sct_writer_bytes(w);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &l->t);
	cr_assert_gt(l->t.len, l->trailer_start);
}

/* Start of the frame (or label) holding byte offset off, and whether off is a boundary. */
static uint64_t frame_start(const struct layout *l, uint64_t off, bool *boundary)
{
	uint64_t starts[NBLOCKS + 3], start = 0;
	size_t n = 0;

	starts[n++] = 0;
	starts[n++] = l->header_start;
	for (int b = 0; b < NBLOCKS; b++)
		starts[n++] = l->block_start[b];
	starts[n++] = l->trailer_start;
	*boundary = off == l->t.len;
	for (size_t i = 0; i < n; i++) {
		if (starts[i] == off)
			*boundary = true;
		if (starts[i] <= off)
			start = starts[i];
	}
	return start;
}

Test(format_damage, truncated_at_every_offset)
{
	struct layout l;
	struct fh_read rd;

	small_file(&l);
	for (uint64_t cut = 0; cut <= l.t.len; cut++) {
		uint8_t *copy = malloc(cut + 1);
		uint64_t whole = 0;
		bool boundary;
		uint64_t start = frame_start(&l, cut, &boundary);

		memcpy(copy, l.t.p, cut);
		for (int b = 0; b < NBLOCKS; b++)
			whole += l.block_end[b] <= cut ? PER_BLOCK : 0;
		fh_read_mem(copy, cut, false, &rd);
		/* less than the label and no frame: nothing says this is an sct file */
		if (cut < 12) {
			cr_assert_eq(rd.rc, -SCT_E_NOT_SCT, "cut %llu", (unsigned long long)cut);
			free(copy);
			continue;
		}
		cr_assert_eq(rd.rc, 0, "cut %llu: rc %d (%s)", (unsigned long long)cut, rd.rc, rd.error);
		cr_assert_eq(rd.nrecords, whole, "cut %llu: %llu records, expected %llu",
			     (unsigned long long)cut, (unsigned long long)rd.nrecords,
			     (unsigned long long)whole);
		cr_assert_eq(rd.nsessions, cut >= l.header_end ? 1 : 0, "cut %llu", (unsigned long long)cut);
		cr_assert_eq(rd.stats.skipped_bytes, 0, "cut %llu", (unsigned long long)cut);
		if (boundary) {
			cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 0, "cut %llu", (unsigned long long)cut);
			cr_assert_eq(rd.stats.truncated_bytes, 0);
		} else {
			cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 1, "cut %llu", (unsigned long long)cut);
			cr_assert_eq(rd.last_diag[SCT_DIAG_TRUNCATED].offset, start);
			cr_assert_eq(rd.stats.truncated_bytes, cut - start, "cut %llu",
				     (unsigned long long)cut);
		}
		/* every cut before the end loses the trailer: said once, as the label began a session */
		cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], cut < l.t.len ? 1 : 0, "cut %llu",
			     (unsigned long long)cut);
		free(copy);
	}
	fh_trace_free(&l.t);
}

/* Records of the block holding byte off (0 outside blocks). */
static uint64_t block_records_at(const struct layout *l, uint64_t off)
{
	for (int b = 0; b < NBLOCKS; b++)
		if (off >= l->block_start[b] && off < l->block_end[b])
			return PER_BLOCK;
	return 0;
}

Test(format_damage, every_single_byte_corruption)
{
	static const uint8_t masks[] = { 0xff, 0x01, 0x80, 0x5a };
	const struct sct_diag *d;
	struct layout l;
	struct fh_read rd;
	uint8_t *copy;

	small_file(&l);
	copy = malloc(l.t.len);
	for (size_t m = 0; m < sizeof(masks); m++) {
		for (uint64_t off = 0; off < l.t.len; off++) {
			uint64_t lost = block_records_at(&l, off);

			memcpy(copy, l.t.p, l.t.len);
			copy[off] ^= masks[m];
			fh_read_mem(copy, l.t.len, false, &rd);
			cr_assert_eq(rd.rc, 0, "offset %llu mask %02x: %s", (unsigned long long)off,
				     masks[m], rd.error);
			cr_assert_eq(rd.nrecords, TOTAL - lost, "offset %llu mask %02x: %llu records",
				     (unsigned long long)off, masks[m],
				     (unsigned long long)rd.nrecords);
			/* one damaged range, holding the byte: skipped, or a truncated tail when
			 * the hit made the last frame claim more bytes than the input holds */
			cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED] + rd.ndiag[SCT_DIAG_TRUNCATED], 1,
				     "offset %llu mask %02x", (unsigned long long)off, masks[m]);
			d = rd.ndiag[SCT_DIAG_SKIPPED] ? &rd.last_diag[SCT_DIAG_SKIPPED]
						       : &rd.last_diag[SCT_DIAG_TRUNCATED];
			cr_assert(d->offset <= off && off < d->offset + d->length,
				  "offset %llu: range %llu+%llu", (unsigned long long)off,
				  (unsigned long long)d->offset, (unsigned long long)d->length);
			cr_assert_eq(rd.stats.skipped_bytes + rd.stats.truncated_bytes, d->length);
		}
	}
	free(copy);
	fh_trace_free(&l.t);
}

Test(format_damage, garbage_prefix_is_skipped)
{
	struct layout l;
	struct fh_read rd;
	uint8_t *buf;

	small_file(&l);
	buf = malloc(l.t.len + 1000);
	for (int i = 0; i < 1000; i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	memcpy(buf + 1000, l.t.p, l.t.len);
	fh_read_mem(buf, l.t.len + 1000, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, TOTAL);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].offset, 0);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].length, 1000);
	free(buf);
	fh_trace_free(&l.t);
}

Test(format_damage, not_sct_input_is_refused)
{
	static const char text[] = "hello, this is a text file and not a trace\n";
	size_t big = (1u << 20) + 4096;
	uint8_t *zeros = calloc(1, big);
	struct fh_read rd;

	fh_read_mem(text, sizeof(text) - 1, false, &rd);
	cr_assert_eq(rd.rc, -SCT_E_NOT_SCT);
	cr_assert(strstr(rd.error, "not an sct trace"), "%s", rd.error);
	fh_read_mem(zeros, big, false, &rd);
	cr_assert_eq(rd.rc, -SCT_E_NOT_SCT);
	fh_read_mem("", 0, false, &rd);
	cr_assert_eq(rd.rc, -SCT_E_NOT_SCT);
	free(zeros);
}

Test(format_damage, label_missing_but_frames_valid)
{
	struct layout l;
	struct fh_read rd;

	small_file(&l);
	fh_read_mem(l.t.p + 12, l.t.len - 12, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, TOTAL);
	cr_assert_eq(rd.nsessions, 1);
	cr_assert_eq(rd.stats.skipped_bytes, 0);
	fh_trace_free(&l.t);
}
