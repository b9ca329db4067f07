/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unusual CALLS
 * Calls whose record does not fit the BPF stage's 24-byte CALL slot, among calls that do, all
 * on one CPU (so the trace keeps their order). After the go byte: CALLS getppid(), one call of
 * a number past 16 bits (UNUSUAL_NR, no such call: -ENOSYS), CALLS getppid(), one nanosleep()
 * of UNUSUAL_SLEEP_NS (a duration past 32 bits of ns), CALLS getppid(). Then prints
 * "unusual pid P nr N sleep S" and exits 0.
 */
#include "workload.h"

#include <time.h>

#define UNUSUAL_NR 0x10001L
#define UNUSUAL_SLEEP_NS 4400000000LL

static void getppids(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	const struct timespec nap = { UNUSUAL_SLEEP_NS / 1000000000, UNUSUAL_SLEEP_NS % 1000000000 };
	long calls;

	if (argc != 2) {
		fprintf(stderr, "usage: unusual CALLS\n");
		return 2;
	}
	calls = wl_arg(argv[1], 0, 1000000);
	wl_pin_first_cpu();
	wl_wait_go();
	getppids(calls);
	if (syscall(UNUSUAL_NR) != -1)
		wl_die("syscall UNUSUAL_NR");
	getppids(calls);
	if (syscall(SYS_nanosleep, &nap, NULL))
		wl_die("nanosleep");
	getppids(calls);
	wl_say("unusual pid %d nr %ld sleep %lld\n", getpid(), UNUSUAL_NR, UNUSUAL_SLEEP_NS);
	return 0;
}
