// SPDX-License-Identifier: BSD-2-Clause
/*
 * Format 1.6: STACK, MODULE and SYMBOL records, SYSCALL's stack_id and the HEADER's "stacks"
 * round-trip record for record with and without arguments; frames encode as spec/FORMAT.md
 * 9.4 says; the writer refuses what a reader could not use; a STACK whose frames do not parse
 * (cut, an 11-byte varint, 257 frames, a module id past 2^32 - 1) is skipped and counted.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "frame.h"
#include "sct.h"

static const struct sct_header_stacks both = { "both", 64, "fp" };

static struct sct_writer *stacks_writer(const struct sct_header_info *info, uint32_t block, int *fd)
{
	struct sct_writer_opts opts = { .block_records = block, .no_fsync = true };
	int mfd = memfd_create("sct-stacks", MFD_CLOEXEC), err = 0;
	struct sct_writer *w;

	cr_assert(mfd >= 0);
	*fd = dup(mfd);
	w = sct_writer_open_fd(mfd, info, &opts, &err);
	cr_assert(w, "writer open: %s", sct_strerror(err));
	return w;
}

static struct sct_header_info stacks_info(bool args)
{
	static const struct sct_syscall_args descs[] = {
		{ 257, 2, { { "dfd", SCT_ARG_DIRFD, "" }, { "filename", SCT_ARG_PATH, "" } } },
	};
	struct sct_header_info info = fh_info;

	info.stacks = &both;
	if (args) {
		info.syscall_args = descs;
		info.nsyscall_args = 1;
		info.args_max = 256;
		info.args_paths = "enter";
	}
	return info;
}

Test(format_stacks, frames_encode_as_varint_pairs)
{
	const struct sct_frame f[] = { { 2, 0xffffffff81000010ull }, { 0, 0x7f }, { 1, 0x401136 } };
	static const uint8_t want[] = {
		0x02, 0x90, 0x80, 0x80, 0x88, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01,
		0x00, 0x7f,
		0x01, 0xb6, 0xa2, 0x80, 0x02,
	};
	uint8_t buf[SCT_STACK_FRAMES_MAX_BYTES];
	struct sct_frame big[SCT_MAX_STACK_FRAMES + 1];
	struct sct_bytes b;
	struct sct_frame got;
	size_t pos = 0;
	int n = sct_stack_frames_encode(f, 3, buf, sizeof(buf));

	cr_assert_eq(n, (int)sizeof(want));
	cr_assert_arr_eq(buf, want, sizeof(want));
	b = (struct sct_bytes){ buf, (uint32_t)n };
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(sct_stack_frame_next(&b, &pos, &got), 1);
		cr_assert_eq(got.module_id, f[i].module_id);
		cr_assert_eq(got.addr, f[i].addr);
	}
	cr_assert_eq(sct_stack_frame_next(&b, &pos, &got), 0);
	cr_assert_eq(pos, sizeof(want));
	/* the worst case fits the bound; one frame more, or one byte less room, does not */
	for (size_t i = 0; i <= SCT_MAX_STACK_FRAMES; i++)
		big[i] = (struct sct_frame){ UINT32_MAX, UINT64_MAX };
	cr_assert_eq(sct_stack_frames_encode(big, SCT_MAX_STACK_FRAMES, buf, sizeof(buf)),
		     (int)SCT_STACK_FRAMES_MAX_BYTES);
	cr_assert_eq(sct_stack_frames_encode(big, SCT_MAX_STACK_FRAMES + 1, buf, sizeof(buf)),
		     -SCT_E_LIMIT);
	cr_assert_eq(sct_stack_frames_encode(big, SCT_MAX_STACK_FRAMES, buf, sizeof(buf) - 1),
		     -SCT_E_LIMIT);
	cr_assert_eq(sct_stack_frames_encode(f, 0, buf, 0), 0);
}

/* Frames a reader must refuse, each with what is wrong. */
static uint8_t frames_257[257 * 2];
static const uint8_t frames_cut[] = { 0x01, 0x10, 0x02 };            /* a module id alone */
static const uint8_t frames_cut_varint[] = { 0x01, 0x90 };           /* addr cut mid-varint */
static const uint8_t frames_11[] = { 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				     0x80, 0x00 };                 /* an 11-byte varint */
static const uint8_t frames_65bit[] = { 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0x02 };                    /* past 64 bits */
static const uint8_t frames_module[] = { 0x80, 0x80, 0x80, 0x80, 0x10, 0x00 }; /* module 2^32 */

static struct sct_stack stack_of(uint32_t id, const uint8_t *p, size_t len)
{
	return (struct sct_stack){ .time_ns = 1000 + id, .stack_id = id, .pid = 42,
				   .frames = { p, (uint32_t)len } };
}

Test(format_stacks, damaged_frames_do_not_check)
{
	static const uint8_t frames_256_max[] = { 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00 }; /* 2^32-1 */
	const struct sct_stack bad[] = {
		stack_of(1, frames_cut, sizeof(frames_cut)),
		stack_of(2, frames_cut_varint, sizeof(frames_cut_varint)),
		stack_of(3, frames_11, sizeof(frames_11)),
		stack_of(4, frames_65bit, sizeof(frames_65bit)),
		stack_of(5, frames_module, sizeof(frames_module)),
		stack_of(6, frames_257, sizeof(frames_257)),
	};
	struct sct_stack ok = stack_of(7, frames_257, 256 * 2);
	struct sct_stack max = stack_of(8, frames_256_max, sizeof(frames_256_max));
	struct sct_stack empty = stack_of(9, NULL, 0);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(sct_stack_check(&bad[i]), -SCT_E_CORRUPT, "stack %zu", i + 1);
	cr_assert_eq(sct_stack_check(&ok), 0);
	cr_assert_eq(sct_stack_check(&max), 0);
	cr_assert_eq(sct_stack_check(&empty), 0);
}

/* The records of a session with stacks, in file order, and their syscalls' stack ids. */
static const uint8_t user_frames[] = { 0x01, 0xb6, 0xa2, 0x80, 0x02, 0x00, 0x7f };
static const uint8_t build_id[20] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };

static void stacks_records(struct sct_record *v, size_t *n)
{
	size_t k = 0;

	v[k++] = (struct sct_record){ .type = SCT_REC_MODULE, .module = {
		.time_ns = 1000, .module_id = 1, .kind = SCT_MODULE_ELF,
		.build_id = { build_id, sizeof(build_id) }, .path = { (const uint8_t *)"/usr/bin/w", 10 } } };
	v[k++] = (struct sct_record){ .type = SCT_REC_MODULE, .module = {
		.time_ns = 1000, .module_id = 2, .kind = SCT_MODULE_KERNEL,
		.build_id = { (const uint8_t *)"", 0 },
		.path = { (const uint8_t *)"[kernel.kallsyms]", 17 } } };
	v[k++] = (struct sct_record){ .type = SCT_REC_SYMBOL, .symbol = {
		.time_ns = 1000, .module_id = 1, .addr = 0x401130, .size = 0x20,
		.name = { (const uint8_t *)"_ZN1a1bEv", 9 } } };
	v[k++] = (struct sct_record){ .type = SCT_REC_STACK, .stack = stack_of(1, user_frames,
									     sizeof(user_frames)) };
	v[k++] = (struct sct_record){ .type = SCT_REC_STACK, .stack = stack_of(2, NULL, 0) };
	*n = k;
}

/* A record as read equals the one written: every field, strings by content. */
static void record_assert_eq(const struct sct_record *got, const struct sct_record *want)
{
	cr_assert_eq(got->type, want->type);
	switch (want->type) {
	case SCT_REC_STACK:
		cr_assert_eq(got->stack.time_ns, want->stack.time_ns);
		cr_assert_eq(got->stack.stack_id, want->stack.stack_id);
		cr_assert_eq(got->stack.pid, want->stack.pid);
		cr_assert_eq(got->stack.frames.len, want->stack.frames.len);
		if (want->stack.frames.len)
			cr_assert_arr_eq(got->stack.frames.ptr, want->stack.frames.ptr,
					 want->stack.frames.len);
		break;
	case SCT_REC_MODULE:
		cr_assert_eq(got->module.time_ns, want->module.time_ns);
		cr_assert_eq(got->module.module_id, want->module.module_id);
		cr_assert_eq(got->module.kind, want->module.kind);
		cr_assert_eq(got->module.build_id.len, want->module.build_id.len);
		cr_assert_arr_eq(got->module.build_id.ptr, want->module.build_id.ptr,
				 want->module.build_id.len);
		cr_assert_eq(got->module.path.len, want->module.path.len);
		cr_assert_arr_eq(got->module.path.ptr, want->module.path.ptr, want->module.path.len);
		break;
	case SCT_REC_SYMBOL:
		cr_assert_eq(got->symbol.time_ns, want->symbol.time_ns);
		cr_assert_eq(got->symbol.module_id, want->symbol.module_id);
		cr_assert_eq(got->symbol.addr, want->symbol.addr);
		cr_assert_eq(got->symbol.size, want->symbol.size);
		cr_assert_eq(got->symbol.name.len, want->symbol.name.len);
		cr_assert_arr_eq(got->symbol.name.ptr, want->symbol.name.ptr, want->symbol.name.len);
		break;
	default:
		cr_assert_eq(got->syscall.time_ns, want->syscall.time_ns);
		cr_assert_eq(got->syscall.duration_ns, want->syscall.duration_ns);
		cr_assert_eq(got->syscall.pid, want->syscall.pid);
		cr_assert_eq(got->syscall.tid, want->syscall.tid);
		cr_assert_eq(got->syscall.nr, want->syscall.nr);
		cr_assert_eq(got->syscall.ret, want->syscall.ret);
		cr_assert_eq(got->syscall.arg0, want->syscall.arg0);
		cr_assert_eq(got->syscall.path.len, want->syscall.path.len);
		cr_assert_eq(got->syscall.path2.len, want->syscall.path2.len);
		cr_assert_eq(got->syscall.stack_id, want->syscall.stack_id);
		break;
	}
}

/*
 * Every way of appending a SYSCALL (one, a run, rows in place where the session allows it)
 * keeps its stack_id; block_records 4 splits the records over blocks.
 */
static void roundtrip(bool args)
{
	struct sct_header_info info = stacks_info(args);
	struct sct_record want[64];
	const struct sct_header_stacks *st;
	const struct sct_reader_stats *stats;
	struct sct_syscall run[3];
	struct sct_reader *r;
	struct sct_record rec;
	struct fh_trace t;
	uint32_t major, minor;
	size_t n = 0, got = 0;
	int fd, err = 0;
	struct sct_writer *w = stacks_writer(&info, 4, &fd);

	stacks_records(want, &n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(sct_writer_append(w, &want[i]), 0);
	for (uint32_t i = 0; i < 3; i++) {
		want[n] = fh_syscall(i);
		want[n].syscall.stack_id = i == 2 ? 0 : 1 + i;
		want[n].syscall.arg0 = args ? 100 + i : 0;
		cr_assert_eq(sct_writer_append(w, &want[n]), 0);
		n++;
	}
	for (uint32_t i = 0; i < 3; i++) {
		want[n + i] = fh_syscall(10 + i);
		want[n + i].syscall.stack_id = 2;
		run[i] = want[n + i].syscall;
	}
	cr_assert_eq(sct_writer_append_syscalls(w, run, 3), 0);
	n += 3;
	if (!args) {
		struct sct_syscall_rows rows;
		int k = sct_writer_syscall_rows(w, 1, &rows);

		cr_assert_eq(k, 1);
		cr_assert_not_null(rows.stack_id);
		want[n] = fh_syscall(20);
		want[n].syscall.stack_id = 1;
		rows.time_ns[0] = want[n].syscall.time_ns;
		rows.duration_ns[0] = want[n].syscall.duration_ns;
		rows.pid[0] = want[n].syscall.pid;
		rows.tid[0] = want[n].syscall.tid;
		rows.cgroup_id[0] = want[n].syscall.cgroup_id;
		rows.nr[0] = want[n].syscall.nr;
		rows.abi[0] = 0;
		rows.ret[0] = (uint64_t)want[n].syscall.ret;
		rows.unfinished[0] = 0;
		rows.stack_id[0] = 1;
		cr_assert_eq(sct_writer_syscall_rows_commit(w, 1), 0);
		n++;
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	/* strings live in the reader's block: compared as each record comes */
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	sct_session_version(sct_reader_session(r), &major, &minor);
	cr_assert_eq(minor, 6);
	st = sct_session_stacks(sct_reader_session(r));
	cr_assert_not_null(st);
	cr_assert_str_eq(st->mode, "both");
	cr_assert_eq(st->depth, 64);
	cr_assert_str_eq(st->unwind, "fp");
	cr_assert_str_eq(sct_session_get(sct_reader_session(r), SCT_SESSION_STACKS_MODE), "both");
	cr_assert_str_eq(sct_session_get(sct_reader_session(r), SCT_SESSION_STACKS_UNWIND), "fp");
	cr_assert_eq(sct_reader_schema(r, SCT_REC_SYSCALL)->nfields, args ? 22 : 10);
	cr_assert_str_eq(sct_reader_schema(r, SCT_REC_SYSCALL)->fields[args ? 21 : 9].name,
			 "stack_id");
	while (sct_reader_next(r, &rec) == 1) {
		cr_assert_lt(got, n);
		record_assert_eq(&rec, &want[got++]);
	}
	cr_assert_eq(got, n);
	stats = sct_reader_stats(r);
	cr_assert_eq(stats->records[SCT_REC_STACK], 2);
	cr_assert_eq(stats->records[SCT_REC_MODULE], 2);
	cr_assert_eq(stats->records[SCT_REC_SYMBOL], 1);
	cr_assert_eq(stats->damaged_records, 0);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_stacks, roundtrip_without_arguments)
{
	roundtrip(false);
}

Test(format_stacks, roundtrip_with_arguments)
{
	roundtrip(true);
}

Test(format_stacks, a_session_without_stacks_takes_none)
{
	struct sct_record rec = fh_syscall(1);
	struct sct_record recs[8];
	struct sct_syscall_rows rows;
	struct fh_trace t;
	size_t n;
	int fd;
	struct sct_writer *w = fh_writer(NULL, &fd);

	rec.syscall.stack_id = 1;
	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	cr_assert_eq(sct_writer_append_syscalls(w, &rec.syscall, 1), -EINVAL);
	stacks_records(recs, &n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(sct_writer_append(w, &recs[i]), -EINVAL);
	cr_assert_eq(sct_writer_syscall_rows(w, 1, &rows), 1);
	cr_assert_null(rows.stack_id);
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 0), 0);
	cr_assert_eq(sct_writer_records(w), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_trace_free(&t);
}

Test(format_stacks, the_writer_refuses_what_readers_could_not_use)
{
	struct sct_header_info info = stacks_info(false);
	struct sct_record rec = { .type = SCT_REC_STACK, .stack = stack_of(3, frames_11,
									 sizeof(frames_11)) };
	static const uint8_t long_id[SCT_MAX_BUILD_ID + 1];
	struct fh_trace t;
	int fd;
	struct sct_writer *w = stacks_writer(&info, 0, &fd);

	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	rec.stack = stack_of(0, user_frames, sizeof(user_frames));
	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	rec = (struct sct_record){ .type = SCT_REC_MODULE, .module = { .module_id = 0, .kind = 1 } };
	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	rec.module.module_id = 1;
	rec.module.build_id = (struct sct_bytes){ long_id, sizeof(long_id) };
	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	rec.module.build_id.len = SCT_MAX_BUILD_ID;
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_records(w), 1);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_trace_free(&t);
}

Test(format_stacks, a_bad_stacks_header_is_refused)
{
	const struct sct_header_stacks bad[] = {
		{ "all", 64, "fp" }, { NULL, 64, "fp" }, { "user", 0, "fp" },
		{ "user", SCT_MAX_STACK_DEPTH + 1, "fp" }, { "user", 64, "dwarf" }, { "user", 64, NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sct_header_info info = fh_info;
		int mfd = memfd_create("sct-stacks", MFD_CLOEXEC), err = 0;

		info.stacks = &bad[i];
		cr_assert_null(sct_writer_open_fd(mfd, &info, NULL, &err), "case %zu", i);
		cr_assert_eq(err, -EINVAL, "case %zu", i);
	}
}

Test(format_stacks, damaged_stacks_from_a_file_are_skipped_and_counted)
{
	const struct sct_stack recs[] = {
		stack_of(1, user_frames, sizeof(user_frames)),
		stack_of(2, frames_cut, sizeof(frames_cut)),
		stack_of(3, frames_11, sizeof(frames_11)),
		stack_of(4, frames_257, sizeof(frames_257)),
		stack_of(5, frames_module, sizeof(frames_module)),
		stack_of(6, frames_65bit, sizeof(frames_65bit)),
		stack_of(7, frames_257, 256 * 2),
	};
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 6, NULL, 0);
	craft_stack_block(&c, recs, sizeof(recs) / sizeof(recs[0]));
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 2);
	cr_assert_eq(rd.recs[0].stack.stack_id, 1);
	cr_assert_eq(rd.recs[1].stack.stack_id, 7);
	cr_assert_eq(rd.recs[1].stack.frames.len, 512);
	cr_assert_eq(rd.stats.damaged_records, 5);
	cr_assert_eq(rd.stats.records[SCT_REC_STACK], 2);
	cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_RECORD], 5);
	cr_assert_eq(rd.last_diag[SCT_DIAG_BAD_RECORD].type, SCT_REC_STACK);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_stacks, stacks_of_a_1_5_session_are_unknown)
{
	const struct sct_stack recs[] = { stack_of(1, user_frames, sizeof(user_frames)) };
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_minimal_session(&c);
	craft_stack_block(&c, recs, 1);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.nrecords, 0);
	cr_assert_eq(rd.stats.unknown_records, 1);
	fh_read_free(&rd);
	craft_free(&c);
}

static int sink_collect(void *ctx, const struct sct_block_frame *b)
{
	craft_bytes(ctx, b->bytes, b->len);
	return 0;
}

/*
 * Blocks outside a session: a 10-field SYSCALL section is base + stack_id, not base + arg0,
 * and its schema says so.
 */
static void headerless(bool args)
{
	struct sct_header_info info = stacks_info(args);
	struct sct_record rec = fh_syscall(3), got;
	const struct sct_type_schema *schema;
	struct sct_reader *r;
	struct fh_read rd;
	struct craft c;
	int err = 0;
	struct sct_writer *w;

	craft_init(&c);
	w = sct_writer_open_blocks(&info, NULL, sink_collect, &c, &err);
	cr_assert(w);
	rec.syscall.stack_id = 7;
	rec.syscall.arg0 = args ? 9 : 0;
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.nheaderless, 1);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.recs[0].syscall.stack_id, 7);
	cr_assert_eq(rd.recs[0].syscall.arg0, args ? 9 : 0);
	cr_assert_eq(rd.recs[0].syscall.time_ns, rec.syscall.time_ns);
	fh_read_free(&rd);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &got) == 1 && got.type != SCT_REC_SYSCALL)
		;
	cr_assert_eq(got.type, SCT_REC_SYSCALL);
	schema = sct_reader_schema(r, SCT_REC_SYSCALL);
	/* outside a session SYSCALL is all of the reader's schema, the captured memory included */
	cr_assert_eq(schema->nfields, args ? 29 : 10);
	cr_assert_str_eq(schema->fields[args ? 21 : 9].name, "stack_id");
	sct_reader_close(r);
	craft_free(&c);
}

Test(format_stacks, blocks_outside_a_session_keep_their_stack_id)
{
	headerless(false);
	headerless(true);
}

/* Set the HEADER's minor version (the first frame after the label) and seal it again. */
static void header_minor_patch(uint8_t *p, size_t len, uint8_t minor)
{
	static const uint8_t key[] = { 0x66, 'f', 'o', 'r', 'm', 'a', 't', 0x82, 0x01 };
	uint8_t *at = memmem(p, len, key, sizeof(key)), *check;
	struct frame f;
	uint32_t crc;

	cr_assert_not_null(at);
	at[sizeof(key)] = minor;
	cr_assert_eq(frame_head_get(p + SCT_LABEL_LEN, len - SCT_LABEL_LEN, &f), FRAME_OK);
	crc = (uint32_t)crc32(0, p + SCT_LABEL_LEN, (uInt)frame_covered(&f));
	check = p + SCT_LABEL_LEN + frame_covered(&f);
	cr_assert_eq(check[0], 0x1a);
	for (int i = 0; i < 4; i++)
		check[1 + i] = (uint8_t)(crc >> (24 - 8 * i));
}

/*
 * A 1.5 reader's view of a 1.6 file: the same bytes under a HEADER that says 1.5 are read by
 * this library as a 1.5 reader reads 1.6 (section 11): "stacks" ignored, stack_id a trailing
 * field delivered as stored (no struct member), STACK and MODULE delivered by the HEADER's
 * schema (not unknown, not typed), nothing damaged.
 */
static void older_reader(bool args)
{
	struct sct_header_info info = stacks_info(args);
	struct sct_record recs[8], rec, want = fh_syscall(5);
	const struct sct_type_schema *schema;
	uint32_t col = args ? 21 : 9, major, minor, types = 0;
	const struct sct_reader_stats *st;
	struct sct_reader *r;
	struct sct_value v;
	struct fh_trace t;
	size_t n;
	int fd, err = 0;
	struct sct_writer *w = stacks_writer(&info, 0, &fd);

	stacks_records(recs, &n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(sct_writer_append(w, &recs[i]), 0);
	want.syscall.stack_id = 1;
	cr_assert_eq(sct_writer_append(w, &want), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	header_minor_patch(t.p, t.len, 5);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			sct_session_version(sct_reader_session(r), &major, &minor);
			cr_assert_eq(minor, 5);
			cr_assert_null(sct_session_stacks(sct_reader_session(r)));
			continue;
		}
		types |= 1u << rec.type;
		schema = sct_reader_schema(r, rec.type);
		if (rec.type == SCT_REC_SYSCALL) {
			cr_assert_eq(rec.syscall.time_ns, want.syscall.time_ns);
			cr_assert_eq(rec.syscall.stack_id, 0);
			cr_assert_eq(schema->nfields, col + 1);
			cr_assert_str_eq(schema->fields[col].name, "stack_id");
			cr_assert_eq(sct_reader_field(r, col, &v), 0);
			cr_assert_eq(v.u, 1);
		}
		if (rec.type == SCT_REC_STACK && sct_reader_field(r, 1, &v) == 0 && v.u == 1) {
			cr_assert_str_eq(schema->name, "stack");
			cr_assert_eq(sct_reader_field(r, 3, &v), 0);
			cr_assert_eq(v.b.len, sizeof(user_frames));
			cr_assert_arr_eq(v.b.ptr, user_frames, sizeof(user_frames));
		}
	}
	cr_assert_eq(types, 1u << SCT_REC_SYSCALL | 1u << SCT_REC_STACK | 1u << SCT_REC_MODULE |
			    1u << SCT_REC_SYMBOL);
	st = sct_reader_stats(r);
	cr_assert_eq(st->unknown_records, 0);
	cr_assert_eq(st->damaged_records, 0);
	cr_assert_eq(st->bad_blocks, 0);
	cr_assert_eq(st->records[SCT_REC_SYSCALL], 1);
	/* types the session's version does not define: read by schema, not counted as typed */
	cr_assert_eq(st->records[SCT_REC_STACK], 0);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_stacks, a_1_5_reader_reads_a_1_6_file)
{
	older_reader(false);
	older_reader(true);
}

/* A stack_id past 32 bits names no STACK: it reads as 0 (no stack), as stored by field. */
Test(format_stacks, a_stack_id_past_32_bits_reads_as_none)
{
	static const uint64_t t[] = { 1000, 1100, 1200 }, one[] = { 1, 1, 1 }, zero[] = { 0, 0, 0 },
		ids[] = { 5, (1ull << 32) + 5, UINT32_MAX };
	static const struct craft_col cols[] = {
		{ SCT_KIND_TIME, t, NULL }, { SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, one, NULL },
		{ SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, one, NULL },
		{ SCT_KIND_UINT, zero, NULL }, { SCT_KIND_SINT, zero, NULL }, { SCT_KIND_UINT, zero, NULL },
		{ SCT_KIND_UINT, ids, NULL },
	};
	static const struct craft_run run = { SCT_REC_SYSCALL, 3 };
	static const struct craft_section sec = { SCT_REC_SYSCALL, 3, 10, cols, NULL, 0, 0 };
	const uint32_t want[] = { 5, 0, UINT32_MAX };
	struct sct_reader *r;
	struct sct_record rec;
	struct sct_value v;
	struct craft c;
	int err = 0, i = 0;

	/* outside a session, so that the 10-field section is read as base + stack_id (10.5) */
	craft_init(&c);
	craft_block(&c, &run, 1, &sec, 1);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type != SCT_REC_SYSCALL)
			continue;
		cr_assert_lt(i, 3);
		cr_assert_eq(rec.syscall.stack_id, want[i]);
		cr_assert_eq(sct_reader_field(r, 9, &v), 0);
		cr_assert_eq(v.u, ids[i]);
		i++;
	}
	cr_assert_eq(i, 3);
	sct_reader_close(r);
	craft_free(&c);
}

/* The label and a HEADER of format 1.minor with the given "stacks" pair appended. */
static void stacks_session(struct craft *c, uint32_t minor, const uint8_t *pair, size_t len)
{
	struct craft body;

	craft_init(&body);
	craft_header_body_keys(&body, 1, minor, pair, len, 1);
	craft_label(c);
	craft_frame(c, 1, body.p, body.len);
	craft_free(&body);
}

/* The session of the first SESSION record of c, tested by check. */
static void first_session(const struct craft *c, void (*check)(const struct sct_session *s))
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0;

	r = sct_reader_open_mem(c->p, c->len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	check(sct_reader_session(r));
	sct_reader_close(r);
}

static void no_stacks(const struct sct_session *s)
{
	cr_assert_null(sct_session_stacks(s));
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_STACKS_MODE), "");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_STACKS_UNWIND), "");
}

static void stacks_depth_unknown(const struct sct_session *s)
{
	const struct sct_header_stacks *st = sct_session_stacks(s);

	cr_assert_not_null(st);
	cr_assert_str_eq(st->mode, "user");
	cr_assert_str_eq(st->unwind, "fp");
	cr_assert_eq(st->depth, 0);
}

/* Section 5: "stacks" is read from 1.6 on, as a map; a depth past 127 reads as 0. */
Test(format_stacks, the_stacks_key_is_read_as_its_version_says)
{
	static const uint8_t depth_200[] = {
		0x66, 's', 't', 'a', 'c', 'k', 's', 0xa3,
		0x64, 'm', 'o', 'd', 'e', 0x64, 'u', 's', 'e', 'r',
		0x65, 'd', 'e', 'p', 't', 'h', 0x18, 0xc8,
		0x66, 'u', 'n', 'w', 'i', 'n', 'd', 0x62, 'f', 'p',
	};
	static const uint8_t not_a_map[] = { 0x66, 's', 't', 'a', 'c', 'k', 's', 0x62, 'f', 'p' };
	struct craft c;

	craft_init(&c);
	stacks_session(&c, 5, depth_200, sizeof(depth_200));
	first_session(&c, no_stacks);
	craft_free(&c);
	craft_init(&c);
	stacks_session(&c, 6, not_a_map, sizeof(not_a_map));
	first_session(&c, no_stacks);
	craft_free(&c);
	craft_init(&c);
	stacks_session(&c, 6, depth_200, sizeof(depth_200));
	first_session(&c, stacks_depth_unknown);
	craft_free(&c);
}
