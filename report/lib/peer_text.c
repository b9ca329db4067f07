// SPDX-License-Identifier: BSD-2-Clause
/*
 * Socket addresses as the peers sct-report groups calls by: an IP address and port as a URL
 * writes them, a unix socket's path, a netlink socket's protocol by its name in the headers
 * without NETLINK_ (argnames.def, the list the socket() argument reads by).
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "argnames.def"
#include "peer_text.h"
#include "sockaddr_text.h"

struct netlink_name {
	const char *name;
	int value;
};

#define NETLINK_NAME(n) { #n + sizeof("NETLINK_") - 1, n },
static const struct netlink_name netlink_names[] = { ARG_NETLINK(NETLINK_NAME) };

static size_t peer_netlink(char *buf, int protocol)
{
	for (size_t i = 0; i < sizeof(netlink_names) / sizeof(netlink_names[0]); i++)
		if (netlink_names[i].value == protocol)
			return (size_t)snprintf(buf, PEER_TEXT_MAX, "netlink:%s", netlink_names[i].name);
	if (protocol >= 0)
		return (size_t)snprintf(buf, PEER_TEXT_MAX, "netlink:%d", protocol);
	return (size_t)snprintf(buf, PEER_TEXT_MAX, "netlink");
}

static size_t peer_in(char *buf, const uint8_t *a)
{
	struct sockaddr_in in;
	char ip[INET_ADDRSTRLEN];

	memcpy(&in, a, sizeof(in));
	inet_ntop(AF_INET, &in.sin_addr, ip, sizeof(ip));
	return (size_t)snprintf(buf, PEER_TEXT_MAX, "%s:%u", ip, ntohs(in.sin_port));
}

static size_t peer_in6(char *buf, const uint8_t *a, size_t len)
{
	struct sockaddr_in6 in6 = { 0 };
	char ip[INET6_ADDRSTRLEN];

	memcpy(&in6, a, len < sizeof(in6) ? len : sizeof(in6));
	inet_ntop(AF_INET6, &in6.sin6_addr, ip, sizeof(ip));
	if (in6.sin6_scope_id)
		return (size_t)snprintf(buf, PEER_TEXT_MAX, "[%s%%%u]:%u", ip, in6.sin6_scope_id,
					ntohs(in6.sin6_port));
	return (size_t)snprintf(buf, PEER_TEXT_MAX, "[%s]:%u", ip, ntohs(in6.sin6_port));
}

/* A path up to its NUL; an abstract name whole (its bytes as they are) after '@'. */
static size_t peer_un(char *buf, const uint8_t *a, size_t len)
{
	const uint8_t *path = a + offsetof(struct sockaddr_un, sun_path);
	size_t n = len - offsetof(struct sockaddr_un, sun_path), at = 5;

	memcpy(buf, "unix:", at);
	if (n > SOCKADDR_SUN_PATH_MAX)
		n = SOCKADDR_SUN_PATH_MAX;
	if (n && !path[0]) {
		buf[at++] = '@';
		path++;
		n--;
	} else {
		n = strnlen((const char *)path, n);
	}
	memcpy(buf + at, path, n);
	return at + n;
}

size_t peer_text(char *buf, const uint8_t *a, size_t len, int netlink_protocol)
{
	const char *name;
	sa_family_t family;

	memcpy(&family, a, sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in))
		return peer_in(buf, a);
	if (family == AF_INET6 && len >= SOCKADDR_IN6_LEN_NO_SCOPE)
		return peer_in6(buf, a, len);
	if (family == AF_UNIX)
		return peer_un(buf, a, len);
	if (family == AF_NETLINK)
		return peer_netlink(buf, netlink_protocol);
	name = sockaddr_family_name(family);
	if (name)
		return (size_t)snprintf(buf, PEER_TEXT_MAX, "%s", name);
	return (size_t)snprintf(buf, PEER_TEXT_MAX, "af:%u", family);
}
