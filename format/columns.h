/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Numeric columns as byte planes (spec/FORMAT.md section 7): the per-record hot loops of the
 * writer and the reader. Compiled with -O3 so they vectorise.
 */
#ifndef SCT_COLUMNS_H
#define SCT_COLUMNS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Turn the values v[0..n) of a column of the given kind into stored values in place
 * (zigzag, time deltas from base) and return the plane width (0..8) they need; *same
 * says whether every stored value equals v[0] (n > 0). Bytes columns hold their lengths
 * and are treated as uint.
 */
unsigned column_store(uint64_t *v, uint32_t n, uint32_t kind, uint64_t base, bool *same);
/*
 * Write width planes of v[0..n) to out (width * n bytes); same as column_store() said.
 * A column of one value (pid, tid, cgroup id of one thread's calls) is a byte run per
 * plane: memset instead of reading all of v once per plane.
 */
void column_put_planes(uint8_t *out, const uint64_t *v, uint32_t n, unsigned width, bool same);
/*
 * Read rows [row0, row0+n) of a column of count rows stored as width planes at planes,
 * into out (stored values, not yet decoded by kind).
 */
void column_get_planes(uint64_t *out, const uint8_t *planes, uint32_t count, unsigned width,
		       uint32_t row0, uint32_t n);
/* Stored sint values to values, in place. */
void column_unzigzag(uint64_t *v, uint32_t n);
/* Stored time deltas to times in place, starting from *run (updated to the last time). */
void column_undelta(uint64_t *v, uint32_t n, uint64_t *run);

#endif
