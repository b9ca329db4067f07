// SPDX-License-Identifier: BSD-2-Clause
/* Cgroup ids per session and the paths CGROUP records give them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static struct hashmap cgroup_map;
static struct cgroup *last;

struct cgroup *cgroups_get(uint32_t sess, uint64_t id)
{
	uint64_t key[2] = { sess, id };
	struct cgroup *cg;

	if (last && last->id == id && last->sess == sess)
		return last;
	if (!cgroup_map.nkeys)
		hashmap_init(&cgroup_map, 2);
	cg = hashmap_get(&cgroup_map, key);
	if (!cg) {
		cg = calloc(1, sizeof(*cg));
		if (!cg)
			return NULL;
		cg->sess = sess;
		cg->id = id;
		if (hashmap_put(&cgroup_map, key, cg)) {
			free(cg);
			return NULL;
		}
	}
	last = cg;
	return cg;
}

int cgroups_set_path(uint32_t sess, uint64_t id, const void *path, size_t len)
{
	struct cgroup *cg = cgroups_get(sess, id);

	if (!cg)
		return -ENOMEM;
	cg->path = strtab_intern(path, len) + 1;
	cg->pass = 0; /* the --cgroup decision may change with the path */
	return 0;
}

uint32_t cgroups_label(const struct cgroup *cg)
{
	char tmp[40];

	if (cg->path)
		return cg->path - 1;
	snprintf(tmp, sizeof(tmp), "cgroup:%llu", (unsigned long long)cg->id);
	return strtab_intern(tmp, strlen(tmp));
}

void cgroups_free(void)
{
	for (size_t i = 0; i < cgroup_map.cap; i++)
		free(cgroup_map.vals[i]);
	hashmap_free(&cgroup_map);
	last = NULL;
}
