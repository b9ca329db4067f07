// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct_tasks (spec/FORMAT.md 9.2): records attributed by (session, tid, time) against task
 * incarnations, whatever the order lifecycle records are fed in; and sct_reader_set_skip(),
 * which makes the first pass over a file's lifecycle records cheap.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "format_helpers.h"
#include "sct.h"

#define BYTES(s) ((struct sct_bytes){ (const uint8_t *)(s), sizeof(s) - 1 })

static struct sct_record task_rec(uint64_t t, uint32_t pid, uint32_t tid, uint32_t ppid, uint64_t start,
				  const char *comm)
{
	return (struct sct_record){ .type = SCT_REC_TASK, .task = { .time_ns = t, .pid = pid, .tid = tid,
		.ppid = ppid, .start_ns = start, .cgroup_id = 7,
		.comm = { (const uint8_t *)comm, (uint32_t)strlen(comm) } } };
}

static struct sct_record fork_rec(uint64_t t, uint32_t ppid, uint32_t ptid, uint32_t pid, uint32_t tid, bool thread)
{
	return (struct sct_record){ .type = SCT_REC_FORK, .fork = { .time_ns = t, .child_start_ns = t,
		.parent_pid = ppid, .parent_tid = ptid, .child_pid = pid, .child_tid = tid, .is_thread = thread } };
}

static struct sct_record exec_rec(uint64_t t, uint32_t pid, uint32_t old_tid, const char *comm)
{
	return (struct sct_record){ .type = SCT_REC_EXEC, .exec = { .time_ns = t, .pid = pid, .tid = pid,
		.old_tid = old_tid, .filename = BYTES("/bin/x"),
		.comm = { (const uint8_t *)comm, (uint32_t)strlen(comm) } } };
}

static struct sct_record exit_rec(uint64_t t, uint32_t pid, uint32_t tid, uint64_t start, bool group_dead)
{
	return (struct sct_record){ .type = SCT_REC_EXIT, .exit = { .time_ns = t, .pid = pid, .tid = tid,
		.start_ns = start, .group_dead = group_dead } };
}

static struct sct_tasks *feed(const struct sct_record *recs, size_t n, bool reverse)
{
	int err = 0;
	struct sct_tasks *ts = sct_tasks_new(&err);

	cr_assert_not_null(ts);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(sct_tasks_add(ts, 0, &recs[reverse ? n - 1 - i : i]), 0);
	return ts;
}

static void assert_comm(struct sct_tasks *ts, uint32_t tid, uint64_t t, const char *want)
{
	uint32_t id = sct_tasks_find(ts, 0, tid, t);
	struct sct_bytes b = sct_tasks_comm(ts, id, t);

	cr_assert_eq(b.len, strlen(want), "tid %u at %llu: %.*s, want %s", tid, (unsigned long long)t, (int)b.len,
		     (const char *)b.ptr, want);
	cr_assert(!memcmp(b.ptr, want, b.len), "tid %u at %llu: %.*s, want %s", tid, (unsigned long long)t,
		  (int)b.len, (const char *)b.ptr, want);
}

/* A shell that runs two commands, one after the other on one reused tid. */
static void loop_recs(struct sct_record *r)
{
	r[0] = task_rec(50, 100, 100, 1, 10, "sh");
	r[1] = fork_rec(100, 100, 100, 101, 101, false);
	r[2] = exec_rec(200, 101, 101, "true");
	r[3] = exit_rec(300, 101, 101, 100, true);
	r[4] = fork_rec(400, 100, 100, 101, 101, false);
	r[5] = exec_rec(500, 101, 101, "echo");
	r[6] = exit_rec(600, 101, 101, 400, true);
}

Test(attribution, a_reused_tid_is_two_tasks_in_any_feed_order)
{
	struct sct_record r[7];

	loop_recs(r);
	for (int reverse = 0; reverse < 2; reverse++) {
		struct sct_tasks *ts = feed(r, 7, reverse);
		struct sct_task_info a, b;
		uint32_t first = sct_tasks_find(ts, 0, 101, 150), second = sct_tasks_find(ts, 0, 101, 450);

		cr_assert_eq(sct_tasks_count(ts), 3);
		cr_assert_neq(first, second);
		cr_assert_eq(sct_tasks_find(ts, 0, 101, 299), first, "a call before the first exit");
		cr_assert_eq(sct_tasks_find(ts, 0, 101, 700), SCT_TASK_NONE, "after the last exit: not described");
		assert_comm(ts, 101, 150, "sh");
		assert_comm(ts, 101, 250, "true");
		assert_comm(ts, 101, 450, "sh");
		assert_comm(ts, 101, 550, "echo");
		assert_comm(ts, 100, 20, "sh");
		cr_assert_eq(sct_tasks_get(ts, first, &a), 0);
		cr_assert_eq(sct_tasks_get(ts, second, &b), 0);
		cr_assert_eq(a.start_ns, 100);
		cr_assert_eq(a.end_ns, 300);
		cr_assert_eq(b.end_ns, 600);
		cr_assert(a.exited && b.exited && a.nexec == 1);
		cr_assert_eq(a.parent, sct_tasks_find(ts, 0, 100, 100));
		cr_assert_eq(a.ppid, 100);
		cr_assert_eq(a.cgroup_id, 7, "the parent's cgroup at the fork");
		cr_assert_eq(a.comm.len, 4);
		cr_assert(!memcmp(a.comm.ptr, "true", 4));
		cr_assert_eq(sct_tasks_get(ts, 3, &a), -ERANGE);
		sct_tasks_free(ts);
	}
}

Test(attribution, feeding_twice_changes_nothing)
{
	struct sct_record r[7];
	struct sct_tasks *ts;
	struct sct_task_info a;

	loop_recs(r);
	ts = feed(r, 7, false);
	for (size_t i = 0; i < 7; i++)
		cr_assert_eq(sct_tasks_add(ts, 0, &r[i]), 0);
	cr_assert_eq(sct_tasks_count(ts), 3);
	cr_assert_eq(sct_tasks_get(ts, sct_tasks_find(ts, 0, 101, 150), &a), 0);
	cr_assert_eq(a.nexec, 1);
	sct_tasks_free(ts);
}

Test(attribution, a_non_leader_exec_moves_the_thread_to_the_pid)
{
	const struct sct_record r[] = {
		task_rec(10, 200, 200, 1, 5, "app"),
		fork_rec(100, 200, 200, 200, 202, true),
		exit_rec(290, 200, 200, 5, false),
		exec_rec(300, 200, 202, "run"),
		exit_rec(400, 200, 200, 5, true),
	};

	for (int reverse = 0; reverse < 2; reverse++) {
		struct sct_tasks *ts = feed(r, 5, reverse);
		uint32_t leader = sct_tasks_find(ts, 0, 200, 50), thread = sct_tasks_find(ts, 0, 202, 150);
		struct sct_task_info li, ti;

		cr_assert_neq(leader, thread);
		cr_assert_eq(sct_tasks_find(ts, 0, 200, 350), thread, "after the exec the pid is the thread's");
		cr_assert_eq(sct_tasks_find(ts, 0, 202, 350), SCT_TASK_NONE, "its old tid ended at the exec");
		assert_comm(ts, 202, 150, "app");
		assert_comm(ts, 200, 350, "run");
		assert_comm(ts, 200, 250, "app");
		cr_assert_eq(sct_tasks_get(ts, leader, &li), 0);
		cr_assert_eq(sct_tasks_get(ts, thread, &ti), 0);
		cr_assert_eq(ti.process, leader);
		cr_assert(ti.is_thread && !li.is_thread);
		if (!reverse) {
			/* its exit, and the process's end with it, take the file order to place */
			cr_assert_eq(ti.end_ns, 400);
			cr_assert(li.exited);
			cr_assert_eq(li.end_ns, 400);
		}
		cr_assert_eq(li.comm.len, 3, "the process is named by the exec");
		sct_tasks_free(ts);
	}
}

/* The name of a call: its task at its entry, named at its return. */
static void assert_call_comm(struct sct_tasks *ts, const struct sct_syscall *sc, const char *want)
{
	uint32_t id = sct_tasks_find(ts, 0, sc->tid, sc->time_ns);
	struct sct_bytes b = sct_tasks_comm(ts, id, sct_syscall_name_ns(sc));

	cr_assert(b.len == strlen(want) && !memcmp(b.ptr, want, b.len), "call of tid %u at %llu: %.*s, want %s",
		  sc->tid, (unsigned long long)sc->time_ns, (int)b.len, (const char *)b.ptr, want);
}

Test(attribution, a_call_is_named_at_its_return)
{
	struct sct_record r[7];
	struct sct_tasks *ts;
	const struct sct_syscall execve = { .time_ns = 150, .duration_ns = 60, .pid = 101, .tid = 101, .nr = 59 },
				 failed = { .time_ns = 150, .duration_ns = 10, .pid = 101, .tid = 101, .nr = 59 },
				 unfinished = { .time_ns = 150, .duration_ns = 1000, .pid = 101, .tid = 101, .unfinished = 1 },
				 huge = { .time_ns = 250, .duration_ns = UINT64_MAX, .pid = 101, .tid = 101 };

	cr_assert_eq(sct_syscall_name_ns(&execve), 210);
	cr_assert_eq(sct_syscall_name_ns(&unfinished), 150, "an unfinished call did not return: its entry");
	cr_assert_eq(sct_syscall_name_ns(&huge), UINT64_MAX, "a return past the clock's end saturates");
	loop_recs(r);
	ts = feed(r, 7, false);
	assert_call_comm(ts, &execve, "true");
	assert_call_comm(ts, &failed, "sh");
	assert_call_comm(ts, &unfinished, "sh");
	cr_assert_eq(sct_tasks_find(ts, 0, 101, 250), sct_tasks_find(ts, 0, 101, 150), "one task before and after");
	sct_tasks_free(ts);
}

/*
 * A non-leader thread's execve returns with the leader's tid, so it is written under the pid:
 * the old leader's task at its entry, which the exec names too.
 */
Test(attribution, a_non_leader_execve_is_named_by_the_new_program)
{
	const struct sct_record r[] = {
		task_rec(10, 200, 200, 1, 5, "app"),
		fork_rec(100, 200, 200, 200, 202, true),
		exit_rec(290, 200, 200, 5, false),
		exec_rec(300, 200, 202, "run"),
	};
	const struct sct_syscall execve = { .time_ns = 250, .duration_ns = 100, .pid = 200, .tid = 200, .nr = 59 };
	struct sct_tasks *ts = feed(r, 4, false);

	cr_assert_eq(sct_tasks_find(ts, 0, 200, 250), sct_tasks_find(ts, 0, 200, 50), "the old leader's task");
	assert_call_comm(ts, &execve, "run");
	sct_tasks_free(ts);
}

Test(attribution, a_task_described_after_its_calls_and_sessions_apart)
{
	int err = 0;
	struct sct_tasks *ts = sct_tasks_new(&err);
	struct sct_record t = task_rec(1000, 300, 300, 1, 990, "late");

	cr_assert_eq(sct_tasks_add(ts, 1, &t), 0);
	/* a start from /proc rounded up past the first call: still that task */
	assert_comm(ts, 300, 1000, "");
	cr_assert_eq(sct_tasks_find(ts, 1, 300, 900), 0);
	cr_assert_eq(sct_tasks_find(ts, 0, 300, 1000), SCT_TASK_NONE, "another session");
	cr_assert_eq(sct_tasks_comm(ts, 0, 900).len, 4);
	cr_assert_eq(sct_tasks_comm(ts, SCT_TASK_NONE, 900).len, 0);
	sct_tasks_free(ts);
}

/* The first pass of a two-pass reader: only lifecycle records come, not counted SYSCALLs. */
Test(attribution, the_reader_skips_types_it_is_told_to)
{
	struct sct_writer *w;
	struct fh_trace tr = { 0 };
	struct sct_record rec, tk = task_rec(1, 10, 10, 1, 1, "a");
	struct sct_reader *r;
	uint64_t n = 0;
	int fd, err = 0;

	w = fh_writer(NULL, &fd);
	cr_assert_eq(sct_writer_append(w, &tk), 0);
	for (uint64_t i = 0; i < 1000; i++) {
		rec = fh_syscall(i);
		cr_assert_eq(sct_writer_append(w, &rec), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &tr);
	r = sct_reader_open_mem(tr.p, tr.len, &err);
	cr_assert_not_null(r);
	sct_reader_set_skip(r, 1u << SCT_REC_SYSCALL);
	while (sct_reader_next(r, &rec) > 0) {
		cr_assert_neq(rec.type, SCT_REC_SYSCALL);
		n += rec.type == SCT_REC_TASK;
	}
	cr_assert_eq(n, 1);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_SYSCALL], 0);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_TASK], 1);
	sct_reader_close(r);
	fh_trace_free(&tr);
}
