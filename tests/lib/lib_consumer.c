// SPDX-License-Identifier: BSD-2-Clause
/*
 * A program built the way one outside this repository would be: <sct.h> and the flags of
 * `pkg-config --cflags --libs libsct`, nothing else. Prints each session's host and the number
 * of records of a trace, for tests/lib/lib_link.sh to compare with the trace's decoding.
 */
#include <sct.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned long long records = 0;
	struct sct_record rec;
	struct sct_reader *r;
	int err = 0, n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE\n", argv[0]);
		return 2;
	}
	r = sct_reader_open(argv[1], &err);
	if (!r) {
		fprintf(stderr, "%s: %s\n", argv[1], sct_strerror(err));
		return 1;
	}
	while ((n = sct_reader_next(r, &rec)) > 0) {
		const struct sct_session *s = sct_reader_session(r);

		if (rec.type == SCT_REC_SESSION)
			printf("session %u %s\n", sct_session_index(s), sct_session_get(s, SCT_SESSION_HOSTNAME));
		else
			records++;
	}
	if (n < 0)
		fprintf(stderr, "%s: %s\n", argv[1], sct_reader_error(r));
	printf("records %llu\n", records);
	sct_reader_close(r);
	return n < 0;
}
