/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which task made each call of a real recording (spec/FORMAT.md 9.2), as libsct's sct_tasks
 * answers after a first pass over the lifecycle records: the recorder stages calls per CPU,
 * so calls land in the file after their task's EXEC and EXIT. Needs root (rh_setup).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "record_helpers.h"

TestSuite(record_attribution, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

#define LOOPS 100

static struct sct_tasks *tasks_load(const char *path)
{
	struct sct_record rec;
	struct sct_reader *r;
	struct sct_tasks *ts;
	int err = 0, n;

	ts = sct_tasks_new(&err);
	cr_assert_not_null(ts);
	r = sct_reader_open(path, &err);
	cr_assert_not_null(r, "%s: %s", path, sct_strerror(err));
	sct_reader_set_skip(r, 1u << SCT_REC_SYSCALL | 1u << SCT_REC_SAMPLE);
	while ((n = sct_reader_next(r, &rec)) > 0)
		cr_assert_eq(sct_tasks_add(ts, 0, &rec), 0);
	cr_assert_eq(n, 0, "%s", sct_reader_error(r));
	sct_reader_close(r);
	return ts;
}

static bool is_name(struct sct_bytes b, const char *name)
{
	return b.len == strlen(name) && !memcmp(b.ptr, name, b.len);
}

Test(record_attribution, an_exec_heavy_loop_names_every_call)
{
	const char *args[] = {"-o", rh_trace_path, "--", "sh", "-c",
			      "for i in $(seq 100); do /bin/true; done", NULL};
	uint64_t *calls, nsc = 0, ntrue_calls = 0;
	uint32_t ntasks, ntrue = 0, nsh = 0;
	struct rh_recorder rec;
	struct sct_tasks *ts;
	struct sct_record r;
	struct sct_reader *rd;
	int err = 0;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	ts = tasks_load(rh_trace_path);
	ntasks = sct_tasks_count(ts);
	calls = calloc(ntasks + 1, sizeof(*calls));
	cr_assert_not_null(calls);
	rd = sct_reader_open(rh_trace_path, &err);
	cr_assert_not_null(rd);
	while (sct_reader_next(rd, &r) > 0) {
		const struct sct_syscall *sc = &r.syscall;
		struct sct_task_info ti;
		uint32_t id;

		if (r.type != SCT_REC_SYSCALL)
			continue;
		nsc++;
		id = sct_tasks_find(ts, 0, sc->tid, sc->time_ns);
		cr_assert_neq(id, SCT_TASK_NONE, "call %llu of tid %u at %llu: no task", (unsigned long long)nsc, sc->tid,
			      (unsigned long long)sc->time_ns);
		cr_assert_eq(sct_tasks_get(ts, id, &ti), 0);
		cr_assert_eq(ti.pid, sc->pid, "tid %u: task of pid %u, call of pid %u", sc->tid, ti.pid, sc->pid);
		cr_assert_gt(sct_tasks_comm(ts, id, sct_syscall_name_ns(sc)).len, 0, "tid %u at %llu: no name", sc->tid,
			     (unsigned long long)sc->time_ns);
		if (is_name(sct_tasks_comm(ts, id, sct_syscall_name_ns(sc)), "true")) {
			calls[id]++;
			ntrue_calls++;
		}
	}
	sct_reader_close(rd);
	for (uint32_t id = 0; id < ntasks; id++) {
		struct sct_task_info ti;

		cr_assert_eq(sct_tasks_get(ts, id, &ti), 0);
		if (is_name(ti.comm, "sh"))
			nsh++;
		if (!is_name(ti.comm, "true"))
			continue;
		ntrue++;
		cr_assert(ti.exited && ti.nexec == 1, "a true that did not exec once and exit");
		/* after its exec, every true makes calls of its own, exit_group at least */
		cr_assert_geq(calls[id], 1, "true %u (task %u): no call under its name", ti.pid, id);
	}
	cr_assert_eq(ntrue, LOOPS, "%u processes named true, %u tasks in all", ntrue, ntasks);
	cr_assert_geq(nsh, 1, "the shell");
	cr_assert_geq(ntrue_calls, (uint64_t)LOOPS * 5, "%llu calls named true", (unsigned long long)ntrue_calls);
	free(calls);
	sct_tasks_free(ts);
}

/*
 * The README's quick start: one task, named by its exec, with every call of the trace, all
 * named ls (its execve too: named at its return).
 */
Test(record_attribution, the_quick_start_command_is_one_task_with_its_calls)
{
	const char *args[] = {"-o", rh_trace_path, "--", "ls", "-l", "/", NULL};
	struct rh_recorder rec;
	struct sct_task_info ti;
	struct sct_tasks *ts;
	struct sct_record r;
	struct sct_reader *rd;
	uint64_t nsc = 0;
	int err = 0;

	cr_assert_eq(rh_recorder_start(&rec, args), 0, "recorder: %s", rec.err);
	cr_assert_eq(rh_recorder_finish(&rec, 0, RH_TIMEOUT_MS), 0);
	cr_assert(WIFEXITED(rec.status) && WEXITSTATUS(rec.status) == 0, "status %#x:\n%s", rec.status, rec.err);
	ts = tasks_load(rh_trace_path);
	cr_assert_eq(sct_tasks_count(ts), 1, "%u tasks", sct_tasks_count(ts));
	cr_assert_eq(sct_tasks_get(ts, 0, &ti), 0);
	cr_assert(is_name(ti.comm, "ls") && ti.exited && ti.described, "comm %.*s", (int)ti.comm.len, ti.comm.ptr);
	rd = sct_reader_open(rh_trace_path, &err);
	cr_assert_not_null(rd);
	while (sct_reader_next(rd, &r) > 0)
		if (r.type == SCT_REC_SYSCALL) {
			cr_assert_eq(sct_tasks_find(ts, 0, r.syscall.tid, r.syscall.time_ns), 0);
			cr_assert(is_name(sct_tasks_comm(ts, 0, sct_syscall_name_ns(&r.syscall)), "ls"),
				  "call %llu (nr %u) named %.*s", (unsigned long long)nsc, r.syscall.nr,
				  (int)sct_tasks_comm(ts, 0, sct_syscall_name_ns(&r.syscall)).len,
				  sct_tasks_comm(ts, 0, sct_syscall_name_ns(&r.syscall)).ptr);
			nsc++;
		}
	cr_assert_gt(nsc, 50, "%llu calls", (unsigned long long)nsc);
	sct_reader_close(rd);
	sct_tasks_free(ts);
}
