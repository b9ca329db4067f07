// SPDX-License-Identifier: BSD-2-Clause
/*
 * The heat maps of sct-report --html: calls by time and latency, per syscall. Inputs are
 * read one after the other and their clocks differ, so calls come in no time order: the
 * columns cover [lo, lo + HEAT_COLS * width), and a call outside doubles the width (two
 * columns merge into one, lo aligned down to the new width) until it fits. The span is
 * never more than twice what the calls need, whatever their order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "html.h"

struct heat *html_heat_new(void)
{
	struct heat *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	hashmap_init(&h->index, 1);
	return h;
}

void html_heat_free(struct heat *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nmaps; i++)
		free(h->maps[i]);
	free(h->maps);
	hashmap_free(&h->index);
	free(h);
}

static struct heat_map *html_heat_map(struct heat *h, uint32_t name)
{
	uint64_t key = name;
	uintptr_t i;
	struct heat_map *m;

	if (h->nmaps && h->maps[h->last]->name == name)
		return h->maps[h->last];
	i = (uintptr_t)hashmap_get(&h->index, &key);
	if (i) {
		h->last = (uint32_t)(i - 1);
		return h->maps[i - 1];
	}
	if (h->nmaps == h->capmaps) {
		uint32_t n = h->capmaps ? h->capmaps * 2 : 16;
		struct heat_map **tmp = realloc(h->maps, n * sizeof(*tmp));

		if (!tmp)
			return NULL;
		h->maps = tmp;
		h->capmaps = n;
	}
	m = calloc(1, sizeof(*m));
	if (!m || hashmap_put(&h->index, &key, (void *)(uintptr_t)(h->nmaps + 1))) {
		free(m);
		return NULL;
	}
	m->name = name;
	h->last = h->nmaps;
	h->maps[h->nmaps++] = m;
	return m;
}

/* Twice the width: column i of [lo, ...) goes to column (i + off) / 2 of [lo - off * width, ...). */
static void html_heat_double(struct heat *h)
{
	uint64_t off = h->lo / h->width % 2;

	for (uint32_t k = 0; k < h->nmaps; k++) {
		struct heat_map *m = h->maps[k];
		uint64_t merged[HEAT_COLS][HEAT_ROWS];

		memset(merged, 0, sizeof(merged));
		for (uint32_t i = 0; i < HEAT_COLS; i++)
			for (uint32_t r = 0; r < HEAT_ROWS; r++)
				merged[(i + off) / 2][r] += m->cells[i][r];
		memcpy(m->cells, merged, sizeof(merged));
	}
	h->lo -= off * h->width;
	h->width *= 2;
}

static uint32_t html_heat_row(uint64_t ns)
{
	return ns ? 64u - (uint32_t)__builtin_clzll(ns) : 0;
}

/* The column of wall-clock time wall_ns, the columns widened until it is in one. */
static uint64_t *html_heat_column(struct heat *h, struct heat_map *m, uint64_t wall_ns)
{
	if (!h->width) {
		h->width = 1;
		h->lo = wall_ns;
	}
	while (wall_ns < h->lo || (wall_ns - h->lo) / h->width >= HEAT_COLS)
		html_heat_double(h);
	return m->cells[(wall_ns - h->lo) / h->width];
}

int html_heat_add(struct heat *h, uint32_t name, uint64_t wall_ns, uint64_t duration_ns)
{
	struct heat_map *m = html_heat_map(h, name);

	if (!m)
		return -ENOMEM;
	html_heat_column(h, m, wall_ns)[html_heat_row(duration_ns)]++;
	m->calls++;
	m->total_ns += duration_ns;
	return 0;
}

int html_heat_add_totals(struct heat *h, uint32_t name, uint64_t wall_ns, const struct sct_totals *t)
{
	struct heat_map *m = html_heat_map(h, name);
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	uint64_t *col;
	int n;

	if (!m)
		return -ENOMEM;
	col = html_heat_column(h, m, wall_ns);
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while ((n = sct_hist_next(&it, &bin)) > 0)
		col[html_heat_row(sct_hist_bucket_low(bin.bucket, t->hist_bits))] += bin.count;
	if (n < 0)
		return n;
	m->calls += t->calls;
	m->total_ns += t->duration_ns;
	return 0;
}
