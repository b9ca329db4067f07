// SPDX-License-Identifier: BSD-2-Clause
/*
 * Format 1.7's captured argument memory: SYSCALL's addr, argv and data fields after every
 * field a session has without them, the HEADER's "argv" and "data", the version a writer
 * picks, what it refuses, and what an older reader and a reader without a HEADER see.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "frame.h"

#include <zlib.h>

#define NCALLS 5

static const struct sct_syscall_args descs[] = {
	{ 1, 3, { { "fd", SCT_ARG_FD, "" }, { "buf", SCT_ARG_BUF, "" }, { "count", SCT_ARG_SIZE, "" } } },
	{ 42, 3, { { "fd", SCT_ARG_FD, "" }, { "uservaddr", SCT_ARG_SOCKADDR, "" },
		   { "addrlen", SCT_ARG_SIZE, "" } } },
	{ 46, 3, { { "fd", SCT_ARG_FD, "" }, { "msg", SCT_ARG_MSGHDR, "" }, { "flags", SCT_ARG_INT, "" } } },
	{ 59, 3, { { "filename", SCT_ARG_PATH, "" }, { "argv", SCT_ARG_ARGV, "" },
		   { "envp", SCT_ARG_ENVP, "" } } },
};
static const struct sct_header_captures captures = { .argv_max = 1024, .argv_bytes = 65536,
						     .data = 65536 };
static const struct sct_header_stacks stacks = { .mode = "user", .depth = 8, .unwind = "fp" };

static struct sct_header_info captures_info(bool with_captures, bool with_stacks)
{
	struct sct_header_info info = fh_info;

	info.syscall_args = descs;
	info.nsyscall_args = sizeof(descs) / sizeof(descs[0]);
	info.args_max = 256;
	info.args_paths = "enter";
	info.captures = with_captures ? &captures : NULL;
	info.stacks = with_stacks ? &stacks : NULL;
	return info;
}

static struct sct_writer *writer_on(const struct sct_header_info *info, int *fd, int *err)
{
	struct sct_writer_opts opts = { .no_fsync = true };
	int mfd = memfd_create("sct-captures", MFD_CLOEXEC);

	cr_assert(mfd >= 0);
	*fd = dup(mfd);
	*err = 0;
	return sct_writer_open_fd(mfd, info, &opts, err);
}

static struct sct_bytes bytes_of(const void *p, size_t n)
{
	return (struct sct_bytes){ p, (uint32_t)n };
}

/*
 * Every value each field can take at its edges: an addr of 0 and 128 bytes, an argv of
 * many strings with a space, UTF-8 and every byte value but NUL, data of all 256 byte values
 * and of SCT_MAX_STRING bytes, envc and the flags at 64 and 32 bits.
 */
static void calls_make(struct sct_syscall sc[NCALLS], uint8_t *big)
{
	static const uint8_t inet[16] = { 0x02, 0x00, 0x1f, 0x90, 127, 0, 0, 1 };
	static const char argv[] = "printf\0%s\\n\0hello world\0gr\xc3\xbc\xc3\x9f" "e\0";
	static uint8_t storage[128], all_bytes[256], argv_bytes[255 * 2];

	for (int i = 0; i < 256; i++)
		all_bytes[i] = (uint8_t)i;
	for (int i = 0; i < 128; i++)
		storage[i] = (uint8_t)(255 - i);
	for (int i = 0; i < 255; i++) {
		argv_bytes[2 * i] = (uint8_t)(i + 1);
		argv_bytes[2 * i + 1] = 0;
	}
	for (size_t i = 0; i < SCT_MAX_STRING; i++)
		big[i] = (uint8_t)(i * 7);
	memset(sc, 0, NCALLS * sizeof(*sc));
	for (int i = 0; i < NCALLS; i++) {
		sc[i].time_ns = 1000 + 100 * (uint64_t)i;
		sc[i].duration_ns = 50;
		sc[i].pid = sc[i].tid = 77;
	}
	sc[0].nr = 42;
	sc[0].addr_flags = SCT_PATH_CAPTURED;
	sc[0].addr = bytes_of(inet, sizeof(inet));
	sc[1].nr = 46;
	sc[1].addr_flags = SCT_PATH_CAPTURED | SCT_PATH_CUT | SCT_PATH_LATE;
	sc[1].addr = bytes_of(storage, SCT_MAX_ADDR);
	sc[1].data_flags = SCT_PATH_CAPTURED;
	sc[1].data = bytes_of(all_bytes, sizeof(all_bytes));
	sc[2].nr = 59;
	sc[2].path_flags = SCT_PATH_CAPTURED;
	sc[2].path = bytes_of("/usr/bin/printf", 15);
	sc[2].argv_flags = SCT_PATH_CAPTURED;
	sc[2].argv = bytes_of(argv, sizeof(argv) - 1);
	sc[2].envc = UINT64_MAX;
	sc[3].nr = 59;
	sc[3].argv_flags = SCT_PATH_CAPTURED | SCT_PATH_CUT | SCT_ARGV_ENVC_LOWER;
	sc[3].argv = bytes_of(argv_bytes, sizeof(argv_bytes));
	sc[3].envc = 4096;
	sc[4].nr = 1;
	sc[4].ret = SCT_MAX_STRING;
	sc[4].data_flags = UINT32_MAX;
	sc[4].addr_flags = SCT_PATH_NOT_READ;
	sc[4].argv_flags = SCT_PATH_FAULT;
	sc[4].data = bytes_of(big, SCT_MAX_STRING);
}

static void bytes_assert_eq(struct sct_bytes got, struct sct_bytes want)
{
	cr_assert_eq(got.len, want.len);
	if (want.len)
		cr_assert_arr_eq(got.ptr, want.ptr, want.len);
}

static void call_assert_eq(const struct sct_syscall *got, const struct sct_syscall *want)
{
	cr_assert_eq(got->time_ns, want->time_ns);
	cr_assert_eq(got->nr, want->nr);
	cr_assert_eq(got->ret, want->ret);
	cr_assert_eq(got->path_flags, want->path_flags);
	bytes_assert_eq(got->path, want->path);
	cr_assert_eq(got->addr_flags, want->addr_flags);
	bytes_assert_eq(got->addr, want->addr);
	cr_assert_eq(got->argv_flags, want->argv_flags);
	cr_assert_eq(got->envc, want->envc);
	bytes_assert_eq(got->argv, want->argv);
	cr_assert_eq(got->data_flags, want->data_flags);
	bytes_assert_eq(got->data, want->data);
	cr_assert_eq(got->stack_id, want->stack_id);
}

/* A 1.7 session's captured memory reads back as written, by struct and by field index. */
static void round_trip(bool with_stacks, bool batch)
{
	const struct sct_header_info info = captures_info(true, with_stacks);
	uint8_t *big = malloc(SCT_MAX_STRING);
	struct sct_syscall sc[NCALLS];
	uint32_t major, minor, first = with_stacks ? 22 : 21, n = 0;
	const struct sct_header_captures *cap;
	const struct sct_type_schema *schema;
	struct sct_reader *r;
	struct sct_record rec;
	struct sct_value v;
	struct fh_trace t;
	int fd, err;
	struct sct_writer *w = writer_on(&info, &fd, &err);

	cr_assert(w, "%s", sct_strerror(err));
	cr_assert(big);
	calls_make(sc, big);
	for (int i = 0; with_stacks && i < NCALLS; i++)
		sc[i].stack_id = (uint32_t)i;
	if (batch) {
		cr_assert_eq(sct_writer_append_syscalls(w, sc, NCALLS), 0);
	} else {
		for (int i = 0; i < NCALLS; i++)
			cr_assert_eq(sct_writer_append_syscall(w, &sc[i]), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			sct_session_version(sct_reader_session(r), &major, &minor);
			cr_assert_eq(minor, 7);
			cap = sct_session_captures(sct_reader_session(r));
			cr_assert_not_null(cap);
			cr_assert_eq(cap->argv_max, 1024);
			cr_assert_eq(cap->argv_bytes, 65536);
			cr_assert_eq(cap->data, 65536);
			cr_assert_eq(sct_session_syscall_args(sct_reader_session(r), 46)->args[1].kind,
				     SCT_ARG_MSGHDR);
			continue;
		}
		cr_assert_eq(rec.type, SCT_REC_SYSCALL);
		call_assert_eq(&rec.syscall, &sc[n]);
		schema = sct_reader_schema(r, SCT_REC_SYSCALL);
		cr_assert_eq(schema->nfields, first + 7);
		cr_assert_str_eq(schema->fields[first].name, "addr_flags");
		cr_assert_str_eq(schema->fields[first + 6].name, "data");
		cr_assert_eq(sct_reader_field(r, first + 3, &v), 0);
		cr_assert_eq(v.u, sc[n].envc);
		cr_assert_eq(sct_reader_field(r, first + 6, &v), 0);
		bytes_assert_eq(v.b, sc[n].data);
		n++;
	}
	cr_assert_eq(n, NCALLS);
	cr_assert_eq(sct_reader_stats(r)->bad_blocks, 0);
	sct_reader_close(r);
	fh_trace_free(&t);
	free(big);
}

Test(format_captures, every_field_round_trips)
{
	round_trip(false, false);
	round_trip(true, false);
	round_trip(false, true);
	round_trip(true, true);
}

/* The lowest version whose features a session uses: 1.7 only with captures. */
static int version_of(const struct sct_header_info *info, uint32_t *minor)
{
	struct sct_reader *r;
	struct sct_record rec;
	struct fh_trace t;
	uint32_t major;
	int fd, err;
	struct sct_writer *w = writer_on(info, &fd, &err);

	if (!w) {
		close(fd);
		return err;
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	sct_session_version(sct_reader_session(r), &major, minor);
	sct_reader_close(r);
	fh_trace_free(&t);
	return 0;
}

Test(format_captures, the_writer_writes_1_7_only_for_captures)
{
	struct {
		bool captures, stacks, args;
		uint32_t argv_max, argv_bytes, data;
		int err;
		uint32_t minor;
	} cases[] = {
		{ false, false, true, 0, 0, 0, 0, 4 },
		{ false, true, true, 0, 0, 0, 0, 6 },
		{ true, false, true, 1, 1, 1, 0, 7 },
		{ true, true, true, 0, 0, 0, 0, 7 },
		{ true, false, false, 64, 4096, 0, -EINVAL, 0 },
		{ true, false, true, 1025, 4096, 0, -EINVAL, 0 },
		{ true, false, true, 64, 0, 0, -EINVAL, 0 },
		{ true, false, true, 0, 4096, 0, -EINVAL, 0 },
		{ true, false, true, 64, 65537, 0, -EINVAL, 0 },
		{ true, false, true, 0, 0, 65537, -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sct_header_captures cap = { cases[i].argv_max, cases[i].argv_bytes, cases[i].data };
		struct sct_header_info info = captures_info(false, cases[i].stacks);
		uint32_t minor = 99;

		info.captures = cases[i].captures ? &cap : NULL;
		if (!cases[i].args)
			info.syscall_args = NULL;
		cr_assert_eq(version_of(&info, &minor), cases[i].err, "case %zu", i);
		if (!cases[i].err)
			cr_assert_eq(minor, cases[i].minor, "case %zu: 1.%u", i, minor);
	}
}

Test(format_captures, the_writer_refuses_what_a_session_cannot_hold)
{
	static const uint8_t addr[SCT_MAX_STRING + 1];
	struct sct_header_info info = captures_info(true, false);
	struct sct_syscall sc = { .time_ns = 1, .nr = 59 };
	int fd, err;
	struct sct_writer *w = writer_on(&info, &fd, &err);

	cr_assert(w);
	sc.addr = bytes_of(addr, SCT_MAX_ADDR + 1);
	cr_assert_eq(sct_writer_append_syscall(w, &sc), -SCT_E_LIMIT);
	sc.addr = bytes_of(addr, SCT_MAX_ADDR);
	cr_assert_eq(sct_writer_append_syscall(w, &sc), 0);
	sc.addr = bytes_of(addr, 0);
	sc.argv = bytes_of("ls\0-l", 5);
	cr_assert_eq(sct_writer_append_syscall(w, &sc), -EINVAL);
	sc.argv = bytes_of("ls\0-l\0", 6);
	cr_assert_eq(sct_writer_append_syscall(w, &sc), 0);
	cr_assert_eq(sct_writer_records(w), 2);
	/* past SCT_MAX_STRING, data is refused like any string */
	sc.argv = bytes_of("", 0);
	sc.data = bytes_of(addr, SCT_MAX_STRING + 1);
	cr_assert_eq(sct_writer_append_syscalls(w, &sc, 1), -SCT_E_LIMIT);
	cr_assert_eq(sct_writer_records(w), 2);
	sct_writer_abandon(w);
	close(fd);
}

/*
 * A session without captured memory has no column for it: it ignores it, as a session
 * without arguments ignores those, in the per-record and the batch paths.
 */
Test(format_captures, a_session_without_captures_ignores_them)
{
	struct sct_header_info info = captures_info(false, true);
	struct sct_syscall sc[2] = { { .time_ns = 1, .data_flags = SCT_PATH_NOT_READ, .envc = 9 },
				     { .time_ns = 2, .argv = { (const uint8_t *)"x", 1 } } };
	const struct sct_header_info *infos[] = { &info, &fh_info };

	for (int i = 0; i < 2; i++) {
		struct fh_trace t;
		struct fh_read rd;
		int fd, err;
		struct sct_writer *w = writer_on(infos[i], &fd, &err);

		cr_assert_eq(sct_writer_append_syscall(w, &sc[0]), 0);
		cr_assert_eq(sct_writer_append_syscalls(w, sc, 2), 0);
		cr_assert_eq(sct_writer_close(w), 0);
		fh_collect_fd(fd, &t);
		fh_read_mem(t.p, t.len, true, &rd);
		cr_assert_eq(rd.nrecords, 3);
		for (int k = 0; k < 3; k++) {
			cr_assert_eq(rd.recs[k].syscall.data_flags, 0);
			cr_assert_eq(rd.recs[k].syscall.envc, 0);
			cr_assert_eq(rd.recs[k].syscall.argv.len, 0);
		}
		fh_read_free(&rd);
		fh_trace_free(&t);
	}
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
 * A 1.6 reader's view of a 1.7 file: the same bytes under a HEADER that says 1.6 read as a
 * 1.6 reader reads 1.7 (section 11): "argv" and "data" ignored, no captured memory in the
 * struct, the seven fields trailing fields delivered as stored, nothing damaged.
 */
Test(format_captures, a_1_6_reader_reads_a_1_7_file)
{
	const struct sct_header_info info = captures_info(true, false);
	uint8_t *big = malloc(SCT_MAX_STRING);
	struct sct_syscall sc[NCALLS];
	const struct sct_type_schema *schema;
	uint32_t major, minor, n = 0;
	struct sct_reader *r;
	struct sct_record rec;
	struct sct_value v;
	struct fh_trace t;
	int fd, err;
	struct sct_writer *w = writer_on(&info, &fd, &err);

	cr_assert(big);
	calls_make(sc, big);
	cr_assert_eq(sct_writer_append_syscalls(w, sc, NCALLS), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	header_minor_patch(t.p, t.len, 6);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type == SCT_REC_SESSION) {
			sct_session_version(sct_reader_session(r), &major, &minor);
			cr_assert_eq(minor, 6);
			cr_assert_null(sct_session_captures(sct_reader_session(r)));
			continue;
		}
		cr_assert_eq(rec.syscall.time_ns, sc[n].time_ns);
		bytes_assert_eq(rec.syscall.path, sc[n].path);
		cr_assert_eq(rec.syscall.addr_flags, 0);
		cr_assert_eq(rec.syscall.addr.len, 0);
		cr_assert_eq(rec.syscall.argv.len, 0);
		cr_assert_eq(rec.syscall.envc, 0);
		cr_assert_eq(rec.syscall.data_flags, 0);
		cr_assert_eq(rec.syscall.data.len, 0);
		schema = sct_reader_schema(r, SCT_REC_SYSCALL);
		cr_assert_eq(schema->nfields, 28);
		cr_assert_str_eq(schema->fields[22].name, "addr");
		cr_assert_eq(sct_reader_field(r, 22, &v), 0);
		bytes_assert_eq(v.b, sc[n].addr);
		n++;
	}
	cr_assert_eq(n, NCALLS);
	cr_assert_eq(sct_reader_stats(r)->bad_blocks, 0);
	cr_assert_eq(sct_reader_stats(r)->unknown_records, 0);
	sct_reader_close(r);
	fh_trace_free(&t);
	free(big);
}

/* SYSCALL in a 1.7 session with arguments and without stacks, as its HEADER lists it. */
static void captures_fields(struct sct_field_schema out[28])
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);

	cr_assert_eq(all->nfields, 29);
	memcpy(out, all->fields, 21 * sizeof(*out));
	memcpy(out + 21, all->fields + 22, 7 * sizeof(*out));
}

/* One crafted SYSCALL whose addr is alen bytes, in a 1.7 session with captures. */
static void addr_read(uint32_t alen, struct fh_read *rd)
{
	static uint8_t addr[SCT_MAX_ADDR + 1];
	struct sct_field_schema fields[28];
	const struct craft_type types[] = { { SCT_REC_SYSCALL, "syscall", 28, fields } };
	const uint64_t time[1] = { 1000 }, zero[1] = { 0 }, one[1] = { 1 };
	const struct sct_bytes empty[1] = { { (const uint8_t *)"", 0 } }, a[1] = { { addr, alen } };
	struct craft_col cols[28];
	const struct craft_section sec = { .type = SCT_REC_SYSCALL, .count = 1, .ncols = 28, .cols = cols };
	const struct craft_run run = { SCT_REC_SYSCALL, 1 };
	struct craft c, body;

	captures_fields(fields);
	for (int k = 0; k < 28; k++)
		cols[k] = fields[k].kind == SCT_KIND_BYTES ?
			(struct craft_col){ SCT_KIND_BYTES, NULL, empty } :
			(struct craft_col){ fields[k].kind, zero, NULL };
	cols[0].v = time;
	cols[21].v = one;
	cols[22].b = a;
	craft_init(&c);
	craft_init(&body);
	craft_label(&c);
	craft_header_body_args(&body, 1, 7, types, 1);
	craft_frame(&c, 1, body.p, body.len);
	craft_block(&c, &run, 1, &sec, 1);
	fh_read_mem(c.p, c.len, true, rd);
	craft_free(&body);
	craft_free(&c);
}

Test(format_captures, an_addr_past_128_bytes_is_damage)
{
	struct fh_read rd;

	addr_read(SCT_MAX_ADDR, &rd);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.recs[0].syscall.addr_flags, 1);
	cr_assert_eq(rd.recs[0].syscall.addr.len, SCT_MAX_ADDR);
	cr_assert_eq(rd.stats.bad_blocks, 0);
	fh_read_free(&rd);
	addr_read(SCT_MAX_ADDR + 1, &rd);
	cr_assert_eq(rd.nrecords, 0);
	cr_assert_eq(rd.stats.bad_blocks, 1);
	fh_read_free(&rd);
}

static int sink_keep(void *ctx, const struct sct_block_frame *b)
{
	struct craft *c = ctx;

	craft_bytes(c, b->bytes, b->len);
	return 0;
}

/*
 * Without a HEADER a SYSCALL section of 28 fields is one of a 1.7 session with arguments and
 * without stacks (section 10.5): its captured memory reads as such, not from stack_id on.
 */
Test(format_captures, blocks_outside_a_session_keep_their_captures)
{
	const struct sct_header_info info = captures_info(true, false);
	uint8_t *big = malloc(SCT_MAX_STRING);
	struct sct_syscall sc[NCALLS];
	struct sct_writer *w;
	struct fh_read rd;
	struct craft c;
	int err = 0;

	cr_assert(big);
	calls_make(sc, big);
	craft_init(&c);
	w = sct_writer_open_blocks(&info, NULL, sink_keep, &c, &err);
	cr_assert(w);
	cr_assert_eq(sct_writer_append_syscalls(w, sc, 2), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.nheaderless, 1);
	cr_assert_eq(rd.nrecords, 2);
	cr_assert_eq(rd.recs[0].syscall.addr_flags, sc[0].addr_flags);
	cr_assert_eq(rd.recs[0].syscall.addr.len, sc[0].addr.len);
	cr_assert_eq(rd.recs[1].syscall.data_flags, sc[1].data_flags);
	cr_assert_eq(rd.recs[1].syscall.data.len, sc[1].data.len);
	cr_assert_eq(rd.recs[1].syscall.stack_id, 0);
	fh_read_free(&rd);
	craft_free(&c);
	free(big);
}

static void cbor_text(struct craft *c, const char *s)
{
	craft_head(c, 3, strlen(s));
	craft_bytes(c, s, strlen(s));
}

/*
 * The captures a HEADER of format 1.minor states: "syscall_args" with "argv" (a map of max and
 * bytes, or the uint argv_max alone when argv_bytes is UINT32_MAX: not a map) and "data"
 * (left out when UINT64_MAX). NULL for a session without them.
 */
static bool header_captures(uint32_t minor, uint64_t argv_max, uint64_t argv_bytes, uint64_t data,
			    struct sct_header_captures *out)
{
	const struct sct_header_captures *cap;
	struct craft c, body, pairs;
	struct sct_reader *r;
	struct sct_record rec;
	bool argv = argv_max != UINT64_MAX, has_data = data != UINT64_MAX;
	int err = 0;

	craft_init(&c);
	craft_init(&body);
	craft_init(&pairs);
	cbor_text(&pairs, "syscall_args");
	craft_head(&pairs, 5, 3 + argv + has_data);
	cbor_text(&pairs, "max");
	craft_head(&pairs, 0, 256);
	cbor_text(&pairs, "paths");
	cbor_text(&pairs, "enter");
	cbor_text(&pairs, "native");
	craft_head(&pairs, 5, 0);
	if (argv) {
		cbor_text(&pairs, "argv");
		if (argv_bytes == UINT32_MAX) {
			craft_head(&pairs, 0, argv_max);
		} else {
			craft_head(&pairs, 5, 2);
			cbor_text(&pairs, "max");
			craft_head(&pairs, 0, argv_max);
			cbor_text(&pairs, "bytes");
			craft_head(&pairs, 0, argv_bytes);
		}
	}
	if (has_data) {
		cbor_text(&pairs, "data");
		craft_head(&pairs, 0, data);
	}
	craft_header_body_keys(&body, 1, minor, pairs.p, pairs.len, 1);
	craft_label(&c);
	craft_frame(&c, 1, body.p, body.len);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	cr_assert(sct_session_has_args(sct_reader_session(r)));
	cap = sct_session_captures(sct_reader_session(r));
	if (cap)
		*out = *cap;
	sct_reader_close(r);
	craft_free(&pairs);
	craft_free(&body);
	craft_free(&c);
	return cap != NULL;
}

/* "argv" and "data" are read in a 1.7 session only, each value in its range or as 0 (section 5). */
Test(format_captures, argv_and_data_read_as_their_version_and_range_say)
{
	struct sct_header_captures cap;

	cr_assert(header_captures(7, 1024, 65536, 65536, &cap));
	cr_assert_eq(cap.argv_max, 1024);
	cr_assert_eq(cap.argv_bytes, 65536);
	cr_assert_eq(cap.data, 65536);
	cr_assert(header_captures(7, 1025, 5, 65537, &cap));
	cr_assert_eq(cap.argv_max, 0);
	cr_assert_eq(cap.argv_bytes, 5);
	cr_assert_eq(cap.data, 0);
	/* an "argv" that is not a map is absent; a session without the keys still has the fields */
	cr_assert(header_captures(7, 64, UINT32_MAX, 100, &cap));
	cr_assert_eq(cap.argv_max, 0);
	cr_assert_eq(cap.data, 100);
	cr_assert(header_captures(7, UINT64_MAX, 0, UINT64_MAX, &cap));
	cr_assert_eq(cap.argv_max + cap.argv_bytes + cap.data, 0);
	cr_assert_not(header_captures(6, 64, 4096, 100, &cap));
}
