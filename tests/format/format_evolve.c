// SPDX-License-Identifier: BSD-2-Clause
/*
 * Evolution and limits, on hand-made files (format_craft): unknown frame and record types,
 * trailing unknown fields, fewer fields, other versions, oversize length claims, blocks
 * without a HEADER, valid checksums around undecodable blocks.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

/* Three SYSCALL rows, all nine columns. */
static const uint64_t t3[] = { 1000, 1300, 1250 }, dur3[] = { 10, 0, UINT64_MAX },
	pid3[] = { 7, 7, 8 }, tid3[] = { 7, 9, 8 }, cg3[] = { 1, 1, 2 }, nr3[] = { 1, 0, 257 },
	abi3[] = { 0, 1, 0 }, ret3[] = { 5, (uint64_t)-4, 0 }, unf3[] = { 0, 0, 1 };
static const struct craft_col sys_cols[] = {
	{ SCT_KIND_TIME, t3, NULL }, { SCT_KIND_UINT, dur3, NULL }, { SCT_KIND_UINT, pid3, NULL },
	{ SCT_KIND_UINT, tid3, NULL }, { SCT_KIND_UINT, cg3, NULL }, { SCT_KIND_UINT, nr3, NULL },
	{ SCT_KIND_UINT, abi3, NULL }, { SCT_KIND_SINT, ret3, NULL }, { SCT_KIND_UINT, unf3, NULL },
};

static void craft_syscall_block(struct craft *c)
{
	static const struct craft_run run = { SCT_REC_SYSCALL, 3 };
	static const struct craft_section sec = { SCT_REC_SYSCALL, 3, 9, sys_cols, NULL, 0, 0 };

	craft_block(c, &run, 1, &sec, 1);
}

static void assert_sys3(const struct sct_record *r)
{
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(r[i].type, SCT_REC_SYSCALL);
		cr_assert_eq(r[i].syscall.time_ns, t3[i]);
		cr_assert_eq(r[i].syscall.duration_ns, dur3[i]);
		cr_assert_eq(r[i].syscall.pid, pid3[i]);
		cr_assert_eq(r[i].syscall.tid, tid3[i]);
		cr_assert_eq(r[i].syscall.cgroup_id, cg3[i]);
		cr_assert_eq(r[i].syscall.nr, nr3[i]);
		cr_assert_eq(r[i].syscall.abi, abi3[i]);
		cr_assert_eq(r[i].syscall.ret, (int64_t)ret3[i]);
		cr_assert_eq(r[i].syscall.unfinished, unf3[i]);
	}
}

Test(format_evolve, crafted_file_reads)
{
	struct craft c;
	struct fh_read rd;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 1);
	cr_assert_eq(rd.nrecords, 3);
	assert_sys3(rd.recs);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, unknown_frame_type_is_skipped)
{
	struct craft c;
	struct fh_read rd;
	size_t at;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_syscall_block(&c);
	at = c.len;
	craft_frame(&c, 99, "future stuff", 12);
	craft_frame(&c, 0xffffffffu, "", 0);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 6);
	assert_sys3(rd.recs + 3);
	cr_assert_eq(rd.ndiag[SCT_DIAG_UNKNOWN_FRAME], 2);
	cr_assert_eq(rd.stats.unknown_frames, 2);
	cr_assert_eq(rd.last_diag[SCT_DIAG_UNKNOWN_FRAME].type, 0xffffffffu);
	cr_assert_eq(rd.last_diag[SCT_DIAG_UNKNOWN_FRAME].offset, at + 1 + 2 + 1 + 12 + 5);
	cr_assert_eq(rd.stats.skipped_bytes, 0);
	fh_read_free(&rd);
	craft_free(&c);
}

/* A block with syscalls, type 50 (no schema anywhere) and type 20 (in the HEADER schema). */
static void craft_mixed_types(struct craft *c)
{
	static const struct sct_field_schema f20[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "value", SCT_KIND_SINT, "" },
		{ "blob", SCT_KIND_BYTES, "" },
	};
	static const struct craft_type t20 = { 20, "future", 3, f20 };
	static const uint64_t t2[] = { 1100, 1200 }, v2[] = { (uint64_t)-7, 3 };
	static const struct sct_bytes b2[] = { { (const uint8_t *)"ab\0c", 4 }, { NULL, 0 } };
	static const struct craft_col c20[] = {
		{ SCT_KIND_TIME, t2, NULL }, { SCT_KIND_SINT, v2, NULL }, { SCT_KIND_BYTES, NULL, b2 },
	};
	static const struct craft_col c50[] = { { SCT_KIND_TIME, t2, NULL } };
	static const struct craft_run runs[] = {
		{ SCT_REC_SYSCALL, 1 }, { 50, 2 }, { 20, 1 }, { SCT_REC_SYSCALL, 2 }, { 20, 1 },
	};
	static const struct craft_section secs[] = {
		{ SCT_REC_SYSCALL, 3, 9, sys_cols, NULL, 0, 0 },
		{ 50, 2, 1, c50, NULL, 0, 0 },
		{ 20, 2, 3, c20, NULL, 0, 0 },
	};

	craft_session(c, 1, 3, &t20, 1);
	craft_block(c, runs, 5, secs, 3);
}

Test(format_evolve, schema_types_are_read_and_unknown_types_skipped)
{
	struct sct_record sys[3];
	struct craft c;
	struct fh_read rd;
	int n = 0;

	craft_init(&c);
	craft_mixed_types(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	/* type 20 is described by the HEADER: readable, delivered, not unknown; 50 is unknown */
	cr_assert_eq(rd.nrecords, 5);
	for (uint64_t i = 0; i < rd.nrecords; i++)
		if (rd.recs[i].type == SCT_REC_SYSCALL)
			sys[n++] = rd.recs[i];
	cr_assert_eq(n, 3);
	assert_sys3(sys);
	cr_assert_eq(rd.ndiag[SCT_DIAG_UNKNOWN_RECORD], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_UNKNOWN_RECORD].type, 50);
	cr_assert_eq(rd.stats.unknown_records, 2);
	cr_assert_eq(rd.stats.records[SCT_REC_SYSCALL], 3);
	cr_assert_eq(rd.stats.bad_blocks, 0);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, unknown_record_type_delivered_by_schema)
{
	const struct sct_type_schema *ts;
	struct sct_record rec;
	struct sct_value v;
	struct sct_reader *r;
	struct craft c;
	uint32_t types[8], n = 0;
	int err = 0, rc;

	craft_init(&c);
	craft_mixed_types(&c);
	r = sct_reader_open_mem(c.p, c.len, &err);
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		cr_assert_lt(n, 8);
		types[n++] = rec.type;
		if (rec.type != 20)
			continue;
		ts = sct_reader_schema(r, 20);
		cr_assert_str_eq(ts->name, "future");
		cr_assert_eq(ts->nfields, 3);
		cr_assert_str_eq(ts->fields[2].name, "blob");
		cr_assert_eq(sct_reader_field(r, 0, &v), 0);
		cr_assert_eq(v.kind, SCT_KIND_TIME);
		cr_assert_eq(v.u, n == 3 ? 1100 : 1200);
		cr_assert_eq(sct_reader_field(r, 1, &v), 0);
		cr_assert_eq(v.i, n == 3 ? -7 : 3);
		cr_assert_eq(sct_reader_field(r, 2, &v), 0);
		cr_assert_eq(v.kind, SCT_KIND_BYTES);
		cr_assert_eq(v.b.len, n == 3 ? 4 : 0);
		if (n == 3)
			cr_assert(!memcmp(v.b.ptr, "ab\0c", 4));
	}
	cr_assert_eq(rc, 0);
	/* session, syscall, (type 50 skipped twice), 20, syscall, syscall, 20 */
	cr_assert_eq(n, 6);
	cr_assert_eq(types[0], SCT_REC_SESSION);
	cr_assert_eq(types[1], SCT_REC_SYSCALL);
	cr_assert_eq(types[2], 20);
	cr_assert_eq(types[3], SCT_REC_SYSCALL);
	cr_assert_eq(types[4], SCT_REC_SYSCALL);
	cr_assert_eq(types[5], 20);
	sct_reader_close(r);
	craft_free(&c);
}

Test(format_evolve, trailing_unknown_fields_are_skipped)
{
	static const uint8_t tail[] = { 1, 0xaa, 0xbb, 0xcc, 0x02, 0x01, 0x00 };
	static const struct craft_run run = { SCT_REC_SYSCALL, 3 };
	static const struct sct_field_schema f10[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "duration_ns", SCT_KIND_UINT, "ns" },
		{ "pid", SCT_KIND_UINT, "" }, { "tid", SCT_KIND_UINT, "" },
		{ "cgroup_id", SCT_KIND_UINT, "" }, { "nr", SCT_KIND_UINT, "" },
		{ "abi", SCT_KIND_UINT, "" }, { "ret", SCT_KIND_SINT, "" },
		{ "unfinished", SCT_KIND_UINT, "" }, { "new_field", SCT_KIND_UINT, "" },
	};
	static const struct craft_type syscall10 = { SCT_REC_SYSCALL, "syscall", 10, f10 };
	/* two more fields: a uint column (width 1) and garbage the reader cannot even parse */
	const struct craft_section sec = { SCT_REC_SYSCALL, 3, 9, sys_cols, tail, sizeof(tail), 2 };
	struct sct_record rec;
	struct sct_value v;
	struct sct_reader *r;
	struct fh_read rd;
	struct craft c;
	int err = 0, rows = 0;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_block(&c, &run, 1, &sec, 1);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	assert_sys3(rd.recs);
	cr_assert_eq(rd.stats.bad_blocks, 0);
	fh_read_free(&rd);
	craft_free(&c);

	/* a later minor version that declares the 10th field: typed access still works */
	craft_init(&c);
	craft_session(&c, 1, 1, &syscall10, 1);
	craft_block(&c, &run, 1, &sec, 1);
	r = sct_reader_open_mem(c.p, c.len, &err);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type != SCT_REC_SYSCALL)
			continue;
		cr_assert_eq(rec.syscall.tid, tid3[rows]);
		cr_assert_eq(sct_reader_field(r, 9, &v), 0);
		cr_assert_eq(v.u, (uint64_t)0xaa + (uint64_t)rows * 0x11);
		rows++;
	}
	cr_assert_eq(rows, 3);
	cr_assert_eq(sct_reader_stats(r)->bad_blocks, 0);
	sct_reader_close(r);
	craft_free(&c);
}

Test(format_evolve, missing_fields_read_as_zero)
{
	static const struct craft_run run = { SCT_REC_SYSCALL, 3 };
	const struct craft_section sec = { SCT_REC_SYSCALL, 3, 3, sys_cols, NULL, 0, 0 };
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_block(&c, &run, 1, &sec, 1);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(rd.recs[i].syscall.time_ns, t3[i]);
		cr_assert_eq(rd.recs[i].syscall.pid, pid3[i]);
		cr_assert_eq(rd.recs[i].syscall.tid, 0);
		cr_assert_eq(rd.recs[i].syscall.ret, 0);
		cr_assert_eq(rd.recs[i].syscall.unfinished, 0);
	}
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, newer_major_version_is_refused)
{
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 2, 0, NULL, 0);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, -SCT_E_VERSION);
	cr_assert(strstr(rd.error, "file format 2.0 is newer than this reader (1.x): upgrade sct"),
		  "%s", rd.error);
	cr_assert(strstr(rd.error, "byte 12"), "%s", rd.error);
	cr_assert_eq(rd.nrecords, 0);
	craft_free(&c);
}

Test(format_evolve, newer_minor_version_is_read)
{
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 7, NULL, 0);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	assert_sys3(rd.recs);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, oversize_frame_length_is_refused_before_allocating)
{
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_frame_claim(&c, 2, 1ull << 40, "xx", 2);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].length, 1 + 1 + 9 + 2);
	fh_read_free(&rd);
	craft_free(&c);
}

/* A BLOCK body with a checksum-valid envelope whose metadata claims too much. */
static void craft_bad_meta(struct craft *c, uint64_t count, uint64_t raw_size)
{
	struct craft body;

	craft_init(&body);
	craft_head(&body, 4, 6);
	craft_head(&body, 0, count);
	craft_head(&body, 0, raw_size);
	craft_head(&body, 0, 0);
	craft_head(&body, 0, 0);
	craft_head(&body, 0, 1);
	craft_head(&body, 2, 4);
	craft_bytes(&body, "\x40\x00\x00\x00", 4);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
}

Test(format_evolve, oversize_block_claims_are_refused)
{
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_bad_meta(&c, 3, 1ull << 31);
	craft_bad_meta(&c, 1ull << 21, 100);
	craft_bad_meta(&c, 3, 100); /* LZ4 data that does not decompress */
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_BLOCK], 3);
	cr_assert_eq(rd.stats.bad_blocks, 3);
	cr_assert_eq(rd.stats.blocks, 1);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, inconsistent_block_is_bad_block)
{
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 2 } };
	static const struct craft_section sec = { SCT_REC_SYSCALL, 3, 9, sys_cols, NULL, 0, 0 };
	static const struct craft_run run50 = { 50, 3 };
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 0, NULL, 0);
	craft_block(&c, runs, 1, &sec, 1);   /* runs say 2 rows, section says 3 */
	craft_block(&c, &run50, 1, &sec, 1); /* a run of a type without a section */
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	cr_assert_eq(rd.stats.bad_blocks, 2);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, blocks_before_any_header_use_the_builtin_schema)
{
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_label(&c);
	craft_syscall_block(&c);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 0);
	cr_assert_eq(rd.nheaderless, 1);
	cr_assert_eq(rd.nrecords, 6);
	assert_sys3(rd.recs);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_HEADER], 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_evolve, oversize_header_is_ignored)
{
	struct craft c, body;
	struct fh_read rd;
	uint8_t *pad = calloc(1, SCT_MAX_HEADER_BODY);

	craft_init(&c);
	craft_init(&body);
	craft_head(&body, 5, 1);
	craft_head(&body, 3, 3);
	craft_bytes(&body, "pad", 3);
	craft_head(&body, 2, SCT_MAX_HEADER_BODY);
	craft_bytes(&body, pad, SCT_MAX_HEADER_BODY);
	craft_label(&c);
	craft_frame(&c, 1, body.p, body.len);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 0);
	cr_assert_eq(rd.nheaderless, 1);
	cr_assert_eq(rd.nrecords, 3);
	cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_BLOCK], 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_HEADER], 1);
	free(pad);
	craft_free(&body);
	craft_free(&c);
}

Test(format_evolve, deep_nesting_in_header_is_refused)
{
	struct craft c, body;
	struct fh_read rd;

	craft_init(&c);
	craft_init(&body);
	craft_head(&body, 5, 1);
	craft_head(&body, 3, 1);
	craft_bytes(&body, "x", 1);
	for (int i = 0; i < 100000; i++)
		craft_head(&body, 4, 1);
	craft_head(&body, 0, 0);
	craft_label(&c);
	craft_frame(&c, 1, body.p, body.len);
	craft_syscall_block(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 3);
	cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_BLOCK], 1);
	craft_free(&body);
	craft_free(&c);
}
