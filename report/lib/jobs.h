/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -j, --jobs of sct-report and sct-convert (jobs.c): the threads that decode an input's
 * blocks (sct_reader_set_jobs()). The default is the online CPUs, capped at JOBS_MAX.
 * Errors: 0 or -EINVAL; only a program's main prints the message.
 */
#ifndef SCT_JOBS_H
#define SCT_JOBS_H

#include <stdint.h>

#define JOBS_MAX 32u

/* The online CPUs, 1 .. JOBS_MAX. */
uint32_t jobs_default(void);
/* A count 1 .. JOBS_MAX into *jobs; -EINVAL for anything else. */
int jobs_parse(const char *arg, uint32_t *jobs);

#endif
