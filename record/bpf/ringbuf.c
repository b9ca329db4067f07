// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF ring buffer consumer. libbpf's ring_buffer__consume() publishes the consumer
 * position after every record: while the workload keeps producing on another CPU, that
 * store bounces the cache line the producer reads on every reserve. This one publishes
 * once per slice of the buffer and at the end of each pass; the producer only sees the
 * free space a little later, which a buffer sized for 100 ms polls does not notice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpf_backend.h"

/*
 * The records were written on another CPU: each first touch is a cache miss. They are
 * consecutive, so asking for the lines ~18 syscall records ahead hides most of the wait.
 */
#define RINGBUF_PREFETCH_AHEAD 1024

void ringbuf_init(struct ringbuf *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->epoll_fd = -1;
}

int ringbuf_open(struct ringbuf *rb, int map_fd, size_t size)
{
	/*
	 * Edge-triggered: a ring buffer map polls readable whenever any record is in it, so a
	 * level-triggered wait returns at once while the workload keeps writing, and the
	 * consumer spins through small batches (8,000 passes per 1,000,000 records, each with a
	 * stats lookup). Edge-triggered, it waits for the program's forced wakeup past the fill
	 * threshold, or the poll timeout.
	 */
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;

	rb->page_size = page;
	rb->size = size;
	rb->mask = size - 1;
	rb->publish_every = size / 16;
	/*
	 * Layout of a ring buffer map: consumer page (ours to write), producer page, data twice.
	 * The data is mapped once (ringbuf_record()).
	 */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	rb->consumer_pos = p;
	p = mmap(NULL, page + size, PROT_READ, MAP_SHARED, map_fd, page);
	if (p == MAP_FAILED)
		return -errno;
	rb->producer_pos = p;
	rb->data = (uint8_t *)p + page;
	rb->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (rb->epoll_fd < 0)
		return -errno;
	if (epoll_ctl(rb->epoll_fd, EPOLL_CTL_ADD, map_fd, &ev))
		return -errno;
	return 0;
}

void ringbuf_close(struct ringbuf *rb)
{
	if (rb->producer_pos)
		munmap((void *)rb->producer_pos, rb->page_size + rb->size);
	free(rb->wrap);
	if (rb->consumer_pos)
		munmap((void *)rb->consumer_pos, rb->page_size);
	if (rb->epoll_fd >= 0)
		close(rb->epoll_fd);
	ringbuf_init(rb);
}

/*
 * The record of len bytes at offset off of the data area. libbpf maps the area twice, so that
 * no record wraps; mapping and unmapping the 4 MB default twice took 0.3 ms more of the
 * recorder's fixed CPU here than once (median of ten rounds; up to 1.6 ms with the host busy),
 * for a record that wraps once per pass over the buffer.
 * So the area is mapped once, and that record is copied whole into rb->wrap. NULL if that copy
 * cannot be made.
 */
static void *ringbuf_record(struct ringbuf *rb, size_t off, size_t len)
{
	size_t first = rb->size - off;
	uint8_t *tmp;

	if (len <= first)
		return rb->data + off;
	if (len > rb->size)
		return NULL;
	if (len > rb->wrap_cap) {
		tmp = realloc(rb->wrap, len);
		if (!tmp)
			return NULL;
		rb->wrap = tmp;
		rb->wrap_cap = len;
	}
	memcpy(rb->wrap, rb->data + off, first);
	memcpy(rb->wrap + first, rb->data, len - first);
	return rb->wrap;
}

int64_t ringbuf_consume(struct ringbuf *rb, ringbuf_fn fn, void *ctx)
{
	unsigned long cons = *rb->consumer_pos, published = cons, prod;
	int64_t n = 0;
	int err = 0;

	while (!err && cons < (prod = __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE))) {
		while (cons < prod) {
			/* records start 8-byte aligned: a header never wraps */
			uint32_t *hdr = (uint32_t *)(rb->data + (cons & rb->mask));
			size_t off = (cons + BPF_RINGBUF_HDR_SZ) & rb->mask, size;
			uint32_t len;
			void *rec;

			__builtin_prefetch(rb->data + ((cons + RINGBUF_PREFETCH_AHEAD) & rb->mask));
			len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);

			/* Reserved, not yet submitted: records after it must wait for it. */
			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out;
			size = len & ~BPF_RINGBUF_DISCARD_BIT;
			rec = NULL;
			if (!(len & BPF_RINGBUF_DISCARD_BIT) && !(rec = ringbuf_record(rb, off, size))) {
				err = size > rb->size ? -EPROTO : -ENOMEM;
				break;
			}
			cons += (size + BPF_RINGBUF_HDR_SZ + 7) & ~7ul;
			if (rec) {
				n++;
				err = fn(ctx, rec, size);
				if (err)
					break;
			}
			if (cons - published >= rb->publish_every) {
				__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
				published = cons;
			}
		}
	}
out:
	__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
	return err ? err : n;
}

int ringbuf_wait(struct ringbuf *rb, int timeout_ms)
{
	struct epoll_event ev;

	if (epoll_wait(rb->epoll_fd, &ev, 1, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}
