// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert's columns: the format's leading ones, the fields the HEADER's schema names for
 * the type, the derived columns beside them, then the names resolved from other records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "json_string.h"
#include "outbuf.h"

/* Formats with beside: derived columns beside the field they are read from. */
#define COL_WALL_TIME "wall_time" /* time_ns on the wall clock, ISO 8601 UTC */
#define COL_ERRNO_NAME "errno"    /* ret's errno name when the call failed */

/* The JSON key of a column and its head in a row, rendered once rather than per row. */
static int convert_jkey(const struct convert *cv, struct column *col)
{
	size_t len = strlen(col->name);
	struct out key, head;

	if (out_open_mem(&key, len * 6 + 8))
		return -ENOMEM;
	if (out_open_mem(&head, len * 6 + 9 > COL_HEAD_COPY ? len * 6 + 9 : COL_HEAD_COPY)) {
		free(key.buf);
		return -ENOMEM;
	}
	json_string(&key, col->name, len);
	out_char(&key, ':');
	if (cv->fmt->sep)
		out_char(&head, cv->fmt->sep);
	if (cv->fmt->keyed)
		out_mem(&head, key.buf, key.len);
	if (key.err || head.err) {
		free(key.buf);
		free(head.buf);
		return key.err ? key.err : head.err;
	}
	memset(head.buf + head.len, 0, head.cap - head.len);
	col->jkey = key.buf;
	col->jkeylen = key.len;
	col->head = head.buf;
	col->headlen = head.len;
	return 0;
}

void convert_free_cols(struct convert *cv)
{
	for (uint32_t i = 0; i < cv->ncols; i++) {
		free(cv->cols[i].name);
		free(cv->cols[i].field);
		free(cv->cols[i].jkey);
		free(cv->cols[i].head);
	}
	cv->ncols = 0;
}

static int convert_add_col(struct convert *cv, const char *name, enum col_src src)
{
	struct column *col = &cv->cols[cv->ncols];

	col->name = strdup(name);
	if (!col->name || convert_jkey(cv, col)) {
		free(col->name);
		return -ENOMEM;
	}
	col->src = src;
	col->kind = SCT_KIND_UINT;
	col->idx = -1;
	col->slot = NULL;
	col->field = NULL;
	cv->ncols++;
	return 0;
}

static bool convert_has_col(const struct convert *cv, const char *name)
{
	for (uint32_t i = 0; i < cv->ncols; i++)
		if (!strcmp(cv->cols[i].name, name))
			return true;
	return false;
}

/* One column per field of ev (one event, a format with event_columns); a name already taken becomes field_NAME. */
static int convert_event_cols(struct convert *cv, const struct sct_event_desc *ev)
{
	for (uint32_t k = 0; ev && k < ev->nfields; k++) {
		const char *name = ev->fields[k].name;
		char *alt = NULL;
		int err;

		if (convert_has_col(cv, name) && asprintf(&alt, "field_%s", name) < 0)
			return -ENOMEM;
		err = convert_add_col(cv, alt ? alt : name, COL_EVFIELD);
		free(alt);
		if (err)
			return err;
		cv->cols[cv->ncols - 1].field = strdup(name);
		if (!cv->cols[cv->ncols - 1].field)
			return -ENOMEM;
	}
	return 0;
}

/*
 * stack_id (and, with stack_text, stack): in the rows of a format that writes stacks, when
 * the session the columns come from has "stacks" (format 1.6); so the outputs of traces
 * without stacks are what they were before format 1.6, and load into tables made before it.
 */
static bool convert_stack_cols(const struct convert *cv)
{
	return cv->stack_cols && (cv->fmt->stack_text || cv->fmt->stack_table);
}

/*
 * SYSCALL's captured argument memory (format 1.7: the built-in fields after stack_id) has
 * columns in a format that shows it as text, when the session the columns come from captured
 * it; so the outputs of every other trace are what they were before format 1.7, and the
 * ClickHouse tables have no such columns.
 */
static bool convert_capture_cols(const struct convert *cv)
{
	return cv->capture_cols && cv->fmt->capture_text;
}

static bool convert_capture_field(const char *name)
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);
	bool after_stack = false;

	for (uint32_t i = 0; i < all->nfields; i++) {
		if (!strcmp(all->fields[i].name, name))
			return after_stack;
		after_stack |= !strcmp(all->fields[i].name, "stack_id");
	}
	return false;
}

/* A SYSCALL field's column: the captured bytes (addr, argv, data) as text, the others as they are. */
static enum col_src convert_field_src(const char *name)
{
	if (!convert_capture_field(name))
		return COL_FIELD;
	return !strcmp(name, "addr") ? COL_ADDR :
	       !strcmp(name, "argv") ? COL_ARGV :
	       !strcmp(name, "data") ? COL_DATA : COL_FIELD;
}

/* A STACK's frames in a stack_table format: their text, then the folded line after them. */
static int convert_frames_cols(struct convert *cv)
{
	int err = convert_add_col(cv, "frames", COL_FRAMES);

	return err ? err : convert_add_col(cv, "folded", COL_FOLDED);
}

/*
 * SYSCALL rows have the argument columns (format 1.3, path2's 1.4) whatever the first session
 * recorded: empty (null) for a session without them.
 */
static int convert_syscall_cols(struct convert *cv, const struct sct_type_schema *ts)
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);
	int err = 0;

	for (uint32_t i = 0; !err && i < all->nfields; i++) {
		bool have = false;

		for (uint32_t k = 0; ts && k < ts->nfields && !have; k++)
			have = !strcmp(ts->fields[k].name, all->fields[i].name);
		if ((!convert_stack_cols(cv) && !strcmp(all->fields[i].name, "stack_id")) ||
		    (!convert_capture_cols(cv) && convert_capture_field(all->fields[i].name)))
			continue;
		if (!have)
			err = convert_add_col(cv, all->fields[i].name, COL_FIELD);
		if (!have && !err)
			cv->cols[cv->ncols - 1].kind = all->fields[i].kind;
	}
	return err;
}

static bool convert_schema_has(const struct sct_type_schema *ts, const char *name)
{
	for (uint32_t i = 0; i < ts->nfields; i++)
		if (!strcmp(ts->fields[i].name, name))
			return true;
	return false;
}

/*
 * Formats with beside: wall_time after time_ns (every type has it), errno after a SYSCALL's ret, so
 * that a table loaded from them needs no anchor or errno table; unless a newer schema has a
 * field of that name.
 */
static int convert_derived_col(struct convert *cv, const struct sct_type_schema *ts, const char *field)
{
	if (!strcmp(field, "time_ns") && !convert_schema_has(ts, COL_WALL_TIME))
		return convert_add_col(cv, COL_WALL_TIME, COL_WALL);
	if (cv->type == SCT_REC_SYSCALL && !strcmp(field, "ret") && !convert_schema_has(ts, COL_ERRNO_NAME))
		return convert_add_col(cv, COL_ERRNO_NAME, COL_ERRNO);
	return 0;
}

/*
 * Columns come from the first session's schema (or the built-in one without any input); for
 * samples, ev is the event whose fields get a column each (cv->per_field), else NULL.
 */
int convert_columns(struct convert *cv, const struct sct_type_schema *ts, const struct sct_event_desc *ev)
{
	static const struct { uint32_t type; const char *name; enum col_src src; } extras[] = {
		{ SCT_REC_SYSCALL, "name", COL_NAME },      { SCT_REC_SYSCALL, "comm", COL_COMM },
		{ SCT_REC_SYSCALL, "cgroup_path", COL_CGROUP }, { SCT_REC_SYSCALL, "args", COL_ARGS },
		{ SCT_REC_TASK, "cgroup_path", COL_CGROUP },
		{ SCT_REC_FORK, "parent_comm", COL_PARENT_COMM }, { SCT_REC_EXIT, "comm", COL_COMM },
		{ SCT_REC_TOTALS, "name", COL_NAME },       { SCT_REC_TOTALS, "comm", COL_COMM },
		{ SCT_REC_TOTALS, "cgroup_path", COL_CGROUP },
	};
	int err = 0;

	cv->nprefix = cv->fmt->nprefix;
	for (uint32_t i = 0; !err && i < cv->nprefix; i++)
		err = convert_add_col(cv, cv->fmt->prefix_cols[i], i ? COL_HOST : COL_SESSION);
	for (uint32_t i = 0; !err && ts && i < ts->nfields && i < SCT_MAX_FIELDS; i++) {
		const char *name = ts->fields[i].name;

		if (cv->type == SCT_REC_SYSCALL && ((!convert_stack_cols(cv) && !strcmp(name, "stack_id")) ||
						    (!convert_capture_cols(cv) && convert_capture_field(name))))
			continue;
		if (cv->type == SCT_REC_STACK && cv->fmt->stack_table && !strcmp(name, "frames")) {
			err = convert_frames_cols(cv);
		} else if (cv->type == SCT_REC_SYSCALL && convert_field_src(name) != COL_FIELD) {
			err = convert_add_col(cv, name, convert_field_src(name));
		} else if (cv->totals && !strcmp(name, "hist")) {
			err = convert_add_col(cv, "hist_ns", COL_HIST_NS);
			if (!err)
				err = convert_add_col(cv, "hist_calls", COL_HIST_CALLS);
		} else if (!cv->sample || (strcmp(name, "event") && strcmp(name, "payload"))) {
			err = convert_add_col(cv, name, COL_FIELD);
			if (!err)
				cv->cols[cv->ncols - 1].kind = ts->fields[i].kind;
		} else if (!strcmp(name, "event")) {
			err = convert_add_col(cv, name, COL_EVENT);
		}
		if (!err && cv->fmt->beside)
			err = convert_derived_col(cv, ts, name);
	}
	if (!err && cv->fmt->wall_col && convert_has_col(cv, "time_ns"))
		err = convert_add_col(cv, cv->fmt->wall_col, COL_WALL);
	if (!err && cv->type == SCT_REC_SYSCALL && cv->fmt->every_syscall_col)
		err = convert_syscall_cols(cv, ts);
	for (size_t i = 0; !err && i < sizeof(extras) / sizeof(extras[0]); i++)
		if (extras[i].type == cv->type && (cv->type != SCT_REC_TOTALS || cv->totals))
			err = convert_add_col(cv, extras[i].name, extras[i].src);
	if (!err && cv->type == SCT_REC_SYSCALL && convert_stack_cols(cv) && cv->fmt->stack_text)
		err = convert_add_col(cv, "stack", COL_STACK);
	if (!err && cv->sample)
		err = cv->per_field ? convert_event_cols(cv, ev) : convert_add_col(cv, "fields", COL_FIELDS);
	return err;
}
