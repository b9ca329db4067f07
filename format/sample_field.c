// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tracepoint fields out of a SAMPLE payload, by the HEADER's description alone
 * (spec/FORMAT.md section 9.1): no tracefs, no table of events compiled in.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"

static uint64_t le_get(const uint8_t *p, uint32_t n, uint8_t is_signed)
{
	uint64_t v = 0;

	for (uint32_t k = 0; k < n; k++)
		v |= (uint64_t)p[k] << (8 * k);
	if (is_signed && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~0ull << (8 * n);
	return v;
}

/* "char comm[16]", "__data_loc char[]": text. "unsigned char" arrays are bytes (addresses). */
static bool is_char(const char *type)
{
	const char *c = strstr(type, "char");

	return c && (c == type || c[-1] == ' ') && (c[4] == ' ' || c[4] == '[' || !c[4]) &&
	       !strstr(type, "unsigned char");
}

/* Elements a fixed array "T name[N]" declares; 0 if the type is no fixed array. */
static uint32_t array_count(const char *type)
{
	const char *b = strrchr(type, '[');
	char *end;
	unsigned long n;

	if (!b || b[1] < '0' || b[1] > '9')
		return 0;
	n = strtoul(b + 1, &end, 10);
	return *end == ']' && n <= 65536 ? (uint32_t)n : 0;
}

static uint32_t string_value(struct sct_sample_value *out, const uint8_t *p, uint32_t len)
{
	const uint8_t *nul = memchr(p, 0, len);

	out->kind = SCT_SAMPLE_STRING;
	out->bytes.ptr = p;
	out->bytes.len = nul ? (uint32_t)(nul - p) : len;
	return out->kind;
}

static uint32_t array_value(struct sct_sample_value *out, const uint8_t *p, uint32_t len,
			    uint32_t elem)
{
	out->kind = SCT_SAMPLE_ARRAY;
	out->elem = elem == 1 || elem == 2 || elem == 4 || elem == 8 ? elem : 1;
	out->bytes.ptr = p;
	out->bytes.len = len - len % out->elem;
	return out->kind;
}

/* A __data_loc (1) or __rel_loc (2) field: a u32 locating the data, offset | length << 16. */
static uint32_t loc_value(const struct sct_event_field *f, struct sct_bytes pl,
			  struct sct_sample_value *out)
{
	uint32_t loc = (uint32_t)le_get(pl.ptr + f->offset, 4, 0);
	uint64_t off = loc & 0xffff, len = loc >> 16;

	if (f->data_loc == 2)
		off += (uint64_t)f->offset + f->size;
	if (off > pl.len || len > pl.len - off) {
		out->kind = SCT_SAMPLE_BAD;
		return out->kind;
	}
	if (is_char(f->type))
		return string_value(out, pl.ptr + off, (uint32_t)len);
	return array_value(out, pl.ptr + off, (uint32_t)len, 1);
}

uint32_t sct_sample_field(const struct sct_event_field *f, struct sct_bytes payload,
			  struct sct_sample_value *out)
{
	const char *type = f->type ? f->type : "";
	uint32_t n;

	memset(out, 0, sizeof(*out));
	out->is_signed = f->is_signed;
	if (!payload.ptr)
		payload.ptr = (const uint8_t *)""; /* an empty payload: no pointer arithmetic on NULL */
	if (f->offset > payload.len || f->size > payload.len - f->offset) {
		out->kind = SCT_SAMPLE_BAD;
		return out->kind;
	}
	if (f->data_loc)
		return f->size == 4 ? loc_value(f, payload, out) : (out->kind = SCT_SAMPLE_BAD);
	n = array_count(type);
	if (n && is_char(type) && f->size == n)
		return string_value(out, payload.ptr + f->offset, f->size);
	if (n || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return array_value(out, payload.ptr + f->offset, f->size,
				   n && f->size % n == 0 ? f->size / n : 1);
	out->kind = SCT_SAMPLE_INT;
	out->u = le_get(payload.ptr + f->offset, f->size, f->is_signed);
	return out->kind;
}

uint64_t sct_sample_elem(const struct sct_sample_value *v, uint32_t i)
{
	return le_get(v->bytes.ptr + (size_t)i * v->elem, v->elem, v->is_signed);
}
