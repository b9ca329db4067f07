// SPDX-License-Identifier: BSD-2-Clause
/*
 * tracefs for the perf backend: where it is (mounted on demand, as perf does), the id of a
 * tracepoint, and the offsets of its fields from its format file, so no layout is compiled in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* "field:DECL;\toffset:N;\tsize:N;\tsigned:N;" -> f (strings allocated); false if not a field. */
static bool format_line_parse(const char *line, struct sct_event_field *f)
{
	const char *decl = strstr(line, "field:"), *semi, *p, *end;
	unsigned off, sz, sg;
	char *name, *type;

	if (!decl || !(semi = strchr(decl += 6, ';')))
		return false;
	if (sscanf(semi, "; offset:%u; size:%u; signed:%u;", &off, &sz, &sg) != 3 &&
	    sscanf(semi, ";\toffset:%u;\tsize:%u;\tsigned:%u;", &off, &sz, &sg) != 3)
		return false;
	end = semi;
	while (end > decl && end[-1] == ']')
		while (end > decl && *--end != '[')
			;
	for (p = end; p > decl && p[-1] != ' ' && p[-1] != '\t'; p--)
		;
	if (p == end)
		return false;
	type = strndup(decl, semi - decl);
	name = strndup(p, end - p);
	if (!type || !name) {
		free(type);
		free(name);
		return false;
	}
	f->name = name;
	f->type = type;
	f->offset = off;
	f->size = sz;
	f->is_signed = sg != 0;
	f->data_loc = !strncmp(type, "__data_loc ", 11) ? 1 : !strncmp(type, "__rel_loc ", 10) ? 2 : 0;
	return true;
}

int perf_event_format(const char *events, const char *group, const char *name,
		      struct sct_event_field **fields, uint32_t *nfields)
{
	char path[TP_PATH_MAX], line[1024];
	struct sct_event_field f, *tmp;
	int err = tp_path(path, sizeof(path), events, group, name, "format");
	uint32_t cap = 0;
	FILE *file;

	*fields = NULL;
	*nfields = 0;
	if (err)
		return err;
	file = fopen(path, "re");
	if (!file)
		return -errno;
	while (!err && fgets(line, sizeof(line), file)) {
		if (!format_line_parse(line, &f))
			continue;
		if (*nfields == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = cap <= SCT_MAX_EVENT_FIELDS ? realloc(*fields, cap * sizeof(*tmp)) : NULL;
			if (!tmp) {
				free((char *)f.name);
				free((char *)f.type);
				err = cap > SCT_MAX_EVENT_FIELDS ? -E2BIG : -ENOMEM;
				break;
			}
			*fields = tmp;
		}
		(*fields)[(*nfields)++] = f;
	}
	fclose(file);
	if (!err && !*nfields)
		err = -ENODATA;
	return err;
}

void perf_event_format_free(struct sct_event_field *fields, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free((char *)fields[i].name);
		free((char *)fields[i].type);
	}
	free(fields);
}

int perf_field(const char *events, const char *group, const char *name, const char *field,
	       uint32_t *offset, uint32_t *size)
{
	struct sct_event_field *f;
	uint32_t n;
	int err = perf_event_format(events, group, name, &f, &n);

	for (uint32_t i = 0; !err && i < n; i++)
		if (!strcmp(f[i].name, field)) {
			*offset = f[i].offset;
			*size = f[i].size;
			perf_event_format_free(f, n);
			return 0;
		}
	perf_event_format_free(f, n);
	return err ? err : -ENOENT;
}
