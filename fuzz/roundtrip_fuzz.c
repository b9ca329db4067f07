// SPDX-License-Identifier: BSD-2-Clause
/*
 * Property: what the writer writes, the reader reads back unchanged. The input is taken as a
 * recipe: block size, then records of every type with values drawn at every width (0, small,
 * full 64-bit, negative) and strings of any bytes, appended through either append call with
 * flushes in between, in a session with or without syscall arguments (SYSCALL paths, path
 * and path2, often repeat the previous one of their column or the call's other path, so
 * blocks refer to their path tables, one per column) and with or without the memory they
 * point to (format 1.7: addr, argv, data). They are written to a memfd, read
 * back, and compared field by field; a clean file must produce no diagnostic at all. SAMPLEs refer
 * to a fixed event table whose fields lie anywhere (past short payloads, __data_loc and
 * __rel_loc), and every field of every SAMPLE read back is decoded: ASan sees any read
 * outside the payload.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "records.def"
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

#define EXPECT(c) do { if (!(c)) abort(); } while (0)

/* How a record is appended: bit 0 through the SYSCALL hot path, bit 1 then flush. */
enum { VIA_HOT_PATH = 1, THEN_FLUSH = 2 };

/* Every field of the record's type (records.def), drawn at every width and cut to its member. */
#define TAKE_UINT(x) (__typeof__(x))take_u64(rc)
#define TAKE_TIME(x) (__typeof__(x))take_u64(rc)
#define TAKE_SINT(x) (__typeof__(x))(int64_t)take_u64(rc)
#define TAKE_BYTES(x) take_bytes(rc)
#define TAKE_FIELD(t, member, kind, unit) r->t.member = TAKE_##kind(r->t.member);
#define TAKE_TYPE(TYPE, name, FIELDS) case SCT_REC_##TYPE: FIELDS(TAKE_FIELD, name) break;

static const struct sct_event_field ev_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "common_pid", "int", 4, 4, 1, 0 },
	{ "name", "__data_loc char[]", 8, 4, 1, 1 },
	{ "rel", "__rel_loc u8[]", 12, 4, 0, 2 },
	{ "comm", "char comm[16]", 16, 16, 1, 0 },
	{ "args", "unsigned long args[6]", 32, 48, 0, 0 },
	{ "odd", "u8 odd[3]", 80, 7, 1, 0 },
	{ "wide", "__u128", 88, 16, 0, 0 },
	{ "last", "u64", 65528, 8, 0, 0 },
};
static const struct sct_event_desc events[] = {
	{ "fuzz:all_kinds", ev_fields, sizeof(ev_fields) / sizeof(ev_fields[0]) },
	{ "fuzz:none", NULL, 0 },
};
#define NEVENTS (sizeof(events) / sizeof(events[0]))

/*
 * The captured memory as a session with it stores it: an addr of at most SCT_MAX_ADDR bytes,
 * an argv cut after its last NUL (the writer refuses one that does not end in NUL); none in a
 * session without it.
 */
static void take_syscall_captures(struct sct_syscall *sc, bool captures)
{
	if (!captures) {
		memset(&sc->addr_flags, 0, sizeof(*sc) - offsetof(struct sct_syscall, addr_flags));
		return;
	}
	if (sc->addr.len > SCT_MAX_ADDR)
		sc->addr.len = SCT_MAX_ADDR;
	while (sc->argv.len && sc->argv.ptr[sc->argv.len - 1])
		sc->argv.len--;
}

/*
 * A SYSCALL as the session stores it: no argument fields without arguments. prev holds the
 * last path and path2: repeated, they are references to the block's table of their column;
 * path2 as the call's own path is new to path2's table.
 */
static void take_syscall_args(struct recipe *rc, struct sct_syscall *sc, bool args, bool captures,
			      struct sct_bytes prev[2])
{
	uint32_t stack_id = sc->stack_id;
	uint8_t reuse;

	sc->path_ref = sc->path2_ref = 0; /* the writer's to choose */
	take_syscall_captures(sc, args && captures);
	if (!args) {
		memset(&sc->arg0, 0, offsetof(struct sct_syscall, stack_id) -
				     offsetof(struct sct_syscall, arg0));
		sc->stack_id = stack_id;
		return;
	}
	reuse = take_u8(rc);
	if (reuse & 1)
		sc->path = prev[0];
	if (reuse & 2)
		sc->path2 = prev[1];
	else if (reuse & 4)
		sc->path2 = sc->path;
	prev[0] = sc->path;
	prev[1] = sc->path2;
}

/*
 * A TOTALS record the writer takes: calls is what its histogram counts, and a histogram that
 * does not parse is left empty (the reader harness covers damaged ones).
 */
static void take_totals(struct sct_totals *t)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	uint64_t sum = 0;
	int rc;

	t->hist_bits %= SCT_HIST_MAX_BITS + 1;
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while ((rc = sct_hist_next(&it, &bin)) > 0 && bin.count <= UINT64_MAX - sum)
		sum += bin.count;
	if (rc) {
		t->hist.len = 0;
		sum = 0;
	}
	t->calls = sum;
}

/*
 * A STACK, MODULE or SYMBOL the writer takes: frames that do not parse (or pass 256 frames) are
 * left empty, ids 0 become 1, a build id is cut to 64 bytes (the reader harness covers damage).
 */
static void take_stacks(struct sct_record *r)
{
	if (r->type == SCT_REC_STACK) {
		r->stack.stack_id += !r->stack.stack_id;
		if (sct_stack_check(&r->stack))
			r->stack.frames.len = 0;
	}
	if (r->type == SCT_REC_MODULE) {
		r->module.module_id += !r->module.module_id;
		if (r->module.build_id.len > SCT_MAX_BUILD_ID)
			r->module.build_id.len = SCT_MAX_BUILD_ID;
	}
}

/* The record types a session takes: TOTALS with "filter", STACK .. SYMBOL with "stacks". */
static uint32_t pick_type(uint8_t t, bool filter, bool stacks)
{
	uint32_t types[SCT_REC_MAX], n = 0;

	for (uint32_t type = 1; type <= SCT_REC_MAX; type++)
		if ((type != SCT_REC_TOTALS || filter) && (type < SCT_REC_STACK || stacks))
			types[n++] = type;
	return types[t % n];
}

static void take_record(struct recipe *rc, struct sct_record *r, uint8_t *how, bool args,
			bool captures, bool filter, bool stacks, struct sct_bytes prev[2])
{
	uint8_t t = take_u8(rc);

	memset(r, 0, sizeof(*r));
	r->type = pick_type(t & 63, filter, stacks);
	*how = (uint8_t)(t >> 6);
	switch (r->type) {
	RECORD_TYPES(TAKE_TYPE)
	}
	if (r->type == SCT_REC_SAMPLE)
		r->sample.event %= NEVENTS;
	if (r->type == SCT_REC_SYSCALL)
		take_syscall_args(rc, &r->syscall, args, captures, prev);
	if (r->type == SCT_REC_TOTALS)
		take_totals(&r->totals);
	take_stacks(r);
	/* a session without "stacks" has no stack_id */
	if (r->type == SCT_REC_SYSCALL && !stacks)
		r->syscall.stack_id = 0;
}

/* What the decoded fields add up to: kept, so the reads are not optimised away. */
static volatile uint64_t sink;

/* Every field of a sample's event, decoded from its payload as read back. */
static void sample_decode(const struct sct_session *s, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = sct_session_event(s, sm->event);
	struct sct_sample_value v;

	EXPECT(ev && !strcmp(ev->name, events[sm->event].name));
	for (uint32_t k = 0; k < ev->nfields; k++) {
		uint64_t sum = 0;

		switch (sct_sample_field(&ev->fields[k], sm->payload, &v)) {
		case SCT_SAMPLE_STRING:
			for (uint32_t i = 0; i < v.bytes.len; i++)
				sum += v.bytes.ptr[i];
			break;
		case SCT_SAMPLE_ARRAY:
			for (uint32_t i = 0; i < v.bytes.len / v.elem; i++)
				sum += sct_sample_elem(&v, i);
			break;
		default:
			break;
		}
		sink += sum;
		EXPECT(v.kind <= SCT_SAMPLE_BAD);
	}
}

static void expect_bytes(struct sct_bytes a, struct sct_bytes b)
{
	if (a.len != b.len || (a.len && memcmp(a.ptr, b.ptr, a.len)))
		abort();
}


/* Field by field (records.def): the structs have padding, memcmp of whole records is wrong. */
#define EXPECT_UINT(x, y) EXPECT((x) == (y))
#define EXPECT_TIME(x, y) EXPECT((x) == (y))
#define EXPECT_SINT(x, y) EXPECT((x) == (y))
#define EXPECT_BYTES(x, y) expect_bytes(x, y)
#define EXPECT_FIELD(t, member, kind, unit) EXPECT_##kind(a->t.member, b->t.member);
#define EXPECT_TYPE(TYPE, name, FIELDS) case SCT_REC_##TYPE: FIELDS(EXPECT_FIELD, name) break;

static void expect_record(const struct sct_record *want, const struct sct_record *b)
{
	struct sct_record copy = *want;
	const struct sct_record *a = &copy;

	/* the references the writer chose: what they refer to is checked as path and path2 */
	if (copy.type == SCT_REC_SYSCALL) {
		copy.syscall.path_ref = b->syscall.path_ref;
		copy.syscall.path2_ref = b->syscall.path2_ref;
	}
	EXPECT(a->type == b->type);
	switch (a->type) {
	RECORD_TYPES(EXPECT_TYPE)
	default:
		abort();
	}
}

static void no_diag(void *ctx, const struct sct_diag *d)
{
	(void)ctx;
	(void)d;
	abort(); /* a file the writer closed cleanly has no damage to report */
}

static const struct sct_syscall_name names[] = { { 0, "read" }, { 1, "write" } };

static const struct sct_syscall_args arg_descs[] = {
	{ 257, 2, { { "dfd", SCT_ARG_DIRFD, "" }, { "filename", SCT_ARG_PATH, "" } } },
	{ 82, 2, { { "oldname", SCT_ARG_PATH, "" }, { "newname", SCT_ARG_PATH, "" } } },
};

static const struct sct_header_filter filter_info = { "-S %file --failed", "filtered", "all" };
static const struct sct_header_stacks stacks_info = { "both", 127, "fp" };
static const struct sct_header_captures captures_info = { SCT_MAX_ARGV, SCT_MAX_STRING, SCT_MAX_STRING };

static void write_recs(int fd, uint32_t block_records, bool args, bool captures, bool filter,
		       bool stacks, const struct sct_record *recs, const uint8_t *how, size_t n)
{
	struct sct_header_info info = {
		.producer = "roundtrip_fuzz", .clock = "CLOCK_MONOTONIC",
		.syscalls = names, .nsyscalls = 2,
		.events = events, .nevents = NEVENTS, .backend = "perf", .sample_cgroup = "kernel",
		.recording_id = "00112233445566778899aabbccddeeff", .sequence = 1,
	};
	const struct sct_writer_opts opts = { .block_records = block_records, .no_fsync = true };
	struct sct_writer *w;
	int err = 0;

	if (args) {
		info.syscall_args = arg_descs;
		info.nsyscall_args = sizeof(arg_descs) / sizeof(arg_descs[0]);
		info.args_max = 4096;
		info.args_paths = "enter";
		info.captures = captures ? &captures_info : NULL;
	}
	if (filter)
		info.filter = &filter_info;
	if (stacks)
		info.stacks = &stacks_info;
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
		if (got.type == SCT_REC_SAMPLE)
			sample_decode(sct_reader_session(r), &got.sample);
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
	uint8_t head = take_u8(&rc);
	uint32_t block_records = head % 16 + 1;
	bool args = head & 0x10, filter = head & 0x20, stacks = head & 0x40, captures = head & 0x80;
	struct sct_bytes prev[2] = { { NULL, 0 }, { NULL, 0 } };
	size_t n = 0;
	int fd, wfd;

	for (; rc.left && n < MAX_RECS; n++)
		take_record(&rc, &recs[n], &how[n], args, captures, filter, stacks, prev);
	fd = memfd_create("roundtrip", 0);
	EXPECT(fd >= 0);
	wfd = dup(fd); /* the writer owns and closes its fd */
	EXPECT(wfd >= 0);
	write_recs(wfd, block_records, args, captures, filter, stacks, recs, how, n);
	read_back(fd, recs, n);
	close(fd);
	return 0;
}
