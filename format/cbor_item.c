// SPDX-License-Identifier: BSD-2-Clause
/* Accessors over libcbor item trees (see cbor_item.h). */
#include "cbor_item.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_head.h"
#include "sct.h"
#include "utf8.h"

const cbor_item_t *item_map_get(const cbor_item_t *map, const char *key)
{
	size_t klen = strlen(key);
	struct cbor_pair *p;

	if (!map || !cbor_isa_map(map))
		return NULL;
	p = cbor_map_handle(map);
	for (size_t i = 0; i < cbor_map_size(map); i++)
		if (cbor_isa_string(p[i].key) && cbor_string_length(p[i].key) == klen &&
		    !memcmp(cbor_string_handle(p[i].key), key, klen))
			return p[i].value;
	return NULL;
}

int item_uint(const cbor_item_t *it, uint64_t *v)
{
	if (!it || !cbor_isa_uint(it))
		return -1;
	*v = cbor_get_int(it);
	return 0;
}

size_t item_text_len(const cbor_item_t *it)
{
	const uint8_t *nul;

	if (!it || !cbor_isa_string(it))
		return 0;
	nul = memchr(cbor_string_handle(it), 0, cbor_string_length(it));
	return nul ? (size_t)(nul - cbor_string_handle(it)) : cbor_string_length(it);
}

char *item_strdup(const cbor_item_t *it)
{
	size_t len = it && cbor_isa_string(it) ? cbor_string_length(it) : 0;
	char *s = malloc(len + 1);

	if (!s)
		return NULL;
	if (len)
		memcpy(s, cbor_string_handle(it), len);
	s[len] = '\0';
	return s;
}

/* Bytes a head with this argument takes in its shortest form. */
static size_t head_len(uint64_t arg)
{
	return arg < 24 ? 1 : arg <= UINT8_MAX ? 2 : arg <= UINT16_MAX ? 3 : arg <= UINT32_MAX ? 5 : 9;
}

static uint8_t *head_put(uint8_t *out, uint8_t major, uint64_t arg)
{
	size_t n = head_len(arg) - 1;

	*out++ = (uint8_t)(major << 5 | (n ? 24u + (unsigned)__builtin_ctz((unsigned)n) : arg));
	for (size_t i = n; i > 0; i--)
		*out++ = (uint8_t)(arg >> (8 * (i - 1)));
	return out;
}

/*
 * Size of p once every text string is valid UTF-8 (each byte that starts no valid sequence
 * becomes U+FFFD, as the writer does); 0 if p needs no repair. p passed chead_check(), so its
 * heads can be walked in a line: only strings have bytes after their head.
 */
static size_t repaired_len(const uint8_t *p, size_t len)
{
	size_t pos = 0, out = 0;
	bool bad = false;

	while (pos < len) {
		struct chead h;
		int n = chead_get(p + pos, len - pos, &h);
		size_t slen;

		pos += (size_t)n;
		if (h.major != 2 && h.major != 3) {
			out += (size_t)n;
			continue;
		}
		slen = h.major == 3 ? utf8_sanitized_len(p + pos, (size_t)h.arg) : (size_t)h.arg;
		bad |= slen != h.arg; /* each bad byte grows by two */
		out += head_len(slen) + slen;
		pos += (size_t)h.arg;
	}
	return bad ? out : 0;
}

static void repair(uint8_t *out, const uint8_t *p, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		struct chead h;
		int n = chead_get(p + pos, len - pos, &h);

		if (h.major != 2 && h.major != 3) {
			memcpy(out, p + pos, (size_t)n);
			out += n;
			pos += (size_t)n;
			continue;
		}
		pos += (size_t)n;
		if (h.major == 2) {
			out = head_put(out, 2, h.arg);
			memcpy(out, p + pos, (size_t)h.arg);
			out += h.arg;
		} else {
			size_t slen = utf8_sanitized_len(p + pos, (size_t)h.arg);

			out = head_put(out, 3, slen);
			utf8_sanitize(out, p + pos, (size_t)h.arg);
			out += slen;
		}
		pos += (size_t)h.arg;
	}
}

cbor_item_t *item_load(const uint8_t *p, size_t len)
{
	struct cbor_load_result res;
	uint8_t *fixed = NULL;
	cbor_item_t *it;
	size_t flen;

	if (chead_check(p, len, SCT_MAX_NESTING))
		return NULL;
	flen = repaired_len(p, len);
	if (flen) {
		fixed = malloc(flen);
		if (!fixed)
			return NULL;
		repair(fixed, p, len);
		p = fixed;
		len = flen;
	}
	it = cbor_load(p, len, &res);
	if (it && res.read != len)
		cbor_decref(&it);
	free(fixed);
	return it;
}
