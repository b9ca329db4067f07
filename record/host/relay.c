// SPDX-License-Identifier: BSD-2-Clause
/*
 * The terminal of a command run as another user (-u): a new pseudo-terminal, relayed to ours,
 * as sudo's use_pty does. A command that held our terminal could push input into the shell
 * that started the recorder (TIOCSTI on its controlling terminal), or keep reading what is
 * typed there after the recorder exits; on a pseudo-terminal of its own it reaches only that.
 *
 * The relay is a thread of the recorder, so its reads and writes are never traced: the
 * recorder's tgid is excluded under every mode and backend. While it runs, our terminal is
 * in raw mode (what is typed, ^C included, goes to the command's terminal, whose own line
 * discipline acts on it) and its size follows ours (SIGWINCH, read from a signalfd: the
 * signal is blocked in every thread of the recorder while the relay runs).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "../record.h"

/* Once stopping: the command's side is given this long without output to close ... */
#define RELAY_STOP_IDLE_MS 100
/* ... and this long in all (something of the tree outlives the recording). */
#define RELAY_STOP_MAX_MS 1000
#define RELAY_BUF 4096

struct relay {
	int master;             /* our side of the pseudo-terminal, non-blocking */
	int term_fd;            /* our terminal: its modes and size */
	int in_fd, out_fd;      /* read what is typed from in_fd (-1: not a terminal), write to out_fd */
	int stop_fd;            /* eventfd: the recording ended */
	int sig_fd;             /* signalfd of SIGWINCH, -1 until started */
	unsigned ttys;          /* bit n: fd n is a terminal, replaced by the command's */
	struct termios saved;
	bool raw;               /* our terminal is in raw mode: restore it */
	bool started;
	pthread_t thread;
	char in[RELAY_BUF];     /* typed, not yet taken by the master */
	size_t in_len, in_off;
};

static unsigned relay_ttys(void)
{
	unsigned ttys = 0;

	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd))
			ttys |= 1u << fd;
	return ttys;
}

bool relay_wanted(void)
{
	return relay_ttys() != 0;
}

/* The slave side, with our terminal's modes and size, owned by uid as a login's terminal is. */
static int relay_open_slave(struct relay *r, uid_t uid)
{
	char name[64];
	struct winsize ws;
	int fd;

	if (grantpt(r->master) || unlockpt(r->master) || ptsname_r(r->master, name, sizeof(name)))
		return -errno;
	fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (tcsetattr(fd, TCSANOW, &r->saved) ||
	    (!ioctl(r->term_fd, TIOCGWINSZ, &ws) && ioctl(fd, TIOCSWINSZ, &ws)) || fchown(fd, uid, -1)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int relay_open(struct relay **out, int *slave, uid_t uid)
{
	struct relay *r = calloc(1, sizeof(*r));
	int err;

	*out = NULL;
	*slave = -1;
	if (!r)
		return -ENOMEM;
	r->master = r->sig_fd = r->stop_fd = -1;
	r->ttys = relay_ttys();
	r->term_fd = r->ttys & 1 ? 0 : r->ttys & 2 ? 1 : 2;
	r->in_fd = r->ttys & 1 ? 0 : -1;
	/* -o - puts the trace on stdout, which is then no terminal: the output goes to stderr. */
	r->out_fd = r->ttys & 2 ? 1 : r->ttys & 4 ? 2 : 0;
	r->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (r->master < 0 || tcgetattr(r->term_fd, &r->saved)) {
		err = -errno;
		goto out_free;
	}
	r->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (r->stop_fd < 0) {
		err = -errno;
		goto out_free;
	}
	err = relay_open_slave(r, uid);
	if (err < 0)
		goto out_free;
	*slave = err;
	*out = r;
	return 0;

out_free:
	relay_free(r);
	return err;
}

unsigned relay_terminals(const struct relay *r)
{
	return r->ttys;
}

/*
 * Only while the recorder is in the foreground of its terminal: a background job that set
 * modes or read input would be stopped by SIGTTOU or SIGTTIN. It relays output only then.
 */
static int relay_raw(struct relay *r)
{
	struct termios raw = r->saved;

	if (tcgetpgrp(r->term_fd) != getpgrp()) {
		r->in_fd = -1;
		return 0;
	}
	raw.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	raw.c_oflag &= ~OPOST;
	raw.c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	raw.c_cflag &= ~(CSIZE | PARENB);
	raw.c_cflag |= CS8;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(r->term_fd, TCSAFLUSH, &raw))
		return -errno;
	r->raw = true;
	return 0;
}

static void relay_restore(struct relay *r)
{
	if (r->raw && !tcsetattr(r->term_fd, TCSAFLUSH, &r->saved))
		r->raw = false;
}

/* Our terminal gone (a hangup) loses the output: the command must not block on it. */
static void relay_write_out(struct relay *r, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(r->out_fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* The command's output to our terminal; false once its side is closed (EIO) or failed. */
static bool relay_from_master(struct relay *r)
{
	char buf[RELAY_BUF];
	ssize_t n = read(r->master, buf, sizeof(buf));

	if (n > 0) {
		relay_write_out(r, buf, (size_t)n);
		return true;
	}
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

static void relay_to_master(struct relay *r)
{
	ssize_t n = write(r->master, r->in + r->in_off, r->in_len - r->in_off);

	if (n > 0)
		r->in_off += (size_t)n;
	else if (n < 0 && errno != EAGAIN && errno != EINTR)
		r->in_off = r->in_len;
	if (r->in_off == r->in_len)
		r->in_off = r->in_len = 0;
}

static void relay_read_in(struct relay *r)
{
	ssize_t n = read(r->in_fd, r->in, sizeof(r->in));

	if (n > 0)
		r->in_len = (size_t)n;
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		r->in_fd = -1;
}

static void relay_resize(struct relay *r)
{
	struct signalfd_siginfo si;
	struct winsize ws;

	while (read(r->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		;
	/* The kernel sends SIGWINCH to the command's foreground group when the size changes. */
	if (!ioctl(r->term_fd, TIOCGWINSZ, &ws))
		ioctl(r->master, TIOCSWINSZ, &ws);
}

static void *relay_run(void *arg)
{
	struct relay *r = arg;
	uint64_t stop_at = 0;

	for (;;) {
		struct pollfd p[4] = {
			{ .fd = r->master, .events = POLLIN | (r->in_len ? POLLOUT : 0) },
			{ .fd = r->in_len ? -1 : r->in_fd, .events = POLLIN },
			{ .fd = r->sig_fd, .events = POLLIN },
			{ .fd = stop_at ? -1 : r->stop_fd, .events = POLLIN },
		};
		int n = poll(p, 4, stop_at ? RELAY_STOP_IDLE_MS : -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (stop_at && clock_now_ns() >= stop_at))
			break;
		if (p[3].revents)
			stop_at = clock_now_ns() + RELAY_STOP_MAX_MS * 1000000ull;
		if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && !relay_from_master(r))
			break;
		if (p[0].revents & POLLOUT)
			relay_to_master(r);
		if (p[1].revents)
			relay_read_in(r);
		if (p[2].revents)
			relay_resize(r);
	}
	/* At once, not at the recorder's end: ^C must reach the recorder again. */
	relay_restore(r);
	return NULL;
}

static void relay_winch_mask(int how)
{
	sigset_t winch;

	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	pthread_sigmask(how, &winch, NULL);
}

int relay_start(struct relay *r)
{
	sigset_t winch, all, old;
	int err;

	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	relay_winch_mask(SIG_BLOCK);
	r->sig_fd = signalfd(-1, &winch, SFD_NONBLOCK | SFD_CLOEXEC);
	err = r->sig_fd < 0 || fcntl(r->master, F_SETFL, O_NONBLOCK) ? -errno : relay_raw(r);
	if (err)
		goto out_unblock;
	/* The thread takes no signal: SIGINT, SIGTERM and the rest wake the recorder's loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&r->thread, NULL, relay_run, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		goto out_restore;
	r->started = true;
	return 0;

out_restore:
	relay_restore(r);
out_unblock:
	relay_winch_mask(SIG_UNBLOCK);
	return err;
}

void relay_stop(struct relay *r)
{
	uint64_t one = 1;

	if (!r || !r->started)
		return;
	/* An eventfd write fails only past 2^64 - 2 increments. */
	while (write(r->stop_fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
	pthread_join(r->thread, NULL);
	r->started = false;
	relay_restore(r);
	relay_winch_mask(SIG_UNBLOCK);
}

void relay_free(struct relay *r)
{
	if (!r)
		return;
	relay_stop(r);
	relay_restore(r);
	if (r->master >= 0)
		close(r->master);
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	if (r->sig_fd >= 0)
		close(r->sig_fd);
	free(r);
}
