// SPDX-License-Identifier: BSD-2-Clause
/*
 * The recorder's privileges: what the kernel checks before a program loads or a perf event
 * opens. Read from the effective set, as the kernel does; root passes every check.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "../record.h"

bool capabilities_have(unsigned cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool capabilities_bpf(void)
{
	/* CAP_SYS_ADMIN covers both, as it did before CAP_BPF and CAP_PERFMON existed. */
	return capabilities_have(CAP_SYS_ADMIN) ||
	       (capabilities_have(CAP_BPF) && capabilities_have(CAP_PERFMON));
}

int capabilities_bpf_denied(void)
{
	fprintf(stderr, "sct-record: permission denied: loading BPF programs needs root, or CAP_BPF "
		"and CAP_PERFMON (try sudo)\n");
	return -EPERM;
}

int capabilities_bpf_report(void)
{
	return capabilities_bpf() ? 0 : capabilities_bpf_denied();
}
