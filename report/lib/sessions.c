// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every session read, numbered over all inputs (the files of one recording, format 1.2, are
 * one session, and a sequence number missing among them is a gap the footer names): only what outlives the session (host, file,
 * clock anchor) is kept, a few dozen bytes each, and only for the sessions the output names
 * (the footer's first lines, or all of them for the process tree), so a file of many HEADERs
 * costs what its output needs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "outbuf.h"
#include "sct.h"
#include "sessions.h"
#include "strtab.h"

/* A recording (format 1.2) whose files were read: their session and sequence numbers. */
struct recording {
	char id[SCT_RECORDING_ID_LEN + 1];
	struct sess s;     /* what its files share */
	uint64_t *seqs;    /* sorted; one entry per file read, repeats kept */
	uint32_t nseqs, cap;
};

struct sessions {
	struct sess *v;
	uint32_t n;        /* sessions added */
	uint32_t numbered; /* of them, with a HEADER */
	uint32_t kept, cap, keep;
	struct recording *recs;
	uint32_t nrecs, caprecs;
};

struct sessions *sessions_new(uint32_t keep)
{
	struct sessions *ss = calloc(1, sizeof(struct sessions));

	if (ss)
		ss->keep = keep;
	return ss;
}

int sessions_add(struct sessions *ss, struct sess *s)
{
	bool keep = ss->kept < ss->keep;

	if (ss->n == UINT32_MAX)
		return -E2BIG;
	if (keep && ss->kept == ss->cap) {
		uint32_t n = ss->cap ? (ss->cap > UINT32_MAX / 2 ? UINT32_MAX : ss->cap * 2) : 64;
		struct sess *tmp = realloc(ss->v, (size_t)n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		ss->v = tmp;
		ss->cap = n;
	}
	s->id = ss->n++;
	s->number = ss->numbered;
	ss->numbered += !s->headless;
	if (keep)
		ss->v[ss->kept++] = *s;
	return 0;
}

static struct recording *recording_find(struct sessions *ss, const char *id)
{
	for (uint32_t i = 0; i < ss->nrecs; i++)
		if (!strcmp(ss->recs[i].id, id))
			return &ss->recs[i];
	return NULL;
}

static struct recording *recording_new(struct sessions *ss, const char *id, const struct sess *s)
{
	struct recording *rec;

	if (ss->nrecs == ss->caprecs) {
		uint32_t n = ss->caprecs ? ss->caprecs * 2 : 8;
		struct recording *tmp = realloc(ss->recs, (size_t)n * sizeof(*tmp));

		if (!tmp)
			return NULL;
		ss->recs = tmp;
		ss->caprecs = n;
	}
	rec = &ss->recs[ss->nrecs++];
	memset(rec, 0, sizeof(*rec));
	snprintf(rec->id, sizeof(rec->id), "%s", id);
	rec->s = *s;
	return rec;
}

/* Keep seq in order; files come in any order the command line gives. */
static int recording_note(struct recording *rec, uint64_t seq)
{
	uint32_t i;

	if (rec->nseqs == rec->cap) {
		uint32_t n = rec->cap ? rec->cap * 2 : 16;
		uint64_t *tmp = realloc(rec->seqs, (size_t)n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		rec->seqs = tmp;
		rec->cap = n;
	}
	for (i = rec->nseqs; i > 0 && rec->seqs[i - 1] > seq; i--)
		rec->seqs[i] = rec->seqs[i - 1];
	rec->seqs[i] = seq;
	rec->nseqs++;
	return 0;
}

int sessions_add_file(struct sessions *ss, struct sess *s, const char *recording_id, uint64_t seq)
{
	struct recording *rec;
	uint32_t file = s->file;
	int err;

	if (!*recording_id || !seq || strlen(recording_id) > SCT_RECORDING_ID_LEN)
		return sessions_add(ss, s);
	rec = recording_find(ss, recording_id);
	if (rec) {
		*s = rec->s;
		if (s->id < ss->kept)
			ss->v[s->id].last_file = file;
		return recording_note(rec, seq);
	}
	err = sessions_add(ss, s);
	if (err)
		return err;
	s->last_file = file;
	rec = recording_new(ss, recording_id, s);
	return rec ? recording_note(rec, seq) : -ENOMEM;
}

/* "3" or "3-5", after ", " unless first. */
static void recording_out_range(struct out *o, uint64_t lo, uint64_t hi, bool *first)
{
	out_str(o, *first ? "" : ", ");
	*first = false;
	out_u64(o, lo);
	if (hi > lo) {
		out_char(o, '-');
		out_u64(o, hi);
	}
}

/* Sequence numbers missing between the lowest and the highest read, and those read twice. */
static void recording_out_holes(struct out *o, const struct recording *rec)
{
	bool first = true, twice = false;

	for (uint32_t i = 1; i < rec->nseqs; i++)
		if (rec->seqs[i] > rec->seqs[i - 1] + 1) {
			if (first)
				out_str(o, "; gap: sequence ");
			recording_out_range(o, rec->seqs[i - 1] + 1, rec->seqs[i] - 1, &first);
		}
	if (!first)
		out_str(o, " missing");
	first = true;
	for (uint32_t i = 1; i < rec->nseqs; i++)
		if (rec->seqs[i] == rec->seqs[i - 1] && (i == 1 || rec->seqs[i - 2] != rec->seqs[i])) {
			if (!twice)
				out_str(o, "; read more than once: sequence ");
			twice = true;
			recording_out_range(o, rec->seqs[i], rec->seqs[i], &first);
		}
}

void sessions_out_recordings(const struct sessions *ss, struct out *o)
{
	for (uint32_t i = 0; i < ss->nrecs; i++) {
		const struct recording *rec = &ss->recs[i];
		uint64_t lo = rec->seqs[0], hi = rec->seqs[rec->nseqs - 1];

		if (rec->nseqs == 1 && lo == 1)
			continue;
		out_str(o, "-- recording ");
		names_out_escaped(o, rec->id, strlen(rec->id));
		out_printf(o, ": %u file%s, sequence %llu-%llu, read as session %u",
			   rec->nseqs, rec->nseqs == 1 ? "" : "s", (unsigned long long)lo,
			   (unsigned long long)hi, rec->s.number);
		recording_out_holes(o, rec);
		out_char(o, '\n');
	}
}

const struct sess *sessions_get(const struct sessions *ss, uint32_t id)
{
	return id < ss->kept ? &ss->v[id] : NULL;
}

uint32_t sessions_count(const struct sessions *ss)
{
	return ss->n;
}

/* Blocks without a HEADER take no session number (spec/FORMAT.md, 10.5). */
void sessions_out_label(struct out *o, const struct sess *s, const struct strtab *strs)
{
	if (s->headless) {
		out_str(o, "no HEADER (damaged or missing): host unknown");
		return;
	}
	out_printf(o, "session %u: host ", s->number);
	names_out_escaped(o, strtab_get(strs, s->host), strtab_len(strs, s->host));
}

void sessions_free(struct sessions *ss)
{
	if (!ss)
		return;
	for (uint32_t i = 0; i < ss->nrecs; i++)
		free(ss->recs[i].seqs);
	free(ss->recs);
	free(ss->v);
	free(ss);
}
