// SPDX-License-Identifier: BSD-2-Clause
/* The latency histogram (report/report/latency.c) against exact nearest-rank percentiles. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "../../report/report/latency.h"

#define NVALUES 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Log-uniform durations from 1 ns to ~17 s: every bucket width the histogram has. */
Test(report_latency, percentiles_within_stated_bound)
{
	static const double ps[] = { 0.001, 1, 10, 25, 50, 75, 90, 99, 99.9, 100 };
	uint64_t *v = malloc(NVALUES * sizeof(*v)), seed = 42;
	struct lat l;

	cr_assert_not_null(v);
	lat_init(&l);
	for (int i = 0; i < NVALUES; i++) {
		unsigned bits = (unsigned)(xorshift(&seed) % 34);

		v[i] = (xorshift(&seed) & ((1ull << bits) - 1)) | (1ull << bits);
		cr_assert_eq(lat_add(&l, v[i]), 0);
	}
	qsort(v, NVALUES, sizeof(*v), cmp_u64);
	cr_assert_eq(l.count, NVALUES);
	cr_assert_eq(l.min, v[0]);
	cr_assert_eq(l.max, v[NVALUES - 1]);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t rank = (uint64_t)ceil(ps[i] / 100.0 * NVALUES);
		uint64_t exact = v[(rank ? rank : 1) - 1];
		uint64_t got = lat_percentile(&l, ps[i]);

		cr_assert_leq(got, exact, "p%g: %llu > exact %llu", ps[i], (unsigned long long)got,
			      (unsigned long long)exact);
		cr_assert_leq(exact - got, exact / 512, "p%g: %llu vs exact %llu", ps[i],
			      (unsigned long long)got, (unsigned long long)exact);
		if (exact < 1024)
			cr_assert_eq(got, exact);
	}
	lat_free(&l);
	free(v);
}

Test(report_latency, merge_equals_adding_everything)
{
	struct lat a, b, all;
	uint64_t seed = 7;

	lat_init(&a);
	lat_init(&b);
	lat_init(&all);
	for (int i = 0; i < 10000; i++) {
		uint64_t x = xorshift(&seed) % 5000000;

		cr_assert_eq(lat_add(i % 3 ? &a : &b, x), 0);
		cr_assert_eq(lat_add(&all, x), 0);
	}
	cr_assert_eq(lat_merge(&a, &b), 0);
	cr_assert_eq(a.count, all.count);
	cr_assert_eq(a.sum, all.sum);
	cr_assert_eq(a.min, all.min);
	cr_assert_eq(a.max, all.max);
	for (double p = 1; p <= 100; p += 1)
		cr_assert_eq(lat_percentile(&a, p), lat_percentile(&all, p), "p%g", p);
	lat_free(&a);
	lat_free(&b);
	lat_free(&all);
}

Test(report_latency, log2_buckets)
{
	struct lat l;
	uint64_t b[65];

	lat_init(&l);
	cr_assert_eq(lat_add(&l, 0), 0);
	cr_assert_eq(lat_add(&l, 1), 0);
	cr_assert_eq(lat_add(&l, 1023), 0);
	cr_assert_eq(lat_add(&l, 1024), 0);
	cr_assert_eq(lat_add(&l, UINT64_MAX), 0);
	lat_log2(&l, b);
	cr_assert_eq(b[0], 1);
	cr_assert_eq(b[1], 1);
	cr_assert_eq(b[10], 1);
	cr_assert_eq(b[11], 1);
	cr_assert_eq(b[64], 1);
	cr_assert_eq(lat_percentile(&l, 100), UINT64_MAX);
	cr_assert_eq(lat_percentile(&l, 20), 0);
	lat_free(&l);
}

/* A few values: no octave allocated, percentiles exact; merging into and from such a group. */
Test(report_latency, small_groups_keep_their_values)
{
	static const uint64_t v[] = { 3000000, 7, 1500 };
	struct lat s, big, both;
	uint64_t b[65];

	lat_init(&s);
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(lat_add(&s, v[i]), 0);
	for (unsigned e = 0; e < 64; e++)
		cr_assert_null(s.oct[e], "octave %u allocated for %u values", e, 3);
	cr_assert_eq(lat_percentile(&s, 50), 1500);
	cr_assert_eq(lat_percentile(&s, 34), 1500);
	cr_assert_eq(lat_percentile(&s, 33), 7);
	lat_log2(&s, b);
	cr_assert_eq(b[3] + b[11] + b[22], 3);
	lat_init(&big);
	lat_init(&both);
	for (uint64_t x = 1; x <= 100; x++) {
		cr_assert_eq(lat_add(&big, x * 100), 0);
		cr_assert_eq(lat_add(&both, x * 100), 0);
	}
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(lat_add(&both, v[i]), 0);
	cr_assert_eq(lat_merge(&s, &big), 0);
	cr_assert_eq(s.count, 103);
	cr_assert_eq(s.sum, both.sum);
	for (double p = 1; p <= 100; p += 1)
		cr_assert_eq(lat_percentile(&s, p), lat_percentile(&both, p), "p%g", p);
	cr_assert_eq(lat_merge(&big, &s), 0);
	cr_assert_eq(big.count, 203);
	lat_free(&s);
	lat_free(&big);
	lat_free(&both);
}
