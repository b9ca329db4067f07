// SPDX-License-Identifier: BSD-2-Clause
/*
 * The modules stack frames are in: ELF files, each reported to libdwfl at base 0 so that its
 * addresses are those of its symbol table (libdwfl reads .symtab, .dynsym, .gnu_debugdata and
 * the separate debug file under /usr/lib/debug/.build-id), and the kernel, whose symbols come
 * from /proc/kallsyms. A module lives for the whole recording; each file numbers the ones it
 * uses anew (stack_module_file_id()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "../record.h"

#define MODULE_MAX_SEGMENTS 16
#define KERNEL_PATH "[kernel.kallsyms]"
#define VDSO_PATH "[vdso]"

struct module_segment {
	uint64_t vaddr, offset, filesz;
};

struct stack_module {
	char *path;
	uint64_t dev, ino;
	uint32_t kind;                 /* enum sct_module_kind */
	uint8_t build_id[SCT_MAX_BUILD_ID];
	uint32_t build_id_len;
	Dwfl *dwfl;                    /* NULL: no symbols (vdso, kernel) */
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct module_segment seg[MODULE_MAX_SEGMENTS];
	uint32_t nseg;                 /* 0: the address is the file offset (vdso) */
	uint32_t file_id;              /* its module_id in the file of file_gen */
	uint64_t file_gen;
};

struct ksym {
	uint64_t addr;
	uint32_t name;                 /* offset in names */
};

struct stack_modules {
	struct stack_module m[STACK_MAX_MODULES];
	uint32_t n;
	uint32_t kernel;               /* index of the kernel's, STACK_MODULE_NONE before */
	struct ksym *ksyms;
	size_t nksyms;
	char *names;
};

static const Dwfl_Callbacks module_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct stack_modules *stack_modules_new(void)
{
	struct stack_modules *ms = calloc(1, sizeof(*ms));

	if (ms)
		ms->kernel = STACK_MODULE_NONE;
	return ms;
}

void stack_modules_free(struct stack_modules *ms)
{
	if (!ms)
		return;
	for (uint32_t i = 0; i < ms->n; i++) {
		free(ms->m[i].path);
		if (ms->m[i].dwfl)
			dwfl_end(ms->m[i].dwfl);
	}
	free(ms->ksyms);
	free(ms->names);
	free(ms);
}

/* The PT_LOAD segments of m's ELF, for stack_module_addr(). */
static void module_segments(struct stack_module *m, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n && m->nseg < MODULE_MAX_SEGMENTS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			m->seg[m->nseg++] = (struct module_segment){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
}

/*
 * m's ELF from fd (taken by libdwfl): at base 0, so that module addresses are the ELF's own.
 * 0, or -EINVAL when fd is not an ELF file libdwfl takes.
 */
static int module_open_elf(struct stack_module *m, int fd)
{
	const unsigned char *bid;
	GElf_Addr vaddr;
	Elf *elf;
	int n;

	m->dwfl = dwfl_begin(&module_callbacks);
	if (!m->dwfl) {
		close(fd);
		return -ENOMEM;
	}
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_elf(m->dwfl, m->path, m->path, fd, 0, true);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->mod) {
		close(fd);
		return -EINVAL;
	}
	elf = dwfl_module_getelf(m->mod, &m->bias);
	if (!elf)
		return -EINVAL;
	module_segments(m, elf);
	n = dwfl_module_build_id(m->mod, &bid, &vaddr);
	if (n > 0 && (uint32_t)n <= SCT_MAX_BUILD_ID) {
		memcpy(m->build_id, bid, n);
		m->build_id_len = n;
	}
	return 0;
}

/* The ELF file of pid's mapping start-end, as the process sees it. */
static int module_open_fd(uint32_t pid, uint64_t start, uint64_t end, const char *path)
{
	char name[64 + 4096];
	int fd;

	snprintf(name, sizeof(name), "/proc/%" PRIu32 "/map_files/%" PRIx64 "-%" PRIx64, pid, start, end);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 || path[0] != '/')
		return fd;
	/* a kernel without map_files for us: the path in the process's root (containers) */
	if (snprintf(name, sizeof(name), "/proc/%" PRIu32 "/root%s", pid, path) >= (int)sizeof(name))
		return -1;
	return open(name, O_RDONLY | O_CLOEXEC);
}

static uint32_t module_same(const struct stack_modules *ms, const struct stack_module *m)
{
	for (uint32_t i = 0; i < ms->n; i++) {
		const struct stack_module *o = &ms->m[i];

		if (o->kind == m->kind && o->build_id_len == m->build_id_len &&
		    !memcmp(o->build_id, m->build_id, m->build_id_len) && !strcmp(o->path, m->path))
			return i;
	}
	return STACK_MODULE_NONE;
}

uint32_t stack_modules_find(struct stack_modules *ms, uint32_t pid, uint64_t start, uint64_t end,
			    uint64_t dev, uint64_t ino, const char *path)
{
	struct stack_module *m;
	uint32_t same;
	int fd;

	for (uint32_t i = 0; i < ms->n; i++)
		if (ms->m[i].dev == dev && ms->m[i].ino == ino && !strcmp(ms->m[i].path, path))
			return i;
	if (ms->n >= STACK_MAX_MODULES)
		return STACK_MODULE_NONE;
	m = &ms->m[ms->n];
	memset(m, 0, sizeof(*m));
	m->kind = SCT_MODULE_ELF;
	m->dev = dev;
	m->ino = ino;
	m->path = strdup(path);
	if (!m->path)
		return STACK_MODULE_NONE;
	/* the vdso has no file: its addresses are its offsets, its segment's vaddr being 0 */
	if (strcmp(path, VDSO_PATH)) {
		fd = module_open_fd(pid, start, end, path);
		if (fd < 0 || module_open_elf(m, fd)) {
			if (m->dwfl)
				dwfl_end(m->dwfl);
			free(m->path);
			return STACK_MODULE_NONE;
		}
	}
	/* the same file under another inode (a copy, a container layer): one module */
	same = module_same(ms, m);
	if (same != STACK_MODULE_NONE) {
		if (m->dwfl)
			dwfl_end(m->dwfl);
		free(m->path);
		return same;
	}
	return ms->n++;
}

bool stack_module_addr(const struct stack_modules *ms, uint32_t i, uint64_t off, uint64_t *addr)
{
	const struct stack_module *m = &ms->m[i];

	if (!m->nseg) {
		*addr = off;
		return true;
	}
	for (uint32_t s = 0; s < m->nseg; s++)
		if (off >= m->seg[s].offset && off - m->seg[s].offset < m->seg[s].filesz) {
			*addr = m->seg[s].vaddr + (off - m->seg[s].offset);
			return true;
		}
	*addr = 0;
	return false;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One text symbol of a /proc/kallsyms line into the tables; -ENOMEM. */
static int ksym_add(struct stack_modules *ms, size_t *cap, size_t *ncap, size_t *nlen, uint64_t addr,
		    const char *name)
{
	size_t len = strlen(name) + 1;

	if (ms->nksyms == *cap) {
		size_t c = *cap ? *cap * 2 : 65536;
		struct ksym *t = realloc(ms->ksyms, c * sizeof(*t));

		if (!t)
			return -ENOMEM;
		ms->ksyms = t;
		*cap = c;
	}
	if (*nlen + len > *ncap) {
		size_t c = *ncap ? *ncap * 2 : 1 << 20;
		char *t = realloc(ms->names, c);

		if (!t)
			return -ENOMEM;
		ms->names = t;
		*ncap = c;
	}
	memcpy(ms->names + *nlen, name, len);
	ms->ksyms[ms->nksyms++] = (struct ksym){ addr, (uint32_t)*nlen };
	*nlen += len;
	return 0;
}

/* /proc/kallsyms' text symbols, sorted; none (no symbols) if it cannot be read. */
static void kallsyms_read(struct stack_modules *ms)
{
	size_t cap = 0, ncap = 0, nlen = 0;
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256], type;
	unsigned long long addr;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && ms->nksyms < STACK_MAX_KSYMS && nlen < UINT32_MAX / 2) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if ((type != 't' && type != 'T' && type != 'w' && type != 'W') || !addr)
			continue;
		if (ksym_add(ms, &cap, &ncap, &nlen, addr, name))
			break;
	}
	fclose(f);
	qsort(ms->ksyms, ms->nksyms, sizeof(*ms->ksyms), ksym_cmp);
}

uint32_t stack_modules_kernel(struct stack_modules *ms)
{
	struct stack_module *m;

	if (ms->kernel != STACK_MODULE_NONE || ms->n >= STACK_MAX_MODULES)
		return ms->kernel;
	m = &ms->m[ms->n];
	memset(m, 0, sizeof(*m));
	m->kind = SCT_MODULE_KERNEL;
	m->path = strdup(KERNEL_PATH);
	if (!m->path)
		return STACK_MODULE_NONE;
	kallsyms_read(ms);
	ms->kernel = ms->n++;
	return ms->kernel;
}

/* The kernel symbol that covers addr: the last one at or below it, up to the next one. */
static bool ksym_find(const struct stack_modules *ms, uint64_t addr, uint64_t *start, uint64_t *size,
		      const char **name)
{
	size_t lo = 0, hi = ms->nksyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ms->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*start = ms->ksyms[lo - 1].addr;
	*size = lo < ms->nksyms ? ms->ksyms[lo].addr - *start : 0;
	*name = ms->names + ms->ksyms[lo - 1].name;
	return true;
}

bool stack_module_symbol(struct stack_modules *ms, uint32_t i, uint64_t addr, uint64_t *start,
			 uint64_t *size, const char **name)
{
	struct stack_module *m = &ms->m[i];
	GElf_Off off;
	GElf_Sym sym;

	if (m->kind == SCT_MODULE_KERNEL)
		return ksym_find(ms, addr, start, size, name);
	if (!m->mod)
		return false;
	*name = dwfl_module_addrinfo(m->mod, addr + m->bias, &off, &sym, NULL, NULL, NULL);
	if (!*name || off > addr)
		return false;
	*start = addr - off;
	*size = sym.st_size;
	return true;
}

void stack_module_describe(const struct stack_modules *ms, uint32_t i, struct sct_module *rec)
{
	const struct stack_module *m = &ms->m[i];

	rec->kind = m->kind;
	rec->build_id.ptr = m->build_id;
	rec->build_id.len = m->build_id_len;
	rec->path.ptr = (const uint8_t *)m->path;
	rec->path.len = strlen(m->path);
}

uint32_t *stack_module_file_id(struct stack_modules *ms, uint32_t i, uint64_t gen)
{
	struct stack_module *m = &ms->m[i];

	if (m->file_gen != gen) {
		m->file_gen = gen;
		m->file_id = 0;
	}
	return &m->file_id;
}
