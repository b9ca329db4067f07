// SPDX-License-Identifier: BSD-2-Clause
/*
 * The state folder. sct-ship runs as root, so the folder must be one no one else can write
 * into: else another user could have made "shipped" a symlink to a file of their choice,
 * which root would then create or append to, or could hand root a list that skips files.
 * The folder is opened once and everything in it is opened relative to that descriptor,
 * never through a symlink (O_NOFOLLOW), and must be the caller's regular file with one link.
 *
 *   lock      flock()ed while sct-ship runs
 *   shipped   a line per shipped file: "dev ino size mtime_ns path"
 *   failed    a line per file that failed: "dev ino size mtime_ns runs<TAB>path<TAB>why",
 *             rewritten whole (a temporary file renamed over it)
 * Paths and reasons are escaped as sct-report escapes text (names_escape()): no byte of a
 * file name can end a line, so no name can forge an entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "names.h"
#include "ship.h"

#define STATE_KEY_MAX 96
#define STATE_PATH_ESC (PATH_MAX * 4 + 1)

struct ship_state {
	int dirfd, lockfd, shipped_fd;
	char *shipped; /* "\n" and the list, NUL-terminated */
	char *failed;  /* "\n" and the lines of failed */
};

/* name in the folder, opened without following a symlink; must be the caller's, one link. */
static int state_openat(struct ship_state *s, const char *name, int flags, char *msg, size_t cap)
{
	int fd = openat(s->dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
	struct stat st;

	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(msg, cap, "%s is a symlink: refused (remove it)", name);
		return -errno;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		snprintf(msg, cap, "%s is not a regular file of uid %u with one link: refused", name, (unsigned)geteuid());
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* All of fd, after a "\n", NUL-terminated, into *out. */
static int state_read(int fd, char **out)
{
	struct stat st;
	size_t got = 0;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	*out = malloc((size_t)st.st_size + 2);
	if (!*out)
		return -ENOMEM;
	(*out)[0] = '\n';
	while (got < (size_t)st.st_size &&
	       ((n = pread(fd, *out + 1 + got, (size_t)st.st_size - got, (off_t)got)) > 0 || (n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	(*out)[1 + got] = '\0';
	return 0;
}

static int state_check_dir(struct ship_state *s, char *msg, size_t cap)
{
	struct stat st;

	if (fstat(s->dirfd, &st))
		return -errno;
	if (st.st_uid != geteuid()) {
		snprintf(msg, cap, "owned by uid %u, not by the caller (uid %u): refused", (unsigned)st.st_uid,
			 (unsigned)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(msg, cap, "mode %04o: others may write into it: refused (chmod go-w)", (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int state_lock(struct ship_state *s, char *msg, size_t cap)
{
	s->lockfd = state_openat(s, "lock", O_RDWR | O_CREAT, msg, cap);
	if (s->lockfd < 0)
		return s->lockfd;
	if (flock(s->lockfd, LOCK_EX | LOCK_NB))
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	return 0;
}

static int state_load(struct ship_state *s, char *msg, size_t cap)
{
	int fd, err;

	s->shipped_fd = state_openat(s, "shipped", O_RDWR | O_CREAT | O_APPEND, msg, cap);
	if (s->shipped_fd < 0)
		return s->shipped_fd;
	err = state_read(s->shipped_fd, &s->shipped);
	if (err)
		return err;
	fd = state_openat(s, "failed", O_RDONLY, msg, cap);
	if (fd == -ENOENT)
		return (s->failed = strdup("\n")) ? 0 : -ENOMEM;
	if (fd < 0)
		return fd;
	err = state_read(fd, &s->failed);
	close(fd);
	return err;
}

int ship_state_open(struct ship_state **out, const char *dir, char *msg, size_t cap)
{
	struct ship_state *s = calloc(1, sizeof(*s));
	int err;

	*out = s;
	msg[0] = '\0';
	if (!s)
		return -ENOMEM;
	s->dirfd = s->lockfd = s->shipped_fd = -1;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->dirfd < 0) {
		err = -errno;
		if (err == -ELOOP || err == -ENOTDIR)
			snprintf(msg, cap, "not a directory (a symlink is refused)");
		return err;
	}
	err = state_check_dir(s, msg, cap);
	if (!err)
		err = state_lock(s, msg, cap);
	if (!err)
		err = state_load(s, msg, cap);
	return err;
}

void ship_state_close(struct ship_state *s)
{
	if (!s)
		return;
	if (s->shipped_fd >= 0)
		close(s->shipped_fd);
	if (s->lockfd >= 0)
		close(s->lockfd);
	if (s->dirfd >= 0)
		close(s->dirfd);
	free(s->shipped);
	free(s->failed);
	free(s);
}

/* "\ndev ino size mtime_ns ": how a line of either list starts. */
static void state_key(const struct stat *st, char key[STATE_KEY_MAX])
{
	snprintf(key, STATE_KEY_MAX, "\n%llu %llu %lld %lld%09ld ", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino, (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

bool ship_state_shipped(const struct ship_state *s, const struct stat *st)
{
	char key[STATE_KEY_MAX];

	state_key(st, key);
	return strstr(s->shipped, key) != NULL;
}

static int state_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* failed with content (without its leading "\n"), crash-safe: a new file renamed over it. */
static int state_write_failed(struct ship_state *s, const char *content)
{
	int fd, err;

	if (unlinkat(s->dirfd, "failed.new", 0) && errno != ENOENT)
		return -errno;
	fd = openat(s->dirfd, "failed.new", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = state_write_all(fd, content, strlen(content));
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(s->dirfd, "failed.new", s->dirfd, "failed"))
		err = -errno;
	if (!err && fsync(s->dirfd))
		err = -errno;
	return err;
}

/* The failed list without the lines of this file (its key, or its escaped path), then line (may be ""). */
static int state_set_failed(struct ship_state *s, const char *key, const char *esc_path, const char *line)
{
	size_t plen = strlen(esc_path);
	char *next = malloc(strlen(s->failed) + strlen(line) + 2), *w = next;
	int err;

	if (!next)
		return -ENOMEM;
	*w++ = '\n';
	for (const char *l = s->failed + 1, *end; *l; l = end + 1) {
		const char *tab = strchr(l, '\t');

		end = strchr(l, '\n');
		if (!end)
			break;
		if (strncmp(l - 1, key, strlen(key)) &&
		    !(tab && tab < end && !strncmp(tab + 1, esc_path, plen) && tab[1 + plen] == '\t')) {
			memcpy(w, l, (size_t)(end + 1 - l));
			w += end + 1 - l;
		}
	}
	w = stpcpy(w, line);
	if (!strcmp(next, s->failed)) {
		free(next);
		return 0;
	}
	err = state_write_failed(s, next + 1);
	free(s->failed);
	s->failed = next;
	return err;
}

int ship_state_add_shipped(struct ship_state *s, const struct stat *st, const char *path)
{
	char key[STATE_KEY_MAX], *line = malloc(STATE_KEY_MAX + STATE_PATH_ESC + 1);
	size_t len;
	int err;

	if (!line)
		return -ENOMEM;
	state_key(st, key);
	len = (size_t)snprintf(line, STATE_KEY_MAX, "%s", key + 1);
	len += names_escape(line + len, STATE_PATH_ESC, path, strlen(path));
	line[len++] = '\n';
	err = state_write_all(s->shipped_fd, line, len);
	if (!err && fsync(s->shipped_fd))
		err = -errno;
	line[len - 1] = '\0';
	if (!err)
		err = state_set_failed(s, key, line + strlen(key) - 1, "");
	free(line);
	return err;
}

unsigned ship_state_failures(const struct ship_state *s, const struct stat *st, char *why, size_t cap)
{
	char key[STATE_KEY_MAX];
	const char *l, *tab, *end;
	unsigned long runs;

	state_key(st, key);
	l = strstr(s->failed, key);
	if (!l)
		return 0;
	l += strlen(key);
	runs = strtoul(l, NULL, 10);
	end = strchr(l, '\n');
	tab = strchr(l, '\t');
	tab = tab ? strchr(tab + 1, '\t') : NULL;
	if (why)
		snprintf(why, cap, "%.*s", tab && end && tab < end ? (int)(end - tab - 1) : 0, tab ? tab + 1 : "");
	return runs > UINT_MAX ? UINT_MAX : (unsigned)runs;
}

int ship_state_fail(struct ship_state *s, const struct stat *st, const char *path, unsigned runs, const char *why)
{
	char key[STATE_KEY_MAX], *esc = malloc(STATE_PATH_ESC), *line;
	int err = -ENOMEM;

	state_key(st, key);
	line = esc ? malloc(STATE_KEY_MAX + STATE_PATH_ESC + 2 * strlen(why) + 32) : NULL;
	if (line) {
		char *w;

		names_escape(esc, STATE_PATH_ESC, path, strlen(path));
		w = line + sprintf(line, "%s%u\t%s\t", key + 1, runs, esc);
		/* why is escaped text already; a tab or newline in it would still end the entry */
		for (const char *p = why; *p; p++)
			*w++ = *p == '\t' || *p == '\n' ? ' ' : *p;
		strcpy(w, "\n");
		err = state_set_failed(s, key, esc, line);
	}
	free(line);
	free(esc);
	return err;
}
