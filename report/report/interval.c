// SPDX-License-Identifier: BSD-2-Clause
/*
 * --interval N: the summary of each N seconds of the input, as syscount and perf trace -s
 * give it live. The input is read live (input_open_live()): its records come in time order,
 * each once no earlier one can still come, so the first record of a later interval closes
 * the interval before it, whose block is then printed: appended blocks in a pipe or a file,
 * a refreshed screen on a terminal. Intervals are on the trace's clock, N seconds from the
 * session's start (the origin of --since), so a recording read later gives the same blocks
 * as it did live. A call belongs to the interval of its entry, as on the timeline; a call
 * still running when its interval closed (longer than the recorder's flush interval) comes
 * later and is counted in the interval being read then, which says how many came so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "footer.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "sessions.h"
#include "trace_input.h"

struct interval {
	struct ctx *c;
	const struct env *env;
	struct out *o;
	struct summary *sm; /* of the interval being read, NULL before its first record */
	uint64_t k;         /* its number: its start is k * N after the session's start */
	struct sess s;      /* the session it belongs to */
	bool shown;         /* sm is NULL: interval k of s was printed when the clock closed it */
	uint64_t late;      /* calls of earlier intervals counted in it */
	const char *refused; /* why filtered sessions are counted from their details, NULL: TOTALS */
	bool tty;
};

/* "interval K: FROM .. TO s (WALL)" above the interval's summary. */
static void interval_head(struct interval *iv)
{
	const struct sess *s = &iv->s;
	uint64_t from = iv->k * iv->env->interval_ns;

	if (iv->tty)
		out_str(iv->o, "\033[H\033[2J"); /* as top and watch: the screen shows the last interval */
	out_printf(iv->o, "interval %llu: ", (unsigned long long)iv->k);
	names_out_secs(iv->o, (int64_t)from, false);
	out_str(iv->o, " .. ");
	names_out_secs(iv->o, (int64_t)(from + iv->env->interval_ns), false);
	out_str(iv->o, " s");
	if (!s->headless) {
		out_str(iv->o, " (");
		names_out_wall(iv->o, sess_wall(s, s->anchor_clock + from), true);
		out_char(iv->o, ')');
	}
	out_char(iv->o, '\n');
}

static int interval_print(struct interval *iv)
{
	int err;

	if (!iv->sm)
		return 0;
	interval_head(iv);
	err = summary_print(iv->sm, iv->o);
	if (iv->late)
		out_printf(iv->o, "%llu call%s of earlier intervals came late (running longer than the flush interval): "
			   "counted here\n", (unsigned long long)iv->late, names_plural(iv->late));
	out_char(iv->o, '\n');
	out_flush(iv->o);
	summary_free(iv->sm);
	iv->sm = NULL;
	iv->late = 0;
	return err;
}

static void interval_skipped(struct interval *iv, uint64_t skipped)
{
	if (skipped)
		out_printf(iv->o, "%llu interval%s without a record\n\n", (unsigned long long)skipped,
			   names_plural(skipped));
}

/* The summary of the interval of a record at time t: intervals before it are printed. */
static struct summary *interval_at(struct interval *iv, const struct sess *s, uint64_t t)
{
	int64_t rel = sess_rel(s, t);
	uint64_t k = rel < 0 ? 0 : (uint64_t)rel / iv->env->interval_ns;

	if (iv->sm && iv->s.id == s->id && k < iv->k) {
		iv->late++;
		return iv->sm;
	}
	if (iv->sm && (iv->s.id != s->id || k > iv->k)) {
		uint64_t skipped = iv->s.id == s->id ? k - iv->k - 1 : 0;

		if (interval_print(iv))
			return NULL;
		interval_skipped(iv, skipped);
	}
	if (iv->shown && iv->s.id == s->id) {
		if (k <= iv->k) { /* of an interval printed: late in the next one */
			k = iv->k + 1;
			iv->late++;
		}
		interval_skipped(iv, k - iv->k - 1);
	}
	iv->shown = false;
	if (!iv->sm) {
		iv->sm = summary_new(iv->c, iv->env);
		iv->k = k;
		iv->s = *s;
	}
	return iv->sm;
}

static bool interval_by_event(const struct env *env)
{
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_EVENT)
			return true;
	return false;
}

/*
 * A filtered session's TOTALS record counts in the interval of the last nanosecond it covers,
 * (since_ns, time_ns]: its calls returned in the flush interval that ends there.
 */
static int interval_totals(struct interval *iv, struct live *lv, const struct sct_totals *t)
{
	struct summary *sm;

	if (iv->refused) {
		footer_note_details_only(iv->c->footer, iv->refused);
		return 0;
	}
	sm = interval_at(iv, &lv->s, t->time_ns ? t->time_ns - 1 : 0);
	return sm ? select_add_totals(iv->c, sm, lv, t) : -ENOMEM;
}

static int interval_record(struct interval *iv, struct input *in, const struct sct_record *rec, bool samples)
{
	struct live *lv = in->cur;
	struct summary *sm;

	if (rec->type == SCT_REC_SAMPLE) {
		if (!samples || !filter_sample(iv->c, lv, &rec->sample))
			return 0;
		sm = interval_at(iv, &lv->s, rec->sample.time_ns);
		return sm ? summary_add_sample(sm, lv, &rec->sample) : -ENOMEM;
	}
	if (rec->type == SCT_REC_TOTALS)
		return samples || !lv->s.filtered ? 0 : interval_totals(iv, lv, &rec->totals);
	if (rec->type != SCT_REC_SYSCALL)
		return input_track(iv->c, in, rec);
	if (summary_follow_sockets(iv->c, lv, &rec->syscall))
		return -ENOMEM;
	if (samples || rec->syscall.unfinished == NAMES_IN_FLIGHT)
		return 0;
	if (lv->s.filtered && !iv->refused) {
		if (!iv->env->errors)
			return 0;
		sm = interval_at(iv, &lv->s, rec->syscall.time_ns);
		return sm ? select_add_detail(iv->c, iv->env, sm, lv, &rec->syscall) : -ENOMEM;
	}
	if (!select_pass(iv->c, iv->env, lv, &rec->syscall))
		return 0;
	sm = interval_at(iv, &lv->s, rec->syscall.time_ns);
	return sm ? summary_add(sm, lv, &rec->syscall) : -ENOMEM;
}

/*
 * The wall clock the interval being read ends at, 0 for none: when the stream is quiet,
 * input_next() says when no record of it can still come, and its block is printed then.
 */
static uint64_t interval_end_key(const struct interval *iv)
{
	if (!iv->sm || iv->s.headless)
		return 0;
	return sess_wall(&iv->s, iv->s.anchor_clock + (iv->k + 1) * iv->env->interval_ns);
}

/* The clock closed the interval being read: 0, or a negative error. */
static int interval_close(struct interval *iv)
{
	int err = interval_print(iv);

	iv->shown = true;
	return err;
}

int interval_run(struct ctx *c, const struct env *env, struct out *o)
{
	struct interval iv = { .c = c, .env = env, .o = o, .refused = select_refused(env), .tty = isatty(o->fd) };
	bool samples = interval_by_event(env);
	struct sct_record rec;
	struct input in;
	int n = 0, err = input_open_live(c, &in, env->files[0], env->follow, env->flush_ns);

	if (err) {
		input_error(c, NULL, env->files[0], err);
		return 0;
	}
	in.idle = report_flush;
	in.idle_ctx = o;
	while (!o->err) {
		n = input_next(c, &in, &rec);
		if (n == -EAGAIN)
			n = interval_close(&iv);
		else if (n > 0)
			n = interval_record(&iv, &in, &rec, samples);
		else
			break;
		if (n < 0)
			break;
		in.wake_key = interval_end_key(&iv);
	}
	if (n == -ENOMEM) {
		input_close(c, &in);
		summary_free(iv.sm);
		return n;
	}
	if (n < 0)
		input_error(c, &in, env->files[0], n);
	input_close(c, &in);
	err = interval_print(&iv);
	summary_free(iv.sm);
	return err;
}
