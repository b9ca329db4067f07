/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reader's current block: its payload, validated once when loaded, then decoded a chunk
 * of rows at a time per section, so memory per block is the payload plus a few KiB of values
 * whatever the record count (spec/FORMAT.md sections 6 and 7).
 */
#ifndef SCT_BLOCK_DECODE_H
#define SCT_BLOCK_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schema.h"
#include "sct.h"
#include "session.h"

/* Rows decoded at a time per section. */
#define DEC_CHUNK 256u

/* SYSCALL's path columns (path, path2), each resolved against its own table. */
#define DEC_PATH_COLUMNS 2

struct dec_col {
	uint32_t kind;
	uint32_t width;          /* 0 also for a column the section lacks */
	const uint8_t *planes;
	const uint8_t *data;     /* bytes columns: the concatenated strings */
	uint64_t run;            /* time: last value; bytes: data offset of the next row */
	uint32_t at;             /* time, bytes: the row run is at (the rows before it summed in) */
};

struct dec_section {
	uint32_t type;
	uint32_t count;
	uint32_t ncols;          /* columns held: schema fields, at least the built-in ones */
	uint32_t listed;         /* fields the HEADER lists: columns past them read as 0 and empty */
	const struct sct_type_schema *schema; /* NULL: no schema, the records are skipped */
	const struct field_slot *slots;       /* built-in storage; NULL if not typed */
	uint32_t nslots;
	uint32_t stack_col;      /* typed SYSCALL: the column of stack_id (format 1.6), 0 none */
	uint32_t capture_col;    /* typed SYSCALL: the column of addr_flags (format 1.7), 0 none */
	bool unknown;            /* no usable schema: counted as unknown records */
	bool deliver;            /* next() returns these records */
	uint32_t row;            /* next row to hand out */
	uint32_t chunk0, chunk_n; /* rows [chunk0, chunk0+chunk_n) are in vals */
	uint32_t pending;        /* columns (bit k) of the current chunk left undecoded: lazy */
	uint64_t runsum;
	struct dec_col *cols;
	uint64_t *vals;          /* the current chunk: ncols columns of DEC_CHUNK values */
	uint64_t *own;           /* vals' memory */
	/* SYSCALL with arguments: the block's paths of path and of path2, offset << 32 | len */
	const uint64_t *paths[DEC_PATH_COLUMNS];
};

struct dec_run {
	uint32_t type, sec, count;
};

struct block_meta {
	uint64_t count, raw_size, first_ns, last_ns, codec;
	const uint8_t *payload;
	size_t payload_len;
};

struct block_dec {
	uint8_t *raw;
	size_t raw_cap;
	struct dec_run *runs;
	uint32_t nruns, runs_cap;
	struct dec_section secs[SCT_MAX_SECTIONS];
	uint32_t cols_cap[SCT_MAX_SECTIONS]; /* allocated columns per section slot */
	uint32_t nsecs;
	uint32_t run_idx, run_left, cur; /* position in record order */
	bool deliver_unknown;    /* also deliver types whose HEADER entry contradicts section 9 */
	uint32_t skip_types;     /* bit t: records of type t (< 32) are passed by, not decoded */
	uint64_t *paths[DEC_PATH_COLUMNS]; /* storage of the SYSCALL section's path tables */
	uint32_t paths_cap[DEC_PATH_COLUMNS];
};

void block_dec_free(struct block_dec *d);
/* Parse the BLOCK body's metadata; -1 with *why set if it is malformed or past the limits. */
int block_meta_parse(const uint8_t *body, size_t len, struct block_meta *m, const char **why);
/*
 * Decompress and validate the payload; afterwards block_dec_next() walks the records.
 * s is the session whose HEADER schema applies (NULL: the built-in schema).
 * Returns 0, -SCT_E_CORRUPT with *why set, or -ENOMEM. On error the block holds no records.
 */
int block_dec_load(struct block_dec *d, const struct block_meta *m, const struct sct_session *s,
		   const char **why);
/*
 * A typed SYSCALL section's columns (bit k: column k < 32) may be left undecoded by a chunk
 * until block_dec_complete(): what a reader of batches never looks at (their arguments, paths
 * and captures; the summary's times, pids and tids) costs nothing but its catching up when it
 * is asked for. DEC_BATCH: the columns of a batch's arrays (SYSCALL's base fields).
 */
#define DEC_BATCH ((1u << SYSCALL_BASE_NCOLS) - 1)
/* Decode the chunk of section sec that holds row; of a typed SYSCALL section's, not the lazy columns. */
void block_dec_chunk(struct dec_section *sec, uint32_t row, uint32_t lazy);
/* Decode the columns of cols (bit k: column k) that the current chunk of sec left undecoded. */
void block_dec_complete(struct dec_section *sec, uint32_t cols);
/* Fill rec with row i of sec's current chunk. */
void block_dec_fill(const struct dec_section *sec, uint32_t i, struct sct_record *rec);

/*
 * The argument fields of a SYSCALL section that has them, and its captured memory (0 and
 * empty in a section without), row i of its current chunk.
 */
void block_dec_fill_args(const struct dec_section *sec, uint32_t i, struct sct_syscall *sc);
/* The argument fields and captured memory of a SYSCALL record of a section without them: 0 and empty. */
void block_dec_clear_args(struct sct_syscall *sc);

/*
 * Next deliverable record's section and chunk index; false when the block is exhausted. A chunk
 * decoded on the way leaves the lazy columns undecoded (block_dec_chunk()).
 */
static inline bool block_dec_next(struct block_dec *d, uint32_t lazy, struct dec_section **out, uint32_t *idx)
{
	for (;;) {
		struct dec_section *sec;
		uint32_t row;

		if (!d->run_left) {
			if (d->run_idx == d->nruns)
				return false;
			d->cur = d->runs[d->run_idx].sec;
			d->run_left = d->runs[d->run_idx].count;
			d->run_idx++;
		}
		sec = &d->secs[d->cur];
		if (!sec->deliver) {
			sec->row += d->run_left;
			d->run_left = 0;
			continue;
		}
		d->run_left--;
		row = sec->row++;
		if (row - sec->chunk0 >= sec->chunk_n)
			block_dec_chunk(sec, row, lazy);
		*out = sec;
		*idx = row - sec->chunk0;
		return true;
	}
}

/*
 * After block_dec_next() gave a row of sec: takes the rows that follow it in sec's current
 * chunk with no record of another section between them, max at most, and returns how many.
 */
static inline uint32_t block_dec_take_rows(struct block_dec *d, struct dec_section *sec, uint32_t max)
{
	uint32_t more = sec->chunk0 + sec->chunk_n - sec->row;

	if (more > d->run_left)
		more = d->run_left;
	if (more > max)
		more = max;
	d->run_left -= more;
	sec->row += more;
	return more;
}

#endif
