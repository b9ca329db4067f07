// SPDX-License-Identifier: BSD-2-Clause
/* Write-then-read of every record type, extreme values, sessions and the header table. */
#include <criterion/criterion.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "format_helpers.h"
#include "records.def"
#include "sct.h"

static uint8_t every_byte[256];
static uint8_t big[4096];

static struct sct_bytes bytes_of(const void *p, uint32_t len)
{
	return (struct sct_bytes){ p, len };
}

/* Records of every type with extreme values; n is filled in. */
static void sample_records(struct sct_record *r, size_t *n)
{
	size_t i = 0;

	for (int b = 0; b < 256; b++)
		every_byte[b] = (uint8_t)b;
	for (size_t b = 0; b < sizeof(big); b++)
		big[b] = (uint8_t)(b * 31 + 7);

	r[i++] = (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = 0, .duration_ns = 0, .cgroup_id = 0, .ret = 0 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = UINT64_MAX, .duration_ns = UINT64_MAX, .cgroup_id = UINT64_MAX,
		.ret = INT64_MIN, .pid = UINT32_MAX, .tid = UINT32_MAX, .nr = UINT32_MAX,
		.abi = SCT_ABI_COMPAT, .unfinished = 1 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = 5, .duration_ns = 1, .ret = INT64_MAX, .pid = 1, .tid = 2, .nr = 1 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = 1ull << 63, .ret = -1, .nr = 257 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_TASK, .task = {
		.time_ns = 100, .cgroup_id = UINT64_MAX, .start_ns = UINT64_MAX, .pid = UINT32_MAX,
		.tid = 0, .ppid = 1, .comm = bytes_of("", 0) } };
	r[i++] = (struct sct_record){ .type = SCT_REC_TASK, .task = {
		.time_ns = 101, .pid = 7, .tid = 8, .ppid = 9, .comm = bytes_of(every_byte, 256) } };
	r[i++] = (struct sct_record){ .type = SCT_REC_FORK, .fork = {
		.time_ns = 102, .child_start_ns = UINT64_MAX, .parent_pid = UINT32_MAX,
		.parent_tid = 3, .child_pid = 4, .child_tid = UINT32_MAX, .is_thread = 1 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_EXEC, .exec = {
		.time_ns = 103, .pid = 10, .tid = 10, .old_tid = 11,
		.filename = bytes_of(big, sizeof(big)), .comm = bytes_of("\xff\xfe,\"\n", 5) } };
	r[i++] = (struct sct_record){ .type = SCT_REC_EXIT, .exit = {
		.time_ns = 104, .start_ns = 0, .pid = 12, .tid = 13, .exit_code = 255,
		.signal = 9, .group_dead = 1 } };
	r[i++] = (struct sct_record){ .type = SCT_REC_EXIT, .exit = {
		.time_ns = 99, .start_ns = UINT64_MAX, .exit_code = -1, .signal = UINT32_MAX } };
	r[i++] = (struct sct_record){ .type = SCT_REC_CGROUP, .cgroup = {
		.time_ns = 105, .cgroup_id = 1, .path = bytes_of("/", 1) } };
	r[i++] = (struct sct_record){ .type = SCT_REC_LOST, .lost = {
		.time_ns = 106, .end_ns = UINT64_MAX, .count = UINT64_MAX,
		.cause = SCT_LOST_RINGBUF } };
	r[i++] = (struct sct_record){ .type = SCT_REC_WARNING, .warning = {
		.time_ns = 107, .count = 3, .kind = SCT_WARN_TARGETS_FULL,
		.text = bytes_of("targets map full", 16) } };
	r[i++] = (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = 108, .ret = -4095, .nr = 0 } };
	*n = i;
}

static void assert_bytes_eq(struct sct_bytes a, struct sct_bytes b)
{
	cr_assert_eq(a.len, b.len);
	cr_assert(a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* Field-by-field equality from records.def (never memcmp: the structs have padding). */
#define ASSERT_UINT(x, y) cr_assert_eq(x, y)
#define ASSERT_TIME(x, y) cr_assert_eq(x, y)
#define ASSERT_SINT(x, y) cr_assert_eq(x, y)
#define ASSERT_BYTES(x, y) assert_bytes_eq(x, y)
#define ASSERT_FIELD(t, member, kind, unit) ASSERT_##kind(a->t.member, b->t.member);
#define ASSERT_TYPE(TYPE, name, FIELDS) case SCT_REC_##TYPE: FIELDS(ASSERT_FIELD, name) break;

static void assert_record_eq(const struct sct_record *a, const struct sct_record *b)
{
	cr_assert_eq(a->type, b->type);
	switch (a->type) {
	RECORD_TYPES(ASSERT_TYPE)
	default:
		cr_assert_fail("unexpected type %u", a->type);
	}
}

Test(format_roundtrip, every_type_extreme_values)
{
	struct sct_record in[32], out;
	struct sct_reader *r;
	struct sct_writer *w;
	struct fh_trace t;
	size_t n, got = 0;
	int fd, err = 0, rc;

	sample_records(in, &n);
	w = fh_writer(&(struct sct_writer_opts){ .block_records = 5, .no_fsync = true }, &fd);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(sct_writer_append(w, &in[i]), 0);
	cr_assert_eq(sct_writer_records(w), n);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);

	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &out), 1);
	cr_assert_eq(out.type, SCT_REC_SESSION);
	while ((rc = sct_reader_next(r, &out)) == 1) {
		cr_assert_lt(got, n);
		assert_record_eq(&in[got], &out);
		got++;
	}
	cr_assert_eq(rc, 0);
	cr_assert_eq(got, n);
	cr_assert_eq(sct_reader_stats(r)->blocks, 3);
	cr_assert_eq(sct_reader_stats(r)->sessions_without_trailer, 0);
	cr_assert_eq(sct_reader_stats(r)->skipped_bytes, 0);
	cr_assert_eq(sct_reader_stats(r)->bytes_read, t.len);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_roundtrip, session_header_and_trailer)
{
	const struct sct_session *s;
	const struct sct_trailer_info *ti;
	struct sct_record rec, lost = { .type = SCT_REC_LOST, .lost = { .time_ns = 10, .end_ns = 20,
					 .count = 5, .cause = 1 } };
	struct sct_reader *r;
	struct sct_writer *w;
	struct fh_trace t;
	uint64_t clk, real;
	uint32_t major, minor;
	int fd, err = 0;

	w = fh_writer(&(struct sct_writer_opts){ .no_fsync = true }, &fd);
	for (uint64_t i = 0; i < 100; i++) {
		rec = fh_syscall(i);
		cr_assert_eq(sct_writer_append_syscall(w, &rec.syscall), 0);
	}
	cr_assert_eq(sct_writer_append(w, &lost), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);

	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_null(sct_reader_session(r));
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	s = sct_reader_session(r);
	cr_assert(s);
	cr_assert_eq(sct_session_index(s), 0);
	sct_session_version(s, &major, &minor);
	cr_assert_eq(major, 1);
	cr_assert_eq(minor, 0);
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_HOSTNAME), "testhost");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_PRODUCER), "sct-test");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_PRODUCER_VERSION), "0.1");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_ARGS), "sct-record -p 42");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_KERNEL), "6.18.0");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_ARCH), "x86_64");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_BOOT_ID), "b00t");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_CLOCK), "CLOCK_MONOTONIC");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_CGROUP_HIERARCHY), "v2");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_CGROUP_MOUNT), "/sys/fs/cgroup");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_COMPAT_ARCH), "i386");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_NKEYS), "");
	cr_assert_str_eq(sct_session_get(s, (enum sct_session_key)-1), "");
	cr_assert_str_eq(sct_session_key_name(SCT_SESSION_PRODUCER), "producer");
	cr_assert_str_eq(sct_session_key_name(SCT_SESSION_COMPAT_ARCH), "compat_arch");
	cr_assert_null(sct_session_key_name(SCT_SESSION_NKEYS));
	sct_session_anchor(s, &clk, &real);
	cr_assert_eq(clk, 1000);
	cr_assert_eq(real, 1700000000000000000ull);
	cr_assert_str_eq(sct_session_syscall_name(s, 1, SCT_ABI_NATIVE), "write");
	cr_assert_str_eq(sct_session_syscall_name(s, 257, SCT_ABI_NATIVE), "openat");
	cr_assert_null(sct_session_syscall_name(s, 2, SCT_ABI_NATIVE));
	cr_assert_str_eq(sct_session_syscall_name(s, 4, SCT_ABI_COMPAT), "write");
	cr_assert_eq(sct_session_syscall_nr(s, "openat", SCT_ABI_NATIVE), 257);
	cr_assert_eq(sct_session_syscall_nr(s, "nope", SCT_ABI_NATIVE), -1);
	cr_assert_null(sct_session_trailer(s));
	while (sct_reader_next(r, &rec) == 1)
		;
	ti = sct_session_trailer(s);
	cr_assert(ti);
	cr_assert_eq(ti->records[SCT_REC_SYSCALL], 100);
	cr_assert_eq(ti->records[SCT_REC_LOST], 1);
	cr_assert_eq(ti->blocks, 1);
	cr_assert_eq(ti->lost, 5);
	cr_assert_eq(ti->first_ns, 10);
	cr_assert_eq(ti->last_ns, fh_syscall(99).syscall.time_ns);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_roundtrip, generic_field_access)
{
	const struct sct_type_schema *ts;
	struct sct_record rec = fh_syscall(3), out;
	struct sct_value v;
	struct sct_reader *r;
	struct sct_writer *w;
	struct fh_trace t;
	int fd, err = 0;

	rec.syscall.ret = -2;
	w = fh_writer(&(struct sct_writer_opts){ .no_fsync = true }, &fd);
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_eq(sct_reader_next(r, &out), 1);
	cr_assert_eq(sct_reader_field(r, 0, &v), -SCT_E_STATE);
	cr_assert_eq(sct_reader_next(r, &out), 1);
	ts = sct_reader_schema(r, SCT_REC_SYSCALL);
	cr_assert_eq(ts->nfields, 9);
	cr_assert_str_eq(ts->fields[7].name, "ret");
	cr_assert_eq(sct_reader_field(r, 0, &v), 0);
	cr_assert_eq(v.kind, SCT_KIND_TIME);
	cr_assert_eq(v.u, rec.syscall.time_ns);
	cr_assert_eq(sct_reader_field(r, 7, &v), 0);
	cr_assert_eq(v.kind, SCT_KIND_SINT);
	cr_assert_eq(v.i, -2);
	cr_assert_eq(sct_reader_field(r, 9, &v), -ERANGE);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_roundtrip, many_blocks_in_order)
{
	struct fh_read rd;
	struct sct_writer *w;
	struct fh_trace t;
	struct sct_record rec;
	int fd;

	w = fh_writer(&(struct sct_writer_opts){ .block_records = 1000, .no_fsync = true }, &fd);
	for (uint64_t i = 0; i < 25000; i++) {
		rec = fh_syscall(i);
		cr_assert_eq(sct_writer_append(w, &rec), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 25000);
	cr_assert_eq(rd.stats.blocks, 25);
	for (uint64_t i = 0; i < 25000; i++) {
		rec = fh_syscall(i);
		cr_assert_eq(rd.recs[i].syscall.time_ns, rec.syscall.time_ns);
		cr_assert_eq(rd.recs[i].syscall.tid, rec.syscall.tid);
		cr_assert_eq(rd.recs[i].syscall.ret, rec.syscall.ret);
	}
	fh_read_free(&rd);
	fh_trace_free(&t);
}

Test(format_roundtrip, long_strings_split_blocks_by_size)
{
	static uint8_t s[SCT_MAX_STRING];
	struct sct_record rec = { .type = SCT_REC_EXEC }, too_long, out;
	struct sct_reader *r;
	struct fh_read rd;
	struct sct_writer *w;
	struct fh_trace t;
	uint64_t n = 0;
	int fd, err = 0, rc;

	/* incompressible, so frames come near their limits and the reader's buffer must grow */
	for (size_t i = 0; i < sizeof(s); i++)
		s[i] = (uint8_t)((i * 0x9e3779b97f4a7c15ull) >> 56);
	rec.exec.filename = bytes_of(s, sizeof(s));
	rec.exec.comm = bytes_of(s, sizeof(s));
	w = fh_writer(&(struct sct_writer_opts){ .no_fsync = true }, &fd);
	/* 200 records of 128 KiB: 25 MiB, more than three blocks' worth of raw bytes */
	for (int i = 0; i < 200; i++) {
		rec.exec.time_ns = (uint64_t)i;
		cr_assert_eq(sct_writer_append(w, &rec), 0);
	}
	too_long = rec;
	too_long.exec.comm.len = SCT_MAX_STRING + 1;
	cr_assert_eq(sct_writer_append(w, &too_long), -SCT_E_LIMIT);
	cr_assert_eq(sct_writer_close(w), 0);
	/* read through the fd path (buffered input), then from memory */
	cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
	r = sct_reader_open_fd(dup(fd), true, &err);
	cr_assert(r);
	while ((rc = sct_reader_next(r, &out)) == 1) {
		if (out.type != SCT_REC_EXEC)
			continue;
		cr_assert_eq(out.exec.time_ns, n);
		cr_assert_eq(out.exec.filename.len, sizeof(s));
		cr_assert(!memcmp(out.exec.comm.ptr, s, sizeof(s)));
		n++;
	}
	cr_assert_eq(rc, 0);
	cr_assert_eq(n, 200);
	cr_assert_geq(sct_reader_stats(r)->blocks, 4);
	sct_reader_close(r);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 200);
	cr_assert_geq(rd.stats.blocks, 4);
	cr_assert_eq(rd.stats.bad_blocks, 0);
	fh_trace_free(&t);
}

Test(format_roundtrip, invalid_utf8_in_header_is_repaired)
{
	struct sct_header_info info = fh_info;
	struct sct_record rec;
	struct sct_reader *r;
	struct sct_writer *w;
	int fd = memfd_create("utf8", 0), dfd = dup(fd), err = 0;
	struct fh_trace t;

	info.hostname = "h\xffost\xc3\xa9";
	w = sct_writer_open_fd(fd, &info, &(struct sct_writer_opts){ .no_fsync = true }, &err);
	cr_assert(w);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(dfd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_str_eq(sct_session_get(sct_reader_session(r), SCT_SESSION_HOSTNAME),
			 "h\xef\xbf\xbdost\xc3\xa9");
	cr_assert_eq(sct_reader_next(r, &rec), 0);
	sct_reader_close(r);
	fh_trace_free(&t);
}

/* sc[0..k) through sct_writer_syscall_rows(), as many rows at a time as it gives room for. */
static void rows_append(struct sct_writer *w, const struct sct_syscall *sc, size_t k)
{
	while (k) {
		struct sct_syscall_rows c;
		int room = sct_writer_syscall_rows(w, k, &c);

		cr_assert(room > 0 && (size_t)room <= k, "room %d for %zu rows", room, k);
		for (int i = 0; i < room; i++) {
			c.time_ns[i] = sc[i].time_ns;
			c.duration_ns[i] = sc[i].duration_ns;
			c.pid[i] = sc[i].pid;
			c.tid[i] = sc[i].tid;
			c.cgroup_id[i] = sc[i].cgroup_id;
			c.nr[i] = sc[i].nr;
			c.abi[i] = sc[i].abi;
			c.ret[i] = (uint64_t)sc[i].ret;
			c.unfinished[i] = sc[i].unfinished;
		}
		cr_assert_eq(sct_writer_syscall_rows_commit(w, (size_t)room), 0);
		sc += room;
		k -= (size_t)room;
	}
}

enum batch_mode { BATCH_STRUCTS, BATCH_ROWS };

/*
 * The bytes of n records fh_syscall(0..n-1) appended batch at a time (1: one by one; a batch
 * is cut at each multiple of 5,000), as structs or rows filled in place, and a CGROUP record
 * after each multiple of 5,000.
 */
static void batch_write(size_t n, size_t batch, enum batch_mode mode, struct fh_trace *t)
{
	struct sct_syscall *sc = calloc(n, sizeof(*sc));
	struct sct_record rec = { .type = SCT_REC_CGROUP, .cgroup = { .cgroup_id = 9,
						       .path = { (const uint8_t *)"/x", 2 } } };
	struct sct_writer *w;
	int fd;

	cr_assert_not_null(sc);
	for (size_t i = 0; i < n; i++) {
		sc[i] = fh_syscall(i).syscall;
		sc[i].abi = i % 17 == 0;
		sc[i].unfinished = i % 19 == 0;
	}
	w = fh_writer(&(struct sct_writer_opts){ .block_records = 1000, .no_fsync = true }, &fd);
	for (size_t i = 0, k; i < n; i += k) {
		k = n - i < batch ? n - i : batch;
		if (k > 5000 - i % 5000)
			k = 5000 - i % 5000;
		if (mode == BATCH_ROWS)
			rows_append(w, &sc[i], k);
		else if (batch == 1)
			cr_assert_eq(sct_writer_append_syscall(w, &sc[i]), 0);
		else
			cr_assert_eq(sct_writer_append_syscalls(w, &sc[i], k), 0);
		if ((i + k) % 5000 == 0) {
			rec.cgroup.time_ns = i + k;
			cr_assert_eq(sct_writer_append(w, &rec), 0);
		}
	}
	cr_assert_eq(sct_writer_records(w), n + n / 5000);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, t);
	free(sc);
}

Test(format_roundtrip, batch_append_writes_the_bytes_of_single_appends)
{
	static const size_t batches[] = { 2, 7, 64, 999, 1000, 3001, 25000 };
	struct fh_trace one, many;

	batch_write(25000, 1, BATCH_STRUCTS, &one);
	for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		batch_write(25000, batches[b], BATCH_STRUCTS, &many);
		cr_assert_eq(many.len, one.len, "batches of %zu: %zu bytes, not %zu", batches[b], many.len,
			     one.len);
		cr_assert(!memcmp(many.p, one.p, one.len), "batches of %zu: other bytes", batches[b]);
		fh_trace_free(&many);
	}
	fh_trace_free(&one);
}

Test(format_roundtrip, rows_filled_in_place_write_the_bytes_of_single_appends)
{
	static const size_t batches[] = { 1, 7, 64, 1000, 3001, 25000 };
	struct fh_trace one, rows;

	batch_write(25000, 1, BATCH_STRUCTS, &one);
	for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		batch_write(25000, batches[b], BATCH_ROWS, &rows);
		cr_assert_eq(rows.len, one.len, "rows %zu at a time: %zu bytes, not %zu", batches[b],
			     rows.len, one.len);
		cr_assert(!memcmp(rows.p, one.p, one.len), "rows %zu at a time: other bytes", batches[b]);
		fh_trace_free(&rows);
	}
	fh_trace_free(&one);
}

Test(format_roundtrip, rows_commit_only_what_was_given)
{
	struct sct_record first = fh_syscall(0), cg = { .type = SCT_REC_CGROUP };
	struct sct_syscall_rows c;
	struct sct_writer *w;
	struct fh_trace t;
	struct fh_read rd;
	int fd;

	w = fh_writer(&(struct sct_writer_opts){ .block_records = 10, .no_fsync = true }, &fd);
	cr_assert_eq(sct_writer_syscall_rows(w, 0, &c), -EINVAL);
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 1), -EINVAL, "no rows were given");
	cr_assert_eq(sct_writer_syscall_rows(w, 64, &c), 10, "a block's room, not more");
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 11), -EINVAL);
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 0), 0, "0 rows: given up");
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 1), -EINVAL, "given up already");
	cr_assert_eq(sct_writer_syscall_rows(w, 3, &c), 3);
	cr_assert_eq(sct_writer_append(w, &cg), 0);
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 3), -EINVAL, "another call came between");
	cr_assert_eq(sct_writer_syscall_rows(w, 1, &c), 1);
	c.time_ns[0] = first.syscall.time_ns;
	c.duration_ns[0] = first.syscall.duration_ns;
	c.pid[0] = first.syscall.pid;
	c.tid[0] = first.syscall.tid;
	c.cgroup_id[0] = first.syscall.cgroup_id;
	c.nr[0] = first.syscall.nr;
	c.abi[0] = 1;
	c.ret[0] = (uint64_t)(int64_t)-2;
	c.unfinished[0] = 0;
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 1), 0);
	cr_assert_eq(sct_writer_records(w), 2);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 2);
	cr_assert_eq(rd.recs[0].type, SCT_REC_CGROUP);
	cr_assert_eq(rd.recs[1].syscall.time_ns, first.syscall.time_ns);
	cr_assert_eq(rd.recs[1].syscall.abi, 1);
	cr_assert_eq(rd.recs[1].syscall.ret, -2);
	fh_read_free(&rd);
	fh_trace_free(&t);
}

Test(format_roundtrip, batch_append_stops_at_a_refused_record)
{
	struct sct_syscall sc[5];
	struct sct_writer *w;
	struct fh_trace t;
	struct fh_read rd;
	int fd;

	for (size_t i = 0; i < 5; i++)
		sc[i] = fh_syscall(i).syscall;
	sc[3].path = (struct sct_bytes){ big, SCT_MAX_STRING + 1 };
	w = fh_writer(&(struct sct_writer_opts){ .no_fsync = true }, &fd);
	cr_assert_eq(sct_writer_append_syscalls(w, sc, 5), -SCT_E_LIMIT);
	cr_assert_eq(sct_writer_records(w), 3);
	cr_assert_eq(sct_writer_append_syscalls(w, &sc[4], 1), 0, "the writer stays usable");
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 4);
	cr_assert_eq(rd.recs[3].syscall.time_ns, sc[4].time_ns);
	fh_read_free(&rd);
	fh_trace_free(&t);
}
