// SPDX-License-Identifier: BSD-2-Clause
/* report/'s tables on their own: each object owns its state, so two never share any. */
#include <criterion/criterion.h>
#include <string.h>

#include "cgroup_table.h"
#include "exit_status.h"
#include "footer.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"

Test(report_tables, strtabs_are_independent)
{
	struct strtab *a = strtab_new(), *b = strtab_new();
	uint32_t x, y;

	cr_assert(a && b);
	x = strtab_intern(a, "alpha", 5);
	cr_assert_eq(strtab_intern(a, "alpha", 5), x);
	cr_assert_str_eq(strtab_get(a, x), "alpha");
	cr_assert_eq(strtab_len(b, x), 0, "b holds nothing a interned");
	y = strtab_intern(b, "beta\0z", 6);
	cr_assert_eq(strtab_len(b, y), 6);
	cr_assert_eq(memcmp(strtab_get(b, y), "beta\0z", 7), 0);
	cr_assert_eq(strtab_intern(a, "", 0), 0);
	strtab_free(a);
	cr_assert_str_eq(strtab_get(b, y), "beta");
	strtab_free(b);
	strtab_free(NULL);
}

Test(report_tables, tasks_and_cgroups_live_in_their_objects)
{
	struct strtab *st = strtab_new();
	struct tasks *t1 = tasks_new(st), *t2 = tasks_new(st);
	struct cgroups *c1 = cgroups_new(st), *c2 = cgroups_new(st);
	struct sct_record fork = { .type = SCT_REC_FORK }, task = { .type = SCT_REC_TASK };
	struct task *p;

	cr_assert(st && t1 && t2 && c1 && c2);
	task.task = (struct sct_task){ .time_ns = 1, .start_ns = 1, .pid = 7, .tid = 7,
				       .comm = { (const uint8_t *)"sh", 2 } };
	fork.fork = (struct sct_fork){ .time_ns = 5, .child_start_ns = 5, .parent_pid = 7, .parent_tid = 7,
				       .child_pid = 8, .child_tid = 8 };
	cr_assert_eq(tasks_apply(t1, 0, &task), 0);
	cr_assert_eq(tasks_apply(t1, 0, &fork), 0);
	cr_assert_eq(tasks_link(t1), 0);
	cr_assert_eq(tasks_count(t1), 2);
	cr_assert_eq(tasks_count(t2), 0);
	cr_assert_null(tasks_peek(t2, 0, 8, 6));
	p = tasks_peek(t1, 0, 8, 6);
	cr_assert_not_null(p);
	cr_assert_eq(p->parent, tasks_peek(t1, 0, 7, 6));
	cr_assert_str_eq(strtab_get(st, tasks_comm(t1, p, 6)), "sh", "the parent's name at the fork");
	cr_assert_null(tasks_peek(t1, 1, 8, 6), "sessions are kept apart");
	cr_assert_eq(cgroups_set_path(c1, 0, 42, "/a", 2), 0);
	cr_assert_str_eq(strtab_get(st, cgroups_label(c1, cgroups_get(c1, 0, 42))), "/a");
	cr_assert_str_eq(strtab_get(st, cgroups_label(c2, cgroups_get(c2, 0, 42))), "cgroup:42");
	tasks_free(t1);
	tasks_free(t2);
	cgroups_free(c1);
	cgroups_free(c2);
	strtab_free(st);
}

Test(report_tables, sessions_keep_copies)
{
	struct sessions *ss = sessions_new(UINT32_MAX);
	struct sess s = { .host = 3, .anchor_clock = 10, .anchor_real = 20 };

	cr_assert_not_null(ss);
	for (uint32_t i = 0; i < 1000; i++) {
		s.file = i;
		cr_assert_eq(sessions_add(ss, &s), 0);
		cr_assert_eq(s.id, i);
	}
	cr_assert_eq(sessions_count(ss), 1000);
	cr_assert_eq(sessions_get(ss, 999)->file, 999);
	cr_assert_eq(sess_rel(sessions_get(ss, 5), 15), 5);
	cr_assert_null(sessions_get(ss, 1000));
	sessions_free(ss);
}

/* Every diagnostic says damage but unknown (newer) frames and records, kinds newer than
 * this code included: --strict exits 3 on them, and without it a file with no record does. */
Test(report_tables, footer_counts_every_damage_diagnostic)
{
	static const uint32_t kinds[] = { SCT_DIAG_SKIPPED, SCT_DIAG_TRUNCATED, SCT_DIAG_NO_TRAILER,
					  SCT_DIAG_BAD_BLOCK, SCT_DIAG_NO_HEADER, 99 };
	struct sct_diag d = { .offset = 12, .text = "ends after its label" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct footer *f = footer_new();

		cr_assert_not_null(f);
		d.kind = kinds[i];
		footer_diag(f, &d);
		cr_assert_eq(footer_exit_status(f, "t", true, 0), EXIT_DAMAGED, "kind %u", kinds[i]);
		cr_assert_eq(footer_exit_status(f, "t", false, 0), EXIT_DAMAGED, "kind %u", kinds[i]);
		footer_free(f);
	}
	for (uint32_t k = SCT_DIAG_UNKNOWN_FRAME; k <= SCT_DIAG_UNKNOWN_RECORD; k++) {
		struct footer *f = footer_new();

		d.kind = k;
		footer_diag(f, &d);
		cr_assert_eq(footer_exit_status(f, "t", true, 0), 0, "kind %u", k);
		footer_free(f);
	}
}
