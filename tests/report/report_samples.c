// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tracepoint samples in sct-convert (--records sample, --event) and sct-report (--by event,
 * the timeline, the footer): exact outputs on a trace of known samples, hostile strings and a
 * __data_loc that points outside its sample included.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "report_helpers.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
}

TestSuite(report_samples, .init = utc, .fini = rt_cleanup);

static const struct sct_event_field exec_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "common_pid", "int", 4, 4, 1, 0 },
	{ "filename", "__data_loc char[]", 8, 4, 1, 1 },
	{ "pid", "pid_t", 12, 4, 1, 0 },
};
static const struct sct_event_field kinds_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "comm", "char comm[16]", 8, 16, 1, 0 },
	{ "vals", "int vals[3]", 24, 12, 1, 0 },
	{ "mac", "unsigned char mac[2]", 36, 2, 0, 0 },
	{ "s", "short", 38, 2, 1, 0 },
	{ "big", "u64", 40, 8, 0, 0 },
	{ "neg", "s64", 48, 8, 1, 0 },
	{ "bad", "__data_loc char[]", 56, 4, 1, 1 },
};
static const struct sct_event_desc events[] = {
	{ "sched:sched_process_exec", exec_fields, sizeof(exec_fields) / sizeof(exec_fields[0]) },
	{ "test:kinds", kinds_fields, sizeof(kinds_fields) / sizeof(kinds_fields[0]) },
};

#define FILENAME "/bin/a,\"b\"\n\xff"

static void le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

/* sched_process_exec of pid: filename at 16. */
static uint32_t exec_payload(uint8_t *p, uint32_t pid)
{
	uint32_t len = sizeof(FILENAME);

	memset(p, 0, 16);
	le(p, 311, 2);
	le(p + 4, pid, 4);
	le(p + 8, 16u | len << 16, 4);
	le(p + 12, pid, 4);
	memcpy(p + 16, FILENAME, len);
	return 16 + len;
}

/* Every kind of field; bad's __data_loc claims 8 bytes from 60 of a 64-byte payload. */
static uint32_t kinds_payload(uint8_t *p)
{
	memset(p, 0, 64);
	le(p, 400, 2);
	memcpy(p + 8, "wor\"ker", 7);
	le(p + 24, (uint64_t)-5, 4);
	le(p + 28, 7, 4);
	le(p + 32, 0x7fffffff, 4);
	p[36] = 0xaa;
	p[37] = 0x01;
	le(p + 38, (uint64_t)-2, 2);
	le(p + 40, UINT64_MAX, 8);
	le(p + 48, 1ull << 63, 8);
	le(p + 56, 60u | 8u << 16, 4);
	return 64;
}

/* Two exec samples (pids 100 and 200), a kinds sample by 100 and a syscall between them. */
static const char *sample_trace(const char *mode)
{
	const char *path = rt_path("samples.sct");
	struct sct_writer *w = rt_open_events(path, "h1", events, 2, mode);
	uint8_t a[64], b[64], k[64];
	uint32_t na = exec_payload(a, 100), nb = exec_payload(b, 200), nk = kinds_payload(k);

	rt_cgroup(w, 0, 10, "/svc/a");
	rt_task(w, 0, 100, 100, 1, 10, 0, "worker");
	rt_sample(w, 1000, 100, 100, 1, 10, 0, a, na);
	rt_sc(w, 2000, 500, 100, 100, 10, RT_NR_WRITE, 1);
	rt_sample(w, 3000, 100, 101, 0, 10, 1, k, nk);
	rt_sample(w, 4000, 200, 200, 1, 0, 0, b, nb);
	rt_close(w);
	return path;
}

#define KINDS_JSON "\"common_type\":400,\"comm\":\"wor\\\"ker\",\"vals\":[-5,7,2147483647]," \
	"\"mac\":[170,1],\"s\":-2,\"big\":18446744073709551615,\"neg\":-9223372036854775808," \
	"\"bad\":{\"error\":\"out of range\"}"

#define THIRD "{\"session\":0,\"host\":\"h1\",\"time_ns\":1000000004000," \
	"\"wall_time\":\"2026-01-01T00:00:00.000004000Z\",\"pid\":200,"

Test(report_samples, convert_jsonl_decodes_every_field)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to jsonl --records sample %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "{\"session\":0,\"host\":\"h1\",\"time_ns\":1000000001000,"
			 "\"wall_time\":\"2026-01-01T00:00:00.000001000Z\","
			 "\"pid\":100,\"tid\":100,\"cpu\":1,\"cgroup_id\":10,\"event\":"
			 "\"sched:sched_process_exec\",\"fields\":{\"common_type\":311,\"common_pid\":100,"
			 "\"filename\":\"/bin/a,\\\"b\\\"\\n\\u00ff\",\"pid\":100}}", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "{\"session\":0,\"host\":\"h1\",\"time_ns\":1000000003000,"
			 "\"wall_time\":\"2026-01-01T00:00:00.000003000Z\","
			 "\"pid\":100,\"tid\":101,\"cpu\":0,\"cgroup_id\":10,\"event\":\"test:kinds\","
			 "\"fields\":{" KINDS_JSON "}}");
	cr_assert_eq(strncmp(rt_line(out, 2), THIRD, strlen(THIRD)), 0, "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 3), "");
	free(out);
	/* --event selects, and implies --records sample */
	cr_assert_eq(rt_run(&out, "%s --to jsonl --event test:kinds %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "{\"session\":0,\"host\":\"h1\",\"time_ns\":1000000003000,"
			 "\"wall_time\":\"2026-01-01T00:00:00.000003000Z\","
			 "\"pid\":100,\"tid\":101,\"cpu\":0,\"cgroup_id\":10,\"event\":\"test:kinds\","
			 "\"fields\":{" KINDS_JSON "}}", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "");
	free(out);
}

Test(report_samples, convert_csv_columns_per_field_or_json_text)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv --event sched:sched_process_exec %s 2>/dev/null",
			    rt_convert(), path), 0);
	cr_assert_str_eq(out, "session,host,time_ns,wall_time,pid,tid,cpu,cgroup_id,event,common_type,common_pid,"
			 "filename,field_pid\r\n"
			 "0,h1,1000000001000,2026-01-01T00:00:00.000001000Z,100,100,1,10,"
			 "sched:sched_process_exec,311,100,"
			 "\"" "/bin/a,\"\"b\"\"\n\xff" "\",100\r\n"
			 "0,h1,1000000004000,2026-01-01T00:00:00.000004000Z,200,200,1,0,"
			 "sched:sched_process_exec,311,200,"
			 "\"" "/bin/a,\"\"b\"\"\n\xff" "\",200\r\n");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv --event test:kinds %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session,host,time_ns,wall_time,pid,tid,cpu,cgroup_id,event,common_type,"
			 "comm,vals,mac,s,big,neg,bad\r", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "0,h1,1000000003000,2026-01-01T00:00:00.000003000Z,100,101,0,10,"
			 "test:kinds,400,\"wor\"\"ker\","
			 "\"[-5,7,2147483647]\",\"[170,1]\",-2,18446744073709551615,-9223372036854775808,"
			 "\"{\"\"error\"\":\"\"out of range\"\"}\"\r");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv --records sample %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session,host,time_ns,wall_time,pid,tid,cpu,cgroup_id,event,fields\r");
	cr_assert_str_eq(rt_line(out, 2), "0,h1,1000000003000,2026-01-01T00:00:00.000003000Z,100,101,0,10,"
			 "test:kinds,\"{\"\"common_type\"\":400,"
			 "\"\"comm\"\":\"\"wor\\\"\"ker\"\",\"\"vals\"\":[-5,7,2147483647],\"\"mac\"\":[170,1],"
			 "\"\"s\"\":-2,\"\"big\"\":18446744073709551615,\"\"neg\"\":-9223372036854775808,"
			 "\"\"bad\"\":{\"\"error\"\":\"\"out of range\"\"}}\"\r", "got\n%s", out);
	free(out);
}

Test(report_samples, convert_refuses_event_with_another_type)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv --records task --event x:y %s 2>&1", rt_convert(), path), 2);
	cr_assert_str_eq(rt_line(out, 0), "sct-convert: --event selects samples: it needs --records sample, not 'task'");
	free(out);
}

Test(report_samples, report_by_event_counts_samples)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --by event %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "   samples      %  event", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "         2  66.66  sched:sched_process_exec");
	cr_assert_str_eq(rt_line(out, 2), "         1  33.33  test:kinds");
	cr_assert_str_eq(rt_line(out, 3), "         3 100.00  total of 2 groups");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by event,comm,cgroup %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "   samples      %  event                     comm    cgroup", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 1), "         1  33.33  sched:sched_process_exec  ?       cgroup:0");
	cr_assert_str_eq(rt_line(out, 2), "         1  33.33  sched:sched_process_exec  worker  /svc/a");
	cr_assert_str_eq(rt_line(out, 3), "         1  33.33  test:kinds                worker  /svc/a");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by event --pid 200 %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "         1 100.00  sched:sched_process_exec", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         1 100.00  total of 1 group");
	free(out);
}

Test(report_samples, report_by_event_refuses_syscall_options)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --by event,syscall %s 2>&1", rt_report(), path), 2);
	cr_assert_str_eq(rt_line(out, 0), "sct-report: --by event counts samples: it does not combine with syscall");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by event --failed %s 2>&1", rt_report(), path), 2);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by event --hist %s 2>&1", rt_report(), path), 2);
	free(out);
}

Test(report_samples, timeline_interleaves_samples)
{
	const char *path = sample_trace("kernel");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --timeline %s", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "+0.000001 00:00:00.000001 sched:sched_process_exec(worker 100/100) "
			 "cpu 1 filename=\"/bin/a,\"b\"\\x0a\\xff\" pid=100 cg=/svc/a", "got\n%s", out);
	cr_assert_str_eq(rt_line(out, 2), "+0.000002 00:00:00.000002 write(worker 100/100) = 1 <0.000000> cg=/svc/a");
	cr_assert_str_eq(rt_line(out, 3), "+0.000003 00:00:00.000003 test:kinds(worker 100/101) cpu 0 comm=\"wor\"ker\" "
			 "vals=[-5,7,2147483647] mac=[170,1] s=-2 big=18446744073709551615 "
			 "neg=-9223372036854775808 bad=<out of range> cg=/svc/a");
	cr_assert_str_eq(rt_line(out, 4), "+0.000004 00:00:00.000004 sched:sched_process_exec(? 200/200) "
			 "cpu 1 filename=\"/bin/a,\"b\"\\x0a\\xff\" pid=200");
	free(out);
	/* a syscall-only filter leaves samples out, as it does lifecycle records */
	cr_assert_eq(rt_run(&out, "%s --timeline --syscall write %s", rt_report(), path), 0);
	cr_assert_eq(strncmp(rt_line(out, 0), "+0.000002 00:00:00.000002 write(", 32), 0, "got\n%s", out);
	cr_assert_eq(strncmp(rt_line(out, 1), "-- session 0", 12), 0);
	free(out);
}

Test(report_samples, footer_says_where_sample_cgroups_come_from)
{
	const char *path = sample_trace("recorder");
	char *out;

	cr_assert_eq(rt_run(&out, "%s --by event %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "-- read 1 file, 6 records (syscall 1, task 1, fork 0, exec 0, exit 0, "
				  "cgroup 1, lost 0, warning 0, sample 3)\n"
				  "-- samples of session 0: backend perf; samples carry no kernel cgroup id: "
				  "filled by the recorder from the task's cgroup as it knew it when it read "
				  "the sample\n"), "got\n%s", out);
	free(out);
	path = sample_trace("kernel");
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "-- samples of session 0: backend perf, cgroup ids from the kernel\n"),
			   "got\n%s", out);
	free(out);
}

/* A trace without samples prints the footer it always did. */
Test(report_samples, footer_without_samples_is_unchanged)
{
	const char *path = rt_path("plain.sct");
	struct sct_writer *w = rt_open(path, "h1", 0);
	char *out;

	rt_sc(w, 0, 10, 1, 1, 0, RT_NR_READ, 0);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s %s", rt_report(), path), 0);
	cr_assert_not_null(strstr(out, "(syscall 1, task 0, fork 0, exec 0, exit 0, cgroup 0, lost 0, warning 0)\n"
				  "-- lost events"), "got\n%s", out);
	free(out);
}
