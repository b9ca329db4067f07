/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A socket address as strace prints it (sockaddr_text.c):
 * {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}.
 */
#ifndef SCT_SOCKADDR_TEXT_H
#define SCT_SOCKADDR_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "outbuf.h"
#include "sct.h"

/* sin6_scope_id came later: an address without it is 24 bytes (strace leaves the field out). */
#define SOCKADDR_IN6_LEN_NO_SCOPE 24u
#define SOCKADDR_SUN_PATH_MAX sizeof(((struct sockaddr_un *)0)->sun_path)

/* Whether sc holds the socket address it gave or got, with at least its family. */
static inline bool sockaddr_captured(const struct sct_syscall *sc)
{
	return (sc->addr_flags & SCT_PATH_CAPTURED) && sc->addr.len >= sizeof(sa_family_t);
}

/*
 * The len bytes at a (the address as the call's memory held it, its length as the call gave
 * or got it), at least the 2 of its family (strace shows a shorter one as its pointer).
 */
void sockaddr_out(struct out *o, const uint8_t *a, size_t len);

/* The family's AF_* name, NULL for a family no name covers. */
const char *sockaddr_family_name(uint16_t family);

#endif
