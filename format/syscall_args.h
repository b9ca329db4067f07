/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HEADER's "syscall_args" (spec/FORMAT.md section 5, format 1.3): whether SYSCALL records
 * carry their arguments, and how each syscall's arguments read.
 */
#ifndef SCT_SYSCALL_ARGS_H
#define SCT_SYSCALL_ARGS_H

#include <cbor.h>
#include <stdint.h>

#include "cbuf.h"
#include "sct.h"

/* 0 if info's argument table is within the limits; -SCT_E_LIMIT or -EINVAL. */
int syscall_args_check(const struct sct_header_info *info);
/*
 * 0 if info's captures (format 1.7) come with arguments and within the ranges of struct
 * sct_header_captures, or if it has none; else -EINVAL.
 */
int syscall_captures_check(const struct sct_header_info *info);
/* Encode info's "syscall_args" map (checked before). */
void syscall_args_encode(struct cbuf *b, const struct sct_header_info *info);
/*
 * Parse a "syscall_args" map into s (owned copies): s->has_args once it is a map, and
 * s->has_captures in a session of format 1.7 or later. Entries that are malformed or past a
 * limit are dropped one by one. Returns 0 or -ENOMEM.
 */
int syscall_args_parse(const cbor_item_t *it, struct sct_session *s);
void syscall_args_free(struct sct_session *s);

#endif
