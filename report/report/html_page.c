// SPDX-License-Identifier: BSD-2-Clause
/*
 * The page of sct-report --html: one file with nothing to fetch (inline CSS and SVG, no
 * script; a Content-Security-Policy that forbids any request), readable in any browser
 * without JavaScript. Its numbers are the text summary's, formatted the same way, from the
 * same groups; every string from a trace is escaped as the terminal output escapes it
 * (names_out_escaped()), then for HTML.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "footer.h"
#include "html.h"
#include "latency.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "strtab.h"

#define BAR_W 600      /* the longest bar (px) */
#define CELL_W 6       /* a heat map cell (px) */
#define CELL_H 10
#define HEAT_MAX 12    /* heat maps shown: the syscalls of most total time */
#define AXIS_W 70      /* room for the latency labels */

static const char page_head[] =
"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
"<title>sct-report</title>\n<style>\n"
"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}\n"
"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;font-variant-numeric:tabular-nums}\n"
"td.label,th.label{text-align:left;font-family:monospace}tbody tr:nth-child(odd){background:#f4f6f8}\n"
"tfoot td{border-top:1px solid #888;font-weight:bold}\n"
"figure{margin:1em 0}figcaption{font-family:monospace;margin-bottom:4px}\n"
"svg text{font:11px sans-serif;fill:#333}pre{background:#f4f6f8;padding:8px;overflow-x:auto}\n"
".bad{color:#b00;font-weight:bold}\n"
"</style>\n</head>\n<body>\n";

/* Bytes into HTML text or an attribute value. */
static void html_text(struct out *o, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (p[i]) {
		case '&': out_str(o, "&amp;"); break;
		case '<': out_str(o, "&lt;"); break;
		case '>': out_str(o, "&gt;"); break;
		case '"': out_str(o, "&quot;"); break;
		case '\'': out_str(o, "&#39;"); break;
		default: out_char(o, p[i]);
		}
	}
}

struct page {
	struct out *o;
	struct out tmp;        /* a memory out: a label escaped as the terminal shows it */
	struct ctx *c;
	const struct env *env;
	struct summary_totals tot;
};

/* A strtab string as the text output shows it ("?" when empty), for HTML. */
static void html_label(struct page *pg, uint32_t id)
{
	uint32_t len = strtab_len(pg->c->strs, id);

	pg->tmp.len = 0;
	names_out_escaped(&pg->tmp, len ? strtab_get(pg->c->strs, id) : "?", len ? len : 1);
	html_text(pg->o, pg->tmp.buf, pg->tmp.len);
}

static void html_group_label(struct page *pg, const struct group *g)
{
	for (uint32_t k = 0; k < pg->env->nby; k++) {
		if (k)
			out_str(pg->o, " / ");
		html_label(pg, g->label[k]);
	}
}

static void html_us(struct out *o, const char *col, uint64_t ns)
{
	out_printf(o, "<td data-col=\"%s\">%llu.%03u</td>", col, (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

static void html_secs(struct out *o, uint64_t ns)
{
	out_printf(o, "<td data-col=\"total\">%llu.%06u</td>", (unsigned long long)(ns / 1000000000),
		   (unsigned)(ns % 1000000000 / 1000));
}

/* A group's share of the total time, in hundredths of a percent, as the text computes it. */
static uint64_t html_pct(uint64_t part, uint64_t whole)
{
	return whole ? (uint64_t)((unsigned __int128)part * 10000 / whole) : 0;
}

static void html_row(struct page *pg, const struct group *g)
{
	const struct lat *l = &g->lat;
	struct out *o = pg->o;
	uint64_t pct = html_pct(l->sum, pg->tot.total_ns);

	out_printf(o, "<tr class=\"group\"><td data-col=\"calls\">%llu</td><td data-col=\"errors\">%llu</td>"
		   "<td data-col=\"pct\">%u.%02u</td>", (unsigned long long)(l->count + g->noreturn),
		   (unsigned long long)g->errors,
		   (unsigned)(pct / 100), (unsigned)(pct % 100));
	html_secs(o, l->sum);
	html_us(o, "avg", l->count ? l->sum / l->count : 0);
	html_us(o, "min", l->count ? l->min : 0);
	html_us(o, "max", l->max);
	html_us(o, "p50", lat_percentile(l, 50));
	html_us(o, "p90", lat_percentile(l, 90));
	html_us(o, "p99", lat_percentile(l, 99));
	for (uint32_t k = 0; k < pg->env->nby; k++) {
		out_str(o, "<td class=\"label\">");
		html_label(pg, g->label[k]);
		out_str(o, "</td>");
	}
	out_str(o, "</tr>\n");
}

static void html_table(struct page *pg, struct group **gs, int n)
{
	static const char *const heads[] = { "calls", "errors", "%time", "total(s)", "avg(us)", "min(us)", "max(us)",
					     "p50(us)", "p90(us)", "p99(us)" };
	struct out *o = pg->o;

	out_str(o, "<h2>Summary</h2>\n<table id=\"summary\">\n<thead><tr>");
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		out_printf(o, "<th>%s</th>", heads[i]);
	for (uint32_t k = 0; k < pg->env->nby; k++)
		out_printf(o, "<th class=\"label\">%s</th>", summary_by_name(pg->env->by[k]));
	out_str(o, "</tr></thead>\n<tbody>\n");
	for (int i = 0; i < n; i++)
		html_row(pg, gs[i]);
	out_printf(o, "</tbody>\n<tfoot><tr class=\"total\"><td data-col=\"calls\">%llu</td>"
		   "<td data-col=\"errors\">%llu</td><td data-col=\"pct\">%s</td>",
		   (unsigned long long)pg->tot.calls, (unsigned long long)pg->tot.errors, n ? "100.00" : "0.00");
	html_secs(o, pg->tot.total_ns);
	out_printf(o, "<td colspan=\"6\"></td><td class=\"label\" colspan=\"%u\">total of %u group%s", pg->env->nby,
		   pg->tot.ngroups, pg->tot.ngroups == 1 ? "" : "s");
	if ((uint32_t)n < pg->tot.ngroups)
		out_printf(o, " (top %d shown)", n);
	out_str(o, "</td></tr></tfoot>\n</table>\n");
}

/* The groups shown, as bars of their total time. */
static void html_bars(struct page *pg, struct group **gs, int n)
{
	uint64_t peak = 0;
	struct out *o = pg->o;

	for (int i = 0; i < n; i++)
		if (gs[i]->lat.sum > peak)
			peak = gs[i]->lat.sum;
	out_printf(o, "<h2>Groups by total time</h2>\n<svg id=\"bars\" width=\"%d\" height=\"%d\" role=\"img\">\n",
		   BAR_W + 420, n * 20 + 4);
	for (int i = 0; i < n; i++) {
		const struct group *g = gs[i];
		unsigned w = peak ? (unsigned)((unsigned __int128)g->lat.sum * BAR_W / peak) : 0;
		uint64_t pct = html_pct(g->lat.sum, pg->tot.total_ns);

		out_printf(o, "<g><rect x=\"0\" y=\"%d\" width=\"%u\" height=\"16\" fill=\"#4a7fb5\"/>"
			   "<text x=\"%u\" y=\"%d\">%u.%02u%% ", i * 20 + 2, w ? w : 1, (w ? w : 1) + 6, i * 20 + 14,
			   (unsigned)(pct / 100), (unsigned)(pct % 100));
		html_group_label(pg, g);
		out_str(o, "</text></g>\n");
	}
	out_str(o, "</svg>\n");
}

/* "1.5 ms" for a power of two of nanoseconds, as a latency axis reads. */
static void html_ns(struct out *o, uint64_t ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned u = 0;

	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	out_printf(o, "%.3g %s", v, units[u]);
}

/* Rows with calls in any map, and columns: the range the maps use. */
static void html_heat_bounds(const struct heat *h, uint32_t *c0, uint32_t *c1, uint32_t *r0, uint32_t *r1)
{
	*c0 = HEAT_COLS;
	*r0 = HEAT_ROWS;
	*c1 = *r1 = 0;
	for (uint32_t k = 0; k < h->nmaps; k++)
		for (uint32_t i = 0; i < HEAT_COLS; i++)
			for (uint32_t r = 0; r < HEAT_ROWS; r++) {
				if (!h->maps[k]->cells[i][r])
					continue;
				*c0 = i < *c0 ? i : *c0;
				*c1 = i > *c1 ? i : *c1;
				*r0 = r < *r0 ? r : *r0;
				*r1 = r > *r1 ? r : *r1;
			}
}

static int html_map_cmp(const void *pa, const void *pb)
{
	const struct heat_map *a = *(const struct heat_map *const *)pa, *b = *(const struct heat_map *const *)pb;

	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Darker for more calls, on a log scale: one call is still seen beside a million. */
static void html_heat_cell(struct out *o, uint64_t n, uint64_t peak, uint32_t x, uint32_t y)
{
	double f = log((double)n + 1) / log((double)peak + 1);
	unsigned light = 92 - (unsigned)(f * 62);

	out_printf(o, "<rect x=\"%u\" y=\"%u\" width=\"%d\" height=\"%d\" fill=\"hsl(%u,70%%,%u%%)\" data-n=\"%llu\">"
		   "<title>%llu</title></rect>", x, y, CELL_W, CELL_H, 40 - (unsigned)(f * 40), light,
		   (unsigned long long)n, (unsigned long long)n);
}

static void html_heat_one(struct page *pg, const struct heat *h, const struct heat_map *m, uint32_t c0, uint32_t c1,
			  uint32_t r0, uint32_t r1)
{
	struct out *o = pg->o;
	uint32_t rows = r1 - r0 + 1, cols = c1 - c0 + 1;
	uint64_t peak = 0;

	for (uint32_t i = c0; i <= c1; i++)
		for (uint32_t r = r0; r <= r1; r++)
			peak = m->cells[i][r] > peak ? m->cells[i][r] : peak;
	out_str(o, "<figure class=\"heat\" data-syscall=\"");
	html_label(pg, m->name);
	out_printf(o, "\" data-calls=\"%llu\"><figcaption>", (unsigned long long)m->calls);
	html_label(pg, m->name);
	out_printf(o, ": %llu call%s</figcaption>\n<svg width=\"%u\" height=\"%u\" role=\"img\">\n",
		   (unsigned long long)m->calls, names_plural(m->calls), AXIS_W + cols * CELL_W + 10,
		   rows * CELL_H + 20);
	for (uint32_t r = r0; r <= r1; r++)
		if ((r1 - r) % 3 == 0) { /* the top row's, then every third: labels 3 rows apart never overlap */
			out_printf(o, "<text x=\"0\" y=\"%u\">", (r1 - r) * CELL_H + CELL_H - 1);
			html_ns(o, r ? 1ull << (r - 1) : 0);
			out_str(o, "</text>");
		}
	for (uint32_t i = c0; i <= c1; i++)
		for (uint32_t r = r0; r <= r1; r++)
			if (m->cells[i][r])
				html_heat_cell(o, m->cells[i][r], peak, AXIS_W + (i - c0) * CELL_W, (r1 - r) * CELL_H);
	out_printf(o, "\n<text x=\"%d\" y=\"%u\">+0 s</text><text x=\"%u\" y=\"%u\" text-anchor=\"end\">+",
		   AXIS_W, rows * CELL_H + 14, AXIS_W + cols * CELL_W, rows * CELL_H + 14);
	names_out_secs(o, (int64_t)(cols * h->width), false);
	out_str(o, " s</text>\n</svg></figure>\n");
}

/* A heat map per syscall (those of most total time first), on one time and latency scale. */
static int html_heat_maps(struct page *pg, const struct heat *h)
{
	struct heat_map **order;
	struct out *o = pg->o;
	uint32_t c0, c1, r0, r1, shown;

	out_str(o, "<h2>Latency heat maps</h2>\n");
	if (!h->nmaps) {
		out_str(o, "<p>No finished call passed the filters.</p>\n");
		return 0;
	}
	order = malloc(h->nmaps * sizeof(*order));
	if (!order)
		return -ENOMEM;
	memcpy(order, h->maps, h->nmaps * sizeof(*order));
	qsort(order, h->nmaps, sizeof(*order), html_map_cmp);
	html_heat_bounds(h, &c0, &c1, &r0, &r1);
	out_str(o, "<p>Calls by start time (x, on the wall clock, from the first column) and latency (y, a row per "
		   "power of two of nanoseconds); darker cells hold more calls (log scale).");
	out_printf(o, " A column is %llu ns.</p>\n", (unsigned long long)h->width);
	shown = h->nmaps < HEAT_MAX ? h->nmaps : HEAT_MAX;
	for (uint32_t k = 0; k < shown; k++)
		html_heat_one(pg, h, order[k], c0, c1, r0, r1);
	if (shown < h->nmaps)
		out_printf(o, "<p>%u more syscall%s not shown.</p>\n", h->nmaps - shown, names_plural(h->nmaps - shown));
	free(order);
	return 0;
}

/* --hist's log2 histograms of the groups shown, as bars. */
static void html_hists(struct page *pg, struct group **gs, int n)
{
	struct out *o = pg->o;

	out_str(o, "<h2>Latency histograms</h2>\n");
	for (int i = 0; i < n; i++) {
		uint64_t b[65], peak = 0;
		int first = -1, last = -1, y = 0;

		lat_log2(&gs[i]->lat, b);
		for (int k = 0; k < 65; k++)
			if (b[k]) {
				first = first < 0 ? k : first;
				last = k;
				peak = b[k] > peak ? b[k] : peak;
			}
		out_printf(o, "<figure class=\"hist\" data-calls=\"%llu\"><figcaption>", (unsigned long long)gs[i]->lat.count);
		html_group_label(pg, gs[i]);
		out_printf(o, ": %llu call%s</figcaption>\n<svg width=\"%d\" height=\"%d\" role=\"img\">\n",
			   (unsigned long long)gs[i]->lat.count, names_plural(gs[i]->lat.count), 160 + 300 + 120,
			   first < 0 ? 4 : (last - first + 1) * 14 + 4);
		for (int k = first; k >= 0 && k <= last; k++, y += 14) {
			unsigned w = peak ? (unsigned)((unsigned __int128)b[k] * 300 / peak) : 0;

			out_printf(o, "<text x=\"0\" y=\"%d\">", y + 11);
			html_ns(o, k ? 1ull << (k - 1) : 0);
			out_str(o, " \xe2\x80\x93 ");
			html_ns(o, k ? (k == 64 ? UINT64_MAX : (1ull << k) - 1) : 0);
			out_printf(o, "</text><rect x=\"160\" y=\"%d\" width=\"%u\" height=\"11\" fill=\"#6a9a4a\" data-n=\"%llu\"/>"
				   "<text x=\"%u\" y=\"%d\">%llu</text>\n", y + 2, w, (unsigned long long)b[k], 166 + w, y + 11,
				   (unsigned long long)b[k]);
		}
		out_str(o, "</svg></figure>\n");
	}
}

/* The footer as the text output prints it; losses and warnings stand out when there are any. */
static int html_footer(struct page *pg)
{
	struct out *o = pg->o, f;
	size_t start = 0;

	if (out_open_mem(&f, 4096))
		return -ENOMEM;
	footer_print(pg->c->footer, pg->c->sessions, pg->c->strs, &f);
	if (f.err) {
		free(f.buf);
		return f.err;
	}
	out_str(o, "<h2>Input</h2>\n<pre id=\"footer\">");
	while (start < f.len) {
		char *nl = memchr(f.buf + start, '\n', f.len - start);
		size_t end = nl ? (size_t)(nl - f.buf) : f.len;
		const char *line = f.buf + start;
		bool bad = (!strncmp(line, "-- lost events: ", 16) && strncmp(line, "-- lost events: 0 ", 18)) ||
			   (!strncmp(line, "-- warnings: ", 13) && strncmp(line, "-- warnings: 0 ", 15));

		out_str(o, bad ? "<span class=\"bad\">" : "");
		html_text(o, line, end - start);
		out_str(o, bad ? "</span>\n" : "\n");
		start = end + 1;
	}
	out_str(o, "</pre>\n");
	free(f.buf);
	return 0;
}

static int html_body(struct page *pg, struct summary *sm, const struct heat *h)
{
	struct group **gs;
	int n = summary_groups(sm, &gs), err;

	if (n < 0)
		return n;
	summary_totals(sm, &pg->tot);
	out_str(pg->o, page_head);
	out_str(pg->o, "<h1>sct-report</h1>\n<p>");
	for (int i = 0; i < pg->env->nfiles; i++) {
		const char *f = pg->env->files[i];

		out_str(pg->o, i ? ", " : "");
		pg->tmp.len = 0;
		names_out_escaped(&pg->tmp, f, strlen(f));
		html_text(pg->o, pg->tmp.buf, pg->tmp.len);
	}
	out_str(pg->o, "</p>\n");
	html_table(pg, gs, n);
	html_bars(pg, gs, n);
	err = html_heat_maps(pg, h);
	if (!err) {
		html_hists(pg, gs, n);
		err = html_footer(pg);
	}
	out_str(pg->o, "</body>\n</html>\n");
	return err;
}

int html_write(const char *path, struct ctx *c, const struct env *env, struct summary *sm, const struct heat *h)
{
	struct page pg = { .c = c, .env = env };
	struct out o;
	int err = out_open(&o, path, true, 0600);

	if (err)
		return err;
	pg.o = &o;
	err = out_open_mem(&pg.tmp, 256);
	if (!err)
		err = html_body(&pg, sm, h);
	if (!err)
		err = pg.tmp.err;
	free(pg.tmp.buf);
	if (err) {
		out_close(&o);
		return err;
	}
	return out_close(&o);
}
