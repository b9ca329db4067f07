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
#define TP_PATH_MAX (4096 + 512)

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

static int tp_path(char *path, size_t cap, const char *events, const char *group, const char *name,
		   const char *file)
{
	return snprintf(path, cap, "%s/%s/%s/%s", events, group, name, file) < (int)cap ? 0 : -ENAMETOOLONG;
}

int perf_tracepoint_id(const char *events, const char *group, const char *name, uint64_t *id)
{
	char path[TP_PATH_MAX];

	return tp_path(path, sizeof(path), events, group, name, "id") ?: read_file_u64(path, id);
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
	char path[TP_PATH_MAX], line[512];
	int err = tp_path(path, sizeof(path), events, group, name, "format");
	FILE *f;

	if (err)
		return err;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = -ENOENT;
	while (fgets(line, sizeof(line), f))
		if (format_line_field(line, field, offset, size)) {
			err = 0;
			break;
		}
	fclose(f);
	return err;
}
