// SPDX-License-Identifier: BSD-2-Clause
/*
 * report/lib/stacks.c on its own, fed records no honest recorder writes: a frame is named only
 * by a SYMBOL of its own module, of this file, that covers its address; everything else
 * reads as unknown (a stack id no STACK defined, a STACK past 256 frames, a module no MODULE
 * defined), never as a wrong name.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "stacks.h"
#include "strtab.h"
#include "trace_input.h"

struct table {
	struct strtab *strs;
	struct stacks *st;
	struct live lv;
};

static struct table tb;

static void tb_setup(void)
{
	tb.strs = strtab_new();
	cr_assert_not_null(tb.strs);
	tb.st = stacks_new(tb.strs, NULL, true);
	cr_assert_not_null(tb.st);
	tb.lv.serial = tb.lv.serial_held = 1;
	stacks_session(tb.st, &tb.lv);
}

static void tb_teardown(void)
{
	stacks_free(tb.st);
	strtab_free(tb.strs);
}

static void tb_add(const struct sct_record *rec)
{
	cr_assert_eq(stacks_add(tb.st, rec), 0);
}

static void tb_module(uint32_t id, const char *path)
{
	struct sct_record rec = { .type = SCT_REC_MODULE };

	rec.module = (struct sct_module){ .module_id = id, .kind = SCT_MODULE_ELF,
					  .path = { (const uint8_t *)path, strlen(path) } };
	tb_add(&rec);
}

static void tb_symbol(uint32_t module, uint64_t addr, uint64_t size, const char *name)
{
	struct sct_record rec = { .type = SCT_REC_SYMBOL };

	rec.symbol = (struct sct_symbol){ .module_id = module, .addr = addr, .size = size,
					  .name = { (const uint8_t *)name, strlen(name) } };
	tb_add(&rec);
}

/* A STACK of frames as they are encoded, plus extra raw bytes after them. */
static void tb_stack(uint32_t id, const struct sct_frame *f, size_t n, const uint8_t *extra, size_t nextra)
{
	static uint8_t buf[SCT_STACK_FRAMES_MAX_BYTES + 64];
	struct sct_record rec = { .type = SCT_REC_STACK };
	int len = sct_stack_frames_encode(f, n, buf, sizeof(buf));

	cr_assert_geq(len, 0);
	cr_assert_leq((size_t)len + nextra, sizeof(buf));
	if (nextra)
		memcpy(buf + len, extra, nextra);
	rec.stack = (struct sct_stack){ .stack_id = id, .pid = 1, .frames = { buf, (size_t)len + nextra } };
	tb_add(&rec);
}

static const char *tb_text(uint32_t id)
{
	uint32_t text;

	stacks_text(tb.st, id, &text);
	return strtab_get(tb.strs, text);
}

TestSuite(report_stacks_table, .init = tb_setup, .fini = tb_teardown);

Test(report_stacks_table, an_undefined_stack_is_unknown_never_another)
{
	const struct sct_frame f[] = { { 1, 0x1000 } };
	uint32_t text;

	tb_module(1, "/bin/app");
	tb_symbol(1, 0x1000, 0x10, "main");
	tb_stack(1, f, 1, NULL, 0);
	cr_assert_str_eq(tb_text(1), "main (app)");
	cr_assert_eq(stacks_text(tb.st, 2, &text), STACK_UNKNOWN);
	cr_assert_str_eq(strtab_get(tb.strs, text), "[unknown stack]");
	cr_assert_str_eq(strtab_get(tb.strs, stacks_folded(tb.st, 2)), "[unknown stack]");
	cr_assert_eq(stacks_text(tb.st, 0, &text), STACK_NONE);
	cr_assert_eq(text, 0);
}

/* 257 frames, or a pair cut short: left out, as the reader leaves them out. */
Test(report_stacks_table, a_stack_past_256_frames_or_cut_is_unknown)
{
	static struct sct_frame f[SCT_MAX_STACK_FRAMES];
	const uint8_t one_more[] = { 0x01, 0x10 }, cut[] = { 0x01 };

	for (size_t i = 0; i < SCT_MAX_STACK_FRAMES; i++)
		f[i] = (struct sct_frame){ 1, 0x1000 + i };
	tb_module(1, "/bin/app");
	tb_stack(1, f, SCT_MAX_STACK_FRAMES, one_more, sizeof(one_more));
	tb_stack(2, f, 1, cut, sizeof(cut));
	tb_stack(3, f, SCT_MAX_STACK_FRAMES, NULL, 0);
	cr_assert_str_eq(tb_text(1), "[unknown stack]");
	cr_assert_str_eq(tb_text(2), "[unknown stack]");
	cr_assert_eq(strlen(tb_text(3)), SCT_MAX_STACK_FRAMES * strlen("[app+0x1000] (app)\n") - 1);
}

/*
 * Symbols that lie beyond the frame (past every symbol's end, below the first start), that
 * belong to another module, or whose module no MODULE defined: none names the frame.
 */
Test(report_stacks_table, a_symbol_elsewhere_names_nothing)
{
	const struct sct_frame f[] = { { 1, 0x5000 }, { 1, 0x10 }, { 2, 0x1004 }, { 3, 0x1004 }, { 1, 0x1004 } };

	tb_module(1, "/bin/app");
	tb_module(2, "/lib/libx.so");
	tb_symbol(1, 0x1000, 0x100, "main");
	tb_symbol(1, 0x4000, 0x10, "tiny");
	tb_symbol(3, 0x1000, 0x100, "orphan"); /* module 3 has SYMBOLs and no MODULE */
	tb_stack(1, f, 5, NULL, 0);
	cr_assert_str_eq(tb_text(1), "[app+0x5000] (app)\n"
				     "[app+0x10] (app)\n"
				     "[libx.so+0x1004] (libx.so)\n"
				     "[unknown]\n"
				     "main+0x4 (app)");
	cr_assert_str_eq(strtab_get(tb.strs, stacks_folded(tb.st, 1)), "main;[unknown];[libx.so];[app];[app]");
}

/* Modules that claim one path, redefined ids: a frame is its own module's, as last defined. */
Test(report_stacks_table, overlapping_and_redefined_modules_keep_to_their_own_symbols)
{
	const struct sct_frame f[] = { { 1, 0x1004 }, { 2, 0x1004 } };

	tb_module(1, "/bin/app");
	tb_module(2, "/bin/app");
	tb_symbol(1, 0x1000, 0x10, "one");
	tb_symbol(2, 0x1000, 0x10, "two");
	tb_stack(1, f, 2, NULL, 0);
	cr_assert_str_eq(tb_text(1), "one+0x4 (app)\ntwo+0x4 (app)");
	tb_module(2, "/lib/other");
	cr_assert_str_eq(tb_text(1), "one+0x4 (app)\ntwo+0x4 (other)", "the text is made again after a MODULE");
}

/* The next file's ids are its own: the last file's stacks, modules and symbols are gone. */
Test(report_stacks_table, another_file_names_nothing_of_the_last)
{
	const struct sct_frame f[] = { { 1, 0x1004 } };

	tb_module(1, "/bin/app");
	tb_symbol(1, 0x1000, 0x10, "main");
	tb_stack(1, f, 1, NULL, 0);
	cr_assert_str_eq(tb_text(1), "main+0x4 (app)");
	tb.lv.serial_held = ++tb.lv.serial;
	stacks_session(tb.st, &tb.lv);
	cr_assert_str_eq(tb_text(1), "[unknown stack]");
	tb_stack(1, f, 1, NULL, 0);
	cr_assert_str_eq(tb_text(1), "[unknown]");
}

/* A file of a live session whose calls are still held keeps its tables beside the next one's. */
Test(report_stacks_table, a_file_with_calls_held_keeps_its_tables_until_none_is)
{
	const struct sct_frame f[] = { { 1, 0x1004 } };

	tb_module(1, "/bin/one");
	tb_symbol(1, 0x1000, 0x10, "one");
	tb_stack(1, f, 1, NULL, 0);
	tb.lv.serial = 2;
	stacks_session(tb.st, &tb.lv);
	tb_module(1, "/bin/two");
	tb_symbol(1, 0x1000, 0x10, "two");
	tb_stack(1, f, 1, NULL, 0);
	cr_assert_str_eq(tb_text(1), "two+0x4 (two)");
	tb.lv.serial = 1;
	stacks_session(tb.st, &tb.lv);
	cr_assert_str_eq(tb_text(1), "one+0x4 (one)", "a call of file 1 held after file 2 began");
	tb.lv.serial = tb.lv.serial_held = 2;
	stacks_session(tb.st, &tb.lv);
	cr_assert_str_eq(tb_text(1), "two+0x4 (two)");
	tb.lv.serial = tb.lv.serial_held = 1;
	stacks_session(tb.st, &tb.lv);
	cr_assert_str_eq(tb_text(1), "[unknown stack]", "file 1's tables went once none of its calls was held");
}
