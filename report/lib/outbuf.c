// SPDX-License-Identifier: BSD-2-Clause
/* Large-buffer output with hand-rolled integer formatting: the converters' hot path. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_status.h"
#include "outbuf.h"

#define OUT_CAP (64u << 10) /* stays in cache; a write(2) per 64 KiB costs little */
#define OUT_MIN 4096u       /* out_reserve()'s largest request */

/*
 * A named output is created without following a final symlink and never replaces a file
 * unless forced; a forced file keeps no permission that mode lacks, so a report is never
 * more readable than the trace it came from. Devices and FIFOs (-o /dev/null) replace
 * nothing: they are written as they are, forced or not. Nothing another user made is written
 * into (a FIFO in a shared folder would stream the report to them): a new file is made with
 * O_EXCL, and what exists is checked once opened: a regular file must be ours with no other
 * link, a FIFO or device ours or root's.
 */
static int out_check(int fd, bool force)
{
	bool stream;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	stream = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
	if (st.st_uid != geteuid() && !(stream && st.st_uid == 0))
		return -EPERM;
	if (stream)
		return 0;
	if (!S_ISREG(st.st_mode) || !force)
		return -EEXIST;
	return st.st_nlink != 1 ? -EMLINK : 0;
}

static int out_create(const char *path, bool force, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode), err;
	struct stat st;

	if (fd >= 0)
		return fd;
	if (errno != EEXIST)
		return -errno;
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = out_check(fd, force);
	if (!err && (fstat(fd, &st) || (S_ISREG(st.st_mode) && (ftruncate(fd, 0) ||
	    ((st.st_mode & ~mode & 07777) && fchmod(fd, st.st_mode & mode & 07777))))))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int out_open_mem(struct out *o, size_t cap)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->cap = cap < OUT_MIN ? OUT_MIN : cap;
	o->buf = malloc(o->cap);
	return o->buf ? 0 : -ENOMEM;
}

int out_open(struct out *o, const char *path, bool force, mode_t mode)
{
	memset(o, 0, sizeof(*o));
	o->fd = STDOUT_FILENO;
	if (path && strcmp(path, "-")) {
		o->fd = out_create(path, force, mode);
		if (o->fd < 0)
			return o->fd;
		o->own_fd = true;
	}
	o->buf = malloc(OUT_CAP);
	if (!o->buf) {
		if (o->own_fd)
			close(o->fd);
		return -ENOMEM;
	}
	o->cap = OUT_CAP;
	return 0;
}

/* A memory out doubles; after a failure it drops what it holds and keeps -ENOMEM. */
static void out_grow(struct out *o)
{
	size_t cap = o->cap > SIZE_MAX / 2 ? SIZE_MAX : o->cap * 2;
	char *tmp = o->err ? NULL : realloc(o->buf, cap);

	if (!tmp) {
		o->err = o->err ? o->err : -ENOMEM;
		o->len = 0;
		return;
	}
	o->buf = tmp;
	o->cap = cap;
}

/* n bytes at p to o's fd; the first error sticks. */
static void out_write_all(struct out *o, const char *p, size_t n)
{
	while (n && !o->err) {
		ssize_t k = write(o->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->err = k < 0 ? -errno : -EIO;
		} else {
			p += k;
			n -= (size_t)k;
		}
	}
}

void out_flush(struct out *o)
{
	if (o->put) {
		o->put(o->to, o->buf, o->len);
		o->len = 0;
		return;
	}
	if (o->fd < 0) {
		if (o->len == o->cap)
			out_grow(o);
		return;
	}

	out_write_all(o, o->buf, o->len);
	o->len = 0;
}

int out_finish(struct out *o, const char *tool, const char *name)
{
	int err = out_close(o);

	if (!err)
		return 0;
	/* a reader that stopped early (| head) is no news to the user: the status says it */
	if (err != -EPIPE)
		fprintf(stderr, "%s: writing %s: %s\n", tool, name, strerror(-err));
	return EXIT_INPUT;
}

int out_close(struct out *o)
{
	int err;

	if (!o->buf)
		return 0;
	out_flush(o);
	err = o->err;
	if (o->own_fd && close(o->fd) && !err)
		err = -errno;
	free(o->buf);
	o->buf = NULL;
	return err;
}

/* One flush or one doubling makes room: every buffer holds at least OUT_MIN bytes. */
char *out_reserve_slow(struct out *o)
{
	if (o->fd < 0 && !o->put)
		out_grow(o);
	else
		out_flush(o);
	return o->buf + o->len;
}

void out_mem_slow(struct out *o, const void *p, size_t n)
{
	const char *s = p;

	/* bytes that fill the buffer anyway (sct-convert -j's chunks) go to the fd as they are */
	if (!o->put && o->fd >= 0 && n >= o->cap) {
		out_flush(o);
		out_write_all(o, s, n);
		return;
	}
	while (n) {
		size_t k;

		if (o->len == o->cap)
			out_flush(o);
		k = o->cap - o->len < n ? o->cap - o->len : n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

const char out_digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * v's decimal digits: floor(log10(v)) from its bit length, corrected by one comparison; the
 * table's 0 (not 1) makes 0 a digit long.
 */
static inline unsigned out_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		0ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	unsigned t = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return t + 1 - (v < pow10[t]);
}

/*
 * Below 10^8 (pids, tids), forwards: the leading 1 to 4 digits, then 4. Past that, in place,
 * backwards, in halves of 4 and quarters of 2, so that no pair of digits waits on the
 * division of the pair after it; values past 2^32 (times in ns) give their low 8 digits at a
 * time, so that every division (by 100: a multiplication) is a 32-bit one, the cheaper.
 */
char *out_put_u64_many(char *p, uint64_t v)
{
	char *end;
	uint32_t w, hi;

	if (v < 100000000u) {
		w = (uint32_t)v;
		if (w < 10000)
			return out_put_upto4(p, w);
		hi = w / 10000;
		p = out_put_upto4(p, hi) + 4;
		out_put4(p, w - hi * 10000);
		return p;
	}
	end = p + out_digits(v);
	p = end;
	while (v > UINT32_MAX) {
		uint64_t q = v / 100000000u;
		uint32_t r = (uint32_t)(v - q * 100000000u);

		hi = r / 10000;
		p = out_put4(out_put4(p, r - hi * 10000), hi);
		v = q;
	}
	w = (uint32_t)v;
	if (w >= 100000000u) {
		uint32_t r;

		hi = w / 100000000u;
		r = w - hi * 100000000u;
		p = out_put4(out_put4(p, r % 10000), r / 10000);
		w = hi;
	}
	if (w >= 10000) {
		hi = w / 10000;
		p = out_put4(p, w - hi * 10000);
		w = hi;
	}
	out_put_upto4(p - out_digits(w), w);
	return end;
}

char *out_put_i64(char *p, int64_t v)
{
	if (v >= 0)
		return out_put_u64(p, (uint64_t)v);
	*p = '-';
	return out_put_u64_many(p + 1, (uint64_t)0 - (uint64_t)v);
}

void out_u64_many(struct out *o, uint64_t v)
{
	char *p = out_reserve(o, OUT_NUM_MAX);

	o->len = (size_t)(out_put_u64_many(p, v) - o->buf);
}

void out_digits_fixed(struct out *o, uint32_t v, unsigned n)
{
	char *p = out_reserve(o, n);

	o->len += n;
	out_put_fixed(p, v, n);
}

void out_i64(struct out *o, int64_t v)
{
	char *p = out_reserve(o, OUT_NUM_MAX);

	o->len = (size_t)(out_put_i64(p, v) - o->buf);
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	char *p = out_reserve(o, 512);
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->cap - o->len) {
		char *big = malloc((size_t)n + 1);

		if (!big) {
			o->err = -ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		out_mem(o, big, (size_t)n);
		free(big);
		return;
	}
	o->len += (size_t)n;
}
