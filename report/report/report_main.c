// SPDX-License-Identifier: BSD-2-Clause
/* sct-report: summaries, timeline, process tree and histograms of sct traces. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "debug_dir.h"
#include "exit_status.h"
#include "filter.h"
#include "jobs.h"
#include "footer.h"
#include "html.h"
#include "names.h"
#include "outbuf.h"
#include "report.h"
#include "sessions.h"
#include "socket_table.h"
#include "stacks.h"
#include "tasks.h"
#include "trace_input.h"

static const char usage_text[] =
"Usage: sct-report [OPTIONS] FILE...\n"
"Reads sct traces (FILE '-' = stdin; several files, e.g. one per host, are read together)\n"
"and prints a per-syscall latency summary (default), a timeline, a process tree,\n"
"histograms or call stacks. The footer always lists lost events, warnings, unfinished\n"
"syscalls, skipped or truncated bytes and sessions without a trailer.\n"
"\n"
"Modes:\n"
"  (default)              summary: calls, errors, %time, total, avg, min, max, p50/p90/p99\n"
"  -T, --timeline         one line per record in time order (relative and wall-clock time)\n"
"      --tree             process tree: comm, exec'd file, lifetime, exit status, syscalls\n"
"  -H, --hist             log2 latency histogram per group\n"
"      --stacks           the calls recorded in detail grouped by syscall and call stack\n"
"                         (sct-record --stack): calls, errors, total, p99, then the\n"
"                         frames innermost first, 'name+0xOFF (module)'; with --sort,\n"
"                         --top and the filters\n"
"Summary and histogram options:\n"
"  -b, --by KEYS          group by syscall|process|thread|cgroup|comm|host|path|peer,\n"
"                         comma-combined (default syscall; e.g. --by cgroup,syscall;\n"
"                         path: the calls whose file name sct-record --args captured,\n"
"                         by their first path (rename: its source); peer: by the\n"
"                         socket address a call gave or got, as captured (format 1.7):\n"
"                         127.0.0.1:8080, [::1]:443, unix:/run/x.sock, unix:@name,\n"
"                         netlink:ROUTE; calls without one under -);\n"
"                         or by event with\n"
"                         any of process|thread|cgroup|comm|host: a count of tracepoint\n"
"                         samples (sct-record -e) per group instead of syscall latencies\n"
"  -s, --sort KEY         time (default), calls, errors, avg, max, p99, name\n"
"  -n, --top N            only the first N groups\n"
"  -e, --errors           errno breakdown of failures under each group\n"
"      --html FILE        the summary also as one self-contained page (no network, no\n"
"                         script): the table, the groups as bars, a latency heat map\n"
"                         (time x latency) per syscall, the histograms and the footer;\n"
"                         FILE is replaced (never through a symlink), created 0600\n"
"Filters (every mode):\n"
"  -p, --pid PID[,PID]    thread groups        -t, --tid TID[,TID]   threads\n"
"  -c, --comm NAME[,..]   task command name    -g, --cgroup ID|PATH[,..]  id or path prefix\n"
"  -S, --syscall LIST                          -f, --failed      failed calls only (-errno)\n"
"                         names of the traces' syscall tables (compat:NAME: the compat ABI's\n"
"                         only; syscall_N as reports show unnamed ones), numbers, strace's\n"
"                         classes (%file %process %net %network %signal %ipc %desc %memory\n"
"                         %creds %stat %lstat %fstat %statfs %fstatfs %clock %pure); !ITEM\n"
"                         drops what ITEM names, a LIST starting with ! is all syscalls but\n"
"                         the rest (strace's -e trace=!SET); a name no input's table has,\n"
"                         or an unknown class, is a usage error\n"
"  -P, --path PREFIX      calls with a captured file name (either of rename's two) that\n"
"                         starts with PREFIX (repeatable; traces of sct-record --args)\n"
"  -d, --min-duration D   e.g. 500us, 2ms, 1.5s (bare number: seconds)\n"
"      --since T, --until T   seconds from the session start (the HEADER's clock anchor),\n"
"                         or wall-clock 'YYYY-MM-DD HH:MM:SS[.frac]' (local time) or @EPOCH\n"
"Live (one FILE: a pipe, or a file with --follow):\n"
"      --follow           read FILE as it grows, and on into the next file of its\n"
"                         recording when sct-record rotates (FILE.NNNNNN.sct); ends on\n"
"                         SIGINT or SIGTERM, with the footer\n"
"      --interval N       the summary of each N seconds (e.g. 1, 500ms) of the trace's\n"
"                         clock from the session start: a block per interval (a\n"
"                         refreshed screen on a terminal), with --by, --sort, --top, -e\n"
"      --flush-interval S the recorder's --flush-interval (default 1): -T on a pipe or\n"
"                         with --follow, and --interval, print a call once no earlier\n"
"                         one can come, at most 2 x S after it returned\n"
"Stacks (traces of sct-record --stack):\n"
"      --no-stacks        the timeline without each call's frames under it\n"
"      --debug-dir DIR    symbols of the modules that the trace does not name, from\n"
"                         DIR/.build-id/xx/rest.debug or DIR/BASENAME with the module's\n"
"                         build id (--stacks and the timeline)\n"
"      --no-demangle      C++ symbol names as the trace holds them (_ZN3foo3barEv), not\n"
"                         demangled (foo::bar())\n"
"Other:\n"
"  -j, --jobs N           threads that decode each file's blocks (default: the online\n"
"                         CPUs, at most 32; 1: none); the output is the same. Live inputs\n"
"                         (-T on a pipe, --follow) are read in one thread\n"
"      --strict           exit 3 when any input is damaged or incomplete\n"
"  -h, --help             this text\n"
"\n"
"Percentiles are nearest-rank from a log-linear histogram: exact below 1024 ns, otherwise\n"
"at most 0.2% below the exact value. Times are in microseconds unless marked (s).\n"
"Filtered recordings (sct-record -S/--failed/... or --summary-only): the summary, --by\n"
"groups, percentiles and -H come from their TOTALS records, which count every call; the\n"
"timeline and -e's errno breakdown show the calls recorded in detail; --by thread|path,\n"
"--tid, --failed, --min-duration and --path need each call's record and use those; a\n"
"TOTALS record is in --since/--until by its flush interval, counted whole at the edges.\n"
"The footer says which filter each session was recorded with and how its totals were used.\n"
"Exit status: 0 ok; 1 an input was unreadable, not an sct file, of a newer major version,\n"
"or output failed (reading stops; a closed pipe exits 1 quietly); 2 usage error; 3 damaged\n"
"input with --strict, or nothing readable in it.\n"
"\n"
"Examples:\n"
"  sct-report trace.sct\n"
"  sct-report --by cgroup,syscall --sort calls --top 20 -e trace.sct\n"
"  sct-report --timeline --pid 1234 --since 2.5 --until 3 trace.sct\n"
"  sct-report --tree trace.sct;  sct-report --hist --syscall read,write trace.sct\n"
"  sct-report --by host web1.sct web2.sct;  sct-record -o - -p 42 | sct-report -\n"
"  sct-report --by event,process trace.sct\n"
"  sct-report --by path,syscall --path /etc/ args.sct\n"
"  sct-report --by peer,syscall captures.sct\n"
"  sct-report -S '%file,!openat' trace.sct;  sct-report -S '!%memory' --by comm trace.sct\n"
"  sct-record --flush-interval 0.1 -o - -p 42 | sct-report -T --flush-interval 0.1 -\n"
"  sct-report --interval 1 --by comm --top 10 --follow rec.000001.sct\n"
"  sct-report --html report.html --top 20 trace.sct\n"
"  sct-report --stacks --sort calls --top 10 -S openat --debug-dir ./dbg stack.sct\n";

enum { OPT_TREE = 256, OPT_SINCE, OPT_UNTIL, OPT_STRICT, OPT_FOLLOW, OPT_INTERVAL, OPT_FLUSH, OPT_HTML, OPT_STACKS,
       OPT_NO_STACKS, OPT_DEBUG_DIR, OPT_NO_DEMANGLE };

static const struct option long_opts[] = {
	{ "timeline", no_argument, NULL, 'T' },    { "tree", no_argument, NULL, OPT_TREE },
	{ "hist", no_argument, NULL, 'H' },        { "by", required_argument, NULL, 'b' },
	{ "sort", required_argument, NULL, 's' },  { "top", required_argument, NULL, 'n' },
	{ "errors", no_argument, NULL, 'e' },      { "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' }, { "comm", required_argument, NULL, 'c' },
	{ "cgroup", required_argument, NULL, 'g' }, { "syscall", required_argument, NULL, 'S' },
	{ "failed", no_argument, NULL, 'f' },      { "min-duration", required_argument, NULL, 'd' },
	{ "since", required_argument, NULL, OPT_SINCE }, { "until", required_argument, NULL, OPT_UNTIL },
	{ "strict", no_argument, NULL, OPT_STRICT }, { "help", no_argument, NULL, 'h' },
	{ "path", required_argument, NULL, 'P' },  { "html", required_argument, NULL, OPT_HTML },
	{ "follow", no_argument, NULL, OPT_FOLLOW }, { "interval", required_argument, NULL, OPT_INTERVAL },
	{ "flush-interval", required_argument, NULL, OPT_FLUSH },
	{ "stacks", no_argument, NULL, OPT_STACKS }, { "no-stacks", no_argument, NULL, OPT_NO_STACKS },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR }, { "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "jobs", required_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int usage_hint(void)
{
	fputs("Usage: sct-report [OPTIONS] FILE...  (sct-report --help for more)\n", stderr);
	return -EINVAL;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "sct-report: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return usage_hint();
}

static int parse_by(struct env *env, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	env->nby = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		uint32_t k;

		for (k = 0; k < BY_NKEYS && strcmp(tok, summary_by_name(k)); k++)
			;
		if (k == BY_NKEYS || env->nby == BY_MAX)
			err = usage_error("invalid --by key: '%s'", tok);
		else
			env->by[env->nby++] = k;
	}
	free(copy);
	if (!err && !env->nby)
		err = usage_error("invalid --by: '%s'", arg);
	return err;
}

static bool by_event(const struct env *env)
{
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_EVENT)
			return true;
	return false;
}

/* --by event counts samples: what only makes sense for syscalls is refused. */
static int check_by_event(const struct env *env)
{
	const struct filter *f = &env->filter;

	if (!by_event(env))
		return 0;
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_SYSCALL || env->by[k] == BY_PATH || env->by[k] == BY_PEER)
			return usage_error("--by event counts samples: it does not combine with %s",
					   summary_by_name(env->by[k]));
	if (env->mode == MODE_HIST || env->mode == MODE_TREE)
		return usage_error("%s", "--by event counts samples: no histogram or tree of them");
	if (env->errors || f->nsyscalls || f->npaths || f->failed || f->min_duration)
		return usage_error("%s", "--by event counts samples: --errors, --syscall, --path, --failed "
				   "and --min-duration apply to syscalls only");
	return 0;
}

static int parse_sort(struct env *env, const char *arg)
{
	static const char *const names[] = { "time", "calls", "errors", "avg", "max", "p99", "name" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			env->sort = (enum sort_key)i;
			return 0;
		}
	return usage_error("invalid --sort key: '%s'", arg);
}

static int parse_u64(const char *arg, uint64_t *v, const char *what)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || *arg == '-')
		return usage_error(what, arg);
	return 0;
}

static int parse_syscalls(struct filter *f, const char *arg)
{
	const char *bad = NULL;
	int err = filter_parse_syscalls(f, arg, &bad);

	if (err == -ENOENT) {
		fprintf(stderr, "sct-report: unknown syscall class '%s'; the classes are", bad);
		for (const char *const *n = sct_syscall_class_names(); *n; n++)
			fprintf(stderr, " %s", *n);
		fputc('\n', stderr);
		return usage_hint();
	}
	return err ? usage_error("invalid --syscall: '%s'", arg) : 0;
}

/*
 * After reading: a --syscall name that no HEADER's table names is a typo or another
 * architecture's call, never a filter that quietly matches nothing. EXIT_USAGE if so.
 */
static int check_syscalls(const struct filter *f)
{
	const char *name;
	uint32_t from = 0;
	bool any = false;

	while ((name = filter_unknown_syscall(f, &from))) {
		fprintf(stderr, "sct-report: unknown syscall '%s': no syscall table of the inputs names it\n", name);
		any = true;
	}
	if (any)
		usage_hint();
	return any ? EXIT_USAGE : 0;
}

static int parse_opt(struct env *env, int c, const char *arg)
{
	struct filter *f = &env->filter;

	switch (c) {
	case 'T': env->mode = MODE_TIMELINE; return 0;
	case OPT_TREE: env->mode = MODE_TREE; return 0;
	case OPT_STACKS: env->mode = MODE_STACKS; return 0;
	case OPT_NO_STACKS: env->no_stacks = true; return 0;
	case OPT_NO_DEMANGLE: env->no_demangle = true; return 0;
	case OPT_DEBUG_DIR:
		if (debug_dir_check(arg)) {
			fprintf(stderr, "sct-report: --debug-dir '%s': %s\n", arg, strerror(-debug_dir_check(arg)));
			return usage_hint();
		}
		env->debug_dir_path = arg;
		return 0;
	case 'H': env->mode = MODE_HIST; return 0;
	case 'b': return parse_by(env, arg);
	case 's': return parse_sort(env, arg);
	case 'n': return parse_u64(arg, &env->top, "invalid --top: '%s'");
	case 'j':
		if (jobs_parse(arg, &env->jobs))
			return usage_error("invalid --jobs: '%s' (1 to 32 expected)", arg);
		return 0;
	case 'e': env->errors = true; return 0;
	case 'f': f->failed = true; return 0;
	case OPT_STRICT: env->strict = true; return 0;
	case OPT_FOLLOW: env->follow = true; return 0;
	case OPT_INTERVAL:
		if (filter_parse_duration(arg, &env->interval_ns) || !env->interval_ns)
			return usage_error("invalid --interval: '%s' (a duration above 0 expected)", arg);
		return 0;
	case OPT_FLUSH:
		if (filter_parse_duration(arg, &env->flush_ns) || !env->flush_ns)
			return usage_error("invalid --flush-interval: '%s' (a duration above 0 expected)", arg);
		return 0;
	case OPT_HTML:
		if (!*arg)
			return usage_error("invalid --html: '%s' (a file name expected)", arg);
		env->html = arg;
		return 0;
	case 'p':
		return filter_parse_ids(f->pids, &f->npids, arg) ? usage_error("invalid pid list: '%s'", arg) : 0;
	case 't':
		return filter_parse_ids(f->tids, &f->ntids, arg) ? usage_error("invalid tid list: '%s'", arg) : 0;
	case 'c':
		f->need_task = true;
		return filter_parse_list(&f->comms, &f->ncomms, arg) ? usage_error("invalid --comm: '%s'", arg) : 0;
	case 'g':
		return filter_parse_list(&f->cgroups, &f->ncgroups, arg) ? usage_error("invalid --cgroup: '%s'", arg) : 0;
	case 'S':
		return parse_syscalls(f, arg);
	case 'P':
		if (!*arg)
			return usage_error("invalid --path: '%s' (a prefix expected)", arg);
		return filter_add_item(&f->paths, &f->npaths, arg);
	case 'd':
		return filter_parse_duration(arg, &f->min_duration) ? usage_error("invalid duration: '%s'", arg) : 0;
	case OPT_SINCE:
		f->has_since = true;
		return filter_parse_time(arg, &f->since, &f->since_wall) ? usage_error("invalid time: '%s'", arg) : 0;
	case OPT_UNTIL:
		f->has_until = true;
		return filter_parse_time(arg, &f->until, &f->until_wall) ? usage_error("invalid time: '%s'", arg) : 0;
	default:
		return usage_error("%s", "unknown option");
	}
}

/*
 * Live reading: --interval, --follow, and -T on one input that is not a regular file (a
 * pipe, a FIFO); one input only, as a live stream has no end to read the others after.
 */
static int check_live(struct env *env)
{
	struct stat st;
	const char *f = env->files[0];
	bool stream = env->nfiles == 1 && (!strcmp(f, "-") || (!stat(f, &st) && !S_ISREG(st.st_mode)));

	if ((env->follow || env->interval_ns) && env->nfiles != 1)
		return usage_error("%s", "--follow and --interval read one FILE");
	if (env->interval_ns && env->mode == MODE_STACKS)
		return usage_error("%s", "--interval gives summaries: not with --stacks");
	if (env->interval_ns && env->mode != MODE_SUMMARY)
		return usage_error("%s", "--interval gives summaries: not with --timeline, --tree or --hist");
	if (env->follow && env->mode != MODE_TIMELINE && !env->interval_ns)
		return usage_error("%s", "--follow goes with --timeline or --interval");
	if (env->follow && !strcmp(f, "-"))
		return usage_error("%s", "--follow reads a file: stdin is read as it comes anyway");
	env->live = env->interval_ns || env->follow || (env->mode == MODE_TIMELINE && stream);
	return 0;
}

static int parse_args(struct env *env, int argc, char **argv)
{
	int c, err;

	env->by[0] = BY_SYSCALL;
	env->nby = 1;
	env->flush_ns = 1000000000u; /* sct-record's default */
	env->jobs = jobs_default();
	argv[0] = (char *)"sct-report"; /* getopt's messages name the tool, not the path it ran by */
	while ((c = getopt_long(argc, argv, "THb:s:n:ep:t:c:g:S:P:fd:hj:", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			exit(0);
		}
		if (c == '?') /* getopt said which option and why */
			return usage_hint();
		err = parse_opt(env, c, optarg);
		if (err)
			return err;
	}
	if (optind >= argc)
		return usage_error("%s", "no input FILE (use '-' for stdin)");
	env->files = argv + optind;
	env->nfiles = argc - optind;
	if (env->html && env->mode == MODE_STACKS)
		return usage_error("%s", "--html is a page of the summary: no --stacks with it");
	if (env->html && env->mode != MODE_SUMMARY)
		return usage_error("%s", "--html is a page of the summary: no --timeline, --tree or --hist with it");
	if (env->mode == MODE_STACKS && by_event(env))
		return usage_error("%s", "--stacks groups syscalls: not with --by event");
	if (env->html && by_event(env))
		return usage_error("%s", "--html shows syscall latencies: not with --by event");
	err = check_live(env);
	return err ? err : check_by_event(env);
}

/* Whether the output names sessions after they are over: the tree, "comm pid@session" labels. */
static bool needs_sessions(const struct env *env)
{
	if (env->mode == MODE_TREE)
		return true;
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_PROCESS || env->by[k] == BY_THREAD)
			return true;
	return false;
}

/* --by peer names a netlink peer by its socket's protocol: the sockets each process made. */
static bool needs_sockets(const struct env *env)
{
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_PEER)
			return true;
	return false;
}

static bool needs_tasks(const struct env *env)
{
	if (env->mode == MODE_TREE || env->mode == MODE_TIMELINE || env->filter.need_task)
		return true;
	for (uint32_t k = 0; k < env->nby; k++)
		if (env->by[k] == BY_PROCESS || env->by[k] == BY_THREAD || env->by[k] == BY_COMM)
			return true;
	return false;
}

/* A filtered session's TOTALS record into the summary and the page's heat maps. */
static int add_totals(struct ctx *c, struct summary *sm, struct heat *heat, struct live *lv,
		      const struct sct_totals *t)
{
	int n = select_add_totals(c, sm, lv, t);

	if (n <= 0 || !heat)
		return n;
	return html_heat_add_totals(heat, input_syscall_name(c, lv, t->nr, t->abi), sess_wall(&lv->s, t->time_ns), t);
}

/* A SYSCALL record into the summary, the tree or the page's heat maps. */
static int aggregate_syscall(struct ctx *c, const struct env *env, struct summary *sm, struct heat *heat,
			     struct live *lv, const struct sct_syscall *sc, const char *refused)
{
	int n;

	if (summary_follow_sockets(c, lv, sc))
		return -ENOMEM;
	if (!refused && lv->s.filtered)
		return sc->unfinished ? 0 : select_add_detail(c, env, sm, lv, sc);
	if (sc->unfinished == NAMES_IN_FLIGHT || !select_pass(c, env, lv, sc))
		return 0;
	if (env->mode == MODE_TREE) {
		struct task *t = tasks_lookup(lv->tasks, lv->s.id, sc->pid, sc->tid, sc->time_ns);

		if (!t)
			return -ENOMEM;
		t->nsyscalls++;
		return 0;
	}
	n = summary_add(sm, lv, sc);
	if (!n && heat && !sc->unfinished)
		n = html_heat_add(heat, input_syscall_name(c, lv, sc->nr, sc->abi), sess_wall(&lv->s, sc->time_ns),
				  sc->duration_ns);
	return n;
}

/* A run of SYSCALL records, each as aggregate_syscall() takes it (the fields they have). */
static int aggregate_batch(struct ctx *c, const struct env *env, struct summary *sm, struct heat *heat,
			   struct input *in, const struct sct_syscall_batch *b, const char *refused)
{
	struct live *lv = in->cur;
	struct sct_syscall sc;
	int n;

	/* every call counts, as its record says */
	if (!heat && env->mode != MODE_TREE && !env->filter_active && !lv->s.filtered)
		return summary_add_batch(sm, lv, in, b);
	input_batch_fill(in);
	memset(&sc, 0, sizeof(sc));
	for (uint32_t i = 0; i < b->n; i++) {
		input_batch_row(b, i, &sc);
		n = aggregate_syscall(c, env, sm, heat, lv, &sc, refused);
		if (n < 0)
			return n;
	}
	return 0;
}

/* Summary, histogram and tree: inputs one after the other. */
static int run_aggregate(struct ctx *c, const struct env *env, struct summary *sm, struct heat *heat)
{
	bool samples = by_event(env);
	/* calls in runs of columns, unless something reads what only a whole record holds */
	bool batches = !samples && select_base_fields(env);
	const char *refused = select_refused(env);
	struct sct_syscall_batch batch = { 0 };
	struct sct_record rec;

	for (int i = 0; i < env->nfiles; i++) {
		struct input in;
		int n, err = input_open(c, &in, env->files[i]);

		if (err) {
			input_error(c, NULL, env->files[i], err);
			continue;
		}
		if (batches && sm)
			input_set_batch_lazy(&in, summary_batch_lazy(sm));
		while ((n = batches ? input_next_batch(c, &in, &rec, &batch) : input_next(c, &in, &rec)) > 0) {
			if (batch.n) {
				n = aggregate_batch(c, env, sm, heat, &in, &batch, refused);
			} else if (rec.type == SCT_REC_SAMPLE) {
				if (samples && filter_sample(c, in.cur, &rec.sample))
					n = summary_add_sample(sm, in.cur, &rec.sample);
			} else if (samples && (rec.type == SCT_REC_SYSCALL || rec.type == SCT_REC_TOTALS)) {
				continue;
			} else if (rec.type == SCT_REC_TOTALS) {
				if (refused && in.cur->s.filtered)
					footer_note_details_only(c->footer, refused);
				else if (in.cur->s.filtered)
					n = add_totals(c, sm, heat, in.cur, &rec.totals);
			} else if (rec.type == SCT_REC_SYSCALL) {
				n = aggregate_syscall(c, env, sm, heat, in.cur, &rec.syscall, refused);
			} else {
				n = input_track(c, &in, &rec);
			}
			if (n < 0)
				break;
		}
		if (n == -ENOMEM) {
			input_close(c, &in);
			return n;
		}
		if (n < 0)
			input_error(c, &in, env->files[i], n);
		input_close(c, &in);
	}
	return 0;
}

/* --stacks: inputs one after the other, each file's stack records into tables of its own. */
static int run_stacks(struct ctx *c, const struct env *env, struct stack_report *sr, struct stacks *st)
{
	struct sct_record rec;

	for (int i = 0; i < env->nfiles; i++) {
		struct input in;
		int n, err = input_open(c, &in, env->files[i]);

		if (err) {
			input_error(c, NULL, env->files[i], err);
			continue;
		}
		while ((n = input_next(c, &in, &rec)) > 0) {
			const struct sct_syscall *sc = &rec.syscall;

			stacks_session(st, in.cur);
			if (rec.type == SCT_REC_SYSCALL && !sc->unfinished && select_pass(c, env, in.cur, sc))
				n = stack_report_add(sr, st, in.cur, sc);
			else if (rec.type != SCT_REC_SYSCALL)
				n = rec.type >= SCT_REC_STACK && rec.type <= SCT_REC_SYMBOL ? stacks_add(st, &rec) :
				    input_track(c, &in, &rec);
			if (n < 0)
				break;
		}
		if (n == -ENOMEM) {
			input_close(c, &in);
			return n;
		}
		if (n < 0)
			input_error(c, &in, env->files[i], n);
		input_close(c, &in);
	}
	stacks_warn_ignored(c->tool, stacks_ignored(st));
	return 0;
}

static int run_stack_report(struct ctx *c, const struct env *env, struct out *o)
{
	struct stack_report *sr = stack_report_new(c, env);
	struct stacks *st = stacks_new(c->strs, env->debug_dir, !env->no_demangle);
	int err = sr && st ? run_stacks(c, env, sr, st) : -ENOMEM;

	if (!err && c->inputs_read)
		err = check_syscalls(&env->filter);
	if (!err && c->inputs_read)
		err = stack_report_print(sr, o);
	stacks_free(st);
	stack_report_free(sr);
	return err;
}

void report_flush(void *out)
{
	out_flush(out);
}

/* Timeline: all inputs open at once; the one whose last record is oldest is read next. */
static int run_timeline(struct ctx *c, const struct env *env, struct timeline *tl, struct out *o)
{
	struct input *ins = calloc((size_t)env->nfiles, sizeof(*ins));
	uint64_t *last = calloc((size_t)env->nfiles, sizeof(*last));
	bool *open = calloc((size_t)env->nfiles, sizeof(*open));
	struct sct_record rec;
	int err = 0;

	if (!ins || !last || !open) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (int i = 0; i < env->nfiles; i++) {
		int e = env->live ? input_open_live(c, &ins[i], env->files[i], env->follow, env->flush_ns) :
				    input_open(c, &ins[i], env->files[i]);

		ins[i].idle = report_flush;
		ins[i].idle_ctx = o;
		open[i] = !e;
		if (e)
			input_error(c, NULL, env->files[i], e);
	}
	for (;;) {
		int pick = -1, n;

		for (int i = 0; i < env->nfiles; i++)
			if (open[i] && (pick < 0 || last[i] < last[pick]))
				pick = i;
		if (pick < 0 || o->err)
			break;
		n = input_next(c, &ins[pick], &rec);
		if (n > 0 && rec.type == SCT_REC_TOTALS && ins[pick].cur->s.filtered)
			footer_note_summary(c->footer, FOOTER_TIMELINE_DETAILS);
		if (n > 0) {
			if (rec.type <= SCT_REC_MAX) /* a newer type's fields are not in the union */
				last[pick] = sess_wall(&ins[pick].cur->s, rec.syscall.time_ns);
			n = timeline_add(tl, ins[pick].cur, &rec, o);
			if (!n)
				n = input_track(c, &ins[pick], &rec);
			if (n == -ENOMEM) {
				err = n;
				goto cleanup;
			}
			if (n >= 0)
				continue;
		}
		if (n < 0)
			input_error(c, &ins[pick], env->files[pick], n);
		input_close(c, &ins[pick]);
		open[pick] = false;
	}
	/* lines still in the reorder window are dropped: the command line was wrong */
	err = check_syscalls(&env->filter);
	if (!err)
		err = timeline_finish(tl, o);
cleanup:
	for (int i = 0; ins && i < env->nfiles; i++)
		if (open[i])
			input_close(c, &ins[i]);
	free(ins);
	free(last);
	free(open);
	return err;
}

/* 0, a negative errno, or EXIT_USAGE or EXIT_INPUT after the message it printed. */
static int run(struct ctx *c, const struct env *env, struct out *o)
{
	struct summary *sm = NULL;
	struct timeline *tl = NULL;
	struct heat *heat = NULL;
	int err;

	if (env->mode == MODE_TIMELINE) {
		tl = timeline_new(c, env);
		err = tl ? run_timeline(c, env, tl, o) : -ENOMEM;
		timeline_free(tl);
		return err;
	}
	if (env->mode == MODE_STACKS)
		return run_stack_report(c, env, o);
	if (env->interval_ns) {
		err = interval_run(c, env, o);
		return !err && c->inputs_read ? check_syscalls(&env->filter) : err;
	}
	sm = summary_new(c, env);
	if (env->html)
		heat = html_heat_new();
	err = sm && (heat || !env->html) ? run_aggregate(c, env, sm, heat) : -ENOMEM;
	/* with every input failed, each said why: no table of nothing */
	if (!err && c->inputs_read)
		err = check_syscalls(&env->filter);
	if (!err && c->inputs_read)
		err = env->mode == MODE_SUMMARY ? summary_print(sm, o) :
		      env->mode == MODE_HIST ? hist_print(c, sm, o) : tree_print(c, o);
	if (!err && c->inputs_read && env->html) {
		err = html_write(env->html, c, env, sm, heat);
		if (err) {
			fprintf(stderr, "sct-report: %s: %s%s\n", env->html, strerror(-err),
				err == -ELOOP ? " (a symlink: not followed)" :
				err == -EPERM ? " (it belongs to another user: not written)" :
				err == -EMLINK ? " (a file with other hard links: not written)" : "");
			err = EXIT_INPUT;
		}
	}
	html_heat_free(heat);
	summary_free(sm);
	return err;
}

int main(int argc, char **argv)
{
	struct env env = { 0 };
	struct ctx c = { .tool = "sct-report", .filter = &env.filter };
	struct out o;
	int err, status;

	if (parse_args(&env, argc, argv)) {
		filter_free(&env.filter);
		return EXIT_USAGE;
	}
	env.filter_active = filter_active(&env.filter);
	c.track_tasks = needs_tasks(&env);
	c.jobs = env.jobs;
	c.hold_streams = true;
	c.keep_sessions = needs_sessions(&env);
	c.keep_ended = env.mode != MODE_TIMELINE; /* the timeline prints each line as it reads */
	c.footer = footer_new();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error: exit with the documented 1 */
	err = c.footer ? input_tables_new(&c) : -ENOMEM;
	if (!err && needs_sockets(&env) && !(c.sockets = socket_table_new()))
		err = -ENOMEM;
	if (!err && env.debug_dir_path && !(env.debug_dir = debug_dir_new(env.debug_dir_path)))
		err = -ENOMEM;
	if (!err)
		err = out_open(&o, NULL, false, 0);
	if (err) {
		fprintf(stderr, "sct-report: %s\n", sct_strerror(err));
		input_tables_free(&c);
		socket_table_free(c.sockets);
		footer_free(c.footer);
		return EXIT_INPUT;
	}
	err = run(&c, &env, &o);
	if (err == EXIT_USAGE) {
		status = EXIT_USAGE;
	} else if (err == EXIT_INPUT) {
		footer_print(c.footer, c.sessions, c.strs, &o);
		status = EXIT_INPUT;
	} else {
		if (err || c.inputs_read)
			footer_print(c.footer, c.sessions, c.strs, &o);
		status = footer_exit_status(c.footer, "sct-report", env.strict, err);
	}
	if (out_finish(&o, "sct-report", "output"))
		status = EXIT_INPUT;
	footer_free(c.footer);
	filter_free(&env.filter);
	input_tables_free(&c);
	socket_table_free(c.sockets);
	debug_dir_free(env.debug_dir);
	return status;
}
