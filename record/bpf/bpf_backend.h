/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record/bpf/: the BPF backend's ring buffer consumer, per-CPU stage flush and task iterator
 * snapshot. Included through record.h; the error convention is record.h's.
 */
#ifndef SCT_RECORD_BPF_BACKEND_H
#define SCT_RECORD_BPF_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "sct.h"
#include "../../bpf/sct_events.h"

struct env;
struct recorder;

/* ringbuf.c: the BPF ring buffer consumer. */
typedef int (*ringbuf_fn)(void *ctx, void *data, size_t size);
struct ringbuf {
	int epoll_fd;
	size_t page_size, size, mask, publish_every;
	unsigned long *consumer_pos;         /* written by us */
	const unsigned long *producer_pos;   /* written by the kernel */
	uint8_t *data;                       /* mapped once: see ringbuf_record() */
	uint8_t *wrap;                       /* the last record that wrapped, copied whole */
	size_t wrap_cap;
};
void ringbuf_init(struct ringbuf *rb);
int ringbuf_open(struct ringbuf *rb, int map_fd, size_t size);
void ringbuf_close(struct ringbuf *rb);
/* Hand every submitted record to fn; returns records seen, or fn's non-zero result / -errno. */
int64_t ringbuf_consume(struct ringbuf *rb, ringbuf_fn fn, void *ctx);
/* Wait up to timeout_ms for a wakeup (a signal ends the wait early). Returns 0 or -errno. */
int ringbuf_wait(struct ringbuf *rb, int timeout_ms);

/* stage.c: each CPU's stage_marks entry (bpf/sct_events.h), mapped read-only. */
struct stage_marks {
	const struct sct_stage_mark *m;
	size_t len;               /* bytes mapped */
	int ncpus;
};
void stage_marks_init(struct stage_marks *sm);
int stage_marks_open(struct stage_marks *sm, int map_fd, int ncpus);
void stage_marks_close(struct stage_marks *sm);
/*
 * Run bpf/'s stage_flush_cpu on each CPU whose stage has held events for age_ns or longer at
 * now_ns (CLOCK_MONOTONIC), so that they are in the ring buffer. Returns 0 or -errno.
 */
int stage_flush_old(const struct stage_marks *sm, int prog_fd, uint64_t now_ns, uint64_t age_ns);
/*
 * At stop, the programs detached: the flush on every CPU, retried on a CPU whose stage a
 * program still holds. Returns 0 or -errno.
 */
int stage_flush_all(int prog_fd);


/* snapshot.c: the task iterator: TASK records at start, unfinished syscalls at stop. */
RECORD_MUST_CHECK int snapshot_tasks(struct recorder *r);
RECORD_MUST_CHECK int snapshot_inflight(struct recorder *r);

#endif
