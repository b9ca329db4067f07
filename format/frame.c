// SPDX-License-Identifier: BSD-2-Clause
/* Frame envelope: encode with libcbor, decode by hand (see cbor_head.h for why). */
#include "frame.h"

#include <cbor.h>
#include <string.h>
#include <zlib.h>

#include "cbor_head.h"
#include "sct.h"

const uint8_t sct_label[SCT_LABEL_LEN] = {
	0xd9, 0xd9, 0xf8,             /* tag 55800 */
	0xda, 0x53, 0x43, 0x54, 0x46, /* tag 0x53435446 "SCTF" */
	0x43, 0x42, 0x4f, 0x52,       /* bytes(3) "BOR" */
};

int frame_head_get(const uint8_t *p, size_t avail, struct frame *f)
{
	struct chead h;
	size_t pos = 1;
	int n;

	if (avail < 1)
		return FRAME_SHORT;
	if (p[0] != 0x83)
		return FRAME_BAD;
	n = chead_get(p + pos, avail - pos, &h);
	if (n <= 0)
		return n == 0 ? FRAME_SHORT : FRAME_BAD;
	if (h.major != 0 || h.arg > UINT32_MAX)
		return FRAME_BAD;
	f->type = (uint32_t)h.arg;
	pos += (size_t)n;
	n = chead_get(p + pos, avail - pos, &h);
	if (n <= 0)
		return n == 0 ? FRAME_SHORT : FRAME_BAD;
	if (h.major != 2)
		return FRAME_BAD;
	pos += (size_t)n;
	f->head_len = (uint32_t)pos;
	f->body_len = h.arg;
	if (h.arg > SCT_MAX_FRAME_BODY) {
		f->total = 0;
		return FRAME_TOO_LONG;
	}
	f->total = pos + h.arg + FRAME_CHECK_LEN;
	return FRAME_OK;
}

bool frame_check_get(const uint8_t *p, const struct frame *f, uint32_t *stored)
{
	const uint8_t *c = p + frame_covered(f);

	if (c[0] != 0x1a)
		return false;
	*stored = (uint32_t)c[1] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 8 | c[4];
	return true;
}

bool frame_verify(const uint8_t *p, const struct frame *f)
{
	uint32_t stored;

	return frame_check_get(p, f, &stored) && crc32(0, p, (uInt)frame_covered(f)) == stored;
}

size_t frame_head_put(uint8_t *out, uint32_t type, size_t body_len)
{
	size_t n = cbor_encode_array_start(3, out, FRAME_HEAD_MAX);

	n += cbor_encode_uint(type, out + n, FRAME_HEAD_MAX - n);
	n += cbor_encode_bytestring_start(body_len, out + n, FRAME_HEAD_MAX - n);
	return n;
}

uint8_t *frame_seal(uint8_t *buf, size_t headroom, size_t body_len, uint32_t type, size_t *total)
{
	uint8_t head[FRAME_HEAD_MAX];
	size_t hlen = frame_head_put(head, type, body_len);
	uint8_t *start = buf + headroom - hlen;
	size_t covered = hlen + body_len;

	memcpy(start, head, hlen);
	cbor_encode_uint32((uint32_t)crc32(0, start, (uInt)covered), start + covered, FRAME_CHECK_LEN);
	*total = covered + FRAME_CHECK_LEN;
	return start;
}
