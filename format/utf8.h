/* SPDX-License-Identifier: BSD-2-Clause */
/* UTF-8 validation; repair for HEADER text strings: each invalid byte becomes U+FFFD (EF BF BD). */
#ifndef SCT_UTF8_H
#define SCT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Length of the valid sequence starting at s (len > 0 bytes left), 0 if s[0] starts none. */
size_t utf8_seq_len(const uint8_t *s, size_t len);
/* Bytes utf8_sanitize() writes for s[0..len). */
size_t utf8_sanitized_len(const uint8_t *s, size_t len);
/* Copy s to out, replacing every byte that does not start a valid sequence. */
void utf8_sanitize(uint8_t *out, const uint8_t *s, size_t len);

#endif
