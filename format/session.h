/* SPDX-License-Identifier: BSD-2-Clause */
/* What the reader knows of one session: its HEADER, schema and TRAILER. */
#ifndef SCT_SESSION_H
#define SCT_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "sct.h"

struct syscall_entry {
	uint64_t nr;
	char *name;
	uint32_t pos; /* in the HEADER's map: of repeated numbers, the first is kept */
};

struct syscall_table {
	struct syscall_entry *v; /* sorted by nr */
	uint32_t n;
};

/* An argument description being parsed, with its place in the HEADER's map. */
struct session_args {
	struct sct_syscall_args a;
	uint32_t pos;              /* of repeated numbers, the first is kept */
};

/* Schema entries a HEADER may declare; more are ignored. */
#define SESSION_MAX_TYPES 1024u
/* The ABIs "syscall_args" describes: "native" and "compat" (1.4), indexed by enum sct_abi. */
#define SESSION_ARGS_ABIS 2

struct session_type {
	/*
	 * Name and fields owned here. For a typed entry, section 9's fields of the session's
	 * version by position (their names, kinds and units, whatever the HEADER calls them), then
	 * the fields the entry lists past them, as the HEADER names them.
	 */
	struct sct_type_schema schema;
	uint32_t listed; /* fields the HEADER's entry lists: a section's columns past them read as 0 */
	/* The built-in type of this number agrees on the kinds of the fields both know. */
	bool typed;
};

struct sct_session {
	uint32_t index;
	uint32_t major, minor;
	char *keys[SCT_SESSION_NKEYS];   /* never NULL once parsed */
	uint64_t anchor_clock_ns, anchor_realtime_ns;
	uint64_t sequence;
	bool snapshot;
	bool has_filter;                  /* format 1.5 "filter" */
	bool has_stacks;                  /* format 1.6 "stacks" */
	struct sct_header_stacks stacks;  /* its strings are keys[] */
	struct syscall_table syscalls[2]; /* by enum sct_abi */
	struct session_type *types;
	uint32_t ntypes;
	struct sct_event_desc *events;    /* names and fields owned here */
	uint32_t nevents;
	bool has_trailer;
	struct sct_trailer_info trailer;
	/* format 1.3 "syscall_args" */
	bool has_args;
	uint32_t args_max;
	char *args_paths;
	/* format 1.7: SYSCALL records hold addr, argv and data ("argv" and "data" as read) */
	bool has_captures;
	struct sct_header_captures captures;
	/* by ABI (SCT_ABI_NATIVE, SCT_ABI_COMPAT): sorted by nr, strings owned here */
	struct sct_syscall_args *sargs[SESSION_ARGS_ABIS];
	uint32_t nsargs[SESSION_ARGS_ABIS];
};

/* A session with every key "" and no schema; NULL on ENOMEM. */
struct sct_session *session_new(uint32_t index);
void session_free(struct sct_session *s);
/* Free what a schema entry owns and zero it. */
void session_type_clear(struct session_type *st);
/* The HEADER's entry for type, NULL if it has none. */
const struct session_type *session_type(const struct sct_session *s, uint32_t type);
/*
 * The built-in schema of type as s's version knows it: NULL for a type newer than the
 * session's minor version; s NULL (blocks without a HEADER): every built-in type.
 */
const struct sct_type_schema *session_builtin(const struct sct_session *s, uint32_t type);

#endif
