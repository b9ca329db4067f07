/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records a stream holds back until their task is known (window.c, spec/FORMAT.md 9.2).
 */
#ifndef SCT_WINDOW_H
#define SCT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "sct.h"

#define WINDOW_RECORDS 16384u     /* records a stream holds back (spec/FORMAT.md 9.2) */
#define WINDOW_BYTES (4u << 20)   /* bytes of their strings */
struct window;
struct window *window_new(void); /* NULL on ENOMEM */
/* A copy of rec, strings included, at the back. -ENOMEM; -ENOBUFS when full of records. */
int window_push(struct window *w, const struct sct_record *rec);
/* The oldest record into *rec (its strings valid until the next pop or free). n > 0. */
void window_pop(struct window *w, struct sct_record *rec);
uint32_t window_count(const struct window *w);
/* Past either bound: the oldest record is due. */
bool window_full(const struct window *w);
void window_free(struct window *w);
/*
 * rec's strings copied into one new block (*bytes, NULL if it has none; the caller frees it)
 * and rec pointed at them; a type above SCT_REC_MAX keeps its type only. -ENOMEM.
 */
int window_copy_strings(struct sct_record *rec, uint8_t **bytes, size_t *nbytes);

#endif
