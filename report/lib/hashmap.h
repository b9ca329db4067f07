/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Open addressing map (hashmap.c) from a tuple of nkeys uint64 to a non-NULL pointer.
 */
#ifndef SCT_HASHMAP_H
#define SCT_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct hashmap {
	uint64_t *keys;
	void **vals;
	size_t cap, count;
	uint32_t nkeys;
};
void hashmap_init(struct hashmap *m, uint32_t nkeys);
void *hashmap_get(const struct hashmap *m, const uint64_t *key);
int hashmap_put(struct hashmap *m, const uint64_t *key, void *val);
void hashmap_remove(struct hashmap *m, const uint64_t *key);
void hashmap_free(struct hashmap *m);

#endif
