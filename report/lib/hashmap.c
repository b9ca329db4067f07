// SPDX-License-Identifier: BSD-2-Clause
/* Open addressing (linear probing) from a fixed-length tuple of uint64 to a pointer. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"

static uint64_t hashmap_hash(const uint64_t *key, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (uint32_t i = 0; i < n; i++) {
		h ^= key[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h;
}

void hashmap_init(struct hashmap *m, uint32_t nkeys)
{
	memset(m, 0, sizeof(*m));
	m->nkeys = nkeys;
}

static bool hashmap_eq(const uint64_t *a, const uint64_t *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static size_t hashmap_find(const struct hashmap *m, const uint64_t *key)
{
	size_t i = hashmap_hash(key, m->nkeys) & (m->cap - 1);

	while (m->vals[i] && !hashmap_eq(&m->keys[i * m->nkeys], key, m->nkeys))
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *hashmap_get(const struct hashmap *m, const uint64_t *key)
{
	if (!m->cap)
		return NULL;
	return m->vals[hashmap_find(m, key)];
}

static int hashmap_grow(struct hashmap *m)
{
	struct hashmap n = *m;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.count = 0;
	n.keys = calloc(n.cap, m->nkeys * sizeof(uint64_t));
	n.vals = calloc(n.cap, sizeof(void *));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->vals[i])
			continue;
		j = hashmap_find(&n, &m->keys[i * m->nkeys]);
		memcpy(&n.keys[j * n.nkeys], &m->keys[i * m->nkeys], m->nkeys * sizeof(uint64_t));
		n.vals[j] = m->vals[i];
		n.count++;
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int hashmap_put(struct hashmap *m, const uint64_t *key, void *val)
{
	size_t i;

	if ((m->count + 1) * 2 > m->cap && hashmap_grow(m))
		return -ENOMEM;
	i = hashmap_find(m, key);
	if (!m->vals[i]) {
		memcpy(&m->keys[i * m->nkeys], key, m->nkeys * sizeof(*key));
		m->count++;
	}
	m->vals[i] = val;
	return 0;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
void hashmap_remove(struct hashmap *m, const uint64_t *key)
{
	size_t i, j, mask = m->cap - 1;

	if (!m->cap)
		return;
	i = hashmap_find(m, key);
	if (!m->vals[i])
		return;
	m->vals[i] = NULL;
	m->count--;
	for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		size_t home = hashmap_hash(&m->keys[j * m->nkeys], m->nkeys) & mask;

		/* move j back to i when i lies cyclically in [home, j) */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			memcpy(&m->keys[i * m->nkeys], &m->keys[j * m->nkeys], m->nkeys * sizeof(uint64_t));
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
}

void hashmap_free(struct hashmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
