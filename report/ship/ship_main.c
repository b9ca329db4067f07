// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-ship: sends sct trace files to ClickHouse over HTTP, one file at a time, so that every
 * file's rows end up there exactly once (ship_file.c says how). This file: the command line,
 * the credentials, the order of files, and what a run does with a file that fails: a file
 * the server refuses, run after run, is quarantined (kept in the state folder with the
 * reason) so that it does not hold back the files after it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "exit_status.h"
#include "names.h"
#include "sct.h"
#include "ship.h"

#define EXIT_SHIP_FAILED 1 /* a file could not be shipped after every retry: try again later */
#define EXIT_USAGE 2
#define EXIT_UNREADABLE 3  /* a file could not be read or identified: skipped */
#define EXIT_LOCKED 4      /* another sct-ship holds the state directory */
#define EXIT_QUARANTINED 5 /* a file is quarantined: skipped, the others shipped */
#define SESSIONS_MAX (64u << 20) /* bytes of sessions rows read from one file */
#define SQL_MAX (1u << 20)
#define PASSWORD_MAX 4096

static const char usage_text[] =
"Usage: sct-ship --url URL [OPTIONS] FILE|DIR...\n"
"Sends sct trace files (a DIR: its *.sct files in name order) to ClickHouse's HTTP\n"
"interface, one file at a time: rows go to the tables of sct-convert --schema clickhouse,\n"
"then rows in DB.files mark the file as shipped. Sending a file again adds nothing;\n"
"a run cut short (crash, server down) is finished by the next one: rows of a file\n"
"without its DB.files rows are deleted and sent again. Every step is retried with\n"
"exponential backoff. Meant for a cron job or a systemd timer on every host.\n"
"\n"
"  -u, --url URL         http://HOST:8123/ or https://... (query parameters: settings)\n"
"      --user NAME       ClickHouse user (default: $CLICKHOUSE_USER, else the server's default)\n"
"      --password-file FILE  the user's password: the file's first line (default:\n"
"                        $CLICKHOUSE_PASSWORD); sent by HTTP basic authentication\n"
"  -d, --database DB     database of the MergeTree tables (default sct; with a cluster,\n"
"                        the shard's local database, e.g. sct_local)\n"
"  -s, --state DIR       lock, list of shipped files and of failed ones (default\n"
"                        /var/lib/sct-ship); must be the caller's, writable by no one else\n"
"  -r, --retries N       attempts per file after the first (default 5)\n"
"  -b, --backoff MS      first wait between attempts, doubled each time up to 60 s\n"
"                        (default 1000)\n"
"      --timeout SECONDS  longest HTTP request, connecting and sending rows included\n"
"                        (default 600)\n"
"      --max-response BYTES  longest answer of the server (default 1048576)\n"
"      --quarantine-after N  runs in which the server refuses a file's rows (or sct-convert\n"
"                        fails on it) before the file is quarantined (default 3)\n"
"      --settle SECONDS  a file without a trailer (still written, or cut by a crash) is\n"
"                        shipped once unmodified this long (default 600)\n"
"      --sct-convert PATH  the converter (default: next to sct-ship, else in PATH)\n"
"      --clickhouse-format F  rows of the record tables in rowbinary (RowBinary, the\n"
"                        default: no text to write or parse) or tsv (TabSeparated);\n"
"                        the same rows either way\n"
"  -h, --help            this text\n"
"Exit status: 0 every file shipped, already there or not settled yet; 1 a file could not\n"
"be shipped after the retries (later files not tried); 2 usage; 3 a file could not be\n"
"read or has no HEADER (skipped); 4 another sct-ship holds the state directory's lock;\n"
"5 a file is quarantined (DIR/failed says why; the others were shipped).\n"
"\n"
"Examples:\n"
"  sct-convert --schema clickhouse | clickhouse-client --multiquery\n"
"  sct-ship --url http://ch1:8123/ /var/lib/sct/\n"
"  sct-ship --url https://ch1:8443/ --user sct --password-file /etc/sct/ch-password \\\n"
"           --database sct_local a.sct\n";

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

static int parse_uint(const char *arg, unsigned min, unsigned max, unsigned *out, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || errno || *end || v < min || v > max)
		return usage_error(what, arg);
	*out = (unsigned)v;
	return 0;
}

static int parse_args(struct ship_env *env, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "url", required_argument, NULL, 'u' },     { "database", required_argument, NULL, 'd' },
		{ "state", required_argument, NULL, 's' },   { "retries", required_argument, NULL, 'r' },
		{ "backoff", required_argument, NULL, 'b' }, { "settle", required_argument, NULL, 'S' },
		{ "sct-convert", required_argument, NULL, 'C' }, { "user", required_argument, NULL, 'U' },
		{ "password-file", required_argument, NULL, 'P' }, { "timeout", required_argument, NULL, 'T' },
		{ "max-response", required_argument, NULL, 'M' }, { "quarantine-after", required_argument, NULL, 'Q' },
		{ "clickhouse-format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
	};
	int c, err = 0;

	*env = (struct ship_env){ .db = "sct", .state = "/var/lib/sct-ship", .retries = 5, .backoff_ms = 1000,
				  .settle = 600, .timeout_s = 600, .max_response = 1u << 20, .quarantine = 3,
				  .user = getenv("CLICKHOUSE_USER"), .format = "rowbinary" };
	argv[0] = (char *)"sct-ship"; /* getopt's messages name the tool, not the path it ran by */
	while (!err && (c = getopt_long(argc, argv, "u:d:s:r:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'u': env->url = optarg; break;
		case 'd': env->db = optarg; break;
		case 's': env->state = optarg; break;
		case 'C': env->convert = optarg; break;
		case 'F': env->format = optarg; break;
		case 'U': env->user = optarg; break;
		case 'P': env->password_file = optarg; break;
		case 'r': err = parse_uint(optarg, 0, 1000, &env->retries, "invalid --retries:"); break;
		case 'b': err = parse_uint(optarg, 0, 3600000, &env->backoff_ms, "invalid --backoff:"); break;
		case 'S': err = parse_uint(optarg, 0, 86400 * 365, &env->settle, "invalid --settle:"); break;
		case 'T': err = parse_uint(optarg, 1, 86400 * 7, &env->timeout_s, "invalid --timeout:"); break;
		case 'M': err = parse_uint(optarg, 1024, 1u << 30, &env->max_response, "invalid --max-response:"); break;
		case 'Q': err = parse_uint(optarg, 1, 1000, &env->quarantine, "invalid --quarantine-after:"); break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default: return usage_hint(); /* getopt said which option and why */
		}
	}
	if (err)
		return err;
	if (strcmp(env->format, "rowbinary") && strcmp(env->format, "tsv"))
		return usage_error("--clickhouse-format must be rowbinary or tsv, not", env->format);
	if (!env->url)
		return usage_error("--url http://HOST:PORT/ is required", NULL);
	if (strncmp(env->url, "http://", 7) && strncmp(env->url, "https://", 8))
		return usage_error("--url must be http://HOST:PORT/ or https://HOST:PORT/, not", env->url);
	if (!*env->db || strspn(env->db, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
	    strlen(env->db))
		return usage_error("invalid --database name:", env->db);
	if (optind >= argc)
		return usage_error("no FILE or DIR", NULL);
	env->files = argv + optind;
	env->nfiles = argc - optind;
	return 0;
}

/* "sct-ship: PATH: what", the path escaped (a file name can hold any byte but '/' and NUL). */
static void ship_say(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ship_say(const char *path, const char *fmt, ...)
{
	char esc[PATH_MAX * 4 + 1], msg[SHIP_MSG_MAX + 256];
	va_list ap;

	names_escape(esc, sizeof(esc), path, strlen(path));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sct-ship: %s: %s\n", esc, msg);
}

/*
 * The password: --password-file's first line, else $CLICKHOUSE_PASSWORD (the environment of
 * a process is its owner's to read, its command line everyone's), else none. Into buf.
 */
static int ship_password(const struct ship_env *env, char *buf, size_t cap, bool *have)
{
	const char *from_env = getenv("CLICKHOUSE_PASSWORD");
	ssize_t n;
	int fd;

	*have = env->password_file || from_env;
	if (!env->password_file) {
		snprintf(buf, cap, "%s", from_env ? from_env : "");
		return 0;
	}
	fd = open(env->password_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, cap)) < 0 && errno == EINTR)
		;
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n == cap)
		return -EFBIG;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
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

/* ---------------------------------------------------------------- one file */

/*
 * A file the server refused in --quarantine-after runs, or that can never be shipped (its
 * sessions refused), is set aside: its rows deleted (when it owns them: a file refused for
 * rows it does not own touches nothing), the reason kept in the state folder.
 */
static int ship_quarantine(struct shipper *sh, const char *path, const struct stat *st, const char *why, bool clear)
{
	if (clear && ship_file_clear(sh))
		ship_say(path, "its rows could not be deleted: %s (the next run that ships it replaces them)",
			 ship_http_error(sh->http));
	if (ship_state_fail(sh->state, st, path, sh->env.quarantine, why))
		ship_say(path, "%s/failed: cannot record the quarantine", sh->env.state);
	ship_say(path, "quarantined: %s (delete its line in %s/failed to ship it again)", why, sh->env.state);
	return EXIT_QUARANTINED;
}

/* Every attempt failed: the file's fault runs counted toward its quarantine; the server's are not. */
static int ship_failed(struct shipper *sh, const char *path, const struct stat *st, const char *why)
{
	unsigned runs = ship_state_failures(sh->state, st, NULL, 0) + 1;

	if (!sh->file_fault)
		return EXIT_SHIP_FAILED;
	if (runs >= sh->env.quarantine)
		return ship_quarantine(sh, path, st, why, true);
	if (ship_state_fail(sh->state, st, path, runs, why))
		ship_say(path, "%s/failed: cannot record the failure", sh->env.state);
	ship_say(path, "failed in %u of %u runs before quarantine", runs, sh->env.quarantine);
	return EXIT_SHIP_FAILED;
}

static void ship_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* 0 when the file is in (*sent: by this run), else an EXIT_* status. */
static int ship_attempts(struct shipper *sh, const char *path, const struct stat *st, const char *buf, size_t len,
			 bool *sent)
{
	char why[SHIP_MSG_MAX];
	int err;

	for (unsigned attempt = 0, wait = sh->env.backoff_ms;; attempt++) {
		err = ship_file_attempt(sh, path, buf, len, st->st_size);
		*sent = !err;
		if (err >= 0)
			return 0;
		snprintf(why, sizeof(why), "%s", err == -ENOEXEC || err == -ETIMEDOUT || err == -EEXIST || err == -E2BIG ?
			 sh->msg : ship_http_error(sh->http));
		if (err == -EEXIST || err == -E2BIG)
			return ship_quarantine(sh, path, st, why, false);
		ship_say(path, "attempt %u failed: %s", attempt + 1, why);
		if (attempt >= sh->env.retries)
			return ship_failed(sh, path, st, why);
		ship_sleep_ms(wait);
		wait = wait < 30000 ? wait * 2 : 60000;
	}
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

/* What a failure to read path's sessions (err from ship_file_sessions()) means, in sh->msg. */
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
	char why[SHIP_MSG_MAX];
	struct stat st;
	size_t len = 0;
	unsigned runs;
	bool sent;
	int err;

	if (stat(path, &st)) {
		ship_say(path, "%s", strerror(errno));
		return EXIT_UNREADABLE;
	}
	if (ship_state_shipped(sh->state, &st))
		return 0;
	runs = ship_state_failures(sh->state, &st, why, sizeof(why));
	if (runs >= sh->env.quarantine) {
		ship_say(path, "quarantined: %s (%s/failed)", why, sh->env.state);
		return EXIT_QUARANTINED;
	}
	err = ship_file_sessions(sh, path, buf, SESSIONS_MAX, &len);
	if (err == 3 && time(NULL) - st.st_mtim.tv_sec < (time_t)sh->env.settle) {
		ship_say(path, "no trailer yet (modified under %u s ago): later", sh->env.settle);
		return 0;
	}
	if (err < 0) {
		ship_say(path, "%s", ship_why(sh, path, err));
		return EXIT_UNREADABLE;
	}
	ship_ident_free(&sh->id);
	err = ship_ident_parse(&sh->id, buf, len, sh->msg, sizeof(sh->msg));
	if (err == -ENODATA) {
		ship_say(path, "no HEADER: nothing identifies its rows");
		return EXIT_UNREADABLE;
	}
	if (err == -EINVAL)
		return ship_quarantine(sh, path, &st, sh->msg, false);
	if (err) {
		ship_say(path, "%s", strerror(-err));
		return EXIT_SHIP_FAILED;
	}
	err = ship_attempts(sh, path, &st, buf, len, &sent);
	if (err)
		return err;
	if (ship_state_add_shipped(sh->state, &st, path))
		ship_say(path, "%s/shipped: cannot record it (harmless: the next run asks the server)", sh->env.state);
	if (sent)
		ship_say(path, "shipped");
	return 0;
}

static int ship_is_trace(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".sct");
}

/* The worse of two exit statuses: a failure that stops the run first, then the highest. */
static int ship_worse(int a, int b)
{
	return a == EXIT_SHIP_FAILED || b == EXIT_SHIP_FAILED ? EXIT_SHIP_FAILED : a > b ? a : b;
}

/* A directory's *.sct files in name order (rotation numbers them in order). */
static int ship_dir(struct shipper *sh, const char *dir, char *buf)
{
	struct dirent **list;
	int n = scandir(dir, &list, ship_is_trace, alphasort), status = 0;

	if (n < 0) {
		ship_say(dir, "%s", strerror(errno));
		return EXIT_UNREADABLE;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		free(list[i]);
		if (status != EXIT_SHIP_FAILED)
			status = ship_worse(status, ship_file(sh, path, buf));
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

		status = ship_worse(status, s);
	}
	free(buf);
	return status;
}

/* The state folder, the converter, the connection: 0, or the exit status. */
static int ship_setup(struct shipper *sh, char *password)
{
	struct ship_http_opts o = { .url = sh->env.url, .user = sh->env.user, .timeout_s = sh->env.timeout_s,
				    .max_response = sh->env.max_response };
	bool have_password;
	char msg[SHIP_MSG_MAX];
	int err = ship_state_open(&sh->state, sh->env.state, msg, sizeof(msg));

	if (err) {
		ship_say(sh->env.state, "%s", err == -EBUSY ? "another sct-ship is running" : *msg ? msg : strerror(-err));
		return err == -EBUSY ? EXIT_LOCKED : EXIT_SHIP_FAILED;
	}
	err = ship_password(&sh->env, password, PASSWORD_MAX, &have_password);
	if (err) {
		ship_say(sh->env.password_file, "%s", err == -EFBIG ? "over 4 KiB: not a password file" : strerror(-err));
		return EXIT_USAGE;
	}
	if (strstr(sh->env.url, "password="))
		fprintf(stderr, "sct-ship: warning: a password in --url is visible to every local user (ps) and in "
			"server logs: use --password-file or CLICKHOUSE_PASSWORD\n");
	o.password = have_password ? password : NULL;
	unsetenv("CLICKHOUSE_PASSWORD"); /* the converters sct-ship runs have no use for it */
	ship_find_convert(sh);
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "sct-ship: libcurl cannot start\n");
		return EXIT_SHIP_FAILED;
	}
	sh->http = ship_http_new(&o);
	if (!sh->http || ship_sql_init(&sh->q, SQL_MAX)) {
		fprintf(stderr, "sct-ship: %s\n", strerror(ENOMEM));
		return EXIT_SHIP_FAILED;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char password[PASSWORD_MAX];
	struct shipper sh = { 0 };
	int status;

	if (parse_args(&sh.env, argc, argv))
		return EXIT_USAGE;
	signal(SIGPIPE, SIG_IGN);
	status = ship_setup(&sh, password);
	explicit_bzero(password, sizeof(password));
	if (!status)
		status = ship_run(&sh);
	ship_ident_free(&sh.id);
	if (sh.q.p)
		ship_sql_free(&sh.q);
	ship_http_free(sh.http);
	if (sh.http)
		curl_global_cleanup();
	ship_state_close(sh.state);
	return status;
}
