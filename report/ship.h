/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sct-ship: trace files to ClickHouse's HTTP interface. Error convention: functions return 0
 * or a negative errno; the text of what failed is in the struct ship_http's err buffer, and
 * only ship_main.c prints it.
 */
#ifndef SCT_SHIP_H
#define SCT_SHIP_H

#include <stddef.h>
#include <stdint.h>

#define SHIP_ERR_MAX 512

struct ship_http;
/* A connection to url (http://host:port/ with optional ?settings); NULL on ENOMEM. */
struct ship_http *ship_http_new(const char *url);
void ship_http_free(struct ship_http *h);
/* What the last failed call said: curl's error or the server's exception, one line. */
const char *ship_http_error(const struct ship_http *h);
/*
 * Runs one statement (sent as the POST body); the first line of the answer into out (cap
 * bytes, NUL-terminated; out may be NULL). -EIO when the server cannot be reached or answers
 * anything but 200.
 */
int ship_http_query(struct ship_http *h, const char *sql, char *out, size_t cap);
/*
 * POSTs head (len bytes, the start of the body: the INSERT statement and the first rows)
 * then everything read from fd until its end. -EIO as ship_http_query().
 */
int ship_http_post_fd(struct ship_http *h, const char *head, size_t len, int fd);

#endif
