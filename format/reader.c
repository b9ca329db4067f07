// SPDX-License-Identifier: BSD-2-Clause
/*
 * The streaming reader: frames in input order, sessions, diagnostics, and the resync rule
 * (spec/FORMAT.md section 10): after a bad frame at X, scan from X+1 for the next label or
 * envelope whose checksum verifies, and report [X, Y) as skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "block_decode.h"
#include "block_prefetch.h"
#include "frame.h"
#include "header.h"
#include "input.h"
#include "sct.h"
#include "crc_span.h"
#include "session.h"
#include "trailer.h"

/* How far into a file that does not start with the label a frame is looked for. */
#define START_SCAN_LIMIT (1u << 20)
/* What the step loop asks for up front: a label or a whole envelope head. */
#define PEEK_LEN (FRAME_HEAD_MAX > SCT_LABEL_LEN ? FRAME_HEAD_MAX : SCT_LABEL_LEN)

struct sct_reader {
	struct input in;
	sct_diag_fn diag_fn;
	void *diag_ctx;
	struct sct_reader_stats stats;
	int fatal;             /* the error next() keeps returning */
	bool started;          /* the input's start was checked */
	bool done;             /* the end of input was reached and reported */
	bool session_pending;  /* a SESSION record is due */
	bool in_session;       /* a label or frames seen since a HEADER, and no TRAILER yet */
	bool headerless_noted; /* this stretch without a HEADER has had its SESSION record */
	bool label_pending;    /* a label, and no HEADER, BLOCK or TRAILER since */
	uint64_t label_at;
	/*
	 * Only two sessions are kept, so memory does not grow with the number of HEADERs: cur
	 * (NULL outside a session) and held, the one the caller got with the last SESSION
	 * record, which stays valid until the next SESSION record is returned.
	 */
	struct sct_session *cur, *held;
	struct sct_session *prev; /* held before the last SESSION record: freed by the next call */
	uint32_t nsessions;
	struct sct_trailer_info trailer; /* the last TRAILER that decoded, of session trailer_of */
	uint32_t trailer_of;
	bool has_trailer;
	struct crc_span span;
	struct block_dec blk;
	struct prefetch *pf;   /* sct_reader_set_jobs(): blocks decoded ahead; NULL: here, in turn */
	uint64_t block_at;     /* offset of the loaded block's frame */
	const struct dec_section *last_sec; /* the record last returned, for sct_reader_field() */
	uint32_t last_idx;
	uint32_t batch_lazy;   /* sct_reader_set_batch_lazy(): the batch columns left to fill */
	uint32_t batch_max;    /* sct_reader_set_batch_max(): rows a batch holds at most; 0 any */
	struct dec_section *batch_sec; /* the batch last returned, for sct_reader_batch_fill() */
	char error[256];
	char text[256];
};

static struct sct_reader *reader_new(int *err)
{
	struct sct_reader *r = calloc(1, sizeof(*r));

	if (!r)
		*err = -ENOMEM;
	return r;
}

struct sct_reader *sct_reader_open_fd(int fd, bool owned, int *err)
{
	struct sct_reader *r = reader_new(err);

	if (!r) {
		if (owned)
			close(fd);
		return NULL;
	}
	input_init_fd(&r->in, fd, owned);
	return r;
}

struct sct_reader *sct_reader_open(const char *path, int *err)
{
	int fd;

	if (!strcmp(path, "-"))
		return sct_reader_open_fd(STDIN_FILENO, false, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	return sct_reader_open_fd(fd, true, err);
}

struct sct_reader *sct_reader_open_mem(const void *buf, size_t len, int *err)
{
	struct sct_reader *r = reader_new(err);

	if (r)
		input_init_mem(&r->in, buf, len);
	return r;
}

void sct_reader_set_diag(struct sct_reader *r, sct_diag_fn fn, void *ctx)
{
	r->diag_fn = fn;
	r->diag_ctx = ctx;
}

void sct_reader_set_unknown(struct sct_reader *r, bool deliver)
{
	r->blk.deliver_unknown = deliver;
}

void sct_reader_set_skip(struct sct_reader *r, uint32_t types)
{
	r->blk.skip_types = types;
}

_Static_assert(SCT_BATCH_TIME == 1u << SYSCALL_COL_time_ns && SCT_BATCH_DURATION == 1u << SYSCALL_COL_duration_ns &&
	       SCT_BATCH_PID == 1u << SYSCALL_COL_pid && SCT_BATCH_TID == 1u << SYSCALL_COL_tid &&
	       SCT_BATCH_CGROUP_ID == 1u << SYSCALL_COL_cgroup_id && SCT_BATCH_NR == 1u << SYSCALL_COL_nr &&
	       SCT_BATCH_ABI == 1u << SYSCALL_COL_abi && SCT_BATCH_RET == 1u << SYSCALL_COL_ret &&
	       SCT_BATCH_UNFINISHED == 1u << SYSCALL_COL_unfinished && DEC_BATCH == (SCT_BATCH_UNFINISHED << 1) - 1,
	       "a batch's bits are the SYSCALL columns of its arrays");

void sct_reader_set_batch_lazy(struct sct_reader *r, uint32_t fields)
{
	r->batch_lazy = fields & DEC_BATCH;
}

void sct_reader_set_batch_max(struct sct_reader *r, uint32_t rows)
{
	r->batch_max = rows;
}

int sct_reader_batch_fill(struct sct_reader *r)
{
	if (!r->batch_sec)
		return -SCT_E_STATE;
	block_dec_complete(r->batch_sec, DEC_BATCH);
	return 0;
}

void sct_reader_close(struct sct_reader *r)
{
	if (!r)
		return;
	prefetch_free(r->pf); /* its workers may still read the current session */
	if (r->held != r->cur)
		session_free(r->held);
	session_free(r->cur);
	session_free(r->prev);
	crc_span_free(&r->span);
	block_dec_free(&r->blk);
	input_free(&r->in);
	free(r);
}

__attribute__((format(printf, 7, 8)))
static void reader_diag(struct sct_reader *r, uint32_t kind, uint32_t type, uint64_t offset,
			uint64_t length, uint64_t count, const char *fmt, ...)
{
	struct sct_diag d = { kind, type, offset, length, count, r->text };
	va_list ap;

	if (!r->diag_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	r->diag_fn(r->diag_ctx, &d);
}

__attribute__((format(printf, 3, 4)))
static int reader_fail(struct sct_reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	r->fatal = err;
	return err;
}

static int reader_io_error(struct sct_reader *r, int err)
{
	if (err == -ENOMEM)
		return reader_fail(r, err, "out of memory at byte %llu",
				   (unsigned long long)input_offset(&r->in));
	return reader_fail(r, err, "read error at byte %llu: %s",
			   (unsigned long long)input_offset(&r->in), sct_strerror(err));
}

/*
 * A session ends (label, HEADER, end of input): say so if it had no TRAILER, or if it was a
 * label and nothing after it. At the end of input the session stays current, so callers can
 * still look at it (and its TRAILER).
 */
static void reader_end_session(struct sct_reader *r, bool at_end)
{
	uint64_t at = input_offset(&r->in);

	if (r->in_session) {
		r->stats.sessions_without_trailer++;
		reader_diag(r, SCT_DIAG_NO_TRAILER, 0, at, 0, 0,
			    "session %s ends at byte %llu without a TRAILER: the trace is incomplete",
			    r->cur ? r->cur->keys[SCT_SESSION_HOSTNAME] : "(no header)", (unsigned long long)at);
	} else if (r->label_pending) {
		r->stats.sessions_without_trailer++;
		reader_diag(r, SCT_DIAG_NO_TRAILER, 0, at, 0, 0,
			    "the label at byte %llu is followed by no HEADER, BLOCK or TRAILER: "
			    "the trace is incomplete", (unsigned long long)r->label_at);
	}
	r->in_session = false;
	r->label_pending = false;
	if (at_end)
		return;
	r->cur = NULL; /* still held for the caller until the next SESSION record */
	r->headerless_noted = false;
}

/* ---------------------------------------------------------------- resync */

/*
 * Is there a label or a verified frame at the current position? May read ahead (one frame).
 * Candidates come at increasing offsets, so their checksums are taken through the span
 * checkpoints: the whole scan costs time linear in the bytes it passes, whatever lengths the
 * candidates claim.
 */
static int scan_candidate(struct sct_reader *r, bool *hit)
{
	struct input *in = &r->in;
	const uint8_t *p = input_ptr(in);
	size_t avail = input_avail(in);
	uint32_t stored, crc;
	struct frame f;
	int rc;

	*hit = false;
	if (p[0] == sct_label[0]) {
		*hit = avail >= SCT_LABEL_LEN && !memcmp(p, sct_label, SCT_LABEL_LEN);
		return 0;
	}
	if (frame_head_get(p, avail, &f) != FRAME_OK)
		return 0;
	rc = input_fill(in, f.total);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	p = input_ptr(in);
	if (!frame_check_get(p, &f, &stored))
		return 0;
	rc = crc_span_get(&r->span, p, input_offset(in), frame_covered(&f), &crc);
	if (rc < 0)
		return rc;
	*hit = crc == stored;
	return 0;
}

/*
 * Consume bytes until a label or a verified frame starts, looking only at candidates below
 * limit. *found tells whether one was; without, everything up to the end (or limit) is consumed.
 */
static int reader_scan(struct sct_reader *r, uint64_t limit, bool *found)
{
	struct input *in = &r->in;

	*found = false;
	for (;;) {
		const uint8_t *p;
		size_t avail, i = 0;
		int rc = input_fill(in, PEEK_LEN);

		if (rc < 0)
			return rc;
		avail = input_avail(in);
		if (avail == 0 || input_offset(in) >= limit)
			return 0;
		p = input_ptr(in);
		while (i < avail && p[i] != 0x83 && p[i] != sct_label[0])
			i++;
		if (i) {
			input_consume(in, i);
			continue;
		}
		rc = scan_candidate(r, found);
		if (rc < 0 || *found)
			return rc;
		input_consume(in, 1);
	}
}

/*
 * The frame at the current position is bad (why) or, with truncated, runs past the end of
 * input. Resync after it and report what was lost.
 */
static int reader_resync(struct sct_reader *r, const char *why, bool truncated)
{
	uint64_t from = input_offset(&r->in), to;
	bool found;
	int rc;

	input_consume(&r->in, 1);
	rc = reader_scan(r, UINT64_MAX, &found);
	if (rc < 0)
		return reader_io_error(r, rc);
	to = input_offset(&r->in);
	if (truncated && !found) {
		r->stats.truncated_bytes += to - from;
		reader_diag(r, SCT_DIAG_TRUNCATED, 0, from, to - from, 0,
			    "input ends inside a frame at byte %llu: %llu bytes lost",
			    (unsigned long long)from, (unsigned long long)(to - from));
		return 1;
	}
	r->stats.skipped_ranges++;
	r->stats.skipped_bytes += to - from;
	reader_diag(r, SCT_DIAG_SKIPPED, 0, from, to - from, 0,
		    "skipped bytes %llu..%llu (%llu bytes): %s",
		    (unsigned long long)from, (unsigned long long)to,
		    (unsigned long long)(to - from), why);
	return 1;
}

/* ---------------------------------------------------------------- frames */

static int reader_header(struct sct_reader *r, const uint8_t *body, const struct frame *f,
			 uint64_t offset)
{
	struct sct_session *s;
	char why[160];
	int rc;

	r->label_pending = false; /* the label's own HEADER: it ends nothing */
	reader_end_session(r, false);
	if (f->body_len > SCT_MAX_HEADER_BODY) {
		r->stats.bad_blocks++;
		reader_diag(r, SCT_DIAG_BAD_BLOCK, FRAME_HEADER, offset, f->total, 0,
			    "HEADER at byte %llu is %llu bytes, past the limit of %u: ignored",
			    (unsigned long long)offset, (unsigned long long)f->body_len,
			    SCT_MAX_HEADER_BODY);
		return 0;
	}
	s = session_new(r->nsessions);
	if (!s)
		return reader_io_error(r, -ENOMEM);
	rc = header_parse(body, (size_t)f->body_len, s, why, sizeof(why));
	if (rc == -SCT_E_VERSION || rc == -ENOMEM) {
		session_free(s);
		if (rc == -ENOMEM)
			return reader_io_error(r, rc);
		return reader_fail(r, rc, "%s (HEADER at byte %llu)", why, (unsigned long long)offset);
	}
	if (rc) {
		session_free(s);
		r->stats.bad_blocks++;
		reader_diag(r, SCT_DIAG_BAD_BLOCK, FRAME_HEADER, offset, f->total, 0,
			    "HEADER at byte %llu: %s: session details lost", (unsigned long long)offset,
			    why);
		return 0;
	}
	r->nsessions++;
	r->cur = s;
	r->in_session = true;
	r->session_pending = true;
	return 0;
}

/* Report the sections of the loaded block whose records next() will not return. */
static void reader_unknown_sections(struct sct_reader *r, uint64_t offset)
{
	for (uint32_t i = 0; i < r->blk.nsecs; i++) {
		const struct dec_section *sec = &r->blk.secs[i];

		if (!sec->unknown)
			continue;
		r->stats.unknown_records += sec->count;
		if (sec->deliver)
			continue;
		reader_diag(r, SCT_DIAG_UNKNOWN_RECORD, sec->type, offset, 0, sec->count,
			    "block at byte %llu: %u records of unknown type %u skipped",
			    (unsigned long long)offset, sec->count, sec->type);
	}
}

/* Load the BLOCK at offset: decoded ahead by the workers, or here. */
static int reader_block_load(struct sct_reader *r, const uint8_t *body, const struct frame *f,
			     uint64_t offset, const char **why)
{
	struct prefetch_key k = { offset, r->cur, r->blk.skip_types, r->blk.deliver_unknown };
	struct block_meta m;
	int rc;

	if (r->pf && prefetch_take(r->pf, &k, &r->blk, &rc, why))
		return rc;
	rc = block_meta_parse(body, (size_t)f->body_len, &m, why) ? -SCT_E_CORRUPT : 0;
	if (!rc)
		rc = block_dec_load(&r->blk, &m, r->cur, why);
	return rc;
}

static int reader_block(struct sct_reader *r, const uint8_t *body, const struct frame *f,
			uint64_t offset)
{
	const char *why;
	int rc;

	if (!r->cur && !r->headerless_noted) {
		r->headerless_noted = true;
		r->session_pending = true; /* its records belong to no session, not the last one */
		reader_diag(r, SCT_DIAG_NO_HEADER, FRAME_BLOCK, offset, 0, 0,
			    "blocks from byte %llu have no HEADER: read with the built-in schema",
			    (unsigned long long)offset);
	}
	r->label_pending = false;
	r->in_session = true;
	rc = reader_block_load(r, body, f, offset, &why);
	if (rc == -ENOMEM)
		return reader_io_error(r, rc);
	if (rc) {
		r->stats.bad_blocks++;
		reader_diag(r, SCT_DIAG_BAD_BLOCK, FRAME_BLOCK, offset, f->total, 0,
			    "block at byte %llu skipped: %s", (unsigned long long)offset, why);
		return 0;
	}
	r->stats.blocks++;
	r->block_at = offset;
	reader_unknown_sections(r, offset);
	return 0;
}

static void reader_trailer(struct sct_reader *r, const uint8_t *body, const struct frame *f,
			   uint64_t offset)
{
	struct sct_trailer_info t;

	if (trailer_parse(body, (size_t)f->body_len, &t)) {
		r->stats.bad_blocks++;
		reader_diag(r, SCT_DIAG_BAD_BLOCK, FRAME_TRAILER, offset, f->total, 0,
			    "TRAILER at byte %llu does not decode: ignored", (unsigned long long)offset);
		return;
	}
	if (r->cur) {
		r->cur->trailer = t;
		r->cur->has_trailer = true;
		r->trailer = t;
		r->trailer_of = r->cur->index;
		r->has_trailer = true;
	}
	r->label_pending = false;
	r->in_session = false;
}

static int reader_frame(struct sct_reader *r, const uint8_t *p, const struct frame *f)
{
	uint64_t offset = input_offset(&r->in);
	const uint8_t *body = p + f->head_len;

	switch (f->type) {
	case FRAME_HEADER:
		return reader_header(r, body, f, offset);
	case FRAME_BLOCK:
		return reader_block(r, body, f, offset);
	case FRAME_TRAILER:
		reader_trailer(r, body, f, offset);
		return 0;
	default:
		r->stats.unknown_frames++;
		reader_diag(r, SCT_DIAG_UNKNOWN_FRAME, f->type, offset, f->total, 0,
			    "frame of unknown type %u at byte %llu skipped (%llu bytes)", f->type,
			    (unsigned long long)offset, (unsigned long long)f->total);
		return 0;
	}
}

/*
 * The input is an sct file when a label or a verified frame starts within its first MiB
 * (spec/FORMAT.md section 2); the bytes before it are skipped.
 */
static int reader_start(struct sct_reader *r)
{
	struct input *in = &r->in;
	bool found;
	int rc;

	r->started = true;
	rc = input_fill(in, SCT_LABEL_LEN);
	if (rc < 0)
		return reader_io_error(r, rc);
	rc = reader_scan(r, START_SCAN_LIMIT, &found);
	if (rc < 0)
		return reader_io_error(r, rc);
	if (!found)
		return reader_fail(r, -SCT_E_NOT_SCT,
				   "not an sct trace: no sct label and no valid frame in the first %u bytes",
				   START_SCAN_LIMIT);
	if (input_offset(in) == 0)
		return 0;
	r->stats.skipped_ranges++;
	r->stats.skipped_bytes += input_offset(in);
	reader_diag(r, SCT_DIAG_SKIPPED, 0, 0, input_offset(in), 0,
		    "skipped bytes 0..%llu: the input does not start with the sct label",
		    (unsigned long long)input_offset(in));
	return 0;
}

/*
 * Queue the BLOCK frames that follow the current position, up to the first thing that is
 * not one (a label, another frame, a head that does not parse, the end of what can be read):
 * the reader reaches them next, in this session, and takes their checksums checked and their
 * blocks decoded. A checksum that fails drops the queue: reader_step() resyncs from there as
 * it always did, and anything else unusual is left to it too.
 */
static void reader_prefetch(struct sct_reader *r)
{
	struct input *in = &r->in;
	uint64_t at = prefetch_end(r->pf);

	if (at < input_offset(in)) {
		prefetch_drop(r->pf);
		at = input_offset(in);
	}
	while (prefetch_room(r->pf)) {
		struct prefetch_key k = { at, r->cur, r->blk.skip_types, r->blk.deliver_unknown };
		size_t rel = (size_t)(at - input_offset(in)), avail;
		const uint8_t *p;
		struct frame f;

		if (rel >= PREFETCH_WINDOW || input_fill(in, rel + PEEK_LEN) < 0 || input_avail(in) <= rel)
			return;
		p = input_ptr(in) + rel;
		avail = input_avail(in) - rel;
		if (p[0] == sct_label[0] || frame_head_get(p, avail, &f) != FRAME_OK || f.type != FRAME_BLOCK ||
		    rel + f.total > PREFETCH_WINDOW || input_fill(in, rel + (size_t)f.total) != 0 ||
		    prefetch_push(r->pf, &k, input_ptr(in) + rel, &f))
			return;
		at += f.total;
	}
}

/* frame_verify(), or its verdict from the worker that checked the frame ahead. */
static bool reader_verify(struct sct_reader *r, const uint8_t *p, const struct frame *f)
{
	int ok = r->pf && f->type == FRAME_BLOCK ? prefetch_verified(r->pf, input_offset(&r->in), f) : -1;

	return ok < 0 ? frame_verify(p, f) : ok;
}

int sct_reader_set_jobs(struct sct_reader *r, uint32_t jobs)
{
	int err = 0;

	if (r->pf || jobs <= 1)
		return 0;
	/* two frames per worker: one decoding, one decoded waiting for the reader */
	r->pf = prefetch_new(jobs, 2 * jobs, &err);
	return err;
}

/* Handle one label, frame or damaged stretch. 1: progress; 0: end of input; < 0: fatal. */
static int reader_step(struct sct_reader *r)
{
	struct input *in = &r->in;
	const uint8_t *p;
	struct frame f;
	size_t avail;
	int rc;

	if (!r->started) {
		rc = reader_start(r);
		if (rc < 0)
			return rc;
	}
	rc = input_fill(in, PEEK_LEN);
	if (rc < 0)
		return reader_io_error(r, rc);
	avail = input_avail(in);
	p = input_ptr(in);
	if (avail == 0)
		return 0;
	if (avail >= SCT_LABEL_LEN && !memcmp(p, sct_label, SCT_LABEL_LEN)) {
		reader_end_session(r, false);
		r->label_pending = true;
		r->label_at = input_offset(in);
		input_consume(in, SCT_LABEL_LEN);
		return 1;
	}
	if (avail < SCT_LABEL_LEN && !memcmp(p, sct_label, avail))
		return reader_resync(r, "cut label", true);
	rc = frame_head_get(p, avail, &f);
	if (rc == FRAME_SHORT)
		return reader_resync(r, "cut frame head", true);
	if (rc == FRAME_TOO_LONG)
		return reader_resync(r, "frame body length past the 16 MiB limit", false);
	if (rc != FRAME_OK)
		return reader_resync(r, "not a frame", false);
	rc = input_fill(in, (size_t)f.total);
	if (rc < 0)
		return reader_io_error(r, rc);
	if (rc == 1)
		return reader_resync(r, "frame runs past the end of input", true);
	p = input_ptr(in);
	if (!reader_verify(r, p, &f))
		return reader_resync(r, "checksum mismatch", false);
	rc = reader_frame(r, p, &f);
	input_consume(in, (size_t)f.total);
	if (rc < 0)
		return rc;
	if (r->pf)
		reader_prefetch(r);
	return 1;
}

static void reader_fill_syscall(const struct dec_section *sec, uint32_t i, struct sct_record *rec)
{
	const uint64_t *v = sec->vals + i;
	struct sct_syscall *sc = &rec->syscall;

	rec->type = SCT_REC_SYSCALL;
	sc->time_ns = v[0];
	sc->duration_ns = v[DEC_CHUNK];
	sc->pid = (uint32_t)v[2 * DEC_CHUNK];
	sc->tid = (uint32_t)v[3 * DEC_CHUNK];
	sc->cgroup_id = v[4 * DEC_CHUNK];
	sc->nr = (uint32_t)v[5 * DEC_CHUNK];
	sc->abi = (uint8_t)v[6 * DEC_CHUNK];
	sc->ret = (int64_t)v[7 * DEC_CHUNK];
	sc->unfinished = (uint8_t)v[8 * DEC_CHUNK];
	sc->stack_id = 0;
	/* an id past 32 bits names no STACK record: no stack, rather than another call's */
	if (sec->stack_col && v[(size_t)sec->stack_col * DEC_CHUNK] <= UINT32_MAX)
		sc->stack_id = (uint32_t)v[(size_t)sec->stack_col * DEC_CHUNK];
	if (sec->nslots < SYSCALL_ARGS13_NCOLS) {
		block_dec_clear_args(sc);
		return;
	}
	block_dec_fill_args(sec, i, sc);
}

/*
 * A TOTALS record whose histogram does not check, or a STACK whose frames do not, is damaged:
 * counted, never delivered.
 */
static bool reader_bad_record(struct sct_reader *r, const struct sct_record *rec)
{
	if (rec->type == SCT_REC_TOTALS && sct_totals_check(&rec->totals)) {
		r->stats.damaged_records++;
		reader_diag(r, SCT_DIAG_BAD_RECORD, SCT_REC_TOTALS, r->block_at, 0, 1,
			    "TOTALS record of pid %u, syscall %u: its histogram does not check (skipped)",
			    rec->totals.pid, rec->totals.nr);
		return true;
	}
	if (rec->type == SCT_REC_STACK && sct_stack_check(&rec->stack)) {
		r->stats.damaged_records++;
		reader_diag(r, SCT_DIAG_BAD_RECORD, SCT_REC_STACK, r->block_at, 0, 1,
			    "STACK record %u of pid %u: its frames do not parse or pass %u (skipped)",
			    rec->stack.stack_id, rec->stack.pid, SCT_MAX_STACK_FRAMES);
		return true;
	}
	return false;
}

/* A typed SYSCALL section's rows from chunk index i on: n of them, as columns. */
static void reader_rows(const struct dec_section *sec, uint32_t i, uint32_t n, struct sct_syscall_batch *batch)
{
	const uint64_t *v = sec->vals + i;

	batch->n = n;
	batch->time_ns = v;
	batch->duration_ns = v + DEC_CHUNK;
	batch->pid = v + 2 * DEC_CHUNK;
	batch->tid = v + 3 * DEC_CHUNK;
	batch->cgroup_id = v + 4 * DEC_CHUNK;
	batch->nr = v + 5 * DEC_CHUNK;
	batch->abi = v + 6 * DEC_CHUNK;
	batch->ret = v + 7 * DEC_CHUNK;
	batch->unfinished = v + 8 * DEC_CHUNK;
}

/* sct_reader_next(), and with batch, a typed SYSCALL section's run of rows at once. */
static int reader_next(struct sct_reader *r, struct sct_record *rec, struct sct_syscall_batch *batch)
{
	struct dec_section *sec;
	uint32_t i;
	int rc;

	session_free(r->prev);
	r->prev = NULL;
	r->batch_sec = NULL;
	if (r->fatal)
		return r->fatal;
	for (;;) {
		if (r->session_pending) {
			r->session_pending = false;
			if (r->held != r->cur)
				r->prev = r->held;
			r->held = r->cur;
			r->last_sec = NULL;
			memset(rec, 0, sizeof(*rec));
			rec->type = SCT_REC_SESSION;
			r->stats.records[SCT_REC_SESSION]++;
			return 1;
		}
		/* a batch has no arguments, paths or captures: their columns wait for a record that has */
		if (block_dec_next(&r->blk, batch ? r->batch_lazy | ~DEC_BATCH : 0, &sec, &i)) {
			if (batch && sec->type == SCT_REC_SYSCALL && sec->slots) {
				/* a chunk decoded lazily for a caller that now wants more */
				if (sec->pending & DEC_BATCH & ~r->batch_lazy)
					block_dec_complete(sec, DEC_BATCH);
				reader_rows(sec, i, 1 + block_dec_take_rows(&r->blk, sec, r->batch_max ? r->batch_max - 1 : UINT32_MAX),
					    batch);
				r->batch_sec = sec;
				rec->type = SCT_REC_SYSCALL;
				r->stats.records[SCT_REC_SYSCALL] += batch->n;
				r->last_sec = NULL;
				return 1;
			}
			if (sec->pending)
				block_dec_complete(sec, ~0u);
			if (sec->type == SCT_REC_SYSCALL && sec->slots)
				reader_fill_syscall(sec, i, rec);
			else
				block_dec_fill(sec, i, rec);
			if (sec->slots && reader_bad_record(r, rec))
				continue;
			/* a typed section is a built-in type of this session's version */
			if (sec->slots)
				r->stats.records[sec->type]++;
			r->last_sec = sec;
			r->last_idx = i;
			return 1;
		}
		if (r->done)
			return 0;
		r->last_sec = NULL;
		rc = reader_step(r);
		r->stats.bytes_read = input_offset(&r->in);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			reader_end_session(r, true);
			r->done = true;
		}
	}
}

int sct_reader_next(struct sct_reader *r, struct sct_record *rec)
{
	return reader_next(r, rec, NULL);
}

int sct_reader_next_batch(struct sct_reader *r, struct sct_record *rec, struct sct_syscall_batch *batch)
{
	batch->n = 0;
	return reader_next(r, rec, batch);
}

int sct_reader_field(const struct sct_reader *r, uint32_t idx, struct sct_value *out)
{
	const struct dec_section *sec = r->last_sec;
	uint64_t v;

	if (!sec)
		return -SCT_E_STATE;
	if (idx >= sec->schema->nfields)
		return -ERANGE;
	v = sec->vals[(size_t)idx * DEC_CHUNK + r->last_idx];
	out->kind = sec->cols[idx].kind;
	switch (out->kind) {
	case SCT_KIND_SINT:
		out->i = (int64_t)v;
		break;
	case SCT_KIND_BYTES:
		out->b.ptr = sec->cols[idx].data ? sec->cols[idx].data + (v >> 32)
						 : (const uint8_t *)"";
		out->b.len = (uint32_t)v;
		break;
	default:
		out->u = v;
		break;
	}
	return 0;
}

const struct sct_type_schema *sct_reader_schema(const struct sct_reader *r, uint32_t type)
{
	const struct session_type *st = session_type(r->cur, type);

	if (!r->cur && r->last_sec && r->last_sec->type == type && r->last_sec->schema)
		return r->last_sec->schema;
	return st ? &st->schema : session_builtin(r->cur, type);
}

int64_t sct_reader_type(const struct sct_reader *r, const char *name)
{
	for (uint32_t i = 0; r->cur && i < r->cur->ntypes; i++)
		if (!strcmp(r->cur->types[i].schema.name, name))
			return r->cur->types[i].schema.type;
	for (uint32_t type = 1; type <= SCT_REC_MAX; type++) {
		const struct sct_type_schema *b = session_builtin(r->cur, type);

		if (b && !session_type(r->cur, type) && !strcmp(b->name, name))
			return type;
	}
	return -1;
}

const struct sct_session *sct_reader_session(const struct sct_reader *r)
{
	return r->cur;
}

const struct sct_trailer_info *sct_reader_trailer(const struct sct_reader *r, uint32_t *session)
{
	if (!r->has_trailer)
		return NULL;
	*session = r->trailer_of;
	return &r->trailer;
}

const struct sct_reader_stats *sct_reader_stats(const struct sct_reader *r)
{
	return &r->stats;
}

const char *sct_reader_error(const struct sct_reader *r)
{
	return r->error;
}
