// SPDX-License-Identifier: BSD-2-Clause
/* Cgroup ids per session and the paths CGROUP records give them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_table.h"
#include "hashmap.h"
#include "strtab.h"

struct cgroups {
	struct strtab *strs; /* paths and labels, owned by the caller */
	struct hashmap map;  /* (sess, id) -> struct cgroup * */
	struct cgroup *last;
};

struct cgroups *cgroups_new(struct strtab *strs)
{
	struct cgroups *cgs = calloc(1, sizeof(*cgs));

	if (!cgs)
		return NULL;
	cgs->strs = strs;
	hashmap_init(&cgs->map, 2);
	return cgs;
}

struct cgroup *cgroups_get(struct cgroups *cgs, uint32_t sess, uint64_t id)
{
	uint64_t key[2] = { sess, id };
	struct cgroup *cg = cgs->last;

	if (cg && cg->id == id && cg->sess == sess)
		return cg;
	cg = hashmap_get(&cgs->map, key);
	if (!cg) {
		cg = calloc(1, sizeof(*cg));
		if (!cg)
			return NULL;
		cg->sess = sess;
		cg->id = id;
		if (hashmap_put(&cgs->map, key, cg)) {
			free(cg);
			return NULL;
		}
	}
	cgs->last = cg;
	return cg;
}

int cgroups_set_path(struct cgroups *cgs, uint32_t sess, uint64_t id, const void *path, size_t len)
{
	struct cgroup *cg = cgroups_get(cgs, sess, id);

	if (!cg)
		return -ENOMEM;
	cg->path = strtab_intern(cgs->strs, path, len) + 1;
	cg->pass = 0; /* the --cgroup decision may change with the path */
	return 0;
}

uint32_t cgroups_label(struct cgroups *cgs, struct cgroup *cg)
{
	char tmp[40];

	if (cg->path)
		return cg->path - 1;
	if (!cg->unnamed) {
		snprintf(tmp, sizeof(tmp), "cgroup:%llu", (unsigned long long)cg->id);
		cg->unnamed = strtab_intern(cgs->strs, tmp, strlen(tmp)) + 1;
	}
	return cg->unnamed - 1;
}

void cgroups_free(struct cgroups *cgs)
{
	if (!cgs)
		return;
	for (size_t i = 0; i < cgs->map.cap; i++)
		free(cgs->map.vals[i]);
	hashmap_free(&cgs->map);
	free(cgs);
}
