// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tracepoints of -e: their ids, and their fields from tracefs's format files for the
 * HEADER's event table, so readers decode SAMPLE payloads with no tracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

static int user_read(struct sct_event_desc *d, uint64_t *id, const char *events, const char *gn)
{
	struct sct_event_field *fields;
	char group[256], *colon;
	uint32_t n;
	int err;

	snprintf(group, sizeof(group), "%s", gn);
	colon = strchr(group, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	err = perf_tracepoint_id(events, group, colon + 1, id);
	if (!err)
		err = perf_event_format(events, group, colon + 1, &fields, &n);
	if (err)
		return err;
	d->name = gn;
	d->fields = fields;
	d->nfields = n;
	return 0;
}

int perf_user_read_report(struct perf_user *u, const char *events, char *const *names, size_t n)
{
	int err = 0;

	memset(u, 0, sizeof(*u));
	if (!n)
		return 0;
	u->desc = calloc(n, sizeof(*u->desc));
	u->ids = calloc(n, sizeof(*u->ids));
	if (!u->desc || !u->ids)
		return -ENOMEM;
	for (; !err && u->n < n; u->n++) {
		err = user_read(&u->desc[u->n], &u->ids[u->n], events, names[u->n]);
		if (err == -ENOENT)
			fprintf(stderr, "sct-record: no tracepoint %s in %s (see its available_events)\n",
				names[u->n], events);
		else if (err)
			fprintf(stderr, "sct-record: cannot read the tracepoint %s from %s: %s\n",
				names[u->n], events, strerror(-err));
	}
	return err;
}

int perf_user_find(const struct perf_user *u, uint64_t id)
{
	for (uint32_t i = 0; i < u->n; i++)
		if (u->ids[i] == id)
			return (int)i;
	return -1;
}

void perf_user_free(struct perf_user *u)
{
	for (uint32_t i = 0; u->desc && i < u->n; i++)
		perf_event_format_free((struct sct_event_field *)u->desc[i].fields, u->desc[i].nfields);
	free(u->desc);
	free(u->ids);
	memset(u, 0, sizeof(*u));
}
