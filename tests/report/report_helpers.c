// SPDX-License-Identifier: BSD-2-Clause
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../../fuzz/frame_fixup.h"
#include "report_helpers.h"

static char dir[256];
static char pathbufs[8][512]; /* a ring: a test holds a few paths at once */
static unsigned npath;

static const struct sct_syscall_name names[] = {
	{ RT_NR_READ, "read" }, { RT_NR_WRITE, "write" }, { RT_NR_OPEN, "open" },
	{ RT_NR_CLOSE, "close" }, { RT_NR_EXECVE, "execve" }, { RT_NR_RENAME, "rename" }, { RT_NR_OPENAT, "openat" },
	{ RT_NR_RENAMEAT, "renameat" }, { RT_NR_MMAP, "mmap" }, { RT_NR_MUNMAP, "munmap" }, { RT_NR_BRK, "brk" },
	{ RT_NR_MREMAP, "mremap" }, { RT_NR_IOCTL, "ioctl" }, { RT_NR_SOCKET, "socket" }, { RT_NR_KILL, "kill" },
	{ RT_NR_PRCTL, "prctl" }, { RT_NR_FUTEX, "futex" }, { RT_NR_CONNECT, "connect" },
	{ RT_NR_SENDTO, "sendto" }, { RT_NR_SENDMSG, "sendmsg" }, { RT_NR_BIND, "bind" },
	{ RT_NR_EXIT_GROUP, "exit_group" },
};

const char *rt_dir(void)
{
	if (!dir[0]) {
		strcpy(dir, "/tmp/sct-report-test.XXXXXX");
		cr_assert_not_null(mkdtemp(dir));
	}
	return dir;
}

const char *rt_path(const char *name)
{
	char *p = pathbufs[npath++ % 8];

	snprintf(p, sizeof(pathbufs[0]), "%s/%s", rt_dir(), name);
	return p;
}

void rt_cleanup(void)
{
	char cmd[300];

	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	dir[0] = 0;
}

struct sct_writer *rt_open(const char *path, const char *host, uint32_t block_records)
{
	return rt_open_names(path, host, names, sizeof(names) / sizeof(names[0]), block_records);
}

static struct sct_writer *rt_open_info(const char *path, const struct sct_header_info *info,
				       uint32_t block_records)
{
	struct sct_writer_opts opts = { .block_records = block_records, .no_fsync = true };
	int err = 0;
	struct sct_writer *w = sct_writer_open(path, true, info, &opts, &err);

	cr_assert_not_null(w, "sct_writer_open(%s): %s", path, sct_strerror(err));
	return w;
}

#define RT_INFO(host_, table_, ntable_) { \
		.producer = "report-test", .producer_version = "1", .hostname = (host_), \
		.kernel = "6.18.0", .arch = "x86_64", .boot_id = "00000000-0000-0000-0000-000000000000", \
		.clock = "CLOCK_MONOTONIC", .anchor_clock_ns = RT_ANCHOR_CLOCK, \
		.anchor_realtime_ns = RT_ANCHOR_REAL, .cgroup_hierarchy = "v2", \
		.cgroup_mount = "/sys/fs/cgroup", .syscalls = (table_), .nsyscalls = (ntable_) }

struct sct_writer *rt_open_names(const char *path, const char *host, const struct sct_syscall_name *table,
				 uint32_t ntable, uint32_t block_records)
{
	struct sct_header_info info = RT_INFO(host, table, ntable);

	return rt_open_info(path, &info, block_records);
}

struct sct_writer *rt_open_events(const char *path, const char *host, const struct sct_event_desc *ev,
				  uint32_t nev, const char *sample_cgroup)
{
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));

	info.events = ev;
	info.nevents = nev;
	info.backend = "perf";
	info.sample_cgroup = sample_cgroup;
	return rt_open_info(path, &info, 0);
}

struct sct_writer *rt_open_filter(const char *path, const char *host, const char *text,
				  const char *details, const char *totals)
{
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));
	const struct sct_header_filter filter = { text, details, totals };

	info.filter = &filter;
	return rt_open_info(path, &info, 0);
}

struct sct_writer *rt_open_stacks(const char *path, const char *host, const char *mode, const char *id,
				  uint64_t seq)
{
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));
	const struct sct_header_stacks stacks = { mode, 64, "fp" };

	info.stacks = &stacks;
	info.recording_id = id;
	info.sequence = seq;
	return rt_open_info(path, &info, 0);
}

void rt_sc_stack(struct sct_writer *w, uint64_t rel_ns, uint64_t dur, uint32_t pid, uint32_t tid, uint32_t nr,
		 int64_t ret, uint32_t stack_id)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = dur, .ret = ret,
					  .pid = pid, .tid = tid, .nr = nr, .stack_id = stack_id };
	rt_record(w, &r);
}

void rt_stack(struct sct_writer *w, uint64_t rel_ns, uint32_t id, uint32_t pid, const struct sct_frame *f,
	      size_t n)
{
	uint8_t buf[SCT_STACK_FRAMES_MAX_BYTES];
	int len = sct_stack_frames_encode(f, n, buf, sizeof(buf));
	struct sct_record r = { .type = SCT_REC_STACK };

	cr_assert_geq(len, 0);
	r.stack = (struct sct_stack){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .stack_id = id, .pid = pid,
				      .frames = { buf, (uint32_t)len } };
	rt_record(w, &r);
}

void rt_module(struct sct_writer *w, uint64_t rel_ns, uint32_t id, uint32_t kind, const uint8_t *build_id,
	       uint32_t len, const char *path)
{
	struct sct_record r = { .type = SCT_REC_MODULE };

	r.module = (struct sct_module){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .module_id = id, .kind = kind,
					.build_id = { build_id, len },
					.path = { (const uint8_t *)path, (uint32_t)strlen(path) } };
	rt_record(w, &r);
}

void rt_symbol(struct sct_writer *w, uint64_t rel_ns, uint32_t module_id, uint64_t addr, uint64_t size,
	       const char *name)
{
	struct sct_record r = { .type = SCT_REC_SYMBOL };

	r.symbol = (struct sct_symbol){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .addr = addr, .size = size,
					.module_id = module_id,
					.name = { (const uint8_t *)name, (uint32_t)strlen(name) } };
	rt_record(w, &r);
}

void rt_totals(struct sct_writer *w, uint64_t since_rel, uint64_t rel, uint32_t pid, uint64_t cg,
	       uint32_t nr, uint64_t errors, const uint64_t *durs, uint32_t n)
{
	struct sct_record rec = { .type = SCT_REC_TOTALS, .totals = {
		.time_ns = RT_ANCHOR_CLOCK + rel, .since_ns = RT_ANCHOR_CLOCK + since_rel, .pid = pid,
		.cgroup_id = cg, .nr = nr, .calls = n, .errors = errors, .hist_bits = SCT_HIST_BITS } };
	uint64_t *counts = calloc(SCT_HIST_LAST(SCT_HIST_BITS) + 1, sizeof(*counts));
	uint8_t *buf = malloc(SCT_HIST_MAX_BYTES(n));
	int64_t len;

	cr_assert(counts && buf);
	for (uint32_t i = 0; i < n; i++) {
		counts[sct_hist_bucket(durs[i], SCT_HIST_BITS)]++;
		rec.totals.duration_ns += durs[i];
		if (durs[i] > rec.totals.max_ns)
			rec.totals.max_ns = durs[i];
	}
	len = sct_hist_encode_counts(counts, SCT_HIST_LAST(SCT_HIST_BITS) + 1, SCT_HIST_BITS, buf,
				     SCT_HIST_MAX_BYTES(n));
	cr_assert_geq(len, 0);
	rec.totals.hist = (struct sct_bytes){ buf, (uint32_t)len };
	rt_record(w, &rec);
	free(buf);
	free(counts);
}

struct sct_writer *rt_open_recording(const char *path, const char *host, const char *id, uint64_t seq,
				     bool snapshot)
{
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));

	info.recording_id = id;
	info.sequence = seq;
	info.snapshot = snapshot;
	return rt_open_info(path, &info, 0);
}

struct sct_writer *rt_open_args_compat(const char *path, const char *host, const struct sct_syscall_args *descs,
				       uint32_t ndescs, const struct sct_syscall_args *compat, uint32_t ncompat)
{
	static const struct sct_syscall_name compat_names[] = { { 5, "open" }, { 38, "rename" },
								{ 192, "mmap2" } };
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));

	info.syscall_args = descs;
	info.nsyscall_args = ndescs;
	info.args_max = 256;
	info.args_paths = "enter";
	if (compat) {
		info.compat_arch = "i386";
		info.compat_syscalls = compat_names;
		info.ncompat_syscalls = sizeof(compat_names) / sizeof(compat_names[0]);
		info.compat_syscall_args = compat;
		info.ncompat_syscall_args = ncompat;
	}
	return rt_open_info(path, &info, 0);
}

struct sct_writer *rt_open_args(const char *path, const char *host, const struct sct_syscall_args *descs,
				uint32_t ndescs)
{
	return rt_open_args_compat(path, host, descs, ndescs, NULL, 0);
}

struct sct_writer *rt_open_captures(const char *path, const char *host, const struct sct_syscall_args *descs,
				    uint32_t ndescs)
{
	static const struct sct_header_captures captures = { .argv_max = 64, .argv_bytes = 4096, .data = 32 };
	struct sct_header_info info = RT_INFO(host, names, sizeof(names) / sizeof(names[0]));

	info.syscall_args = descs;
	info.nsyscall_args = ndescs;
	info.args_max = 256;
	info.args_paths = "enter";
	info.captures = &captures;
	return rt_open_info(path, &info, 0);
}

void rt_sample(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, uint32_t cpu,
	       uint64_t cg, uint32_t event, const void *payload, uint32_t len)
{
	struct sct_record r = { .type = SCT_REC_SAMPLE, .sample = {
		.time_ns = RT_ANCHOR_CLOCK + rel_ns, .cgroup_id = cg, .pid = pid, .tid = tid,
		.cpu = cpu, .event = event, .payload = { payload, len } } };

	rt_record(w, &r);
}

void rt_close(struct sct_writer *w)
{
	int err = sct_writer_close(w);

	cr_assert_eq(err, 0, "sct_writer_close: %s", sct_strerror(err));
}

void rt_record(struct sct_writer *w, const struct sct_record *rec)
{
	int err = sct_writer_append(w, rec);

	cr_assert_eq(err, 0, "sct_writer_append: %s", sct_strerror(err));
}

void rt_sc(struct sct_writer *w, uint64_t rel_ns, uint64_t dur, uint32_t pid, uint32_t tid, uint64_t cg,
	   uint32_t nr, int64_t ret)
{
	struct sct_record r = { .type = SCT_REC_SYSCALL };

	r.syscall = (struct sct_syscall){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .duration_ns = dur,
					  .cgroup_id = cg, .ret = ret, .pid = pid, .tid = tid, .nr = nr };
	rt_record(w, &r);
}

static struct sct_bytes rt_bytes(const char *s)
{
	return (struct sct_bytes){ .ptr = (const uint8_t *)s, .len = (uint32_t)strlen(s) };
}

void rt_task(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, uint32_t ppid, uint64_t cg,
	     uint64_t start_rel_ns, const char *comm)
{
	struct sct_record r = { .type = SCT_REC_TASK };

	r.task = (struct sct_task){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .cgroup_id = cg,
				    .start_ns = RT_ANCHOR_CLOCK + start_rel_ns, .pid = pid, .tid = tid,
				    .ppid = ppid, .comm = rt_bytes(comm) };
	rt_record(w, &r);
}

void rt_fork(struct sct_writer *w, uint64_t rel_ns, uint32_t ppid, uint32_t ptid, uint32_t cpid, uint32_t ctid,
	     int thread)
{
	struct sct_record r = { .type = SCT_REC_FORK };

	r.fork = (struct sct_fork){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .child_start_ns = RT_ANCHOR_CLOCK + rel_ns,
				    .parent_pid = ppid, .parent_tid = ptid, .child_pid = cpid,
				    .child_tid = ctid, .is_thread = (uint8_t)thread };
	rt_record(w, &r);
}

void rt_exec(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t old_tid, const char *file,
	     const char *comm)
{
	struct sct_record r = { .type = SCT_REC_EXEC };

	r.exec = (struct sct_exec){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .pid = pid, .tid = pid, .old_tid = old_tid,
				    .filename = rt_bytes(file), .comm = rt_bytes(comm) };
	rt_record(w, &r);
}

void rt_exit(struct sct_writer *w, uint64_t rel_ns, uint32_t pid, uint32_t tid, int code, uint32_t sig,
	     int group_dead)
{
	struct sct_record r = { .type = SCT_REC_EXIT };

	r.exit = (struct sct_exit){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .pid = pid, .tid = tid, .exit_code = code,
				    .signal = sig, .group_dead = (uint8_t)group_dead };
	rt_record(w, &r);
}

void rt_cgroup(struct sct_writer *w, uint64_t rel_ns, uint64_t id, const char *path)
{
	struct sct_record r = { .type = SCT_REC_CGROUP };

	r.cgroup = (struct sct_cgroup){ .time_ns = RT_ANCHOR_CLOCK + rel_ns, .cgroup_id = id, .path = rt_bytes(path) };
	rt_record(w, &r);
}

void rt_patch(const char *path, const char *from, const char *to)
{
	size_t n = strlen(from), len, hits = 0;
	FILE *f = fopen(path, "r+");
	uint8_t *p;
	long end;

	cr_assert_not_null(f, "open %s", path);
	cr_assert_eq(strlen(to), n, "a patch keeps the file's length");
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	end = ftell(f);
	cr_assert(end > 0);
	len = (size_t)end;
	p = malloc(len);
	cr_assert_not_null(p);
	rewind(f);
	cr_assert_eq(fread(p, 1, len, f), len);
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(p + i, from, n)) {
			memcpy(p + i, to, n);
			hits++;
		}
	cr_assert_gt(hits, 0, "%s not in %s", from, path);
	frame_fixup(p, len);
	rewind(f);
	cr_assert_eq(fwrite(p, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
	free(p);
}

const char *rt_hostile_recording(const char *name, uint64_t seq, const uint64_t *rel_ns, uint32_t n)
{
	static const char placeholder[] = "0123456789abcdef0123456789abcdef";
	const char *path = rt_path(name);
	struct sct_writer *w = rt_open_recording(path, "h1", placeholder, seq, false);

	rt_task(w, 0, 100, 100, 1, 0, 0, "app");
	for (uint32_t i = 0; i < n; i++)
		rt_sc(w, rel_ns[i], 500, 100, 100, 0, RT_NR_WRITE, 1);
	rt_close(w);
	rt_patch(path, placeholder, RT_HOSTILE_ID);
	return path;
}

int rt_run(char **out, const char *fmt, ...)
{
	char cmd[4096];
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	va_list ap;
	FILE *p;
	int status;

	cr_assert_not_null(buf);
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "popen %s", cmd);
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *tmp = realloc(buf, cap * 2);

			cr_assert_not_null(tmp);
			buf = tmp;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len - 1, p);
		if (!n)
			break;
		len += n;
	}
	buf[len] = 0;
	status = pclose(p);
	cr_assert(WIFEXITED(status), "%s did not exit normally", cmd);
	if (out)
		*out = buf;
	else
		free(buf);
	return WEXITSTATUS(status);
}

static const char *rt_env(const char *name)
{
	const char *v = getenv(name);

	cr_assert_not_null(v, "%s is not set: run the tests with make test-report", name);
	return v;
}

const char *rt_report(void)
{
	return rt_env("SCT_REPORT");
}

const char *rt_convert(void)
{
	return rt_env("SCT_CONVERT");
}

const char *rt_gen(void)
{
	return rt_env("SCT_GEN_REPORT");
}

const char *rt_line(const char *text, int n)
{
	static char line[4096];
	const char *p = text, *e;

	for (; n > 0 && p; n--) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p)
		return "";
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
	return line;
}

const char *rt_find_line(const char *text, const char *needle)
{
	static char line[4096];
	const char *p = strstr(text, needle), *s, *e;

	if (!p)
		return NULL;
	for (s = p; s > text && s[-1] != '\n'; s--)
		;
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
	return line;
}
