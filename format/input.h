/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Buffered input from an fd (file, pipe, stdin) or from memory. The window holds the bytes
 * not yet consumed; it grows only as far as the caller asks (one frame at most), so memory
 * stays bounded by the largest frame the reader accepts.
 */
#ifndef SCT_INPUT_H
#define SCT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct input {
	int fd;          /* -1 for memory */
	bool own_fd;
	bool eof;        /* nothing more will come */
	uint8_t *buf;    /* for memory: the caller's bytes */
	size_t cap;
	size_t start, end; /* unconsumed bytes: buf[start..end) */
	uint64_t base;   /* input offset of buf[0] */
};

void input_init_fd(struct input *in, int fd, bool own_fd);
void input_init_mem(struct input *in, const void *p, size_t len);
void input_free(struct input *in);
/*
 * Make at least need bytes available. Returns 0 when they are, 1 when the input ended first
 * (input_avail() tells how many there are), or -errno on a read error.
 */
int input_fill(struct input *in, size_t need);

static inline const uint8_t *input_ptr(const struct input *in)
{
	return in->buf + in->start;
}

static inline size_t input_avail(const struct input *in)
{
	return in->end - in->start;
}

/* Input offset of input_ptr(). */
static inline uint64_t input_offset(const struct input *in)
{
	return in->base + in->start;
}

static inline void input_consume(struct input *in, size_t n)
{
	in->start += n;
}

#endif
