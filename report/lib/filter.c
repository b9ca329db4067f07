// SPDX-License-Identifier: BSD-2-Clause
/* Record filters shared by every mode: pid, tid, comm, cgroup, syscall, failed, duration, time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroup_table.h"
#include "filter.h"
#include "names.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

int filter_parse_ids(uint32_t *ids, uint32_t *n, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v > UINT32_MAX || (*end && *end != ',') || *p == '-')
			return -EINVAL;
		if (*n >= FILTER_MAX_IDS)
			return -E2BIG;
		ids[(*n)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return *n ? 0 : -EINVAL;
}

int filter_add_item(char ***list, uint32_t *n, const char *item)
{
	char **tmp = realloc(*list, (*n + 1) * sizeof(*tmp));
	char *copy;

	if (!tmp)
		return -ENOMEM;
	*list = tmp;
	copy = strdup(item);
	if (!copy)
		return -ENOMEM;
	(*list)[(*n)++] = copy;
	return 0;
}

int filter_parse_list(char ***list, uint32_t *n, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = filter_add_item(list, n, tok);
	free(copy);
	if (err)
		return err;
	return *n ? 0 : -EINVAL;
}

/* "syscall_N" or "compat:syscall_N": how a report names a number its session's table lacks. */
static bool filter_numbered_name(const char *name)
{
	const char *p = !strncmp(name, "compat:", 7) ? name + 7 : name;

	if (strncmp(p, "syscall_", 8) || !p[8])
		return false;
	return strspn(p + 8, "0123456789") == strlen(p + 8);
}

/* A syscall number: decimal digits that fit 32 bits. */
static bool filter_number(const char *item, uint32_t *nr)
{
	char *end;
	unsigned long v;

	if (*item < '0' || *item > '9')
		return false;
	errno = 0;
	v = strtoul(item, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*nr = (uint32_t)v;
	return true;
}

int filter_parse_syscalls(struct filter *f, const char *arg, const char **bad)
{
	uint32_t first = f->nsyscalls, nr;
	uint8_t *known;
	int err;

	/* strace's trace=!SET: the first list given may exclude, everything else passes */
	if (!f->nsyscalls && arg[0] == '!' && arg[1] != '\0' && arg[1] != ',') {
		f->syscalls_invert = true;
		arg++;
	}
	err = filter_parse_list(&f->syscalls, &f->nsyscalls, arg);
	if (err)
		return err;
	known = realloc(f->syscall_known, f->nsyscalls);
	if (!known)
		return -ENOMEM;
	f->syscall_known = known;
	for (uint32_t i = first; i < f->nsyscalls; i++) {
		const char *item = f->syscalls[i][0] == '!' ? f->syscalls[i] + 1 : f->syscalls[i];

		*bad = f->syscalls[i];
		if (!*item)
			return -EINVAL;
		if (item[0] == '%' && sct_syscall_class_match(item, "") < 0)
			return -ENOENT;
		known[i] = item[0] == '%' || filter_number(item, &nr) || filter_numbered_name(item);
	}
	return 0;
}

/* Whether s's tables name a syscall so: "open" in either ABI's table, "compat:open" in the compat one. */
static bool filter_session_names(const struct sct_session *s, const char *name)
{
	if (!strncmp(name, "compat:", 7))
		return sct_session_syscall_nr(s, name + 7, SCT_ABI_COMPAT) >= 0;
	return sct_session_syscall_nr(s, name, SCT_ABI_NATIVE) >= 0 ||
	       sct_session_syscall_nr(s, name, SCT_ABI_COMPAT) >= 0;
}

void filter_note_session(struct filter *f, const struct sct_session *s)
{
	f->tables_seen = true;
	for (uint32_t i = 0; i < f->nsyscalls; i++)
		if (!f->syscall_known[i] && filter_session_names(s, f->syscalls[i] +
								  (f->syscalls[i][0] == '!')))
			f->syscall_known[i] = 1;
}

const char *filter_unknown_syscall(const struct filter *f, uint32_t *from)
{
	for (; f->tables_seen && *from < f->nsyscalls; (*from)++)
		if (!f->syscall_known[*from]) {
			const char *item = f->syscalls[(*from)++];

			return item + (item[0] == '!');
		}
	return NULL;
}

/* "12", "1.5", "0.000002" times scale, exactly (no floating point); *end after the digits. */
static int filter_decimal(const char *s, uint64_t scale, uint64_t *out, const char **end)
{
	uint64_t whole = 0, frac = 0, div = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		if (!(*p == '.' && p[1] >= '0' && p[1] <= '9'))
			return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (div < 1000000000000000000ull) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				div *= 10;
			}
	if (whole && whole > UINT64_MAX / scale)
		return -ERANGE;
	*out = whole * scale + (uint64_t)((unsigned __int128)frac * scale / div);
	*end = p;
	return 0;
}

int filter_parse_duration(const char *arg, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t scale; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "", 1000000000 },
	};
	const char *end;
	uint64_t v;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (filter_decimal(arg, units[i].scale, &v, &end))
			return -EINVAL;
		if (!strcmp(end, units[i].unit)) {
			*ns = v;
			return 0;
		}
	}
	return -EINVAL;
}

/* "YYYY-MM-DD[ T]HH:MM:SS[.frac]" in the local time zone, or "@EPOCH[.frac]". */
static int filter_parse_wall(const char *arg, int64_t *v)
{
	struct tm tm;
	const char *end;
	uint64_t frac = 0, epoch;
	time_t secs;

	if (arg[0] == '@') {
		if (filter_decimal(arg + 1, 1000000000, &epoch, &end) || *end || epoch > INT64_MAX)
			return -EINVAL;
		*v = (int64_t)epoch;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(arg, "%Y-%m-%d", &tm);
	if (!end || (*end != ' ' && *end != 'T'))
		return -EINVAL;
	end = strptime(end + 1, "%H:%M:%S", &tm);
	if (!end)
		return -EINVAL;
	if (*end == '.' && (filter_decimal(end, 1000000000, &frac, &end) || frac >= 1000000000))
		return -EINVAL;
	if (*end)
		return -EINVAL;
	tm.tm_isdst = -1;
	secs = mktime(&tm);
	if (secs == (time_t)-1 || secs < 0)
		return -EINVAL;
	*v = (int64_t)secs * 1000000000 + (int64_t)frac;
	return 0;
}

int filter_parse_time(const char *arg, int64_t *v, bool *wall)
{
	const char *p = arg, *end;
	uint64_t ns;
	bool neg = false;

	if (strchr(arg, ':') || arg[0] == '@') {
		*wall = true;
		return filter_parse_wall(arg, v);
	}
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (filter_decimal(p, 1000000000, &ns, &end) || *end || ns > INT64_MAX)
		return -EINVAL;
	*wall = false;
	*v = neg ? -(int64_t)ns : (int64_t)ns;
	return 0;
}

static bool filter_has_id(const uint32_t *ids, uint32_t n, uint32_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == v)
			return true;
	return false;
}

/* Path prefix on component boundaries ("/a" matches "/a" and "/a/b", not "/ab"), or an id. */
static bool filter_cgroup_match(const struct ctx *c, const struct cgroup *cg)
{
	const struct filter *f = c->filter;
	const char *path = cg->path ? strtab_get(c->strs, cg->path - 1) : NULL;

	for (uint32_t i = 0; i < f->ncgroups; i++) {
		const char *want = f->cgroups[i];
		size_t n = strlen(want);
		char *end;
		unsigned long long id = strtoull(want, &end, 10);

		if (*want != '/' && !*end && id == cg->id)
			return true;
		if (!path || *want != '/')
			continue;
		while (n > 1 && want[n - 1] == '/')
			n--;
		if (!strncmp(path, want, n) && (path[n] == 0 || path[n] == '/' || n == 1))
			return true;
	}
	return false;
}

static bool filter_cgroup(struct ctx *c, struct cgroups *cgs, uint32_t sess, uint64_t id)
{
	struct cgroup *cg = cgroups_get(cgs, sess, id);

	if (!cg)
		return false;
	if (!cg->pass)
		cg->pass = filter_cgroup_match(c, cg) ? 1 : 2;
	return cg->pass == 1;
}

/*
 * One -S item against a call: a %class (by the call's name, either ABI), a number (of the
 * native ABI, as sct-record's -S and strace take them), or a name: "compat:open" names the
 * compat ABI's, "open" either ABI's.
 */
static bool filter_item(const char *item, const char *name, const char *bare, uint32_t nr, uint32_t abi)
{
	uint32_t want;

	if (item[0] == '%')
		return sct_syscall_class_match(item, bare) == 1;
	if (filter_number(item, &want))
		return !abi && want == nr;
	return !strcmp(item, name) || !strcmp(item, bare);
}

/* The items in order: each one that matches passes the call, or drops it when it starts with '!'. */
static bool filter_name(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi)
{
	const struct filter *f = c->filter;
	const char *name = strtab_get(c->strs, input_syscall_name(c, lv, nr, abi));
	const char *bare = !strncmp(name, "compat:", 7) ? name + 7 : name;
	bool pass = false;

	for (uint32_t i = 0; i < f->nsyscalls; i++) {
		bool drop = f->syscalls[i][0] == '!';

		if (filter_item(f->syscalls[i] + drop, name, bare, nr, abi))
			pass = !drop;
	}
	return pass != f->syscalls_invert;
}

static bool filter_syscall_name(struct ctx *c, struct live *lv, uint32_t nr, uint32_t abi)
{
	uint8_t *pass;

	abi = abi ? 1 : 0;
	if (nr >= NR_CACHE)
		return filter_name(c, lv, nr, abi);
	pass = &lv->nr_pass[abi][nr];
	if (!*pass)
		*pass = filter_name(c, lv, nr, abi) ? 1 : 2;
	return *pass == 1;
}

bool filter_window(const struct filter *f, const struct sess *s, uint64_t t)
{
	int64_t rel = sess_rel(s, t);
	int64_t wall = (int64_t)sess_wall(s, t);

	if (f->has_since && (f->since_wall ? wall : rel) < f->since)
		return false;
	if (f->has_until && (f->until_wall ? wall : rel) > f->until)
		return false;
	return true;
}

static bool filter_comm(const struct ctx *c, const struct task *t, uint64_t time_ns)
{
	const struct filter *f = c->filter;
	const char *comm = strtab_get(c->strs, tasks_comm(c->tasks, t, time_ns));

	for (uint32_t i = 0; i < f->ncomms; i++)
		if (!strcmp(f->comms[i], comm))
			return true;
	return false;
}

/* The task-level filters; the task t goes by its name at name_ns. */
static bool filter_task_named(struct ctx *c, struct cgroups *cgs, const struct sess *s, uint32_t pid, uint32_t tid,
			      uint64_t cgroup_id, uint64_t time_ns, uint64_t name_ns, const struct task *t)
{
	const struct filter *f = c->filter;

	if (f->npids && !filter_has_id(f->pids, f->npids, pid))
		return false;
	if (f->ntids && !filter_has_id(f->tids, f->ntids, tid))
		return false;
	if ((f->has_since || f->has_until) && !filter_window(f, s, time_ns))
		return false;
	if (f->ncgroups && !filter_cgroup(c, cgs, s->id, cgroup_id))
		return false;
	if (f->ncomms && !filter_comm(c, t, name_ns))
		return false;
	return true;
}

bool filter_task(struct ctx *c, struct cgroups *cgs, const struct sess *s, uint32_t pid, uint32_t tid,
		 uint64_t cgroup_id, uint64_t time_ns, const struct task *t)
{
	return filter_task_named(c, cgs, s, pid, tid, cgroup_id, time_ns, time_ns, t);
}

bool filter_sample(struct ctx *c, struct live *lv, const struct sct_sample *sm)
{
	const struct filter *f = c->filter;

	if (filter_any_syscall_only(f))
		return false;
	return filter_task(c, lv->cgroups, &lv->s, sm->pid, sm->tid, sm->cgroup_id, sm->time_ns,
			   f->need_task ? tasks_lookup(lv->tasks, lv->s.id, sm->pid, sm->tid, sm->time_ns) : NULL);
}

/* A captured path that starts with one of the --path prefixes. */
static bool path_matches(const struct filter *f, uint32_t flags, struct sct_bytes path)
{
	if (!(flags & SCT_PATH_CAPTURED))
		return false;
	for (uint32_t i = 0; i < f->npaths; i++) {
		size_t n = strlen(f->paths[i]);

		if (n <= path.len && !memcmp(path.ptr, f->paths[i], n))
			return true;
	}
	return false;
}

/* --path: the call's first or second captured path (rename's source or target) matches. */
static bool filter_path(const struct filter *f, const struct sct_syscall *sc)
{
	return path_matches(f, sc->path_flags, sc->path) || path_matches(f, sc->path2_flags, sc->path2);
}

bool filter_syscall(struct ctx *c, struct live *lv, const struct sct_syscall *sc)
{
	const struct filter *f = c->filter;

	if (f->failed && !names_is_error(sc->ret))
		return false;
	if (f->npaths && !filter_path(f, sc))
		return false;
	if (sc->duration_ns < f->min_duration)
		return false;
	if (f->nsyscalls && !filter_syscall_name(c, lv, sc->nr, sc->abi))
		return false;
	return filter_task_named(c, lv->cgroups, &lv->s, sc->pid, sc->tid, sc->cgroup_id, sc->time_ns,
				 sct_syscall_name_ns(sc),
				 f->need_task ? tasks_lookup(lv->tasks, lv->s.id, sc->pid, sc->tid, sc->time_ns) : NULL);
}

/* Where t lies against the window: -1 before it, 0 in it, 1 after it. */
static int filter_window_side(const struct filter *f, const struct sess *s, uint64_t t)
{
	int64_t rel = sess_rel(s, t);
	int64_t wall = (int64_t)sess_wall(s, t);

	if (f->has_since && (f->since_wall ? wall : rel) < f->since)
		return -1;
	if (f->has_until && (f->until_wall ? wall : rel) > f->until)
		return 1;
	return 0;
}

uint64_t filter_totals_task_ns(const struct sct_totals *t)
{
	return t->since_ns < t->time_ns ? t->since_ns + 1 : t->time_ns;
}

int filter_totals(struct ctx *c, struct live *lv, const struct sct_totals *t)
{
	const struct filter *f = c->filter;
	int from, to;

	if (f->nsyscalls && !filter_syscall_name(c, lv, t->nr, t->abi))
		return 0;
	if (f->npids && !filter_has_id(f->pids, f->npids, t->pid))
		return 0;
	if (f->ncgroups && !filter_cgroup(c, lv->cgroups, lv->s.id, t->cgroup_id))
		return 0;
	if (f->ncomms && !filter_comm(c, tasks_lookup(lv->tasks, lv->s.id, t->pid, t->pid,
						      filter_totals_task_ns(t)), t->time_ns))
		return 0;
	if (!f->has_since && !f->has_until)
		return 1;
	from = filter_window_side(f, &lv->s, filter_totals_task_ns(t));
	to = filter_window_side(f, &lv->s, t->time_ns);
	if (from > 0 || to < 0)
		return 0;
	return from || to ? 2 : 1;
}

bool filter_active(const struct filter *f)
{
	return f->npids || f->ntids || f->ncomms || f->ncgroups || f->nsyscalls || f->npaths ||
	       f->failed || f->min_duration || f->has_since || f->has_until;
}

bool filter_any_syscall_only(const struct filter *f)
{
	return f->failed || f->min_duration || f->nsyscalls || f->npaths;
}

static void filter_free_list(char **list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void filter_free(struct filter *f)
{
	filter_free_list(f->comms, f->ncomms);
	filter_free_list(f->cgroups, f->ncgroups);
	filter_free_list(f->syscalls, f->nsyscalls);
	free(f->syscall_known);
	filter_free_list(f->paths, f->npaths);
	memset(f, 0, sizeof(*f));
}
