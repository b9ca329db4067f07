// SPDX-License-Identifier: BSD-2-Clause
/*
 * ClickHouse output of sct-convert: the DDL of the tables and their rows, in TabSeparated or
 * RowBinary. Both exist unchanged from ClickHouse 18.16 (Debian 12) to current releases and
 * carry any byte of a string exactly (ClickHouse strings are bytes); RowBinary is the one the
 * server reads without parsing text: integers as they are in memory, lengths before strings
 * and arrays. Everything else used here exists in 18.16 too: MergeTree with PARTITION BY and
 * ORDER BY, Distributed, String, FixedString, Array(UInt64) and fixed-width integers. Nothing
 * experimental: no LowCardinality, no codecs, no TTL, no Nullable (a value a session lacks
 * is 0 or ''), no DateTime64 (times are UInt64 ns).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "records.def"
#include "clickhouse.h"
#include "outbuf.h"

/* The width of every built-in field, from the struct the reader decodes it into. */
struct ch_width {
	const char *type, *field;
	uint8_t size;
};
#define CH_FIELD(t, member, kind, unit) { #t, #member, sizeof(((struct sct_##t *)0)->member) },
#define CH_TYPE(T, t, FIELDS) FIELDS(CH_FIELD, t)
static const struct ch_width ch_widths[] = { RECORD_TYPES(CH_TYPE) };

unsigned ch_field_width(const char *type, const char *field, uint32_t kind)
{
	for (size_t i = 0; kind != SCT_KIND_TIME && i < sizeof(ch_widths) / sizeof(ch_widths[0]); i++)
		if (!strcmp(ch_widths[i].type, type) && !strcmp(ch_widths[i].field, field))
			return ch_widths[i].size;
	return 8;
}

const char *ch_field_type(const char *type, const char *field, uint32_t kind)
{
	static const char *const uints[] = { "UInt8", "UInt16", "UInt32", "UInt64" };
	static const char *const sints[] = { "Int8", "Int16", "Int32", "Int64" };
	unsigned w = ch_field_width(type, field, kind);
	unsigned i = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;

	if (kind == SCT_KIND_BYTES)
		return "String";
	return kind == SCT_KIND_SINT ? sints[i] : uints[i];
}

/* p with '\\', TAB, LF, CR, NUL and, if quoted (a string in an array), '\'' escaped. */
static void ch_escaped(struct out *o, const uint8_t *p, size_t len, bool quoted)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		char e;

		switch (p[i]) {
		case '\\': e = '\\'; break;
		case '\'': e = quoted ? '\'' : 0; break;
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\0': e = '0'; break;
		default: e = 0;
		}
		if (!e)
			continue;
		out_mem(o, p + start, i - start);
		out_char(o, '\\');
		out_char(o, e);
		start = i + 1;
	}
	out_mem(o, p + start, len - start);
}

void ch_string(struct out *o, const void *p, size_t len)
{
	ch_escaped(o, p, len, false);
}

void ch_tsv_strings(struct out *o, const char *text, size_t len, char sep)
{
	const char *end = text + len;
	bool more = len > 0;

	out_char(o, '[');
	while (more) {
		const char *nl = memchr(text, sep, (size_t)(end - text));
		const char *stop = nl ? nl : end;

		out_char(o, '\'');
		ch_escaped(o, (const uint8_t *)text, (size_t)(stop - text), true);
		out_char(o, '\'');
		more = nl != NULL;
		if (more) {
			out_char(o, ',');
			text = nl + 1;
		}
	}
	out_char(o, ']');
}

void ch_tsv_lines(struct out *o, const char *text, size_t len)
{
	ch_tsv_strings(o, text, len, '\n');
}

static void ch_tsv_num(struct out *o, uint64_t v, unsigned width, bool sint)
{
	(void)width;
	if (sint)
		out_i64(o, (int64_t)v);
	else
		out_u64(o, v);
}

static void ch_tsv_u64s(struct out *o, const uint64_t *v, size_t n)
{
	out_char(o, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			out_char(o, ',');
		out_u64(o, v[i]);
	}
	out_char(o, ']');
}

const struct ch_enc ch_tsv = {
	.format = "TabSeparated",
	.sep = '\t',
	.row_end = "\n",
	.str = ch_string,
	.num = ch_tsv_num,
	.fixed = ch_string,
	.u64s = ch_tsv_u64s,
	.lines = ch_tsv_lines,
};

static void ch_rb_num(struct out *o, uint64_t v, unsigned width, bool sint)
{
	(void)sint; /* two's complement: the low bytes of an int64_t are those of the narrower int */
	ch_rb_int(o, v, width);
}

static void ch_rb_uleb(struct out *o, uint64_t v)
{
	char *p = out_reserve(o, 10);
	size_t n = 0;

	do {
		p[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	o->len += n;
}

void ch_rb_str(struct out *o, const void *p, size_t len)
{
	ch_rb_uleb(o, len);
	out_mem(o, p, len);
}

void ch_rb_u64s(struct out *o, const uint64_t *v, size_t n)
{
	ch_rb_uleb(o, n);
	for (size_t i = 0; i < n; i++)
		ch_rb_int(o, v[i], 8);
}

void ch_rb_strings(struct out *o, const char *text, size_t len, char sep)
{
	const char *end = text + len;
	size_t n = len > 0;

	for (const char *p = text; p < end; p++)
		n += *p == sep;
	ch_rb_uleb(o, n);
	for (; n; n--) {
		const char *nl = memchr(text, sep, (size_t)(end - text));
		const char *stop = nl ? nl : end;

		ch_rb_str(o, text, (size_t)(stop - text));
		if (nl)
			text = nl + 1;
	}
}

void ch_rb_lines(struct out *o, const char *text, size_t len)
{
	ch_rb_strings(o, text, len, '\n');
}

const struct ch_enc ch_rowbinary = {
	.format = "RowBinary",
	.row_end = "",
	.str = ch_rb_str,
	.num = ch_rb_num,
	.fixed = out_mem,
	.u64s = ch_rb_u64s,
	.lines = ch_rb_lines,
};

void ch_ident(struct out *o, const char *name)
{
	size_t len = strlen(name);

	if (len && (name[0] < '0' || name[0] > '9') &&
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == len) {
		out_mem(o, name, len);
		return;
	}
	out_char(o, '`');
	for (size_t i = 0; i < len; i++) {
		uint8_t c = (uint8_t)name[i];

		/* a control byte as \xNN: the INSERT stays one line, which the rows follow */
		if (c < 0x20 || c == 0x7f) {
			out_printf(o, "\\x%02x", c);
			continue;
		}
		if (c == '`' || c == '\\')
			out_char(o, '\\');
		out_char(o, (char)c);
	}
	out_char(o, '`');
}

/*
 * A session whose HEADER names no recording (files written before format 1.2) gets one
 * derived from what its HEADER says about when and where it was recorded: the 128-bit XXH3
 * of boot id, clock anchor, hostname, producer and its arguments. The same file, or a copy
 * of it, always gets the same id; two recordings share it only if they started on the same
 * boot at the same nanosecond with the same command.
 */
static void ch_derived_id(const struct sct_session *s, char id[CH_ID_LEN + 1])
{
	static const enum sct_session_key keys[] = { SCT_SESSION_BOOT_ID, SCT_SESSION_HOSTNAME,
						     SCT_SESSION_PRODUCER, SCT_SESSION_ARGS };
	XXH3_state_t *st = XXH3_createState();
	uint64_t anchor[2];
	XXH128_hash_t h;

	sct_session_anchor(s, &anchor[0], &anchor[1]);
	if (!st || XXH3_128bits_reset(st) == XXH_ERROR)
		abort();
	XXH3_128bits_update(st, anchor, sizeof(anchor));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = sct_session_get(s, keys[i]);

		XXH3_128bits_update(st, v, strlen(v) + 1);
	}
	h = XXH3_128bits_digest(st);
	XXH3_freeState(st);
	snprintf(id, CH_ID_LEN + 1, "%016" PRIx64 "%016" PRIx64, h.high64, h.low64);
}

bool ch_identity(const struct sct_session *s, char id[CH_ID_LEN + 1], uint64_t *sequence)
{
	const char *rec = sct_session_get(s, SCT_SESSION_RECORDING_ID);

	if (strlen(rec) == CH_ID_LEN) {
		memcpy(id, rec, CH_ID_LEN + 1);
		*sequence = sct_session_sequence(s);
		return false;
	}
	ch_derived_id(s, id);
	*sequence = 0;
	return true;
}

static void ch_sep(struct out *o, const struct ch_enc *e)
{
	if (e->sep)
		out_char(o, e->sep);
}

void ch_prefix(struct out *o, const struct ch_enc *e, const struct sct_session *s)
{
	const char *host = sct_session_get(s, SCT_SESSION_HOSTNAME);
	char id[CH_ID_LEN + 1];
	uint64_t seq;

	ch_identity(s, id, &seq);
	e->str(o, host, strlen(host));
	ch_sep(o, e);
	e->fixed(o, id, CH_ID_LEN);
	ch_sep(o, e);
	e->num(o, seq, 8, false);
	ch_sep(o, e);
	e->num(o, sct_session_index(s), 4, false);
}

/* sct.sessions: the identity, then every HEADER string libsct knows by its key's name (but
 * the two the identity columns already hold). */
static bool ch_session_key(enum sct_session_key k)
{
	return k != SCT_SESSION_HOSTNAME && k != SCT_SESSION_RECORDING_ID;
}

/* The numbers of sct.sessions after the identity, in ch_session_row()'s order. */
enum ch_session_num { CH_DERIVED_ID, CH_SNAPSHOT, CH_FORMAT_MAJOR, CH_FORMAT_MINOR, CH_ANCHOR_CLOCK,
		      CH_ANCHOR_REALTIME, CH_SESSION_NUMS };
static const struct {
	const char *name, *type;
	unsigned width;
} ch_session_nums[CH_SESSION_NUMS] = {
	[CH_DERIVED_ID] = { "derived_id", "UInt8", 1 },
	[CH_SNAPSHOT] = { "snapshot", "UInt8", 1 },
	[CH_FORMAT_MAJOR] = { "format_major", "UInt32", 4 },
	[CH_FORMAT_MINOR] = { "format_minor", "UInt32", 4 },
	[CH_ANCHOR_CLOCK] = { "anchor_clock_ns", "UInt64", 8 },
	[CH_ANCHOR_REALTIME] = { "anchor_realtime_ns", "UInt64", 8 },
};

/* The columns of sct.sessions after the identity, in ch_session_row()'s order: ", name TYPE" each, or ", name". */
static void ch_session_cols(struct out *o, bool types)
{
	const char *sep = types ? ",\n    " : ", ";

	for (size_t i = 0; i < CH_SESSION_NUMS; i++)
		out_printf(o, "%s%s%s%s", sep, ch_session_nums[i].name, types ? " " : "",
			   types ? ch_session_nums[i].type : "");
	for (int k = 0; k < SCT_SESSION_NKEYS; k++)
		if (ch_session_key((enum sct_session_key)k))
			out_printf(o, "%s%s%s", sep, sct_session_key_name((enum sct_session_key)k), types ? " String" : "");
}

void ch_session_insert(struct out *o, const struct ch_enc *e, const char *db)
{
	out_printf(o, "INSERT INTO %s.sessions (host, recording, sequence, session", db);
	ch_session_cols(o, false);
	out_printf(o, ") FORMAT %s\n", e->format);
}

void ch_session_row(struct out *o, const struct ch_enc *e, const struct sct_session *s)
{
	char id[CH_ID_LEN + 1];
	uint32_t major, minor;
	uint64_t seq, v[CH_SESSION_NUMS];

	v[CH_DERIVED_ID] = ch_identity(s, id, &seq);
	v[CH_SNAPSHOT] = sct_session_snapshot(s);
	sct_session_version(s, &major, &minor);
	v[CH_FORMAT_MAJOR] = major;
	v[CH_FORMAT_MINOR] = minor;
	sct_session_anchor(s, &v[CH_ANCHOR_CLOCK], &v[CH_ANCHOR_REALTIME]);
	ch_prefix(o, e, s);
	for (size_t i = 0; i < CH_SESSION_NUMS; i++) {
		ch_sep(o, e);
		e->num(o, v[i], ch_session_nums[i].width, false);
	}
	for (int k = 0; k < SCT_SESSION_NKEYS; k++) {
		const char *str = sct_session_get(s, (enum sct_session_key)k);

		if (!ch_session_key((enum sct_session_key)k))
			continue;
		ch_sep(o, e);
		e->str(o, str, strlen(str));
	}
	out_str(o, e->row_end);
}

/* Identity columns every table starts with: rows of different hosts, recordings, files and sessions never mix. */
static const char ch_prefix_ddl[] =
	"    host String,\n    recording FixedString(32),\n    sequence UInt64,\n    session UInt32";

static void ch_create(struct out *o, const char *db, const char *table)
{
	out_printf(o, "CREATE TABLE IF NOT EXISTS %s.%s\n(\n%s", db, table, ch_prefix_ddl);
}

static void ch_engine(struct out *o, const struct ch_ddl *d, const char *table, const char *partition,
		      const char *order)
{
	out_str(o, "\n)\nENGINE = MergeTree\n");
	if (partition)
		out_printf(o, "PARTITION BY %s\n", partition);
	out_printf(o, "ORDER BY (%s);\n\n", order);
	if (d->cluster)
		out_printf(o, "CREATE TABLE IF NOT EXISTS %s.%s AS %s.%s\nENGINE = Distributed(%s, %s, %s, cityHash64(host));\n\n",
			   d->db, table, d->local_db, table, d->cluster, d->local_db, table);
}

void ch_ddl_begin(struct out *o, const struct ch_ddl *d)
{
	out_str(o, "-- sct tables for ClickHouse 18.16 or later (sct-convert --schema clickhouse)\n");
	if (d->cluster)
		out_printf(o, "-- run on every server of cluster %s: tables in %s, Distributed tables over them in %s\n"
			   "CREATE DATABASE IF NOT EXISTS %s;\n", d->cluster, d->local_db, d->db, d->local_db);
	out_printf(o, "CREATE DATABASE IF NOT EXISTS %s;\n\n", d->db);
	ch_create(o, d->cluster ? d->local_db : d->db, "sessions");
	ch_session_cols(o, true);
	ch_engine(o, d, "sessions", NULL, "host, recording, sequence, session");
	/* sct-ship's mark of a file whose rows are all in: written last, so a file without one is partial */
	out_printf(o, "CREATE TABLE IF NOT EXISTS %s.files\n(\n    host String,\n    recording FixedString(32),\n"
		   "    sequence UInt64,\n    path String,\n    bytes UInt64,\n    shipped DateTime DEFAULT now()",
		   d->cluster ? d->local_db : d->db);
	ch_engine(o, d, "files", NULL, "host, recording, sequence");
}

void ch_ddl_table(struct out *o, const struct ch_ddl *d, const char *table, const char *const *names,
		  const char *const *types, uint32_t n)
{
	bool cgroup = false, wall = false, stack = false;

	ch_create(o, d->cluster ? d->local_db : d->db, table);
	for (uint32_t i = 0; i < n; i++) {
		out_printf(o, ",\n    %s %s", names[i], types[i]);
		cgroup |= !strcmp(names[i], "cgroup_id");
		wall |= !strcmp(names[i], CH_WALL);
		stack |= !strcmp(names[i], "stack_id");
	}
	ch_engine(o, d, table, wall ? "toDate(toDateTime(intDiv(" CH_WALL ", 1000000000)))" : NULL,
		  cgroup && wall ? "host, cgroup_id, " CH_WALL : stack ? "host, recording, sequence, session, stack_id" :
		  wall ? "host, " CH_WALL : "host, recording, sequence, session");
}
