// SPDX-License-Identifier: BSD-2-Clause
/*
 * tracefs for the perf backend: where it is (mounted on demand, as perf does), the id of a
 * tracepoint, and the offsets of its fields from its format file, so no layout is compiled in.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "perf.h"

#define TRACEFS "/sys/kernel/tracing"
#define DEBUGFS_TRACING "/sys/kernel/debug/tracing"

int perf_tracefs_events(char *buf, size_t cap)
{
	static const char *const places[] = { TRACEFS, DEBUGFS_TRACING };
	char path[64];

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", places[i]);
		if (!access(path, R_OK))
			return snprintf(buf, cap, "%s", path) < (int)cap ? 0 : -ENAMETOOLONG;
	}
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) && errno != EBUSY)
		return -errno;
	snprintf(path, sizeof(path), "%s/events", TRACEFS);
	if (access(path, R_OK))
		return -errno;
	return snprintf(buf, cap, "%s", path) < (int)cap ? 0 : -ENAMETOOLONG;
}

static FILE *tp_file(const char *events, const char *group, const char *name, const char *file)
{
	char path[4096 + 256];

	if (snprintf(path, sizeof(path), "%s/%s/%s/%s", events, group, name, file) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

int perf_tracepoint_id(const char *events, const char *group, const char *name, uint64_t *id)
{
	FILE *f = tp_file(events, group, name, "id");
	unsigned long long v;
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*id = v;
	return 0;
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;": whether it declares field. */
static bool format_line_field(const char *line, const char *field, uint32_t *offset, uint32_t *size)
{
	const char *decl = strstr(line, "field:"), *semi, *p;
	size_t flen = strlen(field);
	unsigned off, sz;

	if (!decl || !(semi = strchr(decl, ';')))
		return false;
	/* The name is the last word of the declaration, before any array suffix. */
	for (p = semi; p > decl && p[-1] != ' ' && p[-1] != '\t'; p--)
		;
	if (strncmp(p, field, flen) || (p[flen] != ';' && p[flen] != '['))
		return false;
	if (sscanf(semi, "; offset:%u; size:%u;", &off, &sz) != 2 &&
	    sscanf(semi, ";\toffset:%u;\tsize:%u;", &off, &sz) != 2)
		return false;
	*offset = off;
	*size = sz;
	return true;
}

int perf_field(const char *events, const char *group, const char *name, const char *field,
	       uint32_t *offset, uint32_t *size)
{
	FILE *f = tp_file(events, group, name, "format");
	char line[512];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (format_line_field(line, field, offset, size)) {
			err = 0;
			break;
		}
	fclose(f);
	return err;
}
