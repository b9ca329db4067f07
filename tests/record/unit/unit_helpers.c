// SPDX-License-Identifier: BSD-2-Clause
/* What the option tests share (unit_helpers.h). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <getopt.h>
#include <stdio.h>

#include "unit_helpers.h"

int unit_parse_args(struct env *env, const char **args)
{
	static char *argv[32];
	int argc = 0;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	/* glibc: 0 starts getopt over */
	optind = 0;
	env_init(env);
	return cli_parse(env, argc, argv);
}

void unit_first_line_is(const char *want)
{
	char line[512] = "";
	FILE *f;

	fflush(stderr);
	f = cr_get_redirected_stderr();
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_str_eq(line, want);
}
