// SPDX-License-Identifier: BSD-2-Clause
/*
 * argpaths DIR: the ground truth of sct-record --args. After the go byte, with raw syscalls:
 *   openat "DIR/with space" O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC 0640, write 5 bytes, close
 *   openat "DIR/ünïcødé ✓" O_WRONLY|O_CREAT|O_EXCL 0600, write 123 bytes, close
 *   openat "DIR/name" O_WRONLY|O_CREAT|O_TRUNC 0600, write "DIR/with space" into it, close
 *   openat "DIR/" + "d/" x 200 O_RDONLY: ENOENT (a path past any --args-max up to 256)
 *   openat of "DIR/with space" read from a private mapping of DIR/name never touched before
 *     (its page is not present when the syscall starts), O_RDONLY, close
 *   openat of the address 1: EFAULT
 *   renameat "DIR/with space" to "DIR/renamed"
 *   linkat "DIR/renamed" to "DIR/linked" read from a private mapping of DIR/name2 never
 *     touched before (the second path's page is not present when the syscall starts), flags 0
 *   renameat of the address 1 to "DIR/renamed": EFAULT
 * and prints "fd1 N", "fd2 N", "fd3 N", "fd4 N" (the descriptors the opens returned).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include "workload.h"

static long sys_openat(const char *path, long flags, long mode)
{
	return syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static void must_write(long fd, const void *p, size_t n)
{
	if (syscall(SYS_write, fd, p, n) != (long)n)
		wl_die("write");
}

static long sys_renameat(const char *from, const char *to)
{
	return syscall(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to);
}

/* A private mapping of a new file path that holds text: its page not present yet. */
static const char *text_mapping(const char *path, const char *text)
{
	long fd = sys_openat(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	const char *map;

	if (fd < 0)
		wl_die("open for a mapping");
	must_write(fd, text, strlen(text) + 1);
	map = (const char *)syscall(SYS_mmap, NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		wl_die("mmap");
	syscall(SYS_close, fd);
	return map;
}

int main(int argc, char **argv)
{
	char a[4096], b[4096], name[4096], longp[4096], name2[4096], renamed[4096], linked[4096];
	const char *map2;
	static char buf[123];
	long fd1, fd2, fd3, fd4, len;
	char *map;

	if (argc != 2)
		wl_die("usage: argpaths DIR");
	snprintf(a, sizeof(a), "%s/with space", argv[1]);
	snprintf(b, sizeof(b), "%s/\xc3\xbcn\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9 \xe2\x9c\x93", argv[1]);
	snprintf(name, sizeof(name), "%s/name", argv[1]);
	len = snprintf(longp, sizeof(longp), "%s/", argv[1]);
	for (int i = 0; i < 200; i++)
		len += snprintf(longp + len, sizeof(longp) - len, "d/");
	snprintf(name2, sizeof(name2), "%s/name2", argv[1]);
	snprintf(renamed, sizeof(renamed), "%s/renamed", argv[1]);
	snprintf(linked, sizeof(linked), "%s/linked", argv[1]);
	memset(buf, 'x', sizeof(buf));
	map2 = text_mapping(name2, linked);
	wl_wait_go();

	fd1 = sys_openat(a, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd1 < 0)
		wl_die("open 1");
	must_write(fd1, "hello", 5);
	syscall(SYS_close, fd1);
	fd2 = sys_openat(b, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd2 < 0)
		wl_die("open 2");
	must_write(fd2, buf, sizeof(buf));
	syscall(SYS_close, fd2);
	fd3 = sys_openat(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd3 < 0)
		wl_die("open 3");
	must_write(fd3, a, strlen(a) + 1);
	syscall(SYS_close, fd3);
	if (sys_openat(longp, O_RDONLY, 0) != -1 || errno != ENOENT)
		wl_die("open of the long path");

	fd3 = sys_openat(name, O_RDONLY, 0);
	if (fd3 < 0)
		wl_die("open name");
	map = (char *)syscall(SYS_mmap, NULL, 4096, PROT_READ, MAP_PRIVATE, fd3, 0);
	if (map == MAP_FAILED)
		wl_die("mmap");
	fd4 = sys_openat(map, O_RDONLY, 0);
	if (fd4 < 0)
		wl_die("open from the mapping");
	syscall(SYS_close, fd4);
	if (sys_openat((const char *)1, O_RDONLY, 0) != -1 || errno != EFAULT)
		wl_die("open of a bad address");
	if (sys_renameat(a, renamed))
		wl_die("renameat");
	if (syscall(SYS_linkat, AT_FDCWD, renamed, AT_FDCWD, map2, 0))
		wl_die("linkat");
	if (sys_renameat((const char *)1, renamed) != -1 || errno != EFAULT)
		wl_die("renameat of a bad address");
	wl_say("fd1 %ld\nfd2 %ld\nfd3 %ld\nfd4 %ld\n", fd1, fd2, fd3, fd4);
	return 0;
}
