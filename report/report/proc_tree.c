// SPDX-License-Identifier: BSD-2-Clause
/*
 * --tree: processes per session from TASK/FORK/EXEC/EXIT records, each with its comm, the
 * file it exec'd, its lifetime, exit status and syscall count (of the syscalls that passed
 * the filters), threads listed under their process. With filters, a process is shown when it
 * or one of its threads matches, and its ancestors are shown to place it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

#define TREE_MAX_DEPTH 512 /* deeper chains are cut with a note: output stays bounded */

static bool tree_task_match(struct ctx *c, const struct task *t)
{
	const struct sess *s = sessions_get(c->sessions, t->sess);
	uint64_t start = t->seen_start ? t->start_ns : t->first_ns;

	if (filter_task(c, c->cgroups, s, t->pid, t->tid, t->cgroup_id, start, t))
		return true;
	return t->exited && filter_task(c, c->cgroups, s, t->pid, t->tid, t->cgroup_id, t->end_ns, t);
}

static bool tree_filtered(const struct ctx *c)
{
	const struct filter *f = c->filter;

	return f->npids || f->ntids || f->ncomms || f->ncgroups || f->has_since || f->has_until;
}

/* Marks what is shown; returns whether t is. Iterative over siblings, recursive in depth. */
static bool tree_mark(struct ctx *c, struct task *t, unsigned depth)
{
	bool shown = !tree_filtered(c) || tree_task_match(c, t);

	for (struct task *th = t->thread; th; th = th->next_thread) {
		th->tree_mark = !tree_filtered(c) || shown || tree_task_match(c, th);
		shown |= th->tree_mark;
	}
	if (depth < TREE_MAX_DEPTH)
		for (struct task *ch = t->child; ch; ch = ch->sibling)
			shown |= tree_mark(c, ch, depth + 1);
	t->tree_mark = shown;
	return shown;
}

static void tree_out_time(struct out *o, const struct sess *s, uint64_t t)
{
	names_out_secs(o, sess_rel(s, t), true);
}

static void tree_out_task(const struct ctx *c, struct out *o, const struct task *t, bool thread)
{
	const struct sess *s = sessions_get(c->sessions, t->sess);
	uint32_t clen = strtab_len(c->strs, t->comm);
	uint64_t nsys = t->nsyscalls;
	char tmp[16];

	if (thread)
		out_printf(o, "thread %u ", t->tid);
	else
		out_printf(o, "%u ", t->pid);
	names_out_escaped(o, clen ? strtab_get(c->strs, t->comm) : "?", clen ? clen : 1);
	if (t->filename) {
		out_str(o, " exec \"");
		names_out_escaped(o, strtab_get(c->strs, t->filename), strtab_len(c->strs, t->filename));
		out_char(o, '"');
		if (t->nexec > 1)
			out_printf(o, " (%u execs)", t->nexec);
	}
	out_char(o, ' ');
	if (t->seen_start)
		tree_out_time(o, s, t->start_ns);
	else
		out_char(o, '?');
	out_str(o, "..");
	if (t->exited) {
		tree_out_time(o, s, t->end_ns);
		if (t->seen_start) {
			out_str(o, " (");
			names_out_secs(o, (int64_t)(t->end_ns - t->start_ns), false);
			out_str(o, "s)");
		}
		if (t->signal)
			out_printf(o, " killed by %s", names_signal((int)t->signal, tmp));
		else
			out_printf(o, " exit %d", t->exit_code);
	} else {
		out_str(o, "alive at end");
	}
	if (!thread)
		for (const struct task *th = t->thread; th; th = th->next_thread)
			nsys += th->nsyscalls;
	out_printf(o, ", %llu syscall%s", (unsigned long long)nsys, nsys == 1 ? "" : "s");
	if (!thread && t->thread) {
		unsigned n = 0;

		for (const struct task *th = t->thread; th; th = th->next_thread)
			n++;
		out_printf(o, ", %u thread%s", n, n == 1 ? "" : "s");
	}
	out_char(o, '\n');
}

static void tree_out_node(const struct ctx *c, struct out *o, const struct task *t, char *prefix, size_t plen,
			  unsigned depth)
{
	const struct task *prev = NULL;

	tree_out_task(c, o, t, false);
	for (const struct task *th = t->thread; th; th = th->next_thread) {
		if (!th->tree_mark)
			continue;
		out_mem(o, prefix, plen);
		out_str(o, t->child || th->next_thread ? "|   " : "    ");
		tree_out_task(c, o, th, true);
	}
	if (depth >= TREE_MAX_DEPTH) {
		if (t->child) {
			out_mem(o, prefix, plen);
			out_str(o, "`-- ... (deeper levels not shown)\n");
		}
		return;
	}
	/* each child is printed once the next shown one is known: the last gets "`--" */
	for (const struct task *ch = t->child; ch; ch = ch->sibling) {
		if (!ch->tree_mark)
			continue;
		if (prev) {
			out_mem(o, prefix, plen);
			out_str(o, "|-- ");
			memcpy(prefix + plen, "|   ", 4);
			tree_out_node(c, o, prev, prefix, plen + 4, depth + 1);
		}
		prev = ch;
	}
	if (prev) {
		out_mem(o, prefix, plen);
		out_str(o, "`-- ");
		memcpy(prefix + plen, "    ", 4);
		tree_out_node(c, o, prev, prefix, plen + 4, depth + 1);
	}
}

/* Roots by session, then start, then the order they were met. */
static int tree_root_cmp(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;

	if (x->sess != y->sess)
		return x->sess < y->sess ? -1 : 1;
	if (x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int tree_print(struct ctx *c, struct out *o)
{
	char prefix[4 * (TREE_MAX_DEPTH + 2)];
	uint32_t next = 0, nroots = 0, ntasks;
	struct task **roots;

	if (tasks_link(c->tasks))
		return -ENOMEM;
	ntasks = tasks_count(c->tasks);
	roots = calloc(ntasks ? ntasks : 1, sizeof(*roots));
	if (!roots)
		return -ENOMEM;
	for (uint32_t i = 0; i < ntasks; i++) {
		struct task *t = tasks_at(c->tasks, i);

		if (!t->is_thread && !t->parent) {
			tree_mark(c, t, 0);
			roots[nroots++] = t;
		}
	}
	qsort(roots, nroots, sizeof(*roots), tree_root_cmp);
	for (uint32_t s = 0; s < sessions_count(c->sessions); s++) {
		const struct sess *sess = sessions_get(c->sessions, s);

		sessions_out_label(o, sess, c->strs);
		out_char(o, '\n');
		for (; next < nroots && roots[next]->sess <= s; next++)
			if (roots[next]->sess == s && roots[next]->tree_mark)
				tree_out_node(c, o, roots[next], prefix, 0, 0);
	}
	free(roots);
	return 0;
}
