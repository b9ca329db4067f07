// SPDX-License-Identifier: BSD-2-Clause
/* Buffered, bounded input (see input.h). */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Smallest read buffer: a few typical blocks, so a file is read in few system calls. */
#define INPUT_MIN_CAP (256u << 10)
/* Free space kept after the bytes asked for, so reads are never tiny. */
#define INPUT_SLACK (64u << 10)
/* Growth by doubling stops here: one largest frame (16 MiB and its envelope) and slack. */
#define INPUT_MAX_CAP (17u << 20)

void input_init_fd(struct input *in, int fd, bool own_fd)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->own_fd = own_fd;
}

void input_init_mem(struct input *in, const void *p, size_t len)
{
	memset(in, 0, sizeof(*in));
	static const uint8_t empty[1];

	in->fd = -1;
	/* never NULL: offsets are added to it even when len is 0 */
	in->buf = (uint8_t *)(p ? p : empty);
	in->cap = in->end = len;
	in->eof = true;
}

void input_free(struct input *in)
{
	if (in->fd < 0)
		return;
	free(in->buf);
	if (in->own_fd)
		close(in->fd);
	in->buf = NULL;
	in->fd = -1;
}

/* Room for need bytes from start plus INPUT_SLACK to read into: slide the window to the front,
 * grow if that is not enough (up to INPUT_MAX_CAP unless one frame needs more). */
static int input_room(struct input *in, size_t need)
{
	size_t avail = input_avail(in), want = need + INPUT_SLACK, cap;
	uint8_t *tmp;

	if (in->cap - in->start >= want)
		return 0;
	if (in->start) {
		memmove(in->buf, in->buf + in->start, avail);
		in->base += in->start;
		in->start = 0;
		in->end = avail;
	}
	if (in->cap >= want)
		return 0;
	cap = in->cap ? in->cap * 2 : INPUT_MIN_CAP;
	if (cap > INPUT_MAX_CAP)
		cap = INPUT_MAX_CAP;
	if (cap < want)
		cap = want;
	tmp = realloc(in->buf, cap);
	if (!tmp)
		return -ENOMEM;
	in->buf = tmp;
	in->cap = cap;
	return 0;
}

int input_fill(struct input *in, size_t need)
{
	int err;

	if (input_avail(in) >= need)
		return 0;
	if (in->eof)
		return 1;
	err = input_room(in, need);
	if (err)
		return err;
	while (input_avail(in) < need) {
		ssize_t n = read(in->fd, in->buf + in->end, in->cap - in->end);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0) {
			in->eof = true;
			return 1;
		}
		in->end += (size_t)n;
	}
	return 0;
}
