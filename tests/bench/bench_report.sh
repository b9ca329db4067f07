#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-report: sct-report (summary, the --html page) and sct-convert (CSV, JSON Lines,
# Perfetto) records per second on a trace of N syscall records made by the format library, and
# beside them perf script /
# perf report events per second over a perf.data of raw_syscalls enter+exit events of a
# write loop (dd bs=1: one read and one write per byte), and the timeline of a file and of a
# pipe (live). Median of RUNS wall-clock runs.
# Targets: summary >= 20 M records/s, CSV >= 5 M records/s.
#   env: BUILD (build), BENCH_REPORT_N (10000000), BENCH_PERF_EVENTS (4000000), RUNS (3)
set -euo pipefail

BUILD=${BUILD:-build}
N=${BENCH_REPORT_N:-10000000}
PERF_EVENTS=${BENCH_PERF_EVENTS:-4000000}
RUNS=${RUNS:-3}
REPORT=${SCT_REPORT:-$BUILD/sct-report}
CONVERT=${SCT_CONVERT:-$BUILD/sct-convert}
TMP=$(mktemp -d /tmp/sct-bench-report.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# "wall_ns cpu_ns" of one run of "$@" (cpu = user + sys of the command, from bash's time;
# %.0f because mawk's %d stops at 2^31)
run_one() {
	local TIMEFORMAT='%3R %3U %3S' out
	out=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || { echo "bench-report: failed: $*" >&2; exit 1; }
	awk -v r="$out" 'BEGIN { split(r, a, " "); printf "%.0f %.0f\n", a[1] * 1e9, (a[2] + a[3]) * 1e9 }'
}

# median over RUNS runs, by wall-clock time: "wall_ns cpu_ns"
median() {
	local i
	for i in $(seq "$RUNS"); do run_one "$@"; done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

# label count "wall_ns cpu_ns" [target]
show() {
	awk -v l="$1" -v n="$2" -v w="${3% *}" -v c="${3#* }" -v tg="${4:-}" 'BEGIN {
		printf "  %-32s %8.3f s %8.2f M/s wall   %8.3f s %8.2f M/s cpu  %s\n", l, w / 1e9,
			n / (w / 1e9) / 1e6, c / 1e9, (c > 0 ? n / (c / 1e9) / 1e6 : 0), tg }'
}

trace=$TMP/trace.sct
if [ -x "$BUILD/tests/bench/bench_format" ]; then
	"$BUILD/tests/bench/bench_format" --write-only "$trace" "$N" >/dev/null
else
	"${SCT_GEN_REPORT:-$BUILD/tests/report/gen_report}" bench "$trace" "$N"
fi
echo "bench-report: $N syscall records, $(stat -c %s "$trace") bytes, median of $RUNS runs (wall clock)"

show "sct-report (summary)" "$N" "$(median "$REPORT" "$trace")" "(target >= 20 M/s)"
show "sct-report --by thread,syscall" "$N" "$(median "$REPORT" --by thread,syscall "$trace")"
show "sct-report -T (timeline)" "$N" "$(median "$REPORT" -T "$trace")"
# live: the reader's thread, the feed's and the reorder heap (cat's own CPU is counted too)
show "cat | sct-report -T - (live)" "$N" "$(median sh -c 'cat "$1" | "$2" -T -' sh "$trace" "$REPORT")"
show "sct-convert --to csv" "$N" "$(median "$CONVERT" --to csv -o /dev/null "$trace")" "(target >= 5 M/s)"
show "sct-convert --to jsonl" "$N" "$(median "$CONVERT" --to jsonl -o /dev/null "$trace")"
show "sct-convert --to perfetto" "$N" "$(median "$CONVERT" --to perfetto -o /dev/null "$trace")"
show "sct-report --html (and summary)" "$N" "$(median "$REPORT" --html "$TMP/page.html" "$trace")"

if ! command -v perf >/dev/null || ! command -v dd >/dev/null; then
	echo "  peer: perf not installed, skipped"
	exit 0
fi
perfdata=$TMP/perf.data
if ! perf record -q -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -m 16M -o "$perfdata" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=$((PERF_EVENTS / 4)) >/dev/null 2>&1; then
	echo "  peer: perf record failed (needs root or perf_event_paranoid <= -1), skipped"
	exit 0
fi
events=$(perf script -i "$perfdata" 2>/dev/null | wc -l)
echo "  peer perf.data: $events raw_syscalls events, $(stat -c %s "$perfdata") bytes"
show "perf script (events)" "$events" "$(median perf script -i "$perfdata")"
show "perf report --stdio (events)" "$events" "$(median perf report -i "$perfdata" --stdio)"
echo "  (one syscall = one sct record = two perf events, enter and exit)"
