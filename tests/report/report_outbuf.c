// SPDX-License-Identifier: BSD-2-Clause
/*
 * The converters' integer and time text (outbuf.c, names.c) against printf's and strftime's,
 * at every length's edges: the digit count comes from the bit length, and values past 2^32
 * take another path than the ones below it.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "names.h"
#include "outbuf.h"

/* Every power of ten, one below it and one above, 2^32's neighbours and the extremes. */
static size_t outbuf_edges(uint64_t *v, size_t cap)
{
	size_t n = 0;
	uint64_t p = 1;

	for (int i = 0; i < 20 && n + 3 <= cap; i++, p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
	}
	v[n++] = UINT32_MAX - 1;
	v[n++] = UINT32_MAX;
	v[n++] = (uint64_t)UINT32_MAX + 1;
	v[n++] = UINT64_MAX - 1;
	v[n++] = UINT64_MAX;
	return n;
}

/* o's text, NUL-terminated, then emptied. */
static const char *outbuf_take(struct out *o, char *buf, size_t cap)
{
	cr_assert_lt(o->len, cap);
	memcpy(buf, o->buf, o->len);
	buf[o->len] = '\0';
	o->len = 0;
	return buf;
}

Test(outbuf, integers_are_printf_s)
{
	uint64_t v[80];
	size_t n = outbuf_edges(v, 70);
	char got[64], want[64];
	struct out o;

	cr_assert_eq(out_open_mem(&o, 64), 0);
	for (size_t i = 0; i < n; i++) {
		out_u64(&o, v[i]);
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), want, "out_u64(%" PRIu64 ")", v[i]);
		out_i64(&o, (int64_t)v[i]);
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v[i]);
		cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), want, "out_i64(%" PRId64 ")", (int64_t)v[i]);
		out_i64(&o, -(int64_t)(v[i] >> 1));
		snprintf(want, sizeof(want), "%" PRId64, -(int64_t)(v[i] >> 1));
		cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), want);
	}
	out_i64(&o, INT64_MIN);
	cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), "-9223372036854775808");
	free(o.buf);
}

/* Every value below 2^18, and 2^18 others of every length (xorshift, shifted by 0-63 bits). */
Test(outbuf, integers_in_bulk_are_printf_s)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char got[64], want[32];
	struct out o;

	cr_assert_eq(out_open_mem(&o, 64), 0);
	for (uint64_t i = 0; i < 2 * (1u << 18); i++) {
		uint64_t v = i;

		if (i >= 1u << 18) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (i % 64);
		}
		out_i64(&o, (int64_t)v);
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
		if (strcmp(outbuf_take(&o, got, sizeof(got)), want))
			cr_assert_str_eq(got, want, "out_i64()");
		out_u64(&o, v);
		snprintf(want, sizeof(want), "%" PRIu64, v);
		if (strcmp(outbuf_take(&o, got, sizeof(got)), want))
			cr_assert_str_eq(got, want, "out_u64()");
	}
	free(o.buf);
}

/* A full buffer: a single digit too takes the path of longer numbers, which makes room. */
Test(outbuf, integers_after_a_full_buffer)
{
	uint64_t v[80];
	size_t n = outbuf_edges(v, 70);
	char want[64];
	struct out o;

	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(out_open_mem(&o, 64), 0);
		memset(o.buf, 'x', o.cap);
		o.len = o.cap;
		out_u64(&o, v[i]);
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		cr_assert_eq(o.len, o.cap / 2 + strlen(want), "out_u64(%" PRIu64 "): %zu bytes", v[i], o.len);
		cr_assert_eq(memcmp(o.buf + o.cap / 2, want, strlen(want)), 0, "out_u64(%" PRIu64 ")", v[i]);
		free(o.buf);
	}
}

Test(outbuf, fixed_digits_keep_their_zeros)
{
	static const uint32_t vals[] = { 0, 7, 42, 999, 1000, 123456789, 999999999 };
	char got[64], want[64];
	struct out o;

	cr_assert_eq(out_open_mem(&o, 64), 0);
	for (unsigned n = 1; n <= 10; n++)
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			uint64_t mod = 1;
			uint32_t v;

			for (unsigned k = 0; k < n; k++)
				mod *= 10;
			v = (uint32_t)(vals[i] % mod);
			out_digits_fixed(&o, v, n);
			snprintf(want, sizeof(want), "%0*" PRIu32, (int)n, v);
			cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), want, "%u digits of %" PRIu32, n, v);
		}
	free(o.buf);
}

Test(outbuf, iso_time_is_strftime_s)
{
	static const uint64_t times[] = { 0, 1, 999999999, 1000000000, 1767225599999999999ull,
					  1767225600000000000ull, 4102444800123456789ull };
	struct iso_second last = { 0 };
	char got[64], want[64], day[32];
	struct out o;

	cr_assert_eq(out_open_mem(&o, 64), 0);
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		time_t t = (time_t)(times[i] / 1000000000u);
		struct tm tm;

		cr_assert_not_null(gmtime_r(&t, &tm));
		strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(want, sizeof(want), "%s.%09" PRIu32 "Z", day, (uint32_t)(times[i] % 1000000000u));
		names_out_iso(&o, times[i], &last);
		cr_assert_str_eq(outbuf_take(&o, got, sizeof(got)), want);
	}
	free(o.buf);
}
