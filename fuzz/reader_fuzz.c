// SPDX-License-Identifier: BSD-2-Clause
/*
 * Property: the reader survives any input. No crash, no sanitizer report, no hang, no
 * allocation past the harness's cap (make fuzz-run sets -malloc_limit_mb), and every
 * diagnostic and value it hands out is sane: ranges inside the input, strings readable to
 * their length. Each input is read twice: as given (exercising resync), and with every
 * envelope's checksum repaired (so mutations reach the HEADER and BLOCK decoders) and
 * records of schema-described unknown types delivered. For one input in four the second read is
 * done again through a file descriptor, and both must read exactly the same; for another one
 * in four it is done again with blocks decoded by two threads (sct_reader_set_jobs()), which
 * must read exactly the same as the reader alone: records, fields, sessions, diagnostics; for a
 * third one in four it is done again with SYSCALL runs as columns (sct_reader_next_batch()),
 * which must give the same records, the same SYSCALL fields and the same statistics, and
 * with arrays left lazy (sct_reader_set_batch_lazy()) and two batches in three filled, which
 * must give what eager arrays give with the unfilled batches' lazy arrays read as 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frame_fixup.h"
#include "sct.h"

/*
 * A BLOCK of a million width-0 rows takes a few dozen bytes: past this many records and fields
 * per read the harness would only measure its own field walk and run a few inputs a second.
 */
#define MAX_WORK (1u << 16)

/* Reading every byte makes ASan check that the pointer and length describe real memory; the
 * running hash of all that was read lets the memory and fd readers be compared. */
static volatile uint64_t sink;

static void touch(const uint8_t *p, size_t len)
{
	uint64_t h = sink;

	for (size_t i = 0; i < len; i++)
		h = h * 31 + p[i];
	sink = h;
}

static void touch_str(const char *s)
{
	if (!s)
		abort();
	touch((const uint8_t *)s, strlen(s));
}

struct input {
	size_t len;
};

static void diag_check(void *ctx, const struct sct_diag *d)
{
	const struct input *in = ctx;

	if (d->kind < SCT_DIAG_SKIPPED || d->kind > SCT_DIAG_BAD_RECORD)
		abort();
	if (d->offset > in->len || d->length > in->len - d->offset)
		abort();
	touch_str(d->text);
	if (strchr(d->text, '\n'))
		abort();
}

/* The event table keeps its limits whatever the HEADER claimed. */
static void events_walk(const struct sct_session *s)
{
	uint32_t n = sct_session_nevents(s);

	if (n > SCT_MAX_EVENTS || sct_session_event(s, n))
		abort();
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_event_desc *ev = sct_session_event(s, i);

		if (ev->nfields > SCT_MAX_EVENT_FIELDS || strlen(ev->name) > SCT_MAX_NAME)
			abort();
		touch_str(ev->name);
		for (uint32_t k = 0; k < ev->nfields; k++) {
			const struct sct_event_field *f = &ev->fields[k];

			if (f->offset > 65536 || f->size > 65536 - f->offset || f->data_loc > 2)
				abort();
			touch_str(f->name);
			touch_str(f->type);
		}
	}
}

/* One ABI's table of accessors: its count, its entries by position and by number. */
struct args_table {
	uint32_t (*count)(const struct sct_session *s);
	const struct sct_syscall_args *(*at)(const struct sct_session *s, uint32_t i);
	const struct sct_syscall_args *(*find)(const struct sct_session *s, uint32_t nr);
};

static const struct args_table args_tables[] = {
	{ sct_session_nsyscall_args, sct_session_syscall_args_at, sct_session_syscall_args },
	{ sct_session_ncompat_syscall_args, sct_session_compat_syscall_args_at,
	  sct_session_compat_syscall_args },
};

/* One ABI's argument descriptions keep their limits, sorted, each found by its number. */
static void args_table_walk(const struct sct_session *s, const struct args_table *t)
{
	uint32_t n = t->count(s);

	if (n > SCT_MAX_SYSCALL_ARGS || t->at(s, n) || (n && !sct_session_has_args(s)))
		abort();
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_syscall_args *a = t->at(s, i);

		if (a->nargs > SCT_MAX_ARGS || t->find(s, a->nr) != a ||
		    (i && t->at(s, i - 1)->nr >= a->nr))
			abort();
		for (uint32_t k = 0; k < a->nargs; k++) {
			if (a->args[k].kind >= SCT_ARG_NKINDS ||
			    strlen(a->args[k].name) > SCT_MAX_NAME || strlen(a->args[k].family) > SCT_MAX_NAME)
				abort();
			touch_str(sct_arg_kind_name(a->args[k].kind));
		}
	}
}

/*
 * Both ABIs' descriptions; a session before 1.4 has no compat ones, and one before 1.7 no
 * captures, whatever its HEADER holds; captures only with arguments, within their ranges.
 */
static void args_walk(const struct sct_session *s)
{
	const struct sct_header_captures *cap = sct_session_captures(s);
	uint32_t major, minor;

	sct_session_version(s, &major, &minor);
	if (sct_session_args_max(s) > SCT_MAX_ARGS_STRING ||
	    (major == 1 && minor < 4 && sct_session_ncompat_syscall_args(s)))
		abort();
	if (cap && ((major == 1 && minor < 7) || !sct_session_has_args(s) ||
		    cap->argv_max > SCT_MAX_ARGV || cap->argv_bytes > SCT_MAX_STRING ||
		    cap->data > SCT_MAX_STRING))
		abort();
	touch_str(sct_session_args_paths(s));
	for (size_t i = 0; i < sizeof(args_tables) / sizeof(args_tables[0]); i++)
		args_table_walk(s, &args_tables[i]);
}

/*
 * Every field of a sample, decoded from its payload; returns the work done, a unit per field
 * and per 256 bytes decoded (256 fields can each span a 64 KiB payload).
 */
static uint32_t sample_walk(const struct sct_session *s, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = s ? sct_session_event(s, sm->event) : NULL;
	struct sct_sample_value v;
	uint32_t work = 0;

	touch(sm->payload.ptr, sm->payload.len);
	for (uint32_t k = 0; ev && k < ev->nfields; k++) {
		switch (sct_sample_field(&ev->fields[k], sm->payload, &v)) {
		case SCT_SAMPLE_INT:
			sink += v.u;
			break;
		case SCT_SAMPLE_STRING:
			touch(v.bytes.ptr, v.bytes.len);
			break;
		case SCT_SAMPLE_ARRAY:
			for (uint32_t i = 0; i < v.bytes.len / v.elem; i++)
				sink += sct_sample_elem(&v, i);
			break;
		case SCT_SAMPLE_BAD:
			break;
		default:
			abort();
		}
		work += 1 + v.bytes.len / 256;
	}
	return work;
}

/* The HEADER's "stacks" (format 1.6): strings readable, a depth within its bound. */
static void stacks_walk(const struct sct_header_stacks *st)
{
	if (!st)
		return;
	if (st->depth > SCT_MAX_STACK_DEPTH)
		abort();
	touch_str(st->mode);
	touch_str(st->unwind);
}

static void session_walk(const struct sct_session *s)
{
	uint64_t clock_ns, realtime_ns;
	uint32_t major, minor;

	if (!s)
		return; /* blocks without a HEADER belong to no session */
	sct_session_version(s, &major, &minor);
	sct_session_anchor(s, &clock_ns, &realtime_ns);
	sink += major + minor + clock_ns + realtime_ns + sct_session_index(s);
	for (uint32_t k = 0; k <= SCT_SESSION_NKEYS; k++)
		touch_str(sct_session_get(s, (enum sct_session_key)k));
	for (uint32_t abi = 0; abi < 3; abi++) {
		for (uint32_t nr = 0; nr < 8; nr++) {
			const char *name = sct_session_syscall_name(s, nr, abi);

			if (name) {
				touch_str(name);
				if (sct_session_syscall_nr(s, name, abi) < 0)
					abort();
			}
		}
		sink += (uint64_t)sct_session_syscall_nr(s, "write", abi);
	}
	if (sct_session_trailer(s))
		sink += sct_session_trailer(s)->blocks;
	events_walk(s);
	args_walk(s);
	stacks_walk(sct_session_stacks(s));
}

/* Returns the number of fields walked. */
static uint32_t fields_walk(const struct sct_reader *r, uint32_t type)
{
	const struct sct_type_schema *schema = sct_reader_schema(r, type);
	struct sct_value v;

	if (!schema)
		return 0;
	if (schema->nfields > SCT_MAX_FIELDS)
		abort();
	touch_str(schema->name);
	for (uint32_t i = 0; i < schema->nfields; i++) {
		touch_str(schema->fields[i].name);
		touch_str(schema->fields[i].unit);
		if (sct_reader_field(r, i, &v) < 0)
			continue;
		if (v.kind != schema->fields[i].kind)
			abort();
		if (v.kind == SCT_KIND_BYTES) {
			if (v.b.len > SCT_MAX_STRING)
				abort();
			touch(v.b.ptr, v.b.len);
		} else {
			sink += v.u;
		}
	}
	/* past the last field: must fail, not read out of bounds */
	if (sct_reader_field(r, schema->nfields, &v) >= 0)
		abort();
	return schema->nfields;
}

static void record_walk(const struct sct_record *rec)
{
	switch (rec->type) {
	case SCT_REC_SYSCALL:
		/* a longer addr makes its block not decode (format 1.7) */
		if (rec->syscall.addr.len > SCT_MAX_ADDR)
			abort();
		touch(rec->syscall.path.ptr, rec->syscall.path.len);
		touch(rec->syscall.path2.ptr, rec->syscall.path2.len);
		touch(rec->syscall.addr.ptr, rec->syscall.addr.len);
		touch(rec->syscall.argv.ptr, rec->syscall.argv.len);
		touch(rec->syscall.data.ptr, rec->syscall.data.len);
		break;
	case SCT_REC_TASK:
		touch(rec->task.comm.ptr, rec->task.comm.len);
		break;
	case SCT_REC_EXEC:
		touch(rec->exec.filename.ptr, rec->exec.filename.len);
		touch(rec->exec.comm.ptr, rec->exec.comm.len);
		break;
	case SCT_REC_CGROUP:
		touch(rec->cgroup.path.ptr, rec->cgroup.path.len);
		break;
	case SCT_REC_WARNING:
		touch(rec->warning.text.ptr, rec->warning.text.len);
		break;
	case SCT_REC_MODULE:
		touch(rec->module.build_id.ptr, rec->module.build_id.len);
		touch(rec->module.path.ptr, rec->module.path.len);
		break;
	case SCT_REC_SYMBOL:
		touch(rec->symbol.name.ptr, rec->symbol.name.len);
		break;
	default:
		break;
	}
}

/* Which task made a call (spec/FORMAT.md 9.2): answers stay inside the table, names readable. */
static void task_walk(struct sct_tasks *ts, uint32_t session, const struct sct_record *rec)
{
	uint32_t id;
	struct sct_bytes comm;

	if (rec->type != SCT_REC_SYSCALL && rec->type != SCT_REC_SAMPLE) {
		int err = sct_tasks_add(ts, session, rec);

		if (err && err != -ENOMEM)
			abort();
		return;
	}
	id = sct_tasks_find(ts, session, rec->syscall.tid, rec->syscall.time_ns);
	if (id != SCT_TASK_NONE && id >= sct_tasks_count(ts))
		abort();
	comm = sct_tasks_comm(ts, id, rec->syscall.time_ns);
	touch(comm.ptr, comm.len);
}

static void tasks_check(const struct sct_tasks *ts)
{
	uint32_t n = sct_tasks_count(ts);
	struct sct_task_info ti;

	for (uint32_t id = 0; id < n; id++) {
		if (sct_tasks_get(ts, id, &ti) || (ti.process != SCT_TASK_NONE && ti.process >= n) ||
		    (ti.parent != SCT_TASK_NONE && ti.parent >= n))
			abort();
		touch(ti.comm.ptr, ti.comm.len);
		touch(ti.filename.ptr, ti.filename.len);
		sink += ti.pid + ti.start_ns + ti.end_ns;
	}
	if (sct_tasks_get(ts, n, &ti) != -ERANGE)
		abort();
}

/* What one read of an input produced: equal for the memory and the fd reader. */
struct outcome {
	struct sct_reader_stats st;
	uint64_t hash;
	uint64_t base;   /* what a batched read sees too: types, and SYSCALL's fields of every session */
	bool complete;   /* read to the end, not stopped at MAX_WORK */
	uint32_t records;
	int rc;
};

static uint64_t base_mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static uint64_t base_syscall(uint64_t h, const struct sct_syscall *sc)
{
	h = base_mix(h, SCT_REC_SYSCALL);
	h = base_mix(h, sc->time_ns);
	h = base_mix(h, sc->duration_ns);
	h = base_mix(h, (uint64_t)sc->pid << 32 | sc->tid);
	h = base_mix(h, sc->cgroup_id);
	h = base_mix(h, (uint64_t)sc->nr << 16 | (uint64_t)sc->abi << 8 | sc->unfinished);
	return base_mix(h, (uint64_t)sc->ret);
}

static uint64_t base_record(uint64_t h, const struct sct_record *rec)
{
	return rec->type == SCT_REC_SYSCALL ? base_syscall(h, &rec->syscall) : base_mix(h, rec->type);
}

/* A delivered STACK record checks: its frames walk to the end, at most 256 of them. */
static void stack_walk(const struct sct_stack *st)
{
	struct sct_frame f;
	size_t pos = 0;
	uint32_t n = 0;
	int rc;

	if (sct_stack_check(st))
		abort();
	while ((rc = sct_stack_frame_next(&st->frames, &pos, &f)) > 0) {
		n++;
		sink += f.module_id + f.addr;
	}
	if (rc || n > SCT_MAX_STACK_FRAMES || pos != st->frames.len)
		abort();
}

/* A delivered TOTALS record checks: its histogram walks to exactly calls. */
static void totals_walk(const struct sct_totals *t)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	uint64_t sum = 0;
	int rc;

	if (sct_totals_check(t))
		abort();
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while ((rc = sct_hist_next(&it, &bin)) > 0) {
		sum += bin.count;
		sink += sct_hist_bucket_low(bin.bucket, t->hist_bits);
	}
	if (rc || sum != t->calls)
		abort();
}

static void read_all(struct sct_reader *r, size_t size, bool deliver_unknown, uint32_t jobs, struct outcome *o)
{
	struct input in = { .len = size };
	struct sct_record rec;
	uint32_t n = 0, work = 0, session, nsessions = 0;
	int rc = 0, err = 0;
	struct sct_tasks *ts = sct_tasks_new(&err);

	sink = 0;
	sct_reader_set_diag(r, diag_check, &in);
	sct_reader_set_unknown(r, deliver_unknown);
	if (sct_reader_set_jobs(r, jobs))
		abort();
	o->base = 0;
	while (work < MAX_WORK && (rc = sct_reader_next(r, &rec)) > 0) {
		n++;
		sink = sink * 31 + rec.type;
		o->base = base_record(o->base, &rec);
		if (rec.type == SCT_REC_SESSION) {
			session_walk(sct_reader_session(r));
			nsessions++;
		} else {
			record_walk(&rec);
			if (ts && rec.type <= SCT_REC_MAX)
				task_walk(ts, nsessions, &rec);
		}
		if (rec.type == SCT_REC_SAMPLE)
			work += sample_walk(sct_reader_session(r), &rec.sample);
		if (rec.type == SCT_REC_TOTALS)
			totals_walk(&rec.totals);
		if (rec.type == SCT_REC_STACK)
			stack_walk(&rec.stack);
		work += 1 + fields_walk(r, rec.type);
	}
	if (rc < 0) {
		touch_str(sct_strerror(rc));
		touch_str(sct_reader_error(r));
	}
	if (sct_reader_trailer(r, &session) && session >= sct_reader_stats(r)->records[SCT_REC_SESSION])
		abort(); /* a TRAILER of a session that was never announced */
	if (ts)
		tasks_check(ts);
	sct_tasks_free(ts);
	o->st = *sct_reader_stats(r);
	if (o->st.skipped_bytes + o->st.truncated_bytes > size)
		abort();
	o->hash = sink;
	o->complete = rc <= 0;
	o->records = n;
	o->rc = rc;
	sct_reader_close(r);
}

#define LAZY (SCT_BATCH_TIME | SCT_BATCH_PID | SCT_BATCH_TID | SCT_BATCH_CGROUP_ID)

/*
 * The same bytes read with SYSCALL runs as columns, rows folded as read_all() folds records.
 * With hide, every third batch's LAZY arrays are folded as 0, and the others' filled: with
 * lazy, they are left to fill (sct_reader_set_batch_lazy()).
 */
static bool read_batch(const uint8_t *data, size_t size, bool lazy, bool hide, struct outcome *o)
{
	struct sct_syscall_batch b;
	struct sct_record rec;
	struct sct_reader *r;
	uint64_t batches = 0;
	int err = 0, rc;

	r = sct_reader_open_mem(data, size, &err);
	if (!r)
		return false;
	sct_reader_set_unknown(r, true);
	sct_reader_set_batch_lazy(r, lazy ? LAZY : 0);
	o->base = 0;
	o->records = 0;
	while ((rc = sct_reader_next_batch(r, &rec, &b)) > 0) {
		bool hidden = hide && b.n && batches++ % 3 == 1;

		if (rec.type == SCT_REC_SYSCALL && !b.n)
			abort(); /* a SYSCALL comes as a batch */
		if (b.n && !hidden && sct_reader_batch_fill(r))
			abort();
		for (uint32_t i = 0; i < b.n; i++) {
			struct sct_syscall sc = {
				.time_ns = b.time_ns[i], .duration_ns = b.duration_ns[i], .pid = (uint32_t)b.pid[i],
				.tid = (uint32_t)b.tid[i], .cgroup_id = b.cgroup_id[i], .nr = (uint32_t)b.nr[i],
				.abi = (uint8_t)b.abi[i], .ret = (int64_t)b.ret[i], .unfinished = (uint8_t)b.unfinished[i],
			};

			if (hidden) {
				sc.time_ns = sc.cgroup_id = 0;
				sc.pid = sc.tid = 0;
			}
			o->base = base_syscall(o->base, &sc);
		}
		if (!b.n)
			o->base = base_record(o->base, &rec);
		o->records += b.n ? b.n : 1;
	}
	o->st = *sct_reader_stats(r);
	o->rc = rc;
	sct_reader_close(r);
	return true;
}

static bool read_mem(const uint8_t *data, size_t size, bool deliver_unknown, uint32_t jobs, struct outcome *o)
{
	struct sct_reader *r;
	int err = 0;

	r = sct_reader_open_mem(data, size, &err);
	if (!r) {
		if (err >= 0)
			abort();
		touch_str(sct_strerror(err));
		return false;
	}
	read_all(r, size, deliver_unknown, jobs, o);
	return true;
}

/* The same bytes through a file descriptor: the windowed input path instead of one buffer. */
static bool read_fd(const uint8_t *data, size_t size, bool deliver_unknown, struct outcome *o)
{
	struct sct_reader *r;
	int fd, err = 0;

	fd = memfd_create("reader_fuzz", 0);
	if (fd < 0)
		abort();
	if ((size && write(fd, data, size) != (ssize_t)size) || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	r = sct_reader_open_fd(fd, true, &err);
	if (!r) {
		close(fd);
		if (err >= 0)
			abort();
		return false;
	}
	read_all(r, size, deliver_unknown, 1, o);
	return true;
}

static bool outcome_differs(const struct outcome *a, const struct outcome *b)
{
	return memcmp(&a->st, &b->st, sizeof(a->st)) || a->hash != b->hash || a->records != b->records ||
	       a->rc != b->rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome from_mem, from_fd, from_jobs, from_batch, from_hidden, from_lazy;
	const uint8_t *in = data;
	uint8_t *fixed;
	bool m, f;

	fixed = malloc(size ? size : 1);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	if (frame_fixup(fixed, size)) {
		read_mem(data, size, false, 1, &from_mem);
		in = fixed;
	}
	m = read_mem(in, size, true, 1, &from_mem);
	/* a file descriptor costs a memfd and a 256 KiB window: compare on one input in four */
	if (size % 4 == 0) {
		f = read_fd(in, size, true, &from_fd);
		if (m != f || (m && outcome_differs(&from_mem, &from_fd)))
			abort(); /* the input path changed what was read */
	}
	/* two threads cost their start: on one input in four */
	if (size % 4 == 1) {
		f = read_mem(in, size, true, 2, &from_jobs);
		if (m != f || (m && outcome_differs(&from_mem, &from_jobs)))
			abort(); /* decoding blocks ahead changed what was read */
	}
	if (size % 4 == 2 && m && from_mem.complete) {
		if (!read_batch(in, size, false, false, &from_batch) || from_batch.base != from_mem.base ||
		    from_batch.records != from_mem.records || from_batch.rc != from_mem.rc ||
		    memcmp(&from_batch.st, &from_mem.st, sizeof(from_mem.st)))
			abort(); /* reading SYSCALL runs as columns changed what was read */
		if (!read_batch(in, size, false, true, &from_hidden) || !read_batch(in, size, true, true, &from_lazy) ||
		    from_lazy.base != from_hidden.base || from_lazy.records != from_hidden.records ||
		    from_lazy.rc != from_hidden.rc || memcmp(&from_lazy.st, &from_hidden.st, sizeof(from_lazy.st)))
			abort(); /* arrays left lazy and filled later read otherwise */
	}
	free(fixed);
	return 0;
}
