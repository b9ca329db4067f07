/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ClickHouse output of sct-convert (clickhouse.c): table DDL, the values of a row in
 * TabSeparated or RowBinary (struct ch_enc), and the identity columns (host, recording,
 * sequence, session) that keep every session's rows apart.
 */
#ifndef SCT_CLICKHOUSE_H
#define SCT_CLICKHOUSE_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "outbuf.h"
#include "sct.h"

#define CH_ID_LEN 32           /* a recording id: 32 lowercase hex digits */
#define CH_WALL "wall_ns"      /* the column of a record's wall-clock time (ns since the epoch) */

struct ch_ddl {
	const char *db;       /* database of the tables queries use ("sct") */
	const char *cluster;  /* NULL: plain MergeTree tables in db; else Distributed ones in db */
	const char *local_db; /* with a cluster: the database of each server's MergeTree tables */
};

/*
 * How a row's values are written: the INSERT's FORMAT name, what goes between two values and
 * after a row, and each ClickHouse type's encoding. ch_tsv: TabSeparated text; ch_rowbinary:
 * RowBinary, the bytes ClickHouse keeps in memory (integers little-endian of the column's
 * width, strings and arrays after their LEB128 length).
 */
struct ch_enc {
	const char *format;
	char sep;            /* '\0': nothing between values */
	const char *row_end;
	void (*str)(struct out *o, const void *p, size_t len);
	/* An integer column of width bytes (1, 2, 4, 8); sint: v is an int64_t's bits. */
	void (*num)(struct out *o, uint64_t v, unsigned width, bool sint);
	/* FixedString(len) of len bytes. */
	void (*fixed)(struct out *o, const void *p, size_t len);
	/* Array(UInt64). */
	void (*u64s)(struct out *o, const uint64_t *v, size_t n);
	/* Array(String) of the lines of text (joined by '\n'; none if len is 0). */
	void (*lines)(struct out *o, const char *text, size_t len);
};
extern const struct ch_enc ch_tsv, ch_rowbinary;
/*
 * ch_rowbinary's integer, inline: a row is mostly integers. All 8 bytes of the little-endian
 * value are stored and width of them kept: the low bytes of any width come first.
 */
static inline void ch_rb_int(struct out *o, uint64_t v, unsigned width)
{
	char *p = o->cap - o->len >= 8 ? o->buf + o->len : out_reserve(o, 8);

	v = htole64(v);
	memcpy(p, &v, 8);
	o->len += width;
}
/* ch_rowbinary's str, u64s and lines. */
void ch_rb_str(struct out *o, const void *p, size_t len);
void ch_rb_u64s(struct out *o, const uint64_t *v, size_t n);
void ch_rb_lines(struct out *o, const char *text, size_t len);
/* Array(String) of the strings of text joined by sep (none if len is 0), in RowBinary. */
void ch_rb_strings(struct out *o, const char *text, size_t len, char sep);

/* Bytes of a schema field's ClickHouse integer: the built-in struct member's, else 8. */
unsigned ch_field_width(const char *type, const char *field, uint32_t kind);
/* ClickHouse type of a schema field: String, or the integer of ch_field_width(). */
const char *ch_field_type(const char *type, const char *field, uint32_t kind);
/* One TabSeparated string: '\\', TAB, LF, CR and NUL escaped, every other byte as it is. */
void ch_string(struct out *o, const void *p, size_t len);
/* ch_tsv's lines: ['LINE','LINE'], each quoted as ClickHouse reads a string in an array. */
void ch_tsv_lines(struct out *o, const char *text, size_t len);
/* The same of the strings of text joined by sep. */
void ch_tsv_strings(struct out *o, const char *text, size_t len, char sep);
/* A name from a file as an SQL identifier: as it is if plain, else `quoted` (control bytes as
 * \xNN, which ClickHouse reads back). */
void ch_ident(struct out *o, const char *name);
/*
 * The recording id and file sequence of a session's rows: its HEADER's, or for a HEADER
 * without them one derived from the HEADER (sequence 0). Returns true when derived.
 */
bool ch_identity(const struct sct_session *s, char id[CH_ID_LEN + 1], uint64_t *sequence);
/* host, recording, sequence, session: the first columns of every row of the session. */
void ch_prefix(struct out *o, const struct ch_enc *e, const struct sct_session *s);
/* INSERT INTO db.sessions (its columns) FORMAT e's, LF-terminated. */
void ch_session_insert(struct out *o, const struct ch_enc *e, const char *db);
/* The session's row of sct.sessions. */
void ch_session_row(struct out *o, const struct ch_enc *e, const struct sct_session *s);
/* CREATE DATABASE and the tables sessions and files. */
void ch_ddl_begin(struct out *o, const struct ch_ddl *d);
/*
 * One record type's table: the identity columns, then n columns of these names and types.
 * Ordered by host, cgroup and time; a table without a cgroup but with stack_id (the stacks)
 * by its file's identity and stack_id, the key calls join it on; else by host and time.
 */
void ch_ddl_table(struct out *o, const struct ch_ddl *d, const char *table, const char *const *names,
		  const char *const *types, uint32_t n);

#endif
