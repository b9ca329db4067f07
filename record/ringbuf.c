// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BPF ring buffer consumer. libbpf's ring_buffer__consume() publishes the consumer
 * position after every record: while the workload keeps producing on another CPU, that
 * store bounces the cache line the producer reads on every reserve. This one publishes
 * once per slice of the buffer and at the end of each pass; the producer only sees the
 * free space a little later, which a buffer sized for 100 ms polls does not notice.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "record.h"

/*
 * The records were written on another CPU: each first touch is a cache miss. They are
 * consecutive, so asking for the lines ~18 syscall records ahead hides most of the wait.
 * The data area is mapped twice, so the address is always mapped.
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
	/* Layout of a ring buffer map: consumer page (ours to write), producer page, data twice. */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	rb->consumer_pos = p;
	p = mmap(NULL, page + 2 * size, PROT_READ, MAP_SHARED, map_fd, page);
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
		munmap((void *)rb->producer_pos, rb->page_size + 2 * rb->size);
	if (rb->consumer_pos)
		munmap((void *)rb->consumer_pos, rb->page_size);
	if (rb->epoll_fd >= 0)
		close(rb->epoll_fd);
	ringbuf_init(rb);
}

int64_t ringbuf_consume(struct ringbuf *rb, ringbuf_fn fn, void *ctx)
{
	unsigned long cons = *rb->consumer_pos, published = cons, prod;
	int64_t n = 0;
	int err = 0;

	while (!err && cons < (prod = __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE))) {
		while (cons < prod) {
			uint8_t *hdr = rb->data + (cons & rb->mask);
			uint32_t len;

			__builtin_prefetch(hdr + RINGBUF_PREFETCH_AHEAD);
			len = __atomic_load_n((uint32_t *)hdr, __ATOMIC_ACQUIRE);

			/* Reserved, not yet submitted: records after it must wait for it. */
			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out;
			cons += ((len & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ + 7) & ~7ul;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				n++;
				err = fn(ctx, hdr + BPF_RINGBUF_HDR_SZ, len & ~BPF_RINGBUF_DISCARD_BIT);
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
