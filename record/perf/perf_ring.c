// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf backend's per-CPU rings. Each ring is in time order; the rings together are
 * merged by time, because one thread's records land in the ring of whatever CPU it runs on.
 * The reader publishes its position once per pass, so the kernel sees the space free a
 * little later, and the ring is sized for that.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf.h"

/* Sample layout (perf_backend.c's sample_type): header, identifier, pid/tid, time, ... */
#define SAMPLE_TIME_AT 24
/* Side-band layout with sample_id_all: ..., pid/tid, time, identifier. */
#define SIDEBAND_TIME_FROM_END 16

int perf_ring_map(struct perf_ring *rb, int fd, size_t data_pages)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;

	rb->size = data_pages * page;
	rb->mask = rb->size - 1;
	rb->map_len = (data_pages + 1) * page;
	/* The largest record is 64 KiB (a u16 size); only one that wraps is copied here. */
	rb->copy = malloc(1 << 16);
	if (!rb->copy)
		return -ENOMEM;
	p = mmap(NULL, rb->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		free(rb->copy);
		rb->copy = NULL;
		return -errno;
	}
	rb->meta = p;
	rb->data = (uint8_t *)p + page;
	rb->fd = fd;
	rb->tail = rb->head = 0;
	rb->cur = NULL;
	return 0;
}

void perf_ring_unmap(struct perf_ring *rb)
{
	if (rb->meta)
		munmap(rb->meta, rb->map_len);
	free(rb->copy);
	memset(rb, 0, sizeof(*rb));
	rb->fd = rb->flush_fd = -1;
}

uint64_t perf_record_time(const struct perf_event_header *h)
{
	const uint8_t *p = (const uint8_t *)h;
	uint64_t t;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (h->size < SAMPLE_TIME_AT + 8)
			return 0;
		memcpy(&t, p + SAMPLE_TIME_AT, 8);
		return t;
	}
	if (h->size < sizeof(*h) + SIDEBAND_TIME_FROM_END)
		return 0;
	memcpy(&t, p + h->size - SIDEBAND_TIME_FROM_END, 8);
	return t;
}

/* The record at the tail, whole (copied if it wraps), or NULL when the ring is read. */
static const struct perf_event_header *ring_peek(struct perf_ring *rb)
{
	struct perf_event_header h;
	size_t off, first;

	if (rb->tail >= rb->head)
		return NULL;
	off = rb->tail & rb->mask;
	if (off + sizeof(h) <= rb->size) {
		memcpy(&h, rb->data + off, sizeof(h));
	} else {
		first = rb->size - off;
		memcpy(&h, rb->data + off, first);
		memcpy((uint8_t *)&h + first, rb->data, sizeof(h) - first);
	}
	/* A size the kernel never writes would loop or read past the head: treat it as the end. */
	if (h.size < sizeof(h) || h.size > rb->head - rb->tail)
		return NULL;
	if (off + h.size <= rb->size)
		return (const struct perf_event_header *)(rb->data + off);
	first = rb->size - off;
	memcpy(rb->copy, rb->data + off, first);
	memcpy(rb->copy + first, rb->data, h.size - first);
	return (const struct perf_event_header *)rb->copy;
}

static void ring_next(struct perf_ring *rb)
{
	rb->cur = ring_peek(rb);
	rb->cur_ns = rb->cur ? perf_record_time(rb->cur) : UINT64_MAX;
}

int64_t perf_rings_read(struct perf_ring *rings, int n, uint64_t horizon_ns, perf_record_fn fn,
			void *ctx)
{
	int64_t count = 0;
	int err = 0;

	for (int i = 0; i < n; i++) {
		if (rings[i].fd < 0)
			continue;
		rings[i].head = __atomic_load_n(&rings[i].meta->data_head, __ATOMIC_ACQUIRE);
		ring_next(&rings[i]);
	}
	for (;;) {
		struct perf_ring *best = NULL;

		for (int i = 0; i < n; i++)
			if (rings[i].fd >= 0 && rings[i].cur && (!best || rings[i].cur_ns < best->cur_ns))
				best = &rings[i];
		if (!best || best->cur_ns > horizon_ns)
			break;
		err = fn(ctx, (int)(best - rings), best->cur);
		if (err)
			break;
		count++;
		best->tail += best->cur->size;
		ring_next(best);
	}
	for (int i = 0; i < n; i++)
		if (rings[i].fd >= 0)
			__atomic_store_n(&rings[i].meta->data_tail, rings[i].tail, __ATOMIC_RELEASE);
	return err ? err : count;
}
