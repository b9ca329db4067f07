#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# sct-report and sct-convert with -j1 (blocks decoded in turn), -j2 and -j4 (decoded ahead by
# threads) give the same bytes on stdout and stderr, the same exit status and the same output
# files: every mode and format, on every spec/examples trace, the reader's fuzz regressions
# (but slow-width0-*: a million rows of one block, ten seconds a run; fuzz/reader_fuzz.c reads
# it with two threads), a trace of many blocks, damaged copies of it (blocks that decode bad,
# checksum mismatches, cuts, a gap) and concatenations of them all.
#   env: SCT_REPORT, SCT_CONVERT, SCT_GEN_REPORT (tests/report/report.mk), JOBS_N (records of
#   the generated trace, 100000), JOBS_INPUTS (each: every file on its own too, the default;
#   joined: the examples and fuzz regressions only within the concatenations)
set -euo pipefail

REPORT=${SCT_REPORT:?} CONVERT=${SCT_CONVERT:?} GEN=${SCT_GEN_REPORT:?}
N=${JOBS_N:-100000}
INPUTS=${JOBS_INPUTS:-each}
case $INPUTS in each | joined) ;; *) echo "JOBS_INPUTS=$INPUTS: each or joined expected" >&2; exit 2 ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TMP=$(mktemp -d /tmp/sct-jobs.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

"$GEN" bench "$TMP/big.sct" "$N" >/dev/null
python3 "$HERE/jobs_damage.py" "$TMP/big.sct" "$TMP"
"$GEN" sessions "$TMP/sessions.sct" 40 >/dev/null
small=("$ROOT"/spec/examples/*.sct)
for f in "$ROOT"/fuzz/regressions/reader/*; do
	case $f in */slow-width0-*) ;; *) small+=("$f") ;; esac
done
inputs=("$TMP"/big.sct "$TMP"/dmg_*.sct "$TMP/sessions.sct")
cat "${small[@]}" "${inputs[@]}" > "$TMP/all.sct"
cat "$TMP/big.sct" "$TMP/dmg_sealed.sct" "$ROOT/spec/examples/corrupt_block.sct" "$TMP/big.sct" \
	"$TMP/dmg_cut_body.sct" > "$TMP/concat.sct"
inputs+=("$TMP/all.sct" "$TMP/concat.sct")
[ "$INPUTS" = joined ] || inputs=("${small[@]}" "${inputs[@]}")

report_modes=("" "--by cgroup,syscall" "--by thread,syscall" "--by process" "--by comm" "--by host"
	"--by path" "--by peer,syscall" "--by event" "-e" "-H" "--tree" "-T" "--html @OUT@")
convert_modes=()
for t in syscall task fork exec exit cgroup lost warning sample totals sessions; do
	convert_modes+=("--to csv --records $t")
done
for t in syscall task sample; do
	convert_modes+=("--to jsonl --records $t" "--to clickhouse --records $t")
done
convert_modes+=("--to perfetto -o @OUT@")

runs=0 fails=0
# One tool run with -jJ: "rc", stdout, stderr and the output file (if any) under $TMP/J.*
run_j() {
	local j=$1 tool=$2 args=$3 input=$4 rc=0
	rm -f "$TMP/out"
	# shellcheck disable=SC2086 # args are words
	"$tool" -j"$j" ${args//@OUT@/$TMP/out} "$input" >"$TMP/$j.stdout" 2>"$TMP/$j.stderr" || rc=$?
	echo "$rc" > "$TMP/$j.rc"
	if [ -e "$TMP/out" ]; then mv "$TMP/out" "$TMP/$j.file"; else : > "$TMP/$j.file"; fi
}

check() {
	local tool=$1 args=$2 input=$3 j k
	run_j 1 "$tool" "$args" "$input"
	for j in 2 4; do
		run_j "$j" "$tool" "$args" "$input"
		runs=$((runs + 1))
		for k in rc stdout stderr file; do
			if ! cmp -s "$TMP/1.$k" "$TMP/$j.$k"; then
				echo "FAIL: $(basename "$tool") -j$j $args $(basename "$input"): $k differs from -j1" >&2
				diff <(head -c 2000 "$TMP/1.$k") <(head -c 2000 "$TMP/$j.$k") | head -10 >&2 || true
				fails=$((fails + 1))
				break
			fi
		done
	done
}

for input in "${inputs[@]}"; do
	for m in "${report_modes[@]}"; do check "$REPORT" "$m" "$input"; done
	for m in "${convert_modes[@]}"; do check "$CONVERT" "$m" "$input"; done
done
echo "jobs_same: $runs comparisons (-j2 and -j4 against -j1), ${#inputs[@]} inputs, $fails failed"
[ "$fails" -eq 0 ]
