// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trace generator of the sct-report / sct-convert tests and benchmark:
 *   gen_report hostile OUT.sct EXPECT.json   every record type with hostile strings and
 *                                            extreme values, and the rows sct-convert must
 *                                            print for them (strings as hex) and the HEADER's
 *                                            clock anchor in EXPECT.json
 *   gen_report version IN.sct OUT.sct        IN with its HEADER claiming format 2.0
 *   gen_report bench OUT.sct N               N syscall records (one process, 4 threads,
 *                                            mostly write, ~300 ns apart, 1 cgroup)
 *   gen_report sessions OUT.sct N            N small sessions one after the other (cat of
 *                                            N files), each a TASK (pid 1, "init") and one
 *                                            write by it in cgroup 0 (no CGROUP record)
 *   gen_report headers OUT.sct N             N sessions of a label and the smallest HEADER
 *                                            ({"format": [1, 0]}), nothing else
 *   gen_report future OUT.sct [NAME]         a hand-made session whose HEADER schema describes
 *                                            type 20 NAME ("future": time_ns, value, blob): a
 *                                            syscall and two type-9 records
 *   gen_report read IN.sct                   reads IN through libsct and nothing else: the
 *                                            reader's own cost, beside the tools'
 *   gen_report hostile-id OUT.sct            a file of a recording (a TASK, three writes)
 *                                            whose HEADER's id was patched afterwards to 32
 *                                            bytes of escapes, a tab, a newline and quotes
 *   gen_report big-sample OUT.sct N          one SAMPLE of an event of N fields, each a
 *                                            char[65536] over the whole payload of 0x01 bytes
 *   gen_report bad-totals OUT.sct            a filtered session (format 1.5) with two good
 *                                            TOTALS among four damaged ones
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../fuzz/frame_fixup.h"
#include "../format/format_craft.h"
#include "sct.h"

#define U64MAX 18446744073709551615ull

static const struct sct_syscall_name names[] = {
	{ 0, "read" }, { 1, "write" }, { 2, "open" }, { 3, "close" }, { 257, "openat" },
};

/* Records of the hostile trace are stamped before the anchor: their wall clock is before it too. */
#define ANCHOR_CLOCK 1000ull
#define ANCHOR_REAL 1767225600000000000ull /* 2026-01-01 00:00:00 UTC */

static struct sct_header_info gen_info(const char *host)
{
	return (struct sct_header_info){
		.producer = "gen_report", .producer_version = "1", .hostname = host, .kernel = "6.18.0",
		.arch = "x86_64", .boot_id = "b", .clock = "CLOCK_MONOTONIC", .anchor_clock_ns = ANCHOR_CLOCK,
		.anchor_realtime_ns = ANCHOR_REAL, .cgroup_hierarchy = "v2",
		.cgroup_mount = "/sys/fs/cgroup", .syscalls = names, .nsyscalls = 5,
	};
}

static struct sct_writer *gen_open_info(const char *path, const struct sct_header_info *info)
{
	struct sct_writer_opts opts = { .no_fsync = true };
	int err = 0;
	struct sct_writer *w = sct_writer_open(path, true, info, &opts, &err);

	if (!w)
		fprintf(stderr, "gen_report: %s: %s\n", path, sct_strerror(err));
	return w;
}

static struct sct_writer *gen_open(const char *path, const char *host)
{
	const struct sct_header_info info = gen_info(host);

	return gen_open_info(path, &info);
}

static struct sct_bytes B(const char *s)
{
	return (struct sct_bytes){ .ptr = (const uint8_t *)s, .len = (uint32_t)strlen(s) };
}

static void hex(FILE *f, const char *s)
{
	fputs("{\"hex\":\"", f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fprintf(f, "%02x", *p);
	fputs("\"}", f);
}

#define HOST "h,\"1\"\nx"
#define CG_PATH "/a,b/\"q\"/new\nline/\r/\xff\xfe/\xc3\xa9"
#define COMM1 "c,\"o\"\nm\xff"
#define COMM2 "ok \xc3\xa9 \xf0\x9f\x98\x80"
#define FILE3 "/bin/with space,comma\"quote\"\n\xc3\x28\xed\xa0\x80\xe2\x82"
#define COMM3 "\x01\x7f\x80\t"
#define WTEXT "map full, \"x\"\n\xc2\x9b" "2J \xc2\x85"

static int gen_hostile(const char *path, const char *expect)
{
	struct sct_writer *w = gen_open(path, HOST);
	struct sct_record r[11];
	FILE *f;
	int err = 0;

	if (!w)
		return 1;
	memset(r, 0, sizeof(r));
	r[0].type = SCT_REC_CGROUP;
	r[0].cgroup = (struct sct_cgroup){ .time_ns = 1, .cgroup_id = U64MAX, .path = B(CG_PATH) };
	r[1].type = SCT_REC_CGROUP;
	r[1].cgroup = (struct sct_cgroup){ .time_ns = 2, .cgroup_id = 5, .path = B("/plain") };
	r[2].type = SCT_REC_TASK;
	r[2].task = (struct sct_task){ .time_ns = 3, .cgroup_id = U64MAX, .start_ns = 123, .pid = 4294967295u,
				       .tid = 4294967295u, .ppid = 1, .comm = B(COMM1) };
	r[3].type = SCT_REC_TASK;
	r[3].task = (struct sct_task){ .time_ns = 4, .cgroup_id = 5, .start_ns = 0, .pid = 7, .tid = 7, .ppid = 1,
				       .comm = B(COMM2) };
	r[4].type = SCT_REC_FORK;
	r[4].fork = (struct sct_fork){ .time_ns = 5, .child_start_ns = 5, .parent_pid = 7, .parent_tid = 7,
				       .child_pid = 8, .child_tid = 8, .is_thread = 0 };
	r[5].type = SCT_REC_EXEC;
	r[5].exec = (struct sct_exec){ .time_ns = 6, .pid = 8, .tid = 8, .old_tid = 8, .filename = B(FILE3),
				       .comm = B(COMM3) };
	r[6].type = SCT_REC_SYSCALL;
	r[6].syscall = (struct sct_syscall){ .time_ns = 7, .duration_ns = U64MAX, .cgroup_id = U64MAX, .ret = -2,
					     .pid = 4294967295u, .tid = 4294967295u, .nr = 1 };
	r[7].type = SCT_REC_SYSCALL;
	r[7].syscall = (struct sct_syscall){ .time_ns = 8, .duration_ns = 0, .cgroup_id = 5, .ret = INT64_MIN,
					     .pid = 7, .tid = 7, .nr = 999, .abi = 1 };
	r[8].type = SCT_REC_SYSCALL;
	r[8].syscall = (struct sct_syscall){ .time_ns = 9, .duration_ns = 10, .cgroup_id = 6, .ret = INT64_MAX,
					     .pid = 8, .tid = 8, .nr = 0, .unfinished = 1 };
	r[9].type = SCT_REC_EXIT;
	r[9].exit = (struct sct_exit){ .time_ns = 10, .start_ns = 5, .pid = 8, .tid = 8, .exit_code = 255,
				       .signal = 0, .group_dead = 1 };
	r[10].type = SCT_REC_LOST;
	r[10].lost = (struct sct_lost){ .time_ns = 11, .end_ns = 12, .count = U64MAX, .cause = 1 };
	for (int i = 0; i < 11 && !err; i++)
		err = sct_writer_append(w, &r[i]);
	if (!err) {
		struct sct_record wr = { .type = SCT_REC_WARNING };

		wr.warning = (struct sct_warning){ .time_ns = 13, .count = 3, .kind = 1, .text = B(WTEXT) };
		err = sct_writer_append(w, &wr);
	}
	if (err) {
		sct_writer_abandon(w);
		fprintf(stderr, "gen_report: append: %s\n", sct_strerror(err));
		return 1;
	}
	if (sct_writer_close(w))
		return 1;
	f = fopen(expect, "w");
	if (!f)
		return 1;
	fputs("{\"syscall\":[\n", f);
	fputs("{\"time_ns\":7,\"duration_ns\":18446744073709551615,\"pid\":4294967295,\"tid\":4294967295,"
	      "\"cgroup_id\":18446744073709551615,\"nr\":1,\"abi\":0,\"ret\":-2,\"unfinished\":0,"
	      "\"name\":\"write\",\"comm\":", f);
	hex(f, COMM1);
	fputs(",\"cgroup_path\":", f);
	hex(f, CG_PATH);
	fputs("},\n{\"time_ns\":8,\"duration_ns\":0,\"pid\":7,\"tid\":7,\"cgroup_id\":5,\"nr\":999,\"abi\":1,"
	      "\"ret\":-9223372036854775808,\"unfinished\":0,\"name\":\"compat:syscall_999\",\"comm\":", f);
	hex(f, COMM2);
	fputs(",\"cgroup_path\":\"/plain\"},\n{\"time_ns\":9,\"duration_ns\":10,\"pid\":8,\"tid\":8,\"cgroup_id\":6,"
	      "\"nr\":0,\"abi\":0,\"ret\":9223372036854775807,\"unfinished\":1,\"name\":\"read\",\"comm\":", f);
	hex(f, COMM3);
	fputs(",\"cgroup_path\":null}],\n\"task\":[\n{\"time_ns\":3,\"pid\":4294967295,\"tid\":4294967295,\"ppid\":1,"
	      "\"cgroup_id\":18446744073709551615,\"start_ns\":123,\"comm\":", f);
	hex(f, COMM1);
	fputs(",\"cgroup_path\":", f);
	hex(f, CG_PATH);
	fputs("},\n{\"time_ns\":4,\"pid\":7,\"tid\":7,\"ppid\":1,\"cgroup_id\":5,\"start_ns\":0,\"comm\":", f);
	hex(f, COMM2);
	fputs(",\"cgroup_path\":\"/plain\"}],\n\"fork\":[{\"time_ns\":5,\"parent_pid\":7,\"parent_tid\":7,"
	      "\"child_pid\":8,\"child_tid\":8,\"is_thread\":0,\"child_start_ns\":5,\"parent_comm\":", f);
	hex(f, COMM2);
	fputs("}],\n\"exec\":[{\"time_ns\":6,\"pid\":8,\"tid\":8,\"old_tid\":8,\"filename\":", f);
	hex(f, FILE3);
	fputs(",\"comm\":", f);
	hex(f, COMM3);
	fputs("}],\n\"exit\":[{\"time_ns\":10,\"pid\":8,\"tid\":8,\"exit_code\":255,\"signal\":0,\"group_dead\":1,"
	      "\"start_ns\":5,\"comm\":", f);
	hex(f, COMM3);
	fputs("}],\n\"cgroup\":[{\"time_ns\":1,\"cgroup_id\":18446744073709551615,\"path\":", f);
	hex(f, CG_PATH);
	fputs("},\n{\"time_ns\":2,\"cgroup_id\":5,\"path\":\"/plain\"}],\n"
	      "\"lost\":[{\"time_ns\":11,\"end_ns\":12,\"cause\":1,\"count\":18446744073709551615}],\n"
	      "\"warning\":[{\"time_ns\":13,\"kind\":1,\"count\":3,\"text\":", f);
	hex(f, WTEXT);
	fputs("}],\n\"host\":", f);
	hex(f, HOST);
	fprintf(f, ",\n\"anchor\":{\"clock\":%llu,\"real\":%llu}}\n", (unsigned long long)ANCHOR_CLOCK,
		(unsigned long long)ANCHOR_REAL);
	return fclose(f) ? 1 : 0;
}

/* Rewrites the HEADER's "format": [1, x] as [2, x] and fixes the frame's CRC-32. */
static int gen_version(const char *in, const char *outp)
{
	static uint8_t buf[1 << 20];
	static const uint8_t key[] = { 0x66, 'f', 'o', 'r', 'm', 'a', 't', 0x82, 0x01 };
	FILE *f = fopen(in, "rb");
	size_t n, body = 0, blen = 0, pos = 12;
	uint32_t crc;

	if (!f)
		return 1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < 32 || buf[pos] != 0x83 || buf[pos + 1] != 0x01)
		return 1;
	switch (buf[pos + 2]) {
	case 0x58: blen = buf[pos + 3]; body = pos + 4; break;
	case 0x59: blen = (size_t)buf[pos + 3] << 8 | buf[pos + 4]; body = pos + 5; break;
	case 0x5a: blen = (size_t)buf[pos + 3] << 24 | (size_t)buf[pos + 4] << 16 | (size_t)buf[pos + 5] << 8 | buf[pos + 6];
		body = pos + 7; break;
	default: return 1;
	}
	if (body + blen + 5 > n)
		return 1;
	for (size_t i = body; i + sizeof(key) <= body + blen; i++)
		if (!memcmp(buf + i, key, sizeof(key))) {
			buf[i + sizeof(key) - 1] = 0x02;
			crc = (uint32_t)crc32(0, buf + pos, (uInt)(body + blen - pos));
			buf[body + blen + 1] = (uint8_t)(crc >> 24);
			buf[body + blen + 2] = (uint8_t)(crc >> 16);
			buf[body + blen + 3] = (uint8_t)(crc >> 8);
			buf[body + blen + 4] = (uint8_t)crc;
			f = fopen(outp, "wb");
			if (!f || fwrite(buf, 1, n, f) != n)
				return 1;
			return fclose(f) ? 1 : 0;
		}
	return 1;
}

static int gen_bench(const char *path, unsigned long long n)
{
	static const uint32_t mix[8] = { 1, 1, 1, 1, 1, 1, 0, 3 };
	struct sct_writer *w = gen_open(path, "bench");
	struct sct_syscall sc = { .cgroup_id = 4242, .pid = 5000 };
	uint64_t t = 1000000;
	int err = 0;

	if (!w)
		return 1;
	for (unsigned long long i = 0; i < n && !err; i++) {
		sc.time_ns = t;
		sc.duration_ns = 150 + (i * 7919) % 400;
		sc.tid = 5000 + (uint32_t)(i & 3);
		sc.nr = mix[(i >> 5) & 7];
		sc.ret = sc.nr == 1 ? 1 : 0;
		t += 300;
		err = sct_writer_append_syscall(w, &sc);
	}
	if (err) {
		fprintf(stderr, "gen_report: %s\n", sct_strerror(err));
		sct_writer_abandon(w);
		return 1;
	}
	return sct_writer_close(w) ? 1 : 0;
}

static int gen_sessions(const char *path, unsigned long long n)
{
	static uint8_t one[64 << 10];
	struct sct_writer *w = gen_open(path, "h");
	struct sct_syscall sc = { .time_ns = 2000, .duration_ns = 5, .pid = 1, .tid = 1, .nr = 1, .ret = 1 };
	struct sct_record task = { .type = SCT_REC_TASK };
	size_t len;
	FILE *f;
	int err;

	if (!w)
		return 1;
	task.task = (struct sct_task){ .time_ns = 1500, .pid = 1, .tid = 1, .comm = B("init") };
	err = sct_writer_append(w, &task);
	if (!err)
		err = sct_writer_append_syscall(w, &sc);
	if (err || sct_writer_close(w)) {
		fprintf(stderr, "gen_report: %s\n", sct_strerror(err));
		return 1;
	}
	f = fopen(path, "rb");
	if (!f)
		return 1;
	len = fread(one, 1, sizeof(one), f);
	if (fclose(f) || !len || len == sizeof(one))
		return 1;
	f = fopen(path, "wb");
	if (!f)
		return 1;
	for (unsigned long long i = 0; i < n; i++)
		if (fwrite(one, 1, len, f) != len)
			break;
	return fclose(f) ? 1 : 0;
}

/* A file whose HEADER's schema describes type 20, named name, and holds two of them. */
static int gen_future(const char *path, const char *name)
{
	static const struct sct_field_schema f9[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "value", SCT_KIND_SINT, "" }, { "blob", SCT_KIND_BYTES, "" },
	};
	const struct craft_type t9 = { 20, name, 3, f9 };
	static const uint64_t t9v[] = { 1100, 1200 }, v9[] = { (uint64_t)-7, 3 }, t1[] = { 1000 }, one[] = { 1 },
		zero[] = { 0 }, ret[] = { 5 };
	static const struct sct_bytes b9[] = { { (const uint8_t *)"a,\"b\"", 5 }, { NULL, 0 } };
	static const struct craft_col c9[] = {
		{ SCT_KIND_TIME, t9v, NULL }, { SCT_KIND_SINT, v9, NULL }, { SCT_KIND_BYTES, NULL, b9 },
	};
	static const struct craft_col c1[] = {
		{ SCT_KIND_TIME, t1, NULL }, { SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, one, NULL },
		{ SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, zero, NULL }, { SCT_KIND_UINT, one, NULL },
		{ SCT_KIND_UINT, zero, NULL }, { SCT_KIND_SINT, ret, NULL }, { SCT_KIND_UINT, zero, NULL },
	};
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 1 }, { 20, 2 } };
	static const struct craft_section secs[] = {
		{ SCT_REC_SYSCALL, 1, 9, c1, NULL, 0, 0 }, { 20, 2, 3, c9, NULL, 0, 0 },
	};
	struct craft c;
	FILE *f = fopen(path, "wb");
	int err;

	if (!f)
		return 1;
	craft_init(&c);
	craft_session(&c, 1, 0, &t9, 1);
	craft_block(&c, runs, 2, secs, 2);
	err = fwrite(c.p, 1, c.len, f) != c.len;
	craft_free(&c);
	return fclose(f) || err;
}

/*
 * A filtered session (format 1.5, "filter" {"--summary-only", "none", "all"}, no syscall
 * table) whose block holds two good TOTALS (syscall_0: 2 calls of 5 ns; syscall_1: 3 calls of
 * 7 ns) among four damaged ones: a histogram counting 1 of 2 calls, a bucket past 64 << 9, a
 * varint of 11 bytes, hist_bits 40.
 */
static int gen_bad_totals(const char *path)
{
	static const uint8_t filter[] = {
		0x66, 'f', 'i', 'l', 't', 'e', 'r', 0xa3,
		0x64, 't', 'e', 'x', 't', 0x6e, '-', '-', 's', 'u', 'm', 'm', 'a', 'r', 'y', '-', 'o', 'n', 'l', 'y',
		0x67, 'd', 'e', 't', 'a', 'i', 'l', 's', 0x64, 'n', 'o', 'n', 'e',
		0x66, 't', 'o', 't', 'a', 'l', 's', 0x63, 'a', 'l', 'l',
	};
	static const uint8_t five2[] = { 0x05, 0x02 }, seven3[] = { 0x07, 0x03 }, five1[] = { 0x05, 0x01 },
		past[] = { 0x81, 0x80, 0x02, 0x02 },
		long_varint[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x02 };
#define GT(pid_, nr_, calls_, bits_, h) { .time_ns = 3000, .since_ns = 1000, .pid = (pid_), .nr = (nr_), \
	.calls = (calls_), .duration_ns = 5 * (calls_), .max_ns = 7, .hist_bits = (bits_), .hist = { h, sizeof(h) } }
	const struct sct_totals t[] = {
		GT(10, 0, 2, 9, five2), GT(12, 0, 2, 9, five1), GT(13, 0, 2, 9, past),
		GT(11, 1, 3, 9, seven3), GT(14, 1, 2, 9, long_varint), GT(15, 1, 2, 40, five2),
	};
#undef GT
	struct craft c, body;
	FILE *f = fopen(path, "wb");
	int err;

	if (!f)
		return 1;
	craft_init(&c);
	craft_init(&body);
	craft_label(&c);
	craft_header_body_keys(&body, 1, 5, filter, sizeof(filter), 1);
	craft_frame(&c, 1, body.p, body.len);
	craft_totals_block(&c, t, sizeof(t) / sizeof(t[0]));
	err = fwrite(c.p, 1, c.len, f) != c.len;
	craft_free(&body);
	craft_free(&c);
	return fclose(f) || err;
}

static int gen_close(struct sct_writer *w, int err)
{
	int cerr = sct_writer_close(w);

	if (err || cerr)
		fprintf(stderr, "gen_report: %s\n", sct_strerror(err ? err : cerr));
	return err || cerr;
}

/* Replace the 32 bytes from by to in the file at path, and repair its frames' checksums. */
static int gen_patch(const char *path, const char *from, const char *to)
{
	static uint8_t buf[1 << 20];
	FILE *f = fopen(path, "r+b");
	uint8_t *at;
	size_t len;
	int err;

	if (!f)
		return 1;
	len = fread(buf, 1, sizeof(buf), f);
	at = memmem(buf, len, from, 32);
	if (at)
		memcpy(at, to, 32);
	frame_fixup(buf, len);
	err = !at || len == sizeof(buf) || fseek(f, 0, SEEK_SET) || fwrite(buf, 1, len, f) != len;
	return fclose(f) || err;
}

static int gen_hostile_id(const char *path)
{
	static const char valid[] = "0123456789abcdef0123456789abcdef";
	struct sct_header_info info = gen_info("h1");
	struct sct_record r = { .type = SCT_REC_TASK };
	struct sct_writer *w;
	int err;

	info.recording_id = valid;
	info.sequence = 2;
	w = gen_open_info(path, &info);
	if (!w)
		return 1;
	r.task = (struct sct_task){ .time_ns = 1000, .pid = 7, .tid = 7, .ppid = 1, .comm = B("app") };
	err = sct_writer_append(w, &r);
	for (uint64_t i = 0; i < 3 && !err; i++) {
		r.type = SCT_REC_SYSCALL;
		r.syscall = (struct sct_syscall){ .time_ns = 2000 + i, .duration_ns = 10, .pid = 7, .tid = 7, .nr = 1,
						  .ret = 1 };
		err = sct_writer_append(w, &r);
	}
	if (gen_close(w, err))
		return 1;
	return gen_patch(path, valid, "\x1b]2;x\a\x1b[2J\t\nx', 0)) OR 1=1 --   ");
}

static int gen_big_sample(const char *path, unsigned long long n)
{
	static uint8_t payload[SCT_MAX_STRING];
	struct sct_event_field f[SCT_MAX_EVENT_FIELDS];
	char names_[SCT_MAX_EVENT_FIELDS][8];
	const struct sct_event_desc ev = { .name = "g:big", .fields = f, .nfields = (uint32_t)n };
	struct sct_header_info info = gen_info("h1");
	struct sct_record r = { .type = SCT_REC_SAMPLE };
	struct sct_writer *w;

	if (!n || n > SCT_MAX_EVENT_FIELDS)
		return 2;
	memset(payload, 1, sizeof(payload));
	for (uint32_t k = 0; k < n; k++) {
		snprintf(names_[k], sizeof(names_[k]), "f%u", k);
		f[k] = (struct sct_event_field){ .name = names_[k], .type = "char data[65536]", .size = SCT_MAX_STRING };
	}
	info.events = &ev;
	info.nevents = 1;
	info.backend = "perf";
	info.sample_cgroup = "kernel";
	w = gen_open_info(path, &info);
	if (!w)
		return 1;
	r.sample = (struct sct_sample){ .time_ns = 2000, .pid = 7, .tid = 7, .payload = { payload, sizeof(payload) } };
	return gen_close(w, sct_writer_append(w, &r));
}

static int gen_headers(const char *path, unsigned long long n)
{
	struct craft c;
	FILE *f = fopen(path, "wb");
	int err = 0;

	if (!f)
		return 1;
	craft_init(&c);
	craft_minimal_session(&c);
	for (unsigned long long i = 0; i < n && !err; i++)
		err = fwrite(c.p, 1, c.len, f) != c.len;
	craft_free(&c);
	return fclose(f) || err;
}

static int gen_read(const char *path)
{
	struct sct_record rec;
	int err = 0, n;
	struct sct_reader *r = sct_reader_open(path, &err);

	if (!r) {
		fprintf(stderr, "gen_report: %s: %s\n", path, sct_strerror(err));
		return 1;
	}
	while ((n = sct_reader_next(r, &rec)) > 0)
		;
	sct_reader_close(r);
	return n < 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "hostile"))
		return gen_hostile(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "version"))
		return gen_version(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return gen_bench(argv[2], strtoull(argv[3], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "sessions"))
		return gen_sessions(argv[2], strtoull(argv[3], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "headers"))
		return gen_headers(argv[2], strtoull(argv[3], NULL, 10));
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "future"))
		return gen_future(argv[2], argc == 4 ? argv[3] : "future");
	if (argc == 3 && !strcmp(argv[1], "read"))
		return gen_read(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "hostile-id"))
		return gen_hostile_id(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "big-sample"))
		return gen_big_sample(argv[2], strtoull(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "bad-totals"))
		return gen_bad_totals(argv[2]);
	fprintf(stderr, "usage: gen_report hostile OUT EXPECT | version IN OUT | bench OUT N | sessions OUT N | headers OUT N | future OUT [NAME] | read IN | hostile-id OUT | big-sample OUT N | bad-totals OUT\n");
	return 2;
}
