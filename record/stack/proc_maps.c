// SPDX-License-Identifier: BSD-2-Clause
/*
 * Each traced process's executable mappings, read from /proc/PID/maps at its first stack,
 * again after its exec or when an address is not covered (a library dlopen'd since), and
 * copied to a child at its fork: a short-lived child is usually gone by the time its calls are
 * read, and until it execs its mappings are its parent's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../record.h"

/* A process whose address missed is read again at most this often: a JIT misses every time. */
#define MAPS_REREAD_NS NSEC_PER_SEC

struct map {
	uint64_t start, end, pgoff;
	uint32_t module;
};

struct proc_entry {
	struct map *maps;     /* sorted by start */
	uint32_t n;
	bool known;           /* maps read, or copied from the parent */
	uint64_t read_ns;     /* when maps was read; 0: copied from the parent */
};

struct proc_maps {
	struct stack_modules *ms;
	struct keytab procs;  /* pid -> struct proc_entry */
};

struct proc_maps *proc_maps_new(struct stack_modules *ms)
{
	struct proc_maps *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->ms = ms;
	keytab_init(&pm->procs, sizeof(uint32_t), sizeof(struct proc_entry), STACK_MAX_PROCS);
	return pm;
}

void proc_maps_free(struct proc_maps *pm)
{
	if (!pm)
		return;
	for (size_t i = 0; i < pm->procs.cap; i++)
		if (keytab_key(&pm->procs, i))
			free(((struct proc_entry *)keytab_val(&pm->procs, i))->maps);
	keytab_free(&pm->procs);
	free(pm);
}

/* One executable line of a maps file into m; false for others and for anonymous code. */
static bool maps_line(struct proc_maps *pm, uint32_t pid, const char *line, struct map *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int major, minor;
	char perms[8], p[4096];
	int at = 0;
	const char *path;
	size_t len;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &major, &minor,
		   &ino, &at) < 7 || !at || perms[2] != 'x')
		return false;
	path = line + at;
	len = strcspn(path, "\n");
	if (!len || len >= sizeof(p) || (path[0] != '/' && strncmp(path, "[vdso]", len)))
		return false;
	memcpy(p, path, len);
	p[len] = 0;
	m->module = stack_modules_find(pm->ms, pid, start, end, ((uint64_t)major << 32) | minor, ino, p);
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	return m->module != STACK_MODULE_NONE;
}

/* pid's executable mappings from /proc, into e; -errno (the process is gone). */
static int maps_read(struct proc_maps *pm, uint32_t pid, struct proc_entry *e)
{
	char name[64], line[4096 + 128];
	struct map *maps = NULL, *t;
	uint32_t n = 0, cap = 0;
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%" PRIu32 "/maps", pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && n < STACK_MAX_MAPS) {
		struct map m;

		if (!maps_line(pm, pid, line, &m))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			t = realloc(maps, cap * sizeof(*maps));
			if (!t)
				break;
			maps = t;
		}
		maps[n++] = m;
	}
	fclose(f);
	e->read_ns = clock_now_ns();
	/* a zombie's maps file is empty: what was known of the process stays */
	if (!n && e->known) {
		free(maps);
		return 0;
	}
	free(e->maps);
	e->maps = maps;
	e->n = n;
	e->known = true;
	return 0;
}

static const struct map *maps_find(const struct proc_entry *e, uint64_t addr)
{
	uint32_t lo = 0, hi = e->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (e->maps[mid].end <= addr)
			lo = mid + 1;
		else if (e->maps[mid].start > addr)
			hi = mid;
		else
			return &e->maps[mid];
	}
	return NULL;
}

static struct proc_entry *proc_get(struct proc_maps *pm, uint32_t pid)
{
	int err;

	return keytab_put(&pm->procs, &pid, &err);
}

bool proc_maps_resolve(struct proc_maps *pm, uint32_t pid, uint64_t addr, uint32_t *module, uint64_t *maddr)
{
	struct proc_entry *e = proc_get(pm, pid);
	const struct map *m;

	if (!e)
		return false;
	m = e->maps ? maps_find(e, addr) : NULL;
	if (!m && (!e->known || clock_now_ns() - e->read_ns >= MAPS_REREAD_NS)) {
		/* a process gone keeps what was known of it */
		if (maps_read(pm, pid, e))
			return false;
		m = maps_find(e, addr);
	}
	if (!m)
		return false;
	*module = m->module;
	return stack_module_addr(pm->ms, m->module, m->pgoff + (addr - m->start), maddr);
}

void proc_maps_forget(struct proc_maps *pm, uint32_t pid)
{
	struct proc_entry *e = keytab_get(&pm->procs, &pid);

	if (!e)
		return;
	free(e->maps);
	keytab_del(&pm->procs, &pid);
}

void proc_maps_fork(struct proc_maps *pm, uint32_t parent, uint32_t child)
{
	struct proc_entry *p = proc_get(pm, parent), *c;
	struct map *maps;
	uint32_t n;

	if (!p || (!p->known && maps_read(pm, parent, p)))
		return;
	n = p->n;
	maps = malloc(n * sizeof(*maps) + 1);
	if (!maps)
		return;
	memcpy(maps, p->maps, n * sizeof(*maps));
	/* p moves when the table grows: nothing of it is read past here */
	proc_maps_forget(pm, child);
	c = proc_get(pm, child);
	if (!c) {
		free(maps);
		return;
	}
	c->maps = maps;
	c->n = n;
	c->known = true;
	c->read_ns = 0;
}
