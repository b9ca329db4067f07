// SPDX-License-Identifier: BSD-2-Clause
/*
 * ClickHouse output of sct-convert: the DDL of the tables and their rows in TabSeparated,
 * which every ClickHouse since the first release parses at full speed and which carries any
 * byte of a string exactly (ClickHouse strings are bytes). Everything used here exists in
 * ClickHouse 18.16 (Debian 12) and in current releases: MergeTree with PARTITION BY and
 * ORDER BY, Distributed, String and fixed-width integers. Nothing experimental: no
 * LowCardinality, no codecs, no TTL, no Nullable (a value a session lacks is 0 or '').
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

const char *ch_field_type(const char *type, const char *field, uint32_t kind)
{
	static const char *const uints[] = { "UInt8", "UInt16", "UInt32", "UInt64" };
	static const char *const sints[] = { "Int8", "Int16", "Int32", "Int64" };
	unsigned w = 3;

	if (kind == SCT_KIND_BYTES)
		return "String";
	for (size_t i = 0; kind != SCT_KIND_TIME && i < sizeof(ch_widths) / sizeof(ch_widths[0]); i++)
		if (!strcmp(ch_widths[i].type, type) && !strcmp(ch_widths[i].field, field))
			w = ch_widths[i].size == 1 ? 0 : ch_widths[i].size == 2 ? 1 : ch_widths[i].size == 4 ? 2 : 3;
	return kind == SCT_KIND_SINT ? sints[w] : uints[w];
}

void ch_string(struct out *o, const void *ptr, size_t len)
{
	const uint8_t *p = ptr;
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		char e;

		switch (p[i]) {
		case '\\': e = '\\'; break;
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\0': e = '0'; break;
		default: continue;
		}
		out_mem(o, p + start, i - start);
		out_char(o, '\\');
		out_char(o, e);
		start = i + 1;
	}
	out_mem(o, p + start, len - start);
}

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

void ch_prefix(struct out *o, const struct sct_session *s)
{
	const char *host = sct_session_get(s, SCT_SESSION_HOSTNAME);
	char id[CH_ID_LEN + 1];
	uint64_t seq;

	ch_identity(s, id, &seq);
	ch_string(o, host, strlen(host));
	out_char(o, '\t');
	ch_string(o, id, strlen(id));
	out_char(o, '\t');
	out_u64(o, seq);
	out_char(o, '\t');
	out_u64(o, sct_session_index(s));
}

/* sct.sessions: the identity, then every HEADER string libsct knows by its key's name (but
 * the two the identity columns already hold). */
static bool ch_session_key(enum sct_session_key k)
{
	return k != SCT_SESSION_HOSTNAME && k != SCT_SESSION_RECORDING_ID;
}

/* The columns of sct.sessions after the identity, in ch_session_row()'s order: ", name TYPE" each, or ", name". */
static void ch_session_cols(struct out *o, bool types)
{
	static const char *const cols[][2] = { { "derived_id", "UInt8" }, { "snapshot", "UInt8" },
		{ "format_major", "UInt32" }, { "format_minor", "UInt32" }, { "anchor_clock_ns", "UInt64" },
		{ "anchor_realtime_ns", "UInt64" } };
	const char *sep = types ? ",\n    " : ", ";

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		out_printf(o, "%s%s%s%s", sep, cols[i][0], types ? " " : "", types ? cols[i][1] : "");
	for (int k = 0; k < SCT_SESSION_NKEYS; k++)
		if (ch_session_key((enum sct_session_key)k))
			out_printf(o, "%s%s%s", sep, sct_session_key_name((enum sct_session_key)k), types ? " String" : "");
}

void ch_session_insert(struct out *o, const char *db)
{
	out_printf(o, "INSERT INTO %s.sessions (host, recording, sequence, session", db);
	ch_session_cols(o, false);
	out_str(o, ") FORMAT TabSeparated\n");
}

void ch_session_row(struct out *o, const struct sct_session *s)
{
	char id[CH_ID_LEN + 1];
	uint32_t major, minor;
	uint64_t seq, anchor_clock, anchor_real;

	ch_prefix(o, s);
	out_str(o, ch_identity(s, id, &seq) ? "\t1" : "\t0");
	out_str(o, sct_session_snapshot(s) ? "\t1" : "\t0");
	sct_session_version(s, &major, &minor);
	out_char(o, '\t');
	out_u64(o, major);
	out_char(o, '\t');
	out_u64(o, minor);
	sct_session_anchor(s, &anchor_clock, &anchor_real);
	out_char(o, '\t');
	out_u64(o, anchor_clock);
	out_char(o, '\t');
	out_u64(o, anchor_real);
	for (int k = 0; k < SCT_SESSION_NKEYS; k++) {
		const char *v = sct_session_get(s, (enum sct_session_key)k);

		if (!ch_session_key((enum sct_session_key)k))
			continue;
		out_char(o, '\t');
		ch_string(o, v, strlen(v));
	}
	out_char(o, '\n');
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
	bool cgroup = false, wall = false;

	ch_create(o, d->cluster ? d->local_db : d->db, table);
	for (uint32_t i = 0; i < n; i++) {
		out_printf(o, ",\n    %s %s", names[i], types[i]);
		cgroup |= !strcmp(names[i], "cgroup_id");
		wall |= !strcmp(names[i], CH_WALL);
	}
	ch_engine(o, d, table, wall ? "toDate(toDateTime(intDiv(" CH_WALL ", 1000000000)))" : NULL,
		  cgroup && wall ? "host, cgroup_id, " CH_WALL : wall ? "host, " CH_WALL :
		  "host, recording, sequence, session");
}
