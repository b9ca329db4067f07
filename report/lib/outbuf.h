/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Buffered output (outbuf.c) to a file, stdout, memory or through an escaping filter.
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_OUTBUF_H
#define SCT_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

/*
 * Buffered output to an fd; the first write error sticks and out_close() returns it. An out
 * with fd -1 is a memory buffer (out_open_mem()) that grows to hold whatever is written: a
 * value from a file is as long as the format's limits allow, never cut; a growth that fails
 * sets err to -ENOMEM, which its user must check. With put, an out passes each full buffer
 * through put() into the out to instead (an escaping filter: a value of any size streams
 * through a fixed buffer).
 */
struct out {
	char *buf;
	size_t len, cap;
	int fd;
	int err;
	bool own_fd;
	void (*put)(struct out *to, const void *p, size_t n);
	struct out *to;
};
/*
 * "-" or NULL = stdout. A file is created with mode (less the umask), never through a final
 * symlink (-ELOOP), never over an existing file unless force (-EEXIST); a forced regular
 * file is truncated and loses the permissions mode lacks.
 */
int out_open(struct out *o, const char *path, bool force, mode_t mode);
/* A memory out of at least cap bytes (fd -1; the caller frees o->buf). 0 or -ENOMEM. */
int out_open_mem(struct out *o, size_t cap);
int out_close(struct out *o);
/* out_close(), then 0, or EXIT_INPUT with "TOOL: writing NAME: reason" on stderr (silent on
 * EPIPE: whoever read the output chose to stop). */
int out_finish(struct out *o, const char *tool, const char *name);
void out_flush(struct out *o);
/* out_mem() when the bytes do not fit in the buffer's room. */
void out_mem_slow(struct out *o, const void *p, size_t n);
/* Bytes a number's text takes at most: 20 digits, or a sign and 19. */
#define OUT_NUM_MAX 20u
/* out_u64() past its one-digit fast path. */
void out_u64_many(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
/*
 * A number's text at p, in room of OUT_NUM_MAX bytes the caller has (a run of them written
 * through one reservation); each returns the text's end. out_put_u64_many(): any value.
 */
char *out_put_u64_many(char *p, uint64_t v);
char *out_put_i64(char *p, int64_t v);
/* v as exactly n decimal digits (n <= 10), leading zeros kept; v < 10^n. */
void out_digits_fixed(struct out *o, uint32_t v, unsigned n);

/* "00" to "99", the digits of the numbers below 100. */
extern const char out_digits2[200];

/* The last two digits of v < 100 before end. */
static inline char *out_put2(char *end, uint32_t v)
{
	memcpy(end - 2, out_digits2 + 2 * v, 2);
	return end - 2;
}

/* w < 10^4 as exactly 4 digits before end: its two halves apart, neither waiting on the other. */
static inline char *out_put4(char *end, uint32_t w)
{
	uint32_t hi = w / 100;

	out_put2(end, w - hi * 100);
	return out_put2(end - 2, hi);
}

/*
 * out_digits_fixed() at p, in room the caller has; returns p + n. Inline: a constant n (the
 * nine digits of a wall clock's fraction, in every CSV row) unrolls.
 */
static inline char *out_put_fixed(char *p, uint32_t v, unsigned n)
{
	char *end = p + n;

	for (p = end; n >= 4; n -= 4) {
		uint32_t hi = v / 10000;

		p = out_put4(p, v - hi * 10000);
		v = hi;
	}
	for (; n >= 2; n -= 2, v /= 100)
		p = out_put2(p, v % 100);
	if (n)
		p[-1] = (char)('0' + v % 10);
	return end;
}
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* out_reserve() when the buffer's room is short of what it asks. */
char *out_reserve_slow(struct out *o);

/*
 * Room for n bytes at o->buf + o->len (n <= 4096); the caller advances o->len. Inline: a CSV
 * row reserves room three times.
 */
static inline char *out_reserve(struct out *o, size_t n)
{
	if (o->cap - o->len >= n)
		return o->buf + o->len;
	return out_reserve_slow(o);
}
/*
 * Inline: a row of CSV or JSON is a few dozen short copies, and a call for each cost as much
 * as the copy (a constant's strlen() folds here too).
 */
static inline void out_mem(struct out *o, const void *p, size_t n)
{
	if (o->cap - o->len >= n) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		return;
	}
	out_mem_slow(o, p, n);
}

static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/* A constant string written often, its length taken once (NULL: none, written as ""). */
struct out_lit {
	const char *s;
	size_t len;
};

static inline struct out_lit out_lit(const char *s)
{
	return s ? (struct out_lit){ s, strlen(s) } : (struct out_lit){ "", 0 };
}

static inline void out_lit_put(struct out *o, struct out_lit l)
{
	out_mem(o, l.s, l.len);
}

static inline void out_char(struct out *o, char c)
{
	if (o->len == o->cap)
		out_flush(o);
	o->buf[o->len++] = c;
}

/* w < 10^4 as its 1 to 4 digits at p; returns their end. */
static inline char *out_put_upto4(char *p, uint32_t w)
{
	uint32_t hi;

	if (w < 10) {
		*p = (char)('0' + w);
		return p + 1;
	}
	if (w < 100) {
		out_put2(p + 2, w);
		return p + 2;
	}
	hi = w / 100;
	if (hi < 10) {
		*p = (char)('0' + hi);
		out_put2(p + 3, w - hi * 100);
		return p + 3;
	}
	out_put2(p + 4, w - hi * 100);
	out_put2(p + 2, hi);
	return p + 4;
}

/*
 * Inline up to 4 digits (flags, return values, durations, cgroup ids: most numbers of a
 * row), where a call cost more than writing them.
 */
static inline char *out_put_u64(char *p, uint64_t v)
{
	return v < 10000 ? out_put_upto4(p, (uint32_t)v) : out_put_u64_many(p, v);
}

/* Inline: a digit written in place is most of the flags and small numbers of a row. */
static inline void out_u64(struct out *o, uint64_t v)
{
	if (v < 10 && o->len < o->cap)
		o->buf[o->len++] = (char)('0' + v);
	else
		out_u64_many(o, v);
}

#endif
