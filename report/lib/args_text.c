// SPDX-License-Identifier: BSD-2-Clause
/*
 * A syscall's arguments as strace prints them, from the session's HEADER descriptions
 * (format 1.3): fds, AT_FDCWD, the captured paths (the first path argument from path, the
 * second from path2 of format 1.4), flag sets and enums by name (argnames.def), modes in octal,
 * sizes in decimal, pointers in hex.
 */
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "argnames.def"
#include "args_text.h"
#include "fdpaths.h"
#include "names.h"
#include "outbuf.h"

struct argname {
	const char *name;
	uint64_t value;
};

#define ARG_NAME(n) { #n, (uint64_t)(n) },
#define ARG_TABLE(fam, LIST, how) static const struct argname fam##_names[] = { LIST(ARG_NAME) };
ARG_FAMILIES(ARG_TABLE)

struct family {
	const char *name;
	const struct argname *v;
	size_t n;
	bool flags;
};

#define ARG_HOW_FLAGS true
#define ARG_HOW_ENUM false
#define ARG_FAMILY(fam, LIST, how) \
	{ #fam, fam##_names, sizeof(fam##_names) / sizeof(fam##_names[0]), ARG_HOW_##how },
static const struct family families[] = { ARG_FAMILIES(ARG_FAMILY) };

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

/* The names of v's bits in list order; what no name covers in hex; "0" for none at all. */
static void flags_out(struct out *o, const struct family *f, uint64_t v, bool any)
{
	for (size_t i = 0; i < f->n; i++) {
		uint64_t bits = f->v[i].value;

		if (!bits || (v & bits) != bits)
			continue;
		out_str(o, any ? "|" : "");
		out_str(o, f->v[i].name);
		v &= ~bits;
		any = true;
	}
	if (v || !any) {
		out_str(o, any ? "|" : "");
		out_hex(o, v);
	}
}

static void enum_out(struct out *o, const struct family *f, uint64_t v)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].value == v) {
			out_str(o, f->v[i].name);
			return;
		}
	out_i64(o, (int32_t)v);
}

/* open's access mode is a value, not bits: O_RDONLY is 0. */
static void open_out(struct out *o, const struct family *f, uint64_t v)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR" };
	uint64_t acc = v & O_ACCMODE;

	if (acc < 3) {
		out_str(o, modes[acc]);
		v &= ~(uint64_t)O_ACCMODE;
	}
	if (v || acc >= 3)
		flags_out(o, f, v, acc < 3);
}

/* clone's low byte is the signal sent to the parent when the child exits. */
static void clone_out(struct out *o, const struct family *f, uint64_t v)
{
	char tmp[16];
	uint64_t sig = v & CSIGNAL;

	if (v & ~(uint64_t)CSIGNAL)
		flags_out(o, f, v & ~(uint64_t)CSIGNAL, false);
	if (sig) {
		out_str(o, v & ~(uint64_t)CSIGNAL ? "|" : "");
		out_str(o, names_signal((int)sig, tmp));
	}
	if (!v)
		out_char(o, '0');
}

static void family_out(struct out *o, const char *name, uint32_t kind, uint64_t v)
{
	const struct family *f = family_find(name);
	char tmp[16];

	if (!strcmp(name, "signal")) {
		out_str(o, names_signal((int)(int32_t)v, tmp));
	} else if (!f) {
		if (kind == SCT_ARG_FLAGS)
			out_hex(o, v);
		else
			out_i64(o, (int32_t)v);
	} else if (!strcmp(name, "open")) {
		open_out(o, f, v);
	} else if (!strcmp(name, "clone")) {
		clone_out(o, f, v);
	} else if (!strcmp(name, "access") && !v) {
		out_str(o, "F_OK");
	} else if (f->flags) {
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

static void arg_out(struct out *o, const struct sct_arg_desc *d, uint64_t v,
		    const struct sct_syscall *sc, uint32_t *npaths, bool fd_marks)
{
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
		if (*npaths == 0)
			path_out(o, sc->path_flags, sc->path, v);
		else if (*npaths == 1)
			path_out(o, sc->path2_flags, sc->path2, v);
		else
			out_hex(o, v);
		++*npaths;
		break;
	case SCT_ARG_FLAGS:
	case SCT_ARG_ENUM:
		family_out(o, d->family, d->kind, v);
		break;
	case SCT_ARG_MODE:
		out_printf(o, "%#llo", (unsigned long long)v);
		break;
	case SCT_ARG_SIZE:
		out_u64(o, v);
		break;
	case SCT_ARG_PTR:
		if (v)
			out_hex(o, v);
		else
			out_str(o, "NULL");
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

void args_out(struct out *o, const struct sct_session *s, const struct sct_syscall *sc, bool fd_marks)
{
	const struct sct_syscall_args *a = sc->abi == SCT_ABI_NATIVE ? sct_session_syscall_args(s, sc->nr)
								      : sct_session_compat_syscall_args(s, sc->nr);
	const uint64_t v[SCT_MAX_ARGS] = { sc->arg0, sc->arg1, sc->arg2, sc->arg3, sc->arg4, sc->arg5 };
	uint32_t npaths = 0;

	if (sc->unfinished && !(sc->arg0 | sc->arg1 | sc->arg2 | sc->arg3 | sc->arg4 | sc->arg5) &&
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
	for (uint32_t k = 0; k < a->nargs; k++) {
		if (mode_unused(a, k, v))
			continue;
		out_str(o, k ? ", " : "");
		arg_out(o, &a->args[k], v[k], sc, &npaths, fd_marks);
	}
}
