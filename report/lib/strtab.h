/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interned strings (strtab.c): equal bytes get one id; id 0 is the empty string.
 */
#ifndef SCT_STRTAB_H
#define SCT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab;
struct strtab *strtab_new(void); /* NULL on ENOMEM */
/* Aborts without memory: ids handed out must stay valid. */
uint32_t strtab_intern(struct strtab *st, const void *p, size_t len);
const char *strtab_get(const struct strtab *st, uint32_t id); /* NUL-terminated; may hold NULs */
uint32_t strtab_len(const struct strtab *st, uint32_t id);
void strtab_free(struct strtab *st); /* NULL is fine */

#endif
