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
#include <unistd.h>

#include "report.h"

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

/* Tables of its own, when the session's tasks and cgroups end with it. */
static void input_live_free(struct ctx *c, struct live *lv)
{
	if (lv->tasks != c->tasks)
		tasks_free(lv->tasks);
	if (lv->cgroups != c->cgroups)
		cgroups_free(lv->cgroups);
	lv->tasks = NULL;
	lv->cgroups = NULL;
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
	lv->tasks = c->keep_sessions ? c->tasks : tasks_new(c->strs);
	lv->cgroups = c->keep_ended ? c->cgroups : cgroups_new(c->strs);
	if (!lv->tasks || !lv->cgroups)
		return -ENOMEM;
	lv->s.file = strtab_intern(c->strs, in->path, strlen(in->path));
	if (live) {
		const char *h = sct_session_get(live, SCT_SESSION_HOSTNAME);

		if (c->env)
			filter_note_session(&c->env->filter, live);
		lv->s.host = strtab_intern(c->strs, h, strlen(h));
		sct_session_anchor(live, &lv->s.anchor_clock, &lv->s.anchor_real);
		lv->s.cgroup_v1 = !strcmp(sct_session_get(live, SCT_SESSION_CGROUP_HIERARCHY), "v1");
		h = sct_session_get(live, SCT_SESSION_BACKEND);
		lv->s.backend = strtab_intern(c->strs, h, strlen(h));
		h = sct_session_get(live, SCT_SESSION_SAMPLE_CGROUP);
		lv->s.sample_cgroup = strtab_intern(c->strs, h, strlen(h));
	} else {
		lv->s.headless = true;
	}
	/* snapshots overlap one another: each is a session of its own */
	if (live && !sct_session_snapshot(live))
		return sessions_add_file(c->sessions, &lv->s, sct_session_get(live, SCT_SESSION_RECORDING_ID),
					 sct_session_sequence(live));
	return sessions_add(c->sessions, &lv->s);
}

uint32_t input_syscall_name(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi)
{
	const char *name = NULL;
	char *full = NULL;
	uint32_t id;

	abi = abi ? 1 : 0;
	if (nr < NR_CACHE && lv->nr_name[abi][nr])
		return lv->nr_name[abi][nr] - 1;
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

bool input_sample_session(const struct live *lv)
{
	uint32_t major, minor;

	if (!lv->session)
		return true;
	sct_session_version(lv->session, &major, &minor);
	return minor >= 1;
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
	return 0;
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
		return tasks_apply(in->cur->tasks, in->cur->s.id, rec);
	return 0;
}

int input_read(struct ctx *c, struct input *in, struct sct_record *rec)
{
	int n = sct_reader_next(in->r, rec);

	if (n >= 0 && !in->read) {
		in->read = true;
		c->inputs_read++;
	}
	return n;
}

int input_next(struct ctx *c, struct input *in, struct sct_record *rec)
{
	int n, err;

	footer_set_file(c->footer, in->path);
	for (;;) {
		n = input_read(c, in, rec);
		if (n <= 0)
			return n;
		if (rec->type == SCT_REC_SESSION || !in->cur) {
			err = input_session(c, in);
			if (err)
				return err;
			if (rec->type == SCT_REC_SESSION)
				continue;
		}
		/* readable, not unknown: counted, and shown by the modes that show such types */
		if (rec->type == SCT_REC_SAMPLE && !input_sample_session(in->cur)) {
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

void input_error(struct ctx *c, struct input *in, const char *path, int err)
{
	const char *detail = in && in->r ? sct_reader_error(in->r) : "";
	/* the reader's text says what sct_strerror() says, with where: one of them, not both */
	const char *msg = *detail ? detail : sct_strerror(err);
	struct out e;

	footer_input_error(c->footer, path, msg);
	if (out_open(&e, NULL, false, 0))
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
	footer_add_stats(c->footer, sct_reader_stats(in->r));
	sct_reader_close(in->r);
	in->r = NULL;
	if (in->cur)
		input_live_free(c, in->cur);
	free(in->cur);
	in->cur = NULL;
}
