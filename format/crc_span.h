/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC-32 of many overlapping spans of one forward-moving input, in time linear in the input.
 *
 * The resync scan (spec/FORMAT.md section 10.2) checks a candidate frame at every 83 byte, and
 * a candidate may claim a 16 MiB body: checking each one from scratch costs up to 16 MiB per
 * input byte. CRC-32 is linear, so the CRC of [y, e) follows from running CRCs of the input at
 * y and e (zlib's crc32_combine algebra). This keeps running CRCs every CRC_SPAN_STEP bytes,
 * each computed once, and answers a span with at most 2 * CRC_SPAN_STEP bytes of CRC and two
 * multiplications modulo the CRC polynomial.
 */
#ifndef SCT_CRC_SPAN_H
#define SCT_CRC_SPAN_H

#include <stddef.h>
#include <stdint.h>

/* Spans up to this long are computed directly. */
#define CRC_SPAN_STEP 64u

struct crc_span {
	uint64_t base;      /* input offset where the running CRC starts */
	uint64_t first, next; /* checkpoints held: numbers [first, next), checkpoint i at base + i*STEP */
	uint32_t *ring;     /* running CRC at each held checkpoint, by number modulo the ring size */
	uint64_t crc_bytes; /* bytes passed to crc32() so far: the work done, for tests */
};

/* Free the checkpoints (the object can be used again). */
void crc_span_free(struct crc_span *c);
/*
 * CRC-32 (zlib crc32()) of the len bytes at p, which sit at input offset off. Every byte from
 * p to the end of the span must be readable; spans are asked for at non-decreasing offsets
 * (bytes before the last off asked for are never touched again). -ENOMEM on allocation failure.
 */
int crc_span_get(struct crc_span *c, const uint8_t *p, uint64_t off, size_t len, uint32_t *crc);

#endif
