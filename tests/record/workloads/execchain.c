/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * execchain chain N      after the go byte, exec itself N times: each image writes 200+LEVEL
 *                        bytes to /dev/null, prints "exec level L pid P file PATH" (PATH: what
 *                        it passes to execve next) and execs level L-1; level 0 exits 0.
 * execchain thread       a second thread prints "thread tid T file PATH", waits for the go
 *                        byte and execs "execchain post" while the leader sleeps: the kernel
 *                        gives the new image the leader's pid.
 * execchain post         (the image after that exec) writes 300 bytes to /dev/null 3 times,
 *                        prints "post pid P tid T writes 3 len 300", exits 0.
 */
#include "workload.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

static char self[PATH_MAX];

static void self_find(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0 || n >= (ssize_t)sizeof(self) - 1)
		wl_die("readlink /proc/self/exe");
	self[n] = '\0';
}

static void devnull_write(size_t len)
{
	static char buf[512];
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || syscall(SYS_write, fd, buf, len) != (long)len)
		wl_die("write /dev/null");
	close(fd);
}

static void self_exec(char *const argv[])
{
	extern char **environ;

	syscall(SYS_execve, self, argv, environ);
	wl_die("execve");
}

static int chain_run(long level)
{
	char arg[32];
	char *argv[] = {"execchain", "chain", arg, "next", NULL};

	devnull_write((size_t)(200 + level));
	if (level == 0) {
		wl_say("exec level 0 pid %d file -\n", getpid());
		return 0;
	}
	snprintf(arg, sizeof(arg), "%ld", level - 1);
	wl_say("exec level %ld pid %d file %s\n", level, getpid(), self);
	self_exec(argv);
	return 1;
}

static void *thread_exec(void *arg)
{
	char *argv[] = {"execchain", "post", NULL};

	(void)arg;
	wl_say("thread tid %ld file %s\n", syscall(SYS_gettid), self);
	wl_wait_go();
	self_exec(argv);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: execchain chain N | thread | post\n");
		return 2;
	}
	self_find();
	if (!strcmp(argv[1], "chain") && argc >= 3) {
		if (argc == 3)
			wl_wait_go(); /* only the first image waits; "next" marks the later ones */
		return chain_run(wl_arg(argv[2], 0, 100));
	}
	if (!strcmp(argv[1], "thread")) {
		if (pthread_create(&th, NULL, thread_exec, NULL))
			wl_die("pthread_create");
		for (;;)
			pause(); /* the exec in the other thread ends this thread */
	}
	if (!strcmp(argv[1], "post")) {
		for (i = 0; i < 3; i++)
			devnull_write(300);
		wl_say("post pid %d tid %ld writes 3 len 300\n", getpid(), syscall(SYS_gettid));
		return 0;
	}
	fprintf(stderr, "usage: execchain chain N | thread | post\n");
	return 2;
}
