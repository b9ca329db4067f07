// SPDX-License-Identifier: BSD-2-Clause
/*
 * The records every backend writes beside its own: WARNING, CGROUP at a cgroup id's first
 * sight, TASK and SYSCALL after the CGROUP record their id needs.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../record.h"

int events_warning(struct recorder *r, uint32_t kind, uint64_t count, const char *text)
{
	struct sct_record rec = { .type = SCT_REC_WARNING };
	int err;

	rec.warning.time_ns = clock_now_ns();
	rec.warning.kind = kind;
	rec.warning.count = count;
	rec.warning.text.ptr = (const uint8_t *)text;
	rec.warning.text.len = strlen(text);
	err = sct_writer_append(r->writer, &rec);
	if (!err)
		r->warnings++;
	return err;
}

int events_note_cgroup(struct recorder *r, uint64_t id, uint64_t now_ns)
{
	struct sct_record rec = { .type = SCT_REC_CGROUP };
	const char *path;
	char text[128];
	int seen;

	/* No cgroup2 mount: every id is the root's and the HEADER says so; no paths to give. */
	if (!r->cgroups)
		return 0;
	r->last_noted = id;
	if (r->flight)
		flight_note_cgroup(r->flight, id);
	seen = cgroups_first_seen(r->cgroups, id);
	if (seen <= 0)
		return seen;
	path = cgroups_path(r->cgroups, id);
	if (!path) {
		/* Removed before we could look: say so once rather than invent a path. */
		snprintf(text, sizeof(text), "cgroup id %llu: no such cgroup under the mount (removed?)",
			 (unsigned long long)id);
		return events_warning(r, SCT_WARN_OTHER, 1, text);
	}
	rec.cgroup.time_ns = now_ns;
	rec.cgroup.cgroup_id = id;
	rec.cgroup.path.ptr = (const uint8_t *)path;
	rec.cgroup.path.len = strlen(path);
	return sct_writer_append(r->writer, &rec);
}

int events_task(struct recorder *r, const char *comm, const struct sct_task *task)
{
	struct sct_record rec = { .type = SCT_REC_TASK, .task = *task };
	int err = events_note_cgroup(r, task->cgroup_id, task->time_ns);

	rec.task.comm.ptr = (const uint8_t *)comm;
	rec.task.comm.len = strnlen(comm, SCT_COMM_LEN);
	return err ?: sct_writer_append(r->writer, &rec);
}

int events_cgroup_change(struct recorder *r, uint64_t id, uint64_t time_ns)
{
	int err = events_note_cgroup(r, id, time_ns);

	if (!err)
		r->last_cgroup = id;
	return err;
}

int events_syscall(struct recorder *r, const struct sct_syscall *sc)
{
	int err = 0;

	if (sc->cgroup_id != r->last_cgroup)
		err = events_cgroup_change(r, sc->cgroup_id, sc->time_ns);
	return err ?: sct_writer_append_syscall(r->writer, sc);
}

void events_args_set(struct sct_syscall *sc, const __u64 args[SCT_ARGS])
{
	sc->arg0 = args[0];
	sc->arg1 = args[1];
	sc->arg2 = args[2];
	sc->arg3 = args[3];
	sc->arg4 = args[4];
	sc->arg5 = args[5];
}

void events_captures_clear(struct sct_syscall *sc)
{
	sc->addr_flags = 0;
	sc->addr.ptr = NULL;
	sc->addr.len = 0;
	sc->argv_flags = 0;
	sc->envc = 0;
	sc->argv.ptr = NULL;
	sc->argv.len = 0;
	sc->data_flags = 0;
	sc->data.ptr = NULL;
	sc->data.len = 0;
}
