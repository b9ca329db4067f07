// SPDX-License-Identifier: BSD-2-Clause
/*
 * libstdc++'s __cxa_demangle() needs a NUL-terminated name, and a trace's names are not: the
 * name is copied first. Only names starting "_Z" are tried (the Itanium ABI's prefix for
 * functions and variables), so a C name costs a compare; a name past DEMANGLE_MAX_LEN is left
 * as it is, as real ones are far shorter and the demangler's work grows with its input.
 */
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

#include "demangle.h"

#define DEMANGLE_MAX_LEN 65536u

char *demangle_name(const char *name, size_t len)
{
	char *copy, *out;
	int status = 0;

	if (len < 2 || len > DEMANGLE_MAX_LEN || name[0] != '_' || name[1] != 'Z' || memchr(name, 0, len))
		return NULL;
	copy = static_cast<char *>(malloc(len + 1));
	if (!copy)
		return NULL;
	memcpy(copy, name, len);
	copy[len] = '\0';
	out = abi::__cxa_demangle(copy, NULL, NULL, &status);
	free(copy);
	return status ? NULL : out;
}
