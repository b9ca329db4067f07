// SPDX-License-Identifier: BSD-2-Clause
/*
 * A file's identity, read from sct-convert's sessions rows and checked as if they came from
 * the file itself: sct-ship stays safe whatever the converter passes on (a recording id with
 * a tab, a quote or a newline in it shifts or ends a row, and is refused here).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ship.h"

/* The columns sct.sessions starts with, as sct-convert names them. */
static const char ident_cols[] = "host, recording, sequence, session";

/* Fields of each row: the columns named by the INSERT line ("INSERT INTO DB.sessions (a, b) FORMAT ..."). */
static int ident_ncols(const char *line, const char *end, char *msg, size_t cap)
{
	const char *open = memchr(line, '(', (size_t)(end - line));
	int n = 1;

	if (strncmp(line, "INSERT INTO ", 12) || !open || strncmp(open + 1, ident_cols, sizeof(ident_cols) - 1)) {
		snprintf(msg, cap, "sct-convert's sessions output does not start with the INSERT of sct.sessions");
		return -EINVAL;
	}
	for (const char *p = open; p < end && *p != ')'; p++)
		n += *p == ',';
	return n;
}

/* A TabSeparated field undone into dst (as long as the field at most): -EINVAL for an escape sct-convert never writes. */
static int ident_unescape(const char *p, const char *end, char *dst, size_t *len)
{
	static const char from[] = "\\tnr0", to[] = "\\\t\n\r";
	size_t n = 0;

	for (; p < end; p++) {
		const char *e;

		if (*p != '\\') {
			dst[n++] = *p;
			continue;
		}
		if (++p == end || !*p || !(e = strchr(from, *p)))
			return -EINVAL;
		dst[n++] = to[e - from]; /* "\0" maps to the NUL after to's last byte */
	}
	*len = n;
	return 0;
}

static int ident_hex32(const char *p, const char *end)
{
	if (end - p != 32)
		return -EINVAL;
	for (; p < end; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return -EINVAL;
	return 0;
}

static int ident_u64(const char *p, const char *end, uint64_t *v)
{
	*v = 0;
	if (p == end || end - p > 20)
		return -EINVAL;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9' || *v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return 0;
}

static int ident_add_seq(struct ship_ident *id, uint64_t seq)
{
	uint64_t *tmp;

	for (size_t i = 0; i < id->nseqs; i++)
		if (id->seqs[i] == seq)
			return 0;
	tmp = realloc(id->seqs, (id->nseqs + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	id->seqs = tmp;
	id->seqs[id->nseqs++] = seq;
	return 0;
}

/* One row (line..end, without its newline): ncols fields, the first four an identity of the file's host and recording. */
static int ident_row(struct ship_ident *id, const char *line, const char *end, int ncols, char *msg, size_t cap)
{
	const char *f[5], *p = line;
	char *host = malloc((size_t)(end - line) + 1);
	size_t host_len = 0;
	uint64_t seq, session;
	int n = 1, err = -EINVAL;

	if (!host)
		return -ENOMEM;
	for (f[0] = line; (p = memchr(p, '\t', (size_t)(end - p))); p++)
		if (n++ < 5)
			f[n - 1] = p + 1;
	if (n != ncols)
		snprintf(msg, cap, "a sessions row has %d fields, not %d", n, ncols);
	else if (ident_unescape(f[0], f[1] - 1, host, &host_len))
		snprintf(msg, cap, "a host name with an escape sct-convert does not write");
	else if (ident_hex32(f[1], f[2] - 1))
		snprintf(msg, cap, "a recording id that is not 32 lowercase hex digits");
	else if (ident_u64(f[2], f[3] - 1, &seq) || ident_u64(f[3], ncols > 4 ? f[4] - 1 : end, &session))
		snprintf(msg, cap, "a sequence or session that is not a number");
	else if (id->host && (host_len != id->host_len || memcmp(host, id->host, host_len) ||
			      memcmp(id->recording, f[1], 32)))
		snprintf(msg, cap, "sessions of several hosts or recordings (ship each recording's files on their own)");
	else
		err = 0;
	if (!err && !id->host) {
		id->host = host;
		id->host_len = host_len;
		memcpy(id->recording, f[1], 32);
		id->recording[32] = '\0';
		host = NULL;
	}
	free(host);
	return err ? err : ident_add_seq(id, seq);
}

int ship_ident_parse(struct ship_ident *id, const char *rows, size_t len, char *msg, size_t cap)
{
	const char *line = rows, *end = strchr(rows, '\n');
	int ncols, err = 0;

	*id = (struct ship_ident){ 0 };
	if (strlen(rows) != len) {
		snprintf(msg, cap, "a NUL byte in sct-convert's sessions output");
		return -EINVAL;
	}
	if (!end)
		return *rows ? -EINVAL : -ENODATA;
	ncols = ident_ncols(line, end, msg, cap);
	if (ncols < 0)
		return ncols;
	while (!err && *(line = end + 1)) {
		end = strchr(line, '\n');
		if (!end) {
			snprintf(msg, cap, "a sessions row without its end of line");
			err = -EINVAL;
		} else {
			err = ident_row(id, line, end, ncols, msg, cap);
		}
	}
	if (!err && !id->nseqs)
		err = -ENODATA;
	if (err)
		ship_ident_free(id);
	return err;
}

void ship_ident_free(struct ship_ident *id)
{
	free(id->host);
	free(id->seqs);
	*id = (struct ship_ident){ 0 };
}

void ship_ident_where(const struct ship_ident *id, struct ship_sql *q)
{
	ship_sql_add(q, "host = ");
	ship_sql_str(q, id->host, id->host_len);
	ship_sql_add(q, " AND recording = ");
	ship_sql_str(q, id->recording, 32);
	ship_sql_add(q, " AND sequence IN (");
	for (size_t i = 0; i < id->nseqs; i++) {
		ship_sql_add(q, "%s", i ? ", " : "");
		ship_sql_u64(q, id->seqs[i]);
	}
	ship_sql_add(q, ")");
}

void ship_ident_tuple(const struct ship_ident *id, size_t i, struct ship_sql *q)
{
	ship_sql_add(q, "(");
	ship_sql_str(q, id->host, id->host_len);
	ship_sql_add(q, ", ");
	ship_sql_str(q, id->recording, 32);
	ship_sql_add(q, ", ");
	ship_sql_u64(q, id->seqs[i]);
	ship_sql_add(q, ", ");
}
