// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a hostile trace or a careless command line must not do: put terminal escapes on the
 * screen, write through a symlink, replace a file, make a private trace readable, run on
 * after its output is gone, or look complete when it was not.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_helpers.h"

static void safety_init(void)
{
	setenv("TZ", "UTC", 1);
	umask(022);
}

TestSuite(report_safety, .init = safety_init, .fini = rt_cleanup);

/* ESC CSI, the C1 CSI as a raw byte and as UTF-8 (C2 9B), BEL, CR, DEL, invalid UTF-8. */
#define EVIL "\x1b[31m\x9b" "2J\xc2\x9b" "0m\a\r\x7f\xff\xfe"
/* HEADER strings must be valid UTF-8 for the reader to keep the HEADER: no raw 0x9b there. */
#define EVIL_UTF8 "\x1b[31m\xc2\x9b" "2J\a\r\x7f"

static const char *hostile_trace(void)
{
	static const struct sct_syscall_name names[] = { { 1, "wr" EVIL_UTF8 "ite" }, { 2, "open" } };
	const char *path = rt_path("evil.sct");
	struct sct_writer *w = rt_open_names(path, "host" EVIL_UTF8, names, 2, 0);
	struct sct_record r = { .type = SCT_REC_WARNING };

	rt_cgroup(w, 0, 10, "/cg" EVIL);
	rt_task(w, 0, 100, 100, 1, 10, 0, "comm" EVIL);
	rt_sc(w, 1000, 2000, 100, 100, 10, 1, 1);
	rt_sc(w, 2000, 2000, 100, 100, 10, 2, -2);
	rt_fork(w, 3000, 100, 100, 101, 101, 0);
	rt_exec(w, 4000, 101, 101, "/bin/file" EVIL, "exec" EVIL);
	rt_exit(w, 5000, 101, 101, 0, 0, 1);
	r.warning = (struct sct_warning){ .time_ns = RT_ANCHOR_CLOCK + 6000, .count = 1, .kind = 3,
					  .text = { .ptr = (const uint8_t *)"warn" EVIL, .len = sizeof("warn" EVIL) - 1 } };
	rt_record(w, &r);
	rt_close(w);
	return path;
}

/* Bytes other than printable ASCII and newline in what cmd prints. */
static int unprintable(const char *cmd)
{
	char *out;
	int n = -1;

	cr_assert_eq(rt_run(&out, "(%s) | LC_ALL=C tr -d '\\n\\040-\\176' | wc -c", cmd), 0);
	cr_assert_eq(sscanf(out, "%d", &n), 1, "got %s", out);
	free(out);
	return n;
}

Test(report_safety, every_mode_escapes_strings_from_the_file)
{
	const char *path = hostile_trace();
	static const char *const modes[] = {
		"", "-T", "--tree", "-H", "-e --by syscall,host,comm,cgroup", "--by process", "--by thread",
		"-T --comm comm" EVIL_UTF8, "-T -S open",
	};
	char cmd[1024], *out;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s '%s' '%s' 2>&1", rt_report(), modes[i], path, path);
		cr_assert_eq(unprintable(cmd), 0, "raw bytes from: %s", cmd);
	}
	snprintf(cmd, sizeof(cmd), "%s --to csv '%s' 2>&1 >/dev/null", rt_convert(), path);
	cr_assert_eq(unprintable(cmd), 0, "raw bytes in sct-convert's footer");
	/* JSON Lines escape every control, C1 too (U+009B is CSI): here every string is escaped */
	for (int t = 0; t < 5; t++) {
		static const char *const types[] = { "syscall", "task", "exec", "cgroup", "warning" };

		snprintf(cmd, sizeof(cmd), "%s --to jsonl --records %s '%s' 2>/dev/null", rt_convert(), types[t], path);
		cr_assert_eq(unprintable(cmd), 0, "raw bytes from: %s", cmd);
	}
	/* and the bytes are shown, escaped */
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "wr\\x1b[31m\\xc2\\x9b2J\\x07\\x0d\\x7fite(comm\\x1b[31m\\x9b2J\\xc2\\x9b0m"
				       "\\x07\\x0d\\x7f\\xff\\xfe 100/100) = 1"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "warning(other) count 1: warn\\x1b[31m\\x9b2J"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "-- session 0: host host\\x1b[31m\\xc2\\x9b2J\\x07\\x0d\\x7f, file"), "got\n%s", out);
	cr_assert_not_null(strstr(out, "evil.sct: count 1: warn\\x1b[31m\\x9b2J\\xc2\\x9b0m\\x07\\x0d\\x7f\\xff\\xfe\n"), "got\n%s", out);
	free(out);
}

/* Two files of a recording (sequences 1 and 3: a gap the footer names) with a hostile id. */
Test(report_safety, a_recording_id_reaches_no_terminal_raw)
{
	static const uint64_t t[] = { 1000, 2000 };
	const char *f1 = rt_hostile_recording("r1.sct", 1, t, 2), *f3 = rt_hostile_recording("r3.sct", 3, t, 2);
	static const char *const modes[] = { "", "-T", "--tree", "--by process" };
	char cmd[1024];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s '%s' '%s' 2>&1", rt_report(), modes[i], f1, f3);
		cr_assert_eq(unprintable(cmd), 0, "raw bytes from: %s", cmd);
	}
	snprintf(cmd, sizeof(cmd), "%s --to csv '%s' '%s' 2>&1 >/dev/null", rt_convert(), f1, f3);
	cr_assert_eq(unprintable(cmd), 0, "raw bytes in sct-convert's stderr");
	snprintf(cmd, sizeof(cmd), "%s --to clickhouse '%s' '%s' 2>&1 >/dev/null", rt_convert(), f1, f3);
	cr_assert_eq(unprintable(cmd), 0, "raw bytes in sct-convert's stderr");
}

/* What out_printf() would make of a string of n bytes of b, repeated: every value is whole. */
static char *repeat(const char *piece, size_t n)
{
	size_t len = strlen(piece);
	char *s = malloc(len * n + 1);

	cr_assert_not_null(s);
	for (size_t i = 0; i < n; i++)
		memcpy(s + i * len, piece, len);
	s[len * n] = 0;
	return s;
}

#define BIG_FIELDS 16u

/*
 * A sample whose event has 16 fields, each over the whole 64 KiB payload of control bytes:
 * a `fields` value of 7 MB in TabSeparated (256 such fields make 117 MB), which went through a
 * 512 KiB buffer that kept its tail and exited 0.
 */
Test(report_safety, a_sample_of_any_size_comes_out_whole)
{
	struct sct_event_field f[BIG_FIELDS];
	char names[BIG_FIELDS][8];
	const struct sct_event_desc ev = { .name = "g:big", .fields = f, .nfields = BIG_FIELDS };
	const char *path = rt_path("big-sample.sct");
	char *payload = repeat("\x01", SCT_MAX_STRING), *value = repeat("\\\\u0001", SCT_MAX_STRING);
	char *want = malloc(BIG_FIELDS * (strlen(value) + 16) + 8), *out, *got;
	struct sct_writer *w;
	size_t len = 0;

	cr_assert_not_null(want);
	want[len++] = '{';
	for (uint32_t k = 0; k < BIG_FIELDS; k++) {
		snprintf(names[k], sizeof(names[k]), "f%u", k);
		f[k] = (struct sct_event_field){ .name = names[k], .type = "char data[65536]", .size = SCT_MAX_STRING };
		len += (size_t)sprintf(want + len, "%s\"f%u\":\"%s\"", k ? "," : "", k, value);
	}
	strcpy(want + len, "}\n");
	w = rt_open_events(path, "h1", &ev, 1, "kernel");
	rt_sample(w, 1000, 100, 100, 0, 0, 0, payload, SCT_MAX_STRING);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --to clickhouse --records sample %s 2>/dev/null", rt_convert(), path), 0);
	got = strrchr(out, '\t');
	cr_assert_not_null(got);
	cr_assert(!strcmp(got + 1, want), "fields: %zu bytes, not %zu", strlen(got + 1), strlen(want));
	free(out);
	free(want);
	free(value);
	free(payload);
}

/*
 * A 900 KB host name on every line of a timeline of two files (3.6 MB escaped): it went
 * through a 2 MiB line buffer and sct-report said "Bad file descriptor".
 */
Test(report_safety, a_host_name_of_any_size_comes_out_whole)
{
	char *host = repeat("\x01", 900000), *escaped = repeat("\\x01", 900000), *out;
	const char *f1 = rt_path("big-host-1.sct"), *f2 = rt_path("big-host-2.sct");
	struct sct_writer *w = rt_open(f1, host, 0);
	size_t lines = 0;

	rt_sc(w, 1000, 500, 100, 100, 0, RT_NR_WRITE, 1);
	rt_close(w);
	w = rt_open(f2, host, 0);
	rt_sc(w, 2000, 500, 100, 100, 0, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s %s 2>&1", rt_report(), f1, f2), 0);
	for (const char *p = out; (p = strstr(p, escaped)); p += strlen(escaped))
		lines++;
	/* each call's line, and each session's footer line */
	cr_assert_eq(lines, 4, "the host %zu times in %zu bytes", lines, strlen(out));
	cr_assert_not_null(strstr(out, "write(? 100/100) = 1 <0.000000> cg=cgroup:0 @\\x01\\x01"), "%.300s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s %s 2>/dev/null | grep -c '^0,%s,'", rt_convert(), f1, f2, "\x01"), 1,
		     "CSV: bytes as they are");
	free(out);
	free(escaped);
	free(host);
}

/* A syscall name of 300 bytes was cut to 56: two names that share a prefix were one. */
Test(report_safety, a_syscall_name_of_any_size_is_whole)
{
	char *name = repeat("n", 300), *out;
	const struct sct_syscall_name table[] = { { 1, name } };
	const char *path = rt_path("long-name.sct");
	struct sct_writer *w = rt_open_names(path, "h1", table, 1, 0);

	rt_sc(w, 1000, 500, 100, 100, 0, 1, 1);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, name), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, name), "%s", out);
	free(out);
	free(name);
}

/*
 * A rename's two paths of 64 KiB of control bytes: 512 KiB and more of escaped arguments,
 * which the args column rendered in a 512 KiB buffer and cut.
 */
Test(report_safety, arguments_of_any_size_come_out_whole)
{
	static const struct sct_syscall_args descs[] = {
		{ RT_NR_RENAME, 2, { { "oldname", SCT_ARG_PATH, "" }, { "newname", SCT_ARG_PATH, "" } } },
	};
	char *p = repeat("\x01", SCT_MAX_STRING), *escaped = repeat("\\x01", SCT_MAX_STRING), *want, *out;
	const char *path = rt_path("long-args.sct");
	struct sct_writer *w = rt_open_args(path, "h1", descs, 1);
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + 1000, .pid = 100, .tid = 100,
					  .nr = RT_NR_RENAME, .arg0 = 0x1000, .arg1 = 0x2000,
					  .path_flags = SCT_PATH_CAPTURED, .path2_flags = SCT_PATH_CAPTURED,
					  .path = { (const uint8_t *)p, SCT_MAX_STRING },
					  .path2 = { (const uint8_t *)p, SCT_MAX_STRING } };
	rt_record(w, &r);
	rt_close(w);
	cr_assert(asprintf(&want, ",\"\"\"%s\"\", \"\"%s\"\"\"\r\n", escaped, escaped) > 0);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert(strlen(out) > strlen(want) && !strcmp(out + strlen(out) - strlen(want), want),
		  "args: %zu bytes of output, the column wants %zu", strlen(out), strlen(want));
	free(out);
	free(want);
	cr_assert(asprintf(&want, "rename(\"%s\", \"%s\") = 0 <", escaped, escaped) > 0);
	cr_assert_eq(rt_run(&out, "%s -T %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, want), "timeline: %zu bytes", strlen(out));
	free(out);
	free(want);
	free(escaped);
	free(p);
}

/* A process's label kept 200 bytes of its comm. */
Test(report_safety, a_comm_of_any_size_is_whole_in_a_label)
{
	char *comm = repeat("c", 300), *want, *out;
	const char *path = rt_path("long-comm.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);

	rt_task(w, 0, 100, 101, 1, 0, 0, comm);
	rt_sc(w, 1000, 500, 100, 101, 0, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert(asprintf(&want, "%s 100/101\n", comm) > 0);
	cr_assert_eq(rt_run(&out, "%s --by thread %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, want), "%s", out);
	free(out);
	free(want);
	free(comm);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	cr_assert_eq(lstat(path, &st), 0, "%s", path);
	return st.st_mode & 07777;
}

Test(report_safety, convert_output_is_created_safely)
{
	const char *trace = hostile_trace();
	const char *out = rt_path("out.csv"), *target = rt_path("target"), *link = rt_path("link.csv");
	const char *pub = rt_path("pub.sct");
	char *text;

	/* a private trace makes a private file; a readable one a readable file */
	cr_assert_eq(chmod(trace, 0600), 0);
	cr_assert_eq(rt_run(NULL, "%s --to csv -o %s %s 2>/dev/null", rt_convert(), out, trace), 0);
	cr_assert_eq(mode_of(out), 0600);
	/* an existing file is not replaced without --force */
	cr_assert_eq(rt_run(&text, "%s --to csv -o %s %s 2>&1", rt_convert(), out, trace), 1);
	cr_assert_not_null(strstr(text, ": File exists (--force overwrites it)"), "got %s", text);
	free(text);
	/* a device replaces nothing */
	cr_assert_eq(rt_run(NULL, "%s --to csv -o /dev/null %s 2>/dev/null", rt_convert(), trace), 0);
	cr_assert_eq(rt_run(NULL, "cp %s %s && chmod 0644 %s", trace, pub, pub), 0);
	cr_assert_eq(rt_run(NULL, "%s --to csv -o %s %s 2>/dev/null", rt_convert(), rt_path("pub.csv"), pub), 0);
	cr_assert_eq(mode_of(rt_path("pub.csv")), 0644);
	/* the most restrictive input wins; stdin counts as private; --force narrows an old file */
	cr_assert_eq(chmod(out, 0644), 0);
	cr_assert_eq(rt_run(NULL, "%s --to csv -f -o %s %s %s 2>/dev/null", rt_convert(), out, pub, trace), 0);
	cr_assert_eq(mode_of(out), 0600);
	cr_assert_eq(rt_run(NULL, "%s --to csv -o %s - < %s 2>/dev/null", rt_convert(), rt_path("stdin.csv"), pub), 0);
	cr_assert_eq(mode_of(rt_path("stdin.csv")), 0600);
	/* a symlink is never followed, --force or not; its target stays as it was */
	cr_assert_eq(rt_run(NULL, "echo keep > %s && ln -s %s %s", target, target, link), 0);
	cr_assert_eq(rt_run(NULL, "%s --to csv -o %s %s 2>/dev/null", rt_convert(), link, pub), 1);
	cr_assert_eq(rt_run(NULL, "%s --to csv --force -o %s %s 2>/dev/null", rt_convert(), link, pub), 1);
	cr_assert_eq(rt_run(&text, "cat %s", target), 0);
	cr_assert_str_eq(text, "keep\n");
	free(text);
	cr_assert_eq(mode_of(target), 0644);
}

/* 200,000 syscalls: far more output than a pipe holds. */
static const char *big_trace(void)
{
	const char *path = rt_path("big.sct");

	cr_assert_eq(rt_run(NULL, "%s bench %s 200000", rt_gen(), path), 0);
	return path;
}

Test(report_safety, closed_pipe_exits_1_quietly)
{
	const char *path = big_trace();
	char *out;

	cr_assert_eq(rt_run(&out, "{ %s -T %s 2>%s; echo $? > %s; } | head -1 >/dev/null; cat %s %s", rt_report(), path,
			    rt_path("err"), rt_path("st"), rt_path("st"), rt_path("err")), 0);
	cr_assert_str_eq(out, "1\n", "status and stderr: %s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "{ %s --to csv %s 2>/dev/null; echo $? > %s; } | head -1 >/dev/null; cat %s",
			    rt_convert(), path, rt_path("st"), rt_path("st")), 0);
	cr_assert_str_eq(out, "1\n");
	free(out);
}

Test(report_safety, convert_stops_at_the_first_write_error)
{
	const char *path = big_trace();
	unsigned long long n = 0;
	const char *line;
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv --force -o /dev/full %s 2>&1", rt_convert(), path), 1);
	cr_assert_not_null(strstr(out, "sct-convert: writing /dev/full: No space left on device"), "got\n%s", out);
	line = rt_find_line(out, "-- read 1 file, ");
	cr_assert_not_null(line, "got\n%s", out);
	cr_assert_eq(sscanf(line, "-- read 1 file, %llu records", &n), 1);
	/* a few chunks of 4,096 rows (convert_shard.c) each copy had rendered ahead, of 200,000 */
	cr_assert(n < 40000, "read %llu records after the first write error", n);
	free(out);
	cr_assert_eq(rt_run(NULL, "%s --to csv -o /dev/full %s 2>/dev/null", rt_convert(), path), 1);
}

/* One record per block, one byte flipped in each of 60 blocks far apart (before the trailer). */
Test(report_safety, footer_counts_details_it_does_not_list)
{
	const char *path = rt_path("bad.sct");
	struct sct_writer *w = rt_open(path, "h1", 1);
	unsigned long long ranges = 0;
	struct stat st;
	char more[64], *out;
	FILE *f;

	for (uint64_t i = 0; i < 1000; i++)
		rt_sc(w, i * 1000, 1000, 100, 100, 0, RT_NR_WRITE, 1);
	rt_close(w);
	cr_assert_eq(stat(path, &st), 0);
	f = fopen(path, "r+b");
	cr_assert_not_null(f);
	cr_assert(st.st_size > 2000 + 60 * 500, "size %lld", (long long)st.st_size);
	for (long k = 0; k < 60; k++) {
		long at = 2000 + k * 500;
		int c;

		cr_assert_eq(fseek(f, at, SEEK_SET), 0);
		c = fgetc(f);
		cr_assert_eq(fseek(f, at, SEEK_SET), 0);
		cr_assert_neq(fputc(c ^ 0x55, f), EOF);
	}
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(rt_run(&out, "%s %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_eq(sscanf(rt_find_line(out, "-- skipped/corrupt: "), "-- skipped/corrupt: %llu ranges", &ranges), 1);
	cr_assert(ranges > 20, "only %llu ranges\n%s", ranges, out);
	snprintf(more, sizeof(more), "\n   ... %llu more\n", ranges - 20);
	cr_assert_not_null(strstr(out, more), "no '%s' in\n%s", more, out);
	free(out);
}

/* Needs the reader to report a file that ends after its label (a diagnostic of any kind). */
Test(report_safety, label_only_file_is_damaged_under_strict)
{
	const char *path = rt_path("l.sct"), *label = rt_path("label.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);

	rt_close(w);
	cr_assert_eq(rt_run(NULL, "head -c 12 %s > %s", path, label), 0);
	cr_assert_eq(rt_run(NULL, "%s --strict %s >/dev/null 2>&1", rt_report(), label), 3);
	cr_assert_eq(rt_run(NULL, "%s --to csv --strict %s >/dev/null 2>&1", rt_convert(), label), 3);
}
