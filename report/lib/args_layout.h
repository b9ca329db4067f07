/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Calls whose arguments after one of them depend on its value, as strace shows them: futex by
 * its op, fcntl by its command, prctl and arch_prctl by their option, mremap by its flags, ioctl
 * by its request; mmap's offset in hex (args_layout.c).
 */
#ifndef SCT_ARGS_LAYOUT_H
#define SCT_ARGS_LAYOUT_H

#include <stdint.h>

#include "sct.h"

/*
 * How the arguments after the selecting one (*at: the first of family "futex_op", "fcntl",
 * "prctl", "arch_prctl", "ioctl", "mremap" or "mmap") read, one letter each, for the values v: '-' as
 * the HEADER describes it, 'u' an unsigned 32-bit decimal, 'U' an unsigned decimal, 'd' a
 * decimal, 'x' hex, 'p' a pointer, 's' a signal, 'o' open flags, 'c' fd flags, 'b' a futex
 * bitset, '.' not shown; the arguments past the string's end are not shown. NULL when no
 * argument selects.
 */
const char *args_layout(const struct sct_syscall_args *a, const uint64_t *v, uint32_t *at);

#endif
