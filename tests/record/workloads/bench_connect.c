/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_connect [COUNT]
 * The socket address benchmark's generator (make bench-args): sleeps 1 s (the recorder
 * attaches meanwhile), then makes COUNT (default 1,000,000) connect(2) calls of one UDP socket
 * to 127.0.0.1:9, one syscall with one 16-byte address each (a UDP connect only sets the
 * socket's peer: no packet, no listener needed), and prints "loop_ns N calls COUNT".
 */
#include "workload.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	long count = argc > 1 ? wl_arg(argv[1], 1, 1L << 40) : 1000000;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct timespec second = {1, 0};
	long long t0, t1;
	int fd;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		wl_die("socket");
	nanosleep(&second, NULL);
	t0 = wl_now_ns();
	for (long i = 0; i < count; i++)
		if (syscall(SYS_connect, fd, &sin, sizeof(sin)) != 0)
			wl_die("connect");
	t1 = wl_now_ns();
	wl_say("loop_ns %lld calls %ld\n", t1 - t0, count);
	return 0;
}
