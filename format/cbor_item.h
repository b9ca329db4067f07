/* SPDX-License-Identifier: BSD-2-Clause */
/* Small accessors over libcbor item trees (HEADER and TRAILER parsing). */
#ifndef SCT_CBOR_ITEM_H
#define SCT_CBOR_ITEM_H

#include <cbor.h>
#include <stdint.h>

/* Value of key in a map with text-string keys; NULL if absent or map is not a map. */
const cbor_item_t *item_map_get(const cbor_item_t *map, const char *key);
/* 0 and *v if it is an unsigned integer, -1 otherwise (it may be NULL). */
int item_uint(const cbor_item_t *it, uint64_t *v);
/* Bytes of a text string up to its first NUL, as strings read (spec/FORMAT.md section 5); 0 for
 * any other item. */
size_t item_text_len(const cbor_item_t *it);
/* NUL-terminated copy of a text string; "" for NULL or another type; NULL on ENOMEM. */
char *item_strdup(const cbor_item_t *it);
/* cbor_load() of exactly len bytes after chead_check() has bounded them; NULL if malformed. */
cbor_item_t *item_load(const uint8_t *p, size_t len);

#endif
