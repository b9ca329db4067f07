/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blocker
 * After the go byte, prints "blocker pid P" and blocks in read(2) on stdin until it closes,
 * so the test can stop the recorder with that call in flight. Exits 0 at EOF.
 */
#include "workload.h"

int main(void)
{
	char c;

	wl_wait_go();
	wl_say("blocker pid %d\n", getpid());
	if (syscall(SYS_read, 0, &c, 1) != 0)
		wl_die("read stdin: EOF expected");
	return 0;
}
