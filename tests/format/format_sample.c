// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tracepoint samples (format 1.1): SAMPLE round-trips with extreme values, the HEADER's event
 * table written and read within its limits (hostile tables refused or dropped whole), and
 * field decoding that never leaves the payload.
 */
#include <cbor.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format_craft.h"
#include "format_helpers.h"
#include "sct.h"

static const struct sct_event_field exec_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, 0 },
	{ "common_pid", "int", 4, 4, 1, 0 },
	{ "filename", "__data_loc char[]", 8, 4, 1, 1 },
};
static const struct sct_event_desc two_events[] = {
	{ "sched:sched_process_exec", exec_fields, 3 },
	{ "raw_syscalls:sys_enter", NULL, 0 },
};

static struct sct_header_info sample_info(const struct sct_event_desc *ev, uint32_t n)
{
	struct sct_header_info info = fh_info;

	info.events = ev;
	info.nevents = n;
	info.backend = "perf";
	info.sample_cgroup = "recorder";
	return info;
}

/* Write recs under info into t; returns the first append error (the file is closed anyway). */
static int write_trace(const struct sct_header_info *info, const struct sct_record *recs,
		       size_t n, struct fh_trace *t)
{
	const struct sct_writer_opts opts = { .no_fsync = true };
	int fd = memfd_create("sample", 0), wfd = dup(fd), err = 0, first = 0;
	struct sct_writer *w;

	cr_assert(fd >= 0 && wfd >= 0);
	w = sct_writer_open_fd(wfd, info, &opts, &err);
	cr_assert_not_null(w, "open: %s", sct_strerror(err));
	for (size_t i = 0; i < n; i++) {
		err = sct_writer_append(w, &recs[i]);
		if (err && !first)
			first = err;
	}
	cr_assert_eq(sct_writer_close(w), 0);
	fh_collect_fd(fd, t);
	return first;
}

static uint8_t big_payload[SCT_MAX_STRING];

Test(format_sample, samples_round_trip_with_extreme_values)
{
	const struct sct_header_info info = sample_info(two_events, 2);
	struct sct_record recs[5] = {
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 0, .payload = { NULL, 0 } } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = UINT64_MAX, .cgroup_id = UINT64_MAX,
			.pid = UINT32_MAX, .tid = UINT32_MAX, .cpu = UINT32_MAX, .event = 1,
			.payload = { big_payload, sizeof(big_payload) } } },
		fh_syscall(3),
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 1ull << 63, .cpu = 1, .event = 0,
			.payload = { (const uint8_t *)"\0\xff", 2 } } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 7, .pid = 1, .tid = 2, .cgroup_id = 3,
			.payload = { big_payload, 1 } } },
	};
	struct sct_record rec;
	struct sct_reader *r;
	struct fh_trace t;
	uint32_t major, minor;
	int err = 0, n = 0;

	for (size_t i = 0; i < sizeof(big_payload); i++)
		big_payload[i] = (uint8_t)(i * 131 + 17);
	cr_assert_eq(write_trace(&info, recs, 5, &t), 0);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_not_null(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	sct_session_version(sct_reader_session(r), &major, &minor);
	cr_assert_eq(minor, 1);
	while (sct_reader_next(r, &rec) == 1) {
		const struct sct_record *w = &recs[n++];

		cr_assert_eq(rec.type, w->type);
		if (rec.type != SCT_REC_SAMPLE)
			continue;
		cr_assert_eq(rec.sample.time_ns, w->sample.time_ns);
		cr_assert_eq(rec.sample.cgroup_id, w->sample.cgroup_id);
		cr_assert_eq(rec.sample.pid, w->sample.pid);
		cr_assert_eq(rec.sample.tid, w->sample.tid);
		cr_assert_eq(rec.sample.cpu, w->sample.cpu);
		cr_assert_eq(rec.sample.event, w->sample.event);
		cr_assert_eq(rec.sample.payload.len, w->sample.payload.len);
		cr_assert(!w->sample.payload.len ||
			  !memcmp(rec.sample.payload.ptr, w->sample.payload.ptr, w->sample.payload.len));
	}
	cr_assert_eq(n, 5);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_SAMPLE], 4);
	cr_assert_eq(sct_session_trailer(sct_reader_session(r))->records[SCT_REC_SAMPLE], 4);
	sct_reader_close(r);
	fh_trace_free(&t);
}

Test(format_sample, event_table_and_keys_read_back)
{
	const struct sct_header_info info = sample_info(two_events, 2);
	const struct sct_session *s;
	const struct sct_event_desc *ev;
	struct sct_record rec;
	struct sct_reader *r;
	struct fh_trace t;
	int err = 0;

	cr_assert_eq(write_trace(&info, NULL, 0, &t), 0);
	r = sct_reader_open_mem(t.p, t.len, &err);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	s = sct_reader_session(r);
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_BACKEND), "perf");
	cr_assert_str_eq(sct_session_get(s, SCT_SESSION_SAMPLE_CGROUP), "recorder");
	cr_assert_str_eq(sct_session_key_name(SCT_SESSION_SAMPLE_CGROUP), "sample_cgroup");
	cr_assert_eq(sct_session_nevents(s), 2);
	cr_assert_null(sct_session_event(s, 2));
	cr_assert_null(sct_session_event(s, UINT32_MAX));
	ev = sct_session_event(s, 0);
	cr_assert_str_eq(ev->name, "sched:sched_process_exec");
	cr_assert_eq(ev->nfields, 3);
	for (uint32_t k = 0; k < 3; k++) {
		cr_assert_str_eq(ev->fields[k].name, exec_fields[k].name);
		cr_assert_str_eq(ev->fields[k].type, exec_fields[k].type);
		cr_assert_eq(ev->fields[k].offset, exec_fields[k].offset);
		cr_assert_eq(ev->fields[k].size, exec_fields[k].size);
		cr_assert_eq(ev->fields[k].is_signed, exec_fields[k].is_signed);
		cr_assert_eq(ev->fields[k].data_loc, exec_fields[k].data_loc);
	}
	cr_assert_eq(sct_session_event(s, 1)->nfields, 0);
	sct_reader_close(r);
	fh_trace_free(&t);
}

/* A session that states nothing of 1.1 is written as 1.0 and cannot take samples. */
Test(format_sample, plain_session_is_1_0_and_refuses_samples)
{
	const struct sct_record recs[] = {
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 1 } },
		fh_syscall(0),
	};
	struct fh_trace t;
	struct fh_read rd;

	cr_assert_eq(write_trace(&fh_info, recs, 2, &t), -EINVAL);
	fh_read_mem(t.p, t.len, false, &rd);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.stats.records[SCT_REC_SYSCALL], 1);
	fh_read_free(&rd);
	fh_trace_free(&t);
}

Test(format_sample, sample_of_an_event_past_the_table_is_refused)
{
	const struct sct_header_info info = sample_info(two_events, 2);
	const struct sct_record recs[] = {
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 1, .event = 2 } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 2, .event = 1,
			.payload = { big_payload, SCT_MAX_STRING + 1 } } },
		{ .type = SCT_REC_SAMPLE, .sample = { .time_ns = 3, .event = 1 } },
	};
	static uint8_t too_big[SCT_MAX_STRING + 1];
	struct sct_record copy[3];
	struct fh_trace t;
	struct fh_read rd;

	memcpy(copy, recs, sizeof(copy));
	copy[1].sample.payload.ptr = too_big;
	cr_assert_eq(write_trace(&info, copy, 1, &t), -EINVAL);
	fh_trace_free(&t);
	cr_assert_eq(write_trace(&info, copy + 1, 1, &t), -SCT_E_LIMIT);
	fh_trace_free(&t);
	/* refusals leave the writer working */
	cr_assert_eq(write_trace(&info, copy, 3, &t), -EINVAL);
	fh_read_mem(t.p, t.len, true, &rd);
	cr_assert_eq(rd.nrecords, 1);
	cr_assert_eq(rd.recs[0].sample.time_ns, 3);
	fh_read_free(&rd);
	fh_trace_free(&t);
}

/* ---------------------------------------------------------------- writer: hostile tables */

/* A field with its strings inline: criterion runs each parameter in a new process image. */
struct field_desc {
	char name[8], type[32];
	uint32_t offset, size;
	uint8_t is_signed, data_loc;
};

static struct sct_event_field field_of(const struct field_desc *d)
{
	return (struct sct_event_field){ d->name, d->type, d->offset, d->size, d->is_signed,
					 d->data_loc };
}

struct table_case {
	char what[32];
	uint32_t nevents, nfields;
	uint32_t name_len;        /* of the event's name */
	struct field_desc f;      /* the one field repeated nfields times */
	int err;
};

static char long_name[SCT_MAX_NAME + 2];

ParameterizedTestParameters(format_sample, writer_bounds_event_tables)
{
	static struct table_case cases[] = {
		{ "fits", SCT_MAX_EVENTS, 1, SCT_MAX_NAME, { "f", "int", 0, 4, 1, 0 }, 0 },
		{ "fields fit", 1, SCT_MAX_EVENT_FIELDS, 3, { "f", "u64", 65528, 8, 0, 0 }, 0 },
		{ "too many events", SCT_MAX_EVENTS + 1, 0, 3, { "", "", 0, 0, 0, 0 }, -SCT_E_LIMIT },
		{ "too many fields", 1, SCT_MAX_EVENT_FIELDS + 1, 3, { "f", "int", 0, 4, 1, 0 },
		  -SCT_E_LIMIT },
		{ "event name too long", 1, 0, SCT_MAX_NAME + 1, { "", "", 0, 0, 0, 0 }, -SCT_E_LIMIT },
		{ "empty event name", 1, 0, 0, { "", "", 0, 0, 0, 0 }, -EINVAL },
		{ "field past 64 KiB", 1, 1, 3, { "f", "u64", 65529, 8, 0, 0 }, -EINVAL },
		{ "offset wraps", 1, 1, 3, { "f", "int", UINT32_MAX, 4, 0, 0 }, -EINVAL },
		{ "data_loc of 8 bytes", 1, 1, 3, { "f", "__data_loc char[]", 0, 8, 0, 1 }, -EINVAL },
		{ "data_loc 3", 1, 1, 3, { "f", "int", 0, 4, 0, 3 }, -EINVAL },
		{ "signed 2", 1, 1, 3, { "f", "int", 0, 4, 2, 0 }, -EINVAL },
		{ "empty field name", 1, 1, 3, { "", "int", 0, 4, 0, 0 }, -EINVAL },
	};

	return cr_make_param_array(struct table_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct table_case *c, format_sample, writer_bounds_event_tables)
{
	struct sct_event_field *fields = calloc(c->nfields + 1, sizeof(*fields));
	struct sct_event_desc *ev = calloc(c->nevents, sizeof(*ev));
	const struct sct_writer_opts opts = { .no_fsync = true };
	struct sct_header_info info;
	struct sct_writer *w;
	int err = 0, fd = memfd_create("table", 0);

	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[c->name_len] = '\0';
	long_name[1] = ':';
	for (uint32_t k = 0; k < c->nfields; k++)
		fields[k] = field_of(&c->f);
	for (uint32_t i = 0; i < c->nevents; i++)
		ev[i] = (struct sct_event_desc){ c->name_len ? long_name : "", fields, c->nfields };
	info = sample_info(ev, c->nevents);
	w = sct_writer_open_fd(fd, &info, &opts, &err);
	if (c->err) {
		cr_assert_null(w, "%s", c->what);
		cr_assert_eq(err, c->err, "%s: %s", c->what, sct_strerror(err));
	} else {
		cr_assert_not_null(w, "%s: %s", c->what, sct_strerror(err));
		cr_assert_eq(sct_writer_close(w), 0);
	}
	free(ev);
	free(fields);
}

/* ---------------------------------------------------------------- reader: hostile tables */

static void put(cbor_item_t *map, const char *k, cbor_item_t *v)
{
	cbor_map_add(map, (struct cbor_pair){ .key = cbor_move(cbor_build_string(k)),
					      .value = cbor_move(v) });
}

static cbor_item_t *field_item(const char *name, const char *type, uint64_t off, uint64_t size,
			       uint64_t sign, uint64_t loc, size_t nitems)
{
	cbor_item_t *a = cbor_new_definite_array(nitems);
	uint64_t nums[] = { off, size, sign, loc };

	cbor_array_push(a, cbor_move(cbor_build_string(name)));
	if (nitems > 1)
		cbor_array_push(a, cbor_move(cbor_build_string(type)));
	for (size_t i = 2; i < nitems && i < 6; i++)
		cbor_array_push(a, cbor_move(cbor_build_uint64(nums[i - 2])));
	return a;
}

static cbor_item_t *event_item(const char *name, size_t nfields, cbor_item_t *field)
{
	cbor_item_t *m = cbor_new_definite_map(2), *fa = cbor_new_definite_array(nfields);

	for (size_t k = 0; k < nfields; k++)
		cbor_array_push(fa, field);
	put(m, "name", cbor_build_string(name));
	put(m, "fields", fa);
	return m;
}

/* A session whose HEADER is {"format": [1, minor], "events": events}; returns nevents read. */
static uint32_t read_events(uint32_t minor, cbor_item_t *events)
{
	cbor_item_t *h = cbor_new_definite_map(2), *fmt = cbor_new_definite_array(2);
	unsigned char *buf = NULL;
	size_t size = 0, len;
	struct sct_record rec;
	struct sct_reader *r;
	struct craft c;
	uint32_t n;
	int err = 0;

	cbor_array_push(fmt, cbor_move(cbor_build_uint8(1)));
	cbor_array_push(fmt, cbor_move(cbor_build_uint32(minor)));
	put(h, "format", fmt);
	put(h, "events", events);
	len = cbor_serialize_alloc(h, &buf, &size);
	cr_assert(len > 0);
	craft_init(&c);
	craft_label(&c);
	craft_frame(&c, 1, buf, len);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert_not_null(r);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SESSION);
	n = sct_session_nevents(sct_reader_session(r));
	sct_reader_close(r);
	craft_free(&c);
	free(buf);
	cbor_decref(&h);
	return n;
}

static cbor_item_t *one_event(cbor_item_t *field)
{
	cbor_item_t *a = cbor_new_definite_array(1);

	cbor_array_push(a, cbor_move(event_item("g:n", 1, field)));
	cbor_decref(&field);
	return a;
}

Test(format_sample, reader_keeps_a_valid_table)
{
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 4, 1, 0, 6))), 1);
	/* further items of a field are ignored */
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 4, 1, 0, 7))), 1);
	cr_assert_eq(read_events(1, one_event(field_item("f", "u64", 65528, 8, 0, 0, 6))), 1);
}

Test(format_sample, reader_drops_hostile_tables_whole)
{
	cbor_item_t *many = cbor_new_definite_array(SCT_MAX_EVENTS + 1);
	cbor_item_t *f = field_item("f", "int", 0, 4, 1, 0, 6);
	cbor_item_t *mixed = cbor_new_definite_array(2);
	char name[SCT_MAX_NAME + 2];

	for (uint32_t i = 0; i <= SCT_MAX_EVENTS; i++)
		cbor_array_push(many, cbor_move(event_item("g:n", 0, NULL)));
	cr_assert_eq(read_events(1, many), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 65535, 2, 0, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", UINT64_MAX, 2, 0, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, UINT64_MAX, 0, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 4, 0, 3, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 2, 0, 1, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 4, 2, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("", "int", 0, 4, 0, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", "int", 0, 4, 0, 0, 5))), 0);
	memset(name, 'x', sizeof(name) - 1);
	name[SCT_MAX_NAME + 1] = '\0';
	cr_assert_eq(read_events(1, one_event(field_item(name, "int", 0, 4, 0, 0, 6))), 0);
	cr_assert_eq(read_events(1, one_event(field_item("f", name, 0, 4, 0, 0, 6))), 0);
	/* too many fields in one event */
	{
		cbor_item_t *a = cbor_new_definite_array(1);

		cbor_array_push(a, cbor_move(event_item("g:n", SCT_MAX_EVENT_FIELDS + 1, f)));
		cr_assert_eq(read_events(1, a), 0);
	}
	/* one bad event drops the good one before it: indexes never shift */
	cbor_array_push(mixed, cbor_move(event_item("g:good", 1, f)));
	cbor_array_push(mixed, cbor_move(event_item("", 1, f)));
	cr_assert_eq(read_events(1, mixed), 0);
	cbor_decref(&f);
	/* not an array at all */
	cr_assert_eq(read_events(1, cbor_build_string("events")), 0);
}

Test(format_sample, events_of_a_1_0_header_are_ignored)
{
	cr_assert_eq(read_events(0, one_event(field_item("f", "int", 0, 4, 1, 0, 6))), 0);
}

/* ---------------------------------------------------------------- decoding fields */

struct field_case {
	char what[32];
	struct field_desc f;
	uint32_t kind;
	int64_t value;        /* INT */
	char str[8];          /* STRING: expected bytes */
	uint32_t elem, n;     /* ARRAY */
};

/*
 * A 24-byte payload: two __data_loc words (one in range, one 1 byte too long), a negative
 * int, "abc\0" text, a rel_loc to the text, and 0xff filler.
 */
static const uint8_t payload[24] = {
	0x10, 0x00, 0x04, 0x00,   /*  0: data_loc: offset 16, length 4 ("abc\0") */
	0x10, 0x00, 0x09, 0x00,   /*  4: data_loc: offset 16, length 9: past the end */
	0xfe, 0xff, 0xff, 0xff,   /*  8: -2 as int */
	0x00, 0x00, 0x03, 0x00,   /* 12: rel_loc: 0 bytes after itself (16), length 3 */
	'a', 'b', 'c', 0,         /* 16 */
	0xff, 0xff, 0xff, 0xff,   /* 20 */
};

ParameterizedTestParameters(format_sample, fields_decode_inside_the_payload)
{
	static struct field_case cases[] = {
		{ "data_loc string", { "s", "__data_loc char[]", 0, 4, 1, 1 }, SCT_SAMPLE_STRING,
		  0, "abc", 0, 0 },
		{ "data_loc past the end", { "s", "__data_loc char[]", 4, 4, 1, 1 }, SCT_SAMPLE_BAD,
		  0, "", 0, 0 },
		{ "data_loc word past the end", { "s", "__data_loc char[]", 22, 4, 1, 1 },
		  SCT_SAMPLE_BAD, 0, "", 0, 0 },
		{ "rel_loc string", { "s", "__rel_loc char[]", 12, 4, 0, 2 }, SCT_SAMPLE_STRING,
		  0, "abc", 0, 0 },
		{ "data_loc bytes", { "b", "__data_loc u8[]", 0, 4, 0, 1 }, SCT_SAMPLE_ARRAY,
		  0, "", 1, 4 },
		{ "signed int", { "i", "int", 8, 4, 1, 0 }, SCT_SAMPLE_INT, -2, "", 0, 0 },
		{ "unsigned int", { "u", "unsigned int", 8, 4, 0, 0 }, SCT_SAMPLE_INT,
		  0xfffffffe, "", 0, 0 },
		{ "signed short", { "s", "short", 20, 2, 1, 0 }, SCT_SAMPLE_INT, -1, "", 0, 0 },
		{ "u64", { "x", "u64", 16, 8, 0, 0 }, SCT_SAMPLE_INT,
		  (int64_t)0xffffffff00636261ull, "", 0, 0 },
		{ "field past the end", { "x", "u64", 17, 8, 0, 0 }, SCT_SAMPLE_BAD, 0, "", 0, 0 },
		{ "offset far past the end", { "x", "int", 60000, 4, 1, 0 }, SCT_SAMPLE_BAD,
		  0, "", 0, 0 },
		{ "char array", { "c", "char comm[8]", 16, 8, 1, 0 }, SCT_SAMPLE_STRING,
		  0, "abc", 0, 0 },
		{ "char array without NUL", { "c", "char x[3]", 16, 3, 1, 0 }, SCT_SAMPLE_STRING,
		  0, "abc", 0, 0 },
		{ "unsigned char array", { "m", "unsigned char addr[4]", 16, 4, 0, 0 },
		  SCT_SAMPLE_ARRAY, 0, "", 1, 4 },
		{ "int array", { "a", "int args[2]", 8, 8, 1, 0 }, SCT_SAMPLE_ARRAY, 0, "", 4, 2 },
		{ "odd size", { "o", "u8 odd[3]", 16, 3, 0, 0 }, SCT_SAMPLE_ARRAY, 0, "", 1, 3 },
		{ "odd integer", { "o", "__u24", 16, 3, 0, 0 }, SCT_SAMPLE_ARRAY, 0, "", 1, 3 },
	};

	return cr_make_param_array(struct field_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct field_case *c, format_sample, fields_decode_inside_the_payload)
{
	const struct sct_bytes p = { payload, sizeof(payload) };
	const struct sct_event_field f = field_of(&c->f);
	struct sct_sample_value v;

	cr_assert_eq(sct_sample_field(&f, p, &v), c->kind, "%s", c->what);
	cr_assert_eq(v.kind, c->kind);
	switch (c->kind) {
	case SCT_SAMPLE_INT:
		cr_assert_eq(v.i, c->value, "%s: %lld", c->what, (long long)v.i);
		break;
	case SCT_SAMPLE_STRING:
		cr_assert_eq(v.bytes.len, strlen(c->str), "%s", c->what);
		cr_assert(!memcmp(v.bytes.ptr, c->str, v.bytes.len));
		break;
	case SCT_SAMPLE_ARRAY:
		cr_assert_eq(v.elem, c->elem, "%s", c->what);
		cr_assert_eq(v.bytes.len / v.elem, c->n, "%s", c->what);
		cr_assert(v.bytes.ptr >= payload && v.bytes.ptr + v.bytes.len <= payload + 24);
		break;
	default:
		break;
	}
}

Test(format_sample, array_elements_take_the_field_sign)
{
	const struct sct_event_field f = { "a", "int args[2]", 8, 8, 1, 0 };
	const struct sct_event_field u = { "a", "unsigned int args[2]", 8, 8, 0, 0 };
	struct sct_sample_value v;

	cr_assert_eq(sct_sample_field(&f, (struct sct_bytes){ payload, 24 }, &v), SCT_SAMPLE_ARRAY);
	cr_assert_eq((int64_t)sct_sample_elem(&v, 0), -2);
	cr_assert_eq(sct_sample_elem(&v, 1), 0x30000);
	cr_assert_eq(sct_sample_field(&u, (struct sct_bytes){ payload, 24 }, &v), SCT_SAMPLE_ARRAY);
	cr_assert_eq(sct_sample_elem(&v, 0), 0xfffffffe);
}

Test(format_sample, empty_payload_decodes_nothing)
{
	const struct sct_event_field f = { "x", "int", 0, 4, 1, 0 };
	const struct sct_event_field z = { "z", "char e[0]", 0, 0, 1, 0 };
	struct sct_sample_value v;

	cr_assert_eq(sct_sample_field(&f, (struct sct_bytes){ NULL, 0 }, &v), SCT_SAMPLE_BAD);
	cr_assert_eq(sct_sample_field(&z, (struct sct_bytes){ NULL, 0 }, &v), SCT_SAMPLE_ARRAY);
	cr_assert_eq(v.bytes.len, 0);
}

/* ---------------------------------------------------------------- SAMPLEs by session version */

/* One block of two type-9 records (SAMPLE columns) after a HEADER of version 1.minor. */
static void craft_samples(struct craft *c, uint32_t minor)
{
	static const uint64_t t[] = { 1000, 1100 }, pid[] = { 7, 8 }, ev[] = { 0, 5 };
	static const struct sct_bytes pl[] = { { (const uint8_t *)"ab", 2 }, { NULL, 0 } };
	static const struct craft_col cols[] = {
		{ SCT_KIND_TIME, t, NULL }, { SCT_KIND_UINT, pid, NULL }, { SCT_KIND_UINT, pid, NULL },
		{ SCT_KIND_UINT, ev, NULL }, { SCT_KIND_UINT, ev, NULL }, { SCT_KIND_UINT, ev, NULL },
		{ SCT_KIND_BYTES, NULL, pl },
	};
	static const struct craft_run run = { SCT_REC_SAMPLE, 2 };
	static const struct craft_section sec = { SCT_REC_SAMPLE, 2, 7, cols, NULL, 0, 0 };
	struct craft body;

	craft_init(&body);
	craft_header_body(&body, 1, minor, NULL, 0);
	craft_label(c);
	craft_frame(c, 1, body.p, body.len);
	craft_free(&body);
	craft_init(&body);
	craft_block_body(&body, 1000, 1100, &run, 1, &sec, 1);
	craft_frame(c, 2, body.p, body.len);
	craft_free(&body);
}

/* Without an event table, or past it, a sample is still delivered: it names no event. */
Test(format_sample, samples_past_the_event_table_are_delivered)
{
	struct sct_record rec;
	struct sct_reader *r;
	struct craft c;
	int err = 0;

	craft_init(&c);
	craft_samples(&c, 1);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(sct_session_nevents(sct_reader_session(r)), 0);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, SCT_REC_SAMPLE);
	cr_assert_eq(rec.sample.pid, 7);
	cr_assert_eq(rec.sample.payload.len, 2);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.sample.event, 5);
	cr_assert_null(sct_session_event(sct_reader_session(r), rec.sample.event));
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_SAMPLE], 2);
	sct_reader_close(r);
	craft_free(&c);
}

/*
 * The same records in a 1.0 session, whose HEADER schema lists a type 9 as a newer type:
 * readable by that schema, never typed as SAMPLE (1.0 has no SAMPLE). Without a schema entry
 * they would be unknown (spec/examples/unknown_types).
 */
Test(format_sample, type_9_of_a_1_0_session_is_not_a_sample)
{
	struct sct_record rec;
	struct sct_reader *r;
	struct sct_value v;
	struct craft c;
	int err = 0;

	craft_init(&c);
	craft_samples(&c, 0);
	r = sct_reader_open_mem(c.p, c.len, &err);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(rec.type, 9);
	cr_assert_eq(rec.sample.pid, 0, "a 1.0 type 9 is not filled as a SAMPLE");
	cr_assert_eq(sct_reader_field(r, 1, &v), 0);
	cr_assert_eq(v.u, 7);
	cr_assert_eq(sct_reader_next(r, &rec), 1);
	cr_assert_eq(sct_reader_next(r, &rec), 0);
	cr_assert_eq(sct_reader_stats(r)->records[SCT_REC_SAMPLE], 0);
	cr_assert_eq(sct_reader_stats(r)->unknown_records, 0);
	sct_reader_close(r);
	craft_free(&c);
}
