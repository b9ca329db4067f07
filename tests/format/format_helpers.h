/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared helpers of the format tests: sample sessions, in-memory traces, read-back capture. */
#ifndef SCT_TESTS_FORMAT_HELPERS_H
#define SCT_TESTS_FORMAT_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sct.h"

/* A small HEADER: host "testhost", a hand table with read(0), write(1), openat(257). */
extern const struct sct_header_info fh_info;

/* A trace written to a memfd: its bytes after close. */
struct fh_trace {
	uint8_t *p;
	size_t len;
};

/* Open a writer on a fresh memfd; *fd gets a dup to read the bytes back with fh_collect_fd. */
struct sct_writer *fh_writer(const struct sct_writer_opts *opts, int *fd);
/* Read all of fd (from offset 0) into t and close fd. */
void fh_collect_fd(int fd, struct fh_trace *t);
void fh_trace_free(struct fh_trace *t);

/* A SYSCALL record number i of a deterministic stream. */
struct sct_record fh_syscall(uint64_t i);

/* Everything a read produced. */
struct fh_read {
	int rc;                     /* last sct_reader_next() result: 0 or fatal code */
	uint64_t nrecords;          /* records other than SESSION */
	uint64_t nsessions;         /* SESSION records with a session */
	uint64_t nheaderless;       /* SESSION records for blocks without a HEADER */
	struct sct_record *recs;    /* copies (strings not kept) when keep is set */
	uint64_t ndiag[SCT_DIAG_BAD_RECORD + 1];
	struct sct_diag last_diag[SCT_DIAG_BAD_RECORD + 1];
	struct sct_reader_stats stats;
	char error[256];
};

/* Read a whole in-memory trace. keep: also store copies of the records. */
void fh_read_mem(const void *p, size_t len, bool keep, struct fh_read *out);
void fh_read_free(struct fh_read *out);
/* Diagnostic callback that counts into a struct fh_read. */
void fh_diag_count(void *ctx, const struct sct_diag *d);

#endif
