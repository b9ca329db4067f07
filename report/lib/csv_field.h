/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One CSV field (csv_field.c), RFC 4180.
 */
#ifndef SCT_CSV_FIELD_H
#define SCT_CSV_FIELD_H

#include <stddef.h>

#include "outbuf.h"

/* One CSV field (RFC 4180 quoting when needed; bytes as they are). */
void csv_bytes(struct out *o, const void *p, size_t len);
/* Bytes inside a quoted CSV field: quotes doubled, no surrounding quotes. */
void csv_quoted_part(struct out *o, const void *p, size_t len);

#endif
