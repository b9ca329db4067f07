#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sct-report --html FILE opened by headless Chromium, its numbers against the text output.

usage: report_html.py SCT_REPORT TMPDIR TRACE...
For each TRACE, with the option set of its rank below, sct-report writes the page and prints
the text;
Chromium loads the page (--dump-dom: the document as the browser built it) with console
logging on stderr, and renders the first page to a PNG (--screenshot). Checked: no console
message (a script error, a request the page's Content-Security-Policy refused), no URL or
src/href in the page, a PNG; every summary row of the page (its cells and labels) and its
total row equal the text's; each heat map's and histogram's cells add up to its calls, and
a heat map's calls are its syscall's row's (--by syscall); the footer equals the text's.
Exit 77 when Chromium is not installed (the caller decides whether that fails).
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys

# A browser starts in about a second: one page per trace.
OPTION_SETS = [[], ["--by", "cgroup,syscall", "--sort", "calls", "-e", "--top", "3"], ["--top", "3", "--sort", "max"]]
COLS = ["calls", "errors", "pct", "total", "avg", "min", "max", "p50", "p90", "p99"]


class Page(html.parser.HTMLParser):
    """The summary's rows, the figures' counts and the footer of a page's DOM."""

    def __init__(self):
        super().__init__()
        self.rows, self.total, self.figures, self.footer = [], None, [], ""
        self.row = self.cell = self.figure = None
        self.in_footer = self.in_tfoot = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tfoot":
            self.in_tfoot = True
        elif tag == "tr" and a.get("class") in ("group", "total"):
            self.row = {"labels": []}
        elif tag == "td" and self.row is not None:
            self.cell = [a.get("data-col") or ("label" if a.get("class") == "label" else None), ""]
        elif tag == "figure":
            self.figure = {"class": a.get("class"), "syscall": a.get("data-syscall"),
                           "calls": int(a["data-calls"]), "cells": 0}
        elif tag == "rect" and self.figure is not None and "data-n" in a:
            self.figure["cells"] += int(a["data-n"])
        elif tag == "pre" and a.get("id") == "footer":
            self.in_footer = True

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            name, text = self.cell
            if name == "label":
                self.row["labels"].append(text)
            elif name:
                self.row[name] = text
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.in_tfoot:
                self.total = self.row
            else:
                self.rows.append(self.row)
            self.row = None
        elif tag == "tfoot":
            self.in_tfoot = False
        elif tag == "figure":
            self.figures.append(self.figure)
            self.figure = None
        elif tag == "pre":
            self.in_footer = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        if self.in_footer:
            self.footer += data


def text_summary(text):
    """Rows, total and footer of sct-report's text summary."""
    rows, total, footer = [], None, []
    for line in text.splitlines()[1:]:
        if line.startswith("-- ") or footer:
            footer.append(line)
            continue
        if line.lstrip().startswith("errors:"):
            continue
        if " total of " in line:
            f = line.split()
            total = {"calls": f[0], "errors": f[1], "pct": f[2], "total": f[3],
                     "labels": [line[line.index("total of "):]]}
            continue
        f = line.split(None, 10)
        row = dict(zip(COLS, f[:10]))
        row["labels"] = re.split(r"  +", f[10].strip())
        rows.append(row)
    return rows, total, "\n".join(footer) + "\n"


def chromium(tmp, args, failures, label):
    res = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                          "--no-default-browser-check", "--user-data-dir=" + os.path.join(tmp, "chromium"),
                          "--enable-logging=stderr", "--v=0"] + args, capture_output=True, timeout=60)
    err = res.stderr.decode("utf-8", "replace")
    for line in err.splitlines():
        if "CONSOLE" in line or "Refused to" in line:
            failures.append(f"{label}: browser console: {line}")
    if res.returncode:
        failures.append(f"{label}: chromium exited {res.returncode}: {err[-500:]}")
    return res.stdout.decode("utf-8", "replace")


def check_page(report, tmp, trace, opts, shot, failures):
    label = f"{os.path.basename(trace)} {' '.join(opts)}".strip()
    page = os.path.join(tmp, "page.html")
    res = subprocess.run([report, "--html", page] + opts + [trace], capture_output=True)
    if res.returncode not in (0, 3):
        failures.append(f"{label}: sct-report exited {res.returncode}: {res.stderr!r}")
        return
    with open(page, encoding="utf-8") as f:
        source = f.read()
    if re.search(r"https?:|\bsrc=|\bhref=", source):
        failures.append(f"{label}: the page refers to something outside it")
    url = "file://" + os.path.abspath(page)
    dom = Page()
    dom.feed(chromium(tmp, ["--dump-dom", url], failures, label))
    if shot:
        png = os.path.join(tmp, "page.png")
        chromium(tmp, [f"--screenshot={png}", "--window-size=1200,1600", url], failures, label)
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n" or os.path.getsize(png) < 10000:
                failures.append(f"{label}: no screenshot")
    rows, total, footer = text_summary(res.stdout.decode("utf-8", "replace"))
    if not rows or dom.rows != rows:
        failures.append(f"{label}: page rows {dom.rows} != text rows {rows}")
    if dom.total != total:
        failures.append(f"{label}: page total {dom.total} != text total {total}")
    if dom.footer != footer:
        failures.append(f"{label}: page footer {dom.footer!r} != text footer {footer!r}")
    calls = {r["labels"][0]: int(r["calls"]) for r in rows} if not opts or opts[0] != "--by" else {}
    for fig in dom.figures:
        if fig["cells"] != fig["calls"]:
            failures.append(f"{label}: {fig['class']} {fig['syscall']}: cells add up to {fig['cells']}, "
                            f"not {fig['calls']}")
        if fig["class"] == "heat" and fig["syscall"] in calls and calls[fig["syscall"]] != fig["calls"]:
            failures.append(f"{label}: heat map {fig['syscall']}: {fig['calls']} calls, the row {calls[fig['syscall']]}")
    heats = sum(1 for fig in dom.figures if fig["class"] == "heat")
    hists = sum(1 for fig in dom.figures if fig["class"] == "hist")
    if not heats or hists != len(rows):
        failures.append(f"{label}: {heats} heat maps, {hists} histograms for {len(rows)} rows")
    print(f"{label}: {len(rows)} rows, {heats} heat maps, {hists} histograms")


def main():
    report, tmp, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not shutil.which("chromium"):
        print("report_html: chromium is not installed (make deps installs it)")
        return 77
    failures = []
    for i, trace in enumerate(traces):
        check_page(report, tmp, trace, OPTION_SETS[i % len(OPTION_SETS)], i == 0, failures)
    for line in failures:
        print("FAIL:", line)
    print(f"report_html: {len(traces)} traces, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
