// SPDX-License-Identifier: BSD-2-Clause
/*
 * Byte planes (format/columns.c): every width, any count and any window of rows reads back
 * the values written, whichever loop the CPU chose (the reader picks its widest at load).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "columns.h"

/* A value of exactly width bytes at most, its top byte often set. */
static uint64_t value_of_width(unsigned width, uint32_t i)
{
	uint64_t v = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)i << 56;

	return width == 8 ? v : v & ((1ull << (8 * width)) - 1);
}

static void planes_check(unsigned width, uint32_t count, uint32_t row0, uint32_t n)
{
	uint64_t *v = malloc(count * sizeof(*v)), *out = malloc((n + 1) * sizeof(*out));
	uint8_t *planes = malloc((size_t)width * count + 1);

	cr_assert(v && out && planes);
	for (uint32_t i = 0; i < count; i++)
		v[i] = value_of_width(width, i);
	column_put_planes(planes, v, count, width, false);
	out[n] = 0xa5a5a5a5a5a5a5a5ull;
	column_get_planes(out, width ? planes : NULL, count, width, row0, n);
	for (uint32_t i = 0; i < n; i++)
		cr_assert_eq(out[i], width ? v[row0 + i] : 0, "width %u, count %u, row %u: %#llx, not %#llx",
			     width, count, row0 + i, (unsigned long long)out[i],
			     (unsigned long long)(width ? v[row0 + i] : 0));
	cr_assert_eq(out[n], 0xa5a5a5a5a5a5a5a5ull, "width %u, count %u: written past n", width, count);
	free(v);
	free(out);
	free(planes);
}

Test(format_columns, every_width_and_window_reads_back)
{
	static const uint32_t counts[] = { 1, 3, 15, 16, 17, 33, 256, 1000 };

	for (unsigned w = 0; w <= 8; w++)
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			uint32_t count = counts[c];

			planes_check(w, count, 0, count);
			planes_check(w, count, count / 3, count - count / 3);
			planes_check(w, count, count - 1, 1);
			if (count > 7)
				planes_check(w, count, 5, count - 7);
		}
}

Test(format_columns, one_value_columns_read_back)
{
	uint64_t v[300], out[300];
	uint8_t planes[8 * 300];

	for (unsigned w = 1; w <= 8; w++) {
		for (uint32_t i = 0; i < 300; i++)
			v[i] = value_of_width(w, 77);
		column_put_planes(planes, v, 300, w, true);
		column_get_planes(out, planes, 300, w, 0, 300);
		for (uint32_t i = 0; i < 300; i++)
			cr_assert_eq(out[i], v[0], "width %u, row %u", w, i);
	}
}
