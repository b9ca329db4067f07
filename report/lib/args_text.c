// SPDX-License-Identifier: BSD-2-Clause
/*
 * A syscall's arguments as strace prints them, from the session's HEADER descriptions
 * (format 1.3): fds, AT_FDCWD, the captured paths (the first path argument from path, the
 * second from path2 of format 1.4), flag sets and enums by name (argnames.def), modes in octal,
 * sizes in decimal, pointers in hex, values no name covers as strace shows them (in hex with
 * its comment, an ioctl request as _IOC()); futex, fcntl and prctl show the arguments their op,
 * command or option reads (args_layout.c), clone its arguments by name; the memory a format 1.7
 * session captured: socket addresses (sockaddr_text.c), exec's arguments and the count of its
 * environment, the data a call moved (cstring_escape.c).
 */
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <linux/mman.h>
#include <linux/netlink.h>
#include <linux/prctl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <asm/prctl.h>
#endif

#include "argnames.def"
#include "args_layout.h"
#include "args_text.h"
#include "cstring_escape.h"
#include "fdpaths.h"
#include "name_table.h"
#include "names.h"
#include "outbuf.h"
#include "sockaddr_text.h"

#define ARG_TABLE(fam, LIST, how, unknown) static const struct name_value fam##_names[] = { LIST(NAME_VALUE) };
ARG_FAMILIES(ARG_TABLE)
ARG_TABLE(ipproto, ARG_IPPROTO, ENUM, )
ARG_TABLE(netlink, ARG_NETLINK, ENUM, )
ARG_TABLE(fd_flags, ARG_FD_FLAGS, FLAGS, )

enum how { HOW_FLAGS, HOW_ENUM, HOW_IOCTL };

struct family {
	const char *name;
	const struct name_value *v;
	size_t n;
	enum how how;
	const char *unknown;
};

#define ARG_HOW_FLAGS HOW_FLAGS
#define ARG_HOW_ENUM HOW_ENUM
#define ARG_HOW_IOCTL HOW_IOCTL
#define ARG_FAMILY_INIT(fam, LIST, how, unknown) \
	{ #fam, fam##_names, sizeof(fam##_names) / sizeof(fam##_names[0]), ARG_HOW_##how, unknown }
#define ARG_FAMILY(fam, LIST, how, unknown) ARG_FAMILY_INIT(fam, LIST, how, unknown),
static const struct family families[] = { ARG_FAMILIES(ARG_FAMILY) };
static const struct family ipproto_family = ARG_FAMILY_INIT(ipproto, ARG_IPPROTO, ENUM, "IPPROTO_???");
static const struct family netlink_family = ARG_FAMILY_INIT(netlink, ARG_NETLINK, ENUM, "NETLINK_???");
static const struct family fd_flags_family = ARG_FAMILY_INIT(fd_flags, ARG_FD_FLAGS, FLAGS, "FD_???");

static const struct family *family_find(const char *name)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].name, name))
			return &families[i];
	return NULL;
}

static void out_hex(struct out *o, uint64_t v)
{
	out_printf(o, "%#llx", (unsigned long long)v);
}

/* A value no name of f covers, as strace shows it: in hex with its comment, or in decimal. */
static void unknown_out(struct out *o, const struct family *f, uint64_t v)
{
	if (!f->unknown[0]) {
		out_i64(o, (int32_t)v);
		return;
	}
	out_hex(o, v);
	out_printf(o, " /* %s */", f->unknown);
}

/*
 * The names of v's bits in list order, the bits no name covers in hex ("0" for no bits);
 * a value no name covers at all with strace's comment (after names before it: any).
 */
static void flags_out(struct out *o, const struct family *f, uint64_t v, bool any)
{
	v = name_table_bits_out(o, f->v, f->n, v, any);
	if (v)
		unknown_out(o, f, v);
}

static const char *enum_name(const struct family *f, uint64_t v)
{
	return name_table_find(f->v, f->n, v);
}

/* An ioctl request no name covers, as strace takes it apart (the arch's <asm/ioctl.h>). */
static void ioc_out(struct out *o, uint32_t v)
{
	uint32_t dir = _IOC_DIR(v);

	out_str(o, "_IOC(");
	if (dir == _IOC_NONE)
		out_str(o, "_IOC_NONE");
	else if (dir == (_IOC_READ | _IOC_WRITE))
		out_str(o, "_IOC_READ|_IOC_WRITE");
	else if (dir == _IOC_READ || dir == _IOC_WRITE)
		out_str(o, dir == _IOC_READ ? "_IOC_READ" : "_IOC_WRITE");
	else
		out_hex(o, dir);
	out_printf(o, ", %#x, %#x, %#x)", _IOC_TYPE(v), _IOC_NR(v), _IOC_SIZE(v));
}

static void enum_out(struct out *o, const struct family *f, uint64_t v)
{
	const char *n = enum_name(f, v);

	if (n)
		out_str(o, n);
	else if (f->how == HOW_IOCTL)
		ioc_out(o, (uint32_t)v);
	else
		unknown_out(o, f, (uint32_t)v);
}

/*
 * A signal number as strace shows it: by name, the real-time ones from the kernel's SIGRTMIN
 * (glibc's __SIGRTMIN) as SIGRTMIN, SIGRT_1 ...; 0 (a kill that checks) and others in decimal.
 */
static void signal_out(struct out *o, uint64_t v)
{
	int32_t s = (int32_t)v;

	if (s == __SIGRTMIN)
		out_str(o, "SIGRTMIN");
	else if (s > __SIGRTMIN && s <= __SIGRTMAX)
		out_printf(o, "SIGRT_%d", s - __SIGRTMIN);
	else
		enum_out(o, family_find("signal"), v);
}

/* The private and clock flags join the command's name: FUTEX_WAIT_PRIVATE|FUTEX_CLOCK_REALTIME. */
static void futex_out(struct out *o, const struct family *f, uint64_t v)
{
	uint32_t op = (uint32_t)v;
	const char *n = enum_name(f, op & FUTEX_CMD_MASK);

	if (!n || (op & ~(uint32_t)(FUTEX_CMD_MASK | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))) {
		unknown_out(o, f, op);
		return;
	}
	out_str(o, n);
	if (op & FUTEX_PRIVATE_FLAG)
		out_str(o, "_PRIVATE");
	if (op & FUTEX_CLOCK_REALTIME)
		out_str(o, "|FUTEX_CLOCK_REALTIME");
}

/* The kernel's SOCK_TYPE_MASK, which no UAPI header exports: the type's bits of socket()'s type. */
#define SOCKET_TYPE_MASK 0xfu

/*
 * The type in the low bits, then SOCK_CLOEXEC, SOCK_NONBLOCK (socket_flags); a type no name
 * covers reads with the flags, as strace: SOCK_CLOEXEC|0x10.
 */
static void socket_type_out(struct out *o, const struct family *f, uint64_t v)
{
	const char *type = enum_name(f, v & SOCKET_TYPE_MASK);
	uint64_t flags = type ? v & ~(uint64_t)SOCKET_TYPE_MASK : v;

	if (type)
		out_str(o, type);
	if (flags || !type) {
		out_str(o, type ? "|" : "");
		flags_out(o, family_find("socket_flags"), flags, false);
	}
}

/* A socket's protocol reads by its domain (the call's "socket_domain" argument). */
static void socket_protocol_out(struct out *o, const struct sct_syscall_args *a, const uint64_t *v, uint64_t p)
{
	for (uint32_t k = 0; k < a->nargs; k++) {
		if (strcmp(a->args[k].family, "socket_domain"))
			continue;
		if ((uint32_t)v[k] == AF_INET || (uint32_t)v[k] == AF_INET6) {
			enum_out(o, &ipproto_family, p);
			return;
		}
		if ((uint32_t)v[k] == AF_NETLINK) {
			enum_out(o, &netlink_family, p);
			return;
		}
	}
	out_i64(o, (int32_t)p);
}

/* open's access mode is a value, not bits: O_RDONLY is 0; all its bits, O_ACCMODE. */
static void open_out(struct out *o, const struct family *f, uint64_t v)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

	out_str(o, modes[v & O_ACCMODE]);
	flags_out(o, f, v & ~(uint64_t)O_ACCMODE, true);
}

/* mmap's type (MAP_TYPE's bits) is a value: MAP_FILE is 0; the rest are flags. */
static void mmap_out(struct out *o, const struct family *f, uint64_t v)
{
	const char *type = (v & MAP_TYPE) ? enum_name(f, v & MAP_TYPE) : "MAP_FILE";

	if (!type) {
		unknown_out(o, f, v);
		return;
	}
	out_str(o, type);
	flags_out(o, f, v & ~(uint64_t)MAP_TYPE, true);
}

/* clone's low byte is the signal sent to the parent when the child exits. */
static void clone_out(struct out *o, const struct family *f, uint64_t v)
{
	uint64_t sig = v & CSIGNAL;

	if (v & ~(uint64_t)CSIGNAL)
		flags_out(o, f, v & ~(uint64_t)CSIGNAL, false);
	if (sig) {
		out_str(o, v & ~(uint64_t)CSIGNAL ? "|" : "");
		signal_out(o, sig);
	}
	if (!v)
		out_char(o, '0');
}

static void family_out(struct out *o, const char *name, uint32_t kind, uint64_t v)
{
	const struct family *f = family_find(name);

	if (!strcmp(name, "signal")) {
		signal_out(o, v);
	} else if (!f) {
		if (kind == SCT_ARG_FLAGS)
			out_hex(o, v);
		else
			out_i64(o, (int32_t)v);
	} else if (!strcmp(name, "open")) {
		open_out(o, f, v);
	} else if (!strcmp(name, "mmap")) {
		mmap_out(o, f, v);
	} else if (!strcmp(name, "access") && !v) {
		out_str(o, "F_OK");
	} else if (!strcmp(name, "mmap_prot") && !v) {
		out_str(o, "PROT_NONE");
	} else if (!strcmp(name, "futex_op")) {
		futex_out(o, f, v);
	} else if (!strcmp(name, "socket_type")) {
		socket_type_out(o, f, v);
	} else if (f->how == HOW_FLAGS) {
		flags_out(o, f, v, false);
	} else {
		enum_out(o, f, v);
	}
}

/*
 * A path as strace quotes it; `...` after a string the recorder cut; the pointer when the
 * string was not captured (a 1.3 trace's second path: flags 0).
 */
static void path_out(struct out *o, uint32_t flags, struct sct_bytes path, uint64_t ptr)
{
	static const char hex[] = "0123456789abcdef";

	if (!(flags & SCT_PATH_CAPTURED)) {
		out_hex(o, ptr);
		return;
	}
	out_char(o, '"');
	for (uint32_t i = 0; i < path.len; i++) {
		uint8_t b = path.ptr[i];

		if (b == '"' || b == '\\') {
			out_char(o, '\\');
			out_char(o, (char)b);
		} else if (b >= 0x20 && b < 0x7f) {
			out_char(o, (char)b);
		} else {
			char e[4] = { '\\', 'x', hex[b >> 4], hex[b & 15] };

			out_mem(o, e, 4);
		}
	}
	out_char(o, '"');
	if (flags & SCT_PATH_CUT)
		out_str(o, "...");
}

/* A value without a better reading: a 32-bit int when the upper half is clear. */
static void int_out(struct out *o, uint64_t v)
{
	if (v >> 32)
		out_i64(o, (int64_t)v);
	else
		out_i64(o, (int32_t)v);
}

/* An fd, marked for fdpaths_out() to add its file when asked to. */
static void fd_out(struct out *o, uint64_t v, bool fd_marks)
{
	if (fd_marks)
		out_char(o, FDPATHS_MARK);
	out_i64(o, (int32_t)v);
	if (fd_marks)
		out_char(o, FDPATHS_END);
}

static void ptr_out(struct out *o, uint64_t v)
{
	if (v)
		out_hex(o, v);
	else
		out_str(o, "NULL");
}

/* A socket address as strace shows it; one shorter than its family, as strace, its pointer. */
static void addr_out(struct out *o, const struct sct_syscall *sc, uint64_t ptr)
{
	if (!sockaddr_captured(sc))
		ptr_out(o, ptr);
	else
		sockaddr_out(o, sc->addr.ptr, sc->addr.len);
}

/* The data a call moved, quoted; `...` after it when the call moved more than was kept. */
static void data_out(struct out *o, const struct sct_syscall *sc, uint64_t ptr)
{
	if (!(sc->data_flags & SCT_PATH_CAPTURED)) {
		ptr_out(o, ptr);
		return;
	}
	cstring_out(o, sc->data.ptr, sc->data.len);
	if (sc->data_flags & SCT_PATH_CUT)
		out_str(o, "...");
}

/* exec's arguments as strace lists them; `...` last when the recorder kept fewer (or less). */
static void argv_out(struct out *o, const struct sct_syscall *sc, uint64_t ptr)
{
	uint32_t at = 0, n = 0;

	if (!(sc->argv_flags & SCT_PATH_CAPTURED) || !ptr) {
		ptr_out(o, ptr);
		return;
	}
	out_char(o, '[');
	while (at < sc->argv.len) {
		const uint8_t *s = sc->argv.ptr + at;
		size_t len = strnlen((const char *)s, sc->argv.len - at);

		out_str(o, n++ ? ", " : "");
		cstring_out(o, s, len);
		at += (uint32_t)len + 1;
	}
	if (sc->argv_flags & SCT_PATH_CUT)
		out_str(o, n ? ", ..." : "...");
	out_char(o, ']');
}

/* exec's environment as strace shows it: its pointer and the count of its entries. */
static void envp_out(struct out *o, const struct sct_syscall *sc, uint64_t ptr)
{
	ptr_out(o, ptr);
	if (!(sc->argv_flags & SCT_PATH_CAPTURED) || !ptr)
		return;
	out_printf(o, " /* %llu var%s%s */", (unsigned long long)sc->envc, names_plural(sc->envc),
		   sc->argv_flags & SCT_ARGV_ENVC_LOWER ? " or more" : "");
}

/*
 * A struct user_msghdr by what the record holds of it, msg_name and its first iovec's data,
 * the rest as `...`; its pointer when the recorder read neither.
 */
static void msghdr_out(struct out *o, const struct sct_syscall *sc, uint64_t ptr)
{
	bool name = sc->addr_flags & SCT_PATH_CAPTURED, data = sc->data_flags & SCT_PATH_CAPTURED;

	if (!name && !data) {
		ptr_out(o, ptr);
		return;
	}
	out_str(o, "{msg_name=");
	if (name && sc->addr.len) {
		addr_out(o, sc, 0);
		out_printf(o, ", msg_namelen=%u", sc->addr.len);
	} else {
		out_str(o, name || !sc->addr_flags ? "NULL" : "...");
	}
	out_str(o, ", msg_iov=");
	if (data) {
		out_str(o, "[{iov_base=");
		data_out(o, sc, 0);
		out_str(o, ", ...}, ...]");
	} else {
		out_str(o, "...");
	}
	out_str(o, ", ...}");
}

/* The kinds of format 1.7: the memory the call's arguments point to, first of each kind. */
static void captured_out(struct out *o, uint32_t kind, const struct sct_syscall *sc, uint64_t v, uint32_t *seen)
{
	bool first = !(*seen & 1u << kind);

	*seen |= 1u << kind;
	if (!first) {
		ptr_out(o, v);
		return;
	}
	switch (kind) {
	case SCT_ARG_SOCKADDR:
		addr_out(o, sc, v);
		break;
	case SCT_ARG_ARGV:
		argv_out(o, sc, v);
		break;
	case SCT_ARG_ENVP:
		envp_out(o, sc, v);
		break;
	case SCT_ARG_BUF:
		data_out(o, sc, v);
		break;
	default:
		msghdr_out(o, sc, v);
	}
}

/* What the arguments before this one took of the record: paths, captured memory. */
struct arg_state {
	uint32_t npaths; /* "path" arguments */
	uint32_t seen;   /* 1 << kind: the kinds of format 1.7 */
};

static void arg_out(struct out *o, const struct sct_syscall_args *a, const uint64_t *vs, uint32_t k,
		    const struct sct_syscall *sc, struct arg_state *st, bool fd_marks)
{
	const struct sct_arg_desc *d = &a->args[k];
	uint64_t v = vs[k];

	switch (d->kind) {
	case SCT_ARG_FD:
		fd_out(o, v, fd_marks);
		break;
	case SCT_ARG_DIRFD:
		if ((int32_t)v == AT_FDCWD)
			out_str(o, "AT_FDCWD");
		else
			fd_out(o, v, fd_marks);
		break;
	case SCT_ARG_PATH:
		/* the record holds the strings of the first two; a third (none today) is its pointer */
		if (st->npaths == 0)
			path_out(o, sc->path_flags, sc->path, v);
		else if (st->npaths == 1)
			path_out(o, sc->path2_flags, sc->path2, v);
		else
			out_hex(o, v);
		st->npaths++;
		break;
	case SCT_ARG_FLAGS:
	case SCT_ARG_ENUM:
		if (!strcmp(d->family, "socket_protocol"))
			socket_protocol_out(o, a, vs, v);
		else if (!strcmp(d->family, "clone") && !strcmp(d->name, "clone_flags"))
			clone_out(o, family_find("clone"), v);
		else
			family_out(o, d->family, d->kind, v);
		break;
	case SCT_ARG_MODE:
		out_printf(o, "%#llo", (unsigned long long)v);
		break;
	case SCT_ARG_SIZE:
		out_u64(o, v);
		break;
	case SCT_ARG_PTR:
		ptr_out(o, v);
		break;
	case SCT_ARG_SOCKADDR:
	case SCT_ARG_ARGV:
	case SCT_ARG_ENVP:
	case SCT_ARG_BUF:
	case SCT_ARG_MSGHDR:
		captured_out(o, d->kind, sc, v, &st->seen);
		break;
	default:
		int_out(o, v);
	}
}

/* An argument read as args_layout() says (how: one of its letters but '-' and '.'). */
static void layout_out(struct out *o, char how, uint64_t v)
{
	switch (how) {
	case 'u':
		out_u64(o, (uint32_t)v);
		break;
	case 'U':
		out_u64(o, v);
		break;
	case 'x':
		out_hex(o, v);
		break;
	case 'p':
		ptr_out(o, v);
		break;
	case 's':
		signal_out(o, v);
		break;
	case 'o':
		open_out(o, family_find("open"), v);
		break;
	case 'c':
		flags_out(o, &fd_flags_family, v, false);
		break;
	case 'b':
		if ((uint32_t)v == FUTEX_BITSET_MATCH_ANY)
			out_str(o, "FUTEX_BITSET_MATCH_ANY");
		else
			out_hex(o, (uint32_t)v);
		break;
	default:
		int_out(o, v);
	}
}

/*
 * The mode argument of an open family call that creates nothing (neither O_CREAT nor
 * O_TMPFILE in the flags before it): the kernel ignores it, and strace leaves it out.
 */
static bool mode_unused(const struct sct_syscall_args *a, uint32_t k, const uint64_t *v)
{
	const struct sct_arg_desc *f = k ? &a->args[k - 1] : NULL;

	if (a->args[k].kind != SCT_ARG_MODE || !f || f->kind != SCT_ARG_FLAGS || strcmp(f->family, "open"))
		return false;
	return !(v[k - 1] & O_CREAT) && (v[k - 1] & O_TMPFILE) != O_TMPFILE;
}

/* The index of a's argument named name, -1 if none. */
static int arg_index(const struct sct_syscall_args *a, const char *name)
{
	for (uint32_t k = 0; k < a->nargs; k++)
		if (!strcmp(a->args[k].name, name))
			return (int)k;
	return -1;
}

/*
 * clone as strace shows it, by name whatever the arch's argument order: child_stack=, flags=,
 * then the pointers the flags make the kernel use. False if a does not describe clone's five
 * arguments (as the kernel names them) with its flags in the "clone" family.
 */
static bool clone_call_out(struct out *o, const struct sct_syscall_args *a, const uint64_t *v)
{
	int fl = arg_index(a, "clone_flags"), sp = arg_index(a, "newsp"), ptid = arg_index(a, "parent_tidptr"),
	    ctid = arg_index(a, "child_tidptr"), tls = arg_index(a, "tls");
	uint64_t flags;

	if (fl < 0 || sp < 0 || ptid < 0 || ctid < 0 || tls < 0 || strcmp(a->args[fl].family, "clone"))
		return false;
	flags = v[fl];
	out_str(o, "child_stack=");
	ptr_out(o, v[sp]);
	out_str(o, ", flags=");
	clone_out(o, family_find("clone"), flags);
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		out_str(o, ", parent_tid=");
		ptr_out(o, v[ptid]);
	}
	if (flags & CLONE_SETTLS) {
		out_str(o, ", tls=");
		ptr_out(o, v[tls]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		out_str(o, ", child_tidptr=");
		ptr_out(o, v[ctid]);
	}
	return true;
}

void args_out(struct out *o, const struct sct_session *s, const struct sct_syscall *sc, bool fd_marks)
{
	const struct sct_syscall_args *a = sc->abi == SCT_ABI_NATIVE ? sct_session_syscall_args(s, sc->nr)
								      : sct_session_compat_syscall_args(s, sc->nr);
	const uint64_t v[SCT_MAX_ARGS] = { sc->arg0, sc->arg1, sc->arg2, sc->arg3, sc->arg4, sc->arg5 };
	struct arg_state st = { 0, 0 };
	uint32_t at = 0, shown = 0;
	const char *layout;

	if (sc->unfinished == NAMES_IN_FLIGHT && !(sc->arg0 | sc->arg1 | sc->arg2 | sc->arg3 | sc->arg4 | sc->arg5) &&
	    !sc->path_flags && !sc->path2_flags) {
		out_str(o, "...");
		return;
	}
	if (!a) {
		/* no description: the six registers, as they are */
		for (int k = 0; k < SCT_MAX_ARGS; k++) {
			out_str(o, k ? ", " : "");
			out_hex(o, v[k]);
		}
		return;
	}
	if (clone_call_out(o, a, v))
		return;
	layout = args_layout(a, v, &at);
	for (uint32_t k = 0; k < a->nargs; k++) {
		char how = '-';

		if (layout && k > at)
			how = k - at - 1 < strlen(layout) ? layout[k - at - 1] : '\0';

		if (!how)
			break;
		if (how == '.' || mode_unused(a, k, v))
			continue;
		out_str(o, shown++ ? ", " : "");
		if (how == '-')
			arg_out(o, a, v, k, sc, &st, fd_marks);
		else
			layout_out(o, how, v[k]);
	}
}

bool args_ret_is_address(const char *name, size_t len)
{
	static const char *const calls[] = { "mmap", "mmap2", "mremap", "brk", "shmat" };

	if (len > 7 && !memcmp(name, "compat:", 7)) {
		name += 7;
		len -= 7;
	}
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (len == strlen(calls[i]) && !memcmp(name, calls[i], len))
			return true;
	return false;
}
