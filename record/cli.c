// SPDX-License-Identifier: BSD-2-Clause
/* The command line of sct-record: defaults, parsing with range checks, --help. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "record.h"

#define DEFAULT_OUTPUT "sct.trace"
/*
 * 4 MiB holds ~75 ms of events at 1,000,000 syscalls/s; the consumer is woken past 1/8 of it
 * (~9 ms), so it has ~65 ms to get a CPU. Its cost is paid at start and stop whether used or
 * not (allocate, zero, map twice, unmap): 16 MiB cost ~5 ms more CPU per run here, and a
 * buffer that small stays in cache between producer and consumer (bench-record: -4 ns/record).
 */
#define DEFAULT_RINGBUF (4ull << 20)
#define MAX_RINGBUF (1ull << 30)
#define MAX_TASKS_CAP (1u << 22)
#define DEFAULT_MAX_TASKS_CAP (1u << 20)
#define MIN_FLUSH_SECONDS 0.01
#define MAX_FLUSH_SECONDS 3600.0
#define MAX_DURATION_SECONDS (100.0 * 365 * 24 * 3600)
/* A file must hold its HEADER and TASK records with room to spare. */
#define MIN_ROTATE_SIZE (64ull << 10)
#define MAX_ROTATE_SIZE (1ull << 40)
#define MIN_SNAPSHOT_SIZE (64ull << 10)
#define MAX_SNAPSHOT_SIZE (16ull << 30)
#define MIN_ROTATE_SECONDS 0.1
#define MAX_ROTATE_SECONDS (366.0 * 24 * 3600)
#define MAX_ROTATE_COUNT 1000000u
#define DEFAULT_ARGS_MAX 256
#define DEFAULT_STACK_DEPTH 64

static const char usage_line[] =
	"usage: sct-record [options] (-p PID[,PID...] | -t TID[,TID...] | -G CGROUP | -a) [-- CMD [ARGS...]]\n"
	"       sct-record [options] -- CMD [ARGS...]\n";

/* After the line that says what is wrong: one line, as the other sct tools do. */
void cli_usage_short(void)
{
	fputs("Usage: sct-record [OPTIONS] (-p PID | -t TID | -G CGROUP | -a) [-- CMD [ARGS...]]  "
	      "(sct-record --help for more)\n", stderr);
}

static void usage_full(void)
{
	printf("%s\n"
	       "Record every syscall (entry time, duration, pid, tid, cgroup, number, return value)\n"
	       "and the fork/exec/exit lifecycle of the targets into an sct trace file.\n"
	       "\n"
	       "Targets (at least one, or a command after --):\n"
	       "  -p, --pid PID[,PID...]   processes: all their threads and all their descendants\n"
	       "  -t, --tid TID[,TID...]   threads and what they fork, not their sibling threads\n"
	       "  -G, --cgroup CGROUP      tasks in this cgroup v2 directory or below it; absolute\n"
	       "                           under the cgroup2 mount or relative to it\n"
	       "  -a, --all                every task on the host except the recorder itself\n"
	       "  -- CMD [ARGS...]         run CMD, started only once tracing is live; with -p/-t\n"
	       "                           or alone, CMD is a target; with -G/-a, recording stops\n"
	       "                           when CMD exits. If the recording ends first (--duration,\n"
	       "                           SIGINT, SIGTERM, an error), CMD gets SIGTERM and, 5 s\n"
	       "                           later, SIGKILL; if the recorder dies, the kernel kills\n"
	       "                           CMD. Exit status 127 (126) if CMD cannot be executed\n"
	       "  -u, --user USER          run CMD as USER (a name, a uid, or UID:GID): its uid,\n"
	       "                           gid and groups, no capabilities; environment unchanged;\n"
	       "                           a session of its own, and on a terminal a new\n"
	       "                           pseudo-terminal relayed to it (never the recorder's)\n"
	       "      --keep-command       leave CMD running, untraced, when the recording ends\n"
	       "                           first\n"
	       "\n"
	       "Options:\n"
	       "  -o, --output FILE        trace file, '-' for stdout (default: " DEFAULT_OUTPUT ");\n"
	       "                           created with mode 0600, never through a symbolic link;\n"
	       "                           an existing FIFO or device is written into; nothing\n"
	       "                           another user made there (file, FIFO, hard link) is\n"
	       "                           written into, --force or not, nor at a SIGHUP reopen\n"
	       "  -f, --force              replace FILE if it exists (a new file takes the name)\n"
	       "  -d, --duration SECONDS   stop after this long (fractions allowed)\n"
	       "      --max-tasks N        size of the targets map (default: from pid_max and\n"
	       "                           threads-max, here %u)\n"
	       "      --ringbuf-size BYTES BPF ring buffer size, a power of two, K/M/G suffixes\n"
	       "                           allowed (default: 4M; at least 8K with 4K pages, so\n"
	       "                           that an exec event fits); perf: each CPU's ring\n"
	       "                           is 4 times this (256M for all CPUs at most)\n"
	       "      --flush-interval SECONDS  every event is in the file this long after it\n"
	       "                           happened, 0.01 to 3600 (default: 1)\n"
	       "  -e, --event GROUP:NAME[,...]  also record every sample of these tracepoints\n"
	       "                           (tracefs events/GROUP/NAME) for the same targets, as\n"
	       "                           SAMPLE records with their raw fields; repeatable\n"
	       "      --backend auto|bpf|perf  what records the syscalls: bpf (BPF programs,\n"
	       "                           pairing in the kernel), perf (perf_event_open() on\n"
	       "                           tracepoints, pairing in the recorder; needs CAP_PERFMON\n"
	       "                           or perf_event_paranoid -1, and for -G the perf_event\n"
	       "                           cgroup controller: --probe's perf-cgroup), auto\n"
	       "                           (default: bpf when the kernel and privileges allow\n"
	       "                           it, else perf; says which)\n"
	       "      --args               record every syscall's six raw arguments, and the\n"
	       "                           file names of each call that takes them (openat, stat,\n"
	       "                           execve, unlink, ...; both of rename, link, mount: the\n"
	       "                           kernel's syscall descriptions in tracefs say which\n"
	       "                           argument is a path; ia32 calls too), the socket\n"
	       "                           addresses calls give or get back (connect, accept,\n"
	       "                           ...), exec's arguments and its environment's size,\n"
	       "                           and exit and exit_group at their entry (format 1.7);\n"
	       "                           with --backend perf the arguments only, no memory\n"
	       "      --args-max BYTES     bytes of a path, and of exec's arguments, kept, 1 to\n"
	       "                           4096 (default: %u); longer ones are cut and flagged\n"
	       "      --args-data BYTES    also the first BYTES (1 to 4096) of the data each\n"
	       "                           read, pread64, recvfrom, write, pwrite64 and sendto\n"
	       "                           moved: file contents, messages, passwords and tokens\n"
	       "                           as they passed (off by default; bpf backend)\n"
	       "      --stack[=user|kernel|both]  the call stack of every call recorded in detail\n"
	       "                           (after the filters), by frame pointers: user (default)\n"
	       "                           the caller's return addresses, kernel the kernel's at\n"
	       "                           sys_exit (bpf backend only); symbolized into the file,\n"
	       "                           each distinct stack once per file\n"
	       "      --stack-depth N      frames per stack part, 1 to 127 (default: 64)\n"
	       "\n"
	       "Filters: which calls get a SYSCALL record (every one given must match); every\n"
	       "call of the targets is still counted, per process, cgroup and syscall, in TOTALS\n"
	       "records (calls, errors, durations, latency histogram) each --flush-interval:\n"
	       "  -S, --syscall LIST       syscalls by name, number or strace class (%%file\n"
	       "                           %%process %%net %%network %%signal %%ipc %%desc %%memory\n"
	       "                           %%creds %%stat %%lstat %%fstat %%statfs %%fstatfs %%clock\n"
	       "                           %%pure); !NAME leaves one out (only !s: all but those)\n"
	       "      --failed             calls that returned an error\n"
	       "      --errno LIST         calls that failed with these errors (ENOENT,EACCES)\n"
	       "      --min-duration D     calls that took D or longer (500us, 2ms, 1s)\n"
	       "  -c, --comm NAME[,...]    calls of tasks of these names (at most 8)\n"
	       "  -P, --path PREFIX        with --args: calls with a path that starts with PREFIX\n"
	       "      --summary-only       no SYSCALL records at all: the totals and the\n"
	       "                           lifecycle only (for weeks, with rotation)\n"
	       "      --totals-keys N      room for N (process, cgroup, syscall, duration bucket)\n"
	       "                           keys in the bpf backend's totals, allocated at start\n"
	       "                           (default: 65536, fewer above 16 CPUs; its cache: N\n"
	       "                           per CPU, 4096 at most), for N keys of a flush\n"
	       "                           interval in perf's; a call that finds no room is\n"
	       "                           counted in a WARNING\n"
	       "  The bpf backend filters in the kernel and counts every call; perf filters -S\n"
	       "  in the kernel, so its totals cover the -S syscalls only.\n"
	       "\n"
	       "Long-running capture (-o FILE names the files: rec.sct gives rec.000001.sct, ...):\n"
	       "      --rotate-size SIZE   go on in the next numbered file once this one holds SIZE\n"
	       "                           bytes (K/M/G, at least 64K); each file is complete alone\n"
	       "      --rotate-interval SECONDS  the same once a file covers SECONDS (at least 0.1)\n"
	       "      --rotate-count N     keep the newest N files of this recording, delete older\n"
	       "                           ones (never another file); with --rotate-size/-interval\n"
	       "      --snapshot SIZE      flight recorder: keep the newest SIZE bytes of encoded\n"
	       "                           blocks in memory (K/M/G, at least 64K), write nothing;\n"
	       "                           SIGUSR2 writes them as rec.snapshot-000001.sct, ...\n"
	       "      --snapshot-on-exit   with --snapshot: write a last snapshot at stop\n"
	       "  SIGHUP starts the next file at once (with rotation) or reopens -o (appending a\n"
	       "  session if the file is still there), for logrotate without copytruncate.\n"
	       "\n"
	       "  -q, --quiet              print only errors\n"
	       "      --probe              check what the kernel offers sct-record, one line per\n"
	       "                           feature (yes/no, first Linux version, why), and exit\n"
	       "  -h, --help               this text\n"
	       "  -V, --version            the version\n"
	       "\n"
	       "Recording stops on SIGINT or SIGTERM, after --duration, or when every traced task\n"
	       "has exited; the recorder then drains the ring buffer, writes the trailer, prints\n"
	       "one summary line and exits 0 (127 or 126 when CMD could not be executed).\n"
	       "Once tracing is live it prints on stderr:\n"
	       "  sct-record: tracing N tasks (LOADER, INFLIGHT, OUTPUT)  with bpf\n"
	       "  sct-record: tracing N tasks (perf, WHOSE cgroup ids)    with perf\n"
	       "\n"
	       "bpf needs root, or CAP_BPF and CAP_PERFMON, and a kernel with BTF\n"
	       "(/sys/kernel/btf/vmlinux); --probe lists the rest and the fallbacks. Test only:\n"
	       "SCT_RECORD_FORCE=no-FEATURE[,...] makes features of --probe look missing.\n"
	       "\n"
	       "Examples:\n"
	       "  sct-record -o ls.sct -- ls -l /          trace a command and its children\n"	       "  sct-record -u alice -o m.sct -- make     a command run as alice\n"
	       "  sct-record -p 1234 -d 10 -o app.sct      a running process for 10 s\n"
	       "  sct-record -t 1240,1241 -o t.sct         two threads, not their siblings\n"
	       "  sct-record -G /system.slice/nginx.service -o nginx.sct\n"
	       "  sct-record -a -d 5 -o - | sct-report -   everything, read while recording\n"
	       "  sct-record -a --rotate-size 256M --rotate-count 8 -o /var/log/sct/host.sct\n"
	       "                                           host-wide for days, at most 8 files\n"
	       "  sct-record -a --snapshot 64M -o incident.sct   then: kill -USR2 PID\n"
	       "  sct-record --args -o c.sct -- cat /etc/hostname   with arguments and paths\n"
	       "  sct-record -a -S %%file --failed -o f.sct   failed file calls; totals of all\n"
	       "  sct-record -a --summary-only --rotate-size 64M -o /var/log/sct/sum.sct\n",
	       usage_line, host_default_max_tasks(), DEFAULT_ARGS_MAX);
}

/* A number of len characters with range check; all of them must be the number. */
static int parse_u64_len(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!len || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end != s + len || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_u64_len(s, strlen(s), min, max, out);
}

/* Seconds in [min, max] (and > 0) into nanoseconds. */
static int parse_seconds(const char *s, double min, double max, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v < min || v > max)
		return -EINVAL;
	*ns = (uint64_t)(v * 1e9);
	return *ns ? 0 : -EINVAL;
}

static int parse_size(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B' && shift)
		end++;
	if (*end || v > (max >> shift))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

static int bad_id(const char *what, const char *item, size_t len)
{
	fprintf(stderr, "sct-record: invalid %s: '%.*s'\n", what, (int)len, item);
	cli_usage_short();
	return -EINVAL;
}

/* "1,2,3" -> appended to *list. Every item is checked whole: no empty items, no cuts. */
static int parse_id_list(const char *s, const char *what, uint32_t **list, size_t *n)
{
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, ",");
		uint32_t *tmp;
		uint64_t id;

		/* 1..INT_MAX: a pid_t */
		if (parse_u64_len(p, len, 1, INT_MAX, &id))
			return len ? bad_id(what, p, len) : bad_id(what, s, strlen(s));
		tmp = realloc(*list, (*n + 1) * sizeof(**list));
		if (!tmp)
			return -ENOMEM;
		*list = tmp;
		(*list)[(*n)++] = id;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int read_file_u64(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "re");
	unsigned long long v;
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*out = v;
	return 0;
}

uint32_t host_default_max_tasks(void)
{
	uint64_t pid_max = 0, threads_max = 0, n;

	/* No more tasks can exist than pids or threads; both bound the map. */
	read_file_u64("/proc/sys/kernel/pid_max", &pid_max);
	read_file_u64("/proc/sys/kernel/threads-max", &threads_max);
	n = pid_max ? pid_max : 32768;
	if (threads_max && threads_max < n)
		n = threads_max;
	return n > DEFAULT_MAX_TASKS_CAP ? DEFAULT_MAX_TASKS_CAP : n;
}

void env_init(struct env *env)
{
	memset(env, 0, sizeof(*env));
	env->output = DEFAULT_OUTPUT;
	env->ringbuf_size = DEFAULT_RINGBUF;
	env->flush_interval_ns = NSEC_PER_SEC;
	env->args_max = DEFAULT_ARGS_MAX;
	env->stack_depth = DEFAULT_STACK_DEPTH;
}

void env_free(struct env *env)
{
	for (size_t i = 0; i < env->nevents; i++)
		free(env->events[i]);
	free(env->events);
	env->events = NULL;
	env->nevents = 0;
	free(env->pids);
	free(env->tids);
	free(env->user_name);
	filter_free(&env->filter);
	env->pids = env->tids = NULL;
	env->user_name = NULL;
}

/* -u: a user name, a uid (both looked up for the gid and groups), or UID:GID (no groups). */
static int parse_user(struct env *env, const char *arg)
{
	const char *colon = strchr(arg, ':');
	struct passwd *pw;
	uint64_t uid, gid;

	if (colon) {
		/* (uid_t)-1 means "unchanged" to setresuid(): never an id */
		if (parse_u64_len(arg, colon - arg, 0, UINT32_MAX - 1, &uid) ||
		    parse_u64(colon + 1, 0, UINT32_MAX - 1, &gid))
			return -EINVAL;
		pw = NULL;
	} else {
		errno = 0;
		pw = parse_u64(arg, 0, UINT32_MAX - 1, &uid) ? getpwnam(arg) : getpwuid(uid);
		if (!pw)
			return errno ? -errno : -ENOENT;
		uid = pw->pw_uid;
		gid = pw->pw_gid;
		env->user_name = strdup(pw->pw_name);
		if (!env->user_name)
			return -ENOMEM;
	}
	env->user_set = true;
	env->uid = uid;
	env->gid = gid;
	return 0;
}

enum {
	OPT_MAX_TASKS = 256, OPT_RINGBUF, OPT_FLUSH, OPT_KEEP_COMMAND, OPT_PROBE, OPT_BACKEND,
	OPT_ROTATE_SIZE, OPT_ROTATE_INTERVAL, OPT_ROTATE_COUNT, OPT_SNAPSHOT, OPT_SNAPSHOT_ON_EXIT,
	OPT_ARGS, OPT_ARGS_MAX, OPT_ARGS_DATA, OPT_STACK, OPT_STACK_DEPTH,
};

/* --backend's names, in enum record_backend_id order. */
#define CLI_BACKEND_NAME(ID, NAME) #NAME,
static const char *const backend_names[BACKEND_COUNT] = { "auto", RECORD_BACKENDS(CLI_BACKEND_NAME) };
#undef CLI_BACKEND_NAME

static const struct option long_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "all", no_argument, NULL, 'a' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "user", required_argument, NULL, 'u' },
	{ "keep-command", no_argument, NULL, OPT_KEEP_COMMAND },
	{ "duration", required_argument, NULL, 'd' },
	{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "ringbuf-size", required_argument, NULL, OPT_RINGBUF },
	{ "flush-interval", required_argument, NULL, OPT_FLUSH },
	{ "rotate-size", required_argument, NULL, OPT_ROTATE_SIZE },
	{ "rotate-interval", required_argument, NULL, OPT_ROTATE_INTERVAL },
	{ "rotate-count", required_argument, NULL, OPT_ROTATE_COUNT },
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "snapshot-on-exit", no_argument, NULL, OPT_SNAPSHOT_ON_EXIT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "probe", no_argument, NULL, OPT_PROBE },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "event", required_argument, NULL, 'e' },
	{ "args", no_argument, NULL, OPT_ARGS },
	{ "args-max", required_argument, NULL, OPT_ARGS_MAX },
	{ "args-data", required_argument, NULL, OPT_ARGS_DATA },
	{ "stack", optional_argument, NULL, OPT_STACK },
	{ "stack-depth", required_argument, NULL, OPT_STACK_DEPTH },
	{ "syscall", required_argument, NULL, FILTER_OPT_SYSCALL },
	{ "failed", no_argument, NULL, FILTER_OPT_FAILED },
	{ "errno", required_argument, NULL, FILTER_OPT_ERRNO },
	{ "min-duration", required_argument, NULL, FILTER_OPT_MIN_DURATION },
	{ "comm", required_argument, NULL, FILTER_OPT_COMM },
	{ "path", required_argument, NULL, FILTER_OPT_PATH },
	{ "summary-only", no_argument, NULL, FILTER_OPT_SUMMARY_ONLY },
	{ "totals-keys", required_argument, NULL, FILTER_OPT_TOTALS_KEYS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

static int bad_value(const char *what, const char *arg, const char *why)
{
	fprintf(stderr, "sct-record: invalid %s: '%s'%s%s\n", what, arg, why ? ": " : "", why ? why : "");
	cli_usage_short();
	return -EINVAL;
}

/* "auto, bpf or perf expected" */
static int bad_backend(const char *arg)
{
	char why[256];
	size_t n = 0;

	for (size_t i = 0; i < BACKEND_COUNT && n < sizeof(why); i++)
		n += snprintf(why + n, sizeof(why) - n, "%s%s", i == 0 ? "" : i + 1 < BACKEND_COUNT ?
			      ", " : " or ", backend_names[i]);
	if (n < sizeof(why))
		snprintf(why + n, sizeof(why) - n, " expected");
	return bad_value("backend", arg, why);
}

/* GROUP:NAME, each a tracefs folder name: letters, digits, '_' (no '/', no "..") */
static bool event_name_ok(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	size_t glen = colon ? (size_t)(colon - s) : 0;

	if (!colon || !glen || glen + 1 == len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (i != glen && !(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

/* -e "A:B,C:D" -> appended to env->events; the HEADER's event table has a bound. */
static int parse_events(struct env *env, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		char **tmp;

		if (!event_name_ok(p, len))
			return bad_value("event", arg, "GROUP:NAME[,GROUP:NAME...] of tracefs expected");
		if (env->nevents >= SCT_MAX_EVENTS)
			return bad_value("event", arg, "too many events");
		tmp = realloc(env->events, (env->nevents + 1) * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		env->events = tmp;
		env->events[env->nevents] = strndup(p, len);
		if (!env->events[env->nevents])
			return -ENOMEM;
		env->nevents++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* The largest event the BPF programs reserve, with the ring buffer's own header. */
#define RINGBUF_MAX_EVENT (sizeof(struct sct_ev_exec) + BPF_RINGBUF_HDR_SZ)

/* The kernel wants a power-of-two number of pages; each event must fit in the buffer whole. */
static uint64_t ringbuf_min_size(long page)
{
	uint64_t min = page > 0 ? (uint64_t)page : 4096;

	while (min < RINGBUF_MAX_EVENT)
		min <<= 1;
	return min;
}

/* --rotate-size and --snapshot: a size with suffixes, in range. */
static int cli_long_run_size(struct env *env, int opt, const char *arg)
{
	bool rotate = opt == OPT_ROTATE_SIZE;
	uint64_t v, min = rotate ? MIN_ROTATE_SIZE : MIN_SNAPSHOT_SIZE;

	if (parse_size(arg, rotate ? MAX_ROTATE_SIZE : MAX_SNAPSHOT_SIZE, &v) || v < min)
		return bad_value(rotate ? "rotate size" : "snapshot size", arg,
				 rotate ? "64K..1024G expected" : "64K..16G expected");
	*(rotate ? &env->rotate_size : &env->snapshot_size) = v;
	return 0;
}

/* --stack's modes, by the SCT_STACK_* bits they set; the HEADER's names. */
static const char *const stack_modes[] = {
	[SCT_STACK_USER] = "user", [SCT_STACK_KERNEL] = "kernel",
	[SCT_STACK_USER | SCT_STACK_KERNEL] = "both",
};

const char *cli_stack_mode(uint32_t parts)
{
	return parts && parts < sizeof(stack_modes) / sizeof(stack_modes[0]) ? stack_modes[parts] : NULL;
}

/* --stack[=MODE]: user when MODE is left out. */
static int cli_stack(struct env *env, const char *arg)
{
	for (uint32_t parts = 1; parts < sizeof(stack_modes) / sizeof(stack_modes[0]); parts++)
		if (!arg ? parts == SCT_STACK_USER : !strcmp(arg, stack_modes[parts])) {
			env->stack_parts = parts;
			return 0;
		}
	return bad_value("stack mode", arg, "user, kernel or both expected");
}

static int cli_option(struct env *env, int opt, const char *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	char why[160];
	uint64_t v;

	switch (opt) {
	case 'p':
		return parse_id_list(arg, "pid", &env->pids, &env->npids);
	case 't':
		return parse_id_list(arg, "tid", &env->tids, &env->ntids);
	case 'G':
		if (!*arg)
			return bad_value("cgroup", arg, "empty path");
		env->cgroup = arg;
		return 0;
	case 'a':
		env->all = true;
		return 0;
	case 'o':
		if (!*arg)
			return bad_value("output", arg, "empty path");
		env->output = arg;
		return 0;
	case 'f':
		env->force = true;
		return 0;
	case 'u':
		free(env->user_name);
		env->user_name = NULL;
		if (parse_user(env, arg))
			return bad_value("user", arg, "no such user (a name, a uid or UID:GID expected)");
		return 0;
	case OPT_KEEP_COMMAND:
		env->keep_command = true;
		return 0;
	case 'd':
		if (parse_seconds(arg, 0, MAX_DURATION_SECONDS, &env->duration_ns))
			return bad_value("duration", arg, "seconds > 0 expected");
		return 0;
	case OPT_MAX_TASKS:
		if (parse_u64(arg, 1, MAX_TASKS_CAP, &v))
			return bad_value("max-tasks", arg, "1..4194304 expected");
		env->max_tasks = v;
		return 0;
	case OPT_RINGBUF:
		if (parse_size(arg, MAX_RINGBUF, &v) || (v & (v - 1)))
			return bad_value("ring buffer size", arg, "a power of two up to 1G expected");
		if (v < ringbuf_min_size(page)) {
			snprintf(why, sizeof(why), "%lluK at least, to hold the largest event (an exec "
				 "with its filename, %zu bytes)", (unsigned long long)ringbuf_min_size(page) >> 10,
				 RINGBUF_MAX_EVENT);
			return bad_value("ring buffer size", arg, why);
		}
		env->ringbuf_size = v;
		return 0;
	case OPT_FLUSH:
		if (parse_seconds(arg, MIN_FLUSH_SECONDS, MAX_FLUSH_SECONDS, &env->flush_interval_ns))
			return bad_value("flush interval", arg, "seconds in [0.01, 3600] expected");
		return 0;
	case OPT_ROTATE_SIZE:
	case OPT_SNAPSHOT:
		return cli_long_run_size(env, opt, arg);
	case OPT_ROTATE_INTERVAL:
		if (parse_seconds(arg, MIN_ROTATE_SECONDS, MAX_ROTATE_SECONDS, &env->rotate_interval_ns))
			return bad_value("rotate interval", arg, "seconds in [0.1, 31622400] expected");
		return 0;
	case OPT_ROTATE_COUNT:
		if (parse_u64(arg, 1, MAX_ROTATE_COUNT, &v))
			return bad_value("rotate count", arg, "1..1000000 expected");
		env->rotate_count = v;
		return 0;
	case OPT_SNAPSHOT_ON_EXIT:
		env->snapshot_on_exit = true;
		return 0;
	case 'q':
		env->quiet = true;
		return 0;
	case OPT_PROBE:
		env->probe = true;
		return 0;
	case 'e':
		return parse_events(env, arg);
	case OPT_BACKEND:
		for (size_t i = 0; i < BACKEND_COUNT; i++)
			if (!strcmp(arg, backend_names[i])) {
				env->backend = i;
				return 0;
			}
		return bad_backend(arg);
	case OPT_ARGS:
		env->args = true;
		return 0;
	case OPT_ARGS_MAX:
		if (parse_u64(arg, 1, SCT_PATH_MAX, &v))
			return bad_value("args-max", arg, "1..4096 bytes expected");
		env->args_max = v;
		env->args_max_set = true;
		return 0;
	case OPT_ARGS_DATA:
		if (parse_u64(arg, 1, SCT_DATA_MAX, &v))
			return bad_value("args-data", arg, "1..4096 bytes expected");
		env->args_data = v;
		return 0;
	case OPT_STACK:
		return cli_stack(env, arg);
	case OPT_STACK_DEPTH:
		if (parse_u64(arg, 1, SCT_STACK_DEPTH_MAX, &v))
			return bad_value("stack depth", arg, "1..127 frames expected");
		env->stack_depth = v;
		env->stack_depth_set = true;
		return 0;
	case FILTER_OPT_SYSCALL:
	case FILTER_OPT_FAILED:
	case FILTER_OPT_ERRNO:
	case FILTER_OPT_MIN_DURATION:
	case FILTER_OPT_COMM:
	case FILTER_OPT_PATH:
	case FILTER_OPT_SUMMARY_ONLY:
	case FILTER_OPT_TOTALS_KEYS:
		return filter_option(&env->filter, opt, arg);
	}
	cli_usage_short();
	return -EINVAL;
}

static int cli_conflict(const char *what)
{
	fprintf(stderr, "sct-record: %s\n", what);
	cli_usage_short();
	return -EINVAL;
}

static int cli_check_long_run(const struct env *env)
{
	if (env->rotate_count && !env_rotates(env))
		return cli_conflict("--rotate-count needs --rotate-size or --rotate-interval");
	if (env->snapshot_size && env_rotates(env))
		return cli_conflict("--snapshot writes only snapshots: it does not combine with rotation");
	if (env->snapshot_on_exit && !env->snapshot_size)
		return cli_conflict("--snapshot-on-exit needs --snapshot SIZE");
	/* a snapshot's oldest blocks would name STACK records of blocks no longer kept */
	if (env->snapshot_size && env->stack_parts)
		return cli_conflict("--stack does not combine with --snapshot");
	return 0;
}

static int cli_check_stack(const struct env *env)
{
	if (env->stack_depth_set && !env->stack_parts)
		return cli_conflict("--stack-depth needs --stack");
	if (env->stack_parts && env->filter.summary_only)
		return cli_conflict("--stack needs SYSCALL records: it does not combine with --summary-only");
	if ((env->stack_parts & SCT_STACK_KERNEL) && env->backend == BACKEND_PERF)
		return cli_conflict("--stack=kernel and --stack=both need the bpf backend (--backend bpf): "
				    "perf records user stacks only");
	return 0;
}

static int cli_check(struct env *env)
{
	int kinds = (env->npids || env->ntids) + !!env->cgroup + env->all;

	if (kinds > 1) {
		fprintf(stderr, "sct-record: -p/-t, -G and -a cannot be combined\n");
		cli_usage_short();
		return -EINVAL;
	}
	if (!kinds && !env->cmd && !env->probe) {
		fprintf(stderr, "sct-record: no target: give -p, -t, -G, -a or a command after --\n");
		cli_usage_short();
		return -EINVAL;
	}
	if ((env->args_max_set || env->args_data) && !env->args) {
		fprintf(stderr, "sct-record: %s needs --args\n", env->args_max_set ? "--args-max" : "--args-data");
		cli_usage_short();
		return -EINVAL;
	}
	if ((env->user_set || env->keep_command) && !env->cmd) {
		fprintf(stderr, "sct-record: %s applies to a command after --\n",
			env->user_set ? "-u" : "--keep-command");
		cli_usage_short();
		return -EINVAL;
	}
	if (!env->max_tasks)
		env->max_tasks = host_default_max_tasks();
	return filter_check(&env->filter, env->args) ?: cli_check_long_run(env) ?: cli_check_stack(env);
}

static int cli_options(struct env *env, int argc, char **argv)
{
	int opt, err;

	/* '+': stop at the first non-option, so CMD's own options are left alone. */
	while ((opt = getopt_long(argc, argv, "+p:t:G:ao:fu:d:e:qS:c:P:hV", long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage_full();
			return CLI_EXIT;
		}
		if (opt == 'V') {
			printf("sct-record %s (trace format %d.%d)\n", RECORD_VERSION,
			       SCT_FORMAT_MAJOR, SCT_FORMAT_MINOR);
			return CLI_EXIT;
		}
		err = cli_option(env, opt, optarg);
		if (err)
			return err;
	}
	return 0;
}

int cli_parse(struct env *env, int argc, char **argv)
{
	char *argv0 = argv[0];
	int err;

	env->argc = argc;
	env->argv = argv;
	/* getopt's messages name the tool, not the path it ran by; the HEADER keeps argv as given */
	argv[0] = (char *)"sct-record";
	err = cli_options(env, argc, argv);
	argv[0] = argv0;
	if (err)
		return err;
	if (optind < argc) {
		/* Without "--" a stray word is a mistake, not a command. */
		if (strcmp(argv[optind - 1], "--")) {
			fprintf(stderr, "sct-record: unexpected argument '%s' (a command goes after --)\n",
				argv[optind]);
			cli_usage_short();
			return -EINVAL;
		}
		env->cmd = &argv[optind];
	}
	return cli_check(env);
}
