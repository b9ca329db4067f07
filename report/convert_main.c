// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert: one record type of sct traces as CSV or JSON Lines. Columns are the
 * session number and hostname, then the fields the HEADER's schema names for the type (so a
 * newer minor version's fields appear without a change here), then names resolved from
 * other records: syscall name, comm, cgroup path. A sample's event is its name, and its
 * payload is its tracepoint's fields, decoded by the HEADER's event table.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "records.def"
#include "report.h"

static const char usage_text[] =
"Usage: sct-convert --to csv|jsonl [--records TYPE] [--event G:N] [-o OUT [--force]] FILE...\n"
"Writes one record type of sct traces (FILE '-' = stdin) as CSV (RFC 4180, header row,\n"
"CRLF) or JSON Lines (one object per line). TYPE: syscall (default), task, fork, exec,\n"
"exit, cgroup, lost, warning, sample, a number (a newer type: 10, ...) or a name a HEADER's\n"
"schema gives it (else exit 2). Columns: session, host, the schema's fields in order, then\n"
"resolved names: syscall: name, comm, cgroup_path, args; task: cgroup_path; fork:\n"
"parent_comm; exit: comm (empty/null when no record named them). Blocks after a damaged or\n"
"missing HEADER have no session number and no host (empty/null).\n"
"Syscall rows always have arg0..arg5 (raw, unsigned), path_flags, path_ref, path (the\n"
"captured file name) and args (the arguments as strace shows them): empty/null in a\n"
"trace recorded without sct-record --args.\n"
"Samples (SAMPLE records of tracepoints): event is the tracepoint's GROUP:NAME,\n"
"and the payload is replaced by its fields, named as in the tracepoint's format: JSON: a\n"
"\"fields\" object (integers, strings for char arrays and __data_loc strings, arrays of\n"
"integers, {\"error\":\"out of range\"} for data outside the sample); CSV: a \"fields\"\n"
"column of that JSON text, or, when --event names one event, a column per field (named\n"
"field_NAME if NAME is already a column). event and fields are null/empty when the\n"
"HEADER does not describe the event.\n"
"Strings: CSV writes bytes as they are (quoted when they hold , \" CR or LF); JSON writes\n"
"valid UTF-8 as is and each other byte as \\u00XX of its value. 64-bit values are exact\n"
"integers in both.\n"
"\n"
"  -T, --to FORMAT     csv or jsonl (required)\n"
"  -r, --records TYPE  record type (default syscall)\n"
"  -e, --event G:N     samples of these events only (repeatable or comma-separated;\n"
"                      implies --records sample)\n"
"  -o, --output OUT    output file (default stdout), created with the permissions of\n"
"                      the most restrictive input (0600 for stdin), never through a\n"
"                      symlink\n"
"  -f, --force         overwrite OUT if it exists\n"
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
"  sct-convert --to jsonl --records sample trace.sct\n";

enum col_src { COL_SESSION, COL_HOST, COL_FIELD, COL_NAME, COL_COMM, COL_CGROUP, COL_PARENT_COMM,
	       COL_ARGS, COL_EVENT, COL_FIELDS, COL_EVFIELD };

/* SYSCALL fields read straight from the decoded record (the hot path), where records.def says. */
struct sc_slot {
	const char *name;
	uint32_t kind;
	uint16_t offset; /* in struct sct_syscall */
	uint8_t size;
};
#define SC_SLOT(t, member, kind, unit) { #member, SCT_KIND_##kind, \
	offsetof(struct sct_syscall, member), sizeof(((struct sct_syscall *)0)->member) },
static const struct sc_slot sc_slots[] = { RECORD_SYSCALL_FIELDS(SC_SLOT, syscall) };

struct column {
	char *name;
	char *field;   /* COL_EVFIELD: the tracepoint field's name */
	char *jkey;    /* "name": as JSON, rendered once */
	size_t jkeylen;
	enum col_src src;
	int idx; /* COL_FIELD, COL_EVFIELD: index in the session's schema or the event's fields, -1 if none */
	const struct sc_slot *slot; /* SYSCALL: where the record holds this field, NULL if not there */
};

struct convert {
	bool jsonl, strict, force;
	uint32_t type;         /* 0 until type_name is found in a HEADER schema */
	const char *type_name; /* --records NAME of a type only a HEADER schema names */
	const char *output;
	char **files;
	int nfiles;
	struct column cols[SCT_MAX_FIELDS + SCT_MAX_EVENT_FIELDS + 8];
	uint32_t ncols;
	char **events;       /* --event names */
	uint32_t nevents;
	bool per_field;      /* CSV of one event: a column per field */
	const struct sct_event_desc *ev_mapped; /* the event the COL_EVFIELD indexes are for */
	uint32_t ev_sess;    /* session + 1 of ev_mapped */
	struct out scratch;  /* one field's JSON, SAMPLE_JSON_MAX bytes */
	uint32_t mapped;     /* session + 1 the field indexes were computed for, 0 = none */
	char *prefix;        /* the session and host columns of mapped, rendered */
	size_t prefix_len;
	struct out o;
	struct ctx c;
};

static const char *const type_names[SCT_REC_MAX + 1] = { "session", "syscall", "task", "fork", "exec",
							  "exit", "cgroup", "lost", "warning", "sample" };

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "sct-convert: %s '%s'\nUsage: sct-convert --to csv|jsonl [--records TYPE] [--event G:N] [-o OUT [--force]] FILE...\n",
		what, arg ? arg : "");
	return -EINVAL;
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

static int parse_args(struct convert *cv, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 'T' },     { "records", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' }, { "strict", no_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'f' },        { "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	const char *to = NULL;
	const char *records = NULL;
	int c;

	cv->type = SCT_REC_SYSCALL;
	while ((c = getopt_long(argc, argv, "T:r:o:fhe:", opts, NULL)) != -1) {
		uint32_t t;

		switch (c) {
		case 'T': to = optarg; break;
		case 'o': cv->output = optarg; break;
		case 'S': cv->strict = true; break;
		case 'f': cv->force = true; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'e':
			if (filter_parse_list(&cv->events, &cv->nevents, optarg))
				return usage_error("invalid --event:", optarg);
			break;
		case 'r':
			records = optarg;
			for (t = 1; t <= SCT_REC_MAX && strcmp(optarg, type_names[t]); t++)
				;
			cv->type = t <= SCT_REC_MAX ? t : convert_type_number(optarg);
			cv->type_name = cv->type ? NULL : optarg;
			if (!*optarg || (!cv->type && strspn(optarg, "0123456789") == strlen(optarg)))
				return usage_error("invalid --records type:", optarg);
			break;
		default:
			return usage_error("bad option", NULL);
		}
	}
	if (!to || (strcmp(to, "csv") && strcmp(to, "jsonl")))
		return usage_error("--to must be csv or jsonl, not", to);
	cv->jsonl = !strcmp(to, "jsonl");
	if (cv->nevents && records && cv->type != SCT_REC_SAMPLE)
		return usage_error("--event selects samples: it needs --records sample, not", records);
	if (cv->nevents)
		cv->type = SCT_REC_SAMPLE;
	cv->per_field = !cv->jsonl && cv->nevents == 1;
	if (optind >= argc)
		return usage_error("no input FILE (use '-' for stdin)", NULL);
	cv->files = argv + optind;
	cv->nfiles = argc - optind;
	return 0;
}

/* The JSON key of a column, escaped once rather than per row. */
static int convert_jkey(struct column *col)
{
	size_t len = strlen(col->name);
	struct out tmp = { .cap = len * 6 + 8, .fd = -1 };

	tmp.buf = malloc(tmp.cap);
	if (!tmp.buf)
		return -ENOMEM;
	json_string(&tmp, col->name, len);
	out_char(&tmp, ':');
	col->jkey = tmp.buf;
	col->jkeylen = tmp.len;
	return 0;
}

static int convert_add_col(struct convert *cv, const char *name, enum col_src src)
{
	struct column *col = &cv->cols[cv->ncols];

	col->name = strdup(name);
	if (!col->name || convert_jkey(col)) {
		free(col->name);
		return -ENOMEM;
	}
	col->src = src;
	col->idx = -1;
	col->slot = NULL;
	col->field = NULL;
	cv->ncols++;
	return 0;
}

static bool convert_has_col(const struct convert *cv, const char *name)
{
	for (uint32_t i = 0; i < cv->ncols; i++)
		if (!strcmp(cv->cols[i].name, name))
			return true;
	return false;
}

/* One column per field of ev (CSV of one event); a name already taken becomes field_NAME. */
static int convert_event_cols(struct convert *cv, const struct sct_event_desc *ev)
{
	for (uint32_t k = 0; ev && k < ev->nfields; k++) {
		const char *name = ev->fields[k].name;
		char *alt = NULL;
		int err;

		if (convert_has_col(cv, name) && asprintf(&alt, "field_%s", name) < 0)
			return -ENOMEM;
		err = convert_add_col(cv, alt ? alt : name, COL_EVFIELD);
		free(alt);
		if (err)
			return err;
		cv->cols[cv->ncols - 1].field = strdup(name);
		if (!cv->cols[cv->ncols - 1].field)
			return -ENOMEM;
	}
	return 0;
}

/*
 * SYSCALL rows have the argument columns (format 1.3) whatever the first session recorded:
 * empty (null) for a session without arguments.
 */
static int convert_syscall_cols(struct convert *cv, const struct sct_type_schema *ts)
{
	const struct sct_type_schema *all = sct_schema_builtin(SCT_REC_SYSCALL);
	int err = 0;

	for (uint32_t i = 0; !err && i < all->nfields; i++) {
		bool have = false;

		for (uint32_t k = 0; ts && k < ts->nfields && !have; k++)
			have = !strcmp(ts->fields[k].name, all->fields[i].name);
		if (!have)
			err = convert_add_col(cv, all->fields[i].name, COL_FIELD);
	}
	return err;
}

/*
 * Columns come from the first session's schema (or the built-in one without any input); for
 * samples, ev is the event whose fields get a column each (CSV of one event), else NULL.
 */
static int convert_columns(struct convert *cv, const struct sct_type_schema *ts,
			   const struct sct_event_desc *ev)
{
	static const struct { uint32_t type; const char *name; enum col_src src; } extras[] = {
		{ SCT_REC_SYSCALL, "name", COL_NAME },      { SCT_REC_SYSCALL, "comm", COL_COMM },
		{ SCT_REC_SYSCALL, "cgroup_path", COL_CGROUP }, { SCT_REC_SYSCALL, "args", COL_ARGS },
		{ SCT_REC_TASK, "cgroup_path", COL_CGROUP },
		{ SCT_REC_FORK, "parent_comm", COL_PARENT_COMM }, { SCT_REC_EXIT, "comm", COL_COMM },
	};
	int err = convert_add_col(cv, "session", COL_SESSION);

	if (!err)
		err = convert_add_col(cv, "host", COL_HOST);
	for (uint32_t i = 0; !err && ts && i < ts->nfields && i < SCT_MAX_FIELDS; i++) {
		const char *name = ts->fields[i].name;

		if (cv->type != SCT_REC_SAMPLE || (strcmp(name, "event") && strcmp(name, "payload")))
			err = convert_add_col(cv, name, COL_FIELD);
		else if (!strcmp(name, "event"))
			err = convert_add_col(cv, name, COL_EVENT);
	}
	if (!err && cv->type == SCT_REC_SYSCALL)
		err = convert_syscall_cols(cv, ts);
	for (size_t i = 0; !err && i < sizeof(extras) / sizeof(extras[0]); i++)
		if (extras[i].type == cv->type)
			err = convert_add_col(cv, extras[i].name, extras[i].src);
	if (!err && cv->type == SCT_REC_SAMPLE)
		err = cv->per_field ? convert_event_cols(cv, ev) : convert_add_col(cv, "fields", COL_FIELDS);
	return err;
}

static void convert_header(struct convert *cv)
{
	if (cv->jsonl)
		return;
	for (uint32_t i = 0; i < cv->ncols; i++) {
		if (i)
			out_char(&cv->o, ',');
		csv_bytes(&cv->o, cv->cols[i].name, strlen(cv->cols[i].name));
	}
	out_mem(&cv->o, "\r\n", 2);
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

static void convert_str_to(struct out *o, bool jsonl, const void *p, size_t len)
{
	if (jsonl)
		json_string(o, p, len);
	else
		csv_bytes(o, p, len);
}

/* Columns 0 and 1 (session, host) are the same for a whole session: rendered once. */
static int convert_prefix(struct convert *cv, const struct sess *s)
{
	uint32_t hlen = strtab_len(cv->c.strs, s->host);
	struct out p = { .cap = 6 * (size_t)hlen + 2 * 64 + cv->cols[0].jkeylen + cv->cols[1].jkeylen, .fd = -1 };

	p.buf = malloc(p.cap);
	if (!p.buf)
		return -ENOMEM;
	if (cv->jsonl) {
		out_char(&p, '{');
		out_mem(&p, cv->cols[0].jkey, cv->cols[0].jkeylen);
	}
	/* blocks without a HEADER: no session number, no host (null in JSON, empty in CSV) */
	if (!s->headless)
		out_u64(&p, s->number);
	else if (cv->jsonl)
		out_str(&p, "null");
	out_char(&p, ',');
	if (cv->jsonl)
		out_mem(&p, cv->cols[1].jkey, cv->cols[1].jkeylen);
	if (!s->headless)
		convert_str_to(&p, cv->jsonl, strtab_get(cv->c.strs, s->host), hlen);
	else if (cv->jsonl)
		out_str(&p, "null");
	free(cv->prefix);
	cv->prefix = p.buf;
	cv->prefix_len = p.len;
	return 0;
}

/* A later session may order or extend its fields differently: match columns by name. */
static int convert_map(struct convert *cv, struct input *in)
{
	const struct sct_type_schema *ts = sct_reader_schema(in->r, cv->type);

	if (!ts)
		ts = sct_schema_builtin(cv->type);
	for (uint32_t i = 0; i < cv->ncols; i++) {
		struct column *col = &cv->cols[i];

		if (col->src != COL_FIELD)
			continue;
		col->idx = -1;
		col->slot = NULL;
		for (uint32_t f = 0; ts && f < ts->nfields; f++)
			if (!strcmp(ts->fields[f].name, col->name)) {
				col->idx = (int)f;
				if (cv->type == SCT_REC_SYSCALL)
					col->slot = convert_slot(&ts->fields[f]);
			}
	}
	cv->mapped = in->cur->s.id + 1;
	return convert_prefix(cv, &in->cur->s);
}

static void convert_slot_out(struct out *o, const struct sct_syscall *sc, const struct sc_slot *slot)
{
	const uint8_t *p = (const uint8_t *)sc + slot->offset;
	uint64_t u;
	int64_t i;

	switch (slot->size) {
	case 1:
		u = *p;
		i = (int8_t)*p;
		break;
	case 4:
		u = *(const uint32_t *)p;
		i = *(const int32_t *)p;
		break;
	default:
		u = *(const uint64_t *)p;
		i = (int64_t)u;
	}
	if (slot->kind == SCT_KIND_SINT)
		out_i64(o, i);
	else
		out_u64(o, u);
}

static void convert_null(struct convert *cv)
{
	if (cv->jsonl)
		out_str(&cv->o, "null");
}

static void convert_str(struct convert *cv, const void *p, size_t len)
{
	convert_str_to(&cv->o, cv->jsonl, p, len);
}

static void convert_field(struct convert *cv, struct input *in, int idx)
{
	struct sct_value v;

	if (idx < 0 || sct_reader_field(in->r, (uint32_t)idx, &v) < 0) {
		convert_null(cv);
		return;
	}
	switch (v.kind) {
	case SCT_KIND_SINT:
		out_i64(&cv->o, v.i);
		break;
	case SCT_KIND_BYTES:
		convert_str(cv, v.b.ptr, v.b.len);
		break;
	default:
		out_u64(&cv->o, v.u);
	}
}

static void convert_comm(struct convert *cv, const struct task *t)
{
	if (t && t->comm)
		convert_str(cv, strtab_get(cv->c.strs, t->comm), strtab_len(cv->c.strs, t->comm));
	else
		convert_null(cv);
}

static void convert_resolved(struct convert *cv, struct input *in, const struct sct_record *rec, enum col_src src)
{
	struct ctx *c = &cv->c;
	uint32_t sess = in->cur->s.id;
	struct cgroup *cg;
	uint32_t id;

	switch (src) {
	case COL_NAME:
		id = input_syscall_name(c, in->cur, rec->syscall.nr, rec->syscall.abi);
		convert_str(cv, strtab_get(c->strs, id), strtab_len(c->strs, id));
		break;
	case COL_COMM:
		if (rec->type == SCT_REC_SYSCALL)
			convert_comm(cv, tasks_lookup(in->cur->tasks, sess, rec->syscall.pid, rec->syscall.tid));
		else
			convert_comm(cv, tasks_peek(in->cur->tasks, sess, rec->exit.tid));
		break;
	case COL_PARENT_COMM:
		convert_comm(cv, tasks_peek(in->cur->tasks, sess, rec->fork.parent_tid));
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
		cg = cgroups_get(in->cur->cgroups, sess, rec->type == SCT_REC_SYSCALL ? rec->syscall.cgroup_id : rec->task.cgroup_id);
		if (cg && cg->path)
			convert_str(cv, strtab_get(c->strs, cg->path - 1), strtab_len(c->strs, cg->path - 1));
		else
			convert_null(cv);
	}
}

/* The event fields of a row's session, by the names the columns were made with. */
static void convert_map_event(struct convert *cv, struct input *in, const struct sct_event_desc *ev)
{
	if (cv->ev_mapped == ev && cv->ev_sess == in->cur->s.id + 1)
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
	cv->ev_sess = in->cur->s.id + 1;
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
	else if (col->src == COL_FIELDS && cv->jsonl)
		sample_json_fields(&cv->o, ev, sm->payload);
	else if (col->src == COL_FIELDS)
		sample_csv_fields(&cv->o, &cv->scratch, ev, sm->payload);
	else if (cv->jsonl)
		sample_json_value(&cv->o, &ev->fields[col->idx], sm->payload);
	else
		sample_csv_value(&cv->o, &cv->scratch, &ev->fields[col->idx], sm->payload);
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

static int convert_row(struct convert *cv, struct input *in, const struct sct_record *rec)
{
	struct out *o = &cv->o;

	if (cv->mapped != in->cur->s.id + 1 && convert_map(cv, in))
		return -ENOMEM;
	if (rec->type == SCT_REC_SAMPLE)
		convert_map_event(cv, in, input_event(in->cur, &rec->sample));
	out_mem(o, cv->prefix, cv->prefix_len);
	for (uint32_t i = 2; i < cv->ncols; i++) {
		const struct column *col = &cv->cols[i];

		out_char(o, ',');
		if (cv->jsonl)
			out_mem(o, col->jkey, col->jkeylen);
		if (col->slot)
			convert_slot_out(o, &rec->syscall, col->slot);
		else if (col->src >= COL_EVENT)
			convert_sample_col(cv, in, &rec->sample, col);
		else if (col->src == COL_FIELD)
			convert_field(cv, in, col->idx);
		else
			convert_resolved(cv, in, rec, col->src);
	}
	if (cv->jsonl)
		out_mem(o, "}\n", 2);
	else
		out_mem(o, "\r\n", 2);
	return 0;
}

static int convert_one(struct convert *cv, const char *path)
{
	struct sct_record rec;
	struct input in;
	bool wanted;
	int n = input_open(&cv->c, &in, path);

	if (n) {
		input_error(&cv->c, NULL, path, n);
		return 0;
	}
	while ((n = input_next(&cv->c, &in, &rec)) > 0) {
		if (!cv->type) {
			int64_t t = sct_reader_type(in.r, cv->type_name);

			cv->type = t > 0 ? (uint32_t)t : 0;
		}
		wanted = rec.type == cv->type &&
			 (rec.type != SCT_REC_SAMPLE || convert_event_wanted(cv, &in, &rec.sample));
		/*
		 * Columns from the first session whose HEADER describes the type (a newer type's
		 * come from no other place); per field: the event's, as its first sample describes them.
		 */
		if (!cv->ncols && cv->type && (!cv->per_field || wanted)) {
			const struct sct_type_schema *ts = sct_reader_schema(in.r, cv->type);

			n = ts ? convert_columns(cv, ts, wanted && cv->per_field ?
						 input_event(in.cur, &rec.sample) : NULL) : 0;
			if (n)
				break;
			if (ts)
				convert_header(cv);
		}
		n = wanted ? convert_row(cv, &in, &rec) : 0;
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

static int convert_run(struct convert *cv)
{
	int err = 0;

	for (int i = 0; i < cv->nfiles && !err && !cv->o.err; i++)
		err = convert_one(cv, cv->files[i]);
	if (!err && !cv->ncols) {
		err = convert_columns(cv, sct_schema_builtin(cv->type), NULL);
		if (!err)
			convert_header(cv);
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

static void convert_free(struct convert *cv)
{
	input_tables_free(&cv->c);
	footer_free(cv->c.footer);
	free(cv->prefix);
	for (uint32_t i = 0; i < cv->ncols; i++) {
		free(cv->cols[i].name);
		free(cv->cols[i].field);
		free(cv->cols[i].jkey);
	}
	convert_free_events(cv);
	free(cv->scratch.buf);
	free(cv);
}

int main(int argc, char **argv)
{
	struct convert *cv = calloc(1, sizeof(*cv));
	struct env env = { 0 };
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
	cv->c.tool = "sct-convert";
	cv->c.env = &env;
	cv->c.track_tasks = true;
	cv->c.footer = footer_new();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error: exit with the documented 1 */
	cv->scratch.buf = malloc(SAMPLE_JSON_MAX);
	cv->scratch.cap = SAMPLE_JSON_MAX;
	cv->scratch.fd = -1;
	err = cv->c.footer && cv->scratch.buf ? input_tables_new(&cv->c) : -ENOMEM;
	if (!err)
		err = out_open(&cv->o, cv->output, cv->force, convert_mode(cv));
	if (err) {
		fprintf(stderr, "sct-convert: %s: %s%s\n", cv->output ? cv->output : "stdout", sct_strerror(err),
			err == -EEXIST ? " (--force overwrites it)" :
			err == -ELOOP ? " (a symlink: not followed)" : "");
		convert_free(cv);
		return EXIT_INPUT;
	}
	err = convert_run(cv);
	status = footer_exit_status(cv->c.footer, "sct-convert", cv->strict, err);
	if (!cv->type) {
		usage_error("invalid --records type (no input's HEADER schema names it):", cv->type_name);
		status = EXIT_USAGE;
	}
	if (out_finish(&cv->o, "sct-convert", cv->output ? cv->output : "stdout"))
		status = EXIT_INPUT;
	if (!out_open(&errout, NULL, false, 0)) {
		errout.fd = 2;
		footer_print(cv->c.footer, cv->c.sessions, cv->c.strs, &errout);
		if (out_close(&errout))
			status = status ? status : EXIT_INPUT;
	}
	convert_free(cv);
	return status;
}
