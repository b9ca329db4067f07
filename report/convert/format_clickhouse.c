// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to clickhouse: 'INSERT INTO DB.TYPE (columns) FORMAT TabSeparated' and the
 * rows, for clickhouse-client or ClickHouse's HTTP interface; with --clickhouse-format
 * rowbinary the same INSERT with FORMAT RowBinary and the rows in it (format_rowbinary);
 * --schema clickhouse: the CREATE statements (clickhouse.c writes the SQL of all three).
 * Both formats write the same columns, in the types the CREATE statements give them, through
 * one struct ch_enc each. Every row starts with the identity columns (host, recording,
 * sequence, session) that keep each session's rows apart, so rows of blocks without a
 * HEADER are not written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"
#include "convert.h"
#include "outbuf.h"
#include "samples.h"
#include "sessions.h"

static const char *const ch_prefix_cols[] = { "host", "recording", "sequence", "session" };

static const struct ch_enc *ch_enc_of(const struct convert *cv)
{
	return cv->fmt == &format_rowbinary ? &ch_rowbinary : &ch_tsv;
}

static void ch_fmt_prefix(const struct convert *cv, struct out *p, const struct live *lv)
{
	if (lv->session)
		ch_prefix(p, ch_enc_of(cv), lv->session);
}

/*
 * The INSERT goes before the first row, and without rows nothing is written (ClickHouse
 * refuses an INSERT without data). It names its columns: a table with columns a file lacks
 * (an older minor version) fills them with defaults, and a file with fields the table lacks
 * (a newer one) is refused naming the column, never loaded shifted.
 */
static void ch_fmt_row_begin(struct convert *cv)
{
	if (cv->insert_table)
		return;
	cv->insert_table = cv->table;
	out_printf(&cv->o, "INSERT INTO %s.", cv->ddl.db);
	ch_ident(&cv->o, cv->table);
	for (uint32_t i = 0; i < cv->ncols; i++) {
		out_str(&cv->o, i ? ", " : " (");
		ch_ident(&cv->o, cv->cols[i].name);
	}
	out_printf(&cv->o, ") FORMAT %s\n", ch_enc_of(cv)->format);
}

/* ns since the epoch, 0 if the session lacks time_ns. */
static void ch_fmt_wall(struct convert *cv, const struct sess *s, uint64_t time_ns, bool have)
{
	uint64_t wall = have && time_ns ? sess_wall(s, time_ns) : 0;

	if (cv->fmt->binary)
		ch_rb_int(&cv->o, wall, 8);
	else
		out_u64(&cv->o, wall);
}

/*
 * A sample's fields as one JSON text in a TabSeparated string, escaped as it streams through
 * the scratch: an event of 256 fields over a 64 KiB payload makes ~100 MB of it.
 */
static void ch_fmt_fields(struct convert *cv, const struct sct_event_desc *ev, struct sct_bytes payload)
{
	struct out f = { .buf = cv->scratch.buf, .cap = cv->scratch.cap, .fd = -1, .put = ch_string, .to = &cv->o };

	sample_json_fields(&f, ev, payload);
	out_flush(&f);
}

/* RowBinary: a string's length goes first, so the JSON text is made whole before it. */
static void rb_fmt_fields(struct convert *cv, const struct sct_event_desc *ev, struct sct_bytes payload)
{
	cv->scratch.len = 0;
	sample_json_fields(&cv->scratch, ev, payload);
	ch_rowbinary.str(&cv->o, cv->scratch.buf, cv->scratch.len);
}

static void ch_fmt_session_row(struct convert *cv, const struct sct_session *s)
{
	if (!cv->insert_table)
		ch_session_insert(&cv->o, ch_enc_of(cv), cv->ddl.db);
	cv->insert_table = "sessions";
	ch_session_row(&cv->o, ch_enc_of(cv), s);
}

/*
 * The ClickHouse type of a column, as --schema writes it and the rows are encoded: a
 * field's by ch_field_type(), the wall clock UInt64, the histogram's Array(UInt64), a
 * stack's frames and exec's arguments Array(String), and the names, the folded stack, the
 * peer and the escaped data String.
 */
static const char *ch_col_type(const char *table, const struct column *col)
{
	return col->src == COL_FIELD ? ch_field_type(table, col->name, col->kind) :
	       col->src == COL_WALL ? "UInt64" :
	       col->src == COL_HIST_NS || col->src == COL_HIST_CALLS ? "Array(UInt64)" :
	       col->src == COL_FRAMES || col->src == COL_ARGV ? "Array(String)" : "String";
}

/* The integer width of every column, for RowBinary (0: not an integer). */
static void rb_fmt_begin(struct convert *cv)
{
	for (uint32_t i = 0; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];
		const char *type = ch_col_type(cv->table, col);

		col->width = strncmp(type, "Int", 3) && strncmp(type, "UInt", 4) ? 0 :
			     col->src == COL_FIELD ? (uint8_t)ch_field_width(cv->table, col->name, col->kind) : 8;
	}
}

/*
 * A number of the column's type. A value whose kind is not the column's (a later session
 * whose schema types a field otherwise) is the column's: a number in a String column its
 * decimal text, as TabSeparated would have it; RowBinary has no way to refuse a value.
 */
static void rb_fmt_num(struct out *o, const struct column *col, uint64_t v, bool sint)
{
	char text[24];

	if (col->width) {
		ch_rb_int(o, v, col->width);
		return;
	}
	if (sint)
		snprintf(text, sizeof(text), "%lld", (long long)v);
	else
		snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	ch_rowbinary.str(o, text, strlen(text));
}

/* exec's arguments, each followed by a NUL: the strings between them. */
static void ch_fmt_argv(struct out *o, const uint8_t *p, size_t len)
{
	ch_tsv_strings(o, (const char *)p, len ? len - 1 : 0, '\0');
}

static void rb_fmt_argv(struct out *o, const uint8_t *p, size_t len)
{
	ch_rb_strings(o, (const char *)p, len ? len - 1 : 0, '\0');
}

/*
 * The DDL of sessions, files and every type the built-in schema knows, with the columns of
 * stacks (format 1.6) and captured argument memory (1.7): files without them load their
 * rows with stack_id 0, no address, no arguments and no data.
 */
static int ch_fmt_schema(struct convert *cv)
{
	int err = 0;

	ch_ddl_begin(&cv->o, &cv->ddl);
	cv->stack_cols = true;
	cv->capture_cols = true;
	for (uint32_t t = 1; t <= SCT_REC_MAX && !err; t++) {
		const struct sct_type_schema *ts = sct_schema_builtin(t);
		const char *names[SCT_MAX_FIELDS + 8], *types[SCT_MAX_FIELDS + 8];
		uint32_t n = 0;

		cv->type = t;
		cv->sample = t == SCT_REC_SAMPLE;
		cv->totals = t == SCT_REC_TOTALS;
		err = ts ? convert_columns(cv, ts, NULL) : 0;
		for (uint32_t i = cv->nprefix; i < cv->ncols && !err; i++, n++) {
			const struct column *col = &cv->cols[i];

			names[n] = col->name;
			types[n] = ch_col_type(ts->name, col);
		}
		if (!err && ts)
			ch_ddl_table(&cv->o, &cv->ddl, ts->name, names, types, n);
		convert_free_cols(cv);
	}
	return err;
}

const struct convert_format format_clickhouse = {
	.name = "clickhouse",
	.prefix_cols = ch_prefix_cols,
	.nprefix = 4,
	.sep = '\t',
	.row_end = "\n",
	/* ClickHouse columns are not Nullable: a value a session lacks is 0 or '' */
	.null = "",
	.null_number = "0",
	.needs_header = true,
	.databases = true,
	.stack_table = true,
	.capture_text = true,
	/* ClickHouse orders and partitions by wall-clock time, comparable across hosts */
	.wall_col = CH_WALL,
	.str = ch_string,
	.lines = ch_tsv_lines,
	.argv = ch_fmt_argv,
	.prefix = ch_fmt_prefix,
	.row_begin = ch_fmt_row_begin,
	.wall = ch_fmt_wall,
	.fields = ch_fmt_fields,
	.session_row = ch_fmt_session_row,
	.schema = ch_fmt_schema,
};

/* --to clickhouse --clickhouse-format rowbinary: the same columns, each in its type's bytes. */
const struct convert_format format_rowbinary = {
	.name = "clickhouse",
	.prefix_cols = ch_prefix_cols,
	.nprefix = 4,
	.row_end = "",
	.binary = true,
	.needs_header = true,
	.databases = true,
	.stack_table = true,
	.capture_text = true,
	.wall_col = CH_WALL,
	.str = ch_rb_str,
	.num = rb_fmt_num,
	.u64s = ch_rb_u64s,
	.lines = ch_rb_lines,
	.argv = rb_fmt_argv,
	.prefix = ch_fmt_prefix,
	.begin = rb_fmt_begin,
	.row_begin = ch_fmt_row_begin,
	.wall = ch_fmt_wall,
	.fields = rb_fmt_fields,
	.session_row = ch_fmt_session_row,
	.schema = ch_fmt_schema,
};
