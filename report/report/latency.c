// SPDX-License-Identifier: BSD-2-Clause
/*
 * Log-linear latency histograms (see latency.h): constant memory per group whatever the
 * number of records, mergeable, with percentiles at most 0.2% below the exact value.
 * A power of two's 512 counters are allocated when the first value falls in it; until
 * LAT_SMALL values have come, they are kept as they are instead.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"

void lat_init(struct lat *l)
{
	memset(l, 0, sizeof(*l));
	l->min = UINT64_MAX;
}

static uint64_t *lat_octave(struct lat *l, unsigned e)
{
	if (!l->oct[e])
		l->oct[e] = calloc(e ? LAT_SUB : LAT_LINEAR, sizeof(uint64_t));
	return l->oct[e];
}

static unsigned lat_exp(uint64_t v)
{
	return v < LAT_LINEAR ? 0 : 63u - (unsigned)__builtin_clzll(v);
}

/* The kept values into buckets: from now on every value is in one (count, sum are theirs). */
static int lat_spill(struct lat *l)
{
	for (uint32_t k = 0; k < l->nsmall; k++) {
		uint64_t v = l->small[k];
		unsigned e = lat_exp(v);

		if (!lat_octave(l, e))
			return -ENOMEM;
		l->oct[e][e ? (unsigned)(v >> (e - LAT_SUB_BITS)) & (LAT_SUB - 1) : (unsigned)v]++;
	}
	l->nsmall = 0;
	return 0;
}

int lat_add_slow(struct lat *l, uint64_t v)
{
	if (l->nsmall == l->count && l->count < LAT_SMALL) {
		l->small[l->nsmall++] = v;
		lat_note(l, v);
		return 0;
	}
	if (lat_spill(l) || !lat_octave(l, lat_exp(v)))
		return -ENOMEM;
	return lat_add(l, v);
}

/* count values v into v's bucket, count, sum, min and max left to the caller. */
static int lat_add_bucket(struct lat *l, uint64_t v, uint64_t count)
{
	unsigned e = lat_exp(v);

	if ((l->nsmall && lat_spill(l)) || !lat_octave(l, e))
		return -ENOMEM;
	l->oct[e][e ? (unsigned)(v >> (e - LAT_SUB_BITS)) & (LAT_SUB - 1) : (unsigned)v] += count;
	return 0;
}

int lat_add_totals(struct lat *l, const struct sct_totals *t)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	uint64_t low = UINT64_MAX;

	if (!t->calls)
		return 0;
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while (sct_hist_next(&it, &bin) > 0) {
		uint64_t v = sct_hist_bucket_low(bin.bucket, t->hist_bits);

		if (v > t->max_ns)
			v = t->max_ns;
		if (lat_add_bucket(l, v, bin.count))
			return -ENOMEM;
		if (v < low)
			low = v;
	}
	l->count += t->calls;
	l->sum += t->duration_ns;
	if (low < l->min)
		l->min = low;
	if (t->max_ns > l->max)
		l->max = t->max_ns;
	return 0;
}

int lat_merge(struct lat *dst, const struct lat *src)
{
	for (uint32_t k = 0; k < src->nsmall; k++)
		if (lat_add(dst, src->small[k]))
			return -ENOMEM;
	if (src->nsmall)
		return 0;
	if (src->count && lat_spill(dst))
		return -ENOMEM;
	for (unsigned e = 0; e < 64; e++) {
		unsigned n = e ? LAT_SUB : LAT_LINEAR;

		if (!src->oct[e])
			continue;
		if (!lat_octave(dst, e))
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++)
			dst->oct[e][i] += src->oct[e][i];
	}
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

static uint64_t lat_lower_bound(unsigned e, unsigned i)
{
	if (!e)
		return i;
	return (uint64_t)(LAT_SUB + i) << (e - LAT_SUB_BITS);
}

static int lat_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The value of rank (1-based) among the kept values: exact. */
static uint64_t lat_small_rank(const struct lat *l, uint64_t rank)
{
	uint64_t v[LAT_SMALL];

	memcpy(v, l->small, l->nsmall * sizeof(v[0]));
	qsort(v, l->nsmall, sizeof(v[0]), lat_cmp);
	return v[rank - 1];
}

uint64_t lat_percentile(const struct lat *l, double p)
{
	uint64_t rank, seen = 0;

	if (!l->count)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)l->count);
	if (rank < 1)
		rank = 1;
	if (rank >= l->count)
		return l->max; /* the extremes are known exactly */
	if (rank == 1)
		return l->min;
	if (l->nsmall)
		return lat_small_rank(l, rank);
	for (unsigned e = 0; e < 64; e++) {
		unsigned n = e ? LAT_SUB : LAT_LINEAR;

		if (!l->oct[e])
			continue;
		for (unsigned i = 0; i < n; i++) {
			uint64_t v;

			seen += l->oct[e][i];
			if (seen < rank)
				continue;
			v = lat_lower_bound(e, i);
			return v < l->min ? l->min : v > l->max ? l->max : v;
		}
	}
	return l->max;
}

void lat_log2(const struct lat *l, uint64_t out[65])
{
	memset(out, 0, 65 * sizeof(out[0]));
	for (uint32_t k = 0; k < l->nsmall; k++)
		out[l->small[k] ? 64 - __builtin_clzll(l->small[k]) : 0]++;
	for (unsigned e = 0; e < 64; e++) {
		if (!l->oct[e])
			continue;
		if (e) {
			for (unsigned i = 0; i < LAT_SUB; i++)
				out[e + 1] += l->oct[e][i];
			continue;
		}
		for (unsigned v = 0; v < LAT_LINEAR; v++)
			out[v ? 64 - __builtin_clzll(v) : 0] += l->oct[0][v];
	}
}

void lat_free(struct lat *l)
{
	for (unsigned e = 0; e < 64; e++)
		free(l->oct[e]);
	lat_init(l);
}
