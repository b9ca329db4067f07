/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who a socket address names, short (peer_text.c): the key of sct-report --by peer.
 */
#ifndef SCT_PEER_TEXT_H
#define SCT_PEER_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define PEER_TEXT_MAX 128 /* the longest: "unix:@" and 107 bytes of an abstract name */

/*
 * "127.0.0.1:8080", "[::1]:443" ("[fe80::1%2]:443" with a scope), "unix:/run/x.sock",
 * "unix:@name" (an abstract name), "unix:" (unnamed), "netlink:ROUTE" by netlink_protocol, the
 * protocol of the socket (-1 unknown: "netlink"); another family, or an address shorter than
 * its family's struct, by the family's name ("AF_PACKET", "af:250"). The len bytes at a are the
 * address as the call's memory held it, at least its 2 bytes of family. Writes buf (at least
 * PEER_TEXT_MAX bytes, not NUL-terminated) and returns the length.
 */
size_t peer_text(char *buf, const uint8_t *a, size_t len, int netlink_protocol);

#endif
