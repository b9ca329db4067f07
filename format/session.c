// SPDX-License-Identifier: BSD-2-Clause
/* Session objects and their public accessors. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "schema.h"
#include "syscall_args.h"

static const char *const key_names[SCT_SESSION_NKEYS] = {
	[SCT_SESSION_PRODUCER] = "producer",
	[SCT_SESSION_PRODUCER_VERSION] = "producer_version",
	[SCT_SESSION_ARGS] = "args",
	[SCT_SESSION_HOSTNAME] = "hostname",
	[SCT_SESSION_KERNEL] = "kernel",
	[SCT_SESSION_ARCH] = "arch",
	[SCT_SESSION_BOOT_ID] = "boot_id",
	[SCT_SESSION_CLOCK] = "clock",
	[SCT_SESSION_CGROUP_HIERARCHY] = "cgroup_hierarchy",
	[SCT_SESSION_CGROUP_MOUNT] = "cgroup_mount",
	[SCT_SESSION_COMPAT_ARCH] = "compat_arch",
	[SCT_SESSION_BACKEND] = "backend",
	[SCT_SESSION_SAMPLE_CGROUP] = "sample_cgroup",
	[SCT_SESSION_RECORDING_ID] = "recording_id",
	[SCT_SESSION_FILTER_TEXT] = "filter_text",
	[SCT_SESSION_FILTER_DETAILS] = "filter_details",
	[SCT_SESSION_FILTER_TOTALS] = "filter_totals",
	[SCT_SESSION_STACKS_MODE] = "stacks_mode",
	[SCT_SESSION_STACKS_UNWIND] = "stacks_unwind",
};

struct sct_session *session_new(uint32_t index)
{
	struct sct_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->index = index;
	for (int k = 0; k < SCT_SESSION_NKEYS; k++) {
		s->keys[k] = strdup("");
		if (!s->keys[k]) {
			session_free(s);
			return NULL;
		}
	}
	return s;
}

void session_free(struct sct_session *s)
{
	if (!s)
		return;
	for (int k = 0; k < SCT_SESSION_NKEYS; k++)
		free(s->keys[k]);
	for (int abi = 0; abi < 2; abi++) {
		for (uint32_t i = 0; i < s->syscalls[abi].n; i++)
			free(s->syscalls[abi].v[i].name);
		free(s->syscalls[abi].v);
	}
	for (uint32_t t = 0; t < s->ntypes; t++)
		session_type_clear(&s->types[t]);
	free(s->types);
	event_table_free(s->events, s->nevents);
	syscall_args_free(s);
	free(s);
}

void session_type_clear(struct session_type *st)
{
	struct sct_type_schema *ts = &st->schema;

	for (uint32_t k = 0; k < ts->nfields; k++) {
		free((char *)ts->fields[k].name);
		free((char *)ts->fields[k].unit);
	}
	free((void *)ts->fields);
	free((char *)ts->name);
	memset(st, 0, sizeof(*st));
}

const struct session_type *session_type(const struct sct_session *s, uint32_t type)
{
	for (uint32_t t = 0; s && t < s->ntypes; t++)
		if (s->types[t].schema.type == type)
			return &s->types[t];
	return NULL;
}

const struct sct_type_schema *session_builtin(const struct sct_session *s, uint32_t type)
{
	if (s && s->minor < RECORD_MINOR_SINCE(type))
		return NULL;
	return s ? schema_builtin_version(type, s->minor, s->has_args, s->has_stacks) : sct_schema_builtin(type);
}

bool sct_session_has_filter(const struct sct_session *s)
{
	return s->has_filter;
}

const struct sct_header_stacks *sct_session_stacks(const struct sct_session *s)
{
	return s->has_stacks ? &s->stacks : NULL;
}

uint32_t sct_session_index(const struct sct_session *s)
{
	return s->index;
}

void sct_session_version(const struct sct_session *s, uint32_t *major, uint32_t *minor)
{
	*major = s->major;
	*minor = s->minor;
}

const char *sct_session_get(const struct sct_session *s, enum sct_session_key key)
{
	return (unsigned)key < SCT_SESSION_NKEYS ? s->keys[key] : "";
}

const char *sct_session_key_name(enum sct_session_key key)
{
	return (unsigned)key < SCT_SESSION_NKEYS ? key_names[key] : NULL;
}

void sct_session_anchor(const struct sct_session *s, uint64_t *clock_ns, uint64_t *realtime_ns)
{
	*clock_ns = s->anchor_clock_ns;
	*realtime_ns = s->anchor_realtime_ns;
}

uint64_t sct_session_sequence(const struct sct_session *s)
{
	return s->sequence;
}

bool sct_session_snapshot(const struct sct_session *s)
{
	return s->snapshot;
}

static const struct syscall_entry *syscall_find(const struct syscall_table *t, uint64_t nr)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].nr == nr)
			return &t->v[mid];
		if (t->v[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *sct_session_syscall_name(const struct sct_session *s, uint32_t nr, uint32_t abi)
{
	const struct syscall_entry *e;

	if (abi > SCT_ABI_COMPAT)
		return NULL;
	e = syscall_find(&s->syscalls[abi], nr);
	return e ? e->name : NULL;
}

int64_t sct_session_syscall_nr(const struct sct_session *s, const char *name, uint32_t abi)
{
	const struct syscall_table *t;

	if (abi > SCT_ABI_COMPAT)
		return -1;
	t = &s->syscalls[abi];
	for (uint32_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return (int64_t)t->v[i].nr;
	return -1;
}

const struct sct_trailer_info *sct_session_trailer(const struct sct_session *s)
{
	return s->has_trailer ? &s->trailer : NULL;
}

uint32_t sct_session_nevents(const struct sct_session *s)
{
	return s->nevents;
}

const struct sct_event_desc *sct_session_event(const struct sct_session *s, uint32_t idx)
{
	return idx < s->nevents ? &s->events[idx] : NULL;
}
