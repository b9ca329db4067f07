/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sessions of every input (sessions.c): what outlives a session, its number and host.
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_SESSIONS_H
#define SCT_SESSIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"
#include "strtab.h"

/* What outlives a session: kept for every session of every input. */
struct sess {
	uint32_t id;        /* over all inputs, from 0: the key of the tables */
	uint32_t number;    /* shown: sessions with a HEADER over all inputs, from 0 */
	bool headless;      /* blocks with no HEADER (damaged or missing): no number, host, clock */
	uint32_t host;      /* strtab id of the hostname */
	uint32_t file;      /* strtab id of the input path */
	uint32_t last_file; /* the last file of its recording read, file if one */
	uint64_t anchor_clock, anchor_real;
	bool cgroup_v1;
	uint32_t backend;       /* strtab ids of the HEADER's strings ("" before format 1.1) */
	uint32_t sample_cgroup;
	/*
	 * HEADER "filter" (format 1.5): the session's TOTALS count the calls, its SYSCALL records
	 * are the calls the filter kept; strtab ids of its "text", "details" and "totals"
	 */
	bool filtered;
	uint32_t filter_text, filter_details, filter_totals;
};
#define SESSIONS_LISTED 20 /* sessions the footer lists; then "... N more sessions" */
struct sessions;
/* A table that keeps the first keep sessions (UINT32_MAX: all) and counts the others. */
struct sessions *sessions_new(uint32_t keep);
/* Numbers s (s->id and s->number are set) and keeps a copy if it is among the kept; -ENOMEM. */
int sessions_add(struct sessions *ss, struct sess *s);
/*
 * A file of recording_id (its HEADER's; "" or sequence 0: none): the first file of a
 * recording is added as sessions_add() does; a later one takes its session (*s becomes it)
 * and its sequence number is noted for the footer. -ENOMEM.
 */
int sessions_add_file(struct sessions *ss, struct sess *s, const char *recording_id, uint64_t seq);
/* A footer line per recording read from several files (or not from its first): gaps, repeats. */
void sessions_out_recordings(const struct sessions *ss, struct out *o);
/* A kept session, NULL for others; valid until the next sessions_add(). */
const struct sess *sessions_get(const struct sessions *ss, uint32_t id);
/* Sessions added, kept or not. */
uint32_t sessions_count(const struct sessions *ss);
/* "session N: host H", or what a stretch of blocks without a HEADER is, escaped. */
void sessions_out_label(struct out *o, const struct sess *s, const struct strtab *strs);
void sessions_free(struct sessions *ss);
/* Wall clock of a session time, and time relative to the session's anchor. */
static inline uint64_t sess_wall(const struct sess *s, uint64_t t)
{
	return t - s->anchor_clock + s->anchor_real;
}
static inline int64_t sess_rel(const struct sess *s, uint64_t t)
{
	return (int64_t)(t - s->anchor_clock);
}

#endif
