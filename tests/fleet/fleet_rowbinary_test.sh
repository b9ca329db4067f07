#!/bin/bash
# RowBinary and TabSeparated load exactly the same rows: every table of every spec/examples
# file, the fleet workloads (hosts, totals, a big file, call stacks) and the hostile traces
# (every byte value in strings and names, odd recording ids, samples of large payloads), loaded by
# sct-convert --to clickhouse in both formats into two databases of one server, then every
# table dumped sorted and compared byte for byte; and sct-ship's default (RowBinary) against
# its --clickhouse-format tsv.
set -u
. "$(dirname "$0")/fleet_servers.sh"
fleet_need_clickhouse

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok: $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $1" >&2; }

trap fleet_stop_all EXIT
fleet_setup 1
fleet_start 1
EXAMPLES=$(cd "$(dirname "$0")/../../spec/examples" && pwd)
T=$FLEET_TMP/traces
mkdir -p "$T"
"$SCT_GEN_FLEET" fleet "$T" 2000 >/dev/null || { echo "FAIL: gen_fleet" >&2; exit 1; }
"$SCT_GEN_FLEET" totals "$T/filt.sct" 5000 filt >/dev/null || { echo "FAIL: gen_fleet totals" >&2; exit 1; }
"$SCT_GEN_FLEET" big "$T/big.sct" 50000 big >/dev/null || { echo "FAIL: gen_fleet big" >&2; exit 1; }
"$SCT_GEN_REPORT" hostile "$T/hostile.sct" "$FLEET_TMP/hostile.json" >/dev/null || { echo "FAIL: gen_report" >&2; exit 1; }
"$SCT_GEN_REPORT" hostile-id "$T/hostile-id.sct" >/dev/null || { echo "FAIL: gen_report hostile-id" >&2; exit 1; }
"$SCT_GEN_REPORT" big-sample "$T/big-sample.sct" 16 >/dev/null || { echo "FAIL: gen_report big-sample" >&2; exit 1; }
# the stacks' symbols hold quotes, backslashes, ';', blanks, a tab and bytes that are not ASCII
"$SCT_GEN_FLEET" stacks "$T/stk.sct" 5000 stk 00112233445566778899aabbccddeeff 1 >/dev/null ||
	{ echo "FAIL: gen_fleet stacks" >&2; exit 1; }
FILES=("$EXAMPLES"/*.sct "$T"/*.sct)
TABLES="sessions syscall task fork exec exit cgroup lost warning sample totals stack module symbol"

for db in tsv rb shiptsv shiprb; do
	"$SCT_CONVERT" --schema clickhouse --database "$db" | clickhouse-client --port "${FLEET_TCP[1]}" --multiquery ||
		{ echo "FAIL: DDL of $db" >&2; exit 1; }
done

# sct-convert's INSERT line as the query, the rows after it streamed as its data.
load() { # database, format, table, file
	"$SCT_CONVERT" --to clickhouse --clickhouse-format "$2" --database "$1" --records "$3" "$4" 2>/dev/null |
		{ read -r q || exit 0; clickhouse-client --port "${FLEET_TCP[1]}" -q "$q"; }
}
# A table's rows, sorted: every column's text as the server gives it back.
dump() { fleet_q 1 "SELECT * FROM $1.$2 FORMAT TabSeparated" | LC_ALL=C sort; }

# A load the server refuses (a 1.0 file's type 9 is no table of the DDL) is refused in both.
differ=0 both=0
for f in "${FILES[@]}"; do
	for t in $TABLES; do
		load tsv tsv "$t" "$f" 2>/dev/null; a=$?
		load rb rowbinary "$t" "$f" 2>/dev/null; b=$?
		[ $((a == 0)) = $((b == 0)) ] || { differ=$((differ + 1)); echo "$t of $f: TabSeparated $a, RowBinary $b" >&2; }
		[ "$a" = 0 ] || both=$((both + 1))
	done
done
[ "$differ" = 0 ] && [ "$both" -le 2 ] &&
	ok "${#FILES[@]} files, every table: loaded in both formats or refused in both ($both)" ||
	bad "$differ loads differ between the formats, $both refused"

total=0
for t in $TABLES; do
	n=$(fleet_q 1 "SELECT count() FROM tsv.$t")
	total=$((total + n))
	cmp -s <(dump tsv "$t") <(dump rb "$t") && [ "$(fleet_q 1 "SELECT count() FROM rb.$t")" = "$n" ] &&
		ok "$t: the same $n rows from RowBinary as from TabSeparated" ||
		{ bad "$t: rows differ (TabSeparated < > RowBinary)"; diff <(dump tsv "$t") <(dump rb "$t") | head -5 >&2; }
	# every table but lost, warning and sample has rows in some file: a comparison of nothing proves nothing
	case $t in lost|warning|sample) ;; *) [ "$n" -gt 0 ] || bad "$t: no rows loaded";; esac
done
[ "$(fleet_q 1 "SELECT count() FROM tsv.sample")" -gt 0 ] && [ "$(fleet_q 1 "SELECT count() FROM tsv.totals")" -gt 0 ] &&
	ok "$total rows compared, samples and totals (arrays) among them" || bad "no sample or totals rows compared"
# The calls per folded stack of the RowBinary rows: sct-convert --to folded's, line for line.
"$SCT_CONVERT" --to folded "$T/stk.sct" 2>/dev/null | LC_ALL=C sort >"$FLEET_TMP/folded.want"
fleet_folded 1 rb "host = 'stk'" >"$FLEET_TMP/folded.got"
cmp -s "$FLEET_TMP/folded.want" "$FLEET_TMP/folded.got" && [ "$(wc -l <"$FLEET_TMP/folded.want")" -ge 40 ] &&
	ok "RowBinary: calls per folded stack as sct-convert --to folded ($(wc -l <"$FLEET_TMP/folded.want") lines)" ||
	{ bad "RowBinary: calls per folded stack differ (--to folded < > ClickHouse)"; diff "$FLEET_TMP/folded.want" "$FLEET_TMP/folded.got" | head >&2; }

# The captured argument memory of spec/examples/captures.sct (format 1.7), as the server reads
# RowBinary's rows: the peers, exec's arguments (an Array(String)) and the data, escaped.
want=$(printf '%s\t%s\t%s\t%s\n' connect 127.0.0.1:8080 '' '' connect unix:@sct-example '' '' \
	execve '' 'printf|%s %s\\n|hello world|grüße' '' write '' '' 'hello world gr\\303\\274\\303\\237e\\n' \
	write '' '' 0123456789abcdefghijklmnopqrstuv)
got=$(fleet_q 1 "SELECT name, addr, arrayStringConcat(argv, '|'), data FROM rb.syscall
	WHERE bitAnd(addr_flags, 1) OR bitAnd(argv_flags, 1) OR bitAnd(data_flags, 1) ORDER BY time_ns FORMAT TabSeparated")
[ "$got" = "$want" ] && ok "captured argument memory: peers, exec's arguments and data as sct-convert's CSV has them" ||
	{ bad "captured argument memory differs"; diff <(echo "$want") <(echo "$got") >&2; }

# sct-ship: RowBinary by default, TabSeparated on request; the same rows either way.
ship() { # database, state, options...
	local db=$1 st=$2; shift 2
	"$SCT_SHIP" --url "http://127.0.0.1:${FLEET_HTTP[1]}/" --database "$db" --state "$FLEET_TMP/$st" \
		--retries 0 "$@" "$T/web1-1.sct" "$T/web1-2.sct" "$T/web2-1.sct" "$T/db2.sct" "$T/filt.sct" \
		"$T/big.sct" "$T/hostile-id.sct" "$T/stk.sct" 2>"$FLEET_TMP/ship.err"
}
ship shiprb strb && ship shiptsv sttsv --clickhouse-format tsv && ok "sct-ship in both formats: exit 0" ||
	{ bad "sct-ship failed"; cat "$FLEET_TMP/ship.err" >&2; }
for t in $TABLES; do
	n=$(fleet_q 1 "SELECT count() FROM shiptsv.$t")
	cmp -s <(dump shiptsv "$t") <(dump shiprb "$t") && [ "$(fleet_q 1 "SELECT count() FROM shiprb.$t")" = "$n" ] &&
		ok "sct-ship $t: the same $n rows by RowBinary as by TabSeparated" ||
		{ bad "sct-ship $t: rows differ (TabSeparated < > RowBinary)"; diff <(dump shiptsv "$t") <(dump shiprb "$t") | head -5 >&2; }
done

# Binary on a terminal is refused (script(1), of bsdutils, gives it one).
out=$(script -qec "$SCT_CONVERT --to clickhouse --clickhouse-format rowbinary $T/db2.sct" /dev/null 2>&1)
case $out in *"binary output: use -o OUT or a pipe"*) ok "RowBinary to a terminal refused";;
	*) bad "RowBinary to a terminal: $out";; esac

echo "fleet rowbinary tests: $PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
