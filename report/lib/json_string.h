/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One JSON string (json_string.c).
 */
#ifndef SCT_JSON_STRING_H
#define SCT_JSON_STRING_H

#include <stddef.h>

#include "outbuf.h"

/* One JSON string: valid UTF-8 as is but C1 controls (\u0080..\u009f), other bytes as \u00XX of their value. */
void json_string(struct out *o, const void *p, size_t len);

#endif
