// SPDX-License-Identifier: BSD-2-Clause
/*
 * The trace writer: file handling, the HEADER, block flushing by count, size and age, the
 * TRAILER, and the failed state. Every write is checked; after the first error the writer
 * keeps it and refuses further work, so the file ends with the last block written whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "block_encode.h"
#include "cbuf.h"
#include "frame.h"
#include "header.h"
#include "sct.h"
#include "trailer.h"

/* Payload bytes a block may reach before it is written. */
#define BLOCK_RAW_BUDGET ((size_t)SCT_MAX_BLOCK_RAW)

struct sct_writer {
	int fd;
	bool own_fd;       /* close fd at the end ("-" keeps stdout open) */
	bool regular;      /* fsync at close */
	bool can_cut;      /* base is known: a partial frame can be cut off after an error */
	bool no_fsync;
	bool finished;     /* TRAILER written (sct_writer_finish()): nothing more is appended */
	off_t base;        /* file offset of the label */
	int err;           /* first error: the writer is failed */
	uint64_t bytes, records;
	uint64_t block_lost; /* LOST counts of the pending block */
	sct_block_fn sink; /* sct_writer_open_blocks(): blocks go here, no fd, no label or TRAILER */
	void *sink_ctx;
	uint32_t nevents;  /* the HEADER's event table: SAMPLE records index it */
	bool totals;       /* the HEADER has "filter" (or a block sink): TOTALS records fit */
	bool stacks;       /* the HEADER has "stacks" (or a block sink): STACK, MODULE, SYMBOL fit */
	uint64_t flush_interval_ns;
	uint64_t pending_since_ns; /* monotonic time of the first pending record */
	struct block_enc enc;
	struct trailer_acc tr;
	uint32_t rows_open; /* rows the last sct_writer_syscall_rows() gave */
};

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int write_full(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO; /* no progress and no error: do not spin */
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write one whole frame, or fail the writer and leave the file at its last whole frame. */
static int writer_put(struct sct_writer *w, const uint8_t *p, size_t len)
{
	int err = write_full(w->fd, p, len);

	if (err) {
		w->err = err;
		if (w->can_cut) {
			/* Best effort: cut a partial frame off so the file ends with whole frames.
			 * If this fails too, readers report the partial frame as a truncated tail. */
			int rc = ftruncate(w->fd, w->base + (off_t)w->bytes);

			(void)rc;
		}
		return err;
	}
	w->bytes += len;
	return 0;
}

/* Seal and write a frame whose body was encoded into b after FRAME_HEAD_MAX bytes of headroom. */
static int writer_put_cbuf(struct sct_writer *w, struct cbuf *b, uint32_t type, size_t max_body)
{
	uint8_t *start;
	size_t total;

	if (!b->err && b->len - FRAME_HEAD_MAX > max_body)
		b->err = -SCT_E_LIMIT;
	cbuf_room(b, FRAME_CHECK_LEN);
	if (b->err)
		return b->err;
	start = frame_seal(b->p, FRAME_HEAD_MAX, b->len - FRAME_HEAD_MAX, type, &total);
	return writer_put(w, start, total);
}

static int writer_header(struct sct_writer *w, const struct sct_header_info *info)
{
	struct cbuf b;
	int err;

	if (w->sink) {
		w->nevents = info ? info->nevents : 0;
		w->totals = !info || info->filter;
		w->stacks = !info || info->stacks;
		return 0;
	}
	err = writer_put(w, sct_label, SCT_LABEL_LEN);
	if (err)
		return err;
	w->nevents = info->nevents;
	w->totals = info->filter != NULL;
	w->stacks = info->stacks != NULL;
	cbuf_init(&b, FRAME_HEAD_MAX, FRAME_HEAD_MAX + SCT_MAX_HEADER_BODY + FRAME_CHECK_LEN);
	header_encode(&b, info);
	err = writer_put_cbuf(w, &b, FRAME_HEADER, SCT_MAX_HEADER_BODY);
	cbuf_free(&b);
	if (err)
		w->err = err;
	return err;
}

/* The SYSCALL columns follow the HEADER: arguments and stack_id as it says (no info: neither). */
static struct sct_writer *writer_new(int fd, const struct sct_writer_opts *opts,
				     const struct sct_header_info *info, int *err)
{
	bool args = info && info->syscall_args, stacks = info && info->stacks;
	uint32_t minor = info ? header_minor(info) : SCT_FORMAT_MINOR;
	uint32_t cap = opts && opts->block_records ? opts->block_records : SCT_DEFAULT_BLOCK_RECORDS;
	struct sct_writer *w;
	struct stat st;

	if (cap > SCT_MAX_BLOCK_RECORDS)
		cap = SCT_MAX_BLOCK_RECORDS;
	w = calloc(1, sizeof(*w));
	if (!w) {
		*err = -ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->own_fd = true;
	w->no_fsync = opts && opts->no_fsync;
	w->flush_interval_ns = opts && opts->flush_interval_ns ? opts->flush_interval_ns
							       : 1000000000u;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		int fl = fcntl(fd, F_GETFL);

		w->regular = true;
		/* with O_APPEND the offset says nothing until the first write: the end does */
		w->base = fl >= 0 && (fl & O_APPEND) ? st.st_size : lseek(fd, 0, SEEK_CUR);
		w->can_cut = fl >= 0 && w->base >= 0;
	}
	*err = block_enc_init(&w->enc, cap, minor, args, stacks);
	if (*err) {
		block_enc_free(&w->enc);
		free(w);
		return NULL;
	}
	return w;
}

static void writer_free(struct sct_writer *w)
{
	block_enc_free(&w->enc);
	trailer_free(&w->tr);
	free(w);
}

struct sct_writer *sct_writer_open_fd(int fd, const struct sct_header_info *info,
				      const struct sct_writer_opts *opts, int *err)
{
	struct sct_writer *w = writer_new(fd, opts, info, err);

	if (!w) {
		close(fd);
		return NULL;
	}
	*err = writer_header(w, info);
	if (*err) {
		close(fd);
		writer_free(w);
		return NULL;
	}
	return w;
}

struct sct_writer *sct_writer_open(const char *path, bool overwrite, const struct sct_header_info *info,
				   const struct sct_writer_opts *opts, int *err)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
	struct sct_writer *w;
	struct stat st;
	bool created;
	int fd;

	if (!strcmp(path, "-")) {
		w = writer_new(STDOUT_FILENO, opts, info, err);
		if (!w)
			return NULL;
		w->own_fd = false;
		*err = writer_header(w, info);
		if (*err) {
			writer_free(w);
			return NULL;
		}
		return w;
	}
	fd = open(path, flags, 0600);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	created = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	/* O_TRUNC keeps an existing file's mode: a trace is private whichever way it was made */
	if (created && overwrite && fchmod(fd, 0600)) {
		*err = -errno;
		close(fd);
		return NULL;
	}
	w = sct_writer_open_fd(fd, info, opts, err);
	if (!w && created)
		unlink(path);
	return w;
}

struct sct_writer *sct_writer_open_blocks(const struct sct_header_info *info,
					  const struct sct_writer_opts *opts, sct_block_fn fn, void *ctx,
					  int *err)
{
	struct sct_writer *w;

	if (!fn) {
		*err = -EINVAL;
		return NULL;
	}
	w = writer_new(-1, opts, info, err);
	if (!w)
		return NULL;
	w->own_fd = false;
	w->sink = fn;
	w->sink_ctx = ctx;
	*err = writer_header(w, info);
	return w;
}

/* The trailer's totals for a block written whole: its index entry, counts and losses. */
static int writer_account(struct sct_writer *w, const struct index_entry *ie, const uint32_t *counts,
			  uint64_t lost)
{
	int err = trailer_add_block(&w->tr, ie, counts);

	w->tr.info.lost += lost;
	w->tr.info.warnings += counts[SCT_REC_WARNING];
	w->block_lost = 0;
	if (err)
		w->err = err;
	return err;
}

/* A block to the sink or to the file; bytes counts it once the sink took it. */
static int writer_block_out(struct sct_writer *w, const struct sct_block_frame *b)
{
	int err;

	if (!w->sink)
		return writer_put(w, b->bytes, b->len);
	err = w->sink(w->sink_ctx, b);
	if (!err)
		w->bytes += b->len;
	return err;
}

/* Encode and write the pending block. */
static int writer_flush_block(struct sct_writer *w)
{
	struct block_enc *e = &w->enc;
	struct sct_block_frame b;
	struct index_entry ie;
	int err;

	w->rows_open = 0;
	if (!e->count)
		return 0;
	for (uint32_t type = 0; type <= SCT_REC_MAX; type++)
		b.records[type] = e->types[type].count;
	ie.offset = w->bytes;
	ie.count = e->count;
	err = block_enc_finish(e, &b.bytes, &b.len);
	if (!err) {
		b.first_ns = ie.first_ns = e->first_ns;
		b.last_ns = ie.last_ns = e->last_ns;
		b.lost = w->block_lost;
		err = writer_block_out(w, &b);
	}
	block_enc_reset(e);
	if (err) {
		w->err = err;
		return err;
	}
	return writer_account(w, &ie, b.records, b.lost);
}

/* Make room for a record of the given worst-case size: flush first if it would not fit. */
static int writer_room(struct sct_writer *w, size_t bound)
{
	struct block_enc *e = &w->enc;

	if (e->count == e->cap || e->raw_bound + bound > BLOCK_RAW_BUDGET)
		return writer_flush_block(w);
	return 0;
}

/* n records were added to the pending block. */
static void writer_added(struct sct_writer *w, uint32_t n)
{
	w->rows_open = 0;
	if (w->enc.count == n)
		w->pending_since_ns = monotonic_ns();
	w->records += n;
}

/* The writer's first error, -SCT_E_STATE once finished, else 0. */
static int writer_state(const struct sct_writer *w)
{
	if (w->err)
		return w->err;
	return w->finished ? -SCT_E_STATE : 0;
}

/* What the session can store of sc: 0, -SCT_E_LIMIT (a string too long) or -EINVAL. */
static int writer_syscall_check(const struct sct_writer *w, const struct sct_syscall *sc)
{
	const struct block_enc *e = &w->enc;

	if (sc->path.len > SCT_MAX_STRING || sc->path2.len > SCT_MAX_STRING)
		return -SCT_E_LIMIT;
	/* a session without stack_id has nowhere to keep it */
	if (sc->stack_id && !e->stacks)
		return -EINVAL;
	/* a session without captured memory ignores it, as one without arguments ignores those */
	if (!e->capture_col)
		return 0;
	if (sc->addr.len > SCT_MAX_ADDR || sc->argv.len > SCT_MAX_STRING ||
	    sc->data.len > SCT_MAX_STRING)
		return -SCT_E_LIMIT;
	/* each argument ends in its NUL: a reader splits argv at them */
	if (sc->argv.len && sc->argv.ptr[sc->argv.len - 1])
		return -EINVAL;
	return 0;
}

int sct_writer_append_syscall(struct sct_writer *w, const struct sct_syscall *sc)
{
	int err = writer_state(w);

	if (err)
		return err;
	err = writer_syscall_check(w, sc);
	if (err)
		return err;
	err = writer_room(w, block_enc_syscall_bound(&w->enc, sc));
	if (err)
		return err;
	if (!w->enc.types[SCT_REC_SYSCALL].cols) {
		err = block_enc_type_alloc(&w->enc, SCT_REC_SYSCALL);
		if (err)
			return err;
	}
	err = block_enc_add_syscall(&w->enc, sc);
	if (err)
		return err;
	writer_added(w, 1);
	return 0;
}

/* How many records of bound bytes at most the pending block has room for. */
static uint32_t writer_room_for(const struct sct_writer *w, size_t bound)
{
	const struct block_enc *e = &w->enc;
	size_t by_bytes = e->raw_bound < BLOCK_RAW_BUDGET ? (BLOCK_RAW_BUDGET - e->raw_bound) / bound : 0;

	return by_bytes < e->cap - e->count ? (uint32_t)by_bytes : e->cap - e->count;
}

/* n SYSCALL records of a session without argument fields, a block's room at a time. */
static int writer_syscalls_add(struct sct_writer *w, const struct sct_syscall *sc, size_t n)
{
	const size_t bound = BLOCK_RECORD_BOUND(w->enc.syscall_ncols);

	while (n) {
		uint32_t k = writer_room_for(w, bound);
		int err;

		if (!k) {
			err = writer_flush_block(w);
			if (err)
				return err;
			continue;
		}
		if (k > n)
			k = (uint32_t)n;
		block_enc_add_syscalls(&w->enc, sc, k);
		writer_added(w, k);
		sc += k;
		n -= k;
	}
	return 0;
}

int sct_writer_append_syscalls(struct sct_writer *w, const struct sct_syscall *sc, size_t n)
{
	size_t ok = 0;
	int refused = 0, err = writer_state(w);

	if (err)
		return err;
	/* argument fields: a path each, checked and stored one record at a time */
	if (w->enc.syscall_args) {
		for (size_t i = 0; i < n && !err; i++)
			err = sct_writer_append_syscall(w, &sc[i]);
		return err;
	}
	while (ok < n && !(refused = writer_syscall_check(w, &sc[ok])))
		ok++;
	if (ok && !w->enc.types[SCT_REC_SYSCALL].cols) {
		err = block_enc_type_alloc(&w->enc, SCT_REC_SYSCALL);
		if (err)
			return err;
	}
	err = writer_syscalls_add(w, sc, ok);
	return err ? err : refused;
}

int sct_writer_syscall_rows(struct sct_writer *w, size_t n, struct sct_syscall_rows *rows)
{
	const size_t bound = BLOCK_RECORD_BOUND(w->enc.syscall_ncols);
	uint32_t k;
	int err = writer_state(w);

	w->rows_open = 0;
	if (err)
		return err;
	if (!n || w->enc.syscall_args)
		return -EINVAL;
	if (!w->enc.types[SCT_REC_SYSCALL].cols) {
		err = block_enc_type_alloc(&w->enc, SCT_REC_SYSCALL);
		if (err)
			return err;
	}
	k = writer_room_for(w, bound);
	if (!k) {
		err = writer_flush_block(w);
		if (err)
			return err;
		k = writer_room_for(w, bound);
	}
	block_enc_syscall_rows(&w->enc, rows);
	w->rows_open = k < n ? k : (uint32_t)n;
	return (int)w->rows_open;
}

int sct_writer_syscall_rows_commit(struct sct_writer *w, size_t k)
{
	if (k > w->rows_open)
		return -EINVAL;
	w->rows_open = 0;
	if (k) {
		block_enc_add_syscall_rows(&w->enc, (uint32_t)k);
		writer_added(w, (uint32_t)k);
	}
	return 0;
}

/* Stacks belong to a session that says it has them, and must read back and be named. */
static bool writer_stack_refused(const struct sct_writer *w, const struct sct_record *rec)
{
	if (!w->stacks)
		return true;
	switch (rec->type) {
	case SCT_REC_STACK:
		return !rec->stack.stack_id || sct_stack_check(&rec->stack);
	case SCT_REC_MODULE:
		return !rec->module.module_id || rec->module.build_id.len > SCT_MAX_BUILD_ID;
	default:
		return false;
	}
}

int sct_writer_append(struct sct_writer *w, const struct sct_record *rec)
{
	int64_t bound;
	int err = writer_state(w);

	if (err)
		return err;
	if (rec->type == SCT_REC_SYSCALL)
		return sct_writer_append_syscall(w, &rec->syscall);
	if (rec->type == SCT_REC_SESSION || rec->type > SCT_REC_MAX)
		return -EINVAL;
	/* a sample its HEADER does not describe could never be decoded */
	if (rec->type == SCT_REC_SAMPLE && rec->sample.event >= w->nevents)
		return -EINVAL;
	/* totals belong to a session that says what was filtered, and must read back */
	if (rec->type == SCT_REC_TOTALS && (!w->totals || sct_totals_check(&rec->totals)))
		return -EINVAL;
	if (rec->type >= SCT_REC_STACK && writer_stack_refused(w, rec))
		return -EINVAL;
	bound = block_enc_bound(rec);
	if (bound < 0)
		return (int)bound;
	err = writer_room(w, (size_t)bound);
	if (err)
		return err;
	if (!w->enc.types[rec->type].cols) {
		err = block_enc_type_alloc(&w->enc, rec->type);
		if (err)
			return err;
	}
	err = block_enc_add(&w->enc, rec, (size_t)bound);
	if (err)
		return err;
	if (rec->type == SCT_REC_LOST)
		w->block_lost += rec->lost.count;
	writer_added(w, 1);
	return 0;
}

int sct_writer_flush(struct sct_writer *w)
{
	int err = writer_state(w);

	return err ? err : writer_flush_block(w);
}

int sct_writer_flush_if_due(struct sct_writer *w, uint64_t now_ns)
{
	int err = writer_state(w);

	if (err)
		return err;
	if (!w->enc.count || now_ns < w->pending_since_ns ||
	    now_ns - w->pending_since_ns < w->flush_interval_ns)
		return 0;
	return writer_flush_block(w);
}

uint64_t sct_writer_bytes(const struct sct_writer *w)
{
	return w->bytes;
}

uint64_t sct_writer_records(const struct sct_writer *w)
{
	return w->records;
}

int sct_writer_append_block(struct sct_writer *w, const struct sct_block_frame *b)
{
	struct index_entry ie = { .first_ns = b->first_ns, .last_ns = b->last_ns };
	struct frame f;
	int err = writer_state(w);

	if (err)
		return err;
	if (frame_head_get(b->bytes, b->len, &f) != FRAME_OK || f.type != FRAME_BLOCK ||
	    f.total != b->len || !frame_verify(b->bytes, &f))
		return -EINVAL;
	/* what was appended before it comes before it */
	err = writer_flush_block(w);
	if (err)
		return err;
	for (uint32_t type = 0; type <= SCT_REC_MAX; type++)
		ie.count += b->records[type];
	ie.offset = w->bytes;
	err = writer_block_out(w, b);
	if (err) {
		w->err = err;
		return err;
	}
	w->records += ie.count;
	return writer_account(w, &ie, b->records, b->lost);
}

static int writer_trailer(struct sct_writer *w)
{
	struct cbuf b;
	int err;

	if (w->sink)
		return 0;

	cbuf_init(&b, FRAME_HEAD_MAX, FRAME_HEAD_MAX + SCT_MAX_FRAME_BODY + FRAME_CHECK_LEN);
	trailer_encode(&b, &w->tr);
	err = writer_put_cbuf(w, &b, FRAME_TRAILER, SCT_MAX_FRAME_BODY);
	cbuf_free(&b);
	if (err)
		w->err = err;
	return err;
}

/* The last block, the TRAILER and fsync, once; errors stay in w->err. */
static void writer_end(struct sct_writer *w)
{
	if (w->finished)
		return;
	w->finished = true;
	if (!w->err && !writer_flush_block(w) && !writer_trailer(w) && w->regular &&
	    !w->no_fsync && fsync(w->fd))
		w->err = -errno;
}

int sct_writer_finish(struct sct_writer *w)
{
	writer_end(w);
	return w->err;
}

int sct_writer_close(struct sct_writer *w)
{
	int err;

	if (!w)
		return 0;
	writer_end(w);
	if (w->own_fd && close(w->fd) && !w->err)
		w->err = -errno;
	err = w->err;
	writer_free(w);
	return err;
}

void sct_writer_abandon(struct sct_writer *w)
{
	if (!w)
		return;
	if (w->own_fd)
		close(w->fd);
	writer_free(w);
}
