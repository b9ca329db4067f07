// SPDX-License-Identifier: BSD-2-Clause
/*
 * The feed of a live input. A thread copies the input into a pipe so that the reader, which
 * ends at its input's first end of file, reads a growing file as one stream, and so that a
 * signal can end the stream where it stands (close the pipe) whatever the source does.
 *
 * Following a file: at its end the thread waits for inotify's word that its folder changed
 * (the file grew, or a file was made), then reads on. sct-record's rotation names its files
 * STEM.NNNNNN.EXT (6 digits or more, the file's sequence number) and finishes a file
 * (its last block and TRAILER) before it makes the next: so once STEM.(N+1).EXT exists, what
 * file N holds is all it will hold, and the thread reads it to its end and goes on with
 * N + 1. The reader sees the files of the recording one after the other, as
 * `cat rec.000001.sct rec.000002.sct | sct-report -` would give them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow.h"

#define FOLLOW_CHUNK (256u << 10)
#define FOLLOW_PIPE_SIZE (1 << 20) /* fewer wake-ups; the kernel may give less */

struct follow {
	char path[PATH_MAX]; /* the file read now */
	int src, out, watch; /* source, the pipe's write end, inotify (-1 for a stream) */
	bool next_seen; /* the next file exists: one more read to the end of this one, then on */
	bool started;
	pthread_t thread;
	uint8_t buf[FOLLOW_CHUNK];
};

/* Written by the signal handler: every feed polls its read end. */
static int stop_pipe[2] = { -1, -1 };

static void follow_on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	/* a full pipe already says stop */
	while (write(stop_pipe[1], &c, 1) < 0 && errno == EINTR)
		;
	errno = saved;
}

/* SIGINT and SIGTERM end every feed (set up once). */
static int follow_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = follow_on_signal };

	if (stop_pipe[0] >= 0)
		return 0;
	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	return 0;
}

static bool follow_stopped(void)
{
	struct pollfd p = { .fd = stop_pipe[0], .events = POLLIN };

	return stop_pipe[0] >= 0 && poll(&p, 1, 0) > 0;
}

/* Until fd is ready for events, or a stop. false on a stop or an error. */
static bool follow_wait(int fd, short events)
{
	struct pollfd p[2] = { { .fd = fd, .events = events }, { .fd = stop_pipe[0], .events = POLLIN } };

	for (;;) {
		int n = poll(p, stop_pipe[0] >= 0 ? 2 : 1, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || p[1].revents)
			return false;
		if (p[0].revents & (events | POLLHUP | POLLERR))
			return !(p[0].revents & POLLERR);
	}
}

static bool follow_write(struct follow *f, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n;

		if (!follow_wait(f->out, POLLOUT))
			return false;
		n = write(f->out, f->buf + done, len - done);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return false; /* the reader is gone */
		if (n > 0)
			done += (size_t)n;
	}
	return true;
}

/*
 * The name of the file after path in its recording (STEM.NNNNNN.EXT), or false if path is
 * not named so.
 */
static bool follow_next_name(const char *path, char *next, size_t cap)
{
	const char *base = strrchr(path, '/'), *ext, *d;
	unsigned long long seq;
	int n;

	base = base ? base + 1 : path;
	ext = strrchr(base, '.');
	if (!ext || ext == base)
		ext = base + strlen(base);
	for (d = ext; d > base && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (ext - d < 6 || d == base || d[-1] != '.')
		return false;
	seq = strtoull(d, NULL, 10);
	if (seq == ULLONG_MAX)
		return false;
	n = snprintf(next, cap, "%.*s%0*llu%s", (int)(d - path), path, (int)(ext - d), seq + 1, ext);
	return n > 0 && (size_t)n < cap;
}

/*
 * At the end of the file read now: on into the next file if it exists, after one more read
 * of this one (what it got before the next was made). 1 to read on, 0 to wait, -1 on error.
 */
static int follow_rotate(struct follow *f)
{
	char next[PATH_MAX];
	int fd;

	if (!follow_next_name(f->path, next, sizeof(next)) || access(next, F_OK))
		return 0;
	if (!f->next_seen) {
		f->next_seen = true;
		return 1;
	}
	f->next_seen = false;
	fd = open(next, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	close(f->src);
	f->src = fd;
	snprintf(f->path, sizeof(f->path), "%s", next);
	return 1;
}

/* At the end of a followed file: until it or its folder changes. false on a stop. */
static bool follow_idle(struct follow *f)
{
	char ev[4096];

	if (!follow_wait(f->watch, POLLIN))
		return false;
	while (read(f->watch, ev, sizeof(ev)) > 0)
		;
	return true;
}

static void *follow_thread(void *arg)
{
	struct follow *f = arg;

	while (!follow_stopped()) {
		ssize_t n;

		if (f->watch < 0 && !follow_wait(f->src, POLLIN))
			break;
		n = read(f->src, f->buf, sizeof(f->buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0) {
			if (!follow_write(f, (size_t)n))
				break;
			continue;
		}
		if (n < 0 || f->watch < 0)
			break;
		n = follow_rotate(f);
		if (n < 0 || (!n && !follow_idle(f)))
			break;
	}
	close(f->out);
	f->out = -1;
	return NULL;
}

/* inotify on the folder of the followed file: it grows, or the next file is made. */
static int follow_watch(struct follow *f)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(f->path, '/');

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - f->path + (slash == f->path)), f->path);
	else
		snprintf(dir, sizeof(dir), ".");
	f->watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (f->watch < 0)
		return -errno;
	if (inotify_add_watch(f->watch, dir, IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE) < 0)
		return -errno;
	return 0;
}

static int follow_open(struct follow *f, const char *path, bool grow, int p[2])
{
	struct stat st;

	snprintf(f->path, sizeof(f->path), "%s", path);
	f->src = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (f->src < 0 || fstat(f->src, &st))
		return -errno;
	if (grow && S_ISREG(st.st_mode) && follow_watch(f))
		return -errno;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	f->out = p[1];
	fcntl(f->out, F_SETFL, O_NONBLOCK);
	fcntl(f->out, F_SETPIPE_SZ, FOLLOW_PIPE_SIZE);
	return 0;
}

int follow_start(struct follow **out, const char *path, bool grow, int *fd)
{
	struct follow *f = calloc(1, sizeof(*f));
	int p[2] = { -1, -1 }, err;

	if (!f)
		return -ENOMEM;
	f->src = f->out = f->watch = -1;
	err = follow_catch_signals();
	if (!err)
		err = follow_open(f, path, grow, p);
	if (!err)
		err = -pthread_create(&f->thread, NULL, follow_thread, f);
	f->started = !err;
	if (err) {
		if (p[0] >= 0)
			close(p[0]);
		follow_free(f);
		return err;
	}
	*fd = p[0];
	*out = f;
	return 0;
}

void follow_free(struct follow *f)
{
	if (!f)
		return;
	if (f->started) {
		follow_on_signal(0);
		pthread_join(f->thread, NULL);
	}
	if (f->out >= 0)
		close(f->out);
	if (f->src >= 0)
		close(f->src);
	if (f->watch >= 0)
		close(f->watch);
	free(f);
}
