/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Names of values, from argnames.def's lists of the system headers' names: a value's name, and
 * a set of bits by the names of its flags (name_table.c), for the arguments' text and the
 * socket addresses' alike.
 */
#ifndef SCT_NAME_TABLE_H
#define SCT_NAME_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

struct name_value {
	const char *name;
	uint64_t value;
};

#define NAME_VALUE(n) { #n, (uint64_t)(n) },

/* The name of value in t[0..n), NULL when it has none. */
const char *name_table_find(const struct name_value *t, size_t n, uint64_t value);

/*
 * The names of value's bits in t's order, joined by '|' (and after a '|' when any: names went
 * before), then the bits no name covers in hex; "0" for no bits. When no name covers any bit
 * and none went before, it writes nothing and returns value, for the caller to show as the
 * value no name covers; 0 otherwise.
 */
uint64_t name_table_bits_out(struct out *o, const struct name_value *t, size_t n, uint64_t value, bool any);

#endif
