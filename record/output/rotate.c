// SPDX-License-Identifier: BSD-2-Clause
/*
 * The files of one recording: one file (SIGHUP reopens -o), numbered files that follow one
 * another by size, by time or on SIGHUP (rotation, with retention by count), or nothing but
 * snapshots of the flight recorder. Every switch happens between two records in the one
 * thread that appends them, so a record goes to exactly one file; a file is finished (last
 * block, TRAILER, fsync, close) before the next one is made, so a crash or a full disk can
 * only ever leave the newest file incomplete.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../record.h"

/* A file this recording made, so that retention deletes nothing else. */
struct made {
	dev_t dev;
	ino_t ino;
	bool set;
};

struct rotation {
	struct sct_writer_opts opts;
	uint64_t seq;               /* of the open file; of the last snapshot written */
	uint64_t file_start_ns;
	uint64_t records_done, bytes_done; /* files closed, snapshots written */
	uint64_t files;             /* files (or snapshots) written */
	char name[PATH_MAX];        /* the open file */
	char first[PATH_MAX];       /* the first file of the recording, for the summary */
	bool created;               /* the open file is ours: a failed start unlinks it */
	bool stream;                /* -o is stdout, a FIFO or a device: never reopened */
	bool said;                  /* the error was printed where it happened */
	struct made *made;          /* --rotate-count slots, by sequence number modulo the count */
	rotate_start_fn start;      /* what follows each file's HEADER */
	void *start_ctx;
};

/* The open file: its writer is finished and closed, its records and bytes counted. */
static int rotate_finish(struct recorder *r)
{
	struct rotation *rot = r->rot;
	uint64_t records = sct_writer_records(r->writer), bytes;
	int err = output_close(r->writer, &bytes);

	r->writer = NULL;
	rot->records_done += records;
	rot->bytes_done += bytes;
	if (err) {
		fprintf(stderr, "sct-record: writing %s failed: %s; it holds every block written before\n",
			rot->name, sct_strerror(err));
		rot->said = true;
	}
	return err;
}

/* What follows a HEADER: tasks and cgroups named anew, flushed. */
static int rotate_begin(struct recorder *r)
{
	int err;

	if (r->cgroups)
		cgroups_forget_seen(r->cgroups);
	if (r->stacks)
		stacks_file_begin(r->stacks);
	/* the next SYSCALL record's cgroup is new to this file */
	r->last_cgroup = 0;
	err = r->rot->start(r->rot->start_ctx);
	if (!err)
		err = sct_writer_flush(r->writer);
	return err;
}

/* A new file on fd: HEADER (by the writer), then its start. */
static int rotate_start(struct recorder *r, int fd)
{
	int err = 0;

	r->host.info.sequence = r->rot->seq;
	r->writer = sct_writer_open_fd(fd, &r->host.info, &r->rot->opts, &err);
	if (!r->writer)
		return err ? err : -EIO;
	return rotate_begin(r);
}

/* Retention: the file --rotate-count files older than seq goes, if it is still the one made. */
static void rotate_retain(struct recorder *r, const char *tmp)
{
	struct rotation *rot = r->rot;
	uint32_t count = r->env->rotate_count;
	struct made *slot;
	char old[PATH_MAX];
	struct stat st;

	if (!count)
		return;
	slot = &rot->made[rot->seq % count];
	if (slot->set && rot->seq > count && !output_name(r->env, false, rot->seq - count, old, sizeof(old)) &&
	    !lstat(old, &st) && st.st_dev == slot->dev && st.st_ino == slot->ino && unlink(old))
		fprintf(stderr, "sct-record: warning: cannot delete %s (--rotate-count): %s\n", old,
			strerror(errno));
	slot->set = !stat(tmp, &st);
	slot->dev = st.st_dev;
	slot->ino = st.st_ino;
}

/* Numbered file seq: made under a temporary name, named once its start is written. */
static int rotate_open_numbered(struct recorder *r, uint64_t seq)
{
	struct rotation *rot = r->rot;
	char tmp[PATH_MAX];
	int fd, err;

	rot->seq = seq;
	err = output_name(r->env, false, seq, rot->name, sizeof(rot->name));
	if (err)
		return err;
	fd = output_create_tmp(rot->name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	err = rotate_start(r, fd);
	if (!err) {
		rotate_retain(r, tmp);
		err = output_publish(r->env, tmp, rot->name);
	}
	if (err) {
		sct_writer_abandon(r->writer);
		r->writer = NULL;
		unlink(tmp);
		return err;
	}
	rot->file_start_ns = clock_now_ns();
	rot->files++;
	return 0;
}

/* -o itself: a new file, a FIFO, a device or stdout; reopened (appended to) on SIGHUP. */
static int rotate_open_plain(struct recorder *r, uint64_t seq)
{
	struct rotation *rot = r->rot;
	int fd;

	struct stat st;

	rot->seq = seq;
	snprintf(rot->name, sizeof(rot->name), "%s", strcmp(r->env->output, "-") ? r->env->output : "stdout");
	fd = seq == 1 ? output_open(r->env, &rot->created) : output_reopen(r->env->output);
	if (fd < 0)
		return fd;
	if (seq == 1)
		rot->stream = !strcmp(r->env->output, "-") || fstat(fd, &st) || !S_ISREG(st.st_mode);
	rot->files++;
	return rotate_start(r, fd);
}

static int rotate_open_next(struct recorder *r, uint64_t seq)
{
	return env_rotates(r->env) ? rotate_open_numbered(r, seq) : rotate_open_plain(r, seq);
}

int rotate_open_report(struct recorder *r, const struct sct_writer_opts *opts, rotate_start_fn start,
		       void *ctx)
{
	int err;

	r->rot = calloc(1, sizeof(*r->rot));
	if (r->rot && r->env->rotate_count)
		r->rot->made = calloc(r->env->rotate_count, sizeof(*r->rot->made));
	if (!r->rot || (r->env->rotate_count && !r->rot->made)) {
		fprintf(stderr, "sct-record: out of memory\n");
		return -ENOMEM;
	}
	r->rot->opts = *opts;
	r->rot->start = start;
	r->rot->start_ctx = ctx;
	if (r->env->snapshot_size) {
		/* the tasks at start go into the ring too: the ready line counts them */
		err = flight_open(r, opts, start, ctx);
		if (!err)
			err = rotate_begin(r);
		if (err)
			fprintf(stderr, "sct-record: cannot start the flight recorder: %s\n", sct_strerror(err));
		return err;
	}
	err = rotate_open_next(r, 1);
	if (err)
		fprintf(stderr, "sct-record: cannot create %s: %s\n", r->rot->name, output_strerror(err));
	snprintf(r->rot->first, sizeof(r->rot->first), "%s", r->rot->name);
	return err;
}

/* The next file now; a failure stops the recording, every file before it complete. */
static int rotate_next_report(struct recorder *r)
{
	struct rotation *rot = r->rot;
	int err = rotate_finish(r);

	if (err)
		return err;
	err = rotate_open_next(r, rot->seq + 1);
	if (err) {
		fprintf(stderr, "sct-record: cannot %s %s: %s; recording stopped, the files before it "
			"are complete\n", env_rotates(r->env) ? "create" : "reopen", rot->name,
			output_strerror(err));
		rot->said = true;
		return err;
	}
	if (!r->env->quiet)
		fprintf(stderr, "%ssct-record: %s %s\n", r->status_shown ? "\r\033[K" : "",
			env_rotates(r->env) ? "file" : "reopened", rot->name);
	r->status_shown = false;
	return 0;
}

/* SIGUSR2: a snapshot; one that cannot be written is said and recording goes on. */
static void rotate_snapshot(struct recorder *r)
{
	struct rotation *rot = r->rot;
	char name[PATH_MAX];
	uint64_t bytes;
	int err;

	if (!r->flight) {
		fprintf(stderr, "sct-record: SIGUSR2 ignored: no --snapshot\n");
		return;
	}
	err = flight_write(r, rot->seq + 1, name, sizeof(name), &bytes);
	if (err) {
		fprintf(stderr, "sct-record: cannot write snapshot %s: %s\n", name, sct_strerror(err));
		return;
	}
	rot->bytes_done += bytes;
	rot->seq++;
	rot->files++;
	if (rot->files == 1)
		snprintf(rot->first, sizeof(rot->first), "%s", name);
	snprintf(rot->name, sizeof(rot->name), "%s", name);
	if (!r->env->quiet)
		fprintf(stderr, "%ssct-record: snapshot %s\n", r->status_shown ? "\r\033[K" : "", name);
	r->status_shown = false;
}

/* Whether the open numbered file is full or old enough. */
static bool rotate_due(const struct recorder *r, uint64_t now_ns)
{
	const struct env *env = r->env;

	if (!env_rotates(env))
		return false;
	if (env->rotate_size && sct_writer_bytes(r->writer) >= env->rotate_size)
		return true;
	return env->rotate_interval_ns && now_ns - r->rot->file_start_ns >= env->rotate_interval_ns;
}

bool rotate_pending(const struct recorder *r, uint64_t now_ns)
{
	return (record_hup && !r->flight && !r->rot->stream) || rotate_due(r, now_ns);
}

int rotate_tick_report(struct recorder *r, uint64_t now_ns)
{
	if (record_snapshot) {
		record_snapshot = 0;
		rotate_snapshot(r);
	}
	if (record_hup) {
		record_hup = 0;
		if (!r->flight && !r->rot->stream)
			return rotate_next_report(r);
		if (!r->env->quiet)
			fprintf(stderr, "sct-record: SIGHUP ignored: %s\n",
				r->flight ? "the flight recorder writes only snapshots" : "no file to reopen");
	}
	return rotate_due(r, now_ns) ? rotate_next_report(r) : 0;
}

int rotate_close_report(struct recorder *r, int err)
{
	struct rotation *rot = r->rot;
	int cerr = 0;

	if (!rot)
		return err;
	if (r->flight && r->env->snapshot_on_exit && !err)
		rotate_snapshot(r);
	if (r->flight) {
		rot->records_done = sct_writer_records(r->writer);
		sct_writer_abandon(r->writer);
		r->writer = NULL;
	} else if (r->writer) {
		cerr = rotate_finish(r);
	}
	if (err && !rot->said)
		fprintf(stderr, "sct-record: writing %s failed: %s; it holds every block written before\n",
			rot->name, sct_strerror(err));
	return err ? err : cerr;
}

void rotate_discard(struct recorder *r)
{
	struct rotation *rot = r->rot;

	sct_writer_abandon(r->writer);
	r->writer = NULL;
	if (!rot)
		return;
	if (rot->created)
		unlink(r->env->output);
	/* the first numbered file, published with its start before the ready line failed */
	else if (env_rotates(r->env) && rot->files == 1)
		unlink(rot->name);
}

uint64_t rotate_records(const struct recorder *r)
{
	uint64_t done = r->rot ? r->rot->records_done : 0;

	return done + (r->writer ? sct_writer_records(r->writer) : 0);
}

uint64_t rotate_describe(const struct recorder *r, char *buf, size_t cap)
{
	const struct rotation *rot = r->rot;

	if (r->flight && !rot->files)
		snprintf(buf, cap, "no snapshot");
	else if (rot->files == 1)
		snprintf(buf, cap, "%s", rot->name);
	else if (!r->flight && !env_rotates(r->env))
		snprintf(buf, cap, "%s (%llu sessions: reopened on SIGHUP)", rot->name,
			 (unsigned long long)rot->files);
	else
		snprintf(buf, cap, "%s .. %s (%llu %s)", rot->first, rot->name, (unsigned long long)rot->files,
			 r->flight ? "snapshots" : "files");
	return rot->bytes_done;
}

void rotate_free(struct recorder *r)
{
	if (r->rot)
		free(r->rot->made);
	free(r->rot);
	flight_free(r->flight);
	r->rot = NULL;
	r->flight = NULL;
}
