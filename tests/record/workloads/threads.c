/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threads N life|park
 * life: after the go byte, starts N threads; thread i writes 100+i bytes to /dev/null (its
 *       marker) and returns. The main thread joins them all and exits with code 7.
 * park: starts the N threads first and prints "thread I tid T" for each, then "ready"; after
 *       the go byte the threads do their marker write and return; main joins, exits 7.
 * Both modes print "thread I tid T" per thread and end with "pid P tid P code 7".
 */
#include "workload.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>

#define MAX_THREADS 1024

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t started;
static int go, devnull, park;
static long tids[MAX_THREADS];

static void *thread_run(void *arg)
{
	static char buf[100 + MAX_THREADS];
	long i = (long)arg;

	tids[i] = syscall(SYS_gettid);
	if (park) {
		pthread_barrier_wait(&started);
		pthread_mutex_lock(&lock);
		while (!go)
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
	}
	if (syscall(SYS_write, devnull, buf, (size_t)(100 + i)) != 100 + i)
		wl_die("write /dev/null");
	return NULL;
}

int main(int argc, char **argv)
{
	static pthread_t th[MAX_THREADS];
	long n, i;

	if (argc != 3 || (strcmp(argv[2], "life") && strcmp(argv[2], "park"))) {
		fprintf(stderr, "usage: threads N life|park\n");
		return 2;
	}
	n = wl_arg(argv[1], 1, MAX_THREADS);
	park = !strcmp(argv[2], "park");
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0)
		wl_die("open /dev/null");
	if (pthread_barrier_init(&started, NULL, (unsigned)n + 1))
		wl_die("pthread_barrier_init");
	if (!park)
		wl_wait_go();
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, thread_run, (void *)i))
			wl_die("pthread_create");
	if (park) {
		pthread_barrier_wait(&started);
		for (i = 0; i < n; i++)
			wl_say("thread %ld tid %ld\n", i, tids[i]);
		wl_say("ready\n");
		wl_wait_go();
		pthread_mutex_lock(&lock);
		go = 1;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (!park)
		for (i = 0; i < n; i++)
			wl_say("thread %ld tid %ld\n", i, tids[i]);
	wl_say("pid %d tid %ld code 7\n", getpid(), syscall(SYS_gettid));
	syscall(SYS_exit_group, 7);
	return 7;
}
