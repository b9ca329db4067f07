// SPDX-License-Identifier: BSD-2-Clause
/* The built-in schema of format 1.7: names, kinds, units and struct offsets of every field. */
#include "schema.h"

#include <stddef.h>
#include <string.h>

#define SLOT(member) { offsetof(struct sct_record, member), \
	sizeof(((struct sct_record *)0)->member) == sizeof(struct sct_bytes) ? 0 : \
	sizeof(((struct sct_record *)0)->member) }

#define FIELD_SCHEMA(t, member, kind, unit) { #member, SCT_KIND_##kind, unit },
#define FIELD_SLOT(t, member, kind, unit) SLOT(t.member),
#define TYPE_TABLES(TYPE, name, FIELDS) \
	static const struct sct_field_schema name##_fields[] = { FIELDS(FIELD_SCHEMA, name) }; \
	static const struct field_slot name##_slots[] = { FIELDS(FIELD_SLOT, name) };
RECORD_TYPES(TYPE_TABLES)

/*
 * The line and the struct member agree: a BYTES field is a struct sct_bytes, every other a
 * 1, 4 or 8-byte integer, signed exactly when the field is SINT (the encoder sign-extends).
 */
#define MEMBER(t, member) (((struct sct_record *)0)->t.member)
#define IS_BYTES(x) _Generic((x), struct sct_bytes: 1, default: 0)
#define IS_SIGNED(x) _Generic((x), int8_t: 1, int32_t: 1, int64_t: 1, default: 0)
#define IS_WORD(x) (sizeof(x) == 1 || sizeof(x) == 4 || sizeof(x) == 8)
#define FIELD_CHECK(t, member, kind, unit) \
	_Static_assert(IS_BYTES(MEMBER(t, member)) == (SCT_KIND_##kind == SCT_KIND_BYTES) && \
		       (IS_BYTES(MEMBER(t, member)) || IS_WORD(MEMBER(t, member))) && \
		       IS_SIGNED(MEMBER(t, member)) == (SCT_KIND_##kind == SCT_KIND_SINT), \
		       #t "." #member ": records.def and struct sct_" #t " disagree");
#define TYPE_CHECK(TYPE, name, FIELDS) FIELDS(FIELD_CHECK, name)
RECORD_TYPES(TYPE_CHECK)

#define TYPE_SCHEMA(TYPE, name, FIELDS) [SCT_REC_##TYPE] = { SCT_REC_##TYPE, #name, \
	sizeof(name##_fields) / sizeof(name##_fields[0]), name##_fields },
static const struct sct_type_schema builtin[SCT_REC_MAX + 1] = { RECORD_TYPES(TYPE_SCHEMA) };

/* SYSCALL in a session with stacks and without arguments: the base fields, then stack_id. */
#define RECORD_SYSCALL_BASE_STACK_FIELDS(F, t) RECORD_SYSCALL_BASE_FIELDS(F, t) \
	RECORD_SYSCALL_STACK_FIELDS(F, t)
static const struct sct_field_schema syscall_stack_fields[] = {
	RECORD_SYSCALL_BASE_STACK_FIELDS(FIELD_SCHEMA, syscall)
};
static const struct field_slot syscall_stack_slots[] = {
	RECORD_SYSCALL_BASE_STACK_FIELDS(FIELD_SLOT, syscall)
};

/* SYSCALL in a 1.7 session with arguments and without stacks: no stack_id before the captures. */
#define RECORD_SYSCALL_ARGS_CAPTURE_FIELDS(F, t) RECORD_SYSCALL_BASE_FIELDS(F, t) \
	RECORD_SYSCALL_ARGS_FIELDS(F, t) RECORD_SYSCALL_PATH2_FIELDS(F, t) \
	RECORD_SYSCALL_CAPTURE_FIELDS(F, t)
static const struct sct_field_schema syscall_captures_fields[] = {
	RECORD_SYSCALL_ARGS_CAPTURE_FIELDS(FIELD_SCHEMA, syscall)
};
static const struct field_slot syscall_captures_slots[] = {
	RECORD_SYSCALL_ARGS_CAPTURE_FIELDS(FIELD_SLOT, syscall)
};

#define TYPE_SLOTS(TYPE, name, FIELDS) [SCT_REC_##TYPE] = name##_slots,
static const struct field_slot *const slots[SCT_REC_MAX + 1] = { RECORD_TYPES(TYPE_SLOTS) };

const struct sct_type_schema *sct_schema_builtin(uint32_t type)
{
	if (type == SCT_REC_SESSION || type > SCT_REC_MAX)
		return NULL;
	return &builtin[type];
}

/* SYSCALL as sessions before RECORD_SYSCALL_ARGS_MINOR, and sessions without arguments, list it. */
static const struct sct_type_schema syscall_base = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_BASE_NCOLS, syscall_fields
};

/* SYSCALL as 1.3 sessions with arguments list it. */
static const struct sct_type_schema syscall_args13 = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_ARGS13_NCOLS, syscall_fields
};

/* SYSCALL as 1.4 to 1.6 sessions with arguments and without stacks list it. */
static const struct sct_type_schema syscall_args14 = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_ARGS14_NCOLS, syscall_fields
};

/* SYSCALL as 1.6 sessions with arguments and stacks list it: up to stack_id. */
static const struct sct_type_schema syscall_args_stack = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_COL_stack_id + 1, syscall_fields
};

/* SYSCALL as 1.6 and later sessions with stacks and without arguments list it. */
static const struct sct_type_schema syscall_stack = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_BASE_NCOLS + 1, syscall_stack_fields
};

/* SYSCALL as 1.7 sessions with arguments and without stacks list it. */
static const struct sct_type_schema syscall_captures = {
	SCT_REC_SYSCALL, "syscall", SYSCALL_ARGS14_NCOLS + SYSCALL_CAPTURE_NCOLS,
	syscall_captures_fields
};

const struct sct_type_schema *schema_builtin_version(uint32_t type, uint32_t minor, bool args,
						     bool stacks)
{
	bool stack_id = stacks && minor >= RECORD_STACKS_MINOR;

	if (type != SCT_REC_SYSCALL)
		return sct_schema_builtin(type);
	if (minor < RECORD_SYSCALL_ARGS_MINOR || !args)
		return stack_id ? &syscall_stack : &syscall_base;
	if (minor < RECORD_SYSCALL_PATH2_MINOR)
		return &syscall_args13;
	if (minor < RECORD_CAPTURES_MINOR)
		return stack_id ? &syscall_args_stack : &syscall_args14;
	return stack_id ? sct_schema_builtin(type) : &syscall_captures;
}

const struct field_slot *schema_builtin_slots(const struct sct_type_schema *builtin)
{
	if (builtin == &syscall_stack)
		return syscall_stack_slots;
	if (builtin == &syscall_captures)
		return syscall_captures_slots;
	return schema_slots(builtin->type);
}

uint32_t schema_stack_column(const struct sct_type_schema *builtin)
{
	if (builtin->type != SCT_REC_SYSCALL || builtin == &syscall_captures)
		return 0;
	if (builtin == &syscall_stack)
		return SYSCALL_BASE_NCOLS;
	return builtin->nfields > SYSCALL_COL_stack_id ? SYSCALL_COL_stack_id : 0;
}

uint32_t schema_capture_column(const struct sct_type_schema *builtin)
{
	if (builtin->type != SCT_REC_SYSCALL)
		return 0;
	if (builtin == &syscall_captures)
		return SYSCALL_ARGS14_NCOLS;
	return builtin->nfields > SYSCALL_COL_addr_flags ? SYSCALL_COL_addr_flags : 0;
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
