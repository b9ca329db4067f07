/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand-made trace bytes for tests of what sct's own writer never produces: unknown frame and
 * record types, trailing unknown fields, other versions, oversize length claims. Written from
 * spec/FORMAT.md (not from format/ internals), so it also cross-checks the spec. Failures to
 * allocate abort: this is test code.
 */
#ifndef SCT_TESTS_FORMAT_CRAFT_H
#define SCT_TESTS_FORMAT_CRAFT_H

#include <stddef.h>
#include <stdint.h>

#include "sct.h"

struct craft {
	uint8_t *p;
	size_t len, cap;
};

void craft_init(struct craft *c);
void craft_free(struct craft *c);
void craft_bytes(struct craft *c, const void *p, size_t n);
void craft_varint(struct craft *c, uint64_t v);
/* A CBOR head (major type, argument) in its shortest form. */
void craft_head(struct craft *c, uint8_t major, uint64_t arg);
/* The 12-byte label. */
void craft_label(struct craft *c);
/* A frame: envelope around body, with its CRC-32. */
void craft_frame(struct craft *c, uint64_t type, const void *body, size_t len);
/* An envelope head claiming claimed body bytes, followed by len real bytes and no checksum. */
void craft_frame_claim(struct craft *c, uint64_t type, uint64_t claimed, const void *body, size_t len);

/* An extra record type for the HEADER schema. */
struct craft_type {
	uint32_t type;
	const char *name;
	uint32_t nfields;
	const struct sct_field_schema *fields;
};

/* A HEADER body: format major.minor, host "crafthost", the built-in schema plus extra types
 * (an extra entry of a built-in type's number replaces that type's entry). */
void craft_header_body(struct craft *c, uint32_t major, uint32_t minor,
		       const struct craft_type *extra, size_t nextra);

/* The same with "syscall_args": {"max": 256, "paths": "enter", "native": {}}. */
void craft_header_body_args(struct craft *c, uint32_t major, uint32_t minor,
			    const struct craft_type *extra, size_t nextra);

/* The HEADER of craft_header_body() without extra types, with npairs more map pairs: len
 * bytes of CBOR keys and values. */
void craft_header_body_keys(struct craft *c, uint32_t major, uint32_t minor, const void *pairs, size_t len,
			    unsigned npairs);

/* One column of a crafted section: values (uint/sint/time) or strings (bytes). */
struct craft_col {
	uint32_t kind;
	const uint64_t *v;
	const struct sct_bytes *b;
};

struct craft_section {
	uint32_t type;
	uint32_t count;
	uint32_t ncols;
	const struct craft_col *cols;
	const uint8_t *tail; /* bytes appended after the columns (unknown trailing fields) */
	size_t tail_len;
	uint32_t tail_fields; /* fields those bytes claim to be, added to nfields */
};

struct craft_run {
	uint32_t type, count;
};

/* A BLOCK body (codec 0) with the given runs and sections; first_ns is the delta base. */
void craft_block_body(struct craft *c, uint64_t first_ns, uint64_t last_ns,
		      const struct craft_run *runs, size_t nruns,
		      const struct craft_section *secs, size_t nsecs);

/* The label and the smallest HEADER a reader accepts: {"format": [1, 0]}. */
void craft_minimal_session(struct craft *c);
/* The label and a HEADER frame (craft_header_body()). */
void craft_session(struct craft *c, uint32_t major, uint32_t minor, const struct craft_type *extra, size_t nextra);
/* A BLOCK frame of records timed from 1000 to 1300 ns (craft_block_body()). */
void craft_block(struct craft *c, const struct craft_run *runs, size_t nruns, const struct craft_section *secs,
		 size_t nsecs);

/*
 * A BLOCK frame holding TOTALS records t[0 .. n) as given, histograms unchecked (sct's writer
 * refuses one that does not check): damaged totals as a file may bring them.
 */
void craft_totals_block(struct craft *c, const struct sct_totals *t, size_t n);
/* A BLOCK frame holding STACK records st[0 .. n) as given, frames unchecked. */
void craft_stack_block(struct craft *c, const struct sct_stack *st, size_t n);

#endif
