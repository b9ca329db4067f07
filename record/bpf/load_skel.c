// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ordinary skeleton: libbpf applies the CO-RE relocations from the vmlinux BTF, for
 * kernels that cannot (before 5.17). The syscall programs and the in-flight map not used are
 * neither loaded nor created, so a kernel without task storage never sees them; the code of
 * the other programs that names the missing map sits behind inflight_in_hash, which the
 * verifier removes as dead.
 */
#include <errno.h>

#include <bpf/libbpf.h>

#include "load.h"
#include "sct.skel.h"

static int skel_load(void **out, const struct load_settings *s, struct load_handles *h)
{
	struct sct_skel *skel;
	bool hash = s->inflight_in_hash, args = s->args;
	int err;

	skel = sct_skel__open();
	if (!skel)
		return -errno;
	*out = skel;
	LOAD_RODATA_SET(skel->rodata, s);
	err = bpf_map__set_max_entries(skel->maps.targets, s->max_tasks);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.inflight_hash, s->max_inflight);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.events, s->ringbuf_size);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.capture_args, s->npath_args);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.stage_marks, s->ncpus);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.forked, s->max_forked);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.syscall_set, s->nsyscall_set);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.totals, s->max_totals);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.totals_cache, s->ncpus << s->totals_cache_bits);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.stack_pids, s->max_stack_pids);
	if (!err)
		err = bpf_map__set_autocreate(hash ? skel->maps.inflight : skel->maps.inflight_hash,
					      false);
	if (!err && hash)
		err = bpf_map__set_autocreate(skel->maps.described, false);
	if (!err && !args)
		err = bpf_map__set_autocreate(skel->maps.inflight_args, false);
	if (!err)
		err = bpf_program__set_autoload(args ? skel->progs.sys_enter : skel->progs.sys_enter_args,
						false);
	if (!err)
		err = bpf_program__set_autoload(args ? skel->progs.sys_exit : skel->progs.sys_exit_args,
						false);
	if (!err)
		err = bpf_program__set_autoload(hash ? skel->progs.sys_enter : skel->progs.sys_enter_hash,
						false);
	if (!err)
		err = bpf_program__set_autoload(hash ? skel->progs.sys_exit : skel->progs.sys_exit_hash,
						false);
	/*
	 * sched_switch parks the calls of the task storage programs (plain or --args), whose
	 * CPU slots cgroup_attach keeps true to their tasks' cgroups.
	 */
	if (!err && hash)
		err = bpf_program__set_autoload(skel->progs.sched_switch, false);
	if (!err && hash)
		err = bpf_program__set_autoload(skel->progs.cgroup_attach, false);
	if (!err)
		err = sct_skel__load(skel);
	if (err)
		return err;
	h->targets_fd = bpf_map__fd(skel->maps.targets);
	h->stats_fd = bpf_map__fd(skel->maps.stats);
	h->events_fd = bpf_map__fd(skel->maps.events);
	h->iter_prog_fd = bpf_program__fd(skel->progs.iter_tasks);
	h->stage_prog_fd = bpf_program__fd(skel->progs.stage_flush_cpu);
	h->capture_args_fd = bpf_map__fd(skel->maps.capture_args);
	h->stage_marks_fd = bpf_map__fd(skel->maps.stage_marks);
	h->cpu_calls_fd = bpf_map__fd(skel->maps.cpu_calls);
	h->cpu_calls_args_fd = bpf_map__fd(skel->maps.cpu_calls_args);
	h->syscall_set_fd = bpf_map__fd(skel->maps.syscall_set);
	h->errno_set_fd = bpf_map__fd(skel->maps.errno_set);
	h->totals_fd = bpf_map__fd(skel->maps.totals);
	h->totals_cache_fd = bpf_map__fd(skel->maps.totals_cache);
	h->iter_mode = &skel->bss->iter_mode;
	h->snapshot_done = &skel->bss->snapshot_done;
	h->ntargets = &skel->bss->ntargets;
	return 0;
}

static int skel_attach_one(struct bpf_program *prog, struct bpf_link **link)
{
	*link = bpf_program__attach(prog);
	return *link ? 0 : -errno;
}

static int skel_attach(void *obj, bool hash, bool args)
{
	struct sct_skel *skel = obj;
	int err;

	/* In the order struct loader's attach gives (load.h), for its reasons. */
	err = skel_attach_one(skel->progs.sched_exit, &skel->links.sched_exit);
	if (!err)
		err = skel_attach_one(skel->progs.sched_exec, &skel->links.sched_exec);
	if (!err)
		err = skel_attach_one(skel->progs.sched_fork, &skel->links.sched_fork);
	/*
	 * Before sys_enter: a call its task takes off the CPU must always be parked, and a slot
	 * must always learn of a move to another cgroup.
	 */
	if (!err && !hash)
		err = skel_attach_one(skel->progs.sched_switch, &skel->links.sched_switch);
	if (!err && !hash)
		err = skel_attach_one(skel->progs.cgroup_attach, &skel->links.cgroup_attach);
	if (!err && args)
		err = skel_attach_one(skel->progs.sys_enter_args, &skel->links.sys_enter_args);
	if (!err && args)
		return skel_attach_one(skel->progs.sys_exit_args, &skel->links.sys_exit_args);
	if (!err)
		err = hash ? skel_attach_one(skel->progs.sys_enter_hash, &skel->links.sys_enter_hash) :
			     skel_attach_one(skel->progs.sys_enter, &skel->links.sys_enter);
	if (!err)
		err = hash ? skel_attach_one(skel->progs.sys_exit_hash, &skel->links.sys_exit_hash) :
			     skel_attach_one(skel->progs.sys_exit, &skel->links.sys_exit);
	return err;
}

static void skel_detach(void *obj)
{
	struct sct_skel *skel = obj;
	struct bpf_link **links[] = { &skel->links.sys_enter, &skel->links.sys_exit,
				      &skel->links.sys_enter_hash, &skel->links.sys_exit_hash,
				      &skel->links.sys_enter_args, &skel->links.sys_exit_args,
				      &skel->links.sched_fork, &skel->links.sched_exec,
				      &skel->links.sched_exit, &skel->links.sched_switch,
				      &skel->links.cgroup_attach };

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		bpf_link__destroy(*links[i]);
		*links[i] = NULL;
	}
}

static void skel_destroy(void *skel)
{
	sct_skel__destroy(skel);
}

const struct loader load_skel = {
	.name = "ordinary skeleton",
	.load = skel_load,
	.attach = skel_attach,
	.detach = skel_detach,
	.destroy = skel_destroy,
};
