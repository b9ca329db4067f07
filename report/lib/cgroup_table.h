/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cgroups by session and id (cgroup_table.c), with the path a CGROUP record gave them.
 */
#ifndef SCT_CGROUP_TABLE_H
#define SCT_CGROUP_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "strtab.h"

struct cgroup {
	uint32_t sess;
	uint64_t id;
	uint32_t path;  /* strtab id + 1, 0 = no CGROUP record (yet) */
	uint32_t unnamed; /* "cgroup:ID"'s strtab id + 1 once made, 0 before: made once, not per line */
	uint8_t pass;   /* --cgroup filter: 0 not decided, 1 pass, 2 drop */
};
struct cgroups;
struct cgroups *cgroups_new(struct strtab *strs); /* paths are interned in strs */
struct cgroup *cgroups_get(struct cgroups *cgs, uint32_t sess, uint64_t id); /* creates; NULL on ENOMEM */
int cgroups_set_path(struct cgroups *cgs, uint32_t sess, uint64_t id, const void *path, size_t len);
/* Label: the path, or "cgroup:ID" when no CGROUP record named it. */
uint32_t cgroups_label(struct cgroups *cgs, struct cgroup *cg);
void cgroups_free(struct cgroups *cgs);

#endif
