// SPDX-License-Identifier: BSD-2-Clause
/* --hist: one log2 latency histogram per group, drawn as terminal bars. */
#include <stdio.h>
#include <string.h>

#include "latency.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "strtab.h"
#include "trace_input.h"

#define HIST_BAR 40

static uint64_t hist_hi(int k)
{
	return k ? (k == 64 ? UINT64_MAX : (1ull << k) - 1) : 0;
}

static void hist_out_range(struct out *o, int k, int width)
{
	uint64_t lo = k ? 1ull << (k - 1) : 0;

	out_printf(o, "%*llu -> %-*llu", width, (unsigned long long)lo, width, (unsigned long long)hist_hi(k));
}

static void hist_out_one(const struct strtab *strs, struct out *o, const struct group *g, uint32_t nby)
{
	uint64_t b[65], peak = 0;
	int first = -1, last = -1, width;

	lat_log2(&g->lat, b);
	for (int k = 0; k < 65; k++) {
		if (!b[k])
			continue;
		if (first < 0)
			first = k;
		last = k;
		if (b[k] > peak)
			peak = b[k];
	}
	for (uint32_t k = 0; k < nby; k++) {
		uint32_t len = strtab_len(strs, g->label[k]);

		out_str(o, k ? "  " : "");
		names_out_escaped(o, len ? strtab_get(strs, g->label[k]) : "?", len ? len : 1);
	}
	width = snprintf(NULL, 0, "%llu", (unsigned long long)hist_hi(last < 0 ? 0 : last));
	if (width < 6)
		width = 6;
	out_printf(o, ": %llu call%s\n%*s : %-10s distribution\n", (unsigned long long)g->lat.count,
		   names_plural(g->lat.count), 2 * width + 4, "duration (ns)", "count");
	for (int k = first; k >= 0 && k <= last; k++) {
		unsigned stars = (unsigned)((unsigned __int128)b[k] * HIST_BAR / peak);
		char bar[HIST_BAR + 1];

		memset(bar, ' ', HIST_BAR);
		memset(bar, '*', stars);
		bar[HIST_BAR] = 0;
		hist_out_range(o, k, width);
		out_printf(o, " : %-10llu |%s|\n", (unsigned long long)b[k], bar);
	}
	out_char(o, '\n');
}

int hist_print(const struct ctx *c, struct summary *sm, struct out *o)
{
	struct group **gs;
	int n = summary_groups(sm, &gs);

	if (n < 0)
		return n;
	/* a group of calls that do not return has no durations to draw */
	for (int i = 0; i < n; i++)
		if (gs[i]->lat.count)
			hist_out_one(c->strs, o, gs[i], summary_nby(sm));
	return 0;
}
