// SPDX-License-Identifier: BSD-2-Clause
/*
 * report/lib/sym_index.c on its own: an address is named only by a symbol whose extent holds
 * it, whatever order, overlap or size the symbols come in.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "sym_index.h"

static const char *name_at(struct sym_index *ix, uint64_t addr)
{
	const struct sym *s = sym_index_find(ix, addr);

	return s ? s->name : "-";
}

static void add(struct sym_index *ix, uint64_t addr, uint64_t size, const char *name)
{
	cr_assert_eq(sym_index_add(ix, addr, size, name, (uint32_t)strlen(name)), 0);
}

Test(report_sym_index, nearest_covering_symbol)
{
	struct sym_index ix = { 0 };

	cr_assert_str_eq(name_at(&ix, 0x1000), "-", "an empty index names nothing");
	/* added out of order: the first lookup sorts */
	add(&ix, 0x3000, 0, "tail");
	add(&ix, 0x1000, 0x1000, "outer");
	add(&ix, 0x1100, 0x10, "inner");
	add(&ix, 0x2800, 0, "nosize");
	cr_assert_str_eq(name_at(&ix, 0xfff), "-");
	cr_assert_str_eq(name_at(&ix, 0x1000), "outer");
	cr_assert_str_eq(name_at(&ix, 0x1105), "inner");
	cr_assert_str_eq(name_at(&ix, 0x1110), "outer", "past inner, still in outer");
	cr_assert_str_eq(name_at(&ix, 0x1fff), "outer");
	cr_assert_str_eq(name_at(&ix, 0x2000), "-", "between outer's end and the next start");
	cr_assert_str_eq(name_at(&ix, 0x2fff), "nosize", "size 0: up to the next start");
	cr_assert_str_eq(name_at(&ix, 0x3000), "tail");
	cr_assert_str_eq(name_at(&ix, UINT64_MAX), "tail", "the last size-0 symbol runs to the end");
	/* an addition after a lookup is sorted in at the next one */
	add(&ix, 0x2000, 0x10, "late");
	cr_assert_str_eq(name_at(&ix, 0x2008), "late");
	sym_index_free(&ix);
}

Test(report_sym_index, equal_starts_and_huge_sizes)
{
	struct sym_index ix = { 0 };

	add(&ix, 0x1000, 0x10, "small");
	add(&ix, 0x1000, 0x100, "big");
	add(&ix, 0x1000, 0x100, "alias");
	cr_assert_str_eq(name_at(&ix, 0x1008), "alias", "the largest at a start, the latest of equals");
	cr_assert_str_eq(name_at(&ix, 0x10ff), "alias");
	cr_assert_str_eq(name_at(&ix, 0x1100), "-");
	add(&ix, 0, UINT64_MAX, "everything");
	cr_assert_str_eq(name_at(&ix, 0x1100), "everything", "a size that reaches the top does not wrap");
	cr_assert_str_eq(name_at(&ix, UINT64_MAX - 1), "everything");
	sym_index_free(&ix);
}
