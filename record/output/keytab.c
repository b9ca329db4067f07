// SPDX-License-Identifier: BSD-2-Clause
/*
 * A hash table of fixed-size keys and values, for the totals: open addressing with linear
 * probing, deletion by backward shift (no tombstones, so a table that keys come and go
 * through never fills with them), bounded by a maximum number of keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../record.h"

#define KEYTAB_MIN_CAP 64

static size_t keytab_round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

void keytab_init(struct keytab *t, size_t key_size, size_t val_size, size_t max_keys)
{
	memset(t, 0, sizeof(*t));
	t->key_size = key_size;
	t->val_size = val_size;
	t->max_keys = max_keys;
	t->slot_size = 8 + keytab_round8(key_size) + keytab_round8(val_size);
}

void keytab_free(struct keytab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->n = t->cap = 0;
}

static uint8_t *keytab_slot(const struct keytab *t, size_t i)
{
	return t->slots + i * t->slot_size;
}

/* FNV-1a: the keys are small structs of ids, any decent spread does. */
static size_t keytab_hash(const struct keytab *t, const void *key)
{
	const uint8_t *p = key;
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < t->key_size; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

void *keytab_key(const struct keytab *t, size_t i)
{
	uint8_t *s = keytab_slot(t, i);

	return s[0] ? s + 8 : NULL;
}

void *keytab_val(const struct keytab *t, size_t i)
{
	return keytab_slot(t, i) + 8 + keytab_round8(t->key_size);
}

/* The slot of key, or of the empty slot where it would go. */
static size_t keytab_find(const struct keytab *t, const void *key)
{
	size_t i = keytab_hash(t, key) & (t->cap - 1);

	while (keytab_slot(t, i)[0] && memcmp(keytab_slot(t, i) + 8, key, t->key_size))
		i = (i + 1) & (t->cap - 1);
	return i;
}

static int keytab_grow(struct keytab *t)
{
	size_t cap = t->cap ? 2 * t->cap : KEYTAB_MIN_CAP, old_cap = t->cap;
	uint8_t *old = t->slots, *slots = calloc(cap, t->slot_size);

	if (!slots)
		return -ENOMEM;
	t->slots = slots;
	t->cap = cap;
	for (size_t i = 0; i < old_cap; i++) {
		uint8_t *s = old + i * t->slot_size;

		if (s[0])
			memcpy(keytab_slot(t, keytab_find(t, s + 8)), s, t->slot_size);
	}
	free(old);
	return 0;
}

void *keytab_get(struct keytab *t, const void *key)
{
	size_t i;

	if (!t->cap)
		return NULL;
	i = keytab_find(t, key);
	return keytab_slot(t, i)[0] ? keytab_val(t, i) : NULL;
}

void *keytab_put(struct keytab *t, const void *key, int *err)
{
	uint8_t *s;
	size_t i;

	*err = 0;
	if (t->cap) {
		i = keytab_find(t, key);
		if (keytab_slot(t, i)[0])
			return keytab_val(t, i);
	}
	if (t->n >= t->max_keys) {
		*err = -ENOSPC;
		return NULL;
	}
	/* at most half full: the probes stay short */
	if (2 * (t->n + 1) > t->cap && (*err = keytab_grow(t)))
		return NULL;
	i = keytab_find(t, key);
	s = keytab_slot(t, i);
	memset(s, 0, t->slot_size);
	s[0] = 1;
	memcpy(s + 8, key, t->key_size);
	t->n++;
	return keytab_val(t, i);
}

void keytab_del_at(struct keytab *t, size_t i)
{
	size_t mask = t->cap - 1, j = i, k;

	keytab_slot(t, i)[0] = 0;
	t->n--;
	/* backward shift: every key after the hole that may not be found past it moves into it */
	for (;;) {
		j = (j + 1) & mask;
		if (!keytab_slot(t, j)[0])
			return;
		k = keytab_hash(t, keytab_slot(t, j) + 8) & mask;
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			memcpy(keytab_slot(t, i), keytab_slot(t, j), t->slot_size);
			keytab_slot(t, j)[0] = 0;
			i = j;
		}
	}
}

void keytab_del(struct keytab *t, const void *key)
{
	size_t i;

	if (!t->cap)
		return;
	i = keytab_find(t, key);
	if (keytab_slot(t, i)[0])
		keytab_del_at(t, i);
}
