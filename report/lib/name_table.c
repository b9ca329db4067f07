// SPDX-License-Identifier: BSD-2-Clause
/* Names of values and of sets of flag bits (name_table.h). */
#include "name_table.h"

const char *name_table_find(const struct name_value *t, size_t n, uint64_t value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

uint64_t name_table_bits_out(struct out *o, const struct name_value *t, size_t n, uint64_t value, bool any)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t bits = t[i].value;

		if (!bits || (value & bits) != bits)
			continue;
		out_str(o, any ? "|" : "");
		out_str(o, t[i].name);
		value &= ~bits;
		any = true;
	}
	if (value && !any)
		return value;
	if (value)
		out_printf(o, "|%#llx", (unsigned long long)value);
	else if (!any)
		out_char(o, '0');
	return 0;
}
