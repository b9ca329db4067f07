// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to folded: the detailed calls as flamegraph.pl's folded stacks, one line per
 * distinct (comm, stack, syscall): "COMM;OUTERMOST;...;INNERMOST;SYSCALL COUNT", COUNT the
 * calls (--by calls) or their nanoseconds (--by time). Frames are function names only
 * (stacks.h), kernel ones NAME_[k]; a call without a stack is "COMM;SYSCALL COUNT". Lines
 * come sorted by their bytes, so two runs over one trace give one output, and lines that
 * read the same (names whose bytes were replaced) are summed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "hashmap.h"
#include "stacks.h"
#include "strtab.h"
#include "tasks.h"

struct folded_count {
	uint64_t key[3]; /* strtab ids: comm, frames, syscall */
	uint64_t count;
};

struct folded {
	struct hashmap map;
	struct folded_count **v;
	uint32_t n, cap;
};

static struct folded *folded_state(struct convert *cv)
{
	struct folded *fd = cv->state;

	if (fd)
		return fd;
	fd = calloc(1, sizeof(*fd));
	if (!fd)
		return NULL;
	hashmap_init(&fd->map, 3);
	cv->state = fd;
	return fd;
}

static struct folded_count *folded_slot(struct folded *fd, const uint64_t *key)
{
	struct folded_count *fc = hashmap_get(&fd->map, key);

	if (fc)
		return fc;
	if (fd->n == fd->cap) {
		uint32_t cap = fd->cap ? fd->cap * 2 : 256;
		struct folded_count **tmp = realloc(fd->v, (size_t)cap * sizeof(*tmp));

		if (!tmp)
			return NULL;
		fd->v = tmp;
		fd->cap = cap;
	}
	fc = calloc(1, sizeof(*fc));
	if (!fc || hashmap_put(&fd->map, key, fc)) {
		free(fc);
		return NULL;
	}
	memcpy(fc->key, key, sizeof(fc->key));
	fd->v[fd->n++] = fc;
	return fc;
}

static int folded_record(struct convert *cv, struct input *in, const struct sct_record *rec)
{
	const struct sct_syscall *sc = &rec->syscall;
	struct folded *fd = folded_state(cv);
	struct folded_count *fc;
	struct task *t;
	uint64_t key[3];

	if (!fd)
		return -ENOMEM;
	if (rec->type != SCT_REC_SYSCALL || sc->unfinished)
		return 0;
	t = tasks_lookup(in->cur->tasks, in->cur->s.id, sc->pid, sc->tid, sc->time_ns);
	key[0] = t ? tasks_comm(cv->c.tasks, t, sct_syscall_name_ns(sc)) : 0;
	key[1] = stacks_folded(cv->stacks, sc->stack_id);
	key[2] = input_syscall_name(&cv->c, in->cur, sc->nr, sc->abi);
	fc = folded_slot(fd, key);
	if (!fc)
		return -ENOMEM;
	fc->count += cv->folded_by_time ? sc->duration_ns : 1;
	return 0;
}

struct folded_line {
	char *text; /* without the count */
	size_t len;
	uint64_t count;
};

static int folded_line_cmp(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;
	int c = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* "COMM;FRAMES;SYSCALL" into o (a memory out). */
static void folded_text(struct convert *cv, struct out *o, const struct folded_count *fc)
{
	const struct strtab *s = cv->c.strs;
	uint32_t comm = (uint32_t)fc->key[0], frames = (uint32_t)fc->key[1], name = (uint32_t)fc->key[2];

	if (comm)
		stacks_out_folded_name(o, strtab_get(s, comm), strtab_len(s, comm));
	else
		out_str(o, "[unknown]");
	out_char(o, ';');
	if (frames) {
		out_mem(o, strtab_get(s, frames), strtab_len(s, frames));
		out_char(o, ';');
	}
	stacks_out_folded_name(o, strtab_get(s, name), strtab_len(s, name));
}

static int folded_finish(struct convert *cv)
{
	struct folded *fd = folded_state(cv);
	struct folded_line *lines;
	struct out t;
	int err = 0;

	if (!fd)
		return -ENOMEM;
	lines = calloc(fd->n ? fd->n : 1, sizeof(*lines));
	if (!lines || out_open_mem(&t, 256)) {
		free(lines);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < fd->n && !err; i++) {
		t.len = 0;
		folded_text(cv, &t, fd->v[i]);
		lines[i].text = t.err ? NULL : malloc(t.len ? t.len : 1);
		if (!lines[i].text) {
			err = -ENOMEM;
			break;
		}
		memcpy(lines[i].text, t.buf, t.len);
		lines[i].len = t.len;
		lines[i].count = fd->v[i]->count;
	}
	if (!err && fd->n)
		qsort(lines, fd->n, sizeof(*lines), folded_line_cmp);
	for (uint32_t i = 0; !err && i < fd->n; i++) {
		if (i + 1 < fd->n && !folded_line_cmp(&lines[i], &lines[i + 1])) {
			lines[i + 1].count += lines[i].count;
			continue;
		}
		out_mem(&cv->o, lines[i].text, lines[i].len);
		out_char(&cv->o, ' ');
		out_u64(&cv->o, lines[i].count);
		out_char(&cv->o, '\n');
	}
	for (uint32_t i = 0; i < fd->n; i++)
		free(lines[i].text);
	free(lines);
	free(t.buf);
	return err;
}

static void folded_free(struct convert *cv)
{
	struct folded *fd = cv->state;

	if (!fd)
		return;
	for (uint32_t i = 0; i < fd->n; i++)
		free(fd->v[i]);
	free(fd->v);
	hashmap_free(&fd->map);
	free(fd);
	cv->state = NULL;
}

const struct convert_format format_folded = {
	.name = "folded",
	.record = folded_record,
	.finish = folded_finish,
	.free = folded_free,
};
