// SPDX-License-Identifier: BSD-2-Clause
/*
 * One file to ClickHouse, exactly once, whatever fails and however often it runs.
 *
 * The rows are sct-convert's --to clickhouse output (run per table, streamed): the loader and
 * the shipper cannot disagree on a column. A file is identified by the (host, recording,
 * sequence) of its sessions: one host and one recording (ship_ident.c), one or more
 * sequences; the record tables' rows carry identity columns that sct-convert writes from the
 * same HEADERs as the sessions rows checked there. Non-replicated MergeTree does not
 * deduplicate inserts, so exactness comes from an order of steps that any crash or failure
 * may cut anywhere:
 *   1. a row in DB.files for every identity of the file: done, nothing to send; for some of
 *      them only: refused, as another file shipped those rows and they are not this file's
 *      to delete or to add to;
 *   2. rows of the file in any table (a cut earlier attempt, as none of its identities is
 *      marked): deleted by an ALTER ... DELETE mutation, waited for until done, table by
 *      table, DB.sessions last;
 *   3. every table's rows inserted, DB.sessions first;
 *   4. the DB.files rows inserted (one per identity, one INSERT), last.
 * A re-run after a cut at any step finds no DB.files row, so it deletes what step 3 left
 * and inserts everything again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sct.h"
#include "ship.h"

/* ---------------------------------------------------------------- the converter */

/*
 * sct-convert --to clickhouse for one table of one file, its stdout on *fd. The sessions
 * rows are TabSeparated whatever the format: ship_ident.c reads them (a few rows per file).
 */
static pid_t ship_convert(struct shipper *sh, const char *table, const char *path, int *fd)
{
	const char *format = strcmp(table, "sessions") ? sh->env.format : "tsv";
	char *argv[] = { sh->convert_path, "--to", "clickhouse", "--records", (char *)table, "--clickhouse-format",
			 (char *)format, "--database", (char *)sh->env.db, "--strict", "--", (char *)path, NULL };
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

int ship_file_sessions(struct shipper *sh, const char *path, char *buf, size_t cap, size_t *len)
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

/* ---------------------------------------------------------------- statements */

static void ship_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Sends the statement built in sh->q; its answer's first line into ans. */
static int ship_send(struct shipper *sh, char *ans, size_t cap)
{
	if (sh->q.full) {
		snprintf(sh->msg, sizeof(sh->msg), "a statement over %zu bytes (too many sessions in one file)", sh->q.cap);
		return -E2BIG;
	}
	return ship_http_query(sh->http, sh->q.p, ans, cap);
}

/* A number the server answered (what a count() query returns). */
static int ship_number(struct shipper *sh, unsigned long long *v)
{
	char ans[64];
	int err = ship_send(sh, ans, sizeof(ans));

	if (!err)
		*v = strtoull(ans, NULL, 10);
	return err;
}

/* count() of the file's rows in table. */
static int ship_count(struct shipper *sh, const char *table, unsigned long long *count)
{
	ship_sql_reset(&sh->q);
	ship_sql_add(&sh->q, "SELECT count() FROM %s.%s WHERE ", sh->env.db, table);
	ship_ident_where(&sh->id, &sh->q);
	return ship_number(sh, count);
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

	ship_sql_reset(&sh->q);
	ship_sql_add(&sh->q, "ALTER TABLE %s.%s DELETE WHERE ", sh->env.db, table);
	ship_ident_where(&sh->id, &sh->q);
	err = ship_send(sh, NULL, 0);
	for (unsigned ms = 10; !err && pending; waited += ms, ms = ms < 1000 ? ms * 2 : ms) {
		ship_sql_reset(&sh->q);
		ship_sql_add(&sh->q, "SELECT count() FROM system.mutations WHERE database = ");
		ship_sql_str(&sh->q, sh->env.db, strlen(sh->env.db));
		ship_sql_add(&sh->q, " AND table = ");
		ship_sql_str(&sh->q, table, strlen(table));
		ship_sql_add(&sh->q, " AND is_done = 0");
		err = ship_number(sh, &pending);
		if (!err && pending && waited >= MUTATION_WAIT_MS) {
			snprintf(sh->msg, sizeof(sh->msg), "%s.%s: a mutation still pending after %u s (system.mutations)",
				 sh->env.db, table, MUTATION_WAIT_MS / 1000);
			return -ETIMEDOUT;
		}
		if (!err && pending)
			ship_sleep_ms(ms);
	}
	return err;
}

static const char *ship_table_name(uint32_t i)
{
	const struct sct_type_schema *ts = i ? sct_schema_builtin(i) : NULL;

	return i ? (ts ? ts->name : NULL) : "sessions";
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
	sh->file_fault = err == -EREMOTEIO;
	if (!err && (n < 0 || st < 0)) {
		snprintf(sh->msg, sizeof(sh->msg), "sct-convert failed on table %s", table);
		sh->file_fault = true;
		return -ENOEXEC;
	}
	return err;
}

/* How many of the file's identities DB.files marks as shipped. */
static int ship_marked(struct shipper *sh, unsigned long long *marked)
{
	ship_sql_reset(&sh->q);
	ship_sql_add(&sh->q, "SELECT uniqExact(host, recording, sequence) FROM %s.files WHERE ", sh->env.db);
	ship_ident_where(&sh->id, &sh->q);
	return ship_number(sh, marked);
}

/*
 * Step 2. The sessions rows go in first and are deleted last, so a file without them has no
 * rows anywhere: the common case costs one query on a small table, not one per record table.
 */
static int ship_delete_rows(struct shipper *sh)
{
	unsigned long long count = 0;
	int err = ship_count(sh, "sessions", &count);

	for (uint32_t i = 1; !err && count && i <= SCT_REC_MAX + 1; i++) {
		const char *t = ship_table_name(i <= SCT_REC_MAX ? i : 0);
		unsigned long long rows = 0;

		err = t ? ship_count(sh, t, &rows) : 0;
		if (!err && t && rows)
			err = ship_delete(sh, t);
	}
	return err;
}

/* Step 4: a DB.files row per identity, in one INSERT (one part: all of them or none). */
static int ship_mark(struct shipper *sh, const char *path, off_t bytes)
{
	ship_sql_reset(&sh->q);
	ship_sql_add(&sh->q, "INSERT INTO %s.files (host, recording, sequence, path, bytes) VALUES ", sh->env.db);
	for (size_t i = 0; i < sh->id.nseqs; i++) {
		ship_sql_add(&sh->q, "%s", i ? ", " : "");
		ship_ident_tuple(&sh->id, i, &sh->q);
		ship_sql_str(&sh->q, path, strlen(path));
		ship_sql_add(&sh->q, ", %lld)", (long long)bytes);
	}
	return ship_send(sh, NULL, 0);
}

int ship_file_attempt(struct shipper *sh, const char *path, const char *sessions, size_t len, off_t bytes)
{
	unsigned long long marked = 0;
	int err;

	sh->file_fault = false;
	err = ship_marked(sh, &marked);
	if (err || marked == sh->id.nseqs)
		return err ? err : 1;
	if (marked) {
		snprintf(sh->msg, sizeof(sh->msg), "%llu of its %zu sessions are marked shipped in %s.files by another "
			 "file: its rows are not this file's to replace", marked, sh->id.nseqs, sh->env.db);
		return -EEXIST;
	}
	err = ship_delete_rows(sh);
	if (!err) {
		err = ship_http_post_fd(sh->http, sessions, len, -1);
		sh->file_fault = err == -EREMOTEIO;
	}
	for (uint32_t i = 1; !err && i <= SCT_REC_MAX; i++)
		if (ship_table_name(i))
			err = ship_table(sh, ship_table_name(i), path);
	return err ? err : ship_mark(sh, path, bytes);
}

int ship_file_clear(struct shipper *sh)
{
	unsigned long long marked = 0;
	int err = ship_marked(sh, &marked);

	return err || marked ? err : ship_delete_rows(sh);
}
