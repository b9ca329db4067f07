#!/bin/bash
# Fleet tests: traces of three hosts loaded into two ClickHouse shards behind Distributed
# tables, by sct-convert --to clickhouse | clickhouse-client and by sct-ship, must give
# sct-report's figures exactly; so must re-sending, a server killed in the middle of a ship
# and a shipper killed in the middle of a file.
set -u
. "$(dirname "$0")/fleet_servers.sh"
fleet_need_clickhouse

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok: $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $1" >&2; }

trap fleet_stop_all EXIT
fleet_setup 2
fleet_start 1
fleet_start 2
TRACES=$FLEET_TMP/traces
mkdir -p "$TRACES"
"$SCT_GEN_FLEET" fleet "$TRACES" 20000 || { echo "FAIL: gen_fleet" >&2; exit 1; }
FILES=("$TRACES"/web1-1.sct "$TRACES"/web1-2.sct "$TRACES"/web2-1.sct "$TRACES"/db2.sct)
TABLES="sessions syscall task fork exec exit cgroup lost warning sample totals"

for i in 1 2; do
	"$SCT_CONVERT" --schema clickhouse --cluster sct_test | clickhouse-client --port "${FLEET_TCP[i]}" --multiquery ||
		{ echo "FAIL: DDL on server $i" >&2; exit 1; }
done

# "name calls errors total(s)" per group, from sct-report and from ClickHouse.
report_groups() {
	local by=$1; shift
	"$SCT_REPORT" --by "$by" "$@" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && !/total of/ { print $NF, $1, $2, $4 }' | sort
}
ch_groups() {
	fleet_q 1 "SELECT $1, count(), countIf(ret < 0 AND ret >= -4095), sum(duration_ns) FROM sct.syscall
		   WHERE unfinished = 0 GROUP BY $1 FORMAT TabSeparated" |
		awk -F'\t' '{ printf "%s %d %d %d.%06d\n", $1, $2, $3, int($4 / 1e9), int(($4 % 1e9) / 1000) }' | sort
}
# Record counts per table, lost events, warnings and unfinished calls from sct-report's footer.
report_footer() {
	"$SCT_REPORT" "$@" 2>&1 | awk '
		/^-- read / { sub(/.*\(/, ""); gsub(/[),]/, ""); for (i = 1; i < NF; i += 2) print $i, $(i + 1) }
		/^-- lost events:/ { print "lost_events", $4 }
		/^-- warnings:/ { print "warnings", $3 }
		/^-- unfinished syscalls:/ { print "unfinished", $4 }' | sort
}
ch_footer() {
	local t
	for t in syscall task fork exec exit cgroup lost warning; do
		echo "$t $(fleet_q 1 "SELECT count() FROM sct.$t")"
	done
	echo "lost_events $(fleet_q 1 'SELECT sum(count) FROM sct.lost')"
	echo "warnings $(fleet_q 1 'SELECT count() FROM sct.warning')"
	echo "unfinished $(fleet_q 1 'SELECT countIf(unfinished = 1) FROM sct.syscall')"
	[ "$(fleet_q 1 'SELECT count() FROM sct.sample')" = 0 ] || echo "sample rows"
}

# Every figure of sct-report over the files equal to ClickHouse's over the Distributed tables.
check_exact() {
	local what=$1; shift
	local key
	for key in syscall cgroup; do
		report_groups "$key" "$@" >"$FLEET_TMP/want"
		diff "$FLEET_TMP/want" <(ch_groups "$([ $key = syscall ] && echo name || echo cgroup_path)") \
			>"$FLEET_TMP/diff" && [ "$(wc -l <"$FLEET_TMP/want")" -ge 5 ] &&
			ok "$what: per-$key calls, errors and duration sums as sct-report" ||
			{ bad "$what: per-$key figures differ (sct-report < > ClickHouse)"; cat "$FLEET_TMP/diff" >&2; }
	done
	diff <(report_footer "$@") <(ch_footer | sort) >"$FLEET_TMP/diff" &&
		ok "$what: rows per table, lost events, warnings, unfinished as sct-report" ||
		{ bad "$what: counts differ (sct-report < > ClickHouse)"; cat "$FLEET_TMP/diff" >&2; }
	[ "$(fleet_q 1 'SELECT count() FROM sct.sessions')" = $# ] &&
		ok "$what: one sessions row per file" || bad "$what: sessions rows: $(fleet_q 1 'SELECT count() FROM sct.sessions') for $# files"
}

# Each host's rows on one shard only.
check_sharded() {
	local h1 h2
	h1=$(fleet_q 1 'SELECT DISTINCT host FROM sct_local.syscall ORDER BY host')
	h2=$(fleet_q 2 'SELECT DISTINCT host FROM sct_local.syscall ORDER BY host')
	[ -n "$h1$h2" ] && [ -z "$(comm -12 <(echo "$h1") <(echo "$h2") | grep .)" ] &&
		ok "$1: every host's rows on one shard (shard 1: $(echo $h1), shard 2: $(echo $h2))" ||
		bad "$1: hosts on both shards: $(comm -12 <(echo "$h1") <(echo "$h2"))"
}

truncate_all() {
	local i t
	for i in 1 2; do
		for t in $TABLES stack module symbol files; do
			fleet_q "$i" "TRUNCATE TABLE sct_local.$t"
		done
	done
}

# --- 1. sct-convert --to clickhouse | clickhouse-client, through the Distributed tables
for t in $TABLES; do
	"$SCT_CONVERT" --to clickhouse --records "$t" "${FILES[@]}" >"$FLEET_TMP/rows" 2>/dev/null
	if [ -s "$FLEET_TMP/rows" ] && ! clickhouse-client --port "${FLEET_TCP[1]}" --insert_distributed_sync=1 <"$FLEET_TMP/rows"; then
		bad "clickhouse-client refused the $t rows"
	fi
done
check_exact "sct-convert | clickhouse-client" "${FILES[@]}"
check_sharded "sct-convert | clickhouse-client"
# Each row names its own file (web1-1 and web1-2 are sequences 1 and 2 of one recording), so
# joins on (host, recording, sequence, session) line up: the identities of the syscall rows
# are those of the sessions rows, one per file.
ids() { fleet_q 1 "SELECT DISTINCT host, recording, sequence, session FROM sct.$1 ORDER BY 1, 2, 3, 4"; }
diff <(ids sessions) <(ids syscall) >"$FLEET_TMP/diff" && [ "$(ids syscall | wc -l)" = ${#FILES[@]} ] &&
	ok "sct-convert | clickhouse-client: syscall rows carry their file's (recording, sequence, session)" ||
	{ bad "syscall rows' identities differ from the sessions rows' (sessions < > syscall)"; cat "$FLEET_TMP/diff" >&2; }

# --- 2. sct-ship to each host's shard (local tables), read through the Distributed tables
truncate_all
STATE=$FLEET_TMP/state
mkdir -p "$STATE"
ship() { # shard, state dir, files...
	local i=$1 st=$2; shift 2
	"$SCT_SHIP" --url "http://127.0.0.1:${FLEET_HTTP[i]}/" --database sct_local --state "$st" --retries 3 --backoff 100 "$@"
}
ship 1 "$STATE/web1" "${FILES[0]}" "${FILES[1]}" 2>"$FLEET_TMP/ship.err" &&
	ship 2 "$STATE/rest" "${FILES[2]}" "${FILES[3]}" 2>>"$FLEET_TMP/ship.err" &&
	[ "$(grep -c ': shipped$' "$FLEET_TMP/ship.err")" = 4 ] && ok "sct-ship: 4 files shipped, exit 0" ||
	{ bad "sct-ship failed"; cat "$FLEET_TMP/ship.err" >&2; }
check_exact "sct-ship" "${FILES[@]}"
check_sharded "sct-ship"

# --- 3. the same files again: from the state list, and asking the server with no state
ship 1 "$STATE/web1" "${FILES[0]}" "${FILES[1]}" 2>"$FLEET_TMP/ship.err" && ! grep -q . "$FLEET_TMP/ship.err" &&
	ok "sct-ship again with its state: nothing read, nothing sent" || bad "sct-ship again: $(cat "$FLEET_TMP/ship.err")"
ship 1 "$STATE/fresh" "${FILES[0]}" "${FILES[1]}" 2>/dev/null && ship 2 "$STATE/fresh2" "${FILES[2]}" "${FILES[3]}" 2>/dev/null &&
	ok "sct-ship again without state: exit 0" || bad "sct-ship again without state failed"
check_exact "sct-ship twice" "${FILES[@]}"
[ "$(fleet_q 1 'SELECT count() FROM sct.files')" = 4 ] && ok "one files row per file after re-sending" ||
	bad "files rows after re-sending: $(fleet_q 1 'SELECT count() FROM sct.files')"

# --- 4. the lock: a second shipper on the same state directory exits 4 at once
exec 9>"$STATE/web1/lock"
flock -n 9
ship 1 "$STATE/web1" "${FILES[0]}" 2>/dev/null
rc=$?
exec 9>&-
[ $rc = 4 ] && ok "a second sct-ship on a locked state directory exits 4" || bad "locked state: exit $rc, not 4"

# Stopping mid-ship at a known point: sct-ship runs this converter instead, which, when armed,
# passes the exit table's rows, says so and holds its end (the HTTP request stays open)
# until the gate FIFO is written: the file's sessions, syscall, task, fork and exec rows are
# stored, its exit rows in flight, its files row not written. Unarmed (the retries), it is
# sct-convert.
GATE=$FLEET_TMP/gate
mkfifo "$GATE"
cat >"$FLEET_TMP/gated-convert" <<EOF
#!/bin/bash
if [ "\$4" = exit ] && rm "$GATE.armed" 2>/dev/null; then
	"$SCT_CONVERT" "\$@" | { cat; touch "$GATE.reached"; read -r _ <"$GATE"; }
else
	exec "$SCT_CONVERT" "\$@"
fi
EOF
chmod +x "$FLEET_TMP/gated-convert"
gated_ship() { # shard, state, file
	touch "$GATE.armed"
	rm -f "$GATE.reached"
	"$SCT_SHIP" --url "http://127.0.0.1:${FLEET_HTTP[$1]}/" --database sct_local --state "$2" \
		--sct-convert "$FLEET_TMP/gated-convert" --retries 100 --backoff 100 "$3" &
}
# Until the gate holds the rows and the syscall rows are stored on shard $1 for host $2 (60 s at most).
wait_gate() {
	local t
	for t in $(seq 1 600); do
		[ -e "$GATE.reached" ] && [ "$(fleet_q "$1" "SELECT count() FROM sct_local.syscall WHERE host = '$2'")" -gt 0 ] &&
			return 0
		sleep 0.1
	done
	return 1
}

# --- 5. server killed in the middle of a ship, restarted: the shipper retries, still exact
"$SCT_GEN_FLEET" big "$TRACES/big.sct" 100000 big || { echo "FAIL: gen_fleet big" >&2; exit 1; }
gated_ship 2 "$STATE/big" "$TRACES/big.sct" 2>"$FLEET_TMP/big.err"
SHIPPER=$!
if wait_gate 2 big; then
	fleet_kill 2
	echo go >"$GATE"
	for t in $(seq 1 600); do grep -q 'attempt 1 failed' "$FLEET_TMP/big.err" && break; sleep 0.1; done
	fleet_start 2
	wait $SHIPPER
	rc=$?
	grep -q 'attempt 1 failed' "$FLEET_TMP/big.err" && [ $rc = 0 ] && grep -q ': shipped$' "$FLEET_TMP/big.err" &&
		ok "server killed mid-ship: sct-ship retried and exited 0" ||
		{ bad "server killed mid-ship: exit $rc"; cat "$FLEET_TMP/big.err" >&2; }
	[ "$(fleet_q 2 "SELECT count() FROM system.mutations WHERE database = 'sct_local' AND table = 'syscall'")" -ge 1 ] &&
		ok "the partial rows were deleted (a mutation ran) before sending again" || bad "no delete mutation ran"
else
	bad "server kill: no rows of the big file arrived"
	echo go >"$GATE"
	wait $SHIPPER
	cat "$FLEET_TMP/big.err" >&2
fi
check_exact "server killed mid-ship" "${FILES[@]}" "$TRACES/big.sct"

# --- 6. shipper killed in the middle of a file (rows partly in, no files row): the next run finishes it exactly
"$SCT_GEN_FLEET" big "$TRACES/big2.sct" 100000 big2 || { echo "FAIL: gen_fleet big2" >&2; exit 1; }
gated_ship 1 "$STATE/big2" "$TRACES/big2.sct" 2>/dev/null
SHIPPER=$!
if wait_gate 1 big2; then
	kill -KILL $SHIPPER
	wait $SHIPPER 2>/dev/null
	echo go >"$GATE" # the held converter: it stops on the closed pipe
	[ "$(fleet_q 1 "SELECT count() FROM sct_local.files WHERE host = 'big2'")" = 0 ] &&
		[ "$(fleet_q 1 "SELECT count() FROM sct_local.syscall WHERE host = 'big2'")" -gt 0 ] &&
		ok "shipper killed mid-file: rows partly in, no files row" || bad "shipper killed mid-file: not partial"
	ship 1 "$STATE/big2" "$TRACES/big2.sct" 2>"$FLEET_TMP/big2.err" && grep -q ': shipped$' "$FLEET_TMP/big2.err" &&
		ok "the next sct-ship run finished the file" || { bad "re-run after a killed shipper"; cat "$FLEET_TMP/big2.err" >&2; }
else
	bad "shipper kill: no rows of the big2 file arrived"
	echo go >"$GATE"
	wait $SHIPPER
fi
check_exact "shipper killed mid-file" "${FILES[@]}" "$TRACES/big.sct" "$TRACES/big2.sct"

# --- 7. hostile strings (commas, quotes, tabs, newlines, backslashes, bytes that are not
# UTF-8) and extreme integers arrive byte for byte: every column of every type as hex, from
# ClickHouse and from sct-convert's CSV
"$SCT_GEN_REPORT" hostile "$TRACES/hostile.sct" "$FLEET_TMP/hostile.json" >/dev/null || { echo "FAIL: gen_report" >&2; exit 1; }
"$SCT_CONVERT" --schema clickhouse --database hostile | clickhouse-client --port "${FLEET_TCP[1]}" --multiquery
for t in syscall task fork exec exit cgroup lost warning; do
	"$SCT_CONVERT" --to clickhouse --database hostile --records "$t" "$TRACES/hostile.sct" 2>/dev/null |
		{ read -r q && clickhouse-client --port "${FLEET_TCP[1]}" -q "$q"; }
	"$SCT_CONVERT" --to csv --records "$t" "$TRACES/hostile.sct" 2>/dev/null >"$FLEET_TMP/h.csv"
	# the argument columns of a trace without arguments: empty in CSV, 0 in ClickHouse; the
	# CSV's derived columns (wall_time, errno) are not ClickHouse's (it has wall_ns)
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="latin-1", newline="")))
skip = {"session", "arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "path_flags", "path_ref",
        "path2_flags", "path2_ref", "wall_time", "errno"}
keep = [i for i, n in enumerate(rows[0]) if n not in skip]
print(",".join("hex(toString(%s))" % rows[0][i] for i in keep))
for r in rows[1:]:
    print("\t".join(r[i].encode("latin-1").hex().upper() for i in keep), file=sys.stderr)' \
		"$FLEET_TMP/h.csv" 2>"$FLEET_TMP/want.unsorted" >"$FLEET_TMP/cols"
	cols=$(cat "$FLEET_TMP/cols")
	sort "$FLEET_TMP/want.unsorted" >"$FLEET_TMP/want"
	fleet_q 1 "SELECT $cols FROM hostile.$t FORMAT TabSeparated" | sort >"$FLEET_TMP/got"
	if [ -s "$FLEET_TMP/want" ] && cmp -s "$FLEET_TMP/want" "$FLEET_TMP/got"; then
		ok "hostile $t: $(wc -l <"$FLEET_TMP/want") rows byte for byte as the CSV"
	else
		bad "hostile $t rows differ from the CSV (want < > got)"
		diff "$FLEET_TMP/want" "$FLEET_TMP/got" >&2
	fi
done

# --- 8. what sct-ship says: a file it cannot read, in the reader's words (one line, exit 3);
# a bad option, getopt's line and the usage line (exit 2)
echo "not a trace" >"$FLEET_TMP/notrace.sct"
out=$("$SCT_SHIP" --url "http://127.0.0.1:${FLEET_HTTP[1]}/" --state "$FLEET_TMP/state8" "$FLEET_TMP/notrace.sct" 2>&1)
rc=$?
want="sct-ship: $FLEET_TMP/notrace.sct: not an sct trace: no sct label and no valid frame in the first 1048576 bytes"
[ $rc = 3 ] && [ "$out" = "$want" ] && ok "sct-ship on a file that is not a trace: why, in one line, exit 3" ||
	bad "sct-ship on a file that is not a trace: exit $rc: $out"
out=$("$SCT_SHIP" --bogus x 2>&1)
rc=$?
want=$'sct-ship: unrecognized option \'--bogus\'\nUsage: sct-ship --url URL [OPTIONS] FILE|DIR...  (sct-ship --help for more)'
[ $rc = 2 ] && [ "$out" = "$want" ] && ok "sct-ship --bogus: two lines, exit 2" || bad "sct-ship --bogus: exit $rc: $out"

# --- 9. a recording id of escapes, a tab, a newline and quotes (sct's writer refuses it; the
# file was patched) reads as none: every row lands whole in its columns under the id derived
# from the HEADER; and a sample's fields of 6 MB (16 fields over a 64 KiB payload of control
# bytes; 256 make 117 MB, streamed alike) load whole
"$SCT_GEN_REPORT" hostile-id "$TRACES/hostile-id.sct" || { echo "FAIL: gen_report hostile-id" >&2; exit 1; }
"$SCT_GEN_REPORT" big-sample "$TRACES/big-sample.sct" 16 || { echo "FAIL: gen_report big-sample" >&2; exit 1; }
"$SCT_CONVERT" --schema clickhouse --database odd | clickhouse-client --port "${FLEET_TCP[1]}" --multiquery
for t in syscall task sessions; do
	"$SCT_CONVERT" --to clickhouse --database odd --records "$t" "$TRACES/hostile-id.sct" 2>/dev/null |
		{ read -r q && clickhouse-client --port "${FLEET_TCP[1]}" -q "$q"; }
done
id=$("$SCT_CONVERT" --to clickhouse --records task "$TRACES/hostile-id.sct" 2>/dev/null | awk -F'\t' 'NR == 2 { print $2 }')
got=$(fleet_q 1 "SELECT count(), uniqExact(host, recording, sequence), any(host), any(recording), any(sequence),
		 sum(time_ns), any(name), any(comm) FROM odd.syscall FORMAT TabSeparated")
want=$(printf '3\t1\th1\t%s\t0\t6003\twrite\tapp' "$id")
if [ ${#id} = 32 ] && [ "$got" = "$want" ] &&
   [ "$(fleet_q 1 "SELECT count(), any(recording), any(derived_id) FROM odd.sessions FORMAT TabSeparated")" = "$(printf '1\t%s\t1' "$id")" ] &&
   [ "$(fleet_q 1 "SELECT count(), any(recording), any(comm) FROM odd.task FORMAT TabSeparated")" = "$(printf '1\t%s\tapp' "$id")" ]; then
	ok "hostile recording id: rows whole, under the derived id $id"
else
	bad "hostile recording id: got '$got', want '$want'"
fi
"$SCT_CONVERT" --to clickhouse --database odd --records sample "$TRACES/big-sample.sct" 2>/dev/null |
	{ read -r q && clickhouse-client --port "${FLEET_TCP[1]}" -q "$q"; }
want=$("$SCT_CONVERT" --to jsonl --records sample "$TRACES/big-sample.sct" 2>/dev/null |
	python3 -c 'import sys, hashlib; l = sys.stdin.buffer.read()
f = l[l.index(b"\"fields\":") + 9:-2]
print(len(f), hashlib.md5(f + b"\n").hexdigest())')
got=$(fleet_q 1 "SELECT fields FROM odd.sample FORMAT TabSeparatedRaw" | python3 -c 'import sys, hashlib; f = sys.stdin.buffer.read()
print(len(f) - 1, hashlib.md5(f).hexdigest())')
if [ "$got" = "$want" ] && [ "${want%% *}" -gt 4000000 ]; then
	ok "a sample's fields of ${want%% *} bytes loaded whole"
else
	bad "a sample's fields: got '$got' (length, md5), want '$want'"
fi

# --- 10. a filtered recording (format 1.5): its TOTALS rows, loaded by sct-convert and by
# sct-ship, give sct-report's figures (taken from the same TOTALS: every call) exactly, per
# syscall and per cgroup; its syscall rows are the failed calls only; its sessions row
# says what was filtered
"$SCT_GEN_FLEET" totals "$TRACES/filt.sct" 20000 filt || { echo "FAIL: gen_fleet totals" >&2; exit 1; }
ch_totals() {
	fleet_q 1 "SELECT $1, sum(calls), sum(errors), sum(duration_ns) FROM sct.totals WHERE host = 'filt'
		   GROUP BY $1 FORMAT TabSeparated" |
		awk -F'\t' '{ printf "%s %d %d %d.%06d\n", $1, $2, $3, int($4 / 1e9), int(($4 % 1e9) / 1000) }' | sort
}
check_totals() {
	local key
	for key in syscall cgroup; do
		report_groups "$key" "$TRACES/filt.sct" >"$FLEET_TMP/want"
		diff "$FLEET_TMP/want" <(ch_totals "$([ $key = syscall ] && echo name || echo cgroup_path)") \
			>"$FLEET_TMP/diff" && [ "$(wc -l <"$FLEET_TMP/want")" -ge 4 ] &&
			ok "$1: totals per $key (calls, errors, duration sums) as sct-report" ||
			{ bad "$1: totals per $key differ (sct-report < > ClickHouse)"; cat "$FLEET_TMP/diff" >&2; }
	done
	# the histogram arrays: as many calls as the calls column, one bound per count
	[ "$(fleet_q 1 "SELECT countIf(arraySum(hist_calls) != calls OR length(hist_ns) != length(hist_calls)), count() > 10
			FROM sct.totals WHERE host = 'filt' FORMAT TabSeparated")" = "$(printf '0\t1')" ] &&
		ok "$1: every totals row's histogram counts its calls" || bad "$1: totals histograms do not add up"
	[ "$(fleet_q 1 "SELECT count(), countIf(ret >= 0) FROM sct.syscall WHERE host = 'filt' FORMAT TabSeparated")" = \
	  "$(printf '%s\t0' "$("$SCT_REPORT" --failed "$TRACES/filt.sct" | awk '/total of/ { print $1 }')")" ] &&
		ok "$1: the syscall rows are the failed calls in detail" || bad "$1: syscall rows of the filtered file"
	[ "$(fleet_q 1 "SELECT filter_text, filter_details, filter_totals FROM sct.sessions WHERE host = 'filt' FORMAT TabSeparated")" = \
	  "$(printf -- '--failed\tfiltered\tall')" ] && ok "$1: its sessions row says what was filtered" ||
		bad "$1: sessions row: $(fleet_q 1 "SELECT filter_text, filter_details, filter_totals FROM sct.sessions WHERE host = 'filt'")"
}
truncate_all
for t in sessions syscall totals; do
	"$SCT_CONVERT" --to clickhouse --records "$t" "$TRACES/filt.sct" 2>/dev/null |
		clickhouse-client --port "${FLEET_TCP[1]}" --insert_distributed_sync=1 || bad "clickhouse-client refused the filtered $t rows"
done
check_totals "sct-convert | clickhouse-client, filtered"
truncate_all
ship 1 "$STATE/filt" "$TRACES/filt.sct" 2>"$FLEET_TMP/ship.err" && grep -q ': shipped$' "$FLEET_TMP/ship.err" &&
	ok "sct-ship: the filtered file shipped" || { bad "sct-ship of the filtered file"; cat "$FLEET_TMP/ship.err" >&2; }
check_totals "sct-ship, filtered"

# --- 11. call stacks (format 1.6): two hosts' files with stacks (one of them two files of
# one recording, whose stack ids each name their own file's stacks), loaded by sct-convert and
# by sct-ship; sct.syscall joined with sct.stack on the file's identity and stack_id gives
# exactly the lines and counts of sct-convert --to folded; one stack row per STACK record
"$SCT_GEN_FLEET" stacks "$TRACES/stk1-1.sct" 20000 stk1 abcdefabcdefabcdefabcdefabcdef01 1 &&
	"$SCT_GEN_FLEET" stacks "$TRACES/stk1-2.sct" 5000 stk1 abcdefabcdefabcdefabcdefabcdef01 2 &&
	"$SCT_GEN_FLEET" stacks "$TRACES/stk2.sct" 20000 stk2 - 0 || { echo "FAIL: gen_fleet stacks" >&2; exit 1; }
STK=("$TRACES/stk1-1.sct" "$TRACES/stk1-2.sct" "$TRACES/stk2.sct")
"$SCT_CONVERT" --to folded "${STK[@]}" 2>/dev/null | LC_ALL=C sort >"$FLEET_TMP/folded.want"
check_stacks() {
	fleet_folded 1 sct >"$FLEET_TMP/folded.got"
	if cmp -s "$FLEET_TMP/folded.want" "$FLEET_TMP/folded.got" && [ "$(wc -l <"$FLEET_TMP/folded.want")" -ge 40 ] &&
	   grep -q '^stk1;\[unknown stack\];' "$FLEET_TMP/folded.want" && grep -q '^stk2;write ' "$FLEET_TMP/folded.want"; then
		ok "$1: calls per folded stack as sct-convert --to folded ($(wc -l <"$FLEET_TMP/folded.want") lines, $(awk '{ n += $NF } END { print n }' "$FLEET_TMP/folded.want") calls)"
	else
		bad "$1: calls per folded stack differ (--to folded < > ClickHouse)"
		diff "$FLEET_TMP/folded.want" "$FLEET_TMP/folded.got" | head -10 >&2
	fi
	[ "$(fleet_q 1 "SELECT count(), uniqExact(host, recording, sequence, session, stack_id) FROM sct.stack FORMAT TabSeparated")" = \
	  "$(printf '24\t24')" ] && ok "$1: one stack row per stack of each file (3 files x 8)" ||
		bad "$1: stack rows: $(fleet_q 1 "SELECT count(), uniqExact(host, recording, sequence, session, stack_id) FROM sct.stack")"
	check_sharded "$1"
}
truncate_all
for t in sessions syscall stack; do
	"$SCT_CONVERT" --to clickhouse --records "$t" "${STK[@]}" 2>/dev/null |
		clickhouse-client --port "${FLEET_TCP[1]}" --insert_distributed_sync=1 || bad "clickhouse-client refused the stacks' $t rows"
done
check_stacks "sct-convert | clickhouse-client, stacks"
# a stack's frames as sct-report -T prints them, innermost first; the folded line root first
want=$("$SCT_CONVERT" --to csv "$TRACES/stk2.sct" 2>/dev/null | awk -F, 'NR > 1 && $14 == 6 { sub(/\r$/, ""); print $NF; exit }')
got=$(fleet_q 1 "SELECT arrayStringConcat(frames, ';'), folded FROM sct.stack WHERE host = 'stk2' AND stack_id = 6 FORMAT TabSeparatedRaw")
[ "$got" = "$(printf '%s\tmain;log_write_them_all;main;entry_SYSCALL_64_[k];do_syscall_64_[k]' "$want")" ] &&
	[ "${want%%;*}" = "do_syscall_64+0x10 ([kernel.kallsyms])" ] && ok "a stack's frames as the CSV's stack column" ||
	bad "stack 6: got '$got', want '$want'"
truncate_all
ship 1 "$STATE/stk1" "${STK[0]}" "${STK[1]}" 2>"$FLEET_TMP/ship.err" && ship 2 "$STATE/stk2" "${STK[2]}" 2>>"$FLEET_TMP/ship.err" &&
	[ "$(grep -c ': shipped$' "$FLEET_TMP/ship.err")" = 3 ] && ok "sct-ship: the stacks files shipped" ||
	{ bad "sct-ship of the stacks files"; cat "$FLEET_TMP/ship.err" >&2; }
check_stacks "sct-ship, stacks"

echo "fleet: $PASS passed, $FAIL failed"
[ $FAIL = 0 ]
