/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_writer [COUNT [THREADS [FAIL_EVERY]]]
 * The `make bench` generator: sleeps 1 s (the recorder attaches meanwhile), then THREADS
 * threads (default 1), thread i pinned to CPU i modulo the CPUs online, each do COUNT (default
 * 1,000,000) write(2)s of one byte to /dev/null, and it prints "loop_ns N writes TOTAL":
 * N from the moment all threads are released to the end of the last one. With FAIL_EVERY,
 * every FAIL_EVERY-th write goes to a closed fd instead (EBADF): the calls a --failed filter
 * matches.
 */
#include "workload.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>

#define BENCH_MAX_THREADS 256

static long count = 1000000, fail_every;
static int fd;
static pthread_barrier_t start;

static void *writer(void *arg)
{
	long cpu = (long)arg;
	cpu_set_t set;
	char c = 0;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		wl_die("sched_setaffinity");
	pthread_barrier_wait(&start);
	for (long i = 0; i < count; i++) {
		if (fail_every && i % fail_every == fail_every - 1) {
			if (syscall(SYS_write, -1, &c, 1) != -1)
				wl_die("write to fd -1 worked");
			continue;
		}
		if (syscall(SYS_write, fd, &c, 1) != 1)
			wl_die("write /dev/null");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long threads = argc > 2 ? wl_arg(argv[2], 1, BENCH_MAX_THREADS) : 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct timespec second = {1, 0};
	pthread_t th[BENCH_MAX_THREADS];
	long long t0, t1;

	if (argc > 1)
		count = wl_arg(argv[1], 1, 1L << 40);
	if (argc > 3)
		fail_every = wl_arg(argv[3], 1, 1L << 40);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || cpus < 1)
		wl_die("open /dev/null");
	if (pthread_barrier_init(&start, NULL, (unsigned)threads + 1))
		wl_die("pthread_barrier_init");
	for (long i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, writer, (void *)(i % cpus)))
			wl_die("pthread_create");
	nanosleep(&second, NULL);
	t0 = wl_now_ns();
	pthread_barrier_wait(&start);
	for (long i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	t1 = wl_now_ns();
	wl_say("loop_ns %lld writes %ld\n", t1 - t0, count * threads);
	return 0;
}
