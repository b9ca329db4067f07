// SPDX-License-Identifier: BSD-2-Clause
/*
 * The per-CPU stages of SYSCALL events (bpf/sct.bpf.c) reach the ring buffer when full, or
 * when their CPU stages an event a poll timeout after their oldest; a CPU that stops making
 * syscalls would keep the rest. Each CPU's stage_marks entry says since when its stage holds
 * events: the recorder runs the flush program on a CPU whose entry is that old
 * (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU: one interrupt there), and on every CPU at
 * stop. A CPU that keeps making syscalls, or has nothing staged, is never interrupted. A
 * bpf_timer would flush from the kernel, but it fires on the CPU that armed it, and arming
 * one per CPU needs a program run on that CPU anyway.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_backend.h"

/*
 * A program still running on a CPU when the links were closed holds its stage for the
 * length of one program run: at stop the flush retries that long, and far longer.
 */
#define STAGE_FINAL_TRIES 1000

void stage_marks_init(struct stage_marks *sm)
{
	sm->m = NULL;
	sm->len = 0;
	sm->ncpus = 0;
}

int stage_marks_open(struct stage_marks *sm, int map_fd, int ncpus)
{
	size_t page = sysconf(_SC_PAGESIZE), len = (size_t)ncpus * sizeof(*sm->m);
	void *p;

	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	sm->m = p;
	sm->len = len;
	sm->ncpus = ncpus;
	return 0;
}

void stage_marks_close(struct stage_marks *sm)
{
	if (sm->m)
		munmap((void *)sm->m, sm->len);
	stage_marks_init(sm);
}

/* The flush program on cpu, up to tries times while it finds the stage taken. */
static int stage_flush_on(int prog_fd, int cpu, int tries)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);
	int err;

	/* The program returns 1 when it found the stage taken. */
	do
		err = bpf_prog_test_run_opts(prog_fd, &opts);
	while (!err && opts.retval && --tries);
	/* A possible CPU that is offline stages nothing: ENXIO. */
	return err == -ENXIO ? 0 : err;
}

int stage_flush_old(const struct stage_marks *sm, int prog_fd, uint64_t now_ns, uint64_t age_ns)
{
	for (int cpu = 0; cpu < sm->ncpus; cpu++) {
		/* written by the CPU's programs: one aligned load, no tearing */
		uint64_t since = __atomic_load_n(&sm->m[cpu].since_ns, __ATOMIC_RELAXED);
		int err;

		if (!since || since > now_ns || now_ns - since < age_ns)
			continue;
		err = stage_flush_on(prog_fd, cpu, 1);
		if (err)
			return err;
	}
	return 0;
}

int stage_flush_all(int prog_fd)
{
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int err = stage_flush_on(prog_fd, cpu, STAGE_FINAL_TRIES);

		if (err)
			return err;
	}
	return 0;
}
