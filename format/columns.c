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

void column_get_planes(uint64_t *out, const uint8_t *planes, uint32_t count, unsigned width,
		       uint32_t row0, uint32_t n)
{
	const uint8_t *p;

	/* before any pointer arithmetic: a column a section lacks has no planes (NULL) */
	if (width == 0) {
		memset(out, 0, (size_t)n * sizeof(*out));
		return;
	}
	p = planes + row0;
	for (uint32_t i = 0; i < n; i++)
		out[i] = p[i];
	for (unsigned k = 1; k < width; k++) {
		const uint8_t *pk = p + (size_t)k * count;
		unsigned shift = 8 * k;

		for (uint32_t i = 0; i < n; i++)
			out[i] |= (uint64_t)pk[i] << shift;
	}
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
