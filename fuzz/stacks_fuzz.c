// SPDX-License-Identifier: BSD-2-Clause
/*
 * Property: a hostile trace's STACK, MODULE and SYMBOL records cannot crash or mislead the
 * reports' symbolization (report/lib/stacks.c, sym_index.c). Every record the reader delivers
 * goes into the tables as sct-report feeds them (emptied at each HEADER), and every SYSCALL's
 * stack_id is made into frame text and folded text. Checked: no sanitizer report; id 0 is "no
 * stack"; an id no STACK of this file defined is "[unknown stack]", never another stack's
 * frames; a defined stack has exactly one text line and one folded part per frame; a name is
 * printed only where a SYMBOL of the frame's module covers the address (an independent table
 * of the file's symbols, searched by brute force, answers which names may appear).
 */
#include <stdlib.h>
#include <string.h>

#include "frame_fixup.h"
#include "sct.h"
#include "stacks.h"
#include "strtab.h"
#include "trace_input.h"

/* Past this many records per input the harness would measure its own checks. */
#define MAX_WORK (1u << 14)
/* The harness's own tables: past these the checks that need them are skipped. */
#define MIRROR_STACKS 512u
#define MIRROR_SYMS 512u

struct mirror_stack {
	uint32_t id, nframes;
	struct sct_frame frames[SCT_MAX_STACK_FRAMES];
};

struct mirror_sym {
	uint32_t module_id;
	uint64_t addr, size;
};

/* What this file defined, as the property needs it; full: a check's answer is unknown. */
struct mirror {
	struct mirror_stack *stacks;
	uint32_t nstacks, nsyms;
	bool stacks_full, syms_full;
	struct mirror_sym syms[MIRROR_SYMS];
};

static volatile uint64_t sink;

static void mirror_clear(struct mirror *m)
{
	m->nstacks = m->nsyms = 0;
	m->stacks_full = m->syms_full = false;
}

static struct mirror_stack *mirror_stack(const struct mirror *m, uint32_t id)
{
	for (uint32_t i = m->nstacks; i > 0; i--)
		if (m->stacks[i - 1].id == id)
			return &m->stacks[i - 1];
	return NULL;
}

/* A delivered STACK passed sct_stack_check(): its frames parse, at most 256 of them. */
static void mirror_add_stack(struct mirror *m, const struct sct_stack *r)
{
	struct mirror_stack *s = mirror_stack(m, r->stack_id);
	size_t pos = 0;

	if (!s) {
		if (m->nstacks == MIRROR_STACKS) {
			m->stacks_full = true;
			return;
		}
		s = &m->stacks[m->nstacks++];
	}
	s->id = r->stack_id;
	s->nframes = 0;
	while (s->nframes < SCT_MAX_STACK_FRAMES && sct_stack_frame_next(&r->frames, &pos, &s->frames[s->nframes]) > 0)
		s->nframes++;
}

static void mirror_add(struct mirror *m, const struct sct_record *rec)
{
	if (rec->type == SCT_REC_STACK)
		mirror_add_stack(m, &rec->stack);
	if (rec->type != SCT_REC_SYMBOL)
		return;
	if (m->nsyms == MIRROR_SYMS) {
		m->syms_full = true;
		return;
	}
	m->syms[m->nsyms++] = (struct mirror_sym){ rec->symbol.module_id, rec->symbol.addr, rec->symbol.size };
}

/* Whether any SYMBOL of the module may name addr: sized ones that cover it, unsized ones below it. */
static bool mirror_may_name(const struct mirror *m, const struct sct_frame *f)
{
	if (m->syms_full)
		return true;
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const struct mirror_sym *s = &m->syms[i];

		if (s->module_id == f->module_id && s->addr <= f->addr && (!s->size || f->addr - s->addr < s->size))
			return true;
	}
	return false;
}

/* Lines of text split at '\n'; at most SCT_MAX_STACK_FRAMES + 1 are looked at. */
static uint32_t text_split(const char *p, uint32_t len, const char **line, uint32_t *line_len, uint32_t max)
{
	uint32_t n = 0;

	while (n < max) {
		const char *nl = memchr(p, '\n', len);
		uint32_t k = nl ? (uint32_t)(nl - p) : len;

		line[n] = p;
		line_len[n++] = k;
		if (!nl)
			break;
		len -= k + 1;
		p = nl + 1;
	}
	return n;
}

/* A frame's line names a symbol unless it starts with '[' (a module, an address, unknown). */
static void frames_check(const struct mirror *m, const struct mirror_stack *s, const char *text, uint32_t len)
{
	static const char *line[SCT_MAX_STACK_FRAMES + 1];
	static uint32_t line_len[SCT_MAX_STACK_FRAMES + 1];
	uint32_t n = s->nframes ? text_split(text, len, line, line_len, SCT_MAX_STACK_FRAMES + 1) : 0;

	if (n != s->nframes || (!n && len))
		abort();
	for (uint32_t i = 0; i < n; i++) {
		if (!line_len[i])
			abort();
		if (line[i][0] != '[' && !mirror_may_name(m, &s->frames[i]))
			abort(); /* a name for an address no symbol of its module covers */
	}
}

static uint32_t folded_parts(const char *p, uint32_t len)
{
	uint32_t n = 1;

	for (uint32_t i = 0; i < len; i++)
		n += p[i] == ';';
	return n;
}

static void call_check(struct stacks *st, struct strtab *strs, const struct mirror *m, uint32_t id)
{
	const struct mirror_stack *s = mirror_stack(m, id);
	enum stack_kind kind;
	uint32_t text, folded, len;
	const char *p;

	kind = stacks_text(st, id, &text);
	folded = stacks_folded(st, id);
	p = strtab_get(strs, text);
	len = strtab_len(strs, text);
	if ((kind == STACK_NONE) != !id || (!id && (text || folded)))
		abort();
	if (!id)
		return;
	if (kind == STACK_UNKNOWN && (s || strcmp(p, "[unknown stack]") || folded != text))
		abort(); /* an unknown stack reads as unknown, and only when this file has none */
	if (kind == STACK_FRAMES && !s && !m->stacks_full)
		abort();
	if (kind != STACK_FRAMES || !s)
		return;
	frames_check(m, s, p, len);
	p = strtab_get(strs, folded);
	len = strtab_len(strs, folded);
	if (s->nframes && folded_parts(p, len) != s->nframes)
		abort();
	for (uint32_t i = 0; i < len; i++)
		sink += (uint8_t)p[i];
}

static void read_all(struct sct_reader *r, struct stacks *st, struct strtab *strs, struct mirror *m)
{
	struct live lv = { .serial = 0 };
	struct sct_record rec;
	uint32_t work = 0;

	sct_reader_set_unknown(r, false);
	while (work++ < MAX_WORK && sct_reader_next(r, &rec) > 0) {
		if (rec.type == SCT_REC_SESSION) {
			lv.serial++;
			stacks_session(st, &lv);
			mirror_clear(m);
			continue;
		}
		if (stacks_add(st, &rec))
			return; /* out of memory: nothing more to check */
		mirror_add(m, &rec);
		if (rec.type == SCT_REC_SYSCALL)
			call_check(st, strs, m, rec.syscall.stack_id);
	}
}

static void read_input(const uint8_t *data, size_t size, struct mirror *m)
{
	struct strtab *strs = strtab_new();
	struct stacks *st = strs ? stacks_new(strs, NULL, true) : NULL;
	struct sct_reader *r;
	int err = 0;

	r = st ? sct_reader_open_mem(data, size, &err) : NULL;
	if (r) {
		read_all(r, st, strs, m);
		sct_reader_close(r);
	}
	stacks_free(st);
	strtab_free(strs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mirror m;
	uint8_t *fixed;

	if (!m.stacks) {
		m.stacks = calloc(MIRROR_STACKS, sizeof(*m.stacks));
		if (!m.stacks)
			abort();
	}
	mirror_clear(&m);
	fixed = malloc(size ? size : 1);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	/* checksums repaired, so mutations reach the records rather than the envelope */
	frame_fixup(fixed, size);
	read_input(fixed, size, &m);
	free(fixed);
	return 0;
}
