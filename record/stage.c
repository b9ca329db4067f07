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

/*
 * A program still running on a CPU when the links were closed holds its stage for the
 * length of one program run: at stop the flush retries that long, and far longer.
 */
#define STAGE_FINAL_TRIES 1000

int stage_flush_all(int prog_fd, bool final)
{
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);
		int tries = final ? STAGE_FINAL_TRIES : 1, err;

		/* The program returns 1 when it found the stage taken. */
		do
			err = bpf_prog_test_run_opts(prog_fd, &opts);
		while (!err && opts.retval && --tries);
		/* A possible CPU that is offline stages nothing: ENXIO. */
		if (err && err != -ENXIO)
			return err;
	}
	return 0;
}
