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
 *   gen_fleet one OUT N HOST RECORDING SEQUENCE   one file of that identity (HOST any bytes;
 *                           RECORDING "-": none), N syscalls of that mix
 *   gen_fleet totals OUT N HOST   a filtered recording (format 1.5, "--failed"): of N syscalls
 *                           of that mix (the unfinished left out), the failed ones in detail
 *                           and all of them in TOTALS records, flushed every 500 us of trace
 *                           time, per process, cgroup and syscall
 *   gen_fleet stacks OUT N HOST RECORDING SEQUENCE   a recording with call stacks (format 1.6,
 *                           "both") of that identity, N syscalls of that mix: each under one
 *                           of 8 stacks (kernel and user frames, names with quotes,
 *                           backslashes, ';', blanks, a tab and bytes that are not ASCII, a
 *                           module-0 frame, an address no symbol covers), none, or a stack
 *                           no STACK defines; each STACK stored before its first call
 * and for the security tests, files sct's writer never writes:
 *   gen_fleet set-id FILE OLD NEW   the recording id OLD of FILE's first HEADER replaced by
 *                           NEW (as long, any bytes), its frame's CRC made right again
 *   gen_fleet badcol OUT NAME   a file whose SYSCALL records have a field NAME more (any
 *                           bytes): no table has that column (no trailer: --settle 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../format/format_craft.h"
#include "records.def"
#include "sct.h"

static const struct sct_syscall_name names[] = {
	{ 0, "read" }, { 1, "write" }, { 3, "close" }, { 257, "openat" }, { 232, "epoll_wait" },
};

struct host {
	const char *file, *name, *boot_id, *recording;
	uint64_t sequence, cgroup_base;
	const char *cgroups[4];
	bool losses;
	bool filtered; /* the failed calls in detail, every call in TOTALS (gen_filtered()) */
	bool stacks;   /* HEADER "stacks": the calls have a stack_id (gen_stack()) */
};

static const struct host hosts[] = {
	{ "web1-1.sct", "web1", "11111111-aaaa-4bbb-8ccc-000000000001", "0123456789abcdef0123456789abcdef", 1, 100,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/user.slice/user-1000.slice", "/" }, false, false, false },
	{ "web1-2.sct", "web1", "11111111-aaaa-4bbb-8ccc-000000000001", "0123456789abcdef0123456789abcdef", 2, 100,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/user.slice/user-1000.slice", "/" }, false, false, false },
	{ "web2-1.sct", "web2", "22222222-aaaa-4bbb-8ccc-000000000002", "fedcba9876543210fedcba9876543210", 1, 200,
	  { "/system.slice/nginx.service", "/system.slice/sshd.service", "/system.slice/cron.service", "/" }, true, false, false },
	{ "db2.sct", "db2", "33333333-aaaa-4bbb-8ccc-000000000003", NULL, 0, 300,
	  { "/system.slice/postgresql.service", "/system.slice/sshd.service", "/system.slice/backup.service", "/" },
	  false, false, false },
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

/* The stacks mode's user module (1) and kernel (2): their MODULE and SYMBOL records. */
#define GEN_KBASE 0xffffffff81000000ull
static const struct {
	uint32_t module;
	uint64_t addr, size;
	const char *name;
} gen_syms[] = {
	{ 1, 0x1000, 0x100, "main" },           { 1, 0x1100, 0x100, "serve" },
	{ 1, 0x1200, 0x100, "handle'it\\now" }, { 1, 0x1300, 0x100, "log;write them\tall" },
	{ 1, 0x1400, 0x100, "_ZN2db5queryEv" }, { 1, 0x1500, 0x100, "caf\xc3\xa9 \xff" },
	{ 2, GEN_KBASE, 0x100, "do_syscall_64" }, { 2, GEN_KBASE + 0x100, 0x100, "entry_SYSCALL_64" },
};
#define GEN_STACKS 8
#define GEN_NO_STACK 99 /* a stack id no STACK defines */

static int gen_modules(struct sct_writer *w, uint64_t t)
{
	struct sct_record r = { .type = SCT_REC_MODULE };
	int err;

	r.module = (struct sct_module){ .time_ns = t, .module_id = 1, .kind = SCT_MODULE_ELF,
					.build_id = B("\x12\x34"), .path = B("/usr/bin/db'server") };
	err = gen_append(w, &r, 0);
	r.module = (struct sct_module){ .time_ns = t, .module_id = 2, .kind = SCT_MODULE_KERNEL,
					.path = B("[kernel.kallsyms]") };
	err = gen_append(w, &r, err);
	for (size_t i = 0; i < sizeof(gen_syms) / sizeof(gen_syms[0]); i++) {
		r = (struct sct_record){ .type = SCT_REC_SYMBOL };
		r.symbol = (struct sct_symbol){ .time_ns = t, .module_id = gen_syms[i].module, .addr = gen_syms[i].addr,
						.size = gen_syms[i].size, .name = B(gen_syms[i].name) };
		err = gen_append(w, &r, err);
	}
	return err;
}

/*
 * Stack id (1 .. GEN_STACKS): the kernel's two frames, then user frames innermost first down
 * to main; id 7 has an address no symbol covers, id 8 a frame of module 0. Its STACK is
 * written before the first call that names it.
 */
static int gen_stack(struct sct_writer *w, uint32_t id, uint32_t pid, uint64_t t, bool *stored)
{
	struct sct_frame f[8] = { { 2, GEN_KBASE + 0x10 }, { 2, GEN_KBASE + 0x100 } };
	uint8_t buf[256];
	struct sct_record r = { .type = SCT_REC_STACK };
	size_t n = 2;
	int len;

	if (stored[id])
		return 0;
	stored[id] = true;
	for (uint32_t k = id; k > 1 && n < 6; k /= 2)
		f[n++] = (struct sct_frame){ 1, 0x1000 + 0x100 * (k % 6) + id };
	f[n++] = (struct sct_frame){ 1, id == 7 ? 0x9000 : 0x1020 };
	if (id == 8)
		f[n++] = (struct sct_frame){ 0, 0x7ffd00001234 };
	len = sct_stack_frames_encode(f, n, buf, sizeof(buf));
	if (len < 0)
		return len;
	r.stack = (struct sct_stack){ .time_ns = t, .stack_id = id, .pid = pid, .frames = { buf, (uint32_t)len } };
	return sct_writer_append(w, &r);
}

/* N syscalls: a fixed pseudo-random mix, so every run writes the same file. */
static int gen_syscalls(struct sct_writer *w, const struct host *h, unsigned long long n, uint64_t t)
{
	static const uint32_t nrs[8] = { 0, 1, 1, 1, 3, 257, 257, 232 };
	uint64_t x = 88172645463325252ull ^ h->cgroup_base ^ h->sequence;
	bool stored[GEN_STACKS + 1] = { false };
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
		/* of ten calls, 8 under a stack, one without, one under a stack its file lacks */
		sc.stack_id = !h->stacks ? 0 : (x >> 4) % 10 == 9 ? GEN_NO_STACK : (uint32_t)((x >> 4) % 10 % 9);
		if (sc.stack_id && sc.stack_id <= GEN_STACKS)
			err = gen_stack(w, sc.stack_id, sc.pid, t, stored);
		t += 100 + (x >> 58);
		if (!err)
			err = sct_writer_append_syscall(w, &sc);
	}
	return err;
}

/* The calls of one TOTALS key in the current interval. */
struct gen_key {
	uint64_t *durs;
	uint32_t n, cap;
	uint64_t errors;
};

static int gen_dur_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One key's TOTALS record for (since, t], its histogram from its sorted durations. */
static int gen_totals_one(struct sct_writer *w, struct gen_key *k, uint32_t task, uint32_t nr, uint64_t cg,
			  uint64_t since, uint64_t t)
{
	struct sct_record r = { .type = SCT_REC_TOTALS, .totals = { .time_ns = t, .since_ns = since,
		.cgroup_id = cg, .pid = 1000 + task, .nr = nr, .calls = k->n, .errors = k->errors,
		.hist_bits = SCT_HIST_BITS } };
	struct sct_hist_bin *bins = calloc(k->n, sizeof(*bins));
	uint8_t *buf = malloc(SCT_HIST_MAX_BYTES(k->n));
	uint32_t nbins = 0;
	int64_t len;
	int err;

	if (!bins || !buf) {
		free(bins);
		free(buf);
		return -12;
	}
	qsort(k->durs, k->n, sizeof(k->durs[0]), gen_dur_cmp);
	for (uint32_t i = 0; i < k->n; i++) {
		uint64_t b = sct_hist_bucket(k->durs[i], SCT_HIST_BITS);

		r.totals.duration_ns += k->durs[i];
		if (nbins && bins[nbins - 1].bucket == b)
			bins[nbins - 1].count++;
		else
			bins[nbins++] = (struct sct_hist_bin){ b, 1 };
	}
	r.totals.max_ns = k->durs[k->n - 1];
	len = sct_hist_encode(bins, nbins, SCT_HIST_BITS, buf, SCT_HIST_MAX_BYTES(k->n));
	r.totals.hist = (struct sct_bytes){ buf, len > 0 ? (uint32_t)len : 0 };
	err = len < 0 ? (int)len : sct_writer_append(w, &r);
	free(bins);
	free(buf);
	k->n = 0;
	k->errors = 0;
	return err;
}

/* Every key with calls in (since, t]. */
static int gen_totals_flush(struct sct_writer *w, const struct host *h, struct gen_key keys[4][5],
			    const uint32_t *nrs, uint64_t since, uint64_t t)
{
	int err = 0;

	for (uint32_t task = 0; task < 4; task++)
		for (uint32_t j = 0; j < 5 && !err; j++)
			if (keys[task][j].n)
				err = gen_totals_one(w, &keys[task][j], task, nrs[j], h->cgroup_base + task, since, t);
	return err;
}

static int gen_key_add(struct gen_key *k, uint64_t dur, bool failed)
{
	if (k->n == k->cap) {
		uint32_t cap = k->cap ? 2 * k->cap : 64;
		uint64_t *tmp = realloc(k->durs, cap * sizeof(*tmp));

		if (!tmp)
			return -12;
		k->durs = tmp;
		k->cap = cap;
	}
	k->durs[k->n++] = dur;
	k->errors += failed;
	return 0;
}

/* The mix of gen_syscalls(): the failed calls in detail, every returned call in TOTALS. */
static int gen_filtered(struct sct_writer *w, const struct host *h, unsigned long long n, uint64_t t)
{
	static const uint32_t nrs[8] = { 0, 1, 1, 1, 3, 257, 257, 232 }, knrs[5] = { 0, 1, 3, 257, 232 };
	static struct gen_key keys[4][5];
	uint64_t x = 88172645463325252ull ^ h->cgroup_base ^ h->sequence, since = t, next = t + 500000;
	int err = 0;

	for (unsigned long long i = 0; i < n && !err; i++) {
		struct sct_syscall sc = { .time_ns = t };
		uint32_t task, j = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		task = (uint32_t)(x >> 8) & 3;
		sc.pid = sc.tid = 1000 + task;
		sc.cgroup_id = h->cgroup_base + task;
		sc.nr = nrs[(x >> 16) & 7];
		sc.duration_ns = 200 + (x >> 24) % (sc.nr == 232 ? 5000000 : 20000);
		sc.ret = (x >> 40) % 32 == 0 ? -(int64_t)(2 + (x >> 50) % 12) : (int64_t)((x >> 45) & 255);
		t += 100 + (x >> 58);
		if ((x >> 56) % 100 == 0)
			continue;
		/* a call counts in the interval of its return */
		while (sc.time_ns + sc.duration_ns > next && !err) {
			err = gen_totals_flush(w, h, keys, knrs, since, next);
			since = next;
			next += 500000;
		}
		while (knrs[j] != sc.nr)
			j++;
		if (!err)
			err = gen_key_add(&keys[task][j], sc.duration_ns, sc.ret < 0);
		if (!err && sc.ret < 0)
			err = sct_writer_append_syscall(w, &sc);
	}
	return err ? err : gen_totals_flush(w, h, keys, knrs, since, next);
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
	const struct sct_header_filter filter = { "--failed", "filtered", "all" };
	const struct sct_header_stacks stacks = { "both", 64, "fp" };
	struct sct_writer_opts opts = { .no_fsync = true };
	uint64_t t = info.anchor_clock_ns + 1000;
	int err = 0;
	struct sct_writer *w;

	info.filter = h->filtered ? &filter : NULL;
	info.stacks = h->stacks ? &stacks : NULL;
	w = sct_writer_open(path, true, &info, &opts, &err);
	if (!w) {
		fprintf(stderr, "gen_fleet: %s: %s\n", path, sct_strerror(err));
		return 1;
	}
	err = gen_tasks(w, h, t);
	if (!err && h->losses)
		err = gen_losses(w, t + 10);
	if (!err && h->stacks)
		err = gen_modules(w, t + 20);
	if (!err && h->filtered)
		err = gen_filtered(w, h, n, t + 100);
	else if (!err)
		err = gen_syscalls(w, h, n, t + 100);
	if (err) {
		fprintf(stderr, "gen_fleet: %s: %s\n", path, sct_strerror(err));
		sct_writer_abandon(w);
		return 1;
	}
	return sct_writer_close(w) ? 1 : 0;
}

/* The first HEADER frame's body in the file's bytes: [*body, *body + *len), the frame from *frame. */
static int gen_header_body(uint8_t *p, size_t size, size_t *frame, size_t *body, size_t *len)
{
	size_t at = 12 + 2, n; /* the label, then 83 01 */

	if (size < at + 1 || p[12] != 0x83 || p[13] != 0x01)
		return -1;
	n = p[at] == 0x58 ? 1 : p[at] == 0x59 ? 2 : p[at] == 0x5a ? 4 : 0;
	if (!n || size < at + 1 + n)
		return -1;
	*len = 0;
	for (size_t i = 0; i < n; i++)
		*len = *len << 8 | p[at + 1 + i];
	*frame = 12;
	*body = at + 1 + n;
	return *body + *len + 5 <= size ? 0 : -1;
}

static int gen_set_id(const char *path, const char *old, const char *new)
{
	FILE *f = fopen(path, "r+b");
	static uint8_t p[1 << 20];
	size_t size = f ? fread(p, 1, sizeof(p), f) : 0, frame, body, len;
	uint8_t *at;
	uint32_t crc;

	if (!size || strlen(old) != strlen(new) || gen_header_body(p, size, &frame, &body, &len) ||
	    !(at = memmem(p + body, len, old, strlen(old)))) {
		fprintf(stderr, "gen_fleet: %s: no HEADER holding %s, or ids of other lengths\n", path, old);
		return 1;
	}
	memcpy(at, new, strlen(new));
	crc = (uint32_t)crc32(0, p + frame, (uInt)(body + len - frame));
	for (int i = 0; i < 4; i++)
		p[body + len + 1 + i] = (uint8_t)(crc >> (24 - 8 * i));
	if (fseek(f, 0, SEEK_SET) || fwrite(p, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "gen_fleet: %s: cannot write\n", path);
		return 1;
	}
	return 0;
}

/* Two syscalls whose records carry one field more than the built-in SYSCALL type, named name. */
static int gen_badcol(const char *path, const char *name)
{
	const struct sct_type_schema *sc = sct_schema_builtin(SCT_REC_SYSCALL);
	uint32_t base = RECORD_NFIELDS(RECORD_SYSCALL_BASE_FIELDS);
	struct sct_field_schema fields[64];
	struct craft_col cols[64];
	static const uint64_t v[2] = { 1100, 1200 };
	struct craft_type t = { .type = SCT_REC_SYSCALL, .name = sc->name, .nfields = base + 1, .fields = fields };
	struct craft_run run = { SCT_REC_SYSCALL, 2 };
	struct craft c;
	FILE *f;

	memcpy(fields, sc->fields, base * sizeof(fields[0]));
	fields[base] = (struct sct_field_schema){ .name = name, .kind = SCT_KIND_UINT, .unit = "" };
	for (uint32_t i = 0; i <= base; i++)
		cols[i] = (struct craft_col){ .kind = fields[i].kind == SCT_KIND_BYTES ? SCT_KIND_UINT : fields[i].kind,
					      .v = v };
	craft_init(&c);
	craft_session(&c, 1, 0, &t, 1);
	craft_block(&c, &run, 1, &(struct craft_section){ .type = SCT_REC_SYSCALL, .count = 2, .ncols = base + 1,
							  .cols = cols }, 1);
	f = fopen(path, "wb");
	if (!f || fwrite(c.p, 1, c.len, f) != c.len || fclose(f)) {
		fprintf(stderr, "gen_fleet: %s: cannot write\n", path);
		return 1;
	}
	craft_free(&c);
	return 0;
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
	if (argc == 5 && !strcmp(argv[1], "totals")) {
		struct host filt = hosts[0];

		filt.name = argv[4];
		filt.recording = NULL;
		filt.sequence = 0;
		filt.filtered = true;
		return gen_file(argv[2], &filt, n);
	}
	if (argc == 7 && !strcmp(argv[1], "one")) {
		struct host one = hosts[0];

		one.name = argv[4];
		one.recording = strcmp(argv[5], "-") ? argv[5] : NULL;
		one.sequence = strtoull(argv[6], NULL, 10);
		return gen_file(argv[2], &one, n);
	}
	if (argc == 7 && !strcmp(argv[1], "stacks")) {
		struct host st = hosts[3];

		st.name = argv[4];
		st.recording = strcmp(argv[5], "-") ? argv[5] : NULL;
		st.sequence = strtoull(argv[6], NULL, 10);
		st.stacks = true;
		return gen_file(argv[2], &st, n);
	}
	if (argc == 5 && !strcmp(argv[1], "set-id"))
		return gen_set_id(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "badcol"))
		return gen_badcol(argv[2], argv[3]);
	fprintf(stderr, "usage: gen_fleet fleet DIR N | big OUT N HOST | one OUT N HOST RECORDING SEQUENCE |\n"
		"       stacks OUT N HOST RECORDING SEQUENCE | set-id FILE OLD NEW | badcol OUT NAME\n");
	return 2;
}
