/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How values read from a trace are named and shown (names.c): errno and signal names,
 * escaped strings, seconds and wall-clock times.
 */
#ifndef SCT_NAMES_H
#define SCT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/* "ENOENT" for 2; "E123" for numbers glibc does not name. */
const char *names_errno(int e, char tmp[16]);
/* "SIGKILL" for 9; "SIG123" otherwise. */
const char *names_signal(int s, char tmp[16]);
/* "s" after a count of n things but 1: "1 call", "2 calls". */
static inline const char *names_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}
/*
 * SYSCALL unfinished (spec/FORMAT.md section 9): 0 a call that returned; 1 one still in flight
 * when the recording stopped; 2 (format 1.7) one that does not return (exit, exit_group),
 * written at its entry: no return value, no duration.
 */
enum names_unfinished { NAMES_IN_FLIGHT = 1, NAMES_NO_RETURN = 2 };
/* True when a return value is a failed syscall's -errno. */
static inline bool names_is_error(int64_t ret)
{
	return ret < 0 && ret >= -4095;
}
/*
 * The one way a string from a file reaches a terminal: printable ASCII as is, '\\' doubled,
 * every other byte as \xNN (C0, DEL, C1 raw or UTF-8-encoded, any UTF-8), so no file can
 * send an escape sequence.
 */
void names_out_escaped(struct out *o, const void *p, size_t len);
/* Columns names_out_escaped() takes for these bytes. */
size_t names_escaped_len(const void *p, size_t len);
/* The same escapes into dst (cap bytes, NUL-terminated; whole escapes only): bytes written. */
size_t names_escape(char *dst, size_t cap, const void *p, size_t len);
/* Seconds with 6 decimals from ns (truncated toward zero), with a sign if asked. */
void names_out_secs(struct out *o, int64_t ns, bool sign);
/*
 * Wall clock as ISO 8601 UTC with nanoseconds, 2026-01-01T00:00:00.000000007Z. The text of
 * the second last rendered is kept in *last (zeroed at first): rows come in time order.
 */
#define ISO_SECOND_LEN 19 /* 2026-01-01T00:00:00 */
#define ISO_LEN (ISO_SECOND_LEN + 11) /* and .123456789Z */
struct iso_second {
	uint64_t sec;
	bool valid;
	char text[ISO_SECOND_LEN + 1];
};
void names_out_iso(struct out *o, uint64_t realtime_ns, struct iso_second *last);
/* Wall clock as YYYY-MM-DD HH:MM:SS.ffffff (local time zone) or HH:MM:SS.ffffff. */
void names_out_wall(struct out *o, uint64_t realtime_ns, bool with_date);
/* The same, the text of the second last rendered kept in *last (zeroed at first). */
struct wall_second {
	uint64_t sec;
	bool valid, with_date;
	size_t len;
	char text[64];
};
void names_out_wall_cached(struct out *o, uint64_t realtime_ns, bool with_date, struct wall_second *last);

#endif
