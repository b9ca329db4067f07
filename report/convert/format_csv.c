// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to csv: RFC 4180, a header row, CRLF; bytes as they are, quoted when they
 * hold , " CR or LF. A value a row lacks is an empty field.
 */
#include <string.h>

#include "convert.h"
#include "csv_field.h"
#include "names.h"
#include "outbuf.h"
#include "samples.h"
#include "sessions.h"
#include "strtab.h"

static const char *const csv_prefix_cols[] = { "session", "host" };

/* Blocks without a HEADER: no session number, no host (empty fields). */
static void csv_prefix(const struct convert *cv, struct out *p, const struct live *lv)
{
	const struct sess *s = &lv->s;

	if (!s->headless)
		out_u64(p, s->number);
	out_char(p, ',');
	if (!s->headless)
		csv_bytes(p, strtab_get(cv->c.strs, s->host), strtab_len(cv->c.strs, s->host));
}

static void csv_begin(struct convert *cv)
{
	for (uint32_t i = 0; i < cv->ncols; i++) {
		if (i)
			out_char(&cv->o, ',');
		csv_bytes(&cv->o, cv->cols[i].name, strlen(cv->cols[i].name));
	}
	out_mem(&cv->o, "\r\n", 2);
}

/* ISO 8601 UTC; empty where no HEADER gives an anchor or the session lacks time_ns. */
static void csv_wall(struct convert *cv, const struct sess *s, uint64_t time_ns, bool have)
{
	if (have && !s->headless)
		names_out_iso(&cv->o, sess_wall(s, time_ns), &cv->wall_last);
}

static void csv_fields(struct convert *cv, const struct sct_event_desc *ev, struct sct_bytes payload)
{
	sample_csv_fields(&cv->o, &cv->scratch, ev, payload);
}

static void csv_event_field(struct convert *cv, const struct sct_event_field *f, struct sct_bytes payload)
{
	sample_csv_value(&cv->o, &cv->scratch, f, payload);
}

const struct convert_format format_csv = {
	.name = "csv",
	.prefix_cols = csv_prefix_cols,
	.nprefix = 2,
	.sep = ',',
	.row_end = "\r\n",
	.null = "",
	.null_number = "",
	.beside = true,
	.every_syscall_col = true,
	.event_columns = true,
	.stack_text = true,
	.capture_text = true,
	.str = csv_bytes,
	.array = csv_bytes,
	.prefix = csv_prefix,
	.begin = csv_begin,
	.wall = csv_wall,
	.fields = csv_fields,
	.event_field = csv_event_field,
};
