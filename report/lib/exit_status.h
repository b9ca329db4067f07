/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exit statuses of the offline tools (sct-report, sct-convert, sct-ship).
 */
#ifndef SCT_EXIT_STATUS_H
#define SCT_EXIT_STATUS_H



#define EXIT_INPUT 1   /* an input could not be read at all, or output failed */
#define EXIT_USAGE 2   /* bad command line */
#define EXIT_DAMAGED 3 /* damaged input and --strict, or nothing readable in it */

#endif
