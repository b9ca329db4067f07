// SPDX-License-Identifier: BSD-2-Clause
/*
 * The backend's loss counters (the BPF per-CPU counters, summed) -> LOST and WARNING
 * records, so a trace never loses data silently; and the live status line on a terminal.
 */
#include <stdio.h>

#include "../record.h"

#define STATUS_PERIOD_NS NSEC_PER_SEC

static int lost_write(struct recorder *r, uint32_t cause, uint64_t count, uint64_t now_ns)
{
	struct sct_record rec = { .type = SCT_REC_LOST };

	/* The drops happened since the previous check; BPF keeps no times on its fast path. */
	rec.lost.time_ns = r->stats_check_ns ? r->stats_check_ns : r->start_ns;
	rec.lost.end_ns = now_ns;
	rec.lost.cause = cause;
	rec.lost.count = count;
	r->lost += count;
	return sct_writer_append(r->writer, &rec);
}

int stats_targets_full(struct recorder *r, uint64_t count, bool at_start)
{
	char text[160];
	int err;

	snprintf(text, sizeof(text), "targets map full (--max-tasks %u): %llu %stask%s not traced",
		 r->env->max_tasks, (unsigned long long)count, at_start ? "" : "new ", stats_plural(count));
	err = events_warning(r, SCT_WARN_TARGETS_FULL, count, text);
	if (err || r->env->quiet)
		return err;
	/* The start's line, then once at run time; every later overflow still gets its record. */
	if (at_start || !r->targets_full_said)
		fprintf(stderr, "%ssct-record: warning: %s\n", r->status_shown ? "\r\033[K" : "", text);
	r->targets_full_said |= !at_start;
	return 0;
}

int stats_totals_full(struct recorder *r, uint64_t count)
{
	char text[160];
	int err;

	snprintf(text, sizeof(text), "totals full: %llu call%s not counted in the totals",
		 (unsigned long long)count, stats_plural(count));
	err = events_warning(r, SCT_WARN_OTHER, count, text);
	if (!err && !r->env->quiet)
		fprintf(stderr, "%ssct-record: warning: %s\n", r->status_shown ? "\r\033[K" : "", text);
	return err;
}

int stats_check(struct recorder *r, const struct sct_stats *counters, uint64_t now_ns)
{
	struct sct_stats now = *counters;
	uint64_t d;
	int err;

	d = now.ringbuf_full - r->seen.ringbuf_full;
	if (d && (err = lost_write(r, SCT_LOST_RINGBUF, d, now_ns)))
		return err;
	d = now.inflight_full - r->seen.inflight_full;
	if (d && (err = lost_write(r, SCT_LOST_INFLIGHT, d, now_ns)))
		return err;
	d = now.targets_full - r->seen.targets_full;
	if (d && (err = stats_targets_full(r, d, false)))
		return err;
	d = now.totals_full - r->seen.totals_full;
	if (d && (err = stats_totals_full(r, d)))
		return err;
	r->seen = now;
	r->stats_check_ns = now_ns;
	return 0;
}

void stats_status(struct recorder *r, uint64_t now_ns)
{
	uint64_t records, dt;

	if (!r->status_tty)
		return;
	/* status_ns starts at the session start: the first line comes after one period. */
	if (now_ns - r->status_ns < STATUS_PERIOD_NS)
		return;
	records = rotate_records(r);
	dt = now_ns - r->status_ns;
	fprintf(stderr, "\r\033[Ksct-record: %llu record%s, %.0f/s, %llu lost",
		(unsigned long long)records, stats_plural(records),
		dt ? (double)(records - r->status_records) * 1e9 / dt : 0.0,
		(unsigned long long)r->lost);
	r->status_ns = now_ns;
	r->status_records = records;
	r->status_shown = true;
}

void stats_status_clear(struct recorder *r)
{
	if (r->status_shown)
		fprintf(stderr, "\r\033[K");
	r->status_shown = false;
}
