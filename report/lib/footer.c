// SPDX-License-Identifier: BSD-2-Clause
/*
 * The footer every run prints: what was lost, warned about, unfinished, skipped or cut
 * short, with counts, so a report never looks complete when its input was not.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "footer.h"
#include "names.h"
#include "outbuf.h"
#include "sessions.h"
#include "strtab.h"

#define FOOTER_DETAILS 20 /* detail lines kept per kind; counts are always complete */

/* One detail line: a formatted prefix and bytes from a file (any bytes, NULs too). */
struct detail {
	char *line;
	size_t len;
};

struct footer {
	const char *file;
	struct sct_reader_stats st;
	uint64_t lost_by_cause[3], lost_total, lost_records;
	uint64_t warning_records, warnings_by_kind[4];
	uint64_t unfinished;
	uint64_t newer_records; /* types above SCT_REC_MAX that their HEADER describes: readable */
	uint32_t nfiles;
	struct detail warnings[FOOTER_DETAILS], ranges[FOOTER_DETAILS], errors[FOOTER_DETAILS];
	uint32_t nwarnings, nranges, nerrors, input_errors;
	uint64_t range_diags;  /* every diagnostic listed under skipped/corrupt, kept or not */
	uint64_t damage_diags; /* every diagnostic that says data was lost or is missing */
	unsigned totals_notes;  /* enum footer_totals_note */
	const char *details_only; /* why filtered sessions were summed from their details */
	uint64_t straddles;     /* TOTALS counted whole across the time window's edge */
};

struct footer *footer_new(void)
{
	return calloc(1, sizeof(struct footer));
}

void footer_set_file(struct footer *f, const char *path)
{
	f->file = path;
}

static void footer_keep(struct detail *list, uint32_t *n, const void *tail, size_t tail_len,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void footer_keep(struct detail *list, uint32_t *n, const void *tail, size_t tail_len,
			const char *fmt, ...)
{
	va_list ap;
	char *head = NULL, *line;
	int len;

	if (*n >= FOOTER_DETAILS)
		return;
	va_start(ap, fmt);
	len = vasprintf(&head, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	line = realloc(head, (size_t)len + tail_len + 1);
	if (!line) {
		free(head);
		return;
	}
	if (tail_len)
		memcpy(line + len, tail, tail_len);
	list[*n].line = line;
	list[(*n)++].len = (size_t)len + tail_len;
}

/*
 * Unknown frames and records are a newer minor version's, not damage; every other kind,
 * including kinds newer than this tool, says something was lost or is missing.
 */
void footer_diag(void *ctx, const struct sct_diag *d)
{
	struct footer *f = ctx;
	const char *file = f->file ? f->file : "-";
	const char *text = d->text ? d->text : "";

	if (d->kind != SCT_DIAG_UNKNOWN_FRAME && d->kind != SCT_DIAG_UNKNOWN_RECORD)
		f->damage_diags++;
	switch (d->kind) {
	case SCT_DIAG_UNKNOWN_FRAME:
	case SCT_DIAG_UNKNOWN_RECORD:
	case SCT_DIAG_NO_TRAILER:
		return; /* counted on their own footer lines */
	case SCT_DIAG_SKIPPED:
	case SCT_DIAG_BAD_BLOCK:
		footer_keep(f->ranges, &f->nranges, text, strlen(text), "%s: bytes %llu-%llu skipped: ", file,
			    (unsigned long long)d->offset, (unsigned long long)(d->offset + d->length));
		break;
	case SCT_DIAG_TRUNCATED:
		footer_keep(f->ranges, &f->nranges, NULL, 0, "%s: truncated at byte %llu, %llu byte%s lost", file,
			    (unsigned long long)d->offset, (unsigned long long)d->length, names_plural(d->length));
		break;
	default:
		footer_keep(f->ranges, &f->nranges, text, strlen(text), "%s: at byte %llu: ", file,
			    (unsigned long long)d->offset);
	}
	f->range_diags++;
}

void footer_record(struct footer *f, const struct sct_record *rec)
{
	switch (rec->type) {
	case SCT_REC_SYSCALL:
		f->unfinished += rec->syscall.unfinished == NAMES_IN_FLIGHT;
		break;
	case SCT_REC_LOST:
		f->lost_records++;
		f->lost_total += rec->lost.count;
		f->lost_by_cause[rec->lost.cause < 3 ? rec->lost.cause : 0] += rec->lost.count;
		break;
	case SCT_REC_WARNING:
		f->warning_records++;
		f->warnings_by_kind[rec->warning.kind < 4 ? rec->warning.kind : 3] += rec->warning.count;
		footer_keep(f->warnings, &f->nwarnings, rec->warning.text.ptr, rec->warning.text.len,
			    "%s: count %llu: ", f->file ? f->file : "-", (unsigned long long)rec->warning.count);
		break;
	default:
		f->newer_records += rec->type > SCT_REC_MAX;
		break;
	}
}

void footer_batch(struct footer *f, const struct sct_syscall_batch *batch)
{
	uint64_t n = 0;

	/* summed in a local, which the loop may keep in vector registers (f's count is memory) */
	for (uint32_t i = 0; i < batch->n; i++)
		n += (uint8_t)batch->unfinished[i] == NAMES_IN_FLIGHT;
	f->unfinished += n;
}

void footer_schema_record(struct footer *f)
{
	f->newer_records++;
}

void footer_add_stats(struct footer *f, const struct sct_reader_stats *st)
{
	for (int i = 0; i <= SCT_REC_MAX; i++)
		f->st.records[i] += st->records[i];
	f->st.blocks += st->blocks;
	f->st.bytes_read += st->bytes_read;
	f->st.skipped_ranges += st->skipped_ranges;
	f->st.skipped_bytes += st->skipped_bytes;
	f->st.truncated_bytes += st->truncated_bytes;
	f->st.unknown_frames += st->unknown_frames;
	f->st.unknown_records += st->unknown_records;
	f->st.bad_blocks += st->bad_blocks;
	f->st.sessions_without_trailer += st->sessions_without_trailer;
	f->st.damaged_records += st->damaged_records;
	f->nfiles++;
}

void footer_note_summary(struct footer *f, unsigned note)
{
	f->totals_notes |= note;
}

void footer_note_details_only(struct footer *f, const char *why)
{
	f->details_only = why;
}

void footer_note_straddle(struct footer *f)
{
	f->straddles++;
}

/* What a filtered session's HEADER says it recorded (format 1.5), in words. */
static void footer_filter(const struct sess *s, const struct strtab *strs, struct out *o)
{
	static const struct { const char *word, *text; } words[] = {
		{ "all", "every call" }, { "filtered", "the calls its filter matched" },
		{ "none", "none (summary only)" }, { "syscalls", "the calls of its syscall set" },
	};
	const uint32_t ids[2] = { s->filter_details, s->filter_totals };

	out_str(o, "; filter ");
	names_out_escaped(o, strtab_get(strs, s->filter_text), strtab_len(strs, s->filter_text));
	for (int k = 0; k < 2; k++) {
		const char *v = strtab_get(strs, ids[k]);
		size_t i = 0;

		out_str(o, k ? "; totals: " : ": details: ");
		while (i < sizeof(words) / sizeof(words[0]) && strcmp(words[i].word, v))
			i++;
		if (i < sizeof(words) / sizeof(words[0]))
			out_str(o, words[i].text);
		else
			names_out_escaped(o, v, strtab_len(strs, ids[k]));
	}
}

/* How the TOTALS of filtered sessions were used, and what their details alone gave. */
static void footer_totals(const struct footer *f, struct out *o)
{
	if (f->totals_notes & FOOTER_FROM_TOTALS)
		out_str(o, "-- filtered sessions: calls, errors, times, percentiles and histograms from their "
			   "TOTALS records (every call counted), not from their detailed calls\n");
	if (f->totals_notes & FOOTER_ERRNO_DETAILS)
		out_str(o, "-- filtered sessions: the errno breakdown (-e) has their detailed calls only\n");
	if (f->totals_notes & FOOTER_TIMELINE_DETAILS)
		out_str(o, "-- filtered sessions: the timeline shows their detailed calls only; "
			   "the summary counts every call\n");
	if (f->details_only)
		out_printf(o, "-- filtered sessions: from their detailed calls only, not their TOTALS records: %s\n",
			   f->details_only);
	if (f->straddles)
		out_printf(o, "-- time window: TOTALS records counted whole across its edges: %llu; "
			   "its edges are rounded to the recorder's flush interval\n",
			   (unsigned long long)f->straddles);
}

void footer_input_error(struct footer *f, const char *path, const char *msg)
{
	f->input_errors++;
	footer_keep(f->errors, &f->nerrors, msg, strlen(msg), "%s: ", path);
}

/* Any damage: skipped ranges, truncation, bad blocks, damaged records or missing trailers. */
static bool footer_damaged(const struct footer *f)
{
	return f->damage_diags || f->st.skipped_ranges || f->st.truncated_bytes || f->st.bad_blocks ||
	       f->st.sessions_without_trailer || f->st.damaged_records;
}

static uint64_t footer_records(const struct footer *f)
{
	uint64_t n = f->newer_records;

	for (int i = 1; i <= SCT_REC_MAX; i++)
		n += f->st.records[i];
	return n;
}

int footer_exit_status(const struct footer *f, const char *tool, bool strict, int err)
{
	if (err) {
		fprintf(stderr, "%s: %s\n", tool, sct_strerror(err));
		return EXIT_INPUT;
	}
	if (f->input_errors)
		return EXIT_INPUT;
	if (footer_damaged(f) && (strict || !footer_records(f))) {
		fprintf(stderr, "%s: %s\n", tool, strict ? "input damaged or incomplete (--strict)"
							: "input damaged: nothing could be read");
		return EXIT_DAMAGED;
	}
	return 0;
}

static void footer_list(struct out *o, const struct detail *list, uint32_t n, uint64_t total)
{
	for (uint32_t i = 0; i < n; i++) {
		out_str(o, "   ");
		names_out_escaped(o, list[i].line, list[i].len);
		out_char(o, '\n');
	}
	if (total > n)
		out_printf(o, "   ... %llu more\n", (unsigned long long)(total - n));
}

/* What a session's samples' cgroup ids mean (its HEADER's sample_cgroup). */
static void footer_sample_cgroup(const struct sess *s, const struct strtab *strs, struct out *o)
{
	const char *mode = strtab_get(strs, s->sample_cgroup);

	out_printf(o, "-- samples of session %u: backend ", s->id);
	names_out_escaped(o, strtab_get(strs, s->backend), strtab_len(strs, s->backend));
	if (!strcmp(mode, "kernel")) {
		out_str(o, ", cgroup ids from the kernel\n");
	} else if (!strcmp(mode, "recorder")) {
		out_str(o, "; samples carry no kernel cgroup id: filled by the recorder from the task's "
			"cgroup as it knew it when it read the sample\n");
	} else if (!strcmp(mode, "none")) {
		out_str(o, "; samples carry no cgroup id (0)\n");
	} else {
		out_str(o, ", cgroup ids: ");
		names_out_escaped(o, mode, strtab_len(strs, s->sample_cgroup));
		out_char(o, '\n');
	}
}

static void footer_sessions(const struct sessions *ss, const struct strtab *strs, struct out *o)
{
	uint32_t n = sessions_count(ss);

	for (uint32_t i = 0; i < n && i < SESSIONS_LISTED; i++) {
		const struct sess *s = sessions_get(ss, i);

		out_str(o, "-- ");
		sessions_out_label(o, s, strs);
		out_str(o, ", file ");
		names_out_escaped(o, strtab_get(strs, s->file), strtab_len(strs, s->file));
		if (s->last_file && s->last_file != s->file) {
			out_str(o, " .. ");
			names_out_escaped(o, strtab_get(strs, s->last_file), strtab_len(strs, s->last_file));
		}
		if (s->headless) {
			out_str(o, ", read with the built-in schema, no syscall names, no wall clock\n");
			continue;
		}
		out_str(o, ", started ");
		names_out_wall(o, s->anchor_real, true);
		if (s->cgroup_v1)
			out_str(o, " (cgroup v1: every cgroup id is the root's)");
		if (s->filtered)
			footer_filter(s, strs, o);
		out_char(o, '\n');
	}
	if (n > SESSIONS_LISTED)
		out_printf(o, "-- ... %u more session%s\n", n - SESSIONS_LISTED, names_plural(n - SESSIONS_LISTED));
}

void footer_print(struct footer *f, const struct sessions *ss, const struct strtab *strs, struct out *o)
{
	const struct sct_reader_stats *st = &f->st;

	footer_sessions(ss, strs, o);
	sessions_out_recordings(ss, o);
	footer_totals(f, o);
	out_printf(o, "-- read %u file%s, %llu record%s (", f->nfiles, names_plural(f->nfiles),
		   (unsigned long long)footer_records(f), names_plural(footer_records(f)));
	/* samples and totals only when there are some: a trace of syscalls reads as it always did */
	for (int i = 1; i <= SCT_REC_MAX; i++)
		if (i < SCT_REC_SAMPLE || st->records[i])
			out_printf(o, "%s%s %llu", i > 1 ? ", " : "", sct_schema_builtin((uint32_t)i)->name,
				   (unsigned long long)st->records[i]);
	if (f->newer_records)
		out_printf(o, ", newer types %llu", (unsigned long long)f->newer_records);
	out_str(o, ")\n");
	for (uint32_t i = 0; st->records[SCT_REC_SAMPLE] && i < sessions_count(ss) && i < SESSIONS_LISTED; i++)
		if (strtab_len(strs, sessions_get(ss, i)->sample_cgroup))
			footer_sample_cgroup(sessions_get(ss, i), strs, o);
	out_printf(o, "-- lost events: %llu (ring buffer full %llu, no room in flight %llu) in %llu record%s\n",
		   (unsigned long long)f->lost_total, (unsigned long long)f->lost_by_cause[1],
		   (unsigned long long)f->lost_by_cause[2], (unsigned long long)f->lost_records,
		   names_plural(f->lost_records));
	out_printf(o, "-- warnings: %llu (targets map full: %llu task%s not traced, enumeration failures: %llu, other: %llu)\n",
		   (unsigned long long)f->warning_records, (unsigned long long)f->warnings_by_kind[1],
		   names_plural(f->warnings_by_kind[1]), (unsigned long long)f->warnings_by_kind[2],
		   (unsigned long long)f->warnings_by_kind[3]);
	footer_list(o, f->warnings, f->nwarnings, f->warning_records);
	out_printf(o, "-- unfinished syscalls: %llu (not in latency statistics)\n", (unsigned long long)f->unfinished);
	out_printf(o, "-- skipped/corrupt: %llu range%s, %llu byte%s; bad blocks: %llu; truncated tail: %llu byte%s\n",
		   (unsigned long long)st->skipped_ranges, names_plural(st->skipped_ranges),
		   (unsigned long long)st->skipped_bytes, names_plural(st->skipped_bytes),
		   (unsigned long long)st->bad_blocks, (unsigned long long)st->truncated_bytes,
		   names_plural(st->truncated_bytes));
	footer_list(o, f->ranges, f->nranges, f->range_diags);
	if (st->damaged_records)
		out_printf(o, "-- damaged records (skipped, listed above): %llu\n",
			   (unsigned long long)st->damaged_records);
	out_printf(o, "-- unknown (newer format, skipped): %llu frame%s, %llu record%s\n",
		   (unsigned long long)st->unknown_frames, names_plural(st->unknown_frames),
		   (unsigned long long)st->unknown_records, names_plural(st->unknown_records));
	out_printf(o, "-- incomplete: no trailer: %llu session%s\n", (unsigned long long)st->sessions_without_trailer,
		   names_plural(st->sessions_without_trailer));
	if (f->input_errors) {
		out_printf(o, "-- unreadable inputs: %u\n", f->input_errors);
		footer_list(o, f->errors, f->nerrors, f->input_errors);
	}
}

void footer_free(struct footer *f)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < f->nwarnings; i++)
		free(f->warnings[i].line);
	for (uint32_t i = 0; i < f->nranges; i++)
		free(f->ranges[i].line);
	for (uint32_t i = 0; i < f->nerrors; i++)
		free(f->errors[i].line);
	free(f);
}
