// SPDX-License-Identifier: BSD-2-Clause
/*
 * The light skeleton: the default where the kernel applies CO-RE relocations itself. Its
 * loader loads every program of its object, so there are two objects, and this file is
 * compiled once for each (record/build.mk): load_light, with the plain syscall programs, and
 * load_light_args (LOAD_LIGHT_ARGS), with the --args ones. Both skeletons are named sct_lskel.
 */
#include <errno.h>
#include <unistd.h>

#include "load.h"
#ifndef LOAD_LIGHT_ARGS
#define LOAD_LIGHT_ARGS 0
#endif
/* The light skeleton (bpftool gen skeleton -L) uses errno without including <errno.h>. */
#if LOAD_LIGHT_ARGS
#include "sct_args.lskel.h"
#define LOADER load_light_args
#else
#include "sct_plain.lskel.h"
#define LOADER load_light
#endif

static int light_load(void **out, const struct load_settings *s, struct load_handles *h)
{
	struct sct_lskel *skel;
	int err;

	skel = sct_lskel__open();
	if (!skel)
		return -ENOMEM;
	*out = skel;
	LOAD_RODATA_SET(skel->rodata, s);
	skel->maps.targets.max_entries = s->max_tasks;
	/* Its loader creates every map: the one not used costs one entry. */
	skel->maps.inflight_hash.max_entries = 1;
	skel->maps.events.max_entries = s->ringbuf_size;
	skel->maps.capture_args.max_entries = s->npath_args;
	skel->maps.stage_marks.max_entries = s->ncpus;
	skel->maps.forked.max_entries = s->max_forked;
	skel->maps.syscall_set.max_entries = s->nsyscall_set;
	skel->maps.totals.max_entries = s->max_totals;
	skel->maps.totals_cache.max_entries = s->ncpus << s->totals_cache_bits;
	skel->maps.stack_pids.max_entries = s->max_stack_pids;
	err = sct_lskel__load(skel);
	if (err)
		return err;
	h->targets_fd = skel->maps.targets.map_fd;
	h->stats_fd = skel->maps.stats.map_fd;
	h->events_fd = skel->maps.events.map_fd;
	h->iter_prog_fd = skel->progs.iter_tasks.prog_fd;
	h->stage_prog_fd = skel->progs.stage_flush_cpu.prog_fd;
	h->capture_args_fd = skel->maps.capture_args.map_fd;
	h->stage_marks_fd = skel->maps.stage_marks.map_fd;
	h->cpu_calls_fd = skel->maps.cpu_calls.map_fd;
	h->cpu_calls_args_fd = skel->maps.cpu_calls_args.map_fd;
	h->syscall_set_fd = skel->maps.syscall_set.map_fd;
	h->errno_set_fd = skel->maps.errno_set.map_fd;
	h->totals_fd = skel->maps.totals.map_fd;
	h->totals_cache_fd = skel->maps.totals_cache.map_fd;
	h->iter_mode = &skel->bss->iter_mode;
	h->snapshot_done = &skel->bss->snapshot_done;
	h->ntargets = &skel->bss->ntargets;
	return 0;
}

/*
 * Before the syscall programs: a call its task takes off the CPU must always be parked, and a
 * slot must always learn of a move to another cgroup.
 */
static int light_attach(void *obj, bool hash, bool args)
{
	struct sct_lskel *skel = obj;
	int fd;

	if (hash || args != LOAD_LIGHT_ARGS)
		return -EINVAL;
	/* In the order struct loader's attach gives (load.h), for its reasons. */
	fd = sct_lskel__sched_exit__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__sched_exec__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__sched_fork__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__sched_switch__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__cgroup_attach__attach(skel);
#if LOAD_LIGHT_ARGS
	if (fd >= 0)
		fd = sct_lskel__sys_enter_args__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__sys_exit_args__attach(skel);
#else
	if (fd >= 0)
		fd = sct_lskel__sys_enter__attach(skel);
	if (fd >= 0)
		fd = sct_lskel__sys_exit__attach(skel);
#endif
	return fd < 0 ? fd : 0;
}

/* Forget the link numbers too: sct_lskel__destroy() would close them again. */
static void light_detach(void *obj)
{
	struct sct_lskel *skel = obj;
	int *links[] = {
#if LOAD_LIGHT_ARGS
			 &skel->links.sys_enter_args_fd, &skel->links.sys_exit_args_fd,
#else
			 &skel->links.sys_enter_fd, &skel->links.sys_exit_fd,
#endif
			 &skel->links.sched_fork_fd, &skel->links.sched_exec_fd,
			 &skel->links.sched_exit_fd, &skel->links.sched_switch_fd,
			 &skel->links.cgroup_attach_fd };

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (*links[i] > 0)
			close(*links[i]);
		*links[i] = 0;
	}
}

static void light_destroy(void *skel)
{
	sct_lskel__destroy(skel);
}

const struct loader LOADER = {
	.name = "light skeleton",
	.load = light_load,
	.attach = light_attach,
	.detach = light_detach,
	.destroy = light_destroy,
};
