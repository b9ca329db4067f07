// SPDX-License-Identifier: BSD-2-Clause
/*
 * The trace file: created with mode 0600, never through a final symbolic link (a link placed
 * where the trace goes would otherwise make root overwrite and chmod its target), never over
 * an existing file without --force. With --force the trace is written to a new file in the
 * same folder and renamed over the old name before its first record, so an overwritten path
 * is never a hard link's shared inode, and a SIGKILL leaves every block at the final name.
 * The numbered files of a rotated recording and its snapshots are named from -o's stem and
 * extension, made under a temporary name and renamed to theirs once their start is written.
 *
 * Nothing another user made is ever written into: in a shared folder, a FIFO at -o's name
 * would stream root's trace to them, and a file made there while -o was away (moved by
 * logrotate before a SIGHUP) would be appended to. New files are created with O_EXCL; what
 * exists already is checked after it is opened (the checks before, by name, only give the
 * clearer message): a regular file must be ours with no other link, a FIFO or a device ours
 * or root's (-o /dev/null as another user).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../record.h"

/* A FIFO or a device: written into, never replaced, so no --force is needed. */
static bool output_is_stream(mode_t mode)
{
	return S_ISFIFO(mode) || S_ISCHR(mode);
}

bool output_is_stream_path(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!lstat(path, &st) && output_is_stream(st.st_mode));
}

/* Who may own an object at an output's name: we; for a FIFO or a device, root too. */
static bool output_owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || (output_is_stream(st->st_mode) && st->st_uid == 0);
}

int output_check_fd(int fd, bool stream_ok)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!output_owner_ok(&st))
		return -EPERM;
	if (!S_ISREG(st.st_mode) && !(stream_ok && output_is_stream(st.st_mode)))
		return -EEXIST;
	return S_ISREG(st.st_mode) && st.st_nlink != 1 ? -EMLINK : 0;
}

const char *output_strerror(int err)
{
	switch (err) {
	case -EPERM:
		return "it belongs to another user: refused";
	case -EMLINK:
		return "a file with other hard links: refused";
	default:
		return sct_strerror(err);
	}
}

/* Where -o's extension starts in path: its last dot, unless in a folder name or leading. */
static size_t output_ext_at(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && dot > base ? (size_t)(dot - path) : strlen(path);
}

int output_name(const struct env *env, bool snapshot, uint64_t seq, char *buf, size_t cap)
{
	const char *path = env->output;
	size_t ext = output_ext_at(path);
	int n = snprintf(buf, cap, "%.*s.%s%06llu%s", (int)ext, path, snapshot ? "snapshot-" : "",
			 (unsigned long long)seq, path + ext);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

/* Whether name is one of the recording's names: stem, dot, [snapshot-]6+ digits, extension. */
static bool output_is_numbered(const char *name, const char *stem, size_t stem_len, const char *ext)
{
	size_t digits, ext_len = strlen(ext), len = strlen(name);

	if (len <= stem_len + 1 + ext_len || strncmp(name, stem, stem_len) || name[stem_len] != '.' ||
	    strcmp(name + len - ext_len, ext))
		return false;
	name += stem_len + 1;
	len -= stem_len + 1 + ext_len;
	if (!strncmp(name, "snapshot-", 9)) {
		name += 9;
		len = len >= 9 ? len - 9 : 0;
	}
	digits = strspn(name, "0123456789");
	return digits >= 6 && digits == len;
}

/* A file of an earlier recording with a name this one would take: refused without --force. */
static int output_check_numbered(const struct env *env)
{
	char *copy = strdup(env->output), *dir, *stem;
	const char *ext;
	struct dirent *e;
	size_t ext_at;
	DIR *d;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	ext_at = output_ext_at(copy);
	ext = env->output + ext_at;
	copy[ext_at] = '\0';
	stem = strrchr(copy, '/');
	dir = stem ? copy : ".";
	if (stem)
		*stem++ = '\0';
	else
		stem = copy;
	d = opendir(*dir ? dir : "/");
	while (d && !err && (e = readdir(d)))
		if (output_is_numbered(e->d_name, stem, strlen(stem), ext)) {
			fprintf(stderr, "sct-record: %s%s%s exists: use --force to replace the files of an "
				"earlier recording, or -o another name\n", stem == copy ? "" : dir,
				stem == copy ? "" : "/", e->d_name);
			err = -EEXIST;
		}
	if (d)
		closedir(d);
	free(copy);
	return err;
}

int output_check_report(const struct env *env)
{
	const char *path = env->output;
	struct stat st;

	if (env_rotates(env) || env->snapshot_size) {
		if (output_is_stream_path(path)) {
			fprintf(stderr, "sct-record: %s writes numbered files beside -o: give -o a file "
				"name, not %s\n", env->snapshot_size ? "--snapshot" : "rotation",
				strcmp(path, "-") ? "a FIFO or a device" : "stdout");
			return -EINVAL;
		}
		return env->force ? 0 : output_check_numbered(env);
	}

	if (!strcmp(path, "-")) {
		if (!isatty(STDOUT_FILENO))
			return 0;
		fprintf(stderr, "sct-record: stdout is a terminal: redirect it or pipe it (sct-report -), "
			"or give -o FILE\n");
		return -EINVAL;
	}
	if (lstat(path, &st))
		return 0;
	if (S_ISLNK(st.st_mode)) {
		fprintf(stderr, "sct-record: %s is a symbolic link: give -o the path of the file itself\n",
			path);
		return -ELOOP;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "sct-record: %s is a directory: give -o a file name\n", path);
		return -EISDIR;
	}
	if (!output_owner_ok(&st)) {
		fprintf(stderr, "sct-record: %s belongs to uid %u: give -o a path of your own\n", path,
			(unsigned)st.st_uid);
		return -EPERM;
	}
	if (!output_is_stream(st.st_mode) && !env->force) {
		fprintf(stderr, "sct-record: %s exists: use --force to overwrite it, or -o another file\n",
			path);
		return -EEXIST;
	}
	return 0;
}

/* An existing FIFO or device, opened where it is; anything else there now is refused. */
static int output_open_stream(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC), err;
	struct stat st;

	if (fd < 0)
		return -errno;
	err = output_check_fd(fd, true);
	if (!err && (fstat(fd, &st) || !output_is_stream(st.st_mode)))
		err = -EEXIST;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int output_reopen(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600), err;

	if (fd >= 0 || errno != EEXIST)
		return fd >= 0 ? fd : -errno;
	/* Non-blocking: a FIFO put there would hold the open until someone reads it. */
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	/* ENXIO: a FIFO with no reader */
	if (fd < 0)
		return errno == ENXIO ? -EEXIST : -errno;
	err = output_check_fd(fd, false);
	if (!err && fcntl(fd, F_SETFL, O_APPEND))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* A temporary name in path's folder, for mkostemp(). */
static int output_tmp_name(const char *path, char *tmp, size_t cap)
{
	char *copy = strdup(path);
	int n;

	if (!copy)
		return -ENOMEM;
	n = snprintf(tmp, cap, "%s/.sct-record.XXXXXX", dirname(copy));
	free(copy);
	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

int output_create_tmp(const char *name, char *tmp, size_t cap)
{
	int fd, err = output_tmp_name(name, tmp, cap);

	if (err)
		return err;
	fd = mkostemp(tmp, O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A new file in path's folder, renamed over path: what was there (file or link) is replaced. */
static int output_replace(const char *path)
{
	char tmp[PATH_MAX];
	int fd = output_create_tmp(path, tmp, sizeof(tmp));

	if (fd >= 0 && rename(tmp, path)) {
		int err = -errno;

		unlink(tmp);
		close(fd);
		fd = err;
	}
	return fd;
}

int output_open(const struct env *env, bool *created)
{
	const char *path = env->output;
	struct stat st;
	int fd;

	*created = false;
	if (!strcmp(path, "-"))
		return STDOUT_FILENO;
	if (!lstat(path, &st) && output_is_stream(st.st_mode))
		return output_open_stream(path);
	if (env->force)
		fd = output_replace(path);
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
		fd = -errno;
	*created = fd >= 0;
	return fd;
}

int output_publish(const struct env *env, const char *tmp, const char *name)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, name, env->force ? 0 : RENAME_NOREPLACE))
		return -errno;
	return 0;
}

int output_close(struct sct_writer *w, uint64_t *bytes)
{
	int err = sct_writer_finish(w);
	int cerr;

	*bytes = sct_writer_bytes(w);
	cerr = sct_writer_close(w);
	return err ? err : cerr;
}
