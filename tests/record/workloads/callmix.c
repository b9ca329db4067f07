/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callmix FAILS OKS LONGS LONG_MS SHORTS PURES
 * One thread that knows its calls, for the filter tests: after the go byte, FAILS openat(2)s
 * of a missing file (ENOENT) among OKS openat(2)s of /dev/null (each closed), LONGS
 * nanosleep(2)s of LONG_MS ms and SHORTS of 0 ns, PURES getppid(2)s; then prints
 * "callmix pid P fails F oks O longs L shorts S pures U" in one write.
 */
#include "workload.h"

#include <fcntl.h>
#include <time.h>

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	if (syscall(SYS_nanosleep, &ts, NULL))
		wl_die("nanosleep");
}

int main(int argc, char **argv)
{
	long fails, oks, longs, long_ms, shorts, pures, fd;

	if (argc != 7) {
		fprintf(stderr, "usage: callmix FAILS OKS LONGS LONG_MS SHORTS PURES\n");
		return 2;
	}
	fails = wl_arg(argv[1], 0, 1000000);
	oks = wl_arg(argv[2], 0, 1000000);
	longs = wl_arg(argv[3], 0, 1000);
	long_ms = wl_arg(argv[4], 1, 10000);
	shorts = wl_arg(argv[5], 0, 1000000);
	pures = wl_arg(argv[6], 0, 1000000);
	wl_wait_go();
	for (long i = 0; i < fails || i < oks; i++) {
		if (i < fails && syscall(SYS_openat, AT_FDCWD, "/nonexistent/callmix", O_RDONLY) != -1)
			wl_die("openat of a missing file worked");
		if (i >= oks)
			continue;
		fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);
		if (fd < 0)
			wl_die("openat /dev/null");
		syscall(SYS_close, fd);
	}
	for (long i = 0; i < longs; i++)
		sleep_ns(long_ms * 1000000L);
	for (long i = 0; i < shorts; i++)
		sleep_ns(0);
	for (long i = 0; i < pures; i++)
		syscall(SYS_getppid);
	wl_say("callmix pid %d fails %ld oks %ld longs %ld shorts %ld pures %ld\n", getpid(), fails, oks,
	       longs, shorts, pures);
	return 0;
}
