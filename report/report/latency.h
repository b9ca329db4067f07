/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Latency histograms of sct-report (latency.c).
 */
#ifndef SCT_LATENCY_H
#define SCT_LATENCY_H

#include <stdint.h>

#include "sct.h"

/*
 * Log-linear latency histogram. Values below 1024 ns are counted exactly; above, each
 * power of two is cut in 512 buckets, so a bucket's lower bound is at most 1/512 (0.2%)
 * below any value in it. Percentiles report that lower bound, clamped to [min, max].
 * The first LAT_SMALL values are kept as they are, with no buckets: a group of a few calls
 * (one per process of many short sessions) costs bytes, not the 4-8 KiB of an octave.
 */
#define LAT_SUB_BITS 9
#define LAT_LINEAR (1u << (LAT_SUB_BITS + 1))
#define LAT_SUB (1u << LAT_SUB_BITS)
#define LAT_SMALL 4
struct lat {
	uint64_t count, sum, min, max;
	uint64_t *oct[64]; /* [0]: 0..1023 exact; [e], e >= 10: [2^e, 2^(e+1)) in 512 */
	uint64_t small[LAT_SMALL]; /* while no octave exists: every value (nsmall == count) */
	uint32_t nsmall;
};
int lat_add_slow(struct lat *l, uint64_t v);
/* count, sum, min and max of a value that was put in a bucket or kept. */
static inline void lat_note(struct lat *l, uint64_t v)
{
	l->count++;
	l->sum += v;
	if (v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
}
static inline int lat_add(struct lat *l, uint64_t v)
{
	uint64_t *b;
	unsigned e, i;

	if (v < LAT_LINEAR) {
		e = 0;
		i = (unsigned)v;
	} else {
		e = 63u - (unsigned)__builtin_clzll(v);
		i = (unsigned)(v >> (e - LAT_SUB_BITS)) & (LAT_SUB - 1);
	}
	b = l->oct[e];
	if (!b)
		return lat_add_slow(l, v);
	b[i]++;
	lat_note(l, v);
	return 0;
}
/*
 * The calls a TOTALS record counts (it passed sct_totals_check()): count, sum and max as it
 * gives them; each histogram bucket's calls at the bucket's lower bound, which with 9 bits is
 * this histogram's own bucket, and with other bits the one that bound falls in; min is the
 * lowest bucket's lower bound (exact below 1024 ns with 9 bits). 0 or -ENOMEM.
 */
int lat_add_totals(struct lat *l, const struct sct_totals *t);
void lat_init(struct lat *l);
int lat_merge(struct lat *dst, const struct lat *src);
/* Nearest-rank percentile (p in 0..100]: the lower bound of the bucket of rank ceil(p*n/100). */
uint64_t lat_percentile(const struct lat *l, double p);
/* Counts per power of two: out[0] = value 0, out[k] = [2^(k-1), 2^k). */
void lat_log2(const struct lat *l, uint64_t out[65]);
void lat_free(struct lat *l);

#endif
