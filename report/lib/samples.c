// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tracepoint sample fields as text (see samples.h): JSON for sct-convert, name=value for the
 * timeline. libsct decodes each field and never hands out bytes outside the payload; this
 * file only chooses how a value reads.
 */
#include <string.h>

#include "csv_field.h"
#include "json_string.h"
#include "names.h"
#include "outbuf.h"
#include "samples.h"

#define SAMPLE_ERROR_JSON "{\"error\":\"out of range\"}"
#define TIMELINE_ELEMS 16u /* array elements the timeline shows before "..." */

static void sample_number(struct out *o, uint64_t v, bool is_signed)
{
	if (is_signed)
		out_i64(o, (int64_t)v);
	else
		out_u64(o, v);
}

static void sample_json_array(struct out *o, const struct sct_sample_value *v, uint32_t max)
{
	uint32_t n = v->bytes.len / v->elem;

	out_char(o, '[');
	for (uint32_t i = 0; i < n && i < max; i++) {
		if (i)
			out_char(o, ',');
		sample_number(o, sct_sample_elem(v, i), v->is_signed);
	}
	if (n > max)
		out_str(o, ",...");
	out_char(o, ']');
}

/* How a value reads: in JSON, in a CSV field, or on a timeline line. */
enum sample_style { STYLE_JSON, STYLE_CSV, STYLE_TEXT };

static void sample_value(struct out *o, struct out *scratch, const struct sct_event_field *f,
			 struct sct_bytes payload, enum sample_style style)
{
	struct sct_sample_value v;
	uint32_t kind = sct_sample_field(f, payload, &v);

	if (kind == SCT_SAMPLE_INT) {
		sample_number(o, v.u, v.is_signed);
	} else if (kind == SCT_SAMPLE_STRING && style == STYLE_JSON) {
		json_string(o, v.bytes.ptr, v.bytes.len);
	} else if (kind == SCT_SAMPLE_STRING && style == STYLE_CSV) {
		csv_bytes(o, v.bytes.ptr, v.bytes.len);
	} else if (kind == SCT_SAMPLE_STRING) {
		out_char(o, '"');
		names_out_escaped(o, v.bytes.ptr, v.bytes.len);
		out_char(o, '"');
	} else if (style == STYLE_CSV) {
		/* arrays and errors: their JSON text as one CSV field */
		scratch->len = 0;
		sample_value(scratch, NULL, f, payload, STYLE_JSON);
		csv_bytes(o, scratch->buf, scratch->len);
	} else if (kind == SCT_SAMPLE_ARRAY) {
		sample_json_array(o, &v, style == STYLE_TEXT ? TIMELINE_ELEMS : UINT32_MAX);
	} else {
		out_str(o, style == STYLE_TEXT ? "<out of range>" : SAMPLE_ERROR_JSON);
	}
}

void sample_json_value(struct out *o, const struct sct_event_field *f, struct sct_bytes payload)
{
	sample_value(o, NULL, f, payload, STYLE_JSON);
}

static void sample_json_member(struct out *o, const struct sct_event_field *f, struct sct_bytes payload)
{
	json_string(o, f->name, strlen(f->name));
	out_char(o, ':');
	sample_json_value(o, f, payload);
}

void sample_json_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload)
{
	out_char(o, '{');
	for (uint32_t k = 0; k < ev->nfields; k++) {
		if (k)
			out_char(o, ',');
		sample_json_member(o, &ev->fields[k], payload);
	}
	out_char(o, '}');
}

/* A field's JSON at a time, so the scratch holds one field whatever the event's size. */
void sample_csv_fields(struct out *o, struct out *scratch, const struct sct_event_desc *ev,
		       struct sct_bytes payload)
{
	out_mem(o, "\"{", 2);
	for (uint32_t k = 0; k < ev->nfields; k++) {
		scratch->len = 0;
		if (k)
			out_char(scratch, ',');
		sample_json_member(scratch, &ev->fields[k], payload);
		csv_quoted_part(o, scratch->buf, scratch->len);
	}
	out_mem(o, "}\"", 2);
}

void sample_csv_value(struct out *o, struct out *scratch, const struct sct_event_field *f,
		      struct sct_bytes payload)
{
	sample_value(o, scratch, f, payload, STYLE_CSV);
}

void sample_text_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload,
			size_t max)
{
	size_t start = o->len;

	for (uint32_t k = 0; k < ev->nfields; k++) {
		const struct sct_event_field *f = &ev->fields[k];

		/* what every event carries, and the line already shows */
		if (!strncmp(f->name, "common_", 7))
			continue;
		if (o->len - start > max) {
			out_str(o, " ...");
			return;
		}
		out_char(o, ' ');
		names_out_escaped(o, f->name, strlen(f->name));
		out_char(o, '=');
		sample_value(o, NULL, f, payload, STYLE_TEXT);
	}
}
