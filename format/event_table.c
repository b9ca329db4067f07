// SPDX-License-Identifier: BSD-2-Clause
/* The HEADER's event table: limits, encoding and parsing (see event_table.h). */
#include "event_table.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_item.h"

/* A payload is at most 32 KiB (perf's u16 sizes, __data_loc's u16 offset and length). */
#define EVENT_PAYLOAD_MAX 65536u
/* Items of one field's array: name, type, offset, size, signed, data_loc. */
#define EVENT_FIELD_ITEMS 6u

static bool field_valid(size_t name_len, size_t type_len, uint64_t offset, uint64_t size,
			uint64_t is_signed, uint64_t data_loc)
{
	return name_len >= 1 && name_len <= SCT_MAX_NAME && type_len <= SCT_MAX_NAME &&
	       offset <= EVENT_PAYLOAD_MAX && size <= EVENT_PAYLOAD_MAX - offset &&
	       is_signed <= 1 && data_loc <= 2 && (!data_loc || size == 4);
}

int event_table_check(const struct sct_event_desc *ev, uint32_t n)
{
	if (n > SCT_MAX_EVENTS)
		return -SCT_E_LIMIT;
	for (uint32_t i = 0; i < n; i++) {
		size_t len = ev[i].name ? strlen(ev[i].name) : 0;

		if (ev[i].nfields > SCT_MAX_EVENT_FIELDS || len > SCT_MAX_NAME)
			return -SCT_E_LIMIT;
		if (!len || (ev[i].nfields && !ev[i].fields))
			return -EINVAL;
		for (uint32_t k = 0; k < ev[i].nfields; k++) {
			const struct sct_event_field *f = &ev[i].fields[k];
			size_t nl = f->name ? strlen(f->name) : 0, tl = f->type ? strlen(f->type) : 0;

			if (nl > SCT_MAX_NAME || tl > SCT_MAX_NAME)
				return -SCT_E_LIMIT;
			if (!field_valid(nl, tl, f->offset, f->size, f->is_signed, f->data_loc))
				return -EINVAL;
		}
	}
	return 0;
}

void event_table_encode(struct cbuf *b, const struct sct_event_desc *ev, uint32_t n)
{
	cbuf_array(b, n);
	for (uint32_t i = 0; i < n; i++) {
		cbuf_map(b, 2);
		cbuf_text(b, "name");
		cbuf_text(b, ev[i].name);
		cbuf_text(b, "fields");
		cbuf_array(b, ev[i].nfields);
		for (uint32_t k = 0; k < ev[i].nfields; k++) {
			const struct sct_event_field *f = &ev[i].fields[k];

			cbuf_array(b, EVENT_FIELD_ITEMS);
			cbuf_text(b, f->name);
			cbuf_text(b, f->type);
			cbuf_uint(b, f->offset);
			cbuf_uint(b, f->size);
			cbuf_uint(b, f->is_signed);
			cbuf_uint(b, f->data_loc);
		}
	}
}

void event_table_free(struct sct_event_desc *ev, uint32_t n)
{
	if (!ev)
		return;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < ev[i].nfields; k++) {
			free((char *)ev[i].fields[k].name);
			free((char *)ev[i].fields[k].type);
		}
		free((void *)ev[i].fields);
		free((char *)ev[i].name);
	}
	free(ev);
}

static size_t text_len(const cbor_item_t *it)
{
	return it && cbor_isa_string(it) ? cbor_string_length(it) : SIZE_MAX;
}

/* One field; 1 if malformed, 0, or -ENOMEM. */
static int field_parse(const cbor_item_t *it, struct sct_event_field *f)
{
	cbor_item_t **v;
	uint64_t off, size, sign, loc;

	if (!cbor_isa_array(it) || cbor_array_size(it) < EVENT_FIELD_ITEMS)
		return 1;
	v = cbor_array_handle(it);
	if (item_uint(v[2], &off) || item_uint(v[3], &size) || item_uint(v[4], &sign) ||
	    item_uint(v[5], &loc) || text_len(v[1]) == SIZE_MAX ||
	    !field_valid(text_len(v[0]), text_len(v[1]), off, size, sign, loc))
		return 1;
	f->offset = (uint32_t)off;
	f->size = (uint32_t)size;
	f->is_signed = (uint8_t)sign;
	f->data_loc = (uint8_t)loc;
	f->name = item_strdup(v[0]);
	f->type = item_strdup(v[1]);
	return f->name && f->type ? 0 : -ENOMEM;
}

/* One event; 1 if malformed, 0, or -ENOMEM. ev->nfields counts what needs freeing. */
static int event_parse(const cbor_item_t *it, struct sct_event_desc *ev)
{
	const cbor_item_t *name = item_map_get(it, "name"), *fields = item_map_get(it, "fields");
	struct sct_event_field *f;
	size_t n;

	if (text_len(name) < 1 || text_len(name) > SCT_MAX_NAME || !fields ||
	    !cbor_isa_array(fields) || cbor_array_size(fields) > SCT_MAX_EVENT_FIELDS)
		return 1;
	n = cbor_array_size(fields);
	ev->name = item_strdup(name);
	f = calloc(n ? n : 1, sizeof(*f));
	ev->fields = f;
	if (!ev->name || !f)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		int rc = field_parse(cbor_array_handle(fields)[k], &f[k]);

		ev->nfields = (uint32_t)k + 1;
		if (rc)
			return rc;
	}
	return 0;
}

int event_table_parse(const cbor_item_t *it, struct sct_event_desc **out, uint32_t *n)
{
	size_t len = it && cbor_isa_array(it) ? cbor_array_size(it) : 0;
	struct sct_event_desc *ev;
	int rc = 0;

	*out = NULL;
	*n = 0;
	/* the table is all or nothing: dropping one entry would shift every later index */
	if (!len || len > SCT_MAX_EVENTS)
		return 0;
	ev = calloc(len, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < len; i++)
		rc = event_parse(cbor_array_handle(it)[i], &ev[i]);
	if (rc) {
		event_table_free(ev, (uint32_t)len);
		return rc < 0 ? rc : 0;
	}
	*out = ev;
	*n = (uint32_t)len;
	return 0;
}
