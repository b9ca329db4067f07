// SPDX-License-Identifier: BSD-2-Clause
/*
 * The detail filter of sct-record (-S, --failed, --errno, --min-duration, -c, -P) and
 * --summary-only: parsed from the command line into struct record_filter, which both backends
 * apply (the bpf one in the kernel, the perf one before writing), and its text for the HEADER.
 * A call is recorded in detail when every filter given matches it; every call is counted in
 * the totals whatever the filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "host/syscall_table.h"

static int filter_bad(const char *what, const char *item, size_t len, const char *why)
{
	fprintf(stderr, "sct-record: invalid %s: '%.*s'%s%s\n", what, (int)len, item, why ? ": " : "",
		why ? why : "");
	cli_usage_short();
	return -EINVAL;
}

/* The -S set's size: every native number, then every compat one from compat_base. */
static uint32_t table_end(const struct sct_syscall_name *t, uint32_t n)
{
	uint32_t end = 0;

	for (uint32_t i = 0; i < n; i++)
		if (t[i].nr >= end)
			end = t[i].nr + 1;
	return end;
}

static int filter_set_alloc(struct record_filter *f)
{
	f->compat_base = table_end(syscall_table_native, syscall_table_native_len);
	f->nsyscalls = f->compat_base + table_end(syscall_table_compat, syscall_table_compat_len);
	f->syscalls = calloc(f->nsyscalls, 1);
	return f->syscalls ? 0 : -ENOMEM;
}

/*
 * Every syscall of both tables that item names (a name, or a class with '%'), set to v;
 * returns how many, or -EINVAL for an unknown class.
 */
static int filter_set_names(struct record_filter *f, const char *item, uint8_t v)
{
	const struct sct_syscall_name *t[2] = { syscall_table_native, syscall_table_compat };
	uint32_t n[2] = { syscall_table_native_len, syscall_table_compat_len };
	uint32_t base[2] = { 0, f->compat_base };
	int hits = 0, m;

	for (int k = 0; k < 2; k++)
		for (uint32_t i = 0; i < n[k]; i++) {
			if (item[0] == '%') {
				m = sct_syscall_class_match(item, t[k][i].name);
				if (m < 0)
					return m;
			} else {
				m = !strcmp(item, t[k][i].name);
			}
			if (m) {
				f->syscalls[base[k] + t[k][i].nr] = v;
				hits++;
			}
		}
	return hits;
}

/* One -S item, its '!' taken off: a number (native), a name or a class. */
static int filter_syscall_item(struct record_filter *f, const char *item, size_t len, uint8_t v)
{
	char name[64];
	char *end;
	unsigned long nr;
	int hits;

	if (!len || len >= sizeof(name))
		return filter_bad("syscall", item, len, "a name, a number or a %class expected");
	memcpy(name, item, len);
	name[len] = '\0';
	if (name[0] >= '0' && name[0] <= '9') {
		errno = 0;
		nr = strtoul(name, &end, 10);
		if (errno || *end || nr >= f->compat_base)
			return filter_bad("syscall", item, len, "no such syscall number");
		f->syscalls[nr] = v;
		return 0;
	}
	hits = filter_set_names(f, name, v);
	if (hits == -EINVAL)
		return filter_bad("syscall class", item, len, "see sct-record --help for the classes");
	if (hits <= 0)
		return filter_bad("syscall", item, len, "no such syscall on this architecture");
	return 0;
}

/*
 * -S LIST, as strace's -e trace= and sct-report's -S: names, numbers (native) and classes, in
 * order, each adding to the set or, after '!', taking out of what the items before gave; a
 * list that starts with '!' starts from every syscall.
 */
static int filter_parse_syscalls(struct record_filter *f, const char *list)
{
	int err;

	if (!f->syscalls && filter_set_alloc(f))
		return -ENOMEM;
	memset(f->syscalls, list[0] == '!', f->nsyscalls);
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		bool bang = *p == '!';

		err = filter_syscall_item(f, p + bang, len - bang, !bang);
		if (err)
			return err;
		if (!p[len])
			break;
		p += len + 1;
	}
	f->syscalls_arg = list;
	return 0;
}

/* An error by its name (ENOENT) or number (2). */
static int filter_errno_item(struct record_filter *f, const char *item, size_t len)
{
	const char *name;

	for (int e = 1; e < FILTER_ERRNO_MAX; e++) {
		name = strerrorname_np(e);
		if (name && strlen(name) == len && !strncmp(name, item, len)) {
			f->errnos[e] = 1;
			return 0;
		}
	}
	return filter_bad("errno", item, len, "an error name such as ENOENT expected");
}

static int filter_parse_errnos(struct record_filter *f, const char *list)
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		int err = filter_errno_item(f, p, len);

		if (err)
			return err;
		if (!p[len])
			break;
		p += len + 1;
	}
	f->errno_arg = list;
	return 0;
}

/* "500us", "2ms", "1.5s", "100ns": a unit is required, a bare number could mean any. */
static int filter_parse_duration(struct record_filter *f, const char *arg)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v < 0 || !(arg[0] >= '0' && arg[0] <= '9'))
		return filter_bad("min-duration", arg, strlen(arg), "a duration such as 500us or 2ms expected");
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v * units[i].ns < 1e18) {
			f->min_duration_ns = (uint64_t)(v * units[i].ns + 0.5);
			f->min_duration_arg = arg;
			return 0;
		}
	return filter_bad("min-duration", arg, strlen(arg), "a duration with its unit (ns, us, ms, s) expected");
}

/* -c NAME[,NAME...]: the kernel keeps 15 bytes of a task's name, a longer one never matches. */
static int filter_parse_comms(struct record_filter *f, const char *list)
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");

		if (!len || len >= SCT_COMM_LEN)
			return filter_bad("comm", p, len, "a task name of 1 to 15 bytes expected");
		if (f->ncomms >= FILTER_COMMS)
			return filter_bad("comm", list, strlen(list), "at most 8 names");
		memcpy(f->comms[f->ncomms++], p, len);
		if (!p[len])
			break;
		p += len + 1;
	}
	f->comm_arg = list;
	return 0;
}

static int filter_parse_keys(struct record_filter *f, const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] < '0' || arg[0] > '9' || v < 1 || v > RECORD_TOTALS_MAX_KEYS)
		return filter_bad("totals-keys", arg, strlen(arg), "1..4194304 expected");
	f->totals_keys = v;
	return 0;
}

int filter_option(struct record_filter *f, int opt, const char *arg)
{
	switch (opt) {
	case FILTER_OPT_SYSCALL:
		return filter_parse_syscalls(f, arg);
	case FILTER_OPT_FAILED:
		f->failed = true;
		return 0;
	case FILTER_OPT_ERRNO:
		return filter_parse_errnos(f, arg);
	case FILTER_OPT_MIN_DURATION:
		return filter_parse_duration(f, arg);
	case FILTER_OPT_COMM:
		return filter_parse_comms(f, arg);
	case FILTER_OPT_PATH:
		if (!*arg || strlen(arg) > FILTER_PATH_MAX)
			return filter_bad("path prefix", arg, strlen(arg), "1 to 255 bytes expected");
		f->path = arg;
		return 0;
	case FILTER_OPT_SUMMARY_ONLY:
		f->summary_only = true;
		return 0;
	case FILTER_OPT_TOTALS_KEYS:
		return filter_parse_keys(f, arg);
	}
	return -EINVAL;
}

bool filter_details(const struct record_filter *f)
{
	return f->syscalls_arg || f->failed || f->errno_arg || f->min_duration_arg || f->ncomms || f->path;
}

/* The filter as the user would type it again, for the HEADER. */
static void filter_text(struct record_filter *f)
{
	size_t n = 0, cap = sizeof(f->text);
	const struct { const char *opt, *arg; bool on; } w[] = {
		{ "-S", f->syscalls_arg, f->syscalls_arg },
		{ "--failed", NULL, f->failed },
		{ "--errno", f->errno_arg, f->errno_arg },
		{ "--min-duration", f->min_duration_arg, f->min_duration_arg },
		{ "-c", f->comm_arg, f->comm_arg },
		{ "-P", f->path, f->path },
		{ "--summary-only", NULL, f->summary_only },
	};

	f->text[0] = '\0';
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]) && n < cap; i++)
		if (w[i].on)
			n += snprintf(f->text + n, cap - n, "%s%s%s%s", n ? " " : "", w[i].opt,
				      w[i].arg ? " " : "", w[i].arg ? w[i].arg : "");
}

/* The number of the syscall named name in table t of n entries; UINT32_MAX if none. */
static uint32_t table_number(const struct sct_syscall_name *t, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return t[i].nr;
	return UINT32_MAX;
}

static void filter_noreturn_fill(struct record_filter *f)
{
	static const char *const names[2] = { "exit", "exit_group" };

	for (int i = 0; i < 2; i++) {
		f->noreturn[SCT_ABI_NATIVE][i] = table_number(syscall_table_native, syscall_table_native_len,
							      names[i]);
		f->noreturn[SCT_ABI_COMPAT][i] = table_number(syscall_table_compat, syscall_table_compat_len,
							      names[i]);
	}
}

int filter_check(struct record_filter *f, bool args)
{
	f->on = f->summary_only || filter_details(f);
	if (f->path && !args) {
		fprintf(stderr, "sct-record: -P/--path needs --args (the paths are read with the arguments)\n");
		cli_usage_short();
		return -EINVAL;
	}
	if (f->totals_keys && !f->on) {
		fprintf(stderr, "sct-record: --totals-keys needs a filter or --summary-only (no totals without)\n");
		cli_usage_short();
		return -EINVAL;
	}
	if (f->summary_only && (filter_details(f) || args)) {
		fprintf(stderr, "sct-record: --summary-only writes no per-call records: -S, --failed, "
			"--errno, --min-duration, -c, -P and --args do not apply\n");
		cli_usage_short();
		return -EINVAL;
	}
	filter_text(f);
	filter_noreturn_fill(f);
	return 0;
}

void filter_free(struct record_filter *f)
{
	free(f->syscalls);
	f->syscalls = NULL;
}

bool filter_syscall(const struct record_filter *f, uint32_t nr, uint8_t abi)
{
	uint64_t i = (uint64_t)nr + (abi ? f->compat_base : 0);

	if (!f->syscalls_arg)
		return true;
	if (abi && i >= f->nsyscalls)
		return false;
	return i < (abi ? f->nsyscalls : f->compat_base) && f->syscalls[i];
}

bool filter_comm(const struct record_filter *f, const char *comm)
{
	if (!f->ncomms)
		return true;
	for (uint32_t i = 0; i < f->ncomms; i++)
		if (!strncmp(f->comms[i], comm, SCT_COMM_LEN))
			return true;
	return false;
}

bool filter_result(const struct record_filter *f, int64_t ret, uint64_t duration_ns)
{
	bool failed = ret < 0 && ret >= -4095;

	if (f->failed && !failed)
		return false;
	if (f->errno_arg && !(failed && f->errnos[-ret]))
		return false;
	return duration_ns >= f->min_duration_ns;
}

bool filter_noreturn(const struct record_filter *f, uint32_t nr, uint8_t abi)
{
	const uint32_t *n = f->noreturn[abi ? SCT_ABI_COMPAT : SCT_ABI_NATIVE];

	return nr == n[0] || nr == n[1];
}

/*
 * A call in flight at stop has no result: it gets its unfinished record when the filter asks
 * nothing of the result, the task's name or the path, its syscall is selected, and it has
 * run for --min-duration.
 */
bool filter_unfinished(const struct record_filter *f, uint32_t nr, uint8_t abi, uint64_t duration_ns)
{
	if (!f->on)
		return true;
	if (f->summary_only || f->failed || f->errno_arg || f->ncomms || f->path)
		return false;
	return filter_syscall(f, nr, abi) && duration_ns >= f->min_duration_ns;
}
