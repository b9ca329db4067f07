// SPDX-License-Identifier: BSD-2-Clause
/*
 * Format 1.5: TOTALS records and the HEADER's "filter" round-trip; the histogram's buckets and
 * encoding are those of spec/FORMAT.md 9.3; a TOTALS record whose histogram does not check is
 * refused by the writer and, from a file, skipped and counted as damaged; strace's classes and
 * the -S list syntax.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

static const struct sct_header_filter filter = { "-S %file --failed", "filtered", "all" };

static struct sct_writer *totals_writer(int *fd)
{
	struct sct_header_info info = fh_info;
	int mfd = memfd_create("sct-test", MFD_CLOEXEC);
	struct sct_writer *w;
	int err = 0;

	cr_assert(mfd >= 0);
	*fd = dup(mfd);
	info.filter = &filter;
	w = sct_writer_open_fd(mfd, &info, NULL, &err);
	cr_assert(w, "writer open: %s", sct_strerror(err));
	return w;
}

Test(format_totals, buckets_follow_the_spec)
{
	/* exact below 2^(s+1), then 2^s buckets per power of two; s = 0: log2 buckets */
	cr_assert_eq(sct_hist_bucket(1023, 9), 1023);
	cr_assert_eq(sct_hist_bucket(1024, 9), 1024);
	cr_assert_eq(sct_hist_bucket(1025, 9), 1024);
	cr_assert_eq(sct_hist_bucket(1500, 9), 1262);
	cr_assert_eq(sct_hist_bucket_low(1262, 9), 1500);
	cr_assert_eq(sct_hist_bucket(15000, 9), 2985);
	cr_assert_eq(sct_hist_bucket_low(2985, 9), 14992);
	/* the largest duration: (63 - 9) * 512 + 1023 */
	cr_assert_eq(sct_hist_bucket(UINT64_MAX, 9), 28671);
	cr_assert_eq(sct_hist_bucket(UINT64_MAX, 0), SCT_HIST_LAST(0));
	cr_assert_eq(sct_hist_bucket(5000, 0), 13);
	cr_assert_eq(sct_hist_bucket_low(13, 0), 4096);
	for (uint64_t v = 1; v < (1ull << 40); v = v * 3 + 1) {
		uint64_t b = sct_hist_bucket(v, 9);

		cr_assert_leq(sct_hist_bucket_low(b, 9), v);
		cr_assert_gt(sct_hist_bucket_low(b + 1, 9), v, "v %llu", (unsigned long long)v);
	}
}

Test(format_totals, encoding_is_gap_count_pairs)
{
	const struct sct_hist_bin bins[] = { { 800, 1 }, { 900, 1 }, { 1262, 1 }, { 2985, 2 } };
	const uint64_t counts[] = { 0, 3, 0, 0, 1 };
	static const uint8_t want[] = { 0xa0, 0x06, 0x01, 0x63, 0x01, 0xe9, 0x02, 0x01, 0xba, 0x0d, 0x02 };
	static const uint8_t want_counts[] = { 0x01, 0x03, 0x02, 0x01 };
	const struct sct_hist_bin unsorted[] = { { 5, 1 }, { 5, 1 } }, zero[] = { { 5, 0 } };
	const struct sct_hist_bin past[] = { { SCT_HIST_LAST(9) + 1, 1 } };
	uint8_t buf[64];

	cr_assert_eq(sct_hist_encode(bins, 4, 9, buf, sizeof(buf)), sizeof(want));
	cr_assert_arr_eq(buf, want, sizeof(want));
	cr_assert_eq(sct_hist_encode_counts(counts, 5, 9, buf, sizeof(buf)), sizeof(want_counts));
	cr_assert_arr_eq(buf, want_counts, sizeof(want_counts));
	cr_assert_eq(sct_hist_encode(bins, 4, 9, buf, sizeof(want) - 1), -ENOSPC);
	cr_assert_eq(sct_hist_encode(unsorted, 2, 9, buf, sizeof(buf)), -EINVAL);
	cr_assert_eq(sct_hist_encode(zero, 1, 9, buf, sizeof(buf)), -EINVAL);
	cr_assert_eq(sct_hist_encode(past, 1, 9, buf, sizeof(buf)), -EINVAL);
	cr_assert_eq(sct_hist_encode(bins, 1, SCT_HIST_MAX_BITS + 1, buf, sizeof(buf)), -EINVAL);
}

/* The damaged histograms a reader must refuse (FORMAT.md 9.3), with calls = 2. */
static const struct {
	const char *why;
	uint8_t bytes[16];
	uint32_t len, bits;
} bad_hists[] = {
	{ "sum below calls", { 0x05, 0x01 }, 2, 9 },
	{ "sum above calls", { 0x05, 0x03 }, 2, 9 },
	{ "count 0", { 0x05, 0x02, 0x00, 0x00 }, 4, 9 },
	{ "cut varint", { 0x05, 0x82 }, 2, 9 },
	{ "odd varint count", { 0x05 }, 1, 9 },
	{ "varint past 10 bytes", { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x02 }, 12, 9 },
	{ "bucket past the last", { 0x81, 0x80, 0x02, 0x02 }, 4, 9 }, /* 32769: past 64 << 9 */
	{ "bits past 16", { 0x05, 0x02 }, 2, 17 },
	{ "gap overflow", { 0x05, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x01 }, 13, 9 },
};

Test(format_totals, damaged_histograms_do_not_check)
{
	for (size_t i = 0; i < sizeof(bad_hists) / sizeof(bad_hists[0]); i++) {
		struct sct_totals t = { .calls = 2, .hist_bits = bad_hists[i].bits,
					.hist = { bad_hists[i].bytes, bad_hists[i].len } };

		cr_assert_eq(sct_totals_check(&t), -SCT_E_CORRUPT, "%s", bad_hists[i].why);
	}
	/* bucket 64 << 9 itself is in range */
	{
		static const uint8_t last[] = { 0x80, 0x80, 0x02, 0x02 };
		struct sct_totals t = { .calls = 2, .hist_bits = 9, .hist = { last, 4 } };

		cr_assert_eq(sct_totals_check(&t), 0);
	}
}

static struct sct_totals totals_rec(uint32_t pid, uint32_t nr, uint64_t calls, const uint8_t *hist, uint32_t len)
{
	return (struct sct_totals){ .time_ns = 2000000000, .since_ns = 1000000000, .pid = pid,
				    .cgroup_id = 777, .nr = nr, .calls = calls, .errors = 1,
				    .duration_ns = 5000, .max_ns = 3000, .hist_bits = 9,
				    .hist = { hist, len } };
}

Test(format_totals, roundtrip_with_the_filter)
{
	static const uint8_t hist[] = { 0x05, 0x02 }; /* bucket 5, twice */
	struct sct_record rec = { .type = SCT_REC_TOTALS, .totals = totals_rec(4242, 257, 2, hist, 2) };
	const struct sct_session *s;
	struct sct_reader *r;
	struct fh_trace t;
	struct sct_record got;
	int fd, err = 0, n = 0;
	struct sct_writer *w = totals_writer(&fd);

	cr_assert_eq(sct_writer_append(w, &rec), 0);
	rec.totals.calls = 3; /* the histogram counts 2: refused, the writer goes on */
	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert(r);
	while (sct_reader_next(r, &got) == 1) {
		if (got.type == SCT_REC_SESSION) {
			uint32_t major, minor;

			s = sct_reader_session(r);
			sct_session_version(s, &major, &minor);
			cr_assert_eq(minor, 5);
			cr_assert(sct_session_has_filter(s));
			cr_assert_str_eq(sct_session_get(s, SCT_SESSION_FILTER_TEXT), "-S %file --failed");
			cr_assert_str_eq(sct_session_get(s, SCT_SESSION_FILTER_DETAILS), "filtered");
			cr_assert_str_eq(sct_session_get(s, SCT_SESSION_FILTER_TOTALS), "all");
			continue;
		}
		cr_assert_eq(got.type, SCT_REC_TOTALS);
		cr_assert_eq(got.totals.time_ns, 2000000000);
		cr_assert_eq(got.totals.since_ns, 1000000000);
		cr_assert_eq(got.totals.pid, 4242);
		cr_assert_eq(got.totals.nr, 257);
		cr_assert_eq(got.totals.calls, 2);
		cr_assert_eq(got.totals.errors, 1);
		cr_assert_eq(got.totals.duration_ns, 5000);
		cr_assert_eq(got.totals.max_ns, 3000);
		cr_assert_eq(got.totals.hist.len, 2);
		cr_assert_arr_eq(got.totals.hist.ptr, hist, 2);
		n++;
	}
	cr_assert_eq(n, 1);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_TOTALS], 1);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_totals, a_session_without_filter_takes_no_totals)
{
	static const uint8_t hist[] = { 0x05, 0x02 };
	struct sct_record rec = { .type = SCT_REC_TOTALS, .totals = totals_rec(1, 1, 2, hist, 2) };
	struct fh_trace t;
	int fd;
	struct sct_writer *w = fh_writer(NULL, &fd);

	cr_assert_eq(sct_writer_append(w, &rec), -EINVAL);
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	fh_trace_free(&t);
}

Test(format_totals, damaged_totals_from_a_file_are_skipped_and_counted)
{
	static const uint8_t good[] = { 0x05, 0x02 }, bad[] = { 0x05, 0x01 };
	const struct sct_totals recs[] = {
		totals_rec(10, 1, 2, good, 2), totals_rec(11, 1, 2, bad, 2), totals_rec(12, 1, 2, good, 2),
	};
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	craft_session(&c, 1, 5, NULL, 0);
	craft_totals_block(&c, recs, 3);
	fh_read_mem(c.p, c.len, true, &rd);
	cr_assert_eq(rd.rc, 0);
	cr_assert_eq(rd.nrecords, 2);
	cr_assert_eq(rd.recs[0].totals.pid, 10);
	cr_assert_eq(rd.recs[1].totals.pid, 12);
	cr_assert_eq(rd.stats.damaged_records, 1);
	cr_assert_eq(rd.stats.records[SCT_REC_TOTALS], 2);
	cr_assert_eq(rd.ndiag[SCT_DIAG_BAD_RECORD], 1);
	cr_assert_eq(rd.last_diag[SCT_DIAG_BAD_RECORD].type, SCT_REC_TOTALS);
	fh_read_free(&rd);
	craft_free(&c);
}

Test(format_totals, totals_of_a_1_4_session_are_unknown)
{
	static const uint8_t good[] = { 0x05, 0x02 };
	const struct sct_totals recs[] = { totals_rec(10, 1, 2, good, 2) };
	struct fh_read rd;
	struct craft c;

	craft_init(&c);
	/* a 1.0 HEADER: type 10 is unknown in a session older than 1.5 */
	craft_minimal_session(&c);
	craft_totals_block(&c, recs, 1);
	fh_read_mem(c.p, c.len, false, &rd);
	cr_assert_eq(rd.nrecords, 0);
	cr_assert_eq(rd.stats.unknown_records, 1);
	fh_read_free(&rd);
	craft_free(&c);
}

static const char *names_of(void *ctx, uint32_t nr)
{
	static const char *const tab[] = { "read", "write", "open", "close", "stat", "fstat", "lstat",
					   [257] = "openat", [39] = "getpid", [62] = "kill" };

	(void)ctx;
	return nr < sizeof(tab) / sizeof(tab[0]) ? tab[nr] : NULL;
}

static bool bit(const uint8_t *set, unsigned nr)
{
	return set[nr / 8] & (1u << nr % 8);
}

Test(format_totals, classes_are_strace_s)
{
	const char *const *names = sct_syscall_class_names();
	size_t n = 0;

	cr_assert_eq(sct_syscall_class_match("%file", "openat"), 1);
	cr_assert_eq(sct_syscall_class_match("file", "open"), 1);
	cr_assert_eq(sct_syscall_class_match("%file", "read"), 0);
	cr_assert_eq(sct_syscall_class_match("%desc", "read"), 1);
	cr_assert_eq(sct_syscall_class_match("%net", "connect"), 1);
	cr_assert_eq(sct_syscall_class_match("%network", "connect"), 1);
	cr_assert_eq(sct_syscall_class_match("%process", "execve"), 1);
	cr_assert_eq(sct_syscall_class_match("%signal", "kill"), 1);
	cr_assert_eq(sct_syscall_class_match("%memory", "mmap"), 1);
	cr_assert_eq(sct_syscall_class_match("%creds", "setuid"), 1);
	cr_assert_eq(sct_syscall_class_match("%stat", "stat"), 1);
	cr_assert_eq(sct_syscall_class_match("%lstat", "lstat"), 1);
	cr_assert_eq(sct_syscall_class_match("%fstat", "fstat"), 1);
	cr_assert_eq(sct_syscall_class_match("%fstat", "newfstatat"), 1);
	cr_assert_eq(sct_syscall_class_match("%statfs", "statfs"), 1);
	cr_assert_eq(sct_syscall_class_match("%fstatfs", "fstatfs"), 1);
	cr_assert_eq(sct_syscall_class_match("%clock", "clock_gettime"), 1);
	cr_assert_eq(sct_syscall_class_match("%pure", "getpid"), 1);
	cr_assert_eq(sct_syscall_class_match("%ipc", "semop"), 1);
	/* a prefix of a name in the list is not the name */
	cr_assert_eq(sct_syscall_class_match("%file", "ope"), 0);
	cr_assert_eq(sct_syscall_class_match("%file", ""), 0);
	cr_assert_eq(sct_syscall_class_match("%nosuch", "read"), -EINVAL);
	while (names[n])
		n++;
	cr_assert_eq(n, 16);
	cr_assert_str_eq(names[0], "%file");
}

Test(format_totals, syscall_lists_parse_as_strace_reads_them)
{
	uint8_t set[33];
	char err[128];

	cr_assert_eq(sct_syscall_set_parse("%file", names_of, NULL, set, 258, err, sizeof(err)), 0);
	cr_assert(bit(set, 2) && bit(set, 257) && bit(set, 4) && bit(set, 6));
	cr_assert(!bit(set, 0) && !bit(set, 5) && !bit(set, 39));
	cr_assert_eq(sct_syscall_set_parse("%file,!openat,1", names_of, NULL, set, 258, err, sizeof(err)), 0);
	cr_assert(bit(set, 2) && !bit(set, 257) && bit(set, 1));
	cr_assert_eq(sct_syscall_set_parse("!read,close", names_of, NULL, set, 258, err, sizeof(err)), 0);
	cr_assert(!bit(set, 0) && !bit(set, 3) && bit(set, 1) && bit(set, 257) && bit(set, 100));
	cr_assert_eq(sct_syscall_set_parse("read,bogus", names_of, NULL, set, 258, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "unknown syscall 'bogus'");
	cr_assert_eq(sct_syscall_set_parse("%bogus", names_of, NULL, set, 258, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "unknown syscall class '%bogus'");
	cr_assert_eq(sct_syscall_set_parse("300", names_of, NULL, set, 258, err, sizeof(err)), -EINVAL);
}
