/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The path each fd of a process was opened on (fdpaths.c), as the trace's calls show it,
 * followed in the order lines are printed. The marks are bytes no escaped string holds.
 */
#ifndef SCT_FDPATHS_H
#define SCT_FDPATHS_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"
#include "sct.h"
#include "strtab.h"

#define FDPATHS_NONE UINT32_MAX
#define FDPATHS_MARK '\x01'
#define FDPATHS_END '\x02'
enum fd_call { FD_NONE, FD_OPEN, FD_DUP, FD_CLOSE };
/* What a call does to its process's fds. */
struct fd_effect {
	uint32_t sess, pid;
	uint32_t call;        /* enum fd_call */
	uint32_t path;        /* FD_OPEN: strtab id */
	uint64_t fd, newfd;   /* the fd argument (dup, close), the fd returned (open, dup) */
};
struct fdpaths;
struct fdpaths *fdpaths_new(struct strtab *strs); /* NULL on ENOMEM */
void fdpaths_free(struct fdpaths *fp);
/* The effect of sc, a call of session sess described by s. */
void fdpaths_effect(struct fdpaths *fp, uint32_t sess, const struct sct_session *s,
		    const struct sct_syscall *sc, struct fd_effect *e);
/* Apply an effect, in print order. 0 or -ENOMEM. */
int fdpaths_apply(struct fdpaths *fp, const struct fd_effect *e);
/* line with its fd marks filled in: "3</etc/hosts>", or "3" for an fd not followed. */
void fdpaths_out(const struct fdpaths *fp, struct out *o, const char *line, size_t len, uint32_t sess,
		 uint32_t pid);

#endif
