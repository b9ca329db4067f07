/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Protocol Buffers wire format (protobuf.c): encoders of the few field kinds the Perfetto
 * output needs, written into a memory out (out_open_mem()). Varints are minimal; a nested
 * message's length is fixed up when it closes, so no message is built twice. Errors: the
 * out's err (-ENOMEM) sticks, and every encoder does nothing after it; the caller checks it
 * once per message.
 */
#ifndef SCT_PROTOBUF_H
#define SCT_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/* Field numbers are at most 2^29 - 1 (the wire format's limit). */
void pb_varint(struct out *o, uint32_t field, uint64_t v);
/* int32 and int64: negative values take ten bytes, as the wire format says. */
static inline void pb_int(struct out *o, uint32_t field, int64_t v)
{
	pb_varint(o, field, (uint64_t)v);
}
void pb_bytes(struct out *o, uint32_t field, const void *p, size_t len);
void pb_str(struct out *o, uint32_t field, const char *s);
/* A nested message: its fields follow, then pb_close() with what pb_open() returned. */
size_t pb_open(struct out *o, uint32_t field);
void pb_close(struct out *o, size_t start);

#endif
