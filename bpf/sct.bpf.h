/* SPDX-License-Identifier: GPL-2.0 */
/* BPF-only helpers of sct.bpf.c: kernel structure reads through CO-RE. */
#ifndef SCT_BPF_H
#define SCT_BPF_H

#define EEXIST 17 /* vmlinux.h has no errno values */
#define PF_EXITING 0x00000004
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

/* task_is_compat() for a task pointer without BTF (bpf_get_current_task()). */
static __always_inline __u8 task_is_compat_read(struct task_struct *task)
{
#ifdef __TARGET_ARCH_x86
	return (BPF_CORE_READ(task, thread_info.status) & TS_COMPAT) != 0;
#else
	return 0;
#endif
}

/* Before Linux 6.0, struct cgroup kept the ancestors' ids, not pointers to them. */
struct cgroup___ids {
	__u64 ancestor_ids[0];
} __attribute__((preserve_access_index));

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
	if (!bpf_core_field_exists(struct cgroup, ancestors)) {
		__u64 id;

		if (bpf_probe_read_kernel(&id, sizeof(id), (void *)cgrp +
					  bpf_core_field_offset(struct cgroup___ids, ancestor_ids) +
					  level * sizeof(id)))
			return 0;
		return id;
	}
	if (bpf_probe_read_kernel(&anc, sizeof(anc), (void *)cgrp +
				  bpf_core_field_offset(struct cgroup, ancestors) +
				  level * sizeof(anc)))
		return 0;
	return BPF_CORE_READ(anc, kn, id);
}

#endif
