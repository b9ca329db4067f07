# Sourced by the fleet test and benchmark: clickhouse-server processes of their own in a
# temporary directory, on free loopback ports, forming cluster "sct_test" of one replica per
# shard. fleet_stop_all (run from an EXIT trap) stops every server started here.
#   fleet_need_clickhouse        exit 0 with a loud SKIP, or 1 under CI=true, without it
#   fleet_setup NSHARDS          FLEET_TMP, FLEET_TCP[i], FLEET_HTTP[i] for i in 1..NSHARDS;
#                                users "default" (no password) and FLEET_USER (FLEET_PASSWORD)
#   fleet_start i / fleet_kill i start (waits until it answers) / SIGKILL server i
#   fleet_q i SQL                run SQL on server i, TabSeparated output
#   fleet_folded i DB [WHERE]    the calls of DB.syscall joined with DB.stack as sct-convert
#                                --to folded's lines (comms and names plain), sorted

FLEET_PIDS=()
FLEET_USER=sct_ship
FLEET_PASSWORD='s3cret: pass word'

fleet_need_clickhouse() {
	if command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null; then
		return 0
	fi
	if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
		echo "FAIL: CI=true and clickhouse-server/clickhouse-client are not installed (make deps)" >&2
		exit 1
	fi
	echo "SKIP: clickhouse-server/clickhouse-client not installed (make deps); fleet tests not run" >&2
	exit 0
}

# A loopback TCP port no socket holds, below the kernel's ephemeral range: a port an outgoing
# connection holds (earlier tests leave many) refuses a server's bind though nothing listens on
# it. Sets FLEET_PORT; FLEET_TAKEN keeps the picks apart before their servers bind them.
FLEET_TAKEN=" "
fleet_free_port() {
	local lo p hex
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
	[ "$lo" -gt 12000 ] || lo=32768
	while :; do
		p=$((10000 + RANDOM % (lo - 10000)))
		hex=$(printf ':%04X ' "$p")
		case $FLEET_TAKEN in *" $p "*) continue ;; esac
		if ! awk -v h="$hex" 'FNR > 1 && index($2 " ", h) { found = 1 } END { exit !found }' \
			/proc/net/tcp /proc/net/tcp6 2>/dev/null; then
			FLEET_TAKEN="$FLEET_TAKEN$p "
			FLEET_PORT=$p
			return
		fi
	done
}

fleet_setup() {
	local n=$1 i shards=""
	FLEET_TMP=$(mktemp -d /tmp/sct-fleet.XXXXXX)
	for i in $(seq 1 "$n"); do
		fleet_free_port
		FLEET_TCP[i]=$FLEET_PORT
		fleet_free_port
		FLEET_HTTP[i]=$FLEET_PORT
		shards="$shards<shard><replica><host>127.0.0.1</host><port>${FLEET_TCP[i]}</port></replica></shard>"
	done
	for i in $(seq 1 "$n"); do
		mkdir -p "$FLEET_TMP/ch$i"
		cat >"$FLEET_TMP/ch$i/config.xml" <<EOF
<yandex>
  <logger><level>warning</level><log>$FLEET_TMP/ch$i/server.log</log><errorlog>$FLEET_TMP/ch$i/error.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${FLEET_HTTP[i]}</http_port>
  <tcp_port>${FLEET_TCP[i]}</tcp_port>
  <path>$FLEET_TMP/ch$i/data/</path>
  <tmp_path>$FLEET_TMP/ch$i/tmp/</tmp_path>
  <users_config>$FLEET_TMP/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <remote_servers><sct_test>$shards</sct_test></remote_servers>
</yandex>
EOF
	done
	cat >"$FLEET_TMP/users.xml" <<EOF
<yandex>
  <profiles><default/></profiles>
  <users>
    <default><password/><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default>
    <$FLEET_USER><password>$FLEET_PASSWORD</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></$FLEET_USER>
  </users>
  <quotas><default/></quotas>
</yandex>
EOF
}

fleet_start() {
	local i=$1 t
	clickhouse-server --config-file="$FLEET_TMP/ch$i/config.xml" >"$FLEET_TMP/ch$i/stdout" 2>&1 &
	FLEET_PIDS[i]=$!
	for t in $(seq 1 600); do
		if clickhouse-client --port "${FLEET_TCP[i]}" -q 'SELECT 1' >/dev/null 2>&1; then
			return 0
		fi
		if ! kill -0 "${FLEET_PIDS[i]}" 2>/dev/null; then
			break
		fi
		sleep 0.1
	done
	echo "FAIL: clickhouse-server $i did not start:" >&2
	tail -n 20 "$FLEET_TMP/ch$i/error.log" "$FLEET_TMP/ch$i/stdout" >&2 2>/dev/null
	exit 1
}

# SIGKILL, as a crash or power loss, then wait for the process to be gone.
fleet_kill() {
	local i=$1
	kill -KILL "${FLEET_PIDS[i]}" 2>/dev/null
	wait "${FLEET_PIDS[i]}" 2>/dev/null
	FLEET_PIDS[i]=""
}

fleet_stop_all() {
	local i
	for i in "${!FLEET_PIDS[@]}"; do
		if [ -n "${FLEET_PIDS[i]}" ]; then
			kill -TERM "${FLEET_PIDS[i]}" 2>/dev/null
			wait "${FLEET_PIDS[i]}" 2>/dev/null
		fi
	done
	FLEET_PIDS=()
	[ -n "${FLEET_TMP:-}" ] && rm -rf "$FLEET_TMP"
}

fleet_q() {
	clickhouse-client --port "${FLEET_TCP[$1]}" -q "$2"
}

# Each host's stack rows are on its calls' shard (both sharded by host): each shard joins its own.
fleet_folded() {
	clickhouse-client --port "${FLEET_TCP[$1]}" --distributed_product_mode=local -q "
		SELECT concat(comm, ';', if(stack_id = 0, '', concat(if(folded = '', '[unknown stack]', folded), ';')), name)
		       AS line, count()
		FROM $2.syscall ANY LEFT JOIN (SELECT host, recording, sequence, session, stack_id, folded FROM $2.stack)
		USING (host, recording, sequence, session, stack_id)
		WHERE unfinished = 0 ${3:+AND $3}
		GROUP BY line FORMAT TabSeparatedRaw" 2>&1 | sed 's/\t/ /' | LC_ALL=C sort
}
