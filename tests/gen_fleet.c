// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trace generator of the fleet tests and benchmark: the files of three hosts, written with
 * libsct's writer.
 *   gen_fleet fleet DIR N   DIR/web1-1.sct, DIR/web1-2.sct (one recording, sequences 1 and 2),
 *                           DIR/web2-1.sct (with LOST and WARNING records) and DIR/db2.sct
 *                           (no recording id, as files before format 1.2): N syscalls per
 *                           file over four cgroups (two of them on both web hosts, with
 *                           other ids), ~3% failed, ~1% unfinished, TASK/CGROUP/FORK/EXEC/EXIT
 *   gen_fleet big OUT N HOST   one file of host HOST with N syscalls of that mix, no
 *                           recording id (its identity is derived from the HEADER)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"

static const struct sct_syscall_name names[] = {
	{ 0, "read" }, { 1, "write" }, { 3, "close" }, { 257, "openat" }, { 232, "epoll_wait" },
};

struct host {
	const char *file, *name, *boot_id, *recording;
	uint64_t sequence, cgroup_base;
	const char *cgroups[4];
	bool losses;
};

static const struct host hosts[] = {
	{ "web1-1.sct", "web1", "11111111-aaaa-4bbb-8ccc-000000000001", "0123456789abcdef0123456789abcdef", 1, 100,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/user.slice/user-1000.slice", "/" }, false },
	{ "web1-2.sct", "web1", "11111111-aaaa-4bbb-8ccc-000000000001", "0123456789abcdef0123456789abcdef", 2, 100,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/user.slice/user-1000.slice", "/" }, false },
	{ "web2-1.sct", "web2", "22222222-aaaa-4bbb-8ccc-000000000002", "fedcba9876543210fedcba9876543210", 1, 200,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/system.slice/cron.service", "/" }, true },
	{ "db2.sct", "db2", "33333333-aaaa-4bbb-8ccc-000000000003", NULL, 0, 300,
	  { "/system.slice/postgresql.service", "/system.slice/sshd.service", "/system.slice/backup.service", "/" },
	  false },
};

static struct sct_bytes B(const char *s)
{
	return (struct sct_bytes){ .ptr = (const uint8_t *)s, .len = (uint32_t)strlen(s) };
}

static int gen_append(struct sct_writer *w, struct sct_record *r, int err)
{
	return err ? err : sct_writer_append(w, r);
}

/* Lifecycle records and the CGROUP records the syscalls refer to. */
static int gen_tasks(struct sct_writer *w, const struct host *h, uint64_t t)
{
	struct sct_record r;
	int err = 0;

	for (uint32_t i = 0; i < 4; i++) {
		r = (struct sct_record){ .type = SCT_REC_CGROUP };
		r.cgroup = (struct sct_cgroup){ .time_ns = t, .cgroup_id = h->cgroup_base + i, .path = B(h->cgroups[i]) };
		err = gen_append(w, &r, err);
		r = (struct sct_record){ .type = SCT_REC_TASK };
		r.task = (struct sct_task){ .time_ns = t, .cgroup_id = h->cgroup_base + i, .start_ns = 10 + i,
					    .pid = 1000 + i, .tid = 1000 + i, .ppid = 1, .comm = B(h->name) };
		err = gen_append(w, &r, err);
	}
	r = (struct sct_record){ .type = SCT_REC_FORK };
	r.fork = (struct sct_fork){ .time_ns = t + 1, .child_start_ns = t + 1, .parent_pid = 1000, .parent_tid = 1000,
				    .child_pid = 1100, .child_tid = 1100 };
	err = gen_append(w, &r, err);
	r = (struct sct_record){ .type = SCT_REC_EXEC };
	r.exec = (struct sct_exec){ .time_ns = t + 2, .pid = 1100, .tid = 1100, .old_tid = 1100,
				    .filename = B("/usr/bin/worker"), .comm = B("worker") };
	err = gen_append(w, &r, err);
	r = (struct sct_record){ .type = SCT_REC_EXIT };
	r.exit = (struct sct_exit){ .time_ns = t + 3, .start_ns = t + 1, .pid = 1100, .tid = 1100, .exit_code = 3,
				    .group_dead = 1 };
	return gen_append(w, &r, err);
}

static int gen_losses(struct sct_writer *w, uint64_t t)
{
	struct sct_record r = { .type = SCT_REC_LOST };
	int err;

	r.lost = (struct sct_lost){ .time_ns = t, .end_ns = t + 1000, .count = 17, .cause = SCT_LOST_RINGBUF };
	err = gen_append(w, &r, 0);
	r = (struct sct_record){ .type = SCT_REC_WARNING };
	r.warning = (struct sct_warning){ .time_ns = t, .count = 3, .kind = SCT_WARN_TARGETS_FULL,
					  .text = B("targets map full: 3 tasks not traced") };
	return gen_append(w, &r, err);
}

/* N syscalls: a fixed pseudo-random mix, so every run writes the same file. */
static int gen_syscalls(struct sct_writer *w, const struct host *h, unsigned long long n, uint64_t t)
{
	static const uint32_t nrs[8] = { 0, 1, 1, 1, 3, 257, 257, 232 };
	uint64_t x = 88172645463325252ull ^ h->cgroup_base ^ h->sequence;
	int err = 0;

	for (unsigned long long i = 0; i < n && !err; i++) {
		struct sct_syscall sc = { .time_ns = t };
		uint32_t task;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		task = (uint32_t)(x >> 8) & 3;
		sc.pid = sc.tid = 1000 + task;
		sc.cgroup_id = h->cgroup_base + task;
		sc.nr = nrs[(x >> 16) & 7];
		sc.duration_ns = 200 + (x >> 24) % (sc.nr == 232 ? 5000000 : 20000);
		sc.ret = (x >> 40) % 32 == 0 ? -(int64_t)(2 + (x >> 50) % 12) : (int64_t)((x >> 45) & 255);
		sc.unfinished = (x >> 56) % 100 == 0;
		t += 100 + (x >> 58);
		err = sct_writer_append_syscall(w, &sc);
	}
	return err;
}

static int gen_file(const char *path, const struct host *h, unsigned long long n)
{
	const char *args[] = { "sct-record", "-a", "-o", h->file };
	struct sct_header_info info = {
		.producer = "sct-record", .producer_version = "1.2", .args = args, .nargs = 4, .hostname = h->name,
		.kernel = "6.1.0-28-amd64", .arch = "x86_64", .boot_id = h->boot_id, .clock = "CLOCK_MONOTONIC",
		.anchor_clock_ns = 5000000000ull + h->sequence * 1000000000000ull,
		.anchor_realtime_ns = 1767225600000000000ull + h->sequence * 1000000000000ull,
		.cgroup_hierarchy = "v2", .cgroup_mount = "/sys/fs/cgroup", .syscalls = names, .nsyscalls = 5,
		.backend = "bpf", .sample_cgroup = "kernel", .recording_id = h->recording, .sequence = h->sequence,
	};
	struct sct_writer_opts opts = { .no_fsync = true };
	uint64_t t = info.anchor_clock_ns + 1000;
	int err = 0;
	struct sct_writer *w = sct_writer_open(path, true, &info, &opts, &err);

	if (!w) {
		fprintf(stderr, "gen_fleet: %s: %s\n", path, sct_strerror(err));
		return 1;
	}
	err = gen_tasks(w, h, t);
	if (!err && h->losses)
		err = gen_losses(w, t + 10);
	if (!err)
		err = gen_syscalls(w, h, n, t + 100);
	if (err) {
		fprintf(stderr, "gen_fleet: %s: %s\n", path, sct_strerror(err));
		sct_writer_abandon(w);
		return 1;
	}
	return sct_writer_close(w) ? 1 : 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	unsigned long long n = argc >= 4 ? strtoull(argv[3], NULL, 10) : 0;
	int err = 0;

	if (argc == 4 && !strcmp(argv[1], "fleet")) {
		for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]) && !err; i++) {
			snprintf(path, sizeof(path), "%s/%s", argv[2], hosts[i].file);
			err = gen_file(path, &hosts[i], n);
		}
		return err;
	}
	if (argc == 5 && !strcmp(argv[1], "big")) {
		struct host big = hosts[2];

		big.name = argv[4];
		big.recording = NULL;
		big.sequence = 0;
		big.losses = false;
		return gen_file(argv[2], &big, n);
	}
	fprintf(stderr, "usage: gen_fleet fleet DIR N | big OUT N HOST\n");
	return 2;
}
