// SPDX-License-Identifier: BSD-2-Clause
/*
 * Socket addresses as strace 6.1 prints them: AF_INET, AF_INET6, AF_UNIX (a path, or an
 * abstract name after '@'), AF_NETLINK, AF_PACKET and AF_VSOCK by their fields; an address
 * shorter than its family's struct, or of another family, as its family and the bytes after it
 * (sa_data). The structs are the UAPI's of the arch sct is built for, the one it records on.
 * Interface indexes (sll_ifindex, sin6_scope_id) stay numbers: strace names the interface an
 * index has on the host it runs on, and a trace is read on other hosts, so they read as strace
 * prints an index no interface has.
 */
#include <arpa/inet.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "argnames.def"
#include "cstring_escape.h"
#include "name_table.h"
#include "outbuf.h"
#include "sockaddr_text.h"

#define FIELD_TABLE(table, LIST) static const struct name_value table[] = { LIST(NAME_VALUE) }
FIELD_TABLE(family_names, ARG_SOCKET_DOMAIN);
FIELD_TABLE(eth_p_names, ARG_ETH_P);
FIELD_TABLE(arphrd_names, ARG_ARPHRD);
FIELD_TABLE(packet_type_names, ARG_PACKET_TYPE);
FIELD_TABLE(vmaddr_cid_names, ARG_VMADDR_CID);
FIELD_TABLE(vmaddr_port_names, ARG_VMADDR_PORT);
FIELD_TABLE(vmaddr_flag_names, ARG_VMADDR_FLAG);
#define NAMES(table) table, sizeof(table) / sizeof(table[0])

const char *sockaddr_family_name(uint16_t family)
{
	return name_table_find(NAMES(family_names), family);
}

/* A value by its name; else in hex, with strace's comment when it has one (unknown). */
static void value_out(struct out *o, const struct name_value *v, size_t n, uint32_t value, const char *unknown)
{
	const char *name = name_table_find(v, n, value);

	if (name)
		out_str(o, name);
	else if (unknown)
		out_printf(o, "%#x /* %s */", value, unknown);
	else
		out_printf(o, "%#x", value);
}

/* The names of value's bits, the bits no name covers in hex; none named at all with unknown. */
static void bits_out(struct out *o, const struct name_value *v, size_t n, uint32_t value, const char *unknown)
{
	uint64_t left = name_table_bits_out(o, v, n, value, false);

	if (left)
		out_printf(o, "%#llx /* %s */", (unsigned long long)left, unknown);
}

static void sockaddr_family_out(struct out *o, uint16_t family)
{
	out_str(o, "{sa_family=");
	value_out(o, NAMES(family_names), family, "AF_???");
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
	/* the part of sin6_scope_id an address holds, the rest zeros, as strace reads it */
	if (len > SOCKADDR_IN6_LEN_NO_SCOPE)
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

/* sll_addr's first sll_halen bytes, those past the address's end as `...` (a halen up to 255). */
static void sockaddr_ll_out(struct out *o, const uint8_t *a, size_t len)
{
	size_t at = offsetof(struct sockaddr_ll, sll_addr);
	struct sockaddr_ll ll;

	memcpy(&ll, a, sizeof(ll));
	out_str(o, ", sll_protocol=htons(");
	value_out(o, NAMES(eth_p_names), ntohs(ll.sll_protocol), "ETH_P_???");
	out_printf(o, "), sll_ifindex=%u, sll_hatype=", (uint32_t)ll.sll_ifindex);
	value_out(o, NAMES(arphrd_names), ll.sll_hatype, "ARPHRD_???");
	out_str(o, ", sll_pkttype=");
	value_out(o, NAMES(packet_type_names), ll.sll_pkttype, "PACKET_???");
	out_printf(o, ", sll_halen=%u", ll.sll_halen);
	if (!ll.sll_halen)
		return;
	out_str(o, ", sll_addr=[");
	for (size_t i = 0; i < ll.sll_halen; i++) {
		out_str(o, i ? ", " : "");
		if (at + i >= len) {
			out_str(o, "...");
			break;
		}
		out_printf(o, "%#02x", a[at + i]); /* strace's: 00, 0x5, 0x11 */
	}
	out_char(o, ']');
}

/* svm_reserved1 and svm_zero only when they are not zero, as strace; svm_zero's bytes in hex. */
static void sockaddr_vm_out(struct out *o, const uint8_t *a)
{
	static const uint8_t zeros[sizeof(((struct sockaddr_vm *)0)->svm_zero)];
	struct sockaddr_vm vm;

	memcpy(&vm, a, sizeof(vm));
	if (vm.svm_reserved1)
		out_printf(o, ", svm_reserved1=%#x", vm.svm_reserved1);
	out_str(o, ", svm_cid=");
	value_out(o, NAMES(vmaddr_cid_names), vm.svm_cid, NULL);
	out_str(o, ", svm_port=");
	value_out(o, NAMES(vmaddr_port_names), vm.svm_port, NULL);
	out_str(o, ", svm_flags=");
	bits_out(o, NAMES(vmaddr_flag_names), vm.svm_flags, "VMADDR_FLAG_???");
	if (!memcmp(vm.svm_zero, zeros, sizeof(vm.svm_zero)))
		return;
	out_str(o, ", svm_zero=\"");
	for (size_t i = 0; i < sizeof(vm.svm_zero); i++)
		out_printf(o, "\\x%02x", vm.svm_zero[i]);
	out_char(o, '"');
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
	} else if (family == AF_PACKET && len >= sizeof(struct sockaddr_ll)) {
		sockaddr_ll_out(o, a, len);
	} else if (family == AF_VSOCK && len >= sizeof(struct sockaddr_vm)) {
		sockaddr_vm_out(o, a);
	} else {
		out_str(o, ", sa_data=");
		cstring_out(o, a + sizeof(family), len - sizeof(family));
	}
	out_char(o, '}');
}
