/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers of the sct-record integration tests: spawn workloads and the recorder with pipes,
 * wait for the recorder's ready line (never a sleep), and read a trace back through libsct
 * into plain arrays the tests can search.
 *
 * Conventions: functions return 0 or -errno; a timeout is -ETIMEDOUT. Paths of the programs
 * under test come from the environment that tests/record/record.mk sets: SCT_RECORD (the recorder)
 * and SCT_WORKLOADS (the folder of the workload programs).
 */
#ifndef SCT_RECORD_HELPERS_H
#define SCT_RECORD_HELPERS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sct.h"

#define RH_TIMEOUT_MS 60000

/* Skip (outside CI, loudly) or fail (CI=true) unless we are root and the recorder exists. */
void rh_require_root(void);
bool rh_in_ci(void);
/*
 * Skip, loudly, unless this kernel runs ia32 calls (int $0x80) of a 64-bit process: it does not
 * where its ia32 emulation is off (ia32_emulation=0, CONFIG_IA32_EMULATION unset) or the
 * hypervisor refuses the call. CI does not fail on it: the kernel matrix's guests run them.
 */
void rh_require_ia32(void);

const char *rh_recorder_path(void);
/* Absolute path of workload NAME (static buffer, valid until the next call). */
const char *rh_workload(const char *name);

/* A child process; fds are -1 when not piped. */
struct rh_proc {
	pid_t pid;
	int in_fd, out_fd, err_fd;
};

/* Spawn argv with stdin, stdout and stderr on pipes (stderr left alone if !pipe_err). */
int rh_spawn(struct rh_proc *p, const char *const argv[], bool pipe_err);
/* Write the go byte to the child's stdin. */
int rh_go(struct rh_proc *p);
/* Whether tid is blocked in syscall nr (/proc/TID/syscall starts with the number). */
bool rh_blocked_in(pid_t tid, long nr);
/* Clock ticks pid has spent in the kernel (/proc/PID/stat's stime). */
unsigned long rh_kernel_ticks(pid_t pid);
/*
 * Trace the workload wl by pid (with --args if arg1 is not NULL); once it printed its line and
 * is in call nr (on_cpu: running it, its kernel time growing; else blocked in it), stop the
 * recorder. The trace must hold exactly one unfinished SYSCALL record: that call, its second
 * argument *arg1 under --args.
 */
void rh_assert_stop_during_call(const char *const wl[], long nr, bool on_cpu, const uint64_t *arg1);
/* Read one line (without the newline) into buf. Returns its length, -ENODATA at EOF, or -errno. */
int rh_read_line(int fd, char *buf, size_t cap, int timeout_ms);
/* Read until EOF into a NUL-terminated malloc'd string in *out. */
int rh_read_all(int fd, char **out, int timeout_ms);
/* Wait for the child to exit; status and ru may be NULL. */
int rh_wait(pid_t pid, int timeout_ms, int *status, struct rusage *ru);
/* Close the pipes; a child still running is killed and reaped. */
void rh_proc_release(struct rh_proc *p);
/*
 * What sct-report (beside the recorder) prints with args (NULL-terminated, after its name),
 * read whole into a malloc'd string; the test fails if it does not exit 0.
 */
char *rh_report(const char *const args[]);

/* The recorder, with its stderr text collected. */
struct rh_recorder {
	struct rh_proc proc;
	char err[16384];
	size_t errlen;
	int status;
	struct rusage ru;
};

/*
 * The backend every recorder the helpers start is given (--backend), from SCT_TEST_BACKEND
 * (record_kernel.c reruns the suites with it set); NULL: the recorder's default.
 */
#define RH_BACKEND_ENV "SCT_TEST_BACKEND"
const char *rh_backend(void);
/* Whether the helpers run the recorder with --backend perf. */
#define RH_PERF() (rh_backend() && !strcmp(rh_backend(), "perf"))
/*
 * Whether sct-record --probe finds the perf_event cgroup controller on cgroup2 here (its
 * perf-cgroup line): without it, the perf backend takes cgroup ids from /proc and refuses -G.
 */
bool rh_perf_cgroup(void);
/* The cgroup v2 mount point into out. Asserts there is one. */
void rh_cgroup2_mount(char *out, size_t cap);
/*
 * mkdir a fresh cgroup under the v2 mount, named after this process and suffix, into dir
 * (PATH_MAX) and its path below the mount into rel; returns its id (the directory's inode
 * number). Asserts.
 */
uint64_t rh_cgroup_make(char *dir, const char *suffix, char *rel, size_t cap);
/* Move pid (its whole process) into the cgroup at dir. Asserts. */
void rh_cgroup_move(const char *dir, pid_t pid);
/*
 * -G with the perf backend where perf_event has no state in cgroup2: asserts that the
 * recorder, started with args, refuses and says why. Returns whether it was that case.
 */
bool rh_perf_cgroup_refused(const char **args);

/*
 * Start the recorder with args (NULL-terminated) and wait for its ready line on stderr.
 * Returns 0 when ready; otherwise -errno, and the recorder's exit status and stderr are in r.
 */
int rh_recorder_start(struct rh_recorder *r, const char *const args[]);
/*
 * The same under `strace -f -e trace=epoll_wait,bpf -o log`: what the recorder waits for, how
 * long it is willing to wait and which CPUs it interrupts, as facts rather than as times
 * measured on a busy machine.
 */
int rh_recorder_start_straced(struct rh_recorder *r, const char *log, const char *const args[]);
/* The same under prefix (a NULL-terminated argv of a program that runs the recorder). */
int rh_recorder_start_under(struct rh_recorder *r, const char *const prefix[], const char *const args[]);
/* One epoll_wait of the recorder (the first process in log): its timeout and result. */
struct rh_epoll_wait {
	long timeout_ms, ret;
	bool after_last_exit; /* returned after another traced process (the command) exited */
};
/* Read log's epoll_wait calls into w (at most cap). Returns how many, or -errno. */
int rh_strace_epoll_waits(const char *log, struct rh_epoll_wait *w, size_t cap);
/*
 * Count log's BPF_PROG_TEST_RUN calls on a chosen CPU (the stage flushes) into runs[cpu], for
 * CPUs below ncpus (zeroed first). Returns the calls counted, or -errno.
 */
int rh_strace_cpu_runs(const char *log, unsigned *runs, unsigned ncpus);
/* Skip the test, loudly, on a machine with fewer than n CPUs online. */
void rh_require_cpus(long n);
/* Send sig (0: none), read stderr to EOF, reap, close the pipes. The exit status is in r->status. */
int rh_recorder_finish(struct rh_recorder *r, int sig, int timeout_ms);

/* Read fd (a FIFO or pipe) to EOF into a new file at path; returns the bytes read. Asserts. */
size_t rh_drain_to_file(int fd, const char *path);

/* A temporary folder for one test's files, removed with everything in it by rh_tmp_remove. */
int rh_tmp_make(char *dir, size_t cap);
void rh_tmp_remove(const char *dir);

/* A whole trace in memory. Strings are copied. */
struct rh_exec {
	struct sct_exec rec;
	char filename[PATH_MAX], comm[32];
};
struct rh_task {
	struct sct_task rec;
	char comm[32];
};
struct rh_cgroup {
	uint64_t id;
	char path[PATH_MAX];
};
struct rh_warning {
	struct sct_warning rec;
	char text[512];
};

struct rh_trace {
	int err;                 /* what sct_reader_next failed with, 0 if it reached the end */
	unsigned sessions;
	bool has_trailer;
	struct sct_trailer_info trailer;
	struct sct_reader_stats stats;
	uint64_t diags[SCT_DIAG_NO_HEADER + 1];
	uint64_t lost_count;     /* sum of LOST record counts */
	char cgroup_mount[PATH_MAX];
	char recording_id[SCT_RECORDING_ID_LEN + 1]; /* the HEADER's, "" if none */
	uint64_t sequence;
	bool snapshot;
	bool recorder_cgroup_ids; /* the HEADER's sample_cgroup is "recorder" (perf, from /proc) */
	/* syscall numbers of the session's table; -1 when absent */
	int64_t nr_write, nr_getppid, nr_execve;
	struct sct_syscall *sc;
	size_t nsc;
	struct rh_task *task;
	size_t ntask;
	struct sct_fork *fork;
	size_t nfork;
	struct rh_exec *exec;
	size_t nexec;
	struct sct_exit *exit;
	size_t nexit;
	struct rh_cgroup *cgroup;
	size_t ncgroup;
	struct rh_warning *warning;
	size_t nwarning;
	struct sct_totals *totals; /* hist not kept: the reader checked it adds up to calls */
	size_t ntotals;
	bool has_filter;          /* the HEADER's "filter" */
	char filter_text[256], filter_details[16], filter_totals[16];
	size_t nlost;
	uint64_t lost_by_cause[3]; /* LOST record counts by enum sct_lost_cause (0: any other) */
};

/* Read path into t. Returns 0, or -errno / -SCT_E* when it cannot even be opened. */
int rh_trace_read(const char *path, struct rh_trace *t);
void rh_trace_free(struct rh_trace *t);

/* SYSCALL records matching pid (0: any), tid (0: any), nr (-1: any). */
size_t rh_count_syscalls(const struct rh_trace *t, uint32_t pid, uint32_t tid, int64_t nr);
/* SYSCALL records with that tid, nr and ret. */
size_t rh_count_returns(const struct rh_trace *t, uint32_t tid, int64_t nr, int64_t ret);
/* The last FORK / EXIT record of a tid, NULL if none (pids are reused: last = newest). */
const struct sct_fork *rh_find_fork(const struct rh_trace *t, uint32_t child_tid);
/* CLOCK_MONOTONIC now, the clock of a trace's times. */
uint64_t rh_mono_ns(void);
/*
 * A TASK record's start time is that of a task started after not_before_ns and before the
 * record: to the clock tick, as the perf backend reads start times from /proc.
 */
void rh_assert_task_start(const struct sct_task *task, uint64_t not_before_ns);
const struct sct_exit *rh_find_exit(const struct rh_trace *t, uint32_t tid);

/*
 * Per-test fixture: rh_setup() skips or fails without root (rh_require_root) and makes a
 * fresh folder; rh_trace_path / rh_trace_path2 are two trace paths in it. rh_teardown()
 * kills the children still running (a failed assertion leaves no workload spinning) and
 * removes the folder.
 */
#define RH_DIR_MAX 64
extern char rh_dir[RH_DIR_MAX], rh_trace_path[RH_DIR_MAX + 16], rh_trace_path2[RH_DIR_MAX + 16];
void rh_setup(void);
void rh_teardown(void);

/* A workload traced by one recorder from start to end. */
struct rh_run {
	struct rh_proc wl;
	pid_t wl_pid;   /* the workload's pid (wl.pid is -1 once it is reaped) */
	struct rh_recorder rec;
	char *out;      /* the workload's whole stdout, NUL-terminated */
	int wl_status;  /* the workload's wait status */
};

/*
 * Spawn the workload wl_argv, wait until it waits for its go byte (rh_wait_at_go), start the
 * recorder as `-o trace -p PID extra...`, send the go byte once it is ready, read the
 * workload's stdout to EOF, reap it, then wait for the recorder to stop by itself (every
 * traced task exited). Returns 0 or -errno; the step that
 * failed is printed to stderr with the recorder's own stderr.
 */
int rh_run_traced(struct rh_run *run, const char *const wl_argv[], const char *trace,
		  const char *const extra[]);
/*
 * The same for a workload that starts without a go byte, so what it does before the recorder
 * is ready may or may not be traced; each step (reading, reaping, the recorder's stop) bounded
 * by timeout_ms.
 */
int rh_run_traced_within(struct rh_run *run, const char *const wl_argv[], const char *trace,
			 const char *const extra[], int timeout_ms);
void rh_run_release(struct rh_run *run);
/* Wait until a thread of pid is blocked reading its go byte (fd 0): 0, or -errno. */
int rh_wait_at_go(pid_t pid, int timeout_ms);

/* Parse "key value" pairs out of a workload line: the number after word key, -1 if absent. */
long rh_field(const char *line, const char *key);

#endif
