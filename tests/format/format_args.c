// SPDX-License-Identifier: BSD-2-Clause
/*
 * Format 1.4's syscall arguments: the HEADER's descriptions, the argument columns, the
 * block's path tables (each distinct path stored once per path column) and the reader's
 * checks of them.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "block_decode.h"
#include "cbuf.h"
#include "format_craft.h"
#include "format_helpers.h"
#include "header.h"
#include "session.h"
#include "varint.h"

static const struct sct_syscall_args descs[] = {
	{ 257, 4, { { "dfd", SCT_ARG_DIRFD, "" }, { "filename", SCT_ARG_PATH, "" },
		    { "flags", SCT_ARG_FLAGS, "open" }, { "mode", SCT_ARG_MODE, "" } } },
	{ 1, 3, { { "fd", SCT_ARG_FD, "" }, { "buf", SCT_ARG_PTR, "" }, { "count", SCT_ARG_SIZE, "" } } },
};

static struct sct_header_info args_info(void)
{
	struct sct_header_info info = fh_info;

	info.syscall_args = descs;
	info.nsyscall_args = 2;
	info.args_max = 256;
	info.args_paths = "enter";
	return info;
}

static struct sct_writer *args_writer(const struct sct_header_info *info, uint32_t block, int *fd)
{
	struct sct_writer_opts opts = { .block_records = block, .no_fsync = true };
	int mfd = memfd_create("sct-args", MFD_CLOEXEC), err = 0;
	struct sct_writer *w;

	cr_assert(mfd >= 0);
	*fd = dup(mfd);
	w = sct_writer_open_fd(mfd, info, &opts, &err);
	cr_assert(w, "writer open: %s", sct_strerror(err));
	return w;
}

static struct sct_bytes str(const char *s)
{
	return (struct sct_bytes){ (const uint8_t *)s, (uint32_t)strlen(s) };
}

static struct sct_syscall call(uint64_t i, const char *path, uint32_t flags)
{
	struct sct_syscall sc = {
		.time_ns = 1000 + i, .duration_ns = 7, .pid = 42, .tid = 43, .nr = path ? 257 : 1,
		.ret = path ? -2 : 5, .arg0 = (uint64_t)-100, .arg1 = 0x7ffd0000 + i,
		.arg2 = 0x80000, .arg3 = 0644, .arg4 = UINT64_MAX, .arg5 = i,
		.path_flags = flags,
	};

	if (path)
		sc.path = str(path);
	return sc;
}

/* Row i of a test: a call of paths[i], and of seconds[i] too (a rename) where seconds has one. */
static struct sct_syscall row(uint64_t i, const char *const *paths, const char *const *seconds)
{
	struct sct_syscall sc = call(i, paths[i], paths[i] ? SCT_PATH_CAPTURED : 0);

	if (seconds && seconds[i]) {
		sc.nr = 82;
		sc.path2 = str(seconds[i]);
		sc.path2_flags = SCT_PATH_CAPTURED | SCT_PATH_LATE;
	}
	return sc;
}

static void write_rows(struct sct_writer *w, const char *const *paths, const char *const *seconds,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sct_syscall sc = row(i, paths, seconds);

		cr_assert_eq(sct_writer_append_syscall(w, &sc), 0);
	}
}

static void bytes_assert(struct sct_bytes got, struct sct_bytes want, size_t row)
{
	cr_assert_eq(got.len, want.len, "row %zu", row);
	cr_assert(!memcmp(got.ptr, want.len ? (const void *)want.ptr : "", want.len), "row %zu", row);
}

Test(format_args, every_field_reads_back_and_repeats_are_references)
{
	static const char *const paths[] = { "/etc/a", "/etc/b b", "/etc/a", NULL, "", "/etc/b b",
					     "/t\xc3\xa9st", "/etc/a" };
	static const uint32_t refs[] = { 0, 0, 1, 0, 0, 2, 0, 1 };
	/* the second path's table is its own: "/etc/a" is new to it in row 1 */
	static const char *const seconds[] = { NULL, "/etc/a", "/n", NULL, NULL, "/n", "/etc/a", NULL };
	static const uint32_t refs2[] = { 0, 0, 0, 0, 0, 2, 1, 0 };
	struct sct_header_info info = args_info();
	struct sct_writer *w;
	struct fh_trace t;
	struct sct_reader *r;
	struct sct_record rec;
	const struct sct_syscall_args *a;
	uint32_t major, minor;
	size_t n = 0;
	int fd, err = 0;

	w = args_writer(&info, 0, &fd);
	write_rows(w, paths, seconds, 8);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &rec) == 1) {
		struct sct_syscall want;

		if (rec.type == SCT_REC_SESSION) {
			const struct sct_session *s = sct_reader_session(r);

			sct_session_version(s, &major, &minor);
			cr_assert_eq(major, 1);
			cr_assert_eq(minor, 4);
			cr_assert(sct_session_has_args(s));
			cr_assert_eq(sct_session_args_max(s), 256);
			cr_assert_str_eq(sct_session_args_paths(s), "enter");
			a = sct_session_syscall_args(s, 257);
			cr_assert(a);
			cr_assert_eq(a->nargs, 4);
			cr_assert_str_eq(a->args[1].name, "filename");
			cr_assert_eq(a->args[1].kind, SCT_ARG_PATH);
			cr_assert_eq(a->args[0].kind, SCT_ARG_DIRFD);
			cr_assert_str_eq(a->args[2].family, "open");
			cr_assert_null(sct_session_syscall_args(s, 0));
			cr_assert_eq(sct_session_syscall_args(s, 1)->args[2].kind, SCT_ARG_SIZE);
			continue;
		}
		cr_assert_lt(n, 8);
		want = row(n, paths, seconds);
		cr_assert_eq(rec.syscall.time_ns, want.time_ns);
		cr_assert_eq(rec.syscall.ret, want.ret);
		cr_assert_eq(rec.syscall.nr, want.nr);
		cr_assert_eq(rec.syscall.arg0, want.arg0);
		cr_assert_eq(rec.syscall.arg1, want.arg1);
		cr_assert_eq(rec.syscall.arg2, want.arg2);
		cr_assert_eq(rec.syscall.arg3, want.arg3);
		cr_assert_eq(rec.syscall.arg4, want.arg4);
		cr_assert_eq(rec.syscall.arg5, want.arg5);
		cr_assert_eq(rec.syscall.path_flags, want.path_flags);
		cr_assert_eq(rec.syscall.path_ref, refs[n], "row %zu", n);
		bytes_assert(rec.syscall.path, want.path, n);
		cr_assert_eq(rec.syscall.path2_flags, want.path2_flags);
		cr_assert_eq(rec.syscall.path2_ref, refs2[n], "row %zu", n);
		bytes_assert(rec.syscall.path2, want.path2, n);
		n++;
	}
	cr_assert_eq(n, 8);
	sct_reader_close(r);
	fh_trace_free(&t);
}

/*
 * A reader of batches leaves the arguments, paths and their references undecoded (a batch has
 * none); records read one at a time in between, anywhere in a block of many chunks, still have
 * them whole: the path strings' offsets summed over the rows the batches passed, the
 * references matched to their tables.
 */
Test(format_args, records_between_batches_have_their_paths)
{
	enum { ROWS = 3000 };
	static const char *const names[] = { "/etc/a", "/usr/lib/b", "/c", "", "/var/log/d" };
	static const char *paths[ROWS], *seconds[ROWS];
	/* batches of any length, of 3 rows, of 1; a record after every period - 1 batches: whole chunks between */
	static const uint32_t maxes[] = { 0, 3, 1 }, periods[] = { 3, 100, 300 };
	struct sct_header_info info = args_info();
	struct sct_writer *w;
	struct fh_trace t;
	int fd;

	for (size_t i = 0; i < ROWS; i++) {
		paths[i] = i % 7 == 3 ? NULL : names[(i * i) % 5];
		seconds[i] = i % 11 == 5 ? names[(i + 2) % 5] : NULL;
	}
	w = args_writer(&info, ROWS, &fd);
	write_rows(w, paths, seconds, ROWS);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		struct sct_syscall_batch b;
		struct sct_record rec;
		struct sct_reader *r;
		size_t n = 0, singles = 0;
		int err = 0;

		r = sct_reader_open_mem(t.p, t.len, &err);
		cr_assert(r);
		sct_reader_set_batch_max(r, maxes[m]);
		for (uint64_t c = 0;; c++) {
			bool single = c % periods[m] == 0;
			int rc = single ? sct_reader_next(r, &rec) : sct_reader_next_batch(r, &rec, &b);
			struct sct_syscall want;

			if (rc != 1)
				break;
			if (rec.type != SCT_REC_SYSCALL)
				continue;
			if (!single) {
				/* a batch's own arrays filled: the arguments still wait for a record */
				if (c % 2)
					cr_assert_eq(sct_reader_batch_fill(r), 0);
				for (uint32_t i = 0; i < b.n; i++)
					cr_assert_eq(b.time_ns[i], 1000 + n + i, "max %u, row %zu", maxes[m], n + i);
				n += b.n;
				continue;
			}
			want = row(n, paths, seconds);
			cr_assert_eq(rec.syscall.time_ns, want.time_ns, "max %u, row %zu", maxes[m], n);
			cr_assert_eq(rec.syscall.arg1, want.arg1, "max %u, row %zu", maxes[m], n);
			cr_assert_eq(rec.syscall.arg5, want.arg5, "max %u, row %zu", maxes[m], n);
			cr_assert_eq(rec.syscall.path_flags, want.path_flags, "max %u, row %zu", maxes[m], n);
			bytes_assert(rec.syscall.path, want.path, n);
			cr_assert_eq(rec.syscall.path2_flags, want.path2_flags, "max %u, row %zu", maxes[m], n);
			bytes_assert(rec.syscall.path2, want.path2, n);
			n++;
			singles++;
		}
		cr_assert_eq(n, ROWS, "max %u", maxes[m]);
		cr_assert_gt(singles, 4, "max %u", maxes[m]);
		sct_reader_close(r);
	}
	fh_trace_free(&t);
}

/* The compat ABI's descriptions by compat number (1.4), apart from the native ones. */
Test(format_args, compat_descriptions_read_back_by_their_own_numbers)
{
	static const struct sct_syscall_args compat[] = {
		{ 5, 3, { { "filename", SCT_ARG_PATH, "" }, { "flags", SCT_ARG_FLAGS, "open" },
			  { "mode", SCT_ARG_MODE, "" } } },
	};
	struct sct_header_info info = args_info();
	const struct sct_session *s;
	struct sct_writer *w;
	struct sct_reader *r;
	struct sct_record rec;
	struct fh_trace t;
	int fd, err = 0;

	info.compat_syscall_args = compat;
	info.ncompat_syscall_args = 1;
	w = args_writer(&info, 0, &fd);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	s = sct_reader_session(r);
	cr_assert_eq(sct_session_ncompat_syscall_args(s), 1);
	cr_assert_eq(sct_session_compat_syscall_args_at(s, 0), sct_session_compat_syscall_args(s, 5));
	cr_assert_null(sct_session_compat_syscall_args_at(s, 1));
	cr_assert_str_eq(sct_session_compat_syscall_args(s, 5)->args[0].name, "filename");
	cr_assert_eq(sct_session_compat_syscall_args(s, 5)->args[0].kind, SCT_ARG_PATH);
	cr_assert_str_eq(sct_session_compat_syscall_args(s, 5)->args[1].family, "open");
	cr_assert_null(sct_session_compat_syscall_args(s, 257));
	cr_assert_null(sct_session_syscall_args(s, 5));
	cr_assert_eq(sct_session_nsyscall_args(s), 2);
	sct_reader_close(r);
	fh_trace_free(&t);

	/* without a compat table, no compat descriptions */
	info = args_info();
	w = args_writer(&info, 0, &fd);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(sct_session_ncompat_syscall_args(sct_reader_session(r)), 0);
	cr_assert_null(sct_session_compat_syscall_args(sct_reader_session(r), 5));
	sct_reader_close(r);
	fh_trace_free(&t);
}

/* The path by field index too (sct-convert's way), resolved through the table. */
Test(format_args, generic_field_access_resolves_references)
{
	static const char *const paths[] = { "/x", "/x" };
	static const char *const seconds[] = { "/y", "/y" };
	struct sct_header_info info = args_info();
	const struct sct_type_schema *ts;
	struct sct_writer *w;
	struct sct_reader *r;
	struct sct_record rec;
	struct sct_value v;
	struct fh_trace t;
	int fd, err = 0, rows = 0;

	w = args_writer(&info, 0, &fd);
	write_rows(w, paths, seconds, 2);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	while (sct_reader_next(r, &rec) == 1) {
		if (rec.type != SCT_REC_SYSCALL)
			continue;
		ts = sct_reader_schema(r, SCT_REC_SYSCALL);
		cr_assert_eq(ts->nfields, 21);
		cr_assert_str_eq(ts->fields[17].name, "path");
		cr_assert_str_eq(ts->fields[20].name, "path2");
		cr_assert_eq(sct_reader_field(r, 17, &v), 0);
		cr_assert_eq(v.b.len, 2);
		cr_assert(!memcmp(v.b.ptr, "/x", 2));
		cr_assert_eq(sct_reader_field(r, 20, &v), 0);
		cr_assert_eq(v.b.len, 2);
		cr_assert(!memcmp(v.b.ptr, "/y", 2));
		cr_assert_eq(sct_reader_field(r, 9, &v), 0);
		cr_assert_eq(v.u, (uint64_t)-100);
		rows++;
	}
	cr_assert_eq(rows, 2);
	sct_reader_close(r);
	fh_trace_free(&t);
}

/* A session without arguments stays at the version it was, with the nine base fields. */
Test(format_args, a_session_without_arguments_is_unchanged)
{
	struct sct_syscall sc = call(0, NULL, 0);
	struct sct_writer *w;
	struct fh_read rd;
	struct fh_trace t;
	int fd;

	w = fh_writer(NULL, &fd);
	sc.arg0 = sc.arg5 = 0;
	cr_assert_eq(sct_writer_append_syscall(w, &sc), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	cr_assert_null(memmem(t.p, t.len, "syscall_args", 12));
	cr_assert_null(memmem(t.p, t.len, "arg0", 4));
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.recs[0].syscall.arg1, 0);
	cr_assert_eq(rd.recs[0].syscall.path.len, 0);
	fh_read_free(&rd);
	fh_trace_free(&t);
}

/* Size of a trace of n calls over paths (NULL: no path), one block per 8192 records. */
static size_t trace_size(const char *const *set, size_t nset, size_t n)
{
	struct sct_header_info info = args_info();
	struct sct_writer *w;
	struct fh_trace t;
	size_t len;
	int fd;

	w = args_writer(&info, 0, &fd);
	for (size_t i = 0; i < n; i++) {
		const char *p = set[i % nset];
		struct sct_syscall sc = call(i, p, p ? SCT_PATH_CAPTURED : 0);

		sc.arg1 = 0x7ffd0000;
		sc.arg5 = 0;
		cr_assert_eq(sct_writer_append_syscall(w, &sc), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	len = t.len;
	fh_trace_free(&t);
	return len;
}

/* The same few paths over and over: at most 2 bytes a record more than no path at all. */
Test(format_args, repeated_paths_cost_a_reference)
{
	static const char *const few[] = { "/etc/ld.so.cache", "/usr/lib/x86_64-linux-gnu/libc.so.6",
					   "/etc/passwd", "/proc/self/status" };
	static const char *const none[] = { NULL };
	size_t n = 100000, with = trace_size(few, 4, n), without = trace_size(none, 1, n);

	cr_assert_leq(with, without + 2 * n, "%zu bytes with paths, %zu without", with, without);
}

/* ---------------------------------------------------------------- hostile tables */

/*
 * A BLOCK payload of one SYSCALL section whose k-th path column (0: path, 1: path2) has the
 * given refs, lengths and bytes; every column before them is all zero, none after them.
 */
static size_t payload(uint8_t *out, uint32_t k, const uint64_t *ref, const uint32_t *len,
		      const char *data, uint32_t n)
{
	uint32_t ref_col = k ? 19 : 16;
	uint8_t cols[512], *c = cols, *p = out;
	size_t dlen = 0;

	for (uint32_t i = 0; i < ref_col; i++)
		*c++ = 0;
	*c++ = 1;
	for (uint32_t i = 0; i < n; i++)
		*c++ = (uint8_t)ref[i];
	*c++ = 1;
	for (uint32_t i = 0; i < n; i++) {
		*c++ = (uint8_t)len[i];
		dlen += len[i];
	}
	memcpy(c, data, dlen);
	c += dlen;
	p += varint_put(p, 1);
	p += varint_put(p, SCT_REC_SYSCALL);
	p += varint_put(p, n);
	p += varint_put(p, 1);
	p += varint_put(p, SCT_REC_SYSCALL);
	p += varint_put(p, n);
	p += varint_put(p, ref_col + 2);
	p += varint_put(p, (uint64_t)(c - cols));
	memcpy(p, cols, (size_t)(c - cols));
	return (size_t)(p - out) + (size_t)(c - cols);
}

/* The payload of payload() loaded into d under session s. */
static int load_in(struct sct_session *s, uint32_t k, const uint64_t *ref, const uint32_t *len,
		   const char *data, uint32_t n, struct block_dec *d)
{
	uint8_t raw[1024];
	struct block_meta m = { .count = n, .codec = 0 };
	const char *why;

	m.raw_size = payload(raw, k, ref, len, data, n);
	m.payload = raw;
	m.payload_len = m.raw_size;
	memset(d, 0, sizeof(*d));
	return block_dec_load(d, &m, s, &why);
}

static int load(uint32_t k, const uint64_t *ref, const uint32_t *len, const char *data, uint32_t n,
		struct block_dec *d)
{
	struct sct_header_info info = args_info();
	struct sct_session *s = session_new(0);
	struct cbuf b;
	char err[128];
	int rc;

	cbuf_init(&b, 0, SCT_MAX_HEADER_BODY);
	header_encode(&b, &info);
	cr_assert_eq(b.err, 0);
	cr_assert_eq(header_parse(b.p, b.len, s, err, sizeof(err)), 0, "%s", err);
	rc = load_in(s, k, ref, len, data, n, d);
	cbuf_free(&b);
	session_free(s);
	return rc;
}

/*
 * A 1.4 session with arguments whose HEADER lists SYSCALL's first 17 fields: up to path_ref,
 * without path (FORMAT.md section 7.1: path reads empty, so path's table is empty).
 */
Test(format_args, an_entry_that_ends_between_path_ref_and_path_has_an_empty_table)
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);
	const struct craft_type entry = { SCT_REC_SYSCALL, "syscall", 17, all->fields };
	struct sct_session *s = session_new(0);
	uint64_t refs[2] = { 0, 1 }, zeros[2] = { 0, 0 };
	uint32_t len[2] = { 2, 0 };
	struct block_dec d;
	struct craft h;
	char err[128];

	craft_init(&h);
	craft_header_body_args(&h, 1, 4, &entry, 1);
	cr_assert_eq(header_parse(h.p, h.len, s, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(load_in(s, 0, refs, len, "/a", 2, &d), -SCT_E_CORRUPT, "path_ref 1 names no entry");
	block_dec_free(&d);
	cr_assert_eq(load_in(s, 0, zeros, len, "/a", 2, &d), 0);
	block_dec_free(&d);
	craft_free(&h);
	session_free(s);
}

struct bad_ref {
	uint64_t ref[2];
	uint32_t len[2];
};

ParameterizedTestParameters(format_args, bad_references_do_not_decode)
{
	static struct bad_ref cases[] = {
		{ { 1, 0 }, { 0, 2 } }, /* a reference before any path */
		{ { 0, 2 }, { 2, 0 } }, /* to an entry not yet defined */
		{ { 0, 1 }, { 2, 2 } }, /* a referring row that stores bytes too */
	};

	return cr_make_param_array(struct bad_ref, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_ref *c, format_args, bad_references_do_not_decode)
{
	struct block_dec d;

	for (uint32_t k = 0; k < 2; k++) {
		cr_assert_eq(load(k, c->ref, c->len, "/a/b", 2, &d), -SCT_E_CORRUPT, "path column %u", k);
		block_dec_free(&d);
	}
}

Test(format_args, a_valid_reference_decodes)
{
	uint64_t ref[2] = { 0, 1 };
	uint32_t len[2] = { 2, 0 };
	struct block_dec d;

	for (uint32_t k = 0; k < 2; k++) {
		cr_assert_eq(load(k, ref, len, "/a", 2, &d), 0, "path column %u", k);
		block_dec_free(&d);
	}
}

/* Each path column refers to its own table: path2's first row cannot name path's entry. */
Test(format_args, a_second_path_cannot_refer_to_the_first_paths_table)
{
	uint8_t raw[256], cols[128], *c = cols, *p = raw;
	struct sct_header_info info = args_info();
	struct sct_session *s = session_new(0);
	struct block_meta m = { .count = 1, .codec = 0 };
	struct block_dec d = { 0 };
	const char *why;
	struct cbuf b;
	char err[128];

	for (uint32_t i = 0; i < 16; i++)
		*c++ = 0;
	*c++ = 0;           /* path_ref: 0 */
	*c++ = 1;           /* path: "/a", a new entry of path's table */
	*c++ = 2;
	memcpy(c, "/a", 2);
	c += 2;
	*c++ = 0;           /* path2_flags */
	*c++ = 1;           /* path2_ref: 1, which path2's table does not have */
	*c++ = 1;
	*c++ = 0;           /* path2: empty */
	p += varint_put(p, 1);
	p += varint_put(p, SCT_REC_SYSCALL);
	p += varint_put(p, 1);
	p += varint_put(p, 1);
	p += varint_put(p, SCT_REC_SYSCALL);
	p += varint_put(p, 1);
	p += varint_put(p, 21);
	p += varint_put(p, (uint64_t)(c - cols));
	memcpy(p, cols, (size_t)(c - cols));
	m.raw_size = (size_t)(p - raw) + (size_t)(c - cols);
	m.payload = raw;
	m.payload_len = m.raw_size;
	cbuf_init(&b, 0, SCT_MAX_HEADER_BODY);
	header_encode(&b, &info);
	cr_assert_eq(header_parse(b.p, b.len, s, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(block_dec_load(&d, &m, s, &why), -SCT_E_CORRUPT);
	block_dec_free(&d);
	cbuf_free(&b);
	session_free(s);
}

/* A second path past SCT_MAX_STRING is refused like a first one, and nothing is written. */
Test(format_args, a_second_path_past_the_limit_is_refused)
{
	struct sct_header_info info = args_info();
	struct sct_syscall sc = call(0, "/a", SCT_PATH_CAPTURED);
	char *big = malloc(SCT_MAX_STRING + 1);
	struct sct_writer *w;
	struct fh_read rd;
	struct fh_trace t;
	int fd;

	cr_assert(big);
	memset(big, 'x', SCT_MAX_STRING + 1);
	sc.path2 = (struct sct_bytes){ (const uint8_t *)big, SCT_MAX_STRING + 1 };
	w = args_writer(&info, 0, &fd);
	cr_assert_eq(sct_writer_append_syscall(w, &sc), -SCT_E_LIMIT);
	cr_assert_eq(sct_writer_append_syscalls(w, &sc, 1), -SCT_E_LIMIT);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.nrecords, 0);
	fh_read_free(&rd);
	fh_trace_free(&t);
	free(big);
}

Test(format_args, rows_in_place_are_refused_where_records_carry_arguments)
{
	struct sct_header_info info = args_info();
	struct sct_syscall_rows c;
	struct sct_writer *w;
	int fd;

	w = args_writer(&info, 0, &fd);
	cr_assert_eq(sct_writer_syscall_rows(w, 1, &c), -EINVAL);
	cr_assert_eq(sct_writer_syscall_rows_commit(w, 1), -EINVAL);
	cr_assert_eq(sct_writer_records(w), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	close(fd);
}

Test(format_args, a_batch_writes_the_bytes_of_single_appends)
{
	static const char *const paths[] = { "/etc/a", NULL, "/etc/a", "/b" };
	static const char *const seconds[] = { "/b", NULL, NULL, "/b" };
	struct sct_header_info info = args_info();
	struct sct_syscall sc[4];
	struct sct_writer *w;
	struct fh_trace one, batch;
	int fd;

	w = args_writer(&info, 0, &fd);
	write_rows(w, paths, seconds, 4);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &one);
	for (size_t i = 0; i < 4; i++)
		sc[i] = row(i, paths, seconds);
	w = args_writer(&info, 0, &fd);
	cr_assert_eq(sct_writer_append_syscalls(w, sc, 4), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &batch);
	cr_assert_eq(batch.len, one.len);
	cr_assert(!memcmp(batch.p, one.p, one.len));
	fh_trace_free(&one);
	fh_trace_free(&batch);
}
