/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pinned THREADS CALLS FORKS
 * Every thread on one CPU, so that they preempt each other inside the recorder's programs
 * (PREEMPT and PREEMPT_RT kernels run BPF programs preemptibly, migration disabled). After
 * the go byte, starts THREADS threads; each prints "thread I tid T", makes CALLS getppid()
 * calls and FORKS forks, each child making one getppid() and exiting with code 4. Main joins
 * them and prints "pinned pid P cpu C", then exits 0.
 */
#include "workload.h"

#include <pthread.h>
#include <sys/wait.h>

#define MAX_THREADS 64

static long calls, forks;

static void *thread_run(void *arg)
{
	long i = (long)arg;
	int status;

	wl_say("thread %ld tid %ld\n", i, (long)syscall(SYS_gettid));
	for (long c = 0; c < calls; c++)
		syscall(SYS_getppid);
	for (long f = 0; f < forks; f++) {
		pid_t pid = fork();

		if (pid < 0)
			wl_die("fork");
		if (pid == 0) {
			syscall(SYS_getppid);
			syscall(SYS_exit_group, 4);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 4)
			wl_die("waitpid");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static pthread_t th[MAX_THREADS];
	long n, i;
	int cpu;

	if (argc != 4) {
		fprintf(stderr, "usage: pinned THREADS CALLS FORKS\n");
		return 2;
	}
	n = wl_arg(argv[1], 1, MAX_THREADS);
	calls = wl_arg(argv[2], 0, 10000000);
	forks = wl_arg(argv[3], 0, 100000);
	cpu = wl_pin_first_cpu();
	wl_wait_go();
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, thread_run, (void *)i))
			wl_die("pthread_create");
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	wl_say("pinned pid %d cpu %d\n", getpid(), cpu);
	return 0;
}
