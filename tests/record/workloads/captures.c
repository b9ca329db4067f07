// SPDX-License-Identifier: BSD-2-Clause
/*
 * captures MODE ...: the ground truth of the memory sct-record --args captures (format 1.7).
 * Every mode waits for the go byte first, then makes its calls with raw syscalls.
 *   exit CODE     exit_group(CODE)
 *   net DIR       AF_INET on 127.0.0.1, AF_INET6 on ::1, AF_UNIX at DIR/s and at the abstract
 *                 name "sct-captures-PID": for each, in this order, bind the listener (port 0:
 *                 the kernel picks one), listen, getsockname of the listener, connect a client
 *                 to it, accept4 (the client's address), getsockname and getpeername of the
 *                 client; prints "inet LPORT CPORT", "inet6 LPORT CPORT" (host order); then
 *                 exit_group(3)
 *   data DIR      write "hello, world\n" into a pipe and read it back (64 bytes asked);
 *                 pwrite64 "0123456789" into DIR/d at 3 and pread64 it (64 asked); write 300
 *                 x "b" into the pipe; on UDP 127.0.0.1, sendto "ping" to its own address
 *                 and recvfrom it (64 asked, the sender's address back); prints "udp PORT";
 *                 then exit_group(3)
 *   exec          execve(self, [self, "exit-now", "3", "with space", "ünïcødé ✓", 300 x "a"],
 *                 ["A=1", "B=2", "C=3"])
 *   envs          execve("/nonexistent/sct-captures", [], envp), which fails with ENOENT, for
 *                 envp of N entries, N in envs_counts: first each array with its NULL the last
 *                 pointer of a page whose next page is not mapped, then each array starting at
 *                 each of the 8 pointer slots of a 64-byte line; prints "envs N..." (the sizes,
 *                 in envs_counts' order) first; then execveat(AT_FDCWD,
 *                 "/nonexistent/sct-captures", ["x", "y z"], ["A=1", "B=2", "C=3"], 0), which
 *                 fails with ENOENT too; then exit_group(3)
 *   signal        a SIGUSR1 handler (sigaction), then tgkill(self, self, SIGUSR1): the handler
 *                 returns through rt_sigreturn; then exit_group(3)
 *   exit-now CODE ...  exit_group(CODE), without waiting: what exec runs
 */
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "workload.h"

static long sys_socket(int family)
{
	long fd = syscall(SYS_socket, family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		wl_die("socket");
	return fd;
}

static void must(long ret, const char *what)
{
	if (ret < 0)
		wl_die(what);
}

/*
 * One listener at addr (len bytes) and one client connected to it, with each address call the
 * header lists; the listener's address as the kernel names it into bound, the client's into
 * client.
 */
static void net_pair(int family, const void *addr, socklen_t len, struct sockaddr_storage *bound,
		     struct sockaddr_storage *client)
{
	long l = sys_socket(family), c = sys_socket(family), a;
	struct sockaddr_storage peer;
	socklen_t blen = sizeof(*bound), plen = sizeof(peer), clen = sizeof(*client), rlen = sizeof(peer);

	must(syscall(SYS_bind, l, addr, len), "bind");
	must(syscall(SYS_listen, l, 4), "listen");
	must(syscall(SYS_getsockname, l, bound, &blen), "getsockname");
	must(syscall(SYS_connect, c, bound, blen), "connect");
	a = syscall(SYS_accept4, l, &peer, &plen, SOCK_CLOEXEC);
	must(a, "accept4");
	must(syscall(SYS_getsockname, c, client, &clen), "getsockname");
	must(syscall(SYS_getpeername, c, &peer, &rlen), "getpeername");
	syscall(SYS_close, a);
	syscall(SYS_close, c);
	syscall(SYS_close, l);
}

static void net(const char *dir)
{
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct sockaddr_storage bound, client;
	socklen_t alen;
	int n;

	net_pair(AF_INET, &v4, sizeof(v4), &bound, &client);
	wl_say("inet %u %u\n", ntohs(((struct sockaddr_in *)&bound)->sin_port),
	       ntohs(((struct sockaddr_in *)&client)->sin_port));
	net_pair(AF_INET6, &v6, sizeof(v6), &bound, &client);
	wl_say("inet6 %u %u\n", ntohs(((struct sockaddr_in6 *)&bound)->sin6_port),
	       ntohs(((struct sockaddr_in6 *)&client)->sin6_port));
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/s", dir);
	net_pair(AF_UNIX, &un, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(un.sun_path) + 1),
		 &bound, &client);
	memset(un.sun_path, 0, sizeof(un.sun_path));
	n = snprintf(un.sun_path + 1, sizeof(un.sun_path) - 1, "sct-captures-%d", (int)getpid());
	alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	net_pair(AF_UNIX, &un, alen, &bound, &client);
}

static void must_n(long ret, long n, const char *what)
{
	if (ret != n)
		wl_die(what);
}

static void data(const char *dir)
{
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in from;
	socklen_t len = sizeof(v4), flen = sizeof(from);
	char path[4096], buf[300];
	int pfd[2];
	long fd, u;

	must(syscall(SYS_pipe2, pfd, O_CLOEXEC), "pipe2");
	must_n(syscall(SYS_write, pfd[1], "hello, world\n", 13), 13, "write");
	must_n(syscall(SYS_read, pfd[0], buf, 64), 13, "read");
	snprintf(path, sizeof(path), "%s/d", dir);
	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	must(fd, "open");
	must_n(syscall(SYS_pwrite64, fd, "0123456789", 10, 3), 10, "pwrite64");
	must_n(syscall(SYS_pread64, fd, buf, 64, 3), 10, "pread64");
	memset(buf, 'b', 300);
	must_n(syscall(SYS_write, pfd[1], buf, 300), 300, "write");
	u = syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	must(u, "socket");
	must(syscall(SYS_bind, u, &v4, sizeof(v4)), "bind");
	must(syscall(SYS_getsockname, u, &v4, &len), "getsockname");
	wl_say("udp %u\n", ntohs(v4.sin_port));
	must_n(syscall(SYS_sendto, u, "ping", 4, 0, &v4, sizeof(v4)), 4, "sendto");
	must_n(syscall(SYS_recvfrom, u, buf, 64, 0, &from, &flen), 4, "recvfrom");
}

static void exec_self(const char *self)
{
	char longarg[301];
	char *const argv[] = { (char *)self, "exit-now", "3", "with space",
			       "\xc3\xbcn\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9 \xe2\x9c\x93", longarg, NULL };
	char *const envp[] = { "A=1", "B=2", "C=3", NULL };

	memset(longarg, 'a', 300);
	longarg[300] = '\0';
	syscall(SYS_execve, self, argv, envp);
	wl_die("execve");
}

static void on_signal(int sig)
{
	(void)sig;
}

/* libc's sigaction() gives the handler the restorer that calls rt_sigreturn. */
static void signal_self(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	if (sigaction(SIGUSR1, &sa, NULL))
		wl_die("sigaction");
	must(syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1), "tgkill");
}

/* The environment sizes of envs: around the recorder's chunks of 8 pointers and its count's end. */
static const long envs_counts[] = { 0, 1, 7, 8, 9, 17, 1023, 1024, 1100 };
#define ENVS_COUNTS (sizeof(envs_counts) / sizeof(envs_counts[0]))
#define ENVS_SLOTS 1200
#define ENVS_PAGE 4096

static void envs_exec(char **envp)
{
	char *const argv[] = { NULL };

	if (syscall(SYS_execve, "/nonexistent/sct-captures", argv, envp) != -1)
		wl_die("execve of a missing program");
}

static void envs_execveat(void)
{
	char *const argv[] = { "x", "y z", NULL };
	char *const envp[] = { "A=1", "B=2", "C=3", NULL };

	if (syscall(SYS_execveat, AT_FDCWD, "/nonexistent/sct-captures", argv, envp, 0) != -1)
		wl_die("execveat of a missing program");
}

static void envs(void)
{
	static char *line[ENVS_SLOTS + 8] __attribute__((aligned(64)));
	size_t bytes = (ENVS_SLOTS / (ENVS_PAGE / sizeof(char *)) + 2) * ENVS_PAGE;
	char **mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char **end = (char **)((char *)mem + bytes - ENVS_PAGE);
	static char entry[] = "E=1";
	size_t k, i, used;
	char sizes[128];

	if (mem == MAP_FAILED || mprotect(end, ENVS_PAGE, PROT_NONE))
		wl_die("mmap");
	for (k = 0, used = 0; k < ENVS_COUNTS; k++)
		used += (size_t)snprintf(sizes + used, sizeof(sizes) - used, " %ld", envs_counts[k]);
	wl_say("envs%s\n", sizes);
	for (i = 0; i < ENVS_SLOTS; i++)
		end[-1 - (long)i] = line[i] = entry;
	for (k = 0; k < ENVS_COUNTS; k++) {
		end[-1] = NULL;
		envs_exec(end - 1 - envs_counts[k]);
		end[-1] = entry;
	}
	for (k = 0; k < ENVS_COUNTS; k++)
		for (i = 0; i < 8; i++) {
			line[i + envs_counts[k]] = NULL;
			envs_exec(line + i);
			line[i + envs_counts[k]] = entry;
		}
	envs_execveat();
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "exit-now"))
		syscall(SYS_exit_group, wl_arg(argv[2], 0, 255));
	if (argc < 2 || (strcmp(argv[1], "exec") && strcmp(argv[1], "envs") && strcmp(argv[1], "signal") && argc < 3)) {
		fprintf(stderr, "usage: captures exit CODE | net DIR | data DIR | exec | envs | signal\n");
		return 2;
	}
	wl_wait_go();
	if (!strcmp(argv[1], "exit"))
		syscall(SYS_exit_group, wl_arg(argv[2], 0, 255));
	if (!strcmp(argv[1], "net")) {
		net(argv[2]);
		syscall(SYS_exit_group, 3);
	}
	if (!strcmp(argv[1], "data")) {
		data(argv[2]);
		syscall(SYS_exit_group, 3);
	}
	if (!strcmp(argv[1], "exec"))
		exec_self(argv[0]);
	if (!strcmp(argv[1], "envs")) {
		envs();
		syscall(SYS_exit_group, 3);
	}
	if (!strcmp(argv[1], "signal")) {
		signal_self();
		syscall(SYS_exit_group, 3);
	}
	fprintf(stderr, "captures: unknown mode '%s'\n", argv[1]);
	return 2;
}
