// SPDX-License-Identifier: BSD-2-Clause
/* sct-convert's formats: the one list of them, in the order --help and messages name them. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "outbuf.h"

static const struct convert_format *const formats[] = { &format_csv, &format_jsonl, &format_clickhouse,
								      &format_perfetto, &format_folded };

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const struct convert_format *formats_find(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

char *formats_list(const char *before, bool (*has)(const struct convert_format *f))
{
	size_t n = 0, k = 0;
	struct out o;

	for (size_t i = 0; i < NFORMATS; i++)
		n += !has || has(formats[i]);
	if (out_open_mem(&o, 64))
		return NULL;
	for (size_t i = 0; i < NFORMATS; i++) {
		if (has && !has(formats[i]))
			continue;
		if (k)
			out_str(&o, k + 1 == n ? " or " : ", ");
		out_str(&o, before);
		out_str(&o, formats[i]->name);
		k++;
	}
	out_char(&o, '\0');
	if (o.err) {
		free(o.buf);
		return NULL;
	}
	return o.buf;
}
