// SPDX-License-Identifier: BSD-2-Clause
/* -j, --jobs (see jobs.h). */
#include "jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

uint32_t jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)JOBS_MAX ? JOBS_MAX : (uint32_t)n;
}

int jobs_parse(const char *arg, uint32_t *jobs)
{
	unsigned long v;
	char *end;

	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v < 1 || v > JOBS_MAX)
		return -EINVAL;
	*jobs = (uint32_t)v;
	return 0;
}
