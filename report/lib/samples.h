/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A tracepoint sample's fields (samples.c), decoded by the HEADER's event table
 * (sct_sample_field()): integers as numbers, strings as strings, other arrays as arrays of
 * numbers, and a field whose data lies outside the payload as an error marker, never its bytes.
 */
#ifndef SCT_SAMPLES_H
#define SCT_SAMPLES_H

#include <stddef.h>

#include "outbuf.h"
#include "sct.h"

/* Bytes a field's JSON text takes at most (a 64 KiB payload as \u00XX escapes): the first
 * size of a scratch, which then never grows for one field. */
#define SAMPLE_JSON_MAX (512u << 10)
/* JSON value of one field. */
void sample_json_value(struct out *o, const struct sct_event_field *f, struct sct_bytes payload);
/* JSON object of every field: {"name":value,...}. */
void sample_json_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload);
/* The same object as one CSV field; scratch: a memory out (out_open_mem()). */
void sample_csv_fields(struct out *o, struct out *scratch, const struct sct_event_desc *ev,
		       struct sct_bytes payload);
/* One field as a CSV field: numbers, strings as their bytes, arrays and errors as JSON. */
void sample_csv_value(struct out *o, struct out *scratch, const struct sct_event_field *f,
		      struct sct_bytes payload);
/* " name=value ..." for the timeline, common_* fields left out, escaped, at most max bytes. */
void sample_text_fields(struct out *o, const struct sct_event_desc *ev, struct sct_bytes payload,
			size_t max);

#endif
