// SPDX-License-Identifier: BSD-2-Clause
/*
 * CSV fields per RFC 4180: a field holding a comma, a double quote, CR or LF is quoted and
 * its quotes doubled; rows end with CRLF. CSV is bytes: string fields are written byte for
 * byte, non-UTF-8 bytes included, so a reader that decodes as Latin-1 or with surrogate
 * escapes (Python) or stores blobs of text (sqlite3 .import) gets the exact bytes back.
 */
#include <string.h>

#include "csv_field.h"
#include "outbuf.h"

static bool csv_needs_quotes(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] == ',' || p[i] == '"' || p[i] == '\r' || p[i] == '\n')
			return true;
	return false;
}

void csv_quoted_part(struct out *o, const void *ptr, size_t len)
{
	const uint8_t *p = ptr;
	size_t start = 0;

	for (size_t i = 0; i < len; i++)
		if (p[i] == '"') {
			out_mem(o, p + start, i + 1 - start);
			out_char(o, '"');
			start = i + 1;
		}
	out_mem(o, p + start, len - start);
}

void csv_bytes(struct out *o, const void *ptr, size_t len)
{
	const uint8_t *p = ptr;

	if (!csv_needs_quotes(p, len)) {
		out_mem(o, p, len);
		return;
	}
	out_char(o, '"');
	csv_quoted_part(o, p, len);
	out_char(o, '"');
}
