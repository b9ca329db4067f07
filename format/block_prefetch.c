// SPDX-License-Identifier: BSD-2-Clause
/* BLOCK frames decoded ahead by a pool of threads (see block_prefetch.h). */
#include "block_prefetch.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"

enum slot_state { SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE };

struct slot {
	struct prefetch_key key;
	struct frame f;
	uint8_t *frame;      /* the whole frame: envelope, body, checksum */
	size_t frame_cap;
	enum slot_state state;
	bool verified;       /* its checksum matched: the block was decoded */
	struct block_dec blk;
	int rc;
	const char *why;
};

struct prefetch {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a slot was queued, or stop */
	pthread_cond_t done; /* a slot was decoded */
	bool stop;
	struct slot *slots;
	uint32_t nslots, head, n; /* the n slots in flight start at head, in input order */
	pthread_t *threads;
	uint32_t nthreads;
};

static struct slot *prefetch_at(const struct prefetch *pf, uint32_t i)
{
	return &pf->slots[(pf->head + i) % pf->nslots];
}

/* The oldest slot no worker has taken, NULL if none. */
static struct slot *prefetch_queued(struct prefetch *pf)
{
	for (uint32_t i = 0; i < pf->n; i++) {
		struct slot *s = prefetch_at(pf, i);

		if (s->state == SLOT_QUEUED)
			return s;
	}
	return NULL;
}

/* What the reader would do with the frame itself (reader.c, reader_block()). */
static void prefetch_decode(struct slot *s)
{
	struct block_meta m;

	s->verified = frame_verify(s->frame, &s->f);
	if (!s->verified)
		return;
	s->blk.skip_types = s->key.skip_types;
	s->blk.deliver_unknown = s->key.deliver_unknown;
	s->rc = block_meta_parse(s->frame + s->f.head_len, (size_t)s->f.body_len, &m, &s->why) ? -SCT_E_CORRUPT : 0;
	if (s->rc) /* as the reader's exhausted block: no records */
		s->blk.nruns = s->blk.nsecs = s->blk.run_idx = s->blk.run_left = 0;
	else
		s->rc = block_dec_load(&s->blk, &m, s->key.session, &s->why);
}

/* Under the lock: the queued slot s decoded by this thread, outside the lock. */
static void prefetch_run_locked(struct prefetch *pf, struct slot *s)
{
	s->state = SLOT_RUNNING;
	pthread_mutex_unlock(&pf->lock);
	prefetch_decode(s);
	pthread_mutex_lock(&pf->lock);
	s->state = SLOT_DONE;
	pthread_cond_broadcast(&pf->done);
}

static void *prefetch_worker(void *arg)
{
	struct prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		struct slot *s;

		while (!pf->stop && !(s = prefetch_queued(pf)))
			pthread_cond_wait(&pf->work, &pf->lock);
		if (pf->stop)
			break;
		prefetch_run_locked(pf, s);
	}
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct prefetch *prefetch_new(uint32_t jobs, uint32_t slots, int *err)
{
	struct prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf) {
		*err = -ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->work, NULL);
	pthread_cond_init(&pf->done, NULL);
	if (jobs > PREFETCH_MAX_SLOTS)
		jobs = PREFETCH_MAX_SLOTS;
	pf->nslots = slots > jobs ? slots : jobs;
	if (pf->nslots > PREFETCH_MAX_SLOTS)
		pf->nslots = PREFETCH_MAX_SLOTS;
	pf->slots = calloc(pf->nslots, sizeof(*pf->slots));
	pf->threads = calloc(jobs, sizeof(*pf->threads));
	if (!pf->slots || !pf->threads) {
		*err = -ENOMEM;
		prefetch_free(pf);
		return NULL;
	}
	for (; pf->nthreads < jobs; pf->nthreads++) {
		int rc = pthread_create(&pf->threads[pf->nthreads], NULL, prefetch_worker, pf);

		if (rc) {
			*err = -rc;
			prefetch_free(pf);
			return NULL;
		}
	}
	return pf;
}

void prefetch_free(struct prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_broadcast(&pf->work);
	pthread_mutex_unlock(&pf->lock);
	for (uint32_t i = 0; i < pf->nthreads; i++)
		pthread_join(pf->threads[i], NULL);
	for (uint32_t i = 0; pf->slots && i < pf->nslots; i++) {
		block_dec_free(&pf->slots[i].blk);
		free(pf->slots[i].frame);
	}
	pthread_cond_destroy(&pf->done);
	pthread_cond_destroy(&pf->work);
	pthread_mutex_destroy(&pf->lock);
	free(pf->threads);
	free(pf->slots);
	free(pf);
}

/* Only the reader's thread changes head and n: it reads them without the lock. */
bool prefetch_room(const struct prefetch *pf)
{
	return pf->n < pf->nslots;
}

uint64_t prefetch_end(const struct prefetch *pf)
{
	const struct slot *s;

	if (!pf->n)
		return 0;
	s = prefetch_at(pf, pf->n - 1);
	return s->key.offset + s->f.total;
}

int prefetch_push(struct prefetch *pf, const struct prefetch_key *k, const uint8_t *frame, const struct frame *f)
{
	struct slot *s = prefetch_at(pf, pf->n);
	size_t len = (size_t)f->total;

	/* the slot is free: neither queued nor taken by a worker (prefetch_take() and _drop() wait) */
	if (len > s->frame_cap) {
		uint8_t *tmp = realloc(s->frame, len);

		if (!tmp)
			return -ENOMEM;
		s->frame = tmp;
		s->frame_cap = len;
	}
	memcpy(s->frame, frame, len);
	s->f = *f;
	s->key = *k;
	pthread_mutex_lock(&pf->lock);
	s->state = SLOT_QUEUED;
	pf->n++;
	pthread_cond_signal(&pf->work);
	pthread_mutex_unlock(&pf->lock);
	return 0;
}

/* Under the lock: no slot queued, and none a worker still decodes. */
static void prefetch_drop_locked(struct prefetch *pf)
{
	for (;;) {
		bool running = false;

		for (uint32_t i = 0; i < pf->n; i++)
			running |= prefetch_at(pf, i)->state == SLOT_RUNNING;
		if (!running)
			break;
		pthread_cond_wait(&pf->done, &pf->lock);
	}
	pf->head = 0;
	pf->n = 0;
}

void prefetch_drop(struct prefetch *pf)
{
	pthread_mutex_lock(&pf->lock);
	prefetch_drop_locked(pf);
	pthread_mutex_unlock(&pf->lock);
}

/*
 * Under the lock: s decoded. One no worker has taken yet is decoded by the caller's thread
 * instead: it would only wait (the workers are behind), and a wait that sleeps costs more
 * than a block's decoding on a busy host.
 */
static void prefetch_finish_locked(struct prefetch *pf, struct slot *s)
{
	if (s->state == SLOT_QUEUED)
		prefetch_run_locked(pf, s);
	while (s->state != SLOT_DONE)
		pthread_cond_wait(&pf->done, &pf->lock);
}

static bool prefetch_same(const struct prefetch_key *a, const struct prefetch_key *b)
{
	return a->offset == b->offset && a->session == b->session && a->skip_types == b->skip_types &&
	       a->deliver_unknown == b->deliver_unknown;
}

int prefetch_verified(struct prefetch *pf, uint64_t offset, const struct frame *f)
{
	struct slot *s;
	int ok;

	pthread_mutex_lock(&pf->lock);
	s = pf->n ? prefetch_at(pf, 0) : NULL;
	if (!s || s->key.offset != offset || s->f.total != f->total || s->f.head_len != f->head_len) {
		pthread_mutex_unlock(&pf->lock);
		return -1;
	}
	prefetch_finish_locked(pf, s);
	ok = s->verified;
	if (!ok)
		prefetch_drop_locked(pf);
	pthread_mutex_unlock(&pf->lock);
	return ok;
}

int prefetch_take(struct prefetch *pf, const struct prefetch_key *k, struct block_dec *blk, int *rc,
		  const char **why)
{
	struct slot *s;
	struct block_dec tmp;

	pthread_mutex_lock(&pf->lock);
	s = pf->n ? prefetch_at(pf, 0) : NULL;
	if (!s || !prefetch_same(&s->key, k) || !s->verified) {
		prefetch_drop_locked(pf);
		pthread_mutex_unlock(&pf->lock);
		return 0;
	}
	prefetch_finish_locked(pf, s);
	pf->head = (pf->head + 1) % pf->nslots;
	pf->n--;
	pthread_mutex_unlock(&pf->lock);
	tmp = *blk;
	*blk = s->blk;
	s->blk = tmp;
	*rc = s->rc;
	*why = s->why;
	return 1;
}
