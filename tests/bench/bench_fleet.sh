#!/bin/bash
# Rows per second loaded into one clickhouse-server (of this script's own, on loopback) from
# one trace of N syscall records (default 2,000,000; BENCH_FLEET_N to change), the three
# formats side by side in one run:
#   csv:        sct-convert --to csv | clickhouse-client -q 'INSERT ... FORMAT CSVWithNames'
#   tsv:        sct-convert --to clickhouse | clickhouse-client, the INSERT on stdin and as -q
#   rowbinary:  sct-convert --to clickhouse --clickhouse-format rowbinary | clickhouse-client -q
#   sct-ship:   the whole file over HTTP (every table, the files row, the checks before), in
#               RowBinary (its default) and in TabSeparated
# then what bounds them: the converters alone (to /dev/null), and the server alone on rows
# converted beforehand, into sct.syscall and into a Null table of its columns (parsing
# without storing). Each line gives the server's CPU time per row too (/proc/PID/stat).
set -u
. "$(dirname "$0")/../fleet/fleet_servers.sh"
fleet_need_clickhouse
N=${BENCH_FLEET_N:-2000000}

trap fleet_stop_all EXIT
fleet_setup 1
fleet_start 1
TRACE=$FLEET_TMP/bench.sct
"$SCT_GEN_FLEET" big "$TRACE" "$N" bench || exit 1
"$SCT_CONVERT" --schema clickhouse | clickhouse-client --port "${FLEET_TCP[1]}" --multiquery || exit 1
# The CSV's columns, in a table of the same engine and key as sct.syscall: the derived text
# columns and the argument columns (empty in a trace without --args: no number) as String.
fleet_q 1 "CREATE TABLE sct.syscall_csv (session UInt32, host String, time_ns UInt64, wall_time String,
	duration_ns UInt64, pid UInt32, tid UInt32, cgroup_id UInt64, nr UInt32, abi UInt8, ret Int64,
	errno String, unfinished UInt8, arg0 String, arg1 String, arg2 String, arg3 String, arg4 String,
	arg5 String, path_flags String, path_ref String, path String, path2_flags String, path2_ref String,
	path2 String, name String, comm String, cgroup_path String, args String)
	ENGINE = MergeTree ORDER BY (host, cgroup_id, time_ns)" || exit 1
fleet_q 1 "CREATE TABLE sct.syscall_null AS sct.syscall ENGINE = Null" || exit 1

now() { date +%s%N; }
server_cpu() { awk '{ print $14 + $15 }' "/proc/${FLEET_PIDS[1]}/stat"; }
TICK=$(getconf CLK_TCK)
# label, start ns, end ns, server ticks at start and end ("" "" for no server)
rate() {
	awk -v l="$1" -v t="$(( $3 - $2 ))" -v n="$N" -v c0="${4:-}" -v c1="${5:-}" -v tick="$TICK" 'BEGIN {
		printf "%-60s %6.2f s %6.2f M rows/s", l, t / 1e9, n / (t / 1e9) / 1e6
		if (c0 != "") printf "   server %5.2f s CPU, %4.2f M rows/CPU-s", (c1 - c0) / tick, n / ((c1 - c0 + 0.5) / tick) / 1e6
		printf "\n" }'
}
rows() { fleet_q 1 "SELECT count() FROM sct.$1"; }
check() { [ "$(rows "$1")" = "$N" ] || { echo "FAIL: $2: $(rows "$1") rows in sct.$1" >&2; exit 1; }; }
# label, table the rows go to, command (run by bash -c, with the variables exported)
load() {
	local c0 c1 t0 t1
	[ "$2" = syscall_null ] || fleet_q 1 "TRUNCATE TABLE sct.$2"
	c0=$(server_cpu); t0=$(now)
	bash -c "$3" || { echo "FAIL: $1" >&2; exit 1; }
	t1=$(now); c1=$(server_cpu)
	[ "$2" = syscall_null ] || check "$2" "$1"
	rate "$1" "$t0" "$t1" "$c0" "$c1"
}
export SCT_CONVERT SCT_SHIP TRACE PORT=${FLEET_TCP[1]} HTTP=${FLEET_HTTP[1]} FLEET_TMP

echo "fleet load benchmark: $N syscall records, ClickHouse $(fleet_q 1 'SELECT version()'), one server, $(nproc) cores"
echo "-- converters alone"
for f in "csv" "clickhouse" "clickhouse --clickhouse-format rowbinary"; do
	t0=$(now); "$SCT_CONVERT" --to $f "$TRACE" >/dev/null 2>&1; t1=$(now)
	rate "sct-convert --to $f > /dev/null" "$t0" "$t1"
done

echo "-- sct-convert | clickhouse-client"
load "csv | clickhouse-client -q INSERT" syscall_csv \
	'"$SCT_CONVERT" --to csv "$TRACE" 2>/dev/null |
	 clickhouse-client --port $PORT -q "INSERT INTO sct.syscall_csv FORMAT CSVWithNames"'
# clickhouse-client 18.16 reads a query from stdin whole, rows included, and has the server
# parse them out of the query text: given the INSERT as --query, it streams the rows.
load "tsv | clickhouse-client (INSERT on stdin)" syscall \
	'"$SCT_CONVERT" --to clickhouse "$TRACE" 2>/dev/null | clickhouse-client --port $PORT'
load "tsv | clickhouse-client -q INSERT" syscall \
	'"$SCT_CONVERT" --to clickhouse "$TRACE" 2>/dev/null | { read -r q && clickhouse-client --port $PORT -q "$q"; }'
load "rowbinary | clickhouse-client -q INSERT" syscall \
	'"$SCT_CONVERT" --to clickhouse --clickhouse-format rowbinary "$TRACE" 2>/dev/null |
	 { read -r q && clickhouse-client --port $PORT -q "$q"; }'

echo "-- sct-ship (HTTP, the whole file)"
for f in rowbinary tsv; do
	fleet_q 1 "TRUNCATE TABLE sct.sessions"
	fleet_q 1 "TRUNCATE TABLE sct.files"
	rm -rf "$FLEET_TMP/state"
	load "sct-ship --clickhouse-format $f" syscall \
		"\"\$SCT_SHIP\" --url http://127.0.0.1:\$HTTP/ --state \"\$FLEET_TMP/state\" --clickhouse-format $f \"\$TRACE\" 2>/dev/null"
done

echo "-- the server alone: rows converted beforehand, clickhouse-client -q INSERT < file"
for f in tsv rowbinary; do
	"$SCT_CONVERT" --to clickhouse --clickhouse-format $f "$TRACE" 2>/dev/null |
		{ read -r q && echo "$q" >"$FLEET_TMP/$f.q" && cat >"$FLEET_TMP/$f"; }
	for t in syscall syscall_null; do
		sed -i "s/^INSERT INTO sct\.[a-z_]* /INSERT INTO sct.$t /" "$FLEET_TMP/$f.q"
		load "$f < file -> sct.$t" $t "clickhouse-client --port \$PORT -q \"\$(cat \$FLEET_TMP/$f.q)\" <\"\$FLEET_TMP/$f\""
	done
	rm -f "$FLEET_TMP/$f" "$FLEET_TMP/$f.q"
done
echo "bytes on disk per syscall row: $(fleet_q 1 "SELECT round(sum(bytes_on_disk) / $N, 2) FROM system.parts
	WHERE database = 'sct' AND table = 'syscall' AND active")"
