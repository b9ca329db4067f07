// SPDX-License-Identifier: BSD-2-Clause
/*
 * Property: the reader survives any input. No crash, no sanitizer report, no hang, no
 * allocation past the harness's cap (make fuzz-run sets -malloc_limit_mb), and every
 * diagnostic and value it hands out is sane: ranges inside the input, strings readable to
 * their length. Each input is read twice: as given (exercising resync), and with every
 * envelope's checksum repaired (so mutations reach the HEADER and BLOCK decoders) and
 * records of schema-described unknown types delivered.
 */
#include <stdlib.h>
#include <string.h>

#include "frame_fixup.h"
#include "sct.h"

/* Enough to walk every record of any input up to libFuzzer's default -max_len, without letting
 * a block of a million width-0 records per few bytes turn every input into a timeout. */
#define MAX_RECORDS (4u << 20)

static const char *const session_keys[] = {
	"producer", "producer_version", "args", "hostname", "kernel", "arch", "boot_id",
	"clock", "cgroup_hierarchy", "cgroup_mount", "compat_arch", "no such key",
};

/* Reading every byte makes ASan check that the pointer and length describe real memory. */
static volatile uint64_t sink;

static void touch(const uint8_t *p, size_t len)
{
	uint64_t h = 0;

	for (size_t i = 0; i < len; i++)
		h = h * 31 + p[i];
	sink += h;
}

static void touch_str(const char *s)
{
	if (!s)
		abort();
	touch((const uint8_t *)s, strlen(s));
}

struct input {
	size_t len;
};

static void diag_check(void *ctx, const struct sct_diag *d)
{
	const struct input *in = ctx;

	if (d->kind < SCT_DIAG_SKIPPED || d->kind > SCT_DIAG_NO_HEADER)
		abort();
	if (d->offset > in->len || d->length > in->len - d->offset)
		abort();
	touch_str(d->text);
	if (strchr(d->text, '\n'))
		abort();
}

static void session_walk(const struct sct_session *s)
{
	uint64_t clock_ns, realtime_ns;
	uint32_t major, minor;

	if (!s)
		abort();
	sct_session_version(s, &major, &minor);
	sct_session_anchor(s, &clock_ns, &realtime_ns);
	sink += major + minor + clock_ns + realtime_ns + sct_session_index(s);
	for (size_t i = 0; i < sizeof(session_keys) / sizeof(session_keys[0]); i++)
		touch_str(sct_session_get(s, session_keys[i]));
	for (uint32_t abi = 0; abi < 3; abi++) {
		for (uint32_t nr = 0; nr < 8; nr++) {
			const char *name = sct_session_syscall_name(s, nr, abi);

			if (name) {
				touch_str(name);
				if (sct_session_syscall_nr(s, name, abi) < 0)
					abort();
			}
		}
		sink += (uint64_t)sct_session_syscall_nr(s, "write", abi);
	}
	if (sct_session_trailer(s))
		sink += sct_session_trailer(s)->blocks;
}

static void fields_walk(const struct sct_reader *r, uint32_t type)
{
	const struct sct_type_schema *schema = sct_reader_schema(r, type);
	struct sct_value v;

	if (!schema)
		return;
	if (schema->nfields > SCT_MAX_FIELDS)
		abort();
	touch_str(schema->name);
	for (uint32_t i = 0; i < schema->nfields; i++) {
		touch_str(schema->fields[i].name);
		touch_str(schema->fields[i].unit);
		if (sct_reader_field(r, i, &v) < 0)
			continue;
		if (v.kind != schema->fields[i].kind)
			abort();
		if (v.kind == SCT_KIND_BYTES) {
			if (v.b.len > SCT_MAX_STRING)
				abort();
			touch(v.b.ptr, v.b.len);
		} else {
			sink += v.u;
		}
	}
	/* past the last field: must fail, not read out of bounds */
	if (sct_reader_field(r, schema->nfields, &v) >= 0)
		abort();
}

static void record_walk(const struct sct_record *rec)
{
	switch (rec->type) {
	case SCT_REC_TASK:
		touch(rec->task.comm.ptr, rec->task.comm.len);
		break;
	case SCT_REC_EXEC:
		touch(rec->exec.filename.ptr, rec->exec.filename.len);
		touch(rec->exec.comm.ptr, rec->exec.comm.len);
		break;
	case SCT_REC_CGROUP:
		touch(rec->cgroup.path.ptr, rec->cgroup.path.len);
		break;
	case SCT_REC_WARNING:
		touch(rec->warning.text.ptr, rec->warning.text.len);
		break;
	default:
		break;
	}
}

static void read_all(const uint8_t *data, size_t size, bool deliver_unknown)
{
	struct input in = { .len = size };
	const struct sct_reader_stats *st;
	struct sct_record rec;
	struct sct_reader *r;
	uint32_t n = 0;
	int err = 0, rc = 0;

	r = sct_reader_open_mem(data, size, &err);
	if (!r) {
		if (err >= 0)
			abort();
		touch_str(sct_strerror(err));
		return;
	}
	sct_reader_set_diag(r, diag_check, &in);
	sct_reader_set_unknown(r, deliver_unknown);
	while (n++ < MAX_RECORDS && (rc = sct_reader_next(r, &rec)) > 0) {
		if (rec.type == SCT_REC_SESSION)
			session_walk(sct_reader_session(r));
		else
			record_walk(&rec);
		fields_walk(r, rec.type);
	}
	if (n <= MAX_RECORDS && rc < 0) {
		touch_str(sct_strerror(rc));
		touch_str(sct_reader_error(r));
	}
	st = sct_reader_stats(r);
	if (st->skipped_bytes + st->truncated_bytes > size)
		abort();
	sct_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	read_all(data, size, false);
	fixed = malloc(size ? size : 1);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	if (frame_fixup(fixed, size))
		read_all(fixed, size, true);
	free(fixed);
	return 0;
}
