/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bytes as strace quotes a string (cstring_escape.c): "hello\n", "\0\1\377".
 */
#ifndef SCT_CSTRING_ESCAPE_H
#define SCT_CSTRING_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/* The n bytes at p escaped as strace escapes them, NULs included, without quotes around. */
void cstring_escape(struct out *o, const uint8_t *p, size_t n);
/* The same between double quotes. */
void cstring_out(struct out *o, const uint8_t *p, size_t n);

#endif
