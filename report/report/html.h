/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-report --html FILE: one self-contained page of the summary (html_page.c) with a
 * latency heat map per syscall (html_heat.c), the groups as bars, their histograms and the
 * footer. Errors: 0 or a negative errno; only main prints the message.
 */
#ifndef SCT_HTML_H
#define SCT_HTML_H

#include <stdint.h>

#include "hashmap.h"
#include "outbuf.h"
#include "report.h"
#include "trace_input.h"

/*
 * Heat maps: the calls of each syscall counted by time (a column of HEAT_COLS over the wall
 * clock of every call read, whose width doubles as the span grows) and by latency (a row per
 * power of two of nanoseconds, as --hist). Memory: 65 * HEAT_COLS counters per syscall name.
 */
#define HEAT_COLS 120u
#define HEAT_ROWS 65u
struct heat_map {
	uint32_t name;          /* strtab id of the syscall's name */
	uint64_t calls, total_ns;
	uint64_t cells[HEAT_COLS][HEAT_ROWS];
};
struct heat {
	struct heat_map **maps;
	uint32_t nmaps, capmaps;
	struct hashmap index;   /* name -> map index + 1 */
	uint64_t lo, width;     /* the first column's start and every column's span (ns, wall clock) */
	uint32_t last;          /* the map of the last call: runs of one syscall */
};
struct heat *html_heat_new(void);
/* A finished call that passed the filters: its name (strtab id), wall-clock start and duration. */
int html_heat_add(struct heat *h, uint32_t name, uint64_t wall_ns, uint64_t duration_ns);
/*
 * A TOTALS record that passed the filters (a filtered session): its histogram's calls in the
 * column of its flush's wall clock, at each bucket's lowest duration. 0 or a negative errno.
 */
int html_heat_add_totals(struct heat *h, uint32_t name, uint64_t wall_ns, const struct sct_totals *t);
void html_heat_free(struct heat *h);

/*
 * The page into path (never through a symlink, never into another user's file, created
 * 0600: it tells what the traces do), after the summary sm was printed: its groups as the
 * text shows them, h's heat maps, and the footer of c.
 */
int html_write(const char *path, struct ctx *c, const struct env *env, struct summary *sm, const struct heat *h);

#endif
