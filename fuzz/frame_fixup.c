// SPDX-License-Identifier: BSD-2-Clause
#include "frame_fixup.h"

#include <string.h>
#include <zlib.h>

#define MAX_FRAME_BODY (16u << 20)

/* CBOR head of major type major at p (avail bytes): its length, 0 if not such a head. */
static size_t head_get(const uint8_t *p, size_t avail, unsigned major, uint64_t *arg)
{
	static const uint8_t extra[4] = { 1, 2, 4, 8 };
	unsigned ai;
	size_t n;

	if (avail < 1 || p[0] >> 5 != major)
		return 0;
	ai = p[0] & 0x1f;
	if (ai < 24) {
		*arg = ai;
		return 1;
	}
	if (ai > 27)
		return 0;
	n = extra[ai - 24];
	if (avail < 1 + n)
		return 0;
	*arg = 0;
	for (size_t i = 0; i < n; i++)
		*arg = *arg << 8 | p[1 + i];
	return 1 + n;
}

/* Bytes covered by the checksum of the frame at p, or 0 if no whole envelope is there. */
static size_t envelope_covered(const uint8_t *p, size_t avail)
{
	uint64_t type, body;
	size_t pos = 1, n;

	if (avail < 1 || p[0] != 0x83)
		return 0;
	n = head_get(p + pos, avail - pos, 0, &type);
	if (!n || type > UINT32_MAX)
		return 0;
	pos += n;
	n = head_get(p + pos, avail - pos, 2, &body);
	if (!n || body > MAX_FRAME_BODY)
		return 0;
	pos += n;
	if (avail - pos < body + 5 || p[pos + body] != 0x1a)
		return 0;
	return pos + (size_t)body;
}

size_t frame_fixup(uint8_t *buf, size_t len)
{
	size_t pos = 0, changed = 0;

	while (pos < len) {
		size_t covered = envelope_covered(buf + pos, len - pos);
		uint8_t want[4];
		uint32_t crc;

		if (!covered) {
			pos++;
			continue;
		}
		crc = (uint32_t)crc32(0, buf + pos, (uInt)covered);
		want[0] = (uint8_t)(crc >> 24);
		want[1] = (uint8_t)(crc >> 16);
		want[2] = (uint8_t)(crc >> 8);
		want[3] = (uint8_t)crc;
		if (memcmp(buf + pos + covered + 1, want, 4)) {
			memcpy(buf + pos + covered + 1, want, 4);
			changed++;
		}
		pos += covered + 5;
	}
	return changed;
}
