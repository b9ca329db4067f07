// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the trace HEADER says of the host (names, kernel, boot id, clock anchor, cgroups) and of
 * the recording.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../record.h"
#include "../host/syscall_table.h"

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Read the first line of path into buf, without its newline; "" if unreadable. */
static void read_line(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, cap, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The anchor: a monotonic reading paired with the realtime one taken between two of them. */
static void clock_anchor(uint64_t *mono, uint64_t *real)
{
	uint64_t a = clock_now_ns();

	*real = realtime_ns();
	*mono = a + (clock_now_ns() - a) / 2;
}

/*
 * 128 random bits name the recording in every file it writes, so that a loader tells a file it
 * has seen from a new one. Without randomness the HEADER names no recording.
 */
static const char *recording_id_make(char out[SCT_RECORDING_ID_LEN + 1])
{
	uint8_t bits[SCT_RECORDING_ID_LEN / 2];

	if (getrandom(bits, sizeof(bits), 0) != (ssize_t)sizeof(bits))
		return NULL;
	for (size_t i = 0; i < sizeof(bits); i++)
		snprintf(out + 2 * i, 3, "%02x", bits[i]);
	return out;
}

void host_info_fill(struct host_info *h, const struct env *env)
{
	struct sct_header_info *i = &h->info;
	struct utsname u;

	memset(i, 0, sizeof(*i));
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
		snprintf(h->arch, sizeof(h->arch), "%s", u.machine);
	}
	if (gethostname(h->hostname, sizeof(h->hostname)))
		h->hostname[0] = '\0';
	h->hostname[sizeof(h->hostname) - 1] = '\0';
	read_line("/proc/sys/kernel/random/boot_id", h->boot_id, sizeof(h->boot_id));
	/* bpf_get_current_cgroup_id() reports the unified (v2) hierarchy whatever else is mounted. */
	if (cgroups_find_mount(h->cgroup_mount, sizeof(h->cgroup_mount)) == 0)
		h->cgroup_hierarchy = "v2";
	else
		h->cgroup_hierarchy = cgroups_v1_mounted() ? "v1" : "none";

	i->producer = RECORD_NAME;
	i->producer_version = RECORD_VERSION;
	i->args = (const char *const *)env->argv;
	i->nargs = env->argc;
	i->hostname = h->hostname;
	i->kernel = h->kernel;
	i->arch = h->arch;
	i->boot_id = h->boot_id;
	i->clock = "CLOCK_MONOTONIC";
	clock_anchor(&i->anchor_clock_ns, &i->anchor_realtime_ns);
	i->recording_id = recording_id_make(h->recording_id);
	i->sequence = 1;
	i->cgroup_hierarchy = h->cgroup_hierarchy;
	i->cgroup_mount = h->cgroup_mount;
	i->syscalls = syscall_table_native;
	i->nsyscalls = syscall_table_native_len;
	if (syscall_table_compat_len) {
		i->compat_arch = syscall_table_compat_arch;
		i->compat_syscalls = syscall_table_compat;
		i->ncompat_syscalls = syscall_table_compat_len;
	}
}

int host_info_args_report(struct host_info *h, struct args_table *t, const struct env *env,
			  bool read_paths)
{
	struct sct_header_info *i = &h->info;
	int err = args_describe(t, env->args_data > 0);

	if (err == -ENOMEM) {
		fprintf(stderr, "sct-record: out of memory\n");
		return err;
	}
	if (err && !env->quiet)
		fprintf(stderr, "sct-record: warning: --args: no syscall descriptions in tracefs "
			"(%s): raw arguments only, no paths\n", strerror(-err));
	i->syscall_args = t->v;
	i->nsyscall_args = t->n;
	if (t->ncompat) {
		i->compat_syscall_args = t->compat;
		i->ncompat_syscall_args = t->ncompat;
	}
	i->args_max = env->args_max;
	i->args_paths = read_paths && t->paths ? "enter" : "none";
	/*
	 * The bounds asked for, whichever the backend: one that cannot read user memory flags
	 * each call's as not read.
	 */
	h->captures.argv_max = SCT_ARGV_MAX;
	h->captures.argv_bytes = env->args_max;
	h->captures.data = env->args_data;
	i->captures = &h->captures;
	return 0;
}
