/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand decoding of CBOR item heads. The frame envelope and the BLOCK metadata are a handful
 * of integers read once per frame, and the resync scan tries them at every candidate byte:
 * decoding them in place is bounds-checked by construction, needs no allocation and is much
 * cheaper than a libcbor decoder per candidate. HEADER and TRAILER maps go through libcbor,
 * after chead_check() has bounded their structure.
 */
#ifndef SCT_CBOR_HEAD_H
#define SCT_CBOR_HEAD_H

#include <stddef.h>
#include <stdint.h>

#define CHEAD_MAX 9

struct chead {
	uint8_t major; /* 0..7 */
	uint8_t ai;    /* additional information (low 5 bits of the initial byte) */
	uint64_t arg;  /* value, length or count */
};

/*
 * Decode the head at p with avail bytes. Returns its length (1..9), 0 if avail is too short,
 * -1 if malformed (additional information 28..31: reserved or indefinite length).
 */
int chead_get(const uint8_t *p, size_t avail, struct chead *h);

/* Decode a head of the given major type at *pos (< end) and advance; -1 on any mismatch. */
int chead_expect(const uint8_t **pos, const uint8_t *end, uint8_t major, uint64_t *arg);

/*
 * 0 if [p, p+len) is exactly one well-formed CBOR item with definite lengths only and at most
 * max_depth nested arrays, maps and tags (empty ones count); -1 otherwise. Bounds every count
 * by the bytes left, so a decoder run after it cannot be made to allocate more than
 * len-proportional memory.
 */
int chead_check(const uint8_t *p, size_t len, unsigned max_depth);

#endif
