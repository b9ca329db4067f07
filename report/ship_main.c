// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-ship: sends sct trace files to ClickHouse over HTTP, one file at a time, so that every
 * file's rows end up there exactly once, whatever fails and however often it runs.
 *
 * The rows are sct-convert's --to clickhouse output (run per table, streamed): the loader and
 * the shipper cannot disagree on a column. A file is identified by the (host, recording,
 * sequence) of its sessions. Non-replicated MergeTree does not deduplicate inserts, so
 * exactness comes from an order of steps that any crash or failure may cut anywhere:
 *   1. a row in DB.files for the file: done, nothing to send;
 *   2. rows of the file in any table (a cut earlier attempt): deleted by an ALTER ... DELETE
 *      mutation, waited for until done, table by table, DB.sessions last;
 *   3. every table's rows inserted, DB.sessions first;
 *   4. the DB.files row inserted, last.
 * A re-run after a cut at any step finds no DB.files row, so it deletes what step 3 left
 * and inserts everything again. The state directory holds the lock and a list of files
 * known to be shipped, so later runs do not read them again; the server is the authority.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "sct.h"
#include "ship.h"

#define EXIT_SHIP_FAILED 1 /* a file could not be shipped after every retry: try again later */
#define EXIT_USAGE 2
#define EXIT_UNREADABLE 3  /* a file could not be read or identified: skipped */
#define EXIT_LOCKED 4      /* another sct-ship holds the state directory */
#define SESSIONS_MAX (64u << 20) /* bytes of sessions rows read from one file */
#define SQL_MAX (1u << 20)

static const char usage_text[] =
"Usage: sct-ship --url URL [OPTIONS] FILE|DIR...\n"
"Sends sct trace files (a DIR: its *.sct files in name order) to ClickHouse's HTTP\n"
"interface, one file at a time: rows go to the tables of sct-convert --schema clickhouse,\n"
"then a row in DB.files marks the file as shipped. Sending a file again adds nothing;\n"
"a run cut short (crash, server down) is finished by the next one: rows of a file\n"
"without its DB.files row are deleted and sent again. Every step is retried with\n"
"exponential backoff. Meant for a cron job or a systemd timer on every host.\n"
"\n"
"  -u, --url URL         http://HOST:8123/ (query parameters: settings, user, password)\n"
"  -d, --database DB     database of the MergeTree tables (default sct; with a cluster,\n"
"                        the shard's local database, e.g. sct_local)\n"
"  -s, --state DIR       lock and list of shipped files (default /var/lib/sct-ship)\n"
"  -r, --retries N       attempts per file after the first (default 5)\n"
"  -b, --backoff MS      first wait between attempts, doubled each time up to 60 s\n"
"                        (default 1000)\n"
"      --settle SECONDS  a file without a trailer (still written, or cut by a crash) is\n"
"                        shipped once unmodified this long (default 600)\n"
"      --sct-convert PATH  the converter (default: next to sct-ship, else in PATH)\n"
"  -h, --help            this text\n"
"Exit status: 0 every file shipped, already there or not settled yet; 1 a file could not\n"
"be shipped after the retries (later files not tried); 2 usage; 3 a file could not be\n"
"read or has no HEADER (skipped); 4 another sct-ship holds the state directory's lock.\n"
"\n"
"Examples:\n"
"  sct-convert --schema clickhouse | clickhouse-client --multiquery\n"
"  sct-ship --url http://ch1:8123/ /var/lib/sct/\n"
"  sct-ship --url 'http://ch1:8123/?user=sct&password=secret' --database sct_local a.sct\n";

struct env {
	const char *url;
	const char *db;
	const char *state;
	const char *convert;
	unsigned retries;
	unsigned backoff_ms;
	unsigned settle;
	char **files;
	int nfiles;
};

struct shipper {
	struct env env;
	struct ship_http *http;
	char convert_path[PATH_MAX];
	char *shipped;      /* the state list, NUL-terminated */
	int state_fd;       /* the list, opened for appending */
	char *sql;          /* SQL_MAX bytes */
	char where[SQL_MAX / 2]; /* the file's identities as a condition */
	char first[512];    /* (host, recording, sequence) of the file's first session, an SQL tuple */
	char msg[256];      /* what failed, when it is not the HTTP request */
};

static int usage_hint(void)
{
	fputs("Usage: sct-ship --url URL [OPTIONS] FILE|DIR...  (sct-ship --help for more)\n", stderr);
	return -EINVAL;
}

static int usage_error(const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "sct-ship: %s '%s'\n", what, arg);
	else
		fprintf(stderr, "sct-ship: %s\n", what);
	return usage_hint();
}

static int parse_uint(const char *arg, unsigned max, unsigned *out, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || errno || *end || v > max)
		return usage_error(what, arg);
	*out = (unsigned)v;
	return 0;
}

static int parse_args(struct env *env, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "url", required_argument, NULL, 'u' },     { "database", required_argument, NULL, 'd' },
		{ "state", required_argument, NULL, 's' },   { "retries", required_argument, NULL, 'r' },
		{ "backoff", required_argument, NULL, 'b' }, { "settle", required_argument, NULL, 'S' },
		{ "sct-convert", required_argument, NULL, 'C' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, err = 0;

	*env = (struct env){ .db = "sct", .state = "/var/lib/sct-ship", .retries = 5, .backoff_ms = 1000,
			     .settle = 600 };
	argv[0] = (char *)"sct-ship"; /* getopt's messages name the tool, not the path it ran by */
	while (!err && (c = getopt_long(argc, argv, "u:d:s:r:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'u': env->url = optarg; break;
		case 'd': env->db = optarg; break;
		case 's': env->state = optarg; break;
		case 'C': env->convert = optarg; break;
		case 'r': err = parse_uint(optarg, 1000, &env->retries, "invalid --retries:"); break;
		case 'b': err = parse_uint(optarg, 3600000, &env->backoff_ms, "invalid --backoff:"); break;
		case 'S': err = parse_uint(optarg, 86400 * 365, &env->settle, "invalid --settle:"); break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default: return usage_hint(); /* getopt said which option and why */
		}
	}
	if (err)
		return err;
	if (!env->url)
		return usage_error("--url http://HOST:PORT/ is required", NULL);
	if (strncmp(env->url, "http", 4))
		return usage_error("--url must be http://HOST:PORT/, not", env->url);
	if (!*env->db || strspn(env->db, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
	    strlen(env->db))
		return usage_error("invalid --database name:", env->db);
	if (optind >= argc)
		return usage_error("no FILE or DIR", NULL);
	env->files = argv + optind;
	env->nfiles = argc - optind;
	return 0;
}

/* sct-convert beside this binary (an installed or a build tree), else the one in PATH. */
static void ship_find_convert(struct shipper *sh)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	snprintf(sh->convert_path, sizeof(sh->convert_path), "%s", sh->env.convert ? sh->env.convert : "sct-convert");
	if (sh->env.convert || n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	snprintf(slash + 1, sizeof(self) - (size_t)(slash + 1 - self), "sct-convert");
	if (!access(self, X_OK))
		snprintf(sh->convert_path, sizeof(sh->convert_path), "%s", self);
}

/* ---------------------------------------------------------------- state directory */

static int ship_lock(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		close(fd);
		return err;
	}
	return fd; /* held until exit */
}

/* The list of shipped files: a line "dev ino size mtime_ns path" per file. */
static int ship_state_open(struct shipper *sh)
{
	char path[PATH_MAX];
	struct stat st;
	ssize_t n;
	size_t got = 0;

	snprintf(path, sizeof(path), "%s/shipped", sh->env.state);
	sh->state_fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (sh->state_fd < 0 || fstat(sh->state_fd, &st))
		return -errno;
	sh->shipped = malloc((size_t)st.st_size + 2);
	if (!sh->shipped)
		return -ENOMEM;
	sh->shipped[0] = '\n';
	while (got < (size_t)st.st_size && (n = pread(sh->state_fd, sh->shipped + 1 + got, (size_t)st.st_size - got,
						       (off_t)got)) > 0)
		got += (size_t)n;
	sh->shipped[1 + got] = '\0';
	return 0;
}

static void ship_state_key(const struct stat *st, char *key, size_t cap)
{
	snprintf(key, cap, "%llu %llu %lld %lld%09ld ", (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

static bool ship_state_has(const struct shipper *sh, const struct stat *st)
{
	char key[128] = "\n";

	ship_state_key(st, key + 1, sizeof(key) - 1);
	return strstr(sh->shipped, key) != NULL;
}

static int ship_state_add(struct shipper *sh, const struct stat *st, const char *path)
{
	char line[PATH_MAX + 128];
	int len;

	ship_state_key(st, line, sizeof(line));
	len = (int)strlen(line);
	len += snprintf(line + len, sizeof(line) - (size_t)len, "%s\n", path);
	if (len >= (int)sizeof(line) || write(sh->state_fd, line, (size_t)len) != len || fsync(sh->state_fd))
		return -EIO;
	return 0;
}

/* ---------------------------------------------------------------- the converter */

/* sct-convert --to clickhouse for one table of one file, its stdout on *fd. */
static pid_t ship_convert(struct shipper *sh, const char *table, const char *path, int *fd)
{
	char *argv[] = { sh->convert_path, "--to", "clickhouse", "--records", (char *)table, "--database",
			 (char *)sh->env.db, "--strict", "--", (char *)path, NULL };
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		if (null >= 0)
			dup2(null, 2); /* its footer: the shipper says what matters */
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/*
 * The converter's exit status: 0, 3 (damaged or no trailer: the rows read are fine), -ENOEXEC
 * if it could not be run, else -EIO.
 */
static int ship_convert_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -EIO;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOEXEC;
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3))
		return -EIO;
	return WEXITSTATUS(status);
}

/* All of fd into buf (cap bytes), NUL-terminated; the length, or -EFBIG. */
static ssize_t ship_read_all(int fd, char *buf, size_t cap)
{
	size_t got = 0;
	ssize_t n;

	while (got < cap - 1 && ((n = read(fd, buf + got, cap - 1 - got)) > 0 || (n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	buf[got] = '\0';
	return got == cap - 1 ? -EFBIG : (ssize_t)got;
}

/* ---------------------------------------------------------------- one file */

/*
 * From the sessions rows (TabSeparated, escaped as ClickHouse string literals escape), the
 * condition matching every row of the file and the first session's identity.
 */
static int ship_identify(struct shipper *sh, char *rows)
{
	char *line = strchr(rows, '\n');
	unsigned nids = 0;
	size_t w;

	sh->first[0] = '\0';
	snprintf(sh->where, sizeof(sh->where), "(host, recording, sequence) IN (");
	w = strlen(sh->where);
	while (line && line[1]) {
		char *host = line + 1, *rec, *seq, *end;
		char val[512];
		size_t v = 1;

		line = strchr(host, '\n');
		rec = strchr(host, '\t');
		seq = rec ? strchr(rec + 1, '\t') : NULL;
		end = seq ? strchr(seq + 1, '\t') : NULL;
		if (!end || (line && end > line))
			return -EINVAL;
		val[0] = '(';
		val[v++] = '\'';
		for (char *p = host; p < rec && v < sizeof(val) - 80; p++) {
			if (*p == '\'')
				val[v++] = '\\';
			val[v++] = *p;
		}
		if (v >= sizeof(val) - 80)
			return -E2BIG;
		v += (size_t)snprintf(val + v, sizeof(val) - v, "', '%.*s', %.*s)", (int)(seq - rec - 1), rec + 1,
				      (int)(end - seq - 1), seq + 1);
		if (!nids)
			snprintf(sh->first, sizeof(sh->first), "%s", val);
		/* whole tuples compared: "(..., 1)" is no part of "(..., 12)" */
		if (strstr(sh->where, val))
			continue;
		if (w + v + 8 >= sizeof(sh->where))
			return -E2BIG;
		w += (size_t)snprintf(sh->where + w, sizeof(sh->where) - w, "%s%s", nids++ ? ", " : "", val);
	}
	if (!nids)
		return -ENODATA;
	snprintf(sh->where + w, sizeof(sh->where) - w, ")");
	return 0;
}

static void ship_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int ship_count(struct shipper *sh, const char *table, const char *where, unsigned long long *count)
{
	char ans[64];
	int err;

	snprintf(sh->sql, SQL_MAX, "SELECT count() FROM %s.%s WHERE %s", sh->env.db, table, where);
	err = ship_http_query(sh->http, sh->sql, ans, sizeof(ans));
	if (!err)
		*count = strtoull(ans, NULL, 10);
	return err;
}

/*
 * ALTER ... DELETE is a mutation: done in the background, so wait until no mutation of the
 * table is pending, for MUTATION_WAIT_MS at most (a mutation that cannot finish is the
 * operator's to look at in system.mutations; the file is tried again next run).
 */
#define MUTATION_WAIT_MS (10u * 60 * 1000)
static int ship_delete(struct shipper *sh, const char *table)
{
	unsigned long long pending = 1;
	unsigned waited = 0;
	int err;

	snprintf(sh->sql, SQL_MAX, "ALTER TABLE %s.%s DELETE WHERE %s", sh->env.db, table, sh->where);
	err = ship_http_query(sh->http, sh->sql, NULL, 0);
	for (unsigned ms = 10; !err && pending; waited += ms, ms = ms < 1000 ? ms * 2 : ms) {
		char ans[64];

		snprintf(sh->sql, SQL_MAX, "SELECT count() FROM system.mutations WHERE database = '%s' AND table = '%s' "
			 "AND is_done = 0", sh->env.db, table);
		err = ship_http_query(sh->http, sh->sql, ans, sizeof(ans));
		pending = err ? 0 : strtoull(ans, NULL, 10);
		if (pending && waited >= MUTATION_WAIT_MS) {
			snprintf(sh->msg, sizeof(sh->msg), "%s.%s: a mutation still pending after %u s (system.mutations)",
				 sh->env.db, table, MUTATION_WAIT_MS / 1000);
			return -ETIMEDOUT;
		}
		if (pending)
			ship_sleep_ms(ms);
	}
	return err;
}

/* One table's rows, streamed from the converter; nothing when the file has none. */
static int ship_table(struct shipper *sh, const char *table, const char *path)
{
	char head[64 << 10];
	int fd, err = 0, st;
	pid_t pid = ship_convert(sh, table, path, &fd);
	ssize_t n = 0;

	if (pid < 0)
		return (int)pid;
	while ((n = read(fd, head, sizeof(head))) < 0 && errno == EINTR)
		;
	if (n > 0)
		err = ship_http_post_fd(sh->http, head, (size_t)n, fd);
	close(fd); /* a converter cut short by a failed POST stops on EPIPE */
	st = ship_convert_wait(pid);
	if (!err && (n < 0 || st < 0)) {
		snprintf(sh->msg, sizeof(sh->msg), "sct-convert failed on table %s", table);
		return -ENOEXEC;
	}
	return err;
}

static const char *ship_table_name(uint32_t i)
{
	const struct sct_type_schema *ts = i ? sct_schema_builtin(i) : NULL;

	return i ? (ts ? ts->name : NULL) : "sessions";
}

/* One attempt at the steps of the file comment; 1 if it was there already. */
static int ship_attempt(struct shipper *sh, const char *path, const char *sessions, size_t len, off_t bytes)
{
	unsigned long long count = 0;
	char where[sizeof(sh->first) + 64];
	int err;

	snprintf(where, sizeof(where), "(host, recording, sequence) = %s", sh->first);
	err = ship_count(sh, "files", where, &count);
	if (err || count)
		return err ? err : 1;
	/*
	 * The sessions rows go in first and are deleted last, so a file without them has no rows
	 * anywhere: the common case costs one query on a small table, not one per record table.
	 */
	err = ship_count(sh, "sessions", sh->where, &count);
	for (uint32_t i = 1; !err && count && i <= SCT_REC_MAX + 1; i++) {
		const char *t = ship_table_name(i <= SCT_REC_MAX ? i : 0);
		unsigned long long rows = 0;

		err = t ? ship_count(sh, t, sh->where, &rows) : 0;
		if (!err && t && rows)
			err = ship_delete(sh, t);
	}
	if (!err)
		err = ship_http_post_fd(sh->http, sessions, len, -1);
	for (uint32_t i = 1; !err && i <= SCT_REC_MAX; i++)
		if (ship_table_name(i))
			err = ship_table(sh, ship_table_name(i), path);
	if (err)
		return err;
	snprintf(sh->sql, SQL_MAX, "INSERT INTO %s.files (host, recording, sequence, path, bytes) VALUES (%.*s, '",
		 sh->env.db, (int)strlen(sh->first) - 2, sh->first + 1);
	for (size_t w = strlen(sh->sql); *path && w < SQL_MAX - 64; path++) {
		if (*path == '\'' || *path == '\\')
			sh->sql[w++] = '\\';
		sh->sql[w++] = *path;
		sh->sql[w] = '\0';
	}
	snprintf(sh->sql + strlen(sh->sql), 64, "', %lld)", (long long)bytes);
	return ship_http_query(sh->http, sh->sql, NULL, 0);
}

/* The sessions rows of a file (its identity); 3 when it is damaged or has no trailer. */
static int ship_sessions(struct shipper *sh, const char *path, char *buf, size_t cap, size_t *len)
{
	int fd, st;
	pid_t pid = ship_convert(sh, "sessions", path, &fd);
	ssize_t n;

	if (pid < 0)
		return (int)pid;
	n = ship_read_all(fd, buf, cap);
	close(fd);
	st = ship_convert_wait(pid);
	if (n < 0 || st < 0)
		return n < 0 ? (int)n : st;
	*len = (size_t)n;
	return st;
}

/*
 * Why the converter could not read path, in the reader's words ("not an sct trace: ...",
 * "file format 2.0 is newer ..."): read again here, as the converter's own stderr is its footer.
 */
static void ship_unreadable_why(const char *path, char *why, size_t cap)
{
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0, n;

	r = sct_reader_open(path, &err);
	if (!r) {
		snprintf(why, cap, "%s", sct_strerror(err ? err : -EIO));
		return;
	}
	while ((n = sct_reader_next(r, &rec)) > 0)
		;
	if (n < 0)
		snprintf(why, cap, "%s", *sct_reader_error(r) ? sct_reader_error(r) : sct_strerror(n));
	else
		snprintf(why, cap, "sct-convert failed on it");
	sct_reader_close(r);
}

/* What a failure to identify path (err from ship_sessions() or ship_identify()) means, in sh->msg. */
static const char *ship_why(struct shipper *sh, const char *path, int err)
{
	if (err == -EIO)
		ship_unreadable_why(path, sh->msg, sizeof(sh->msg));
	else if (err == -ENOEXEC)
		snprintf(sh->msg, sizeof(sh->msg), "cannot run %.180s (--sct-convert PATH names it)", sh->convert_path);
	else
		snprintf(sh->msg, sizeof(sh->msg), "%s", err == -ENODATA ? "no HEADER: nothing identifies its rows" :
			 sct_strerror(err));
	return sh->msg;
}

/* Exit status of one file: 0 shipped (or there, or not settled), or an EXIT_* code. */
static int ship_file(struct shipper *sh, const char *path, char *buf)
{
	struct stat st;
	size_t len = 0;
	int err;

	if (stat(path, &st)) {
		fprintf(stderr, "sct-ship: %s: %s\n", path, strerror(errno));
		return EXIT_UNREADABLE;
	}
	if (ship_state_has(sh, &st))
		return 0;
	err = ship_sessions(sh, path, buf, SESSIONS_MAX, &len);
	if (err == 3 && time(NULL) - st.st_mtim.tv_sec < (time_t)sh->env.settle) {
		fprintf(stderr, "sct-ship: %s: no trailer yet (modified under %u s ago): later\n", path, sh->env.settle);
		return 0;
	}
	if (err >= 0)
		err = ship_identify(sh, buf);
	if (err < 0) {
		fprintf(stderr, "sct-ship: %s: %s\n", path, ship_why(sh, path, err));
		return EXIT_UNREADABLE;
	}
	for (unsigned attempt = 0, wait = sh->env.backoff_ms;; attempt++) {
		err = ship_attempt(sh, path, buf, len, st.st_size);
		if (err >= 0)
			break;
		fprintf(stderr, "sct-ship: %s: attempt %u failed: %s\n", path, attempt + 1,
			err == -ENOEXEC || err == -ETIMEDOUT ? sh->msg : ship_http_error(sh->http));
		if (attempt >= sh->env.retries)
			return EXIT_SHIP_FAILED;
		ship_sleep_ms(wait);
		wait = wait < 30000 ? wait * 2 : 60000;
	}
	if (ship_state_add(sh, &st, path))
		fprintf(stderr, "sct-ship: %s/shipped: cannot record %s (harmless: the next run asks the server)\n",
			sh->env.state, path);
	if (!err)
		fprintf(stderr, "sct-ship: %s: shipped\n", path);
	return 0;
}

static int ship_is_trace(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".sct");
}

/* A directory's *.sct files in name order (rotation numbers them in order). */
static int ship_dir(struct shipper *sh, const char *dir, char *buf)
{
	struct dirent **list;
	int n = scandir(dir, &list, ship_is_trace, alphasort), status = 0;

	if (n < 0) {
		fprintf(stderr, "sct-ship: %s: %s\n", dir, strerror(errno));
		return EXIT_UNREADABLE;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		int s;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		free(list[i]);
		if (status == EXIT_SHIP_FAILED)
			continue;
		s = ship_file(sh, path, buf);
		status = s == EXIT_SHIP_FAILED || s > status ? s : status;
	}
	free(list);
	return status;
}

static int ship_run(struct shipper *sh)
{
	int status = 0;
	char *buf = malloc(SESSIONS_MAX);

	if (!buf)
		return EXIT_SHIP_FAILED;
	for (int i = 0; i < sh->env.nfiles && status != EXIT_SHIP_FAILED; i++) {
		struct stat st;
		int s = !stat(sh->env.files[i], &st) && S_ISDIR(st.st_mode) ? ship_dir(sh, sh->env.files[i], buf) :
			ship_file(sh, sh->env.files[i], buf);

		status = s == EXIT_SHIP_FAILED || s > status ? s : status;
	}
	free(buf);
	return status;
}

int main(int argc, char **argv)
{
	struct shipper sh = { .state_fd = -1 };
	int lock, status;

	if (parse_args(&sh.env, argc, argv))
		return EXIT_USAGE;
	signal(SIGPIPE, SIG_IGN);
	lock = ship_lock(sh.env.state);
	if (lock < 0) {
		fprintf(stderr, "sct-ship: %s/lock: %s\n", sh.env.state,
			lock == -EBUSY ? "another sct-ship is running" : strerror(-lock));
		return lock == -EBUSY ? EXIT_LOCKED : EXIT_SHIP_FAILED;
	}
	ship_find_convert(&sh);
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "sct-ship: libcurl cannot start\n");
		return EXIT_SHIP_FAILED;
	}
	sh.http = ship_http_new(sh.env.url);
	sh.sql = malloc(SQL_MAX);
	status = sh.http && sh.sql ? ship_state_open(&sh) : -ENOMEM;
	if (status) {
		fprintf(stderr, "sct-ship: %s/shipped: %s\n", sh.env.state, strerror(-status));
		status = EXIT_SHIP_FAILED;
	} else {
		status = ship_run(&sh);
	}
	if (sh.state_fd >= 0)
		close(sh.state_fd);
	free(sh.shipped);
	free(sh.sql);
	ship_http_free(sh.http);
	curl_global_cleanup();
	close(lock);
	return status;
}
