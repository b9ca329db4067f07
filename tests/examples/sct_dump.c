// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct_dump FILE: the full decoding of a trace as JSON, read back through libsct's reader.
 * It makes spec/examples/NAME.json from NAME.sct. Output is one JSON object whose "events"
 * array follows the input: sessions (from their HEADER), records (every field by its schema
 * name, plus the syscall's name from the HEADER's table), diagnostics and trailers, one per
 * line so that a diff shows what changed. Fields are taken generically by schema (as
 * sct-convert does), so record types this program has no code for print too.
 * Byte strings print as JSON strings when they are UTF-8 without NUL, else as {"hex": "..."}.
 * Exit status: 0 when the input was read to its end (damage is reported, not fatal), 1 when
 * the reader refused it (the JSON then ends with its "error").
 *
 * sct_dump --tasks FILE: which task made each SYSCALL and SAMPLE (spec/FORMAT.md 9.2), as
 * libsct's sct_tasks answers after a first pass over the lifecycle records: NAME.tasks.json.
 * Tasks are named [tid, start_ns] (their first tid; start 0 when unknown) and listed sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"

struct dump {
	FILE *out;
	bool first_event;
	int64_t trailer_printed; /* index of the session whose TRAILER was printed last, or -1 */
	const struct sct_reader *r;
};

static const char *const diag_names[] = {
	[SCT_DIAG_SKIPPED] = "skipped",
	[SCT_DIAG_TRUNCATED] = "truncated",
	[SCT_DIAG_NO_TRAILER] = "no_trailer",
	[SCT_DIAG_UNKNOWN_FRAME] = "unknown_frame",
	[SCT_DIAG_UNKNOWN_RECORD] = "unknown_record",
	[SCT_DIAG_BAD_BLOCK] = "bad_block",
	[SCT_DIAG_NO_HEADER] = "no_header",
	[SCT_DIAG_BAD_RECORD] = "bad_record",
};

/* Length of the UTF-8 sequence at p (strict: no overlongs, surrogates or > U+10FFFF), 0 if bad. */
static size_t utf8_seq(const uint8_t *p, size_t left)
{
	uint32_t c;
	size_t n;

	if (p[0] < 0x80)
		return p[0] ? 1 : 0;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) || (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

static bool is_text(const uint8_t *p, size_t len)
{
	for (size_t i = 0, n; i < len; i += n)
		if (!(n = utf8_seq(p + i, len - i)))
			return false;
	return true;
}

static void put_string(FILE *out, const uint8_t *p, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void put_cstr(FILE *out, const char *s)
{
	put_string(out, (const uint8_t *)s, strlen(s));
}

static void put_bytes(FILE *out, struct sct_bytes b)
{
	if (is_text(b.ptr, b.len)) {
		put_string(out, b.ptr, b.len);
		return;
	}
	fputs("{\"hex\": \"", out);
	for (uint32_t i = 0; i < b.len; i++)
		fprintf(out, "%02x", b.ptr[i]);
	fputs("\"}", out);
}

static void event_start(struct dump *d, const char *kind)
{
	fprintf(d->out, "%s\n    {\"event\": \"%s\"", d->first_event ? "" : ",", kind);
	d->first_event = false;
}

static void trailer_print(struct dump *d, const struct sct_reader *r);

static void diag_print(void *ctx, const struct sct_diag *dg)
{
	struct dump *d = ctx;
	size_t nnames = sizeof(diag_names) / sizeof(diag_names[0]);

	/* events in input order: a TRAILER read before the damage comes before its report */
	trailer_print(d, d->r);
	event_start(d, "diagnostic");
	if (dg->kind < nnames && diag_names[dg->kind])
		fprintf(d->out, ", \"kind\": \"%s\"", diag_names[dg->kind]);
	else
		fprintf(d->out, ", \"kind\": %u", dg->kind);
	fprintf(d->out, ", \"type\": %u, \"offset\": %llu, \"length\": %llu, \"count\": %llu, \"text\": ",
		dg->type, (unsigned long long)dg->offset, (unsigned long long)dg->length,
		(unsigned long long)dg->count);
	put_cstr(d->out, dg->text);
	fputc('}', d->out);
}

/* A TRAILER the reader read since the last call, if any: it ends the session before. */
static void trailer_print(struct dump *d, const struct sct_reader *r)
{
	const struct sct_trailer_info *t;
	uint32_t session;

	t = sct_reader_trailer(r, &session);
	if (!t || session == d->trailer_printed)
		return;
	d->trailer_printed = session;
	event_start(d, "trailer");
	fprintf(d->out, ", \"session\": %u, \"blocks\": %llu, \"records\": {", session,
		(unsigned long long)t->blocks);
	for (uint32_t type = 1, n = 0; type <= SCT_REC_MAX; type++) {
		const struct sct_type_schema *s = sct_schema_builtin(type);

		if (!t->records[type])
			continue;
		fprintf(d->out, "%s\"%s\": %llu", n++ ? ", " : "", s ? s->name : "?",
			(unsigned long long)t->records[type]);
	}
	fprintf(d->out, "}, \"lost\": %llu, \"warnings\": %llu, \"first_ns\": %llu, \"last_ns\": %llu}",
		(unsigned long long)t->lost, (unsigned long long)t->warnings,
		(unsigned long long)t->first_ns, (unsigned long long)t->last_ns);
}

/* One ABI's descriptions, as a list of [nr, [[name, kind, family], ...]]. */
static void args_table_print(struct dump *d, const struct sct_session *s, uint32_t n,
			     const struct sct_syscall_args *(*at)(const struct sct_session *, uint32_t))
{
	fputc('[', d->out);
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_syscall_args *a = at(s, i);

		fprintf(d->out, "%s[%u, [", i ? ", " : "", a->nr);
		for (uint32_t k = 0; k < a->nargs; k++) {
			fputs(k ? ", [" : "[", d->out);
			put_cstr(d->out, a->args[k].name);
			fputs(", ", d->out);
			put_cstr(d->out, sct_arg_kind_name(a->args[k].kind));
			fputs(", ", d->out);
			put_cstr(d->out, a->args[k].family);
			fputc(']', d->out);
		}
		fputs("]]", d->out);
	}
	fputc(']', d->out);
}

/*
 * Format 1.3: the argument descriptions, in a session that has arguments only; "compat" (1.4)
 * only when it describes a syscall, so that examples without one read as before; "argv" and
 * "data" (1.7) in a session with captured memory.
 */
static void syscall_args_print(struct dump *d, const struct sct_session *s)
{
	const struct sct_header_captures *cap = sct_session_captures(s);

	if (!sct_session_has_args(s))
		return;
	fprintf(d->out, ", \"syscall_args\": {\"max\": %u, \"paths\": ", sct_session_args_max(s));
	put_cstr(d->out, sct_session_args_paths(s));
	fputs(", \"native\": ", d->out);
	args_table_print(d, s, sct_session_nsyscall_args(s), sct_session_syscall_args_at);
	if (sct_session_ncompat_syscall_args(s)) {
		fputs(", \"compat\": ", d->out);
		args_table_print(d, s, sct_session_ncompat_syscall_args(s),
				 sct_session_compat_syscall_args_at);
	}
	if (cap)
		fprintf(d->out, ", \"argv\": {\"max\": %u, \"bytes\": %u}, \"data\": %u",
			cap->argv_max, cap->argv_bytes, cap->data);
	fputc('}', d->out);
}

/* The HEADER's "stacks" (format 1.6), null without it. */
static void stacks_print(FILE *out, const struct sct_header_stacks *st)
{
	if (!st) {
		fputs(", \"stacks\": null", out);
		return;
	}
	fputs(", \"stacks\": {\"mode\": ", out);
	put_cstr(out, st->mode);
	fprintf(out, ", \"depth\": %u, \"unwind\": ", st->depth);
	put_cstr(out, st->unwind);
	fputc('}', out);
}

static void session_print(struct dump *d, const struct sct_session *s)
{
	uint64_t clock_ns, realtime_ns;
	uint32_t major, minor;

	event_start(d, "session");
	if (!s) {
		fputs(", \"index\": null}", d->out); /* records that belong to no session */
		return;
	}
	sct_session_version(s, &major, &minor);
	sct_session_anchor(s, &clock_ns, &realtime_ns);
	fprintf(d->out, ", \"index\": %u, \"format\": [%u, %u]", sct_session_index(s), major, minor);
	for (enum sct_session_key k = 0; k < SCT_SESSION_NKEYS; k++) {
		fprintf(d->out, ", \"%s\": ", sct_session_key_name(k));
		put_cstr(d->out, sct_session_get(s, k));
	}
	fprintf(d->out, ", \"sequence\": %llu, \"snapshot\": %s, \"filter\": %s",
		(unsigned long long)sct_session_sequence(s), sct_session_snapshot(s) ? "true" : "false",
		sct_session_has_filter(s) ? "true" : "false");
	stacks_print(d->out, sct_session_stacks(s));
	fprintf(d->out, ", \"anchor_clock_ns\": %llu, \"anchor_realtime_ns\": %llu, \"events\": [",
		(unsigned long long)clock_ns, (unsigned long long)realtime_ns);
	for (uint32_t i = 0; i < sct_session_nevents(s); i++) {
		const struct sct_event_desc *ev = sct_session_event(s, i);

		fputs(i ? ", {\"name\": " : "{\"name\": ", d->out);
		put_cstr(d->out, ev->name);
		fputs(", \"fields\": [", d->out);
		for (uint32_t k = 0; k < ev->nfields; k++) {
			const struct sct_event_field *f = &ev->fields[k];

			fputs(k ? ", [" : "[", d->out);
			put_cstr(d->out, f->name);
			fputs(", ", d->out);
			put_cstr(d->out, f->type);
			fprintf(d->out, ", %u, %u, %u, %u]", f->offset, f->size, f->is_signed, f->data_loc);
		}
		fputs("]}", d->out);
	}
	fputc(']', d->out);
	syscall_args_print(d, s);
	fputc('}', d->out);
}

/* Records of type 9 are SAMPLEs in 1.1 sessions and without a HEADER (section 10.5). */
static bool sample_typed(const struct sct_session *s)
{
	uint32_t major, minor;

	if (!s)
		return true;
	sct_session_version(s, &major, &minor);
	return minor >= 1;
}

/* A SAMPLE's tracepoint name and fields, decoded by the HEADER's event table. */
static void sample_print(struct dump *d, const struct sct_session *s, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = s ? sct_session_event(s, sm->event) : NULL;
	struct sct_sample_value v;

	fputs(", \"event_name\": ", d->out);
	if (!ev) {
		fputs("null", d->out);
		return;
	}
	put_cstr(d->out, ev->name);
	fputs(", \"fields\": {", d->out);
	for (uint32_t k = 0; k < ev->nfields; k++) {
		fputs(k ? ", " : "", d->out);
		put_cstr(d->out, ev->fields[k].name);
		switch (sct_sample_field(&ev->fields[k], sm->payload, &v)) {
		case SCT_SAMPLE_INT:
			fprintf(d->out, v.is_signed ? ": %lld" : ": %llu", v.is_signed ?
				(long long)v.i : (long long)v.u);
			break;
		case SCT_SAMPLE_STRING:
			fputs(": ", d->out);
			put_bytes(d->out, v.bytes);
			break;
		case SCT_SAMPLE_ARRAY:
			fputs(": [", d->out);
			for (uint32_t i = 0; i < v.bytes.len / v.elem; i++) {
				uint64_t e = sct_sample_elem(&v, i);

				fprintf(d->out, v.is_signed ? "%s%lld" : "%s%llu", i ? ", " : "",
					(long long)e);
			}
			fputc(']', d->out);
			break;
		default:
			fputs(": {\"error\": \"out of range\"}", d->out);
			break;
		}
	}
	fputc('}', d->out);
}

/* A TOTALS histogram as [lowest duration of the bucket, count] pairs (the reader checked it). */
static void hist_print(FILE *out, const struct sct_totals *t)
{
	struct sct_hist_iter it;
	struct sct_hist_bin bin;
	int n = 0;

	fputs(", \"hist_bins\": [", out);
	sct_hist_iter_init(&it, t->hist, t->hist_bits);
	while (sct_hist_next(&it, &bin) > 0)
		fprintf(out, "%s[%llu, %llu]", n++ ? ", " : "",
			(unsigned long long)sct_hist_bucket_low(bin.bucket, t->hist_bits),
			(unsigned long long)bin.count);
	fputc(']', out);
}

/* A STACK's frames as [module_id, addr] pairs, innermost first (the reader checked them). */
static void frames_print(FILE *out, const struct sct_stack *st)
{
	struct sct_frame f;
	size_t pos = 0;
	int n = 0;

	fputs(", \"frame_list\": [", out);
	while (sct_stack_frame_next(&st->frames, &pos, &f) > 0)
		fprintf(out, "%s[%u, %llu]", n++ ? ", " : "", f.module_id, (unsigned long long)f.addr);
	fputc(']', out);
}

static void record_print(struct dump *d, const struct sct_reader *r, const struct sct_record *rec)
{
	const struct sct_type_schema *schema = sct_reader_schema(r, rec->type);
	const struct sct_session *s = sct_reader_session(r);
	uint64_t nr = 0, abi = 0;
	struct sct_value v;

	event_start(d, "record");
	if (schema) {
		fputs(", \"type\": ", d->out);
		put_cstr(d->out, schema->name);
	} else {
		fprintf(d->out, ", \"type\": %u", rec->type);
	}
	for (uint32_t i = 0; schema && i < schema->nfields; i++) {
		if (sct_reader_field(r, i, &v) < 0)
			continue;
		fputs(", ", d->out);
		/* "event" names this JSON object's kind: a field of that name is shown renamed */
		put_cstr(d->out, strcmp(schema->fields[i].name, "event") ? schema->fields[i].name
									 : "event_index");
		if (!strcmp(schema->fields[i].name, "nr"))
			nr = v.u;
		else if (!strcmp(schema->fields[i].name, "abi"))
			abi = v.u;
		if (v.kind == SCT_KIND_BYTES)
			fputs(": ", d->out), put_bytes(d->out, v.b);
		else if (v.kind == SCT_KIND_SINT)
			fprintf(d->out, ": %lld", (long long)v.i);
		else
			fprintf(d->out, ": %llu", (unsigned long long)v.u);
	}
	/* by the fields' values, not rec->syscall: a SYSCALL whose schema the HEADER contradicts
	 * is delivered generically, with the union zeroed */
	if (rec->type == SCT_REC_SYSCALL || rec->type == SCT_REC_TOTALS) {
		const char *name = s && nr <= UINT32_MAX && abi <= UINT32_MAX ?
			sct_session_syscall_name(s, (uint32_t)nr, (uint32_t)abi) : NULL;

		fputs(", \"name\": ", d->out);
		if (name)
			put_cstr(d->out, name);
		else
			fputs("null", d->out);
	}
	if (rec->type == SCT_REC_SAMPLE && sample_typed(s))
		sample_print(d, s, &rec->sample);
	if (rec->type == SCT_REC_TOTALS)
		hist_print(d->out, &rec->totals);
	if (rec->type == SCT_REC_STACK)
		frames_print(d->out, &rec->stack);
	fputc('}', d->out);
}

static void stats_print(FILE *out, const struct sct_reader_stats *st)
{
	fprintf(out, "  \"stats\": {\"blocks\": %llu, \"bytes_read\": %llu, \"skipped_ranges\": %llu, "
		"\"skipped_bytes\": %llu, \"truncated_bytes\": %llu, \"unknown_frames\": %llu, "
		"\"unknown_records\": %llu, \"bad_blocks\": %llu, \"sessions_without_trailer\": %llu, "
		"\"damaged_records\": %llu, \"records\": [",
		(unsigned long long)st->blocks, (unsigned long long)st->bytes_read,
		(unsigned long long)st->skipped_ranges, (unsigned long long)st->skipped_bytes,
		(unsigned long long)st->truncated_bytes, (unsigned long long)st->unknown_frames,
		(unsigned long long)st->unknown_records, (unsigned long long)st->bad_blocks,
		(unsigned long long)st->sessions_without_trailer, (unsigned long long)st->damaged_records);
	for (uint32_t i = 0; i <= SCT_REC_MAX; i++)
		fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)st->records[i]);
	fputs("]}", out);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Sessions are numbered by their SESSION records, headerless stretches included. */
static int tasks_load(const char *path, struct sct_tasks *ts)
{
	struct sct_record rec;
	struct sct_reader *r;
	int64_t sess = -1;
	int err = 0, rc;

	r = sct_reader_open(path, &err);
	if (!r)
		return err;
	sct_reader_set_skip(r, 1u << SCT_REC_SYSCALL | 1u << SCT_REC_SAMPLE);
	while ((rc = sct_reader_next(r, &rec)) > 0) {
		sess += rec.type == SCT_REC_SESSION;
		if (!err)
			err = sct_tasks_add(ts, (uint32_t)sess, &rec);
	}
	sct_reader_close(r);
	return rc < 0 ? rc : err;
}

static void task_ref(FILE *out, const struct sct_tasks *ts, uint32_t id)
{
	struct sct_task_info ti;

	if (sct_tasks_get(ts, id, &ti)) {
		fputs("null", out);
		return;
	}
	fprintf(out, "[%u, %llu]", ti.tid, (unsigned long long)ti.start_ns);
}

static void tasks_records_print(const char *path, struct sct_tasks *ts)
{
	struct sct_record rec;
	struct sct_reader *r;
	int64_t sess = -1;
	const char *sep = "";
	int err = 0;

	r = sct_reader_open(path, &err);
	if (!r)
		return;
	fputs("  \"records\": [", stdout);
	while (sct_reader_next(r, &rec) > 0) {
		const struct sct_syscall *sc = &rec.syscall;
		const struct sct_sample *sm = &rec.sample;
		bool is_sc = rec.type == SCT_REC_SYSCALL;
		uint64_t t = is_sc ? sc->time_ns : sm->time_ns;
		uint32_t tid = is_sc ? sc->tid : sm->tid, id;

		sess += rec.type == SCT_REC_SESSION;
		if (!is_sc && rec.type != SCT_REC_SAMPLE)
			continue;
		id = sct_tasks_find(ts, (uint32_t)sess, tid, t);
		printf("%s\n    {\"session\": %lld, \"type\": \"%s\", \"time_ns\": %llu, \"tid\": %u, \"task\": ", sep,
		       (long long)sess, is_sc ? "syscall" : "sample", (unsigned long long)t, tid);
		task_ref(stdout, ts, id);
		fputs(", \"comm\": ", stdout);
		put_bytes(stdout, sct_tasks_comm(ts, id, is_sc ? sct_syscall_name_ns(sc) : t));
		fputc('}', stdout);
		sep = ",";
	}
	fputs("\n  ],\n", stdout);
	sct_reader_close(r);
}

static int task_cmp(const void *a, const void *b)
{
	const struct sct_task_info *x = a, *y = b;

	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

struct task_row {
	struct sct_task_info ti;
	uint32_t id;
};

static void tasks_list_print(const struct sct_tasks *ts)
{
	uint32_t n = sct_tasks_count(ts);
	struct task_row *v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		return;
	for (uint32_t i = 0; i < n; i++) {
		v[i].id = i;
		if (sct_tasks_get(ts, i, &v[i].ti))
			break;
	}
	qsort(v, n, sizeof(*v), task_cmp);
	fputs("  \"tasks\": [", stdout);
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_task_info *ti = &v[i].ti;

		printf("%s\n    {\"session\": %u, \"task\": ", i ? "," : "", ti->session);
		task_ref(stdout, ts, v[i].id);
		printf(", \"pid\": %u, \"ppid\": %u, \"thread\": %s, \"process\": ", ti->pid, ti->ppid,
		       ti->is_thread ? "true" : "false");
		task_ref(stdout, ts, ti->process);
		fputs(", \"parent\": ", stdout);
		task_ref(stdout, ts, ti->parent);
		printf(", \"exited\": %s, \"end_ns\": %llu, \"exit_code\": %d, \"signal\": %u, \"cgroup_id\": %llu, "
		       "\"nexec\": %u, \"comm\": ", ti->exited ? "true" : "false", (unsigned long long)ti->end_ns,
		       ti->exit_code, ti->signal, (unsigned long long)ti->cgroup_id, ti->nexec);
		put_bytes(stdout, ti->comm);
		fputs(", \"filename\": ", stdout);
		put_bytes(stdout, ti->filename);
		fputc('}', stdout);
	}
	fputs("\n  ]\n", stdout);
	free(v);
}

static int tasks_main(const char *path)
{
	int err = 0;
	struct sct_tasks *ts = sct_tasks_new(&err);

	if (ts)
		err = tasks_load(path, ts);
	if (err) {
		fprintf(stderr, "sct_dump: %s: %s\n", path, sct_strerror(err));
		sct_tasks_free(ts);
		return 1;
	}
	fputs("{\n  \"input\": ", stdout);
	put_cstr(stdout, base_name(path));
	fputs(",\n", stdout);
	tasks_records_print(path, ts);
	tasks_list_print(ts);
	fputs("}\n", stdout);
	sct_tasks_free(ts);
	if (fflush(stdout) || ferror(stdout)) {
		perror("sct_dump: stdout");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct dump d = { .out = stdout, .first_event = true, .trailer_printed = -1 };
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0, rc;

	if (argc == 3 && !strcmp(argv[1], "--tasks"))
		return tasks_main(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s [--tasks] FILE.sct\n  prints the full decoding of FILE as JSON\n", argv[0]);
		return 2;
	}
	r = sct_reader_open(argv[1], &err);
	if (!r) {
		fprintf(stderr, "sct_dump: %s: %s\n", argv[1], sct_strerror(err));
		return 1;
	}
	d.r = r;
	sct_reader_set_diag(r, diag_print, &d);
	sct_reader_set_unknown(r, true); /* types the HEADER's schema describes print too */
	fputs("{\n  \"input\": ", d.out);
	put_cstr(d.out, base_name(argv[1]));
	fputs(",\n  \"events\": [", d.out);
	while ((rc = sct_reader_next(r, &rec)) > 0) {
		trailer_print(&d, r);
		if (rec.type == SCT_REC_SESSION)
			session_print(&d, sct_reader_session(r));
		else
			record_print(&d, r, &rec);
	}
	trailer_print(&d, r);
	fputs("\n  ],\n", d.out);
	stats_print(d.out, sct_reader_stats(r));
	if (rc < 0) {
		fputs(",\n  \"error\": ", d.out);
		put_cstr(d.out, sct_reader_error(r));
	}
	fputs("\n}\n", d.out);
	sct_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		perror("sct_dump: stdout");
		return 1;
	}
	return rc < 0 ? 1 : 0;
}
