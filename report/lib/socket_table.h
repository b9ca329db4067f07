/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The netlink sockets of each process (socket_table.c), as the trace's calls made them: what
 * names a netlink peer, since its address (a port id) does not say the protocol.
 */
#ifndef SCT_SOCKET_TABLE_H
#define SCT_SOCKET_TABLE_H

#include <stdint.h>

#include "sct.h"

struct socket_table;
struct socket_table *socket_table_new(void); /* NULL on ENOMEM */
void socket_table_free(struct socket_table *t); /* NULL is fine */
/*
 * What sc, a native call of session sess named name, does to its process's sockets: a
 * socket(AF_NETLINK, ..., protocol) that succeeded makes its fd one, a close drops it.
 * 0 or -ENOMEM.
 */
int socket_table_note(struct socket_table *t, uint32_t sess, const char *name, const struct sct_syscall *sc);
/* The protocol of fd of process pid as its socket() call gave it, -1 if no such call was seen. */
int socket_table_netlink(const struct socket_table *t, uint32_t sess, uint32_t pid, uint64_t fd);

#endif
