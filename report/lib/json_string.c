// SPDX-License-Identifier: BSD-2-Clause
/*
 * JSON strings from arbitrary bytes. Valid UTF-8 passes through (RFC 8259 allows it raw),
 * but for the C1 controls U+0080..U+009F, escaped as \u0080..\u009f like '"', '\\' and the
 * C0 controls: a terminal showing the output would act on them raw (C2 9B is CSI). Every byte
 * that is not part of a valid UTF-8 sequence (stray continuation, overlong form, surrogate,
 * past U+10FFFF, cut short) is written as \u00XX with XX its byte value, i.e. read as
 * Latin-1. The output is always valid JSON and UTF-8, with no control character in it; a
 * reader that needs the exact bytes back should use the CSV output.
 */
#include "json_string.h"
#include "outbuf.h"
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

/* A valid sequence of n bytes that encodes a C1 control: a terminal acts on those. */
static bool json_is_c1(const uint8_t *p, size_t n)
{
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
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
		if (n && !json_is_c1(p + i, n)) {
			i += n;
			continue;
		}
		out_mem(o, p + start, i - start);
		/* a C1 control, U+0080..U+009F, is its code point: the second byte of C2 80..C2 9F */
		json_escape_byte(o, n ? p[i + 1] : p[i]);
		i += n ? n : 1;
		start = i;
	}
	out_mem(o, p + start, len - start);
	out_char(o, '"');
}
