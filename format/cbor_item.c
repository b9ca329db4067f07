// SPDX-License-Identifier: BSD-2-Clause
/* Accessors over libcbor item trees (see cbor_item.h). */
#include "cbor_item.h"

#include <stdlib.h>
#include <string.h>

#include "cbor_head.h"
#include "sct.h"

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

char *item_strdup(const cbor_item_t *it)
{
	size_t len = 0;
	char *s;

	if (it && (cbor_isa_string(it) || cbor_isa_bytestring(it)))
		len = cbor_isa_string(it) ? cbor_string_length(it) : cbor_bytestring_length(it);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	if (len)
		memcpy(s, cbor_isa_string(it) ? cbor_string_handle(it) : cbor_bytestring_handle(it), len);
	s[len] = '\0';
	return s;
}

cbor_item_t *item_load(const uint8_t *p, size_t len)
{
	struct cbor_load_result res;
	cbor_item_t *it;

	if (chead_check(p, len, SCT_MAX_NESTING))
		return NULL;
	it = cbor_load(p, len, &res);
	if (it && res.read != len) {
		cbor_decref(&it);
		return NULL;
	}
	return it;
}
