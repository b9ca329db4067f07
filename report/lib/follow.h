/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bytes of a live input (follow.c), copied by a thread into a pipe that libsct's reader
 * reads: a stream (stdin, a FIFO) as they come, or a file followed as it grows (tail -f) and
 * on into the next file of its recording when the recorder rotates. SIGINT and SIGTERM end
 * the feed: the reader then meets the end of its input, and the tool ends as at an end of
 * file, with its footer.
 */
#ifndef SCT_FOLLOW_H
#define SCT_FOLLOW_H

#include <stdbool.h>

struct follow;

/*
 * Feeds path ("-": stdin), SIGINT and SIGTERM caught from then on; with grow, a regular file
 * is followed past its end. *fd: the pipe's read end, owned by the caller. -errno if path
 * cannot be opened.
 */
int follow_start(struct follow **out, const char *path, bool grow, int *fd);
/* Ends the feed (the reader meets the end of its input) and frees it. */
void follow_free(struct follow *f);

#endif
