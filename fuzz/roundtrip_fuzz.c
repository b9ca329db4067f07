// SPDX-License-Identifier: BSD-2-Clause
/*
 * Property: what the writer writes, the reader reads back unchanged. The input is taken as a
 * recipe: block size, then records of every type with values drawn at every width (0, small,
 * full 64-bit, negative) and strings of any bytes, appended through either append call with
 * flushes in between. They are written to a memfd, read back,
 * and compared field by field; a clean file must produce no diagnostic at all.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sct.h"

#define MAX_RECS 512
#define MAX_STR 1024

struct recipe {
	const uint8_t *p;
	size_t left;
};

static uint8_t take_u8(struct recipe *rc)
{
	if (!rc->left)
		return 0;
	rc->left--;
	return *rc->p++;
}

/* A value of 0 to 8 bytes, so 0, small and full-width values are all likely. */
static uint64_t take_u64(struct recipe *rc)
{
	unsigned n = take_u8(rc) % 9;
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | take_u8(rc);
	return v;
}

static struct sct_bytes take_bytes(struct recipe *rc)
{
	size_t len = (size_t)take_u64(rc) % (MAX_STR + 1);
	struct sct_bytes b;

	if (len > rc->left)
		len = rc->left;
	b.ptr = rc->p;
	b.len = (uint32_t)len;
	rc->p += len;
	rc->left -= len;
	return b;
}

/* How a record is appended: bit 0 through the SYSCALL hot path, bit 1 then flush. */
enum { VIA_HOT_PATH = 1, THEN_FLUSH = 2 };

static void take_record(struct recipe *rc, struct sct_record *r, uint8_t *how)
{
	uint8_t t = take_u8(rc);

	memset(r, 0, sizeof(*r));
	r->type = t % SCT_REC_MAX + 1;
	*how = (uint8_t)(t >> 6);
	switch (r->type) {
	case SCT_REC_SYSCALL:
		r->syscall = (struct sct_syscall){
			.time_ns = take_u64(rc), .duration_ns = take_u64(rc),
			.cgroup_id = take_u64(rc), .ret = (int64_t)take_u64(rc),
			.pid = (uint32_t)take_u64(rc), .tid = (uint32_t)take_u64(rc),
			.nr = (uint32_t)take_u64(rc), .abi = take_u8(rc), .unfinished = take_u8(rc),
		};
		break;
	case SCT_REC_TASK:
		r->task = (struct sct_task){
			.time_ns = take_u64(rc), .cgroup_id = take_u64(rc), .start_ns = take_u64(rc),
			.pid = (uint32_t)take_u64(rc), .tid = (uint32_t)take_u64(rc),
			.ppid = (uint32_t)take_u64(rc), .comm = take_bytes(rc),
		};
		break;
	case SCT_REC_FORK:
		r->fork = (struct sct_fork){
			.time_ns = take_u64(rc), .child_start_ns = take_u64(rc),
			.parent_pid = (uint32_t)take_u64(rc), .parent_tid = (uint32_t)take_u64(rc),
			.child_pid = (uint32_t)take_u64(rc), .child_tid = (uint32_t)take_u64(rc),
			.is_thread = take_u8(rc),
		};
		break;
	case SCT_REC_EXEC:
		r->exec = (struct sct_exec){
			.time_ns = take_u64(rc), .pid = (uint32_t)take_u64(rc),
			.tid = (uint32_t)take_u64(rc), .old_tid = (uint32_t)take_u64(rc),
			.filename = take_bytes(rc), .comm = take_bytes(rc),
		};
		break;
	case SCT_REC_EXIT:
		r->exit = (struct sct_exit){
			.time_ns = take_u64(rc), .start_ns = take_u64(rc),
			.pid = (uint32_t)take_u64(rc), .tid = (uint32_t)take_u64(rc),
			.exit_code = (int32_t)take_u64(rc), .signal = (uint32_t)take_u64(rc),
			.group_dead = take_u8(rc),
		};
		break;
	case SCT_REC_CGROUP:
		r->cgroup = (struct sct_cgroup){
			.time_ns = take_u64(rc), .cgroup_id = take_u64(rc), .path = take_bytes(rc),
		};
		break;
	case SCT_REC_LOST:
		r->lost = (struct sct_lost){
			.time_ns = take_u64(rc), .end_ns = take_u64(rc), .count = take_u64(rc),
			.cause = (uint32_t)take_u64(rc),
		};
		break;
	default:
		r->warning = (struct sct_warning){
			.time_ns = take_u64(rc), .count = take_u64(rc),
			.kind = (uint32_t)take_u64(rc), .text = take_bytes(rc),
		};
		break;
	}
}

static void expect_bytes(struct sct_bytes a, struct sct_bytes b)
{
	if (a.len != b.len || (a.len && memcmp(a.ptr, b.ptr, a.len)))
		abort();
}

#define EXPECT(c) do { if (!(c)) abort(); } while (0)

/* Field by field: the structs have padding, so memcmp of whole records would be wrong. */
static void expect_record(const struct sct_record *a, const struct sct_record *b)
{
	EXPECT(a->type == b->type);
	switch (a->type) {
	case SCT_REC_SYSCALL: {
		const struct sct_syscall *x = &a->syscall, *y = &b->syscall;

		EXPECT(x->time_ns == y->time_ns && x->duration_ns == y->duration_ns);
		EXPECT(x->cgroup_id == y->cgroup_id && x->ret == y->ret && x->pid == y->pid);
		EXPECT(x->tid == y->tid && x->nr == y->nr && x->abi == y->abi);
		EXPECT(x->unfinished == y->unfinished);
		break;
	}
	case SCT_REC_TASK: {
		const struct sct_task *x = &a->task, *y = &b->task;

		EXPECT(x->time_ns == y->time_ns && x->cgroup_id == y->cgroup_id);
		EXPECT(x->start_ns == y->start_ns && x->pid == y->pid && x->tid == y->tid);
		EXPECT(x->ppid == y->ppid);
		expect_bytes(x->comm, y->comm);
		break;
	}
	case SCT_REC_FORK: {
		const struct sct_fork *x = &a->fork, *y = &b->fork;

		EXPECT(x->time_ns == y->time_ns && x->child_start_ns == y->child_start_ns);
		EXPECT(x->parent_pid == y->parent_pid && x->parent_tid == y->parent_tid);
		EXPECT(x->child_pid == y->child_pid && x->child_tid == y->child_tid);
		EXPECT(x->is_thread == y->is_thread);
		break;
	}
	case SCT_REC_EXEC: {
		const struct sct_exec *x = &a->exec, *y = &b->exec;

		EXPECT(x->time_ns == y->time_ns && x->pid == y->pid && x->tid == y->tid);
		EXPECT(x->old_tid == y->old_tid);
		expect_bytes(x->filename, y->filename);
		expect_bytes(x->comm, y->comm);
		break;
	}
	case SCT_REC_EXIT: {
		const struct sct_exit *x = &a->exit, *y = &b->exit;

		EXPECT(x->time_ns == y->time_ns && x->start_ns == y->start_ns);
		EXPECT(x->pid == y->pid && x->tid == y->tid && x->exit_code == y->exit_code);
		EXPECT(x->signal == y->signal && x->group_dead == y->group_dead);
		break;
	}
	case SCT_REC_CGROUP:
		EXPECT(a->cgroup.time_ns == b->cgroup.time_ns);
		EXPECT(a->cgroup.cgroup_id == b->cgroup.cgroup_id);
		expect_bytes(a->cgroup.path, b->cgroup.path);
		break;
	case SCT_REC_LOST:
		EXPECT(a->lost.time_ns == b->lost.time_ns && a->lost.end_ns == b->lost.end_ns);
		EXPECT(a->lost.count == b->lost.count && a->lost.cause == b->lost.cause);
		break;
	default:
		EXPECT(a->warning.time_ns == b->warning.time_ns);
		EXPECT(a->warning.count == b->warning.count && a->warning.kind == b->warning.kind);
		expect_bytes(a->warning.text, b->warning.text);
		break;
	}
}

static void no_diag(void *ctx, const struct sct_diag *d)
{
	(void)ctx;
	(void)d;
	abort(); /* a file the writer closed cleanly has no damage to report */
}

static const struct sct_syscall_name names[] = { { 0, "read" }, { 1, "write" } };

static void write_recs(int fd, uint32_t block_records, const struct sct_record *recs,
		       const uint8_t *how, size_t n)
{
	const struct sct_header_info info = {
		.producer = "roundtrip_fuzz", .clock = "CLOCK_MONOTONIC",
		.syscalls = names, .nsyscalls = 2,
	};
	const struct sct_writer_opts opts = { .block_records = block_records, .no_fsync = true };
	struct sct_writer *w;
	int err = 0;

	w = sct_writer_open_fd(fd, &info, &opts, &err);
	EXPECT(w);
	for (size_t i = 0; i < n; i++) {
		if (recs[i].type == SCT_REC_SYSCALL && (how[i] & VIA_HOT_PATH))
			EXPECT(sct_writer_append_syscall(w, &recs[i].syscall) == 0);
		else
			EXPECT(sct_writer_append(w, &recs[i]) == 0);
		if (how[i] & THEN_FLUSH)
			EXPECT(sct_writer_flush(w) == 0);
	}
	EXPECT(sct_writer_records(w) == n);
	EXPECT(sct_writer_close(w) == 0);
}

static void read_back(int fd, const struct sct_record *recs, size_t n)
{
	const struct sct_trailer_info *t;
	struct sct_record got;
	struct sct_reader *r;
	size_t i = 0;
	int err = 0, rc;

	EXPECT(lseek(fd, 0, SEEK_SET) == 0);
	r = sct_reader_open_fd(fd, false, &err);
	EXPECT(r);
	sct_reader_set_diag(r, no_diag, NULL);
	EXPECT(sct_reader_next(r, &got) == 1 && got.type == SCT_REC_SESSION);
	while ((rc = sct_reader_next(r, &got)) == 1) {
		EXPECT(i < n);
		expect_record(&recs[i++], &got);
	}
	EXPECT(rc == 0 && i == n);
	t = sct_session_trailer(sct_reader_session(r));
	EXPECT(t);
	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		EXPECT(t->records[type] == sct_reader_stats(r)->records[type]);
	sct_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sct_record recs[MAX_RECS];
	static uint8_t how[MAX_RECS];
	struct recipe rc = { data, size };
	uint32_t block_records = take_u8(&rc) % 16 + 1;
	size_t n = 0;
	int fd, wfd;

	for (; rc.left && n < MAX_RECS; n++)
		take_record(&rc, &recs[n], &how[n]);
	fd = memfd_create("roundtrip", 0);
	EXPECT(fd >= 0);
	wfd = dup(fd); /* the writer owns and closes its fd */
	EXPECT(wfd >= 0);
	write_recs(wfd, block_records, recs, how, n);
	read_back(fd, recs, n);
	close(fd);
	return 0;
}
