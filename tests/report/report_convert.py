#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sct-convert output checked by real parsers against the records gen_report wrote.

usage: report_convert.py SCT_CONVERT GEN_REPORT TMPDIR
CSV is parsed by Python's csv module (bytes kept with surrogateescape) and loaded by
sqlite3's `.import --csv` (compared through hex()); every JSON line is parsed by json and
compared with the documented rule: valid UTF-8 as is, each other byte as U+00XX, and C1
controls (U+0080..U+009F) escaped, never raw. The derived columns are computed here from
their fields: wall_time from time_ns and the HEADER's clock anchor (ISO 8601 UTC, ns),
errno from a finished call's ret by Python's errno table.
"""
import codecs
import csv
import datetime
import errno
import json
import os
import re
import subprocess
import sys

TYPES = ["syscall", "task", "fork", "exec", "exit", "cgroup", "lost", "warning"]
# SYSCALL's argument columns (format 1.3, path2 1.4): empty (null) in a trace recorded
# without --args.
ARG_COLUMNS = ["arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "path_flags", "path_ref", "path",
               "path2_flags", "path2_ref", "path2", "args"]


def latin1_fallback(err):
    return err.object[err.start:err.start + 1].decode("latin-1"), err.start + 1


codecs.register_error("latin1fallback", latin1_fallback)


def expected_bytes(v):
    """Expected value of a cell as bytes (CSV) or None for an empty/null one."""
    if v is None:
        return None
    if isinstance(v, dict):
        return bytes.fromhex(v["hex"])
    if isinstance(v, str):
        return v.encode()
    return str(v).encode()


def wall_time(expect, time_ns):
    """time_ns on the wall clock by the anchor, as ISO 8601 UTC with nanoseconds."""
    ns = time_ns - expect["anchor"]["clock"] + expect["anchor"]["real"]
    sec = datetime.datetime.fromtimestamp(ns // 10**9, datetime.timezone.utc)
    return sec.strftime("%Y-%m-%dT%H:%M:%S") + f".{ns % 10**9:09d}Z"


def errno_name(rec):
    """The errno name of a failed call; None for a success or an unfinished call."""
    ret = rec["ret"]
    if rec["unfinished"] or not -4095 <= ret < 0:
        return None
    return errno.errorcode.get(-ret, f"E{-ret}")


def expected_rows(expect, rtype):
    rows = []
    for rec in expect[rtype]:
        row = {"session": 0, "host": expect["host"]}
        if rtype == "syscall":
            row.update({c: None for c in ARG_COLUMNS})
            row["errno"] = errno_name(rec)
        row["wall_time"] = wall_time(expect, rec["time_ns"])
        row.update(rec)
        rows.append(row)
    return rows


# U+0080..U+009F encoded as UTF-8: a terminal's C1 controls, which JSON output escapes.
RAW_C1 = re.compile(rb"\xc2[\x80-\x9f]")


def check_csv(path, rows, failures, rtype):
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        got = list(csv.reader(f))
    header, data = got[0], got[1:]
    if len(data) != len(rows):
        failures.append(f"csv {rtype}: {len(data)} rows, expected {len(rows)}")
        return header
    if sorted(header) != sorted(rows[0].keys()):
        failures.append(f"csv {rtype}: columns {header} != {sorted(rows[0].keys())}")
        return header
    for i, (cells, want) in enumerate(zip(data, rows)):
        for name, cell in zip(header, cells):
            exp = expected_bytes(want[name])
            cell_b = cell.encode("utf-8", "surrogateescape")
            if cell_b != (exp if exp is not None else b""):
                failures.append(f"csv {rtype} row {i} {name}: {cell_b!r} != {exp!r}")
    return header


def check_sqlite(path, header, rows, failures, rtype):
    select = ", ".join(f'hex("{h}")' for h in header)
    out = subprocess.run(["sqlite3", ":memory:", "-cmd", f".import --csv {path} t",
                          f"SELECT {select} FROM t"], capture_output=True, check=True).stdout
    lines = out.decode().splitlines()
    if len(lines) != len(rows):
        failures.append(f"sqlite {rtype}: {len(lines)} rows, expected {len(rows)}")
        return
    for i, (line, want) in enumerate(zip(lines, rows)):
        for name, h in zip(header, line.split("|")):
            exp = expected_bytes(want[name]) or b""
            if bytes.fromhex(h) != exp:
                failures.append(f"sqlite {rtype} row {i} {name}: {bytes.fromhex(h)!r} != {exp!r}")


def check_jsonl(path, rows, failures, rtype):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines[-1] != b"":
        failures.append(f"jsonl {rtype}: output does not end with a newline")
    lines = lines[:-1]
    if len(lines) != len(rows):
        failures.append(f"jsonl {rtype}: {len(lines)} lines, expected {len(rows)}")
        return
    for i, (line, want) in enumerate(zip(lines, rows)):
        if RAW_C1.search(line):
            failures.append(f"jsonl {rtype} line {i}: a raw C1 control: {line!r}")
        try:
            obj = json.loads(line.decode("utf-8"))  # strict: must be UTF-8 and JSON
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            failures.append(f"jsonl {rtype} line {i}: {e}: {line!r}")
            continue
        if sorted(obj.keys()) != sorted(want.keys()):
            failures.append(f"jsonl {rtype} line {i}: keys {sorted(obj)} != {sorted(want)}")
            continue
        for name, exp in want.items():
            if isinstance(exp, dict):
                exp = bytes.fromhex(exp["hex"]).decode("utf-8", "latin1fallback")
            if obj[name] != exp or type(obj[name]) is not type(exp):
                failures.append(f"jsonl {rtype} line {i} {name}: {obj[name]!r} != {exp!r}")


def main():
    convert, gen, tmp = sys.argv[1:4]
    trace = os.path.join(tmp, "hostile.sct")
    expect_path = os.path.join(tmp, "hostile.json")
    subprocess.run([gen, "hostile", trace, expect_path], check=True)
    with open(expect_path, encoding="utf-8") as f:
        expect = json.load(f)
    expect["host"] = bytes.fromhex(expect["host"]["hex"]).decode()
    failures = []
    for rtype in TYPES:
        rows = expected_rows(expect, rtype)
        csv_path = os.path.join(tmp, f"{rtype}.csv")
        jsonl_path = os.path.join(tmp, f"{rtype}.jsonl")
        subprocess.run([convert, "--to", "csv", "--records", rtype, "-o", csv_path, trace],
                       check=True, stderr=subprocess.DEVNULL)
        header = check_csv(csv_path, rows, failures, rtype)
        check_sqlite(csv_path, header, rows, failures, rtype)
        with open(jsonl_path, "wb") as f:
            subprocess.run([convert, "--to", "jsonl", "--records", rtype, trace],
                           check=True, stdout=f, stderr=subprocess.DEVNULL)
        check_jsonl(jsonl_path, rows, failures, rtype)
    for line in failures:
        print("FAIL:", line)
    print(f"report_convert: {len(TYPES)} record types, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
