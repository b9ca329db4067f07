// SPDX-License-Identifier: BSD-2-Clause
/*
 * make_examples OUTDIR: write the example traces of spec/examples/ (spec/examples/README.md
 * lists them) with libsct's own writer. Damaged and future-version examples start as writer
 * output and are then cut, flipped or spliced with hand-made frames, so every byte that is
 * not deliberately wrong is the writer's. Output is deterministic: no clock is read, the
 * HEADER says what the session info below says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../fuzz/frame_fixup.h"
#include "../format/format_craft.h"
#include "sct.h"

enum { FRAME_BLOCK = 2, FRAME_FUTURE = 99 };

#define T0 1000000000000ull /* the sessions' CLOCK_MONOTONIC anchor: 1000 s after boot */
#define MAX_BLOCKS 16

static const struct sct_syscall_name native_names[] = {
	{ 0, "read" }, { 1, "write" }, { 3, "close" }, { 9, "mmap" }, { 39, "getpid" },
	{ 56, "clone" }, { 59, "execve" }, { 61, "wait4" }, { 231, "exit_group" }, { 257, "openat" },
};
static const struct sct_syscall_name compat_names[] = {
	{ 3, "read" }, { 4, "write" }, { 6, "close" }, { 252, "exit_group" },
};
static const char *const producer_args[] = { "make_examples", "spec/examples" };

static struct sct_header_info header_info(const char *hostname)
{
	return (struct sct_header_info){
		.producer = "make_examples",
		.producer_version = "1.0",
		.args = producer_args,
		.nargs = 2,
		.hostname = hostname,
		.kernel = "6.18.0-example",
		.arch = "x86_64",
		.boot_id = "5b7c4a1e-0d2f-4c3b-9a6e-000000000001",
		.clock = "CLOCK_MONOTONIC",
		.anchor_clock_ns = T0,
		.anchor_realtime_ns = 1764410400000000000ull, /* 2025-11-29 10:00:00 UTC */
		.cgroup_hierarchy = "v2",
		.cgroup_mount = "/sys/fs/cgroup",
		.syscalls = native_names,
		.nsyscalls = sizeof(native_names) / sizeof(native_names[0]),
		.compat_arch = "i386",
		.compat_syscalls = compat_names,
		.ncompat_syscalls = sizeof(compat_names) / sizeof(compat_names[0]),
	};
}

#define BYTES(s) ((struct sct_bytes){ (const uint8_t *)(s), sizeof(s) - 1 })

/* ------------------------------------------------------------------ record builders */

static struct sct_record sys(uint64_t t, uint64_t dur, uint32_t pid, uint32_t tid, uint32_t nr,
			     int64_t ret)
{
	return (struct sct_record){ .type = SCT_REC_SYSCALL, .syscall = {
		.time_ns = T0 + t, .duration_ns = dur, .cgroup_id = 4242, .ret = ret,
		.pid = pid, .tid = tid, .nr = nr } };
}

static const struct sct_record syscall_recs[] = {
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 1000, .duration_ns = 2300,
		.cgroup_id = 4242, .ret = 6, .pid = 1200, .tid = 1200, .nr = 1 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 4500, .duration_ns = 800,
		.cgroup_id = 4242, .ret = -11, .pid = 1200, .tid = 1201, .nr = 0 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 9000, .duration_ns = 15000,
		.cgroup_id = 4242, .ret = 3, .pid = 1200, .tid = 1200, .nr = 257 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 30000, .duration_ns = 1200,
		.cgroup_id = 4242, .ret = 5, .pid = 1300, .tid = 1300, .nr = 4,
		.abi = SCT_ABI_COMPAT } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 52000, .duration_ns = 48000,
		.cgroup_id = 4242, .pid = 1200, .tid = 1201, .nr = 0, .unfinished = 1 } },
};

static const struct sct_record task_recs[] = {
	{ .type = SCT_REC_TASK, .task = { .time_ns = T0, .cgroup_id = 4242,
		.start_ns = 500000000, .pid = 1200, .tid = 1200, .ppid = 1, .comm = BYTES("server") } },
	{ .type = SCT_REC_TASK, .task = { .time_ns = T0, .cgroup_id = 4242,
		.start_ns = 500300000, .pid = 1200, .tid = 1201, .ppid = 1, .comm = BYTES("worker/0") } },
};

static const struct sct_record fork_recs[] = {
	{ .type = SCT_REC_FORK, .fork = { .time_ns = T0 + 20000, .child_start_ns = T0 + 20000,
		.parent_pid = 1200, .parent_tid = 1200, .child_pid = 1300, .child_tid = 1300 } },
	{ .type = SCT_REC_FORK, .fork = { .time_ns = T0 + 21000, .child_start_ns = T0 + 21000,
		.parent_pid = 1200, .parent_tid = 1200, .child_pid = 1200, .child_tid = 1202,
		.is_thread = 1 } },
};

static const struct sct_record exec_recs[] = {
	{ .type = SCT_REC_EXEC, .exec = { .time_ns = T0 + 25000, .pid = 1300, .tid = 1300,
		.old_tid = 1300, .filename = BYTES("/usr/bin/helper"), .comm = BYTES("helper") } },
	/* a non-leader thread exec'd: it takes over the leader's tid */
	{ .type = SCT_REC_EXEC, .exec = { .time_ns = T0 + 26000, .pid = 1400, .tid = 1400,
		.old_tid = 1403, .filename = BYTES("/opt/t\xe9st/run"), .comm = BYTES("run") } },
};

static const struct sct_record exit_recs[] = {
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 40000, .start_ns = T0 + 21000,
		.pid = 1200, .tid = 1202 } },
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 60000, .start_ns = T0 + 20000,
		.pid = 1300, .tid = 1300, .signal = 9, .group_dead = 1 } },
};

static const struct sct_record cgroup_recs[] = {
	{ .type = SCT_REC_CGROUP, .cgroup = { .time_ns = T0, .cgroup_id = 1, .path = BYTES("/") } },
	{ .type = SCT_REC_CGROUP, .cgroup = { .time_ns = T0, .cgroup_id = 4242,
		.path = BYTES("/system.slice/example, \"quoted\".service") } },
};

static const struct sct_record lost_recs[] = {
	{ .type = SCT_REC_LOST, .lost = { .time_ns = T0 + 70000, .end_ns = T0 + 90000,
		.count = 17, .cause = SCT_LOST_RINGBUF } },
	{ .type = SCT_REC_LOST, .lost = { .time_ns = T0 + 80000, .end_ns = T0 + 80000,
		.count = 1, .cause = SCT_LOST_INFLIGHT } },
};

static const struct sct_record warning_recs[] = {
	{ .type = SCT_REC_WARNING, .warning = { .time_ns = T0, .count = 3,
		.kind = SCT_WARN_TARGETS_FULL, .text = BYTES("targets map full: 3 tasks not traced") } },
	{ .type = SCT_REC_WARNING, .warning = { .time_ns = T0 + 100, .count = 1,
		.kind = SCT_WARN_ENUMERATION, .text = BYTES("/proc/1250/task: No such file or directory") } },
};

/*
 * Attribution (FORMAT.md 9.2): records in the order a recorder that stages calls per CPU may
 * write them. A shell (2000) described after its first call forks 2001, which calls before
 * and after its exec and exits, its calls coming after the EXEC and the EXIT in the file (its
 * execve, which spans the EXEC, is named at its return: true); tid 2001 is reused by a second
 * child whose call comes before its FORK; a thread (2102) of another process (2100) execs,
 * taking the pid as its tid after the old leader's exit (its execve is recorded under the tid
 * it returned with, 2100: the old leader's task at its entry, named at its return: run); a
 * call of tid 2001 after its second task's exit belongs to no described task.
 */
static const struct sct_record attribution_recs[] = {
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 1000, .duration_ns = 100, .pid = 2000,
		.tid = 2000, .nr = 1, .ret = 1 } },
	{ .type = SCT_REC_TASK, .task = { .time_ns = T0 + 1500, .cgroup_id = 4242, .start_ns = 400000000,
		.pid = 2000, .tid = 2000, .ppid = 1, .comm = BYTES("sh") } },
	{ .type = SCT_REC_FORK, .fork = { .time_ns = T0 + 2000, .child_start_ns = T0 + 1990,
		.parent_pid = 2000, .parent_tid = 2000, .child_pid = 2001, .child_tid = 2001 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 3000, .duration_ns = 100, .pid = 2001,
		.tid = 2001, .nr = 0 } },
	{ .type = SCT_REC_EXEC, .exec = { .time_ns = T0 + 4000, .pid = 2001, .tid = 2001, .old_tid = 2001,
		.filename = BYTES("/bin/true"), .comm = BYTES("true") } },
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 6000, .start_ns = T0 + 1990, .pid = 2001,
		.tid = 2001, .group_dead = 1 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 5000, .duration_ns = 100, .pid = 2001,
		.tid = 2001, .nr = 3 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 3500, .duration_ns = 600, .pid = 2001,
		.tid = 2001, .nr = 59 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 8000, .duration_ns = 100, .pid = 2001,
		.tid = 2001, .nr = 1, .ret = 5 } },
	{ .type = SCT_REC_FORK, .fork = { .time_ns = T0 + 7000, .child_start_ns = T0 + 6990,
		.parent_pid = 2000, .parent_tid = 2000, .child_pid = 2001, .child_tid = 2001 } },
	{ .type = SCT_REC_EXEC, .exec = { .time_ns = T0 + 7500, .pid = 2001, .tid = 2001, .old_tid = 2001,
		.filename = BYTES("/bin/echo"), .comm = BYTES("echo") } },
	{ .type = SCT_REC_TASK, .task = { .time_ns = T0 + 1500, .cgroup_id = 4243, .start_ns = 300000000,
		.pid = 2100, .tid = 2100, .ppid = 1, .comm = BYTES("app") } },
	{ .type = SCT_REC_FORK, .fork = { .time_ns = T0 + 9000, .child_start_ns = T0 + 8990,
		.parent_pid = 2100, .parent_tid = 2100, .child_pid = 2100, .child_tid = 2102, .is_thread = 1 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 9500, .duration_ns = 100, .pid = 2100,
		.tid = 2102, .nr = 0 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 9800, .duration_ns = 100, .pid = 2100,
		.tid = 2100, .nr = 1 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 9700, .duration_ns = 400, .pid = 2100,
		.tid = 2100, .nr = 59 } },
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 9900, .start_ns = 300000000, .pid = 2100,
		.tid = 2100 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 11000, .duration_ns = 100, .pid = 2100,
		.tid = 2100, .nr = 3 } },
	{ .type = SCT_REC_EXEC, .exec = { .time_ns = T0 + 10000, .pid = 2100, .tid = 2100, .old_tid = 2102,
		.filename = BYTES("/opt/run"), .comm = BYTES("run") } },
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 11500, .start_ns = T0 + 6990, .pid = 2001,
		.tid = 2001, .group_dead = 1 } },
	{ .type = SCT_REC_SYSCALL, .syscall = { .time_ns = T0 + 12000, .duration_ns = 100, .pid = 2001,
		.tid = 2001, .nr = 1 } },
	{ .type = SCT_REC_EXIT, .exit = { .time_ns = T0 + 13000, .start_ns = 300000000, .pid = 2100,
		.tid = 2100, .exit_code = 3, .group_dead = 1 } },
};

/* ------------------------------------------------------------------ writing sessions */

struct out {
	uint8_t *p;
	size_t len;
	size_t block_end[MAX_BLOCKS]; /* end offset of the HEADER (index 0) and of each BLOCK */
	size_t nblock_end;
	size_t trailer_at;            /* offset where the TRAILER starts (or would have) */
};

static int out_add(struct out *o, const void *p, size_t n)
{
	uint8_t *tmp = realloc(o->p, o->len + n);

	if (!tmp)
		return -ENOMEM;
	o->p = tmp;
	memcpy(o->p + o->len, p, n);
	o->len += n;
	return 0;
}

static void note_end(struct out *o, const struct sct_writer *w, size_t base)
{
	size_t end = base + sct_writer_bytes(w);

	if (o->nblock_end && o->block_end[o->nblock_end - 1] == end)
		return;
	if (o->nblock_end < MAX_BLOCKS)
		o->block_end[o->nblock_end++] = end;
}

/* Read back what the writer put into the memfd, appending it to o. */
static int memfd_drain(int fd, struct out *o)
{
	uint8_t chunk[4096];
	ssize_t n;
	int err;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -errno;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if ((err = out_add(o, chunk, (size_t)n)))
			return err;
	return n < 0 ? -errno : 0;
}

/*
 * Append one session holding recs to o: label, HEADER, BLOCKs of block_records records and,
 * if trailer, the TRAILER. Records the frame boundaries in o.
 */
static int session_write_info(struct out *o, const struct sct_header_info *info,
			      uint32_t block_records, const struct sct_record *recs, size_t n,
			      bool trailer)
{
	const struct sct_writer_opts opts = { .block_records = block_records, .no_fsync = true };
	size_t base = o->len;
	struct sct_writer *w;
	int fd, wfd, err = 0;

	fd = memfd_create("example", 0);
	if (fd < 0)
		return -errno;
	wfd = dup(fd);
	if (wfd < 0) {
		err = -errno;
		goto close_fd;
	}
	w = sct_writer_open_fd(wfd, info, &opts, &err);
	if (!w)
		goto close_fd;
	o->nblock_end = 0;
	note_end(o, w, base);
	for (size_t i = 0; i < n && !err; i++) {
		err = sct_writer_append(w, &recs[i]);
		note_end(o, w, base);
	}
	if (!err)
		err = sct_writer_flush(w);
	note_end(o, w, base);
	o->trailer_at = base + sct_writer_bytes(w);
	if (trailer) {
		int cerr = sct_writer_close(w);

		err = err ? err : cerr;
	} else {
		sct_writer_abandon(w);
	}
	if (!err)
		err = memfd_drain(fd, o);
close_fd:
	close(fd);
	return err;
}

static int session_write(struct out *o, const char *hostname, uint32_t block_records,
			 const struct sct_record *recs, size_t n, bool trailer)
{
	const struct sct_header_info info = header_info(hostname);

	return session_write_info(o, &info, block_records, recs, n, trailer);
}

/* ------------------------------------------------------------------ hand-made frames */

static int craft_add(struct out *o, struct craft *c)
{
	int err = out_add(o, c->p, c->len);

	craft_free(c);
	return err;
}

/* A frame of a type 1.0 does not know: its body is a CBOR text saying so. */
static int future_frame_add(struct out *o)
{
	static const char note[] = "frame type 99: unknown to 1.0 readers, skipped by its envelope";
	struct craft body, frame;

	craft_init(&body);
	craft_head(&body, 3, sizeof(note) - 1);
	craft_bytes(&body, note, sizeof(note) - 1);
	craft_init(&frame);
	craft_frame(&frame, FRAME_FUTURE, body.p, body.len);
	craft_free(&body);
	return craft_add(o, &frame);
}

/*
 * A BLOCK as a later minor version might write it (codec 0: every byte is visible): one
 * SYSCALL with a tenth, trailing field that a 1.0 reader skips, and two records of type 9,
 * a type 1.0 does not know, in runs (1, 1) (9, 2).
 */
static int future_block_add(struct out *o)
{
	const uint64_t first_ns = T0 + 200000;
	static const uint64_t sc_vals[9] = { 0, 2000, 1200, 1200, 4242, 39 /* getpid */, 0, 1200, 0 };
	static const uint32_t sc_kinds[9] = {
		SCT_KIND_TIME, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_UINT,
		SCT_KIND_UINT, SCT_KIND_UINT, SCT_KIND_SINT, SCT_KIND_UINT,
	};
	static const uint8_t extra_field[] = { 0x01, 0x07 }; /* width 1, value 7 */
	const uint64_t sc_time = first_ns, t9_time[2] = { first_ns + 100, first_ns + 200 };
	static const uint64_t t9_value[2] = { 42, 43 };
	struct craft_col sc_cols[9], t9_cols[2] = {
		{ .kind = SCT_KIND_TIME, .v = t9_time }, { .kind = SCT_KIND_UINT, .v = t9_value },
	};
	const struct craft_section secs[] = {
		{ .type = SCT_REC_SYSCALL, .count = 1, .ncols = 9, .cols = sc_cols,
		  .tail = extra_field, .tail_len = sizeof(extra_field), .tail_fields = 1 },
		{ .type = 9, .count = 2, .ncols = 2, .cols = t9_cols },
	};
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 1 }, { 9, 2 } };
	struct craft body, frame;

	for (unsigned k = 0; k < 9; k++)
		sc_cols[k] = (struct craft_col){ .kind = sc_kinds[k], .v = k ? &sc_vals[k] : &sc_time };
	craft_init(&body);
	craft_block_body(&body, first_ns, first_ns + 200, runs, 2, secs, 2);
	craft_init(&frame);
	craft_frame(&frame, FRAME_BLOCK, body.p, body.len);
	craft_free(&body);
	return craft_add(o, &frame);
}

/* ------------------------------------------------------------------ the examples */

#define NRECS(a) (sizeof(a) / sizeof((a)[0]))
#define HOST "example-host"

static int make_syscall(struct out *o)
{
	return session_write(o, HOST, 0, syscall_recs, NRECS(syscall_recs), true);
}

static int make_task(struct out *o)
{
	return session_write(o, HOST, 0, task_recs, NRECS(task_recs), true);
}

static int make_fork(struct out *o)
{
	return session_write(o, HOST, 0, fork_recs, NRECS(fork_recs), true);
}

static int make_exec(struct out *o)
{
	return session_write(o, HOST, 0, exec_recs, NRECS(exec_recs), true);
}

static int make_exit(struct out *o)
{
	return session_write(o, HOST, 0, exit_recs, NRECS(exit_recs), true);
}

static int make_cgroup(struct out *o)
{
	return session_write(o, HOST, 0, cgroup_recs, NRECS(cgroup_recs), true);
}

static int make_lost(struct out *o)
{
	return session_write(o, HOST, 0, lost_recs, NRECS(lost_recs), true);
}

static int make_warning(struct out *o)
{
	return session_write(o, HOST, 0, warning_recs, NRECS(warning_recs), true);
}

static int make_attribution(struct out *o)
{
	return session_write(o, HOST, 0, attribution_recs, NRECS(attribution_recs), true);
}

/* A short session in the order a recorder writes it: every type, interleaved into runs. */
static const struct sct_record *const story[] = {
	&cgroup_recs[0], &cgroup_recs[1], &task_recs[0], &task_recs[1], &warning_recs[0],
	&syscall_recs[0], &syscall_recs[1], &syscall_recs[2], &fork_recs[0], &fork_recs[1],
	&exec_recs[0], &syscall_recs[3], &exit_recs[0], &lost_recs[0], &syscall_recs[4],
	&exit_recs[1],
};

static int make_all_types(struct out *o)
{
	struct sct_record recs[NRECS(story)];

	for (size_t i = 0; i < NRECS(story); i++)
		recs[i] = *story[i];
	return session_write(o, HOST, 0, recs, NRECS(recs), true);
}

/*
 * Format 1.1: two tracepoints as tracefs describes them on x86_64, and samples of both
 * interleaved with a syscall. The payloads are as perf's PERF_SAMPLE_RAW gives them
 * (little-endian, common_* fields first); the last one's __data_loc points past its end.
 */
static const struct sct_event_field exec_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "common_flags", "unsigned char", 2, 1, 0, 0 },
	{ "common_preempt_count", "unsigned char", 3, 1, 0, 0 },
	{ "common_pid", "int", 4, 4, 1, 0 },
	{ "filename", "__data_loc char[]", 8, 4, 1, 1 },
	{ "pid", "pid_t", 12, 4, 1, 0 },
	{ "old_pid", "pid_t", 16, 4, 1, 0 },
};
static const struct sct_event_field switch_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "common_flags", "unsigned char", 2, 1, 0, 0 },
	{ "common_preempt_count", "unsigned char", 3, 1, 0, 0 },
	{ "common_pid", "int", 4, 4, 1, 0 },
	{ "prev_comm", "char prev_comm[16]", 8, 16, 1, 0 },
	{ "prev_pid", "pid_t", 24, 4, 1, 0 },
	{ "prev_prio", "int", 28, 4, 1, 0 },
	{ "prev_state", "long", 32, 8, 1, 0 },
	{ "next_comm", "char next_comm[16]", 40, 16, 1, 0 },
	{ "next_pid", "pid_t", 56, 4, 1, 0 },
	{ "next_prio", "int", 60, 4, 1, 0 },
};
/* Arrays whose bound does not fit their size (FORMAT.md section 9.1, step 3). */
static const struct sct_event_field array_fields[] = {
	{ "odd", "u8 odd[3]", 0, 4, 0, 0 },     /* N does not divide size: 4 bytes */
	{ "pair", "u16 pair[2]", 4, 4, 0, 0 },  /* 2 elements of 2 bytes */
	{ "wide", "u8 wide[8]", 8, 3, 0, 0 },   /* N past size: 3 bytes */
	{ "trio", "s24 trio[2]", 11, 6, 1, 0 }, /* 3-byte elements: 6 bytes, sign-extended */
	{ "none", "u8 none[0]", 17, 0, 0, 0 },  /* [0] is no bound: size 0, no bytes */
};
static const struct sct_event_desc sample_events[] = {
	{ "sched:sched_process_exec", exec_fields, NRECS(exec_fields) },
	{ "sched:sched_switch", switch_fields, NRECS(switch_fields) },
	{ "example:arrays", array_fields, NRECS(array_fields) },
};
static const uint8_t arrays_payload[17] = {
	1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 0xff, 0x01, 0xfe, 0x02, 0x80, 0x7f,
};

static void le_put(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

/* sched_process_exec of pid 1200: filename at offset 20; loc_len claims that many bytes. */
static void exec_payload(uint8_t *p, uint16_t loc_len)
{
	static const char file[] = "/usr/bin/true";

	le_put(p, 311, 2);
	le_put(p + 2, 0, 2);
	le_put(p + 4, 1200, 4);
	le_put(p + 8, 20u | (uint32_t)loc_len << 16, 4);
	le_put(p + 12, 1200, 4);
	le_put(p + 16, 1200, 4);
	memcpy(p + 20, file, sizeof(file));
}

static void switch_payload(uint8_t *p)
{
	memset(p, 0, 64);
	le_put(p, 316, 2);
	le_put(p + 4, 1201, 4);
	memcpy(p + 8, "worker/0", 8);
	le_put(p + 24, 1201, 4);
	le_put(p + 28, 120, 4);
	le_put(p + 32, 1, 8);
	memcpy(p + 40, "swapper/1", 9);
	le_put(p + 56, 0, 4);
	le_put(p + 60, (uint64_t)-1, 4);
}

static int make_sample(struct out *o)
{
	struct sct_header_info info = header_info(HOST);
	uint8_t exec_ok[34], exec_bad[34], sw[64];
	struct sct_record recs[] = {
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = T0 + 1000, .cgroup_id = 4242,
			.pid = 1200, .tid = 1200, .cpu = 1, .event = 0, .payload = { exec_ok, 34 } } },
		syscall_recs[1],
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = T0 + 5000, .cgroup_id = 4242,
			.pid = 1200, .tid = 1201, .cpu = 0, .event = 1, .payload = { sw, 64 } } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = T0 + 6000, .cgroup_id = 4242,
			.pid = 1200, .tid = 1200, .cpu = 1, .event = 0, .payload = { exec_bad, 34 } } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = T0 + 7000, .cgroup_id = 4242,
			.pid = 1200, .tid = 1200, .cpu = 1, .event = 2,
			.payload = { arrays_payload, sizeof(arrays_payload) } } },
	};

	exec_payload(exec_ok, 14);
	exec_payload(exec_bad, 15);
	switch_payload(sw);
	info.events = sample_events;
	info.nevents = NRECS(sample_events);
	info.backend = "perf";
	info.sample_cgroup = "kernel";
	return session_write_info(o, &info, 0, recs, NRECS(recs), true);
}

/*
 * Format 1.2: two files of one recording as cat would join them: its second rotated file and
 * its first snapshot, both naming the recording by the same id.
 */
static int make_recording(struct out *o)
{
	struct sct_header_info info = header_info(HOST);
	int err;

	info.recording_id = "6f1c0d2e9a8b47c5b3e2d1f0a9b8c7d6";
	info.sequence = 2;
	err = session_write_info(o, &info, 0, syscall_recs, 2, true);
	info.sequence = 1;
	info.snapshot = true;
	return err ? err : session_write_info(o, &info, 0, cgroup_recs, NRECS(cgroup_recs), true);
}

/* Put id (32 bytes) where the session written at base names its recording; repair the HEADER. */
static int recording_id_patch(struct out *o, size_t base, const char *valid, const char *id)
{
	uint8_t *at = o->nblock_end ? memmem(o->p + base, o->block_end[0] - base, valid, 32) : NULL;

	if (!at || strlen(id) != 32)
		return -EINVAL;
	memcpy(at, id, 32);
	frame_fixup(o->p + base + 12, o->block_end[0] - base - 12);
	return 0;
}

/*
 * Format 1.2 HEADERs naming their recording by ids sct's writer refuses, patched in after
 * writing (checksums repaired): 32 upper-case hex digits, then 32 bytes of terminal escapes, a
 * tab, a newline and SQL quoting. A reader reads both as missing; the sequences still read.
 */
static int make_bad_recording_id(struct out *o)
{
	static const char valid[] = "6f1c0d2e9a8b47c5b3e2d1f0a9b8c7d6";
	static const char *const ids[] = { "6F1C0D2E9A8B47C5B3E2D1F0A9B8C7D6",
					   "\x1b]2;x\a\x1b[2J\t\nx', 0)) OR 1=1 --   " };
	struct sct_header_info info = header_info(HOST);
	int err = 0;

	info.recording_id = valid;
	for (size_t i = 0; i < NRECS(ids) && !err; i++) {
		size_t base = o->len;

		info.sequence = i + 1;
		err = session_write_info(o, &info, 0, syscall_recs, 2, true);
		if (!err)
			err = recording_id_patch(o, base, valid, ids[i]);
	}
	return err;
}

/*
 * Format 1.4: calls with their arguments, as `sct-record --args` writes them: openat's path
 * stored once per block and referred to after, a path cut at args_max, one read at exit, one
 * that could not be read, and calls with no path; renameats with two paths, the second in a
 * table of its own (a string of path's table is new to path2's), repeated by reference, and
 * cut at args_max. Then an i386 open (abi 1), its path captured by its compat description.
 */
static const struct sct_syscall_args args_descs[] = {
	{ 0, 3, { { "fd", SCT_ARG_FD, "" }, { "buf", SCT_ARG_PTR, "" }, { "count", SCT_ARG_SIZE, "" } } },
	{ 257, 4, { { "dfd", SCT_ARG_DIRFD, "" }, { "filename", SCT_ARG_PATH, "" },
		    { "flags", SCT_ARG_FLAGS, "open" }, { "mode", SCT_ARG_MODE, "" } } },
	{ 264, 4, { { "olddfd", SCT_ARG_DIRFD, "" }, { "oldname", SCT_ARG_PATH, "" },
		    { "newdfd", SCT_ARG_DIRFD, "" }, { "newname", SCT_ARG_PATH, "" } } },
};
static const struct sct_syscall_args args_compat_descs[] = {
	{ 5, 3, { { "filename", SCT_ARG_PATH, "" }, { "flags", SCT_ARG_FLAGS, "open" },
		  { "mode", SCT_ARG_MODE, "" } } },
};
/* compat_names with open, 5, in number order: only this session names it */
static const struct sct_syscall_name args_compat_names[] = {
	{ 3, "read" }, { 4, "write" }, { 5, "open" }, { 6, "close" }, { 252, "exit_group" },
};

static struct sct_record open_rec(uint64_t t, int64_t ret, const char *path, uint32_t flags)
{
	struct sct_record r = sys(t, 900, 300, 300, 257, ret);

	r.syscall.arg0 = 0xffffff9c; /* AT_FDCWD as the int register holds it */
	r.syscall.arg1 = 0x7ffc3a10 + t;
	r.syscall.arg2 = 0x80000;    /* O_RDONLY|O_CLOEXEC */
	r.syscall.path_flags = flags;
	r.syscall.path = (struct sct_bytes){ (const uint8_t *)path, (uint32_t)strlen(path) };
	return r;
}

static struct sct_record rename_rec(uint64_t t, int64_t ret, const char *from, const char *to,
				    uint32_t to_flags)
{
	struct sct_record r = open_rec(t, ret, from, SCT_PATH_CAPTURED);

	r.syscall.nr = 264;
	r.syscall.arg2 = 0xffffff9c;
	r.syscall.arg3 = 0x7ffc3c20 + t;
	r.syscall.path2_flags = to_flags;
	r.syscall.path2 = (struct sct_bytes){ (const uint8_t *)to, (uint32_t)strlen(to) };
	return r;
}

static int make_args(struct out *o)
{
	struct sct_syscall_name names[NRECS(native_names) + 1];
	struct sct_header_info info = header_info(HOST);
	struct sct_record recs[11];

	recs[0] = open_rec(100, 3, "/etc/ld.so.cache", SCT_PATH_CAPTURED);
	recs[1] = sys(1100, 400, 300, 300, 0, 832);
	recs[1].syscall.arg0 = 3;
	recs[1].syscall.arg1 = 0x7ffc3b00;
	recs[1].syscall.arg2 = 832;
	recs[2] = open_rec(2000, -2, "/etc/ld.so.cache", SCT_PATH_CAPTURED);
	recs[3] = open_rec(3000, -2, "/usr/share/a very long name", SCT_PATH_CAPTURED | SCT_PATH_CUT);
	recs[4] = open_rec(4000, 4, "/tmp/fresh p\xc3\xa4ge", SCT_PATH_CAPTURED | SCT_PATH_LATE);
	recs[5] = open_rec(5000, -14, "", SCT_PATH_FAULT);
	recs[6] = open_rec(6000, -2, "/etc/ld.so.cache", SCT_PATH_CAPTURED);
	recs[7] = rename_rec(7000, 0, "/etc/ld.so.cache~", "/etc/ld.so.cache", SCT_PATH_CAPTURED);
	/* "/home/user/documents/report-final.txt" cut at args_max */
	recs[8] = rename_rec(8000, 0, "/tmp/fresh p\xc3\xa4ge", "/home/user/documents/report",
			     SCT_PATH_CAPTURED | SCT_PATH_CUT);
	recs[9] = rename_rec(9000, -2, "/etc/ld.so.cache~", "/etc/ld.so.cache", SCT_PATH_CAPTURED);
	/* an ia32 task's open("/etc/hosts", O_RDONLY|O_LARGEFILE): 32-bit registers */
	recs[10] = sys(10000, 1500, 310, 310, 5, 3);
	recs[10].syscall.abi = SCT_ABI_COMPAT;
	recs[10].syscall.arg0 = 0xffd4e5a0;
	recs[10].syscall.arg1 = 0x8000;
	recs[10].syscall.path_flags = SCT_PATH_CAPTURED;
	recs[10].syscall.path = BYTES("/etc/hosts");
	/* the shared table, and renameat: only this session names it */
	memcpy(names, native_names, sizeof(native_names));
	names[NRECS(native_names)] = (struct sct_syscall_name){ 264, "renameat" };
	info.syscalls = names;
	info.nsyscalls = NRECS(names);
	info.syscall_args = args_descs;
	info.nsyscall_args = sizeof(args_descs) / sizeof(args_descs[0]);
	info.compat_syscalls = args_compat_names;
	info.ncompat_syscalls = NRECS(args_compat_names);
	info.compat_syscall_args = args_compat_descs;
	info.ncompat_syscall_args = NRECS(args_compat_descs);
	info.args_max = 27;
	info.args_paths = "enter";
	return session_write_info(o, &info, 0, recs, NRECS(recs), true);
}

/* Ten write(2)s of one thread, four records per block: blocks of 4, 4 and 2. */
static void busy_thread(struct sct_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		recs[i] = sys(300 * i, 120 + 7 * (i % 3), 1200, 1201, 1, 64);
	recs[n - 1].syscall.ret = -32; /* EPIPE */
}

/*
 * The file of the hex walk in spec/FORMAT.md appendix A: two types in two runs, repetitive
 * enough that LZ4 shrinks the payload (a smaller block would be stored as is).
 */
static int make_small(struct out *o)
{
	struct sct_record recs[12];

	recs[0] = task_recs[0];
	recs[1] = task_recs[1];
	busy_thread(recs + 2, 10);
	return session_write(o, HOST, 0, recs, NRECS(recs), true);
}

static int make_multi_block(struct out *o)
{
	struct sct_record recs[10];

	busy_thread(recs, NRECS(recs));
	return session_write(o, HOST, 4, recs, NRECS(recs), true);
}

/* The multi-block file cut in the middle of its third BLOCK: a recorder killed mid-write. */
static int make_truncated(struct out *o)
{
	int err = make_multi_block(o);

	if (err)
		return err;
	if (o->nblock_end < 4)
		return -EINVAL;
	o->len = (o->block_end[2] + o->block_end[3]) / 2;
	return 0;
}

/* The multi-block file with one bit flipped in the second BLOCK: its checksum fails. */
static int make_corrupt_block(struct out *o)
{
	int err = make_multi_block(o);

	if (err)
		return err;
	if (o->nblock_end < 3)
		return -EINVAL;
	o->p[(o->block_end[1] + o->block_end[2]) / 2] ^= 0x10;
	return 0;
}

/*
 * The multi-block file whose second BLOCK has its raw_size off by one, checksum
 * repaired: the frame verifies but its payload does not decompress to that size.
 */
static int make_bad_block(struct out *o)
{
	size_t at, body, rs, rlen;
	int err = make_multi_block(o);

	if (err)
		return err;
	if (o->nblock_end < 3)
		return -EINVAL;
	at = o->block_end[1];
	/* 83 02 <bstr head: 1, 2 or 3 bytes> 86 <count < 24> <raw_size>: change raw_size's last byte */
	body = at + 2 + (o->p[at + 2] == 0x59 ? 3 : o->p[at + 2] == 0x58 ? 2 : 1);
	rs = body + 2;
	if (o->p[body] != 0x86 || o->p[body + 1] >= 0x18 || o->p[rs] > 0x1a)
		return -EINVAL;
	rlen = o->p[rs] < 0x18 ? 1 : 1 + (1u << (o->p[rs] - 0x18));
	o->p[rs + rlen - 1] ^= 0x01;
	frame_fixup(o->p + at, o->block_end[2] - at);
	return 0;
}

/* Writer output with a frame of type 99 and a BLOCK holding record type 9 spliced in before
 * the TRAILER (so the trailer's block index stays right; its totals do not count them). */
static int make_unknown_types(struct out *o)
{
	struct out head = { 0 };
	size_t tail;
	int err;

	err = session_write(o, HOST, 0, syscall_recs, 3, true);
	if (err)
		return err;
	tail = o->trailer_at;
	if ((err = out_add(&head, o->p, tail)) || (err = future_frame_add(&head)) ||
	    (err = future_block_add(&head)) || (err = out_add(&head, o->p + tail, o->len - tail))) {
		free(head.p);
		return err;
	}
	free(o->p);
	o->p = head.p;
	o->len = head.len;
	return 0;
}

/* ------------------------------------------------------------------ schema_edges */

enum { FRAME_HEADER = 1, FRAME_TRAILER = 3 };

/* A label and a hand-made HEADER of format 1.minor, with "syscall_args" when args. */
static void edges_header(struct craft *c, uint32_t minor, bool args, const struct craft_type *types,
			 size_t ntypes)
{
	struct craft body;

	craft_init(&body);
	if (args)
		craft_header_body_args(&body, 1, minor, types, ntypes);
	else
		craft_header_body(&body, 1, minor, types, ntypes);
	craft_label(c);
	craft_frame(c, FRAME_HEADER, body.p, body.len);
	craft_free(&body);
}

/* The smallest TRAILER: {"blocks": 1}. */
static void edges_trailer(struct craft *c)
{
	static const uint8_t body[] = { 0xa1, 0x66, 'b', 'l', 'o', 'c', 'k', 's', 0x01 };

	craft_frame(c, FRAME_TRAILER, body, sizeof(body));
}

static void edges_block(struct craft *c, uint64_t first_ns, uint64_t last_ns, const struct craft_run *runs,
			size_t nruns, const struct craft_section *secs, size_t nsecs)
{
	struct craft body;

	craft_init(&body);
	craft_block_body(&body, first_ns, last_ns, runs, nruns, secs, nsecs);
	craft_frame(c, FRAME_BLOCK, body.p, body.len);
	craft_free(&body);
}

/*
 * A 1.0 session whose SYSCALL entry lists five fields, the second named "dur", and whose
 * type 9 is "probe" (time_ns, value, note). Its BLOCK holds two SYSCALLs with all nine
 * columns (nr 1, ret 64: read as 0, the entry does not name them), a probe between them, and
 * a CGROUP section of count 0 with no run.
 */
static void edges_prefix(struct craft *c)
{
	static const struct sct_field_schema sc_fields[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "dur", SCT_KIND_UINT, "ns" }, { "pid", SCT_KIND_UINT, "" },
		{ "tid", SCT_KIND_UINT, "" }, { "cgroup_id", SCT_KIND_UINT, "" },
	};
	static const struct sct_field_schema probe_fields[] = {
		{ "time_ns", SCT_KIND_TIME, "ns" }, { "value", SCT_KIND_UINT, "" }, { "note", SCT_KIND_BYTES, "" },
	};
	const struct craft_type types[] = {
		{ SCT_REC_SYSCALL, "syscall", NRECS(sc_fields), sc_fields },
		{ 9, "probe", NRECS(probe_fields), probe_fields },
	};
	const uint64_t time[2] = { T0, T0 + 100 }, dur[2] = { 300, 400 }, pid[2] = { 1200, 1200 },
		       tid[2] = { 1201, 1201 }, cg[2] = { 4242, 4242 }, nr[2] = { 1, 1 }, zero[2] = { 0, 0 },
		       ret[2] = { 64, 64 }, ptime = T0 + 50, value = 7;
	const struct sct_bytes note = { (const uint8_t *)"x", 1 };
	const struct craft_col sc[] = {
		{ SCT_KIND_TIME, time, NULL }, { SCT_KIND_UINT, dur, NULL }, { SCT_KIND_UINT, pid, NULL },
		{ SCT_KIND_UINT, tid, NULL }, { SCT_KIND_UINT, cg, NULL }, { SCT_KIND_UINT, nr, NULL },
		{ SCT_KIND_UINT, zero, NULL }, { SCT_KIND_SINT, ret, NULL }, { SCT_KIND_UINT, zero, NULL },
	};
	const struct craft_col probe[] = {
		{ SCT_KIND_TIME, &ptime, NULL }, { SCT_KIND_UINT, &value, NULL }, { SCT_KIND_BYTES, NULL, &note },
	};
	const struct craft_col cgroup[] = {
		{ SCT_KIND_TIME, NULL, NULL }, { SCT_KIND_UINT, NULL, NULL }, { SCT_KIND_BYTES, NULL, NULL },
	};
	const struct craft_section secs[] = {
		{ .type = SCT_REC_SYSCALL, .count = 2, .ncols = NRECS(sc), .cols = sc },
		{ .type = 9, .count = 1, .ncols = NRECS(probe), .cols = probe },
		{ .type = SCT_REC_CGROUP, .count = 0, .ncols = NRECS(cgroup), .cols = cgroup },
	};
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 1 }, { 9, 1 }, { SCT_REC_SYSCALL, 1 } };

	edges_header(c, 0, false, types, NRECS(types));
	edges_block(c, T0, T0 + 100, runs, NRECS(runs), secs, NRECS(secs));
	edges_trailer(c);
}

/*
 * A session of format 1.minor, with "syscall_args" when args, whose SYSCALL entry lists all 21
 * fields of 1.4, and a BLOCK of two renameats stored with all 21: the first stores its paths
 * "/a" and "/b" whole, the second refers to them (path_ref 1, path2_ref 1).
 */
static void edges_21(struct craft *c, uint32_t minor, bool args)
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);
	/* 1.4's 21 fields, the first of the list: those of 1.6 and 1.7 come after them */
	const struct craft_type types[] = { { SCT_REC_SYSCALL, "syscall", 21, all->fields } };
	const uint64_t t0 = T0 + 1000 * (minor + 1);
	const uint64_t time[2] = { t0, t0 + 100 }, dur[2] = { 500, 600 }, pid[2] = { 1300, 1300 },
		       cg[2] = { 4242, 4242 }, nr[2] = { 264, 264 }, zero[2] = { 0, 0 },
		       arg0[2] = { 4294967196u, 4294967196u }, arg1[2] = { 0x1000, 0x1000 },
		       arg3[2] = { 0x2000, 0x2000 }, one[2] = { 1, 1 }, ref[2] = { 0, 1 };
	const struct sct_bytes path[2] = { { (const uint8_t *)"/a", 2 }, { (const uint8_t *)"", 0 } },
			       path2[2] = { { (const uint8_t *)"/b", 2 }, { (const uint8_t *)"", 0 } };
	const struct craft_col sc[] = {
		{ SCT_KIND_TIME, time, NULL }, { SCT_KIND_UINT, dur, NULL }, { SCT_KIND_UINT, pid, NULL },
		{ SCT_KIND_UINT, pid, NULL }, { SCT_KIND_UINT, cg, NULL }, { SCT_KIND_UINT, nr, NULL },
		{ SCT_KIND_UINT, zero, NULL }, { SCT_KIND_SINT, zero, NULL }, { SCT_KIND_UINT, zero, NULL },
		{ SCT_KIND_UINT, arg0, NULL }, { SCT_KIND_UINT, arg1, NULL }, { SCT_KIND_UINT, arg0, NULL },
		{ SCT_KIND_UINT, arg3, NULL }, { SCT_KIND_UINT, zero, NULL }, { SCT_KIND_UINT, zero, NULL },
		{ SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, ref, NULL }, { SCT_KIND_BYTES, NULL, path },
		{ SCT_KIND_UINT, one, NULL }, { SCT_KIND_UINT, ref, NULL }, { SCT_KIND_BYTES, NULL, path2 },
	};
	const struct craft_section secs[] = { { .type = SCT_REC_SYSCALL, .count = 2, .ncols = NRECS(sc), .cols = sc } };
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 2 } };

	edges_header(c, minor, args, types, NRECS(types));
	edges_block(c, t0, t0 + 100, runs, NRECS(runs), secs, NRECS(secs));
	edges_trailer(c);
}

/* Hand-made HEADERs whose schema differs from section 9's: a prefix, other names, more fields. */
static int make_schema_edges(struct out *o)
{
	struct craft c;

	craft_init(&c);
	edges_prefix(&c);
	edges_21(&c, 3, true);
	edges_21(&c, 4, false);
	return craft_add(o, &c);
}

/*
 * Keys of later versions in older HEADERs, read as absent (FORMAT.md section 5): a 1.0
 * HEADER with "backend", "sample_cgroup" and an "events" table (1.1), and a 1.2 HEADER with
 * "syscall_args" (1.3).
 */
static int make_key_versions(struct out *o)
{
	static const uint8_t keys_1_1[] = {
		0x67, 'b', 'a', 'c', 'k', 'e', 'n', 'd', 0x64, 'p', 'e', 'r', 'f',
		0x6d, 's', 'a', 'm', 'p', 'l', 'e', '_', 'c', 'g', 'r', 'o', 'u', 'p',
		0x66, 'k', 'e', 'r', 'n', 'e', 'l',
		0x66, 'e', 'v', 'e', 'n', 't', 's', 0x81,
		0xa2, 0x64, 'n', 'a', 'm', 'e', 0x63, 'a', ':', 'b', 0x66, 'f', 'i', 'e', 'l', 'd', 's', 0x80,
	};
	static const uint8_t keys_1_3[] = {
		0x6c, 's', 'y', 's', 'c', 'a', 'l', 'l', '_', 'a', 'r', 'g', 's', 0xa3,
		0x63, 'm', 'a', 'x', 0x19, 0x01, 0x00, 0x65, 'p', 'a', 't', 'h', 's', 0x65, 'e', 'n', 't', 'e', 'r',
		0x66, 'n', 'a', 't', 'i', 'v', 'e', 0xa0,
	};
	struct craft c, body;

	craft_init(&c);
	for (int i = 0; i < 2; i++) {
		craft_init(&body);
		if (i)
			craft_header_body_keys(&body, 1, 2, keys_1_3, sizeof(keys_1_3), 1);
		else
			craft_header_body_keys(&body, 1, 0, keys_1_1, sizeof(keys_1_1), 3);
		craft_label(&c);
		craft_frame(&c, FRAME_HEADER, body.p, body.len);
		craft_free(&body);
		edges_trailer(&c);
	}
	return craft_add(o, &c);
}

/* ------------------------------------------------------------------ header_strings */

static void cb_text(struct craft *c, const char *s, size_t len)
{
	craft_head(c, 3, len);
	craft_bytes(c, s, len);
}

static void cb_str(struct craft *c, const char *s)
{
	cb_text(c, s, strlen(s));
}

/*
 * A 1.4 HEADER of strings a reader cuts, repairs or skips (FORMAT.md sections 1 and 5): a
 * syscall name with a NUL ("wr\0ite": "wr"), a byte-string name (skipped: 2 has no name), a
 * non-text item of "args" (read as ""), an event and a field name with a NUL, argument kinds
 * "dirfd\0x" ("dirfd") and 7 (not text: "int"), and an argument name of 255 bytes and one
 * invalid byte, 258 bytes once repaired: past the limit, its entry is ignored.
 */
static void strings_header(struct craft *h)
{
	char longname[256];

	memset(longname, 'n', 255);
	longname[255] = (char)0xff;
	craft_head(h, 5, 7);
	cb_str(h, "format"), craft_head(h, 4, 2), craft_head(h, 0, 1), craft_head(h, 0, 4);
	cb_str(h, "producer"), craft_head(h, 5, 1), cb_str(h, "args"), craft_head(h, 4, 3);
	cb_str(h, "a"), craft_head(h, 0, 5), cb_str(h, "b");
	cb_str(h, "host"), craft_head(h, 5, 1), cb_str(h, "hostname"), cb_str(h, "strings-host");
	cb_str(h, "syscalls"), craft_head(h, 5, 1), cb_str(h, "native"), craft_head(h, 5, 2);
	cb_str(h, "arch"), cb_str(h, "x86_64"), cb_str(h, "names"), craft_head(h, 5, 3);
	craft_head(h, 0, 1), cb_text(h, "wr\0ite", 6);
	craft_head(h, 0, 2), craft_head(h, 2, 4), craft_bytes(h, "open", 4);
	craft_head(h, 0, 3), cb_str(h, "close");
	cb_str(h, "events"), craft_head(h, 4, 1), craft_head(h, 5, 2);
	cb_str(h, "name"), cb_text(h, "x:y\0z", 5);
	cb_str(h, "fields"), craft_head(h, 4, 1), craft_head(h, 4, 6), cb_text(h, "f\0g", 3), cb_str(h, "int");
	craft_head(h, 0, 0), craft_head(h, 0, 4), craft_head(h, 0, 1), craft_head(h, 0, 0);
	cb_str(h, "backend"), cb_str(h, "perf");
	cb_str(h, "syscall_args"), craft_head(h, 5, 3);
	cb_str(h, "max"), craft_head(h, 0, 256), cb_str(h, "paths"), cb_str(h, "enter");
	cb_str(h, "native"), craft_head(h, 5, 2);
	craft_head(h, 0, 257), craft_head(h, 4, 2);
	craft_head(h, 4, 3), cb_str(h, "dfd"), cb_text(h, "dirfd\0x", 7), cb_str(h, "");
	craft_head(h, 4, 3), cb_str(h, "filename"), craft_head(h, 0, 7), cb_str(h, "");
	craft_head(h, 0, 258), craft_head(h, 4, 1);
	craft_head(h, 4, 3), cb_text(h, longname, sizeof(longname)), cb_str(h, "int"), cb_str(h, "");
}

/* A 1.1 HEADER whose second event has no "fields": the table is malformed, so there is none. */
static void strings_header_events(struct craft *h)
{
	craft_head(h, 5, 3);
	cb_str(h, "format"), craft_head(h, 4, 2), craft_head(h, 0, 1), craft_head(h, 0, 1);
	cb_str(h, "host"), craft_head(h, 5, 1), cb_str(h, "hostname"), cb_str(h, "strings-host");
	cb_str(h, "events"), craft_head(h, 4, 2);
	craft_head(h, 5, 2), cb_str(h, "name"), cb_str(h, "a:b"), cb_str(h, "fields"), craft_head(h, 4, 0);
	craft_head(h, 5, 1), cb_str(h, "name"), cb_str(h, "c:d");
}

static int make_header_strings(struct out *o)
{
	const uint64_t time[2] = { T0, T0 + 100 }, nr[2] = { 1, 2 }, pid[2] = { 1400, 1400 },
		       zero[2] = { 0, 0 };
	const struct craft_col sc[] = {
		{ SCT_KIND_TIME, time, NULL }, { SCT_KIND_UINT, zero, NULL }, { SCT_KIND_UINT, pid, NULL },
		{ SCT_KIND_UINT, pid, NULL }, { SCT_KIND_UINT, zero, NULL }, { SCT_KIND_UINT, nr, NULL },
		{ SCT_KIND_UINT, zero, NULL }, { SCT_KIND_SINT, zero, NULL }, { SCT_KIND_UINT, zero, NULL },
	};
	const struct craft_section secs[] = { { .type = SCT_REC_SYSCALL, .count = 2, .ncols = NRECS(sc), .cols = sc } };
	static const struct craft_run runs[] = { { SCT_REC_SYSCALL, 2 } };
	struct craft c, body;

	craft_init(&c);
	for (int i = 0; i < 2; i++) {
		craft_init(&body);
		if (i)
			strings_header_events(&body);
		else
			strings_header(&body);
		craft_label(&c);
		craft_frame(&c, FRAME_HEADER, body.p, body.len);
		craft_free(&body);
		if (!i)
			edges_block(&c, T0, T0 + 100, runs, NRECS(runs), secs, NRECS(secs));
		edges_trailer(&c);
	}
	return craft_add(o, &c);
}

/* ------------------------------------------------------------------ totals */

#define SEC 1000000000ull

/* durations of one TOTALS record, hist_bits bits, into the hist buffer buf */
struct totals_spec {
	uint64_t time, since;
	uint32_t pid, nr;
	uint8_t abi;
	uint32_t bits;
	uint64_t errors;
	uint64_t dur[5];
	uint32_t n;
};

/* The TOTALS record of spec, its histogram encoded into buf (room for 5 buckets). */
static int totals_build(const struct totals_spec *t, uint8_t *buf, struct sct_record *rec)
{
	struct sct_hist_bin bins[5];
	uint32_t nbins = 0;
	int64_t len;

	*rec = (struct sct_record){ .type = SCT_REC_TOTALS, .totals = {
		.time_ns = T0 + t->time, .since_ns = T0 + t->since, .cgroup_id = 4242, .calls = t->n,
		.errors = t->errors, .pid = t->pid, .nr = t->nr, .abi = t->abi, .hist_bits = t->bits } };
	for (uint32_t i = 0; i < t->n; i++) {
		uint64_t b = sct_hist_bucket(t->dur[i], t->bits);

		rec->totals.duration_ns += t->dur[i];
		if (t->dur[i] > rec->totals.max_ns)
			rec->totals.max_ns = t->dur[i];
		if (nbins && bins[nbins - 1].bucket == b)
			bins[nbins - 1].count++;
		else
			bins[nbins++] = (struct sct_hist_bin){ b, 1 };
	}
	len = sct_hist_encode(bins, nbins, t->bits, buf, SCT_HIST_MAX_BYTES(5));
	if (len < 0)
		return (int)len;
	rec->totals.hist = (struct sct_bytes){ buf, (uint32_t)len };
	return 0;
}

/*
 * Format 1.5: `sct-record -S %file --failed`: HEADER "filter", the failed openats in detail,
 * and the totals of every call over two flush intervals, durations in increasing order per key.
 */
static int make_totals(struct out *o)
{
	static const struct sct_header_filter filter = {
		.text = "-S %file --failed", .details = "filtered", .totals = "all",
	};
	static const struct totals_spec specs[] = {
		/* openat: 800 and 900 ns exact, 1500 in bucket 1262, twice 15000 in bucket 2985 */
		{ SEC, 0, 1200, 257, 0, SCT_HIST_BITS, 2, { 800, 900, 1500, 15000, 15000 }, 5 },
		{ SEC, 0, 1200, 0, 0, SCT_HIST_BITS, 0, { 2000, 2000, 3000 }, 3 },
		/* an i386 write, in log2 buckets: both in [4096, 8192) */
		{ SEC, 0, 1300, 4, 1, 0, 0, { 5000, 6000 }, 2 },
		{ 2 * SEC, SEC, 1200, 257, 0, SCT_HIST_BITS, 1, { 700 }, 1 },
	};
	struct sct_header_info info = header_info(HOST);
	uint8_t bufs[NRECS(specs)][SCT_HIST_MAX_BYTES(5)];
	struct sct_record recs[3 + NRECS(specs) + 1] = {
		task_recs[0], sys(400000, 15000, 1200, 1200, 257, -2),
		sys(600000, 15000, 1200, 1200, 257, -13),
	};
	size_t n = 3;
	int err = 0;

	info.filter = &filter;
	for (size_t i = 0; i < 3 && !err; i++)
		err = totals_build(&specs[i], bufs[i], &recs[n++]);
	recs[n++] = sys(SEC + 5000, 700, 1200, 1200, 257, -13);
	if (!err)
		err = totals_build(&specs[3], bufs[3], &recs[n++]);
	return err ? err : session_write_info(o, &info, 0, recs, n, true);
}

/*
 * The totals session with a hand-made BLOCK (codec 0) spliced in before its TRAILER: three
 * TOTALS of the third interval, the second of which is damaged (its histogram counts 2 calls
 * of 3): readers skip it alone and report it; the first and third are read.
 */
static int make_bad_totals(struct out *o)
{
	static const uint8_t two[] = { 0xbc, 0x05, 0x02 }; /* bucket 700, twice */
	const struct sct_totals t[] = {
		{ .time_ns = T0 + 3 * SEC, .since_ns = T0 + 2 * SEC, .cgroup_id = 4242, .calls = 2,
		  .duration_ns = 1400, .max_ns = 700, .pid = 1200, .nr = 0, .hist_bits = 9,
		  .hist = { two, sizeof(two) } },
		{ .time_ns = T0 + 3 * SEC, .since_ns = T0 + 2 * SEC, .cgroup_id = 4242, .calls = 3,
		  .errors = 3, .duration_ns = 2100, .max_ns = 700, .pid = 1200, .nr = 257,
		  .hist_bits = 9, .hist = { two, sizeof(two) } },
		{ .time_ns = T0 + 3 * SEC, .since_ns = T0 + 2 * SEC, .cgroup_id = 4242, .calls = 2,
		  .duration_ns = 1400, .max_ns = 700, .pid = 1300, .nr = 1, .hist_bits = 9,
		  .hist = { two, sizeof(two) } },
	};
	struct out head = { 0 };
	struct craft c;
	size_t tail;
	int err = make_totals(o);

	if (err)
		return err;
	tail = o->trailer_at;
	craft_init(&c);
	craft_totals_block(&c, t, NRECS(t));
	if ((err = out_add(&head, o->p, tail)) || (err = craft_add(&head, &c)) ||
	    (err = out_add(&head, o->p + tail, o->len - tail))) {
		free(head.p);
		return err;
	}
	free(o->p);
	o->p = head.p;
	o->len = head.len;
	return 0;
}

/* ------------------------------------------------------------------ stacks */

static struct sct_record module_rec(uint64_t t, uint32_t id, uint32_t kind, struct sct_bytes build_id,
				    struct sct_bytes path)
{
	return (struct sct_record){ .type = SCT_REC_MODULE, .module = {
		.time_ns = T0 + t, .module_id = id, .kind = kind, .build_id = build_id, .path = path } };
}

static struct sct_record symbol_rec(uint64_t t, uint32_t module, uint64_t addr, uint64_t size,
				    struct sct_bytes name)
{
	return (struct sct_record){ .type = SCT_REC_SYMBOL, .symbol = {
		.time_ns = T0 + t, .module_id = module, .addr = addr, .size = size, .name = name } };
}

/* The STACK record of frames f[0 .. n), encoded into buf (SCT_STACK_FRAMES_MAX_BYTES). */
static int stack_build(uint64_t t, uint32_t id, uint32_t pid, const struct sct_frame *f, size_t n,
		       uint8_t *buf, struct sct_record *rec)
{
	int len = sct_stack_frames_encode(f, n, buf, SCT_STACK_FRAMES_MAX_BYTES);

	if (len < 0)
		return len;
	*rec = (struct sct_record){ .type = SCT_REC_STACK, .stack = {
		.time_ns = T0 + t, .stack_id = id, .pid = pid, .frames = { buf, (uint32_t)len } } };
	return 0;
}

static struct sct_record stack_sys(uint64_t t, uint64_t dur, uint32_t nr, int64_t ret, uint32_t stack)
{
	struct sct_record r = sys(t, dur, 1200, 1200, nr, ret);

	r.syscall.stack_id = stack;
	return r;
}

/*
 * Format 1.6: `sct-record --stack=both`: HEADER "stacks", the modules and symbols a file needs
 * to symbolize alone, two STACKs each before the first SYSCALL that names it, a call without a
 * stack (0) and one naming a STACK the file lacks (unknown, not damage).
 */
static int make_stacks(struct out *o)
{
	static const struct sct_header_stacks stacks = { .mode = "both", .depth = 64, .unwind = "fp" };
	static const uint8_t server_id[20] = {
		0x4f, 0x1c, 0x2b, 0x9a, 0x03, 0x77, 0x5e, 0xd0, 0x11, 0x8c,
		0x6a, 0x42, 0xe5, 0x90, 0x0b, 0x3d, 0xc7, 0x28, 0x51, 0xf6,
	};
	static const uint8_t libc_id[20] = {
		0x9e, 0x2f, 0x61, 0x0d, 0x84, 0x1a, 0xb3, 0x57, 0xc0, 0x2e,
		0x76, 0x99, 0x05, 0xdf, 0x48, 0x13, 0xa1, 0x6c, 0x3b, 0x80,
	};
	/* openat from handle() called by main(), through libc's open64 and the syscall entry */
	static const struct sct_frame open_frames[] = {
		{ 2, 0xffffffff81e5a30eull }, { 2, 0xffffffff82000076ull },
		{ 3, 0x114e2eull }, { 1, 0x401152ull }, { 1, 0x401120ull }, { 0, 0x7ffd5e3a1234ull },
	};
	/* read from main() directly: libc's read, no kernel symbol for its first frame */
	static const struct sct_frame read_frames[] = {
		{ 2, 0xffffffff8142c1d5ull }, { 2, 0xffffffff82000076ull },
		{ 3, 0x11ba61ull }, { 1, 0x401110ull },
	};
	struct sct_header_info info = header_info(HOST);
	uint8_t bufs[2][SCT_STACK_FRAMES_MAX_BYTES];
	struct sct_record recs[32];
	size_t n = 0;
	int err;

	info.stacks = &stacks;
	recs[n++] = task_recs[0];
	recs[n++] = module_rec(400000, 1, SCT_MODULE_ELF, (struct sct_bytes){ server_id, 20 },
			       BYTES("/usr/bin/server"));
	recs[n++] = module_rec(400000, 2, SCT_MODULE_KERNEL, BYTES(""), BYTES("[kernel.kallsyms]"));
	recs[n++] = module_rec(400000, 3, SCT_MODULE_ELF, (struct sct_bytes){ libc_id, 20 },
			       BYTES("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	recs[n++] = symbol_rec(400000, 1, 0x401100, 0x30, BYTES("main"));
	recs[n++] = symbol_rec(400000, 1, 0x401140, 0x40, BYTES("_ZN6server6handleEv"));
	recs[n++] = symbol_rec(400000, 2, 0xffffffff81e5a2b0ull, 0x120, BYTES("do_syscall_64"));
	recs[n++] = symbol_rec(400000, 2, 0xffffffff82000040ull, 0, BYTES("entry_SYSCALL_64"));
	recs[n++] = symbol_rec(400000, 3, 0x114e00, 0x100, BYTES("__open64"));
	recs[n++] = symbol_rec(400000, 3, 0x11ba50, 0x90, BYTES("__read"));
	err = stack_build(400000, 1, 1200, open_frames, NRECS(open_frames), bufs[0], &recs[n++]);
	if (err)
		return err;
	recs[n++] = stack_sys(400000, 15000, 257, -2, 1);
	recs[n++] = stack_sys(600000, 14000, 257, 3, 1);
	err = stack_build(700000, 2, 1200, read_frames, NRECS(read_frames), bufs[1], &recs[n++]);
	if (err)
		return err;
	recs[n++] = stack_sys(700000, 2000, 0, 512, 2);
	recs[n++] = stack_sys(800000, 1000, 3, 0, 0);
	recs[n++] = stack_sys(900000, 2500, 0, 0, 9);
	return session_write_info(o, &info, 0, recs, n, true);
}

/*
 * Format 1.7: `sct-record --args` capturing argument memory: HEADER "syscall_args" with "argv"
 * and "data", and the calls a strace user reads: an AF_INET and an abstract AF_UNIX connect,
 * an execve whose arguments hold a space and UTF-8, a write whose data is kept whole and one
 * cut at "data", and an exit_group that does not return (unfinished 2).
 */
static const struct sct_syscall_args captures_descs[] = {
	{ 1, 3, { { "fd", SCT_ARG_FD, "" }, { "buf", SCT_ARG_BUF, "" }, { "count", SCT_ARG_SIZE, "" } } },
	{ 42, 3, { { "fd", SCT_ARG_FD, "" }, { "uservaddr", SCT_ARG_SOCKADDR, "" },
		   { "addrlen", SCT_ARG_SIZE, "" } } },
	{ 59, 3, { { "filename", SCT_ARG_PATH, "" }, { "argv", SCT_ARG_ARGV, "" },
		   { "envp", SCT_ARG_ENVP, "" } } },
	{ 231, 1, { { "error_code", SCT_ARG_INT, "" } } },
};

static struct sct_record connect_rec(uint64_t t, int64_t ret, uint64_t fd, struct sct_bytes addr)
{
	struct sct_record r = sys(t, 30000, 400, 400, 42, ret);

	r.syscall.arg0 = fd;
	r.syscall.arg1 = 0x7ffe1c40;
	r.syscall.arg2 = addr.len;
	r.syscall.addr_flags = SCT_PATH_CAPTURED;
	r.syscall.addr = addr;
	return r;
}

static struct sct_record write_rec(uint64_t t, struct sct_bytes data, uint64_t count, uint32_t flags)
{
	struct sct_record r = sys(t, 2000, 400, 400, 1, (int64_t)count);

	r.syscall.arg0 = 1;
	r.syscall.arg1 = 0x55d0c0de2000;
	r.syscall.arg2 = count;
	r.syscall.data_flags = flags;
	r.syscall.data = data;
	return r;
}

static int make_captures(struct out *o)
{
	static const struct sct_header_captures captures = { .argv_max = 64, .argv_bytes = 4096,
							     .data = 32 };
	/* sockaddr_in 127.0.0.1:8080: family 2 (little-endian), port and address in network order */
	static const uint8_t inet[16] = { 0x02, 0x00, 0x1f, 0x90, 127, 0, 0, 1 };
	/* sockaddr_un of the abstract name "@sct-example": family 1, a NUL, then the name */
	static const uint8_t unix_abstract[] = { 0x01, 0x00, 0x00, 's', 'c', 't', '-', 'e', 'x', 'a',
						 'm', 'p', 'l', 'e' };
	static const char argv[] = "printf\0%s %s\\n\0hello world\0gr\xc3\xbc\xc3\x9f" "e\0";
	static const char line[] = "hello world gr\xc3\xbc\xc3\x9f" "e\n";
	struct sct_syscall_name names[NRECS(native_names) + 1];
	struct sct_header_info info = header_info(HOST);
	struct sct_record recs[6];

	recs[0] = connect_rec(100, 0, 3, (struct sct_bytes){ inet, sizeof(inet) });
	recs[1] = connect_rec(40000, -111, 4, (struct sct_bytes){ unix_abstract, sizeof(unix_abstract) });
	recs[2] = sys(80000, 250000, 400, 400, 59, 0);
	recs[2].syscall.arg0 = 0x55d0c0de1000;
	recs[2].syscall.arg1 = 0x7ffe1d00;
	recs[2].syscall.arg2 = 0x7ffe1d30;
	recs[2].syscall.path_flags = SCT_PATH_CAPTURED;
	recs[2].syscall.path = BYTES("/usr/bin/printf");
	recs[2].syscall.argv_flags = SCT_PATH_CAPTURED;
	recs[2].syscall.argv = BYTES(argv);
	recs[2].syscall.envc = 23;
	recs[3] = write_rec(400000, BYTES(line), sizeof(line) - 1, SCT_PATH_CAPTURED);
	/* 40 bytes written, the first 32 kept */
	recs[4] = write_rec(410000, BYTES("0123456789abcdefghijklmnopqrstuv"), 40,
			    SCT_PATH_CAPTURED | SCT_PATH_CUT);
	recs[5] = sys(420000, 0, 400, 400, 231, 0);
	recs[5].syscall.arg0 = 3;
	recs[5].syscall.unfinished = 2;
	/* the shared table, and connect (after getpid, in number order): only this session names it */
	memcpy(names, native_names, 5 * sizeof(names[0]));
	names[5] = (struct sct_syscall_name){ 42, "connect" };
	memcpy(names + 6, native_names + 5, sizeof(native_names) - 5 * sizeof(names[0]));
	info.syscalls = names;
	info.nsyscalls = NRECS(names);
	info.syscall_args = captures_descs;
	info.nsyscall_args = NRECS(captures_descs);
	info.args_max = 4096;
	info.args_paths = "enter";
	info.captures = &captures;
	return session_write_info(o, &info, 0, recs, NRECS(recs), true);
}

/*
 * The stacks session with a hand-made BLOCK (codec 0) spliced in before its TRAILER: three
 * STACKs, the second of which names module 2^32 (past 32 bits): readers skip it alone and
 * report it; the first and third are read.
 */
static int make_bad_stack(struct out *o)
{
	static const uint8_t good[] = { 0x01, 0x90, 0xa2, 0x80, 0x02 };
	static const uint8_t bad[] = { 0x80, 0x80, 0x80, 0x80, 0x10, 0x90, 0xa2, 0x80, 0x02 };
	const struct sct_stack st[] = {
		{ .time_ns = T0 + SEC, .stack_id = 3, .pid = 1200, .frames = { good, sizeof(good) } },
		{ .time_ns = T0 + SEC, .stack_id = 4, .pid = 1200, .frames = { bad, sizeof(bad) } },
		{ .time_ns = T0 + SEC, .stack_id = 5, .pid = 1200, .frames = { good, 0 } },
	};
	struct out head = { 0 };
	struct craft c;
	size_t tail;
	int err = make_stacks(o);

	if (err)
		return err;
	tail = o->trailer_at;
	craft_init(&c);
	craft_stack_block(&c, st, NRECS(st));
	if ((err = out_add(&head, o->p, tail)) || (err = craft_add(&head, &c)) ||
	    (err = out_add(&head, o->p + tail, o->len - tail))) {
		free(head.p);
		return err;
	}
	free(o->p);
	o->p = head.p;
	o->len = head.len;
	return 0;
}

/* A session with no TRAILER: a recorder killed after its last flush. */
static int make_no_trailer(struct out *o)
{
	return session_write(o, HOST, 0, syscall_recs, 3, false);
}

/* `cat a.sct b.sct`: two sessions from two hosts, each with its own HEADER and TRAILER. */
static int make_concatenated(struct out *o)
{
	const struct sct_record b[] = { task_recs[0], syscall_recs[0], exit_recs[1] };
	int err = session_write(o, "host-a", 0, syscall_recs, 2, true);

	return err ? err : session_write(o, "host-b", 0, b, NRECS(b), true);
}

/*
 * The concatenated file with one bit flipped inside host-b's HEADER: its checksum fails, and
 * host-b's blocks belong to no session (not to host-a's).
 */
static int make_bad_header(struct out *o)
{
	const struct sct_record b[] = { task_recs[0], syscall_recs[0], exit_recs[1] };
	int err = session_write(o, "host-a", 0, syscall_recs, 2, true);
	size_t b_at = o->len;

	if (!err)
		err = session_write(o, "host-b", 0, b, NRECS(b), true);
	if (!err)
		o->p[b_at + 12 + 100] ^= 0x01;
	return err;
}

/* Only the label: what a writer killed after its first write leaves (an incomplete session). */
static int make_label_only(struct out *o)
{
	static const uint8_t label[] = { 0xd9, 0xd9, 0xf8, 0xda, 0x53, 0x43, 0x54, 0x46,
					 0x43, 0x42, 0x4f, 0x52 };

	return out_add(o, label, sizeof(label));
}

static const struct example {
	const char *name;
	int (*make)(struct out *o);
} examples[] = {
	{ "syscall", make_syscall },
	{ "task", make_task },
	{ "fork", make_fork },
	{ "exec", make_exec },
	{ "exit", make_exit },
	{ "cgroup", make_cgroup },
	{ "lost", make_lost },
	{ "warning", make_warning },
	{ "all_types", make_all_types },
	{ "attribution", make_attribution },
	{ "sample", make_sample },
	{ "recording", make_recording },
	{ "bad_recording_id", make_bad_recording_id },
	{ "args", make_args },
	{ "totals", make_totals },
	{ "bad_totals", make_bad_totals },
	{ "stacks", make_stacks },
	{ "bad_stack", make_bad_stack },
	{ "captures", make_captures },
	{ "small", make_small },
	{ "multi_block", make_multi_block },
	{ "truncated", make_truncated },
	{ "corrupt_block", make_corrupt_block },
	{ "bad_block", make_bad_block },
	{ "unknown_types", make_unknown_types },
	{ "schema_edges", make_schema_edges },
	{ "key_versions", make_key_versions },
	{ "header_strings", make_header_strings },
	{ "no_trailer", make_no_trailer },
	{ "concatenated", make_concatenated },
	{ "bad_header", make_bad_header },
	{ "label_only", make_label_only },
};

static int file_write(const char *dir, const char *name, const struct out *o)
{
	char path[4096];
	size_t done = 0;
	int fd, err = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s.sct", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (done < o->len) {
		ssize_t n = write(fd, o->p + done, o->len - done);

		if (n < 0) {
			err = -errno;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n  writes the example traces of spec/examples\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < NRECS(examples); i++) {
		struct out o = { 0 };
		int err = examples[i].make(&o);

		if (!err)
			err = file_write(argv[1], examples[i].name, &o);
		if (err) {
			fprintf(stderr, "make_examples: %s: %s\n", examples[i].name, sct_strerror(err));
			status = 1;
		}
		free(o.p);
	}
	return status;
}
