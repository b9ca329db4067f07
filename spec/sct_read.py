#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A second sct reader, written from spec/FORMAT.md alone (Python standard library only).

It is not part of sct: it exists to show that the spec is enough to write a reader, and
`make test-examples` runs it over spec/examples to check that it decodes every example exactly
as libsct does (records, diagnostics, sessions and trailers of NAME.json).

    sct_read.py FILE.sct                 print the decoding as JSON (the events of NAME.json)
    sct_read.py --check NAME.json FILE   compare with libsct's decoding; exit 1 on a difference
    sct_read.py --check-appendix FORMAT.md small.sct
                                         check that every byte FORMAT.md appendix A shows is
                                         in the file at the offset it gives
    sct_read.py --tasks FILE.sct         print which task made each SYSCALL and SAMPLE
                                         (section 9.2), as in NAME.tasks.json
    sct_read.py --check-tasks NAME.tasks.json FILE
                                         compare that with libsct's answer; exit 1 if they differ
"""
import re
import json
import sys
import zlib

LABEL = bytes.fromhex("d9d9f8da5343544643424f52")
MAX_FRAME_BODY = 16 << 20
MAX_HEADER_BODY = 1 << 20
MAX_BLOCK_RAW = 8 << 20
MAX_BLOCK_RECORDS = 1 << 20
MAX_STRING = 65536
MAX_FIELDS = 64
MAX_SECTIONS = 64
MAX_NESTING = 8
START_SCAN = 1 << 20
KINDS = ("uint", "sint", "time", "bytes")

# Section 9: the built-in schema of version 1.7; SINCE: the minor version that added a type.
BUILTIN = {
    1: ("syscall", "time_ns:time duration_ns:uint pid:uint tid:uint cgroup_id:uint nr:uint "
                   "abi:uint ret:sint unfinished:uint arg0:uint arg1:uint arg2:uint arg3:uint "
                   "arg4:uint arg5:uint path_flags:uint path_ref:uint path:bytes "
                   "path2_flags:uint path2_ref:uint path2:bytes stack_id:uint "
                   "addr_flags:uint addr:bytes argv_flags:uint envc:uint argv:bytes "
                   "data_flags:uint data:bytes"),
    2: ("task", "time_ns:time pid:uint tid:uint ppid:uint cgroup_id:uint start_ns:uint "
                "comm:bytes"),
    3: ("fork", "time_ns:time parent_pid:uint parent_tid:uint child_pid:uint child_tid:uint "
                "is_thread:uint child_start_ns:uint"),
    4: ("exec", "time_ns:time pid:uint tid:uint old_tid:uint filename:bytes comm:bytes"),
    5: ("exit", "time_ns:time pid:uint tid:uint exit_code:sint signal:uint group_dead:uint "
                "start_ns:uint"),
    6: ("cgroup", "time_ns:time cgroup_id:uint path:bytes"),
    7: ("lost", "time_ns:time end_ns:time cause:uint count:uint"),
    8: ("warning", "time_ns:time kind:uint count:uint text:bytes"),
    9: ("sample", "time_ns:time pid:uint tid:uint cpu:uint cgroup_id:uint event:uint payload:bytes"),
    10: ("totals", "time_ns:time since_ns:time pid:uint cgroup_id:uint nr:uint abi:uint calls:uint "
                   "errors:uint duration_ns:uint max_ns:uint hist_bits:uint hist:bytes"),
    11: ("stack", "time_ns:time stack_id:uint pid:uint frames:bytes"),
    12: ("module", "time_ns:time module_id:uint kind:uint build_id:bytes path:bytes"),
    13: ("symbol", "time_ns:time module_id:uint addr:uint size:uint name:bytes"),
}
TOTALS_MINOR = 5
STACKS_MINOR = 6
SINCE = {9: 1, 10: TOTALS_MINOR, 11: STACKS_MINOR, 12: STACKS_MINOR, 13: STACKS_MINOR}
# Section 9.4: a STACK holds at most 256 frames, each module_id below 2^32.
MAX_STACK_FRAMES = 256
MAX_STACK_DEPTH = 127
# Section 9.11: a TOTALS histogram's sub-bucket bits are at most 16.
HIST_MAX_BITS = 16
# SYSCALL's first nine fields; the rest only in a session with "syscall_args": up to path
# (18 fields) from 1.3, up to path2 (21 fields) from 1.4; then stack_id, from 1.6 in a session
# with "stacks" only; then the seven fields of captured memory, from 1.7 with "syscall_args".
SYSCALL_BASE = 9
ARGS_MINOR = 3
SYSCALL_ARGS13 = 18
PATH2_MINOR = 4
SYSCALL_ARGS14 = 21
SYSCALL_STACK = 21  # stack_id's place in the full list
CAPTURES_MINOR = 7
SYSCALL_CAPTURES = 7
# Section 9: a SYSCALL addr holds at most 128 bytes; "syscall_args"' "argv" "max" at most 1,024.
MAX_ADDR = 128
MAX_ARGV = 1024
# "syscall_args"' "compat" table: read from 1.4 on, ignored in a 1.3 session.
COMPAT_ARGS_MINOR = 4
# Section 7.1: SYSCALL's path columns, (ref field, string field), each with its own table.
PATH_COLUMNS = (("path_ref", "path"), ("path2_ref", "path2"))
ARG_KINDS = ("int", "fd", "dirfd", "path", "flags", "enum", "mode", "size", "ptr",
             "sockaddr", "argv", "envp", "buf", "msghdr")
MAX_ARGS = 6
MAX_ARGS_STRING = 4096
MAX_SYSCALL_ARGS = 4096
MAX_EVENTS = 1024
MAX_EVENT_FIELDS = 256
MAX_NAME = 256
BUILTIN = {t: (name, [tuple(f.split(":")) for f in fields.split()])
           for t, (name, fields) in BUILTIN.items()}

DIAG = {"skipped": 1, "truncated": 2, "no_trailer": 3, "unknown_frame": 4,
        "unknown_record": 5, "bad_block": 6, "no_header": 7, "bad_record": 8}


class Bad(Exception):
    """The item does not decode (FORMAT.md section 10)."""


class Refused(Exception):
    """The input cannot be read at all."""


# ---------------------------------------------------------------- CBOR (section 1)

def cbor_head(b, pos, end):
    """(major, argument, position after the head); Bad if short, reserved or indefinite."""
    if pos >= end:
        raise Bad("short")
    major, ai = b[pos] >> 5, b[pos] & 31
    if ai < 24:
        return major, ai, pos + 1
    if ai > 27:
        raise Bad("reserved or indefinite")
    n = 1 << (ai - 24)
    if end - pos - 1 < n:
        raise Bad("short")
    return major, int.from_bytes(b[pos + 1:pos + 1 + n], "big"), pos + 1 + n


def cbor_item(b, pos, end, depth):
    """Decode one item into Python values; maps keep their pairs in order."""
    major, arg, pos = cbor_head(b, pos, end)
    if major in (0, 1):
        return (arg if major == 0 else -1 - arg), pos
    if major in (2, 3):
        if arg > end - pos:
            raise Bad("string past the body")
        raw = bytes(b[pos:pos + arg])
        return (raw if major == 2 else ("tstr", raw)), pos + arg
    if depth + 1 > MAX_NESTING:
        raise Bad("nesting")
    if major == 4:
        items = []
        for _ in range(arg):
            item, pos = cbor_item(b, pos, end, depth + 1)
            items.append(item)
        return items, pos
    if major == 5:
        pairs = []
        for _ in range(arg):
            k, pos = cbor_item(b, pos, end, depth + 1)
            v, pos = cbor_item(b, pos, end, depth + 1)
            pairs.append((k, v))
        return ("map", pairs), pos
    if major == 6:
        item, pos = cbor_item(b, pos, end, depth + 1)
        return ("tag", item), pos
    return ("simple", arg), pos


def cbor_load(body):
    item, pos = cbor_item(body, 0, len(body), 0)
    if pos != len(body):
        raise Bad("bytes after the item")
    return item


def is_map(v):
    return isinstance(v, tuple) and v[0] == "map"


def get(m, key):
    """Value of text key in map m (first match), None if m is no map or lacks it."""
    if not is_map(m):
        return None
    for k, v in m[1]:
        if k == ("tstr", key.encode()):
            return v
    return None


def utf8_repair(raw):
    """Section 5: every byte that starts no valid UTF-8 sequence becomes U+FFFD."""
    out, i = [], 0
    while i < len(raw):
        for n in (1, 2, 3, 4):
            try:
                out.append(raw[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def text_all(v):
    """A text string's value, repaired; anything else reads as "" (section 1)."""
    return utf8_repair(v[1]) if isinstance(v, tuple) and v[0] == "tstr" else ""


def text(v):
    """A text string as libsct keeps it: up to its first NUL (section 5)."""
    return text_all(v).split("\0")[0]


def recording_id(v):
    """Section 5: 32 lowercase hex digits, the whole string as stored; anything else is missing."""
    ok = isinstance(v, tuple) and v[0] == "tstr" and re.fullmatch(rb"[0-9a-f]{32}", v[1])
    return v[1].decode() if ok else ""


def uint(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


# ---------------------------------------------------------------- HEADER and TRAILER (5, 8)

def builtin(t, minor, args=False, stacks=False, nfields=None):
    """Section 9's entry for t as a session of this minor version knows it (None: no HEADER;
    then a SYSCALL section of nfields 10 is one of a session with stacks, and one of 28 one of
    a 1.7 session with arguments and without stacks, section 10.5)."""
    fields = BUILTIN[1][1]
    stack = fields[SYSCALL_STACK:SYSCALL_STACK + 1]
    captures = fields[SYSCALL_STACK + 1:]
    if minor is not None and minor < SINCE.get(t, 0):
        return None
    if t == 1 and minor is None and nfields == SYSCALL_BASE + 1:
        return BUILTIN[1][0], fields[:SYSCALL_BASE] + stack
    if t == 1 and minor is None and nfields == len(fields) - 1:
        return BUILTIN[1][0], fields[:SYSCALL_ARGS14] + captures
    if t != 1 or minor is None:
        return BUILTIN.get(t)
    if minor < ARGS_MINOR or not args:
        n = SYSCALL_BASE
    elif minor < PATH2_MINOR:
        n = SYSCALL_ARGS13
    else:
        n = SYSCALL_ARGS14
    return BUILTIN[1][0], fields[:n] + (stack if stacks and minor >= STACKS_MINOR else []) + \
        (captures if args and minor >= CAPTURES_MINOR else [])


def parse_schema_entry(m, minor, args, stacks):
    t, fields = uint(get(m, "type")), get(m, "fields")
    if not t or t > 0xFFFFFFFF or not isinstance(fields, list) or len(fields) > MAX_FIELDS:
        return None
    out = []
    for f in fields:
        if not isinstance(f, list) or len(f) < 3:
            return None
        kind = text(f[1]) if isinstance(f[1], tuple) and f[1][0] == "tstr" else None
        if kind not in KINDS:
            return None
        out.append((text(f[0]), kind))
    known = builtin(t, minor, args, stacks)
    typed = known is not None and all(
        out[k][1] == known[1][k][1] for k in range(min(len(out), len(known[1]))))
    if typed:
        # section 5: section 9's type by position, its names whatever the HEADER says; the
        # fields the entry lists past them are trailing fields, as the HEADER names them
        return t, (known[0], known[1] + out[len(known[1]):], True, len(out))
    return t, (text(get(m, "name")), out, typed, len(out))


def text_len(v):
    """Section 5: a limit counts the bytes of the string as repaired, before the cut at NUL."""
    return len(utf8_repair(v[1]).encode()) if isinstance(v, tuple) and v[0] == "tstr" else None


def parse_event_field(f):
    if not isinstance(f, list) or len(f) < 6:
        raise Bad("field")
    name, ctype = text_len(f[0]), text_len(f[1])
    off, size, sign, loc = (uint(x) for x in f[2:6])
    if name is None or ctype is None or None in (off, size, sign, loc) or \
            not 1 <= name <= MAX_NAME or ctype > MAX_NAME or off > 65536 or \
            size > 65536 - off or sign > 1 or loc > 2 or (loc and size != 4):
        raise Bad("field")
    return [text(f[0]), text(f[1]), off, size, sign, loc]


def parse_events(v):
    """Section 5, "events": all or nothing, so that SAMPLE's indexes stay the writer's."""
    if not isinstance(v, list) or len(v) > MAX_EVENTS:
        return []
    out = []
    try:
        for e in v:
            name, fields = get(e, "name"), get(e, "fields")
            if not is_map(e) or text_len(name) is None or not 1 <= text_len(name) <= MAX_NAME \
                    or not isinstance(fields, list) or len(fields) > MAX_EVENT_FIELDS:
                raise Bad("event")
            out.append({"name": text(name), "fields": [parse_event_field(f) for f in fields]})
    except Bad:
        return []
    return out


def parse_arg(a):
    """One argument's [name, kind, family]; None if malformed (section 5, "syscall_args")."""
    if not isinstance(a, list) or len(a) < 3:
        return None
    name, family = text_len(a[0]), text_len(a[2])
    if name is None or not 1 <= name <= MAX_NAME or family is None or family > MAX_NAME:
        return None
    kind = text(a[1])  # a non-text kind reads as "", which is no kind: "int"
    return [text(a[0]), kind if kind in ARG_KINDS else "int", text(a[2])]


def parse_args_table(m):
    """One ABI's table of "syscall_args": entries one by one, the first of a number kept."""
    table = {}
    for k, args in (m[1][:MAX_SYSCALL_ARGS] if is_map(m) else []):
        if uint(k) is None or k > 0xFFFFFFFF or not isinstance(args, list) or \
                len(args) > MAX_ARGS or k in table:
            continue
        parsed = [parse_arg(a) for a in args]
        if None not in parsed:
            table[k] = parsed
    return [[k, table[k]] for k in sorted(table)]


def parse_syscall_args(v, minor):
    """Section 5, "syscall_args"; "compat" shown only when it describes a syscall."""
    m = uint(get(v, "max"))
    out = {"max": m if m is not None and m <= MAX_ARGS_STRING else 0,
           "paths": text(get(v, "paths")), "native": parse_args_table(get(v, "native"))}
    compat = parse_args_table(get(v, "compat")) if minor >= COMPAT_ARGS_MINOR else []
    if compat:
        out["compat"] = compat
    if minor >= CAPTURES_MINOR:
        # a value out of its range reads as 0; an "argv" that is not a map as absent
        argv = get(v, "argv")
        a_max = uint(get(argv, "max")) if is_map(argv) else None
        a_bytes = uint(get(argv, "bytes")) if is_map(argv) else None
        data = uint(get(v, "data"))
        out["argv"] = {"max": a_max if a_max is not None and a_max <= MAX_ARGV else 0,
                       "bytes": a_bytes if a_bytes is not None and a_bytes <= MAX_STRING else 0}
        out["data"] = data if data is not None and data <= MAX_STRING else 0
    return out


def parse_header(body, index):
    h = cbor_load(body)
    if not is_map(h):
        raise Bad("HEADER is not a map")
    fmt = get(h, "format")
    if not isinstance(fmt, list) or len(fmt) != 2 or uint(fmt[0]) is None or uint(fmt[1]) is None \
            or fmt[0] > 0xFFFFFFFF or fmt[1] > 0xFFFFFFFF:
        raise Bad("no valid format")
    if fmt[0] != 1:
        raise Refused("format %d.%d is not supported" % (fmt[0], fmt[1]))
    s = {"index": index, "format": [fmt[0], fmt[1]]}
    producer, host = get(h, "producer"), get(h, "host")
    clock, cgroup, syscalls = get(h, "clock"), get(h, "cgroup"), get(h, "syscalls")
    compat = get(syscalls, "compat")
    args = get(producer, "args")
    s.update({
        "producer": text(get(producer, "name")), "producer_version": text(get(producer, "version")),
        "args": (" ".join(text_all(a) for a in args) if isinstance(args, list) else "").split("\0")[0],
        "hostname": text(get(host, "hostname")), "kernel": text(get(host, "kernel")),
        "arch": text(get(host, "arch")), "boot_id": text(get(host, "boot_id")),
        "clock": text(get(clock, "name")), "cgroup_hierarchy": text(get(cgroup, "hierarchy")),
        "cgroup_mount": text(get(cgroup, "mount")),
        "compat_arch": text(get(compat, "arch")) if compat is not None else "",
        "anchor_clock_ns": uint(get(clock, "anchor_ns")) or 0,
        "anchor_realtime_ns": uint(get(clock, "anchor_realtime_ns")) or 0,
        "backend": text(get(h, "backend")) if fmt[1] >= 1 else "",
        "sample_cgroup": text(get(h, "sample_cgroup")) if fmt[1] >= 1 else "",
        "events": parse_events(get(h, "events")) if fmt[1] >= 1 else [],
    })
    recording = get(h, "recording") if fmt[1] >= 2 else None
    s.update({
        "recording_id": recording_id(get(recording, "id")),
        "sequence": uint(get(recording, "sequence")) or 0,
        "snapshot": uint(get(recording, "snapshot")) == 1,
    })
    filt = get(h, "filter") if fmt[1] >= TOTALS_MINOR else None
    s.update({
        "filter_text": text(get(filt, "text")) if is_map(filt) else "",
        "filter_details": text(get(filt, "details")) if is_map(filt) else "",
        "filter_totals": text(get(filt, "totals")) if is_map(filt) else "",
        "filter": is_map(filt),
    })
    stacks = get(h, "stacks") if fmt[1] >= STACKS_MINOR else None
    depth = uint(get(stacks, "depth")) if is_map(stacks) else None
    s.update({
        "stacks_mode": text(get(stacks, "mode")) if is_map(stacks) else "",
        "stacks_unwind": text(get(stacks, "unwind")) if is_map(stacks) else "",
        "stacks": {"mode": text(get(stacks, "mode")),
                   "depth": depth if depth is not None and depth <= MAX_STACK_DEPTH else 0,
                   "unwind": text(get(stacks, "unwind"))} if is_map(stacks) else None,
    })
    args = get(h, "syscall_args") if fmt[1] >= ARGS_MINOR else None
    if is_map(args):
        s["syscall_args"] = parse_syscall_args(args, fmt[1])
    tables = []
    for abi in ("native", "compat"):
        names = get(get(syscalls, abi), "names")
        table = {}
        for k, v in (names[1] if is_map(names) else []):
            if uint(k) is not None and isinstance(v, tuple) and v[0] == "tstr" and k not in table:
                table[k] = text(v)
        tables.append(table)
    schema = {}
    entries = get(h, "schema")
    for m in (entries[:1024] if isinstance(entries, list) else []):
        e = parse_schema_entry(m, fmt[1], "syscall_args" in s, s["stacks"] is not None)
        if e and e[0] not in schema:
            schema[e[0]] = e[1]
    return s, tables, schema


def parse_trailer(body):
    t = cbor_load(body)
    if not is_map(t):
        raise Bad("TRAILER is not a map")
    records = {}
    recs = get(t, "records")
    for k, v in (recs[1] if is_map(recs) else []):
        if uint(k) is not None and uint(v) is not None and k in BUILTIN:
            records[BUILTIN[k][0]] = v
    out = {"blocks": uint(get(t, "blocks")) or 0,
           "records": {BUILTIN[k][0]: records[BUILTIN[k][0]] for k in sorted(BUILTIN)
                       if records.get(BUILTIN[k][0])}}
    for key in ("lost", "warnings", "first_ns", "last_ns"):
        out[key] = uint(get(t, key)) or 0
    return out


# ---------------------------------------------------------------- BLOCK (sections 6, 7)

def lz4_block(src, raw_size):
    out, i = bytearray(), 0
    while i < len(src):
        tok = src[i]
        i += 1
        lit = tok >> 4
        if lit == 15:
            while True:
                if i >= len(src):
                    raise Bad("lz4")
                lit += src[i]
                i += 1
                if src[i - 1] != 255:
                    break
        if lit > len(src) - i or len(out) + lit > raw_size:
            raise Bad("lz4")
        out += src[i:i + lit]
        i += lit
        if i == len(src):
            break
        if len(src) - i < 2:
            raise Bad("lz4")
        off = src[i] | src[i + 1] << 8
        i += 2
        ml = tok & 15
        if ml == 15:
            while True:
                if i >= len(src):
                    raise Bad("lz4")
                ml += src[i]
                i += 1
                if src[i - 1] != 255:
                    break
        ml += 4
        if off == 0 or off > len(out) or len(out) + ml > raw_size:
            raise Bad("lz4")
        for _ in range(ml):
            out.append(out[-off])
    if len(out) != raw_size:
        raise Bad("lz4 size")
    return bytes(out)


class Payload:
    def __init__(self, raw, pos=0, end=None):
        self.raw, self.pos, self.end = raw, pos, len(raw) if end is None else end

    def varint(self):
        v = 0
        for shift in range(0, 64, 7):
            if self.pos >= self.end:
                raise Bad("varint")
            b = self.raw[self.pos]
            self.pos += 1
            if shift == 63 and b > 1:
                raise Bad("varint")
            v |= (b & 0x7F) << shift
            if not b & 0x80:
                return v
        raise Bad("varint")

    def take(self, n):
        if n > self.end - self.pos:
            raise Bad("past the end")
        self.pos += n
        return self.raw[self.pos - n:self.pos]


def hist_bucket_low(b, bits):
    """Section 9.11: the smallest duration of bucket b."""
    if b < 2 << bits:
        return b
    q, m = b >> bits, (1 << bits) + (b & ((1 << bits) - 1))
    return m << (q - 1)


def hist_bins(hist, bits, calls):
    """Section 9.11: [lowest duration, count] per bucket; Bad if the record is damaged."""
    if bits > HIST_MAX_BITS:
        raise Bad("hist_bits")
    p, nxt, total, bins = Payload(hist), 0, 0, []
    while p.pos < p.end:
        bucket = nxt + p.varint()
        count = p.varint()
        if bucket > 64 << bits or count == 0:
            raise Bad("hist bucket")
        total += count
        bins.append([hist_bucket_low(bucket, bits), count])
        nxt = bucket + 1
    if total != calls:
        raise Bad("hist sum")
    return bins


def stack_frames(frames):
    """Section 9.4: [module_id, addr] per frame, innermost first; Bad if the record is damaged."""
    p, out = Payload(frames), []
    while p.pos < p.end:
        module_id, addr = p.varint(), p.varint()
        if module_id > 0xFFFFFFFF or len(out) == MAX_STACK_FRAMES:
            raise Bad("frames")
        out.append([module_id, addr])
    return out


def unzigzag(s):
    return (s >> 1) ^ -(s & 1)


def column(p, kind, count, first_ns):
    width = p.take(1)[0]
    if width > 8:
        raise Bad("width")
    planes = p.take(width * count)
    stored = [sum(planes[k * count + i] << (8 * k) for k in range(width)) for i in range(count)]
    if kind == "sint":
        return [unzigzag(s) for s in stored]
    if kind == "time":
        out, v = [], first_ns
        for s in stored:
            v = (v + unzigzag(s)) % (1 << 64)
            out.append(v)
        return out
    if kind == "bytes":
        if any(n > MAX_STRING for n in stored):
            raise Bad("string length")
        data = p.take(sum(stored))
        out, at = [], 0
        for n in stored:
            out.append(data[at:at + n])
            at += n
        return out
    return stored


def resolve_paths(cols, fields):
    """Section 7.1: in each path column that the session's SYSCALL has (fields: its section 9
    fields), a ref k > 0 names the k-th string that column stores whole in the block."""
    names = [name for name, _kind in fields]
    for ref_name, path_name in PATH_COLUMNS:
        if path_name not in names:
            continue
        refs, paths, table = cols[names.index(ref_name)], cols[names.index(path_name)], []
        for i, (ref, path) in enumerate(zip(refs, paths)):
            if ref > len(table) or (ref and path):
                raise Bad(ref_name)
            if ref:
                paths[i] = table[ref - 1]
            elif path:
                table.append(path)


def check_addr(cols, fields):
    """Section 9: a SYSCALL addr longer than 128 bytes makes the block not decode."""
    names = [name for name, _kind in fields]
    if "addr" in names and any(len(a) > MAX_ADDR for a in cols[names.index("addr")]):
        raise Bad("addr")


def parse_block(body, schema, minor=None, args=False, stacks=False):
    """Records (type, schema entry, row values) in file order, and the sections' (type, count)."""
    p = Payload(body)
    major, n, p.pos = cbor_head(body, 0, len(body))
    if major != 4 or n != 6:
        raise Bad("not array(6)")
    meta = []
    for _ in range(5):
        major, v, p.pos = cbor_head(body, p.pos, len(body))
        if major != 0:
            raise Bad("metadata")
        meta.append(v)
    major, plen, p.pos = cbor_head(body, p.pos, len(body))
    count, raw_size, first_ns, _last_ns, codec = meta
    if major != 2 or plen != len(body) - p.pos:
        raise Bad("payload length")
    if not 1 <= count <= MAX_BLOCK_RECORDS or not 1 <= raw_size <= MAX_BLOCK_RAW or codec > 1:
        raise Bad("limits or codec")
    payload = body[p.pos:]
    if codec == 0:
        if plen != raw_size:
            raise Bad("stored size")
        raw = payload
    else:
        raw = lz4_block(payload, raw_size)
    p = Payload(raw)
    nruns = p.varint()
    if nruns > count:
        raise Bad("nruns")
    runs, total = [], 0
    for _ in range(nruns):
        t, c = p.varint(), p.varint()
        if t > 0xFFFFFFFF or c < 1 or c > count - total:
            raise Bad("run")
        runs.append((t, c))
        total += c
    if total != count:
        raise Bad("run total")
    nsec = p.varint()
    if nsec > MAX_SECTIONS:
        raise Bad("nsections")
    sections = {}
    order = []
    for _ in range(nsec):
        t, c, nfields, length = p.varint(), p.varint(), p.varint(), p.varint()
        if t > 0xFFFFFFFF or c > MAX_BLOCK_RECORDS or nfields > MAX_FIELDS or t in sections:
            raise Bad("section head")
        start = p.pos
        p.take(length)
        sp = Payload(raw, start, p.pos)  # the section's columns, skipped whole by length
        known = builtin(t, minor, args, stacks, nfields)
        entry = schema.get(t) or (known + (True, len(known[1])) if known else None)
        cols = []
        if entry:
            # fields the HEADER's entry lacks read as 0 and empty, whatever the section holds
            for k, (_name, kind) in enumerate(entry[1]):
                cols.append(column(sp, kind, c, first_ns) if k < nfields and k < entry[3] else
                            [b"" if kind == "bytes" else 0] * c)
            if t == 1 and entry[2] and len(known[1]) > SYSCALL_BASE:
                resolve_paths(cols, known[1])
                check_addr(cols, known[1])
        sections[t] = [entry, cols, c, 0]
        order.append((t, c))
    if p.pos != p.end:
        raise Bad("bytes after the last section")
    per_type = {}
    for t, c in runs:
        if t not in sections:
            raise Bad("run without section")
        per_type[t] = per_type.get(t, 0) + c
    if any(per_type.get(t, 0) != sec[2] for t, sec in sections.items()):
        raise Bad("counts")
    records = []
    for t, c in runs:
        sec = sections[t]
        for _ in range(c):
            row = sec[3]
            sec[3] += 1
            if sec[0]:
                records.append((t, sec[0], [col[row] for col in sec[1]]))
    return records, order


# ---------------------------------------------------------------- SAMPLE fields (9.1)

def is_char(ctype):
    i = ctype.find("char")
    return i >= 0 and (i == 0 or ctype[i - 1] == " ") and ctype[i + 4:i + 5] in ("", " ", "[") \
        and "unsigned char" not in ctype


def array_count(ctype):
    m = re.search(r"\[(\d+)\][^\[]*$", ctype)
    return int(m.group(1)) if m and int(m.group(1)) <= 65536 else 0


def le_int(b, signed):
    return int.from_bytes(b, "little", signed=bool(signed))


def string_value(b):
    return text_bytes(b.split(b"\0")[0])


def array_value(b, elem, signed):
    elem = elem if elem in (1, 2, 4, 8) else 1
    return [le_int(b[i:i + elem], signed) for i in range(0, len(b) - len(b) % elem, elem)]


def sample_field(f, p):
    """One field of a SAMPLE payload by the HEADER's description (section 9.1)."""
    _name, ctype, off, size, signed, loc = f
    if off > len(p) or size > len(p) - off:
        return {"error": "out of range"}
    if loc:
        v = le_int(p[off:off + 4], 0)
        start, length = v & 0xFFFF, v >> 16
        if loc == 2:
            start += off + size
        if start > len(p) or length > len(p) - start:
            return {"error": "out of range"}
        data = p[start:start + length]
        return string_value(data) if is_char(ctype) else array_value(data, 1, signed)
    n = array_count(ctype)
    if n and is_char(ctype) and size == n:
        return string_value(p[off:off + size])
    if n or size not in (1, 2, 4, 8):
        return array_value(p[off:off + size], size // n if n and size % n == 0 else 1, signed)
    return le_int(p[off:off + size], signed)


# ---------------------------------------------------------------- frames and resync (3, 10)

def envelope(b, pos):
    """('ok', type, body_at, body_len, total) / ('short',) / ('bad',) / ('toolong',)."""
    n = len(b)
    if b[pos] != 0x83:
        return ("bad",)
    try:
        major, t, q = cbor_head(b, pos + 1, n)
    except Bad as e:
        return ("short",) if str(e) == "short" else ("bad",)
    if major != 0 or t > 0xFFFFFFFF:
        return ("bad",)
    try:
        major, length, q = cbor_head(b, q, n)
    except Bad as e:
        return ("short",) if str(e) == "short" else ("bad",)
    if major != 2:
        return ("bad",)
    if length > MAX_FRAME_BODY:
        return ("toolong",)
    return ("ok", t, q, length, q - pos + length + 5)


def verifies(b, pos, env, crc=zlib.crc32):
    _, _t, body_at, length, total = env
    check = b[body_at + length:pos + total]
    return check[0] == 0x1A and int.from_bytes(check[1:], "big") == crc(b[pos:body_at + length])


# Section 10.2, cost: CRC-32 is linear over GF(2), so the CRC of b[y:e] follows from running
# CRCs of the input at y and e. These are zlib's crc32_combine() helpers.
POLY = 0xEDB88320


def multmodp(a, b):
    """a times b modulo the CRC polynomial (bit-reflected, as zlib)."""
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if not a & (m - 1):
                return p
        m >>= 1
        b = (b >> 1) ^ POLY if b & 1 else b >> 1


def x8nmodp(n):
    """x^(8n) modulo the CRC polynomial."""
    p, sq = 1 << 31, multmodp(1 << 30, 1 << 30)  # x^0; x^2
    sq = multmodp(sq, sq)                        # x^4
    sq = multmodp(sq, sq)                        # x^8
    while n:
        if n & 1:
            p = multmodp(sq, p)
        n >>= 1
        sq = multmodp(sq, sq)
    return p


class Spans:
    """crc32(b[y:y+n]) for candidates at increasing y, each input byte CRC'd once (10.2)."""
    STEP = 64

    def __init__(self, b):
        self.b, self.run = b, [0]    # run[i] = crc32(b[0:i*STEP])

    def at(self, i):
        while len(self.run) <= i:
            k = len(self.run) - 1
            self.run.append(zlib.crc32(self.b[k * self.STEP:(k + 1) * self.STEP], self.run[k]))
        return self.run[i]

    def crc(self, y, n):
        if n <= 2 * self.STEP:
            return zlib.crc32(self.b[y:y + n])
        e, c1 = y + n, -(-y // self.STEP)
        k = e // self.STEP
        head = zlib.crc32(self.b[y:c1 * self.STEP])
        at_e = zlib.crc32(self.b[k * self.STEP:e], self.at(k))
        return multmodp(x8nmodp(e - c1 * self.STEP), head ^ self.at(c1)) ^ at_e


def candidate(b, y, spans):
    if b[y] == LABEL[0]:
        return b[y:y + 12] == LABEL
    env = envelope(b, y)
    return env[0] == "ok" and env[4] <= len(b) - y and \
        verifies(b, y, env, lambda covered: spans.crc(y, len(covered)))


def scan(b, start, limit, spans):
    for y in range(start, min(len(b), limit)):
        if b[y] in (0x83, LABEL[0]) and candidate(b, y, spans):
            return y
    return None


def text_bytes(v):
    try:
        s = v.decode("utf-8")
        if "\0" not in s and not any(0xD800 <= ord(c) <= 0xDFFF for c in s):
            return s
    except UnicodeDecodeError:
        pass
    return {"hex": v.hex()}


class Reader:
    def __init__(self, b):
        self.b, self.events = b, []
        self.spans = Spans(b)
        self.session = None
        self.open = False
        self.label_at = None      # a label, and no HEADER, BLOCK or TRAILER since
        self.headerless_noted = False
        self.nsessions = 0

    def diag(self, kind, type_=0, offset=0, length=0, count=0):
        self.events.append({"event": "diagnostic", "kind": kind, "type": type_, "offset": offset,
                            "length": length, "count": count})

    def end_session(self, pos, at_end=False):
        if self.open or self.label_at is not None:
            self.diag("no_trailer", 0, pos)
        self.open = False
        self.label_at = None
        if not at_end:
            self.session, self.headerless_noted = None, False

    def resync(self, pos, truncated):
        y = scan(self.b, pos + 1, len(self.b), self.spans)
        if truncated and y is None:
            self.diag("truncated", 0, pos, len(self.b) - pos)
            return len(self.b)
        y = len(self.b) if y is None else y
        self.diag("skipped", 0, pos, y - pos)
        return y

    def frame(self, pos, env):
        _, t, body_at, length, total = env
        body = self.b[body_at:body_at + length]
        if t in (1, 2, 3):
            label_only, self.label_at = self.label_at is not None, None
        if t == 1:
            if not label_only:
                self.end_session(pos)
            try:
                if length > MAX_HEADER_BODY:
                    raise Bad("HEADER too long")
                s, tables, schema = parse_header(body, self.nsessions)
            except Bad:
                self.diag("bad_block", 1, pos, total)
                return
            self.nsessions += 1
            self.session = (s, tables, schema)
            self.open = True
            self.events.append(dict({"event": "session"}, **s))
        elif t == 2:
            if self.session is None and not self.headerless_noted:
                self.headerless_noted = True
                self.diag("no_header", 2, pos)
                self.events.append({"event": "session", "index": None})
            self.open = True
            schema = self.session[2] if self.session else {}
            try:
                minor = self.session[0]["format"][1] if self.session else None
                args = bool(self.session) and "syscall_args" in self.session[0]
                stacks = bool(self.session) and self.session[0]["stacks"] is not None
                records, sections = parse_block(body, schema, minor, args, stacks)
            except Bad:
                self.diag("bad_block", 2, pos, total)
                return
            for st, c in sections:
                if schema.get(st) is None and builtin(st, minor, args) is None:
                    self.diag("unknown_record", st, pos, 0, c)
            for rt, entry, values in records:
                self.record(rt, entry, values, pos)
        elif t == 3:
            try:
                tr = parse_trailer(body)
            except Bad:
                self.diag("bad_block", 3, pos, total)
                return
            if self.session:
                self.events.append(dict({"event": "trailer", "session": self.session[0]["index"]},
                                        **tr))
            self.open = False
        else:
            self.diag("unknown_frame", t, pos, total)

    def record(self, rt, entry, values, pos):
        ev = {"event": "record", "type": entry[0]}
        for (name, kind), v in zip(entry[1], values):
            # the examples' JSON calls a field named "event" "event_index" ("event" is its kind)
            key = "event_index" if name == "event" else name
            if key not in ev:  # of fields with one name (section 5), the first
                ev[key] = text_bytes(v) if kind == "bytes" else v
        minor = self.session[0]["format"][1] if self.session else None
        if rt == 9 and builtin(rt, minor):
            events = self.session[0]["events"] if self.session else []
            idx = ev.get("event_index", 0)
            ev["event_name"] = events[idx]["name"] if idx < len(events) else None
            if idx < len(events):
                payload = values[[f[0] for f in entry[1]].index("payload")]
                ev["fields"] = {f[0]: sample_field(f, payload) for f in events[idx]["fields"]}
        if rt == 10 and builtin(rt, minor):
            try:
                ev["hist_bins"] = hist_bins(values[11] if len(values) > 11 else b"",
                                            ev.get("hist_bits", 0), ev.get("calls", 0))
            except Bad:
                self.diag("bad_record", 10, pos, 0, 1)
                return
        if rt == 11 and builtin(rt, minor) and entry[2]:
            try:
                ev["frame_list"] = stack_frames(values[3] if len(values) > 3 else b"")
            except Bad:
                self.diag("bad_record", 11, pos, 0, 1)
                return
        if rt in (1, 10):
            nr, abi = ev.get("nr", 0), ev.get("abi", 0)
            tables = self.session[1] if self.session else [{}, {}]
            ev["name"] = tables[abi].get(nr) if isinstance(abi, int) and abi < 2 else None
        self.events.append(ev)

    def read(self):
        b, pos = self.b, 0
        pos = scan(b, 0, START_SCAN, self.spans)  # section 2: label or valid frame in 1 MiB
        if pos is None:
            raise Refused("not an sct trace")
        if pos:
            self.diag("skipped", 0, 0, pos)
        while pos < len(b):
            if b[pos:pos + 12] == LABEL:
                self.end_session(pos)
                self.label_at = pos
                pos += 12
                continue
            if len(b) - pos < 12 and b[pos:] == LABEL[:len(b) - pos]:
                pos = self.resync(pos, True)
                continue
            env = envelope(b, pos)
            if env[0] != "ok":
                pos = self.resync(pos, env[0] == "short")
                continue
            if env[4] > len(b) - pos:
                pos = self.resync(pos, True)
                continue
            if not verifies(b, pos, env):
                pos = self.resync(pos, False)
                continue
            self.frame(pos, env)
            pos += env[4]
        self.end_session(len(b), at_end=True)
        return self.events


def comparable(events):
    """Events in input order; diagnostics without their text (each reader words its own)."""
    return [{k: v for k, v in e.items() if e["event"] != "diagnostic" or k != "text"}
            for e in events]


def appendix_lines(text, base):
    """(offset, bytes) of the listing lines "OFF  hex-or-"text" ...  comment" of appendix A."""
    for line in text.splitlines():
        m = re.match(r"^ *([0-9a-f]{2,3})  +(.*)$", line)
        if not m:
            continue
        shown = bytearray()
        for tok in re.findall(r'"[^"]*"|\S+', re.split(r"   +", m.group(2))[0]):
            if re.fullmatch(r"[0-9a-f]{2}", tok):
                shown.append(int(tok, 16))
            elif tok.startswith('"'):
                shown += tok[1:-1].encode()
            else:
                break
        if shown:
            yield int(m.group(1), 16) + base, bytes(shown)


def check_appendix(spec_path, sct_path):
    """Appendix A's file offsets (A.1, A.2, A.4, the BLOCK of A.3) and payload offsets."""
    spec, b = open(spec_path).read(), open(sct_path, "rb").read()
    app = spec[spec.index("## Appendix A."):]
    a3 = app.split("### A.3")[1]
    listings = [app.split("### A.2")[0], app.split("### A.2")[1].split("### A.3")[0],
                a3.split("```")[1], app.split("### A.4")[1]]
    checks = [(off, shown, b) for text in listings for off, shown in appendix_lines(text, 0)]
    # the BLOCK at 598 in A.3: its payload decompressed
    env = envelope(b, 0x598)
    records = parse_block(b[env[2]:env[2] + env[3]], {})  # checks it decodes at all
    raw_size = int(re.search(r"raw_size = (\d+) bytes", a3).group(1))
    plen = int(re.search(r"^5b3  58 ([0-9a-f]{2})", a3, re.M).group(1), 16)
    raw = lz4_block(b[0x5B5:0x5B5 + plen], raw_size) if records else b""
    checks += [(off, shown, raw) for off, shown in appendix_lines(a3.split("```")[3], 0)]
    lz = re.search(r"^5b5  ((?:[0-9a-f]{2} ?)+)\n((?: {5}(?:[0-9a-f]{2} ?)+\n)*)", a3, re.M)
    checks.append((0x5B5, bytes.fromhex(lz.group(1) + lz.group(2)), b))
    bad = [(off, shown, data) for off, shown, data in checks
           if data[off:off + len(shown)] != shown]
    for off, shown, data in bad:
        print("%s: appendix A shows %s at 0x%x, the %s has %s" %
              (sct_path, shown.hex(), off, "file" if data is b else "payload",
               data[off:off + len(shown)].hex()))
    return 1 if bad or len(checks) < 50 else 0


NAME_DEPTH = 64  # a fork chain's names are followed this deep (a hostile file may loop)
MAX_SPANS = 4096  # spans of one tid of a session, names of one task (section 9.2, bounds)
MAX_NAMES = 4096


class Tasks:
    """Section 9.2: tasks as incarnations, attributed by (session, tid, time).

    Lifecycle records are taken in file order, then every record is attributed by its time,
    whatever its place in the file. A task is a dict; spans[(session, tid)] lists
    [start, end or None, task] in start order."""

    def __init__(self, events):
        self.tasks, self.spans = [], {}
        for sess, ev in session_records(events):
            getattr(self, "on_" + ev["type"], lambda s, e: None)(sess, ev)
        for t in self.tasks:
            if t["group_end"] is not None:
                p = self.process(t)
                p = t if p is None else p
                if p["pend"] is None or t["group_end"][0] >= p["pend"][0]:
                    p["pend"] = t["group_end"]

    def find(self, sess, tid, time):
        spans = self.spans.get((sess, tid), [])
        for i, (start, end, task) in enumerate(spans):
            over = (end is not None and time > end) or (i + 1 < len(spans) and time >= spans[i + 1][0])
            if not over:
                return task
        return None

    def new(self, sess, pid, tid, start, start_known):
        if len(self.spans.get((sess, tid), [])) >= MAX_SPANS:
            return None
        t = {"session": sess, "pid": pid, "tid": tid, "start": start if start_known else 0,
             "known": start_known, "first": start, "fork": None, "thread": pid != tid,
             "snap": None, "names": [], "nexec": 0, "end": None, "group_end": None, "pend": None}
        self.tasks.append(t)
        self.span_add(sess, tid, start, t)
        return t

    def span_add(self, sess, tid, start, t):
        spans = self.spans.setdefault((sess, tid), [])
        if any(sp[2] is t and sp[0] == start for sp in spans) or len(spans) >= MAX_SPANS:
            return False
        i = len(spans)
        while i > 0 and spans[i - 1][0] > start:
            i -= 1
        spans.insert(i, [start, None, t])
        return True

    def span_of(self, sess, tid, t):
        return next((sp for sp in self.spans.get((sess, tid), []) if sp[2] is t), None)

    def by_start(self, sess, tid, start):
        return next((sp[2] for sp in self.spans.get((sess, tid), [])
                     if sp[2]["known"] and sp[2]["start"] == start and sp[2]["tid"] == tid), None)

    def name(self, t, time, comm, filename):
        if (time, comm, filename) in t["names"] or len(t["names"]) >= MAX_NAMES:
            return False
        i = len(t["names"])
        while i > 0 and t["names"][i - 1][0] > time:
            i -= 1
        t["names"].insert(i, (time, comm, filename))
        return True

    def described(self, sess, pid, tid, time, start):
        """A TASK's or FORK's task when none of the tid has its start: one known by its EXEC
        alone (no start) at that time takes the start, else a new one."""
        t = self.find(sess, tid, time)
        if t is None or t["known"]:
            return self.new(sess, pid, tid, start, True)
        t["known"], t["start"] = True, start
        spans = self.spans[(sess, tid)]
        sp = self.span_of(sess, tid, t)
        if start < sp[0]:
            spans.remove(sp)
            sp[0] = start
            i = len(spans)
            while i > 0 and spans[i - 1][0] > start:
                i -= 1
            spans.insert(i, sp)
        return t

    def on_task(self, sess, e):
        t = self.by_start(sess, e["tid"], e["start_ns"])
        if t is None:
            t = self.described(sess, e["pid"], e["tid"], e["time_ns"], e["start_ns"])
        if t is None:
            return
        if t["snap"] is None or e["time_ns"] < t["snap"][0]:
            t["snap"] = (e["time_ns"], e["ppid"], e["cgroup_id"])
        self.name(t, e["time_ns"], json.dumps(e["comm"]), None)

    def on_fork(self, sess, e):
        cs = e["child_start_ns"]
        start = cs if cs and cs <= e["time_ns"] else e["time_ns"]
        t = self.by_start(sess, e["child_tid"], start)
        if t is None:
            t = self.described(sess, e["child_pid"], e["child_tid"], e["time_ns"], start)
        if t is None:
            return
        t["fork"] = (e["time_ns"], e["parent_tid"], 0 if e["is_thread"] else e["parent_pid"])
        t["thread"] = bool(e["is_thread"])

    def on_exec(self, sess, e):
        comm, filename = json.dumps(e["comm"]), json.dumps(e["filename"])
        t = self.find(sess, e["old_tid"], e["time_ns"])
        if t is None:
            t = self.new(sess, e["pid"], e["old_tid"], e["time_ns"], False)
        if t is None:
            return
        t["nexec"] += self.name(t, e["time_ns"], comm, filename)
        if e["old_tid"] == e["pid"]:
            return
        sp = self.span_of(sess, e["old_tid"], t)
        if sp is not None and (sp[1] is None or sp[1] > e["time_ns"]):
            sp[1] = e["time_ns"]
        self.span_add(sess, e["pid"], e["time_ns"], t)
        leader = self.process(t)
        if leader is not None and leader is not t:
            leader["nexec"] += self.name(leader, e["time_ns"], comm, filename)

    def on_exit(self, sess, e):
        t = self.find(sess, e["tid"], e["time_ns"])
        if t is not None and t["known"] and t["start"] > e["time_ns"]:
            t = None
        if t is None:
            t = self.new(sess, e["pid"], e["tid"], e["start_ns"] or e["time_ns"], e["start_ns"] != 0)
        if t is None:
            return
        t["end"] = (e["time_ns"], e["exit_code"], e["signal"])
        sp = self.span_of(sess, e["tid"], t)
        if sp is not None and (sp[1] is None or sp[1] > e["time_ns"]):
            sp[1] = e["time_ns"]
        if e["group_dead"] and (t["group_end"] is None or e["time_ns"] >= t["group_end"][0]):
            t["group_end"] = t["end"]

    def born(self, t):
        if t["fork"] is not None:
            return t["fork"][0]
        return t["start"] if t["known"] else t["first"]

    def forker(self, t):
        return self.find(t["session"], t["fork"][1], t["fork"][0]) if t["fork"] is not None else None

    def process(self, t):
        if not t["thread"]:
            return t
        p = self.find(t["session"], t["pid"], self.born(t))
        return p if p is not None and not p["thread"] else None

    def comm(self, t, time):
        for _ in range(NAME_DEPTH):
            if t is None:
                break
            before = [n for n in t["names"] if n[0] <= time]
            if before:
                return before[-1][1]
            if t["fork"] is None:
                return next((n[1] for n in t["names"] if n[2] is None), None)
            time, t = t["fork"][0], self.forker(t)
        return None

    def cgroup(self, t):
        for _ in range(NAME_DEPTH):
            if t is None:
                break
            if t["snap"] is not None:
                return t["snap"][2]
            t = self.forker(t)
        return 0

    def ppid(self, t):
        return t["fork"][2] if t["fork"] is not None else (t["snap"][1] if t["snap"] else 0)

    def parent(self, t):
        if t["thread"]:
            return None
        if t["fork"] is not None:
            p = self.forker(t)
        elif t["snap"] is not None and t["snap"][1]:
            p = self.find(t["session"], t["snap"][1], t["snap"][0])
        else:
            return None
        return None if p is None else self.process(p)

    def info(self, t):
        ref = lambda x: None if x is None else [x["tid"], x["start"]]
        p = self.process(t)
        end = t["pend"] if not t["thread"] and t["pend"] is not None else t["end"]
        execs = [n for n in t["names"] if n[2] is not None]
        comm = self.comm(t, float("inf"))
        return {"session": t["session"], "task": ref(t), "pid": t["pid"],
                "ppid": self.ppid(p if t["thread"] and p is not None else t),
                "thread": t["thread"], "process": ref(p), "parent": ref(self.parent(t)),
                "exited": end is not None, "end_ns": end[0] if end else 0,
                "exit_code": end[1] if end else 0, "signal": end[2] if end else 0,
                "cgroup_id": self.cgroup(t), "nexec": t["nexec"],
                "comm": json.loads(comm) if comm is not None else "",
                "filename": json.loads(execs[-1][2]) if execs else ""}


def session_records(events):
    """(session number, record event): sessions numbered by their session events."""
    sess = -1
    for ev in events:
        if ev["event"] == "session":
            sess += 1
        elif ev["event"] == "record":
            yield sess, ev


def name_time(ev):
    """Section 9.2: a SYSCALL is named at its return (at its entry if unfinished)."""
    if ev["type"] != "syscall" or ev["unfinished"]:
        return ev["time_ns"]
    return min(ev["time_ns"] + ev["duration_ns"], 2**64 - 1)


def attribution(events):
    """What NAME.tasks.json holds: each SYSCALL's and SAMPLE's task and name, every task."""
    tasks = Tasks(events)
    records = []
    for sess, ev in session_records(events):
        if ev["type"] not in ("syscall", "sample"):
            continue
        t = tasks.find(sess, ev["tid"], ev["time_ns"])
        comm = tasks.comm(t, name_time(ev))
        records.append({"session": sess, "type": ev["type"], "time_ns": ev["time_ns"],
                        "tid": ev["tid"], "task": None if t is None else [t["tid"], t["start"]],
                        "comm": json.loads(comm) if comm is not None else ""})
    infos = sorted((tasks.info(t) for t in tasks.tasks),
                   key=lambda i: (i["session"], i["task"][0], i["task"][1]))
    return {"records": records, "tasks": infos}


def main(argv):
    if len(argv) == 4 and argv[1] == "--check-appendix":
        return check_appendix(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "--check-tasks":
        want = json.load(open(argv[2]))
        got = attribution(Reader(open(argv[3], "rb").read()).read())
        bad = 0
        for key in ("records", "tasks"):
            for i, (g, w) in enumerate(zip(got[key], want[key])):
                if g != w:
                    bad += 1
                    print("%s: %s[%d] differ:\n  spec reader: %s\n  libsct:      %s" % (argv[3], key, i, g, w))
            if len(got[key]) != len(want[key]):
                bad += 1
                print("%s: %d %s, libsct has %d" % (argv[3], len(got[key]), key, len(want[key])))
        return 1 if bad else 0
    if len(argv) == 3 and argv[1] == "--tasks":
        json.dump(attribution(Reader(open(argv[2], "rb").read()).read()), sys.stdout, indent=1)
        print()
        return 0
    if len(argv) == 4 and argv[1] == "--check":
        want = comparable(json.load(open(argv[2]))["events"])
        try:
            got = comparable(Reader(open(argv[3], "rb").read()).read())
        except Refused as e:
            print("%s: refused: %s" % (argv[3], e))
            return 1
        if got != want:
            i = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
            print("%s: event %d differs (of %d and %d):\n  spec reader: %s\n  libsct:      %s" %
                  (argv[3], i, len(got), len(want), got[i] if i < len(got) else None,
                   want[i] if i < len(want) else None))
            return 1
        return 0
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        events = Reader(open(argv[1], "rb").read()).read()
    except Refused as e:
        print("sct_read: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    json.dump({"events": events}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
