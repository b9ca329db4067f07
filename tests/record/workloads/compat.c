// SPDX-License-Identifier: BSD-2-Clause
/*
 * compat DIR: ia32 syscalls (int $0x80) from a 64-bit process, for sct-record --args on the
 * compat ABI. Its two file names live below 4 GiB (MAP_32BIT), where ia32 pointers reach.
 * After the go byte:
 *   open "DIR/c one" O_WRONLY|O_CREAT|O_TRUNC 0640 (ia32 5), close (6)
 *   rename "DIR/c one" to "DIR/c two" (ia32 38)
 * and prints "fd N" (the descriptor open returned).
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "workload.h"

#define IA32_CLOSE 6
#define IA32_OPEN 5
#define IA32_RENAME 38

/* The ia32 entry clobbers r8-r11 of a 64-bit caller. */
static long int80(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

int main(int argc, char **argv)
{
	char *low, *one, *two;
	long fd;

	if (argc != 2)
		wl_die("usage: compat DIR");
	low = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED || (uintptr_t)low + 8192 > UINT32_MAX)
		wl_die("mmap below 4 GiB");
	one = low;
	two = low + 4096;
	snprintf(one, 4096, "%s/c one", argv[1]);
	snprintf(two, 4096, "%s/c two", argv[1]);
	wl_wait_go();

	fd = int80(IA32_OPEN, (long)(uintptr_t)one, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0)
		wl_die("ia32 open");
	int80(IA32_CLOSE, fd, 0, 0);
	if (int80(IA32_RENAME, (long)(uintptr_t)one, (long)(uintptr_t)two, 0))
		wl_die("ia32 rename");
	wl_say("fd %ld\n", fd);
	return 0;
}
