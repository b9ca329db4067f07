// SPDX-License-Identifier: BSD-2-Clause
/* Bounded decoding of CBOR heads and a structural check (see cbor_head.h). */
#include "cbor_head.h"

#include "sct.h"

int chead_get(const uint8_t *p, size_t avail, struct chead *h)
{
	size_t n;

	if (avail < 1)
		return 0;
	h->major = p[0] >> 5;
	h->ai = p[0] & 0x1f;
	if (h->ai < 24) {
		h->arg = h->ai;
		return 1;
	}
	if (h->ai > 27)
		return -1;
	n = (size_t)1 << (h->ai - 24);
	if (avail < 1 + n)
		return 0;
	h->arg = 0;
	for (size_t i = 1; i <= n; i++)
		h->arg = h->arg << 8 | p[i];
	return (int)(1 + n);
}

int chead_expect(const uint8_t **pos, const uint8_t *end, uint8_t major, uint64_t *arg)
{
	struct chead h;
	int n = chead_get(*pos, (size_t)(end - *pos), &h);

	if (n <= 0 || h.major != major)
		return -1;
	*pos += n;
	*arg = h.arg;
	return 0;
}

int chead_check(const uint8_t *p, size_t len, unsigned max_depth)
{
	uint64_t left[SCT_MAX_NESTING + 2];
	unsigned depth = 0;
	size_t pos = 0;

	if (max_depth > SCT_MAX_NESTING)
		max_depth = SCT_MAX_NESTING;
	left[0] = 1;
	for (;;) {
		struct chead h;
		uint64_t items = 0;
		int n;

		while (left[depth] == 0) {
			if (depth == 0)
				return pos == len ? 0 : -1;
			depth--;
		}
		left[depth]--;
		n = chead_get(p + pos, len - pos, &h);
		if (n <= 0)
			return -1;
		pos += (size_t)n;
		switch (h.major) {
		case 2:
		case 3:
			if (h.arg > len - pos)
				return -1;
			pos += (size_t)h.arg;
			break;
		case 4:
			items = h.arg;
			break;
		case 5:
			if (h.arg > (len - pos) / 2)
				return -1;
			items = h.arg * 2;
			break;
		case 6:
			items = 1;
			break;
		default:
			break;
		}
		if (h.major < 4 || h.major > 6)
			continue;
		/* every container counts toward the depth, empty or not; every item takes a byte */
		if (depth + 1 > max_depth || items > len - pos)
			return -1;
		if (items)
			left[++depth] = items;
	}
}
