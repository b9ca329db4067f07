// SPDX-License-Identifier: BSD-2-Clause
/* Pending block columns and the BLOCK frame encoder (see block_encode.h). */
#include "block_encode.h"

#include "columns.h"

#include <cbor.h>
#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "varint.h"

/* BLOCK body before the payload bytes: array head, five uints, byte-string head. */
#define BLOCK_META_MAX (1 + 5 * 9 + 9)
#define FRAME_HEADROOM (FRAME_HEAD_MAX + BLOCK_META_MAX)
/*
 * LZ4 acceleration: the planes are mostly runs and constants, so a coarser match search
 * loses little. Measured on a real 1,000,000-record sct-record trace: 1.97 -> 2.07
 * bytes/record and 52 -> 36 LZ4 instructions per record (3.35 -> 3.40 bytes/record on
 * bench-format's uniform stream).
 */
#define BLOCK_LZ4_ACCEL 4
/*
 * Values of padding after each column. With a power-of-two cap, the columns start a multiple of
 * 4 KiB apart: one record's ten stores then fall in one L1 set (more ways than it has) and
 * alias the loads after them. One cache line apart, they do not: sct-record's CPU per record
 * went from 61 to 57 ns on a 1,000,000-write trace.
 */
#define BLOCK_COLUMN_PAD 8

/* A table at most half full: every record of a block can bring a new path. */
static int strtab_init(struct enc_strtab *t, uint32_t cap)
{
	t->nslots = 1;
	while (t->nslots <= 2 * cap)
		t->nslots *= 2;
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	t->v = calloc(cap, sizeof(*t->v));
	return t->slots && t->v ? 0 : -ENOMEM;
}

int block_enc_init(struct block_enc *e, uint32_t cap, uint32_t minor, bool syscall_args, bool stacks)
{
	const struct sct_type_schema *sc = schema_builtin_version(SCT_REC_SYSCALL, minor,
								   syscall_args, stacks);

	memset(e, 0, sizeof(*e));
	e->cap = cap;
	e->stride = cap + BLOCK_COLUMN_PAD;
	e->raw_bound = BLOCK_FIXED_BOUND;
	e->lo_ns = UINT64_MAX;
	e->minor = minor;
	e->syscall_args = syscall_args;
	e->stacks = stacks;
	e->syscall_ncols = sc->nfields;
	e->stack_col = schema_stack_column(sc);
	e->capture_col = schema_capture_column(sc);
	e->runs = calloc(cap, sizeof(*e->runs));
	if (!e->runs)
		return -ENOMEM;
	for (uint32_t k = 0; syscall_args && k < ENC_PATH_COLUMNS; k++) {
		int err = strtab_init(&e->paths[k], cap);

		if (err)
			return err;
	}
	return 0;
}

void block_enc_free(struct block_enc *e)
{
	for (uint32_t t = 0; t <= SCT_REC_MAX; t++) {
		free(e->types[t].cols);
		for (uint32_t k = 0; k < SCHEMA_MAX_BUILTIN_FIELDS; k++)
			free(e->types[t].data[k].p);
	}
	for (uint32_t k = 0; k < ENC_PATH_COLUMNS; k++) {
		free(e->paths[k].slots);
		free(e->paths[k].v);
	}
	free(e->runs);
	free(e->raw);
	free(e->frame);
	memset(e, 0, sizeof(*e));
}

int block_enc_type_alloc(struct block_enc *e, uint32_t type)
{
	const struct sct_type_schema *s = sct_schema_builtin(type);

	e->types[type].cols = calloc((size_t)s->nfields * e->stride, sizeof(uint64_t));
	return e->types[type].cols ? 0 : -ENOMEM;
}

int64_t block_enc_bound(const struct sct_record *rec)
{
	const struct sct_type_schema *s = sct_schema_builtin(rec->type);
	const struct field_slot *slot = schema_slots(rec->type);
	int64_t bound = (int64_t)BLOCK_RECORD_BOUND(s->nfields);

	for (uint32_t k = 0; k < s->nfields; k++) {
		const struct sct_bytes *b;

		if (slot[k].size)
			continue;
		b = (const struct sct_bytes *)((const uint8_t *)rec + slot[k].offset);
		if (b->len > SCT_MAX_STRING)
			return -SCT_E_LIMIT;
		bound += b->len;
	}
	return bound;
}

/* Room for n more bytes of string data. */
static int bytes_reserve(struct enc_bytes *d, size_t n)
{
	size_t cap = d->cap ? d->cap : 4096;
	uint8_t *tmp;

	if (n <= d->cap - d->len)
		return 0;
	while (cap - d->len < n)
		cap *= 2;
	tmp = realloc(d->p, cap);
	if (!tmp)
		return -ENOMEM;
	d->p = tmp;
	d->cap = cap;
	return 0;
}

/* FNV-1a: paths are short, and a block holds few distinct ones. */
static uint32_t path_hash(const uint8_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The path's entry in t, or 0; *slot gets where it goes if new. */
static uint32_t strtab_find(const struct enc_strtab *t, const struct enc_bytes *d, const uint8_t *p,
			    uint32_t n, uint32_t h, uint32_t *slot)
{
	uint32_t i;

	for (i = h & (t->nslots - 1); t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
		const struct enc_str *s = &t->v[t->slots[i] - 1];

		if (s->hash == h && s->len == n && !memcmp(d->p + s->off, p, n))
			return t->slots[i];
	}
	*slot = i;
	return 0;
}

/* One path column's values, its bytes reserved before. */
static void path_store(struct enc_strtab *t, struct enc_bytes *d, const struct sct_bytes *path,
		       uint64_t *ref, uint64_t *len)
{
	const uint8_t *p = path->ptr;
	uint32_t h, n = path->len, slot = 0;

	*ref = *len = 0;
	if (!n)
		return;
	h = path_hash(p, n);
	*ref = strtab_find(t, d, p, n, h, &slot);
	if (*ref)
		return;
	t->v[t->n] = (struct enc_str){ h, n, d->len };
	t->slots[slot] = ++t->n;
	memcpy(d->p + d->len, p, n);
	d->len += n;
	*len = n;
}

static const uint32_t path_cols[ENC_PATH_COLUMNS][2] = {
	{ SYSCALL_COL_path_ref, SYSCALL_COL_path },
	{ SYSCALL_COL_path2_ref, SYSCALL_COL_path2 },
};

int block_enc_paths(struct block_enc *e, const struct sct_syscall *sc, uint64_t *c, size_t stride)
{
	struct enc_bytes *data = e->types[SCT_REC_SYSCALL].data;
	/* pointers, not copies: a 16-byte copy of a struct the caller has just written stalls */
	const struct sct_bytes *path[ENC_PATH_COLUMNS] = { &sc->path, &sc->path2 };

	for (uint32_t k = 0; k < ENC_PATH_COLUMNS; k++)
		if (bytes_reserve(&data[path_cols[k][1]], path[k]->len))
			return -ENOMEM;
	for (uint32_t k = 0; k < ENC_PATH_COLUMNS; k++)
		path_store(&e->paths[k], &data[path_cols[k][1]], path[k], &c[path_cols[k][0] * stride],
			   &c[path_cols[k][1] * stride]);
	return 0;
}

/* Flags, then bytes: addr_flags and addr, then argv_flags, envc and argv, data_flags and data. */
#define ENC_CAPTURE_COLUMN(t, member, kind, unit) ENC_CAPTURE_##kind(member)
#define ENC_CAPTURE_UINT(member) c[(col + SYSCALL_CAPTURE_##member) * stride] = sc->member;
/* an empty capture may have no pointer to copy from */
#define ENC_CAPTURE_BYTES(member) \
	if (sc->member.len) \
		memcpy(data[col + SYSCALL_CAPTURE_##member].p + \
		       data[col + SYSCALL_CAPTURE_##member].len, sc->member.ptr, sc->member.len); \
	data[col + SYSCALL_CAPTURE_##member].len += sc->member.len; \
	c[(col + SYSCALL_CAPTURE_##member) * stride] = sc->member.len;
#define ENC_CAPTURE_RESERVE(t, member, kind, unit) ENC_CAPTURE_RESERVE_##kind(member)
#define ENC_CAPTURE_RESERVE_UINT(member)
#define ENC_CAPTURE_RESERVE_BYTES(member) \
	if (bytes_reserve(&data[col + SYSCALL_CAPTURE_##member], sc->member.len)) \
		return -ENOMEM;
int block_enc_captures(struct block_enc *e, const struct sct_syscall *sc, uint64_t *c, size_t stride)
{
	struct enc_bytes *data = e->types[SCT_REC_SYSCALL].data;
	const uint32_t col = e->capture_col;

	RECORD_SYSCALL_CAPTURE_FIELDS(ENC_CAPTURE_RESERVE, syscall)
	RECORD_SYSCALL_CAPTURE_FIELDS(ENC_CAPTURE_COLUMN, syscall)
	return 0;
}
#undef ENC_CAPTURE_COLUMN
#undef ENC_CAPTURE_UINT
#undef ENC_CAPTURE_BYTES
#undef ENC_CAPTURE_RESERVE
#undef ENC_CAPTURE_RESERVE_UINT
#undef ENC_CAPTURE_RESERVE_BYTES

static uint64_t slot_get(const struct sct_record *rec, struct field_slot slot, uint32_t kind)
{
	const uint8_t *p = (const uint8_t *)rec + slot.offset;

	switch (slot.size) {
	case 1:
		return *p;
	case 4:
		if (kind == SCT_KIND_SINT)
			return (uint64_t)(int64_t)*(const int32_t *)p;
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

int block_enc_add(struct block_enc *e, const struct sct_record *rec, size_t bound)
{
	const struct sct_type_schema *s = sct_schema_builtin(rec->type);
	const struct field_slot *slot = schema_slots(rec->type);
	struct enc_type *t = &e->types[rec->type];
	uint32_t row = t->count;

	/* reserve every string first, so a failure leaves the columns as they were */
	for (uint32_t k = 0; k < s->nfields; k++) {
		const struct sct_bytes *b = (const struct sct_bytes *)
			((const uint8_t *)rec + slot[k].offset);

		if (slot[k].size == 0 && bytes_reserve(&t->data[k], b->len))
			return -ENOMEM;
	}
	for (uint32_t k = 0; k < s->nfields; k++) {
		uint64_t v;

		if (slot[k].size == 0) {
			const struct sct_bytes *b = (const struct sct_bytes *)
				((const uint8_t *)rec + slot[k].offset);

			if (b->len)
				memcpy(t->data[k].p + t->data[k].len, b->ptr, b->len);
			t->data[k].len += b->len;
			v = b->len;
		} else {
			v = slot_get(rec, slot[k], s->fields[k].kind);
		}
		t->cols[(size_t)k * e->stride + row] = v;
	}
	block_enc_time(e, t->cols[row]);
	t->count++;
	block_enc_run(e, rec->type, 1);
	e->count++;
	e->raw_bound += bound;
	return 0;
}

#define ENC_SYSCALLS_COLUMN(t, member, kind, unit) ENC_SYSCALLS_##kind(member)
#define ENC_SYSCALLS_UINT(member) c[SYSCALL_COL_##member * stride + i] = (uint64_t)sc[i].member;
#define ENC_SYSCALLS_SINT ENC_SYSCALLS_UINT
#define ENC_SYSCALLS_TIME ENC_SYSCALLS_UINT
#define ENC_SYSCALLS_BYTES(member)
void block_enc_add_syscalls(struct block_enc *e, const struct sct_syscall *sc, uint32_t n)
{
	struct enc_type *t = &e->types[SCT_REC_SYSCALL];
	uint64_t *c = t->cols + t->count;
	size_t stride = e->stride;

	/*
	 * Record by record, not column by column: reading one field of each record in turn, at
	 * the struct's stride, ran 50% slower when the stride was a multiple of 16 bytes (as with
	 * libsct 4's 144) than when it was not, where this order runs the same at every stride.
	 */
	for (uint32_t i = 0; i < n; i++) {
		RECORD_SYSCALL_BASE_FIELDS(ENC_SYSCALLS_COLUMN, syscall)
	}
	for (uint32_t i = 0; e->stack_col && i < n; i++)
		c[e->stack_col * stride + i] = sc[i].stack_id;
	block_enc_add_syscall_rows(e, n);
}
#undef ENC_SYSCALLS_COLUMN
#undef ENC_SYSCALLS_UINT
#undef ENC_SYSCALLS_SINT
#undef ENC_SYSCALLS_TIME
#undef ENC_SYSCALLS_BYTES

/* sct.h spells the columns out: a field it lacks fails to compile, one it adds fails here. */
_Static_assert(sizeof(struct sct_syscall_rows) == (SYSCALL_BASE_NCOLS + 1) * sizeof(uint64_t *),
	       "struct sct_syscall_rows has a member per base SYSCALL field, and stack_id");
#define ENC_ROWS_COLUMN(t, member, kind, unit) rows->member = c + SYSCALL_COL_##member * e->stride;
void block_enc_syscall_rows(struct block_enc *e, struct sct_syscall_rows *rows)
{
	uint64_t *c = e->types[SCT_REC_SYSCALL].cols + e->types[SCT_REC_SYSCALL].count;

	RECORD_SYSCALL_BASE_FIELDS(ENC_ROWS_COLUMN, syscall)
	rows->stack_id = e->stack_col ? c + (size_t)e->stack_col * e->stride : NULL;
}
#undef ENC_ROWS_COLUMN

void block_enc_add_syscall_rows(struct block_enc *e, uint32_t n)
{
	const uint64_t *time = e->types[SCT_REC_SYSCALL].cols + e->types[SCT_REC_SYSCALL].count;

	for (uint32_t i = 0; i < n; i++)
		block_enc_time(e, time[i]);
	e->types[SCT_REC_SYSCALL].count += n;
	block_enc_run(e, SCT_REC_SYSCALL, n);
	e->count += n;
	e->raw_bound += (size_t)n * BLOCK_RECORD_BOUND(e->syscall_ncols);
}

static int buf_reserve(uint8_t **p, size_t *cap, size_t need)
{
	uint8_t *tmp;

	if (need <= *cap)
		return 0;
	tmp = realloc(*p, need);
	if (!tmp)
		return -ENOMEM;
	*p = tmp;
	*cap = need;
	return 0;
}

/* One section: header varints, then each column as width planes (and string data). */
static uint8_t *section_put(struct block_enc *e, uint32_t type, uint8_t *out)
{
	const struct sct_type_schema *s = schema_builtin_version(type, e->minor, e->syscall_args,
								 e->stacks);
	struct enc_type *t = &e->types[type];
	unsigned width[SCHEMA_MAX_BUILTIN_FIELDS];
	bool same[SCHEMA_MAX_BUILTIN_FIELDS];
	uint64_t length = 0;

	for (uint32_t k = 0; k < s->nfields; k++) {
		uint64_t *v = t->cols + (size_t)k * e->stride;

		width[k] = column_store(v, t->count, s->fields[k].kind, e->first_ns, &same[k]);
		length += 1 + (uint64_t)width[k] * t->count;
		if (s->fields[k].kind == SCT_KIND_BYTES)
			length += t->data[k].len;
	}
	out += varint_put(out, type);
	out += varint_put(out, t->count);
	out += varint_put(out, s->nfields);
	out += varint_put(out, length);
	for (uint32_t k = 0; k < s->nfields; k++) {
		*out++ = (uint8_t)width[k];
		column_put_planes(out, t->cols + (size_t)k * e->stride, t->count, width[k], same[k]);
		out += (size_t)width[k] * t->count;
		if (s->fields[k].kind == SCT_KIND_BYTES && t->data[k].len) {
			memcpy(out, t->data[k].p, t->data[k].len);
			out += t->data[k].len;
		}
	}
	return out;
}

static size_t payload_put(struct block_enc *e)
{
	uint8_t *out = e->raw;
	uint32_t nsections = 0;

	out += varint_put(out, e->nruns);
	for (uint32_t i = 0; i < e->nruns; i++) {
		out += varint_put(out, e->runs[i].type);
		out += varint_put(out, e->runs[i].count);
	}
	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		nsections += e->types[type].count > 0;
	out += varint_put(out, nsections);
	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		if (e->types[type].count)
			out = section_put(e, type, out);
	return (size_t)(out - e->raw);
}

int block_enc_finish(struct block_enc *e, const uint8_t **frame, size_t *len)
{
	uint8_t meta[BLOCK_META_MAX];
	size_t raw_len, body_len, n = 0;
	int clen, codec = 1, err;

	err = buf_reserve(&e->raw, &e->raw_cap, e->raw_bound);
	if (err)
		return err;
	e->first_ns = e->lo_ns;
	e->last_ns = e->hi_ns;
	raw_len = payload_put(e);
	err = buf_reserve(&e->frame, &e->frame_cap,
			  FRAME_HEADROOM + (size_t)LZ4_compressBound((int)raw_len) + FRAME_CHECK_LEN);
	if (err)
		return err;
	clen = LZ4_compress_fast((const char *)e->raw, (char *)e->frame + FRAME_HEADROOM,
				 (int)raw_len, LZ4_compressBound((int)raw_len), BLOCK_LZ4_ACCEL);
	if (clen <= 0 || (size_t)clen >= raw_len) {
		/* incompressible: store as is */
		codec = 0;
		memcpy(e->frame + FRAME_HEADROOM, e->raw, raw_len);
		clen = (int)raw_len;
	}
	n += cbor_encode_array_start(6, meta + n, sizeof(meta) - n);
	n += cbor_encode_uint(e->count, meta + n, sizeof(meta) - n);
	n += cbor_encode_uint(raw_len, meta + n, sizeof(meta) - n);
	n += cbor_encode_uint(e->first_ns, meta + n, sizeof(meta) - n);
	n += cbor_encode_uint(e->last_ns, meta + n, sizeof(meta) - n);
	n += cbor_encode_uint((uint64_t)codec, meta + n, sizeof(meta) - n);
	n += cbor_encode_bytestring_start((size_t)clen, meta + n, sizeof(meta) - n);
	memcpy(e->frame + FRAME_HEADROOM - n, meta, n);
	body_len = n + (size_t)clen;
	*frame = frame_seal(e->frame, FRAME_HEADROOM - n, body_len, FRAME_BLOCK, len);
	return 0;
}

/* Only the slots of its entries: a block's few paths, not a table sized for its records. */
static void strtab_clear(struct enc_strtab *t)
{
	for (uint32_t k = 0; k < t->n; k++) {
		uint32_t i = t->v[k].hash & (t->nslots - 1);

		while (t->slots[i]) {
			t->slots[i] = 0;
			i = (i + 1) & (t->nslots - 1);
		}
	}
	t->n = 0;
}

void block_enc_reset(struct block_enc *e)
{
	for (uint32_t type = 0; type <= SCT_REC_MAX; type++) {
		e->types[type].count = 0;
		for (uint32_t k = 0; k < SCHEMA_MAX_BUILTIN_FIELDS; k++)
			e->types[type].data[k].len = 0;
	}
	for (uint32_t k = 0; k < ENC_PATH_COLUMNS; k++)
		strtab_clear(&e->paths[k]);
	e->nruns = 0;
	e->count = 0;
	e->raw_bound = BLOCK_FIXED_BOUND;
	e->lo_ns = UINT64_MAX;
	e->hi_ns = 0;
}
