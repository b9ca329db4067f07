// SPDX-License-Identifier: BSD-2-Clause
/* Reading inputs: one reader per FILE, sessions numbered over all inputs, bookkeeping records. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

static struct sess **sessions;
static uint32_t nsessions;

struct sess *sessions_get(uint32_t id)
{
	return id < nsessions ? sessions[id] : NULL;
}

uint32_t sessions_count(void)
{
	return nsessions;
}

void sessions_free(void)
{
	for (uint32_t i = 0; i < nsessions; i++) {
		for (int abi = 0; abi < 2; abi++) {
			free(sessions[i]->nr_name[abi]);
			free(sessions[i]->nr_pass[abi]);
		}
		free(sessions[i]);
	}
	free(sessions);
	sessions = NULL;
	nsessions = 0;
}

static struct sess *session_new(const char *path, const struct sct_session *live)
{
	struct sess **tmp = realloc(sessions, (nsessions + 1) * sizeof(*tmp));
	struct sess *s;

	if (!tmp)
		return NULL;
	sessions = tmp;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	for (int abi = 0; abi < 2; abi++) {
		s->nr_name[abi] = calloc(NR_CACHE, sizeof(uint32_t));
		s->nr_pass[abi] = calloc(NR_CACHE, 1);
		if (!s->nr_name[abi] || !s->nr_pass[abi]) {
			free(s->nr_name[0]);
			free(s->nr_name[1]);
			free(s->nr_pass[0]);
			free(s->nr_pass[1]);
			free(s);
			return NULL;
		}
	}
	s->id = nsessions;
	s->file = strtab_intern(path, strlen(path));
	s->live = live;
	if (live) {
		const char *h = sct_session_get(live, "hostname");

		s->host = strtab_intern(h, strlen(h));
		sct_session_anchor(live, &s->anchor_clock, &s->anchor_real);
		s->cgroup_v1 = !strcmp(sct_session_get(live, "cgroup_hierarchy"), "v1");
	}
	sessions[nsessions++] = s;
	return s;
}

uint32_t input_syscall_name(struct sess *s, uint32_t nr, uint32_t abi)
{
	const char *name = NULL;
	char tmp[64];
	uint32_t id;

	abi = abi ? 1 : 0;
	if (nr < NR_CACHE && s->nr_name[abi][nr])
		return s->nr_name[abi][nr] - 1;
	if (s->live)
		name = sct_session_syscall_name(s->live, nr, abi);
	if (name && abi)
		snprintf(tmp, sizeof(tmp), "compat:%.48s", name);
	else if (name)
		snprintf(tmp, sizeof(tmp), "%.56s", name);
	else
		snprintf(tmp, sizeof(tmp), abi ? "compat:syscall_%u" : "syscall_%u", nr);
	id = strtab_intern(tmp, strlen(tmp));
	if (nr < NR_CACHE)
		s->nr_name[abi][nr] = id + 1;
	return id;
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

static int input_session(struct input *in)
{
	if (in->sess)
		in->sess->live = NULL;
	in->sess = session_new(in->path, sct_reader_session(in->r));
	return in->sess ? 0 : -ENOMEM;
}

static int input_apply(struct ctx *c, struct input *in, const struct sct_record *rec)
{
	footer_record(c->footer, rec);
	if (rec->type == SCT_REC_CGROUP)
		return cgroups_set_path(in->sess->id, rec->cgroup.cgroup_id, rec->cgroup.path.ptr,
					rec->cgroup.path.len);
	return 0;
}

int input_track(struct ctx *c, struct input *in, const struct sct_record *rec)
{
	if (c->track_tasks && rec->type >= SCT_REC_TASK && rec->type <= SCT_REC_EXIT)
		return tasks_apply(in->sess, rec);
	return 0;
}

int input_next(struct ctx *c, struct input *in, struct sct_record *rec)
{
	int n, err;

	footer_set_file(c->footer, in->path);
	for (;;) {
		n = sct_reader_next(in->r, rec);
		if (n <= 0)
			return n;
		if (rec->type == SCT_REC_SESSION || !in->sess) {
			err = input_session(in);
			if (err)
				return err;
			if (rec->type == SCT_REC_SESSION)
				continue;
		}
		if (rec->type > SCT_REC_MAX)
			continue;
		err = input_apply(c, in, rec);
		if (err)
			return err;
		return 1;
	}
}

void input_error(struct ctx *c, struct input *in, const char *path, int err)
{
	const char *detail = in && in->r ? sct_reader_error(in->r) : "";
	char msg[512];
	struct out e;

	snprintf(msg, sizeof(msg), "%s%s%s", sct_strerror(err), *detail ? ": " : "", detail);
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
	if (in->sess)
		in->sess->live = NULL;
	footer_add_stats(c->footer, sct_reader_stats(in->r));
	sct_reader_close(in->r);
	in->r = NULL;
}

void input_free_tables(void)
{
	tasks_free();
	cgroups_free();
	sessions_free();
	strtab_free();
}
