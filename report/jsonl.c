// SPDX-License-Identifier: BSD-2-Clause
/*
 * JSON strings from arbitrary bytes. Valid UTF-8 passes through (RFC 8259 allows it raw);
 * '"', '\\' and control characters are escaped; every byte that is not part of a valid
 * UTF-8 sequence (stray continuation, overlong form, surrogate, past U+10FFFF, cut short)
 * is written as \u00XX with XX its byte value, i.e. read as Latin-1. The output is always
 * valid JSON and UTF-8; a reader that needs the exact bytes back should use the CSV output.
 */
#include "report.h"
#include "utf8.h"

static void json_escape_byte(struct out *o, uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"': out_mem(o, "\\\"", 2); return;
	case '\\': out_mem(o, "\\\\", 2); return;
	case '\n': out_mem(o, "\\n", 2); return;
	case '\r': out_mem(o, "\\r", 2); return;
	case '\t': out_mem(o, "\\t", 2); return;
	default: out_mem(o, e, 6);
	}
}

void json_string(struct out *o, const void *ptr, size_t len)
{
	const uint8_t *p = ptr;
	size_t i = 0, start = 0;

	out_char(o, '"');
	while (i < len) {
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') {
			i++;
			continue;
		}
		n = p[i] >= 0x80 ? utf8_seq_len(p + i, len - i) : 0;
		if (n) {
			i += n;
			continue;
		}
		out_mem(o, p + start, i - start);
		json_escape_byte(o, p[i]);
		start = ++i;
	}
	out_mem(o, p + start, len - start);
	out_char(o, '"');
}
