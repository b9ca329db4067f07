// SPDX-License-Identifier: BSD-2-Clause
/*
 * The per-CPU stages of SYSCALL events (bpf/sct.bpf.c) reach the ring buffer when full; a
 * CPU that stops making syscalls would keep the rest. The recorder runs the flush program
 * on each CPU itself (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU: one interrupt there),
 * once per poll period and at stop. A bpf_timer would do it from the kernel, but it fires on
 * the CPU that armed it, and arming one per CPU needs a program run on that CPU anyway.
 */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record.h"

int stage_flush_all(int prog_fd)
{
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);
		int err = bpf_prog_test_run_opts(prog_fd, &opts);

		/* A possible CPU that is offline stages nothing: ENXIO. */
		if (err && err != -ENXIO)
			return err;
	}
	return 0;
}
