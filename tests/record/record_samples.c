/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-record -e: tracepoint samples as SAMPLE records, decoded by the HEADER's event table
 * alone, checked against what the workload did. Needs root (see rh_require_root).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_helpers.h"

TestSuite(record_samples, .init = rh_setup, .fini = rh_teardown, .timeout = 120);

#define THREADS 64

/* The cgroup v2 id of this process (its children's too): its directory's inode number. */
static uint64_t self_cgroup_id(const char *mount)
{
	char line[4096], path[8192];
	struct stat st;
	FILE *f = fopen("/proc/self/cgroup", "re");
	uint64_t id = 0;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s%s", mount, line + 3);
			cr_assert_eq(stat(path, &st), 0, "%s", path);
			id = st.st_ino;
		}
	fclose(f);
	return id;
}

/* Field name of ev decoded from payload as an integer. */
static uint64_t sample_int(const struct sct_event_desc *ev, struct sct_bytes payload, const char *name)
{
	struct sct_sample_value v;

	for (uint32_t i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, name)) {
			cr_assert_eq(sct_sample_field(&ev->fields[i], payload, &v), SCT_SAMPLE_INT, "%s", name);
			return v.u;
		}
	cr_assert_fail("no field %s in %s", name, ev->name);
	return 0;
}

struct writes {
	uint32_t tid;
	uint64_t count, fd;
	size_t samples;
};

/*
 * With either backend, 64 threads each write 100+i bytes once; the main thread writes its 65 lines to stdout:
 * exactly those syscalls:sys_enter_write samples, per thread, with their fields and the
 * workload's cgroup id.
 */
/* A parameter: Criterion runs each in a process of its own, so a copy, not a pointer. */
struct backend {
	char name[8];
};

ParameterizedTestParameters(record_samples, known_writes_give_exact_samples_per_thread)
{
	static struct backend backends[] = {{"perf"}, {"bpf"}};

	return cr_make_param_array(struct backend, backends, sizeof(backends) / sizeof(backends[0]));
}

ParameterizedTest(struct backend *backend, record_samples, known_writes_give_exact_samples_per_thread)
{
	const char *wl[] = {rh_workload("threads"), "64", "life", NULL};
	const char *extra[] = {"--backend", backend->name, "-e", "syscalls:sys_enter_write", NULL};
	static char lines[THREADS][256];
	struct writes w[THREADS] = {{0}};
	struct sct_reader *r;
	struct sct_record rec;
	const struct sct_session *s = NULL;
	struct rh_run run;
	size_t n = 0;
	uint64_t cgroup = 0, main_writes = 0, dev_fd = 0;
	uint32_t pid;
	int err = 0, ret;

	cr_assert_eq(rh_run_traced(&run, wl, rh_trace_path, extra), 0, "run failed (see stderr)");
	pid = (uint32_t)run.wl_pid;
	cr_assert(WIFEXITED(run.wl_status) && WEXITSTATUS(run.wl_status) == 7);
	cr_assert(WIFEXITED(run.rec.status) && WEXITSTATUS(run.rec.status) == 0, "%s",
		  run.rec.err);
	for (const char *p = run.out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "thread ", 7))
			continue;
		cr_assert_lt(n, THREADS, "output: %s", run.out);
		snprintf(lines[n], sizeof(lines[n]), "%.*s", (int)strcspn(p, "\n"), p);
		cr_assert_eq(rh_field(lines[n], "thread"), (long)n);
		w[n].tid = (uint32_t)rh_field(lines[n], "tid");
		n++;
	}
	cr_assert_eq(n, THREADS, "output: %s", run.out);
	r = sct_reader_open(rh_trace_path, &err);
	cr_assert_not_null(r, "%s", sct_strerror(err));
	while ((ret = sct_reader_next(r, &rec)) > 0) {
		const struct sct_event_desc *ev;
		uint64_t fd, count;

		if (rec.type == SCT_REC_SESSION) {
			s = sct_reader_session(r);
			cr_assert_str_eq(sct_session_get(s, SCT_SESSION_BACKEND), backend->name);
			cr_assert_eq(sct_session_nevents(s), 1);
			cgroup = self_cgroup_id(sct_session_get(s, SCT_SESSION_CGROUP_MOUNT));
			continue;
		}
		if (rec.type != SCT_REC_SAMPLE)
			continue;
		cr_assert_not_null(s);
		ev = sct_session_event(s, rec.sample.event);
		cr_assert_not_null(ev);
		cr_assert_str_eq(ev->name, "syscalls:sys_enter_write");
		cr_assert_eq(rec.sample.pid, pid);
		cr_assert_eq(rec.sample.cgroup_id, cgroup);
		cr_assert_eq(sample_int(ev, rec.sample.payload, "common_pid"), rec.sample.tid);
		fd = sample_int(ev, rec.sample.payload, "fd");
		count = sample_int(ev, rec.sample.payload, "count");
		if (rec.sample.tid == pid) {
			cr_assert_eq(fd, 1);
			main_writes++;
			continue;
		}
		for (size_t i = 0; i < THREADS; i++)
			if (w[i].tid == rec.sample.tid) {
				w[i].samples++;
				w[i].count = count;
				w[i].fd = fd;
			}
	}
	cr_assert_eq(ret, 0, "reader: %s", sct_strerror(ret));
	sct_reader_close(r);
	/* 64 "thread I tid T" lines and the last one */
	cr_assert_eq(main_writes, THREADS + 1);
	dev_fd = w[0].fd;
	cr_assert_gt(dev_fd, 2);
	for (size_t i = 0; i < THREADS; i++) {
		cr_assert_eq(w[i].samples, 1, "%s: %zu samples", lines[i], w[i].samples);
		cr_assert_eq(w[i].count, 100 + i, "%s", lines[i]);
		cr_assert_eq(w[i].fd, dev_fd, "%s", lines[i]);
	}
	rh_run_release(&run);
}
