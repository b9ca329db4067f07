/* SPDX-License-Identifier: BSD-2-Clause */
/* The HEADER frame body (spec/FORMAT.md section 5). */
#ifndef SCT_HEADER_H
#define SCT_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "cbuf.h"
#include "sct.h"
#include "session.h"

/* The minor version a HEADER for info needs: 1 with an event table, backend or sample_cgroup. */
uint32_t header_minor(const struct sct_header_info *info);
/*
 * Encode info and the built-in schema of its minor version into b (b.err tells the outcome:
 * -SCT_E_LIMIT or -EINVAL for an event table event_table_check() refuses).
 */
void header_encode(struct cbuf *b, const struct sct_header_info *info);
/*
 * Parse a HEADER body into s. Returns 0, -SCT_E_VERSION (major version not 1), -SCT_E_CORRUPT
 * (does not decode) or -ENOMEM; err gets one line of text for the two middle cases.
 */
int header_parse(const uint8_t *body, size_t len, struct sct_session *s, char *err, size_t errlen);

#endif
