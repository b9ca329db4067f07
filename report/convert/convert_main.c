// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert: one record type of sct traces in one of the formats formats.c lists (CSV,
 * JSON Lines, ClickHouse), which write every byte of it (convert.h). Columns are the format's
 * leading ones (session number and hostname, or the ClickHouse identity), then the fields
 * the HEADER's schema names for the type (so a newer minor version's fields appear without
 * a change here) with the wall clock and errno name beside time_ns and ret, then names
 * resolved from other records: syscall name, comm, cgroup path. A sample's event is its
 * name, and its payload is its tracepoint's fields, decoded by the HEADER's event table.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "records.def"
#include "args_text.h"
#include "cgroup_table.h"
#include "clickhouse.h"
#include "convert.h"
#include "debug_dir.h"
#include "exit_status.h"
#include "filter.h"
#include "footer.h"
#include "jobs.h"
#include "names.h"
#include "outbuf.h"
#include "samples.h"
#include "sessions.h"
#include "socket_table.h"
#include "stacks.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

static const char usage_text[] =
"Usage: sct-convert --to csv|jsonl|clickhouse|perfetto|folded [--records TYPE] [--event G:N] [-o OUT [--force]] FILE...\n"
"       sct-convert --schema clickhouse [--database DB] [--cluster NAME [--local-database LDB]]\n"
"Writes one record type of sct traces (FILE '-' = stdin) as CSV (RFC 4180, header row,\n"
"CRLF) or JSON Lines (one object per line). TYPE: syscall (default), task, fork, exec,\n"
"exit, cgroup, lost, warning, sample, totals, a number (a newer type: 11, ...) or a name a\n"
"HEADER's schema gives it (else exit 2). Columns: session, host, the schema's fields in\n"
"order, then resolved names: syscall: name, comm, cgroup_path, args; task: cgroup_path;\n"
"fork: parent_comm; exit: comm; totals: name, comm, cgroup_path (empty/null when no record\n"
"named them). Blocks after a damaged or missing HEADER have no session number and no host\n"
"(empty/null).\n"
"Totals (filtered recordings, format 1.5: every call counted per process, cgroup and\n"
"syscall and flush interval): the histogram is two arrays of one length, hist_ns (each\n"
"bucket's lowest duration) and hist_calls (its calls): [800,1500] and [3,1] (CSV: that text).\n"
"Derived columns beside their field: wall_time after time_ns (every type: the time on the\n"
"wall clock by the HEADER's clock anchor, ISO 8601 UTC with ns, 2025-11-29T10:00:00.000004500Z;\n"
"empty/null without a HEADER); errno after a syscall's ret (ENOENT; E4095 for a number\n"
"without a name; empty/null when the call succeeded or is unfinished).\n"
"Syscall rows always have arg0..arg5 (raw, unsigned), path_flags, path_ref, path (the\n"
"captured file name), path2_flags, path2_ref, path2 (the second one: rename's target,\n"
"format 1.4) and args (the arguments as strace shows them): empty/null in a trace\n"
"recorded without sct-record --args, path2 also in a 1.3 trace, unless the HEADER lists\n"
"fields of those names past the ones its version defines: those show as stored.\n"
"Samples (tracepoints recorded with sct-record -e): event is the tracepoint's GROUP:NAME,\n"
"and the payload is replaced by its fields, named as in the tracepoint's format: JSON: a\n"
"\"fields\" object (integers, strings for char arrays and __data_loc strings, arrays of\n"
"integers, {\"error\":\"out of range\"} for data outside the sample); CSV: a \"fields\"\n"
"column of that JSON text, or, when --event names one event, a column per field (named\n"
"field_NAME if NAME is already a column). event and fields are null/empty when the\n"
"HEADER does not describe the event.\n"
"Strings: CSV writes bytes as they are (quoted when they hold , \" CR or LF); JSON writes\n"
"valid UTF-8 as is, but control characters (C0, DEL, C1 U+0080..U+009F) escaped, and each\n"
"other byte as \\u00XX of its value. 64-bit values are exact integers in both.\n"
"\n"
"ClickHouse: --to clickhouse writes 'INSERT INTO DB.TYPE FORMAT TabSeparated' and the rows,\n"
"for clickhouse-client or ClickHouse's HTTP interface. Columns: host, recording (the\n"
"HEADER's recording id, or one derived from the HEADER for files that state none or an\n"
"id other than 32 lowercase hex digits), sequence (the file's number in its recording,\n"
"0 when derived), session (its index in the file), the\n"
"schema's fields, wall_ns (time_ns on the wall clock), then the names above. A value a\n"
"session lacks is 0 or ''. --records sessions writes a row per HEADER (table sessions).\n"
"Records without a HEADER (after damage) have no host or recording: not written, counted\n"
"on stderr. --clickhouse-format rowbinary writes the same rows in RowBinary (binary:\n"
"-o OUT or a pipe, not a terminal): no text to write or parse, half the converter's time.\n"
"Call stacks: syscall rows have stack_id; --records stack writes a row per stack of each\n"
"file, its frames symbolized (frames: Array(String), innermost first; folded: as --to\n"
"folded writes them), for calls to join on their file's identity and stack_id.\n"
"--schema clickhouse prints the CREATE statements of every table (with\n"
"--cluster, MergeTree tables in LDB and Distributed tables over them in DB, sharded by host).\n"
"\n"
"Perfetto: --to perfetto writes every record type as one Perfetto trace (protobuf, for\n"
"ui.perfetto.dev and trace_processor; binary: -o OUT or a pipe, not a terminal): a track\n"
"per process and thread named by the trace's lifecycle records, the process's cgroup as\n"
"its label; each syscall a slice with args (as the args column), ret, errno, cgroup;\n"
"fork, exec, exit and samples as instants on the task's track, lost events and warnings\n"
"on a track of their own. Times are the records' time_ns, in nanoseconds.\n"
"\n"
"Folded stacks: --to folded writes the calls recorded in detail (unfinished ones left\n"
"out) as flamegraph.pl's input, a line per distinct command name, call stack (recorded\n"
"with sct-record --stack) and syscall: 'COMM;OUTERMOST;...;INNERMOST;SYSCALL COUNT',\n"
"COUNT the calls (--by calls, the default) or their time in ns (--by time). Frames are\n"
"function names (no offset), [MODULE] where no symbol covers the address, [unknown]\n"
"where no module does, kernel frames NAME_[k]; a call without a stack is\n"
"'COMM;SYSCALL COUNT'. ';' and bytes outside 0x21..0x7e in names are '_'; lines\n"
"sorted, equal lines summed.\n"
"Stacks in CSV and JSON Lines: in a session with stacks (the first that describes the\n"
"type), syscall rows have stack_id and, after args, stack: the frames innermost first\n"
"as sct-report -T shows them, joined by ';' (empty/null without a stack).\n"
"\n"
"  -T, --to FORMAT     csv, jsonl, clickhouse, perfetto or folded (required, unless\n"
"                      --schema)\n"
"      --by calls|time --to folded: count calls (default) or nanoseconds\n"
"      --debug-dir DIR symbols of the stacks' modules that the trace does not name, from\n"
"                      DIR/.build-id/xx/rest.debug or DIR/BASENAME with the module's\n"
"                      build id\n"
"      --no-demangle   C++ symbol names as the trace holds them (_ZN3foo3barEv), not\n"
"                      demangled (foo::bar())\n"
"      --schema clickhouse   print the ClickHouse DDL and exit\n"
"      --clickhouse-format F  --to clickhouse: tsv (TabSeparated, default) or\n"
"                      rowbinary (RowBinary)\n"
"      --database DB   ClickHouse database of the tables (default sct)\n"
"      --cluster NAME  --schema: Distributed tables over the servers of cluster NAME\n"
"      --local-database LDB  --schema --cluster: database of the MergeTree tables\n"
"                      (default sct_local)\n"
"  -r, --records TYPE  record type (default syscall)\n"
"  -e, --event G:N     samples of these events only (repeatable or comma-separated;\n"
"                      implies --records sample)\n"
"  -o, --output OUT    output file (default stdout), created with the permissions of\n"
"                      the most restrictive input (0600 for stdin), never through a\n"
"                      symlink\n"
"  -f, --force         overwrite OUT if it exists\n"
"  -j, --jobs N        threads (default: the online CPUs, at most 32; 1: none). Rows\n"
"                      of files (csv, jsonl, clickhouse): up to 8 threads each render\n"
"                      a share of them; else: threads decode each file's blocks. The\n"
"                      output is the same with any N\n"
"      --strict        exit 3 when any input is damaged or incomplete\n"
"  -h, --help          this text\n"
"Exit status: as sct-report: 0 ok, 1 unreadable input or output error (writing stops at\n"
"the first error), 2 usage, 3 damaged input with --strict or nothing readable. The input\n"
"summary goes to stderr.\n"
"\n"
"Examples:\n"
"  sct-convert --to csv -o calls.csv trace.sct\n"
"  sqlite3 t.db '.import --csv calls.csv calls' 'select name, count(*) from calls group by 1'\n"
"  sct-convert --to jsonl --records exec trace.sct | python3 -c 'import json,sys; ...'\n"
"  sct-convert --to csv --records task host1.sct host2.sct > tasks.csv\n"
"  sct-convert --to csv --event sched:sched_switch trace.sct > switches.csv\n"
"  sct-convert --to jsonl --records sample trace.sct\n"
"  sct-convert --schema clickhouse | clickhouse-client --multiquery\n"
"  sct-convert --to clickhouse --records lost *.sct | clickhouse-client\n"
"  sct-convert --to perfetto -o trace.pftrace trace.sct   (open it in ui.perfetto.dev)\n"
"  sct-convert --to folded --by time trace.sct | flamegraph.pl > calls.svg\n";

/* SYSCALL fields read straight from the decoded record (the hot path), where records.def says. */
#define SC_SLOT(t, member, kind, unit) { #member, SCT_KIND_##kind, \
	offsetof(struct sct_syscall, member), sizeof(((struct sct_syscall *)0)->member) },
static const struct sc_slot sc_slots[] = { RECORD_SYSCALL_FIELDS(SC_SLOT, syscall) };

static int usage_hint(void)
{
	fputs("Usage: sct-convert --to csv|jsonl|clickhouse|perfetto|folded [--records TYPE] [--event G:N] [-o OUT [--force]] FILE...\n",
	      stderr);
	return -EINVAL;
}

static int usage_error(const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "sct-convert: %s '%s'\n", what, arg);
	else
		fprintf(stderr, "sct-convert: %s\n", what);
	return usage_hint();
}

static bool has_schema(const struct convert_format *f)
{
	return f->schema;
}

static bool has_databases(const struct convert_format *f)
{
	return f->databases;
}

static bool has_session_rows(const struct convert_format *f)
{
	return f->session_row;
}

/*
 * usage_error() of "WHAT NAMES AFTER" (WHAT omitted when empty), NAMES the formats has() takes
 * (all if NULL), each after before: "--to must be csv, jsonl or clickhouse, not 'xml'".
 */
static int usage_list(const char *what, const char *before, bool (*has)(const struct convert_format *f),
		      const char *after, const char *arg)
{
	char *names = formats_list(before, has);
	char *msg = NULL;
	int err;

	if (!names || asprintf(&msg, "%s%s%s%s", what, *what ? " " : "", names, after) < 0) {
		free(names);
		fprintf(stderr, "sct-convert: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = usage_error(msg, arg);
	free(msg);
	free(names);
	return err;
}

/* A record type by number, 1 .. 2^32-1 (a newer minor version's); 0 if arg is no such number. */
static uint32_t convert_type_number(const char *arg)
{
	unsigned long long v;
	char *end;

	if (*arg < '0' || *arg > '9')
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	return !errno && !*end && v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* Names that go into SQL unquoted: letters, digits and '_', not starting with a digit. */
static bool convert_sql_name(const char *name)
{
	return *name && (*name < '0' || *name > '9') &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(name);
}

static int convert_check_names(const struct convert *cv)
{
	if (!convert_sql_name(cv->ddl.db))
		return usage_error("invalid --database name:", cv->ddl.db);
	if (!convert_sql_name(cv->ddl.local_db))
		return usage_error("invalid --local-database name:", cv->ddl.local_db);
	if (cv->ddl.cluster && !convert_sql_name(cv->ddl.cluster))
		return usage_error("invalid --cluster name:", cv->ddl.cluster);
	return 0;
}

static int parse_args(struct convert *cv, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 'T' },     { "records", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' }, { "strict", no_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'f' },        { "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'e' },
		{ "schema", required_argument, NULL, 's' }, { "database", required_argument, NULL, 'D' },
		{ "cluster", required_argument, NULL, 'C' },
		{ "local-database", required_argument, NULL, 'L' },
		{ "by", required_argument, NULL, 'b' },     { "debug-dir", required_argument, NULL, 'g' },
		{ "no-demangle", no_argument, NULL, 'M' },
		{ "jobs", required_argument, NULL, 'j' },   { "clickhouse-format", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	const char *to = NULL;
	const char *records = NULL, *by = NULL, *ch_format = NULL;
	bool ddl_given = false;
	int c;

	cv->type = SCT_REC_SYSCALL;
	cv->c.jobs = jobs_default();
	cv->ddl.db = "sct";
	cv->ddl.local_db = "sct_local";
	argv[0] = (char *)"sct-convert"; /* getopt's messages name the tool, not the path it ran by */
	while ((c = getopt_long(argc, argv, "T:r:o:fhe:j:", opts, NULL)) != -1) {
		uint32_t t;

		switch (c) {
		case 'T': to = optarg; break;
		case 'o': cv->output = optarg; break;
		case 'S': cv->strict = true; break;
		case 'j':
			if (jobs_parse(optarg, &cv->c.jobs))
				return usage_error("invalid --jobs (1 to 32 expected):", optarg);
			break;
		case 'f': cv->force = true; break;
		case 's':
			cv->schema = formats_find(optarg);
			if (!cv->schema || !cv->schema->schema)
				return usage_list("--schema must be", "", has_schema, ", not", optarg);
			break;
		case 'D': cv->ddl.db = optarg; ddl_given = true; break;
		case 'C': cv->ddl.cluster = optarg; break;
		case 'L': cv->ddl.local_db = optarg; ddl_given = true; break;
		case 'F': ch_format = optarg; break;
		case 'M': cv->no_demangle = true; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'b':
			by = optarg;
			if (strcmp(by, "calls") && strcmp(by, "time"))
				return usage_error("--by must be calls or time, not", by);
			cv->folded_by_time = !strcmp(by, "time");
			break;
		case 'g':
			if (debug_dir_check(optarg)) {
				fprintf(stderr, "sct-convert: --debug-dir '%s': %s\n", optarg,
					strerror(-debug_dir_check(optarg)));
				return usage_hint();
			}
			cv->debug_dir_path = optarg;
			break;
		case 'e':
			if (filter_parse_list(&cv->events, &cv->nevents, optarg))
				return usage_error("invalid --event:", optarg);
			break;
		case 'r':
			records = optarg;
			cv->sessions_rows = !strcmp(optarg, "sessions");
			for (t = 1; t <= SCT_REC_MAX && strcmp(optarg, sct_schema_builtin(t)->name); t++)
				;
			cv->type = t <= SCT_REC_MAX ? t : convert_type_number(optarg);
			cv->type_name = cv->type ? NULL : optarg;
			if (!*optarg || (!cv->type && strspn(optarg, "0123456789") == strlen(optarg)))
				return usage_error("invalid --records type:", optarg);
			break;
		default: /* getopt said which option and why */
			return usage_hint();
		}
	}
	if (!to && cv->schema)
		to = cv->schema->name;
	cv->fmt = to ? formats_find(to) : NULL;
	if (!cv->schema && (!cv->fmt || !cv->fmt->databases) && (ddl_given || cv->ddl.cluster))
		return usage_list("--database, --cluster and --local-database need", "--to ", has_databases,
				  to ? " or --schema, not" : " or --schema", to);
	if (!to)
		return usage_list("", "--to ", NULL, " is required", NULL);
	if (!cv->fmt)
		return usage_list("--to must be", "", NULL, ", not", to);
	if (ch_format && (cv->fmt != &format_clickhouse || cv->schema))
		return usage_error("--clickhouse-format needs --to clickhouse, not", cv->schema ? "--schema" : to);
	if (ch_format && strcmp(ch_format, "tsv") && strcmp(ch_format, "rowbinary"))
		return usage_error("--clickhouse-format must be tsv or rowbinary, not", ch_format);
	if (ch_format && !strcmp(ch_format, "rowbinary"))
		cv->fmt = &format_rowbinary;
	if (cv->fmt->record && (records || cv->nevents))
		return usage_error("--records and --event do not apply: every record type goes into --to", to);
	if (by && cv->fmt != &format_folded)
		return usage_error("--by counts the lines of --to folded, not of", to);
	if (cv->sessions_rows && !cv->fmt->session_row)
		return usage_list("--records sessions needs", "--to ", has_session_rows, ", not", to);
	if (cv->fmt->databases && convert_check_names(cv))
		return -EINVAL;
	if (cv->nevents && records && cv->type != SCT_REC_SAMPLE)
		return usage_error("--event selects samples: it needs --records sample, not", records);
	if (cv->nevents)
		cv->type = SCT_REC_SAMPLE;
	cv->per_field = cv->fmt->event_columns && cv->nevents == 1;
	if (cv->schema)
		return optind < argc ? usage_error("--schema takes no FILE:", argv[optind]) : convert_check_names(cv);
	if (optind >= argc)
		return usage_error("no input FILE (use '-' for stdin)", NULL);
	cv->files = argv + optind;
	cv->nfiles = argc - optind;
	return 0;
}

static int convert_header(struct convert *cv, const char *table)
{
	char *copy = strdup(table);

	if (!copy)
		return -ENOMEM;
	free(cv->table);
	cv->table = copy;
	if (cv->fmt->begin)
		cv->fmt->begin(cv);
	return 0;
}

/*
 * A numeric field of this version's SYSCALL record, when the session's schema agrees on its
 * kind; strings (the path) go through sct_reader_field().
 */
static const struct sc_slot *convert_slot(const struct sct_field_schema *fs)
{
	for (size_t i = 0; i < sizeof(sc_slots) / sizeof(sc_slots[0]); i++)
		if (!strcmp(fs->name, sc_slots[i].name))
			return fs->kind == sc_slots[i].kind && fs->kind != SCT_KIND_BYTES ? &sc_slots[i] : NULL;
	return NULL;
}

/* Zeros after o's bytes, for convert_copy_short() to read (a failure sets o->err). */
static void convert_pad(struct out *o)
{
	char *p = out_reserve(o, COL_HEAD_COPY);

	if (!o->err)
		memset(p, 0, COL_HEAD_COPY);
}

/* The leading columns are the same for a whole session: rendered once. */
static int convert_prefix(struct convert *cv, const struct live *lv)
{
	uint32_t hlen = strtab_len(cv->c.strs, lv->s.host);
	struct out p;

	if (out_open_mem(&p, 6 * (size_t)hlen + 2 * 64 + CH_ID_LEN + cv->cols[0].jkeylen + cv->cols[1].jkeylen))
		return -ENOMEM;
	cv->fmt->prefix(cv, &p, lv);
	convert_pad(&p);
	if (p.err) {
		free(p.buf);
		return p.err;
	}
	free(cv->prefix);
	cv->prefix = p.buf;
	cv->prefix_len = p.len;
	return 0;
}

/*
 * SYSCALL fields the decoded record holds: those section 9 defines for the session's version
 * and arguments. Fields a HEADER lists past them are trailing fields, read as stored (their
 * names may be those of a later version's fields: a 1.3 session's path2 is not resolved).
 */
static uint32_t convert_syscall_held(const struct sct_session *s)
{
	uint32_t major, minor;

	if (!s)
		return RECORD_NFIELDS(RECORD_SYSCALL_FIELDS);
	sct_session_version(s, &major, &minor);
	if (!sct_session_has_args(s))
		return RECORD_NFIELDS(RECORD_SYSCALL_BASE_FIELDS);
	return minor < RECORD_SYSCALL_PATH2_MINOR ?
	       RECORD_NFIELDS(RECORD_SYSCALL_BASE_FIELDS) + RECORD_NFIELDS(RECORD_SYSCALL_ARGS_FIELDS) :
	       RECORD_NFIELDS(RECORD_SYSCALL_FIELDS);
}


/* A number as the format writes it; text: the format has no num(), as the caller knows. */
static inline void convert_num_as(struct convert *cv, const struct column *col, uint64_t v, bool sint, bool text)
{
	if (!text && cv->fmt->num)
		cv->fmt->num(&cv->o, col, v, sint);
	else if (sint)
		out_i64(&cv->o, (int64_t)v);
	else
		out_u64(&cv->o, v);
}

static inline void convert_num(struct convert *cv, const struct column *col, uint64_t v, bool sint)
{
	convert_num_as(cv, col, v, sint, false);
}

/* A slot's value: its bits, sign-extended when the field is signed (SCT_KIND_SINT). */
static inline uint64_t convert_slot_value(const struct sct_syscall *sc, const struct sc_slot *slot)
{
	const uint8_t *p = (const uint8_t *)sc + slot->offset;
	bool sint = slot->kind == SCT_KIND_SINT;

	switch (slot->size) {
	case 1:
		return sint ? (uint64_t)(int64_t)(int8_t)*p : *p;
	case 4:
		return sint ? (uint64_t)(int64_t)*(const int32_t *)p : *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

static inline void convert_slot_out(struct convert *cv, const struct sct_syscall *sc, const struct column *col,
				    bool text)
{
	const struct sc_slot *slot = col->slot;

	convert_num_as(cv, col, convert_slot_value(sc, slot), slot->kind == SCT_KIND_SINT, text);
}

/* A slot's value as text at p, in room the caller has; returns its end. */
static inline char *convert_slot_text(char *p, const struct sct_syscall *sc, const struct sc_slot *slot)
{
	uint64_t v = convert_slot_value(sc, slot);

	return slot->kind == SCT_KIND_SINT ? out_put_i64(p, (int64_t)v) : out_put_u64(p, v);
}

/* CSV's null is nothing: no copy of none (a memcpy() call of a length unknown here). */
static inline void convert_null(struct convert *cv)
{
	if (cv->fmt->binary)
		cv->fmt->str(&cv->o, "", 0);
	else if (cv->null.len)
		out_lit_put(&cv->o, cv->null);
}

static void convert_str(struct convert *cv, const void *p, size_t len)
{
	cv->fmt->str(&cv->o, p, len);
}

/*
 * len bytes at p into the row, p readable for COL_HEAD_COPY bytes: a short text as one
 * fixed-size copy, where a copy of its own length is a call.
 */
static inline void convert_copy_short(struct convert *cv, const char *p, size_t len)
{
	if (len <= COL_HEAD_COPY && cv->o.cap - cv->o.len >= COL_HEAD_COPY) {
		memcpy(cv->o.buf + cv->o.len, p, COL_HEAD_COPY);
		cv->o.len += len;
	} else {
		out_mem(&cv->o, p, len);
	}
}

/*
 * String id's text as the format writes it, into slot of the cache; false, the cache
 * emptied, when there is no memory for it.
 */
static bool convert_str_cache(struct convert *cv, struct str_slot *slot, uint32_t id)
{
	struct str_cache *sc = &cv->strs;

	if (sc->texts.len > STR_CACHE_BYTES) {
		memset(sc->slots, 0, sizeof(sc->slots));
		sc->texts.len = 0;
	}
	slot->off = sc->texts.len;
	cv->fmt->str(&sc->texts, strtab_get(cv->c.strs, id), strtab_len(cv->c.strs, id));
	slot->len = (uint32_t)(sc->texts.len - slot->off);
	/* room after every text for convert_copy_short() to read */
	out_reserve(&sc->texts, COL_HEAD_COPY);
	if (sc->texts.err) {
		memset(sc->slots, 0, sizeof(sc->slots));
		sc->texts.len = 0;
		sc->texts.err = 0;
		return false;
	}
	slot->id1 = id + 1;
	return true;
}

/* String id of the string table, as the format writes it (struct str_cache). */
static void convert_str_id(struct convert *cv, uint32_t id)
{
	struct str_slot *slot = &cv->strs.slots[id % STR_CACHE_SLOTS];

	if (slot->id1 != id + 1 && !convert_str_cache(cv, slot, id)) /* written as it is */
		convert_str(cv, strtab_get(cv->c.strs, id), strtab_len(cv->c.strs, id));
	else
		convert_copy_short(cv, cv->strs.texts.buf + slot->off, slot->len);
}

static void convert_field(struct convert *cv, struct input *in, const struct column *col)
{
	struct sct_value v;

	/* a binary format's column takes only its own type: bytes where it has a number are none */
	if (col->idx < 0 || sct_reader_field(in->r, (uint32_t)col->idx, &v) < 0 ||
	    (cv->fmt->binary && v.kind == SCT_KIND_BYTES && col->kind != SCT_KIND_BYTES)) {
		if (col->kind == SCT_KIND_BYTES)
			convert_null(cv);
		else if (cv->fmt->binary)
			convert_num(cv, col, 0, false);
		else
			out_lit_put(&cv->o, cv->null_number);
		return;
	}
	if (v.kind == SCT_KIND_BYTES)
		convert_str(cv, v.b.ptr, v.b.len);
	else
		convert_num(cv, col, v.kind == SCT_KIND_SINT ? (uint64_t)v.i : v.u, v.kind == SCT_KIND_SINT);
}

/* The task's name at time_ns (spec/FORMAT.md 9.2), empty if none is known. */
static void convert_comm(struct convert *cv, const struct task *t, uint64_t time_ns)
{
	uint32_t comm = tasks_comm(cv->c.tasks, t, time_ns);

	if (comm)
		convert_str_id(cv, comm);
	else
		convert_null(cv);
}

/* A SYSCALL or TOTALS row's syscall name. */
static void convert_name(struct convert *cv, struct input *in, uint32_t nr, uint32_t abi)
{
	convert_str_id(cv, input_syscall_name(&cv->c, in->cur, nr, abi));
}

/* A SYSCALL row's comm: its thread's, when the call was made. */
static void convert_syscall_comm(struct convert *cv, struct input *in, const struct sct_syscall *sc)
{
	convert_comm(cv, tasks_lookup(in->cur->tasks, in->cur->s.id, sc->pid, sc->tid, sc->time_ns),
		     sct_syscall_name_ns(sc));
}

/* A cgroup's path, empty/null when no CGROUP record named it. */
static void convert_cgroup(struct convert *cv, struct input *in, uint64_t cgroup_id)
{
	struct cgroup *cg = cgroups_get(in->cur->cgroups, in->cur->s.id, cgroup_id);

	if (cg && cg->path)
		convert_str_id(cv, cg->path - 1);
	else
		convert_null(cv);
}

static void convert_resolved(struct convert *cv, struct input *in, const struct sct_record *rec, enum col_src src)
{
	uint32_t sess = in->cur->s.id;

	switch (src) {
	case COL_NAME:
		if (rec->type == SCT_REC_TOTALS)
			convert_name(cv, in, rec->totals.nr, rec->totals.abi);
		else
			convert_name(cv, in, rec->syscall.nr, rec->syscall.abi);
		break;
	case COL_COMM:
		if (rec->type == SCT_REC_TOTALS)
			convert_comm(cv, tasks_lookup(in->cur->tasks, sess, rec->totals.pid, rec->totals.pid,
						      filter_totals_task_ns(&rec->totals)), rec->totals.time_ns);
		else if (rec->type == SCT_REC_SYSCALL)
			convert_syscall_comm(cv, in, &rec->syscall);
		else
			convert_comm(cv, tasks_peek(in->cur->tasks, sess, rec->exit.tid, rec->exit.time_ns),
				     rec->exit.time_ns);
		break;
	case COL_PARENT_COMM:
		convert_comm(cv, tasks_peek(in->cur->tasks, sess, rec->fork.parent_tid, rec->fork.time_ns),
			     rec->fork.time_ns);
		break;
	case COL_ARGS:
		if (!in->cur->session || !sct_session_has_args(in->cur->session)) {
			convert_null(cv);
			break;
		}
		cv->scratch.len = 0;
		args_out(&cv->scratch, in->cur->session, &rec->syscall, false);
		convert_str(cv, cv->scratch.buf, cv->scratch.len);
		break;
	default:
		convert_cgroup(cv, in, rec->type == SCT_REC_SYSCALL ? rec->syscall.cgroup_id :
				       rec->type == SCT_REC_TOTALS ? rec->totals.cgroup_id : rec->task.cgroup_id);
	}
}

/*
 * A TOTALS histogram as two arrays of one length: each bucket's lowest duration (ns), and its
 * calls. The reader delivers only histograms that check (spec/FORMAT.md 9.3).
 */
static void convert_hist(struct convert *cv, const struct sct_totals *t, enum col_src src)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	char sep = '[';

	cv->scratch.len = 0;
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	if (cv->fmt->u64s) {
		while (sct_hist_next(&it, &bin) > 0) {
			uint64_t v = src == COL_HIST_NS ? sct_hist_bucket_low(bin.bucket, t->hist_bits) : bin.count;

			out_mem(&cv->scratch, &v, sizeof(v));
		}
		/* the scratch is malloc'd: its start is aligned for any type */
		if (!cv->scratch.err)
			cv->fmt->u64s(&cv->o, (const uint64_t *)(void *)cv->scratch.buf, cv->scratch.len / sizeof(uint64_t));
		return;
	}
	while (sct_hist_next(&it, &bin) > 0) {
		out_char(&cv->scratch, sep);
		out_u64(&cv->scratch, src == COL_HIST_NS ? sct_hist_bucket_low(bin.bucket, t->hist_bits) : bin.count);
		sep = ',';
	}
	if (sep == '[')
		out_char(&cv->scratch, '[');
	out_char(&cv->scratch, ']');
	if (cv->fmt->array)
		cv->fmt->array(&cv->o, cv->scratch.buf, cv->scratch.len);
	else
		out_mem(&cv->o, cv->scratch.buf, cv->scratch.len);
}

/*
 * time_ns on the wall clock, by the session's anchor as the timeline has it, in the format's
 * way (ISO 8601 text, ns).
 */
static void convert_wall(struct convert *cv, struct input *in, const struct sct_record *rec, const struct column *col)
{
	struct sct_value v = { .u = 0 };
	bool have = true;

	if (rec->type == SCT_REC_SYSCALL)
		v.u = rec->syscall.time_ns;
	else if (col->idx < 0 || sct_reader_field(in->r, (uint32_t)col->idx, &v) < 0)
		have = false;
	cv->fmt->wall(cv, &in->cur->s, v.u, have);
}

/* The netlink sockets each process made, for the addr column; only a session with captures has one. */
static int convert_follow_sockets(struct convert *cv, struct input *in, const struct sct_syscall *sc)
{
	uint32_t name;

	if (!in->cur->session || !sct_session_captures(in->cur->session))
		return 0;
	name = input_syscall_name(&cv->c, in->cur, sc->nr, sc->abi);
	return socket_table_note(cv->c.sockets, in->cur->s.id, strtab_get(cv->c.strs, name), sc);
}

/* A captured-memory column: exec's arguments as an array, the others as strings. */
static void convert_capture(struct convert *cv, struct input *in, const struct sct_syscall *sc, enum col_src src)
{
	int netlink = cv->c.sockets ? socket_table_netlink(cv->c.sockets, in->cur->s.id, sc->pid, sc->arg0) : -1;

	cv->scratch.len = 0;
	if (src == COL_ARGV && cv->fmt->argv) /* an array column: a call without any, [] */
		cv->fmt->argv(&cv->o, sc->argv.ptr, sc->argv_flags & SCT_PATH_CAPTURED ? sc->argv.len : 0);
	else if (!convert_capture_text(&cv->scratch, sc, src, netlink))
		convert_null(cv);
	else if (src == COL_ARGV && !cv->fmt->array)
		out_mem(&cv->o, cv->scratch.buf, cv->scratch.len);
	else if (src == COL_ARGV)
		cv->fmt->array(&cv->o, cv->scratch.buf, cv->scratch.len);
	else
		convert_str(cv, cv->scratch.buf, cv->scratch.len);
}

/* The errno name of a failed call's ret ("ENOENT"). */
static void convert_errno_name(struct convert *cv, int64_t ret)
{
	char tmp[16];
	const char *name = names_errno((int)-ret, tmp);

	convert_str(cv, name, strlen(name));
}

/*
 * A failed call's errno name beside its ret; empty/null for a success or an unfinished call.
 * Inline: most calls succeed, and their null is nothing in CSV.
 */
static inline void convert_errno(struct convert *cv, const struct sct_syscall *sc)
{
	if (sc->unfinished || !names_is_error(sc->ret))
		convert_null(cv);
	else
		convert_errno_name(cv, sc->ret);
}

/* The frames of a call's stack as the timeline writes them, joined by ';'; empty/null without one. */
static void convert_stack(struct convert *cv, const struct sct_syscall *sc)
{
	uint32_t text;

	if (stacks_text(cv->stacks, sc->stack_id, &text) == STACK_NONE) {
		convert_null(cv);
		return;
	}
	cv->scratch.len = 0;
	out_mem(&cv->scratch, strtab_get(cv->c.strs, text), strtab_len(cv->c.strs, text));
	for (size_t i = 0; i < cv->scratch.len; i++)
		if (cv->scratch.buf[i] == '\n')
			cv->scratch.buf[i] = ';';
	convert_str(cv, cv->scratch.buf, cv->scratch.len);
}

/*
 * A STACK row's frames (stack_table formats): each frame's text as the timeline writes it,
 * innermost first, or its flamegraph.pl line. The STACK is in the tables already, and with it
 * every MODULE and SYMBOL its frames need (stored before it, spec/FORMAT.md 9.4); a STACK over
 * the tables' bounds reads as "[unknown stack]", as the calls that name it do.
 */
static void convert_frames(struct convert *cv, const struct sct_stack *st, enum col_src src)
{
	uint32_t text;

	if (src == COL_FOLDED) {
		text = stacks_folded(cv->stacks, st->stack_id);
		convert_str(cv, strtab_get(cv->c.strs, text), strtab_len(cv->c.strs, text));
		return;
	}
	stacks_text(cv->stacks, st->stack_id, &text);
	cv->fmt->lines(&cv->o, strtab_get(cv->c.strs, text), strtab_len(cv->c.strs, text));
}

/* The event fields of a row's session, by the names the columns were made with. */
static void convert_map_event(struct convert *cv, struct input *in, const struct sct_event_desc *ev)
{
	if (cv->ev_mapped == ev && cv->ev_sess == in->cur->serial)
		return;
	for (uint32_t i = 0; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];

		if (col->src != COL_EVFIELD)
			continue;
		col->idx = -1;
		for (uint32_t k = 0; ev && k < ev->nfields; k++)
			if (!strcmp(ev->fields[k].name, col->field))
				col->idx = (int)k;
	}
	cv->ev_mapped = ev;
	cv->ev_sess = in->cur->serial;
}

static void convert_sample_col(struct convert *cv, struct input *in, const struct sct_sample *sm,
			       const struct column *col)
{
	const struct sct_event_desc *ev = input_event(in->cur, sm);

	if (!ev || (col->src == COL_EVFIELD && col->idx < 0)) {
		convert_null(cv);
		return;
	}
	if (col->src == COL_EVENT)
		convert_str(cv, ev->name, strlen(ev->name));
	else if (col->src == COL_FIELDS)
		cv->fmt->fields(cv, ev, sm->payload);
	else /* COL_EVFIELD: only a format with event_columns has them */
		cv->fmt->event_field(cv, &ev->fields[col->idx], sm->payload);
}

/* --event: a sample of one of the named events (by the HEADER's name for it). */
static bool convert_event_wanted(const struct convert *cv, struct input *in, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = input_event(in->cur, sm);

	for (uint32_t i = 0; ev && i < cv->nevents; i++)
		if (!strcmp(cv->events[i], ev->name))
			return true;
	return !cv->nevents;
}

/*
 * What goes before col's value: in a keyed format its head (the separator and the key), else
 * the separator sep, if any.
 */
static inline void convert_col_head_as(struct convert *cv, const struct column *col, char sep, bool keyed)
{
	if (keyed)
		convert_copy_short(cv, col->head, col->headlen);
	else if (sep)
		out_char(&cv->o, sep);
}

static inline void convert_col_head(struct convert *cv, const struct column *col)
{
	convert_col_head_as(cv, col, cv->fmt->sep, cv->fmt->keyed);
}

/* One column of rec's row, with its separator and key. */
static void convert_col(struct convert *cv, struct input *in, const struct sct_record *rec, const struct column *col)
{
	convert_col_head(cv, col);
	switch (col->src) {
	case COL_WALL:
		convert_wall(cv, in, rec, col);
		break;
	case COL_ERRNO:
		convert_errno(cv, &rec->syscall);
		break;
	case COL_STACK:
		convert_stack(cv, &rec->syscall);
		break;
	case COL_ADDR:
	case COL_ARGV:
	case COL_DATA:
		convert_capture(cv, in, &rec->syscall, col->src);
		break;
	case COL_FRAMES:
	case COL_FOLDED:
		convert_frames(cv, &rec->stack, col->src);
		break;
	case COL_HIST_NS:
	case COL_HIST_CALLS:
		convert_hist(cv, &rec->totals, col->src);
		break;
	case COL_EVENT:
	case COL_FIELDS:
	case COL_EVFIELD:
		convert_sample_col(cv, in, &rec->sample, col);
		break;
	case COL_FIELD:
		if (col->slot)
			convert_slot_out(cv, &rec->syscall, col, false);
		else
			convert_field(cv, in, col);
		break;
	default:
		convert_resolved(cv, in, rec, col->src);
	}
}

/*
 * A column the same in every row of the session in: a field it does not have, or the decoded
 * arguments of a session without arguments (empty/null).
 */
static bool convert_col_fixed(const struct column *col, const struct input *in)
{
	return (col->src == COL_FIELD && col->idx < 0) ||
	       (col->src == COL_ARGS && (!in->cur->session || !sct_session_has_args(in->cur->session)));
}

/*
 * The runs of columns the mapped session writes the same in every row, rendered once into
 * cv->fixed: the raw arguments and paths of a session without them are a third of a row.
 */
static int convert_fixed(struct convert *cv, struct input *in)
{
	struct out row = cv->o;

	cv->fixed.len = 0;
	cv->o = cv->fixed;
	for (uint32_t i = cv->nprefix, start = 0; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];

		col->fixed_run = 0;
		if (!convert_col_fixed(col, in))
			continue;
		if (i == cv->nprefix || !convert_col_fixed(col - 1, in)) {
			start = i;
			col->fixed_off = cv->o.len;
		}
		convert_col(cv, in, NULL, col);
		cv->cols[start].fixed_run++;
		cv->cols[start].fixed_len = cv->o.len - cv->cols[start].fixed_off;
	}
	convert_pad(&cv->o);
	cv->fixed = cv->o;
	cv->o = row;
	return cv->fixed.err;
}

/* A run's room at most: well within what one out_reserve() makes. */
#define SLOT_RUN_ROOM 1024u

/*
 * A text format's runs of slot columns, each written through one reservation of room: a
 * check of room per column, its length reloaded after every byte written, was most of what
 * such a column cost. A head longer than a fixed-size copy ends a run.
 */
static void convert_slot_runs(struct convert *cv)
{
	size_t room = (cv->fmt->keyed ? COL_HEAD_COPY : 1) + OUT_NUM_MAX;
	struct column *start = NULL;

	for (uint32_t i = cv->nprefix; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];

		col->slot_run = 0;
		if (cv->fmt->num || !col->slot || col->src != COL_FIELD || col->headlen > COL_HEAD_COPY) {
			start = NULL;
			continue;
		}
		if (!start || start->slot_room + room > SLOT_RUN_ROOM) {
			start = col;
			start->slot_room = 0;
		}
		start->slot_run++;
		start->slot_room += room;
	}
}

/*
 * Whether the mapped session's SYSCALL rows render from a batch's arrays rather than from
 * records read one at a time, which cost a sixth of a CSV row: when the session keeps no
 * arguments, stacks or captured memory (what a batch leaves out), and every column read from
 * a field is one a batch holds or one the session lacks.
 */
static bool convert_batch_rows(const struct convert *cv, const struct input *in)
{
	const struct sct_session *s = in->cur->session;

	if (cv->type != SCT_REC_SYSCALL || cv->sample || !s || sct_session_has_args(s) || sct_session_stacks(s) ||
	    sct_session_captures(s))
		return false;
	for (uint32_t i = 0; i < cv->ncols; i++)
		if (cv->cols[i].src == COL_FIELD && cv->cols[i].idx >= 0 && !cv->cols[i].slot)
			return false;
	return true;
}

/* The steps of the mapped session's rows, from its columns' runs (convert_fixed(), convert_slot_runs()). */
static void convert_ops(struct convert *cv)
{
	cv->nops = 0;
	for (uint32_t i = cv->nprefix; i < cv->ncols; i++) {
		const struct column *col = &cv->cols[i];
		struct row_op *op = &cv->ops[cv->nops++];

		op->col = col;
		if (col->fixed_run) {
			op->step = ROW_FIXED;
			i += col->fixed_run - 1;
		} else if (!cv->fmt->num && col->slot_run) {
			op->step = ROW_SLOTS;
			i += col->slot_run - 1;
		} else if (col->slot && col->src == COL_FIELD) {
			op->step = ROW_SLOT;
		} else if (cv->type != SCT_REC_SYSCALL) {
			op->step = ROW_COL;
		} else {
			op->step = col->src == COL_WALL ? ROW_WALL : col->src == COL_ERRNO ? ROW_ERRNO :
				   col->src == COL_NAME ? ROW_NAME : col->src == COL_COMM ? ROW_COMM :
				   col->src == COL_CGROUP ? ROW_CGROUP : ROW_COL;
		}
	}
}

/* A later session may order or extend its fields differently: match columns by name. */
static int convert_map(struct convert *cv, struct input *in)
{
	const struct sct_type_schema *ts = sct_reader_schema(in->r, cv->type);
	uint32_t held = convert_syscall_held(in->cur->session);

	if (!ts)
		ts = sct_schema_builtin(cv->type);
	for (uint32_t i = 0; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];

		if (col->src != COL_FIELD && col->src != COL_WALL)
			continue;
		col->idx = -1;
		col->slot = NULL;
		/* of fields with the same name (a trailing field named like another), the first */
		for (uint32_t f = 0; ts && f < ts->nfields && col->idx < 0; f++)
			if (!strcmp(ts->fields[f].name, col->src == COL_WALL ? "time_ns" : col->name)) {
				col->idx = (int)f;
				if (cv->type == SCT_REC_SYSCALL && f < held)
					col->slot = convert_slot(&ts->fields[f]);
			}
	}
	cv->mapped = in->cur->serial;
	cv->batch_rows = convert_batch_rows(cv, in);
	convert_slot_runs(cv);
	if (convert_fixed(cv, in))
		return -ENOMEM;
	convert_ops(cv);
	return convert_prefix(cv, in->cur);
}

/* The run of slot columns from col, through one reservation and a cursor of its own. */
static __attribute__((always_inline)) inline void convert_slot_run(struct convert *cv, const struct sct_syscall *sc,
								   const struct column *col, char sep, bool keyed)
{
	char *p = out_reserve(&cv->o, col->slot_room);

	for (const struct column *end = col + col->slot_run; col < end; col++) {
		if (keyed) {
			memcpy(p, col->head, COL_HEAD_COPY);
			p += col->headlen;
		} else if (sep) {
			*p++ = sep;
		}
		p = convert_slot_text(p, sc, col->slot);
	}
	cv->o.len = (size_t)(p - cv->o.buf);
}

/*
 * The columns of rec's row after its prefix. Inlined into convert_row() once per kind of
 * format, with whether it has keys and whether its numbers are text (no num()) as constants,
 * and its separator read once: read from the format at every column, they were loaded again
 * after each byte written (a char store may alias them).
 */
static __attribute__((always_inline)) inline void convert_row_cols(struct convert *cv, struct input *in,
								   const struct sct_record *rec, char sep,
								   bool keyed, bool text)
{
	for (const struct row_op *op = cv->ops, *end = op + cv->nops; op < end; op++) {
		const struct column *col = op->col;

		switch (op->step) {
		case ROW_FIXED:
			convert_copy_short(cv, cv->fixed.buf + col->fixed_off, col->fixed_len);
			break;
		case ROW_SLOTS: /* most columns of a row */
			convert_slot_run(cv, &rec->syscall, col, sep, keyed);
			break;
		case ROW_SLOT: /* a binary format's: inline */
			convert_col_head_as(cv, col, sep, keyed);
			convert_slot_out(cv, &rec->syscall, col, text);
			break;
		case ROW_WALL:
			convert_col_head_as(cv, col, sep, keyed);
			convert_wall(cv, in, rec, col);
			break;
		case ROW_ERRNO:
			convert_col_head_as(cv, col, sep, keyed);
			convert_errno(cv, &rec->syscall);
			break;
		case ROW_NAME:
			convert_col_head_as(cv, col, sep, keyed);
			convert_name(cv, in, rec->syscall.nr, rec->syscall.abi);
			break;
		case ROW_COMM:
			convert_col_head_as(cv, col, sep, keyed);
			convert_syscall_comm(cv, in, &rec->syscall);
			break;
		case ROW_CGROUP:
			convert_col_head_as(cv, col, sep, keyed);
			convert_cgroup(cv, in, rec->syscall.cgroup_id);
			break;
		default:
			convert_col(cv, in, rec, col);
		}
	}
}

static int convert_row(struct convert *cv, struct input *in, const struct sct_record *rec)
{
	if (cv->fmt->needs_header && !in->cur->session) {
		cv->headless++;
		return 0;
	}
	if (!shard_row(cv)) {
		/* another copy's row: the state it leaves (ClickHouse's INSERT) is kept, its bytes are not */
		if (cv->fmt->row_begin)
			cv->fmt->row_begin(cv);
		return 0;
	}
	if (cv->mapped != in->cur->serial && convert_map(cv, in))
		return -ENOMEM;
	if (cv->fmt->row_begin)
		cv->fmt->row_begin(cv);
	if (cv->sample)
		convert_map_event(cv, in, input_event(in->cur, &rec->sample));
	convert_copy_short(cv, cv->prefix, cv->prefix_len);
	if (cv->fmt->num)
		convert_row_cols(cv, in, rec, cv->fmt->sep, cv->fmt->keyed, false);
	else if (cv->fmt->keyed)
		convert_row_cols(cv, in, rec, cv->fmt->sep, true, true);
	else
		convert_row_cols(cv, in, rec, cv->fmt->sep, false, true);
	if (cv->row_end.len <= sizeof(cv->row_end_text)) /* every format's: 2 bytes or less */
		convert_copy_short(cv, cv->row_end_text, cv->row_end.len);
	else
		out_lit_put(&cv->o, cv->row_end);
	return cv->scratch.err;
}

/*
 * -j: the calls of another copy's chunk are only counted here, and leave the state a call
 * leaves: the footer's unfinished calls, ClickHouse's INSERT. Whether they can be read as
 * columns of their counts alone: once the columns are known, when no format reads records
 * whole, and while no call's captures are followed (a session with captures names netlink
 * sockets from them).
 */
static bool convert_skips(const struct convert *cv, const struct input *in)
{
	return cv->type == SCT_REC_SYSCALL && cv->ncols && !cv->fmt->record && in->cur &&
	       !(cv->c.sockets && in->cur->session && sct_session_captures(in->cur->session));
}

/*
 * The next record; or the calls up to the end of another copy's chunk as a batch (its counts
 * alone); or, once the session's columns are mapped to fields a batch holds, the calls up to
 * the end of this copy's chunk as a batch, every array filled.
 */
static int convert_next(struct convert *cv, struct input *in, struct sct_record *rec, struct sct_syscall_batch *b)
{
	uint32_t foreign = shard_foreign_rows(cv);
	int n;

	b->n = 0;
	if (!convert_skips(cv, in))
		return input_next(&cv->c, in, rec);
	if (foreign) {
		input_set_batch_max(in, foreign);
		return input_next_batch(&cv->c, in, rec, b);
	}
	if (cv->mapped != in->cur->serial || !cv->batch_rows)
		return input_next(&cv->c, in, rec);
	input_set_batch_max(in, shard_own_rows(cv));
	n = input_next_batch(&cv->c, in, rec, b);
	if (n > 0 && b->n)
		input_batch_fill(in);
	return n;
}

/* This copy's calls of a batch, each rendered as its record would be. */
static int convert_rows(struct convert *cv, struct input *in, const struct sct_syscall_batch *b)
{
	struct sct_record rec = { .type = SCT_REC_SYSCALL };
	int err = 0;

	for (uint32_t i = 0; i < b->n && !err && !cv->o.err; i++) {
		input_batch_row(b, i, &rec.syscall);
		err = convert_row(cv, in, &rec);
	}
	return err;
}

/* Another copy's calls: counted, as convert_row() counts them. */
static void convert_skip(struct convert *cv, const struct input *in, const struct sct_syscall_batch *b)
{
	if (cv->fmt->needs_header && !in->cur->session) {
		cv->headless += b->n;
		return;
	}
	shard_skip(cv, b->n);
	for (uint32_t i = 0; cv->fmt->row_begin && i < b->n; i++)
		cv->fmt->row_begin(cv);
}

static int convert_one(struct convert *cv, const char *path)
{
	struct sct_syscall_batch batch = { 0 };
	struct sct_record rec;
	struct input in;
	bool wanted, sample;
	int n = input_open(&cv->c, &in, path);

	if (n) {
		input_error(&cv->c, NULL, path, n);
		return 0;
	}
	/* another copy's calls are counted: their unfinished ones in the footer */
	if (cv->shard)
		input_set_batch_lazy(&in, ~SCT_BATCH_UNFINISHED);
	while ((n = convert_next(cv, &in, &rec, &batch)) > 0) {
		if (batch.n) {
			/* another copy's calls while the next row is theirs, else this copy's */
			n = 0;
			if (shard_foreign_rows(cv))
				convert_skip(cv, &in, &batch);
			else
				n = convert_rows(cv, &in, &batch);
			if (n || cv->o.err)
				break;
			continue;
		}
		if (rec.type == SCT_REC_SESSION)
			continue;
		stacks_session(cv->stacks, in.cur);
		n = rec.type >= SCT_REC_STACK && rec.type <= SCT_REC_SYMBOL ? stacks_add(cv->stacks, &rec) : 0;
		if (n)
			break;
		if (cv->fmt->record) {
			n = cv->fmt->record(cv, &in, &rec);
			if (!n)
				n = input_track(&cv->c, &in, &rec);
			if (n || cv->o.err)
				break;
			continue;
		}
		if (!cv->type) {
			int64_t t = sct_reader_type(in.r, cv->type_name);

			cv->type = t > 0 ? (uint32_t)t : 0;
		}
		/* type 9 of a 1.0 session is a type its HEADER describes, not SAMPLE (no --event) */
		sample = rec.type == SCT_REC_SAMPLE && input_sample_session(in.cur);
		wanted = rec.type == cv->type && (sample ? convert_event_wanted(cv, &in, &rec.sample) :
						   rec.type != SCT_REC_SAMPLE || !cv->nevents);
		/*
		 * Columns from the first session whose HEADER describes the type (a newer type's
		 * come from no other place); per field: the event's, as its first sample describes them.
		 */
		if (!cv->ncols && cv->type && (!cv->per_field || wanted)) {
			const struct sct_type_schema *ts = sct_reader_schema(in.r, cv->type);

			cv->sample = cv->type == SCT_REC_SAMPLE && input_sample_session(in.cur);
			cv->totals = cv->type == SCT_REC_TOTALS && input_totals_session(in.cur);
			cv->stack_cols = in.cur->session && sct_session_stacks(in.cur->session);
			cv->capture_cols = in.cur->session && sct_session_captures(in.cur->session);
			n = ts ? convert_columns(cv, ts, wanted && cv->per_field ?
						 input_event(in.cur, &rec.sample) : NULL) : 0;
			if (!n && ts)
				n = convert_header(cv, ts->name);
			if (n)
				break;
		}
		/* one kind of type 9 and of type 10 per output: the columns' */
		if (rec.type == SCT_REC_SAMPLE && sample != cv->sample)
			wanted = false;
		if (rec.type == SCT_REC_TOTALS && input_totals_session(in.cur) != cv->totals)
			wanted = false;
		n = wanted ? convert_row(cv, &in, &rec) : 0;
		if (!n && rec.type == SCT_REC_SYSCALL && cv->c.sockets)
			n = convert_follow_sockets(cv, &in, &rec.syscall);
		if (!n)
			n = input_track(&cv->c, &in, &rec);
		if (n || cv->o.err)
			break;
	}
	if (n == -ENOMEM) {
		input_close(&cv->c, &in);
		return n;
	}
	if (n < 0)
		input_error(&cv->c, &in, path, n);
	input_close(&cv->c, &in);
	return 0;
}

/* --records sessions: a row per HEADER; records are only counted (for the footer). */
static int convert_sessions_one(struct convert *cv, const char *path)
{
	struct sct_record rec;
	struct input in;
	int n = input_open(&cv->c, &in, path);

	if (n) {
		input_error(&cv->c, NULL, path, n);
		return 0;
	}
	while ((n = input_read(&cv->c, &in, &rec)) > 0 && !cv->o.err) {
		if (rec.type == SCT_REC_SESSION && sct_reader_session(in.r)) {
			cv->fmt->session_row(cv, sct_reader_session(in.r));
		} else if (rec.type != SCT_REC_SESSION) {
			footer_record(cv->c.footer, &rec);
		}
	}
	if (n < 0)
		input_error(&cv->c, &in, path, n);
	input_close(&cv->c, &in);
	return 0;
}

int convert_files(struct convert *cv)
{
	int err = 0;

	for (int i = 0; i < cv->nfiles && !err && !cv->o.err; i++)
		err = convert_one(cv, cv->files[i]);
	return err;
}

static int convert_run(struct convert *cv)
{
	int err = 0;

	if (cv->schema)
		return cv->schema->schema(cv);
	if (cv->sessions_rows) {
		for (int i = 0; i < cv->nfiles && !err && !cv->o.err; i++)
			err = convert_sessions_one(cv, cv->files[i]);
		return err;
	}
	err = convert_files(cv);
	if (!err && cv->fmt->finish && !cv->o.err)
		err = cv->fmt->finish(cv);
	if (!err)
		stacks_warn_ignored("sct-convert", stacks_ignored(cv->stacks));
	if (cv->headless)
		fprintf(stderr, "sct-convert: %llu record%s without a HEADER not written: no host or recording identifies %s\n",
			(unsigned long long)cv->headless, names_plural(cv->headless), cv->headless == 1 ? "it" : "them");
	/* every input failed, and said why: no header row of nothing */
	if (!err && !cv->ncols && cv->c.inputs_read && !cv->fmt->record) {
		const struct sct_type_schema *ts = sct_schema_builtin(cv->type);

		err = convert_columns(cv, ts, NULL);
		if (!err && ts)
			err = convert_header(cv, ts->name);
	}
	return err;
}

/* The permissions of the most restrictive input, read permission bits only (stdin: 0600). */
static mode_t convert_mode(const struct convert *cv)
{
	mode_t mode = 0666;
	bool any = false;

	for (int i = 0; i < cv->nfiles; i++) {
		struct stat st;

		if (!strcmp(cv->files[i], "-")) {
			mode &= 0600;
			any = true;
		} else if (!stat(cv->files[i], &st)) {
			mode &= st.st_mode & 0666;
			any = true;
		}
	}
	return any ? mode : 0600;
}

static void convert_free_events(struct convert *cv)
{
	for (uint32_t i = 0; i < cv->nevents; i++)
		free(cv->events[i]);
	free(cv->events);
}

void convert_free(struct convert *cv)
{
	if (cv->fmt && cv->fmt->free)
		cv->fmt->free(cv);
	stacks_free(cv->stacks);
	debug_dir_free(cv->debug_dir);
	input_tables_free(&cv->c);
	socket_table_free(cv->c.sockets);
	footer_free(cv->c.footer);
	free(cv->prefix);
	free(cv->fixed.buf);
	free(cv->table);
	convert_free_cols(cv);
	if (!cv->lane) /* a copy's are the first's */
		convert_free_events(cv);
	free(cv->scratch.buf);
	free(cv->strs.texts.buf);
	free(cv->o.buf);
	free(cv);
}

/* The state of a conversion of cv's command line: its tables, buffers and footer. 0 or -ENOMEM. */
static int convert_tables(struct convert *cv)
{
	cv->c.tool = "sct-convert";
	/* only the types with a comm column need to know which task made a record */
	cv->c.track_tasks = cv->type == SCT_REC_SYSCALL || cv->type == SCT_REC_FORK || cv->type == SCT_REC_EXIT ||
			    cv->type == SCT_REC_TOTALS;
	cv->c.schema_type9 = true;
	cv->c.footer = footer_new();
	if (!cv->c.footer || out_open_mem(&cv->scratch, SAMPLE_JSON_MAX) || out_open_mem(&cv->fixed, 256) ||
	    out_open_mem(&cv->strs.texts, 4096) || input_tables_new(&cv->c))
		return -ENOMEM;
	if (cv->debug_dir_path && !(cv->debug_dir = debug_dir_new(cv->debug_dir_path)))
		return -ENOMEM;
	if (!(cv->stacks = stacks_new(cv->c.strs, cv->debug_dir, !cv->no_demangle)))
		return -ENOMEM;
	/* the addr column names a netlink peer by the protocol its socket() call gave */
	if (cv->fmt && cv->fmt->capture_text && cv->type == SCT_REC_SYSCALL && !(cv->c.sockets = socket_table_new()))
		return -ENOMEM;
	return 0;
}

struct convert *convert_copy(const struct convert *cv)
{
	struct convert *copy = calloc(1, sizeof(*copy));

	if (!copy)
		return NULL;
	memcpy(copy, cv, offsetof(struct convert, c));
	/* it reads the same inputs: their messages are the first conversion's */
	copy->c.quiet = true;
	/* not the first: convert_free() leaves the --event names it shares to the first */
	copy->lane = 1;
	if (convert_tables(copy)) {
		convert_free(copy);
		return NULL;
	}
	return copy;
}

int main(int argc, char **argv)
{
	struct convert *cv = calloc(1, sizeof(*cv));
	struct out errout;
	int err, status;

	if (!cv) {
		fprintf(stderr, "sct-convert: %s\n", strerror(ENOMEM));
		return EXIT_INPUT;
	}
	if (parse_args(cv, argc, argv)) {
		convert_free_events(cv);
		free(cv);
		return EXIT_USAGE;
	}
	cv->null = out_lit(cv->fmt ? cv->fmt->null : NULL);
	cv->null_number = out_lit(cv->fmt ? cv->fmt->null_number : NULL);
	cv->row_end = out_lit(cv->fmt ? cv->fmt->row_end : NULL);
	if (cv->row_end.len <= sizeof(cv->row_end_text))
		memcpy(cv->row_end_text, cv->row_end.s, cv->row_end.len);
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error: exit with the documented 1 */
	err = convert_tables(cv);
	if (!err)
		err = out_open(&cv->o, cv->output, cv->force, convert_mode(cv));
	/* protobuf or RowBinary on a terminal is noise that may hold escape sequences */
	if (!err && cv->fmt->binary && cv->o.fd == STDOUT_FILENO && isatty(STDOUT_FILENO)) {
		out_close(&cv->o);
		err = -ENOTTY;
	}
	if (err) {
		fprintf(stderr, "sct-convert: %s: %s%s\n", cv->output ? cv->output : "stdout", sct_strerror(err),
			err == -EEXIST ? " (--force overwrites it)" :
			err == -ELOOP ? " (a symlink: not followed)" :
			err == -EPERM ? " (it belongs to another user: not written)" :
			err == -EMLINK ? " (a file with other hard links: not written)" :
			err == -ENOTTY ? " (binary output: use -o OUT or a pipe)" : "");
		convert_free(cv);
		return EXIT_INPUT;
	}
	err = shard_run(cv, convert_run);
	status = footer_exit_status(cv->c.footer, "sct-convert", cv->strict, err);
	if (!cv->type && !cv->sessions_rows && !cv->schema && cv->c.inputs_read) {
		usage_error("invalid --records type (no input's HEADER schema names it):", cv->type_name);
		status = EXIT_USAGE;
	}
	if (out_finish(&cv->o, "sct-convert", cv->output ? cv->output : "stdout"))
		status = EXIT_INPUT;
	if (!cv->schema && (err || cv->c.inputs_read) && !out_open(&errout, NULL, false, 0)) {
		errout.fd = 2;
		footer_print(cv->c.footer, cv->c.sessions, cv->c.strs, &errout);
		if (out_close(&errout))
			status = status ? status : EXIT_INPUT;
	}
	convert_free(cv);
	return status;
}
