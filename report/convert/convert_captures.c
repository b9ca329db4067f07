// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert's columns of a call's captured argument memory (format 1.7) as text a table
 * keeps: the socket address as the peer sct-report --by peer shows, exec's arguments as a JSON
 * array of strings, the data escaped as strace escapes it (ASCII, the bytes recoverable).
 */
#include <string.h>

#include "convert.h"
#include "cstring_escape.h"
#include "json_string.h"
#include "peer_text.h"
#include "sockaddr_text.h"

static bool convert_addr_text(struct out *o, const struct sct_syscall *sc, int netlink_protocol)
{
	char text[PEER_TEXT_MAX];

	if (!sockaddr_captured(sc))
		return false;
	out_mem(o, text, peer_text(text, sc->addr.ptr, sc->addr.len, netlink_protocol));
	return true;
}

static bool convert_argv_text(struct out *o, const struct sct_syscall *sc)
{
	uint32_t at = 0;

	if (!(sc->argv_flags & SCT_PATH_CAPTURED))
		return false;
	out_char(o, '[');
	while (at < sc->argv.len) {
		size_t len = strnlen((const char *)sc->argv.ptr + at, sc->argv.len - at);

		if (at)
			out_char(o, ',');
		json_string(o, sc->argv.ptr + at, len);
		at += (uint32_t)len + 1;
	}
	out_char(o, ']');
	return true;
}

bool convert_capture_text(struct out *o, const struct sct_syscall *sc, enum col_src src, int netlink_protocol)
{
	switch (src) {
	case COL_ADDR:
		return convert_addr_text(o, sc, netlink_protocol);
	case COL_ARGV:
		return convert_argv_text(o, sc);
	default:
		if (!(sc->data_flags & SCT_PATH_CAPTURED))
			return false;
		cstring_escape(o, sc->data.ptr, sc->data.len);
		return true;
	}
}
