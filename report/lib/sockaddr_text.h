/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A socket address as strace prints it (sockaddr_text.c):
 * {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}.
 */
#ifndef SCT_SOCKADDR_TEXT_H
#define SCT_SOCKADDR_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/*
 * The len bytes at a (the address as the call's memory held it, its length as the call gave
 * or got it), at least the 2 of its family (strace shows a shorter one as its pointer).
 */
void sockaddr_out(struct out *o, const uint8_t *a, size_t len);

/* The family's AF_* name, NULL for a family no name covers. */
const char *sockaddr_family_name(uint16_t family);

#endif
