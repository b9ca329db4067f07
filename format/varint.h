/* SPDX-License-Identifier: BSD-2-Clause */
/* LEB128 varints and zigzag, as spec/FORMAT.md section 7 defines them. */
#ifndef SCT_VARINT_H
#define SCT_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX 10

/* Write v at p (room for VARINT_MAX bytes); returns bytes written. */
static inline size_t varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)v | 0x80;
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * Read a varint at *pos, never past end. Returns 0 and advances *pos, or -1 if the bytes
 * end first, run past 10 bytes or overflow 64 bits.
 */
static inline int varint_get(const uint8_t **pos, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pos;
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (p == end)
			return -1;
		uint8_t b = *p++;
		/* the 10th byte may only carry bit 63 */
		if (shift == 63 && b > 1)
			return -1;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pos = p;
			*out = v;
			return 0;
		}
	}
	return -1;
}

static inline uint64_t zigzag_enc(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t zigzag_dec(uint64_t s)
{
	return (int64_t)((s >> 1) ^ (0 - (s & 1)));
}

#endif
