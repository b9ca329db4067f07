/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Rewrite the CRC-32 of every frame envelope found in a buffer (spec/FORMAT.md section 3).
 * A mutated frame almost never keeps a valid checksum, so without this the fuzzer would only
 * ever exercise the resync path; with it, mutations reach the HEADER, BLOCK and payload
 * decoders. Written from the spec, independently of format/, so it also cross-checks the
 * envelope rules.
 */
#ifndef SCT_FRAME_FIXUP_H
#define SCT_FRAME_FIXUP_H

#include <stddef.h>
#include <stdint.h>

/* Scan buf from the start; at each offset where an envelope decodes with all its bytes present,
 * store the right checksum and go on after the frame. Returns the number of checksums changed. */
size_t frame_fixup(uint8_t *buf, size_t len);

#endif
