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
void out_mem(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Room for n bytes at o->buf + o->len (n <= 4096); the caller advances o->len. */
char *out_reserve(struct out *o, size_t n);
static inline void out_char(struct out *o, char c)
{
	if (o->len == o->cap)
		out_flush(o);
	o->buf[o->len++] = c;
}

#endif
