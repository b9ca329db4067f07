// SPDX-License-Identifier: BSD-2-Clause
/*
 * ClickHouse's HTTP interface through libcurl: the statement is the start of the POST body
 * and the rows follow it, so an INSERT streams a converter's output of any size with
 * chunked encoding and constant memory. Nothing from the server can hold a timer job (and
 * its lock) for long or fill its memory: a stalled transfer (under 1 byte/s for 60 s) and a
 * request longer than the timeout fail, and so does an answer over the size cap. The
 * password goes in an Authorization header, never in the URL (which ps would show when it
 * is on the command line, and proxies and server logs keep). What the server says reaches
 * stderr escaped: an exception quotes the statement, names of the file's columns included.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "ship.h"

struct ship_http {
	CURL *curl;
	struct curl_slist *headers;
	char *url, *user, *password;
	unsigned timeout_s;
	size_t max_response;
	char err[SHIP_ERR_MAX * 4 + 64];
	char curl_err[CURL_ERROR_SIZE];
};

/* The body being sent: head first, then fd (-1: head only). */
struct ship_body {
	const char *head;
	size_t len, off;
	int fd;
	bool read_failed;
};

/* The answer: its first SHIP_ERR_MAX bytes are kept, the rest up to max bytes read and dropped. */
struct ship_answer {
	char buf[SHIP_ERR_MAX];
	size_t len;
	size_t total, max;
};

static char *ship_strdup(const char *s, bool *failed)
{
	char *d = s ? strdup(s) : NULL;

	*failed |= s && !d;
	return d;
}

struct ship_http *ship_http_new(const struct ship_http_opts *o)
{
	struct ship_http *h = calloc(1, sizeof(*h));
	bool failed = false;

	if (!h)
		return NULL;
	h->timeout_s = o->timeout_s;
	h->max_response = o->max_response;
	h->url = ship_strdup(o->url, &failed);
	h->user = ship_strdup(o->user, &failed);
	h->password = ship_strdup(o->password, &failed);
	h->curl = curl_easy_init();
	/* no "Expect: 100-continue": a stream of rows starts at once instead of after a wait */
	h->headers = curl_slist_append(NULL, "Expect:");
	if (failed || !h->url || !h->curl || !h->headers) {
		ship_http_free(h);
		return NULL;
	}
	return h;
}

void ship_http_free(struct ship_http *h)
{
	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	curl_slist_free_all(h->headers);
	free(h->url);
	free(h->user);
	if (h->password)
		explicit_bzero(h->password, strlen(h->password));
	free(h->password);
	free(h);
}

const char *ship_http_error(const struct ship_http *h)
{
	return h->err;
}

static size_t ship_read(char *dst, size_t size, size_t nitems, void *arg)
{
	struct ship_body *b = arg;
	size_t cap = size * nitems;
	ssize_t n;

	if (b->off < b->len) {
		n = (ssize_t)(b->len - b->off < cap ? b->len - b->off : cap);
		memcpy(dst, b->head + b->off, (size_t)n);
		b->off += (size_t)n;
		return (size_t)n;
	}
	if (b->fd < 0)
		return 0;
	do
		n = read(b->fd, dst, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		b->read_failed = true;
		return CURL_READFUNC_ABORT;
	}
	return (size_t)n;
}

static size_t ship_write(char *src, size_t size, size_t nmemb, void *arg)
{
	struct ship_answer *a = arg;
	size_t n = size * nmemb, room = sizeof(a->buf) - 1 - a->len;

	a->total += n;
	if (a->total > a->max)
		return 0; /* curl fails the transfer: CURLE_WRITE_ERROR */
	memcpy(a->buf + a->len, src, n < room ? n : room);
	a->len += n < room ? n : room;
	return n;
}

/* The first line of an answer, without the trailing newline. */
static void ship_first_line(struct ship_answer *a)
{
	a->buf[a->len] = '\0';
	a->buf[strcspn(a->buf, "\r\n")] = '\0';
}

/* Why curl failed, in words a person can act on. */
static void ship_curl_error(struct ship_http *h, const struct ship_body *b, const struct ship_answer *a, CURLcode rc)
{
	const char *what = *h->curl_err ? h->curl_err : curl_easy_strerror(rc);
	int n = 0;

	if (b->read_failed) {
		snprintf(h->err, sizeof(h->err), "reading the converter's output failed");
		return;
	}
	if (rc == CURLE_WRITE_ERROR && a->total > a->max) {
		snprintf(h->err, sizeof(h->err), "the server's answer is over %zu bytes (--max-response)", a->max);
		return;
	}
	/* the low-speed limit says so itself ("too slow"); the total timeout gets its option's name */
	if (rc == CURLE_OPERATION_TIMEDOUT && !strstr(what, "too slow"))
		n = snprintf(h->err, sizeof(h->err), "no whole answer within %u s (--timeout): ", h->timeout_s);
	names_escape(h->err + n, sizeof(h->err) - (size_t)n, what, strlen(what));
}

static int ship_post(struct ship_http *h, struct ship_body *b, struct ship_answer *a)
{
	CURL *c = h->curl;
	long code = 0;
	CURLcode rc;

	curl_easy_reset(c);
	h->curl_err[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, h->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (h->user)
		curl_easy_setopt(c, CURLOPT_USERNAME, h->user);
	if (h->password)
		curl_easy_setopt(c, CURLOPT_PASSWORD, h->password);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, ship_read);
	curl_easy_setopt(c, CURLOPT_READDATA, b);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, ship_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->curl_err);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)h->timeout_s);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	if (b->fd < 0)
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
	rc = curl_easy_perform(c);
	ship_first_line(a);
	if (rc != CURLE_OK) {
		ship_curl_error(h, b, a, rc);
		return -EIO;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		int n = snprintf(h->err, sizeof(h->err), "HTTP %ld: ", code);

		names_escape(h->err + n, sizeof(h->err) - (size_t)n, a->buf, strlen(a->buf));
		return -EREMOTEIO;
	}
	return 0;
}

int ship_http_query(struct ship_http *h, const char *sql, char *out, size_t cap)
{
	struct ship_body b = { .head = sql, .len = strlen(sql), .fd = -1 };
	struct ship_answer a = { .max = h->max_response };
	int err = ship_post(h, &b, &a);

	if (!err && out && cap)
		snprintf(out, cap, "%s", a.buf);
	return err;
}

int ship_http_post_fd(struct ship_http *h, const char *head, size_t len, int fd)
{
	struct ship_body b = { .head = head, .len = len, .fd = fd };
	struct ship_answer a = { .max = h->max_response };

	return ship_post(h, &b, &a);
}
