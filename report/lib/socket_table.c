// SPDX-License-Identifier: BSD-2-Clause
/*
 * Netlink sockets by (session, pid, fd), from socket() and close() in the order the calls are
 * read. An fd the trace did not see made (before the recording, inherited, dup'ed) is not
 * known; a process that exec'd keeps its fds, as the kernel does.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "hashmap.h"
#include "names.h"
#include "socket_table.h"

struct socket_table {
	struct hashmap map; /* (sess << 32 | pid, fd) -> protocol + 1 */
};

struct socket_table *socket_table_new(void)
{
	struct socket_table *t = calloc(1, sizeof(*t));

	if (t)
		hashmap_init(&t->map, 2);
	return t;
}

void socket_table_free(struct socket_table *t)
{
	if (!t)
		return;
	hashmap_free(&t->map);
	free(t);
}

int socket_table_note(struct socket_table *t, uint32_t sess, const char *name, const struct sct_syscall *sc)
{
	uint64_t key[2] = { (uint64_t)sess << 32 | sc->pid, (uint32_t)sc->ret };

	if (sc->unfinished || names_is_error(sc->ret) || sc->abi != SCT_ABI_NATIVE || !name)
		return 0;
	if (!strcmp(name, "socket") && (uint32_t)sc->arg0 == AF_NETLINK)
		return hashmap_put(&t->map, key, (void *)(uintptr_t)((uint32_t)sc->arg2 + 1ull));
	if (strcmp(name, "socket") && strcmp(name, "close"))
		return 0;
	/* a socket of another family on the fd, or the fd closed */
	if (!strcmp(name, "close"))
		key[1] = (uint32_t)sc->arg0;
	hashmap_remove(&t->map, key);
	return 0;
}

int socket_table_netlink(const struct socket_table *t, uint32_t sess, uint32_t pid, uint64_t fd)
{
	uint64_t key[2] = { (uint64_t)sess << 32 | pid, (uint32_t)fd };
	uintptr_t v = (uintptr_t)hashmap_get(&t->map, key);

	return v ? (int)(v - 1) : -1;
}
