// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-record: record the syscalls and lifecycle of processes, threads, a cgroup or the whole
 * host into an sct trace file. Parse the command line, set up signals, run one session.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "record.h"
#include "probe.h"

volatile sig_atomic_t record_exiting;
volatile sig_atomic_t record_hup;
volatile sig_atomic_t record_snapshot;

static void on_stop_signal(int sig)
{
	(void)sig;
	record_exiting = 1;
}

/* Acted on between two records, by the loop the signal wakes. */
static void on_output_signal(int sig)
{
	if (sig == SIGHUP)
		record_hup = 1;
	else
		record_snapshot = 1;
}

static int signals_setup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	/* No SA_RESTART: a signal must interrupt the poll, which then returns -EINTR. */
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -1;
	sa.sa_handler = on_output_signal;
	if (sigaction(SIGHUP, &sa, NULL) || sigaction(SIGUSR2, &sa, NULL))
		return -1;
	/* A closed stdout reader shows up as EPIPE from the writer, with a message. */
	sa.sa_handler = SIG_IGN;
	return sigaction(SIGPIPE, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct recorder r;
	struct env env;
	int err;

	env_init(&env);
	err = cli_parse(&env, argc, argv);
	if (err) {
		env_free(&env);
		return err == CLI_EXIT ? 0 : 2;
	}
	if (signals_setup()) {
		perror("sct-record: sigaction");
		env_free(&env);
		return 1;
	}
	if (env.probe) {
		/* Unprivileged, every probe would only find the missing privilege. */
		err = capabilities_bpf_report();
		if (!err)
			err = probe_print_report(stdout);
		env_free(&env);
		return err ? 1 : 0;
	}
	memset(&r, 0, sizeof(r));
	r.env = &env;
	err = session_run(&r);
	env_free(&env);
	/* A command that could not run gives the shell's status, whatever else failed. */
	return r.cmd_status ? r.cmd_status : err ? 1 : 0;
}
