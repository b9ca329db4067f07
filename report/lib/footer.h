/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The input summary every tool ends with (footer.c): damage, statistics, sessions read,
 * and the exit status they make.
 */
#ifndef SCT_FOOTER_H
#define SCT_FOOTER_H

#include <stdbool.h>

#include "outbuf.h"
#include "sct.h"
#include "sessions.h"
#include "strtab.h"

struct footer;
struct footer *footer_new(void);
/* Diagnostics callback for sct_reader_set_diag(); ctx is the footer. */
void footer_diag(void *footer, const struct sct_diag *d);
void footer_set_file(struct footer *f, const char *path);
void footer_record(struct footer *f, const struct sct_record *rec);
/* A run of SYSCALL records, as footer_record() counts each. */
void footer_batch(struct footer *f, const struct sct_syscall_batch *batch);
/* A record of a type its session's version does not define, which its HEADER describes. */
void footer_schema_record(struct footer *f);
void footer_add_stats(struct footer *f, const struct sct_reader_stats *st);
void footer_input_error(struct footer *f, const char *path, const char *msg);
/* How a tool used the TOTALS records of filtered sessions (format 1.5): footer lines. */
enum footer_totals_note {
	FOOTER_FROM_TOTALS = 1,      /* the summary counts their TOTALS, not their details */
	FOOTER_ERRNO_DETAILS = 2,    /* ... but the errno breakdown has the details only */
	FOOTER_TIMELINE_DETAILS = 4, /* the timeline shows their details only */
};
void footer_note_summary(struct footer *f, unsigned note);
/* The summary came from their detailed calls: why (a static string) the TOTALS could not serve. */
void footer_note_details_only(struct footer *f, const char *why);
/* A TOTALS record counted whole though its interval straddles the time window's edge. */
void footer_note_straddle(struct footer *f);
/* The footer, with a line per session of ss (names in strs). */
void footer_print(struct footer *f, const struct sessions *ss, const struct strtab *strs, struct out *o);
/*
 * The tool's exit status after reading every input (err: a fatal error, 0 if none): prints
 * the reason for a non-zero status on stderr as "TOOL: ...". Damage alone is not an error,
 * unless strict or nothing could be read.
 */
int footer_exit_status(const struct footer *f, const char *tool, bool strict, int err);
void footer_free(struct footer *f);

#endif
