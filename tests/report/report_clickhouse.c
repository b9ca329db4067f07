// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert's ClickHouse output, byte for byte: the INSERT, TabSeparated escaping, the
 * identity columns, wall_ns, and the DDL's columns (loading into a real server: make test-fleet).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/convert/clickhouse.h"
#include "report_helpers.h"

TestSuite(report_clickhouse, .fini = rt_cleanup);

/*
 * A file without a recording id gets one derived from its HEADER. It must never change: it
 * is what makes shipping an old file again add nothing.
 */
#define RT_DERIVED_ID "8043b2961fb72792b7af9eb43fd7c626"    /* host "h\tx" */
#define RT_DERIVED_ID_H1 "5270cf25254ed2338a73c46d6a7e5b39" /* host "h1" */

Test(report_clickhouse, rows_escape_strings_and_carry_the_identity_and_wall_time)
{
	const char *path = rt_path("t.sct");
	struct sct_writer *w = rt_open(path, "h\tx", 0);
	char *out;

	rt_cgroup(w, 1, 5, "/x\ty");
	rt_task(w, 1, 7, 7, 1, 5, 0, "a\\b\nc\rd");
	rt_sc(w, 2000, 300, 7, 7, 5, RT_NR_OPENAT, -2);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "INSERT INTO sct.syscall (host, recording, sequence, session, time_ns, duration_ns, pid, tid, "
			      "cgroup_id, nr, abi, ret, unfinished, wall_ns, name, comm, cgroup_path, args) FORMAT "
			      "TabSeparated\n"
			      "h\\tx\t" RT_DERIVED_ID "\t0\t0\t1000000002000\t300\t7\t7\t5\t257\t0\t-2\t0\t"
			      "1767225600000002000\topenat\ta\\\\b\\nc\\rd\t/x\\ty\t\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records task --database fleet %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "INSERT INTO fleet.task (host, recording, sequence, session, time_ns, pid, tid, ppid, "
			      "cgroup_id, start_ns, comm, wall_ns, cgroup_path) FORMAT TabSeparated\n"
			      "h\\tx\t" RT_DERIVED_ID "\t0\t0\t1000000000001\t7\t7\t1\t5\t1000000000000\ta\\\\b\\nc\\rd\t"
			      "1767225600000000001\t/x\\ty\n");
	free(out);
	/* no rows, no INSERT: ClickHouse refuses one without data */
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records lost %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(out, "");
	free(out);
}

/* The bytes of a file (at most cap), their count into *len. */
static void read_bytes(const char *path, unsigned char *buf, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "rb");

	cr_assert_not_null(f, "%s", path);
	*len = fread(buf, 1, cap, f);
	cr_assert_eq(fclose(f), 0);
}

/*
 * RowBinary: the INSERT line, then each column in the bytes of its type: integers of the
 * DDL's width little-endian (ret an Int64 of -2, abi a UInt8), strings after their LEB128
 * length with every byte as it is (a 200-byte path makes a two-byte length), the recording a
 * FixedString(32), a value the session lacks (args) the empty string.
 */
Test(report_clickhouse, rowbinary_rows_are_each_type_s_bytes)
{
	static const char insert[] = "INSERT INTO sct.syscall (host, recording, sequence, session, time_ns, duration_ns, "
				     "pid, tid, cgroup_id, nr, abi, ret, unfinished, wall_ns, name, comm, cgroup_path, "
				     "args) FORMAT RowBinary\n";
	const char *path = rt_path("rb.sct"), *out = rt_path("rb.out");
	unsigned char got[1024], want[1024], *p = want;
	char cg[201];
	size_t len;

	memset(cg, 'c', 200);
	cg[0] = '/';
	cg[200] = '\0';
	{
		struct sct_writer *w = rt_open(path, "h\tx", 0);

		rt_cgroup(w, 1, 5, cg);
		rt_task(w, 1, 7, 7, 1, 5, 0, "a\tb");
		rt_sc(w, 2000, 300, 7, 7, 5, RT_NR_OPENAT, -2);
		rt_close(w);
	}
	cr_assert_eq(rt_run(NULL, "%s --to clickhouse --clickhouse-format rowbinary -o %s %s 2>/dev/null", rt_convert(),
			    out, path), 0);
	read_bytes(out, got, sizeof(got), &len);
#define PUT(bytes, n) (memcpy(p, bytes, n), p += n)
#define LE(v, n) do { uint64_t v_ = (v); for (int i_ = 0; i_ < (n); i_++) *p++ = (unsigned char)(v_ >> (8 * i_)); } while (0)
	PUT(insert, strlen(insert));
	PUT("\3h\tx", 4);
	PUT(RT_DERIVED_ID, 32);
	LE(0, 8);                    /* sequence */
	LE(0, 4);                    /* session */
	LE(1000000002000ull, 8);     /* time_ns */
	LE(300, 8);                  /* duration_ns */
	LE(7, 4);                    /* pid */
	LE(7, 4);                    /* tid */
	LE(5, 8);                    /* cgroup_id */
	LE(RT_NR_OPENAT, 4);         /* nr */
	LE(0, 1);                    /* abi */
	LE((uint64_t)-2, 8);         /* ret */
	LE(0, 1);                    /* unfinished */
	LE(1767225600000002000ull, 8); /* wall_ns */
	PUT("\6openat", 7);
	PUT("\3a\tb", 4);
	PUT("\xc8\x01", 2);         /* 200 */
	PUT(cg, 200);
	PUT("", 1);                  /* args: '' */
#undef PUT
#undef LE
	for (size_t i = 0; i < len && i < (size_t)(p - want); i++)
		cr_assert_eq(got[i], want[i], "byte %zu: 0x%02x, not 0x%02x", i, got[i], want[i]);
	cr_assert_eq(len, (size_t)(p - want));
	/* --clickhouse-format is --to clickhouse's only, and tsv or rowbinary */
	cr_assert_eq(rt_run(NULL, "%s --to csv --clickhouse-format rowbinary %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --to clickhouse --clickhouse-format native %s 2>/dev/null", rt_convert(), path), 2);
}

/* Lines of text and the tabs in each: every row of one INSERT has as many as its column list. */
static void assert_rows_aligned(const char *out, int rows)
{
	int cols = 1, lines = 0, tabs = 0;

	cr_assert_eq(strncmp(out, "INSERT INTO ", 12), 0, "%s", out);
	for (const char *p = strchr(out, '(') + 1; *p != ')'; p++)
		cols += *p == ',';
	for (const char *p = strchr(out, '\n') + 1; *p; p++) {
		if (*p == '\t') {
			tabs++;
		} else if (*p == '\n') {
			cr_assert_eq(tabs, cols - 1, "row %d has %d columns, not %d:\n%s", lines, tabs + 1, cols, out);
			tabs = 0;
			lines++;
		}
	}
	cr_assert_eq(lines, rows, "%s", out);
}

/* A tab or newline from a file never moves a value into another column or row. */
Test(report_clickhouse, a_hostile_recording_id_shifts_no_row)
{
	static const uint64_t t[] = { 1000, 2000, 3000 };
	const char *path = rt_hostile_recording("id.sct", 2, t, 3);
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to clickhouse %s 2>/dev/null", rt_convert(), path), 0);
	assert_rows_aligned(out, 3);
	/* libsct reads the id as none: the row carries the id derived from the HEADER, sequence 0 */
	cr_assert_eq(strspn(rt_line(out, 1) + 3, "0123456789abcdef"), 32, "%s", out);
	cr_assert_eq(strncmp(rt_line(out, 1) + 35, "\t0\t0\t", 5), 0, "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records task %s 2>/dev/null", rt_convert(), path), 0);
	assert_rows_aligned(out, 1);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records sessions %s 2>/dev/null", rt_convert(), path), 0);
	assert_rows_aligned(out, 1);
	free(out);
}

/* A type's name from a HEADER is its table's whole name: one cut at 63 bytes named another table. */
Test(report_clickhouse, a_long_type_name_names_its_whole_table)
{
	const char *path = rt_path("long-type.sct");
	char name[301], *out;

	memset(name, 't', 300);
	name[300] = 0;
	cr_assert_eq(rt_run(NULL, "%s future %s %s", rt_gen(), path, name), 0);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records 20 %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_eq(strncmp(out, "INSERT INTO sct.", 16), 0, "%s", out);
	cr_assert_eq(strncmp(out + 16, name, 300), 0, "%s", out);
	cr_assert_eq(strncmp(out + 316, " (host, ", 8), 0, "%s", out);
	free(out);
}

/* A type's name with a newline keeps the INSERT on one line: its rows are not shifted under it. */
Test(report_clickhouse, a_type_name_with_a_newline_keeps_the_insert_one_line)
{
	const char *path = rt_path("newline-type.sct");
	char *out;

	cr_assert_eq(rt_run(NULL, "%s future %s \"$(printf 'a\\nb')\"", rt_gen(), path), 0);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records 20 %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_eq(strncmp(out, "INSERT INTO sct.`a\\x0ab` (host, ", 32), 0, "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 0), ") FORMAT TabSeparated"), "%s", out);
	cr_assert_eq(strncmp(rt_line(out, 1), "crafthost\t", 10), 0, "%s", out);
	cr_assert_eq(strncmp(rt_line(out, 2), "crafthost\t", 10), 0, "%s", out);
	cr_assert_str_eq(rt_line(out, 3), "");
	free(out);
}

Test(report_clickhouse, sessions_rows_hold_the_header)
{
	const char *path = rt_path("s.sct");
	const char *want;
	char *out;

	rt_close(rt_open(path, "h1", 0));
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records sessions %s %s 2>/dev/null", rt_convert(), path, path), 0);
	/* host, recording, sequence, session, derived_id, snapshot, format 1.0, anchor, producer ... */
	cr_assert_eq(strncmp(out, "INSERT INTO sct.sessions (host, recording, sequence, session, derived_id, snapshot, ", 84), 0,
		     "%s", out);
	want = "h1\t" RT_DERIVED_ID_H1 "\t0\t0\t1\t0\t1\t0\t"
	       "1000000000000\t1767225600000000000\treport-test\t";
	cr_assert_eq(strncmp(rt_line(out, 1), want, strlen(want)), 0, "%s", out);
	cr_assert_str_eq(rt_line(out, 3), "");
	free(out);
}

/*
 * Every built-in field is a column, in schema order, in the width of its struct member; the
 * captured argument memory (format 1.7) as text: the peer, exec's arguments an Array(String).
 */
Test(report_clickhouse, schema_columns_follow_the_header_schema)
{
	const char *want = "    host String,\n    recording FixedString(32),\n    sequence UInt64,\n    session UInt32,\n"
			   "    time_ns UInt64,\n    duration_ns UInt64,\n    pid UInt32,\n    tid UInt32,\n"
			   "    cgroup_id UInt64,\n    nr UInt32,\n    abi UInt8,\n    ret Int64,\n    unfinished UInt8,\n"
			   "    arg0 UInt64,\n    arg1 UInt64,\n    arg2 UInt64,\n    arg3 UInt64,\n    arg4 UInt64,\n"
			   "    arg5 UInt64,\n    path_flags UInt32,\n    path_ref UInt32,\n    path String,\n"
			   "    path2_flags UInt32,\n    path2_ref UInt32,\n    path2 String,\n    stack_id UInt32,\n"
			   "    addr_flags UInt32,\n    addr String,\n    argv_flags UInt32,\n    envc UInt64,\n"
			   "    argv Array(String),\n    data_flags UInt32,\n    data String,\n"
			   "    wall_ns UInt64,\n    name String,\n    comm String,\n    cgroup_path String,\n"
			   "    args String\n)\n"
			   "ENGINE = MergeTree\nPARTITION BY toDate(toDateTime(intDiv(wall_ns, 1000000000)))\n"
			   "ORDER BY (host, cgroup_id, wall_ns);\n";
	const char *syscall;
	char *out;

	cr_assert_eq(rt_run(&out, "%s --schema clickhouse", rt_convert()), 0);
	syscall = strstr(out, "CREATE TABLE IF NOT EXISTS sct.syscall\n(\n");
	cr_assert_not_null(syscall, "%s", out);
	syscall += strlen("CREATE TABLE IF NOT EXISTS sct.syscall\n(\n");
	cr_assert_eq(strncmp(syscall, want, strlen(want)), 0, "%s", syscall);
	for (const char *t = "task\0fork\0exec\0exit\0cgroup\0lost\0warning\0sample\0sessions\0files\0"; *t; t += strlen(t) + 1) {
		char want[64];

		snprintf(want, sizeof(want), "CREATE TABLE IF NOT EXISTS sct.%s\n", t);
		cr_assert_not_null(strstr(out, want), "no table %s", t);
	}
	/* the stacks: keyed as the calls join them, the frames symbolized */
	cr_assert_not_null(strstr(out, "CREATE TABLE IF NOT EXISTS sct.stack\n(\n    host String,\n"
				       "    recording FixedString(32),\n    sequence UInt64,\n    session UInt32,\n"
				       "    time_ns UInt64,\n    stack_id UInt32,\n    pid UInt32,\n"
				       "    frames Array(String),\n    folded String,\n    wall_ns UInt64\n)\n"
				       "ENGINE = MergeTree\nPARTITION BY toDate(toDateTime(intDiv(wall_ns, 1000000000)))\n"
				       "ORDER BY (host, recording, sequence, session, stack_id);\n"), "%s", out);
	cr_assert_null(strstr(out, "Distributed"));
	free(out);
	cr_assert_eq(rt_run(&out, "%s --schema clickhouse --cluster c1", rt_convert()), 0);
	cr_assert_not_null(strstr(out, "CREATE TABLE IF NOT EXISTS sct.syscall AS sct_local.syscall\n"
				       "ENGINE = Distributed(c1, sct_local, syscall, cityHash64(host));\n"), "%s", out);
	free(out);
}

Test(report_clickhouse, bad_options_are_usage_errors)
{
	const char *path = rt_path("e.sct");

	rt_close(rt_open(path, "h", 0));
	cr_assert_eq(rt_run(NULL, "%s --to csv --records sessions %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --to csv --database x %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --to clickhouse --database 'a;b' %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --schema clickhouse %s 2>/dev/null", rt_convert(), path), 2);
	cr_assert_eq(rt_run(NULL, "%s --schema postgres 2>/dev/null", rt_convert()), 2);
	cr_assert_eq(rt_run(NULL, "%s --schema clickhouse --cluster 'x y' 2>/dev/null", rt_convert()), 2);
}

/* A stack's frames as Array(String): every line whole, whatever bytes it holds, none for no text. */
Test(report_clickhouse, frames_are_an_array_of_their_lines)
{
	static const char text[] = "a'b\\c\td\nx\0y\n\n";
	static const char tsv[] = "['a\\'b\\\\c\\td','x\\0y','','']";
	static const char rb[] = "\x04\x07" "a'b\\c\td\x03x\0y\x00\x00";
	struct out o;

	cr_assert_eq(out_open_mem(&o, 0), 0);
	ch_tsv_lines(&o, text, sizeof(text) - 1);
	cr_assert_eq(o.len, sizeof(tsv) - 1);
	cr_assert_eq(memcmp(o.buf, tsv, o.len), 0, "%.*s", (int)o.len, o.buf);
	o.len = 0;
	ch_rb_lines(&o, text, sizeof(text) - 1);
	cr_assert_eq(o.len, sizeof(rb) - 1);
	cr_assert_eq(memcmp(o.buf, rb, o.len), 0);
	o.len = 0;
	ch_tsv_lines(&o, "", 0);
	ch_rb_lines(&o, "", 0);
	cr_assert_eq(o.len, 3);
	cr_assert_eq(memcmp(o.buf, "[]\0", 3), 0);
	free(o.buf);
}

/* Names from a file reach SQL as identifiers, quoted when they are not plain. */
Test(report_clickhouse, names_from_a_header_are_quoted_identifiers)
{
	static const char *const cases[][2] = {
		{ "time_ns", "time_ns" }, { "_x9", "_x9" }, { "9x", "`9x`" }, { "a b", "`a b`" },
		{ "x`); DROP TABLE t; --", "`x\\`); DROP TABLE t; --`" }, { "a\\b", "`a\\\\b`" }, { "", "``" },
		{ "a\nb\t\x1b\x7f", "`a\\x0ab\\x09\\x1b\\x7f`" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o;

		cr_assert_eq(out_open_mem(&o, 0), 0);
		ch_ident(&o, cases[i][0]);
		cr_assert_eq(o.len, strlen(cases[i][1]), "%s", cases[i][0]);
		cr_assert_eq(memcmp(o.buf, cases[i][1], o.len), 0, "%s: %.*s", cases[i][0], (int)o.len, o.buf);
		free(o.buf);
	}
}

/* File seq of recording ID: one write of pid 100 at seq seconds. */
static const char *ch_recording_file(const char *name, uint64_t seq)
{
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open_recording(path, "h1", "0123456789abcdef0123456789abcdef", seq, false);

	rt_sc(w, seq * 1000000000ull, 500, 100, 100, 10, RT_NR_WRITE, 1);
	rt_close(w);
	return path;
}

/* Every (sequence, session) of the rows of out, as "seq/session " each. */
static void ch_identities(const char *out, char *ids, size_t len)
{
	ids[0] = '\0';
	for (int n = 1; *rt_line(out, n); n++) {
		unsigned long long seq;
		unsigned session;

		cr_assert_eq(sscanf(rt_line(out, n), "h1\t%*32[0-9a-f]\t%llu\t%u", &seq, &session), 2, "%s", out);
		snprintf(ids + strlen(ids), len - strlen(ids), "%llu/%u ", seq, session);
	}
}

/*
 * The files of one recording are one session to sct-convert, but each row carries its own
 * file's sequence and session index, as the sessions table does: joins on (recording,
 * sequence, session) line up. A file reopened in place holds two sessions (3 and 4).
 */
Test(report_clickhouse, rows_of_a_rotated_recording_carry_their_own_file_identity)
{
	const char *f1 = ch_recording_file("rec.000001.sct", 1);
	const char *f2 = ch_recording_file("rec.000002.sct", 2);
	const char *f3 = ch_recording_file("rec.000003.sct", 3);
	const char *f4 = ch_recording_file("rec.000004.sct", 4);
	const char *f34 = rt_path("rec.000003+4.sct");
	char ids[256], *out;

	cr_assert_eq(rt_run(&out, "cat %s %s > %s", f3, f4, f34), 0);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse %s %s %s 2>/dev/null", rt_convert(), f1, f2, f34), 0);
	ch_identities(out, ids, sizeof(ids));
	cr_assert_str_eq(ids, "1/0 2/0 3/0 4/1 ", "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records sessions %s %s %s 2>/dev/null", rt_convert(), f1, f2,
			    f34), 0);
	ch_identities(out, ids, sizeof(ids));
	cr_assert_str_eq(ids, "1/0 2/0 3/0 4/1 ", "%s", out);
	free(out);
}

/*
 * A trace that captured argument memory: its rows have the columns, the same in TabSeparated
 * and RowBinary (an array of exec's arguments, [] for a call without); one without captures
 * names none in its INSERT, so an older table loads it.
 */
Test(report_clickhouse, captured_memory_columns)
{
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to clickhouse spec/examples/captures.sct 2>/dev/null", rt_convert()), 0);
	cr_assert_not_null(strstr(rt_line(out, 0), ", path2, addr_flags, addr, argv_flags, envc, argv, data_flags, data, "
				  "wall_ns,"), "%s", rt_line(out, 0));
	cr_assert_not_null(strstr(rt_line(out, 1), "\t1\t127.0.0.1:8080\t0\t0\t[]\t0\t\t"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "\t0\t\t1\t23\t['printf','%s %s\\\\n','hello world','gr\xc3\xbc\xc3\x9f"
				  "e']\t0\t\t"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 4), "\t1\thello world gr\\\\303\\\\274\\\\303\\\\237e\\\\n\t"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse spec/examples/args.sct 2>/dev/null", rt_convert()), 0);
	cr_assert_null(strstr(rt_line(out, 0), "addr"), "%s", rt_line(out, 0));
	free(out);
}
