/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Syscall number -> name tables of this build's arch, generated at build time from the
 * kernel headers (<asm/unistd_64.h>, <asm/unistd_32.h>) by record/syscall_table.awk.
 */
#ifndef SCT_SYSCALL_TABLE_H
#define SCT_SYSCALL_TABLE_H

#include <stdint.h>

#include "sct.h"

extern const struct sct_syscall_name syscall_table_native[];
extern const uint32_t syscall_table_native_len;
/* The compat (ia32) table; empty where the arch has none. */
extern const struct sct_syscall_name syscall_table_compat[];
extern const uint32_t syscall_table_compat_len;
extern const char syscall_table_compat_arch[];

#endif
