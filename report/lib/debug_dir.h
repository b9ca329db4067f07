/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --debug-dir DIR (debug_dir.c): the function symbols of a module from an ELF file in DIR
 * with the module's build id, read with libelf: DIR/.build-id/xx/rest.debug (the layout of
 * /usr/lib/debug), else DIR/BASENAME of the module's path. A file is used only when its
 * build id is the module's. Each build id is looked up once per run.
 * Errors: NULL with errno for a constructor.
 */
#ifndef SCT_DEBUG_DIR_H
#define SCT_DEBUG_DIR_H

#include <stddef.h>
#include <stdint.h>

#include "sym_index.h"

#define DEBUG_DIR_FILES 4096u /* build ids looked up per run; then no more */

struct debug_dir;
struct debug_dir *debug_dir_new(const char *dir);
/*
 * The symbols of the module with build id id (len bytes, 1 .. 64) and path (its basename is
 * tried), NULL if DIR has no such file or it has no symbols; valid until debug_dir_free().
 */
struct sym_index *debug_dir_find(struct debug_dir *dd, const uint8_t *id, size_t len, const char *path,
				 size_t path_len);
void debug_dir_free(struct debug_dir *dd); /* NULL is fine */

#endif
