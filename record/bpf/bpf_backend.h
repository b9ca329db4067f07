/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record/bpf/: the BPF backend (backend.h's bpf_backend): the skeleton loaded by load.h's
 * loaders, its ring buffer consumer, per-CPU stage flush and task iterator snapshot, and its
 * private state. Only record/bpf/ includes this, after record.h; the error convention is
 * record.h's.
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
#include "../record.h"

/* bpf_events.c: one ring buffer record (ctx: the recorder) -> records; sets r->err on failure. */
int bpf_events_handle(void *ctx, void *data, size_t size);

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


/*
 * bpf_totals.c: the kernel's totals (the totals_cache slots, the totals map) into the
 * interval's totals (output/totals.c).
 */
struct bpf_totals {
	struct keytab prev;       /* struct sct_tot_bucket_key -> its sums at the last read */
	int ncpus;
	struct sct_tot_value *vals; /* one per-CPU value of the map */
	struct sct_tot_bucket_key *del; /* keys of dead processes, deleted after a walk */
	size_t ndel, capdel;
	struct sct_tot_slot *slots; /* totals_cache, mapped */
	size_t nslots, slots_len;
	struct sct_tot_value *slots_prev; /* each slot's sums at the last read */
};
int bpf_totals_init(struct bpf_totals *t, uint32_t max_keys);
/* totals_cache (fd, nslots slots) mapped, to be read in place. */
int bpf_totals_map(struct bpf_totals *t, int cache_fd, size_t nslots);
void bpf_totals_free(struct bpf_totals *t);
/*
 * What the slots and the map grew by since the last read, into tot; dead processes' slots
 * freed and keys deleted.
 */
int bpf_totals_read(struct bpf_totals *t, struct totals *tot, int totals_fd);

struct loader;
struct perf_backend;

/* The backend's private state: what it loaded and maps, for the session's one recording. */
struct bpf_state {
	struct recorder *r;
	const struct loader *loader; /* load.h: which skeleton */
	void *skel;                 /* the loader's skeleton */
	bool inflight_in_hash;      /* no task storage: in-flight syscalls in a hash map */
	bool task_cast;             /* sys_enter casts its slot's task address (bpf_rdonly_cast) */
	bool staged;                /* SYSCALL events staged per CPU */
	int stats_fd;               /* map of the loaded skeleton */
	int iter_prog_fd;
	int stage_prog_fd;          /* stage_flush_cpu, when SYSCALL events are staged */
	int cpu_calls_fd;           /* the calls in flight on each CPU (bpf/sct.bpf.c cpu_calls) */
	int cpu_calls_args_fd;      /* the same under --args (cpu_calls_args) */
	struct stage_marks marks;   /* when SYSCALL events are staged */
	__u32 *iter_mode;           /* the iterator's switch, in the mapped .bss */
	bool *snapshot_done;        /* the BPF side's: the first TASK snapshot is written */
	struct ringbuf rb;
	struct perf_backend *sampler; /* -e: the perf events of the tracepoints */
	uint64_t not_fit;           /* live targets the map had no room for at start */
	int totals_fd;              /* the filter's totals map */
	struct bpf_totals totals;   /* under a filter or --summary-only */
};

/* snapshot.c: the task iterator: TASK records at start, unfinished syscalls at stop. */
RECORD_MUST_CHECK int snapshot_tasks(struct bpf_state *b);
RECORD_MUST_CHECK int snapshot_inflight(struct bpf_state *b);

#endif
