/* SPDX-License-Identifier: GPL-2.0 */
/* BPF-only helpers of sct.bpf.c: kernel structure reads through CO-RE. */
#ifndef SCT_BPF_H
#define SCT_BPF_H

#define EEXIST 17 /* vmlinux.h has no errno values */
#define PF_KTHREAD 0x00200000
#define TS_COMPAT 0x0002 /* x86 thread_info.status: the syscall came in through an ia32 entry */
#define SCT_CGROUP_MAX_DEPTH 64

/* 1 if task's current syscall is a compat (ia32) one. */
static __always_inline __u8 task_is_compat(struct task_struct *task)
{
#ifdef __TARGET_ARCH_x86
	return (task->thread_info.status & TS_COMPAT) != 0;
#else
	return 0;
#endif
}

/*
 * Id of task's cgroup v2 ancestor at level (root = 0), or of its own cgroup for level < 0;
 * 0 if the cgroup is shallower than level.
 */
static __always_inline __u64 task_cgroup_ancestor(struct task_struct *task, int level)
{
	struct cgroup *cgrp = BPF_CORE_READ(task, cgroups, dfl_cgrp);
	struct cgroup *anc;
	int depth;

	if (!cgrp)
		return 0;
	if (level < 0)
		return BPF_CORE_READ(cgrp, kn, id);
	depth = BPF_CORE_READ(cgrp, level);
	if (level > depth || level >= SCT_CGROUP_MAX_DEPTH)
		return 0;
	if (bpf_probe_read_kernel(&anc, sizeof(anc), (void *)cgrp +
				  bpf_core_field_offset(struct cgroup, ancestors) +
				  level * sizeof(anc)))
		return 0;
	return BPF_CORE_READ(anc, kn, id);
}

#endif
