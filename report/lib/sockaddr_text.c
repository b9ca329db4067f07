// SPDX-License-Identifier: BSD-2-Clause
/*
 * Socket addresses as strace 6.1 prints them: AF_INET, AF_INET6, AF_UNIX (a path, or an
 * abstract name after '@') and AF_NETLINK by their fields; an address shorter than its
 * family's struct, or of another family, as its family and the bytes after it (sa_data).
 * The structs are the UAPI's of the arch sct is built for, the one it records on.
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "argnames.def"
#include "cstring_escape.h"
#include "outbuf.h"
#include "sockaddr_text.h"

struct family_name {
	const char *name;
	uint16_t value;
};

#define FAMILY_NAME(n) { #n, (uint16_t)(n) },
static const struct family_name family_names[] = { ARG_SOCKET_DOMAIN(FAMILY_NAME) };

const char *sockaddr_family_name(uint16_t family)
{
	for (size_t i = 0; i < sizeof(family_names) / sizeof(family_names[0]); i++)
		if (family_names[i].value == family)
			return family_names[i].name;
	return NULL;
}

static void sockaddr_family_out(struct out *o, uint16_t family)
{
	const char *name = sockaddr_family_name(family);

	out_str(o, "{sa_family=");
	if (name)
		out_str(o, name);
	else
		out_printf(o, "%#x /* AF_??? */", family);
}

static void sockaddr_in_out(struct out *o, const uint8_t *a)
{
	struct sockaddr_in in;
	char text[INET_ADDRSTRLEN];

	memcpy(&in, a, sizeof(in));
	inet_ntop(AF_INET, &in.sin_addr, text, sizeof(text));
	out_printf(o, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")", ntohs(in.sin_port), text);
}

static void sockaddr_in6_out(struct out *o, const uint8_t *a, size_t len)
{
	struct sockaddr_in6 in6 = { 0 };
	char text[INET6_ADDRSTRLEN];

	memcpy(&in6, a, len < sizeof(in6) ? len : sizeof(in6));
	inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof(text));
	out_printf(o, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr)",
		   ntohs(in6.sin6_port), ntohl(in6.sin6_flowinfo), text);
	if (len >= sizeof(in6))
		out_printf(o, ", sin6_scope_id=%u", in6.sin6_scope_id);
}

/* A path up to its NUL; an abstract name (first byte NUL) whole, NULs and all, after '@'. */
static void sockaddr_un_out(struct out *o, const uint8_t *a, size_t len)
{
	const uint8_t *path = a + offsetof(struct sockaddr_un, sun_path);
	size_t n = len - offsetof(struct sockaddr_un, sun_path);

	if (n > SOCKADDR_SUN_PATH_MAX)
		n = SOCKADDR_SUN_PATH_MAX;
	if (!n)
		return;
	out_str(o, ", sun_path=");
	if (!path[0]) {
		out_char(o, '@');
		cstring_out(o, path + 1, n - 1);
		return;
	}
	cstring_out(o, path, strnlen((const char *)path, n));
}

static void sockaddr_nl_out(struct out *o, const uint8_t *a)
{
	struct sockaddr_nl nl;

	memcpy(&nl, a, sizeof(nl));
	out_printf(o, ", nl_pid=%u, nl_groups=%#08x", nl.nl_pid, nl.nl_groups);
}

void sockaddr_out(struct out *o, const uint8_t *a, size_t len)
{
	sa_family_t family;

	memcpy(&family, a, sizeof(family));
	sockaddr_family_out(o, family);
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		sockaddr_in_out(o, a);
	} else if (family == AF_INET6 && len >= SOCKADDR_IN6_LEN_NO_SCOPE) {
		sockaddr_in6_out(o, a, len);
	} else if (family == AF_UNIX) {
		sockaddr_un_out(o, a, len);
	} else if (family == AF_NETLINK && len >= sizeof(struct sockaddr_nl)) {
		sockaddr_nl_out(o, a);
	} else {
		out_str(o, ", sa_data=");
		cstring_out(o, a + sizeof(family), len - sizeof(family));
	}
	out_char(o, '}');
}
