/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The writer's pending block: one set of preallocated columns per record type, the run list
 * that keeps record order, and the encoder that turns them into a BLOCK frame
 * (spec/FORMAT.md sections 6 and 7). Nothing on the append path allocates except the first
 * record of a type and string data growing past its high-water mark.
 */
#ifndef SCT_BLOCK_ENCODE_H
#define SCT_BLOCK_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "schema.h"
#include "sct.h"

/* Worst-case payload bytes of the parts that are not per-record (run list head, sections). */
#define BLOCK_FIXED_BOUND 1024u
/* Worst case per record: 8 bytes per field plus a new run (type + count varints). */
#define BLOCK_RECORD_BOUND(nfields) ((size_t)(nfields) * 8 + 8)

struct enc_bytes {
	uint8_t *p;
	size_t len, cap;
};

struct enc_type {
	uint64_t *cols;  /* nfields columns of stride values each (cap used), field-major */
	struct enc_bytes data[SCHEMA_MAX_BUILTIN_FIELDS]; /* contents of the bytes fields */
	uint32_t count;
};

/*
 * The block's distinct SYSCALL paths of one path column (spec/FORMAT.md section 7.1): entry
 * k - 1 is the k-th path stored whole, at data offset off. Open addressing over entry + 1
 * (0: free slot).
 */
struct enc_strtab {
	uint32_t *slots;
	uint32_t nslots;  /* power of two, > 2 * the block's record cap */
	struct enc_str { uint32_t hash, len; size_t off; } *v;
	uint32_t n;
};

struct enc_run {
	uint32_t type, count;
};

/* SYSCALL's path columns: path and path2, each with its own table. */
#define ENC_PATH_COLUMNS 2

struct block_enc {
	uint32_t cap;     /* records per block */
	uint32_t stride;  /* values from one column to the next: cap, padded */
	uint32_t count;   /* records pending */
	size_t raw_bound; /* payload bytes the pending records need at most */
	struct enc_type types[SCT_REC_MAX + 1];
	struct enc_run *runs;
	uint32_t nruns;
	uint8_t *raw;     /* payload scratch */
	size_t raw_cap;
	uint8_t *frame;   /* the finished frame */
	size_t frame_cap;
	uint64_t first_ns, last_ns; /* of the last finished block */
	uint64_t lo_ns, hi_ns;      /* the pending records' times, least and greatest */
	uint32_t minor;     /* the session's: which SYSCALL fields it has, with the two below */
	bool syscall_args;  /* SYSCALL sections hold the argument fields (format 1.4) */
	bool stacks;        /* SYSCALL sections hold stack_id (format 1.6) */
	/*
	 * SYSCALL columns as the session's schema lists them (its columns are stored in that
	 * order), the one of stack_id (0: none): after the base fields or after path2, and the
	 * first of the captured memory (format 1.7; 0: none): after path2 or stack_id
	 */
	uint32_t syscall_ncols, stack_col, capture_col;
	struct enc_strtab paths[ENC_PATH_COLUMNS]; /* of path, then path2 */
};

/* SYSCALL's fields as a session of minor version minor, with or without args and stacks, has them. */
int block_enc_init(struct block_enc *e, uint32_t cap, uint32_t minor, bool syscall_args, bool stacks);
void block_enc_free(struct block_enc *e);
/* Allocate the columns of a type on its first use. */
int block_enc_type_alloc(struct block_enc *e, uint32_t type);
/* Worst-case payload bytes rec adds; -SCT_E_LIMIT if one of its strings is too long. */
int64_t block_enc_bound(const struct sct_record *rec);
/* Append rec (its type's columns allocated, room checked by the caller). 0 or -ENOMEM. */
int block_enc_add(struct block_enc *e, const struct sct_record *rec, size_t bound);
/*
 * Encode the pending records as a sealed BLOCK frame in e->frame; *len gets its size and
 * e->first_ns/last_ns the block's time range. The columns are encoded in place, so call
 * block_enc_reset() next whatever the outcome. 0 or -ENOMEM.
 */
int block_enc_finish(struct block_enc *e, const uint8_t **frame, size_t *len);
void block_enc_reset(struct block_enc *e);

/*
 * A pending record's time (its first field, whatever its type) into the block's range: as
 * records arrive, while the value is in cache, not in a pass over the columns at the end.
 */
static inline void block_enc_time(struct block_enc *e, uint64_t t)
{
	e->lo_ns = t < e->lo_ns ? t : e->lo_ns;
	e->hi_ns = t > e->hi_ns ? t : e->hi_ns;
}

/* n more records of type, after those pending. */
static inline void block_enc_run(struct block_enc *e, uint32_t type, uint32_t n)
{
	if (e->nruns && e->runs[e->nruns - 1].type == type) {
		e->runs[e->nruns - 1].count += n;
		return;
	}
	e->runs[e->nruns].type = type;
	e->runs[e->nruns].count = n;
	e->nruns++;
}

/*
 * sc's path columns in the pending row c (columns stride values apart): per path, ref 0 and its
 * bytes appended for a path new to the block (or empty), else ref 1 + its entry with no bytes.
 * 0 or -ENOMEM (nothing changed).
 */
int block_enc_paths(struct block_enc *e, const struct sct_syscall *sc, uint64_t *c, size_t stride);
/* sc's captured memory (format 1.7) in the pending row c, alike. 0 or -ENOMEM (nothing changed). */
int block_enc_captures(struct block_enc *e, const struct sct_syscall *sc, uint64_t *c, size_t stride);
/* Worst-case payload bytes of a SYSCALL record. */
static inline size_t block_enc_syscall_bound(const struct block_enc *e, const struct sct_syscall *sc)
{
	size_t bound = BLOCK_RECORD_BOUND(e->syscall_ncols);

	if (e->syscall_args)
		bound += sc->path.len + sc->path2.len;
	if (e->capture_col)
		bound += (size_t)sc->addr.len + sc->argv.len + sc->data.len;
	return bound;
}

/*
 * n SYSCALL records of a session without argument fields, each column filled for all of them
 * at once (their type's columns allocated, room for n checked by the caller).
 */
void block_enc_add_syscalls(struct block_enc *e, const struct sct_syscall *sc, uint32_t n);

/*
 * rows at the next free row of each base SYSCALL column (their type's columns allocated), for
 * a caller that fills them and counts them in with block_enc_add_syscall_rows().
 */
void block_enc_syscall_rows(struct block_enc *e, struct sct_syscall_rows *rows);
/* n rows filled through block_enc_syscall_rows() (room for them checked by the caller). */
void block_enc_add_syscall_rows(struct block_enc *e, uint32_t n);

/*
 * The SYSCALL hot path of block_enc_add(): its columns straight from the struct (the cast
 * sign-extends a SINT one as block_enc_add() does); the paths through block_enc_paths().
 */
#define ENC_SYSCALL_COLUMN(t, member, kind, unit) ENC_SYSCALL_##kind(member)
#define ENC_SYSCALL_UINT(member) c[SYSCALL_COL_##member * stride] = (uint64_t)sc->member;
#define ENC_SYSCALL_SINT ENC_SYSCALL_UINT
#define ENC_SYSCALL_TIME ENC_SYSCALL_UINT
#define ENC_SYSCALL_BYTES(member)
static inline int block_enc_add_syscall(struct block_enc *e, const struct sct_syscall *sc)
{
	struct enc_type *t = &e->types[SCT_REC_SYSCALL];
	uint64_t *c = t->cols + t->count;
	size_t stride = e->stride;

	if (e->syscall_args) {
		int err;

		RECORD_SYSCALL_ARGS_FIELDS(ENC_SYSCALL_COLUMN, syscall)
		RECORD_SYSCALL_PATH2_FIELDS(ENC_SYSCALL_COLUMN, syscall)
		/* after them: the stored refs replace the struct's (a row counts once added) */
		err = block_enc_paths(e, sc, c, stride);
		if (!err && e->capture_col)
			err = block_enc_captures(e, sc, c, stride);
		if (err)
			return err;
	}
	RECORD_SYSCALL_BASE_FIELDS(ENC_SYSCALL_COLUMN, syscall)
	if (e->stack_col)
		c[e->stack_col * stride] = sc->stack_id;
	block_enc_time(e, sc->time_ns);
	t->count++;
	block_enc_run(e, SCT_REC_SYSCALL, 1);
	e->count++;
	e->raw_bound += block_enc_syscall_bound(e, sc);
	return 0;
}
#undef ENC_SYSCALL_COLUMN
#undef ENC_SYSCALL_UINT
#undef ENC_SYSCALL_SINT
#undef ENC_SYSCALL_TIME
#undef ENC_SYSCALL_BYTES

#endif
