// SPDX-License-Identifier: BSD-2-Clause
/*
 * The file an fd was opened on, within a process, followed from the trace's own calls (a
 * trace with arguments: open/openat/openat2/creat with a captured path give the fd, dup*
 * copy it, close drops it), as `strace -y` shows it: read(3</etc/hosts>, ...). What the trace
 * did not see (fds opened before recording, inherited over fork, passed over sockets) stays a
 * bare number; an fd's path is the one its call named, relative paths as they were given.
 *
 * Records reach a file out of time order (per-CPU batches), so the timeline follows fds in
 * the order it prints lines: a line is rendered with fd marks (FDPATHS_MARK fd FDPATHS_END),
 * its call's effect is kept beside it (fdpaths_effect()), and when the line is printed the
 * marks are filled in (fdpaths_out()) and the effect applied (fdpaths_apply()).
 */
#include <stdlib.h>
#include <string.h>

#include "fdpaths.h"
#include "hashmap.h"
#include "names.h"
#include "outbuf.h"
#include "strtab.h"

struct fdpaths {
	struct strtab *strs;
	struct hashmap map; /* (session << 32 | pid, fd) -> strtab id + 1 of the path */
};

struct fdpaths *fdpaths_new(struct strtab *strs)
{
	struct fdpaths *fp = calloc(1, sizeof(*fp));

	if (!fp)
		return NULL;
	fp->strs = strs;
	hashmap_init(&fp->map, 2);
	return fp;
}

void fdpaths_free(struct fdpaths *fp)
{
	if (!fp)
		return;
	hashmap_free(&fp->map);
	free(fp);
}

static uint32_t fdpaths_get(const struct fdpaths *fp, uint32_t sess, uint32_t pid, uint64_t fd)
{
	const uint64_t key[2] = { (uint64_t)sess << 32 | pid, fd };
	uintptr_t v = (uintptr_t)hashmap_get(&fp->map, key);

	return v ? (uint32_t)(v - 1) : FDPATHS_NONE;
}

/* The calls that give, copy or take an fd, by name. */
static enum fd_call fd_call_of(const char *name)
{
	static const struct { const char *name; enum fd_call call; } calls[] = {
		{ "open", FD_OPEN }, { "openat", FD_OPEN }, { "openat2", FD_OPEN }, { "creat", FD_OPEN },
		{ "dup", FD_DUP }, { "dup2", FD_DUP }, { "dup3", FD_DUP }, { "close", FD_CLOSE },
	};

	for (size_t i = 0; name && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].name, name))
			return calls[i].call;
	return FD_NONE;
}

void fdpaths_effect(struct fdpaths *fp, uint32_t sess, const struct sct_session *s,
		    const struct sct_syscall *sc, struct fd_effect *e)
{
	const char *name = sc->abi == SCT_ABI_NATIVE ? sct_session_syscall_name(s, sc->nr, SCT_ABI_NATIVE)
						     : NULL;

	memset(e, 0, sizeof(*e));
	e->sess = sess;
	e->pid = sc->pid;
	if (sc->unfinished || sc->ret < 0)
		return;
	e->call = fd_call_of(name);
	e->fd = (uint32_t)sc->arg0;
	e->newfd = (uint64_t)sc->ret;
	if (e->call == FD_OPEN && !(sc->path_flags & SCT_PATH_CAPTURED))
		e->call = FD_NONE;
	if (e->call == FD_OPEN)
		e->path = strtab_intern(fp->strs, sc->path.ptr, sc->path.len);
}

int fdpaths_apply(struct fdpaths *fp, const struct fd_effect *e)
{
	uint64_t key[2] = { (uint64_t)e->sess << 32 | e->pid, e->fd };
	uint32_t path = e->path;

	switch (e->call) {
	case FD_CLOSE:
		hashmap_remove(&fp->map, key);
		return 0;
	case FD_DUP:
		path = fdpaths_get(fp, e->sess, e->pid, e->fd);
		if (path == FDPATHS_NONE)
			return 0;
		break;
	case FD_OPEN:
		break;
	default:
		return 0;
	}
	key[1] = e->newfd;
	hashmap_remove(&fp->map, key);
	/* the map holds non-NULL pointers: the id is stored plus one */
	return hashmap_put(&fp->map, key, (void *)(uintptr_t)((uint64_t)path + 1));
}

void fdpaths_out(const struct fdpaths *fp, struct out *o, const char *line, size_t len, uint32_t sess,
		 uint32_t pid)
{
	const char *end = line + len;

	while (line < end) {
		const char *mark = memchr(line, FDPATHS_MARK, (size_t)(end - line));
		const char *stop;
		uint64_t fd = 0;
		uint32_t id;

		if (!mark) {
			out_mem(o, line, (size_t)(end - line));
			return;
		}
		out_mem(o, line, (size_t)(mark - line));
		stop = memchr(mark, FDPATHS_END, (size_t)(end - mark));
		if (!stop)
			stop = end;
		out_mem(o, mark + 1, (size_t)(stop - mark - 1));
		for (const char *p = mark + 1; p < stop && *p >= '0' && *p <= '9'; p++)
			fd = fd * 10 + (uint64_t)(*p - '0');
		id = mark[1] == '-' ? FDPATHS_NONE : fdpaths_get(fp, sess, pid, fd);
		if (id != FDPATHS_NONE) {
			out_char(o, '<');
			names_out_escaped(o, strtab_get(fp->strs, id), strtab_len(fp->strs, id));
			out_char(o, '>');
		}
		line = stop < end ? stop + 1 : end;
	}
}
