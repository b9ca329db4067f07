// SPDX-License-Identifier: BSD-2-Clause
/*
 * The memory a format 1.7 session captured, as strace 6.1 shows it (report/lib/args_text.c,
 * sockaddr_text.c, cstring_escape.c): socket addresses, exec's arguments and environment
 * count, the data a call moved, a msghdr; calls that do not return (exit_group(3) = ?). The
 * expected texts are strace's for the same calls.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "args_text.h"
#include "outbuf.h"
#include "report_helpers.h"

TestSuite(report_captures, .fini = rt_cleanup);

#define ARG(n, k) { n, SCT_ARG_##k, "" }
static const struct sct_syscall_args descs[] = {
	{ RT_NR_WRITE, 3, { ARG("fd", FD), ARG("buf", BUF), ARG("count", SIZE) } },
	{ RT_NR_CONNECT, 3, { ARG("fd", FD), ARG("uservaddr", SOCKADDR), ARG("addrlen", SIZE) } },
	{ RT_NR_SENDTO, 6, { ARG("fd", FD), ARG("buff", BUF), ARG("len", SIZE), ARG("flags", INT),
			     ARG("addr", SOCKADDR), ARG("addr_len", SIZE) } },
	{ RT_NR_SENDMSG, 3, { ARG("fd", FD), ARG("msg", MSGHDR), ARG("flags", INT) } },
	{ RT_NR_BIND, 3, { ARG("fd", FD), ARG("umyaddr", SOCKADDR), ARG("addrlen", SIZE) } },
	{ RT_NR_EXECVE, 3, { ARG("filename", PATH), ARG("argv", ARGV), ARG("envp", ENVP) } },
	{ RT_NR_EXIT_GROUP, 1, { ARG("error_code", INT) } },
};

#define PTR 0x7ffc8abb60d0ull

/* Bytes in place: Criterion hands a parameter to a new process, where pointers mean nothing. */
struct capture_case {
	uint32_t nr;
	uint64_t a[6];
	uint8_t addr[SCT_MAX_ADDR];
	uint32_t addr_len, addr_flags;
	uint8_t argv[64];
	uint32_t argv_len, argv_flags;
	uint64_t envc;
	uint8_t data[64];
	uint32_t data_len, data_flags;
	char want[256];
};

static struct capture_case addr_case(uint32_t nr, uint32_t fd, const void *addr, uint32_t len, uint32_t flags,
				     const char *want)
{
	struct capture_case c = { .nr = nr, .a = { fd, PTR, len }, .addr_len = len, .addr_flags = flags };

	memcpy(c.addr, addr, len);
	strcpy(c.want, want);
	return c;
}

static struct capture_case data_case(const void *data, uint32_t len, uint32_t flags, uint64_t count, const char *want)
{
	struct capture_case c = { .nr = RT_NR_WRITE, .a = { 1, PTR, count }, .data_len = len, .data_flags = flags };

	memcpy(c.data, data, len);
	strcpy(c.want, want);
	return c;
}

static struct capture_case argv_case(const void *argv, uint32_t len, uint32_t flags, uint64_t envc, const char *want)
{
	struct capture_case c = { .nr = RT_NR_EXECVE, .a = { 0x10, PTR, PTR + 0x100 }, .argv_len = len,
				  .argv_flags = flags, .envc = envc };

	memcpy(c.argv, argv, len);
	strcpy(c.want, want);
	return c;
}

static struct sockaddr_in in4(const char *ip, uint16_t port)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port) };

	cr_assert_eq(inet_pton(AF_INET, ip, &in.sin_addr), 1);
	return in;
}

static struct sockaddr_in6 in6(const char *ip, uint16_t port, uint32_t flowinfo, uint32_t scope)
{
	struct sockaddr_in6 in = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				   .sin6_flowinfo = htonl(flowinfo), .sin6_scope_id = scope };

	cr_assert_eq(inet_pton(AF_INET6, ip, &in.sin6_addr), 1);
	return in;
}

/* A sockaddr_un of the n bytes of path; its length as the call gives it. */
static struct sockaddr_un un(const char *path, size_t n, uint32_t *len)
{
	struct sockaddr_un u = { .sun_family = AF_UNIX };

	memcpy(u.sun_path, path, n);
	*len = (uint32_t)(offsetof(struct sockaddr_un, sun_path) + n);
	return u;
}

/* A sockaddr_ll whose sll_addr holds 0x00, 0x11 ... 0x77 (its first halen bytes the address). */
static struct sockaddr_ll ll(uint16_t protocol, int ifindex, uint16_t hatype, uint8_t pkttype, uint8_t halen)
{
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = htons(protocol), .sll_ifindex = ifindex,
				 .sll_hatype = hatype, .sll_pkttype = pkttype, .sll_halen = halen };

	for (int i = 0; i < 8; i++)
		a.sll_addr[i] = (uint8_t)(i * 0x11);
	return a;
}

static struct sockaddr_vm vm(uint32_t cid, uint32_t port, uint8_t flags, uint16_t reserved1, uint8_t zero)
{
	struct sockaddr_vm a = { .svm_family = AF_VSOCK, .svm_reserved1 = reserved1, .svm_port = port,
				 .svm_cid = cid };

	a.svm_flags = flags;
	a.svm_zero[0] = zero;
	return a;
}

#define INET_8080 "{sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr(\"127.0.0.1\")}"
#define INET_53 "{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"127.0.0.1\")}"

static void addr_cases(struct capture_case *c, size_t *n)
{
	struct sockaddr_in v4 = in4("127.0.0.1", 8080);
	struct sockaddr_in6 lo6 = in6("::1", 443, 0, 0), mapped = in6("::ffff:1.2.3.4", 443, 5, 2);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = 7, .nl_groups = 0x11 };
	struct sockaddr_nl nl0 = { .nl_family = AF_NETLINK };
	struct sockaddr_storage st = { .ss_family = AF_UNSPEC };
	struct sockaddr_un u;
	uint32_t len;

	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &v4, sizeof(v4), SCT_PATH_CAPTURED, "3, " INET_8080 ", 16");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &lo6, sizeof(lo6), SCT_PATH_CAPTURED,
			      "4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), "
			      "inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &lo6, 24, SCT_PATH_CAPTURED,
			      "4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), "
			      "inet_pton(AF_INET6, \"::1\", &sin6_addr)}, 24");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &mapped, sizeof(mapped), SCT_PATH_CAPTURED,
			      "4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(5), "
			      "inet_pton(AF_INET6, \"::ffff:1.2.3.4\", &sin6_addr), sin6_scope_id=2}, 28");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &lo6, 20, SCT_PATH_CAPTURED,
			      "4, {sa_family=AF_INET6, sa_data=\"\\1\\273\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}, 20");
	u = un("/run/x.sock", 12, &len);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, len, SCT_PATH_CAPTURED,
			      "5, {sa_family=AF_UNIX, sun_path=\"/run/x.sock\"}, 14");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, sizeof(u), SCT_PATH_CAPTURED,
			      "5, {sa_family=AF_UNIX, sun_path=\"/run/x.sock\"}, 110");
	u = un("\0name", 5, &len);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, len, SCT_PATH_CAPTURED,
			      "5, {sa_family=AF_UNIX, sun_path=@\"name\"}, 7");
	u = un("\0na\"m\ne", 8, &len);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, len, SCT_PATH_CAPTURED,
			      "5, {sa_family=AF_UNIX, sun_path=@\"na\\\"m\\ne\\0\"}, 10");
	u = un("", 0, &len);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, len, SCT_PATH_CAPTURED, "5, {sa_family=AF_UNIX}, 2");
	u = un("/a\"b\n\001\377c", 9, &len);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 5, &u, len, SCT_PATH_CAPTURED,
			      "5, {sa_family=AF_UNIX, sun_path=\"/a\\\"b\\n\\1\\377c\"}, 11");
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &nl, sizeof(nl), SCT_PATH_CAPTURED,
			      "6, {sa_family=AF_NETLINK, nl_pid=7, nl_groups=0x000011}, 12");
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &nl0, sizeof(nl0), SCT_PATH_CAPTURED,
			      "6, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &v4, 4, SCT_PATH_CAPTURED,
			      "3, {sa_family=AF_INET, sa_data=\"\\37\\220\"}, 4");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &v4, 1, SCT_PATH_CAPTURED, "3, 0x7ffc8abb60d0, 1");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &st, 16, SCT_PATH_CAPTURED,
			      "3, {sa_family=AF_UNSPEC, sa_data=\"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}, 16");
	st.ss_family = 250;
	memcpy((char *)&st + 2, "abc", 3);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &st, 16, SCT_PATH_CAPTURED,
			      "3, {sa_family=0xfa /* AF_??? */, sa_data=\"abc\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}, 16");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &v4, 0, SCT_PATH_FAULT, "3, 0x7ffc8abb60d0, 0");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 3, &v4, 0, SCT_PATH_NOT_READ, "3, 0x7ffc8abb60d0, 0");
}

/* strace 6.1's texts for these addresses (bind or connect of each on this machine) */
#define LL_ALL_99 "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL), sll_ifindex=99, " \
	"sll_hatype=ARPHRD_NETROM, sll_pkttype=PACKET_HOST, sll_halen=0}"
#define LL_IP_99 "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_IP), sll_ifindex=99, " \
	"sll_hatype=ARPHRD_ETHER, sll_pkttype=PACKET_OUTGOING, sll_halen=6, sll_addr=[00, 0x11, 0x22, 0x33, 0x44, 0x55]}"
#define LL_UNKNOWN "{sa_family=AF_PACKET, sll_protocol=htons(0x1234 /* ETH_P_??? */), sll_ifindex=0, " \
	"sll_hatype=0x1234 /* ARPHRD_??? */, sll_pkttype=0x9 /* PACKET_??? */, sll_halen=8, " \
	"sll_addr=[00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]}"
#define LL_LONG_HALEN "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_IPV6), sll_ifindex=4294967291, " \
	"sll_hatype=ARPHRD_LOOPBACK, sll_pkttype=PACKET_KERNEL, sll_halen=10, " \
	"sll_addr=[00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, ...]}"
#define LL_SHORT "{sa_family=AF_PACKET, sa_data=\"\\10\\6\\2\\0\\0\\0\\376\\377\\1\\10\\0\\21\\\"3DU\"}"
#define LL_ARP_LONGER "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ARP), sll_ifindex=99, " \
	"sll_hatype=ARPHRD_NONE, sll_pkttype=PACKET_BROADCAST, sll_halen=8, " \
	"sll_addr=[00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]}"
#define LL_VOID "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_802_3_MIN), sll_ifindex=99, " \
	"sll_hatype=ARPHRD_VOID, sll_pkttype=PACKET_HOST, sll_halen=0}"
#define IN6_LL_99 "{sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), " \
	"inet_pton(AF_INET6, \"fe80::1\", &sin6_addr), sin6_scope_id=99}"
#define IN6_MC_77 "{sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), " \
	"inet_pton(AF_INET6, \"ff02::1\", &sin6_addr), sin6_scope_id=77}"
#define VM_HOST "{sa_family=AF_VSOCK, svm_cid=VMADDR_CID_HOST, svm_port=0x400, svm_flags=0}"
#define VM_ANY "{sa_family=AF_VSOCK, svm_cid=VMADDR_CID_ANY, svm_port=VMADDR_PORT_ANY, svm_flags=0}"
#define VM_TO_HOST "{sa_family=AF_VSOCK, svm_cid=0x3, svm_port=0x5, svm_flags=VMADDR_FLAG_TO_HOST}"
#define VM_ODD "{sa_family=AF_VSOCK, svm_reserved1=0x7, svm_cid=VMADDR_CID_LOCAL, svm_port=0x7, " \
	"svm_flags=0x80 /* VMADDR_FLAG_??? */, svm_zero=\"\\x09\\x00\\x00\"}"
#define VM_FLAGS "{sa_family=AF_VSOCK, svm_cid=VMADDR_CID_HYPERVISOR, svm_port=0, svm_flags=VMADDR_FLAG_TO_HOST|0x80}"
#define VM_SHORT "{sa_family=AF_VSOCK, sa_data=\"\\0\\0\\0\\4\\0\\0\\2\\0\\0\\0\"}"

/*
 * strace names an interface index as the host it runs on does (if_nametoindex("lo")); a trace
 * is read elsewhere, so sct shows the number, as strace shows an index no interface has (99).
 */
static void packet_cases(struct capture_case *c, size_t *n)
{
	struct sockaddr_ll a = ll(ETH_P_ALL, 99, ARPHRD_NETROM, PACKET_HOST, 0);
	struct sockaddr_in6 ll6 = in6("fe80::1", 53, 0, 99), mc6 = in6("ff02::1", 53, 0, 77);
	uint8_t longer[sizeof(a) + 4] = { 0 };

	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, sizeof(a), SCT_PATH_CAPTURED, "6, " LL_ALL_99 ", 20");
	a = ll(ETH_P_IP, 99, ARPHRD_ETHER, PACKET_OUTGOING, 6);
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, sizeof(a), SCT_PATH_CAPTURED, "6, " LL_IP_99 ", 20");
	a = ll(0x1234, 0, 0x1234, 9, 8);
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, sizeof(a), SCT_PATH_CAPTURED, "6, " LL_UNKNOWN ", 20");
	a = ll(ETH_P_IPV6, -5, ARPHRD_LOOPBACK, PACKET_KERNEL, 10);
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, sizeof(a), SCT_PATH_CAPTURED, "6, " LL_LONG_HALEN ", 20");
	a = ll(ETH_P_ARP, 2, ARPHRD_NONE, PACKET_BROADCAST, 8);
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, 18, SCT_PATH_CAPTURED, "6, " LL_SHORT ", 18");
	a = ll(ETH_P_ARP, 99, ARPHRD_NONE, PACKET_BROADCAST, 8);
	memcpy(longer, &a, sizeof(a));
	c[(*n)++] = addr_case(RT_NR_BIND, 6, longer, sizeof(longer), SCT_PATH_CAPTURED, "6, " LL_ARP_LONGER ", 24");
	a = ll(ETH_P_802_3_MIN, 99, ARPHRD_VOID, PACKET_HOST, 0);
	c[(*n)++] = addr_case(RT_NR_BIND, 6, &a, sizeof(a), SCT_PATH_CAPTURED, "6, " LL_VOID ", 20");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &ll6, sizeof(ll6), SCT_PATH_CAPTURED, "4, " IN6_LL_99 ", 28");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &mc6, sizeof(mc6), SCT_PATH_CAPTURED, "4, " IN6_MC_77 ", 28");
	c[(*n)++] = addr_case(RT_NR_CONNECT, 4, &ll6, 26, SCT_PATH_CAPTURED, "4, " IN6_LL_99 ", 26");
}

static void vsock_cases(struct capture_case *c, size_t *n)
{
	struct sockaddr_vm a = vm(VMADDR_CID_HOST, 1024, 0, 0, 0);

	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, sizeof(a), SCT_PATH_CAPTURED, "7, " VM_HOST ", 16");
	a = vm(VMADDR_CID_ANY, VMADDR_PORT_ANY, 0, 0, 0);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, sizeof(a), SCT_PATH_CAPTURED, "7, " VM_ANY ", 16");
	a = vm(3, 5, VMADDR_FLAG_TO_HOST, 0, 0);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, sizeof(a), SCT_PATH_CAPTURED, "7, " VM_TO_HOST ", 16");
	a = vm(VMADDR_CID_LOCAL, 7, 0x80, 7, 9);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, sizeof(a), SCT_PATH_CAPTURED, "7, " VM_ODD ", 16");
	a = vm(VMADDR_CID_HYPERVISOR, 0, 0x81, 0, 0);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, sizeof(a), SCT_PATH_CAPTURED, "7, " VM_FLAGS ", 16");
	a = vm(VMADDR_CID_HOST, 1024, 0, 0, 0);
	c[(*n)++] = addr_case(RT_NR_CONNECT, 7, &a, 12, SCT_PATH_CAPTURED, "7, " VM_SHORT ", 12");
}

static void data_cases(struct capture_case *c, size_t *n)
{
	uint8_t bin[32];

	for (int i = 0; i < 32; i++)
		bin[i] = (uint8_t)(i * 7);
	c[(*n)++] = data_case("hi\t\"x\\\r\v\f\a\b\0009\001a\377\xc3\xbc\n", 19, SCT_PATH_CAPTURED, 19,
			      "1, \"hi\\t\\\"x\\\\\\r\\v\\f\\7\\10\\09\\1a\\377\\303\\274\\n\", 19");
	c[(*n)++] = data_case(bin, 32, SCT_PATH_CAPTURED | SCT_PATH_CUT, 40,
			      "1, \"\\0\\7\\16\\25\\34#*18?FMT[bipw~\\205\\214\\223\\232\\241\\250\\257\\266\\275\\304"
			      "\\313\\322\\331\"..., 40");
	c[(*n)++] = data_case("\x01" "0\x01" "8\x7f\xff", 6, SCT_PATH_CAPTURED, 6, "1, \"\\0010\\18\\177\\377\", 6");
	c[(*n)++] = data_case("", 0, SCT_PATH_CAPTURED, 0, "1, \"\", 0");
	c[(*n)++] = data_case("", 0, SCT_PATH_NOT_READ, 5, "1, 0x7ffc8abb60d0, 5");
	c[(*n)++] = data_case("", 0, SCT_PATH_FAULT, 5, "1, 0x7ffc8abb60d0, 5");
}

static void argv_cases(struct capture_case *c, size_t *n)
{
	static const char argv[] = "ls\0-l\0a b\0q\"\n\xc3\xbc";

	c[(*n)++] = argv_case(argv, sizeof(argv), SCT_PATH_CAPTURED, 2,
			      "0x10, [\"ls\", \"-l\", \"a b\", \"q\\\"\\n\\303\\274\"], 0x7ffc8abb61d0 /* 2 vars */");
	c[(*n)++] = argv_case(argv, 6, SCT_PATH_CAPTURED | SCT_PATH_CUT | SCT_ARGV_ENVC_LOWER, 4096,
			      "0x10, [\"ls\", \"-l\", ...], 0x7ffc8abb61d0 /* 4096 vars or more */");
	c[(*n)++] = argv_case(argv, 0, SCT_PATH_CAPTURED, 1, "0x10, [], 0x7ffc8abb61d0 /* 1 var */");
	c[(*n)++] = argv_case(argv, 0, SCT_PATH_FAULT, 0, "0x10, 0x7ffc8abb60d0, 0x7ffc8abb61d0");
}

static void msghdr_cases(struct capture_case *c, size_t *n)
{
	struct sockaddr_in v4 = in4("127.0.0.1", 53);
	struct capture_case m = { .nr = RT_NR_SENDMSG, .a = { 7, PTR, 0 }, .addr_len = sizeof(v4),
				  .addr_flags = SCT_PATH_CAPTURED, .data_len = 4, .data_flags = SCT_PATH_CAPTURED,
				  .data = "ping" };

	memcpy(m.addr, &v4, sizeof(v4));
	strcpy(m.want, "7, {msg_name=" INET_53 ", msg_namelen=16, msg_iov=[{iov_base=\"ping\", ...}, ...], ...}, 0");
	c[(*n)++] = m;
	m.addr_len = 0;
	strcpy(m.want, "7, {msg_name=NULL, msg_iov=[{iov_base=\"ping\", ...}, ...], ...}, 0");
	c[(*n)++] = m;
	m.addr_flags = m.data_flags = SCT_PATH_NOT_READ;
	strcpy(m.want, "7, 0x7ffc8abb60d0, 0");
	c[(*n)++] = m;
	m = (struct capture_case){ .nr = RT_NR_SENDTO, .a = { 7, PTR, 6, 0, PTR + 0x40, sizeof(v4) },
				   .addr_len = sizeof(v4), .addr_flags = SCT_PATH_CAPTURED, .data_len = 6,
				   .data_flags = SCT_PATH_CAPTURED, .data = "hello\n" };
	memcpy(m.addr, &v4, sizeof(v4));
	strcpy(m.want, "7, \"hello\\n\", 6, 0, " INET_53 ", 16");
	c[(*n)++] = m;
}

ParameterizedTestParameters(report_captures, shown_as_strace_shows_them)
{
	static struct capture_case cases[64];
	size_t n = 0;

	addr_cases(cases, &n);
	packet_cases(cases, &n);
	vsock_cases(cases, &n);
	data_cases(cases, &n);
	argv_cases(cases, &n);
	msghdr_cases(cases, &n);
	cr_assert(n <= sizeof(cases) / sizeof(cases[0]));
	return cr_make_param_array(struct capture_case, cases, n);
}

/* A trace with the descriptions above, read back for its session. */
struct captures_session {
	struct sct_reader *r;
	const struct sct_session *s;
};

static void session_open(struct captures_session *cs)
{
	const char *path = rt_path("captures.sct");
	struct sct_record rec;
	int err = 0;

	rt_close(rt_open_captures(path, "h", descs, sizeof(descs) / sizeof(descs[0])));
	cs->r = sct_reader_open(path, &err);
	cr_assert(cs->r);
	cr_assert_eq(sct_reader_next(cs->r, &rec), 1);
	cs->s = sct_reader_session(cs->r);
	cr_assert(cs->s && sct_session_captures(cs->s));
}

static void args_assert(const struct sct_session *s, const struct sct_syscall *sc, const char *want)
{
	struct out o = { .cap = 4096, .fd = -1 };

	o.buf = malloc(o.cap);
	cr_assert(o.buf);
	args_out(&o, s, sc, false);
	cr_assert_eq(o.len, strlen(want), "got '%.*s', want '%s'", (int)o.len, o.buf, want);
	cr_assert(!memcmp(o.buf, want, o.len), "got '%.*s', want '%s'", (int)o.len, o.buf, want);
	free(o.buf);
}

ParameterizedTest(struct capture_case *c, report_captures, shown_as_strace_shows_them)
{
	struct sct_syscall sc = { .nr = c->nr, .arg0 = c->a[0], .arg1 = c->a[1], .arg2 = c->a[2],
				  .arg3 = c->a[3], .arg4 = c->a[4], .arg5 = c->a[5],
				  .addr_flags = c->addr_flags, .addr = { c->addr, c->addr_len },
				  .argv_flags = c->argv_flags, .argv = { c->argv, c->argv_len }, .envc = c->envc,
				  .data_flags = c->data_flags, .data = { c->data, c->data_len } };
	struct captures_session cs;

	session_open(&cs);
	args_assert(cs.s, &sc, c->want);
	sct_reader_close(cs.r);
}

/* A call that does not return has its arguments, zeros too: exit_group(0), not "...". */
Test(report_captures, call_that_does_not_return_shows_its_arguments)
{
	struct sct_syscall sc = { .nr = RT_NR_EXIT_GROUP, .unfinished = 2 };
	struct captures_session cs;

	session_open(&cs);
	args_assert(cs.s, &sc, "0");
	sc.arg0 = 3;
	args_assert(cs.s, &sc, "3");
	sct_reader_close(cs.r);
}

/* The timeline of spec/examples/captures.sct (exit_group as strace shows it), and sct-convert's args column. */
Test(report_captures, timeline_and_convert_show_the_captured_memory)
{
	const char *path = "spec/examples/captures.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "TZ=UTC %s -T %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "+0.000000 10:00:00.000000 connect(3, {sa_family=AF_INET, sin_port=htons(8080), "
			 "sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0 <0.000030> (? 400/400) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 1), "+0.000040 10:00:00.000040 connect(4, {sa_family=AF_UNIX, "
			 "sun_path=@\"sct-example\"}, 14) = -111 ECONNREFUSED <0.000030> (? 400/400) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 2), "+0.000080 10:00:00.000080 execve(\"/usr/bin/printf\", [\"printf\", \"%s %s\\\\n\", "
			 "\"hello world\", \"gr\\303\\274\\303\\237e\"], 0x7ffe1d30 /* 23 vars */) = 0 <0.000250> "
			 "(? 400/400) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 3), "+0.000400 10:00:00.000400 write(1, \"hello world gr\\303\\274\\303\\237e\\n\", 20) "
			 "= 20 <0.000002> (? 400/400) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 4), "+0.000410 10:00:00.000410 write(1, \"0123456789abcdefghijklmnopqrstuv\"..., 40) "
			 "= 40 <0.000002> (? 400/400) cg=cgroup:4242");
	cr_assert_str_eq(rt_line(out, 5), "+0.000420 10:00:00.000420 exit_group(3) = ? (? 400/400) cg=cgroup:4242");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 4), ",write,,,\"1, \"\"hello world gr\\303\\274\\303\\237e\\n\"\", 20\"\r"),
			   "%s", rt_line(out, 4));
	free(out);
}

/* A call of the trace the tests below make: pid 9, 1 us, its address and data as given. */
static void call(struct sct_writer *w, uint64_t rel_ns, uint32_t nr, int64_t ret, uint64_t fd, const void *addr,
		 uint32_t addr_len, uint8_t unfinished)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = unfinished == 2 ? 0 : 1000,
					  .ret = ret, .pid = 9, .tid = 9, .nr = nr, .arg0 = fd, .arg1 = PTR,
					  .arg2 = addr_len, .unfinished = unfinished };
	if (addr) {
		r.syscall.addr_flags = SCT_PATH_CAPTURED;
		r.syscall.addr = (struct sct_bytes){ addr, addr_len };
	}
	rt_record(w, &r);
}

/*
 * Three writes, one still in flight at the stop, and exit_group(3), which does not return:
 * the timeline shows it as strace does, the summary counts it as a call without an error and
 * with no time, the footer's unfinished calls are the one in flight only.
 */
Test(report_captures, call_that_does_not_return_counts_as_a_call)
{
	const char *path = rt_path("exit.sct");
	struct sct_writer *w = rt_open_captures(path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	char *out;

	for (int i = 0; i < 3; i++)
		call(w, 1000 * (uint64_t)i, RT_NR_WRITE, i ? 1 : -9, 1, NULL, 0, i == 2);
	call(w, 5000, RT_NR_EXIT_GROUP, 0, 3, NULL, 0, 2);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "TZ=UTC %s -T %s 2>&1", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 3), "+0.000005 00:00:00.000005 exit_group(3) = ? (? 9/9) cg=cgroup:0", "%s", out);
	cr_assert_not_null(rt_find_line(out, "-- unfinished syscalls: 1 (not in latency statistics)"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s %s 2>&1", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 1), "         2        1 100.00          0.000002           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  write", "%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         1        0   0.00          0.000000           0.000           0.000"
			 "           0.000           0.000           0.000           0.000  exit_group", "%s", out);
	cr_assert_str_eq(rt_line(out, 3), "         3        1 100.00          0.000002  total of 2 groups", "%s", out);
	cr_assert_not_null(rt_find_line(out, "-- unfinished syscalls: 1 (not in latency statistics)"), "%s", out);
	free(out);
	/* the histogram is of durations: exit_group has none */
	cr_assert_eq(rt_run(&out, "%s -H %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "write: 2 calls", "%s", out);
	cr_assert_null(strstr(out, "exit_group"), "%s", out);
	free(out);
}

/*
 * --by peer: each call under the peer its captured address names, a netlink socket by the
 * protocol its socket() call gave (netlink alone for an fd the trace did not see made), every
 * call without an address under "-".
 */
Test(report_captures, by_peer_groups_calls_by_their_socket_address)
{
	const char *path = rt_path("peers.sct");
	struct sct_writer *w = rt_open_captures(path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	struct sockaddr_in v4 = in4("127.0.0.1", 8080);
	struct sockaddr_in6 lo6 = in6("::1", 443, 0, 0), ll6 = in6("fe80::1", 53, 0, 2);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct sockaddr_un path_un, abstract;
	uint32_t path_len, abstract_len;
	uint64_t t = 0;
	char *out;

	path_un = un("/run/x.sock", 12, &path_len);
	abstract = un("\0name", 5, &abstract_len);
	call(w, t++, RT_NR_SOCKET, 6, AF_NETLINK, NULL, NETLINK_ROUTE, 0);
	for (int i = 0; i < 2; i++)
		call(w, t++, RT_NR_BIND, 0, 6, &nl, sizeof(nl), 0);
	call(w, t++, RT_NR_BIND, 0, 9, &nl, sizeof(nl), 0);
	for (int i = 0; i < 3; i++)
		call(w, t++, RT_NR_CONNECT, i ? 0 : -111, 3, &v4, sizeof(v4), 0);
	for (int i = 0; i < 2; i++)
		call(w, t++, RT_NR_SENDTO, 1, 4, &lo6, sizeof(lo6), 0);
	call(w, t++, RT_NR_CONNECT, 0, 4, &ll6, sizeof(ll6), 0);
	call(w, t++, RT_NR_CONNECT, 0, 5, &path_un, path_len, 0);
	for (int i = 0; i < 4; i++)
		call(w, t++, RT_NR_CONNECT, -111, 5, &abstract, abstract_len, 0);
	for (int i = 0; i < 5; i++)
		call(w, t++, RT_NR_WRITE, 1, 1, NULL, 0, 0);
	call(w, t++, RT_NR_EXIT_GROUP, 0, 0, NULL, 0, 2);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --by peer --sort calls %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "     calls   errors  %time          total(s)         avg(us)         min(us)"
			 "         max(us)         p50(us)         p90(us)         p99(us)  peer", "%s", out);
	cr_assert_str_eq(rt_line(out, 1), "         7        0  30.00          0.000006           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  -", "%s", out);
	cr_assert_str_eq(rt_line(out, 2), "         4        4  20.00          0.000004           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  unix:@name", "%s", out);
	cr_assert_str_eq(rt_line(out, 3), "         3        1  15.00          0.000003           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  127.0.0.1:8080", "%s", out);
	cr_assert_str_eq(rt_line(out, 4), "         2        0  10.00          0.000002           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  [::1]:443", "%s", out);
	cr_assert_str_eq(rt_line(out, 5), "         2        0  10.00          0.000002           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  netlink:ROUTE", "%s", out);
	cr_assert_str_eq(rt_line(out, 6), "         1        0   5.00          0.000001           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  [fe80::1%2]:53", "%s", out);
	cr_assert_str_eq(rt_line(out, 7), "         1        0   5.00          0.000001           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  netlink", "%s", out);
	cr_assert_str_eq(rt_line(out, 8), "         1        0   5.00          0.000001           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  unix:/run/x.sock", "%s", out);
	/* the total is every call: 20 of 1 us, exit_group with none */
	cr_assert_str_eq(rt_line(out, 9), "        21        5 100.00          0.000020  total of 8 groups", "%s", out);
	free(out);
	/* by interval too, and with another key */
	cr_assert_eq(rt_run(&out, "%s --by peer,syscall --sort calls --interval 1 %s 2>/dev/null", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 6), "         2        0  10.00          0.000002           1.000           1.000"
			 "           1.000           1.000           1.000           1.000  netlink:ROUTE     bind", "%s", out);
	cr_assert_str_eq(rt_line(out, 7), "         1        0   0.00          0.000000           0.000           0.000"
			 "           0.000           0.000           0.000           0.000  -                 exit_group",
			 "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --by peer --html %s %s >/dev/null 2>&1 && grep -c '<td class=\"label\">' %s",
			    rt_report(), rt_path("peers.html"), path, rt_path("peers.html")), 0);
	cr_assert_str_eq(rt_line(out, 0), "8", "%s", out);
	free(out);
}

/*
 * sct-convert: the captured fields after path2, their bytes as text (the peer, exec's
 * arguments as a JSON array, the data escaped as strace escapes it), in CSV and JSON Lines; a
 * trace without captures has none of these columns.
 */
Test(report_captures, convert_has_the_captured_memory_columns)
{
	const char *path = "spec/examples/captures.sct";
	char *out;

	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "session,host,time_ns,wall_time,duration_ns,pid,tid,cgroup_id,nr,abi,ret,"
			 "errno,unfinished,arg0,arg1,arg2,arg3,arg4,arg5,path_flags,path_ref,path,path2_flags,"
			 "path2_ref,path2,addr_flags,addr,argv_flags,envc,argv,data_flags,data,name,comm,"
			 "cgroup_path,args\r");
	cr_assert_not_null(strstr(rt_line(out, 2), ",1,unix:@sct-example,0,0,,0,,connect,"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), ",0,,1,23,\"[\"\"printf\"\",\"\"%s %s\\\\n\"\",\"\"hello world\"\","
				  "\"\"gr\xc3\xbc\xc3\x9f" "e\"\"]\",0,,execve,"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 4), ",0,,0,0,,1,hello world gr\\303\\274\\303\\237e\\n,write,"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 5), ",0,,0,0,,5,0123456789abcdefghijklmnopqrstuv,write,"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 0), "\"addr_flags\":1,\"addr\":\"127.0.0.1:8080\",\"argv_flags\":0,"
				  "\"envc\":0,\"argv\":null,\"data_flags\":0,\"data\":null,\"name\":\"connect\""), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "\"argv_flags\":1,\"envc\":23,\"argv\":[\"printf\",\"%s %s\\\\n\","
				  "\"hello world\",\"gr\xc3\xbc\xc3\x9f" "e\"],\"data_flags\":0"), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 3), "\"data_flags\":1,\"data\":\"hello world gr\\\\303\\\\274\\\\303\\\\237e"
				  "\\\\n\",\"name\":\"write\""), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv spec/examples/args.sct 2>/dev/null", rt_convert()), 0);
	cr_assert_null(strstr(rt_line(out, 0), "addr"), "%s", rt_line(out, 0));
	free(out);
}

/* The addr column names a netlink peer by its socket's protocol, as --by peer does. */
Test(report_captures, convert_names_netlink_peers_by_protocol)
{
	const char *path = rt_path("netlink.sct");
	struct sct_writer *w = rt_open_captures(path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	char *out;

	call(w, 0, RT_NR_SOCKET, 6, AF_NETLINK, NULL, NETLINK_AUDIT, 0);
	call(w, 1, RT_NR_BIND, 0, 6, &nl, sizeof(nl), 0);
	call(w, 2, RT_NR_BIND, 0, 7, &nl, sizeof(nl), 0);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert_not_null(strstr(rt_line(out, 1), "\"addr\":\"netlink:AUDIT\""), "%s", out);
	cr_assert_not_null(strstr(rt_line(out, 2), "\"addr\":\"netlink\""), "%s", out);
	free(out);
}

/*
 * sct-convert -j2: the second copy passes over the first chunk's calls reading only their
 * count while no session captures memory; a later one does, and its socket() must still be
 * followed: the bind() that copy renders, 4,096 rows on, names the socket's protocol as one
 * copy does. (The first session captures too: the columns, addr among them, are its.)
 */
Test(report_captures, convert_copies_follow_sockets_of_a_later_session)
{
	const char *first = rt_path("first.sct"), *plain = rt_path("plain.sct"), *nl_path = rt_path("nl.sct");
	const char *all = rt_path("all.sct");
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct sct_writer *w = rt_open_captures(first, "h", descs, sizeof(descs) / sizeof(descs[0]));
	char *one, *two;

	for (uint64_t i = 0; i < 10; i++)
		call(w, i, RT_NR_WRITE, 1, 1, NULL, 0, 0);
	rt_close(w);
	w = rt_open(plain, "h", 0);
	for (uint64_t i = 0; i < 3990; i++)
		rt_sc(w, i, 1000, 9, 9, 0, RT_NR_WRITE, 1);
	rt_close(w);
	w = rt_open_captures(nl_path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	call(w, 0, RT_NR_SOCKET, 6, AF_NETLINK, NULL, NETLINK_AUDIT, 0);
	for (uint64_t i = 1; i <= 200; i++)
		call(w, i, RT_NR_WRITE, 1, 1, NULL, 0, 0);
	call(w, 201, RT_NR_BIND, 0, 6, &nl, sizeof(nl), 0);
	rt_close(w);
	cr_assert_eq(rt_run(&one, "cat %s %s %s > %s", first, plain, nl_path, all), 0);
	free(one);
	cr_assert_eq(rt_run(&one, "%s -j1 --to jsonl %s 2>/dev/null", rt_convert(), all), 0);
	cr_assert_eq(rt_run(&two, "%s -j2 --to jsonl %s 2>/dev/null", rt_convert(), all), 0);
	cr_assert_not_null(strstr(rt_line(one, 4201), "\"addr\":\"netlink:AUDIT\""), "%s", rt_line(one, 4201));
	cr_assert_str_eq(two, one, "-j2 wrote otherwise than -j1");
	free(one);
	free(two);
}
