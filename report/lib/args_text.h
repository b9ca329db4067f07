/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A syscall's arguments as strace shows them (args_text.c), "AT_FDCWD, \"/etc/x\", O_RDONLY", by
 * the session's descriptions (format 1.3); the six registers in hex for a syscall it does
 * not describe. For a record of a session with arguments (sct_session_has_args()).
 */
#ifndef SCT_ARGS_TEXT_H
#define SCT_ARGS_TEXT_H

#include <stdbool.h>

#include "outbuf.h"
#include "sct.h"

/*
 * fd_marks: fd and dirfd arguments (but AT_FDCWD) go out between FDPATHS_MARK and
 * FDPATHS_END, for fdpaths_out() to fill in their files. An unfinished call recorded without
 * its arguments (six zeros, no path flags: recorders before they kept them) goes out as "...".
 */
void args_out(struct out *o, const struct sct_session *s, const struct sct_syscall *sc, bool fd_marks);

/*
 * Whether the syscall named name (len bytes; "compat:" before a compat call's name) returns an
 * address, which strace shows in hex.
 */
bool args_ret_is_address(const char *name, size_t len);

#endif
