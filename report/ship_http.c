// SPDX-License-Identifier: BSD-2-Clause
/*
 * ClickHouse's HTTP interface through libcurl: the statement is the start of the POST body
 * and the rows follow it, so an INSERT streams a converter's output of any size with
 * chunked encoding and constant memory. A stalled transfer (under 1 byte/s for 60 s) fails
 * rather than hangs a timer job.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ship.h"

struct ship_http {
	CURL *curl;
	struct curl_slist *headers;
	char *url;
	char err[SHIP_ERR_MAX + 64];
	char curl_err[CURL_ERROR_SIZE];
};

/* The body being sent: head first, then fd (-1: head only). */
struct ship_body {
	const char *head;
	size_t len, off;
	int fd;
	bool read_failed;
};

/* The answer: its first SHIP_ERR_MAX bytes are kept, the rest is read and dropped. */
struct ship_answer {
	char buf[SHIP_ERR_MAX];
	size_t len;
};

struct ship_http *ship_http_new(const char *url)
{
	struct ship_http *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->url = strdup(url);
	h->curl = curl_easy_init();
	/* no "Expect: 100-continue": a stream of rows starts at once instead of after a wait */
	h->headers = curl_slist_append(NULL, "Expect:");
	if (!h->url || !h->curl || !h->headers) {
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

static int ship_post(struct ship_http *h, struct ship_body *b, struct ship_answer *a)
{
	CURL *c = h->curl;
	long code = 0;
	CURLcode rc;

	curl_easy_reset(c);
	h->curl_err[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, h->url);
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
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	if (b->fd < 0)
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
	rc = curl_easy_perform(c);
	ship_first_line(a);
	if (rc != CURLE_OK) {
		snprintf(h->err, sizeof(h->err), "%s", b->read_failed ? "reading the converter's output failed" :
			 *h->curl_err ? h->curl_err : curl_easy_strerror(rc));
		return -EIO;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		snprintf(h->err, sizeof(h->err), "HTTP %ld: %s", code, a->buf);
		return -EIO;
	}
	return 0;
}

int ship_http_query(struct ship_http *h, const char *sql, char *out, size_t cap)
{
	struct ship_body b = { .head = sql, .len = strlen(sql), .fd = -1 };
	struct ship_answer a = { .len = 0 };
	int err = ship_post(h, &b, &a);

	if (!err && out && cap)
		snprintf(out, cap, "%s", a.buf);
	return err;
}

int ship_http_post_fd(struct ship_http *h, const char *head, size_t len, int fd)
{
	struct ship_body b = { .head = head, .len = len, .fd = fd };
	struct ship_answer a = { .len = 0 };

	return ship_post(h, &b, &a);
}
