// SPDX-License-Identifier: BSD-2-Clause
/*
 * Hostile inputs cost bounded resources: memory does not grow with the number of sessions,
 * and the resync scan does work linear in the input whatever lengths its candidates claim.
 * Work is counted, not timed: every crc32() call of the library goes through __wrap_crc32
 * (the test binary links with --wrap=crc32). The span CRCs that make the scan linear are
 * checked against crc32() itself.
 */
#include <criterion/criterion.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "crc_span.h"
#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

static uint64_t crc_bytes;

uLong __real_crc32(uLong crc, const Bytef *buf, uInt len);
uLong __wrap_crc32(uLong crc, const Bytef *buf, uInt len);

uLong __wrap_crc32(uLong crc, const Bytef *buf, uInt len)
{
	crc_bytes += len;
	return __real_crc32(crc, buf, len);
}

Test(format_hostile, memory_stays_bounded_over_many_sessions)
{
	enum { SESSIONS = 50000 };
	struct sct_record rec;
	struct sct_reader *r;
	struct craft c;
	size_t base = 0, peak = 0;
	uint32_t n = 0;
	int err = 0, rc;

	craft_init(&c);
	for (int i = 0; i < SESSIONS; i++)
		craft_minimal_session(&c);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert(r);
	while ((rc = sct_reader_next(r, &rec)) == 1) {
		size_t used;

		cr_assert_eq(rec.type, SCT_REC_SESSION);
		cr_assert_eq(sct_session_index(sct_reader_session(r)), n);
		used = mallinfo2().uordblks;
		if (n++ == 100)
			base = used;
		if (used > peak)
			peak = used;
	}
	cr_assert_eq(rc, 0);
	cr_assert_eq(n, SESSIONS);
	/* each session kept would cost a few hundred bytes: 50,000 of them, megabytes */
	cr_assert_lt(peak - base, 64 * 1024, "heap grew by %zu bytes over %u sessions", peak - base, n);
	sct_reader_close(r);
	craft_free(&c);
}

/*
 * A candidate frame every 8 bytes, each claiming a body that runs to a checksum item near the
 * end of the input and failing its check: checked one by one from scratch, the scan would CRC
 * (size / 8) * (size / 2) bytes.
 */
static void long_candidates(struct craft *c, size_t size)
{
	size_t end = size - 5;

	craft_bytes(c, "garbage!", 8); /* no label, and the first candidate is not at 0 */
	while (c->len + 8 <= end - 8) {
		uint64_t body = end - (c->len + 7);
		uint8_t cand[8] = { 0x83, 0x02, 0x5a, (uint8_t)(body >> 24), (uint8_t)(body >> 16),
				    (uint8_t)(body >> 8), (uint8_t)body, 0x00 };

		craft_bytes(c, cand, sizeof(cand));
	}
	while (c->len < end)
		craft_bytes(c, "", 1);
	craft_bytes(c, "\x1a\x00\x00\x00\x00", 5);
}

Test(format_hostile, resync_work_is_linear_in_the_input)
{
	enum { SIZE = 256 * 1024 };
	struct fh_read rd;
	struct craft c;
	size_t at;

	craft_init(&c);
	/* a real trace, then the hostile stretch, then a real trace again */
	craft_minimal_session(&c);
	at = c.len;
	long_candidates(&c, at + SIZE);
	craft_minimal_session(&c);
	crc_bytes = 0;
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nsessions, 2);
	cr_assert_eq(rd.ndiag[SCT_DIAG_SKIPPED], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].offset, at);
	cr_assert_eq(rd.last_diag[SCT_DIAG_SKIPPED].length, SIZE);
	/* from scratch: about SIZE^2 / 16 = 4 GiB of CRC; linear: a small multiple of SIZE */
	cr_assert_lt(crc_bytes, 32 * (uint64_t)c.len, "%llu bytes of CRC for a %zu-byte input",
		     (unsigned long long)crc_bytes, c.len);
	fh_read_free(&rd);
	craft_free(&c);
}

/* The span CRCs equal crc32() of the same bytes, for spans of every length class and overlap. */
Test(format_hostile, span_crc_equals_crc32)
{
	enum { SIZE = 1 << 20 };
	struct crc_span span = { 0 };
	uint8_t *buf = malloc(SIZE);
	uint64_t off = 0, seed = 1;

	cr_assert(buf);
	for (size_t i = 0; i < SIZE; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (uint8_t)(seed >> 56);
	}
	while (off < SIZE - 1) {
		size_t len;
		uint32_t got;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		len = (size_t)(seed >> 40) % (SIZE - off) + 1;
		if (seed & 1)
			len %= 200; /* short spans too, around the direct-CRC threshold */
		cr_assert_eq(crc_span_get(&span, buf + off, off, len, &got), 0);
		cr_assert_eq(got, (uint32_t)__real_crc32(0, buf + off, (uInt)len), "span %llu+%zu",
			     (unsigned long long)off, len);
		off += (seed >> 20) % 4096 + 1;
	}
	crc_span_free(&span);
	free(buf);
}
