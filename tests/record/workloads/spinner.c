/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spinner BYTES
 * After the go byte, touches BYTES of memory, prints "spinner pid P", then fills them with
 * one getrandom(2): a call that keeps its CPU, never sleeping, for as long as the kernel takes
 * to generate BYTES (~0.4 s for 128 MiB here), so the test can stop the recorder while the
 * call runs. Exits 0.
 */
#include <string.h>

#include "workload.h"

int main(int argc, char **argv)
{
	size_t n;
	char *buf;

	if (argc != 2) {
		fprintf(stderr, "usage: spinner BYTES\n");
		return 2;
	}
	n = wl_arg(argv[1], 1, 1L << 30);
	buf = malloc(n);
	if (!buf)
		wl_die("malloc");
	/* Fault the pages in now: the call after the line is then all the kernel time left. */
	memset(buf, 1, n);
	wl_wait_go();
	wl_say("spinner pid %d\n", getpid());
	if (syscall(SYS_getrandom, buf, n, 0) != (long)n)
		wl_die("getrandom");
	return 0;
}
