// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to jsonl: JSON Lines, one object per row; valid UTF-8 as is, control
 * characters escaped, each other byte as \u00XX of its value. A value a row lacks is null.
 */
#include "convert.h"
#include "json_string.h"
#include "names.h"
#include "outbuf.h"
#include "samples.h"
#include "sessions.h"
#include "strtab.h"

static const char *const jsonl_prefix_cols[] = { "session", "host" };

/* Blocks without a HEADER: no session number, no host (null). */
static void jsonl_prefix(const struct convert *cv, struct out *p, const struct live *lv)
{
	const struct sess *s = &lv->s;

	out_char(p, '{');
	out_mem(p, cv->cols[0].jkey, cv->cols[0].jkeylen);
	if (!s->headless)
		out_u64(p, s->number);
	else
		out_str(p, "null");
	out_char(p, ',');
	out_mem(p, cv->cols[1].jkey, cv->cols[1].jkeylen);
	if (!s->headless)
		json_string(p, strtab_get(cv->c.strs, s->host), strtab_len(cv->c.strs, s->host));
	else
		out_str(p, "null");
}

/* ISO 8601 UTC, null where no HEADER gives an anchor or the session lacks time_ns. The ISO
 * text holds no byte JSON escapes: quoted as it is. */
static void jsonl_wall(struct convert *cv, const struct sess *s, uint64_t time_ns, bool have)
{
	if (!have || s->headless) {
		out_str(&cv->o, "null");
		return;
	}
	out_char(&cv->o, '"');
	names_out_iso(&cv->o, sess_wall(s, time_ns), &cv->wall_last);
	out_char(&cv->o, '"');
}

static void jsonl_fields(struct convert *cv, const struct sct_event_desc *ev, struct sct_bytes payload)
{
	sample_json_fields(&cv->o, ev, payload);
}

const struct convert_format format_jsonl = {
	.name = "jsonl",
	.prefix_cols = jsonl_prefix_cols,
	.nprefix = 2,
	.sep = ',',
	.row_end = "}\n",
	.null = "null",
	.null_number = "null",
	.keyed = true,
	.beside = true,
	.every_syscall_col = true,
	.stack_text = true,
	.capture_text = true,
	.str = json_string,
	.prefix = jsonl_prefix,
	.wall = jsonl_wall,
	.fields = jsonl_fields,
};
