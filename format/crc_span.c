// SPDX-License-Identifier: BSD-2-Clause
/* Linear-time CRC-32 of overlapping spans (see crc_span.h). */
#include "crc_span.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

#include "frame.h"
#include "sct.h"

/* The longest span: the largest frame. */
#define SPAN_MAX (SCT_MAX_FRAME_BODY + FRAME_HEAD_MAX + FRAME_CHECK_LEN)
/* Checkpoints in the longest span and the partial ones at its ends. */
#define RING (SPAN_MAX / CRC_SPAN_STEP + 4)
/* x^(8n) modulo the polynomial as lo[n % LO] times hi[n / LO]: two table reads and one product
 * instead of crc32_combine_gen()'s product per bit of n, which cost most of the scan. */
#define LO 4096u
#define HI (SPAN_MAX / LO + 1)

void crc_span_free(struct crc_span *c)
{
	free(c->ring);
	c->ring = NULL;
	c->first = c->next = 0;
}

/* a times b modulo the CRC polynomial */
static uint32_t mul(uint32_t a, uint32_t b)
{
	return (uint32_t)crc32_combine_op(a, 0, b);
}

static int span_alloc(struct crc_span *c)
{
	uint32_t *lo, *hi;

	c->ring = malloc((RING + LO + HI) * sizeof(*c->ring));
	if (!c->ring)
		return -ENOMEM;
	lo = c->ring + RING;
	hi = lo + LO;
	lo[0] = hi[0] = (uint32_t)crc32_combine_gen(0);
	lo[1] = (uint32_t)crc32_combine_gen(1);
	hi[1] = (uint32_t)crc32_combine_gen(LO);
	for (uint32_t i = 2; i < LO; i++)
		lo[i] = mul(lo[i - 1], lo[1]);
	for (uint32_t i = 2; i < HI; i++)
		hi[i] = mul(hi[i - 1], hi[1]);
	return 0;
}

/* The operator that multiplies a CRC by x^(8n): appends n zero bytes. */
static uint32_t span_op(const struct crc_span *c, uint64_t n)
{
	const uint32_t *lo = c->ring + RING, *hi = lo + LO;

	return mul(lo[n % LO], hi[n / LO]);
}

static uint32_t span_crc(struct crc_span *c, uint32_t crc, const uint8_t *p, size_t len)
{
	c->crc_bytes += len;
	return (uint32_t)crc32(crc, p, (uInt)len);
}

static uint64_t span_at(const struct crc_span *c, uint64_t i)
{
	return c->base + i * CRC_SPAN_STEP;
}

int crc_span_get(struct crc_span *c, const uint8_t *p, uint64_t off, size_t len, uint32_t *crc)
{
	uint64_t end = off + len, last, k;
	uint32_t head, at_end, op;

	if (len <= 2 * CRC_SPAN_STEP) {
		*crc = span_crc(c, 0, p, len);
		return 0;
	}
	if (!c->ring && span_alloc(c))
		return -ENOMEM;
	/* the running CRC cannot be carried over bytes that are gone: start it again here */
	if (c->next == 0 || span_at(c, c->next - 1) < off) {
		c->base = off;
		c->first = 0;
		c->next = 1;
		c->ring[0] = 0;
	}
	while (span_at(c, c->first) < off)
		c->first++;
	while (span_at(c, c->next) <= end) {
		const uint8_t *from = p + (span_at(c, c->next - 1) - off);

		c->ring[c->next % RING] = span_crc(c, c->ring[(c->next - 1) % RING], from, CRC_SPAN_STEP);
		c->next++;
	}
	/* the last checkpoint at or before end (an earlier, longer span may have gone further) */
	k = (end - c->base) / CRC_SPAN_STEP;
	if (k > c->next - 1)
		k = c->next - 1;
	last = span_at(c, k);
	/* crc(A B) = A's crc times x^(8|B|), plus B's crc: solve for the span from the two ends */
	head = span_crc(c, 0, p, (size_t)(span_at(c, c->first) - off));
	at_end = span_crc(c, c->ring[k % RING], p + (last - off), (size_t)(end - last));
	op = span_op(c, end - span_at(c, c->first));
	*crc = (uint32_t)crc32_combine_op(head ^ c->ring[c->first % RING], at_end, op);
	return 0;
}
