// SPDX-License-Identifier: BSD-2-Clause
/* Protocol Buffers encoders into a memory out (protobuf.h). */
#include <string.h>

#include "protobuf.h"

enum { PB_VARINT = 0, PB_LEN = 2 };
#define PB_VARINT_MAX 10

static size_t pb_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* In place: a packet is mostly varints, and a call of out_mem() each costs more than they do. */
static void pb_raw_varint(struct out *o, uint64_t v)
{
	uint8_t *p = (uint8_t *)out_reserve(o, PB_VARINT_MAX);

	/* a memory out that could not grow keeps OUT_MIN bytes: the room is there, err is set */
	o->len += pb_put_varint(p, v);
}

static void pb_tag(struct out *o, uint32_t field, unsigned wire)
{
	pb_raw_varint(o, (uint64_t)field << 3 | wire);
}

void pb_varint(struct out *o, uint32_t field, uint64_t v)
{
	pb_tag(o, field, PB_VARINT);
	pb_raw_varint(o, v);
}

void pb_bytes(struct out *o, uint32_t field, const void *p, size_t len)
{
	pb_tag(o, field, PB_LEN);
	pb_raw_varint(o, len);
	out_mem(o, p, len);
}

void pb_str(struct out *o, uint32_t field, const char *s)
{
	pb_bytes(o, field, s, strlen(s));
}

/* One byte is kept for the length: most messages are shorter than 128 bytes. */
size_t pb_open(struct out *o, uint32_t field)
{
	pb_tag(o, field, PB_LEN);
	out_char(o, 0);
	return o->len;
}

void pb_close(struct out *o, size_t start)
{
	uint8_t tmp[PB_VARINT_MAX];
	size_t len, n;

	/* a memory out that failed to grow dropped what it held: nothing to fix up */
	if (o->err || start > o->len)
		return;
	len = o->len - start;
	n = pb_put_varint(tmp, len);
	if (n > 1) {
		/* room for the longer length: the body moves up */
		out_mem(o, tmp, n - 1);
		if (o->err)
			return;
		memmove(o->buf + start + n - 1, o->buf + start, len);
	}
	memcpy(o->buf + start - 1, tmp, n);
}
