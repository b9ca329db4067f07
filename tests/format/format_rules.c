// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reader rules spec/FORMAT.md states once and sct_read.py follows too: what is an sct file,
 * which session blocks belong to, which HEADERs decode and how their values read.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

static const uint64_t t1[] = { 1000 }, z1[] = { 0 }, nr1[] = { 1 };
static const struct craft_col sys_cols[] = {
	{ SCT_KIND_TIME, t1, NULL }, { SCT_KIND_UINT, z1, NULL }, { SCT_KIND_UINT, z1, NULL },
	{ SCT_KIND_UINT, z1, NULL }, { SCT_KIND_UINT, z1, NULL }, { SCT_KIND_UINT, nr1, NULL },
	{ SCT_KIND_UINT, z1, NULL }, { SCT_KIND_SINT, z1, NULL }, { SCT_KIND_UINT, z1, NULL },
};

/* One BLOCK frame holding one SYSCALL (write, nr 1). */
static void one_block(struct craft *c)
{
	static const struct craft_run run = { SCT_REC_SYSCALL, 1 };
	static const struct craft_section sec = { SCT_REC_SYSCALL, 1, 9, sys_cols, NULL, 0, 0 };
	struct craft body;

	craft_init(&body);
	craft_block_body(&body, 1000, 1000, &run, 1, &sec, 1);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
}

static void text(struct craft *c, const char *s, size_t len)
{
	craft_head(c, 3, len);
	craft_bytes(c, s, len);
}

#define TEXT(c, s) text(c, s, sizeof(s) - 1)

/* A HEADER frame whose body is {"format": [1, 0], "host": {"hostname": HOST}, EXTRA...}. */
static void header_with(struct craft *c, const char *host, size_t hostlen, uint8_t host_major,
			const struct craft *extra, uint32_t nextra)
{
	struct craft b;

	craft_init(&b);
	craft_head(&b, 5, 2 + nextra);
	TEXT(&b, "format");
	craft_bytes(&b, "\x82\x01\x00", 3);
	TEXT(&b, "host");
	craft_head(&b, 5, 1);
	TEXT(&b, "hostname");
	craft_head(&b, host_major, hostlen);
	craft_bytes(&b, host, hostlen);
	if (extra)
		craft_bytes(&b, extra->p, extra->len);
	craft_frame(c, 1, b.p, b.len);
	craft_free(&b);
}

/* What a read saw, record by record: the session each SYSCALL was delivered in. */
struct seen {
	int rc;
	uint32_t sessions, headerless, syscalls;
	char host[4][32];      /* hostname per SESSION record, "-" for none */
	int session_of[4];     /* SESSION record (0, 1, ...) each SYSCALL followed */
	struct fh_read diags;
};

static void read_seen(const struct craft *c, struct seen *s)
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0, n = -1;

	memset(s, 0, sizeof(*s));
	r = sct_reader_open_mem(c->p, c->len, &err);
	cr_assert(r);
	sct_reader_set_diag(r, fh_diag_count, &s->diags);
	while ((s->rc = sct_reader_next(r, &rec)) == 1) {
		const struct sct_session *ss = sct_reader_session(r);

		if (rec.type == SCT_REC_SESSION) {
			cr_assert_lt(++n, 4);
			snprintf(s->host[n], sizeof(s->host[n]), "%s",
				 ss ? sct_session_get(ss, SCT_SESSION_HOSTNAME) : "-");
			s->sessions += ss != NULL;
			s->headerless += ss == NULL;
			continue;
		}
		cr_assert_lt(s->syscalls, 4);
		s->session_of[s->syscalls++] = n;
	}
	s->diags.stats = *sct_reader_stats(r);
	sct_reader_close(r);
}

/* label HEADER(host-a) BLOCK TRAILER, label HEADER(host-b, damaged by how) BLOCK */
static void second_header_damaged(struct craft *c, int how)
{
	static const uint8_t trailer[] = { 0xa0 };
	size_t at;

	craft_label(c);
	header_with(c, "host-a", 6, 3, NULL, 0);
	one_block(c);
	craft_frame(c, 3, trailer, sizeof(trailer));
	craft_label(c);
	at = c->len;
	if (how == 0) {
		header_with(c, "host-b", 6, 3, NULL, 0);
		c->p[at + 10] ^= 1; /* inside the body: the checksum fails */
	} else {
		struct craft b;

		/* verifies, but "format" has three items: the HEADER does not decode */
		craft_init(&b);
		craft_head(&b, 5, 1);
		TEXT(&b, "format");
		craft_bytes(&b, "\x83\x01\x00\x00", 4);
		craft_frame(c, 1, b.p, b.len);
		craft_free(&b);
	}
	one_block(c);
}

Test(format_rules, blocks_after_a_damaged_header_belong_to_no_session)
{
	for (int how = 0; how < 2; how++) {
		struct craft c;
		struct seen s;

		craft_init(&c);
		second_header_damaged(&c, how);
		read_seen(&c, &s);
		cr_assert_eq(s.rc, 0);
		cr_assert_eq(s.sessions, 1);
		cr_assert_eq(s.headerless, 1);
		cr_assert_str_eq(s.host[0], "host-a");
		cr_assert_str_eq(s.host[1], "-");
		cr_assert_eq(s.syscalls, 2);
		cr_assert_eq(s.session_of[0], 0);
		cr_assert_eq(s.session_of[1], 1, "how %d: host-b's block went to session %d", how,
			     s.session_of[1]);
		cr_assert_eq(s.diags.ndiag[SCT_DIAG_NO_HEADER], 1);
		cr_assert_eq(s.diags.ndiag[how ? SCT_DIAG_BAD_BLOCK : SCT_DIAG_SKIPPED], 1);
		craft_free(&c);
	}
}

Test(format_rules, format_version_must_be_two_uints)
{
	struct craft c;
	struct seen s;

	craft_init(&c);
	second_header_damaged(&c, 1);
	read_seen(&c, &s);
	cr_assert_eq(s.diags.ndiag[SCT_DIAG_BAD_BLOCK], 1);
	cr_assert_eq(s.diags.last_diag[SCT_DIAG_BAD_BLOCK].type, 1);
	craft_free(&c);
}

Test(format_rules, a_label_prefix_alone_is_not_an_sct_file)
{
	struct craft c;
	struct fh_read rd;

	craft_init(&c);
	craft_label(&c);
	for (size_t n = 1; n < 12; n++) {
		fh_read_mem(c.p, n, false, &rd);
		cr_assert_eq(rd.rc, -SCT_E_NOT_SCT, "%zu label bytes", n);
		cr_assert_eq(rd.ndiag[SCT_DIAG_TRUNCATED], 0);
	}
	craft_free(&c);
}

Test(format_rules, junk_before_a_label_is_skipped)
{
	struct craft c;
	struct fh_read rd;

	craft_init(&c);
	craft_bytes(&c, "junk!", 5);
	craft_label(&c);
	header_with(&c, "h", 1, 3, NULL, 0);
	one_block(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].offset, 0);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].length, 5);
	craft_free(&c);
}

Test(format_rules, a_file_without_its_label_skips_nothing)
{
	struct craft c;
	struct fh_read rd;

	craft_init(&c);
	header_with(&c, "h", 1, 3, NULL, 0);
	one_block(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 0, "a range of %llu bytes",
		     (unsigned long long)rd.last_diag[SCT_DIAG_SKIPPED].length);
	cr_assert_eq(rd.stats.skipped_ranges, 0);
	craft_free(&c);
}

Test(format_rules, a_label_alone_is_incomplete)
{
	struct craft c;
	struct fh_read rd;

	craft_init(&c);
	craft_label(&c);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	cr_assert_eq(rd.stats.sessions_without_trailer, 1);
	/* a label followed by its HEADER is one session, not an empty one and another */
	header_with(&c, "h", 1, 3, NULL, 0);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.ndiag[SCT_DIAG_NO_TRAILER], 1);
	cr_assert_eq(rd.nsessions, 1);
	craft_free(&c);
}

Test(format_rules, invalid_utf8_in_a_header_is_replaced)
{
	struct craft c;
	struct seen s;

	craft_init(&c);
	craft_label(&c);
	header_with(&c, "h\xff\xe2\x82x", 5, 3, NULL, 0);
	one_block(&c);
	read_seen(&c, &s);
	cr_assert_eq(s.sessions, 1);
	cr_assert_eq(s.diags.ndiag[SCT_DIAG_BAD_BLOCK], 0);
	/* each byte that starts no valid sequence becomes U+FFFD */
	cr_assert_str_eq(s.host[0], "h\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx");
	craft_free(&c);
}

Test(format_rules, a_value_of_the_wrong_type_reads_as_absent)
{
	struct craft c;
	struct seen s;

	craft_init(&c);
	craft_label(&c);
	header_with(&c, "bytes", 5, 2, NULL, 0); /* hostname as a byte string */
	read_seen(&c, &s);
	cr_assert_eq(s.sessions, 1);
	cr_assert_str_eq(s.host[0], "");
	craft_free(&c);
}

/* A reader of label + HEADER with the extra pair x, past its SESSION record; frees x. */
static struct sct_reader *session_with(struct craft *c, struct craft *x)
{
	struct sct_reader *r;
	struct sct_record rec;
	int err = 0;

	craft_init(c);
	craft_label(c);
	header_with(c, "h", 1, 3, x, 1);
	craft_free(x);
	r = sct_reader_open_mem(c->p, c->len, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	return r;
}

Test(format_rules, repeated_syscall_numbers_keep_the_first)
{
	struct sct_reader *r;
	struct craft c, x;

	craft_init(&x);
	TEXT(&x, "syscalls");
	craft_head(&x, 5, 1);
	TEXT(&x, "native");
	craft_head(&x, 5, 1);
	TEXT(&x, "names");
	craft_head(&x, 5, 3);
	craft_head(&x, 0, 1);
	TEXT(&x, "first");
	craft_head(&x, 0, 7);
	TEXT(&x, "seven");
	craft_head(&x, 0, 1);
	TEXT(&x, "later");
	r = session_with(&c, &x);
	cr_assert_str_eq(sct_session_syscall_name(sct_reader_session(r), 1, 0), "first");
	cr_assert_str_eq(sct_session_syscall_name(sct_reader_session(r), 7, 0), "seven");
	sct_reader_close(r);
	craft_free(&c);
}

/* "x": eight levels of arrays, the innermost empty: depth 9 with the body map. */
Test(format_rules, empty_containers_count_toward_nesting)
{
	struct craft c, x;
	struct fh_read rd;

	for (int levels = 7; levels <= 8; levels++) {
		craft_init(&c);
		craft_init(&x);
		TEXT(&x, "x");
		for (int i = 0; i < levels - 1; i++)
			craft_head(&x, 4, 1);
		craft_head(&x, 4, 0);
		craft_label(&c);
		header_with(&c, "h", 1, 3, &x, 1);
		fh_read_mem(c.p, c.len, false, &rd);
		cr_assert_eq(rd.nsessions, levels == 7 ? 1 : 0, "%d levels", levels);
		cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_BLOCK], levels == 7 ? 0 : 1);
		craft_free(&x);
		craft_free(&c);
	}
}

Test(format_rules, schema_entry_of_type_0_is_ignored)
{
	struct sct_reader *r;
	struct craft c, x;

	craft_init(&x);
	TEXT(&x, "schema");
	craft_head(&x, 4, 1);
	craft_head(&x, 5, 3);
	TEXT(&x, "type");
	craft_head(&x, 0, 0);
	TEXT(&x, "name");
	TEXT(&x, "zero");
	TEXT(&x, "fields");
	craft_head(&x, 4, 0);
	r = session_with(&c, &x);
	cr_assert_null(sct_reader_schema(r, 0));
	cr_assert_eq(sct_reader_type(r, "zero"), -1);
	cr_assert_eq(sct_reader_type(r, "exec"), SCT_REC_EXEC);
	sct_reader_close(r);
	craft_free(&c);
}

/* A HEADER entry for SYSCALL listing only its first two fields: the others read as 0. */
Test(format_rules, a_shorter_schema_entry_leaves_the_other_fields_zero)
{
	static const struct sct_field_schema two[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "duration_ns", SCT_KIND_UINT, "ns" },
	};
	static const struct craft_type sys2 = { SCT_REC_SYSCALL, "syscall", 2, two };
	struct craft c, body;
	struct fh_read rd;

	craft_init(&c);
	craft_init(&body);
	craft_header_body(&body, 1, 0, &sys2, 1);
	craft_label(&c);
	craft_frame(&c, 1, body.p, body.len);
	one_block(&c); /* nr is 1 in the block */
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.recs[0].type, SCT_REC_SYSCALL);
	cr_assert_eq(rd.recs[0].syscall.time_ns, 1000);
	cr_assert_eq(rd.recs[0].syscall.nr, 0);
	cr_assert_eq(rd.stats.unknown_records, 0);
	fh_read_free(&rd);
	craft_free(&body);
	craft_free(&c);
}

/* A kind reads up to its first NUL as every HEADER text does: "uint\0x" is "uint". */
Test(format_rules, a_kind_reads_up_to_its_first_nul)
{
	static const uint8_t header[] = {
		0xa2, 0x66, 'f', 'o', 'r', 'm', 'a', 't', 0x82, 0x01, 0x00,
		0x66, 's', 'c', 'h', 'e', 'm', 'a', 0x81, 0xa3,
		0x64, 't', 'y', 'p', 'e', 0x14, 0x64, 'n', 'a', 'm', 'e', 0x61, 't',
		0x66, 'f', 'i', 'e', 'l', 'd', 's', 0x81, 0x83, 0x61, 'v', 0x66, 'u', 'i', 'n', 't', 0x00, 'x', 0x60,
	};
	const uint64_t v[] = { 5 };
	const struct craft_col cols[] = { { SCT_KIND_UINT, v, NULL } };
	const struct craft_run run = { 20, 1 };
	const struct craft_section sec = { 20, 1, 1, cols, NULL, 0, 0 };
	const struct sct_type_schema *ts;
	struct sct_record rec;
	struct sct_value val;
	struct sct_reader *r;
	struct craft c;
	int err;

	craft_init(&c);
	craft_label(&c);
	craft_frame(&c, 1, header, sizeof(header));
	craft_block(&c, &run, 1, &sec, 1);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert_not_null(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, 20, "the entry is valid: its records are delivered");
	ts = sct_reader_schema(r, 20);
	cr_assert_not_null(ts);
	cr_assert_eq(ts->fields[0].kind, SCT_KIND_UINT);
	cr_assert_eq(sct_reader_field(r, 0, &val), 0);
	cr_assert_eq(val.u, 5);
	sct_reader_close(r);
	craft_free(&c);
}
