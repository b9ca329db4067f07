/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the option tests share (unit_helpers.c): sct-record's arguments through cli_parse() as
 * main() gives them, and the line a person reads on stderr.
 */
#ifndef SCT_UNIT_HELPERS_H
#define SCT_UNIT_HELPERS_H

#include "record.h"

/* argv for cli_parse(): "sct-record" and the arguments, NULL-terminated as main() gets it. */
#define PARSE(env, ...) unit_parse_args(env, (const char *[]){ "sct-record", __VA_ARGS__, NULL })

int unit_parse_args(struct env *env, const char **args);
/* The first line of the redirected stderr (the suite redirects it: cr_redirect_stderr). */
void unit_first_line_is(const char *want);

#endif
