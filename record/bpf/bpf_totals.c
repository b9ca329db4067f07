// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF totals (bpf/sct.bpf.c totals and totals_hist, per-CPU counts that only grow) into
 * the interval's totals (output/totals.c): what each key grew by since the last read. The
 * recorder keeps the last read; a map value is never cleared from here, since a clear would
 * race with the programs' increments and lose calls. A process gone (its EXIT with the group
 * dead) has its keys deleted after the read that follows.
 *
 * The histogram is read before the sums, and a record's calls are its histogram's: each
 * record's counts add up whatever the programs did between the two reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_backend.h"

int bpf_totals_init(struct bpf_totals *t, uint32_t max_keys, uint32_t max_hist_keys)
{
	int ncpus = libbpf_num_possible_cpus();

	memset(t, 0, sizeof(*t));
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	t->ncpus = ncpus;
	keytab_init(&t->prev, sizeof(struct sct_tot_key), sizeof(struct sct_tot_value), max_keys);
	keytab_init(&t->prev_hist, sizeof(struct sct_tot_hist_key), sizeof(uint64_t), max_hist_keys);
	t->vals = calloc(ncpus, sizeof(struct sct_tot_value));
	return t->vals ? 0 : -ENOMEM;
}

void bpf_totals_free(struct bpf_totals *t)
{
	keytab_free(&t->prev);
	keytab_free(&t->prev_hist);
	free(t->vals);
	free(t->del);
	t->vals = NULL;
	t->del = NULL;
}

static bool bpf_totals_dead(const struct totals *tot, uint32_t pid)
{
	for (size_t i = 0; i < tot->ndead; i++)
		if (tot->dead[i] == pid)
			return true;
	return false;
}

/* key (of key_size bytes) to delete once the walk of its map is over. */
static int bpf_totals_del_later(struct bpf_totals *t, const void *key, size_t key_size)
{
	uint8_t *tmp;

	if (t->ndel == t->capdel) {
		size_t cap = t->capdel ? 2 * t->capdel : 64;

		tmp = realloc(t->del, cap * sizeof(struct sct_tot_hist_key));
		if (!tmp)
			return -ENOMEM;
		t->del = tmp;
		t->capdel = cap;
	}
	memcpy(t->del + t->ndel++ * sizeof(struct sct_tot_hist_key), key, key_size);
	return 0;
}

static void bpf_totals_del_now(struct bpf_totals *t, int fd, struct keytab *prev)
{
	for (size_t i = 0; i < t->ndel; i++) {
		const void *key = t->del + i * sizeof(struct sct_tot_hist_key);
		uint8_t *v = keytab_get(prev, key);

		bpf_map_delete_elem(fd, key);
		if (v)
			keytab_del(prev, key);
	}
	t->ndel = 0;
}

/* One key of totals_hist: its growth into tot. */
static int bpf_totals_hist_key(struct bpf_totals *t, struct totals *tot, const struct sct_tot_hist_key *k)
{
	const uint64_t *per = (const uint64_t *)t->vals;
	uint64_t sum = 0, *prev;
	int err;

	for (int cpu = 0; cpu < t->ncpus; cpu++)
		sum += per[cpu];
	prev = keytab_put(&t->prev_hist, k, &err);
	if (!prev)
		return err;
	if (sum > *prev)
		err = totals_add_bucket(tot, &k->k, k->bucket, sum - *prev);
	*prev = sum;
	return err;
}

/* One key of totals: the growth of its errors and durations, and its largest if it grew. */
static int bpf_totals_key(struct bpf_totals *t, struct totals *tot, const struct sct_tot_key *k)
{
	const struct sct_tot_value *per = t->vals;
	struct sct_tot_value sum = { 0 }, *prev;
	int err;

	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		sum.calls += per[cpu].calls;
		sum.errors += per[cpu].errors;
		sum.duration_ns += per[cpu].duration_ns;
		if (per[cpu].max_ns > sum.max_ns)
			sum.max_ns = per[cpu].max_ns;
	}
	prev = keytab_put(&t->prev, k, &err);
	if (!prev)
		return err;
	if (sum.calls > prev->calls)
		err = totals_add_sums(tot, k, sum.errors - prev->errors, sum.duration_ns - prev->duration_ns,
				      sum.max_ns, sum.max_ns > prev->max_ns);
	*prev = sum;
	return err;
}

/* Every key of map fd: its values summed over the CPUs and handed to fn. */
static int bpf_totals_walk(struct bpf_totals *t, struct totals *tot, int fd, size_t key_size, bool hist)
{
	uint8_t key[sizeof(struct sct_tot_hist_key)], next[sizeof(struct sct_tot_hist_key)];
	const void *cur = NULL;
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd, cur, next)) {
		memcpy(key, next, key_size);
		cur = key;
		if (bpf_map_lookup_elem(fd, key, t->vals))
			continue; /* deleted in between */
		err = hist ? bpf_totals_hist_key(t, tot, (const void *)key) :
			     bpf_totals_key(t, tot, (const void *)key);
		if (!err && bpf_totals_dead(tot, ((const struct sct_tot_key *)key)->pid))
			err = bpf_totals_del_later(t, key, key_size);
	}
	return err;
}

int bpf_totals_read(struct bpf_totals *t, struct totals *tot, int totals_fd, int hist_fd)
{
	int err = bpf_totals_walk(t, tot, hist_fd, sizeof(struct sct_tot_hist_key), true);

	bpf_totals_del_now(t, hist_fd, &t->prev_hist);
	if (!err)
		err = bpf_totals_walk(t, tot, totals_fd, sizeof(struct sct_tot_key), false);
	bpf_totals_del_now(t, totals_fd, &t->prev);
	tot->ndead = 0;
	return err;
}
