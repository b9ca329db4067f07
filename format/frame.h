/* SPDX-License-Identifier: BSD-2-Clause */
/* The label and the frame envelope (spec/FORMAT.md sections 2 and 3). */
#ifndef SCT_FRAME_H
#define SCT_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCT_LABEL_LEN 12
extern const uint8_t sct_label[SCT_LABEL_LEN];

enum frame_type {
	FRAME_HEADER = 1,
	FRAME_BLOCK = 2,
	FRAME_TRAILER = 3,
};

/* Longest envelope head a reader accepts: 83, type head, byte-string head. */
#define FRAME_HEAD_MAX (1 + 9 + 9)
/* The checksum item: 1a + 4 bytes. */
#define FRAME_CHECK_LEN 5

struct frame {
	uint32_t type;
	uint32_t head_len;  /* bytes before the body */
	uint64_t body_len;
	uint64_t total;     /* whole frame: head, body, checksum */
};

enum frame_head_result {
	FRAME_OK = 1,
	FRAME_SHORT = 0,     /* more bytes needed to decide */
	FRAME_BAD = -1,      /* not an envelope head */
	FRAME_TOO_LONG = -2, /* an envelope whose body length passes SCT_MAX_FRAME_BODY */
};

/* Decode the envelope head at p (avail bytes). f is filled for FRAME_OK and FRAME_TOO_LONG. */
int frame_head_get(const uint8_t *p, size_t avail, struct frame *f);
/* Bytes the checksum covers: from the 83 up to the checksum item. */
static inline size_t frame_covered(const struct frame *f)
{
	return (size_t)(f->head_len + f->body_len);
}

/* With all f->total bytes of the frame at p: false if its checksum item is not 1a + 4 bytes. */
bool frame_check_get(const uint8_t *p, const struct frame *f, uint32_t *stored);
/* With all f->total bytes of the frame at p: true if its checksum item is well-formed and right. */
bool frame_verify(const uint8_t *p, const struct frame *f);
/* Envelope head for a body of body_len bytes into out (FRAME_HEAD_MAX bytes); returns its length. */
size_t frame_head_put(uint8_t *out, uint32_t type, size_t body_len);
/*
 * Seal a frame whose body sits at buf[headroom..headroom+body_len) with FRAME_CHECK_LEN bytes of
 * room after it: writes the head just before the body and the checksum after it.
 * Returns the frame's first byte; *total gets its length.
 */
uint8_t *frame_seal(uint8_t *buf, size_t headroom, size_t body_len, uint32_t type, size_t *total);

#endif
