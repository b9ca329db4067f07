/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the inputs (trace_input.c): one trace file at a time through libsct's reader, with
 * the tables every tool shares (strings, sessions, cgroups, tasks) kept up to date in a
 * struct ctx. Memory grows with tasks, cgroups and groups, a few dozen bytes per session
 * where the output names every session (the tree, task labels), and never with the number
 * of records. State lives in objects created and freed by main (struct ctx holds them), so
 * every module can be tested alone.
 * Errors: 0 or a count on success, a negative errno (or -SCT_E* from libsct) on failure;
 * only a program's main prints the message.
 */
#ifndef SCT_TRACE_INPUT_H
#define SCT_TRACE_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup_table.h"
#include "sct.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"
#include "window.h"

#define NR_CACHE 1024u /* syscall numbers below this have direct lookup tables */
/*
 * Files of a live session with stacks whose records are held at once, at most: each has
 * tables of its own (stacks.h) while one of its records may still be given.
 */
#define LIVE_FILES_HELD 2u

/*
 * The current session of one input: its entry, and caches that end with it. Its tasks and
 * cgroups go to the tables of struct ctx when the output needs them after the session
 * (keep_sessions, keep_ended), else to tables of its own that end with it too.
 */
struct live {
	struct sess s;
	const struct sct_session *session; /* the reader's: valid until its next SESSION record */
	/*
	 * Which HEADER (or stretch without one) the record given last is of, unique over all
	 * inputs: the files of one recording share s.id, so what is cached per HEADER is keyed
	 * by this. A live session that goes on into the next file of its recording may still give
	 * records of the file before: serial_held is the oldest HEADER whose records may still
	 * come (serial itself but there).
	 */
	uint64_t serial, serial_held;
	struct tasks *tasks;
	struct cgroups *cgroups;
	uint32_t nr_name[2][NR_CACHE];  /* [abi][nr] -> strtab id + 1 of the name; 0 = not looked up */
	uint8_t nr_pass[2][NR_CACHE];   /* --syscall filter per [abi][nr]: 0 unknown, 1 pass, 2 drop */
};

/* A session numbered by the first pass over an input (input_open(), for task identity). */
struct input_pre {
	uint32_t id, number;
};

struct input {
	struct sct_reader *r;
	const char *path;
	struct live *cur;  /* current session, NULL before the first record */
	bool read;         /* a record or a clean end came: counted in ctx.inputs_read */
	struct input_pre *pre; /* the sessions of the first pass, in input order */
	uint32_t npre, ipre, cappre;
	struct window *win;    /* a stream whose records need their task: held back here */
	bool session_due;      /* the reader returned a SESSION: the window drains first */
	bool ended;            /* the reader is done: the window drains, then end_rc */
	int end_rc;
	/*
	 * A live input (input_open_live()): read by a thread (live_input.c) from a feed
	 * (follow.c), its records held in ro and given in time order once due (trace_input.c).
	 */
	struct live_input *live;
	struct follow *feed;
	struct reorder *ro;
	uint64_t flush_ns;     /* the recorder's flush interval: a record is in the stream this long after its return */
	uint64_t newest;       /* wall clock of the latest return (a call's) or time (other records) read */
	uint64_t last_key;     /* the key of the last record: records of a stretch without a HEADER keep it */
	uint64_t serial_read;  /* the HEADER being read (struct live's serial): its records' tag in ro */
	void (*idle)(void *);  /* before a live input waits for its stream: the caller flushes its output */
	/*
	 * Set by the caller of a live input, 0: none. While the stream is quiet, input_next()
	 * returns -EAGAIN once no record with a key (wall clock of its time) up to wake_key can
	 * still come: flush_ns after the stream's clock passed it (reorder_arrival_of()).
	 */
	uint64_t wake_key;
	void *idle_ctx;
};

struct filter;
struct footer;

/* The state of a tool's reading: its tables, its footer, what the output needs kept. */
struct ctx {
	const char *tool;    /* for messages: "sct-report" */
	struct filter *filter; /* the filters of the program's command line: NULL for none */
	struct footer *footer;
	bool track_tasks;    /* keep the task table (comm, process tree) */
	bool hold_streams;   /* with track_tasks: a stream's records wait in a window (window.c) */
	bool keep_ended;     /* keep cgroups of sessions that are over (tree, summary) */
	bool keep_sessions;  /* the output names sessions and tasks after they end (tree, task labels) */
	struct strtab *strs;
	struct sessions *sessions;
	struct cgroups *cgroups;
	struct tasks *tasks;
	struct socket_table *sockets; /* the netlink sockets --by peer names peers by; NULL: none */
	/*
	 * Inputs that gave a record or a clean end. With none, every input failed and its
	 * message said why: no table or footer of nothing follows.
	 */
	uint32_t inputs_read;
	uint64_t nlive;      /* HEADERs and stretches without one read so far (struct live's serial) */
	/*
	 * input_next() also returns records of type 9 of a 1.0 session and of type 10 of a
	 * session before 1.5, types only their HEADER's schema describes (read them with
	 * sct_reader_field()); else it passes them by.
	 */
	bool schema_type9;
	/* input_error() only counts: another reader of the same inputs says it (sct-convert -j) */
	bool quiet;
	/* threads that decode each file's blocks (sct_reader_set_jobs()); 0 or 1: none. Live inputs read in turn. */
	uint32_t jobs;
};

/* The tables every mode shares (strings, sessions, cgroups, tasks), into c; -ENOMEM. */
int input_tables_new(struct ctx *c);
void input_tables_free(struct ctx *c);
int input_open(struct ctx *c, struct input *in, const char *path);
/*
 * A live input: path ("-": stdin) read as it comes, a regular file followed past its end
 * and into the next file of its recording if grow (follow.c). input_next() gives its records
 * in time order, each once no earlier one can still come: flush_ns (the recorder's
 * --flush-interval) after a later return was read, or that long after it arrived; across
 * the files of one recording as across one file.
 */
int input_open_live(struct ctx *c, struct input *in, const char *path, bool grow, uint64_t flush_ns);
/* sct_reader_next(), counting the input in c->inputs_read once it gives a record or its end. */
int input_read(struct ctx *c, struct input *in, struct sct_record *rec);
/*
 * Next record, with sessions and cgroups kept up to date. 1, 0 at end, or -err. Records of a
 * type above SCT_REC_MAX that the session's HEADER describes come too (read their fields with
 * sct_reader_field()): modes that do not show them pass them by.
 */
int input_next(struct ctx *c, struct input *in, struct sct_record *rec);
/*
 * input_next(), with a run of SYSCALL records of a file as columns (sct_reader_next_batch()):
 * rec->type SCT_REC_SYSCALL and batch->n >= 1, else batch->n 0 and rec as input_next() fills
 * it, or an SCT_REC_SESSION record once in->cur is the new session's (what a batch's rows
 * are read for may change with it). A live or held input gives one record at a time.
 */
int input_next_batch(struct ctx *c, struct input *in, struct sct_record *rec, struct sct_syscall_batch *batch);
/*
 * The batch arrays (SCT_BATCH_ bits) input_next_batch() may leave unfilled until
 * input_batch_fill() (sct_reader_set_batch_lazy()); 0 fills every one.
 */
void input_set_batch_lazy(struct input *in, uint32_t fields);
/* Fill every array of the batch input_next_batch() gave last. */
void input_batch_fill(struct input *in);
/* At most rows rows in the batches input_next_batch() gives from now on; 0: any. */
void input_set_batch_max(struct input *in, uint32_t rows);
/* Row i of batch into the fields of sc that every SYSCALL has (the others are left as they are). */
void input_batch_row(const struct sct_syscall_batch *batch, uint32_t i, struct sct_syscall *sc);
/* Apply a lifecycle record to the task table: after the mode has seen it (an EXIT line
 * still names the task it ends). */
int input_track(struct ctx *c, struct input *in, const struct sct_record *rec);
/* An input that failed (err): "TOOL: PATH: reason" on stderr, escaped, and in the footer. */
void input_error(struct ctx *c, struct input *in, const char *path, int err);
/* Adds the reader's statistics to the footer and closes it. */
void input_close(struct ctx *c, struct input *in);
/* input_syscall_name() of a number not looked up yet (abi 0 or 1). */
uint32_t input_syscall_name_new(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi);

/*
 * Name of syscall nr in the live session's table: strtab id ("syscall_N" if unknown).
 * Inline: a name looked up once is read from the table in every row after.
 */
static inline uint32_t input_syscall_name(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi)
{
	abi = abi ? 1 : 0;
	if (nr < NR_CACHE && lv->nr_name[abi][nr])
		return lv->nr_name[abi][nr] - 1;
	return input_syscall_name_new(c, lv, nr, abi);
}
/* The live session's description of a sample's event, NULL if its HEADER has none. */
const struct sct_event_desc *input_event(const struct live *lv, const struct sct_sample *sm);
/* Name of a sample's event: strtab id of "GROUP:NAME" ("event_N" if the HEADER has none). */
uint32_t input_event_name(struct ctx *c, struct live *lv, const struct sct_sample *sm);
/* Type 9 is SAMPLE in the live session: from format 1.1 on (and without a HEADER). */
bool input_sample_session(const struct live *lv);
/* Type 10 is TOTALS in the live session: from format 1.5 on (and without a HEADER). */
bool input_totals_session(const struct live *lv);

#endif
