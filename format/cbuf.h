/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A growable buffer that CBOR items are encoded into with libcbor's cbor_encode_* functions
 * (used for HEADER and TRAILER bodies, which are written once per session). Errors are
 * sticky: after one, every call is a no-op and cbuf.err holds the code.
 */
#ifndef SCT_CBUF_H
#define SCT_CBUF_H

#include <stddef.h>
#include <stdint.h>

struct cbuf {
	uint8_t *p;
	size_t len, cap;
	size_t limit; /* len may not pass this: -SCT_E_LIMIT */
	int err;
};

/* Start with headroom bytes reserved in front (for the frame head), at most limit bytes. */
void cbuf_init(struct cbuf *b, size_t headroom, size_t limit);
void cbuf_free(struct cbuf *b);
/* Make room for n more bytes; returns a pointer to them or NULL (err set). */
uint8_t *cbuf_room(struct cbuf *b, size_t n);
void cbuf_uint(struct cbuf *b, uint64_t v);
void cbuf_array(struct cbuf *b, size_t n);
void cbuf_map(struct cbuf *b, size_t n);
/* A text string; invalid UTF-8 is replaced with U+FFFD as the spec requires. NULL = "". */
void cbuf_text(struct cbuf *b, const char *s);

#endif
