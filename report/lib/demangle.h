/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * C++ symbol names as written in source, by libstdc++'s demangler (demangle.cc): the one C++
 * file of the reports, callable from C.
 */
#ifndef SCT_DEMANGLE_H
#define SCT_DEMANGLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The demangled form of the len bytes at name ("foo::bar()" for "_ZN3foo3barEv"), malloc'd
 * and NUL-terminated; NULL when they are not a mangled C++ name (a C name, bytes that do not
 * parse, a NUL inside, longer than DEMANGLE_MAX_LEN) or without memory: print them as they are.
 */
char *demangle_name(const char *name, size_t len);

#ifdef __cplusplus
}
#endif

#endif
