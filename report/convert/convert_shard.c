// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert -j N on files: N copies of the conversion render the rows, each its share of
 * them, and one thread writes them in order.
 *
 * Rendering a row costs five times reading it or more, and a row depends on everything before it
 * (the comm a task had then, a cgroup's name, the session's columns). So each copy reads
 * every record of every input, keeps the whole state as one conversion would, and renders
 * only the rows of its chunks: chunk c (rows c * SHARD_ROWS .. ) belongs to copy c % N.
 * Every copy counts the same rows, so they agree on whose chunk is whose. Bytes a copy
 * writes outside its own chunks (the CSV header row, ClickHouse's INSERT) are dropped: the
 * copy whose chunk holds them writes them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert.h"

/*
 * Rows a chunk holds: 0.5-1.5 MiB of text. Each hand-over may wake the writer, and at 1,024
 * rows -j2 made 30,000 context switches on 10 M rows and took 15% longer. A copy learns that
 * the output failed at its next chunk, so a failed write stops the reading within a few
 * chunks of rows.
 */
#define SHARD_ROWS 4096u
/* Chunks a copy may have rendered before the writer takes them (and one more it renders into). */
#define SHARD_RING 3u
/*
 * Copies at most, whatever -j says: each copy reads everything, a fifth of one conversion's
 * time, so past 8 copies that reading is most of each copy's time and the rest adds little.
 */
#define SHARD_COPIES 8u

struct shard_lane {
	struct convert *cv;
	pthread_t thread;
	bool started;                /* thread runs cv (every lane but the first) */
	struct out ring[SHARD_RING]; /* chunks consumed .. produced wait for the writer */
	uint64_t produced, consumed;
	bool done;
	int err;
};

struct shard {
	pthread_mutex_t mu;
	pthread_cond_t changed;
	bool stop; /* every copy ends at its next chunk: the output failed, or a copy did */
	uint32_t n;
	struct shard_lane lanes[SHARD_COPIES];
};

static bool shard_owns(const struct convert *cv, uint64_t row)
{
	return (row / SHARD_ROWS) % cv->shard->n == cv->lane;
}

/*
 * The chunk cv was rendering is complete: its bytes go to the writer if they are cv's own,
 * else they are dropped. Waits while the writer holds every other buffer of cv's ring.
 */
static void shard_hand_over(struct convert *cv, bool own)
{
	struct shard *sh = cv->shard;
	struct shard_lane *l = &sh->lanes[cv->lane];
	int err = cv->o.err;

	if (!own || err) {
		cv->o.len = 0;
		if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
			cv->o.err = -EPIPE;
		return;
	}
	pthread_mutex_lock(&sh->mu);
	l->ring[l->produced % SHARD_RING] = cv->o;
	l->produced++;
	pthread_cond_broadcast(&sh->changed);
	while (l->produced - l->consumed >= SHARD_RING && !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
		pthread_cond_wait(&sh->changed, &sh->mu);
	cv->o = l->ring[l->produced % SHARD_RING];
	if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
		err = -EPIPE;
	pthread_mutex_unlock(&sh->mu);
	if (!cv->o.buf && out_open_mem(&cv->o, 1 << 16))
		err = -ENOMEM;
	cv->o.len = 0;
	cv->o.err = err;
}

bool shard_row(struct convert *cv)
{
	uint64_t row = cv->rows++;

	if (!cv->shard)
		return true;
	if (row && row % SHARD_ROWS == 0)
		shard_hand_over(cv, shard_owns(cv, row - 1));
	return shard_owns(cv, row);
}

uint32_t shard_foreign_rows(const struct convert *cv)
{
	if (!cv->shard || shard_owns(cv, cv->rows))
		return 0;
	return SHARD_ROWS - (uint32_t)(cv->rows % SHARD_ROWS);
}

uint32_t shard_own_rows(const struct convert *cv)
{
	return cv->shard ? SHARD_ROWS - (uint32_t)(cv->rows % SHARD_ROWS) : 0;
}

void shard_skip(struct convert *cv, uint32_t n)
{
	/* within one chunk: only its first row can end the chunk before it */
	if (n && !shard_row(cv))
		cv->rows += n - 1;
}

/* cv has converted every input (err: how that ended): its last chunk, then its end. */
static void shard_finish(struct convert *cv, int err)
{
	struct shard *sh = cv->shard;
	struct shard_lane *l = &sh->lanes[cv->lane];

	/* partial or empty: the header row of no rows is in chunk 0 */
	shard_hand_over(cv, shard_owns(cv, cv->rows ? cv->rows - 1 : 0));
	pthread_mutex_lock(&sh->mu);
	l->done = true;
	l->err = err ? err : cv->o.err == -ENOMEM ? -ENOMEM : 0;
	if (l->err)
		__atomic_store_n(&sh->stop, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&sh->changed);
	pthread_mutex_unlock(&sh->mu);
}

static void *shard_copy_main(void *arg)
{
	struct convert *cv = arg;

	shard_finish(cv, convert_files(cv));
	return NULL;
}

/*
 * Writes the chunks in their order into o, until the copy whose turn it is has ended
 * without one, then waits for every copy to end. The first copy's error, else 0; the output's
 * error stays in o.
 */
static int shard_write(struct shard *sh, struct out *o)
{
	int err = 0;

	pthread_mutex_lock(&sh->mu);
	for (uint64_t c = 0;; c++) {
		struct shard_lane *l = &sh->lanes[c % sh->n];
		struct out chunk;

		while (l->consumed == l->produced && !l->done)
			pthread_cond_wait(&sh->changed, &sh->mu);
		if (l->consumed == l->produced)
			break;
		chunk = l->ring[l->consumed % SHARD_RING];
		pthread_mutex_unlock(&sh->mu);
		out_mem(o, chunk.buf, chunk.len);
		pthread_mutex_lock(&sh->mu);
		l->consumed++;
		if (o->err)
			__atomic_store_n(&sh->stop, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&sh->changed);
	}
	/*
	 * Every chunk is written; the copies still read what follows the last row (the footer
	 * counts it). A copy that failed set stop: the others do not wait for room that the
	 * writer no longer makes.
	 */
	for (uint32_t i = 0; i < sh->n; i++) {
		while (!sh->lanes[i].done)
			pthread_cond_wait(&sh->changed, &sh->mu);
		err = err ? err : sh->lanes[i].err;
	}
	pthread_mutex_unlock(&sh->mu);
	return err;
}

struct shard_writer {
	struct shard *sh;
	struct out *o;
	int err;
};

static void *shard_writer_main(void *arg)
{
	struct shard_writer *w = arg;

	w->err = shard_write(w->sh, w->o);
	return NULL;
}

/* More than one job, a format of rows, and every input a file a second reader can open. */
static bool shard_fits(const struct convert *cv)
{
	if (cv->c.jobs < 2 || cv->fmt->record || cv->sessions_rows || cv->schema)
		return false;
	for (int i = 0; i < cv->nfiles; i++) {
		struct stat st;

		if (!strcmp(cv->files[i], "-") || stat(cv->files[i], &st) || !S_ISREG(st.st_mode))
			return false;
	}
	return true;
}

/* The copies past the first, each on a thread of its own. */
static int shard_start(struct shard *sh, struct convert *cv)
{
	for (uint32_t i = 0; i < sh->n; i++) {
		struct convert *copy = i ? convert_copy(cv) : cv;

		if (!copy)
			return -ENOMEM;
		sh->lanes[i].cv = copy;
		copy->shard = sh;
		copy->lane = i;
		/* each copy is one of the jobs: its reader decodes on its own thread */
		copy->c.jobs = 1;
		if (out_open_mem(&copy->o, 1 << 16))
			return -ENOMEM;
		if (i && pthread_create(&sh->lanes[i].thread, NULL, shard_copy_main, copy))
			return -EAGAIN;
		sh->lanes[i].started = i > 0;
	}
	return 0;
}

/* Stops the copies started, joins them and frees every copy but the first, and the rings. */
static void shard_end(struct shard *sh)
{
	__atomic_store_n(&sh->stop, true, __ATOMIC_RELAXED);
	pthread_mutex_lock(&sh->mu);
	pthread_cond_broadcast(&sh->changed);
	pthread_mutex_unlock(&sh->mu);
	for (uint32_t i = 0; i < sh->n; i++) {
		struct shard_lane *l = &sh->lanes[i];

		if (l->started)
			pthread_join(l->thread, NULL);
		if (!l->cv)
			continue;
		/* the ring's buffers are distinct, and one of them may be the copy's own */
		for (uint32_t r = 0; r < SHARD_RING; r++)
			if (l->ring[r].buf != l->cv->o.buf)
				free(l->ring[r].buf);
		free(l->cv->o.buf);
		l->cv->o.buf = NULL;
		if (i)
			convert_free(l->cv);
	}
	pthread_cond_destroy(&sh->changed);
	pthread_mutex_destroy(&sh->mu);
	free(sh);
}

int shard_run(struct convert *cv, int (*convert_run)(struct convert *cv))
{
	struct out out = cv->o;
	struct shard_writer w = { .o = &out };
	pthread_t writer;
	int err;

	if (!shard_fits(cv))
		return convert_run(cv);
	w.sh = calloc(1, sizeof(*w.sh));
	if (!w.sh)
		return -ENOMEM;
	pthread_mutex_init(&w.sh->mu, NULL);
	pthread_cond_init(&w.sh->changed, NULL);
	w.sh->n = cv->c.jobs < SHARD_COPIES ? cv->c.jobs : SHARD_COPIES;
	cv->o = (struct out){ .fd = -1 };
	err = shard_start(w.sh, cv);
	if (!err && pthread_create(&writer, NULL, shard_writer_main, &w))
		err = -EAGAIN;
	if (!err) {
		shard_finish(cv, convert_run(cv));
		pthread_join(writer, NULL);
		err = w.err;
	}
	shard_end(w.sh);
	cv->o = out;
	cv->shard = NULL;
	cv->lane = 0;
	return err;
}
