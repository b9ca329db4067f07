// SPDX-License-Identifier: BSD-2-Clause
/*
 * --args: each syscall's arguments as the running kernel describes them (tracefs
 * events/syscalls/sys_enter_NAME/format: names and C types), turned into the HEADER's kinds
 * and into the capture_args map that tells the BPF programs which argument is a path, and
 * which points to other memory the SYSCALL record holds. Nothing here is typed per
 * syscall except the few argument families whose values the tools decode, and the calls
 * whose data --args-data keeps.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../record.h"
#include "syscall_table.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* The argument names the kernel gives file names (getname() is called on them). */
static const char *const path_names[] = {
	"filename", "pathname", "path", "oldname", "newname", "dir_name", "dev_name",
	"specialfile", "library", "new_root", "put_old", "special",
};

/* An argument of these syscalls named as the rule says belongs to a value family. */
static const struct family_rule {
	const char *syscall; /* "" for any */
	const char *arg;
	uint32_t kind;
	const char *family;
} family_rules[] = {
	{ "open", "flags", SCT_ARG_FLAGS, "open" },
	{ "openat", "flags", SCT_ARG_FLAGS, "open" },
	{ "pipe2", "flags", SCT_ARG_FLAGS, "open_flags" },
	{ "dup3", "flags", SCT_ARG_FLAGS, "open_flags" },
	{ "access", "mode", SCT_ARG_FLAGS, "access" },
	{ "faccessat", "mode", SCT_ARG_FLAGS, "access" },
	{ "faccessat2", "mode", SCT_ARG_FLAGS, "access" },
	{ "faccessat2", "flags", SCT_ARG_FLAGS, "at" },
	{ "unlinkat", "flag", SCT_ARG_FLAGS, "at" },
	{ "newfstatat", "flag", SCT_ARG_FLAGS, "at" },
	{ "statx", "flags", SCT_ARG_FLAGS, "at" },
	{ "fchownat", "flag", SCT_ARG_FLAGS, "at" },
	{ "linkat", "flags", SCT_ARG_FLAGS, "at" },
	{ "utimensat", "flags", SCT_ARG_FLAGS, "at" },
	{ "execveat", "flags", SCT_ARG_FLAGS, "at" },
	{ "fchmodat2", "flags", SCT_ARG_FLAGS, "at" },
	{ "mmap", "prot", SCT_ARG_FLAGS, "mmap_prot" },
	{ "mprotect", "prot", SCT_ARG_FLAGS, "mmap_prot" },
	{ "mmap", "flags", SCT_ARG_FLAGS, "mmap" },
	{ "clone", "clone_flags", SCT_ARG_FLAGS, "clone" },
	{ "", "whence", SCT_ARG_ENUM, "whence" },
	{ "kill", "sig", SCT_ARG_ENUM, "signal" },
	{ "tkill", "sig", SCT_ARG_ENUM, "signal" },
	{ "tgkill", "sig", SCT_ARG_ENUM, "signal" },
	{ "rt_sigaction", "sig", SCT_ARG_ENUM, "signal" },
	{ "rt_sigqueueinfo", "sig", SCT_ARG_ENUM, "signal" },
	{ "rt_tgsigqueueinfo", "sig", SCT_ARG_ENUM, "signal" },
	{ "pidfd_send_signal", "sig", SCT_ARG_ENUM, "signal" },
	{ "rt_sigprocmask", "how", SCT_ARG_ENUM, "sigprocmask" },
	{ "futex", "op", SCT_ARG_ENUM, "futex_op" },
	{ "prctl", "option", SCT_ARG_ENUM, "prctl" },
	{ "arch_prctl", "option", SCT_ARG_ENUM, "arch_prctl" },
	{ "", "which_clock", SCT_ARG_ENUM, "clock" },
	{ "timerfd_create", "clockid", SCT_ARG_ENUM, "clock" },
	{ "clock_nanosleep", "flags", SCT_ARG_FLAGS, "timer" },
	{ "socket", "family", SCT_ARG_ENUM, "socket_domain" },
	{ "socket", "type", SCT_ARG_ENUM, "socket_type" },
	{ "socket", "protocol", SCT_ARG_ENUM, "socket_protocol" },
	{ "socketpair", "family", SCT_ARG_ENUM, "socket_domain" },
	{ "socketpair", "type", SCT_ARG_ENUM, "socket_type" },
	{ "socketpair", "protocol", SCT_ARG_ENUM, "socket_protocol" },
	{ "accept4", "flags", SCT_ARG_FLAGS, "socket_flags" },
	{ "fcntl", "cmd", SCT_ARG_ENUM, "fcntl" },
	{ "ioctl", "cmd", SCT_ARG_ENUM, "ioctl" },
	/* most requests take a pointer; strace shows the others' values in hex too */
	{ "ioctl", "arg", SCT_ARG_PTR, "" },
	{ "pkey_mprotect", "prot", SCT_ARG_FLAGS, "mmap_prot" },
	{ "madvise", "behavior", SCT_ARG_ENUM, "madvise" },
	{ "process_madvise", "behavior", SCT_ARG_ENUM, "madvise" },
	{ "mremap", "flags", SCT_ARG_FLAGS, "mremap" },
	{ "wait4", "options", SCT_ARG_FLAGS, "wait" },
	{ "waitid", "options", SCT_ARG_FLAGS, "wait" },
	{ "waitid", "which", SCT_ARG_ENUM, "idtype" },
	{ "prlimit64", "resource", SCT_ARG_ENUM, "rlimit" },
	{ "getrlimit", "resource", SCT_ARG_ENUM, "rlimit" },
	{ "setrlimit", "resource", SCT_ARG_ENUM, "rlimit" },
	/* strace 6.1 does not decode rseq: it shows its values in hex, as flags of no family read */
	{ "rseq", "rseq_len", SCT_ARG_FLAGS, "" },
	{ "rseq", "flags", SCT_ARG_FLAGS, "" },
	{ "rseq", "sig", SCT_ARG_FLAGS, "" },
	{ "unshare", "unshare_flags", SCT_ARG_FLAGS, "clone" },
	{ "setns", "flags", SCT_ARG_FLAGS, "clone" },
};

/*
 * --args-data: the buffers of the calls that move data (their length the next argument), and
 * whether the call fills them (read at exit) or is given them (at entry).
 */
static const struct data_rule {
	const char *syscall, *arg;
	bool at_exit;
} data_rules[] = {
	{ "read", "buf", true },      { "pread64", "buf", true },   { "recvfrom", "ubuf", true },
	{ "write", "buf", false },    { "pwrite64", "buf", false }, { "sendto", "buff", false },
};

static const struct data_rule *data_rule_find(const char *sc, const char *arg)
{
	for (size_t i = 0; i < sizeof(data_rules) / sizeof(data_rules[0]); i++)
		if (!strcmp(data_rules[i].syscall, sc) && !strcmp(data_rules[i].arg, arg))
			return &data_rules[i];
	return NULL;
}

/* Addresses the kernel declares as unsigned long, not as pointers. */
static const char *const address_names[] = {
	"addr", "start", "brk", "new_addr", "old_addr", "shmaddr",
};

static bool name_in(const char *name, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, v[i]))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/*
 * The kinds of pointers to memory a session with captures records (format 1.7), 0 for any
 * other argument; data: buffers too.
 */
static uint32_t arg_kind_captured(const char *sc, const char *type, const char *name, bool data)
{
	if (strstr(type, "struct sockaddr *"))
		return SCT_ARG_SOCKADDR;
	if (strstr(type, "struct user_msghdr *"))
		return SCT_ARG_MSGHDR;
	if (strstr(type, "*const *") && !strcmp(name, "argv"))
		return SCT_ARG_ARGV;
	if (strstr(type, "*const *") && !strcmp(name, "envp"))
		return SCT_ARG_ENVP;
	if (data && data_rule_find(sc, name))
		return SCT_ARG_BUF;
	return 0;
}

/* The kind (and family) of argument name of C type type in syscall sc; data: --args-data. */
static void arg_kind(const char *sc, const char *type, const char *name, bool data, struct sct_arg_desc *d)
{
	d->family = "";
	for (size_t i = 0; i < sizeof(family_rules) / sizeof(family_rules[0]); i++) {
		const struct family_rule *r = &family_rules[i];

		if ((!r->syscall[0] || !strcmp(r->syscall, sc)) && !strcmp(r->arg, name)) {
			d->kind = r->kind;
			d->family = r->family;
			return;
		}
	}
	d->kind = arg_kind_captured(sc, type, name, data);
	if (d->kind)
		return;
	if (strchr(type, '*'))
		d->kind = strstr(type, "char") && name_in(name, path_names, sizeof(path_names) /
							 sizeof(path_names[0])) ? SCT_ARG_PATH : SCT_ARG_PTR;
	else if (name_in(name, address_names, sizeof(address_names) / sizeof(address_names[0])))
		d->kind = SCT_ARG_PTR;
	else if (ends_with(name, "dfd") || !strcmp(name, "dirfd"))
		d->kind = SCT_ARG_DIRFD;
	else if (ends_with(name, "fd") || !strcmp(name, "fd_in") || !strcmp(name, "fd_out"))
		d->kind = SCT_ARG_FD;
	else if (!strcmp(name, "mode") && strstr(type, "mode_t"))
		d->kind = SCT_ARG_MODE;
	else if (strstr(type, "size_t") && !strstr(type, "ssize_t"))
		d->kind = SCT_ARG_SIZE;
	else
		d->kind = SCT_ARG_INT;
}

/* "\tfield:const char * filename;\t..." -> type "const char *", name "filename"; -1 if not one. */
static int field_split(char *line, char **type, char **name)
{
	char *p = strstr(line, "field:"), *end, *n;

	if (!p)
		return -1;
	p += 6;
	end = strchr(p, ';');
	if (!end)
		return -1;
	*end = '\0';
	n = end;
	while (n > p && (n[-1] == '_' || (n[-1] >= 'a' && n[-1] <= 'z') ||
			 (n[-1] >= 'A' && n[-1] <= 'Z') || (n[-1] >= '0' && n[-1] <= '9')))
		n--;
	if (n == end)
		return -1;
	*name = n;
	while (n > p && n[-1] == ' ')
		n--;
	*n = '\0';
	*type = p;
	return 0;
}

/*
 * A 64-bit integer type: an ia32 caller passes such a value in two registers, so the native
 * argument list does not describe its compat call.
 */
static bool type_wide(const char *type)
{
	return !strchr(type, '*') && (strstr(type, "loff_t") || strstr(type, "64") || strstr(type, "long long"));
}

/*
 * One syscall's format file into a (names copied), *wide if it takes a 64-bit integer; data:
 * --args-data. Returns 0 or -errno.
 */
static int format_read(const char *dir, const char *event, const char *sc, bool data,
		       struct sct_syscall_args *a, bool *wide)
{
	char path[512], line[512];
	bool in_args = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/syscalls/%s/format", dir, event);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && a->nargs < SCT_MAX_ARGS) {
		char *type, *name;

		if (field_split(line, &type, &name))
			continue;
		/* the arguments follow __syscall_nr */
		if (!strcmp(name, "__syscall_nr")) {
			in_args = true;
			continue;
		}
		if (!in_args || !strncmp(name, "__", 2))
			continue;
		*wide |= type_wide(type);
		arg_kind(sc, type, name, data, &a->args[a->nargs]);
		a->args[a->nargs].name = strdup(name);
		if (!a->args[a->nargs].name) {
			fclose(f);
			return -ENOMEM;
		}
		a->nargs++;
	}
	fclose(f);
	return 0;
}

/* The number of event's syscall: its name, or the name without the "new" of newstat. */
static int64_t syscall_nr(const char *sc)
{
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < syscall_table_native_len; i++)
			if (syscall_table_native[i].name && !strcmp(syscall_table_native[i].name, sc))
				return syscall_table_native[i].nr;
		if (strncmp(sc, "new", 3))
			break;
		sc += 3;
	}
	return -1;
}

/* The tracefs directory that has the syscall events; mounts tracefs if none is mounted. */
static const char *tracefs_find(void)
{
	char path[256];
	struct stat st;

	for (int tried = 0; tried < 2; tried++) {
		for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
			snprintf(path, sizeof(path), "%s/events/syscalls", tracefs_dirs[i]);
			if (!stat(path, &st) && S_ISDIR(st.st_mode))
				return tracefs_dirs[i];
		}
		if (mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL))
			break;
	}
	return NULL;
}

/* The path_args value of a at index at: its first two path arguments (a third is never read). */
static void path_arg_note(struct args_table *t, const struct sct_syscall_args *a, uint32_t at,
			  const char *sc)
{
	uint8_t v = 0;

	if (at >= t->npath_args)
		return;
	for (uint32_t k = 0; k < a->nargs; k++) {
		if (a->args[k].kind != SCT_ARG_PATH)
			continue;
		if (v) {
			v |= (uint8_t)((k + 1) << SCT_PATH2_ARG_SHIFT);
			break;
		}
		/* after a successful exec the address space is the new program's */
		v = SCT_PATH_ARG_VALID | (uint8_t)k | (!strncmp(sc, "execve", 6) ? SCT_PATH_NO_RETRY : 0);
	}
	t->path_args[at] = v;
}

/*
 * The capture_args value of a at index at. A socket address's length is the next argument:
 * given (an int), or a pointer the kernel writes the address's length to, after the call; a
 * message received (recvmsg) is named at exit too.
 */
static void capture_arg_note(struct args_table *t, const struct sct_syscall_args *a, uint32_t at,
			     const char *sc)
{
	struct sct_capture_args v = { 0 };
	const struct data_rule *r;

	if (at >= t->npath_args)
		return;
	for (uint32_t k = 0; k < a->nargs; k++) {
		uint32_t kind = a->args[k].kind;
		bool len_ptr = k + 1 < a->nargs && a->args[k + 1].kind == SCT_ARG_PTR;

		if ((kind == SCT_ARG_SOCKADDR || kind == SCT_ARG_MSGHDR) && !(v.flags & SCT_CAP_ADDR)) {
			v.addr = (uint8_t)k;
			v.flags |= SCT_CAP_ADDR;
			if (kind == SCT_ARG_MSGHDR)
				v.flags |= SCT_CAP_MSGHDR | (!strncmp(sc, "recv", 4) ? SCT_CAP_ADDR_EXIT : 0);
			else if (len_ptr)
				v.flags |= SCT_CAP_ADDR_EXIT;
		} else if (kind == SCT_ARG_ARGV) {
			v.argv = (uint8_t)k;
			v.flags |= SCT_CAP_ARGV;
		} else if (kind == SCT_ARG_ENVP) {
			v.envp = (uint8_t)k;
			v.flags |= SCT_CAP_ENVP;
		} else if (kind == SCT_ARG_BUF && (r = data_rule_find(sc, a->args[k].name))) {
			v.data = (uint8_t)k;
			v.flags |= r->at_exit ? SCT_CAP_DATA_EXIT : SCT_CAP_DATA;
		}
	}
	t->capture_args[at] = v;
}

static int args_add(struct args_table *t, const char *dir, const char *event, bool data)
{
	const char *sc = event + strlen("sys_enter_");
	struct sct_syscall_args *a;
	int64_t nr = syscall_nr(sc);
	int err;

	if (nr < 0)
		return 0;
	for (uint32_t i = 0; i < t->n; i++)
		if (t->v[i].nr == nr)
			return 0;
	a = &t->v[t->n];
	memset(a, 0, sizeof(*a));
	a->nr = (uint32_t)nr;
	t->wide[t->n] = false;
	err = format_read(dir, event, sc, data, a, &t->wide[t->n]);
	if (err == -ENOENT)
		return 0;
	t->n++;
	if (err)
		return err;
	path_arg_note(t, a, a->nr, sc);
	capture_arg_note(t, a, a->nr, sc);
	return 0;
}

/*
 * Calls whose ia32 entry takes other arguments than the native call of the same name: ia32
 * mmap and select are the old one-struct calls, and ia32 clone swaps tls and child_tid.
 */
static const char *const compat_differs[] = { "mmap", "select", "clone" };

/* The native description of the compat call named name, if it describes that call too. */
static const struct sct_syscall_args *compat_native(const struct args_table *t, const char *name)
{
	int64_t nr = -1;

	if (name_in(name, compat_differs, sizeof(compat_differs) / sizeof(compat_differs[0])))
		return NULL;
	for (uint32_t i = 0; nr < 0 && i < syscall_table_native_len; i++)
		if (syscall_table_native[i].name && !strcmp(syscall_table_native[i].name, name))
			nr = syscall_table_native[i].nr;
	for (uint32_t i = 0; nr >= 0 && i < t->n; i++)
		if (t->v[i].nr == nr)
			return t->wide[i] ? NULL : &t->v[i];
	return NULL;
}

/*
 * The compat ABI's descriptions: tracefs describes native syscalls only, and a compat call
 * reads as the native call of its name unless a 64-bit argument or its ia32 entry differs.
 * The descriptions share the native ones' strings.
 */
static int args_compat(struct args_table *t)
{
	t->compat = calloc(syscall_table_compat_len ? syscall_table_compat_len : 1, sizeof(*t->compat));
	if (!t->compat)
		return -ENOMEM;
	for (uint32_t i = 0; i < syscall_table_compat_len; i++) {
		const struct sct_syscall_name *c = &syscall_table_compat[i];
		const struct sct_syscall_args *a = c->name ? compat_native(t, c->name) : NULL;

		if (!a)
			continue;
		t->compat[t->ncompat] = *a;
		t->compat[t->ncompat].nr = c->nr;
		path_arg_note(t, a, t->compat_base + c->nr, c->name);
		capture_arg_note(t, a, t->compat_base + c->nr, c->name);
		t->ncompat++;
	}
	return 0;
}

int args_describe(struct args_table *t, bool data)
{
	const char *dir = tracefs_find();
	char path[256];
	struct dirent *de;
	uint32_t max_nr = 0;
	DIR *d;
	int err = 0;

	memset(t, 0, sizeof(*t));
	for (uint32_t i = 0; i < syscall_table_native_len; i++)
		max_nr = syscall_table_native[i].nr > max_nr ? syscall_table_native[i].nr : max_nr;
	t->compat_base = max_nr + 1;
	max_nr = 0;
	for (uint32_t i = 0; i < syscall_table_compat_len; i++)
		max_nr = syscall_table_compat[i].nr > max_nr ? syscall_table_compat[i].nr : max_nr;
	t->npath_args = t->compat_base + (syscall_table_compat_len ? max_nr + 1 : 0);
	t->path_args = calloc(t->npath_args, 1);
	t->capture_args = calloc(t->npath_args, sizeof(*t->capture_args));
	t->v = calloc(syscall_table_native_len ? syscall_table_native_len : 1, sizeof(*t->v));
	t->wide = calloc(syscall_table_native_len ? syscall_table_native_len : 1, sizeof(*t->wide));
	if (!t->path_args || !t->capture_args || !t->v || !t->wide)
		return -ENOMEM;
	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/syscalls", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d)) && t->n < syscall_table_native_len)
		if (!strncmp(de->d_name, "sys_enter_", 10))
			err = args_add(t, dir, de->d_name, data);
	closedir(d);
	if (!err)
		err = args_compat(t);
	t->paths = !err && t->n > 0;
	return err ? err : (t->n ? 0 : -ENOENT);
}

void args_free(struct args_table *t)
{
	for (uint32_t i = 0; t->v && i < t->n; i++)
		for (uint32_t k = 0; k < t->v[i].nargs; k++)
			free((char *)t->v[i].args[k].name);
	free(t->v);
	free(t->compat);
	free(t->wide);
	free(t->path_args);
	free(t->capture_args);
	memset(t, 0, sizeof(*t));
}
