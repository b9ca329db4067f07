// SPDX-License-Identifier: BSD-2-Clause
/*
 * The flight recorder (--snapshot SIZE): records are encoded as usual, but each finished
 * block goes into a ring in memory instead of a file, whole, the oldest dropped once the
 * ring holds more than SIZE bytes. On SIGUSR2 the ring becomes a complete file that decodes
 * alone: its HEADER, TASK records of the traced tasks alive then, a CGROUP record for every
 * cgroup its blocks use (each block keeps the ids its records use), the blocks, a TRAILER.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../record.h"

#define IDS_MIN_SLOTS 64u

/* One block of the ring: the frame's bytes follow the cgroup ids in the same allocation. */
struct flight_block {
	struct flight_block *next;
	struct sct_block_frame b;
	uint32_t nids;
	uint64_t data[];
};

/* The cgroup ids of the block being built (open addressing, 0 is no id). */
struct idset64 {
	uint64_t *slots;
	uint32_t nslots, used;
};

struct flight {
	struct recorder *r;
	struct flight_block *oldest, *newest;
	uint64_t bytes, limit;   /* frame bytes held; --snapshot */
	struct idset64 ids;
	bool writing;            /* a snapshot is being written: its notes are not the block's */
	rotate_start_fn start;   /* each snapshot's start, after its cgroups */
	void *start_ctx;
};

static int idset64_add(struct idset64 *s, uint64_t id)
{
	uint32_t i;

	if (!id)
		return 0;
	if ((s->used + 1) * 2 > s->nslots) {
		struct idset64 bigger = { 0 };
		uint32_t n = s->nslots ? s->nslots * 2 : IDS_MIN_SLOTS;

		bigger.slots = calloc(n, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		bigger.nslots = n;
		for (i = 0; i < s->nslots; i++)
			if (s->slots[i])
				idset64_add(&bigger, s->slots[i]);
		free(s->slots);
		*s = bigger;
	}
	for (i = (uint32_t)(id * 0x9e3779b97f4a7c15ull >> 32) & (s->nslots - 1); s->slots[i];
	     i = (i + 1) & (s->nslots - 1))
		if (s->slots[i] == id)
			return 0;
	s->slots[i] = id;
	s->used++;
	return 0;
}

static void idset64_clear(struct idset64 *s)
{
	if (s->slots)
		memset(s->slots, 0, s->nslots * sizeof(*s->slots));
	s->used = 0;
}

void flight_note_cgroup(struct flight *f, uint64_t id)
{
	/* Without memory the id may be missing from its block's snapshot: the block still reads. */
	if (!f->writing)
		(void)idset64_add(&f->ids, id);
}

static void flight_drop_oldest(struct flight *f)
{
	struct flight_block *old = f->oldest;

	f->oldest = old->next;
	if (!f->oldest)
		f->newest = NULL;
	f->bytes -= old->b.len;
	free(old);
}

/* The writer finished a block: into the ring, with the ids its records use. */
static int flight_take(void *ctx, const struct sct_block_frame *b)
{
	struct flight *f = ctx;
	struct flight_block *fb;
	uint32_t n = 0;

	fb = malloc(sizeof(*fb) + f->ids.used * sizeof(uint64_t) + b->len);
	if (!fb)
		return -ENOMEM;
	for (uint32_t i = 0; i < f->ids.nslots; i++)
		if (f->ids.slots[i])
			fb->data[n++] = f->ids.slots[i];
	fb->next = NULL;
	fb->b = *b;
	fb->nids = n;
	memcpy(fb->data + n, b->bytes, b->len);
	fb->b.bytes = (const uint8_t *)(fb->data + n);
	if (f->newest)
		f->newest->next = fb;
	else
		f->oldest = fb;
	f->newest = fb;
	f->bytes += b->len;
	/* the newest block stays even alone past the limit: memory is the limit plus one block */
	while (f->bytes > f->limit && f->oldest != f->newest)
		flight_drop_oldest(f);
	/*
	 * A block is finished while the record that did not fit is being appended: that record,
	 * the first of the next block, is the one whose cgroup was noted last (or, for a SYSCALL
	 * record, the one of the previous SYSCALL record, which is why it was not noted).
	 */
	idset64_clear(&f->ids);
	if (idset64_add(&f->ids, f->r->last_cgroup) || idset64_add(&f->ids, f->r->last_noted))
		return -ENOMEM;
	return 0;
}

int flight_open(struct recorder *r, const struct sct_writer_opts *opts, rotate_start_fn start,
		void *ctx)
{
	struct flight *f = calloc(1, sizeof(*f));
	int err = 0;

	if (!f)
		return -ENOMEM;
	f->r = r;
	f->start = start;
	f->start_ctx = ctx;
	f->limit = r->env->snapshot_size;
	r->writer = sct_writer_open_blocks(&r->host.info, opts, flight_take, f, &err);
	if (!r->writer) {
		free(f);
		return err;
	}
	r->flight = f;
	return 0;
}

/* Into the snapshot's writer (r->writer meanwhile): cgroups, tasks, the blocks. */
static int flight_fill(struct recorder *r, uint64_t now_ns)
{
	struct flight *f = r->flight;
	int err = 0;

	if (r->cgroups)
		cgroups_forget_seen(r->cgroups);
	for (struct flight_block *fb = f->oldest; fb && !err; fb = fb->next)
		for (uint32_t i = 0; i < fb->nids && !err; i++)
			err = events_note_cgroup(r, fb->data[i], now_ns);
	if (!err)
		err = f->start(f->start_ctx);
	for (struct flight_block *fb = f->oldest; fb && !err; fb = fb->next)
		err = sct_writer_append_block(r->writer, &fb->b);
	return err;
}

int flight_write(struct recorder *r, uint64_t seq, char *name, size_t cap, uint64_t *bytes)
{
	struct sct_writer_opts opts = { 0 };
	struct sct_header_info info;
	struct flight *f = r->flight;
	struct sct_writer *ring = r->writer;
	uint64_t last_noted = r->last_noted;
	char tmp[PATH_MAX];
	int fd, err;

	*bytes = 0;
	err = output_name(r->env, true, seq, name, cap);
	if (err)
		return err;
	/* the records of the block being built are the newest: they go into the ring first */
	err = sct_writer_flush(ring);
	if (err)
		return err;
	fd = output_create_tmp(name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	info = r->host.info;
	info.sequence = seq;
	info.snapshot = true;
	r->writer = sct_writer_open_fd(fd, &info, &opts, &err);
	if (!r->writer) {
		r->writer = ring;
		unlink(tmp);
		return err;
	}
	f->writing = true;
	err = flight_fill(r, clock_now_ns());
	f->writing = false;
	r->last_noted = last_noted;
	if (!err)
		err = output_close(r->writer, bytes);
	else
		sct_writer_abandon(r->writer);
	r->writer = ring;
	if (!err)
		err = output_publish(r->env, tmp, name);
	if (err)
		unlink(tmp);
	return err;
}

void flight_free(struct flight *f)
{
	if (!f)
		return;
	while (f->oldest)
		flight_drop_oldest(f);
	free(f->ids.slots);
	free(f);
}
