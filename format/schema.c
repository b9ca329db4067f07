// SPDX-License-Identifier: BSD-2-Clause
/* The built-in schema of format 1.0: names, kinds, units and struct offsets of every field. */
#include "schema.h"

#include <stddef.h>
#include <string.h>

#define U SCT_KIND_UINT
#define S SCT_KIND_SINT
#define T SCT_KIND_TIME
#define B SCT_KIND_BYTES

#define SLOT(member) { offsetof(struct sct_record, member), \
	sizeof(((struct sct_record *)0)->member) == sizeof(struct sct_bytes) ? 0 : \
	sizeof(((struct sct_record *)0)->member) }

static const struct sct_field_schema syscall_fields[] = {
	{ "time_ns", T, "ns" }, { "duration_ns", U, "ns" }, { "pid", U, "" }, { "tid", U, "" },
	{ "cgroup_id", U, "" }, { "nr", U, "" }, { "abi", U, "" }, { "ret", S, "" },
	{ "unfinished", U, "" },
};
static const struct field_slot syscall_slots[] = {
	SLOT(syscall.time_ns), SLOT(syscall.duration_ns), SLOT(syscall.pid), SLOT(syscall.tid),
	SLOT(syscall.cgroup_id), SLOT(syscall.nr), SLOT(syscall.abi), SLOT(syscall.ret),
	SLOT(syscall.unfinished),
};

static const struct sct_field_schema task_fields[] = {
	{ "time_ns", T, "ns" }, { "pid", U, "" }, { "tid", U, "" }, { "ppid", U, "" },
	{ "cgroup_id", U, "" }, { "start_ns", U, "ns" }, { "comm", B, "" },
};
static const struct field_slot task_slots[] = {
	SLOT(task.time_ns), SLOT(task.pid), SLOT(task.tid), SLOT(task.ppid),
	SLOT(task.cgroup_id), SLOT(task.start_ns), SLOT(task.comm),
};

static const struct sct_field_schema fork_fields[] = {
	{ "time_ns", T, "ns" }, { "parent_pid", U, "" }, { "parent_tid", U, "" },
	{ "child_pid", U, "" }, { "child_tid", U, "" }, { "is_thread", U, "" },
	{ "child_start_ns", U, "ns" },
};
static const struct field_slot fork_slots[] = {
	SLOT(fork.time_ns), SLOT(fork.parent_pid), SLOT(fork.parent_tid), SLOT(fork.child_pid),
	SLOT(fork.child_tid), SLOT(fork.is_thread), SLOT(fork.child_start_ns),
};

static const struct sct_field_schema exec_fields[] = {
	{ "time_ns", T, "ns" }, { "pid", U, "" }, { "tid", U, "" }, { "old_tid", U, "" },
	{ "filename", B, "" }, { "comm", B, "" },
};
static const struct field_slot exec_slots[] = {
	SLOT(exec.time_ns), SLOT(exec.pid), SLOT(exec.tid), SLOT(exec.old_tid),
	SLOT(exec.filename), SLOT(exec.comm),
};

static const struct sct_field_schema exit_fields[] = {
	{ "time_ns", T, "ns" }, { "pid", U, "" }, { "tid", U, "" }, { "exit_code", S, "" },
	{ "signal", U, "" }, { "group_dead", U, "" }, { "start_ns", U, "ns" },
};
static const struct field_slot exit_slots[] = {
	SLOT(exit.time_ns), SLOT(exit.pid), SLOT(exit.tid), SLOT(exit.exit_code),
	SLOT(exit.signal), SLOT(exit.group_dead), SLOT(exit.start_ns),
};

static const struct sct_field_schema cgroup_fields[] = {
	{ "time_ns", T, "ns" }, { "cgroup_id", U, "" }, { "path", B, "" },
};
static const struct field_slot cgroup_slots[] = {
	SLOT(cgroup.time_ns), SLOT(cgroup.cgroup_id), SLOT(cgroup.path),
};

static const struct sct_field_schema lost_fields[] = {
	{ "time_ns", T, "ns" }, { "end_ns", T, "ns" }, { "cause", U, "" }, { "count", U, "" },
};
static const struct field_slot lost_slots[] = {
	SLOT(lost.time_ns), SLOT(lost.end_ns), SLOT(lost.cause), SLOT(lost.count),
};

static const struct sct_field_schema warning_fields[] = {
	{ "time_ns", T, "ns" }, { "kind", U, "" }, { "count", U, "" }, { "text", B, "" },
};
static const struct field_slot warning_slots[] = {
	SLOT(warning.time_ns), SLOT(warning.kind), SLOT(warning.count), SLOT(warning.text),
};

#define TYPE(t, n, f) { t, n, sizeof(f) / sizeof(f[0]), f }
static const struct sct_type_schema builtin[SCT_REC_MAX + 1] = {
	[SCT_REC_SYSCALL] = TYPE(SCT_REC_SYSCALL, "syscall", syscall_fields),
	[SCT_REC_TASK] = TYPE(SCT_REC_TASK, "task", task_fields),
	[SCT_REC_FORK] = TYPE(SCT_REC_FORK, "fork", fork_fields),
	[SCT_REC_EXEC] = TYPE(SCT_REC_EXEC, "exec", exec_fields),
	[SCT_REC_EXIT] = TYPE(SCT_REC_EXIT, "exit", exit_fields),
	[SCT_REC_CGROUP] = TYPE(SCT_REC_CGROUP, "cgroup", cgroup_fields),
	[SCT_REC_LOST] = TYPE(SCT_REC_LOST, "lost", lost_fields),
	[SCT_REC_WARNING] = TYPE(SCT_REC_WARNING, "warning", warning_fields),
};

static const struct field_slot *const slots[SCT_REC_MAX + 1] = {
	[SCT_REC_SYSCALL] = syscall_slots, [SCT_REC_TASK] = task_slots,
	[SCT_REC_FORK] = fork_slots, [SCT_REC_EXEC] = exec_slots, [SCT_REC_EXIT] = exit_slots,
	[SCT_REC_CGROUP] = cgroup_slots, [SCT_REC_LOST] = lost_slots,
	[SCT_REC_WARNING] = warning_slots,
};

_Static_assert(sizeof(syscall_slots) / sizeof(syscall_slots[0]) == SCHEMA_MAX_BUILTIN_FIELDS,
	       "syscall has the most fields");

const struct sct_type_schema *sct_schema_builtin(uint32_t type)
{
	if (type == SCT_REC_SESSION || type > SCT_REC_MAX)
		return NULL;
	return &builtin[type];
}

const struct field_slot *schema_slots(uint32_t type)
{
	if (type == SCT_REC_SESSION || type > SCT_REC_MAX)
		return NULL;
	return slots[type];
}

static const char *const kind_names[] = {
	[SCT_KIND_UINT] = "uint", [SCT_KIND_SINT] = "sint",
	[SCT_KIND_TIME] = "time", [SCT_KIND_BYTES] = "bytes",
};

const char *schema_kind_name(uint32_t kind)
{
	return kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : "";
}

int schema_kind_parse(const char *name, size_t len)
{
	for (size_t k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (strlen(kind_names[k]) == len && !memcmp(kind_names[k], name, len))
			return (int)k;
	return -1;
}
