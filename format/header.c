// SPDX-License-Identifier: BSD-2-Clause
/* HEADER encoding (cbor_encode_* into a cbuf) and parsing (cbor_load after chead_check). */
#include "header.h"

#include <cbor.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_item.h"
#include "event_table.h"
#include "schema.h"
#include "syscall_args.h"

static void encode_syscalls(struct cbuf *b, const char *arch, const struct sct_syscall_name *v,
			    uint32_t n)
{
	uint32_t named = 0;

	for (uint32_t i = 0; i < n; i++)
		named += v[i].name != NULL;
	cbuf_map(b, 2);
	cbuf_text(b, "arch");
	cbuf_text(b, arch);
	cbuf_text(b, "names");
	cbuf_map(b, named);
	for (uint32_t i = 0; i < n; i++) {
		if (!v[i].name)
			continue;
		cbuf_uint(b, v[i].nr);
		cbuf_text(b, v[i].name);
	}
}

/* The built-in types of minor version minor: types 1 .. ntypes. */
static void encode_schema(struct cbuf *b, uint32_t minor, bool args, bool stacks)
{
	uint32_t ntypes = 0;

	while (ntypes < SCT_REC_MAX && RECORD_MINOR_SINCE(ntypes + 1) <= minor)
		ntypes++;
	cbuf_array(b, ntypes);
	for (uint32_t type = 1; type <= ntypes; type++) {
		const struct sct_type_schema *s = schema_builtin_version(type, minor, args, stacks);

		cbuf_map(b, 3);
		cbuf_text(b, "type");
		cbuf_uint(b, type);
		cbuf_text(b, "name");
		cbuf_text(b, s->name);
		cbuf_text(b, "fields");
		cbuf_array(b, s->nfields);
		for (uint32_t k = 0; k < s->nfields; k++) {
			cbuf_array(b, 3);
			cbuf_text(b, s->fields[k].name);
			cbuf_text(b, schema_kind_name(s->fields[k].kind));
			cbuf_text(b, s->fields[k].unit);
		}
	}
}

uint32_t header_minor(const struct sct_header_info *info)
{
	if (info->captures && info->syscall_args)
		return RECORD_CAPTURES_MINOR;
	if (info->stacks)
		return RECORD_STACKS_MINOR;
	if (info->filter)
		return RECORD_TOTALS_MINOR;
	if (info->syscall_args)
		return RECORD_SYSCALL_PATH2_MINOR;
	if (info->recording_id)
		return 2;
	return info->nevents || info->backend || info->sample_cgroup ? 1 : 0;
}

/*
 * A recording id is what sct-record writes, SCT_RECORDING_ID_LEN lowercase hex digits, so that
 * ids compare as plain strings; the writer writes nothing else and the reader reads nothing
 * else: what a tool puts into a file name, SQL, a TabSeparated row or a terminal holds no
 * byte of a hostile id.
 */
static bool recording_id_valid(const char *id, size_t len)
{
	if (len != SCT_RECORDING_ID_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return true;
}

static int recording_check(const struct sct_header_info *info)
{
	const char *id = info->recording_id;

	if (!id)
		return 0;
	if (!recording_id_valid(id, strlen(id)) || !info->sequence)
		return -EINVAL;
	return 0;
}

static void encode_recording(struct cbuf *b, const struct sct_header_info *info)
{
	cbuf_text(b, "recording");
	cbuf_map(b, 3);
	cbuf_text(b, "id");
	cbuf_text(b, info->recording_id);
	cbuf_text(b, "sequence");
	cbuf_uint(b, info->sequence);
	cbuf_text(b, "snapshot");
	cbuf_uint(b, info->snapshot);
}

static void encode_filter(struct cbuf *b, const struct sct_header_filter *f)
{
	cbuf_text(b, "filter");
	cbuf_map(b, 3);
	cbuf_text(b, "text");
	cbuf_text(b, f->text);
	cbuf_text(b, "details");
	cbuf_text(b, f->details);
	cbuf_text(b, "totals");
	cbuf_text(b, f->totals);
}

/* What a writer states is what readers know: the modes and unwinder this version names. */
static int stacks_check(const struct sct_header_stacks *st)
{
	static const char *const modes[] = { "user", "kernel", "both" };
	bool mode = false;

	if (!st)
		return 0;
	for (size_t i = 0; st->mode && i < sizeof(modes) / sizeof(modes[0]); i++)
		mode |= !strcmp(st->mode, modes[i]);
	if (!mode || !st->unwind || strcmp(st->unwind, "fp") || !st->depth ||
	    st->depth > SCT_MAX_STACK_DEPTH)
		return -EINVAL;
	return 0;
}

static void encode_stacks(struct cbuf *b, const struct sct_header_stacks *st)
{
	cbuf_text(b, "stacks");
	cbuf_map(b, 3);
	cbuf_text(b, "mode");
	cbuf_text(b, st->mode);
	cbuf_text(b, "depth");
	cbuf_uint(b, st->depth);
	cbuf_text(b, "unwind");
	cbuf_text(b, st->unwind);
}

void header_encode(struct cbuf *b, const struct sct_header_info *info)
{
	bool compat = info->compat_syscalls && info->ncompat_syscalls;
	uint32_t minor = header_minor(info);
	/* 1.3 and later need no recording id: a session with arguments may state none */
	bool recording = minor >= 2 && info->recording_id;
	/* a 1.5 session without arguments lists SYSCALL's base fields, as every session may */
	bool args = info->syscall_args != NULL;
	bool filter = info->filter != NULL;
	bool stacks = info->stacks != NULL;

	if (!b->err)
		b->err = stacks_check(info->stacks);
	if (!b->err)
		b->err = event_table_check(info->events, info->nevents);
	if (!b->err)
		b->err = recording_check(info);
	if (!b->err)
		b->err = syscall_args_check(info);
	if (!b->err)
		b->err = syscall_captures_check(info);
	cbuf_map(b, (minor ? 10 : 7) + recording + args + filter + stacks);
	cbuf_text(b, "format");
	cbuf_array(b, 2);
	cbuf_uint(b, SCT_FORMAT_MAJOR);
	cbuf_uint(b, minor);

	cbuf_text(b, "producer");
	cbuf_map(b, 3);
	cbuf_text(b, "name");
	cbuf_text(b, info->producer);
	cbuf_text(b, "version");
	cbuf_text(b, info->producer_version);
	cbuf_text(b, "args");
	cbuf_array(b, info->args ? info->nargs : 0);
	for (uint32_t i = 0; info->args && i < info->nargs; i++)
		cbuf_text(b, info->args[i]);

	cbuf_text(b, "host");
	cbuf_map(b, 4);
	cbuf_text(b, "hostname");
	cbuf_text(b, info->hostname);
	cbuf_text(b, "kernel");
	cbuf_text(b, info->kernel);
	cbuf_text(b, "arch");
	cbuf_text(b, info->arch);
	cbuf_text(b, "boot_id");
	cbuf_text(b, info->boot_id);

	cbuf_text(b, "clock");
	cbuf_map(b, 3);
	cbuf_text(b, "name");
	cbuf_text(b, info->clock);
	cbuf_text(b, "anchor_ns");
	cbuf_uint(b, info->anchor_clock_ns);
	cbuf_text(b, "anchor_realtime_ns");
	cbuf_uint(b, info->anchor_realtime_ns);

	cbuf_text(b, "cgroup");
	cbuf_map(b, 2);
	cbuf_text(b, "hierarchy");
	cbuf_text(b, info->cgroup_hierarchy);
	cbuf_text(b, "mount");
	cbuf_text(b, info->cgroup_mount);

	cbuf_text(b, "syscalls");
	cbuf_map(b, compat ? 2 : 1);
	cbuf_text(b, "native");
	encode_syscalls(b, info->arch, info->syscalls ? info->syscalls : NULL,
			info->syscalls ? info->nsyscalls : 0);
	if (compat) {
		cbuf_text(b, "compat");
		encode_syscalls(b, info->compat_arch, info->compat_syscalls, info->ncompat_syscalls);
	}

	cbuf_text(b, "schema");
	encode_schema(b, minor, args, stacks);
	if (!minor)
		return;
	cbuf_text(b, "backend");
	cbuf_text(b, info->backend);
	cbuf_text(b, "sample_cgroup");
	cbuf_text(b, info->sample_cgroup);
	cbuf_text(b, "events");
	event_table_encode(b, info->events, info->nevents);
	if (recording)
		encode_recording(b, info);
	if (filter)
		encode_filter(b, info->filter);
	if (stacks)
		encode_stacks(b, info->stacks);
	if (!args)
		return;
	cbuf_text(b, "syscall_args");
	syscall_args_encode(b, info);
}

/* ---------------------------------------------------------------- parsing */

static int set_key(struct sct_session *s, enum sct_session_key k, const cbor_item_t *it)
{
	char *v = item_strdup(it);

	if (!v)
		return -ENOMEM;
	free(s->keys[k]);
	s->keys[k] = v;
	return 0;
}

static int parse_args(struct sct_session *s, const cbor_item_t *args)
{
	size_t n = args && cbor_isa_array(args) ? cbor_array_size(args) : 0;
	cbor_item_t **v = n ? cbor_array_handle(args) : NULL;
	size_t len = 0, pos = 0;
	char *out;

	for (size_t i = 0; i < n; i++)
		len += (cbor_isa_string(v[i]) ? cbor_string_length(v[i]) : 0) + 1;
	out = malloc(len + 1);
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t l = cbor_isa_string(v[i]) ? cbor_string_length(v[i]) : 0;

		if (i)
			out[pos++] = ' ';
		memcpy(out + pos, l ? cbor_string_handle(v[i]) : (unsigned char *)"", l);
		pos += l;
	}
	out[pos] = '\0';
	free(s->keys[SCT_SESSION_ARGS]);
	s->keys[SCT_SESSION_ARGS] = out;
	return 0;
}

/* By number, then by position in the map: the first of repeated numbers comes first. */
static int entry_cmp(const void *a, const void *b)
{
	const struct syscall_entry *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int parse_table(struct syscall_table *t, const cbor_item_t *tab)
{
	const cbor_item_t *names = item_map_get(tab, "names");
	size_t n = names && cbor_isa_map(names) ? cbor_map_size(names) : 0;
	struct cbor_pair *p = n ? cbor_map_handle(names) : NULL;
	uint32_t kept = 0;

	t->v = calloc(n ? n : 1, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t nr;

		if (item_uint(p[i].key, &nr) || !cbor_isa_string(p[i].value))
			continue;
		t->v[t->n].nr = nr;
		t->v[t->n].pos = (uint32_t)i;
		t->v[t->n].name = item_strdup(p[i].value);
		if (!t->v[t->n].name)
			return -ENOMEM;
		t->n++;
	}
	qsort(t->v, t->n, sizeof(*t->v), entry_cmp);
	for (uint32_t i = 1; i < t->n; i++) {
		if (t->v[i].nr != t->v[kept].nr)
			t->v[++kept] = t->v[i];
		else
			free(t->v[i].name);
	}
	t->n = t->n ? kept + 1 : 0;
	return 0;
}

static int field_set(struct sct_field_schema *f, const struct sct_field_schema *from)
{
	free((char *)f->name);
	free((char *)f->unit);
	f->kind = from->kind;
	f->name = strdup(from->name);
	f->unit = strdup(from->unit);
	return f->name && f->unit ? 0 : -ENOMEM;
}

/*
 * A typed entry's fields are section 9's by position (spec/FORMAT.md section 5): their names,
 * whatever the HEADER calls them, and all of them, however few the entry lists (those it
 * lacks read as 0 or empty). The entry's fields past them keep the HEADER's names.
 */
static int type_builtin_names(struct session_type *st, const struct sct_type_schema *builtin)
{
	struct sct_type_schema *ts = &st->schema;
	struct sct_field_schema *f = (struct sct_field_schema *)ts->fields;
	int err = 0;

	if (ts->nfields < builtin->nfields) {
		f = realloc(f, builtin->nfields * sizeof(*f));
		if (!f)
			return -ENOMEM;
		memset(f + ts->nfields, 0, (builtin->nfields - ts->nfields) * sizeof(*f));
		ts->fields = f;
		ts->nfields = builtin->nfields;
	}
	for (uint32_t k = 0; !err && k < builtin->nfields; k++)
		err = field_set(&f[k], &builtin->fields[k]);
	free((char *)ts->name);
	ts->name = strdup(builtin->name);
	return err || !ts->name ? -ENOMEM : 0;
}

/* Fill one schema entry; 1 if it is unusable (skipped), 0, or -ENOMEM. */
static int parse_type(const struct sct_session *s, struct session_type *st, const cbor_item_t *m)
{
	const cbor_item_t *fields = item_map_get(m, "fields");
	const struct sct_type_schema *builtin;
	struct sct_field_schema *f;
	uint64_t type;
	size_t n;

	if (item_uint(item_map_get(m, "type"), &type) || type == 0 || type > UINT32_MAX ||
	    !fields || !cbor_isa_array(fields))
		return 1;
	n = cbor_array_size(fields);
	if (n > SCT_MAX_FIELDS)
		return 1;
	f = calloc(n ? n : 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	st->schema.type = (uint32_t)type;
	st->schema.fields = f;
	st->schema.name = item_strdup(item_map_get(m, "name"));
	if (!st->schema.name)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const cbor_item_t *d = cbor_array_handle(fields)[k];
		const cbor_item_t *kind;
		int kv;

		if (!cbor_isa_array(d) || cbor_array_size(d) < 3)
			return 1;
		kind = cbor_array_handle(d)[1];
		kv = cbor_isa_string(kind) ? schema_kind_parse((const char *)cbor_string_handle(kind),
							       item_text_len(kind)) : -1;
		if (kv < 0)
			return 1;
		f[k].kind = (uint32_t)kv;
		f[k].name = item_strdup(cbor_array_handle(d)[0]);
		f[k].unit = item_strdup(cbor_array_handle(d)[2]);
		st->schema.nfields = (uint32_t)k + 1;
		if (!f[k].name || !f[k].unit)
			return -ENOMEM;
	}
	st->listed = (uint32_t)n;
	builtin = session_builtin(s, (uint32_t)type);
	st->typed = builtin != NULL;
	for (uint32_t k = 0; builtin && k < n && k < builtin->nfields; k++)
		if (f[k].kind != builtin->fields[k].kind)
			st->typed = false;
	return st->typed ? type_builtin_names(st, builtin) : 0;
}

static int parse_schema(struct sct_session *s, const cbor_item_t *schema)
{
	size_t n = schema && cbor_isa_array(schema) ? cbor_array_size(schema) : 0;

	if (n > SESSION_MAX_TYPES)
		n = SESSION_MAX_TYPES;
	s->types = calloc(n ? n : 1, sizeof(*s->types));
	if (!s->types)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct session_type *st = &s->types[s->ntypes];
		int rc = parse_type(s, st, cbor_array_handle(schema)[i]);

		if (rc < 0) {
			session_type_clear(st);
			return rc;
		}
		/* a malformed or repeated entry is dropped: the first one of a type wins */
		if (rc > 0 || session_type(s, st->schema.type))
			session_type_clear(st);
		else
			s->ntypes++;
	}
	return 0;
}

static int parse_version(const cbor_item_t *fmt, struct sct_session *s, char *err, size_t errlen)
{
	uint64_t major, minor;

	if (!fmt || !cbor_isa_array(fmt) || cbor_array_size(fmt) != 2 ||
	    item_uint(cbor_array_handle(fmt)[0], &major) ||
	    item_uint(cbor_array_handle(fmt)[1], &minor) || major > UINT32_MAX ||
	    minor > UINT32_MAX) {
		snprintf(err, errlen, "HEADER has no valid \"format\" version");
		return -SCT_E_CORRUPT;
	}
	s->major = (uint32_t)major;
	s->minor = (uint32_t)minor;
	if (major > SCT_FORMAT_MAJOR) {
		snprintf(err, errlen, "file format %u.%u is newer than this reader (%u.x): upgrade sct",
			 s->major, s->minor, SCT_FORMAT_MAJOR);
		return -SCT_E_VERSION;
	}
	if (major < SCT_FORMAT_MAJOR) {
		snprintf(err, errlen, "file format %u.%u predates format %u and is not supported",
			 s->major, s->minor, SCT_FORMAT_MAJOR);
		return -SCT_E_VERSION;
	}
	return 0;
}

/* A "stacks" that is not a map reads as missing, and is one before 1.6; a bad depth as 0. */
static int parse_stacks(struct sct_session *s, const cbor_item_t *st)
{
	uint64_t depth;
	int err;

	s->has_stacks = s->minor >= RECORD_STACKS_MINOR && st && cbor_isa_map(st);
	if (!s->has_stacks)
		return 0;
	err = set_key(s, SCT_SESSION_STACKS_MODE, item_map_get(st, "mode"));
	if (!err)
		err = set_key(s, SCT_SESSION_STACKS_UNWIND, item_map_get(st, "unwind"));
	if (item_uint(item_map_get(st, "depth"), &depth) || depth > SCT_MAX_STACK_DEPTH)
		depth = 0;
	s->stacks.mode = s->keys[SCT_SESSION_STACKS_MODE];
	s->stacks.unwind = s->keys[SCT_SESSION_STACKS_UNWIND];
	s->stacks.depth = (uint32_t)depth;
	return err;
}

static int parse_strings(struct sct_session *s, const cbor_item_t *h)
{
	static const struct {
		const char *map, *key;
		enum sct_session_key k;
		uint32_t since; /* the minor version that added the key: unknown before it */
	} strs[] = {
		{ "producer", "name", SCT_SESSION_PRODUCER, 0 },
		{ "producer", "version", SCT_SESSION_PRODUCER_VERSION, 0 },
		{ "host", "hostname", SCT_SESSION_HOSTNAME, 0 }, { "host", "kernel", SCT_SESSION_KERNEL, 0 },
		{ "host", "arch", SCT_SESSION_ARCH, 0 }, { "host", "boot_id", SCT_SESSION_BOOT_ID, 0 },
		{ "clock", "name", SCT_SESSION_CLOCK, 0 },
		{ "cgroup", "hierarchy", SCT_SESSION_CGROUP_HIERARCHY, 0 },
		{ "cgroup", "mount", SCT_SESSION_CGROUP_MOUNT, 0 },
		{ NULL, "backend", SCT_SESSION_BACKEND, 1 },
		{ NULL, "sample_cgroup", SCT_SESSION_SAMPLE_CGROUP, 1 },
	};
	const cbor_item_t *compat = item_map_get(item_map_get(h, "syscalls"), "compat");
	const cbor_item_t *filter = item_map_get(h, "filter");
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(strs) / sizeof(strs[0]); i++)
		if (s->minor >= strs[i].since)
			err = set_key(s, strs[i].k, item_map_get(strs[i].map ? item_map_get(h, strs[i].map) : h,
								 strs[i].key));
	if (!err && compat)
		err = set_key(s, SCT_SESSION_COMPAT_ARCH, item_map_get(compat, "arch"));
	/* a "filter" that is not a map reads as missing, and is one before 1.5 */
	s->has_filter = s->minor >= RECORD_TOTALS_MINOR && filter && cbor_isa_map(filter);
	if (!err && s->has_filter)
		err = set_key(s, SCT_SESSION_FILTER_TEXT, item_map_get(filter, "text"));
	if (!err && s->has_filter)
		err = set_key(s, SCT_SESSION_FILTER_DETAILS, item_map_get(filter, "details"));
	if (!err && s->has_filter)
		err = set_key(s, SCT_SESSION_FILTER_TOTALS, item_map_get(filter, "totals"));
	if (!err)
		err = parse_stacks(s, item_map_get(h, "stacks"));
	if (!err)
		err = parse_args(s, item_map_get(item_map_get(h, "producer"), "args"));
	return err;
}

/*
 * A 1.2 HEADER's "recording"; a wrong-typed value reads as missing, and so does an id the
 * writer would not write (the whole string, as stored); a snapshot is exactly 1.
 */
static int parse_recording(struct sct_session *s, const cbor_item_t *rec)
{
	const cbor_item_t *id = item_map_get(rec, "id");
	uint64_t v;

	if (!item_uint(item_map_get(rec, "sequence"), &v))
		s->sequence = v;
	s->snapshot = !item_uint(item_map_get(rec, "snapshot"), &v) && v == 1;
	if (!id || !cbor_isa_string(id) || !cbor_string_is_definite(id) ||
	    !recording_id_valid((const char *)cbor_string_handle(id), cbor_string_length(id)))
		return 0;
	return set_key(s, SCT_SESSION_RECORDING_ID, id);
}

int header_parse(const uint8_t *body, size_t len, struct sct_session *s, char *err, size_t errlen)
{
	cbor_item_t *h = item_load(body, len);
	const cbor_item_t *clock, *syscalls;
	int rc;

	if (!h || !cbor_isa_map(h)) {
		snprintf(err, errlen, "HEADER body is not a well-formed CBOR map");
		rc = -SCT_E_CORRUPT;
		goto out;
	}
	rc = parse_version(item_map_get(h, "format"), s, err, errlen);
	if (rc)
		goto out;
	clock = item_map_get(h, "clock");
	if (item_uint(item_map_get(clock, "anchor_ns"), &s->anchor_clock_ns))
		s->anchor_clock_ns = 0;
	if (item_uint(item_map_get(clock, "anchor_realtime_ns"), &s->anchor_realtime_ns))
		s->anchor_realtime_ns = 0;
	syscalls = item_map_get(h, "syscalls");
	rc = parse_strings(s, h);
	if (!rc)
		rc = parse_table(&s->syscalls[SCT_ABI_NATIVE], item_map_get(syscalls, "native"));
	if (!rc)
		rc = parse_table(&s->syscalls[SCT_ABI_COMPAT], item_map_get(syscalls, "compat"));
	/* before the schema: the built-in SYSCALL of a session with arguments has them */
	if (!rc && s->minor >= RECORD_SYSCALL_ARGS_MINOR)
		rc = syscall_args_parse(item_map_get(h, "syscall_args"), s);
	if (!rc)
		rc = parse_schema(s, item_map_get(h, "schema"));
	/* a 1.0 HEADER's "events" is an unknown key, ignored */
	if (!rc && s->minor >= 1)
		rc = event_table_parse(item_map_get(h, "events"), &s->events, &s->nevents);
	/* likewise "recording" before 1.2 */
	if (!rc && s->minor >= 2)
		rc = parse_recording(s, item_map_get(h, "recording"));
out:
	if (h)
		cbor_decref(&h);
	return rc;
}
