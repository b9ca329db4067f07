// SPDX-License-Identifier: BSD-2-Clause
/*
 * strace's string quoting: printable ASCII as it is, the quote and the backslash escaped, \t \n
 * \v \f \r by their letters, every other byte in octal with as few digits as it needs, unless
 * an octal digit follows it ("\0010" is 1 then '0', "\18" is 1 then '8'), so the text reads
 * back as the same bytes in C.
 */
#include "cstring_escape.h"
#include "outbuf.h"

static void cstring_octal_out(struct out *o, uint8_t b, bool digit_next)
{
	char e[4];
	size_t n = 0;

	e[n++] = '\\';
	if (digit_next || b >= 0100)
		e[n++] = (char)('0' + (b >> 6));
	if (digit_next || b >= 010)
		e[n++] = (char)('0' + ((b >> 3) & 7));
	e[n++] = (char)('0' + (b & 7));
	out_mem(o, e, n);
}

static char cstring_letter(uint8_t b)
{
	switch (b) {
	case '\t':
		return 't';
	case '\n':
		return 'n';
	case '\v':
		return 'v';
	case '\f':
		return 'f';
	case '\r':
		return 'r';
	case '"':
	case '\\':
		return (char)b;
	default:
		return 0;
	}
}

void cstring_escape(struct out *o, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		char letter = cstring_letter(b);

		if (letter) {
			out_char(o, '\\');
			out_char(o, letter);
		} else if (b >= 0x20 && b < 0x7f) {
			out_char(o, (char)b);
		} else {
			cstring_octal_out(o, b, i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7');
		}
	}
}

void cstring_out(struct out *o, const uint8_t *p, size_t n)
{
	out_char(o, '"');
	cstring_escape(o, p, n);
	out_char(o, '"');
}
