/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record/stack/: --stack. Return addresses into the trace's STACK, MODULE and SYMBOL records
 * (spec/FORMAT.md, format 1.6): each user address becomes (module, address in the module's
 * ELF) while its process's mappings are known, so that a file symbolizes alone, after the
 * processes exited and their binaries changed.
 *   stack_modules.c  the ELF files and the kernel frames are in: identity, symbols
 *   proc_maps.c      each process's executable mappings, from /proc/PID/maps
 *   stack_file.c     each file's distinct stacks, and the records that describe them
 * Every table is bounded; a stack that finds no room is written as no stack (stack_id 0) and
 * counted in a WARNING. Included through record.h; the error convention is record.h's.
 */
#ifndef SCT_RECORD_STACK_H
#define SCT_RECORD_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sct.h"
#include "../output/output.h"

struct recorder;

/* stack_modules.c */
#define STACK_MAX_MODULES 1024        /* ELF files opened in a recording */
#define STACK_MAX_KSYMS (1u << 21)    /* /proc/kallsyms text symbols kept */
#define STACK_MODULE_NONE UINT32_MAX
struct stack_modules;
struct stack_modules *stack_modules_new(void);
void stack_modules_free(struct stack_modules *ms);
/*
 * The module of an executable mapping of process pid (start-end, dev:ino, path as the maps
 * file gives them): one known by (dev, ino, path), else the ELF opened through
 * /proc/PID/map_files (or /proc/PID/root/PATH), one module per build id and path. Returns its
 * index or STACK_MODULE_NONE (no room, not an ELF file, gone).
 */
uint32_t stack_modules_find(struct stack_modules *ms, uint32_t pid, uint64_t start, uint64_t end,
			    uint64_t dev, uint64_t ino, const char *path);
/* The kernel's module, "[kernel.kallsyms]", its symbols read at the first call. */
uint32_t stack_modules_kernel(struct stack_modules *ms);
/* Module m's address of file offset off, 0 with false if no PT_LOAD segment holds it. */
bool stack_module_addr(const struct stack_modules *ms, uint32_t m, uint64_t off, uint64_t *addr);
/* The function symbol of module m that covers addr: its start, size and name; false if none. */
bool stack_module_symbol(struct stack_modules *ms, uint32_t m, uint64_t addr, uint64_t *start,
			 uint64_t *size, const char **name);
/* What a MODULE record says of module m (its time_ns and module_id left 0). */
void stack_module_describe(const struct stack_modules *ms, uint32_t m, struct sct_module *rec);
/* The per-file module ids: module m's in the file of generation gen, 0 if not written there. */
uint32_t *stack_module_file_id(struct stack_modules *ms, uint32_t m, uint64_t gen);

/* proc_maps.c */
#define STACK_MAX_PROCS 65536         /* processes whose mappings are kept */
#define STACK_MAX_MAPS 4096           /* executable mappings kept per process */
struct proc_maps;
struct proc_maps *proc_maps_new(struct stack_modules *ms);
void proc_maps_free(struct proc_maps *pm);
/*
 * Process pid's address addr as (module index, address in the module); false if no mapping
 * covers it, even after a new read of /proc/PID/maps (at most one per process per second).
 */
bool proc_maps_resolve(struct proc_maps *pm, uint32_t pid, uint64_t addr, uint32_t *module,
		       uint64_t *maddr);
/* pid exec'd (its mappings are read again) or is gone. */
void proc_maps_forget(struct proc_maps *pm, uint32_t pid);
/*
 * child was forked by parent without exec: it has its parent's mappings, also once it is
 * gone, as a short-lived child usually is by the time its calls are read.
 */
void proc_maps_fork(struct proc_maps *pm, uint32_t parent, uint32_t child);

/* stack_file.c */
#define STACK_MAX_FILE_STACKS (1u << 18)  /* distinct stacks per file */
#define STACK_MAX_FILE_SYMBOLS (1u << 20) /* SYMBOL records per file */
#define STACK_MAX_HELD 4096               /* stack events waiting for their SYSCALL */
struct stacks;
/* --stack's state (parts: SCT_STACK_* bits); NULL with -ENOMEM. */
struct stacks *stacks_new(uint32_t parts, uint32_t depth);
void stacks_free(struct stacks *s);
/* A new file begins: it has no STACK, MODULE or SYMBOL record yet. */
void stacks_file_begin(struct stacks *s);
void stacks_note_exec(struct stacks *s, uint32_t pid);
/* Thread tid of pid exited; group_dead: the last of its process. */
void stacks_note_exit(struct stacks *s, uint32_t pid, uint32_t tid, bool group_dead);
void stacks_note_fork(struct stacks *s, uint32_t parent, uint32_t child);
/* bpf: e (size bytes, checked here) kept until its tid's SYSCALL event; -EPROTO if torn. */
RECORD_MUST_CHECK int stacks_hold(struct stacks *s, const void *e, size_t size);
/*
 * The stack_id of the call of tid that began at enter_ns in the open file, its STACK (and the
 * MODULE and SYMBOL records it needs) written first if new there; 0 if it has none.
 */
RECORD_MUST_CHECK int stacks_take(struct recorder *r, uint32_t tid, uint64_t enter_ns, uint32_t *stack_id);
/* perf: the same for a stack in hand: kn kernel then un user return addresses. */
RECORD_MUST_CHECK int stacks_id(struct recorder *r, uint32_t pid, uint64_t time_ns, const uint64_t *kips,
				size_t kn, const uint64_t *uips, size_t un, uint32_t *stack_id);
/* The WARNING record (and stderr line) for the stacks dropped since the last one. */
RECORD_MUST_CHECK int stacks_warn(struct recorder *r);

#endif
