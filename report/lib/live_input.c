// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reader of a live stream in a thread of its own. libsct reads with blocking read()s,
 * so a caller that waited in sct_reader_next() could not print what is due while the stream
 * is quiet; here the thread waits instead and queues copies of the records (window.c, with
 * their strings) for the caller. Two rules keep the caller's view sequential:
 * - after a SESSION record the thread waits until the caller took it and asks for the next
 *   record, so sct_reader_session() is the caller's session while it handles the records
 *   that follow, and the previous one stays valid while it finishes those before (sct.h);
 * - the reader's diagnostics are queued too and handed to the footer in the caller's
 *   thread, so that the footer is only ever touched by one thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "footer.h"
#include "live_input.h"
#include "window.h"

#define LIVE_DIAGS 256u /* diagnostics queued at most: the thread waits for room */

struct live_diag {
	struct sct_diag d;
	char *text;
};

struct live_input {
	struct sct_reader *r;
	struct footer *footer;
	struct window *q;
	struct live_diag diags[LIVE_DIAGS];
	uint32_t ndiags;
	pthread_mutex_t lock;
	pthread_cond_t data, room; /* records came or the reader ended; room or resume */
	pthread_t thread;
	bool session_held; /* the thread waits: the caller has not finished with a SESSION record */
	bool session_taken; /* the caller took that SESSION record: its next call releases the thread */
	/*
	 * The queue was full: the thread waits until the caller took half of it, not for each
	 * record (one wake-up per record costs more than the record).
	 */
	bool room_wanted;
	bool waiting;      /* the caller waits for a record */
	bool ended;
	bool quit;         /* the caller is done: the thread stops at its next wait */
	int end_rc;
};

uint64_t live_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void live_diag(void *ctx, const struct sct_diag *d)
{
	struct live_input *li = ctx;
	struct live_diag *ld;

	pthread_mutex_lock(&li->lock);
	while (li->ndiags == LIVE_DIAGS)
		pthread_cond_wait(&li->room, &li->lock);
	ld = &li->diags[li->ndiags++];
	ld->d = *d;
	ld->text = d->text ? strdup(d->text) : NULL;
	ld->d.text = ld->text ? ld->text : "";
	if (li->waiting)
		pthread_cond_signal(&li->data);
	pthread_mutex_unlock(&li->lock);
}

static void *live_thread(void *arg)
{
	struct live_input *li = arg;
	struct sct_record rec;
	int n;

	for (;;) {
		pthread_mutex_lock(&li->lock);
		if (window_full(li->q))
			li->room_wanted = true;
		while (!li->quit && (li->session_held || li->room_wanted))
			pthread_cond_wait(&li->room, &li->lock);
		if (li->quit) {
			pthread_mutex_unlock(&li->lock);
			return NULL;
		}
		pthread_mutex_unlock(&li->lock);
		n = sct_reader_next(li->r, &rec);
		pthread_mutex_lock(&li->lock);
		if (n > 0) {
			int err = window_push(li->q, &rec);

			n = err ? err : n;
			li->session_held = rec.type == SCT_REC_SESSION;
		}
		if (n <= 0) {
			li->ended = true;
			li->end_rc = n;
		}
		if (li->waiting)
			pthread_cond_signal(&li->data);
		pthread_mutex_unlock(&li->lock);
		if (n <= 0)
			return NULL;
	}
}

int live_input_start(struct live_input **out, struct sct_reader *r, struct footer *f)
{
	struct live_input *li = calloc(1, sizeof(*li));
	pthread_condattr_t attr;
	int err;

	if (!li)
		return -ENOMEM;
	li->r = r;
	li->footer = f;
	li->q = window_new();
	if (!li->q) {
		free(li);
		return -ENOMEM;
	}
	pthread_mutex_init(&li->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&li->data, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&li->room, NULL);
	sct_reader_set_diag(r, live_diag, li);
	err = pthread_create(&li->thread, NULL, live_thread, li);
	if (err) {
		window_free(li->q);
		free(li);
		return -err;
	}
	*out = li;
	return 0;
}

/* The queued diagnostics into the footer. Under the lock. */
static void live_diags_out(struct live_input *li)
{
	for (uint32_t i = 0; i < li->ndiags; i++) {
		footer_diag(li->footer, &li->diags[i].d);
		free(li->diags[i].text);
	}
	if (li->ndiags == LIVE_DIAGS)
		pthread_cond_broadcast(&li->room);
	li->ndiags = 0;
}

/* li->data runs on CLOCK_MONOTONIC (live_input_start()). */
static int live_wait(struct live_input *li, uint64_t deadline_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(deadline_ns / 1000000000u),
			       .tv_nsec = (long)(deadline_ns % 1000000000u) };

	if (!deadline_ns)
		return pthread_cond_wait(&li->data, &li->lock);
	return pthread_cond_timedwait(&li->data, &li->lock, &ts);
}

int live_input_next(struct live_input *li, struct sct_record *rec, uint64_t deadline_ns, void (*idle)(void *),
		    void *ctx)
{
	bool idled = false;
	int rc = 1;

	pthread_mutex_lock(&li->lock);
	/* not before: a SESSION still queued is not the caller's session yet */
	if (li->session_taken) {
		li->session_taken = false;
		li->session_held = false;
		pthread_cond_broadcast(&li->room);
	}
	for (;;) {
		live_diags_out(li);
		if (window_count(li->q)) {
			window_pop(li->q, rec);
			li->session_taken = rec->type == SCT_REC_SESSION;
			if (li->room_wanted && window_count(li->q) <= WINDOW_RECORDS / 2 && !window_full(li->q)) {
				li->room_wanted = false;
				pthread_cond_signal(&li->room);
			}
			break;
		}
		if (li->ended) {
			rc = li->end_rc;
			break;
		}
		if (idle && !idled) {
			idled = true;
			pthread_mutex_unlock(&li->lock);
			idle(ctx);
			pthread_mutex_lock(&li->lock);
			continue;
		}
		li->waiting = true;
		rc = live_wait(li, deadline_ns);
		li->waiting = false;
		if (rc == ETIMEDOUT) {
			rc = -EAGAIN;
			break;
		}
		rc = 1;
	}
	pthread_mutex_unlock(&li->lock);
	return rc;
}

void live_input_free(struct live_input *li)
{
	if (!li)
		return;
	pthread_mutex_lock(&li->lock);
	li->quit = true;
	pthread_cond_broadcast(&li->room);
	pthread_mutex_unlock(&li->lock);
	pthread_join(li->thread, NULL);
	live_diags_out(li);
	pthread_cond_destroy(&li->data);
	pthread_cond_destroy(&li->room);
	pthread_mutex_destroy(&li->lock);
	window_free(li->q);
	free(li);
}
