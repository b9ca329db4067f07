/* SPDX-License-Identifier: BSD-2-Clause */
/* The TRAILER frame body (spec/FORMAT.md section 8) and the writer's totals behind it. */
#ifndef SCT_TRAILER_H
#define SCT_TRAILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cbuf.h"
#include "sct.h"

struct index_entry {
	uint64_t offset, first_ns, last_ns, count;
};

/* Encoded size bound of one index entry: array head and four 9-byte uints. */
#define INDEX_ENTRY_MAX 37u
/* Index entries kept at most, so the TRAILER stays under SCT_MAX_FRAME_BODY. */
#define INDEX_MAX_ENTRIES ((SCT_MAX_FRAME_BODY - 4096u) / INDEX_ENTRY_MAX)

struct trailer_acc {
	struct sct_trailer_info info;
	struct index_entry *index;
	size_t nindex, cap;
	bool index_dropped; /* too many blocks: the TRAILER goes without an index */
};

/* Count a written block of the given per-type counts. 0 or -ENOMEM (totals are kept either way). */
int trailer_add_block(struct trailer_acc *t, const struct index_entry *e, const uint32_t *counts);
void trailer_free(struct trailer_acc *t);
void trailer_encode(struct cbuf *b, const struct trailer_acc *t);
/* Parse a TRAILER body; -SCT_E_CORRUPT if it does not decode. Unknown keys are ignored. */
int trailer_parse(const uint8_t *body, size_t len, struct sct_trailer_info *out);

#endif
