// SPDX-License-Identifier: BSD-2-Clause
/*
 * Reading inputs: one reader per FILE, sessions numbered over all inputs, bookkeeping
 * records. The reader's session is valid only until that reader's next SESSION record, so
 * each input keeps one live session (its caches reset at every HEADER) and copies into the
 * session table only what outlives it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_table.h"
#include "filter.h"
#include "follow.h"
#include "footer.h"
#include "live_input.h"
#include "names.h"
#include "outbuf.h"
#include "reorder.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"
#include "window.h"

int input_tables_new(struct ctx *c)
{
	c->strs = strtab_new();
	c->sessions = sessions_new(c->keep_sessions ? UINT32_MAX : SESSIONS_LISTED);
	c->cgroups = c->strs ? cgroups_new(c->strs) : NULL;
	c->tasks = c->strs ? tasks_new(c->strs) : NULL;
	if (c->strs && c->sessions && c->cgroups && c->tasks)
		return 0;
	input_tables_free(c);
	return -ENOMEM;
}

void input_tables_free(struct ctx *c)
{
	tasks_free(c->tasks);
	cgroups_free(c->cgroups);
	sessions_free(c->sessions);
	strtab_free(c->strs);
	c->tasks = NULL;
	c->cgroups = NULL;
	c->sessions = NULL;
	c->strs = NULL;
}

/* Cgroups of its own, when the session's cgroups end with it. */
static void input_live_free(struct ctx *c, struct live *lv)
{
	if (lv->cgroups != c->cgroups)
		cgroups_free(lv->cgroups);
	lv->cgroups = NULL;
}

/* The session entry of a reader's current session, not numbered yet. */
static void input_sess_fill(struct ctx *c, struct input *in, const struct sct_session *live, struct sess *s)
{
	memset(s, 0, sizeof(*s));
	s->file = strtab_intern(c->strs, in->path, strlen(in->path));
	if (live) {
		const char *h = sct_session_get(live, SCT_SESSION_HOSTNAME);

		if (c->filter)
			filter_note_session(c->filter, live);
		s->host = strtab_intern(c->strs, h, strlen(h));
		sct_session_anchor(live, &s->anchor_clock, &s->anchor_real);
		s->cgroup_v1 = !strcmp(sct_session_get(live, SCT_SESSION_CGROUP_HIERARCHY), "v1");
		h = sct_session_get(live, SCT_SESSION_BACKEND);
		s->backend = strtab_intern(c->strs, h, strlen(h));
		h = sct_session_get(live, SCT_SESSION_SAMPLE_CGROUP);
		s->sample_cgroup = strtab_intern(c->strs, h, strlen(h));
		s->filtered = sct_session_has_filter(live);
		h = sct_session_get(live, SCT_SESSION_FILTER_TEXT);
		s->filter_text = strtab_intern(c->strs, h, strlen(h));
		h = sct_session_get(live, SCT_SESSION_FILTER_DETAILS);
		s->filter_details = strtab_intern(c->strs, h, strlen(h));
		h = sct_session_get(live, SCT_SESSION_FILTER_TOTALS);
		s->filter_totals = strtab_intern(c->strs, h, strlen(h));
	} else {
		s->headless = true;
	}
}

/* The same, numbered in the session table. */
static int input_sess_add(struct ctx *c, struct input *in, const struct sct_session *live, struct sess *s)
{
	input_sess_fill(c, in, live, s);
	/* snapshots overlap one another: each is a session of its own */
	if (live && !sct_session_snapshot(live))
		return sessions_add_file(c->sessions, s, sct_session_get(live, SCT_SESSION_RECORDING_ID),
					 sct_session_sequence(live));
	return sessions_add(c->sessions, s);
}

static int input_session(struct ctx *c, struct input *in)
{
	const struct sct_session *live = sct_reader_session(in->r);
	struct live *lv = in->cur;

	if (!lv) {
		lv = calloc(1, sizeof(*lv));
		if (!lv)
			return -ENOMEM;
		in->cur = lv;
	}
	input_live_free(c, lv);
	memset(lv, 0, sizeof(*lv));
	lv->session = live;
	lv->serial = ++c->nlive;
	lv->serial_held = lv->serial;
	lv->tasks = c->tasks;
	lv->cgroups = c->keep_ended ? c->cgroups : cgroups_new(c->strs);
	if (!lv->cgroups)
		return -ENOMEM;
	/* the first pass numbered the sessions it met: the same ones, in the same order */
	if (in->npre > in->ipre) {
		input_sess_fill(c, in, live, &lv->s);
		lv->s.id = in->pre[in->ipre].id;
		lv->s.number = in->pre[in->ipre++].number;
		return 0;
	}
	return input_sess_add(c, in, live, &lv->s);
}

static int input_pre_session(struct ctx *c, struct input *in, const struct sct_session *live)
{
	struct sess s;
	int err;

	if (in->npre == in->cappre) {
		uint32_t n = in->cappre ? in->cappre * 2 : 4;
		struct input_pre *tmp = realloc(in->pre, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		in->pre = tmp;
		in->cappre = n;
	}
	err = input_sess_add(c, in, live, &s);
	in->pre[in->npre].id = s.id;
	in->pre[in->npre++].number = s.number;
	return err;
}

/* Threads that cannot start leave the reader reading in turn; only a lack of memory is an error. */
static int input_jobs(const struct ctx *c, struct sct_reader *r)
{
	int err = sct_reader_set_jobs(r, c->jobs);

	return err == -ENOMEM ? err : 0;
}

/*
 * The first of two passes over a file (spec/FORMAT.md 9.2: a record may come before the
 * records that describe its task): its lifecycle records into the task table, SYSCALL and
 * SAMPLE columns not decoded. Its diagnostics are left to the second pass, which reports
 * them; a file that changed in between (a recorder still writing it) reads on with what the
 * first pass saw.
 */
static int input_prepass(struct ctx *c, struct input *in)
{
	struct sct_record rec;
	struct sct_reader *r;
	struct stat st;
	uint32_t sess = 0;
	int err = 0, n;

	if (!strcmp(in->path, "-") || stat(in->path, &st) || !S_ISREG(st.st_mode)) {
		if (!c->hold_streams)
			return 0;
		in->win = window_new();
		return in->win ? 0 : -ENOMEM;
	}
	r = sct_reader_open(in->path, &err);
	if (!r)
		return err == -ENOMEM ? err : 0;
	sct_reader_set_skip(r, 1u << SCT_REC_SYSCALL | 1u << SCT_REC_SAMPLE);
	err = input_jobs(c, r);
	while (!err && (n = sct_reader_next(r, &rec)) > 0) {
		if (rec.type == SCT_REC_SESSION) {
			err = input_pre_session(c, in, sct_reader_session(r));
			sess = in->pre[in->npre - 1].id;
		} else if (in->npre && rec.type >= SCT_REC_TASK && rec.type <= SCT_REC_EXIT) {
			err = tasks_apply(c->tasks, sess, &rec);
		}
	}
	sct_reader_close(r);
	return err;
}

uint32_t input_syscall_name_new(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi)
{
	const char *name = NULL;
	char *full = NULL;
	uint32_t id;

	if (lv->session)
		name = sct_session_syscall_name(lv->session, nr, abi);
	/* a name is never cut: two names with one prefix are two syscalls */
	if (name && !abi)
		full = strdup(name);
	else if (name && asprintf(&full, "compat:%s", name) < 0)
		full = NULL;
	else if (!name && asprintf(&full, abi ? "compat:syscall_%u" : "syscall_%u", nr) < 0)
		full = NULL;
	if (!full)
		abort(); /* as strtab_intern() does: the ids handed out must stay valid */
	id = strtab_intern(c->strs, full, strlen(full));
	free(full);
	if (nr < NR_CACHE)
		lv->nr_name[abi][nr] = id + 1;
	return id;
}

const struct sct_event_desc *input_event(const struct live *lv, const struct sct_sample *sm)
{
	return lv->session ? sct_session_event(lv->session, sm->event) : NULL;
}

uint32_t input_event_name(struct ctx *c, struct live *lv, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = input_event(lv, sm);
	char tmp[32];

	if (ev)
		return strtab_intern(c->strs, ev->name, strlen(ev->name));
	snprintf(tmp, sizeof(tmp), "event_%u", sm->event);
	return strtab_intern(c->strs, tmp, strlen(tmp));
}

/* The minor version of the live session; every version's types without a HEADER. */
static uint32_t input_minor(const struct live *lv)
{
	uint32_t major, minor;

	if (!lv->session)
		return UINT32_MAX;
	sct_session_version(lv->session, &major, &minor);
	return minor;
}

bool input_sample_session(const struct live *lv)
{
	return input_minor(lv) >= 1;
}

bool input_totals_session(const struct live *lv)
{
	return input_minor(lv) >= 5;
}

/* Type 9 or 10 where the session's version does not define it: a type only its HEADER describes. */
static bool input_schema_type(const struct live *lv, uint32_t type)
{
	return (type == SCT_REC_SAMPLE && !input_sample_session(lv)) ||
	       (type == SCT_REC_TOTALS && !input_totals_session(lv));
}

int input_open(struct ctx *c, struct input *in, const char *path)
{
	int err = 0;

	memset(in, 0, sizeof(*in));
	in->path = path;
	footer_set_file(c->footer, path);
	in->r = sct_reader_open(path, &err);
	if (!in->r)
		return err ? err : -EIO;
	sct_reader_set_diag(in->r, footer_diag, c->footer);
	err = input_jobs(c, in->r);
	if (!err && c->track_tasks)
		err = input_prepass(c, in);
	if (err) {
		sct_reader_close(in->r);
		free(in->pre);
		window_free(in->win);
		memset(in, 0, sizeof(*in));
	}
	return err;
}

static int input_apply(struct ctx *c, struct input *in, const struct sct_record *rec)
{
	footer_record(c->footer, rec);
	if (rec->type == SCT_REC_CGROUP)
		return cgroups_set_path(in->cur->cgroups, in->cur->s.id, rec->cgroup.cgroup_id, rec->cgroup.path.ptr,
					rec->cgroup.path.len);
	return 0;
}

int input_track(struct ctx *c, struct input *in, const struct sct_record *rec)
{
	if (c->track_tasks && rec->type >= SCT_REC_TASK && rec->type <= SCT_REC_EXIT)
		return tasks_apply(c->tasks, in->cur->s.id, rec);
	return 0;
}

int input_open_live(struct ctx *c, struct input *in, const char *path, bool grow, uint64_t flush_ns)
{
	int err, fd;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->flush_ns = flush_ns;
	footer_set_file(c->footer, path);
	err = follow_start(&in->feed, path, grow, &fd);
	if (err)
		return err;
	in->r = sct_reader_open_fd(fd, true, &err);
	in->ro = in->r ? reorder_new() : NULL;
	if (in->r && !in->ro)
		err = -ENOMEM;
	if (!err)
		err = live_input_start(&in->live, in->r, c->footer);
	if (err) {
		follow_free(in->feed);
		reorder_free(in->ro);
		if (in->r) /* else the reader closed fd */
			sct_reader_close(in->r);
		memset(in, 0, sizeof(*in));
	}
	return err;
}

/* When no record up to key can still come by the clock (input_live_woken()), 0: unknown. */
static uint64_t input_live_wake_at(const struct input *in, uint64_t key)
{
	uint64_t at = reorder_arrival_of(in->ro, key);

	return at ? at + in->flush_ns : 0;
}

/*
 * When a record held becomes due by its arrival (input_live_due()), or the caller's wake_key
 * passes, whichever first; 0 if neither will.
 */
static uint64_t input_live_deadline(const struct input *in)
{
	uint64_t at = reorder_count(in->ro) ? reorder_next_arrival(in->ro) : 0;
	uint64_t wake = in->wake_key ? input_live_wake_at(in, in->wake_key) : 0;

	at = at ? at + in->flush_ns : 0;
	return !at || (wake && wake < at) ? wake : at;
}

/* input_read(), and with batch, a file's runs of SYSCALL records as columns. */
static int input_read_any(struct ctx *c, struct input *in, struct sct_record *rec, struct sct_syscall_batch *batch)
{
	int n;

	if (in->live)
		n = live_input_next(in->live, rec, input_live_deadline(in), in->idle, in->idle_ctx);
	else if (batch)
		n = sct_reader_next_batch(in->r, rec, batch);
	else
		n = sct_reader_next(in->r, rec);
	if (n == -EAGAIN)
		return n;

	if (n >= 0 && !in->read) {
		in->read = true;
		c->inputs_read++;
	}
	return n;
}

int input_read(struct ctx *c, struct input *in, struct sct_record *rec)
{
	return input_read_any(c, in, rec, NULL);
}

/*
 * A stream's next record: each waits in the window until WINDOW_RECORDS records after it
 * were read, their lifecycle records fed to the task table. The window drains at the end of
 * each session (the reader keeps the ended session until its next call) and of the input.
 */
static int input_next_held(struct ctx *c, struct input *in, struct sct_record *rec)
{
	int n, err;

	for (;;) {
		if (window_count(in->win) && (in->session_due || in->ended || window_full(in->win))) {
			window_pop(in->win, rec);
			return 1;
		}
		if (in->session_due) {
			in->session_due = false;
			err = input_session(c, in);
			if (err)
				return err;
		}
		if (in->ended)
			return in->end_rc;
		n = input_read(c, in, rec);
		if (n <= 0) {
			in->ended = true;
			in->end_rc = n;
			continue;
		}
		if (rec->type == SCT_REC_SESSION || !in->cur) {
			in->session_due = true;
			if (rec->type == SCT_REC_SESSION)
				continue;
		}
		if (in->cur && input_schema_type(in->cur, rec->type)) {
			footer_schema_record(c->footer);
			if (!c->schema_type9)
				continue;
		}
		if (in->session_due && !window_count(in->win)) {
			in->session_due = false;
			err = input_session(c, in);
			if (err)
				return err;
		}
		err = input_apply(c, in, rec);
		if (!err && rec->type >= SCT_REC_TASK && rec->type <= SCT_REC_EXIT)
			err = tasks_apply(c->tasks, in->cur->s.id, rec);
		if (!err)
			err = window_push(in->win, rec);
		if (err)
			return err;
	}
}

/*
 * Due: no record that comes later can be older, or the heap is full. sct-record writes every
 * event within its flush interval F of the event (a call's: its return). So once a return at
 * r was read, every call that returned before r - F was read too; and at F after a record
 * arrived, every call that returned before it arrived was. A call that comes later and is
 * older than one printed ran longer than that: it is printed when it comes.
 */
static bool input_live_due(struct input *in, uint64_t now)
{
	uint64_t key = reorder_min_key(in->ro), due;

	if (in->session_due || in->ended || reorder_full(in->ro))
		return true;
	if (in->newest >= in->flush_ns && key <= in->newest - in->flush_ns)
		return true;
	return now >= in->flush_ns && reorder_due_key(in->ro, now - in->flush_ns, &due) && key <= due;
}

/* A live record's key (wall clock of its time) and what it tells of the stream's progress. */
static uint64_t input_live_key(struct input *in, const struct sct_record *rec)
{
	const struct sess *s = &in->cur->s;
	uint64_t done;

	/* without a HEADER no clock is known: the record stays where the stream has it */
	if (s->headless || rec->type > SCT_REC_MAX)
		return in->last_key;
	in->last_key = sess_wall(s, rec->syscall.time_ns); /* field 0 of every type: time_ns */
	done = rec->type == SCT_REC_SYSCALL ? sess_wall(s, sct_syscall_name_ns(&rec->syscall)) : in->last_key;
	if (done > in->newest)
		in->newest = done;
	return in->last_key;
}

/* A live stream's next session, the heap drained: its keys may be on another clock. */
static int input_live_session(struct ctx *c, struct input *in)
{
	int err;

	in->session_due = false;
	reorder_clock_reset(in->ro);
	err = input_session(c, in);
	if (!err)
		in->serial_read = in->cur->serial;
	return err;
}

/* The recording whose series s is a file of, NULL if none (spec/FORMAT.md 5). */
static const char *input_series(const struct sct_session *s)
{
	const char *id = sct_session_get(s, SCT_SESSION_RECORDING_ID);

	return *id && sct_session_sequence(s) && !sct_session_snapshot(s) ? id : NULL;
}

/*
 * The stream's next HEADER is the next file of the current session's recording (a rotation
 * followed, or files of one series concatenated): same host, clock, anchor and tables, so
 * the session goes on with its reorder heap, caches and tasks, as the batch timeline reads
 * the files (its reorder window spans them). A call that entered in one file and returned
 * in the next is then printed in its place. Stack ids are per file (spec/FORMAT.md 9.4):
 * each record held keeps its file's serial, and the stack tables of a file stay until none
 * of its records is held (stacks_session()), so each call's frames are its own file's, as
 * the batch timeline shows them. Those are LIVE_FILES_HELD files' tables at most: a file
 * that comes while records of the one before the current one are still held (files shorter
 * than the flush interval) drains the heap first.
 */
static bool input_live_continues(const struct input *in, const struct sct_session *next)
{
	const struct sct_session *cur = in->cur ? in->cur->session : NULL;
	const char *a = cur ? input_series(cur) : NULL, *b = input_series(next);
	bool room = reorder_tags(in->ro) < LIVE_FILES_HELD;

	return a && b && !strcmp(a, b) && (room || (!sct_session_stacks(cur) && !sct_session_stacks(next)));
}

/* The next file of the live session's recording: the reader's session from now on. */
static int input_live_next_file(struct ctx *c, struct input *in)
{
	const struct sct_session *next = sct_reader_session(in->r);
	struct live *lv = in->cur;
	struct sess s;

	lv->session = next;
	in->serial_read = ++c->nlive;
	input_sess_fill(c, in, next, &s);
	return sessions_add_file(c->sessions, &s, input_series(next), sct_session_sequence(next));
}

/* The oldest record held, with the HEADER it is of and the oldest one still held. */
static void input_live_pop(struct input *in, struct sct_record *rec)
{
	uint64_t serial = reorder_pop(in->ro, rec), held = reorder_count(in->ro) ? reorder_min_tag(in->ro) : serial;

	in->cur->serial = serial;
	in->cur->serial_held = held < serial ? held : serial;
}

/*
 * A live stream's next record: each waits in the reorder heap until it is due, its lifecycle
 * records applied as they come, so a record is named knowing every lifecycle record read
 * while it waited. The heap drains at the end of each session (not between the files of one
 * recording: input_live_continues()) and of the input.
 */
static int input_next_live(struct ctx *c, struct input *in, struct sct_record *rec)
{
	int n, err;

	for (;;) {
		if (reorder_count(in->ro) && input_live_due(in, live_now_ns())) {
			input_live_pop(in, rec);
			return 1;
		}
		if (in->session_due) {
			err = input_live_session(c, in);
			if (err)
				return err;
		}
		if (in->ended)
			return in->end_rc;
		n = input_read(c, in, rec);
		if (n == -EAGAIN) { /* the stream is quiet: a record held is due, or wake_key passed */
			uint64_t now = live_now_ns(), wake = in->wake_key ? input_live_wake_at(in, in->wake_key) : 0;

			if (wake && now >= wake && !(reorder_count(in->ro) && input_live_due(in, now)))
				return -EAGAIN;
			continue;
		}
		if (n <= 0) {
			in->ended = true;
			in->end_rc = n;
			continue;
		}
		if (rec->type == SCT_REC_SESSION && input_live_continues(in, sct_reader_session(in->r))) {
			err = input_live_next_file(c, in);
			if (err)
				return err;
			continue;
		}
		if (rec->type == SCT_REC_SESSION || !in->cur) {
			in->session_due = true;
			if (rec->type == SCT_REC_SESSION)
				continue;
		}
		if (rec->type == SCT_REC_SAMPLE && in->cur && !input_sample_session(in->cur)) {
			footer_schema_record(c->footer);
			if (!c->schema_type9)
				continue;
		}
		if (in->session_due && !reorder_count(in->ro)) {
			err = input_live_session(c, in);
			if (err)
				return err;
		}
		err = input_apply(c, in, rec);
		if (!err && c->track_tasks && rec->type >= SCT_REC_TASK && rec->type <= SCT_REC_EXIT)
			err = tasks_apply(c->tasks, in->cur->s.id, rec);
		if (!err) {
			uint64_t key = input_live_key(in, rec);

			err = reorder_push(in->ro, rec, key, in->serial_read);
			reorder_arrived(in->ro, live_now_ns(), key);
		}
		if (err)
			return err;
	}
}

/* A file's next record, or with batch its next run of SYSCALL records. */
static int input_next_file(struct ctx *c, struct input *in, struct sct_record *rec, struct sct_syscall_batch *batch)
{
	int n, err;

	for (;;) {
		n = input_read_any(c, in, rec, batch);
		if (n <= 0)
			return n;
		if (rec->type == SCT_REC_SESSION || !in->cur) {
			err = input_session(c, in);
			if (err)
				return err;
			if (rec->type == SCT_REC_SESSION && !batch)
				continue;
			if (rec->type == SCT_REC_SESSION)
				return 1;
		}
		if (batch && batch->n) {
			footer_batch(c->footer, batch);
			return 1;
		}
		/* readable, not unknown: counted, and shown by the modes that show such types */
		if (input_schema_type(in->cur, rec->type)) {
			footer_schema_record(c->footer);
			if (!c->schema_type9)
				continue;
			return 1;
		}
		err = input_apply(c, in, rec);
		if (err)
			return err;
		return 1;
	}
}

int input_next(struct ctx *c, struct input *in, struct sct_record *rec)
{
	footer_set_file(c->footer, in->path);
	if (in->live)
		return input_next_live(c, in, rec);
	if (in->win)
		return input_next_held(c, in, rec);
	return input_next_file(c, in, rec, NULL);
}

int input_next_batch(struct ctx *c, struct input *in, struct sct_record *rec, struct sct_syscall_batch *batch)
{
	batch->n = 0;
	if (in->live || in->win)
		return input_next(c, in, rec);
	footer_set_file(c->footer, in->path);
	return input_next_file(c, in, rec, batch);
}

void input_error(struct ctx *c, struct input *in, const char *path, int err)
{
	const char *detail = in && in->r ? sct_reader_error(in->r) : "";
	/* the reader's text says what sct_strerror() says, with where: one of them, not both */
	const char *msg = *detail ? detail : sct_strerror(err);
	struct out e;

	footer_input_error(c->footer, path, msg);
	if (c->quiet || out_open(&e, NULL, false, 0))
		return;
	e.fd = STDERR_FILENO;
	out_printf(&e, "%s: ", c->tool);
	names_out_escaped(&e, path, strlen(path));
	out_str(&e, ": ");
	names_out_escaped(&e, msg, strlen(msg));
	out_char(&e, '\n');
	out_close(&e);
}

void input_close(struct ctx *c, struct input *in)
{
	if (!in->r)
		return;
	/* the feed ends first: the reader's thread then meets the end of its input */
	follow_free(in->feed);
	live_input_free(in->live);
	reorder_free(in->ro);
	in->feed = NULL;
	in->live = NULL;
	in->ro = NULL;
	footer_add_stats(c->footer, sct_reader_stats(in->r));
	sct_reader_close(in->r);
	in->r = NULL;
	if (in->cur)
		input_live_free(c, in->cur);
	free(in->cur);
	in->cur = NULL;
	free(in->pre);
	in->pre = NULL;
	window_free(in->win);
	in->win = NULL;
}

void input_set_batch_lazy(struct input *in, uint32_t fields)
{
	if (in->r)
		sct_reader_set_batch_lazy(in->r, fields);
}

void input_set_batch_max(struct input *in, uint32_t rows)
{
	if (in->r)
		sct_reader_set_batch_max(in->r, rows);
}

void input_batch_fill(struct input *in)
{
	/* -SCT_E_STATE: the last record was no batch, whose arrays are all there is to fill */
	(void)sct_reader_batch_fill(in->r);
}

void input_batch_row(const struct sct_syscall_batch *batch, uint32_t i, struct sct_syscall *sc)
{
	sc->time_ns = batch->time_ns[i];
	sc->duration_ns = batch->duration_ns[i];
	sc->pid = (uint32_t)batch->pid[i];
	sc->tid = (uint32_t)batch->tid[i];
	sc->cgroup_id = batch->cgroup_id[i];
	sc->nr = (uint32_t)batch->nr[i];
	sc->abi = (uint8_t)batch->abi[i];
	sc->ret = (int64_t)batch->ret[i];
	sc->unfinished = (uint8_t)batch->unfinished[i];
}
