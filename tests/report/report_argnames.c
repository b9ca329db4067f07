// SPDX-License-Identifier: BSD-2-Clause
/*
 * The value families beyond the file calls (report/lib/argnames.def, args_layout.c), exactly as
 * strace prints the same call: futex ops, prctl and arch_prctl options, clock ids, socket
 * domain/type/protocol, fcntl commands, ioctl requests, mmap/mprotect/madvise/mremap, signals,
 * wait options, pipe2's flags, rseq in hex, clone by argument name; values no name covers
 * in hex or decimal; the addresses mmap, mremap and brk return in hex. The descriptions are
 * those sct-record writes from tracefs (record/host/syscall_formats.c).
 */
#include <asm/prctl.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/netlink.h>
#include <linux/prctl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "args_text.h"
#include "outbuf.h"
#include "report_helpers.h"

TestSuite(report_argnames, .fini = rt_cleanup);

#define ARG(n, k, f) { n, SCT_ARG_##k, f }
static const struct sct_syscall_args descs[] = {
	{ SYS_futex, 6, { ARG("uaddr", PTR, ""), ARG("op", ENUM, "futex_op"), ARG("val", INT, ""),
			  ARG("utime", PTR, ""), ARG("uaddr2", PTR, ""), ARG("val3", INT, "") } },
	{ SYS_prctl, 5, { ARG("option", ENUM, "prctl"), ARG("arg2", INT, ""), ARG("arg3", INT, ""),
			  ARG("arg4", INT, ""), ARG("arg5", INT, "") } },
	{ SYS_clock_gettime, 2, { ARG("which_clock", ENUM, "clock"), ARG("tp", PTR, "") } },
	{ SYS_clock_nanosleep, 4, { ARG("which_clock", ENUM, "clock"), ARG("flags", FLAGS, "timer"),
				    ARG("rqtp", PTR, ""), ARG("rmtp", PTR, "") } },
	{ SYS_socket, 3, { ARG("family", ENUM, "socket_domain"), ARG("type", ENUM, "socket_type"),
			   ARG("protocol", ENUM, "socket_protocol") } },
	{ SYS_accept4, 4, { ARG("fd", FD, ""), ARG("upeer_sockaddr", PTR, ""), ARG("upeer_addrlen", PTR, ""),
			    ARG("flags", FLAGS, "socket_flags") } },
	{ SYS_fcntl, 3, { ARG("fd", FD, ""), ARG("cmd", ENUM, "fcntl"), ARG("arg", INT, "") } },
	{ SYS_ioctl, 3, { ARG("fd", FD, ""), ARG("cmd", ENUM, "ioctl"), ARG("arg", PTR, "") } },
	{ SYS_mmap, 6, { ARG("addr", PTR, ""), ARG("len", SIZE, ""), ARG("prot", FLAGS, "mmap_prot"),
			 ARG("flags", FLAGS, "mmap"), ARG("fd", FD, ""), ARG("off", INT, "") } },
	{ SYS_mprotect, 3, { ARG("start", PTR, ""), ARG("len", SIZE, ""), ARG("prot", FLAGS, "mmap_prot") } },
	{ SYS_munmap, 2, { ARG("addr", PTR, ""), ARG("len", SIZE, "") } },
	{ SYS_madvise, 3, { ARG("start", PTR, ""), ARG("len_in", SIZE, ""), ARG("behavior", ENUM, "madvise") } },
	{ SYS_mremap, 5, { ARG("addr", PTR, ""), ARG("old_len", INT, ""), ARG("new_len", INT, ""),
			   ARG("flags", FLAGS, "mremap"), ARG("new_addr", PTR, "") } },
	{ SYS_brk, 1, { ARG("brk", PTR, "") } },
	{ SYS_rt_sigprocmask, 4, { ARG("how", ENUM, "sigprocmask"), ARG("nset", PTR, ""), ARG("oset", PTR, ""),
				   ARG("sigsetsize", SIZE, "") } },
	{ SYS_rt_sigaction, 4, { ARG("sig", ENUM, "signal"), ARG("act", PTR, ""), ARG("oact", PTR, ""),
				 ARG("sigsetsize", SIZE, "") } },
	{ SYS_kill, 2, { ARG("pid", INT, ""), ARG("sig", ENUM, "signal") } },
	{ SYS_tkill, 2, { ARG("pid", INT, ""), ARG("sig", ENUM, "signal") } },
	{ SYS_lseek, 3, { ARG("fd", FD, ""), ARG("offset", INT, ""), ARG("whence", ENUM, "whence") } },
	{ SYS_openat, 4, { ARG("dfd", DIRFD, ""), ARG("filename", PATH, ""), ARG("flags", FLAGS, "open"),
			   ARG("mode", MODE, "") } },
	{ SYS_access, 2, { ARG("filename", PATH, ""), ARG("mode", FLAGS, "access") } },
	{ SYS_tgkill, 3, { ARG("tgid", INT, ""), ARG("pid", INT, ""), ARG("sig", ENUM, "signal") } },
	{ SYS_wait4, 4, { ARG("upid", INT, ""), ARG("stat_addr", PTR, ""), ARG("options", FLAGS, "wait"),
			  ARG("ru", PTR, "") } },
	{ SYS_waitid, 5, { ARG("which", ENUM, "idtype"), ARG("upid", INT, ""), ARG("infop", PTR, ""),
			   ARG("options", FLAGS, "wait"), ARG("ru", PTR, "") } },
	{ SYS_unshare, 1, { ARG("unshare_flags", FLAGS, "clone") } },
	{ SYS_prlimit64, 4, { ARG("pid", INT, ""), ARG("resource", ENUM, "rlimit"), ARG("new_rlim", PTR, ""),
			      ARG("old_rlim", PTR, "") } },
	{ SYS_arch_prctl, 2, { ARG("option", ENUM, "arch_prctl"), ARG("arg2", INT, "") } },
	{ SYS_pipe2, 2, { ARG("fildes", PTR, ""), ARG("flags", FLAGS, "open_flags") } },
	{ SYS_dup3, 3, { ARG("oldfd", FD, ""), ARG("newfd", FD, ""), ARG("flags", FLAGS, "open_flags") } },
	{ SYS_rseq, 4, { ARG("rseq", PTR, ""), ARG("rseq_len", FLAGS, ""), ARG("flags", FLAGS, ""),
			 ARG("sig", FLAGS, "") } },
	{ SYS_clone, 5, { ARG("clone_flags", FLAGS, "clone"), ARG("newsp", INT, ""), ARG("parent_tidptr", PTR, ""),
			  ARG("child_tidptr", PTR, ""), ARG("tls", INT, "") } },
};

/* Strings in place: Criterion hands a parameter to a new process, where pointers mean nothing. */
struct names_case {
	uint32_t nr;
	uint64_t a[6];
	char want[320];
};

#define PRIV(op) ((op) | FUTEX_PRIVATE_FLAG)

ParameterizedTestParameters(report_argnames, as_strace_prints_them)
{
	static struct names_case cases[] = {
		{ SYS_futex, { 0x7f00, PRIV(FUTEX_WAIT), 2, 0, 0x5, 0x6 }, "0x7f00, FUTEX_WAIT_PRIVATE, 2, NULL" },
		{ SYS_futex, { 0x7f00, PRIV(FUTEX_WAKE), 1, 0x4, 0x5, 0x6 }, "0x7f00, FUTEX_WAKE_PRIVATE, 1" },
		{ SYS_futex, { 0x7f00, FUTEX_WAKE, 2147483647 }, "0x7f00, FUTEX_WAKE, 2147483647" },
		{ SYS_futex, { 0x7f00, PRIV(FUTEX_WAIT_BITSET) | FUTEX_CLOCK_REALTIME, 0, 0x7ffc10, 0x9, 0xffffffff },
		  "0x7f00, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, 0x7ffc10, FUTEX_BITSET_MATCH_ANY" },
		{ SYS_futex, { 0x7f00, FUTEX_UNLOCK_PI, 1, 2, 3, 4 }, "0x7f00, FUTEX_UNLOCK_PI" },
		{ SYS_futex, { 0x7f00, PRIV(FUTEX_CMP_REQUEUE), 1, 2147483647, 0x7f08, 0 },
		  "0x7f00, FUTEX_CMP_REQUEUE_PRIVATE, 1, 2147483647, 0x7f08, 0" },
		{ SYS_futex, { 0x7f00, 0x7f, 1, 2, 3, 4 }, "0x7f00, 0x7f /* FUTEX_??? */, 1, 0x2, 0x3, 0x4" },
		{ SYS_prlimit64, { 0, RLIMIT_NOFILE, 0, 0x7ffc00 }, "0, RLIMIT_NOFILE, NULL, 0x7ffc00" },
		{ SYS_prlimit64, { 4242, RLIMIT_RTTIME, 0x7ffc10, 0 }, "4242, RLIMIT_RTTIME, 0x7ffc10, NULL" },
		{ SYS_prlimit64, { 0, 16, 0, 0x7ffc00 }, "0, 0x10 /* RLIMIT_??? */, NULL, 0x7ffc00" },
		{ SYS_prctl, { PR_SET_NAME, 0x7ffc00 }, "PR_SET_NAME, 0x7ffc00" },
		{ SYS_prctl, { PR_SET_NO_NEW_PRIVS, 1 }, "PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0" },
		{ SYS_prctl, { PR_GET_DUMPABLE, 7 }, "PR_GET_DUMPABLE" },
		{ SYS_prctl, { PR_SET_PDEATHSIG, SIGKILL }, "PR_SET_PDEATHSIG, SIGKILL" },
		{ SYS_prctl, { 1000, 1, 2, 0, 4 }, "0x3e8 /* PR_??? */, 0x1, 0x2, 0, 0x4" },
		{ SYS_clock_nanosleep, { CLOCK_MONOTONIC, 0, 0x7ffc00, 0 }, "CLOCK_MONOTONIC, 0, 0x7ffc00, NULL" },
		{ SYS_clock_nanosleep, { CLOCK_REALTIME, TIMER_ABSTIME, 0x7ffc00, 0 },
		  "CLOCK_REALTIME, TIMER_ABSTIME, 0x7ffc00, NULL" },
		{ SYS_clock_gettime, { CLOCK_BOOTTIME, 0x7ffc00 }, "CLOCK_BOOTTIME, 0x7ffc00" },
		{ SYS_clock_gettime, { 99, 0x10 }, "0x63 /* CLOCK_??? */, 0x10" },
		{ SYS_socket, { AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP },
		  "AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP" },
		{ SYS_socket, { AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0 },
		  "AF_INET6, SOCK_DGRAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP" },
		{ SYS_socket, { AF_UNIX, SOCK_SEQPACKET, 0 }, "AF_UNIX, SOCK_SEQPACKET, 0" },
		{ SYS_socket, { AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE },
		  "AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE" },
		{ SYS_socket, { 200, 15 | 0x100, 7 }, "0xc8 /* AF_??? */, 0x10f /* SOCK_??? */, 7" },
		{ SYS_accept4, { 3, 0, 0, SOCK_CLOEXEC }, "3, NULL, NULL, SOCK_CLOEXEC" },
		{ SYS_fcntl, { 3, F_SETFD, FD_CLOEXEC }, "3, F_SETFD, FD_CLOEXEC" },
		{ SYS_fcntl, { 3, F_GETFL, 0x10 }, "3, F_GETFL" },
		{ SYS_fcntl, { 3, F_SETFL, O_RDWR | O_NONBLOCK }, "3, F_SETFL, O_RDWR|O_NONBLOCK" },
		{ SYS_fcntl, { 3, F_DUPFD_CLOEXEC, 10 }, "3, F_DUPFD_CLOEXEC, 10" },
		{ SYS_fcntl, { 3, F_SETLK, 0x7ffc00 }, "3, F_SETLK, 0x7ffc00" },
		{ SYS_fcntl, { 3, 9999, 0x10 }, "3, 0x270f /* F_??? */, 0x10" },
		{ SYS_ioctl, { 1, TCGETS, 0x7ffc00 }, "1, TCGETS, 0x7ffc00" },
		{ SYS_ioctl, { 3, FIONREAD, 0x7ffc00 }, "3, FIONREAD, 0x7ffc00" },
		{ SYS_ioctl, { 1, TIOCGWINSZ, 0x7ffc00 }, "1, TIOCGWINSZ, 0x7ffc00" },
		{ SYS_ioctl, { 3, 0xc0ffee, 0x7ffc00 }, "3, _IOC(_IOC_NONE, 0xff, 0xee, 0xc0), 0x7ffc00" },
		{ SYS_mmap, { 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 },
		  "NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0" },
		{ SYS_mmap, { 0x7f0000, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE, 3,
			      0x26000 },
		  "0x7f0000, 8192, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0x26000" },
		{ SYS_mprotect, { 0x7f0000, 4096, PROT_NONE }, "0x7f0000, 4096, PROT_NONE" },
		{ SYS_munmap, { 0x7f0000, 4096 }, "0x7f0000, 4096" },
		{ SYS_madvise, { 0x7f0000, 8192, MADV_DONTNEED }, "0x7f0000, 8192, MADV_DONTNEED" },
		{ SYS_madvise, { 0x7f0000, 8192, 77 }, "0x7f0000, 8192, 0x4d /* MADV_??? */" },
		{ SYS_madvise, { 0x7f0000, 4096, 101 }, "0x7f0000, 4096, MADV_SOFT_OFFLINE" },
		{ SYS_mremap, { 0x7f0000, 4096, 8192, MREMAP_MAYMOVE, 0x9 }, "0x7f0000, 4096, 8192, MREMAP_MAYMOVE" },
		{ SYS_mremap, { 0x7f0000, 4096, 8192, MREMAP_MAYMOVE | MREMAP_FIXED, 0x800000 },
		  "0x7f0000, 4096, 8192, MREMAP_MAYMOVE|MREMAP_FIXED, 0x800000" },
		{ SYS_brk, { 0 }, "NULL" },
		{ SYS_brk, { 0x55d000 }, "0x55d000" },
		{ SYS_rt_sigprocmask, { SIG_BLOCK, 0x7ffc00, 0x7ffc80, 8 }, "SIG_BLOCK, 0x7ffc00, 0x7ffc80, 8" },
		{ SYS_rt_sigprocmask, { SIG_SETMASK, 0x7ffc00, 0, 8 }, "SIG_SETMASK, 0x7ffc00, NULL, 8" },
		{ SYS_rt_sigaction, { SIGINT, 0x10, 0, 8 }, "SIGINT, 0x10, NULL, 8" },
		{ SYS_kill, { 1234, 0 }, "1234, 0" },
		{ SYS_tgkill, { 7, 8, SIGUSR1 }, "7, 8, SIGUSR1" },
		{ SYS_wait4, { (uint32_t)-1, 0x7ffc00, WNOHANG, 0 }, "-1, 0x7ffc00, WNOHANG, NULL" },
		{ SYS_wait4, { (uint32_t)-1, 0, WNOHANG | __WALL, 0 }, "-1, NULL, WNOHANG|__WALL, NULL" },
		{ SYS_wait4, { 5, 0, 0, 0 }, "5, NULL, 0, NULL" },
		{ SYS_waitid, { P_PID, 5, 0x10, WEXITED | WNOWAIT, 0 }, "P_PID, 5, 0x10, WEXITED|WNOWAIT, NULL" },
		{ SYS_wait4, { (uint32_t)-1, 0, WNOHANG | WUNTRACED, 0 }, "-1, NULL, WNOHANG|WSTOPPED, NULL" },
		{ SYS_unshare, { CLONE_NEWNS | CLONE_NEWPID }, "CLONE_NEWNS|CLONE_NEWPID" },
		{ SYS_arch_prctl, { ARCH_SET_FS, 0x7f3b2c4d5740 }, "ARCH_SET_FS, 0x7f3b2c4d5740" },
		{ SYS_arch_prctl, { ARCH_GET_CPUID, 0x10 }, "ARCH_GET_CPUID" },
		{ SYS_arch_prctl, { 0x3001, 0 }, "0x3001 /* ARCH_??? */, 0" },
		{ SYS_clone, { CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD, 0, 0x11, 0x7f850acafa10, 0x22 },
		  "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		  "child_tidptr=0x7f850acafa10" },
		{ SYS_clone, { CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
			       CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID, 0x7f3e0de40ff0,
			       0x7f3e0de419d0, 0x7f3e0de419d0, 0x7f3e0de41700 },
		  "child_stack=0x7f3e0de40ff0, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		  "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, parent_tid=0x7f3e0de419d0, "
		  "tls=0x7f3e0de41700, child_tidptr=0x7f3e0de419d0" },
		/* pipe2's fds are not read: its address, as a pointer the recorder did not read */
		{ SYS_pipe2, { 0x7ffc00, O_CLOEXEC | O_NONBLOCK }, "0x7ffc00, O_NONBLOCK|O_CLOEXEC" },
		{ SYS_pipe2, { 0x7ffc00, 0 }, "0x7ffc00, 0" },
		{ SYS_pipe2, { 0x7ffc00, O_DIRECT }, "0x7ffc00, O_DIRECT" },
		/* O_NOTIFICATION_PIPE (<linux/watch_queue.h>, which does not build beside <fcntl.h>) */
		{ SYS_pipe2, { 0x7ffc00, O_EXCL }, "0x7ffc00, O_EXCL" },
		{ SYS_pipe2, { 0x7ffc00, 0x40000000 }, "0x7ffc00, 0x40000000 /* O_??? */" },
		{ SYS_pipe2, { 0x7ffc00, O_CLOEXEC | 0x40000000 }, "0x7ffc00, O_CLOEXEC|0x40000000" },
		{ SYS_pipe2, { 0, O_CLOEXEC }, "NULL, O_CLOEXEC" },
		{ SYS_dup3, { 1, 10, O_CLOEXEC }, "1, 10, O_CLOEXEC" },
		/* rseq as strace 6.1 shows it, which does not decode it: in hex */
		{ SYS_rseq, { 0x7f5bac7d9060, 0x20, 0, 0x53053053 }, "0x7f5bac7d9060, 0x20, 0, 0x53053053" },
		{ SYS_rseq, { 0x7f5bac7d9060, 0x20, 1, 0x53053053 }, "0x7f5bac7d9060, 0x20, 0x1, 0x53053053" },
		/* what no name covers: as strace, the bits left in hex, a value none names with its comment */
		{ SYS_futex, { 0x7f00, FUTEX_WAKE | 0x400, 1, 2, 3, 4 }, "0x7f00, 0x401 /* FUTEX_??? */, 1" },
		{ SYS_mprotect, { 0x7f0000, 4096, 0x80 }, "0x7f0000, 4096, 0x80 /* PROT_??? */" },
		{ SYS_mprotect, { 0x7f0000, 4096, PROT_READ | 0x80 }, "0x7f0000, 4096, PROT_READ|0x80" },
		{ SYS_mmap, { 0, 4096, PROT_READ | 0x80, MAP_PRIVATE | MAP_ANONYMOUS | 0x1000000, (uint32_t)-1, 0x1000 },
		  "NULL, 4096, PROT_READ|0x80, MAP_PRIVATE|MAP_ANONYMOUS|0x1000000, -1, 0x1000" },
		{ SYS_mmap, { 0x7f0000, 4096, 0, 0, (uint32_t)-1, 0 }, "0x7f0000, 4096, PROT_NONE, MAP_FILE, -1, 0" },
		{ SYS_mmap, { 0x7f0000, 4096, 0, MAP_ANONYMOUS, (uint32_t)-1, 0 },
		  "0x7f0000, 4096, PROT_NONE, MAP_FILE|MAP_ANONYMOUS, -1, 0" },
		{ SYS_mmap, { 0x7f0000, 4096, 0, 0xf, (uint32_t)-1, 0 }, "0x7f0000, 4096, PROT_NONE, 0xf /* MAP_??? */, -1, 0" },
		{ SYS_mmap, { 0, 4096, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, 3, 0 },
		  "NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE|MAP_SYNC, 3, 0" },
		{ SYS_socket, { AF_INET, SOCK_STREAM | 0x100, 0 }, "AF_INET, SOCK_STREAM|0x100 /* SOCK_??? */, IPPROTO_IP" },
		{ SYS_socket, { AF_INET, SOCK_NONBLOCK | SOCK_CLOEXEC | 0x10, 0 },
		  "AF_INET, SOCK_CLOEXEC|SOCK_NONBLOCK|0x10, IPPROTO_IP" },
		{ SYS_socket, { AF_INET, SOCK_STREAM, 77 }, "AF_INET, SOCK_STREAM, 0x4d /* IPPROTO_??? */" },
		{ SYS_accept4, { 3, 0, 0, SOCK_CLOEXEC | 0x4 }, "3, NULL, NULL, SOCK_CLOEXEC|0x4" },
		{ SYS_clock_nanosleep, { CLOCK_MONOTONIC, TIMER_ABSTIME | 4, 0, 0 },
		  "CLOCK_MONOTONIC, TIMER_ABSTIME|0x4, NULL, NULL" },
		{ SYS_clock_nanosleep, { CLOCK_MONOTONIC, 4, 0, 0 }, "CLOCK_MONOTONIC, 0x4 /* TIMER_??? */, NULL, NULL" },
		{ SYS_unshare, { 0x10 }, "0x10 /* CLONE_??? */" },
		{ SYS_unshare, { CLONE_NEWNET | 0x10 }, "CLONE_NEWNET|0x10" },
		{ SYS_fcntl, { 3, F_SETFD, 0x10 }, "3, F_SETFD, 0x10 /* FD_??? */" },
		{ SYS_fcntl, { 3, F_SETFD, 0 }, "3, F_SETFD, 0" },
		{ SYS_wait4, { (uint32_t)-1, 0, 0x100000, 0 }, "-1, NULL, 0x100000 /* W??? */, NULL" },
		{ SYS_wait4, { (uint32_t)-1, 0, WNOHANG | __WALL | 0x100000, 0 }, "-1, NULL, WNOHANG|__WALL|0x100000, NULL" },
		{ SYS_waitid, { 7, 5, 0, WEXITED, 0 }, "0x7 /* P_??? */, 5, NULL, WEXITED, NULL" },
		{ SYS_rt_sigprocmask, { 7, 0, 0, 8 }, "0x7 /* SIG_??? */, NULL, NULL, 8" },
		{ SYS_lseek, { 3, 0, 7 }, "3, 0, 0x7 /* SEEK_??? */" },
		{ SYS_lseek, { 3, 0, SEEK_END }, "3, 0, SEEK_END" },
		{ SYS_openat, { (uint32_t)AT_FDCWD, 0x10, O_ACCMODE | 0x40000000, 0 }, "AT_FDCWD, 0x10, O_ACCMODE|0x40000000" },
		/* strace's order of the open flags, and its name of O_ASYNC */
		{ SYS_openat, { (uint32_t)AT_FDCWD, 0x10, O_RDWR | O_TMPFILE | O_EXCL, 0600 },
		  "AT_FDCWD, 0x10, O_RDWR|O_EXCL|O_TMPFILE, 0600" },
		{ SYS_openat, { (uint32_t)AT_FDCWD, 0x10, O_WRONLY | O_CREAT | O_SYNC, 0600 },
		  "AT_FDCWD, 0x10, O_WRONLY|O_CREAT|O_SYNC, 0600" },
		{ SYS_openat, { (uint32_t)AT_FDCWD, 0x10, O_RDONLY | O_ASYNC, 0 }, "AT_FDCWD, 0x10, O_RDONLY|FASYNC" },
		{ SYS_access, { 0x10, 0x10 }, "0x10, 0x10 /* ?_OK */" },
		{ SYS_ioctl, { 3, 0x54ff, 0x7ffc00 }, "3, _IOC(_IOC_NONE, 0x54, 0xff, 0), 0x7ffc00" },
		{ SYS_ioctl, { 3, 0xc0045499, 0x7ffc00 }, "3, _IOC(_IOC_READ|_IOC_WRITE, 0x54, 0x99, 0x4), 0x7ffc00" },
		{ SYS_ioctl, { 3, 0x40085499, 0x7ffc00 }, "3, _IOC(_IOC_WRITE, 0x54, 0x99, 0x8), 0x7ffc00" },
		{ SYS_ioctl, { 3, TIOCGPTN, 0x7ffc00 }, "3, TIOCGPTN, 0x7ffc00" },
		{ SYS_ioctl, { 3, TIOCGPTN, 0 }, "3, TIOCGPTN, NULL" },
		{ SYS_ioctl, { 3, 0x7, 0 }, "3, _IOC(_IOC_NONE, 0, 0x7, 0), 0" },
		/* signals as strace names them: the real-time ones from SIGRTMIN, another number in decimal */
		{ SYS_kill, { 1234, SIGTERM }, "1234, SIGTERM" },
		{ SYS_kill, { 1234, SIGIO }, "1234, SIGIO" },
		{ SYS_kill, { 1234, SIGABRT }, "1234, SIGABRT" },
		{ SYS_kill, { 1234, 32 }, "1234, SIGRTMIN" },
		{ SYS_kill, { 1234, 34 }, "1234, SIGRT_2" },
		{ SYS_kill, { 1234, 64 }, "1234, SIGRT_32" },
		{ SYS_kill, { 1234, 65 }, "1234, 65" },
		{ SYS_kill, { 1234, (uint32_t)-1 }, "1234, -1" },
		{ SYS_tkill, { 1234, SIGUSR1 }, "1234, SIGUSR1" },
		{ SYS_rt_sigaction, { 0, 0, 0, 8 }, "0, NULL, NULL, 8" },
		{ SYS_rt_sigaction, { 99, 0, 0, 8 }, "99, NULL, NULL, 8" },
		{ SYS_prctl, { PR_SET_PDEATHSIG, 40 }, "PR_SET_PDEATHSIG, SIGRT_8" },
		{ SYS_clone, { CLONE_VM | 0x1000000000ull | 0x3f, 0, 0, 0, 0 },
		  "child_stack=NULL, flags=CLONE_VM|0x1000000000|SIGRT_31" },
	};

	return cr_make_param_array(struct names_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct names_case *c, report_argnames, as_strace_prints_them)
{
	const char *path = rt_path("names.sct");
	struct sct_syscall sc = { .nr = c->nr, .arg0 = c->a[0], .arg1 = c->a[1], .arg2 = c->a[2],
				  .arg3 = c->a[3], .arg4 = c->a[4], .arg5 = c->a[5] };
	struct out o = { .cap = 4096, .fd = -1 };
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0;

	rt_close(rt_open_args(path, "h", descs, sizeof(descs) / sizeof(descs[0])));
	r = sct_reader_open(path, &err);
	cr_assert(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	o.buf = malloc(o.cap);
	cr_assert(o.buf);
	args_out(&o, sct_reader_session(r), &sc, false);
	cr_assert_eq(o.len, strlen(c->want), "got '%.*s', want '%s'", (int)o.len, o.buf, c->want);
	cr_assert(!memcmp(o.buf, c->want, o.len), "got '%.*s', want '%s'", (int)o.len, o.buf, c->want);
	free(o.buf);
	sct_reader_close(r);
}

static bool line_ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static void call(struct sct_writer *w, uint64_t rel_ns, uint32_t nr, int64_t ret, const uint64_t a[6])
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = 10,
					  .ret = ret, .pid = 7, .tid = 7, .nr = nr, .arg0 = a[0], .arg1 = a[1],
					  .arg2 = a[2], .arg3 = a[3], .arg4 = a[4], .arg5 = a[5] };
	rt_record(w, &r);
}

/* mmap, mremap and brk return addresses: in hex, as strace shows them; a failure as -errno. */
Test(report_argnames, address_returns_in_hex)
{
	const char *path = rt_path("addr.sct");
	struct sct_writer *w = rt_open_args(path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	char *out;

	call(w, 100, SYS_mmap, 0x7f1234560000,
	     (const uint64_t[6]){ 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 });
	call(w, 200, SYS_brk, 0x55d000, (const uint64_t[6]){ 0 });
	call(w, 300, SYS_mmap, -12, (const uint64_t[6]){ 0, 1ull << 46, PROT_READ, MAP_SHARED, 3, 0 });
	call(w, 400, SYS_mremap, 0x7f0000800000, (const uint64_t[6]){ 0x7f0000, 4096, 8192, MREMAP_MAYMOVE });
	call(w, 500, SYS_munmap, 0, (const uint64_t[6]){ 0x7f1234560000, 4096 });
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) "
			 "= 0x7f1234560000 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 1), "brk(NULL) = 0x55d000 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 2), "mmap(NULL, 70368744177664, PROT_READ, MAP_SHARED, 3, 0) = -12 ENOMEM "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 3), "mremap(0x7f0000, 4096, 8192, MREMAP_MAYMOVE) = 0x7f0000800000 "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 4), "munmap(0x7f1234560000, 4096) = 0 <0.000000> (? 7/7) cg=cgroup:0");
	free(out);
}

/* An ia32 mmap2 (no description: its registers) returns an address too. */
Test(report_argnames, compat_address_returns_in_hex)
{
	static const struct sct_syscall_args compat[] = {
		{ 5, 3, { ARG("filename", PATH, ""), ARG("flags", FLAGS, "open"), ARG("mode", MODE, "") } },
	};
	const char *path = rt_path("compat.sct");
	struct sct_writer *w = rt_open_args_compat(path, "h", descs, sizeof(descs) / sizeof(descs[0]), compat, 1);
	struct sct_record r = { .type = SCT_REC_SYSCALL };
	char *out;

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + 1000, .duration_ns = 10, .ret = 0xf7f00000,
					  .pid = 7, .tid = 7, .nr = 192, .abi = SCT_ABI_COMPAT, .arg1 = 4096,
					  .arg2 = PROT_READ, .arg3 = MAP_PRIVATE | MAP_ANONYMOUS, .arg4 = 0xffffffff };
	rt_record(w, &r);
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "compat:mmap2(0, 0x1000, 0x1, 0x22, 0xffffffff, 0) = 0xf7f00000 "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	free(out);
}

/* A trace recorded without --args shows mmap's address in hex too. */
Test(report_argnames, address_returns_in_hex_without_arguments)
{
	const char *path = rt_path("noargs.sct");
	struct sct_writer *w = rt_open(path, "h", 0);
	char *out;

	call(w, 100, SYS_mmap, 0x7f1234560000, (const uint64_t[6]){ 0 });
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "mmap(? 7/7) = 0x7f1234560000 <0.000000> cg=cgroup:0");
	free(out);
}

/* The names in what users read: sct-report's timeline and sct-convert's args column (CSV, JSON Lines). */
Test(report_argnames, timeline_and_convert_show_the_names)
{
	const char *path = rt_path("convert.sct");
	struct sct_writer *w = rt_open_args(path, "h", descs, sizeof(descs) / sizeof(descs[0]));
	char *out;

	call(w, 100, SYS_futex, -11, (const uint64_t[6]){ 0x7f00, PRIV(FUTEX_WAIT), 2, 0 });
	call(w, 200, SYS_socket, 3, (const uint64_t[6]){ AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP });
	call(w, 300, SYS_ioctl, -25, (const uint64_t[6]){ 1, 0x54ff, 0x7ffc00 });
	call(w, 400, SYS_kill, 0, (const uint64_t[6]){ 1234, 34 });
	call(w, 500, SYS_prctl, -22, (const uint64_t[6]){ 1000, 1, 2, 0, 4 });
	rt_close(w);
	cr_assert_eq(rt_run(&out, "%s -T %s 2>/dev/null | cut -d' ' -f3-", rt_report(), path), 0);
	cr_assert_str_eq(rt_line(out, 0), "futex(0x7f00, FUTEX_WAIT_PRIVATE, 2, NULL) = -11 EAGAIN <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 1), "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP) = 3 <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 2), "ioctl(1, _IOC(_IOC_NONE, 0x54, 0xff, 0), 0x7ffc00) = -25 ENOTTY "
			 "<0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 3), "kill(1234, SIGRT_2) = 0 <0.000000> (? 7/7) cg=cgroup:0");
	cr_assert_str_eq(rt_line(out, 4), "prctl(0x3e8 /* PR_??? */, 0x1, 0x2, 0, 0x4) = -22 EINVAL <0.000000> "
			 "(? 7/7) cg=cgroup:0");
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to csv %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert(line_ends_with(rt_line(out, 1), ",futex,,,\"0x7f00, FUTEX_WAIT_PRIVATE, 2, NULL\"\r"), "%s", out);
	cr_assert(line_ends_with(rt_line(out, 3), ",ioctl,,,\"1, _IOC(_IOC_NONE, 0x54, 0xff, 0), 0x7ffc00\"\r"), "%s", out);
	cr_assert(line_ends_with(rt_line(out, 5), ",prctl,,,\"0x3e8 /* PR_??? */, 0x1, 0x2, 0, 0x4\"\r"), "%s", out);
	free(out);
	cr_assert_eq(rt_run(&out, "%s --to jsonl %s 2>/dev/null", rt_convert(), path), 0);
	cr_assert(line_ends_with(rt_line(out, 1), "\"name\":\"socket\",\"comm\":null,\"cgroup_path\":null,"
			       "\"args\":\"AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP\"}"), "%s", out);
	cr_assert(line_ends_with(rt_line(out, 3), "\"args\":\"1234, SIGRT_2\"}"), "%s", out);
	free(out);
}
