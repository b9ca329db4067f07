// SPDX-License-Identifier: BSD-2-Clause
/* Byte-plane column coding (see columns.h). */
#include "columns.h"

#include <string.h>

#include "sct.h"
#include "varint.h"

static unsigned width_of(uint64_t any_bits)
{
	return any_bits ? (unsigned)(64 - __builtin_clzll(any_bits) + 7) / 8 : 0;
}

unsigned column_store(uint64_t *v, uint32_t n, uint32_t kind, uint64_t base, bool *same)
{
	uint64_t bits = 0, diff = 0, first;

	if (!n) {
		*same = true;
		return 0;
	}
	/* one pass per column: the block's columns no longer fit in L1 */
	switch (kind) {
	case SCT_KIND_SINT:
		first = zigzag_enc((int64_t)v[0]);
		for (uint32_t i = 0; i < n; i++) {
			v[i] = zigzag_enc((int64_t)v[i]);
			bits |= v[i];
			diff |= v[i] ^ first;
		}
		break;
	case SCT_KIND_TIME:
		first = zigzag_enc((int64_t)(v[0] - base));
		for (uint32_t i = 0; i < n; i++) {
			uint64_t t = v[i];

			/* wrapping difference: times need not be sorted within a column */
			v[i] = zigzag_enc((int64_t)(t - base));
			base = t;
			bits |= v[i];
			diff |= v[i] ^ first;
		}
		break;
	default:
		first = v[0];
		for (uint32_t i = 0; i < n; i++) {
			bits |= v[i];
			diff |= v[i] ^ first;
		}
		break;
	}
	*same = diff == 0;
	return width_of(bits);
}

void column_put_planes(uint8_t *out, const uint64_t *v, uint32_t n, unsigned width, bool same)
{
	for (unsigned k = 0; k < width; k++) {
		uint8_t *o = out + (size_t)k * n;
		unsigned shift = 8 * k;

		if (same) {
			memset(o, (uint8_t)(v[0] >> shift), n);
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			o[i] = (uint8_t)(v[i] >> shift);
	}
}

/* Each value from its w planes in one pass (w a constant once inlined: the loop vectorizes). */
static inline __attribute__((always_inline)) void planes_gather(uint64_t *out, const uint8_t *p, size_t count,
								 uint32_t n, unsigned w)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = 0;

		for (unsigned k = 0; k < w; k++)
			v |= (uint64_t)p[k * count + i] << (8 * k);
		out[i] = v;
	}
}

static inline __attribute__((always_inline)) void planes_by_width(uint64_t *out, const uint8_t *p, size_t count,
								   uint32_t n, unsigned width)
{
	switch (width) {
	case 1: planes_gather(out, p, count, n, 1); break;
	case 2: planes_gather(out, p, count, n, 2); break;
	case 3: planes_gather(out, p, count, n, 3); break;
	case 4: planes_gather(out, p, count, n, 4); break;
	case 5: planes_gather(out, p, count, n, 5); break;
	case 6: planes_gather(out, p, count, n, 6); break;
	case 7: planes_gather(out, p, count, n, 7); break;
	default: planes_gather(out, p, count, n, 8); break;
	}
}

static void planes_base(uint64_t *out, const uint8_t *p, size_t count, uint32_t n, unsigned width)
{
	planes_by_width(out, p, count, n, width);
}

#if defined(__x86_64__)
/*
 * The decoding's widest loop: AVX2 widens bytes to 64 bits four at a time where the x86-64
 * baseline (SSE2) takes a chain of unpacks (the summary's instructions per record: 40 in this
 * loop with SSE2, 20 one pass per value, 11 with AVX2). Chosen once, at load.
 */
__attribute__((target("avx2"))) static void planes_avx2(uint64_t *out, const uint8_t *p, size_t count,
							 uint32_t n, unsigned width)
{
	planes_by_width(out, p, count, n, width);
}

static void (*planes_get)(uint64_t *, const uint8_t *, size_t, uint32_t, unsigned) = planes_base;

__attribute__((constructor)) static void planes_choose(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		planes_get = planes_avx2;
}
#else
#define planes_get planes_base
#endif

void column_get_planes(uint64_t *out, const uint8_t *planes, uint32_t count, unsigned width,
		       uint32_t row0, uint32_t n)
{
	/* before any pointer arithmetic: a column a section lacks has no planes (NULL) */
	if (width == 0) {
		memset(out, 0, (size_t)n * sizeof(*out));
		return;
	}
	planes_get(out, planes + row0, count, n, width);
}

void column_unzigzag(uint64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		v[i] = (uint64_t)zigzag_dec(v[i]);
}

void column_undelta(uint64_t *v, uint32_t n, uint64_t *run)
{
	uint64_t t = *run;

	for (uint32_t i = 0; i < n; i++) {
		t += (uint64_t)zigzag_dec(v[i]);
		v[i] = t;
	}
	*run = t;
}
