#!/bin/bash
# Rows per second loaded into one clickhouse-server (of this script's own, on loopback) from
# one trace of N syscall records (default 2,000,000; BENCH_FLEET_N to change):
#   csv:        sct-convert --to csv | clickhouse-client INSERT ... FORMAT CSVWithNames
#   clickhouse: sct-convert --to clickhouse | clickhouse-client, with the INSERT on stdin and
#               as --query
#   sct-ship:   the whole file over HTTP (every table, the files row, the checks before)
# and the converters alone (to /dev/null), which bound the first two.
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
# The CSV's columns, in a table of the same engine and key as sct.syscall.
fleet_q 1 "CREATE TABLE sct.syscall_csv (session UInt32, host String, time_ns UInt64, duration_ns UInt64,
	pid UInt32, tid UInt32, cgroup_id UInt64, nr UInt32, abi UInt8, ret Int64, unfinished UInt8, name String,
	comm String, cgroup_path String) ENGINE = MergeTree ORDER BY (host, cgroup_id, time_ns)" || exit 1

now() { date +%s%N; }
rate() { # label, start ns, end ns, rows
	awk -v l="$1" -v t="$(( $3 - $2 ))" -v n="$4" 'BEGIN { printf "%-44s %8.2f s %12.0f rows/s\n", l, t / 1e9, n / (t / 1e9) }'
}
rows() { fleet_q 1 "SELECT count() FROM sct.$1"; }

echo "fleet load benchmark: $N syscall records, ClickHouse $(fleet_q 1 'SELECT version()'), one server"
t0=$(now); "$SCT_CONVERT" --to csv "$TRACE" >/dev/null 2>&1; t1=$(now)
rate "sct-convert --to csv > /dev/null" "$t0" "$t1" "$N"
t0=$(now); "$SCT_CONVERT" --to clickhouse "$TRACE" >/dev/null 2>&1; t1=$(now)
rate "sct-convert --to clickhouse > /dev/null" "$t0" "$t1" "$N"

t0=$(now)
"$SCT_CONVERT" --to csv "$TRACE" 2>/dev/null |
	clickhouse-client --port "${FLEET_TCP[1]}" -q "INSERT INTO sct.syscall_csv FORMAT CSVWithNames"
t1=$(now)
[ "$(rows syscall_csv)" = "$N" ] || { echo "FAIL: csv load: $(rows syscall_csv) rows" >&2; exit 1; }
rate "csv | clickhouse-client" "$t0" "$t1" "$N"

t0=$(now)
"$SCT_CONVERT" --to clickhouse "$TRACE" 2>/dev/null | clickhouse-client --port "${FLEET_TCP[1]}"
t1=$(now)
[ "$(rows syscall)" = "$N" ] || { echo "FAIL: --to clickhouse load: $(rows syscall) rows" >&2; exit 1; }
rate "--to clickhouse | clickhouse-client" "$t0" "$t1" "$N"

# clickhouse-client 18.16 reads a query from stdin whole, rows included, and has the server
# parse them out of the query text: given the INSERT as --query, it streams the rows.
fleet_q 1 "TRUNCATE TABLE sct.syscall"
t0=$(now)
"$SCT_CONVERT" --to clickhouse "$TRACE" 2>/dev/null | { read -r q && clickhouse-client --port "${FLEET_TCP[1]}" -q "$q"; }
t1=$(now)
[ "$(rows syscall)" = "$N" ] || { echo "FAIL: --to clickhouse -q load: $(rows syscall) rows" >&2; exit 1; }
rate "--to clickhouse | clickhouse-client -q INSERT" "$t0" "$t1" "$N"

fleet_q 1 "TRUNCATE TABLE sct.syscall"
fleet_q 1 "TRUNCATE TABLE sct.sessions"
t0=$(now)
"$SCT_SHIP" --url "http://127.0.0.1:${FLEET_HTTP[1]}/" --state "$FLEET_TMP/state" "$TRACE" 2>/dev/null || exit 1
t1=$(now)
[ "$(rows syscall)" = "$N" ] || { echo "FAIL: sct-ship: $(rows syscall) rows" >&2; exit 1; }
rate "sct-ship (HTTP, whole file)" "$t0" "$t1" "$N"
echo "bytes on disk per syscall row: $(fleet_q 1 "SELECT round(sum(bytes_on_disk) / $N, 2) FROM system.parts
	WHERE database = 'sct' AND table = 'syscall' AND active")"
