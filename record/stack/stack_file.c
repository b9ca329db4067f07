// SPDX-License-Identifier: BSD-2-Clause
/*
 * Each file's distinct stacks. A stack (kernel return addresses as they are, user ones as
 * module and address in it) is written once per file as a STACK record, before the first
 * SYSCALL that names it, and after the MODULE records of its modules and the SYMBOL records
 * of the functions its addresses are in, each of those also once per file: every file of a
 * rotated recording symbolizes alone. The bpf backend's stack event comes just before its
 * call's SYSCALL event: it is held by tid until then, and resolved in the file that SYSCALL
 * goes to.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../record.h"

#define STACK_MAX_FILE_MODULES 65535 /* the format's readers keep 65,536 */

struct held {
	uint64_t enter_ns;
	uint32_t pid;
	uint16_t kn, un;
	uint64_t ips[2 * SCT_STACK_DEPTH_MAX];
};

/* A stack in a file: two independent hashes of its frames (and pid, if it has raw ones). */
struct stack_key {
	uint64_t h1, h2;
};

struct sym_key {
	uint32_t module;
	uint32_t pad;
	uint64_t start;
};

struct stacks {
	uint32_t parts, depth;
	struct stack_modules *ms;
	struct proc_maps *pm;
	struct keytab held;        /* tid -> struct held */
	uint64_t gen;              /* the open file's, from 1 */
	struct keytab file_stacks; /* struct stack_key -> its stack_id */
	struct keytab file_syms;   /* struct sym_key -> written */
	uint32_t next_stack_id, next_module_id;
	uint64_t dropped, dropped_said;
	uint32_t module[SCT_MAX_STACK_FRAMES]; /* each frame's module index, or STACK_MODULE_NONE */
	struct sct_frame frames[SCT_MAX_STACK_FRAMES];
	uint8_t buf[SCT_STACK_FRAMES_MAX_BYTES];
};

struct stacks *stacks_new(uint32_t parts, uint32_t depth)
{
	struct stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->parts = parts;
	s->depth = depth;
	s->ms = stack_modules_new();
	s->pm = s->ms ? proc_maps_new(s->ms) : NULL;
	if (!s->pm) {
		stacks_free(s);
		return NULL;
	}
	keytab_init(&s->held, sizeof(uint32_t), sizeof(struct held), STACK_MAX_HELD);
	keytab_init(&s->file_stacks, sizeof(struct stack_key), sizeof(uint32_t), STACK_MAX_FILE_STACKS);
	keytab_init(&s->file_syms, sizeof(struct sym_key), 1, STACK_MAX_FILE_SYMBOLS);
	stacks_file_begin(s);
	/* /proc/kallsyms now, not in the middle of the first kernel stack's batch */
	if (parts & SCT_STACK_KERNEL)
		stack_modules_kernel(s->ms);
	return s;
}

void stacks_free(struct stacks *s)
{
	if (!s)
		return;
	proc_maps_free(s->pm);
	stack_modules_free(s->ms);
	keytab_free(&s->held);
	keytab_free(&s->file_stacks);
	keytab_free(&s->file_syms);
	free(s);
}

void stacks_file_begin(struct stacks *s)
{
	s->gen++;
	keytab_free(&s->file_stacks);
	keytab_free(&s->file_syms);
	s->next_stack_id = 0;
	s->next_module_id = 0;
}

void stacks_note_exec(struct stacks *s, uint32_t pid)
{
	proc_maps_forget(s->pm, pid);
}

void stacks_note_exit(struct stacks *s, uint32_t pid, uint32_t tid, bool group_dead)
{
	/* a stack whose call's event was lost waits for no one */
	keytab_del(&s->held, &tid);
	if (group_dead)
		proc_maps_forget(s->pm, pid);
}

void stacks_note_fork(struct stacks *s, uint32_t parent, uint32_t child)
{
	proc_maps_fork(s->pm, parent, child);
}

int stacks_hold(struct stacks *s, const void *data, size_t size)
{
	const struct sct_ev_stack *e = data;
	const size_t head = offsetof(struct sct_ev_stack, ips);
	struct held *h;
	int err;

	if (size < head || e->kernel_n > SCT_STACK_DEPTH_MAX || e->user_n > SCT_STACK_DEPTH_MAX ||
	    size < head + 8u * (e->kernel_n + e->user_n))
		return -EPROTO;
	h = keytab_put(&s->held, &e->tid, &err);
	if (!h) {
		s->dropped++;
		return 0;
	}
	h->enter_ns = e->enter_ns;
	h->pid = e->pid;
	h->kn = e->kernel_n;
	h->un = e->user_n;
	memcpy(h->ips, e->ips, 8u * (e->kernel_n + e->user_n));
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* s->module and s->frames' addresses for the n frames; whether one is a raw address. */
static size_t stack_frames(struct stacks *s, uint32_t pid, const uint64_t *kips, size_t kn, const uint64_t *uips,
			   size_t un, bool *raw)
{
	uint32_t kernel = kn ? stack_modules_kernel(s->ms) : STACK_MODULE_NONE;
	size_t n = 0;

	*raw = false;
	for (size_t i = 0; i < kn && n < SCT_MAX_STACK_FRAMES; i++, n++) {
		s->module[n] = kernel;
		s->frames[n].addr = kips[i];
	}
	for (size_t i = 0; i < un && n < SCT_MAX_STACK_FRAMES; i++, n++) {
		if (!proc_maps_resolve(s->pm, pid, uips[i], &s->module[n], &s->frames[n].addr)) {
			s->module[n] = STACK_MODULE_NONE;
			s->frames[n].addr = uips[i];
		}
		*raw |= s->module[n] == STACK_MODULE_NONE;
	}
	return n;
}

static struct stack_key stack_key(const struct stacks *s, size_t n, uint32_t pid, bool raw)
{
	struct stack_key k = { 0x243f6a8885a308d3ull ^ n, 0x13198a2e03707344ull ^ n };

	if (raw) {
		k.h1 = mix(k.h1, pid);
		k.h2 = mix(k.h2 ^ 0xa4093822299f31d0ull, pid);
	}
	for (size_t i = 0; i < n; i++) {
		k.h1 = mix(mix(k.h1, s->module[i]), s->frames[i].addr);
		k.h2 = mix(mix(k.h2 ^ 0x082efa98ec4e6c89ull, s->frames[i].addr), s->module[i]);
	}
	return k;
}

/* Module m's id in the open file, its MODULE record written if it has none yet; 0: no room. */
static int stack_module_id(struct recorder *r, uint32_t m, uint64_t time_ns, uint32_t *id)
{
	struct stacks *s = r->stacks;
	uint32_t *fid = stack_module_file_id(s->ms, m, s->gen);
	struct sct_record rec = { .type = SCT_REC_MODULE };
	int err;

	*id = *fid;
	if (*fid)
		return 0;
	if (s->next_module_id >= STACK_MAX_FILE_MODULES)
		return 0;
	stack_module_describe(s->ms, m, &rec.module);
	rec.module.time_ns = time_ns;
	rec.module.module_id = s->next_module_id + 1;
	err = sct_writer_append(r->writer, &rec);
	if (err)
		return err;
	*id = *fid = ++s->next_module_id;
	return 0;
}

/* The SYMBOL record of the function frame i is in, if it has one not written yet; -ENOSPC full. */
static int stack_symbol(struct recorder *r, size_t i, uint64_t time_ns)
{
	struct stacks *s = r->stacks;
	struct sct_record rec = { .type = SCT_REC_SYMBOL };
	struct sym_key k = { .module = s->module[i] };
	uint64_t size;
	const char *name;
	uint8_t *done;
	int err;

	if (!stack_module_symbol(s->ms, s->module[i], s->frames[i].addr, &k.start, &size, &name))
		return 0;
	done = keytab_put(&s->file_syms, &k, &err);
	if (!done)
		return err;
	if (*done)
		return 0;
	rec.symbol.time_ns = time_ns;
	rec.symbol.module_id = s->frames[i].module_id;
	rec.symbol.addr = k.start;
	rec.symbol.size = size;
	rec.symbol.name.ptr = (const uint8_t *)name;
	rec.symbol.name.len = strlen(name);
	err = sct_writer_append(r->writer, &rec);
	if (!err)
		*done = 1;
	return err;
}

/*
 * The MODULE and SYMBOL records the n frames need, and their module ids into s->frames.
 * Returns 0, -ENOSPC when a table is full (the stack is dropped), or the writer's error.
 */
static int stack_describe(struct recorder *r, size_t n, uint64_t time_ns)
{
	struct stacks *s = r->stacks;
	int err;

	for (size_t i = 0; i < n; i++) {
		s->frames[i].module_id = 0;
		if (s->module[i] == STACK_MODULE_NONE)
			continue;
		err = stack_module_id(r, s->module[i], time_ns, &s->frames[i].module_id);
		if (err)
			return err;
		if (!s->frames[i].module_id)
			return -ENOSPC;
		err = stack_symbol(r, i, time_ns);
		if (err)
			return err;
	}
	return 0;
}

/* A new stack of the open file: its records, then its STACK; *id 0 if a table is full. */
static int stack_write(struct recorder *r, const struct stack_key *k, size_t n, uint32_t pid, uint64_t time_ns,
		       uint32_t *id)
{
	struct stacks *s = r->stacks;
	struct sct_record rec = { .type = SCT_REC_STACK };
	uint32_t *slot;
	int err, len;

	*id = 0;
	if (s->file_stacks.n >= STACK_MAX_FILE_STACKS)
		return -ENOSPC;
	err = stack_describe(r, n, time_ns);
	if (err)
		return err;
	len = sct_stack_frames_encode(s->frames, n, s->buf, sizeof(s->buf));
	if (len < 0)
		return -ENOSPC;
	slot = keytab_put(&s->file_stacks, k, &err);
	if (!slot)
		return err;
	rec.stack.time_ns = time_ns;
	rec.stack.stack_id = s->next_stack_id + 1;
	rec.stack.pid = pid;
	rec.stack.frames.ptr = s->buf;
	rec.stack.frames.len = (size_t)len;
	err = sct_writer_append(r->writer, &rec);
	if (err) {
		keytab_del(&s->file_stacks, k);
		return err;
	}
	*id = *slot = ++s->next_stack_id;
	return 0;
}

int stacks_id(struct recorder *r, uint32_t pid, uint64_t time_ns, const uint64_t *kips, size_t kn,
	      const uint64_t *uips, size_t un, uint32_t *stack_id)
{
	struct stacks *s = r->stacks;
	struct stack_key k;
	uint32_t *known;
	size_t n;
	bool raw;
	int err;

	*stack_id = 0;
	n = stack_frames(s, pid, kips, kn, uips, un, &raw);
	if (!n)
		return 0;
	k = stack_key(s, n, pid, raw);
	known = keytab_get(&s->file_stacks, &k);
	if (known) {
		*stack_id = *known;
		return 0;
	}
	err = stack_write(r, &k, n, pid, time_ns, stack_id);
	if (err == -ENOSPC || err == -ENOMEM) {
		s->dropped++;
		err = 0;
	}
	return err;
}

int stacks_take(struct recorder *r, uint32_t tid, uint64_t enter_ns, uint32_t *stack_id)
{
	struct stacks *s = r->stacks;
	struct held *h = keytab_get(&s->held, &tid);
	int err;

	*stack_id = 0;
	if (!h)
		return 0;
	err = h->enter_ns == enter_ns ? stacks_id(r, h->pid, enter_ns, h->ips, h->kn, h->ips + h->kn, h->un,
						  stack_id) : 0;
	keytab_del(&s->held, &tid);
	return err;
}

int stacks_warn(struct recorder *r)
{
	struct stacks *s = r->stacks;
	uint64_t n;
	char text[160];

	if (!s || s->dropped == s->dropped_said)
		return 0;
	n = s->dropped - s->dropped_said;
	s->dropped_said = s->dropped;
	snprintf(text, sizeof(text), "%" PRIu64 " call stack%s dropped: the stack tables were full (their "
		 "calls have no stack)", n, stats_plural(n));
	if (!r->env->quiet)
		fprintf(stderr, "sct-record: warning: %s\n", text);
	return events_warning(r, SCT_WARN_OTHER, n, text);
}
