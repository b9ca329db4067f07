/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stream read live (live_input.c): libsct's reader runs in a thread of its own and hands
 * its records over one by one, so that the caller can wait for the next one with a deadline
 * and print what is due while the stream is quiet. The caller sees the reader's records in
 * its order, as sct_reader_next() gives them.
 */
#ifndef SCT_LIVE_INPUT_H
#define SCT_LIVE_INPUT_H

#include <stdint.h>

#include "sct.h"

struct footer;
struct live_input;

/* Reads r (owned by the caller, closed after live_input_free()); its diagnostics go to f. */
int live_input_start(struct live_input **out, struct sct_reader *r, struct footer *f);
/*
 * As sct_reader_next(): 1, 0 at the end, a negative error; -EAGAIN when deadline_ns
 * (CLOCK_MONOTONIC, 0: none) passed first. The record's strings stay valid until the next
 * call, and the reader's session stays the one of the last SESSION record returned. Before
 * it waits for the stream it calls idle(ctx) if given (the caller flushes its output).
 */
int live_input_next(struct live_input *li, struct sct_record *rec, uint64_t deadline_ns, void (*idle)(void *),
		    void *ctx);
/*
 * Stops the thread: at once if it waits for the caller, else when its read returns (the
 * stream ends: the caller ends the feed first, follow.c).
 */
/* After live_input_next() returned 0 or an error other than -EAGAIN: the thread is done. */
void live_input_free(struct live_input *li);
uint64_t live_now_ns(void);

#endif
