// SPDX-License-Identifier: BSD-2-Clause
/* TRAILER totals, block index, encoding and parsing. */
#include "trailer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_item.h"

int trailer_add_block(struct trailer_acc *t, const struct index_entry *e, const uint32_t *counts)
{
	struct sct_trailer_info *in = &t->info;

	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		in->records[type] += counts[type];
	if (!in->blocks || e->first_ns < in->first_ns)
		in->first_ns = e->first_ns;
	if (!in->blocks || e->last_ns > in->last_ns)
		in->last_ns = e->last_ns;
	in->blocks++;
	if (t->index_dropped)
		return 0;
	if (t->nindex == INDEX_MAX_ENTRIES) {
		/* the index is an optimisation: past the bound, drop it rather than fail */
		t->index_dropped = true;
		free(t->index);
		t->index = NULL;
		t->nindex = t->cap = 0;
		return 0;
	}
	if (t->nindex == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct index_entry *tmp = realloc(t->index, cap * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		t->index = tmp;
		t->cap = cap;
	}
	t->index[t->nindex++] = *e;
	return 0;
}

void trailer_free(struct trailer_acc *t)
{
	free(t->index);
	memset(t, 0, sizeof(*t));
}

void trailer_encode(struct cbuf *b, const struct trailer_acc *t)
{
	const struct sct_trailer_info *in = &t->info;
	uint32_t ntypes = 0;

	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		ntypes += in->records[type] > 0;
	cbuf_map(b, t->index_dropped ? 6 : 7);
	cbuf_text(b, "records");
	cbuf_map(b, ntypes);
	for (uint32_t type = 1; type <= SCT_REC_MAX; type++) {
		if (!in->records[type])
			continue;
		cbuf_uint(b, type);
		cbuf_uint(b, in->records[type]);
	}
	cbuf_text(b, "blocks");
	cbuf_uint(b, in->blocks);
	cbuf_text(b, "lost");
	cbuf_uint(b, in->lost);
	cbuf_text(b, "warnings");
	cbuf_uint(b, in->warnings);
	cbuf_text(b, "first_ns");
	cbuf_uint(b, in->first_ns);
	cbuf_text(b, "last_ns");
	cbuf_uint(b, in->last_ns);
	if (t->index_dropped)
		return;
	cbuf_text(b, "index");
	cbuf_array(b, t->nindex);
	for (size_t i = 0; i < t->nindex; i++) {
		cbuf_array(b, 4);
		cbuf_uint(b, t->index[i].offset);
		cbuf_uint(b, t->index[i].first_ns);
		cbuf_uint(b, t->index[i].last_ns);
		cbuf_uint(b, t->index[i].count);
	}
}

int trailer_parse(const uint8_t *body, size_t len, struct sct_trailer_info *out)
{
	cbor_item_t *t = item_load(body, len);
	const cbor_item_t *records;
	struct cbor_pair *p;

	if (!t || !cbor_isa_map(t)) {
		if (t)
			cbor_decref(&t);
		return -SCT_E_CORRUPT;
	}
	memset(out, 0, sizeof(*out));
	records = item_map_get(t, "records");
	if (records && cbor_isa_map(records)) {
		p = cbor_map_handle(records);
		for (size_t i = 0; i < cbor_map_size(records); i++) {
			uint64_t type, n;

			if (!item_uint(p[i].key, &type) && !item_uint(p[i].value, &n) &&
			    type >= 1 && type <= SCT_REC_MAX)
				out->records[type] = n;
		}
	}
	(void)item_uint(item_map_get(t, "blocks"), &out->blocks);
	(void)item_uint(item_map_get(t, "lost"), &out->lost);
	(void)item_uint(item_map_get(t, "warnings"), &out->warnings);
	(void)item_uint(item_map_get(t, "first_ns"), &out->first_ns);
	(void)item_uint(item_map_get(t, "last_ns"), &out->last_ns);
	cbor_decref(&t);
	return 0;
}
