// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which arguments of futex, fcntl and prctl strace shows, and how, by the op, command or option
 * before them: a call shows what that value makes the kernel read, no more (fcntl(3, F_GETFD),
 * futex(0x7f00, FUTEX_WAKE_PRIVATE, 1)). A value none of the tables names shows them all.
 * mremap shows its new address only with MREMAP_FIXED, mmap its offset in hex, arch_prctl its
 * address in hex (an option none names: its value in hex, as strace), ioctl its argument in hex
 * after a request none names.
 */
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#if defined(__x86_64__) || defined(__i386__)
#include <asm/prctl.h>
#endif

#include "argnames.def"
#include "args_layout.h"

struct layout {
	uint64_t value;
	const char *rest;
};

/*
 * After futex's op: val, utime (val2 for the requeue ops), uaddr2, val3. strace picks them by
 * the bits below FUTEX_PRIVATE_FLAG, whatever the bits above the kernel's ones.
 */
static const struct layout futex_layouts[] = {
	{ FUTEX_WAIT, "up" },		{ FUTEX_LOCK_PI, ".p" },	{ FUTEX_LOCK_PI2, ".p" },
	{ FUTEX_WAIT_BITSET, "up.b" },	{ FUTEX_WAKE_BITSET, "u..b" },	{ FUTEX_REQUEUE, "uup" },
	{ FUTEX_CMP_REQUEUE, "uupu" },	{ FUTEX_CMP_REQUEUE_PI, "uupu" }, { FUTEX_WAKE_OP, "uupx" },
	{ FUTEX_WAIT_REQUEUE_PI, "upp" }, { FUTEX_FD, "u" },		{ FUTEX_WAKE, "u" },
	{ FUTEX_UNLOCK_PI, "" },	{ FUTEX_TRYLOCK_PI, "" },
};

/* After fcntl's command: arg; a command that reads none shows none. */
static const struct layout fcntl_layouts[] = {
	{ F_SETFD, "c" },	  { F_SETOWN, "d" },	  { F_SETPIPE_SZ, "d" },  { F_DUPFD, "d" },
	{ F_DUPFD_CLOEXEC, "d" }, { F_SETFL, "o" },	  { F_SETLK, "p" },	  { F_SETLKW, "p" },
	{ F_OFD_SETLK, "p" },	  { F_OFD_SETLKW, "p" },  { F_GETLK, "p" },	  { F_OFD_GETLK, "p" },
	{ F_SETOWN_EX, "p" },	  { F_GETOWN_EX, "p" },	  { F_SETSIG, "s" },	  { F_GETOWN, "" },
	{ F_GETPIPE_SZ, "" },	  { F_GETFD, "" },	  { F_GETFL, "" },	  { F_GETLEASE, "" },
	{ F_GET_SEALS, "" },	  { F_GETSIG, "" },
};

/* After prctl's option: arg2 … arg5. */
static const struct layout prctl_layouts[] = {
	{ PR_GET_KEEPCAPS, "" },	 { PR_GET_SECCOMP, "" },	{ PR_GET_TIMERSLACK, "" },
	{ PR_GET_TIMING, "" },		 { PR_GET_DUMPABLE, "" },	{ PR_GET_SECUREBITS, "" },
	{ PR_GET_FP_MODE, "" },		 { PR_TASK_PERF_EVENTS_DISABLE, "" },
	{ PR_TASK_PERF_EVENTS_ENABLE, "" }, { PR_GET_CHILD_SUBREAPER, "p" }, { PR_GET_ENDIAN, "p" },
	{ PR_GET_FPEMU, "p" },		 { PR_GET_FPEXC, "p" },		{ PR_GET_NAME, "p" },
	{ PR_GET_PDEATHSIG, "p" },	 { PR_GET_TID_ADDRESS, "p" },	{ PR_GET_TSC, "p" },
	{ PR_GET_UNALIGN, "p" },	 { PR_SET_CHILD_SUBREAPER, "U" }, { PR_SET_ENDIAN, "U" },
	{ PR_SET_FPEMU, "U" },		 { PR_SET_FPEXC, "U" },		{ PR_SET_KEEPCAPS, "U" },
	{ PR_SET_TIMING, "U" },		 { PR_SET_DUMPABLE, "U" },	{ PR_CAPBSET_DROP, "U" },
	{ PR_CAPBSET_READ, "U" },	 { PR_SET_NAME, "p" },		{ PR_SET_PDEATHSIG, "s" },
	{ PR_SET_PTRACER, "d" },	 { PR_SET_TIMERSLACK, "d" },	{ PR_SET_TSC, "U" },
	{ PR_SET_NO_NEW_PRIVS, "Uxxx" }, { PR_SET_THP_DISABLE, "Uxxx" }, { PR_SET_IO_FLUSHER, "Uxxx" },
};

#if defined(__x86_64__) || defined(__i386__)
/* After arch_prctl's option: its address, or the value it sets. */
static const struct layout arch_prctl_layouts[] = {
	{ ARCH_GET_CPUID, "" },		 { ARCH_SET_CPUID, "U" }, { ARCH_REQ_XCOMP_PERM, "U" },
	{ ARCH_REQ_XCOMP_GUEST_PERM, "U" }, { ARCH_SET_GS, "p" }, { ARCH_SET_FS, "p" },
	{ ARCH_GET_FS, "p" },		 { ARCH_GET_GS, "p" },	  { ARCH_GET_XCOMP_SUPP, "p" },
	{ ARCH_GET_XCOMP_PERM, "p" },	 { ARCH_GET_XCOMP_GUEST_PERM, "p" }, { ARCH_MAP_VDSO_X32, "p" },
	{ ARCH_MAP_VDSO_32, "p" },	 { ARCH_MAP_VDSO_64, "p" },
};
#endif

/* The ioctl requests argnames.def names: their argument is as the HEADER describes it. */
#define IOCTL_VALUE(n) (uint32_t)(n),
static const uint32_t ioctl_named[] = { ARG_IOCTL(IOCTL_VALUE) };

static bool ioctl_is_named(uint32_t request)
{
	for (size_t i = 0; i < sizeof(ioctl_named) / sizeof(ioctl_named[0]); i++)
		if (ioctl_named[i] == request)
			return true;
	return false;
}

static const char *layout_find(const struct layout *l, size_t n, uint64_t value, const char *other)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].value == value)
			return l[i].rest;
	return other;
}

const char *args_layout(const struct sct_syscall_args *a, const uint64_t *v, uint32_t *at)
{
	for (uint32_t k = 0; k < a->nargs; k++) {
		const char *fam = a->args[k].family;
		uint32_t x = (uint32_t)v[k];

		*at = k;
		if (!strcmp(fam, "futex_op"))
			return layout_find(futex_layouts, sizeof(futex_layouts) / sizeof(futex_layouts[0]),
					   x & (FUTEX_PRIVATE_FLAG - 1), "uppx");
		if (!strcmp(fam, "fcntl"))
			return layout_find(fcntl_layouts, sizeof(fcntl_layouts) / sizeof(fcntl_layouts[0]), x,
					   "x");
		if (!strcmp(fam, "ioctl"))
			return ioctl_is_named(x) ? "-" : "x";
		if (!strcmp(fam, "mremap"))
			return x & MREMAP_FIXED ? "-" : "";
		if (!strcmp(fam, "mmap"))
			return "-x";
#if defined(__x86_64__) || defined(__i386__)
		if (!strcmp(fam, "arch_prctl"))
			return layout_find(arch_prctl_layouts,
					   sizeof(arch_prctl_layouts) / sizeof(arch_prctl_layouts[0]), x, "x");
#endif
		if (!strcmp(fam, "prctl"))
			return layout_find(prctl_layouts, sizeof(prctl_layouts) / sizeof(prctl_layouts[0]), x,
					   "xxxx");
	}
	return NULL;
}
