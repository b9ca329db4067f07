// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tracepoint sample fields as text (see report.h): JSON for sct-convert, name=value for the
 * timeline. libsct decodes each field and never hands out bytes outside the payload; this
 * file only chooses how a value reads.
 */
#include <string.h>

#include "report.h"

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

void sample_json_value(struct out *o, const struct sct_event_field *f, struct sct_bytes payload)
{
	struct sct_sample_value v;

	switch (sct_sample_field(f, payload, &v)) {
	case SCT_SAMPLE_INT:
		sample_number(o, v.u, v.is_signed);
		break;
	case SCT_SAMPLE_STRING:
		json_string(o, v.bytes.ptr, v.bytes.len);
		break;
	case SCT_SAMPLE_ARRAY:
		sample_json_array(o, &v, UINT32_MAX);
		break;
	default:
		out_str(o, SAMPLE_ERROR_JSON);
	}
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
	struct sct_sample_value v;

	switch (sct_sample_field(f, payload, &v)) {
	case SCT_SAMPLE_INT:
		sample_number(o, v.u, v.is_signed);
		break;
	case SCT_SAMPLE_STRING:
		csv_bytes(o, v.bytes.ptr, v.bytes.len);
		break;
	default:
		scratch->len = 0;
		sample_json_value(scratch, f, payload);
		csv_bytes(o, scratch->buf, scratch->len);
	}
}

static void sample_text_value(struct out *o, const struct sct_event_field *f, struct sct_bytes payload)
{
	struct sct_sample_value v;

	switch (sct_sample_field(f, payload, &v)) {
	case SCT_SAMPLE_INT:
		sample_number(o, v.u, v.is_signed);
		break;
	case SCT_SAMPLE_STRING:
		out_char(o, '"');
		names_out_escaped(o, v.bytes.ptr, v.bytes.len);
		out_char(o, '"');
		break;
	case SCT_SAMPLE_ARRAY:
		sample_json_array(o, &v, TIMELINE_ELEMS);
		break;
	default:
		out_str(o, "<out of range>");
	}
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
		sample_text_value(o, f, payload);
	}
}
