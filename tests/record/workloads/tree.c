/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree DEPTH FANOUT
 * After the go byte, grows a full process tree: the root has FANOUT children, each of them
 * FANOUT children, down to DEPTH levels below the root. Nodes are numbered as in a heap
 * (child k of node i is i*FANOUT+k+1); node i makes one getppid() as its marker, prints
 * "node I pid P ppid Q code C", waits for its children and exits with code C = I+1, so every
 * process has its own exit code (at most 255 nodes).
 */
#include "workload.h"

#include <sys/wait.h>

static long depth_max, fanout;

static void node_run(long idx, long depth)
{
	long k, code = idx + 1;
	int status;

	wl_say("node %ld pid %d ppid %ld code %ld\n", idx, getpid(), syscall(SYS_getppid), code);
	for (k = 0; depth < depth_max && k < fanout; k++) {
		pid_t pid = fork();

		if (pid < 0)
			wl_die("fork");
		if (pid == 0) {
			node_run(idx * fanout + k + 1, depth + 1);
			_exit(0); /* not reached */
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status))
			wl_die("child died");
	syscall(SYS_exit_group, code);
}

int main(int argc, char **argv)
{
	long nodes = 1, level = 1, d;

	if (argc != 3) {
		fprintf(stderr, "usage: tree DEPTH FANOUT\n");
		return 2;
	}
	depth_max = wl_arg(argv[1], 0, 16);
	fanout = wl_arg(argv[2], 1, 16);
	for (d = 0; d < depth_max; d++) {
		level *= fanout;
		nodes += level;
		if (nodes > 255) {
			fprintf(stderr, "tree: more than 255 nodes\n");
			return 2;
		}
	}
	wl_wait_go();
	node_run(0, 0);
	return 0;
}
