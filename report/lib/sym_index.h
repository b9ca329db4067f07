/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The function symbols of one module (sym_index.c), looked up by address: a sorted array
 * and a binary search. Names belong to the caller and must outlive the index.
 * Errors: 0 on success, a negative errno on failure.
 */
#ifndef SCT_SYM_INDEX_H
#define SCT_SYM_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sym {
	uint64_t addr, size; /* size 0: up to the next symbol's start */
	const char *name;
	uint32_t len;
	uint32_t seq; /* order of addition: a stable sort, so equal symbols resolve alike every run */
};

struct sym_index {
	struct sym *v;
	uint32_t n, cap;
	bool sorted;
};

/* Adds a symbol (name not copied); -ENOMEM. */
int sym_index_add(struct sym_index *ix, uint64_t addr, uint64_t size, const char *name, uint32_t len);
/*
 * The symbol that covers addr, NULL if none: of those starting at or below addr the nearest
 * (the largest there, the latest added of equals) when addr is below its end, or, size 0,
 * below the next symbol's start; else the nearest of the 8 before it whose extent holds
 * addr. Sorts on the first lookup after an addition.
 */
const struct sym *sym_index_find(struct sym_index *ix, uint64_t addr);
void sym_index_free(struct sym_index *ix);

#endif
