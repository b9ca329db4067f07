// SPDX-License-Identifier: BSD-2-Clause
/*
 * The stack tables of one file. Every reference of format 1.6 is to an earlier record of the
 * same file, and a later record with an id replaces the earlier one: each HEADER has tables
 * of its own and a redefinition overwrites. A live session that goes on into the next file
 * of its recording still shows calls of the file before (its reorder heap spans them): that
 * file's tables stay until none of its records is left to show, so each call is shown with
 * its own file's frames. Text is cached per stack and made again after a MODULE or SYMBOL
 * came (one may name frames of a stack already shown). Frames, names and paths are copied
 * into chunks freed with the file's tables, so a file's tables cost what it defines, up to
 * the bounds, and no more after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_dir.h"
#include "demangle.h"
#include "hashmap.h"
#include "names.h"
#include "stacks.h"
#include "sym_index.h"
#include "trace_input.h"

#define CHUNK_BYTES 65536u

struct chunk {
	struct chunk *next;
	size_t used, cap;
	uint8_t data[];
};

struct module {
	bool defined;      /* a MODULE gave it (SYMBOLs may come first) */
	uint32_t kind;
	const uint8_t *path, *build_id;
	uint32_t path_len, build_id_len;
	struct sym_index ix;
	struct sym_index *dbg; /* --debug-dir's symbols, looked for once */
	bool dbg_tried;
};

struct stack {
	const uint8_t *frames;
	uint32_t len;
	uint64_t gen;      /* the tables' gen its cached text was made at, 0: none */
	uint32_t text, folded;
	bool have_text, have_folded;
};

/* The tables of one file. */
struct st_tables {
	uint64_t serial;   /* struct live's of the file, 0: none */
	struct hashmap stacks, modules;
	struct module **mods; /* every module, to free */
	uint32_t nstacks, nmods, capmods, nsyms;
	size_t bytes;
	struct chunk *chunks;
};

struct stacks {
	struct strtab *strs;
	struct debug_dir *dd;
	bool demangle;
	/* a live session's files whose records are still to be shown (struct live's serial_held) */
	struct st_tables files[LIVE_FILES_HELD];
	struct st_tables *cur; /* of the file whose record is being shown */
	uint64_t held;         /* the serial_held the files were last cleared for */
	uint64_t gen, ignored;
	struct out scratch;
};

struct stacks *stacks_new(struct strtab *strs, struct debug_dir *dd, bool demangle)
{
	struct stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->strs = strs;
	st->dd = dd;
	st->demangle = demangle;
	st->gen = 1;
	for (uint32_t i = 0; i < LIVE_FILES_HELD; i++) {
		hashmap_init(&st->files[i].stacks, 1);
		hashmap_init(&st->files[i].modules, 1);
	}
	st->cur = &st->files[0];
	if (out_open_mem(&st->scratch, 4096)) {
		free(st);
		return NULL;
	}
	return st;
}

static void stacks_clear(struct stacks *st, struct st_tables *t)
{
	for (uint32_t i = 0; i < t->nmods; i++) {
		sym_index_free(&t->mods[i]->ix);
		t->mods[i] = NULL;
	}
	while (t->chunks) {
		struct chunk *c = t->chunks;

		t->chunks = c->next;
		free(c);
	}
	hashmap_free(&t->stacks);
	hashmap_free(&t->modules);
	hashmap_init(&t->stacks, 1);
	hashmap_init(&t->modules, 1);
	t->nstacks = t->nmods = t->nsyms = 0;
	t->bytes = 0;
	t->serial = 0;
	st->gen++;
}

/*
 * The tables of files before serial_held go: none of their records is still to come. A new
 * file takes free tables, or those of the oldest file if a live session holds more files
 * than LIVE_FILES_HELD (it does not: trace_input.c drains first), whose stacks then read unknown.
 */
void stacks_session(struct stacks *st, const struct live *lv)
{
	struct st_tables *t = NULL, *oldest = NULL;

	/* every record of a file but its first: nothing changes (the readers call this per record) */
	if (st->cur->serial == lv->serial && st->held == lv->serial_held)
		return;
	st->held = lv->serial_held;
	for (uint32_t i = 0; i < LIVE_FILES_HELD; i++) {
		struct st_tables *f = &st->files[i];

		if (f->serial == lv->serial)
			t = f;
		else if (f->serial && f->serial < lv->serial_held)
			stacks_clear(st, f);
	}
	for (uint32_t i = 0; i < LIVE_FILES_HELD && !t; i++) {
		struct st_tables *f = &st->files[i];

		if (!oldest || f->serial < oldest->serial)
			oldest = f;
	}
	if (!t) {
		t = oldest;
		if (t->serial)
			stacks_clear(st, t);
		t->serial = lv->serial;
	}
	st->cur = t;
}

/* n zeroed bytes that live as long as the file's tables, NULL past the budget or on ENOMEM. */
static void *stacks_alloc(struct stacks *st, size_t n)
{
	struct chunk *c = st->cur->chunks;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (n > STACKS_MAX_BYTES - st->cur->bytes)
		return NULL;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		/* a big one goes second: the chunk being filled stays first */
		if (cap != CHUNK_BYTES && st->cur->chunks) {
			c->next = st->cur->chunks->next;
			st->cur->chunks->next = c;
		} else {
			c->next = st->cur->chunks;
			st->cur->chunks = c;
		}
	}
	p = c->data + c->used;
	c->used += n;
	st->cur->bytes += n;
	memset(p, 0, n);
	return p;
}

static const uint8_t *stacks_copy(struct stacks *st, const struct sct_bytes *b)
{
	uint8_t *p = stacks_alloc(st, b->len ? b->len : 1);

	if (p && b->len)
		memcpy(p, b->ptr, b->len);
	return p;
}

/* The module of id, made (undefined) if new; NULL past the bound or the budget. */
static struct module *stacks_module(struct stacks *st, uint32_t id)
{
	uint64_t key = id;
	struct module *m = hashmap_get(&st->cur->modules, &key);

	if (m || st->cur->nmods == STACKS_MAX_MODULES)
		return m;
	if (st->cur->nmods == st->cur->capmods) {
		uint32_t cap = st->cur->capmods ? st->cur->capmods * 2 : 64;
		struct module **tmp = realloc(st->cur->mods, (size_t)cap * sizeof(*tmp));

		if (!tmp)
			return NULL;
		st->cur->mods = tmp;
		st->cur->capmods = cap;
	}
	m = stacks_alloc(st, sizeof(*m));
	if (!m || hashmap_put(&st->cur->modules, &key, m))
		return NULL;
	st->cur->mods[st->cur->nmods++] = m;
	return m;
}

static int stacks_add_module(struct stacks *st, const struct sct_module *r)
{
	struct module *m = stacks_module(st, r->module_id);
	const uint8_t *path = m ? stacks_copy(st, &r->path) : NULL;
	const uint8_t *bid = path ? stacks_copy(st, &r->build_id) : NULL;

	if (!bid)
		return -ENOSPC;
	m->defined = true;
	m->kind = r->kind;
	m->path = path;
	m->path_len = (uint32_t)r->path.len;
	m->build_id = bid;
	m->build_id_len = (uint32_t)r->build_id.len;
	m->dbg = NULL;
	m->dbg_tried = false;
	return 0;
}

static int stacks_add_symbol(struct stacks *st, const struct sct_symbol *r)
{
	struct module *m = st->cur->nsyms < STACKS_MAX_SYMBOLS ? stacks_module(st, r->module_id) : NULL;
	const uint8_t *name = m ? stacks_copy(st, &r->name) : NULL;

	if (!name)
		return -ENOSPC;
	if (sym_index_add(&m->ix, r->addr, r->size, (const char *)name, (uint32_t)r->name.len))
		return -ENOMEM;
	st->cur->nsyms++;
	return 0;
}

static int stacks_add_stack(struct stacks *st, const struct sct_stack *r)
{
	uint64_t key = r->stack_id;
	struct stack *s = hashmap_get(&st->cur->stacks, &key);
	const uint8_t *frames;

	/* the reader delivers none that fails; the tables do not depend on it to stay bounded */
	if (sct_stack_check(r))
		return 0;
	if (!s && st->cur->nstacks == STACKS_MAX)
		return -ENOSPC;
	frames = stacks_copy(st, &r->frames);
	if (!frames)
		return -ENOSPC;
	if (!s) {
		s = stacks_alloc(st, sizeof(*s));
		if (!s)
			return -ENOSPC;
		if (hashmap_put(&st->cur->stacks, &key, s))
			return -ENOMEM;
		st->cur->nstacks++;
	}
	*s = (struct stack){ .frames = frames, .len = (uint32_t)r->frames.len };
	return 0;
}

int stacks_add(struct stacks *st, const struct sct_record *rec)
{
	int err;

	switch (rec->type) {
	case SCT_REC_STACK:
		err = stacks_add_stack(st, &rec->stack);
		break;
	case SCT_REC_MODULE:
		err = stacks_add_module(st, &rec->module);
		st->gen++;
		break;
	case SCT_REC_SYMBOL:
		err = stacks_add_symbol(st, &rec->symbol);
		st->gen++;
		break;
	default:
		return 0;
	}
	/* over a bound: the record is left out, and said so in the footer */
	if (err == -ENOSPC) {
		st->ignored++;
		err = 0;
	}
	return err;
}

uint64_t stacks_ignored(const struct stacks *st)
{
	return st->ignored;
}

void stacks_warn_ignored(const char *tool, uint64_t n)
{
	if (n)
		fprintf(stderr, "%s: %llu stack, module or symbol record%s ignored: past the bounds of a file's "
			"tables (%u stacks, %u modules, %u symbols, %u MiB)\n", tool, (unsigned long long)n,
			names_plural(n), STACKS_MAX, STACKS_MAX_MODULES, STACKS_MAX_SYMBOLS, STACKS_MAX_BYTES >> 20);
}

/* The module's file name, within its path; bare: without the brackets of "[vdso]". */
static const uint8_t *stacks_base(const struct module *m, bool bare, uint32_t *len)
{
	uint32_t b = 0;

	for (uint32_t i = 0; i < m->path_len; i++)
		if (m->path[i] == '/')
			b = i + 1;
	*len = m->path_len - b;
	if (bare && *len >= 2 && m->path[b] == '[' && m->path[m->path_len - 1] == ']') {
		*len -= 2;
		return m->path + b + 1;
	}
	return m->path + b;
}

static void stacks_basename(struct out *o, const struct module *m, bool bare)
{
	uint32_t len;
	const uint8_t *p = stacks_base(m, bare, &len);

	names_out_escaped(o, p, len);
}

static const struct sym *stacks_sym(struct stacks *st, struct module *m, uint64_t addr)
{
	const struct sym *s = sym_index_find(&m->ix, addr);

	if (s || !st->dd)
		return s;
	if (!m->dbg_tried) {
		m->dbg = debug_dir_find(st->dd, m->build_id, m->build_id_len, (const char *)m->path, m->path_len);
		m->dbg_tried = true;
	}
	return m->dbg ? sym_index_find(m->dbg, addr) : NULL;
}

/* A symbol's name, demangled unless told not to; folded: as stacks_folded() writes it, else escaped. */
static void stacks_out_sym(const struct stacks *st, struct out *o, const struct sym *s, bool folded)
{
	char *d = st->demangle ? demangle_name(s->name, s->len) : NULL;
	const char *p = d ? d : s->name;
	size_t len = d ? strlen(d) : s->len;

	if (folded)
		stacks_out_folded_name(o, p, len);
	else
		names_out_escaped(o, p, len);
	free(d);
}

/* The module a frame names, NULL for module 0 or an id no MODULE defined. */
static struct module *stacks_frame_module(struct stacks *st, const struct sct_frame *f)
{
	uint64_t key = f->module_id;
	struct module *m = f->module_id ? hashmap_get(&st->cur->modules, &key) : NULL;

	return m && m->defined ? m : NULL;
}

/* One frame's line: "TEXT (MODULE)", escaped. */
static void stacks_frame_line(struct stacks *st, struct out *o, const struct sct_frame *f)
{
	struct module *m = stacks_frame_module(st, f);
	const struct sym *s = m ? stacks_sym(st, m, f->addr) : NULL;

	if (s) {
		stacks_out_sym(st, o, s, false);
		if (f->addr != s->addr)
			out_printf(o, "+0x%llx", (unsigned long long)(f->addr - s->addr));
	} else if (m) {
		out_char(o, '[');
		stacks_basename(o, m, true);
		out_printf(o, "+0x%llx]", (unsigned long long)f->addr);
	} else if (!f->module_id) {
		out_printf(o, "[0x%llx]", (unsigned long long)f->addr);
	} else {
		out_str(o, "[unknown]");
	}
	if (m) {
		out_str(o, " (");
		stacks_basename(o, m, false);
		out_char(o, ')');
	}
}

/* flamegraph.pl splits a line at ';' and its count at the last blank: neither in a name. */
void stacks_out_folded_name(struct out *o, const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		out_char(o, b[i] > 0x20 && b[i] < 0x7f && b[i] != ';' ? (char)b[i] : '_');
}

static void stacks_frame_folded(struct stacks *st, struct out *o, const struct sct_frame *f)
{
	struct module *m = stacks_frame_module(st, f);
	const struct sym *s = m ? stacks_sym(st, m, f->addr) : NULL;
	const uint8_t *base;
	uint32_t len;

	if (s) {
		stacks_out_sym(st, o, s, true);
	} else if (m) {
		base = stacks_base(m, true, &len);
		out_char(o, '[');
		stacks_out_folded_name(o, base, len);
		out_char(o, ']');
	} else {
		out_str(o, "[unknown]");
	}
	if (m && m->kind == SCT_MODULE_KERNEL)
		out_str(o, "_[k]");
}

/* The stack of id with its cache current, NULL if no STACK defined it. */
static struct stack *stacks_get(struct stacks *st, uint32_t id)
{
	uint64_t key = id;
	struct stack *s = hashmap_get(&st->cur->stacks, &key);

	if (s && s->gen != st->gen) {
		s->gen = st->gen;
		s->have_text = s->have_folded = false;
	}
	return s;
}

static uint32_t stacks_intern_scratch(struct stacks *st)
{
	if (st->scratch.err)
		abort(); /* as strtab_intern() does without memory */
	return strtab_intern(st->strs, st->scratch.buf, st->scratch.len);
}

enum stack_kind stacks_text(struct stacks *st, uint32_t id, uint32_t *text)
{
	struct stack *s = id ? stacks_get(st, id) : NULL;
	struct sct_frame f;
	size_t pos = 0;

	*text = 0;
	if (!id)
		return STACK_NONE;
	if (!s) {
		*text = strtab_intern(st->strs, "[unknown stack]", 15);
		return STACK_UNKNOWN;
	}
	if (!s->have_text) {
		struct sct_bytes b = { .ptr = s->frames, .len = s->len };

		st->scratch.len = 0;
		while (sct_stack_frame_next(&b, &pos, &f) > 0) {
			if (st->scratch.len)
				out_char(&st->scratch, '\n');
			stacks_frame_line(st, &st->scratch, &f);
		}
		s->text = stacks_intern_scratch(st);
		s->have_text = true;
	}
	*text = s->text;
	return STACK_FRAMES;
}

uint32_t stacks_folded(struct stacks *st, uint32_t id)
{
	struct stack *s = id ? stacks_get(st, id) : NULL;
	struct sct_frame f[SCT_MAX_STACK_FRAMES];
	size_t pos = 0, n = 0;

	if (!id)
		return 0;
	if (!s)
		return strtab_intern(st->strs, "[unknown stack]", 15);
	if (!s->have_folded) {
		struct sct_bytes b = { .ptr = s->frames, .len = s->len };

		while (n < SCT_MAX_STACK_FRAMES && sct_stack_frame_next(&b, &pos, &f[n]) > 0)
			n++;
		st->scratch.len = 0;
		while (n--) {
			stacks_frame_folded(st, &st->scratch, &f[n]);
			if (n)
				out_char(&st->scratch, ';');
		}
		s->folded = stacks_intern_scratch(st);
		s->have_folded = true;
	}
	return s->folded;
}

void stacks_out_lines(struct out *o, const struct strtab *strs, uint32_t text, const char *indent)
{
	const char *p = strtab_get(strs, text);
	uint32_t len = strtab_len(strs, text);

	while (len) {
		const char *nl = memchr(p, '\n', len);
		uint32_t n = nl ? (uint32_t)(nl - p) : len;

		out_str(o, indent);
		out_mem(o, p, n);
		out_char(o, '\n');
		if (!nl)
			break;
		len -= n + 1;
		p = nl + 1;
	}
}

void stacks_free(struct stacks *st)
{
	if (!st)
		return;
	for (uint32_t i = 0; i < LIVE_FILES_HELD; i++) {
		stacks_clear(st, &st->files[i]);
		hashmap_free(&st->files[i].stacks);
		hashmap_free(&st->files[i].modules);
		free(st->files[i].mods);
	}
	free(st->scratch.buf);
	free(st);
}
