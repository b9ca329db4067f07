/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Call stacks of format 1.6 (stacks.c): the STACK, MODULE and SYMBOL records of one file in
 * tables that end with it (a record's references name records of its own file only), and
 * the text of a stack's frames. A live session that goes on into the next file of its
 * recording keeps the tables of the file before as long as it may still give one of its
 * records: LIVE_FILES_HELD files' at most.
 *
 * Frame text: name+0xOFF where a SYMBOL (or --debug-dir's file) covers the address (name
 * alone at offset 0; a C++ name demangled unless told not to); [BASENAME+0xADDR] for a
 * module's address no symbol covers (a name in brackets, "[kernel.kallsyms]", without them);
 * [0xADDR] for module 0 (an address no mapping covered); [unknown] for a module id no MODULE defined.
 * A stack id no STACK defined is "[unknown stack]", and so is one whose STACK fails
 * sct_stack_check() (left out). Kernel frames read as user ones.
 *
 * Bounds per file (tables of a hostile file stay small): STACKS_MAX stacks, STACKS_MAX_MODULES
 * modules, STACKS_MAX_SYMBOLS symbols, STACKS_MAX_BYTES bytes of frames, names and paths;
 * records past them are ignored and counted (stacks_ignored()).
 * Errors: 0 on success, a negative errno on failure; only a program's main prints the message.
 */
#ifndef SCT_STACKS_H
#define SCT_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"
#include "sct.h"
#include "strtab.h"

#define STACKS_MAX (1u << 20)
#define STACKS_MAX_MODULES 65536u
#define STACKS_MAX_SYMBOLS (1u << 22)
#define STACKS_MAX_BYTES (256u << 20)

struct debug_dir;
struct stacks;
struct live;

/*
 * Tables of one file at a time; dd (NULL: none) names what no SYMBOL does; demangle: C++
 * names as written in source (demangle.h), else as the file holds them. NULL on ENOMEM.
 */
struct stacks *stacks_new(struct strtab *strs, struct debug_dir *dd, bool demangle);
/*
 * The tables of the file of lv's record (lv->serial) from now on: new ones for a file not
 * met yet; those of files before lv->serial_held are freed.
 */
void stacks_session(struct stacks *st, const struct live *lv);
/* A STACK, MODULE or SYMBOL record into the tables (other types: nothing); -ENOMEM. */
int stacks_add(struct stacks *st, const struct sct_record *rec);
/* Records ignored over the bounds, over every file so far. */
uint64_t stacks_ignored(const struct stacks *st);
/* "TOOL: N stack, module or symbol records ignored: ..." on stderr, if n. */
void stacks_warn_ignored(const char *tool, uint64_t n);

/* What a call's stack_id gives. */
enum stack_kind { STACK_NONE, STACK_UNKNOWN, STACK_FRAMES };
/*
 * The frames of stack id as text lines (strtab id into strs), innermost first, each
 * "TEXT (MODULE)" (TEXT alone for module 0 and unknown modules), escaped for a terminal
 * (names.h), joined by '\n'; or "[unknown stack]". Equal stacks of two files have one id.
 * STACK_NONE for id 0 (*text 0).
 */
enum stack_kind stacks_text(struct stacks *st, uint32_t id, uint32_t *text);
/*
 * The frames of stack id for flamegraph.pl: outermost first joined by ';', function names
 * only ([BASENAME] where none, [unknown] for module 0 and unknown modules, kernel frames
 * NAME_[k]), ';' and bytes below 0x21 or above 0x7e in names as '_'. strtab id; for an
 * undefined stack "[unknown stack]", for id 0 the empty string (0).
 */
uint32_t stacks_folded(struct stacks *st, uint32_t id);
/* A name as stacks_folded() writes it: ';' and bytes outside 0x21 .. 0x7e as '_'. */
void stacks_out_folded_name(struct out *o, const void *p, size_t len);
/* The text lines of stacks_text(), each as "INDENT LINE\n". */
void stacks_out_lines(struct out *o, const struct strtab *strs, uint32_t text, const char *indent);
void stacks_free(struct stacks *st); /* NULL is fine */

#endif
