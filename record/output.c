// SPDX-License-Identifier: BSD-2-Clause
/*
 * The trace file: created with mode 0600, never through a final symbolic link (a link placed
 * where the trace goes would otherwise make root overwrite and chmod its target), never over
 * an existing file without --force. With --force the trace is written to a new file in the
 * same folder and renamed over the old name before its first record, so an overwritten path
 * is never a hard link's shared inode, and a SIGKILL leaves every block at the final name.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

/* A FIFO or a device: written into, never replaced, so no --force is needed. */
static bool output_is_stream(mode_t mode)
{
	return S_ISFIFO(mode) || S_ISCHR(mode);
}

int output_check_report(const struct env *env)
{
	const char *path = env->output;
	struct stat st;

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
	struct stat st;
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !output_is_stream(st.st_mode)) {
		close(fd);
		return -EEXIST;
	}
	return fd;
}

/* A new file in path's folder, renamed over path: what was there (file or link) is replaced. */
static int output_replace(const char *path)
{
	char *copy = strdup(path), *tmp = NULL;
	int fd = -ENOMEM;

	if (!copy || asprintf(&tmp, "%s/.sct-record.XXXXXX", dirname(copy)) < 0) {
		tmp = NULL;
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		goto out;
	}
	if (rename(tmp, path)) {
		int err = -errno;

		unlink(tmp);
		close(fd);
		fd = err;
	}
out:
	free(tmp);
	free(copy);
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

int output_close(struct sct_writer *w, uint64_t *bytes)
{
	int err = sct_writer_finish(w);
	int cerr;

	*bytes = sct_writer_bytes(w);
	cerr = sct_writer_close(w);
	return err ? err : cerr;
}
