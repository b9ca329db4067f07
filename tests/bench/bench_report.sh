#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-report: sct-report (summary, the --html page) and sct-convert (CSV, JSON Lines,
# Perfetto) records per second on a trace of N syscall records made by the format library, and
# beside them perf script /
# perf report events per second over a perf.data of raw_syscalls enter+exit events of a
# write loop (dd bs=1: one read and one write per byte), and the timeline of a file and of a
# pipe (live). Median of RUNS wall-clock runs. Each mode runs with -j1 (blocks decoded by the
# reading thread) and -jJOBS (decoded ahead by JOBS threads, default the online CPUs), side by
# side, with the ratio of the two; then the peak RSS of -jJOBS on N and 4 x N records (memory
# stays flat as traces grow), and the summary against perf report's rate of the same run.
# Targets (2 cores, -jJOBS): summary >= 100 M records/s, --by cgroup,syscall >= 60 M, CSV >= 20 M,
# JSONL >= 12 M, timeline >= 4 M lines/s.
#   env: BUILD (build), BENCH_REPORT_N (10000000), BENCH_PERF_EVENTS (4000000), RUNS (3),
#   JOBS (nproc), BENCH_RSS (1: the RSS lines; 0 skips them)
set -euo pipefail

BUILD=${BUILD:-build}
N=${BENCH_REPORT_N:-10000000}
PERF_EVENTS=${BENCH_PERF_EVENTS:-4000000}
RUNS=${RUNS:-3}
JOBS=${JOBS:-$(nproc)}
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

# label count target command...: the command with -j1 and with -jJOBS inserted after its first
# word, wall rates side by side and their ratio
pair() {
	local label=$1 n=$2 target=$3 cmd=$4 a b
	shift 4
	a=$(median "$cmd" -j1 "$@")
	b=$(median "$cmd" -j"$JOBS" "$@")
	awk -v l="$label" -v n="$n" -v a="${a% *}" -v b="${b% *}" -v ca="${a#* }" -v cb="${b#* }" \
		-v j="$JOBS" -v tg="$target" 'BEGIN {
		printf "  %-32s -j1 %7.2f M/s   -j%d %7.2f M/s wall (x%.2f)   cpu %6.3f / %6.3f s  %s\n", l,
			n / (a / 1e9) / 1e6, j, n / (b / 1e9) / 1e6, a / b, ca / 1e9, cb / 1e9, tg }'
	echo "${b% *} $label" >> "$TMP/rates"
}

# label command...: peak RSS in KiB of one run
rss() {
	local label=$1 kb
	shift
	/usr/bin/time -o "$TMP/rss" -f %M "$@" >/dev/null 2>&1 || { echo "bench-report: failed: $*" >&2; exit 1; }
	kb=$(tail -1 "$TMP/rss")
	printf "  %-44s %8d KiB peak RSS\n" "$label" "$kb"
}

trace=$TMP/trace.sct
if [ -x "$BUILD/tests/bench/bench_format" ]; then
	"$BUILD/tests/bench/bench_format" --write-only "$trace" "$N" >/dev/null
else
	"${SCT_GEN_REPORT:-$BUILD/tests/report/gen_report}" bench "$trace" "$N"
fi
echo "bench-report: $N syscall records, $(stat -c %s "$trace") bytes, median of $RUNS runs (wall clock)"

pair "sct-report (summary)" "$N" "(target >= 100 M/s)" "$REPORT" "$trace"
pair "sct-report --by cgroup,syscall" "$N" "(target >= 60 M/s)" "$REPORT" --by cgroup,syscall "$trace"
pair "sct-report --by thread,syscall" "$N" "" "$REPORT" --by thread,syscall "$trace"
pair "sct-report -T (timeline)" "$N" "(target >= 4 M/s)" "$REPORT" -T "$trace"
# live: the reader's thread, the feed's and the reorder heap (cat's own CPU is counted too)
show "cat | sct-report -T - (live)" "$N" "$(median sh -c 'cat "$1" | "$2" -T -' sh "$trace" "$REPORT")"
pair "sct-convert --to csv" "$N" "(target >= 20 M/s)" "$CONVERT" --to csv -o /dev/null "$trace"
pair "sct-convert --to jsonl" "$N" "(target >= 12 M/s)" "$CONVERT" --to jsonl -o /dev/null "$trace"
pair "sct-convert --to perfetto" "$N" "" "$CONVERT" --to perfetto -o /dev/null "$trace"
pair "sct-report --html (and summary)" "$N" "" "$REPORT" --html "$TMP/page.html" "$trace"

if [ "${BENCH_RSS:-1}" = 1 ] && [ -x /usr/bin/time ]; then
	big=$TMP/big.sct
	if [ -x "$BUILD/tests/bench/bench_format" ]; then
		"$BUILD/tests/bench/bench_format" --write-only "$big" "$((4 * N))" >/dev/null
	else
		"${SCT_GEN_REPORT:-$BUILD/tests/report/gen_report}" bench "$big" "$((4 * N))"
	fi
	for f in "$trace" "$big"; do
		n=$([ "$f" = "$trace" ] && echo "$N" || echo "$((4 * N))")
		rss "sct-report -j$JOBS, $n records" "$REPORT" -j"$JOBS" "$f"
		rss "sct-report -j$JOBS --by thread,syscall, $n" "$REPORT" -j"$JOBS" --by thread,syscall "$f"
		rss "sct-convert -j$JOBS --to csv, $n records" "$CONVERT" -j"$JOBS" --to csv -o /dev/null "$f"
	done
	rm -f "$big"
fi

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
pr=$(median perf report -i "$perfdata" --stdio)
show "perf report --stdio (events)" "$events" "$pr"
while read -r ns label; do
	case $label in
	"sct-report (summary)"*) awk -v e="$events" -v w="${pr% *}" -v n="$N" -v b="$ns" -v j="$JOBS" 'BEGIN {
		printf "  summary -j%d: x%.1f perf report'"'"'s events/s, x%.1f its syscalls/s (two events each)\n", j,
			(n / (b / 1e9)) / (e / (w / 1e9)), (n / (b / 1e9)) / (e / 2 / (w / 1e9)) }' ;;
	esac
done < "$TMP/rates"
echo "  (one syscall = one sct record = two perf events, enter and exit)"
