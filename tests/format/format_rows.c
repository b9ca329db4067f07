/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct_reader_next_batch(): the same records, sessions, diagnostics and statistics as
 * sct_reader_next(), SYSCALL runs as columns, on clean, damaged, concatenated and truncated
 * inputs, with and without decoding threads, and on every example file of the spec; with
 * arrays left lazy (sct_reader_set_batch_lazy()), the same values once filled, whichever
 * batches were filled and whichever records were read one at a time in between.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_helpers.h"
#include "sct.h"

/* What one read saw, as text: one line per record, then the statistics and diagnostics. */
struct rows_log {
	char *text;
	size_t len, cap;
	uint64_t batches; /* next_batch() calls that gave more than one row */
};

static void log_printf(struct rows_log *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->cap - l->len < 256) {
		l->cap = l->cap ? l->cap * 2 : 65536;
		l->text = realloc(l->text, l->cap);
		cr_assert(l->text);
	}
	va_start(ap, fmt);
	n = vsnprintf(l->text + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (size_t)n < l->cap - l->len);
	l->len += (size_t)n;
}

static void log_syscall(struct rows_log *l, uint64_t time, uint64_t dur, uint32_t pid, uint32_t tid,
			uint64_t cgroup, uint32_t nr, uint8_t abi, int64_t ret, uint8_t unfinished)
{
	log_printf(l, "S %llu %llu %u %u %llu %u %u %lld %u\n", (unsigned long long)time,
		   (unsigned long long)dur, pid, tid, (unsigned long long)cgroup, nr, abi, (long long)ret,
		   unfinished);
}

static void log_record(struct rows_log *l, const struct sct_reader *r, const struct sct_record *rec)
{
	const struct sct_syscall *sc = &rec->syscall;

	if (rec->type == SCT_REC_SYSCALL)
		log_syscall(l, sc->time_ns, sc->duration_ns, sc->pid, sc->tid, sc->cgroup_id, sc->nr, sc->abi,
			    sc->ret, sc->unfinished);
	else if (rec->type == SCT_REC_SESSION)
		log_printf(l, "session %d\n", sct_reader_session(r) != NULL);
	else
		log_printf(l, "type %u\n", rec->type);
}

/* The rows of a batch; the arrays of hide (SCT_BATCH_ bits) as 0. */
static void log_rows(struct rows_log *l, const struct sct_syscall_batch *rows, uint32_t hide)
{
#define SHOWN(bit, a) (hide & (bit) ? 0 : rows->a[i])
	for (uint32_t i = 0; i < rows->n; i++)
		log_syscall(l, SHOWN(SCT_BATCH_TIME, time_ns), SHOWN(SCT_BATCH_DURATION, duration_ns),
			    (uint32_t)SHOWN(SCT_BATCH_PID, pid), (uint32_t)SHOWN(SCT_BATCH_TID, tid),
			    SHOWN(SCT_BATCH_CGROUP_ID, cgroup_id), (uint32_t)SHOWN(SCT_BATCH_NR, nr),
			    (uint8_t)SHOWN(SCT_BATCH_ABI, abi), (int64_t)SHOWN(SCT_BATCH_RET, ret),
			    (uint8_t)SHOWN(SCT_BATCH_UNFINISHED, unfinished));
#undef SHOWN
	l->batches += rows->n > 1;
}

static void log_diag(void *ctx, const struct sct_diag *d)
{
	log_printf(ctx, "diag %u %u %llu %llu\n", d->kind, d->type, (unsigned long long)d->offset,
		   (unsigned long long)d->length);
}

static void log_stats(struct rows_log *l, const struct sct_reader_stats *st, int rc)
{
	log_printf(l, "rc %d bytes %llu skipped %llu bad %llu damaged %llu unknown %llu\n", rc,
		   (unsigned long long)st->bytes_read, (unsigned long long)st->skipped_bytes,
		   (unsigned long long)st->bad_blocks, (unsigned long long)st->damaged_records,
		   (unsigned long long)st->unknown_records);
	for (int t = 0; t <= SCT_REC_MAX; t++)
		log_printf(l, "records %d %llu\n", t, (unsigned long long)st->records[t]);
}

/*
 * How a read goes: with lazy arrays (0: none); batch j filled when fill_every divides j (0:
 * never), else its hide arrays logged as 0; call c of next() rather than next_batch() when
 * single_every divides c (0: never); batches of max rows at most (0: any).
 */
struct rows_how {
	uint32_t lazy, hide, fill_every, single_every, max;
};

/* The whole of p read record by record (rows false) or with next_batch(), jobs threads. */
static void rows_read_how(const void *p, size_t len, bool rows, uint32_t jobs, const struct rows_how *how,
			  struct rows_log *l)
{
	struct sct_syscall_batch b;
	struct sct_record rec;
	struct sct_reader *r;
	struct sct_value v;
	uint64_t calls = 0, batches = 0;
	int err = 0, rc;

	memset(l, 0, sizeof(*l));
	r = sct_reader_open_mem(p, len, &err);
	cr_assert(r, "open: %d", err);
	sct_reader_set_diag(r, log_diag, l);
	if (jobs > 1)
		cr_assert_eq(sct_reader_set_jobs(r, jobs), 0);
	sct_reader_set_batch_lazy(r, how->lazy);
	sct_reader_set_batch_max(r, how->max);
	for (;;) {
		bool batch = rows && !(how->single_every && calls++ % how->single_every == 0);

		b.n = 0;
		rc = batch ? sct_reader_next_batch(r, &rec, &b) : sct_reader_next(r, &rec);
		if (rc != 1)
			break;
		if (batch && rec.type == SCT_REC_SYSCALL) {
			bool fill = how->fill_every && batches++ % how->fill_every == 0;

			cr_assert_gt(b.n, 0, "a SYSCALL from next_batch() without rows");
			cr_assert(!how->max || b.n <= how->max, "a batch of %u rows, at most %u asked", b.n, how->max);
			if (fill)
				cr_assert_eq(sct_reader_batch_fill(r), 0);
			log_rows(l, &b, fill ? 0 : how->hide);
			cr_assert_eq(sct_reader_field(r, 0, &v), -SCT_E_STATE);
		} else {
			if (batch)
				cr_assert_eq(sct_reader_batch_fill(r), -SCT_E_STATE, "a fill with no batch");
			cr_assert(!rows || b.n == 0, "rows with a record of type %u", rec.type);
			log_record(l, r, &rec);
		}
	}
	log_stats(l, sct_reader_stats(r), rc);
	sct_reader_close(r);
}

static void rows_read(const void *p, size_t len, bool rows, uint32_t jobs, struct rows_log *l)
{
	static const struct rows_how plain;

	rows_read_how(p, len, rows, jobs, &plain, l);
}

/*
 * Both ways of reading p, at 1 and 2 jobs, give the same text; the batched reads batched; so
 * do batches of at most 7 and of 1 row.
 */
static void rows_check(const void *p, size_t len, const char *what, bool batched)
{
	static const struct rows_how seven = { .max = 7 }, one = { .max = 1 };
	struct rows_log want, got;

	rows_read(p, len, false, 1, &want);
	for (uint32_t jobs = 1; jobs <= 4; jobs++) {
		if (jobs <= 2)
			rows_read(p, len, true, jobs, &got);
		else
			rows_read_how(p, len, true, 1, jobs == 3 ? &seven : &one, &got);
		cr_assert_eq(got.len, want.len, "%s, way %u: %zu bytes of log, %zu record by record",
			     what, jobs, got.len, want.len);
		cr_assert(memcmp(got.text, want.text, want.len) == 0, "%s, way %u: the logs differ", what, jobs);
		if (batched && jobs != 4)
			cr_assert_gt(got.batches, 0, "%s: no run of rows", what);
		free(got.text);
	}
	free(want.text);
}

/* Syscalls with LOST and TASK records among them, in blocks of 300 records. */
static void rows_trace(struct fh_trace *t, uint64_t n)
{
	struct sct_writer_opts opts = { .block_records = 300 };
	struct sct_writer *w;
	int fd;

	w = fh_writer(&opts, &fd);
	for (uint64_t i = 0; i < n; i++) {
		struct sct_record rec = fh_syscall(i);

		cr_assert_eq(sct_writer_append(w, &rec), 0);
		if (i % 97 == 5) {
			struct sct_record lost = { .type = SCT_REC_LOST };

			lost.lost.time_ns = rec.syscall.time_ns;
			lost.lost.count = i;
			cr_assert_eq(sct_writer_append(w, &lost), 0);
		}
		if (i % 251 == 7) {
			struct sct_record task = { .type = SCT_REC_TASK };

			task.task.time_ns = rec.syscall.time_ns;
			task.task.pid = task.task.tid = 100 + (uint32_t)i;
			cr_assert_eq(sct_writer_append(w, &task), 0);
		}
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, t);
}

Test(rows, runs_of_syscalls_between_other_records_read_as_record_by_record)
{
	struct fh_trace t;

	rows_trace(&t, 5000);
	rows_check(t.p, t.len, "clean", true);
	fh_trace_free(&t);
}

/*
 * Lazy arrays, filled on every fill_every-th batch, against eager ones hidden on the same
 * batches: a time filled after chunks left undecoded has summed them in.
 */
static void rows_check_lazy(const void *p, size_t len, const char *what)
{
	static const uint32_t lazy = SCT_BATCH_TIME | SCT_BATCH_PID | SCT_BATCH_TID | SCT_BATCH_CGROUP_ID;
	static const struct { uint32_t fill_every, single_every; } ways[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 5, 0 }, { 3, 7 }, { 0, 4 },
	};
	struct rows_log want, got;

	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++) {
		struct rows_how eager = { 0, lazy, ways[k].fill_every, ways[k].single_every, 0 };
		struct rows_how lazily = { lazy, lazy, ways[k].fill_every, ways[k].single_every, 0 };

		rows_read_how(p, len, true, 1, &eager, &want);
		for (uint32_t jobs = 1; jobs <= 2; jobs++) {
			rows_read_how(p, len, true, jobs, &lazily, &got);
			cr_assert_eq(got.len, want.len, "%s, fill every %u, one record every %u, %u jobs: "
				     "%zu bytes of log, %zu eager", what, ways[k].fill_every,
				     ways[k].single_every, jobs, got.len, want.len);
			cr_assert(memcmp(got.text, want.text, want.len) == 0,
				  "%s, fill every %u, one record every %u, %u jobs: the logs differ", what,
				  ways[k].fill_every, ways[k].single_every, jobs);
			free(got.text);
		}
		free(want.text);
	}
}

Test(rows, lazy_arrays_filled_read_as_eager_ones)
{
	struct sct_writer_opts big = { .block_records = 5000 };
	struct fh_trace t;
	struct sct_writer *w;
	int fd;

	rows_trace(&t, 5000);
	rows_check_lazy(t.p, t.len, "300-record blocks");
	fh_trace_free(&t);
	/* one SYSCALL section of 20 chunks a block: the times of unfilled chunks caught up */
	w = fh_writer(&big, &fd);
	for (uint64_t i = 0; i < 12000; i++) {
		struct sct_record rec = fh_syscall(i);

		cr_assert_eq(sct_writer_append(w, &rec), 0);
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, &t);
	rows_check_lazy(t.p, t.len, "5000-record blocks");
	fh_trace_free(&t);
}

Test(rows, damaged_concatenated_and_truncated_inputs_read_as_record_by_record)
{
	struct fh_trace t;
	uint8_t *two;

	rows_trace(&t, 5000);
	two = malloc(2 * t.len);
	cr_assert(two);
	memcpy(two, t.p, t.len);
	memcpy(two + t.len, t.p, t.len);
	rows_check(two, 2 * t.len, "concatenated", true);
	two[t.len / 2] ^= 0x5a;
	two[t.len + t.len / 3] ^= 0xff;
	rows_check(two, 2 * t.len, "damaged", true);
	rows_check(two, t.len + t.len / 2, "truncated", true);
	free(two);
	fh_trace_free(&t);
}

Test(rows, every_example_file_reads_as_record_by_record)
{
	glob_t g;
	size_t checked = 0;

	cr_assert_eq(glob("spec/examples/*.sct", 0, NULL, &g), 0, "no spec/examples/*.sct: run from the source tree");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		uint8_t *p;
		long len;

		cr_assert(f, "%s", g.gl_pathv[i]);
		cr_assert_eq(fseek(f, 0, SEEK_END), 0);
		len = ftell(f);
		rewind(f);
		p = malloc(len ? (size_t)len : 1);
		cr_assert(p);
		cr_assert_eq(fread(p, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		rows_check(p, (size_t)len, g.gl_pathv[i], false);
		free(p);
		checked++;
	}
	globfree(&g);
	cr_assert_gt(checked, 10);
}
