/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libsct: the one library that writes and reads sct trace files.
 * spec/FORMAT.md is the normative description of the bytes; this header is the C API.
 *
 * Error convention: functions return 0 (or a count) on success and a negative code on
 * failure: either -errno (I/O, memory) or one of the SCT_E* codes below. sct_strerror()
 * turns any of them into text. Constructors return NULL and store the code in *err.
 * Objects are opaque; destructors accept NULL.
 *
 * Threads: the library keeps no global mutable state. Distinct objects (each writer, each
 * reader with its sessions) may be used from distinct threads at the same time; one object
 * must not be used from two threads at once without the caller's own lock. What a reader
 * returns (records, strings, sessions, schemas, stats) belongs to that reader: the same rule.
 * sct_strerror(), sct_schema_builtin() and sct_session_key_name() return constant data and
 * may be called from any thread.
 *
 * Linking: `pkg-config --cflags --libs libsct` (add --static for libsct.a). Only names
 * starting with sct_ are exported.
 */
#ifndef SCT_H
#define SCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The library is compiled with -fvisibility=hidden: what this header declares is its whole
 * exported interface, and nothing else leaves it.
 */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

#define SCT_MUST_CHECK __attribute__((warn_unused_result))

#define SCT_FORMAT_MAJOR 1
#define SCT_FORMAT_MINOR 7

/* Hard limits (spec/FORMAT.md, "Limits"). A reader refuses anything larger before allocating. */
#define SCT_MAX_FRAME_BODY   (16u << 20) /* bytes in one frame body */
#define SCT_MAX_HEADER_BODY  (1u << 20)  /* bytes in a HEADER frame body */
#define SCT_MAX_BLOCK_RAW    (8u << 20)  /* uncompressed bytes of one block payload */
#define SCT_MAX_BLOCK_RECORDS (1u << 20) /* records in one block */
#define SCT_MAX_STRING       65536u      /* bytes in one string field */
#define SCT_MAX_FIELDS       64u         /* fields of one record type */
#define SCT_MAX_SECTIONS     64u         /* record-type sections in one block */
#define SCT_MAX_NESTING      8u          /* CBOR nesting depth in HEADER and TRAILER */
#define SCT_MAX_EVENTS       1024u       /* events in the HEADER's event table */
#define SCT_MAX_EVENT_FIELDS 256u        /* fields of one event */
#define SCT_MAX_NAME         256u        /* bytes of an event, field or C type name */

/* Library error codes (negative values are returned). */
enum sct_error {
	SCT_E_NOT_SCT = 1000,  /* input does not start with the sct label and holds no frame */
	SCT_E_VERSION,         /* major version newer than this library */
	SCT_E_CORRUPT,         /* malformed data where recovery is impossible */
	SCT_E_LIMIT,           /* a length or count past the spec's limits */
	SCT_E_STATE,           /* call not valid in the object's state (e.g. writer failed) */
};

/* Text for any error this library returns (-errno or -SCT_E*). Never NULL. */
const char *sct_strerror(int err);

/* ---------------------------------------------------------------- records */

enum sct_record_type {
	SCT_REC_SESSION = 0, /* pseudo record: a new session starts (sct_reader_session()) */
	SCT_REC_SYSCALL = 1,
	SCT_REC_TASK = 2,
	SCT_REC_FORK = 3,
	SCT_REC_EXEC = 4,
	SCT_REC_EXIT = 5,
	SCT_REC_CGROUP = 6,
	SCT_REC_LOST = 7,
	SCT_REC_WARNING = 8,
	SCT_REC_SAMPLE = 9,  /* format 1.1 */
	SCT_REC_TOTALS = 10, /* format 1.5 */
	SCT_REC_STACK = 11,  /* format 1.6 */
	SCT_REC_MODULE = 12, /* format 1.6 */
	SCT_REC_SYMBOL = 13, /* format 1.6 */
};
#define SCT_REC_MAX 13

enum sct_abi { SCT_ABI_NATIVE = 0, SCT_ABI_COMPAT = 1 };

enum sct_lost_cause {
	SCT_LOST_RINGBUF = 1, /* the BPF ring buffer was full */
	SCT_LOST_INFLIGHT = 2, /* no room to store an in-flight syscall */
};

enum sct_warning_kind {
	SCT_WARN_TARGETS_FULL = 1, /* targets map full: count = tasks not traced */
	SCT_WARN_ENUMERATION = 2,  /* /proc enumeration failed for some tasks */
	SCT_WARN_OTHER = 3,
};

/* A string field: bytes, not NUL-terminated, may hold any byte value. */
struct sct_bytes {
	const uint8_t *ptr;
	uint32_t len;
};

/*
 * SYSCALL path_flags (format 1.3) and path2_flags (1.4); 0: the call has no such path argument,
 * or no arguments.
 */
enum sct_path_flag {
	SCT_PATH_CAPTURED = 1,  /* path holds the string (perhaps cut) */
	SCT_PATH_LATE = 2,      /* read at syscall exit: its page was not present at entry */
	SCT_PATH_CUT = 4,       /* longer than the session's args_max: path is its first bytes */
	SCT_PATH_FAULT = 8,     /* could not be read (bad address, or never present) */
	SCT_PATH_NOT_READ = 16, /* the recorder cannot read strings (perf backend): raw args only */
};

/*
 * SYSCALL addr_flags, argv_flags and data_flags (format 1.7) take enum sct_path_flag's bits,
 * each about its own bytes (SCT_PATH_CUT for argv: more entries or bytes than the HEADER's
 * "argv" allows), and argv_flags this one too.
 */
enum sct_argv_flag {
	SCT_ARGV_ENVC_LOWER = 32, /* envc is a lower bound: the recorder stopped counting */
};
#define SCT_MAX_ADDR 128u /* bytes of a SYSCALL addr (format 1.7): a socket address */

/* All times are nanoseconds of the session's clock (HEADER "clock"). */
struct sct_syscall {
	uint64_t time_ns;     /* syscall entry */
	uint64_t duration_ns; /* exit - entry; for unfinished: stop time - entry */
	uint64_t cgroup_id;
	int64_t ret;
	uint32_t pid, tid, nr;
	uint8_t abi;          /* enum sct_abi */
	uint8_t unfinished;   /* 1: still in flight when recording stopped; 2 (format 1.7): a call
				 that does not return (exit, exit_group), written at its entry */
	/* format 1.3, sessions with "syscall_args" only; 0 and empty otherwise */
	uint64_t arg0, arg1, arg2, arg3, arg4, arg5; /* raw register values at entry */
	uint32_t path_flags;  /* enum sct_path_flag */
	uint32_t path_ref;    /* the block's string reference as stored; writers leave it 0 */
	struct sct_bytes path; /* the string of the call's first path argument (see path_flags) */
	/* format 1.4: the call's second path argument, alike (0 and empty in 1.3 sessions) */
	uint32_t path2_flags; /* enum sct_path_flag */
	uint32_t path2_ref;
	struct sct_bytes path2;
	/* format 1.6, sessions with "stacks" only: the call's STACK record in this file, 0 none */
	uint32_t stack_id;
	/*
	 * format 1.7, sessions with "syscall_args" whose HEADER has captures only; 0 and empty
	 * otherwise. Flags: enum sct_path_flag, argv_flags also enum sct_argv_flag.
	 */
	uint32_t addr_flags;
	struct sct_bytes addr; /* a socket address as the call's memory held it, <= SCT_MAX_ADDR */
	uint32_t argv_flags;
	uint64_t envc;         /* environment entries an exec was given (see argv_flags) */
	struct sct_bytes argv; /* exec's arguments, each followed by one NUL (empty or ends in NUL) */
	uint32_t data_flags;
	struct sct_bytes data; /* the first bytes the call wrote (at entry) or read (at exit) */
};

struct sct_task {
	uint64_t time_ns;     /* when the snapshot was taken */
	uint64_t cgroup_id;
	uint64_t start_ns;    /* task start time: (pid, start_ns) identifies a task */
	uint32_t pid, tid, ppid;
	struct sct_bytes comm;
};

struct sct_fork {
	uint64_t time_ns;
	uint64_t child_start_ns;
	uint32_t parent_pid, parent_tid, child_pid, child_tid;
	uint8_t is_thread;    /* 1: a thread of parent_pid; 0: a new process */
};

struct sct_exec {
	uint64_t time_ns;
	uint32_t pid, tid, old_tid; /* tid == pid after exec; old_tid differs if a non-leader exec'd */
	struct sct_bytes filename, comm;
};

struct sct_exit {
	uint64_t time_ns;
	uint64_t start_ns;
	uint32_t pid, tid;
	int32_t exit_code;    /* WEXITSTATUS-style code, 0..255 */
	uint32_t signal;      /* terminating signal, 0 if none */
	uint8_t group_dead;   /* 1: the whole thread group is gone */
};

struct sct_cgroup {
	uint64_t time_ns;
	uint64_t cgroup_id;
	struct sct_bytes path; /* relative to the session's cgroup mount, starts with '/' */
};

struct sct_lost {
	uint64_t time_ns;     /* start of the range the losses happened in */
	uint64_t end_ns;
	uint64_t count;
	uint32_t cause;       /* enum sct_lost_cause */
};

struct sct_warning {
	uint64_t time_ns;
	uint64_t count;
	uint32_t kind;        /* enum sct_warning_kind */
	struct sct_bytes text;
};

/*
 * One tracepoint sample. Decode payload with the session's event description
 * (sct_session_event(), sct_sample_field()).
 */
struct sct_sample {
	uint64_t time_ns;
	uint64_t cgroup_id;   /* 0 when the session's sample_cgroup is "none" */
	uint32_t pid, tid, cpu;
	uint32_t event;       /* index into the session's HEADER event table */
	struct sct_bytes payload; /* the tracepoint's raw record as perf gives it
				     (PERF_SAMPLE_RAW, common_* fields included) */
};

/*
 * Format 1.5: the calls of one key (pid, cgroup_id, nr, abi) whose return fell in
 * (since_ns, time_ns], counted whether or not they were recorded in detail. A key's records
 * add up to its total for the file. Written only by a session whose HEADER has "filter".
 * A reader delivers only records that pass sct_totals_check(); it counts the others as
 * damaged (sct_reader_stats.damaged_records).
 */
struct sct_totals {
	uint64_t time_ns;     /* end of the interval: the flush, or stop */
	uint64_t since_ns;    /* its start: the previous flush, or the start of recording */
	uint64_t cgroup_id;
	uint64_t calls;       /* calls that returned (or never will: exit, execve's old image) */
	uint64_t errors;      /* of those, calls that returned -4095..-1 */
	uint64_t duration_ns; /* sum of their durations */
	uint64_t max_ns;      /* the longest */
	uint32_t pid, nr;
	uint8_t abi;          /* enum sct_abi */
	uint32_t hist_bits;   /* the histogram's sub-bucket bits (sct_hist_bucket()) */
	struct sct_bytes hist; /* the duration histogram (sct_hist_encode()) */
};

/*
 * Format 1.6, sessions with "stacks" only (spec/FORMAT.md 9.4): a call stack, stored once per
 * file before the first SYSCALL whose stack_id names it. frames is a sequence of
 * (module_id, addr) varint pairs, innermost first (sct_stack_frame_next()); module_id 0 is
 * an address no known mapping covered, a raw virtual address of process pid. A reader
 * delivers only records that pass sct_stack_check(); it counts the others as damaged.
 */
struct sct_stack {
	uint64_t time_ns;     /* the entry of the first call that used it */
	uint32_t stack_id;    /* >= 1, unique in its file */
	uint32_t pid;         /* the process whose addresses the module-0 frames are */
	struct sct_bytes frames;
};

enum sct_module_kind { SCT_MODULE_ELF = 1, SCT_MODULE_KERNEL = 2 };

/* Format 1.6: an ELF file (or the kernel) frames' addresses are in, once per file. */
struct sct_module {
	uint64_t time_ns;
	uint32_t module_id;   /* >= 1, unique in its file */
	uint32_t kind;        /* enum sct_module_kind */
	struct sct_bytes build_id; /* raw, 0 .. SCT_MAX_BUILD_ID bytes; empty: unknown */
	struct sct_bytes path;     /* as the process saw it; "[kernel.kallsyms]", "[vdso]" */
};
#define SCT_MAX_BUILD_ID 64u

/* Format 1.6: a function symbol of a module, in the module's addresses. */
struct sct_symbol {
	uint64_t time_ns;
	uint64_t addr;        /* start */
	uint64_t size;        /* 0: unknown, up to the module's next symbol */
	uint32_t module_id;
	struct sct_bytes name; /* as in the symbol table, not demangled */
};

struct sct_record {
	uint32_t type; /* enum sct_record_type */
	union {
		struct sct_syscall syscall;
		struct sct_task task;
		struct sct_fork fork;
		struct sct_exec exec;
		struct sct_exit exit;
		struct sct_cgroup cgroup;
		struct sct_lost lost;
		struct sct_warning warning;
		struct sct_sample sample;
		struct sct_totals totals;
		struct sct_stack stack;
		struct sct_module module;
		struct sct_symbol symbol;
	};
};

/* ---------------------------------------------------------------- schema */

enum sct_field_kind {
	SCT_KIND_UINT = 0,  /* unsigned integer */
	SCT_KIND_SINT = 1,  /* signed integer */
	SCT_KIND_TIME = 2,  /* unsigned time (ns), delta-coded within a block */
	SCT_KIND_BYTES = 3, /* byte string */
};

struct sct_field_schema {
	const char *name;
	uint32_t kind; /* enum sct_field_kind */
	const char *unit; /* "ns", "" ... */
};

struct sct_type_schema {
	uint32_t type;
	const char *name; /* "syscall", "task", ... */
	uint32_t nfields;
	const struct sct_field_schema *fields;
};

/* The schema this library writes for a known type, NULL for others. */
const struct sct_type_schema *sct_schema_builtin(uint32_t type);

/* A field value taken generically (sct-convert): by schema index. */
struct sct_value {
	uint32_t kind; /* enum sct_field_kind */
	union {
		uint64_t u;
		int64_t i;
		struct sct_bytes b;
	};
};

/* ---------------------------------------------------------------- writer */

struct sct_syscall_name {
	uint32_t nr;
	const char *name;
};

/* One field of a tracepoint, as tracefs's events/GROUP/NAME/format describes it. */
struct sct_event_field {
	const char *name;     /* "filename", "common_pid", ... */
	const char *type;     /* C type as written in format: "__data_loc char[]", "char comm[16]" */
	uint32_t offset, size; /* bytes in the payload */
	uint8_t is_signed;
	uint8_t data_loc;     /* 1: a __data_loc field (u32: offset | length << 16) */
};

/* One tracepoint of the session: what SAMPLE records' event index refers to. */
struct sct_event_desc {
	const char *name;     /* "GROUP:NAME" */
	const struct sct_event_field *fields;
	uint32_t nfields;
};

/* How one syscall argument reads (HEADER "syscall_args", format 1.3). */
enum sct_arg_kind {
	SCT_ARG_INT = 0,  /* signed decimal; also any kind this library does not know */
	SCT_ARG_FD,       /* a file descriptor */
	SCT_ARG_DIRFD,    /* a directory fd of an *at call: AT_FDCWD */
	SCT_ARG_PATH,     /* a user pointer to a NUL-terminated file name */
	SCT_ARG_FLAGS,    /* a bit set of family */
	SCT_ARG_ENUM,     /* one value of family */
	SCT_ARG_MODE,     /* file mode bits (octal) */
	SCT_ARG_SIZE,     /* a byte count (unsigned decimal) */
	SCT_ARG_PTR,      /* any other pointer (hex) */
	/* format 1.7: pointers to memory a session with captures records (struct sct_syscall) */
	SCT_ARG_SOCKADDR, /* a socket address: addr */
	SCT_ARG_ARGV,     /* a NULL-terminated string array: argv */
	SCT_ARG_ENVP,     /* an exec's environment: envc */
	SCT_ARG_BUF,      /* a data buffer: data */
	SCT_ARG_MSGHDR,   /* a struct user_msghdr: its msg_name in addr, first iovec in data */
	SCT_ARG_NKINDS,
};
#define SCT_MAX_ARGS 6
#define SCT_MAX_ARGS_STRING 4096u /* largest args_max */

struct sct_arg_desc {
	const char *name;     /* the kernel's argument name: "dfd", "filename" */
	uint32_t kind;        /* enum sct_arg_kind */
	const char *family;   /* FLAGS and ENUM: "open", "mmap_prot", "signal" ...; else "" */
};

/* One syscall's arguments, as the kernel's tracefs sys_enter_NAME/format describes them. */
struct sct_syscall_args {
	uint32_t nr;          /* in its ABI: native, or compat (format 1.4) */
	uint32_t nargs;       /* 0 .. SCT_MAX_ARGS */
	struct sct_arg_desc args[SCT_MAX_ARGS];
};

/* The name of a kind in the HEADER ("fd", ...); "" past the table. */
const char *sct_arg_kind_name(uint32_t kind);

/*
 * What a recorder filtered (HEADER "filter", format 1.5). Strings may be NULL (written as "").
 * A session whose HEADER has it counts every call in TOTALS records: readers take its
 * summary from them, and its SYSCALL records are the calls the filter kept.
 */
struct sct_header_filter {
	const char *text;     /* the filter as the user would type it again: "-S %file --failed" */
	const char *details;  /* SYSCALL records: "all", "filtered", or "none" (--summary-only) */
	const char *totals;   /* TOTALS cover "all" calls of the targets, or only the "syscalls"
				 of the filter's set (a backend that drops the others unseen) */
};

/*
 * What call stacks a recorder captured (HEADER "stacks", format 1.6). A session whose HEADER
 * has it gives SYSCALL records a stack_id and holds STACK, MODULE and SYMBOL records.
 */
struct sct_header_stacks {
	const char *mode;   /* "user", "kernel", "both" */
	uint32_t depth;     /* frames per stack part at most: 1 .. SCT_MAX_STACK_DEPTH */
	const char *unwind; /* "fp" */
};
#define SCT_MAX_STACK_FRAMES 256u
#define SCT_MAX_STACK_DEPTH 127u /* "depth" of the HEADER's "stacks", per part */

/*
 * What argument memory a recorder captured (HEADER "syscall_args" "argv" and "data", format
 * 1.7). A session with it has SYSCALL's addr, argv and data fields; 0 leaves a key out.
 */
struct sct_header_captures {
	uint32_t argv_max;   /* exec arguments kept at most: 1 .. SCT_MAX_ARGV; 0: none */
	uint32_t argv_bytes; /* bytes of them kept at most: 1 .. SCT_MAX_STRING (0 with argv_max) */
	uint32_t data;       /* bytes of a call's data kept: 1 .. SCT_MAX_STRING; 0: none */
};
#define SCT_MAX_ARGV 1024u

/* What the HEADER says of the session. Strings may be NULL (written as ""). */
struct sct_header_info {
	const char *producer;          /* "sct-record" */
	const char *producer_version;
	const char *const *args;       /* producer's command line, nargs entries */
	uint32_t nargs;
	const char *hostname, *kernel, *arch, *boot_id;
	const char *clock;             /* "CLOCK_MONOTONIC" */
	uint64_t anchor_clock_ns;      /* clock reading ... */
	uint64_t anchor_realtime_ns;   /* ... taken together with this CLOCK_REALTIME one */
	const char *cgroup_hierarchy;  /* "v2", "v1" (ids are the root's) or "none" */
	const char *cgroup_mount;      /* "/sys/fs/cgroup/unified" */
	const struct sct_syscall_name *syscalls;        /* native table */
	uint32_t nsyscalls;
	const char *compat_arch;       /* "i386", or NULL if no compat table */
	const struct sct_syscall_name *compat_syscalls;
	uint32_t ncompat_syscalls;
	/* format 1.1: at most SCT_MAX_EVENTS events of SCT_MAX_EVENT_FIELDS fields each */
	const struct sct_event_desc *events;
	uint32_t nevents;
	const char *backend;           /* "bpf" or "perf" */
	const char *sample_cgroup;     /* "kernel" (PERF_SAMPLE_CGROUP), "recorder" (filled by the
					  recorder from the task's cgroup it knows), "none" (0) */
	/* format 1.2: the recording this file belongs to; recording_id NULL: none is stated */
	const char *recording_id;      /* SCT_RECORDING_ID_LEN lowercase hex digits */
	uint64_t sequence;             /* the file's number in its recording, from 1 (a snapshot:
					  the snapshot's number) */
	bool snapshot;                 /* a flight-recorder snapshot, not a file of the series */
	/*
	 * format 1.3: SYSCALL records carry their arguments. syscall_args non-NULL turns them
	 * on (nsyscall_args may be 0: raw values only, no descriptions); at most one entry per
	 * nr, at most SCT_MAX_SYSCALL_ARGS entries.
	 */
	const struct sct_syscall_args *syscall_args;
	uint32_t nsyscall_args;
	uint32_t args_max;             /* bytes of a path kept, 1 .. SCT_MAX_ARGS_STRING */
	const char *args_paths;        /* "enter": path strings read at entry; "none": raw only */
	/* format 1.4: the compat ABI's syscalls by compat number, as syscall_args (NULL: none) */
	const struct sct_syscall_args *compat_syscall_args;
	uint32_t ncompat_syscall_args;
	/*
	 * format 1.5: non-NULL writes HEADER "filter" and a 1.5 session, the one kind of
	 * session that takes TOTALS records
	 */
	const struct sct_header_filter *filter;
	/*
	 * format 1.6: non-NULL writes HEADER "stacks" and a 1.6 session, the one kind of session
	 * that has SYSCALL's stack_id and takes STACK, MODULE and SYMBOL records (a mode other
	 * than "user", "kernel" and "both", an unwind other than "fp" or a depth out of 1 ..
	 * SCT_MAX_STACK_DEPTH: -EINVAL)
	 */
	const struct sct_header_stacks *stacks;
	/*
	 * format 1.7: non-NULL, with syscall_args, writes a 1.7 session whose SYSCALL records
	 * have addr, argv and data (without syscall_args, or values out of the ranges of struct
	 * sct_header_captures: -EINVAL)
	 */
	const struct sct_header_captures *captures;
};
#define SCT_RECORDING_ID_LEN 32
#define SCT_MAX_SYSCALL_ARGS 4096u

struct sct_writer_opts {
	uint32_t block_records;        /* records per block; 0 = default (SCT_DEFAULT_BLOCK_RECORDS) */
	uint64_t flush_interval_ns;    /* sct_writer_flush_if_due() period; 0 = 1 s */
	bool no_fsync;                 /* skip fsync at close (tests, pipes are never fsynced) */
};
#define SCT_DEFAULT_BLOCK_RECORDS 8192u

struct sct_writer;

/*
 * Create a trace at path with mode 0600. O_EXCL unless overwrite (then an existing regular
 * file is truncated and set to 0600). path "-" is stdout, which stays open after close.
 * Writes the label and HEADER frame before returning; info is not needed afterwards.
 * Returns NULL and *err (-errno; -SCT_E_LIMIT for a HEADER past SCT_MAX_HEADER_BODY or an
 * event table past SCT_MAX_EVENTS, SCT_MAX_EVENT_FIELDS or SCT_MAX_NAME; -EINVAL for an event
 * field that lies outside 64 KiB, or a recording_id that is not SCT_RECORDING_ID_LEN lowercase
 * hex digits or comes with sequence 0) on failure; nothing is left at path on failure.
 */
struct sct_writer *sct_writer_open(const char *path, bool overwrite, const struct sct_header_info *info,
				   const struct sct_writer_opts *opts, int *err);
/* Same on an open fd (file or pipe). The writer owns fd and closes it, on failure too. */
struct sct_writer *sct_writer_open_fd(int fd, const struct sct_header_info *info,
				      const struct sct_writer_opts *opts, int *err);

/*
 * Append one record (strings are copied). The block is written when full (block_records
 * records, or before its payload would pass SCT_MAX_BLOCK_RAW).
 * Returns 0, or a negative code; after an I/O error the writer is failed: every later
 * call returns the same error, and the file holds every block written before it (on a regular
 * file a partly written frame is cut off again). A record that is refused without failing the
 * writer: -EINVAL (type SESSION or unknown), -SCT_E_LIMIT (a string over SCT_MAX_STRING),
 * -ENOMEM (first record of its type). A SAMPLE's payload counts as a string
 * (SCT_MAX_STRING); a SAMPLE whose event is not in the HEADER's event table is -EINVAL.
 * In a session without "stacks": -EINVAL for a STACK, MODULE or SYMBOL record and a SYSCALL
 * with a stack_id; in one with: -EINVAL for a STACK that fails sct_stack_check() or has
 * stack_id 0, a MODULE with module_id 0 or a build_id past SCT_MAX_BUILD_ID bytes.
 * In a session with captures (format 1.7), a SYSCALL whose addr is past SCT_MAX_ADDR bytes is
 * -SCT_E_LIMIT and one whose argv is not empty and does not end in a NUL byte -EINVAL; a
 * session without them ignores addr, argv and data, as one without arguments ignores those.
 */
SCT_MUST_CHECK int sct_writer_append(struct sct_writer *w, const struct sct_record *rec);
/* The hot path for SYSCALL records; same contract. */
SCT_MUST_CHECK int sct_writer_append_syscall(struct sct_writer *w, const struct sct_syscall *sc);
/*
 * n SYSCALL records, as n calls of sct_writer_append_syscall() would append them, but each
 * column filled for a run of them at once (libsct 3.1). Returns 0 or the first error; the
 * records before the one refused are appended (sct_writer_records() counts them).
 */
SCT_MUST_CHECK int sct_writer_append_syscalls(struct sct_writer *w, const struct sct_syscall *sc,
					      size_t n);
/*
 * SYSCALL records filled in place (libsct 4.1), for a producer whose records come in a layout
 * of its own (sct-record's ring buffer events): no struct sct_syscall in between. Only in a
 * session without "syscall_args". sct_writer_syscall_rows() points each member of rows at the
 * pending block's column of that field, at the first free row, and returns how many rows (1
 * to n) they have room for, or a negative code: -EINVAL (n 0, or a session with
 * "syscall_args"), -ENOMEM, or the writer's error (it may write the full block first). Fill
 * rows [0, k) of every column (stack_id too when it is not NULL: the columns hold the last
 * block's values), each value as the struct's field would hold it, converted to
 * uint64_t (ret sign-extended), then sct_writer_syscall_rows_commit(w, k) appends them, as k
 * calls of sct_writer_append_syscall() would. No other writer call may come in between; a
 * commit of 0 rows gives them up. Returns 0, or -EINVAL for k past the room given.
 */
struct sct_syscall_rows {
	uint64_t *time_ns, *duration_ns, *pid, *tid, *cgroup_id, *nr, *abi, *ret, *unfinished;
	uint64_t *stack_id; /* libsct 6: NULL unless the session has "stacks" */
};
SCT_MUST_CHECK int sct_writer_syscall_rows(struct sct_writer *w, size_t n, struct sct_syscall_rows *rows);
SCT_MUST_CHECK int sct_writer_syscall_rows_commit(struct sct_writer *w, size_t k);
/* Write the pending block now (no-op when empty). */
SCT_MUST_CHECK int sct_writer_flush(struct sct_writer *w);
/* Flush if the oldest pending record was appended flush_interval_ns ago or more (clock: monotonic). */
SCT_MUST_CHECK int sct_writer_flush_if_due(struct sct_writer *w, uint64_t now_ns);
/* Bytes written so far (after sct_writer_finish(): the whole output), records appended so far. */
uint64_t sct_writer_bytes(const struct sct_writer *w);
uint64_t sct_writer_records(const struct sct_writer *w);
/*
 * End the trace without freeing the writer: flush, write the TRAILER, fsync (regular files).
 * Afterwards sct_writer_bytes() counts every byte the output received (a FIFO or a pipe has
 * no size to ask), and append and flush calls return -SCT_E_STATE; only sct_writer_close()
 * (or sct_writer_abandon()) remains to do. Returns the first error met over the writer's
 * life, or 0; a second call does nothing and returns the same. After an error the output
 * holds every block written before it, as after a failed append.
 */
SCT_MUST_CHECK int sct_writer_finish(struct sct_writer *w);
/*
 * sct_writer_finish() unless done, then close the fd (if owned) and free. Returns the first
 * error met over the writer's life, or 0. w is freed in every case.
 */
SCT_MUST_CHECK int sct_writer_close(struct sct_writer *w);
/* Free without a trailer (the file reads back as incomplete). For crash-like tests. */
void sct_writer_abandon(struct sct_writer *w);

/*
 * Blocks as frames, for a flight recorder that keeps the newest blocks in memory and writes
 * them into a file later. A block frame is whole (envelope, body, checksum) and decodes alone
 * under any HEADER with the same event table (spec/FORMAT.md section 6).
 */
struct sct_block_frame {
	const uint8_t *bytes;              /* the frame: envelope, body, checksum */
	size_t len;
	uint64_t first_ns, last_ns;        /* time range of its records */
	uint32_t records[SCT_REC_MAX + 1]; /* its records per type */
	uint64_t lost;                     /* sum of its LOST records' counts */
};
/*
 * Called with each block a writer of sct_writer_open_blocks() finishes; b and its bytes are
 * valid during the call only. Returns 0, or a negative code that fails the writer.
 */
typedef int (*sct_block_fn)(void *ctx, const struct sct_block_frame *b);
/*
 * A writer with no output: each block it would write is handed to fn instead (when full,
 * on flush, on finish). It writes no label, HEADER or TRAILER; info (may be NULL: no event
 * table) only gives the event table SAMPLE records are checked against. Appends, flushes
 * and sct_writer_bytes() (the bytes of the blocks fn took) work as on a file.
 * Returns NULL and *err (-EINVAL without fn, -ENOMEM).
 */
struct sct_writer *sct_writer_open_blocks(const struct sct_header_info *info,
					  const struct sct_writer_opts *opts, sct_block_fn fn, void *ctx,
					  int *err);
/*
 * Append a block frame as it is, after the pending block (flushed first): counted in the
 * TRAILER like the writer's own blocks (index, per-type totals, losses, warnings) and in
 * sct_writer_records(). -EINVAL if b->bytes is not one whole BLOCK frame with a right
 * checksum (nothing written); otherwise the contract of sct_writer_append().
 */
SCT_MUST_CHECK int sct_writer_append_block(struct sct_writer *w, const struct sct_block_frame *b);

/* ---------------------------------------------------------------- reader */

struct sct_session;

enum sct_diag_kind {
	SCT_DIAG_SKIPPED = 1,      /* [offset, offset+length) did not decode: bad checksum or garbage */
	SCT_DIAG_TRUNCATED,        /* the input ends inside a frame at offset; length bytes lost */
	SCT_DIAG_NO_TRAILER,       /* a session (or a bare label) ended without a TRAILER: incomplete */
	SCT_DIAG_UNKNOWN_FRAME,    /* frame of unknown type skipped (type, offset, length) */
	SCT_DIAG_UNKNOWN_RECORD,   /* records of an unknown type skipped (type, count) */
	SCT_DIAG_BAD_BLOCK,        /* checksum was fine but the block did not decode */
	SCT_DIAG_NO_HEADER,        /* blocks before any HEADER: read with the built-in schema */
	SCT_DIAG_BAD_RECORD,       /* a record that decoded but breaks its type's rules (a TOTALS
				      record whose histogram does not check, a STACK whose frames
				      do not): skipped (type, count) */
};

struct sct_diag {
	uint32_t kind;    /* enum sct_diag_kind */
	uint32_t type;    /* frame or record type, where relevant */
	uint64_t offset;  /* byte offset in the input */
	uint64_t length;  /* bytes concerned */
	uint64_t count;   /* records concerned */
	const char *text; /* one line, no newline; valid during the callback */
};

typedef void (*sct_diag_fn)(void *ctx, const struct sct_diag *d);

struct sct_reader_stats {
	uint64_t records[SCT_REC_MAX + 1];  /* returned by next() per type (0: SESSION records) */
	uint64_t blocks, bytes_read;
	uint64_t skipped_ranges, skipped_bytes;
	uint64_t truncated_bytes;          /* 0 if the input did not end mid-frame */
	uint64_t unknown_frames, unknown_records;
	uint64_t bad_blocks;
	uint64_t sessions_without_trailer;
	uint64_t damaged_records;          /* SCT_DIAG_BAD_RECORD: skipped, not in records[] */
};

struct sct_reader;

/* Open path ("-" = stdin), an fd (not closed by the reader unless owned) or a memory buffer. */
struct sct_reader *sct_reader_open(const char *path, int *err);
struct sct_reader *sct_reader_open_fd(int fd, bool owned, int *err);
struct sct_reader *sct_reader_open_mem(const void *buf, size_t len, int *err);

/* Diagnostics are delivered through fn as they are found (and always counted in stats). */
void sct_reader_set_diag(struct sct_reader *r, sct_diag_fn fn, void *ctx);
/*
 * Records of a type above SCT_REC_MAX that the session's HEADER schema describes are
 * readable: next() returns them (rec->type is their type, the union zeroed) for
 * sct_reader_field() and sct_reader_schema(). Records of a type 1..SCT_REC_MAX whose HEADER
 * entry contradicts the built-in schema are unknown: skipped with SCT_DIAG_UNKNOWN_RECORD and
 * counted in stats.unknown_records; with deliver set, next() returns them too, the same
 * generic way (still counted). Set before reading.
 */
void sct_reader_set_unknown(struct sct_reader *r, bool deliver);
/*
 * Records of the types whose bit is set in types (1u << SCT_REC_SYSCALL, ...) are passed by:
 * next() does not return them, does not count them in stats.records and does not decode their
 * columns (a pass over a file's lifecycle records costs the blocks' decompression, not the
 * decoding of their SYSCALL rows). Takes effect from the next block; 0 (the default) skips none.
 */
void sct_reader_set_skip(struct sct_reader *r, uint32_t types);

/*
 * Decode blocks on jobs threads (1, the default: none, each block in turn in the caller's
 * thread; at most 32). Frames are still found in input order by next(); the blocks that
 * follow are checked, decompressed and decoded ahead by the threads, a bounded number at a
 * time (two per thread, at most 32 and 8 MiB of input ahead), and next() gives their records,
 * diagnostics and sessions exactly as it would without them. Reading stays in the caller's thread: an input that
 * blocks (a pipe) blocks next() as before. Call it before the first next(); once set it stays.
 * Returns 0, or -ENOMEM or another -errno when the threads cannot start (the reader then
 * reads in turn, as with 1).
 */
int sct_reader_set_jobs(struct sct_reader *r, uint32_t jobs);

/*
 * Next record into *rec: returns 1, 0 at the end of input, or a negative code when the
 * input cannot be read at all (-SCT_E_NOT_SCT, -SCT_E_VERSION, -errno on read error).
 * Damage inside the input is never an error: it is reported as diagnostics and skipped.
 * Strings in *rec stay valid until the next call. SCT_REC_SESSION records carry no fields:
 * one comes before the first record of every session, and sct_reader_session() describes it;
 * it is NULL for records that belong to no session (blocks before any HEADER or after a
 * label or HEADER that was damaged: SCT_DIAG_NO_HEADER), which are never the previous one's.
 */
SCT_MUST_CHECK int sct_reader_next(struct sct_reader *r, struct sct_record *rec);
/*
 * SYSCALL rows as columns: the fields of struct sct_syscall that every session has, row i of
 * each array, with the widths of struct sct_syscall (a reader casts pid, tid and nr to
 * uint32_t, abi and unfinished to uint8_t, ret to int64_t, as sct_reader_next() does). Valid
 * until the next call on the reader.
 */
struct sct_syscall_batch {
	uint32_t n;
	const uint64_t *time_ns, *duration_ns, *pid, *tid, *cgroup_id, *nr, *abi, *ret, *unfinished;
};
/*
 * sct_reader_next(), with the SYSCALL records of a run in one go: when the next records are
 * SYSCALLs, returns 1 with rec->type SCT_REC_SYSCALL (its other fields unset) and batch->n >= 1
 * of them (at most 256) in batch; any other record as sct_reader_next() returns it,
 * with batch->n 0. Arguments, paths, stack ids and captured memory are not in a batch: a caller
 * that reads them calls sct_reader_next(). Records, diagnostics, sessions and statistics are
 * those of sct_reader_next(); sct_reader_field() has no record after a batch (-SCT_E_STATE).
 */
SCT_MUST_CHECK int sct_reader_next_batch(struct sct_reader *r, struct sct_record *rec,
					struct sct_syscall_batch *batch);
/* The arrays of struct sct_syscall_batch, as bits of sct_reader_set_batch_lazy(). */
#define SCT_BATCH_TIME (1u << 0)
#define SCT_BATCH_DURATION (1u << 1)
#define SCT_BATCH_PID (1u << 2)
#define SCT_BATCH_TID (1u << 3)
#define SCT_BATCH_CGROUP_ID (1u << 4)
#define SCT_BATCH_NR (1u << 5)
#define SCT_BATCH_ABI (1u << 6)
#define SCT_BATCH_RET (1u << 7)
#define SCT_BATCH_UNFINISHED (1u << 8)
/*
 * The arrays of a batch (SCT_BATCH_ bits) that sct_reader_next_batch() may leave unfilled: their
 * values are unset until sct_reader_batch_fill(), for a caller that reads them only now and
 * then (a summary by syscall reads no times, pids or tids: their decoding was a fifth of its
 * work). A time left unfilled still costs its decoding when a later batch or record of the
 * block needs it. Records of sct_reader_next() are whole whatever is set; 0 (the default)
 * leaves nothing unfilled. Takes effect from the next batch.
 */
void sct_reader_set_batch_lazy(struct sct_reader *r, uint32_t fields);
/*
 * At most rows rows in each batch sct_reader_next_batch() returns from now on (a caller that
 * reads a given number of calls one way and then the others another); 0 (the default): as
 * many as the block has in a run.
 */
void sct_reader_set_batch_max(struct sct_reader *r, uint32_t rows);
/*
 * Fill every array of the batch sct_reader_next_batch() returned last, where it is (its
 * pointers do not change). Returns 0, or -SCT_E_STATE if the last call returned no batch.
 */
int sct_reader_batch_fill(struct sct_reader *r);
/*
 * Field idx (schema order) of the record last returned, for any type, even unknown ones
 * (see sct_reader_set_unknown()). Byte strings stay valid until the next call of next().
 * Returns 0, -ERANGE past the type's fields, -SCT_E_STATE if next() returned no record last
 * (or a SESSION). Fields a block lacks read as 0 or empty.
 */
int sct_reader_field(const struct sct_reader *r, uint32_t idx, struct sct_value *out);
/*
 * Schema of a record type in the current session: the HEADER's entry, else the built-in one
 * (sct_schema_builtin()); NULL if neither knows the type. The entry of a type the session's
 * version defines is read by position (spec/FORMAT.md section 5): its type name and its first
 * fields are the built-in ones, all of them however few the HEADER lists, followed by the
 * fields the HEADER lists past them (trailing fields, read as stored). Outside a session
 * (blocks without a HEADER), the schema the last record returned was read with, if it is of
 * that type: a SYSCALL section of ten fields is base + stack_id (spec/FORMAT.md 10.5).
 */
const struct sct_type_schema *sct_reader_schema(const struct sct_reader *r, uint32_t type);
/*
 * The record type the current session's schema names name (its HEADER's entry, else a
 * built-in type the HEADER does not redefine), -1 if none does.
 */
int64_t sct_reader_type(const struct sct_reader *r, const char *name);
/*
 * The current session: NULL before the first HEADER, from a label (a concatenated file's
 * next session) until its HEADER, and for blocks without a HEADER. The last session stays
 * current at the end of input. The session returned by sct_reader_session() stays valid
 * until the call of sct_reader_next() after the one that returns the next SCT_REC_SESSION
 * record (so a caller that holds records back can finish them under their own session), or
 * until sct_reader_close(): the reader keeps at most two sessions, whatever the input holds.
 */
const struct sct_session *sct_reader_session(const struct sct_reader *r);
/*
 * The last TRAILER that decoded (a copy the reader keeps until close), and in *session the
 * index of the session it ends; NULL if none so far (a TRAILER outside a session is not
 * kept). A session's TRAILER is often read within the next() call that returns the next
 * session, when the ended session is no longer valid: this is how to see it.
 */
const struct sct_trailer_info *sct_reader_trailer(const struct sct_reader *r, uint32_t *session);
const struct sct_reader_stats *sct_reader_stats(const struct sct_reader *r);
/* Text of the fatal error next() returned, with the byte offset; "" if none. */
const char *sct_reader_error(const struct sct_reader *r);
void sct_reader_close(struct sct_reader *r);

/* ---------------------------------------------------------------- sessions */

struct sct_trailer_info {
	uint64_t records[SCT_REC_MAX + 1];
	uint64_t blocks;
	uint64_t lost;      /* sum of LOST counts */
	uint64_t warnings;  /* WARNING records */
	uint64_t first_ns, last_ns;
};

/* Session properties read from its HEADER. Strings are NUL-terminated, never NULL. */
uint32_t sct_session_index(const struct sct_session *s); /* 0, 1, ... in input order */
void sct_session_version(const struct sct_session *s, uint32_t *major, uint32_t *minor);

/* The HEADER's strings, by what sct_session_get() takes. */
enum sct_session_key {
	SCT_SESSION_PRODUCER,         /* "sct-record" */
	SCT_SESSION_PRODUCER_VERSION,
	SCT_SESSION_ARGS,             /* the producer's command line, space-joined */
	SCT_SESSION_HOSTNAME,
	SCT_SESSION_KERNEL,
	SCT_SESSION_ARCH,
	SCT_SESSION_BOOT_ID,
	SCT_SESSION_CLOCK,
	SCT_SESSION_CGROUP_HIERARCHY,
	SCT_SESSION_CGROUP_MOUNT,
	SCT_SESSION_COMPAT_ARCH,      /* "" if the session has no compat syscall table */
	SCT_SESSION_BACKEND,          /* "bpf", "perf"; "" before format 1.1 */
	SCT_SESSION_SAMPLE_CGROUP,    /* "kernel", "recorder", "none"; "" before format 1.1 */
	SCT_SESSION_RECORDING_ID,     /* the HEADER's recording id, SCT_RECORDING_ID_LEN lowercase
					 hex digits; "" if it states none or another value, and
					 before format 1.2 */
	SCT_SESSION_FILTER_TEXT,      /* HEADER "filter" (format 1.5): its "text", */
	SCT_SESSION_FILTER_DETAILS,   /* "details" and */
	SCT_SESSION_FILTER_TOTALS,    /* "totals"; "" without a "filter" */
	SCT_SESSION_STACKS_MODE,      /* HEADER "stacks" (format 1.6): its "mode" and */
	SCT_SESSION_STACKS_UNWIND,    /* "unwind"; "" without "stacks" */
	SCT_SESSION_NKEYS,            /* number of keys; grows with minor versions */
};

/* The string of key; "" if the HEADER lacks it or key is not a key this library knows. */
const char *sct_session_get(const struct sct_session *s, enum sct_session_key key);
/* The key's name ("hostname", ...), NULL if key is not one this library knows. */
const char *sct_session_key_name(enum sct_session_key key);
void sct_session_anchor(const struct sct_session *s, uint64_t *clock_ns, uint64_t *realtime_ns);
/*
 * True if the HEADER has "filter" (format 1.5; its strings by sct_session_get()): the
 * session's TOTALS records count every call, its SYSCALL records only those kept.
 */
bool sct_session_has_filter(const struct sct_session *s);
/*
 * The HEADER's "stacks" (format 1.6), NULL if it has none: its SYSCALL records have a stack_id
 * and it may hold STACK, MODULE and SYMBOL records. Owned by the session. A "depth" that is
 * missing or past SCT_MAX_STACK_DEPTH reads as 0.
 */
const struct sct_header_stacks *sct_session_stacks(const struct sct_session *s);
/* The file's number in its recording (format 1.2), 0 if the HEADER states none. */
uint64_t sct_session_sequence(const struct sct_session *s);
/* True if the HEADER says the file is a flight-recorder snapshot (format 1.2). */
bool sct_session_snapshot(const struct sct_session *s);
/* Syscall name for nr in abi, NULL if the table has none. */
const char *sct_session_syscall_name(const struct sct_session *s, uint32_t nr, uint32_t abi);
/* Syscall number by name in abi, -1 if unknown. */
int64_t sct_session_syscall_nr(const struct sct_session *s, const char *name, uint32_t abi);
/* The session's TRAILER, or NULL if none was read (yet). */
const struct sct_trailer_info *sct_session_trailer(const struct sct_session *s);
/* Events of the HEADER's event table (0 before format 1.1). */
uint32_t sct_session_nevents(const struct sct_session *s);
/*
 * Event idx of the table, NULL past it. Every field of a returned event lies inside 64 KiB
 * (offset + size fits) and has a non-empty name; the reader drops a HEADER's event table
 * entirely if any entry breaks the limits (SCT_MAX_*), so indexes stay the writer's.
 */
const struct sct_event_desc *sct_session_event(const struct sct_session *s, uint32_t idx);

/*
 * Format 1.3: whether the session's SYSCALL records carry arguments, the description of
 * syscall nr's arguments (native ABI; NULL if the HEADER has none), args_max, and "enter"
 * or "none" ("" without arguments).
 */
bool sct_session_has_args(const struct sct_session *s);
const struct sct_syscall_args *sct_session_syscall_args(const struct sct_session *s, uint32_t nr);
/* The descriptions in order of number: i < sct_session_nsyscall_args(s), else NULL. */
uint32_t sct_session_nsyscall_args(const struct sct_session *s);
const struct sct_syscall_args *sct_session_syscall_args_at(const struct sct_session *s, uint32_t i);
uint32_t sct_session_args_max(const struct sct_session *s);
const char *sct_session_args_paths(const struct sct_session *s);
/*
 * Format 1.7: what argument memory the session's SYSCALL records hold (addr, argv and envc,
 * data), NULL in a session without them (older, or without "syscall_args"). Owned by the
 * session; a value missing or out of its range reads as 0.
 */
const struct sct_header_captures *sct_session_captures(const struct sct_session *s);
/*
 * Format 1.4: the descriptions of the compat ABI's syscalls (abi SCT_ABI_COMPAT), by compat
 * number, alike; none in a session that has no compat table or is older.
 */
const struct sct_syscall_args *sct_session_compat_syscall_args(const struct sct_session *s, uint32_t nr);
uint32_t sct_session_ncompat_syscall_args(const struct sct_session *s);
const struct sct_syscall_args *sct_session_compat_syscall_args_at(const struct sct_session *s, uint32_t i);

/* ---------------------------------------------------------------- tasks */
/*
 * Which task made a record: spec/FORMAT.md section 9.2. Records of one task are not in time
 * order with its lifecycle records in the file (a SYSCALL may come after its task's EXIT, or
 * before the FORK or TASK record that describes it), and tids are reused, so a record is
 * attributed by (session, tid, time) to a task incarnation, never by the order of arrival.
 * A struct sct_tasks is fed lifecycle records (TASK, FORK, EXEC, EXIT) in file order, and
 * answers for any time; exited tasks are kept. Memory grows with the tasks and names fed, a
 * few hundred bytes a task, never with other records.
 *
 * A complete answer needs every lifecycle record that describes the task first: read them
 * all (sct_reader_set_skip() makes that pass cheap), then the records to attribute; or, on
 * a stream, hold records back until the lifecycle records read after them have been fed.
 */
struct sct_tasks;
#define SCT_TASK_NONE UINT32_MAX
/* Bounds (spec/FORMAT.md 9.2): records that would pass them are ignored. */
#define SCT_MAX_TASK_SPANS 4096u /* tasks one tid of a session names over time */
#define SCT_MAX_TASK_NAMES 4096u /* TASK and EXEC names of one task */

/* What the table knows of one task. Strings stay valid until sct_tasks_free(). */
struct sct_task_info {
	uint32_t session;      /* as given to sct_tasks_add() */
	uint32_t pid;
	uint32_t tid;          /* its first tid (a non-leader exec gives it the pid later) */
	uint32_t ppid;         /* 0 if unknown; a thread: its process's */
	uint32_t process;      /* id of its thread group's process: itself for a process, the
				  leader for a thread, SCT_TASK_NONE if the leader is not described */
	uint32_t parent;       /* a process: id of its parent process, SCT_TASK_NONE if unknown */
	uint64_t start_ns;     /* start time (FORK child_start_ns, TASK and EXIT start_ns), 0 unknown */
	uint64_t end_ns;       /* exit time, 0 while it has none; a process: its last thread's */
	uint64_t cgroup_id;    /* TASK's, else its parent's at the fork; 0 if unknown */
	int32_t exit_code;
	uint32_t signal;
	uint32_t nexec;        /* EXEC records of it */
	uint8_t is_thread;     /* 1: not the leader of its thread group when it started */
	uint8_t exited;        /* an EXIT record ends it (a process: its whole group) */
	uint8_t described;     /* a TASK or FORK record describes it (not only EXEC/EXIT) */
	struct sct_bytes comm; /* its last name; empty if no record names it */
	struct sct_bytes filename; /* of its last exec, empty if none */
};

/* An empty table; NULL and *err (-ENOMEM) on failure. */
struct sct_tasks *sct_tasks_new(int *err);
void sct_tasks_free(struct sct_tasks *ts);
/*
 * Feed one record of the session numbered session (the caller's numbering: two sessions
 * must not share a number, the files of one recording may). TASK, FORK, EXEC and EXIT
 * records change the table; others are ignored. Feed them in file order (a TASK or FORK may
 * still come after the EXEC of its task, as files have them); feeding one twice changes
 * nothing, so a second pass over a file may feed its records again.
 * Returns 0, or -ENOMEM (the table is unchanged, except that its record may be missing).
 */
SCT_MUST_CHECK int sct_tasks_add(struct sct_tasks *ts, uint32_t session, const struct sct_record *rec);
/* Tasks in the table: ids are 0 .. count-1, in the order they were first fed. */
uint32_t sct_tasks_count(const struct sct_tasks *ts);
/*
 * The task that tid was in session at time_ns (spec/FORMAT.md 9.2): of the tid's
 * incarnations in start order, the first not ended by time_ns. SCT_TASK_NONE if no record
 * describes one (every incarnation of the tid ended before time_ns, or none was fed).
 */
uint32_t sct_tasks_find(struct sct_tasks *ts, uint32_t session, uint32_t tid, uint64_t time_ns);
/* Task id's name at time_ns; empty if none is known. Equal names share one pointer. */
struct sct_bytes sct_tasks_comm(const struct sct_tasks *ts, uint32_t id, uint64_t time_ns);
/*
 * When a call is named (spec/FORMAT.md 9.2): at its return, time_ns + duration_ns (saturated),
 * so an execve that ran a new program goes by the new program's name; an unfinished call,
 * which did not return, at its entry. Its task is still the one found at time_ns.
 */
uint64_t sct_syscall_name_ns(const struct sct_syscall *sc);
/* What is known of task id: 0, or -ERANGE for an id past sct_tasks_count(). */
int sct_tasks_get(const struct sct_tasks *ts, uint32_t id, struct sct_task_info *out);

/* ---------------------------------------------------------------- histograms */
/*
 * TOTALS histograms (spec/FORMAT.md section 9.3). With s sub-bucket bits, a duration v below
 * 2^(s+1) is in bucket v; above, with e = floor(log2 v), in (e - s) * 2^s + (v >> (e - s)):
 * 2^s buckets per power of two. s = 0 gives log2 buckets. Buckets run 0 .. SCT_HIST_LAST(s).
 */
#define SCT_HIST_MAX_BITS 16u
#define SCT_HIST_BITS 9u      /* what sct-record writes: exact below 1024 ns, then 512 a power */
#define SCT_HIST_LAST(bits) ((uint64_t)64 << (bits))
/* Bytes an encoding of n buckets takes at most: two varints each. */
#define SCT_HIST_MAX_BYTES(n) ((size_t)(n) * 15u)

struct sct_hist_bin {
	uint64_t bucket;
	uint64_t count;
};

/* The bucket of duration v; bits <= SCT_HIST_MAX_BITS. */
uint64_t sct_hist_bucket(uint64_t v, uint32_t bits);
/* The smallest duration in bucket b (b <= SCT_HIST_LAST(bits)). */
uint64_t sct_hist_bucket_low(uint64_t b, uint32_t bits);
/*
 * Encode n bins, in increasing bucket order with counts >= 1, into buf (cap bytes).
 * Returns the bytes written, -EINVAL (bits past SCT_HIST_MAX_BITS, buckets not increasing
 * or past SCT_HIST_LAST(bits), a count of 0) or -ENOSPC (does not fit: see
 * SCT_HIST_MAX_BYTES()); buf's content is then undefined.
 */
SCT_MUST_CHECK int64_t sct_hist_encode(const struct sct_hist_bin *bins, size_t n, uint32_t bits,
				       uint8_t *buf, size_t cap);
/* The same from counts[0 .. ncounts), counts[b] being bucket b's (zeros are left out). */
SCT_MUST_CHECK int64_t sct_hist_encode_counts(const uint64_t *counts, size_t ncounts, uint32_t bits,
					      uint8_t *buf, size_t cap);

/* A walk over an encoded histogram: reads only hist's bytes, allocates nothing. */
struct sct_hist_iter {
	const uint8_t *pos, *end;
	uint64_t next;        /* the lowest bucket the next pair may name */
	uint64_t last;        /* SCT_HIST_LAST(bits) */
	bool bad;
};
void sct_hist_iter_init(struct sct_hist_iter *it, struct sct_bytes hist, uint32_t bits);
/* The next bin: 1, 0 at the end, -SCT_E_CORRUPT (a bad varint, a bucket past the last, a count 0). */
SCT_MUST_CHECK int sct_hist_next(struct sct_hist_iter *it, struct sct_hist_bin *bin);
/*
 * Whether a TOTALS record keeps the rules readers depend on (spec/FORMAT.md 9.3): hist_bits
 * <= SCT_HIST_MAX_BITS, hist decodes, its counts add up to calls. 0 or -SCT_E_CORRUPT.
 */
SCT_MUST_CHECK int sct_totals_check(const struct sct_totals *t);

/* ---------------------------------------------------------------- stacks */
/* A frame of a STACK record (spec/FORMAT.md 9.4). */
struct sct_frame {
	uint32_t module_id;   /* the MODULE the address is in; 0: no known mapping covered it */
	uint64_t addr;        /* in the module's addresses (its symbol table's); module 0: raw */
};
/* Bytes of frames at most: SCT_MAX_STACK_FRAMES frames of a 5-byte and a 10-byte varint. */
#define SCT_STACK_FRAMES_MAX_BYTES (SCT_MAX_STACK_FRAMES * 15u)
/*
 * The next frame of frames from *pos (start at 0): 1 with *f filled and *pos advanced, 0 at
 * the end, -SCT_E_CORRUPT if the bytes at *pos are not a whole (module_id, addr) pair (a varint
 * cut, over 10 bytes or past 64 bits, a module_id past 2^32-1). Reads only frames' bytes.
 */
SCT_MUST_CHECK int sct_stack_frame_next(const struct sct_bytes *frames, size_t *pos,
					struct sct_frame *f);
/*
 * Encode n frames (n <= SCT_MAX_STACK_FRAMES) into buf (cap bytes;
 * SCT_STACK_FRAMES_MAX_BYTES always suffice). Returns the bytes written, or -SCT_E_LIMIT (n
 * too large, or cap too small: buf's content is then undefined).
 */
SCT_MUST_CHECK int sct_stack_frames_encode(const struct sct_frame *f, size_t n, uint8_t *buf,
					   size_t cap);
/*
 * Whether a STACK record keeps the rules readers depend on: its frames parse as whole pairs
 * and number at most SCT_MAX_STACK_FRAMES. 0 or -SCT_E_CORRUPT.
 */
SCT_MUST_CHECK int sct_stack_check(const struct sct_stack *st);

/* ---------------------------------------------------------------- syscall classes */
/*
 * strace's syscall classes (%file, %process, %net or %network, %signal, %ipc, %desc,
 * %memory, %creds, %stat, %lstat, %fstat, %statfs, %fstatfs, %clock, %pure) by syscall
 * name, over the x86_64 and i386 syscalls, as `strace -e trace=%CLASS` selects them.
 */
/* 1 if syscall_name is in the class, 0 if not, -EINVAL for an unknown class ('%' optional). */
int sct_syscall_class_match(const char *class_name, const char *syscall_name);
/* The class names with their '%', NULL-terminated. */
const char *const *sct_syscall_class_names(void);
/* The name of syscall nr of the caller's table, NULL if it has none. */
typedef const char *(*sct_syscall_name_fn)(void *ctx, uint32_t nr);
/*
 * Parse a syscall list as sct-record's and sct-report's -S take it into a bitmap of numbers
 * 0 .. nbits-1 (set must hold nbits bits; bit nr is set[nr / 8] & 1 << nr % 8): items
 * separated by commas, each a name, a number or a %class, with '!' before an item to remove
 * it from what the items before it gave; a list that starts with '!' is all syscalls but
 * what the rest names (strace's -e trace=!SET). name_of gives the table's names (numbers
 * past nbits are not in it). Returns 0, or -EINVAL with a message in err naming the item
 * that is not a syscall or class of the table.
 */
SCT_MUST_CHECK int sct_syscall_set_parse(const char *list, sct_syscall_name_fn name_of, void *ctx,
					 uint8_t *set, size_t nbits, char *err, size_t errlen);

/* ---------------------------------------------------------------- sample fields */

/* A field's value decoded from a sample payload by sct_sample_field(). */
enum sct_sample_value_kind {
	SCT_SAMPLE_INT = 0,    /* integer of 1, 2, 4 or 8 bytes: i if the field is signed, else u */
	SCT_SAMPLE_STRING,     /* __data_loc char[] or a char array: bytes up to the first NUL */
	SCT_SAMPLE_ARRAY,      /* any other array or size: the raw bytes, elem bytes each */
	SCT_SAMPLE_BAD,        /* the field or its __data_loc target lies outside the payload */
};

struct sct_sample_value {
	uint32_t kind;         /* enum sct_sample_value_kind */
	uint32_t elem;         /* SCT_SAMPLE_ARRAY: bytes per element (1, 2, 4 or 8) */
	uint8_t is_signed;     /* INT and ARRAY: the field's signedness */
	union {
		uint64_t u;
		int64_t i;
	};
	struct sct_bytes bytes; /* STRING and ARRAY: inside payload */
};

/*
 * Decode field f from a sample's payload, little-endian (the byte order of every arch the
 * recorder runs on; spec/FORMAT.md section 10). Never reads outside payload: a field or a __data_loc range
 * outside it gives SCT_SAMPLE_BAD. Returns out->kind.
 */
uint32_t sct_sample_field(const struct sct_event_field *f, struct sct_bytes payload,
			  struct sct_sample_value *out);
/* Element i (< bytes.len / elem) of an SCT_SAMPLE_ARRAY value, sign-extended if signed. */
uint64_t sct_sample_elem(const struct sct_sample_value *v, uint32_t i);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
