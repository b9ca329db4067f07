// SPDX-License-Identifier: BSD-2-Clause
/*
 * Symbols from debug files. A file is trusted only as far as libelf checks it: its symbols
 * are bounded (STACKS_MAX_SYMBOLS) and a file whose build id differs is never used, so a
 * wrong file in DIR gives no names rather than wrong ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug_dir.h"
#include "stacks.h"

#define BUILD_ID_MAX 64u

struct debug_file {
	uint8_t id[BUILD_ID_MAX];
	size_t len;
	bool found;
	struct sym_index ix;
	char **names;
	uint32_t nnames;
};

struct debug_dir {
	char *dir;
	struct debug_file *v;
	uint32_t n;
};

struct debug_dir *debug_dir_new(const char *dir)
{
	struct debug_dir *dd = calloc(1, sizeof(*dd));

	if (!dd)
		return NULL;
	dd->dir = strdup(dir);
	dd->v = calloc(DEBUG_DIR_FILES, sizeof(*dd->v));
	if (!dd->dir || !dd->v || elf_version(EV_CURRENT) == EV_NONE) {
		debug_dir_free(dd);
		errno = ENOMEM;
		return NULL;
	}
	return dd;
}

/* The GNU build id note of e into id (BUILD_ID_MAX bytes): its length, 0 if none. */
static size_t debug_build_id(Elf *e, uint8_t *id)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
			    nh.n_descsz <= BUILD_ID_MAX) {
				memcpy(id, (const char *)d->d_buf + desc_off, nh.n_descsz);
				return nh.n_descsz;
			}
		}
	}
	return 0;
}

static int debug_add_sym(struct debug_file *f, const GElf_Sym *s, const char *name)
{
	size_t len = strlen(name);
	char *copy;
	char **tmp;

	if (f->ix.n >= STACKS_MAX_SYMBOLS)
		return 0;
	if (!(f->nnames & (f->nnames + 1))) { /* grown at 0, 1, 3, 7, ...: powers of two */
		tmp = realloc(f->names, ((size_t)f->nnames + 1) * 2 * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		f->names = tmp;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	f->names[f->nnames++] = copy;
	return sym_index_add(&f->ix, s->st_value, s->st_size, copy, (uint32_t)len);
}

/* The function symbols of .symtab and .dynsym. */
static int debug_read_syms(struct debug_file *f, Elf *e)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; !err && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int type;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			type = GELF_ST_TYPE(s.st_info);
			if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name && *name)
				err = debug_add_sym(f, &s, name);
		}
	}
	return err;
}

/* Reads path if it is a regular ELF file with build id f->id: 1, 0 if not, -ENOMEM. */
static int debug_try(struct debug_file *f, const char *path)
{
	uint8_t id[BUILD_ID_MAX];
	struct stat st;
	Elf *e;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && debug_build_id(e, id) == f->len && !memcmp(id, f->id, f->len)) {
		rc = debug_read_syms(f, e);
		rc = rc ? rc : 1;
	}
	elf_end(e);
	close(fd);
	return rc;
}

static int debug_lookup(struct debug_dir *dd, struct debug_file *f, const char *path, size_t path_len)
{
	char hex[2 * BUILD_ID_MAX + 1], *name = NULL;
	const char *base = path;
	int rc;

	for (size_t i = 0; i < f->len; i++)
		snprintf(hex + 2 * i, 3, "%02x", f->id[i]);
	if (asprintf(&name, "%s/.build-id/%.2s/%s.debug", dd->dir, hex, hex + 2) < 0)
		return -ENOMEM;
	rc = debug_try(f, name);
	free(name);
	if (rc)
		return rc < 0 ? rc : 0;
	for (size_t i = 0; i < path_len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	path_len -= (size_t)(base - path);
	/* a name with a NUL or none is not a file name */
	if (!path_len || memchr(base, 0, path_len) || (path_len <= 2 && base[0] == '.'))
		return 0;
	if (asprintf(&name, "%s/%.*s", dd->dir, (int)path_len, base) < 0)
		return -ENOMEM;
	rc = debug_try(f, name);
	free(name);
	return rc < 0 ? rc : 0;
}

struct sym_index *debug_dir_find(struct debug_dir *dd, const uint8_t *id, size_t len, const char *path,
				 size_t path_len)
{
	struct debug_file *f;

	if (!dd || !len || len > BUILD_ID_MAX)
		return NULL;
	for (uint32_t i = 0; i < dd->n; i++)
		if (dd->v[i].len == len && !memcmp(dd->v[i].id, id, len))
			return dd->v[i].found ? &dd->v[i].ix : NULL;
	if (dd->n == DEBUG_DIR_FILES)
		return NULL;
	f = &dd->v[dd->n++];
	memcpy(f->id, id, len);
	f->len = len;
	/* a file that could not be read for want of memory is no file: the frames stay unnamed */
	f->found = !debug_lookup(dd, f, path, path_len) && f->ix.n;
	return f->found ? &f->ix : NULL;
}

void debug_dir_free(struct debug_dir *dd)
{
	if (!dd)
		return;
	for (uint32_t i = 0; dd->v && i < dd->n; i++) {
		for (uint32_t k = 0; k < dd->v[i].nnames; k++)
			free(dd->v[i].names[k]);
		free(dd->v[i].names);
		sym_index_free(&dd->v[i].ix);
	}
	free(dd->v);
	free(dd->dir);
	free(dd);
}
