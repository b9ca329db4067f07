// SPDX-License-Identifier: BSD-2-Clause
/*
 * Replay inputs through a harness without libFuzzer: `replay_reader FILE...` runs
 * LLVMFuzzerTestOneInput once per file, so a finding can be debugged with gcc and gdb, and
 * fuzz/regressions/ is checked by `make test-fuzz-regressions` (SAN=1 adds the sanitizers).
 * A property violation aborts; otherwise the exit status is 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Regression inputs are small; this bounds a mistaken argument, not a real input. */
#define MAX_INPUT (64u << 20)

static int replay_file(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int err = 0;
	FILE *f;
	long end;

	f = fopen(path, "rb");
	if (!f) {
		err = -errno;
		goto report;
	}
	if (fseek(f, 0, SEEK_END) || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		err = -errno;
		goto close_file;
	}
	if ((unsigned long)end > MAX_INPUT) {
		err = -EFBIG;
		goto close_file;
	}
	len = (size_t)end;
	buf = malloc(len ? len : 1);
	if (!buf) {
		err = -ENOMEM;
		goto close_file;
	}
	if (fread(buf, 1, len, f) != len) {
		err = -EIO;
		goto free_buf;
	}
	LLVMFuzzerTestOneInput(buf, len);
	printf("ok %s (%zu bytes)\n", path, len);
free_buf:
	free(buf);
close_file:
	fclose(f);
report:
	if (err)
		fprintf(stderr, "replay: %s: %s\n", path, strerror(-err));
	return err;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n  runs the fuzz harness once per input file\n",
			argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_file(argv[i]))
			status = 1;
	return status;
}
