/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HEADER's event table (spec/FORMAT.md section 5, "events"): the tracepoints SAMPLE
 * records refer to, with their fields as tracefs describes them.
 */
#ifndef SCT_EVENT_TABLE_H
#define SCT_EVENT_TABLE_H

#include <cbor.h>
#include <stdint.h>

#include "cbuf.h"
#include "sct.h"

/* 0 if the table is within the limits and every field lies in 64 KiB; -SCT_E_LIMIT or -EINVAL. */
int event_table_check(const struct sct_event_desc *ev, uint32_t n);
/* Encode the table as the "events" array (checked before). */
void event_table_encode(struct cbuf *b, const struct sct_event_desc *ev, uint32_t n);
/*
 * Parse an "events" array into *out (owned copies). An absent or malformed table, or one
 * past a limit, reads as no table: 0 with *n 0. Returns 0 or -ENOMEM.
 */
int event_table_parse(const cbor_item_t *it, struct sct_event_desc **out, uint32_t *n);
void event_table_free(struct sct_event_desc *ev, uint32_t n);

#endif
