// SPDX-License-Identifier: BSD-2-Clause
/*
 * The recording a file belongs to (format 1.2): the HEADER's "recording" written and read back,
 * ids the writer refuses, and what a reader makes of wrong-typed values and of the key in a
 * session of an older version.
 */
#include <cbor.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

#define ID "0123456789abcdef0123456789abcdef"

/* The session of a trace written under info (with one SYSCALL): version, id, sequence, snapshot. */
struct seen {
	uint32_t minor;
	char id[64];
	uint64_t sequence;
	bool snapshot;
	char backend[16];
};

static void seen_session(const struct sct_session *s, struct seen *out)
{
	uint32_t major;

	sct_session_version(s, &major, &out->minor);
	cr_assert_eq(major, 1);
	snprintf(out->id, sizeof(out->id), "%s", sct_session_get(s, SCT_SESSION_RECORDING_ID));
	snprintf(out->backend, sizeof(out->backend), "%s", sct_session_get(s, SCT_SESSION_BACKEND));
	out->sequence = sct_session_sequence(s);
	out->snapshot = sct_session_snapshot(s);
}

static void read_session(const void *p, size_t len, struct seen *out)
{
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0;

	r = sct_reader_open_mem(p, len, &err);
	cr_assert_not_null(r, "open: %s", sct_strerror(err));
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	seen_session(sct_reader_session(r), out);
	sct_reader_close(r);
}

/* Write one SYSCALL under info; returns the open error (0: *out holds what was read back). */
static int write_and_read(const struct sct_header_info *info, struct seen *out)
{
	const struct sct_writer_opts opts = { .no_fsync = true };
	int fd = memfd_create("recording", 0), wfd = dup(fd), err = 0;
	struct sct_record rec = fh_syscall(1);
	struct sct_writer *w;
	struct fh_trace t;

	cr_assert(fd >= 0 && wfd >= 0);
	w = sct_writer_open_fd(wfd, info, &opts, &err);
	if (!w) {
		close(fd);
		return err;
	}
	cr_assert_eq(sct_writer_append(w, &rec), 0);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	read_session(t.p, t.len, out);
	fh_trace_free(&t);
	return 0;
}

Test(format_recording, id_sequence_and_snapshot_round_trip_in_a_1_2_session)
{
	struct sct_header_info info = fh_info;
	struct seen s;

	info.recording_id = ID;
	info.sequence = UINT64_MAX;
	info.snapshot = true;
	cr_assert_eq(write_and_read(&info, &s), 0);
	cr_assert_eq(s.minor, 2);
	cr_assert_str_eq(s.id, ID);
	cr_assert_eq(s.sequence, UINT64_MAX);
	cr_assert(s.snapshot);
	cr_assert_str_eq(s.backend, "", "a 1.2 session without samples states no backend");

	info.sequence = 1;
	info.snapshot = false;
	cr_assert_eq(write_and_read(&info, &s), 0);
	cr_assert_eq(s.sequence, 1);
	cr_assert_not(s.snapshot);
}

Test(format_recording, a_session_without_a_recording_stays_at_its_lowest_version)
{
	struct sct_header_info info = fh_info;
	struct seen s;

	cr_assert_eq(write_and_read(&info, &s), 0);
	cr_assert_eq(s.minor, 0);
	cr_assert_str_eq(s.id, "");
	cr_assert_eq(s.sequence, 0);
	cr_assert_not(s.snapshot);
	info.backend = "bpf";
	cr_assert_eq(write_and_read(&info, &s), 0);
	cr_assert_eq(s.minor, 1);
}

Test(format_recording, the_writer_refuses_ids_that_are_not_32_lowercase_hex_digits)
{
	static const char *const bad[] = {
		"", "0123456789abcdef0123456789abcde", ID "0", "0123456789ABCDEF0123456789abcdef",
		"0123456789abcdef0123456789abcdeg", "0123456789abcdef 123456789abcdef",
	};
	struct sct_header_info info = fh_info;
	struct seen s;

	info.sequence = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		info.recording_id = bad[i];
		cr_assert_eq(write_and_read(&info, &s), -EINVAL, "id \"%s\" accepted", bad[i]);
	}
	info.recording_id = ID;
	info.sequence = 0;
	cr_assert_eq(write_and_read(&info, &s), -EINVAL, "sequence 0 accepted");
}

static void put(cbor_item_t *map, const char *k, cbor_item_t *v)
{
	cbor_map_add(map, (struct cbor_pair){ .key = cbor_move(cbor_build_string(k)),
					      .value = cbor_move(v) });
}

/* A file of one HEADER {"format": [1, minor], "recording": recording} read back into *out. */
static void read_crafted(uint32_t minor, cbor_item_t *recording, struct seen *out)
{
	cbor_item_t *h = cbor_new_definite_map(2), *fmt = cbor_new_definite_array(2);
	unsigned char *buf = NULL;
	size_t size = 0, len;
	struct craft c;

	cbor_array_push(fmt, cbor_move(cbor_build_uint8(1)));
	cbor_array_push(fmt, cbor_move(cbor_build_uint32(minor)));
	put(h, "format", fmt);
	put(h, "recording", recording);
	len = cbor_serialize_alloc(h, &buf, &size);
	cr_assert(len > 0);
	craft_init(&c);
	craft_label(&c);
	craft_frame(&c, 1, buf, len);
	read_session(c.p, c.len, out);
	craft_free(&c);
	free(buf);
	cbor_decref(&h);
}

static cbor_item_t *recording_item(cbor_item_t *id, cbor_item_t *sequence, cbor_item_t *snapshot)
{
	cbor_item_t *m = cbor_new_definite_map(3);

	put(m, "id", id);
	put(m, "sequence", sequence);
	put(m, "snapshot", snapshot);
	return m;
}

Test(format_recording, the_key_is_ignored_before_1_2)
{
	struct seen s;

	read_crafted(1, recording_item(cbor_build_string(ID), cbor_build_uint8(3), cbor_build_uint8(1)),
		     &s);
	cr_assert_str_eq(s.id, "");
	cr_assert_eq(s.sequence, 0);
	cr_assert_not(s.snapshot);
	read_crafted(2, recording_item(cbor_build_string(ID), cbor_build_uint8(3), cbor_build_uint8(1)),
		     &s);
	cr_assert_str_eq(s.id, ID);
	cr_assert_eq(s.sequence, 3);
	cr_assert(s.snapshot);
}

Test(format_recording, wrong_typed_values_read_as_missing)
{
	struct seen s;

	read_crafted(2, recording_item(cbor_build_uint8(7), cbor_build_string("3"), cbor_build_uint8(2)),
		     &s);
	cr_assert_str_eq(s.id, "");
	cr_assert_eq(s.sequence, 0);
	cr_assert_not(s.snapshot, "a snapshot is exactly 1");
	read_crafted(2, recording_item(cbor_build_string(ID), cbor_build_uint8(0), cbor_build_bool(true)), &s);
	cr_assert_str_eq(s.id, ID);
	cr_assert_not(s.snapshot);
	read_crafted(2, cbor_build_string("not a map"), &s);
	cr_assert_str_eq(s.id, "");
	cr_assert_eq(s.sequence, 0);
}

/*
 * An id is exactly what the writer writes, 32 lowercase hex digits, or it reads as missing
 * (the sequence is still read): a hostile file's id never reaches SQL, a TabSeparated row or a
 * terminal. The whole string counts, a NUL or an invalid byte (repaired to U+FFFD) included.
 */
Test(format_recording, ids_the_writer_would_not_write_read_as_missing)
{
	static const struct {
		const char *id;
		size_t len;
	} bad[] = {
#define BAD(s) { s, sizeof(s) - 1 }
		BAD("r"), BAD("Not-Hex id"), BAD(""), BAD("0123456789abcdef0123456789abcde"), BAD(ID "0"),
		BAD("0123456789ABCDEF0123456789abcdef"), BAD("0123456789abcdef0123456789abcdeg"),
		BAD("x', 0)) OR 1=1 --              "), BAD("0123456789abcdef\t123456789abcdef"),
		BAD("0123456789abcdef\n123456789abcdef"), BAD("\x1b]2;x\a\x1b[2J0123456789abcdef012345"),
		BAD("0123456789abcdef0123456789abcdef\0"), BAD("0123456789abcdef\0" "123456789abcdef"),
		BAD("0123456789abcdef0123456789abcde\xff"), BAD("0123456789abcdef0123456789abcd\xc3\xa9"),
#undef BAD
	};
	struct seen s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		read_crafted(2, recording_item(cbor_build_stringn(bad[i].id, bad[i].len), cbor_build_uint8(3),
					       cbor_build_uint8(0)), &s);
		cr_assert_str_eq(s.id, "", "id %zu read as \"%s\"", i, s.id);
		cr_assert_eq(s.sequence, 3);
	}
	read_crafted(2, recording_item(cbor_build_string(ID), cbor_build_uint8(3), cbor_build_uint8(0)), &s);
	cr_assert_str_eq(s.id, ID);
}
