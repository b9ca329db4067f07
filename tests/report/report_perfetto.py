#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sct-convert --to perfetto decoded without the C code, checked against --to csv.

usage: report_perfetto.py SCT_CONVERT TMPDIR TRACE...
Each TRACE is converted to Perfetto and to CSV (every record type). The Perfetto file is
decoded here from the protobuf wire format (varints, length-delimited fields) with the field
numbers of Perfetto's trace.proto, and, when protoc is there, by `protoc --decode_raw`, which
must accept it and count the same packets. Checked: slices nest on each track (a stable
sort by time, as trace_processor sorts, never ends a slice that is not open; calls that
overlap others go on a track under their thread's);
every syscall row of the CSV is one slice on the track of its tid, from time_ns to time_ns +
duration_ns, named by its name, with its args, ret, errno and cgroup_path; the track's
thread name then is the row's comm; fork, exec, exit, sample, lost and warning rows are as
many instants at the same times.
"""
import csv
import os
import shutil
import subprocess
import sys

# perfetto.protos field numbers (protos/perfetto/trace/...)
PACKET = 1
PKT_TIMESTAMP, PKT_SEQ, PKT_EVENT, PKT_INTERNED, PKT_FLAGS, PKT_TRACK = 8, 10, 11, 12, 13, 60
TD_UUID, TD_NAME, TD_PROCESS, TD_THREAD, TD_PARENT = 1, 2, 3, 4, 5
THD_PID, THD_TID, THD_NAME = 1, 2, 5
PD_PID, PD_NAME, PD_LABELS = 1, 6, 8
TE_ANN, TE_TYPE, TE_NAME_IID, TE_TRACK, TE_NAME = 4, 9, 10, 11, 23
DA_NAME_IID, DA_BOOL, DA_UINT, DA_INT, DA_STRING, DA_NAME, DA_STRING_IID = 1, 2, 3, 4, 6, 10, 17
ID_EVENT_NAMES, ID_ANN_NAMES, ID_STRINGS = 2, 3, 29
BEGIN, END, INSTANT = 1, 2, 3
INSTANT_TYPES = ["fork", "exec", "exit", "sample", "lost", "warning"]


def varint(buf, pos):
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def fields(buf):
    """(number, value) of each field of a message: ints for varints, bytes for the rest."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = varint(buf, pos)
        elif wire == 2:
            n, pos = varint(buf, pos)
            if pos + n > len(buf):
                raise ValueError(f"field {num}: {n} bytes past the end")
            val, pos = buf[pos:pos + n], pos + n
        elif wire == 1:
            val, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            val, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        else:
            raise ValueError(f"wire type {wire}")
        out.append((num, val))
    return out


def one(fs, num, default=None):
    vals = [v for n, v in fs if n == num]
    return vals[-1] if vals else default


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


class Decoded:
    def __init__(self, data):
        self.names, self.ann_names, self.strings = {}, {}, {}
        self.threads = {}       # uuid -> (pid, tid) now (a thread that exec'd takes its leader's tid)
        self.parent = {}        # uuid of a track under a thread's -> the thread's
        self.thread_name = {}   # uuid -> name now (as the packets so far describe it)
        self.process_labels = {}  # pid -> labels last given
        self.events = []        # (ts, order, uuid, type, name, annotations, thread name then)
        self.packets = 0
        for num, pkt in fields(data):
            if num != PACKET:
                raise ValueError(f"Trace field {num}")
            self.packets += 1
            self.packet(fields(pkt))

    def intern(self, fs):
        for num, val in fs:
            table = {ID_EVENT_NAMES: self.names, ID_ANN_NAMES: self.ann_names,
                     ID_STRINGS: self.strings}.get(num)
            if table is not None:
                entry = fields(val)
                table[one(entry, 1)] = one(entry, 2)

    def annotations(self, te):
        out = {}
        for num, val in te:
            if num != TE_ANN:
                continue
            da = fields(val)
            name = self.ann_names[one(da, DA_NAME_IID)].decode() if one(da, DA_NAME_IID) else \
                one(da, DA_NAME).decode()
            for n, v in da:
                if n == DA_INT:
                    out[name] = signed(v)
                elif n in (DA_UINT, DA_BOOL):
                    out[name] = v
                elif n == DA_STRING:
                    out[name] = v
                elif n == DA_STRING_IID:
                    out[name] = self.strings[v]
        return out

    def packet(self, fs):
        interned = one(fs, PKT_INTERNED)
        if interned is not None:
            self.intern(fields(interned))
        track = one(fs, PKT_TRACK)
        if track is not None:
            td = fields(track)
            uuid = one(td, TD_UUID)
            thread, process = one(td, TD_THREAD), one(td, TD_PROCESS)
            if thread is not None:
                thd = fields(thread)
                # int32 fields: a pid of 2^32 - 1 (a damaged file) is -1 there
                self.threads[uuid] = (one(thd, THD_PID) & 0xFFFFFFFF, one(thd, THD_TID) & 0xFFFFFFFF)
                self.thread_name[uuid] = one(thd, THD_NAME, b"")
            if one(td, TD_PARENT) is not None:
                self.parent[uuid] = one(td, TD_PARENT)
            if process is not None:
                pd = fields(process)
                self.process_labels[one(pd, PD_PID)] = [v for n, v in pd if n == PD_LABELS]
        event = one(fs, PKT_EVENT)
        if event is not None:
            te = fields(event)
            uuid = one(te, TE_TRACK)
            iid = one(te, TE_NAME_IID)
            name = self.names[iid].decode("utf-8", "surrogateescape") if iid else None
            thread = self.parent.get(uuid, uuid)
            self.events.append((one(fs, PKT_TIMESTAMP), len(self.events), uuid, one(te, TE_TYPE), name,
                                self.annotations(te), self.thread_name.get(thread),
                                self.threads.get(thread)))


def slices(dec, failures, label):
    """Begin/end pairs per track after a stable sort by time; failures where they do not nest."""
    per_track, out = {}, []
    for ev in sorted(dec.events, key=lambda e: (e[0], e[1])):
        per_track.setdefault(ev[2], []).append(ev)
    for uuid, evs in per_track.items():
        stack = []
        for ev in evs:
            if ev[3] == BEGIN:
                stack.append(ev)
            elif ev[3] == END:
                if not stack:
                    failures.append(f"{label}: track {uuid}: an end at {ev[0]} with no open slice")
                    continue
                begin = stack.pop()
                out.append((begin, ev[0]))
        if stack:
            failures.append(f"{label}: track {uuid}: {len(stack)} slices never end")
    return out


# a sample's fields column holds up to a 64 KiB payload as JSON escapes
csv.field_size_limit(1 << 24)


def csv_rows(convert, trace, rtype):
    res = subprocess.run([convert, "--to", "csv", "--records", rtype, trace], capture_output=True)
    text = res.stdout.decode("utf-8", "surrogateescape")
    return list(csv.DictReader(text.splitlines(keepends=True)))


def b(cell):
    return cell.encode("utf-8", "surrogateescape")


def check_syscalls(convert, trace, dec, pairs, failures, label):
    got = {}
    for begin, end in pairs:
        ts, _, uuid, _, name, ann, thread_name, (pid, tid) = begin
        key = (tid, ts, end)
        got.setdefault(key, []).append((name, ann, thread_name, pid))
    rows = csv_rows(convert, trace, "syscall")
    if len(rows) != len(pairs):
        failures.append(f"{label}: {len(pairs)} slices, {len(rows)} syscall rows")
    for row in rows:
        t0 = int(row["time_ns"])
        # a duration past 2^64 ns ends at the last time there is
        key = (int(row["tid"]), t0, min(t0 + int(row["duration_ns"]), (1 << 64) - 1))
        if not got.get(key):
            failures.append(f"{label}: no slice for row {dict(row)}")
            continue
        name, ann, thread_name, pid = got[key].pop(0)
        want = {"cgroup": b(row["cgroup_path"]) or f"cgroup:{row['cgroup_id']}".encode()}
        # 1 in flight at stop, 2 does not return (FORMAT.md section 9): no return value either way
        if row["unfinished"] != "0":
            want["unfinished"] = 1
        else:
            want["ret"] = int(row["ret"])
            if row["errno"]:
                want["errno"] = b(row["errno"])
        if row["args"]:
            want["args"] = b(row["args"])
        if name != row["name"] or ann != want or pid != int(row["pid"]):
            failures.append(f"{label}: slice {name} {ann} pid {pid} != row {row['name']} {want} {row['pid']}")
        if thread_name != b(row["comm"]):
            failures.append(f"{label}: {row['name']} at {t0}: thread named {thread_name!r}, comm {row['comm']!r}")


def check_instants(convert, trace, dec, failures, label):
    """Instants by time and name; a sample's also by its fields' JSON text (the CSV's fields)."""
    instants = sorted((e[0], e[4], e[5].get("fields")) for e in dec.events if e[3] == INSTANT)
    want = []
    for rtype in INSTANT_TYPES:
        for row in csv_rows(convert, trace, rtype):
            if rtype == "sample" and "event" not in row:
                continue  # type 9 of a 1.0 session: a type its HEADER describes, not a sample
            name = (row.get("event") or f"event_{row.get('event')}") if rtype == "sample" else rtype
            fields = b(row["fields"]) if rtype == "sample" and row["fields"] else None
            want.append((int(row["time_ns"]), name, fields))
    if instants != sorted(want):
        failures.append(f"{label}: instants {instants!r:.2000} != rows {sorted(want)!r:.2000}")


def check_protoc(path, dec, failures, label):
    if not shutil.which("protoc"):
        if os.environ.get("CI") == "true":
            failures.append("protoc is missing (make deps installs protobuf-compiler)")
        return
    with open(path, "rb") as f:
        res = subprocess.run(["protoc", "--decode_raw"], stdin=f, capture_output=True)
    if res.returncode:
        failures.append(f"{label}: protoc --decode_raw: {res.stderr.decode()}")
        return
    top = sum(1 for line in res.stdout.decode("utf-8", "replace").splitlines() if line == "1 {")
    if top != dec.packets:
        failures.append(f"{label}: protoc reads {top} packets, this decoder {dec.packets}")


def main():
    convert, tmp, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    failures, nslices, ninstants = [], 0, 0
    for trace in traces:
        label = os.path.basename(trace)
        out = os.path.join(tmp, label + ".pftrace")
        res = subprocess.run([convert, "--to", "perfetto", "--force", "-o", out, trace],
                             stderr=subprocess.DEVNULL)
        if res.returncode not in (0, 3):
            failures.append(f"{label}: sct-convert exited {res.returncode}")
            continue
        with open(out, "rb") as f:
            data = f.read()
        try:
            dec = Decoded(data)
        except (ValueError, KeyError, IndexError) as e:
            failures.append(f"{label}: undecodable: {e!r}")
            continue
        pairs = slices(dec, failures, label)
        check_syscalls(convert, trace, dec, pairs, failures, label)
        check_instants(convert, trace, dec, failures, label)
        check_protoc(out, dec, failures, label)
        nslices += len(pairs)
        ninstants += sum(1 for e in dec.events if e[3] == INSTANT)
    for line in failures:
        print("FAIL:", line)
    print(f"report_perfetto: {len(traces)} traces, {nslices} slices, {ninstants} instants, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
