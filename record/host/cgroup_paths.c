// SPDX-License-Identifier: BSD-2-Clause
/*
 * cgroup v2 ids -> paths. The id of a cgroup v2 directory is its inode number, so a walk of
 * the cgroup2 mount maps every live cgroup; a cache keeps the result and a miss rescans.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "../record.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
#define CGROUPS_MIN_SLOTS 256

struct cgroup_slot {
	uint64_t id;   /* 0 = empty slot */
	char *path;    /* NULL until a walk found it */
	bool seen;     /* cgroups_first_seen() returned 1 for it */
};

struct cgroups {
	char mount[PATH_MAX];
	size_t mount_len;
	struct cgroup_slot *slots;
	size_t nslots, used;     /* nslots: power of two, used < nslots / 2 */
};

/* /proc/self/mountinfo fields: id parent major:minor root mountpoint opts... - fstype ... */
int cgroups_find_mount(char *buf, size_t cap)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], point[PATH_MAX], *dash;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || strncmp(dash, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
			continue;
		if (strlen(point) >= cap) {
			err = -ENAMETOOLONG;
			break;
		}
		strcpy(buf, point);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

bool cgroups_v1_mounted(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " - cgroup ") != NULL;
	fclose(f);
	return found;
}

int cgroups_target(const char *mount, const char *arg, uint64_t *id, uint32_t *level)
{
	char path[PATH_MAX], real[PATH_MAX], mreal[PATH_MAX];
	size_t mlen;
	struct statfs sfs;
	struct stat st;
	uint32_t depth = 0;
	const char *p;

	/* An absolute path under the mount is taken as is; anything else is relative to it. */
	if (!strncmp(arg, mount, strlen(mount)) && (arg[strlen(mount)] == '/' || !arg[strlen(mount)]))
		snprintf(path, sizeof(path), "%s", arg);
	else if (snprintf(path, sizeof(path), "%s/%s", mount, arg) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (!realpath(path, real) || !realpath(mount, mreal))
		return -errno;
	if (stat(real, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (statfs(real, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		return -EXDEV;
	mlen = strlen(mreal);
	if (strncmp(real, mreal, mlen) || (real[mlen] && real[mlen] != '/'))
		return -EXDEV;
	for (p = real + mlen; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			depth++;
	*id = st.st_ino;
	*level = depth;
	return 0;
}

struct cgroups *cgroups_new(const char *mount)
{
	struct cgroups *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	snprintf(c->mount, sizeof(c->mount), "%s", mount);
	c->mount_len = strlen(c->mount);
	c->nslots = CGROUPS_MIN_SLOTS;
	c->slots = calloc(c->nslots, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	return c;
}

void cgroups_free(struct cgroups *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nslots; i++)
		free(c->slots[i].path);
	free(c->slots);
	free(c);
}

static size_t slot_hash(uint64_t id, size_t mask)
{
	return (id * 0x9E3779B97F4A7C15ull) >> 32 & mask;
}

static struct cgroup_slot *slot_find(struct cgroup_slot *slots, size_t nslots, uint64_t id)
{
	size_t i = slot_hash(id, nslots - 1);

	while (slots[i].id && slots[i].id != id)
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

static int slots_grow(struct cgroups *c)
{
	size_t n = c->nslots * 2;
	struct cgroup_slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < c->nslots; i++)
		if (c->slots[i].id)
			*slot_find(slots, n, c->slots[i].id) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->nslots = n;
	return 0;
}

/* The slot of id, created if missing; NULL on ENOMEM. */
static struct cgroup_slot *slot_get(struct cgroups *c, uint64_t id)
{
	struct cgroup_slot *s = slot_find(c->slots, c->nslots, id);

	if (s->id)
		return s;
	if ((c->used + 1) * 2 > c->nslots) {
		if (slots_grow(c))
			return NULL;
		s = slot_find(c->slots, c->nslots, id);
	}
	s->id = id;
	c->used++;
	return s;
}

int cgroups_first_seen(struct cgroups *c, uint64_t id)
{
	struct cgroup_slot *s = slot_get(c, id);

	if (!s)
		return -ENOMEM;
	if (s->seen)
		return 0;
	s->seen = true;
	return 1;
}

void cgroups_forget_seen(struct cgroups *c)
{
	for (size_t i = 0; i < c->nslots; i++)
		c->slots[i].seen = false;
}

/*
 * Give every cgroup directory at or below path (a PATH_MAX buffer holding len bytes) its
 * path below the mount. Symbolic links and other mounts are not followed; a directory
 * removed meanwhile is skipped.
 */
static int cgroups_walk_dir(struct cgroups *c, char *path, size_t len, dev_t dev)
{
	struct cgroup_slot *s;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int err = 0;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_dev != dev)
		return 0;
	s = slot_get(c, st.st_ino);
	if (!s)
		return -ENOMEM;
	if (!s->path && !(s->path = strdup(len > c->mount_len ? path + c->mount_len : "/")))
		return -ENOMEM;
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		size_t n = strlen(d->d_name);

		if ((d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, "..") || len + 1 + n >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, d->d_name, n + 1);
		err = cgroups_walk_dir(c, path, len + 1 + n, dev);
		path[len] = '\0';
	}
	closedir(dir);
	return err;
}

static int cgroups_walk(struct cgroups *c)
{
	char path[PATH_MAX];
	struct stat st;

	if (stat(c->mount, &st))
		return -errno;
	memcpy(path, c->mount, c->mount_len + 1);
	return cgroups_walk_dir(c, path, c->mount_len, st.st_dev);
}

const char *cgroups_path(struct cgroups *c, uint64_t id)
{
	struct cgroup_slot *s = slot_find(c->slots, c->nslots, id);

	if (s->id && s->path)
		return s->path;
	if (cgroups_walk(c))
		return NULL;
	s = slot_find(c->slots, c->nslots, id);
	return s->id ? s->path : NULL;
}
