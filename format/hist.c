// SPDX-License-Identifier: BSD-2-Clause
/*
 * TOTALS duration histograms (spec/FORMAT.md 9.3): the bucket scheme, and the encoding as
 * (gap, count) varint pairs. The decoder is the reader's guard: a histogram from a file is
 * walked within its bytes, with every bucket and the counts' sum checked before use.
 */
#include <errno.h>

#include "sct.h"
#include "varint.h"

uint64_t sct_hist_bucket(uint64_t v, uint32_t bits)
{
	uint32_t e;

	if (v < (uint64_t)2 << bits)
		return v;
	e = 63u - (uint32_t)__builtin_clzll(v);
	return ((uint64_t)(e - bits) << bits) + (v >> (e - bits));
}

uint64_t sct_hist_bucket_low(uint64_t b, uint32_t bits)
{
	uint64_t q, m;

	if (b < (uint64_t)2 << bits)
		return b;
	q = b >> bits;
	m = ((uint64_t)1 << bits) + (b & (((uint64_t)1 << bits) - 1));
	return m << (q - 1);
}

/* Append the pair of bucket (from next, the lowest it may be) at buf + *len. */
static int hist_put(uint8_t *buf, size_t cap, size_t *len, uint64_t next, uint64_t bucket,
		    uint64_t count)
{
	uint8_t tmp[2 * VARINT_MAX];
	size_t k = varint_put(tmp, bucket - next);

	k += varint_put(tmp + k, count);
	if (k > cap - *len)
		return -ENOSPC;
	for (size_t j = 0; j < k; j++)
		buf[*len + j] = tmp[j];
	*len += k;
	return 0;
}

int64_t sct_hist_encode(const struct sct_hist_bin *bins, size_t n, uint32_t bits, uint8_t *buf,
			size_t cap)
{
	uint64_t next = 0;
	size_t len = 0;

	if (bits > SCT_HIST_MAX_BITS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int err;

		if (bins[i].bucket < next || bins[i].bucket > SCT_HIST_LAST(bits) || !bins[i].count)
			return -EINVAL;
		err = hist_put(buf, cap, &len, next, bins[i].bucket, bins[i].count);
		if (err)
			return err;
		next = bins[i].bucket + 1;
	}
	return (int64_t)len;
}

int64_t sct_hist_encode_counts(const uint64_t *counts, size_t ncounts, uint32_t bits, uint8_t *buf,
			       size_t cap)
{
	uint64_t next = 0;
	size_t len = 0;

	if (bits > SCT_HIST_MAX_BITS || (ncounts && ncounts - 1 > SCT_HIST_LAST(bits)))
		return -EINVAL;
	for (size_t b = 0; b < ncounts; b++) {
		int err;

		if (!counts[b])
			continue;
		err = hist_put(buf, cap, &len, next, b, counts[b]);
		if (err)
			return err;
		next = b + 1;
	}
	return (int64_t)len;
}

void sct_hist_iter_init(struct sct_hist_iter *it, struct sct_bytes hist, uint32_t bits)
{
	it->pos = hist.ptr;
	/* an empty hist may have no bytes at all (NULL): no offset is applied to it */
	it->end = hist.len ? hist.ptr + hist.len : hist.ptr;
	it->next = 0;
	it->last = bits > SCT_HIST_MAX_BITS ? 0 : SCT_HIST_LAST(bits);
	it->bad = bits > SCT_HIST_MAX_BITS;
}

int sct_hist_next(struct sct_hist_iter *it, struct sct_hist_bin *bin)
{
	uint64_t gap, count;

	if (it->bad)
		return -SCT_E_CORRUPT;
	if (it->pos == it->end)
		return 0;
	if (varint_get(&it->pos, it->end, &gap) || varint_get(&it->pos, it->end, &count) ||
	    gap > it->last || it->next > it->last - gap || !count) {
		it->bad = true;
		return -SCT_E_CORRUPT;
	}
	bin->bucket = it->next + gap;
	bin->count = count;
	it->next = bin->bucket + 1;
	return 1;
}

int sct_totals_check(const struct sct_totals *t)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	uint64_t sum = 0;
	int rc;

	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while ((rc = sct_hist_next(&it, &bin)) > 0) {
		if (bin.count > t->calls - sum)
			return -SCT_E_CORRUPT;
		sum += bin.count;
	}
	return rc < 0 || sum != t->calls ? -SCT_E_CORRUPT : 0;
}
