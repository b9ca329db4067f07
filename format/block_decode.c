// SPDX-License-Identifier: BSD-2-Clause
/* BLOCK validation and chunked column decoding (see block_decode.h). */
#include "block_decode.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_head.h"
#include "columns.h"
#include "varint.h"

void block_dec_free(struct block_dec *d)
{
	free(d->raw);
	free(d->runs);
	for (uint32_t k = 0; k < DEC_PATH_COLUMNS; k++)
		free(d->paths[k]);
	for (uint32_t i = 0; i < SCT_MAX_SECTIONS; i++) {
		free(d->secs[i].cols);
		free(d->secs[i].own);
	}
	memset(d, 0, sizeof(*d));
}

int block_meta_parse(const uint8_t *body, size_t len, struct block_meta *m, const char **why)
{
	const uint8_t *p = body, *end = body + len;
	uint64_t n, plen;

	*why = "BLOCK metadata does not decode";
	if (chead_expect(&p, end, 4, &n) || n != 6 ||
	    chead_expect(&p, end, 0, &m->count) ||
	    chead_expect(&p, end, 0, &m->raw_size) ||
	    chead_expect(&p, end, 0, &m->first_ns) ||
	    chead_expect(&p, end, 0, &m->last_ns) ||
	    chead_expect(&p, end, 0, &m->codec) ||
	    chead_expect(&p, end, 2, &plen))
		return -1;
	if (plen != (uint64_t)(end - p)) {
		*why = "BLOCK payload length does not match the frame";
		return -1;
	}
	if (m->count < 1 || m->count > SCT_MAX_BLOCK_RECORDS) {
		*why = "BLOCK record count is 0 or past the limit";
		return -1;
	}
	if (m->raw_size > SCT_MAX_BLOCK_RAW) {
		*why = "BLOCK raw_size is past the limit";
		return -1;
	}
	if (m->codec > 1 || (m->codec == 0 && plen != m->raw_size)) {
		*why = "BLOCK codec is unknown or a stored payload's size is not raw_size";
		return -1;
	}
	m->payload = p;
	m->payload_len = (size_t)plen;
	return 0;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	void *tmp;

	if (need <= *cap)
		return 0;
	tmp = realloc(*p, (size_t)need * size);
	if (!tmp)
		return -ENOMEM;
	*p = tmp;
	*cap = need;
	return 0;
}

/*
 * The built-in schema a section is read with. Outside a session, SYSCALL is all of section 9's
 * list, but a section of exactly its base fields and one more is a session's with stacks and
 * without arguments, and one of all fields but one a session's with arguments and captures
 * and without stacks (spec/FORMAT.md 10.5): no writer writes SYSCALL with arg0 alone, or
 * with stack_id and all captures but the last.
 */
static const struct sct_type_schema *section_builtin(const struct sct_session *s, uint32_t type,
						     uint64_t nfields)
{
	if (s || type != SCT_REC_SYSCALL)
		return session_builtin(s, type);
	if (nfields == SYSCALL_BASE_NCOLS + 1)
		return schema_builtin_version(type, SCT_FORMAT_MINOR, false, true);
	if (nfields == SYSCALL_NCOLS - 1)
		return schema_builtin_version(type, SCT_FORMAT_MINOR, true, false);
	return session_builtin(s, type);
}

/* Schema, typing and storage of a section of the given type and number of fields. */
static int section_setup(struct block_dec *d, struct dec_section *sec, const struct sct_session *s,
			 uint64_t nfields)
{
	const struct session_type *st = session_type(s, sec->type);
	const struct sct_type_schema *builtin = section_builtin(s, sec->type, nfields);
	uint32_t slot = (uint32_t)(sec - d->secs);
	uint32_t ncols;
	bool typed;

	sec->schema = st ? &st->schema : builtin;
	typed = st ? st->typed : builtin != NULL;
	sec->slots = typed ? schema_builtin_slots(builtin) : NULL;
	sec->nslots = typed ? builtin->nfields : 0;
	sec->stack_col = typed ? schema_stack_column(builtin) : 0;
	sec->capture_col = typed ? schema_capture_column(builtin) : 0;
	/* a type the schema alone describes is readable; one that contradicts section 9 is not */
	sec->unknown = !sec->schema || (builtin && !typed);
	sec->deliver = sec->schema && (!sec->unknown || d->deliver_unknown) &&
		       !(sec->type < 32 && (d->skip_types >> sec->type & 1));
	sec->listed = st ? st->listed : sec->schema ? sec->schema->nfields : 0;
	if (!sec->schema) {
		sec->ncols = 0;
		return 0;
	}
	ncols = sec->schema->nfields > sec->nslots ? sec->schema->nfields : sec->nslots;
	sec->ncols = ncols;
	if (ncols > d->cols_cap[slot]) {
		uint32_t cap = d->cols_cap[slot];
		int err = grow((void **)&sec->cols, &cap, ncols, sizeof(*sec->cols));

		if (!err)
			err = grow((void **)&sec->own, &d->cols_cap[slot], ncols,
				   DEC_CHUNK * sizeof(uint64_t));
		if (err)
			return err;
	}
	sec->vals = sec->own;
	memset(sec->cols, 0, ncols * sizeof(*sec->cols));
	for (uint32_t k = 0; k < ncols; k++)
		sec->cols[k].kind = k < sec->schema->nfields ? sec->schema->fields[k].kind
							     : builtin->fields[k].kind;
	return 0;
}

/* Geometry of one column at *pos (< end); checks every length against what remains. */
static int column_parse(struct dec_col *c, uint32_t count, const uint8_t **pos, const uint8_t *end)
{
	const uint8_t *p = *pos;
	uint64_t total = 0;

	if (p == end || *p > 8)
		return -1;
	c->width = *p++;
	if ((uint64_t)c->width * count > (uint64_t)(end - p))
		return -1;
	c->planes = p;
	p += (size_t)c->width * count;
	if (c->kind == SCT_KIND_BYTES && c->width) {
		uint64_t len[256];

		/* in chunks: a row at a time made a million-row column of empty strings slow */
		for (uint32_t i = 0; i < count; i += 256) {
			uint32_t n = count - i < 256 ? count - i : 256;

			column_get_planes(len, c->planes, count, c->width, i, n);
			for (uint32_t j = 0; j < n; j++) {
				if (len[j] > SCT_MAX_STRING)
					return -1;
				total += len[j];
			}
		}
		if (total > (uint64_t)(end - p))
			return -1;
	}
	if (c->kind == SCT_KIND_BYTES) {
		c->data = p;
		p += total;
	}
	*pos = p;
	return 0;
}

static int sections_parse(struct block_dec *d, const uint8_t **pos, const uint8_t *end,
			  const struct sct_session *s, uint64_t first_ns, const char **why)
{
	uint64_t nsec;

	*why = "BLOCK sections do not decode";
	if (varint_get(pos, end, &nsec) || nsec > SCT_MAX_SECTIONS)
		return -SCT_E_CORRUPT;
	for (uint32_t i = 0; i < nsec; i++) {
		struct dec_section *sec = &d->secs[i];
		uint64_t type, count, nfields, length;
		const uint8_t *p, *send;
		int err;

		if (varint_get(pos, end, &type) || varint_get(pos, end, &count) ||
		    varint_get(pos, end, &nfields) || varint_get(pos, end, &length) ||
		    type > UINT32_MAX || count > SCT_MAX_BLOCK_RECORDS ||
		    nfields > SCT_MAX_FIELDS || length > (uint64_t)(end - *pos))
			return -SCT_E_CORRUPT;
		for (uint32_t j = 0; j < i; j++)
			if (d->secs[j].type == type)
				return -SCT_E_CORRUPT;
		sec->type = (uint32_t)type;
		sec->count = (uint32_t)count;
		sec->row = sec->chunk0 = sec->chunk_n = 0;
		sec->runsum = 0;
		d->nsecs = i + 1;
		err = section_setup(d, sec, s, nfields);
		if (err)
			return err;
		p = *pos;
		send = p + length;
		/*
		 * Columns past the HEADER's entry are skipped by length (a later minor version's),
		 * and so are the sections whose records next() skips.
		 */
		for (uint32_t k = 0; k < nfields && sec->deliver && k < sec->listed; k++) {
			if (column_parse(&sec->cols[k], sec->count, &p, send))
				return -SCT_E_CORRUPT;
		}
		for (uint32_t k = 0; k < sec->ncols; k++) {
			sec->cols[k].run = sec->cols[k].kind == SCT_KIND_TIME ? first_ns : 0;
			sec->cols[k].at = 0;
		}
		sec->pending = 0;
		*pos = send;
	}
	return 0;
}

static int runs_parse(struct block_dec *d, const uint8_t **pos, const uint8_t *end, uint64_t count)
{
	uint64_t nruns, total = 0;
	int err;

	if (varint_get(pos, end, &nruns) || nruns > count || nruns > (uint64_t)(end - *pos) / 2)
		return -SCT_E_CORRUPT;
	err = grow((void **)&d->runs, &d->runs_cap, (uint32_t)nruns, sizeof(*d->runs));
	if (err)
		return err;
	for (uint32_t i = 0; i < nruns; i++) {
		uint64_t type, n;

		if (varint_get(pos, end, &type) || varint_get(pos, end, &n) || type > UINT32_MAX ||
		    n < 1 || n > count - total)
			return -SCT_E_CORRUPT;
		d->runs[i].type = (uint32_t)type;
		d->runs[i].count = (uint32_t)n;
		total += n;
	}
	d->nruns = (uint32_t)nruns;
	return total == count ? 0 : -SCT_E_CORRUPT;
}

/* Every run names a section, and each section's rows are exactly its runs' records. */
static int runs_link(struct block_dec *d)
{
	for (uint32_t i = 0; i < d->nruns; i++) {
		uint32_t s = 0;

		while (s < d->nsecs && d->secs[s].type != d->runs[i].type)
			s++;
		if (s == d->nsecs)
			return -SCT_E_CORRUPT;
		d->runs[i].sec = s;
		d->secs[s].runsum += d->runs[i].count;
	}
	for (uint32_t s = 0; s < d->nsecs; s++)
		if (d->secs[s].runsum != d->secs[s].count)
			return -SCT_E_CORRUPT;
	return 0;
}

static int payload_get(struct block_dec *d, const struct block_meta *m)
{
	if (m->raw_size == 0)
		return -SCT_E_CORRUPT;
	if (m->raw_size > d->raw_cap) {
		uint8_t *tmp = realloc(d->raw, (size_t)m->raw_size);

		if (!tmp)
			return -ENOMEM;
		d->raw = tmp;
		d->raw_cap = (size_t)m->raw_size;
	}
	if (m->codec == 0) {
		memcpy(d->raw, m->payload, m->payload_len);
		return 0;
	}
	if (m->payload_len > INT32_MAX ||
	    LZ4_decompress_safe((const char *)m->payload, (char *)d->raw, (int)m->payload_len,
				(int)m->raw_size) != (int)m->raw_size)
		return -SCT_E_CORRUPT;
	return 0;
}

/* SYSCALL's path columns: reference column, bytes column. */
static const uint32_t path_cols[DEC_PATH_COLUMNS][2] = {
	{ SYSCALL_COL_path_ref, SYSCALL_COL_path },
	{ SYSCALL_COL_path2_ref, SYSCALL_COL_path2 },
};

/*
 * The table of the SYSCALL section's k-th path column (spec/FORMAT.md section 7.1): the rows
 * that store a path whole, in row order. A reference to an entry not yet defined, or a
 * referring row that also stores bytes, makes the block not decode.
 */
static int paths_index(struct block_dec *d, struct dec_section *sec, uint32_t k)
{
	const struct dec_col *rc = &sec->cols[path_cols[k][0]], *lc = &sec->cols[path_cols[k][1]];
	uint64_t ref[DEC_CHUNK], len[DEC_CHUNK], off = 0;
	uint32_t n = 0;
	int err;

	sec->paths[k] = NULL;
	if (!rc->width)
		return 0;
	err = grow((void **)&d->paths[k], &d->paths_cap[k], sec->count, sizeof(*d->paths[k]));
	if (err)
		return err;
	for (uint32_t i = 0; i < sec->count; i += DEC_CHUNK) {
		uint32_t m = sec->count - i < DEC_CHUNK ? sec->count - i : DEC_CHUNK;

		column_get_planes(ref, rc->planes, sec->count, rc->width, i, m);
		column_get_planes(len, lc->planes, sec->count, lc->width, i, m);
		for (uint32_t j = 0; j < m; j++) {
			if (ref[j] > n || (ref[j] && len[j]))
				return -SCT_E_CORRUPT;
			if (!ref[j] && len[j])
				d->paths[k][n++] = off << 32 | len[j];
			off += len[j];
		}
	}
	sec->paths[k] = d->paths[k];
	return 0;
}

/* SYSCALL path columns the section has: both from 1.4 on, the first alone in 1.3. */
static uint32_t section_path_columns(const struct dec_section *sec)
{
	if (sec->type != SCT_REC_SYSCALL || !sec->slots || !sec->deliver)
		return 0;
	if (sec->nslots >= SYSCALL_ARGS14_NCOLS)
		return 2;
	return sec->nslots >= SYSCALL_ARGS13_NCOLS ? 1 : 0;
}

/* Path tables of the sections that have them. */
static int sections_index(struct block_dec *d)
{
	for (uint32_t s = 0; s < d->nsecs; s++) {
		struct dec_section *sec = &d->secs[s];
		uint32_t npaths = section_path_columns(sec);

		for (uint32_t k = 0; k < DEC_PATH_COLUMNS; k++)
			sec->paths[k] = NULL;
		for (uint32_t k = 0; k < npaths; k++) {
			int err = paths_index(d, sec, k);

			if (err)
				return err;
		}
	}
	return 0;
}

/* A SYSCALL addr is a socket address: one longer than any makes the block not decode (10.1). */
static int sections_check_addr(const struct block_dec *d)
{
	for (uint32_t s = 0; s < d->nsecs; s++) {
		const struct dec_section *sec = &d->secs[s];
		const struct dec_col *c;
		uint64_t len[DEC_CHUNK];

		if (sec->type != SCT_REC_SYSCALL || !sec->capture_col || !sec->deliver)
			continue;
		c = &sec->cols[sec->capture_col + SYSCALL_CAPTURE_addr];
		for (uint32_t i = 0; c->width && i < sec->count; i += DEC_CHUNK) {
			uint32_t m = sec->count - i < DEC_CHUNK ? sec->count - i : DEC_CHUNK;

			column_get_planes(len, c->planes, sec->count, c->width, i, m);
			for (uint32_t j = 0; j < m; j++)
				if (len[j] > SCT_MAX_ADDR)
					return -SCT_E_CORRUPT;
		}
	}
	return 0;
}

int block_dec_load(struct block_dec *d, const struct block_meta *m, const struct sct_session *s,
		   const char **why)
{
	const uint8_t *pos, *end;
	int err;

	d->nruns = d->nsecs = 0;
	d->run_idx = d->run_left = 0;
	*why = "BLOCK payload does not decompress to raw_size bytes";
	err = payload_get(d, m);
	if (err)
		return err;
	pos = d->raw;
	end = d->raw + m->raw_size;
	*why = "BLOCK run list does not decode";
	err = runs_parse(d, &pos, end, m->count);
	if (!err)
		err = sections_parse(d, &pos, end, s, m->first_ns, why);
	if (!err && pos != end) {
		*why = "BLOCK payload has bytes after its last section";
		err = -SCT_E_CORRUPT;
	}
	if (!err) {
		*why = "BLOCK runs and sections disagree on record counts";
		err = runs_link(d);
	}
	if (!err) {
		*why = "BLOCK SYSCALL path_ref refers to no earlier path of the block";
		err = sections_index(d);
	}
	if (!err) {
		*why = "BLOCK SYSCALL addr is longer than 128 bytes";
		err = sections_check_addr(d);
	}
	if (err)
		d->nruns = d->nsecs = 0;
	return err;
}

/* Stored values of a time or bytes column to values, from and updating its running value. */
static void column_run(struct dec_col *c, uint64_t *v, uint32_t n)
{
	if (c->kind == SCT_KIND_TIME) {
		/* a column the section lacks reads as 0, not as first_ns */
		if (c->planes)
			column_undelta(v, n, &c->run);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t len = v[i];

		v[i] = c->run << 32 | len;
		c->run += len;
	}
}

/*
 * Rows [row, row + n) of column c into v, rows in order. A time or bytes column's values are
 * running sums: the rows a lazy chunk left out are summed in first, through v.
 */
static void column_decode(const struct dec_section *sec, struct dec_col *c, uint32_t row, uint32_t n, uint64_t *v)
{
	bool running = c->kind == SCT_KIND_TIME || c->kind == SCT_KIND_BYTES;

	if (running) {
		while (c->at < row) {
			uint32_t m = row - c->at < DEC_CHUNK ? row - c->at : DEC_CHUNK;

			column_get_planes(v, c->planes, sec->count, c->width, c->at, m);
			column_run(c, v, m);
			c->at += m;
		}
		c->at = row + n;
	}
	column_get_planes(v, c->planes, sec->count, c->width, row, n);
	if (running)
		column_run(c, v, n);
	else if (c->kind == SCT_KIND_SINT)
		column_unzigzag(v, n);
}

/* A path column's rows that refer to an earlier row's path take that row's (table) value. */
static void chunk_paths(struct dec_section *sec, uint32_t k)
{
	const uint64_t *ref = sec->vals + (size_t)path_cols[k][0] * DEC_CHUNK, *table = sec->paths[k];
	uint64_t *path = sec->vals + (size_t)path_cols[k][1] * DEC_CHUNK;

	for (uint32_t i = 0; i < sec->chunk_n; i++)
		if (ref[i])
			path[i] = table[ref[i] - 1];
}

/* Whether either column of the k-th path pair is among the columns of mask. */
static bool path_in(uint32_t mask, uint32_t k)
{
	return (mask >> path_cols[k][0] | mask >> path_cols[k][1]) & 1;
}

void block_dec_chunk(struct dec_section *sec, uint32_t row, uint32_t lazy)
{
	uint32_t skip = sec->type == SCT_REC_SYSCALL && sec->slots ? lazy : 0;

	sec->chunk0 = row;
	sec->chunk_n = sec->count - row < DEC_CHUNK ? sec->count - row : DEC_CHUNK;
	sec->pending = 0;
	for (uint32_t k = 0; k < sec->ncols; k++) {
		if (k < 32 && (skip >> k & 1)) {
			sec->pending |= 1u << k;
			continue;
		}
		column_decode(sec, &sec->cols[k], row, sec->chunk_n, sec->vals + (size_t)k * DEC_CHUNK);
	}
	/* a path pair left undecoded is matched when it is decoded */
	for (uint32_t k = 0; k < DEC_PATH_COLUMNS; k++)
		if (sec->paths[k] && !path_in(sec->pending, k))
			chunk_paths(sec, k);
}

void block_dec_complete(struct dec_section *sec, uint32_t cols)
{
	uint32_t todo = sec->pending & cols;

	for (uint32_t k = 0; k < 32 && todo >> k; k++)
		if (todo >> k & 1)
			column_decode(sec, &sec->cols[k], sec->chunk0, sec->chunk_n, sec->vals + (size_t)k * DEC_CHUNK);
	sec->pending &= ~todo;
	/* a pair matched once both of its columns are decoded, one of them just now */
	for (uint32_t k = 0; k < DEC_PATH_COLUMNS; k++)
		if (sec->paths[k] && path_in(todo, k) && !path_in(sec->pending, k))
			chunk_paths(sec, k);
}

static void slot_put(struct sct_record *rec, struct field_slot slot, uint64_t v,
		     const struct dec_col *c)
{
	uint8_t *p = (uint8_t *)rec + slot.offset;

	switch (slot.size) {
	case 0: {
		struct sct_bytes *b = (struct sct_bytes *)p;

		b->ptr = c->data ? c->data + (v >> 32) : NULL;
		b->len = (uint32_t)v;
		if (!b->len && !b->ptr)
			b->ptr = (const uint8_t *)"";
		break;
	}
	case 1:
		*p = (uint8_t)v;
		break;
	case 4:
		*(uint32_t *)p = (uint32_t)v;
		break;
	default:
		*(uint64_t *)p = v;
		break;
	}
}

void block_dec_fill(const struct dec_section *sec, uint32_t i, struct sct_record *rec)
{
	const uint64_t *v = sec->vals + i;

	memset(rec, 0, sizeof(*rec));
	rec->type = sec->type;
	for (uint32_t k = 0; k < sec->nslots; k++)
		slot_put(rec, sec->slots[k], v[(size_t)k * DEC_CHUNK], &sec->cols[k]);
}

#define DEC_SYSCALL_ARG(t, member, kind, unit) \
	DEC_SYSCALL_##kind(member, v[(size_t)SYSCALL_COL_##member * DEC_CHUNK])
#define DEC_SYSCALL_UINT(member, x) sc->member = (__typeof__(sc->member))(x);
/*
 * Field by field: a memset of the argument fields compiled to `rep stos`, whose start-up cost
 * doubled the reader's time per record.
 */
#define DEC_SYSCALL_CLEAR(t, member, kind, unit) DEC_SYSCALL_CLEAR_##kind(member)
#define DEC_SYSCALL_CLEAR_UINT(member) sc->member = 0;
#define DEC_SYSCALL_CLEAR_BYTES(member) sc->member = (struct sct_bytes){ (const uint8_t *)"", 0 };
#define DEC_SYSCALL_BYTES(member, x) \
	sc->member.ptr = sec->cols[SYSCALL_COL_##member].data ? \
		sec->cols[SYSCALL_COL_##member].data + (x >> 32) : (const uint8_t *)""; \
	sc->member.len = (uint32_t)x;
/* The captured memory sits at the section's capture column, after path2 or after stack_id. */
#define DEC_CAPTURE(t, member, kind, unit) DEC_CAPTURE_##kind(member, \
	sec->capture_col + SYSCALL_CAPTURE_##member, v[(size_t)(sec->capture_col + \
	SYSCALL_CAPTURE_##member) * DEC_CHUNK])
#define DEC_CAPTURE_UINT(member, col, x) sc->member = (__typeof__(sc->member))(x);
#define DEC_CAPTURE_BYTES(member, col, x) \
	sc->member.ptr = sec->cols[col].data ? sec->cols[col].data + (x >> 32) : (const uint8_t *)""; \
	sc->member.len = (uint32_t)x;
void block_dec_fill_args(const struct dec_section *sec, uint32_t i, struct sct_syscall *sc)
{
	const uint64_t *v = sec->vals + i;

	RECORD_SYSCALL_ARGS_FIELDS(DEC_SYSCALL_ARG, syscall)
	if (sec->nslots < SYSCALL_ARGS14_NCOLS) {
		RECORD_SYSCALL_PATH2_FIELDS(DEC_SYSCALL_CLEAR, syscall)
		RECORD_SYSCALL_CAPTURE_FIELDS(DEC_SYSCALL_CLEAR, syscall)
		return;
	}
	RECORD_SYSCALL_PATH2_FIELDS(DEC_SYSCALL_ARG, syscall)
	if (!sec->capture_col) {
		RECORD_SYSCALL_CAPTURE_FIELDS(DEC_SYSCALL_CLEAR, syscall)
		return;
	}
	RECORD_SYSCALL_CAPTURE_FIELDS(DEC_CAPTURE, syscall)
}

void block_dec_clear_args(struct sct_syscall *sc)
{
	RECORD_SYSCALL_ARGS_FIELDS(DEC_SYSCALL_CLEAR, syscall)
	RECORD_SYSCALL_PATH2_FIELDS(DEC_SYSCALL_CLEAR, syscall)
	RECORD_SYSCALL_CAPTURE_FIELDS(DEC_SYSCALL_CLEAR, syscall)
}
