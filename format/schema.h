/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The built-in schema (spec/FORMAT.md section 9, from records.def) and where each field lives
 * in struct sct_record.
 */
#ifndef SCT_SCHEMA_H
#define SCT_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "records.def"
#include "sct.h"

/* Fields of the built-in type that has the most. */
#define TYPE_NFIELDS(TYPE, name, FIELDS) char name[RECORD_NFIELDS(FIELDS)];
union schema_nfields { RECORD_TYPES(TYPE_NFIELDS) };
#undef TYPE_NFIELDS
#define SCHEMA_MAX_BUILTIN_FIELDS (sizeof(union schema_nfields))

/* Storage of one built-in field inside struct sct_record. */
struct field_slot {
	uint16_t offset; /* offsetof(struct sct_record, ...) */
	uint8_t size;    /* 1, 4 or 8 bytes for numbers; 0 for struct sct_bytes */
};

/*
 * The built-in schema of type as a session of minor version minor writes it: SYSCALL has its
 * argument fields only from RECORD_SYSCALL_ARGS_MINOR on and only in a session with args, its
 * second path from RECORD_SYSCALL_PATH2_MINOR on, stack_id from RECORD_STACKS_MINOR on in a
 * session with stacks, and the captured memory last from RECORD_CAPTURES_MINOR on in a session
 * with args.
 */
const struct sct_type_schema *schema_builtin_version(uint32_t type, uint32_t minor, bool args,
						     bool stacks);
/* The slots of a schema schema_builtin_version() gave, in its order. */
const struct field_slot *schema_builtin_slots(const struct sct_type_schema *builtin);
/* The column of SYSCALL's stack_id in a schema schema_builtin_version() gave; 0: none. */
uint32_t schema_stack_column(const struct sct_type_schema *builtin);
/*
 * The column of SYSCALL's addr_flags, the first of its captured memory, in such a schema: the
 * others follow it in records.def's order; 0: none.
 */
uint32_t schema_capture_column(const struct sct_type_schema *builtin);
/* Column of a SYSCALL field by member name. */
#define SYSCALL_COLUMN_ENUM(t, member, kind, unit) SYSCALL_COL_##member,
enum { RECORD_SYSCALL_FIELDS(SYSCALL_COLUMN_ENUM, _) SYSCALL_NCOLS };
#undef SYSCALL_COLUMN_ENUM
#define SYSCALL_BASE_NCOLS RECORD_NFIELDS(RECORD_SYSCALL_BASE_FIELDS)
/* SYSCALL's columns in a 1.3 session with arguments: no second path. */
#define SYSCALL_ARGS13_NCOLS (SYSCALL_BASE_NCOLS + RECORD_NFIELDS(RECORD_SYSCALL_ARGS_FIELDS))
/* SYSCALL's columns in a 1.4 or later session with arguments and without stacks. */
#define SYSCALL_ARGS14_NCOLS (SYSCALL_ARGS13_NCOLS + RECORD_NFIELDS(RECORD_SYSCALL_PATH2_FIELDS))
/* SYSCALL's captured memory (format 1.7): fields, and each one's place among them. */
#define SYSCALL_CAPTURE_NCOLS RECORD_NFIELDS(RECORD_SYSCALL_CAPTURE_FIELDS)
#define SYSCALL_CAPTURE_ENUM(t, member, kind, unit) SYSCALL_CAPTURE_##member,
enum { RECORD_SYSCALL_CAPTURE_FIELDS(SYSCALL_CAPTURE_ENUM, _) };
#undef SYSCALL_CAPTURE_ENUM
/* The slots of a built-in type's fields, in schema order; NULL for other types. */
const struct field_slot *schema_slots(uint32_t type);
/* Kind name in the HEADER ("uint", ...), and back; -1 if unknown. */
const char *schema_kind_name(uint32_t kind);
int schema_kind_parse(const char *name, size_t len);

#endif
