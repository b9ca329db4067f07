// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which records a summary counts. A session recorded with a filter (format 1.5) has every call
 * in its TOTALS records and only the matching ones in detail: its summary comes from the TOTALS,
 * unless a group or filter needs what only a call's record holds; its detailed calls then give
 * -e's errnos alone. Shared by the summary of whole inputs and --interval's blocks.
 */
#include "filter.h"
#include "footer.h"
#include "report.h"

bool select_pass(struct ctx *c, const struct env *env, struct live *lv, const struct sct_syscall *sc)
{
	return !env->filter_active || filter_syscall(c, lv, sc);
}

bool select_base_fields(const struct env *env)
{
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_PATH || env->by[k] == BY_PEER)
			return false;
	return !env->filter.npaths;
}

/*
 * Why the summary of a filtered session (format 1.5) comes from its detailed calls, not its
 * TOTALS records: a group or filter that needs what only a call's record holds. NULL: the
 * TOTALS serve.
 */
const char *select_refused(const struct env *env)
{
	const struct filter *f = &env->filter;

	if (env->mode == MODE_TREE)
		return "the tree counts each thread's calls";
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_THREAD || env->by[k] == BY_PATH || env->by[k] == BY_PEER)
			return env->by[k] == BY_THREAD ? "--by thread needs each call's thread" :
			       env->by[k] == BY_PATH	 ? "--by path needs each call's path" :
							   "--by peer needs each call's address";
	if (f->ntids)
		return "--tid needs each call's thread";
	if (f->failed)
		return "--failed needs each call's return value";
	if (f->min_duration)
		return "--min-duration needs each call's duration";
	if (f->npaths)
		return "--path needs each call's path";
	return NULL;
}

/*
 * A TOTALS record of a filtered session into the summary: 1 when it was counted, 0 when not;
 * a record whose interval straddles the time window's edge is noted for the footer.
 */
int select_add_totals(struct ctx *c, struct summary *sm, struct live *lv, const struct sct_totals *t)
{
	int pass = filter_totals(c, lv, t), err;

	footer_note_summary(c->footer, FOOTER_FROM_TOTALS);
	if (!pass)
		return 0;
	if (pass == 2)
		footer_note_straddle(c->footer);
	err = summary_add_totals(sm, lv, t);
	return err ? err : 1;
}

/* A detailed call of a session whose summary comes from its TOTALS: its errno for -e only. */
int select_add_detail(struct ctx *c, const struct env *env, struct summary *sm, struct live *lv,
		      const struct sct_syscall *sc)
{
	if (!env->errors || !select_pass(c, env, lv, sc))
		return 0;
	footer_note_summary(c->footer, FOOTER_ERRNO_DETAILS);
	return summary_add_errno(sm, lv, sc);
}
