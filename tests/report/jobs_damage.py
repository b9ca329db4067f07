#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Damaged copies of an sct trace for the -j tests (jobs_same.sh): a BLOCK frame whose body
is changed and whose CRC-32 is made to match again (the reader decodes it and finds it bad),
one whose CRC no longer matches (the reader resyncs past it), and cuts inside a frame.

usage: jobs_damage.py IN OUTDIR   (writes OUTDIR/dmg_*.sct)
"""
import os
import sys
import zlib

LABEL_LEN = 12


def frames(buf):
    """(start, body, body_len, type) of each frame after the label, until one does not parse."""
    pos = LABEL_LEN
    while pos + 3 < len(buf) and buf[pos] == 0x83:
        ftype = buf[pos + 1]
        head = buf[pos + 2]
        if head == 0x58:
            blen, body = buf[pos + 3], pos + 4
        elif head == 0x59:
            blen, body = int.from_bytes(buf[pos + 3:pos + 5], "big"), pos + 5
        elif head == 0x5a:
            blen, body = int.from_bytes(buf[pos + 3:pos + 7], "big"), pos + 7
        else:
            return
        if body + blen + 5 > len(buf):
            return
        yield pos, body, blen, ftype
        pos = body + blen + 5


def seal(buf, start, body, blen):
    crc = zlib.crc32(bytes(buf[start:body + blen]))
    buf[body + blen + 1:body + blen + 5] = crc.to_bytes(4, "big")


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    blocks = [f for f in frames(data) if f[3] == 2]
    if len(blocks) < 6:
        sys.exit("jobs_damage.py: %s has %d BLOCK frames, 6 needed" % (src, len(blocks)))
    out = {}
    for name, picks, fix in (("sealed", (2, 3, len(blocks) - 2), True), ("crc", (1, 4), False)):
        buf = bytearray(data)
        for k in picks:
            start, body, blen, _ = blocks[k]
            for at in (body + blen // 2, body + blen - 3):
                buf[at] ^= 0x5a
            if fix:
                seal(buf, start, body, blen)
        out[name] = buf
    start, body, blen, _ = blocks[len(blocks) // 2]
    out["cut_body"] = data[:body + blen // 2]
    out["cut_head"] = data[:start + 2]
    out["gap"] = data[:body + 10] + data[body + blen + 5:]
    for name, buf in out.items():
        with open(os.path.join(outdir, "dmg_%s.sct" % name), "wb") as f:
            f.write(buf)


if __name__ == "__main__":
    main()
