// SPDX-License-Identifier: BSD-2-Clause
/* strace's syscall classes (syscall_classes.def) and the -S list syntax built on them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sct.h"
#include "syscall_classes.def"

struct syscall_class {
	const char *name;  /* without '%' */
	const char *names; /* "a b c " */
};

#define CLASS_ENTRY(cls, names) { #cls, names },
static const struct syscall_class classes[] = { SYSCALL_CLASSES(CLASS_ENTRY) };
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

#define CLASS_NAME(cls, names) "%" #cls,
/* strace's %net is %network; listed once, after the table's own names */
static const char *const class_names[] = { SYSCALL_CLASSES(CLASS_NAME) "%net", NULL };

static const struct syscall_class *class_find(const char *name)
{
	if (name[0] == '%')
		name++;
	if (!strcmp(name, "net"))
		name = "network";
	for (size_t i = 0; i < NCLASSES; i++)
		if (!strcmp(classes[i].name, name))
			return &classes[i];
	return NULL;
}

static bool class_has(const struct syscall_class *c, const char *syscall_name)
{
	size_t len = strlen(syscall_name);

	if (!len || strchr(syscall_name, ' '))
		return false;
	for (const char *p = c->names; (p = strstr(p, syscall_name)); p++)
		if ((p == c->names || p[-1] == ' ') && p[len] == ' ')
			return true;
	return false;
}

int sct_syscall_class_match(const char *class_name, const char *syscall_name)
{
	const struct syscall_class *c = class_find(class_name);

	if (!c)
		return -EINVAL;
	return class_has(c, syscall_name);
}

const char *const *sct_syscall_class_names(void)
{
	return class_names;
}

static void set_bit(uint8_t *set, size_t nr, bool on)
{
	if (on)
		set[nr / 8] |= (uint8_t)(1u << nr % 8);
	else
		set[nr / 8] &= (uint8_t)~(1u << nr % 8);
}

/* Set (or clear) the numbers one item names; -EINVAL if it names nothing the table knows. */
static int set_item(const char *item, sct_syscall_name_fn name_of, void *ctx, uint8_t *set,
		    size_t nbits, bool on, char *err, size_t errlen)
{
	const struct syscall_class *c;
	char *end;
	unsigned long nr;

	if (item[0] == '%') {
		c = class_find(item);
		if (!c) {
			snprintf(err, errlen, "unknown syscall class '%s'", item);
			return -EINVAL;
		}
		for (size_t i = 0; i < nbits; i++) {
			const char *n = name_of(ctx, (uint32_t)i);

			if (n && class_has(c, n))
				set_bit(set, i, on);
		}
		return 0;
	}
	if (item[0] >= '0' && item[0] <= '9') {
		errno = 0;
		nr = strtoul(item, &end, 10);
		if (!errno && !*end && nr < nbits) {
			set_bit(set, nr, on);
			return 0;
		}
	}
	for (size_t i = 0; i < nbits; i++) {
		const char *n = name_of(ctx, (uint32_t)i);

		if (n && !strcmp(n, item)) {
			set_bit(set, i, on);
			return 0;
		}
	}
	snprintf(err, errlen, "unknown syscall '%s'", item);
	return -EINVAL;
}

int sct_syscall_set_parse(const char *list, sct_syscall_name_fn name_of, void *ctx, uint8_t *set,
			  size_t nbits, char *err, size_t errlen)
{
	bool invert = list[0] == '!';
	char *copy = strdup(invert ? list + 1 : list);
	char *save = NULL;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	memset(set, 0, (nbits + 7) / 8);
	for (char *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
		bool on = item[0] != '!';

		rc = set_item(on ? item : item + 1, name_of, ctx, set, nbits, on, err, errlen);
	}
	free(copy);
	if (rc || !invert)
		return rc;
	for (size_t i = 0; i < nbits; i++)
		set_bit(set, i, !(set[i / 8] & (1u << i % 8)));
	return 0;
}
