/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An attacker run with -u: push argv[1] into the input of its controlling terminal, byte by
 * byte (TIOCSTI), as if typed there. Prints "tiocsti N of M tty NAME": the bytes the kernel
 * took, and the terminal that was (stdin's name, "none" if it is no terminal).
 */
#include <string.h>
#include <sys/ioctl.h>

#include "workload.h"

int main(int argc, char **argv)
{
	size_t n = 0, len;
	const char *tty;

	if (argc != 2)
		wl_die("usage: tiocsti TEXT");
	len = strlen(argv[1]);
	while (n < len && !ioctl(0, TIOCSTI, &argv[1][n]))
		n++;
	tty = ttyname(0);
	wl_say("tiocsti %zu of %zu tty %s\n", n, len, tty ? tty : "none");
	return 0;
}
