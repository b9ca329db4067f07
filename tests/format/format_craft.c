// SPDX-License-Identifier: BSD-2-Clause
/* Hand-made trace bytes from spec/FORMAT.md (see format_craft.h). */
#include "format_craft.h"

#include <cbor.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "records.def"

static void craft_die(const char *what)
{
	fprintf(stderr, "format_craft: %s\n", what);
	abort();
}

void craft_init(struct craft *c)
{
	memset(c, 0, sizeof(*c));
}

void craft_free(struct craft *c)
{
	free(c->p);
	memset(c, 0, sizeof(*c));
}

void craft_bytes(struct craft *c, const void *p, size_t n)
{
	if (n > c->cap - c->len) {
		size_t cap = c->cap ? c->cap : 256;
		uint8_t *tmp;

		while (cap - c->len < n)
			cap *= 2;
		tmp = realloc(c->p, cap);
		if (!tmp)
			craft_die("out of memory");
		c->p = tmp;
		c->cap = cap;
	}
	if (n)
		memcpy(c->p + c->len, p, n);
	c->len += n;
}

void craft_varint(struct craft *c, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	craft_bytes(c, b, n);
}

void craft_head(struct craft *c, uint8_t major, uint64_t arg)
{
	uint8_t b[9];
	size_t n;

	b[0] = (uint8_t)(major << 5);
	if (arg < 24) {
		b[0] |= (uint8_t)arg;
		n = 1;
	} else if (arg <= UINT8_MAX) {
		b[0] |= 24;
		n = 2;
	} else if (arg <= UINT16_MAX) {
		b[0] |= 25;
		n = 3;
	} else if (arg <= UINT32_MAX) {
		b[0] |= 26;
		n = 5;
	} else {
		b[0] |= 27;
		n = 9;
	}
	for (size_t i = 1; i < n; i++)
		b[i] = (uint8_t)(arg >> (8 * (n - 1 - i)));
	craft_bytes(c, b, n);
}

void craft_label(struct craft *c)
{
	static const uint8_t label[12] = { 0xd9, 0xd9, 0xf8, 0xda, 0x53, 0x43, 0x54, 0x46,
					   0x43, 0x42, 0x4f, 0x52 };

	craft_bytes(c, label, sizeof(label));
}

void craft_frame(struct craft *c, uint64_t type, const void *body, size_t len)
{
	size_t start = c->len;
	uint32_t crc;
	uint8_t check[5];

	craft_head(c, 4, 3);
	craft_head(c, 0, type);
	craft_head(c, 2, len);
	craft_bytes(c, body, len);
	crc = (uint32_t)crc32(0, c->p + start, (uInt)(c->len - start));
	check[0] = 0x1a;
	for (int i = 0; i < 4; i++)
		check[1 + i] = (uint8_t)(crc >> (24 - 8 * i));
	craft_bytes(c, check, sizeof(check));
}

void craft_frame_claim(struct craft *c, uint64_t type, uint64_t claimed, const void *body, size_t len)
{
	craft_head(c, 4, 3);
	craft_head(c, 0, type);
	craft_head(c, 2, claimed);
	craft_bytes(c, body, len);
}

/* ---------------------------------------------------------------- HEADER */

static void map_put(cbor_item_t *map, const char *key, cbor_item_t *value)
{
	if (!value || !cbor_map_add(map, (struct cbor_pair){ cbor_move(cbor_build_string(key)),
							      cbor_move(value) }))
		craft_die("libcbor map add");
}

static const char *const kind_names[] = { "uint", "sint", "time", "bytes" };

static cbor_item_t *schema_entry(uint32_t type, const char *name, uint32_t nfields,
				 const struct sct_field_schema *fields)
{
	cbor_item_t *m = cbor_new_definite_map(3);
	cbor_item_t *fa = cbor_new_definite_array(nfields);

	for (uint32_t k = 0; k < nfields; k++) {
		cbor_item_t *f = cbor_new_definite_array(3);

		cbor_array_push(f, cbor_move(cbor_build_string(fields[k].name)));
		cbor_array_push(f, cbor_move(cbor_build_string(kind_names[fields[k].kind])));
		cbor_array_push(f, cbor_move(cbor_build_string(fields[k].unit)));
		cbor_array_push(fa, cbor_move(f));
	}
	map_put(m, "type", cbor_build_uint32(type));
	map_put(m, "name", cbor_build_string(name));
	map_put(m, "fields", fa);
	return m;
}

/*
 * The types a crafted HEADER lists: those of 1.5, so that a hand-made session is the same bytes
 * whatever later versions add (a 1.6 one reads types 11-13 by section 9, as it lists none).
 */
#define CRAFT_SCHEMA_TYPES SCT_REC_TOTALS

static void header_body(struct craft *c, uint32_t major, uint32_t minor,
			const struct craft_type *extra, size_t nextra, bool syscall_args)
{
	cbor_item_t *h = cbor_new_definite_map(syscall_args ? 5 : 4);
	cbor_item_t *fmt = cbor_new_definite_array(2);
	cbor_item_t *host = cbor_new_definite_map(1);
	cbor_item_t *schema = cbor_new_definite_array(CRAFT_SCHEMA_TYPES + nextra);
	unsigned char *buf = NULL;
	size_t size = 0, len;

	cbor_array_push(fmt, cbor_move(cbor_build_uint32(major)));
	cbor_array_push(fmt, cbor_move(cbor_build_uint32(minor)));
	map_put(h, "format", fmt);
	map_put(host, "hostname", cbor_build_string("crafthost"));
	map_put(h, "host", host);
	for (uint32_t t = 1; t <= CRAFT_SCHEMA_TYPES; t++) {
		const struct sct_type_schema *s = sct_schema_builtin(t);
		bool replaced = false;

		for (size_t i = 0; i < nextra; i++)
			replaced |= extra[i].type == t;
		/* SYSCALL's argument fields belong to sessions with arguments only */
		if (!replaced)
			cbor_array_push(schema, cbor_move(schema_entry(t, s->name,
				t == SCT_REC_SYSCALL ? RECORD_NFIELDS(RECORD_SYSCALL_BASE_FIELDS) : s->nfields,
				s->fields)));
	}
	for (size_t i = 0; i < nextra; i++)
		cbor_array_push(schema, cbor_move(schema_entry(extra[i].type, extra[i].name,
							       extra[i].nfields, extra[i].fields)));
	map_put(h, "schema", schema);
	if (syscall_args) {
		cbor_item_t *args = cbor_new_definite_map(3);

		map_put(args, "max", cbor_build_uint16(256));
		map_put(args, "paths", cbor_build_string("enter"));
		map_put(args, "native", cbor_new_definite_map(0));
		map_put(h, "syscall_args", args);
	}
	map_put(h, "future_key", cbor_build_string("ignored by readers"));
	len = cbor_serialize_alloc(h, &buf, &size);
	if (!len)
		craft_die("libcbor serialize");
	craft_bytes(c, buf, len);
	free(buf);
	cbor_decref(&h);
}

void craft_header_body(struct craft *c, uint32_t major, uint32_t minor,
		       const struct craft_type *extra, size_t nextra)
{
	header_body(c, major, minor, extra, nextra, false);
}

void craft_header_body_keys(struct craft *c, uint32_t major, uint32_t minor, const void *pairs, size_t len,
			    unsigned npairs)
{
	size_t at = c->len;

	header_body(c, major, minor, NULL, 0, false);
	/* the map holds fewer than 24 pairs: its head is the one byte a0 + n */
	if ((c->p[at] & 0xe0) != 0xa0 || (c->p[at] & 0x1f) + npairs >= 24)
		craft_die("craft_header_body_keys: map head");
	c->p[at] = (uint8_t)(c->p[at] + npairs);
	craft_bytes(c, pairs, len);
}

void craft_header_body_args(struct craft *c, uint32_t major, uint32_t minor,
			    const struct craft_type *extra, size_t nextra)
{
	header_body(c, major, minor, extra, nextra, true);
}

/* ---------------------------------------------------------------- BLOCK */

static uint64_t zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static void craft_column(struct craft *c, const struct craft_col *col, uint32_t count,
			 uint64_t first_ns)
{
	uint64_t *s = calloc(count ? count : 1, sizeof(*s));
	uint64_t bits = 0, prev = first_ns;
	uint8_t width = 0;

	if (!s)
		craft_die("out of memory");
	for (uint32_t i = 0; i < count; i++) {
		switch (col->kind) {
		case SCT_KIND_SINT:
			s[i] = zz((int64_t)col->v[i]);
			break;
		case SCT_KIND_TIME:
			s[i] = zz((int64_t)(col->v[i] - prev));
			prev = col->v[i];
			break;
		case SCT_KIND_BYTES:
			s[i] = col->b[i].len;
			break;
		default:
			s[i] = col->v[i];
			break;
		}
		bits |= s[i];
	}
	while (width < 8 && bits >> (8 * width))
		width++;
	craft_bytes(c, &width, 1);
	for (uint8_t k = 0; k < width; k++)
		for (uint32_t i = 0; i < count; i++) {
			uint8_t b = (uint8_t)(s[i] >> (8 * k));

			craft_bytes(c, &b, 1);
		}
	if (col->kind == SCT_KIND_BYTES)
		for (uint32_t i = 0; i < count; i++)
			craft_bytes(c, col->b[i].ptr, col->b[i].len);
	free(s);
}

void craft_block_body(struct craft *c, uint64_t first_ns, uint64_t last_ns,
		      const struct craft_run *runs, size_t nruns,
		      const struct craft_section *secs, size_t nsecs)
{
	struct craft payload, cols;
	uint64_t count = 0;

	craft_init(&payload);
	craft_varint(&payload, nruns);
	for (size_t i = 0; i < nruns; i++) {
		craft_varint(&payload, runs[i].type);
		craft_varint(&payload, runs[i].count);
		count += runs[i].count;
	}
	craft_varint(&payload, nsecs);
	for (size_t i = 0; i < nsecs; i++) {
		craft_init(&cols);
		for (uint32_t k = 0; k < secs[i].ncols; k++)
			craft_column(&cols, &secs[i].cols[k], secs[i].count, first_ns);
		craft_bytes(&cols, secs[i].tail, secs[i].tail_len);
		craft_varint(&payload, secs[i].type);
		craft_varint(&payload, secs[i].count);
		craft_varint(&payload, secs[i].ncols + secs[i].tail_fields);
		craft_varint(&payload, cols.len);
		craft_bytes(&payload, cols.p, cols.len);
		craft_free(&cols);
	}
	craft_head(c, 4, 6);
	craft_head(c, 0, count);
	craft_head(c, 0, payload.len);
	craft_head(c, 0, first_ns);
	craft_head(c, 0, last_ns);
	craft_head(c, 0, 0);
	craft_head(c, 2, payload.len);
	craft_bytes(c, payload.p, payload.len);
	craft_free(&payload);
}

void craft_minimal_session(struct craft *c)
{
	static const uint8_t body[] = { 0xa1, 0x66, 'f', 'o', 'r', 'm', 'a', 't', 0x82, 0x01, 0x00 };

	craft_label(c);
	craft_frame(c, 1, body, sizeof(body));
}

void craft_session(struct craft *c, uint32_t major, uint32_t minor, const struct craft_type *extra, size_t nextra)
{
	struct craft body;

	craft_init(&body);
	craft_header_body(&body, major, minor, extra, nextra);
	craft_label(c);
	craft_frame(c, 1, body.p, body.len);
	craft_free(&body);
}

void craft_block(struct craft *c, const struct craft_run *runs, size_t nruns, const struct craft_section *secs,
		 size_t nsecs)
{
	struct craft body;

	craft_init(&body);
	craft_block_body(&body, 1000, 1300, runs, nruns, secs, nsecs);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
}

void craft_totals_block(struct craft *c, const struct sct_totals *t, size_t n)
{
	enum { NCOLS = 12 };
	static const uint32_t kinds[NCOLS] = {
		SCT_KIND_TIME, SCT_KIND_TIME, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT,
		SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_BYTES,
	};
	uint64_t *v = calloc(n ? n * (NCOLS - 1) : 1, sizeof(*v));
	struct sct_bytes *hist = calloc(n ? n : 1, sizeof(*hist));
	struct craft_col cols[NCOLS];
	struct craft_section sec = { .type = SCT_REC_TOTALS, .count = (uint32_t)n, .ncols = NCOLS, .cols = cols };
	struct craft_run run = { SCT_REC_TOTALS, (uint32_t)n };
	struct craft body;
	uint64_t first = n ? t[0].time_ns : 0, last = first;

	if (!v || !hist)
		abort();
	for (size_t i = 0; i < n; i++) {
		const uint64_t row[NCOLS - 1] = { t[i].time_ns, t[i].since_ns, t[i].pid, t[i].cgroup_id,
						  t[i].nr, t[i].abi, t[i].calls, t[i].errors,
						  t[i].duration_ns, t[i].max_ns, t[i].hist_bits };

		for (size_t k = 0; k < NCOLS - 1; k++)
			v[k * n + i] = row[k];
		hist[i] = t[i].hist;
		first = t[i].time_ns < first ? t[i].time_ns : first;
		last = t[i].time_ns > last ? t[i].time_ns : last;
	}
	for (size_t k = 0; k < NCOLS; k++)
		cols[k] = (struct craft_col){ .kind = kinds[k], .v = k < NCOLS - 1 ? v + k * n : NULL,
					      .b = k == NCOLS - 1 ? hist : NULL };
	craft_init(&body);
	craft_block_body(&body, first, last, &run, 1, &sec, 1);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
	free(v);
	free(hist);
}

void craft_stack_block(struct craft *c, const struct sct_stack *st, size_t n)
{
	enum { NCOLS = 4 };
	static const uint32_t kinds[NCOLS] = { SCT_KIND_TIME, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_BYTES };
	uint64_t *v = calloc(n ? n * (NCOLS - 1) : 1, sizeof(*v));
	struct sct_bytes *frames = calloc(n ? n : 1, sizeof(*frames));
	struct craft_col cols[NCOLS];
	struct craft_section sec = { .type = SCT_REC_STACK, .count = (uint32_t)n, .ncols = NCOLS, .cols = cols };
	struct craft_run run = { SCT_REC_STACK, (uint32_t)n };
	struct craft body;
	uint64_t first = n ? st[0].time_ns : 0, last = first;

	if (!v || !frames)
		abort();
	for (size_t i = 0; i < n; i++) {
		v[0 * n + i] = st[i].time_ns;
		v[1 * n + i] = st[i].stack_id;
		v[2 * n + i] = st[i].pid;
		frames[i] = st[i].frames;
		first = st[i].time_ns < first ? st[i].time_ns : first;
		last = st[i].time_ns > last ? st[i].time_ns : last;
	}
	for (size_t k = 0; k < NCOLS; k++)
		cols[k] = (struct craft_col){ .kind = kinds[k], .v = k < NCOLS - 1 ? v + k * n : NULL,
					      .b = k == NCOLS - 1 ? frames : NULL };
	craft_init(&body);
	craft_block_body(&body, first, last, &run, 1, &sec, 1);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
	free(v);
	free(frames);
}
