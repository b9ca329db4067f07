// SPDX-License-Identifier: BSD-2-Clause
/* The HEADER's argument descriptions: limits, encoding and parsing (see syscall_args.h). */
#include "syscall_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_item.h"
#include "records.def"
#include "session.h"

/* Items of one argument's array: name, kind, family. */
#define ARG_ITEMS 3u

static const char *const kind_names[SCT_ARG_NKINDS] = {
	[SCT_ARG_INT] = "int", [SCT_ARG_FD] = "fd", [SCT_ARG_DIRFD] = "dirfd",
	[SCT_ARG_PATH] = "path", [SCT_ARG_FLAGS] = "flags", [SCT_ARG_ENUM] = "enum",
	[SCT_ARG_MODE] = "mode", [SCT_ARG_SIZE] = "size", [SCT_ARG_PTR] = "ptr",
	[SCT_ARG_SOCKADDR] = "sockaddr", [SCT_ARG_ARGV] = "argv", [SCT_ARG_ENVP] = "envp",
	[SCT_ARG_BUF] = "buf", [SCT_ARG_MSGHDR] = "msghdr",
};

const char *sct_arg_kind_name(uint32_t kind)
{
	return kind < SCT_ARG_NKINDS ? kind_names[kind] : "";
}

/* A kind this library does not know reads as "int" (section 5). */
static uint32_t kind_parse(const cbor_item_t *it)
{
	size_t len = item_text_len(it);

	for (uint32_t k = 0; len && k < SCT_ARG_NKINDS; k++)
		if (strlen(kind_names[k]) == len && !memcmp(kind_names[k], cbor_string_handle(it), len))
			return k;
	return SCT_ARG_INT;
}

static size_t text_len(const char *s)
{
	return s ? strlen(s) : 0;
}

/* One ABI's descriptions within the limits; -SCT_E_LIMIT or -EINVAL. */
static int table_check(const struct sct_syscall_args *v, uint32_t n)
{
	if (n > SCT_MAX_SYSCALL_ARGS)
		return -SCT_E_LIMIT;
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_syscall_args *a = &v[i];

		if (a->nargs > SCT_MAX_ARGS)
			return -EINVAL;
		for (uint32_t k = 0; k < a->nargs; k++)
			if (!text_len(a->args[k].name) || text_len(a->args[k].name) > SCT_MAX_NAME ||
			    text_len(a->args[k].family) > SCT_MAX_NAME || a->args[k].kind >= SCT_ARG_NKINDS)
				return -EINVAL;
	}
	return 0;
}

int syscall_args_check(const struct sct_header_info *info)
{
	int err;

	if (!info->syscall_args)
		return 0;
	if (info->args_max < 1 || info->args_max > SCT_MAX_ARGS_STRING)
		return -EINVAL;
	err = table_check(info->syscall_args, info->nsyscall_args);
	return err ? err : table_check(info->compat_syscall_args, info->ncompat_syscall_args);
}

int syscall_captures_check(const struct sct_header_info *info)
{
	const struct sct_header_captures *c = info->captures;

	if (!c)
		return 0;
	if (!info->syscall_args || c->argv_max > SCT_MAX_ARGV || c->argv_bytes > SCT_MAX_STRING ||
	    !c->argv_max != !c->argv_bytes || c->data > SCT_MAX_STRING)
		return -EINVAL;
	return 0;
}

static void table_encode(struct cbuf *b, const struct sct_syscall_args *v, uint32_t n)
{
	cbuf_map(b, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct sct_syscall_args *a = &v[i];

		cbuf_uint(b, a->nr);
		cbuf_array(b, a->nargs);
		for (uint32_t k = 0; k < a->nargs; k++) {
			cbuf_array(b, ARG_ITEMS);
			cbuf_text(b, a->args[k].name);
			cbuf_text(b, sct_arg_kind_name(a->args[k].kind));
			cbuf_text(b, a->args[k].family);
		}
	}
}

/* Format 1.7: "argv" when exec arguments were captured, "data" when call data was. */
static void captures_encode(struct cbuf *b, const struct sct_header_captures *c)
{
	if (c->argv_max) {
		cbuf_text(b, "argv");
		cbuf_map(b, 2);
		cbuf_text(b, "max");
		cbuf_uint(b, c->argv_max);
		cbuf_text(b, "bytes");
		cbuf_uint(b, c->argv_bytes);
	}
	if (c->data) {
		cbuf_text(b, "data");
		cbuf_uint(b, c->data);
	}
}

void syscall_args_encode(struct cbuf *b, const struct sct_header_info *info)
{
	bool compat = info->compat_syscall_args != NULL;
	const struct sct_header_captures *c = info->captures;

	cbuf_map(b, 3 + compat + (c && c->argv_max) + (c && c->data));
	cbuf_text(b, "max");
	cbuf_uint(b, info->args_max);
	cbuf_text(b, "paths");
	cbuf_text(b, info->args_paths ? info->args_paths : "none");
	cbuf_text(b, "native");
	table_encode(b, info->syscall_args, info->nsyscall_args);
	if (compat) {
		cbuf_text(b, "compat");
		table_encode(b, info->compat_syscall_args, info->ncompat_syscall_args);
	}
	if (c)
		captures_encode(b, c);
}

/* By number, then by position in the map: the first of repeated numbers comes first. */
static int args_cmp(const void *a, const void *b)
{
	const struct session_args *x = a, *y = b;

	if (x->a.nr != y->a.nr)
		return x->a.nr < y->a.nr ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* One argument's array into *d (owned strings); 1 if malformed, 0, -ENOMEM. */
static int arg_parse(const cbor_item_t *it, struct sct_arg_desc *d)
{
	cbor_item_t **v;

	if (!cbor_isa_array(it) || cbor_array_size(it) < ARG_ITEMS)
		return 1;
	v = cbor_array_handle(it);
	if (!cbor_isa_string(v[0]) || !cbor_string_length(v[0]) ||
	    cbor_string_length(v[0]) > SCT_MAX_NAME || !cbor_isa_string(v[2]) ||
	    cbor_string_length(v[2]) > SCT_MAX_NAME)
		return 1;
	d->kind = kind_parse(v[1]);
	d->name = item_strdup(v[0]);
	d->family = item_strdup(v[2]);
	return d->name && d->family ? 0 : -ENOMEM;
}

static void entry_free(struct sct_syscall_args *a)
{
	for (uint32_t k = 0; k < SCT_MAX_ARGS; k++) {
		free((char *)a->args[k].name);
		free((char *)a->args[k].family);
	}
	memset(a, 0, sizeof(*a));
}

/* One syscall's entry; 1 if malformed (dropped), 0, -ENOMEM. */
static int entry_parse(const struct cbor_pair *p, struct sct_syscall_args *a)
{
	uint64_t nr;
	size_t n;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	if (item_uint(p->key, &nr) || nr > UINT32_MAX || !cbor_isa_array(p->value) ||
	    cbor_array_size(p->value) > SCT_MAX_ARGS)
		return 1;
	n = cbor_array_size(p->value);
	for (size_t k = 0; !rc && k < n; k++)
		rc = arg_parse(cbor_array_handle(p->value)[k], &a->args[k]);
	if (rc) {
		entry_free(a);
		return rc;
	}
	a->nr = (uint32_t)nr;
	a->nargs = (uint32_t)n;
	return 0;
}

/*
 * The entries of a "native" or "compat" map into ABI abi's table, sorted by number, the first
 * of repeated numbers kept.
 */
static int entries_parse(const cbor_item_t *map, struct sct_session *s, uint32_t abi)
{
	size_t n = map && cbor_isa_map(map) ? cbor_map_size(map) : 0;
	struct sct_syscall_args *out;
	struct session_args *v;
	uint32_t got = 0, kept = 0;
	int rc = 0;

	if (n > SCT_MAX_SYSCALL_ARGS)
		n = SCT_MAX_SYSCALL_ARGS;
	v = calloc(n ? n : 1, sizeof(*v));
	out = s->sargs[abi] = calloc(n ? n : 1, sizeof(*out));
	if (!v || !out) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; rc >= 0 && i < n; i++) {
		rc = entry_parse(&cbor_map_handle(map)[i], &v[got].a);
		v[got].pos = (uint32_t)i;
		got += rc == 0;
	}
	qsort(v, got, sizeof(*v), args_cmp);
	for (uint32_t i = 0; i < got; i++) {
		if (rc >= 0 && (!kept || v[i].a.nr != out[kept - 1].nr))
			out[kept++] = v[i].a;
		else
			entry_free(&v[i].a);
	}
	s->nsargs[abi] = kept;
	free(v);
	return rc < 0 ? rc : 0;
}

/* A uint in 1 .. max, else 0 (unknown), as a bad "max" reads. */
static uint32_t bounded_uint(const cbor_item_t *it, uint32_t max)
{
	uint64_t v;

	return item_uint(it, &v) || v > max ? 0 : (uint32_t)v;
}

/* Format 1.7: "argv" (a map) and "data"; SYSCALL has the captured fields whatever they hold. */
static void captures_parse(const cbor_item_t *it, struct sct_session *s)
{
	const cbor_item_t *argv = item_map_get(it, "argv");

	s->has_captures = true;
	if (argv && cbor_isa_map(argv)) {
		s->captures.argv_max = bounded_uint(item_map_get(argv, "max"), SCT_MAX_ARGV);
		s->captures.argv_bytes = bounded_uint(item_map_get(argv, "bytes"), SCT_MAX_STRING);
	}
	s->captures.data = bounded_uint(item_map_get(it, "data"), SCT_MAX_STRING);
}

int syscall_args_parse(const cbor_item_t *it, struct sct_session *s)
{
	uint64_t max;
	int rc;

	if (!it || !cbor_isa_map(it))
		return 0;
	s->has_args = true;
	s->args_max = item_uint(item_map_get(it, "max"), &max) || max > SCT_MAX_ARGS_STRING ? 0 : (uint32_t)max;
	s->args_paths = item_strdup(item_map_get(it, "paths"));
	if (!s->args_paths)
		return -ENOMEM;
	rc = entries_parse(item_map_get(it, "native"), s, SCT_ABI_NATIVE);
	/* a 1.3 session has no compat table, whatever its HEADER holds */
	if (!rc && s->minor >= RECORD_SYSCALL_PATH2_MINOR)
		rc = entries_parse(item_map_get(it, "compat"), s, SCT_ABI_COMPAT);
	if (!rc && s->minor >= RECORD_CAPTURES_MINOR)
		captures_parse(it, s);
	return rc;
}

void syscall_args_free(struct sct_session *s)
{
	for (uint32_t abi = 0; abi < SESSION_ARGS_ABIS; abi++) {
		for (uint32_t i = 0; i < s->nsargs[abi]; i++)
			entry_free(&s->sargs[abi][i]);
		free(s->sargs[abi]);
		s->sargs[abi] = NULL;
		s->nsargs[abi] = 0;
	}
	free(s->args_paths);
	s->args_paths = NULL;
}

bool sct_session_has_args(const struct sct_session *s)
{
	return s->has_args;
}

static const struct sct_syscall_args *table_find(const struct sct_session *s, uint32_t abi, uint32_t nr)
{
	const struct sct_syscall_args *v = s->sargs[abi];
	uint32_t lo = 0, hi = s->nsargs[abi];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].nr == nr)
			return &v[mid];
		if (v[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct sct_syscall_args *sct_session_syscall_args(const struct sct_session *s, uint32_t nr)
{
	return table_find(s, SCT_ABI_NATIVE, nr);
}

uint32_t sct_session_nsyscall_args(const struct sct_session *s)
{
	return s->nsargs[SCT_ABI_NATIVE];
}

const struct sct_syscall_args *sct_session_syscall_args_at(const struct sct_session *s, uint32_t i)
{
	return i < s->nsargs[SCT_ABI_NATIVE] ? &s->sargs[SCT_ABI_NATIVE][i] : NULL;
}

const struct sct_syscall_args *sct_session_compat_syscall_args(const struct sct_session *s, uint32_t nr)
{
	return table_find(s, SCT_ABI_COMPAT, nr);
}

uint32_t sct_session_ncompat_syscall_args(const struct sct_session *s)
{
	return s->nsargs[SCT_ABI_COMPAT];
}

const struct sct_syscall_args *sct_session_compat_syscall_args_at(const struct sct_session *s, uint32_t i)
{
	return i < s->nsargs[SCT_ABI_COMPAT] ? &s->sargs[SCT_ABI_COMPAT][i] : NULL;
}

uint32_t sct_session_args_max(const struct sct_session *s)
{
	return s->args_max;
}

const char *sct_session_args_paths(const struct sct_session *s)
{
	return s->args_paths ? s->args_paths : "";
}

const struct sct_header_captures *sct_session_captures(const struct sct_session *s)
{
	return s->has_captures ? &s->captures : NULL;
}
