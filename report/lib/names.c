// SPDX-License-Identifier: BSD-2-Clause
/* Names and text for people: errno and signal names, escaped bytes, times. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "names.h"
#include "outbuf.h"

/* Kernel-internal codes (include/linux/errno.h) that reach user space tracing, not glibc. */
static const char *const kernel_errnos[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD", "ERESTART_RESTARTBLOCK",
	"EPROBE_DEFER", "EOPENSTALE", "ENOPARAM", "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE",
	"ENOTSUPP", "ETOOSMALL", "ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED",
	"ERECALLCONFLICT", "ENOGRACE",
};

const char *names_errno(int e, char tmp[16])
{
	const char *n = strerrorname_np(e);

	if (n)
		return n;
	if (e >= 512 && e < 512 + (int)(sizeof(kernel_errnos) / sizeof(kernel_errnos[0])))
		return kernel_errnos[e - 512];
	snprintf(tmp, 16, "E%d", e);
	return tmp;
}

const char *names_signal(int s, char tmp[16])
{
	const char *n = s > 0 && s < 65 ? sigabbrev_np(s) : NULL;

	if (n) {
		snprintf(tmp, 16, "SIG%s", n);
		return tmp;
	}
	snprintf(tmp, 16, "SIG%d", s);
	return tmp;
}

/* Printable ASCII but the backslash goes out as it is; every other byte takes 4 (\\ 2). */
static bool names_plain(uint8_t b)
{
	return b >= 0x20 && b < 0x7f && b != '\\';
}

size_t names_escaped_len(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += names_plain(b[i]) ? 1 : b[i] == '\\' ? 2 : 4;
	return n;
}

void names_out_escaped(struct out *o, const void *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++) {
		if (names_plain(b[i])) {
			out_char(o, (char)b[i]);
		} else if (b[i] == '\\') {
			out_mem(o, "\\\\", 2);
		} else {
			char e[4] = { '\\', 'x', hex[b[i] >> 4], hex[b[i] & 15] };

			out_mem(o, e, 4);
		}
	}
}

size_t names_escape(char *dst, size_t cap, const void *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *b = p;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char e[4] = { '\\', '\\' };
		size_t k = 2;

		if (names_plain(b[i])) {
			e[0] = (char)b[i];
			k = 1;
		} else if (b[i] != '\\') {
			e[1] = 'x';
			e[2] = hex[b[i] >> 4];
			e[3] = hex[b[i] & 15];
			k = 4;
		}
		if (n + k >= cap)
			break;
		memcpy(dst + n, e, k);
		n += k;
	}
	if (cap)
		dst[n] = '\0';
	return n;
}

void names_out_secs(struct out *o, int64_t ns, bool sign)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t us = a / 1000;

	if (ns < 0)
		out_char(o, '-');
	else if (sign)
		out_char(o, '+');
	out_u64(o, us / 1000000);
	out_char(o, '.');
	out_digits_fixed(o, (uint32_t)(us % 1000000), 6);
}

void names_out_iso(struct out *o, uint64_t realtime_ns, struct iso_second *last)
{
	uint64_t sec = realtime_ns / 1000000000u;
	uint32_t frac = (uint32_t)(realtime_ns % 1000000000u);
	char *p;

	if (!last->valid || last->sec != sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		if (!gmtime_r(&t, &tm) ||
		    strftime(last->text, sizeof(last->text), "%Y-%m-%dT%H:%M:%S", &tm) != ISO_SECOND_LEN) {
			out_u64(o, realtime_ns); /* past year 9999: cannot be, from a 64-bit count of ns */
			return;
		}
		last->sec = sec;
		last->valid = true;
	}
	/* one reservation for the whole text, not a check of room per part */
	p = out_reserve(o, ISO_LEN);
	memcpy(p, last->text, ISO_SECOND_LEN);
	p[ISO_SECOND_LEN] = '.';
	out_put_fixed(p + ISO_SECOND_LEN + 1, frac, 9)[0] = 'Z';
	o->len += ISO_LEN;
}

void names_out_wall(struct out *o, uint64_t realtime_ns, bool with_date)
{
	struct wall_second w = { 0 };

	names_out_wall_cached(o, realtime_ns, with_date, &w);
}

void names_out_wall_cached(struct out *o, uint64_t realtime_ns, bool with_date, struct wall_second *last)
{
	uint64_t sec = realtime_ns / 1000000000u;

	/* a zone's offset changes on a whole second: the text of one second holds for all its ns */
	if (!last->valid || last->sec != sec || last->with_date != with_date) {
		time_t secs = (time_t)sec;
		struct tm tm;

		if (!localtime_r(&secs, &tm)) {
			out_u64(o, realtime_ns);
			return;
		}
		last->len = strftime(last->text, sizeof(last->text), with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S",
				     &tm);
		last->sec = sec;
		last->with_date = with_date;
		last->valid = true;
	}
	out_mem(o, last->text, last->len);
	out_char(o, '.');
	out_digits_fixed(o, (uint32_t)(realtime_ns % 1000000000u / 1000), 6);
}
