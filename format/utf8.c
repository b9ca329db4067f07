// SPDX-License-Identifier: BSD-2-Clause
/* UTF-8 validation and repair (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
#include "utf8.h"

#include <string.h>

static const uint8_t replacement[3] = { 0xef, 0xbf, 0xbd };

size_t utf8_seq_len(const uint8_t *s, size_t len)
{
	uint8_t c = s[0];
	size_t n;
	uint8_t lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (len < n)
		return 0;
	/* the second byte's range excludes overlongs, surrogates and > U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

size_t utf8_sanitized_len(const uint8_t *s, size_t len)
{
	size_t out = 0;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);

		out += n ? n : sizeof(replacement);
		i += n ? n : 1;
	}
	return out;
}

void utf8_sanitize(uint8_t *out, const uint8_t *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);

		if (n) {
			memcpy(out, s + i, n);
			out += n;
			i += n;
		} else {
			memcpy(out, replacement, sizeof(replacement));
			out += sizeof(replacement);
			i++;
		}
	}
}
