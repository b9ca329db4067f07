// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF totals (bpf/sct.bpf.c's totals_cache slots and totals map: sums per process,
 * cgroup, syscall, ABI and duration bucket that only grow) into the interval's totals
 * (output/totals.c): what each slot and key grew by since the last read. The recorder keeps
 * the last read; a count is never cleared from here while its process lives, since a clear
 * would race with the programs' increments and lose calls. A process gone (its EXIT with the
 * group dead) has its slots freed and its keys deleted after the read that follows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_backend.h"

int bpf_totals_init(struct bpf_totals *t, uint32_t max_keys)
{
	int ncpus = libbpf_num_possible_cpus();

	memset(t, 0, sizeof(*t));
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	t->ncpus = ncpus;
	keytab_init(&t->prev, sizeof(struct sct_tot_bucket_key), sizeof(struct sct_tot_value), max_keys);
	t->vals = calloc(ncpus, sizeof(*t->vals));
	return t->vals ? 0 : -ENOMEM;
}

int bpf_totals_map(struct bpf_totals *t, int cache_fd, size_t nslots)
{
	size_t page = sysconf(_SC_PAGESIZE), len = nslots * sizeof(*t->slots);
	void *p;

	t->slots_prev = calloc(nslots, sizeof(*t->slots_prev));
	if (!t->slots_prev)
		return -ENOMEM;
	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, cache_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	t->slots = p;
	t->slots_len = len;
	t->nslots = nslots;
	return 0;
}

void bpf_totals_free(struct bpf_totals *t)
{
	keytab_free(&t->prev);
	free(t->vals);
	free(t->del);
	free(t->slots_prev);
	if (t->slots)
		munmap(t->slots, t->slots_len);
	t->vals = NULL;
	t->del = NULL;
	t->slots_prev = NULL;
	t->slots = NULL;
}

static bool bpf_totals_dead(const struct totals *tot, uint32_t pid)
{
	for (size_t i = 0; i < tot->ndead; i++)
		if (tot->dead[i] == pid)
			return true;
	return false;
}

/* key to delete once the walk of the map is over (a delete would restart the walk). */
static int bpf_totals_del_later(struct bpf_totals *t, const struct sct_tot_bucket_key *key)
{
	struct sct_tot_bucket_key *tmp;

	if (t->ndel == t->capdel) {
		size_t cap = t->capdel ? 2 * t->capdel : 64;

		tmp = realloc(t->del, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		t->del = tmp;
		t->capdel = cap;
	}
	t->del[t->ndel++] = *key;
	return 0;
}

/* One key: its sums over the CPUs, and their growth into tot. */
static int bpf_totals_key(struct bpf_totals *t, struct totals *tot, const struct sct_tot_bucket_key *k)
{
	struct sct_tot_value sum = { 0 }, *prev;
	int err;

	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		sum.calls += t->vals[cpu].calls;
		sum.errors += t->vals[cpu].errors;
		sum.duration_ns += t->vals[cpu].duration_ns;
		if (t->vals[cpu].max_ns > sum.max_ns)
			sum.max_ns = t->vals[cpu].max_ns;
	}
	prev = keytab_put(&t->prev, k, &err);
	if (!prev)
		return err;
	if (sum.calls > prev->calls)
		err = totals_add_bucket(tot, &k->k, k->bucket, sum.calls - prev->calls, sum.errors - prev->errors,
					sum.duration_ns - prev->duration_ns, sum.max_ns);
	*prev = sum;
	return err;
}

/* A dead process's slot freed: zeroed, the first word last (sct_events.h's sct_tot_slot). */
static void bpf_totals_slot_free(struct sct_tot_slot *s, struct sct_tot_value *prev)
{
	uint64_t *w = (uint64_t *)&s->key;

	memset(&s->v, 0, sizeof(s->v));
	memset(w + 1, 0, sizeof(s->key) - sizeof(*w));
	__atomic_store_n(w, 0, __ATOMIC_RELEASE);
	memset(prev, 0, sizeof(*prev));
}

/*
 * Slot i: what its key grew by into tot. The counts are read in the reverse of the order the
 * programs add to them, calls last, so that a read in the middle of an update never counts
 * an error, or a duration, of a call it does not count yet.
 */
static int bpf_totals_slot(struct bpf_totals *t, struct totals *tot, size_t i)
{
	struct sct_tot_slot *s = &t->slots[i];
	struct sct_tot_value v, *prev = &t->slots_prev[i];
	struct sct_tot_bucket_key k;
	int err = 0;

	if (!__atomic_load_n((uint64_t *)&s->key, __ATOMIC_ACQUIRE))
		return 0;
	k = s->key;
	v.max_ns = __atomic_load_n(&s->v.max_ns, __ATOMIC_ACQUIRE);
	v.duration_ns = __atomic_load_n(&s->v.duration_ns, __ATOMIC_ACQUIRE);
	v.errors = __atomic_load_n(&s->v.errors, __ATOMIC_ACQUIRE);
	v.calls = __atomic_load_n(&s->v.calls, __ATOMIC_ACQUIRE);
	if (v.calls > prev->calls)
		err = totals_add_bucket(tot, &k.k, k.bucket, v.calls - prev->calls, v.errors - prev->errors,
					v.duration_ns - prev->duration_ns, v.max_ns);
	*prev = v;
	if (!err && bpf_totals_dead(tot, k.k.pid))
		bpf_totals_slot_free(s, prev);
	return err;
}

int bpf_totals_read(struct bpf_totals *t, struct totals *tot, int fd)
{
	struct sct_tot_bucket_key key, next;
	const void *cur = NULL;
	int err = 0;

	for (size_t i = 0; !err && i < t->nslots; i++)
		err = bpf_totals_slot(t, tot, i);
	while (!err && !bpf_map_get_next_key(fd, cur, &next)) {
		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, t->vals))
			continue; /* deleted in between */
		err = bpf_totals_key(t, tot, &key);
		if (!err && bpf_totals_dead(tot, key.k.pid))
			err = bpf_totals_del_later(t, &key);
	}
	for (size_t i = 0; i < t->ndel; i++) {
		bpf_map_delete_elem(fd, &t->del[i]);
		keytab_del(&t->prev, &t->del[i]);
	}
	t->ndel = 0;
	tot->ndead = 0;
	return err;
}
