// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to clickhouse: 'INSERT INTO DB.TYPE (columns) FORMAT TabSeparated' and the
 * rows, for clickhouse-client or ClickHouse's HTTP interface; --schema clickhouse: the
 * CREATE statements (clickhouse.c writes the SQL of both). Every row starts with the
 * identity columns (host, recording, sequence, session) that keep each session's rows
 * apart, so rows of blocks without a HEADER are not written.
 */
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"
#include "convert.h"
#include "outbuf.h"
#include "samples.h"
#include "sessions.h"

static const char *const ch_prefix_cols[] = { "host", "recording", "sequence", "session" };

static void ch_fmt_prefix(const struct convert *cv, struct out *p, const struct live *lv)
{
	(void)cv;
	if (lv->session)
		ch_prefix(p, lv->session);
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
	out_str(&cv->o, ") FORMAT TabSeparated\n");
}

/* ns since the epoch, 0 if the session lacks time_ns. */
static void ch_fmt_wall(struct convert *cv, const struct sess *s, uint64_t time_ns, bool have)
{
	out_u64(&cv->o, have && time_ns ? sess_wall(s, time_ns) : 0);
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

static void ch_fmt_session_row(struct convert *cv, const struct sct_session *s)
{
	if (!cv->insert_table)
		ch_session_insert(&cv->o, cv->ddl.db);
	cv->insert_table = "sessions";
	ch_session_row(&cv->o, s);
}

/* The DDL of sessions, files and every type the built-in schema knows. */
static int ch_fmt_schema(struct convert *cv)
{
	int err = 0;

	ch_ddl_begin(&cv->o, &cv->ddl);
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
			types[n] = col->src == COL_FIELD ? ch_field_type(ts->name, col->name, col->kind) :
				   col->src == COL_WALL ? "UInt64" :
				   col->src == COL_HIST_NS || col->src == COL_HIST_CALLS ? "Array(UInt64)" : "String";
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
	/* ClickHouse orders and partitions by wall-clock time, comparable across hosts */
	.wall_col = CH_WALL,
	.str = ch_string,
	.prefix = ch_fmt_prefix,
	.row_begin = ch_fmt_row_begin,
	.wall = ch_fmt_wall,
	.fields = ch_fmt_fields,
	.session_row = ch_fmt_session_row,
	.schema = ch_fmt_schema,
};
