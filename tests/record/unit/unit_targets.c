// SPDX-License-Identifier: BSD-2-Clause
/*
 * The targets table from /proc (record/host/targets.c), without root or BPF: with no map
 * (map_fd -1, as the perf backend runs it), each tid the /proc passes find is handed to the
 * insert hook once. A -p target's threads and its descendants are the targets; the recorder
 * is never one of them.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

struct seen {
	uint32_t tids[64];
	size_t n;
};

static int seen_add(void *ctx, uint32_t tid)
{
	struct seen *s = ctx;

	cr_assert_lt(s->n, 64);
	s->tids[s->n++] = tid;
	return 0;
}

static bool seen_has(const struct seen *s, uint32_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->tids[i] == tid)
			return true;
	return false;
}

static int hold_fd = -1;
static int tid_fd = -1;

/* Says its tid on tid_fd (the thread's only), then waits until the test closes the pipe. */
static void *task_hold(void *arg)
{
	uint32_t tid = (uint32_t)gettid();
	char c;

	if (arg && write(tid_fd, &tid, sizeof(tid)) != sizeof(tid))
		_exit(1);
	while (read(hold_fd, &c, 1) > 0)
		;
	return NULL;
}

/*
 * A process with a second thread and a child, all held on a pipe; their tids come back on
 * another: the process's, its thread's, its child's.
 */
static pid_t family_start(uint32_t tids[3], int *release)
{
	int hold[2], report[2], thread[2];
	pid_t pid;

	cr_assert_eq(pipe(hold), 0);
	cr_assert_eq(pipe(report), 0);
	cr_assert_eq(pipe(thread), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		uint32_t t[3] = { (uint32_t)getpid(), 0, 0 };
		pthread_t th;
		pid_t child;

		close(hold[1]);
		close(report[0]);
		hold_fd = hold[0];
		tid_fd = thread[1];
		child = fork();
		if (!child) {
			task_hold(NULL);
			_exit(0);
		}
		t[2] = (uint32_t)child;
		if (pthread_create(&th, NULL, task_hold, (void *)1) ||
		    read(thread[0], &t[1], sizeof(t[1])) != sizeof(t[1]) ||
		    write(report[1], t, sizeof(t)) != sizeof(t))
			_exit(1);
		pthread_join(th, NULL);
		waitpid(child, NULL, 0);
		_exit(0);
	}
	close(hold[0]);
	close(report[1]);
	close(thread[0]);
	close(thread[1]);
	cr_assert_eq(read(report[0], tids, 3 * sizeof(uint32_t)), (ssize_t)(3 * sizeof(uint32_t)));
	close(report[0]);
	*release = hold[1];
	return pid;
}

Test(unit_targets, pid_threads_and_children)
{
	uint32_t tids[3], pids[1];
	struct seen seen = { .n = 0 };
	struct env env;
	struct recorder r;
	int release;
	pid_t pid;

	pid = family_start(tids, &release);
	env_init(&env);
	pids[0] = (uint32_t)pid;
	env.pids = pids;
	env.npids = 1;
	memset(&r, 0, sizeof(r));
	r.env = &env;
	r.mode = SCT_MODE_TARGETS;
	r.targets.map_fd = -1;
	r.targets.insert = seen_add;
	r.targets.insert_ctx = &seen;

	cr_assert_eq(targets_fill(&r), 0);
	/* a second pass hands nothing over again */
	cr_assert_eq(targets_fill(&r), 0);
	cr_assert_eq(seen.n, 3);
	for (int i = 0; i < 3; i++)
		cr_assert(seen_has(&seen, tids[i]), "tid %u is a target", tids[i]);
	cr_assert_not(seen_has(&seen, (uint32_t)getpid()));

	targets_free(&r.targets);
	close(release);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
}

Test(unit_targets, tid_target_alone)
{
	uint32_t tids[3], want[1];
	struct seen seen = { .n = 0 };
	struct env env;
	struct recorder r;
	int release;
	pid_t pid;

	pid = family_start(tids, &release);
	env_init(&env);
	want[0] = tids[1];
	env.tids = want;
	env.ntids = 1;
	memset(&r, 0, sizeof(r));
	r.env = &env;
	r.mode = SCT_MODE_TARGETS;
	r.targets.map_fd = -1;
	r.targets.insert = seen_add;
	r.targets.insert_ctx = &seen;

	cr_assert_eq(targets_fill(&r), 0);
	cr_assert_eq(seen.n, 1);
	cr_assert_eq(seen.tids[0], tids[1]);

	targets_free(&r.targets);
	close(release);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
}

Test(unit_targets, proc_facts)
{
	uint32_t tgid = 0;
	char buf[512];

	cr_assert_eq(proc_tgid((uint32_t)gettid(), &tgid), 0);
	cr_assert_eq(tgid, (uint32_t)getpid());
	cr_assert_not(proc_task_gone((uint32_t)getpid()));
	cr_assert_not_null(proc_stat_fields((uint32_t)getpid(), buf, sizeof(buf)));
	/* past pid_max (at most 2^22): never a task */
	cr_assert(proc_task_gone(1u << 23));
	cr_assert_eq(proc_tgid(1u << 23, &tgid), -ESRCH);
	cr_assert_null(proc_stat_fields(1u << 23, buf, sizeof(buf)));
}

Test(unit_targets, missing_pid_said, .init = cr_redirect_stderr)
{
	uint32_t pids[1] = { 1u << 23 };
	struct env env;
	char line[256] = "";

	env_init(&env);
	env.pids = pids;
	env.npids = 1;
	cr_assert_eq(targets_check_report(&env), -ESRCH);
	fflush(stderr);
	cr_assert_not_null(fgets(line, sizeof(line), cr_get_redirected_stderr()));
	cr_assert_str_eq(line, "sct-record: cannot trace pid 8388608: no such process\n");
}
