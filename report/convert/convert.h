/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-convert's state (struct convert) and its output formats. A format is one struct
 * convert_format in a file of its own (format_csv.c, format_jsonl.c, format_clickhouse.c,
 * format_perfetto.c),
 * listed once in formats.c. convert_main.c reads the records, convert_columns.c says which
 * columns a row has, and the format's fields and functions write every byte of it.
 * Errors: 0 on success, a negative errno on failure; only main prints the message.
 */
#ifndef SCT_CONVERT_H
#define SCT_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clickhouse.h"
#include "outbuf.h"
#include "names.h"
#include "sct.h"
#include "stacks.h"
#include "trace_input.h"

enum col_src { COL_SESSION, COL_HOST, COL_FIELD, COL_NAME, COL_COMM, COL_CGROUP, COL_PARENT_COMM,
	       COL_WALL, COL_ERRNO, COL_ARGS, COL_HIST_NS, COL_HIST_CALLS, COL_STACK, COL_FRAMES, COL_FOLDED,
	       COL_ADDR, COL_ARGV, COL_DATA, COL_EVENT, COL_FIELDS, COL_EVFIELD };

/*
 * A column's head, or a cached string, this long or shorter is copied into a row as
 * COL_HEAD_COPY bytes, a fixed-size copy the compiler makes two moves of, where a copy of its
 * own length is a call: a tenth of a JSON Lines row's time.
 */
#define COL_HEAD_COPY 32u

/* A SYSCALL field read straight from the decoded record (the hot path), where records.def says. */
struct sc_slot {
	const char *name;
	uint32_t kind;
	uint16_t offset; /* in struct sct_syscall */
	uint8_t size;
};

struct column {
	char *name;
	char *field;   /* COL_EVFIELD: the tracepoint field's name */
	char *jkey;    /* "name": as JSON, rendered once */
	size_t jkeylen;
	/*
	 * What goes before the value in a row: the format's separator, then jkey in a keyed
	 * format; in a buffer of at least COL_HEAD_COPY bytes, zeros past it.
	 */
	char *head;
	size_t headlen;
	enum col_src src;
	uint32_t kind; /* COL_FIELD: the schema's kind */
	int idx; /* COL_FIELD, COL_EVFIELD: index in the session's schema or the event's fields, -1 if none */
	const struct sc_slot *slot; /* SYSCALL: where the record holds this field, NULL if not there */
	uint8_t width; /* a binary format's integer bytes, set by its begin() (0: not an integer) */
	/*
	 * Columns from here that the mapped session writes the same in every row (fields it does
	 * not have), 0 if this one is not; their bytes, rendered once, at fixed_off in fixed.
	 */
	uint32_t fixed_run;
	size_t fixed_off, fixed_len;
	/*
	 * A text format's columns from here that are slots (SYSCALL numbers read straight from
	 * the record), written through one reservation of slot_room bytes; 0 if this one does
	 * not start such a run.
	 */
	uint32_t slot_run;
	size_t slot_room;
};

/*
 * A step of the mapped session's row after its prefix: a run of fixed columns copied, a run
 * of slot columns, one slot column of a binary format, a SYSCALL row's wall clock, errno,
 * syscall name, comm or cgroup path, or any other column; the row is a walk of these, not of
 * the columns and their kinds.
 */
enum row_step { ROW_FIXED, ROW_SLOTS, ROW_SLOT, ROW_WALL, ROW_ERRNO, ROW_NAME, ROW_COMM, ROW_CGROUP, ROW_COL };

struct row_op {
	const struct column *col; /* the (first) column, in the same struct convert */
	enum row_step step;
};

/*
 * Strings of the string table (syscall names, comms, cgroup paths) as the format writes
 * them, each escaped once rather than in every row: a cache by id, direct-mapped, whose
 * texts share one buffer, emptied when that passes STR_CACHE_BYTES: bounded however many
 * strings a trace holds.
 */
#define STR_CACHE_SLOTS 1024u
#define STR_CACHE_BYTES (64u << 10)
struct str_slot {
	uint32_t id1; /* the id + 1; 0: empty */
	uint32_t len;
	size_t off;   /* in texts */
};
struct str_cache {
	struct str_slot slots[STR_CACHE_SLOTS];
	struct out texts;
};

struct convert_format;

struct shard;

/*
 * A conversion. sct-convert -j runs copies of it (convert_shard.c): the fields before c are
 * the command line's, the same in every copy; from c on, each copy has its own.
 */
struct convert {
	const struct convert_format *fmt;    /* --to */
	const struct convert_format *schema; /* --schema: the format whose DDL is printed, NULL if none */
	bool strict, force;
	bool sessions_rows;    /* --records sessions: a row per HEADER */
	struct ch_ddl ddl;     /* database names and cluster */
	const char *type_name; /* --records NAME of a type only a HEADER schema names */
	const char *output;
	char **files;
	int nfiles;
	char **events;       /* --event names */
	uint32_t nevents;
	bool per_field;      /* one event, in a format with event_columns: a column per field */
	bool no_demangle;            /* --no-demangle: symbol names as the trace holds them */
	const char *debug_dir_path;  /* --debug-dir DIR, NULL: none */
	bool folded_by_time;    /* --to folded --by time: counts are nanoseconds */
	/* the format's null, null_number and row_end, with their lengths: written in every row */
	struct out_lit null, null_number, row_end;
	char row_end_text[COL_HEAD_COPY]; /* row_end, zero-padded: copied as one fixed-size move */
	uint32_t type;         /* 0 until type_name is found in a HEADER schema */

	struct ctx c;
	uint32_t nprefix;      /* leading columns of the format's prefix: session and host, or the identity */
	uint64_t headless;     /* records not written: the format needs a HEADER, and none gives them one */
	const char *insert_table; /* the table the INSERT was written for, NULL before the first row */
	char *table;           /* the type's name in the schema the columns came from (any length) */
	/* type is SAMPLE in the session the columns came from (type 9 of a 1.0 session is not) */
	bool sample;
	/* type is TOTALS there (format 1.5): hist is decoded into hist_ns and hist_calls */
	bool totals;
	/* that session has "stacks" (format 1.6): SYSCALL rows have stack_id (and stack) */
	bool stack_cols;
	bool capture_cols; /* the session the columns come from captured argument memory (1.7) */
	struct column cols[SCT_MAX_FIELDS + SCT_MAX_EVENT_FIELDS + 8];
	uint32_t ncols;
	struct row_op ops[SCT_MAX_FIELDS + SCT_MAX_EVENT_FIELDS + 8]; /* convert_map()'s, for mapped */
	uint32_t nops;
	const struct sct_event_desc *ev_mapped; /* the event the COL_EVFIELD indexes are for */
	uint64_t ev_sess;    /* struct live's serial of ev_mapped */
	struct out scratch;  /* a memory out: one field's JSON, the args column */
	struct str_cache strs;
	struct iso_second wall_last; /* wall_time: the second last rendered */
	uint64_t mapped;     /* struct live's serial the field indexes were computed for, 0 = none */
	bool batch_rows;     /* mapped's SYSCALL rows render from batches (convert_map()) */
	char *prefix;        /* the leading columns of mapped, rendered */
	size_t prefix_len;
	struct out fixed;    /* the runs of columns mapped writes the same in every row, rendered */
	struct out o;
	struct stacks *stacks;  /* the STACK, MODULE and SYMBOL records of the file being read */
	struct debug_dir *debug_dir;
	void *state;         /* a format's own (format_perfetto.c), freed by its free() */
	/* sct-convert -j: the copies, this one's lane among them, the rows it has met; NULL: one */
	struct shard *shard;
	uint32_t lane;
	uint64_t rows;
};

/*
 * One output format. Fields say which columns its rows have; functions write the bytes.
 * Functions that may be NULL say so.
 */
struct convert_format {
	const char *name;                /* --to NAME */
	const char *const *prefix_cols;  /* the leading columns, the same for a whole session */
	uint32_t nprefix;
	char sep;                        /* between two columns */
	const char *row_end;             /* after a row's last column */
	const char *null;                /* a value a row lacks */
	const char *null_number;         /* a numeric field a session lacks */
	bool keyed;                      /* each value after its column's JSON key */
	/* the derived columns beside their field: wall_time after time_ns, errno after ret */
	bool beside;
	/* SYSCALL rows have every argument column, whatever the session recorded */
	bool every_syscall_col;
	/* --event naming one event: a column per tracepoint field instead of "fields" */
	bool event_columns;
	/* SYSCALL rows of a session with stacks have the frames' text (column "stack") */
	bool stack_text;
	/*
	 * SYSCALL rows of a session that captured argument memory (format 1.7) have it as text:
	 * addr as its peer, argv as an array of strings, data escaped as strace escapes it
	 */
	bool capture_text;
	/*
	 * stacks as a table of their own: SYSCALL rows of a session with stacks have stack_id
	 * (without the text), and STACK rows the frames symbolized (frames, an array of the
	 * lines of stack_text's text) and folded (stacks_folded()) instead of their bytes
	 */
	bool stack_table;
	/* rows of blocks without a HEADER are counted, not written */
	bool needs_header;
	/* takes --database, --cluster, --local-database (checked as SQL names) */
	bool databases;
	/*
	 * bytes for a program, refused on a terminal; in a format of rows, no text between
	 * values (sep, row_end, null and null_number unused): a value a row lacks is str() of
	 * nothing or num() of 0
	 */
	bool binary;
	/* the wall-clock column after the fields (COL_WALL), NULL for none */
	const char *wall_col;
	/* One value as a string of the format. */
	void (*str)(struct out *o, const void *p, size_t len);
	/* An array of numbers, given as its text "[1,2]"; NULL: written as it is. */
	void (*array)(struct out *o, const void *p, size_t len);
	/* A number of column col (sint: v is an int64_t's bits); NULL: its decimal text. */
	void (*num)(struct out *o, const struct column *col, uint64_t v, bool sint);
	/* An array of numbers as they are; NULL: their text through array. */
	void (*u64s)(struct out *o, const uint64_t *v, size_t n);
	/* An array of strings: the lines of text (joined by '\n'); stack_table formats only. */
	void (*lines)(struct out *o, const char *text, size_t len);
	/*
	 * exec's arguments (len bytes, each followed by a NUL) as an array of strings; NULL: as
	 * the text of a JSON array, through array
	 */
	void (*argv)(struct out *o, const uint8_t *p, size_t len);
	/* The leading columns of the session lv into p (a memory out). */
	void (*prefix)(const struct convert *cv, struct out *p, const struct live *lv);
	/* Once the columns are known, before any row (the CSV header row); NULL: nothing. */
	void (*begin)(struct convert *cv);
	/* Before each row (ClickHouse's INSERT before the first); NULL: nothing. */
	void (*row_begin)(struct convert *cv);
	/* time_ns of session s on the wall clock; have: the record has a time_ns. */
	void (*wall)(struct convert *cv, const struct sess *s, uint64_t time_ns, bool have);
	/* A sample's fields in one column. */
	void (*fields)(struct convert *cv, const struct sct_event_desc *ev, struct sct_bytes payload);
	/* One tracepoint field's column (event_columns); NULL without event_columns. */
	void (*event_field)(struct convert *cv, const struct sct_event_field *f, struct sct_bytes payload);
	/* --records sessions: the row of one HEADER; NULL: the format has no sessions table. */
	void (*session_row)(struct convert *cv, const struct sct_session *s);
	/* --schema NAME: the DDL of every table; NULL: the format has none. */
	int (*schema)(struct convert *cv);
	/*
	 * A format of every record type rather than rows of one (--records and --event do not
	 * apply): each record as it is read, before input_track() applies it; its state in
	 * cv->state. NULL: a format of rows.
	 */
	int (*record)(struct convert *cv, struct input *in, const struct sct_record *rec);
	/* After every input, a format of every record type writes what it gathered; NULL: nothing. */
	int (*finish)(struct convert *cv);
	/* Frees cv->state (NULL is fine); NULL: the format keeps none. */
	void (*free)(struct convert *cv);
};

/* The format named name, NULL if none. */
const struct convert_format *formats_find(const char *name);
/*
 * The names of the formats for which has() is true (every format if has is NULL), each after
 * before: "csv, jsonl or clickhouse", "--to csv, --to jsonl or --to clickhouse".
 * NULL on ENOMEM; the caller frees it.
 */
char *formats_list(const char *before, bool (*has)(const struct convert_format *f));

extern const struct convert_format format_csv, format_jsonl, format_clickhouse, format_perfetto, format_folded;
/* --to clickhouse --clickhouse-format rowbinary (not in the list: a variant of clickhouse). */
extern const struct convert_format format_rowbinary;

/*
 * convert_columns.c: the columns of type cv->type by the session's schema ts (the built-in
 * one without any input); for samples, ev is the event whose fields get a column each
 * (cv->per_field), else NULL. 0 or -ENOMEM.
 */
int convert_columns(struct convert *cv, const struct sct_type_schema *ts, const struct sct_event_desc *ev);
/*
 * The text of a captured-memory column (src COL_ADDR, COL_ARGV or COL_DATA) of sc into o
 * (convert_captures.c); false, and nothing written, when the call has none. netlink_protocol:
 * the protocol of the call's socket, -1 unknown.
 */
bool convert_capture_text(struct out *o, const struct sct_syscall *sc, enum col_src src, int netlink_protocol);
void convert_free_cols(struct convert *cv);

/*
 * convert_main.c, for the copies: a new conversion with cv's command line and tables of its
 * own, quiet about its inputs (NULL on ENOMEM); every file converted (0 or -ENOMEM); freed.
 */
struct convert *convert_copy(const struct convert *cv);
int convert_files(struct convert *cv);
void convert_free(struct convert *cv);

/*
 * convert_shard.c: convert_run() on cv->c.jobs copies that each render a share of the rows,
 * when that works (every input a file, a format of rows, more than one job); else
 * convert_run() itself. Its error, or the first copy's.
 */
int shard_run(struct convert *cv, int (*convert_run)(struct convert *cv));
/* Before each row: counts it, and says whether this copy renders it. */
bool shard_row(struct convert *cv);
/* Rows from the next one on that other copies render, up to the end of their chunk; 0 if this copy renders the next. */
uint32_t shard_foreign_rows(const struct convert *cv);
/* The rows left in the chunk of the next row, when it is cv's own (shard_foreign_rows() 0); 0 with one copy: no chunks. */
uint32_t shard_own_rows(const struct convert *cv);
/* shard_row() of n rows, n at most shard_foreign_rows(). */
void shard_skip(struct convert *cv, uint32_t n);

#endif
