/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BLOCK frames made ready ahead of the reader by a pool of threads (block_prefetch.c). The
 * reader finds frames in input order as it always does; the BLOCK frames that follow the
 * current one are copied to slots, and the workers check their checksums, decompress and
 * validate them (block_dec_load()); when the reader reaches one it takes the slot's checksum
 * verdict and loaded block in place of working them out itself, and decodes its columns a chunk
 * at a time, as it does alone. A block's decoded values take 72 bytes a call where its
 * compressed columns take a few: decoded by a worker, they crossed between cores at more cost
 * than their decoding (the summary at -j2 took 0.213 s of CPU on the 10,000,000-record bench
 * trace, against 0.130 s with the columns decoded by the reader). A result is what
 * block_dec_load() gives for the same bytes and session, so the reader's records, diagnostics
 * and their order do not change. Memory is bounded whatever the input: at most
 * PREFETCH_WINDOW bytes of frames ahead, and at most PREFETCH_MAX_SLOTS slots, each a copy of
 * its frame and its payload (SCT_MAX_BLOCK_RAW at most).
 * Errors: 0 or -ENOMEM (-errno from pthread_create()).
 */
#ifndef SCT_BLOCK_PREFETCH_H
#define SCT_BLOCK_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block_decode.h"
#include "frame.h"
#include "session.h"

/* Input bytes read ahead of the frame the reader is at. */
#define PREFETCH_WINDOW (8u << 20)
/* Frames in flight at most, whatever the workers. */
#define PREFETCH_MAX_SLOTS 32u

struct prefetch;

/* What a frame is decoded with: it must match when the reader takes the result. */
struct prefetch_key {
	uint64_t offset;                  /* the frame's offset in the input */
	const struct sct_session *session; /* NULL: the built-in schema */
	uint32_t skip_types;
	bool deliver_unknown;
};

/* jobs worker threads (>= 1), slots frames in flight at most (PREFETCH_MAX_SLOTS, and at least
 * one per worker). NULL and *err on failure. */
struct prefetch *prefetch_new(uint32_t jobs, uint32_t slots, int *err);
/* Waits for the workers and frees everything; NULL is fine. */
void prefetch_free(struct prefetch *pf);
/* Room for one more frame in flight. */
bool prefetch_room(const struct prefetch *pf);
/* Input offset just past the last frame queued; 0 when none is. */
uint64_t prefetch_end(const struct prefetch *pf);
/* Queue the frame f (its bytes copied) at k->offset. 0 or -ENOMEM. */
int prefetch_push(struct prefetch *pf, const struct prefetch_key *k, const uint8_t *frame, const struct frame *f);
/*
 * Whether the frame f at offset passed frame_verify(): 1 or 0 when it is the next one queued
 * (on 0 nothing stays queued: the reader resyncs from there); -1 when it is not queued.
 */
int prefetch_verified(struct prefetch *pf, uint64_t offset, const struct frame *f);
/*
 * The result of the frame at k: 1 when it was queued with the same key (*blk then holds its
 * decoded block, the old one goes back to the slot; *rc and *why as block_meta_parse() and
 * block_dec_load() gave them); 0 when it was not, and then nothing stays queued (the frames
 * ahead are dropped: the reader decodes them itself).
 */
int prefetch_take(struct prefetch *pf, const struct prefetch_key *k, struct block_dec *blk, int *rc,
		  const char **why);
/* Drop every frame queued (the reader left the run of frames they were read from). */
void prefetch_drop(struct prefetch *pf);

#endif
