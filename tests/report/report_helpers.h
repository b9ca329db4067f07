/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers of the sct-report / sct-convert tests: write traces of known content with libsct's
 * writer (a small syscall table, RT_NR_*: read, write, open, close, execve, rename, openat,
 * renameat, the sockets' calls, exit_group ...) and run the tools, capturing stdout, stderr and
 * the exit status. Paths of the tools come from the environment tests/report/report.mk sets:
 * SCT_REPORT, SCT_CONVERT, SCT_GEN_REPORT.
 * Functions abort the test (cr_assert) on failure: a test never runs on a half-made trace.
 */
#ifndef SCT_REPORT_HELPERS_H
#define SCT_REPORT_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "sct.h"

#define RT_ANCHOR_CLOCK 1000000000000ull      /* session clock at the anchor: 1000 s */
#define RT_ANCHOR_REAL 1767225600000000000ull /* 2026-01-01 00:00:00 UTC */
#define RT_NR_READ 0
#define RT_NR_WRITE 1
#define RT_NR_OPEN 2
#define RT_NR_CLOSE 3
#define RT_NR_MMAP 9
#define RT_NR_MUNMAP 11
#define RT_NR_BRK 12
#define RT_NR_IOCTL 16
#define RT_NR_MREMAP 25
#define RT_NR_SOCKET 41
#define RT_NR_CONNECT 42
#define RT_NR_SENDTO 44
#define RT_NR_SENDMSG 46
#define RT_NR_BIND 49
#define RT_NR_EXECVE 59
#define RT_NR_KILL 62
#define RT_NR_RENAME 82
#define RT_NR_PRCTL 157
#define RT_NR_FUTEX 202
#define RT_NR_EXIT_GROUP 231
#define RT_NR_OPENAT 257
#define RT_NR_RENAMEAT 264

/* A fresh temporary folder (removed by rt_cleanup) and a path in it (one of 8 static buffers). */
const char *rt_dir(void);
const char *rt_path(const char *name);
void rt_cleanup(void);

/* Open a trace at path for host; block_records 0 = default. */
struct sct_writer *rt_open(const char *path, const char *host, uint32_t block_records);
/* The same with another syscall table. */
struct sct_writer *rt_open_names(const char *path, const char *host, const struct sct_syscall_name *table,
				 uint32_t ntable, uint32_t block_records);
/* A format 1.1 trace (backend perf) with an event table, for rt_sample(). */
struct sct_writer *rt_open_events(const char *path, const char *host, const struct sct_event_desc *ev,
				  uint32_t nev, const char *sample_cgroup);
/* A filtered session (format 1.5): HEADER "filter" with these strings; it takes rt_totals(). */
struct sct_writer *rt_open_filter(const char *path, const char *host, const char *text,
				  const char *details, const char *totals);
/*
 * A TOTALS record of (pid, cg, nr, abi 0) for the interval (since_rel, rel] (ns after the
 * anchor): n calls of durations durs, errors of them failed, the histogram of 9 bits.
 */
void rt_totals(struct sct_writer *w, uint64_t since_rel, uint64_t rel, uint32_t pid, uint64_t cg,
	       uint32_t nr, uint64_t errors, const uint64_t *durs, uint32_t n);
/* A file of a recording (format 1.2): its id, its sequence number, snapshot or not. */
struct sct_writer *rt_open_recording(const char *path, const char *host, const char *id, uint64_t seq,
				     bool snapshot);
/* A session with syscall arguments (format 1.4) described by descs. */
struct sct_writer *rt_open_args(const char *path, const char *host, const struct sct_syscall_args *descs,
				uint32_t ndescs);
/*
 * A session that captures argument memory (format 1.7): exec arguments (64 of them, 4096
 * bytes) and 32 bytes of data.
 */
struct sct_writer *rt_open_captures(const char *path, const char *host, const struct sct_syscall_args *descs,
				    uint32_t ndescs);
/* The same with an i386 compat table (open 5, rename 38, mmap2 192) and its compat descriptions. */
struct sct_writer *rt_open_args_compat(const char *path, const char *host, const struct sct_syscall_args *descs,
				       uint32_t ndescs, const struct sct_syscall_args *compat, uint32_t ncompat);
/*
 * A session with call stacks (format 1.6): HEADER "stacks" of mode (user, kernel, both), depth
 * 64; a file of recording id (NULL: none) numbered seq.
 */
struct sct_writer *rt_open_stacks(const char *path, const char *host, const char *mode, const char *id,
				  uint64_t seq);
/* A SYSCALL of a stacks session whose stack_id is stack_id (0: none). */
void rt_sc_stack(struct sct_writer *w, uint64_t rel_ns, uint64_t dur, uint32_t pid, uint32_t tid, uint32_t nr,
		 int64_t ret, uint32_t stack_id);
/* A STACK record of n frames, innermost first. */
void rt_stack(struct sct_writer *w, uint64_t rel_ns, uint32_t id, uint32_t pid, const struct sct_frame *f,
	      size_t n);
/* A MODULE record (kind enum sct_module_kind; build_id of len bytes). */
void rt_module(struct sct_writer *w, uint64_t rel_ns, uint32_t id, uint32_t kind, const uint8_t *build_id,
	       uint32_t len, const char *path);
void rt_symbol(struct sct_writer *w, uint64_t rel_ns, uint32_t module_id, uint64_t addr, uint64_t size,
	       const char *name);
void rt_close(struct sct_writer *w);
void rt_sample(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, uint32_t cpu,
	       uint64_t cg, uint32_t event, const void *payload, uint32_t len);
void rt_sc(struct sct_writer *w, uint64_t rel_ns, uint64_t dur, uint32_t pid, uint32_t tid, uint64_t cg,
	   uint32_t nr, int64_t ret);
void rt_task(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, uint32_t ppid, uint64_t cg,
	     uint64_t start_rel_ns, const char *comm);
void rt_fork(struct sct_writer *w, uint64_t rel_ns, uint32_t ppid, uint32_t ptid, uint32_t cpid, uint32_t ctid,
	     int thread);
void rt_exec(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t old_tid, const char *file,
	     const char *comm);
void rt_exit(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, int code, uint32_t sig,
	     int group_dead);
void rt_cgroup(struct sct_writer *w, uint64_t rel_ns, uint64_t id, const char *path);
void rt_record(struct sct_writer *w, const struct sct_record *rec);

/*
 * Replace every occurrence of from in the file at path by to (as many bytes) and repair the
 * frames' checksums: what a hostile writer makes of a trace, such as a HEADER value sct's
 * writer refuses.
 */
void rt_patch(const char *path, const char *from, const char *to);
/*
 * 32 bytes a hostile writer puts where a recording id belongs: an OSC title and a
 * clear-screen escape, a tab and a newline (TabSeparated's separators), SQL quoting.
 */
#define RT_HOSTILE_ID "\x1b]2;x\a\x1b[2J\t\nx', 0)) OR 1=1 --   "
/* A file of a recording whose HEADER names it by RT_HOSTILE_ID: a SYSCALL (write) per rel_ns. */
const char *rt_hostile_recording(const char *name, uint64_t seq, const uint64_t *rel_ns, uint32_t n);
/* Run a shell command; stdout (NUL-terminated, malloc'd) in *out; returns the exit status. */
int rt_run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *rt_report(void);
const char *rt_convert(void);
const char *rt_gen(void);
/* Line n (0-based) of text, copied into a static buffer; "" past the end. */
const char *rt_line(const char *text, int n);
/* The line of text that starts with prefix (after leading spaces are skipped), or NULL. */
const char *rt_find_line(const char *text, const char *needle);

#endif
