// SPDX-License-Identifier: BSD-2-Clause
/* Growable CBOR encoding buffer on top of libcbor's encoders (see cbuf.h). */
#include "cbuf.h"

#include <cbor.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_head.h"
#include "sct.h"
#include "utf8.h"

void cbuf_init(struct cbuf *b, size_t headroom, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->limit = limit;
	if (cbuf_room(b, headroom))
		b->len = headroom;
}

void cbuf_free(struct cbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

uint8_t *cbuf_room(struct cbuf *b, size_t n)
{
	size_t cap;
	uint8_t *tmp;

	if (b->err)
		return NULL;
	if (n > b->limit - b->len || b->len > b->limit) {
		b->err = -SCT_E_LIMIT;
		return NULL;
	}
	if (n <= b->cap - b->len)
		return b->p + b->len;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < n)
		cap *= 2;
	tmp = realloc(b->p, cap);
	if (!tmp) {
		b->err = -ENOMEM;
		return NULL;
	}
	b->p = tmp;
	b->cap = cap;
	return b->p + b->len;
}

/* Encode one head with a libcbor encoder: heads never need more than CHEAD_MAX bytes. */
static void cbuf_head(struct cbuf *b, size_t (*enc)(size_t, unsigned char *, size_t), size_t v)
{
	uint8_t *p = cbuf_room(b, CHEAD_MAX);

	if (p)
		b->len += enc(v, p, CHEAD_MAX);
}

void cbuf_uint(struct cbuf *b, uint64_t v)
{
	uint8_t *p = cbuf_room(b, CHEAD_MAX);

	if (p)
		b->len += cbor_encode_uint(v, p, CHEAD_MAX);
}

void cbuf_array(struct cbuf *b, size_t n)
{
	cbuf_head(b, cbor_encode_array_start, n);
}

void cbuf_map(struct cbuf *b, size_t n)
{
	cbuf_head(b, cbor_encode_map_start, n);
}

void cbuf_text(struct cbuf *b, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	size_t out = utf8_sanitized_len((const uint8_t *)s, len);
	uint8_t *p;

	cbuf_head(b, cbor_encode_string_start, out);
	p = cbuf_room(b, out);
	if (!p)
		return;
	utf8_sanitize(p, (const uint8_t *)s, len);
	b->len += out;
}
