// SPDX-License-Identifier: BSD-2-Clause
/*
 * The totals of one flush interval, per (pid, cgroup, syscall, abi): calls, errors, summed and
 * largest duration, and the duration histogram (SCT_TOT_HIST_BITS sub-bucket bits), written as
 * TOTALS records at the end of each interval and at stop. The bpf backend adds what its map
 * grew by (bpf/bpf_totals.c); the perf backend adds each call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../record.h"

_Static_assert(SCT_TOT_HIST_BITS == SCT_HIST_BITS, "the BPF buckets are the format's");

/* The interval's counts of one key; hist holds nhist (bucket, count) pairs by bucket. */
struct totals_entry {
	uint64_t calls, errors, duration_ns;
	uint64_t max_ns;          /* the largest duration, or the largest of its bucket (bpf) */
	uint32_t nhist, caphist;
	struct sct_hist_bin *hist;
};

void totals_init(struct totals *t, uint32_t max_keys, uint64_t start_ns)
{
	memset(t, 0, sizeof(*t));
	keytab_init(&t->keys, sizeof(struct sct_tot_key), sizeof(struct totals_entry), max_keys);
	t->since_ns = start_ns;
}

static void totals_entries_free(struct totals *t)
{
	for (size_t i = 0; i < t->keys.cap; i++)
		if (keytab_key(&t->keys, i))
			free(((struct totals_entry *)keytab_val(&t->keys, i))->hist);
}

void totals_free(struct totals *t)
{
	totals_entries_free(t);
	keytab_free(&t->keys);
	free(t->dead);
	t->dead = NULL;
	t->ndead = t->capdead = 0;
}

/* count more in bucket b of e's histogram, kept sorted by bucket. */
static int totals_hist_add(struct totals_entry *e, uint32_t b, uint64_t count)
{
	uint32_t lo = 0, hi = e->nhist;
	struct sct_hist_bin *tmp;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (e->hist[mid].bucket < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < e->nhist && e->hist[lo].bucket == b) {
		e->hist[lo].count += count;
		return 0;
	}
	if (e->nhist == e->caphist) {
		uint32_t cap = e->caphist ? 2 * e->caphist : 8;

		tmp = realloc(e->hist, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		e->hist = tmp;
		e->caphist = cap;
	}
	memmove(e->hist + lo + 1, e->hist + lo, (e->nhist - lo) * sizeof(*e->hist));
	e->hist[lo] = (struct sct_hist_bin){ .bucket = b, .count = count };
	e->nhist++;
	return 0;
}

int totals_add_bucket(struct totals *t, const struct sct_tot_key *key, uint32_t bucket, uint64_t calls,
		      uint64_t errors, uint64_t duration_ns, uint64_t max_ns)
{
	int err;
	struct totals_entry *e = keytab_put(&t->keys, key, &err);

	if (!e) {
		if (err != -ENOSPC)
			return err;
		t->full += calls;
		return 0;
	}
	e->calls += calls;
	e->errors += errors;
	e->duration_ns += duration_ns;
	if (max_ns > e->max_ns)
		e->max_ns = max_ns;
	return totals_hist_add(e, bucket, calls);
}

int totals_add_call(struct totals *t, const struct sct_tot_key *key, int64_t ret, uint64_t duration_ns)
{
	return totals_add_bucket(t, key, sct_hist_bucket(duration_ns, SCT_HIST_BITS), 1, ret < 0 && ret >= -4095,
				 duration_ns, duration_ns);
}

/* One key's TOTALS record of (since, now]. */
static int totals_emit(struct recorder *r, const struct totals *t, const struct sct_tot_key *k,
		       const struct totals_entry *e, uint64_t now_ns)
{
	size_t cap = SCT_HIST_MAX_BYTES(e->nhist);
	struct sct_record rec = { .type = SCT_REC_TOTALS };
	struct sct_totals *tr = &rec.totals;
	uint8_t *buf = malloc(cap);
	int64_t len;
	int err;

	if (!buf)
		return -ENOMEM;
	len = sct_hist_encode(e->hist, e->nhist, SCT_TOT_HIST_BITS, buf, cap);
	if (len < 0) {
		free(buf);
		return (int)len;
	}
	*tr = (struct sct_totals){
		.time_ns = now_ns, .since_ns = t->since_ns, .cgroup_id = k->cgroup_id, .calls = e->calls,
		.errors = e->errors, .duration_ns = e->duration_ns, .max_ns = e->max_ns, .pid = k->pid,
		.nr = k->nr, .abi = k->abi, .hist_bits = SCT_TOT_HIST_BITS,
		.hist = { .ptr = buf, .len = (uint32_t)len },
	};
	err = events_note_cgroup(r, k->cgroup_id, now_ns);
	if (!err)
		err = sct_writer_append(r->writer, &rec);
	free(buf);
	return err;
}

int totals_write(struct recorder *r, struct totals *t, uint64_t now_ns)
{
	int err = 0;

	for (size_t i = 0; i < t->keys.cap && !err; i++) {
		const struct sct_tot_key *k = keytab_key(&t->keys, i);
		struct totals_entry *e = keytab_val(&t->keys, i);

		if (k && e->calls)
			err = totals_emit(r, t, k, e, now_ns);
	}
	/* the next interval starts empty: its keys are those it sees */
	totals_entries_free(t);
	keytab_free(&t->keys);
	t->since_ns = now_ns;
	return err;
}

int totals_note_dead(struct totals *t, uint32_t pid)
{
	uint32_t *tmp;

	if (t->ndead == t->capdead) {
		size_t cap = t->capdead ? 2 * t->capdead : 16;

		tmp = realloc(t->dead, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		t->dead = tmp;
		t->capdead = cap;
	}
	t->dead[t->ndead++] = pid;
	return 0;
}
