/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-ship: trace files to ClickHouse's HTTP interface. Error convention: functions return 0
 * or a negative errno; the text of what failed is in the module's message buffer (the
 * struct ship_http's, or a msg argument), escaped for a terminal, and only ship_main.c
 * prints it.
 */
#ifndef SCT_SHIP_H
#define SCT_SHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define SHIP_ERR_MAX 512
#define SHIP_MSG_MAX 1024 /* a message: escaped texts and what to do about them */

/* ---------------------------------------------------------------- ship_http.c */
struct ship_http_opts {
	const char *url;      /* http://host:port/ with optional ?settings */
	const char *user;     /* NULL: the URL's or the server's default */
	const char *password; /* sent with the user by HTTP basic authentication, never in a URL */
	unsigned timeout_s;   /* each request whole, connecting included */
	size_t max_response;  /* bytes of an answer; more fails the request */
};
struct ship_http;
/* A connection (o is copied, its strings too); NULL on ENOMEM. */
struct ship_http *ship_http_new(const struct ship_http_opts *o);
void ship_http_free(struct ship_http *h);
/* What the last failed call said: curl's error or the server's exception, one line, escaped. */
const char *ship_http_error(const struct ship_http *h);
/*
 * Runs one statement (sent as the POST body); the first line of the answer into out (cap
 * bytes, NUL-terminated; out may be NULL). -EIO when no whole answer came (cannot connect,
 * timeout, an answer over max_response); -EREMOTEIO when the server answered anything but
 * 200 (it refused the statement).
 */
int ship_http_query(struct ship_http *h, const char *sql, char *out, size_t cap);
/*
 * POSTs head (len bytes, the start of the body: the INSERT statement and the first rows)
 * then everything read from fd until its end. Errors as ship_http_query().
 */
int ship_http_post_fd(struct ship_http *h, const char *head, size_t len, int fd);

/* ---------------------------------------------------------------- ship_sql.c */
/*
 * A statement built in a bounded buffer. Every value from a file or the command line goes in
 * through ship_sql_str() or ship_sql_u64(): ClickHouse 18.16 has no query parameters, so a
 * string is a literal in which every byte but letters, digits and a few marks is a \xNN
 * escape: no byte of a value can end the literal or mean anything to the parser.
 */
struct ship_sql {
	char *p;
	size_t len, cap;
	bool full; /* something did not fit: the statement is not to be sent */
};
int ship_sql_init(struct ship_sql *q, size_t cap);
void ship_sql_free(struct ship_sql *q);
void ship_sql_reset(struct ship_sql *q);
/* SQL text of the program itself (never a value). */
void ship_sql_add(struct ship_sql *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ship_sql_str(struct ship_sql *q, const void *p, size_t len);
void ship_sql_u64(struct ship_sql *q, uint64_t v);

/* ---------------------------------------------------------------- ship_ident.c */
/*
 * What a file's rows are identified by: one host, one recording and the sequences of its
 * sessions. A file whose sessions name several hosts or recordings is refused: its rows
 * could then be another host's, and deleting or marking them would reach rows it does not own.
 */
struct ship_ident {
	char *host; /* the bytes as the server stores them (TabSeparated escapes undone) */
	size_t host_len;
	char recording[33];
	uint64_t *seqs; /* distinct, in the order of the sessions */
	size_t nseqs;
};
/*
 * From sct-convert's sessions output (len bytes, NUL-terminated: the INSERT line, then one
 * TabSeparated row per session). -EINVAL (msg says why) when a row is not what sct-convert writes for a session
 * (fields, escapes, a recording id that is not 32 lowercase hex digits, a sequence that is
 * not a number), or rows mix hosts or recordings; -ENODATA without rows; -ENOMEM.
 */
int ship_ident_parse(struct ship_ident *id, const char *rows, size_t len, char *msg, size_t cap);
void ship_ident_free(struct ship_ident *id);
/* "host = ... AND recording = ... AND sequence IN (...)": every row of the file. */
void ship_ident_where(const struct ship_ident *id, struct ship_sql *q);
/* "(host, recording, sequence, " for each sequence: the start of a VALUES tuple. */
void ship_ident_tuple(const struct ship_ident *id, size_t i, struct ship_sql *q);

/* ---------------------------------------------------------------- ship_state.c */
/*
 * The state folder: the lock, the list of shipped files and the files that failed. It must
 * be a directory of the caller's that no one else may write (as ssh's StrictModes asks of
 * ~/.ssh), and nothing in it is opened through a symlink: root writes there.
 */
struct ship_state;
/*
 * Creates dir (0700) if missing, checks it, takes its lock. -EBUSY when another sct-ship
 * holds it; -EPERM (msg says why) when dir is someone else's or others may write it; -ELOOP
 * for a symlink where a file of it should be; other -errno.
 */
int ship_state_open(struct ship_state **out, const char *dir, char *msg, size_t cap);
void ship_state_close(struct ship_state *s);
/* The file (by device, inode, size and mtime) is listed as shipped. */
bool ship_state_shipped(const struct ship_state *s, const struct stat *st);
/* Lists it as shipped (its path escaped: one line whatever the name) and forgets its failures. */
int ship_state_add_shipped(struct ship_state *s, const struct stat *st, const char *path);
/* Runs in which the file failed so far (0 if none); the reason of the last into why (may be NULL). */
unsigned ship_state_failures(const struct ship_state *s, const struct stat *st, char *why, size_t cap);
/* The file has failed in runs runs, the last for this reason (escaped text). */
int ship_state_fail(struct ship_state *s, const struct stat *st, const char *path, unsigned runs, const char *why);

/* ---------------------------------------------------------------- ship_file.c */
/* Every setting of the command line, with its default. */
struct ship_env {
	const char *url;
	const char *db;
	const char *state;
	const char *convert;
	const char *format; /* sct-convert --clickhouse-format of the record tables */
	const char *user;
	const char *password_file;
	unsigned retries;
	unsigned backoff_ms;
	unsigned settle;
	unsigned timeout_s;
	unsigned max_response;
	unsigned quarantine;
	char **files;
	int nfiles;
};

struct shipper {
	struct ship_env env;
	struct ship_http *http;
	struct ship_state *state;
	char convert_path[4096];
	struct ship_sql q;     /* the statement being built */
	struct ship_ident id;  /* the file's */
	char msg[SHIP_MSG_MAX]; /* what failed, when it is not the HTTP request */
	bool file_fault;       /* the last failure was the file's: its rows refused, or the converter failed */
};

/* The file's sessions rows (its identity) into buf (cap bytes): 0, 3 when it is damaged or has no trailer; -errno. */
int ship_file_sessions(struct shipper *sh, const char *path, char *buf, size_t cap, size_t *len);
/*
 * One attempt at shipping the file whose sessions rows (len bytes) are in sessions and
 * whose identity is sh->id: 0 sent, 1 there already; -EEXIST when some but not all of its
 * sessions are marked shipped (by another file: refused, msg says so); other -errno (the
 * server's text in ship_http_error(), else msg).
 */
int ship_file_attempt(struct shipper *sh, const char *path, const char *sessions, size_t len, off_t bytes);
/* Deletes the rows of sh->id's sessions if none of them is marked shipped (a file given up). */
int ship_file_clear(struct shipper *sh);

#endif
