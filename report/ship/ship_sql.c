// SPDX-License-Identifier: BSD-2-Clause
/* Statements with values as escaped literals: see ship.h for why not parameters. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ship.h"

int ship_sql_init(struct ship_sql *q, size_t cap)
{
	*q = (struct ship_sql){ .p = malloc(cap), .cap = cap };
	if (!q->p)
		return -ENOMEM;
	ship_sql_reset(q);
	return 0;
}

void ship_sql_free(struct ship_sql *q)
{
	free(q->p);
	q->p = NULL;
}

void ship_sql_reset(struct ship_sql *q)
{
	q->len = 0;
	q->full = false;
	q->p[0] = '\0';
}

static void ship_sql_mem(struct ship_sql *q, const char *p, size_t n)
{
	if (q->full || n >= q->cap - q->len) {
		q->full = true;
		return;
	}
	memcpy(q->p + q->len, p, n);
	q->len += n;
	q->p[q->len] = '\0';
}

void ship_sql_add(struct ship_sql *q, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		q->full = true;
	else
		ship_sql_mem(q, buf, (size_t)n);
}

/* Bytes that stand for themselves in a literal: none of them is a quote, a backslash or a control. */
static int ship_sql_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr(" ._-/:@+=,", c));
}

void ship_sql_str(struct ship_sql *q, const void *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = p;

	ship_sql_mem(q, "'", 1);
	for (size_t i = 0; i < len; i++) {
		char e[4] = { '\\', 'x', hex[b[i] >> 4], hex[b[i] & 15] };

		if (ship_sql_plain(b[i]))
			ship_sql_mem(q, (const char *)b + i, 1);
		else
			ship_sql_mem(q, e, 4);
	}
	ship_sql_mem(q, "'", 1);
}

void ship_sql_u64(struct ship_sql *q, uint64_t v)
{
	ship_sql_add(q, "%llu", (unsigned long long)v);
}
