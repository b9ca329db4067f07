// SPDX-License-Identifier: BSD-2-Clause
/* Linear-time CRC-32 of overlapping spans (see crc_span.h). */
#include "crc_span.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

#include "frame.h"
#include "sct.h"

/* Checkpoints in the longest span (the largest frame) and the partial ones at its ends. */
#define RING ((SCT_MAX_FRAME_BODY + FRAME_HEAD_MAX + FRAME_CHECK_LEN) / CRC_SPAN_STEP + 4)

void crc_span_free(struct crc_span *c)
{
	free(c->ring);
	c->ring = NULL;
	c->first = c->next = 0;
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
	if (!c->ring) {
		c->ring = malloc(RING * sizeof(*c->ring));
		if (!c->ring)
			return -ENOMEM;
	}
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
	op = (uint32_t)crc32_combine_gen((z_off_t)(end - span_at(c, c->first)));
	*crc = (uint32_t)crc32_combine_op(head ^ c->ring[c->first % RING], at_end, op);
	return 0;
}
