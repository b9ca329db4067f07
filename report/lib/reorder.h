/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records of a live stream held until they are due, given back oldest first (reorder.c).
 */
#ifndef SCT_REORDER_H
#define SCT_REORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "sct.h"

#define REORDER_RECORDS 65536u   /* records held at most */
#define REORDER_BYTES (16u << 20) /* bytes of their strings */

struct reorder;
struct reorder *reorder_new(void); /* NULL on ENOMEM */
/*
 * A copy of rec, strings included, under key (ties in push order), with tag (what the
 * caller needs to know of it when it is popped: which file it came from). -ENOMEM.
 */
int reorder_push(struct reorder *ro, const struct sct_record *rec, uint64_t key, uint64_t tag);
/* Records up to key arrived at time at (any clock, not going back). */
void reorder_arrived(struct reorder *ro, uint64_t at, uint64_t key);
/*
 * The largest key that had arrived at or before until, into *key; false if nothing had.
 * until must not go back from one call to the next.
 */
bool reorder_due_key(struct reorder *ro, uint64_t until, uint64_t *key);
/* The earliest arrival reorder_due_key() has not passed yet, 0 if none. */
uint64_t reorder_next_arrival(const struct reorder *ro);
/*
 * When records up to key will have arrived if the stream keeps the smallest lag behind its
 * keys seen so far (a replay of an old file lags by its age: its keys never come due by
 * the clock alone), and not before the last arrival; 0 if nothing arrived.
 */
uint64_t reorder_arrival_of(const struct reorder *ro, uint64_t key);
/* Forgets the arrivals, held records kept: the keys that come next are on another clock. */
void reorder_clock_reset(struct reorder *ro);
/* The smallest key held; count > 0. */
uint64_t reorder_min_key(const struct reorder *ro);
/* How many tags the records held have between them. */
uint32_t reorder_tags(const struct reorder *ro);
/* The smallest tag held; count > 0. */
uint64_t reorder_min_tag(const struct reorder *ro);
/* The record of the smallest key into *rec (its strings valid until the next pop or free); its tag. */
uint64_t reorder_pop(struct reorder *ro, struct sct_record *rec);
uint32_t reorder_count(const struct reorder *ro);
/* Past either bound: the oldest record is due whatever its key. */
bool reorder_full(const struct reorder *ro);
void reorder_free(struct reorder *ro);

#endif
