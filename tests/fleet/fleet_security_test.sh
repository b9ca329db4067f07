#!/bin/bash
# Fleet security tests: what a hostile trace file, a hostile server or another local user
# could make sct-ship do, against a real clickhouse-server. Each part plays an attack that
# worked on an sct-ship without the defence it tests, and checks what the victims' rows,
# root's files and the terminal see. The victims are the fleet test's files (hosts web1,
# web2, db2), shipped before each attack on a file; their rows, sessions rows and files rows
# must stay exactly as they were.
set -u
. "$(dirname "$0")/fleet_servers.sh"
fleet_need_clickhouse

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok: $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $1" >&2; }
FAKE_PIDS=()
stop_fakes() {
	local p
	for p in "${FAKE_PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	FAKE_PIDS=()
}

trap 'stop_fakes; fleet_stop_all' EXIT
fleet_setup 1
fleet_start 1
"$SCT_CONVERT" --schema clickhouse | clickhouse-client --port "${FLEET_TCP[1]}" --multiquery ||
	{ echo "FAIL: DDL" >&2; exit 1; }
URL="http://127.0.0.1:${FLEET_HTTP[1]}/"
T=$FLEET_TMP/traces
ST=$FLEET_TMP/state
ERR=$FLEET_TMP/err
mkdir -p "$T" "$ST"
"$SCT_GEN_FLEET" fleet "$T" 500 || { echo "FAIL: gen_fleet" >&2; exit 1; }
VICTIMS=("$T"/web1-1.sct "$T"/web1-2.sct "$T"/web2-1.sct "$T"/db2.sct)
TABLES="sessions syscall task fork exec exit cgroup lost warning sample totals files"
gen() { "$SCT_GEN_FLEET" "$@" || { echo "FAIL: gen_fleet $*" >&2; exit 1; }; }

# sct-ship on one state folder of its own (a new one per call unless given: no list skips a file)
NSTATE=0
ship() {
	NSTATE=$((NSTATE + 1))
	"$SCT_SHIP" --url "$URL" --state "$ST/$NSTATE" --retries 0 --backoff 10 "$@"
}
# The victims' rows: per table and identity, their counts; the sessions and files rows whole.
victims() {
	local t w="host IN ('web1', 'web2', 'db2')"
	for t in $TABLES; do
		fleet_q 1 "SELECT '$t', host, recording, sequence, count() FROM sct.$t WHERE $w
			   GROUP BY host, recording, sequence ORDER BY host, recording, sequence FORMAT TabSeparated"
	done
	fleet_q 1 "SELECT * FROM sct.sessions WHERE $w ORDER BY host, recording, sequence FORMAT TabSeparated"
	fleet_q 1 "SELECT host, recording, sequence, path, bytes FROM sct.files WHERE $w
		   ORDER BY host, recording, sequence FORMAT TabSeparated"
}
# Every table emptied, the victims shipped again: the state before each attack on a file.
reset() {
	local t
	for t in $TABLES; do
		fleet_q 1 "TRUNCATE TABLE sct.$t"
	done
	ship "${VICTIMS[@]}" 2>"$ERR" || { echo "FAIL: shipping the victims: $(cat "$ERR")" >&2; exit 1; }
	victims >"$FLEET_TMP/baseline"
}
intact() {
	if victims | cmp -s - "$FLEET_TMP/baseline"; then
		ok "$1: the other hosts' rows, sessions and files rows intact"
	else
		bad "$1: the other hosts' rows changed (before < > after)"
		victims | diff "$FLEET_TMP/baseline" - | head -20 >&2
	fi
}
mutations() { fleet_q 1 "SELECT count() FROM system.mutations WHERE database = 'sct'"; }
rows_of() { fleet_q 1 "SELECT count() FROM sct.$1 WHERE $2"; }

reset
[ "$(grep -c . "$FLEET_TMP/baseline")" -ge 30 ] && [ "$(rows_of files "host IN ('web1', 'web2', 'db2')")" = 4 ] &&
	ok "the victims are in: $(rows_of syscall 1) syscall rows, 4 files rows" || bad "the victims did not ship"

# --- 1. SQL injection: a recording id that ends its literal (the writer refuses it; crafted)
INJECT="x', 0)) OR 1=1 --"
while [ ${#INJECT} -lt 32 ]; do INJECT+=x; done
gen one "$T/inj-1.sct" 200 evil1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1
gen one "$T/inj-2.sct" 200 evil1 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb 2
gen set-id "$T/inj-2.sct" bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb "$INJECT"
cat "$T/inj-1.sct" "$T/inj-2.sct" >"$T/inject.sct"
m0=$(mutations)
ship "$T/inject.sct" 2>"$ERR"
rc=$?
intact "a second session with the recording id \"$INJECT\""
[ $rc = 5 ] && grep -q 'quarantined' "$ERR" && [ "$(mutations)" = "$m0" ] && [ "$(rows_of sessions "host = 'evil1'")" = 0 ] &&
	ok "that file is quarantined (exit 5) without a statement that changes anything" ||
	{ bad "injected id: exit $rc, mutations $m0 -> $(mutations)"; cat "$ERR" >&2; }

# The same rows straight from a converter (sct-ship must not trust what sct-convert passes on).
cat >"$FLEET_TMP/fake-convert" <<'EOF'
#!/bin/bash
if [ "$4" = sessions ]; then
	echo "INSERT INTO sct.sessions (host, recording, sequence, session) FORMAT TabSeparated"
	printf '%b\n' "$FAKE_ROWS"
fi
EOF
chmod +x "$FLEET_TMP/fake-convert"
fake_rows() { # what, rows (printf %b)
	local m0 rc
	reset
	m0=$(mutations)
	FAKE_ROWS=$2 ship --sct-convert "$FLEET_TMP/fake-convert" "$T/inj-1.sct" 2>"$ERR"
	rc=$?
	intact "converter rows with $1"
	[ $rc = 5 ] && grep -q 'quarantined' "$ERR" && [ "$(mutations)" = "$m0" ] &&
		ok "converter rows with $1: refused, quarantined, no statement sent" ||
		{ bad "converter rows with $1: exit $rc"; cat "$ERR" >&2; }
}
fake_rows "a quoted recording id" "evil3\t$INJECT\t1\t0"
fake_rows "a tab in the recording id" "evil3\t0123456789abcdef\t0123456789abcdef\t1\t0"
fake_rows "an escape sct-convert never writes" "evil3\\\\x27\t0123456789abcdef0123456789abcdef\t1\t0"
fake_rows "two hosts" "evil3\t0123456789abcdef0123456789abcdef\t1\t0\nweb2\tfedcba9876543210fedcba9876543210\t1\t0"

# Host names with quotes, backslashes, a tab, a newline, every ASCII byte and UTF-8: shipped
# byte for byte, found again (already there), and, once unmarked, deleted and sent again,
# exactly.
reset
HOSTS=("o'q\\\\\"\\" "x\\', 0)) OR 1=1 --" $'t\tn\nr\\' "")
for i in $(seq 1 127); do [ $i = 10 ] || HOSTS[3]+=$(printf "\\$(printf %03o $i)"); done
HOSTS[3]+="é中😀"
for i in 0 1 2 3; do
	h=${HOSTS[i]}
	hex=$(printf '%s' "$h" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
	w="hex(host) = '$hex'"
	gen one "$T/host-$i.sct" 200 "$h" cccccccccccccccccccccccccccccccc 1
	ship "$T/host-$i.sct" 2>"$ERR" && [ "$(rows_of syscall "$w")" = 200 ] && [ "$(rows_of files "$w")" = 1 ] &&
		ok "host $(printf '%q' "$h" | cut -c1-40): shipped, 200 syscall rows under the exact bytes" ||
		{ bad "host $(printf '%q' "$h"): not shipped exactly"; cat "$ERR" >&2; }
	ship "$T/host-$i.sct" 2>"$ERR" && [ "$(rows_of syscall "$w")" = 200 ] && [ "$(rows_of files "$w")" = 1 ] &&
		ok "host $(printf '%q' "$h" | cut -c1-40): shipped again with no state, nothing added" ||
		{ bad "host $(printf '%q' "$h"): re-sent"; cat "$ERR" >&2; }
	fleet_q 1 "ALTER TABLE sct.files DELETE WHERE $w"
	for t in $(seq 1 600); do [ "$(rows_of files "$w")" = 0 ] && break; sleep 0.1; done
	fleet_q 1 "INSERT INTO sct.syscall (host, recording, sequence, session) SELECT host, recording, sequence, 0
		   FROM sct.sessions WHERE $w"
	ship "$T/host-$i.sct" 2>"$ERR" && [ "$(rows_of syscall "$w")" = 200 ] && [ "$(rows_of files "$w")" = 1 ] &&
		ok "host $(printf '%q' "$h" | cut -c1-40): rows without a files row deleted and sent again: 200" ||
		{ bad "host $(printf '%q' "$h"): $(rows_of syscall "$w") rows after the redo"; cat "$ERR" >&2; }
done
intact "hosts with quotes and backslashes shipped, found, deleted and sent again"

# --- 2. a file's sessions claiming another host's identity, readable in sct.sessions
reset
gen one "$T/own.sct" 200 evil2 dddddddddddddddddddddddddddddddd 1
gen one "$T/claim.sct" 200 web2 fedcba9876543210fedcba9876543210 1
cat "$T/own.sct" "$T/claim.sct" >"$T/mixed.sct"
ship "$T/mixed.sct" 2>"$ERR"
rc=$?
intact "a second session claiming web2's (host, recording, sequence)"
[ $rc = 5 ] && grep -q 'several hosts' "$ERR" && [ "$(rows_of sessions "host = 'evil2'")" = 0 ] &&
	ok "a file mixing hosts is quarantined, nothing of it sent" || { bad "mixed hosts: exit $rc"; cat "$ERR" >&2; }

# one host and recording, but one of its sessions is another file's (web1-2.sct's)
gen one "$T/seq3.sct" 200 web1 0123456789abcdef0123456789abcdef 3
gen one "$T/seq2.sct" 200 web1 0123456789abcdef0123456789abcdef 2
cat "$T/seq3.sct" "$T/seq2.sct" >"$T/partial.sct"
ship "$T/partial.sct" 2>"$ERR"
rc=$?
intact "a file whose second session is web1-2.sct's"
[ $rc = 5 ] && grep -q '1 of its 2 sessions are marked shipped' "$ERR" &&
	ok "a file owning only some of its identities is quarantined" || { bad "partial claim: exit $rc"; cat "$ERR" >&2; }
ship "$T/claim.sct" 2>"$ERR"
rc=$?
intact "a file claiming only web2's identity"
[ $rc = 0 ] && ! grep -q . "$ERR" && ok "a file whose every identity is marked: already there, nothing sent" ||
	{ bad "claim of a marked identity: exit $rc"; cat "$ERR" >&2; }

# --- 5. credentials: from a file or the environment, never on the command line
printf '%s\n' "$FLEET_PASSWORD" >"$FLEET_TMP/password"
printf 'wrong\n' >"$FLEET_TMP/wrong-password"
chmod 600 "$FLEET_TMP/password" "$FLEET_TMP/wrong-password"
# a converter that notes every process's command line while sct-ship runs it
cat >"$FLEET_TMP/spy-convert" <<EOF
#!/bin/bash
ps -ww -eo args >>"$FLEET_TMP/argv"
exec "$SCT_CONVERT" "\$@"
EOF
chmod +x "$FLEET_TMP/spy-convert"
gen one "$T/cred-1.sct" 200 cred1 eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee 1
gen one "$T/cred-2.sct" 200 cred2 eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee 1
ship --user "$FLEET_USER" --password-file "$FLEET_TMP/wrong-password" "$T/cred-1.sct" 2>"$ERR"
rc=$?
[ $rc = 1 ] && grep -q 'Wrong password' "$ERR" && ok "a wrong password from --password-file: the server refuses it" ||
	{ bad "wrong password: exit $rc"; cat "$ERR" >&2; }
ship --user "$FLEET_USER" "$T/cred-1.sct" 2>"$ERR"
rc=$?
[ $rc = 1 ] && grep -q 'Password required' "$ERR" && ok "the user without a password: refused" || { bad "no password: exit $rc"; cat "$ERR" >&2; }
: >"$FLEET_TMP/argv"
ship --user "$FLEET_USER" --password-file "$FLEET_TMP/password" --sct-convert "$FLEET_TMP/spy-convert" \
	"$T/cred-1.sct" 2>"$ERR" && grep -q ': shipped$' "$ERR" && [ "$(rows_of syscall "host = 'cred1'")" = 200 ] &&
	ok "the password from --password-file reaches the server: shipped" || { bad "--password-file"; cat "$ERR" >&2; }
grep -q -- "--password-file $FLEET_TMP/password" "$FLEET_TMP/argv" && ! grep -qF "s3cret" "$FLEET_TMP/argv" &&
	ok "while it ships, no process's command line holds the password ($(grep -c . "$FLEET_TMP/argv") lines of ps)" ||
	bad "the password is on a command line: $(grep -F s3cret "$FLEET_TMP/argv")"
CLICKHOUSE_USER=$FLEET_USER CLICKHOUSE_PASSWORD=wrong ship "$T/cred-2.sct" 2>"$ERR"
rc=$?
[ $rc = 1 ] && grep -q 'Wrong password for user sct_ship' "$ERR" &&
	ok "a wrong password in CLICKHOUSE_PASSWORD for CLICKHOUSE_USER: the server refuses it" ||
	{ bad "wrong password in the environment: exit $rc"; cat "$ERR" >&2; }
CLICKHOUSE_USER=$FLEET_USER CLICKHOUSE_PASSWORD=$FLEET_PASSWORD ship "$T/cred-2.sct" 2>"$ERR" &&
	[ "$(rows_of syscall "host = 'cred2'")" = 200 ] &&
	ok "user and password from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD: shipped" || { bad "environment"; cat "$ERR" >&2; }
ship --url "$URL?password=" "$T/cred-2.sct" 2>"$ERR"
grep -q 'warning: a password in --url is visible' "$ERR" && ok "a password in --url is warned about" ||
	{ bad "no warning for a password in --url"; cat "$ERR" >&2; }

# --- 6. the state folder: another user's, writable by others, symlinks in it, names with newlines
chmod 711 "$FLEET_TMP"
SHARED=$FLEET_TMP/shared
mkdir -m 1777 "$SHARED"
echo "root's file" >"$FLEET_TMP/target"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
as_nobody mkdir "$SHARED/st" && as_nobody ln -s "$FLEET_TMP/target" "$SHARED/st/shipped" ||
	{ echo "FAIL: cannot act as nobody" >&2; exit 1; }
state_refused() { # what, state dir, text the refusal must say
	local rc
	"$SCT_SHIP" --url "$URL" --state "$2" --retries 0 "$T/cred-1.sct" 2>"$ERR"
	rc=$?
	[ $rc = 1 ] && grep -q "$3" "$ERR" && [ "$(cat "$FLEET_TMP/target")" = "root's file" ] &&
		[ ! -e "$FLEET_TMP/created" ] && ok "$1: refused ($(cat "$ERR"))" ||
		{ bad "$1: exit $rc, root's file now: $(cat -A "$FLEET_TMP/target" | tr '\n' ' ')"; cat "$ERR" >&2; }
}
state_refused "a state folder of user nobody, its shipped a symlink to root's file" "$SHARED/st" \
	'owned by uid 65534, not by the caller'
[ "$(ls -A "$SHARED/st")" = shipped ] && ok "nothing created in nobody's folder" || bad "root created $(ls -A "$SHARED/st")"
mkdir -m 700 "$ST/world"
chmod 777 "$ST/world"
state_refused "a state folder of mode 0777" "$ST/world" 'mode 0777: others may write'
mkdir -m 700 "$ST/link-shipped" "$ST/link-lock"
ln -s "$FLEET_TMP/target" "$ST/link-shipped/shipped"
state_refused "shipped a symlink" "$ST/link-shipped" 'shipped is a symlink'
ln -s "$FLEET_TMP/created" "$ST/link-lock/lock"
state_refused "lock a symlink" "$ST/link-lock" 'lock is a symlink'
ln -s "$ST/world" "$ST/link-state"
state_refused "the state folder a symlink" "$ST/link-state" 'not a directory'

# A file name holding a newline and the start of another file's line: one line, escaped.
mkdir -p "$T/nl"
gen one "$T/nl/later.sct" 200 nl2 ffffffffffffffffffffffffffffffff 1
KEY="$(stat -c '%d %i %s' "$T/nl/later.sct") $(stat -c '%.9Y' "$T/nl/later.sct" | tr -d .)"
FIRST="$T/nl/first"$'\n'"$KEY forged.sct"
gen one "$FIRST" 200 nl1 ffffffffffffffffffffffffffffffff 1
"$SCT_SHIP" --url "$URL" --state "$ST/nl" --retries 0 "$FIRST" 2>"$ERR" &&
	"$SCT_SHIP" --url "$URL" --state "$ST/nl" --retries 0 "$T/nl/later.sct" 2>>"$ERR"
rc=$?
[ $rc = 0 ] && [ "$(grep -c . "$ST/nl/shipped")" = 2 ] && grep -qF 'first\x0a' "$ST/nl/shipped" &&
	[ "$(rows_of syscall "host = 'nl2'")" = 200 ] &&
	ok "a file name with a newline and another file's key: escaped in shipped, that other file still shipped" ||
	{ bad "newline in a name: exit $rc, $(rows_of syscall "host = 'nl2'") rows of the other file"; cat "$ST/nl/shipped" "$ERR" >&2; }

# --- 7. a server that answers slowly or without end: each request bounded in time and size
cat >"$FLEET_TMP/fake_http.py" <<'EOF'
import socket, sys, threading, time
mode = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
def serve(c):
    try:
        data = b""
        while b"\r\n\r\n" not in data:
            d = c.recv(65536)
            if not d:
                return
            data += d
        if mode == "trickle":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            while True:
                c.sendall(b"0")
                time.sleep(0.5)
        c.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        while True:
            c.sendall(b"0" * 65536)
    except OSError:
        pass
    finally:
        c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF
fake_server() { # mode: FAKE_PORT
	mkfifo "$FLEET_TMP/port.$1"
	python3 "$FLEET_TMP/fake_http.py" "$1" >"$FLEET_TMP/port.$1" &
	FAKE_PIDS+=($!)
	read -r FAKE_PORT <"$FLEET_TMP/port.$1"
}
fake_server trickle
start=$(date +%s%N)
timeout 30 "$SCT_SHIP" --url "http://127.0.0.1:$FAKE_PORT/" --state "$ST/slow" --retries 0 --timeout 3 "${VICTIMS[0]}" 2>"$ERR"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && [ $ms -lt 10000 ] && grep -q 'within 3 s (--timeout)' "$ERR" &&
	ok "a server trickling 2 bytes/s: sct-ship gives up after $ms ms (--timeout 3), exit 1" ||
	{ bad "trickling server: exit $rc after $ms ms"; cat "$ERR" >&2; }
fake_server flood
timeout 30 "$SCT_SHIP" --url "http://127.0.0.1:$FAKE_PORT/" --state "$ST/flood" --retries 0 --max-response 65536 \
	"${VICTIMS[0]}" 2>"$ERR"
rc=$?
[ $rc = 1 ] && grep -q 'answer is over 65536 bytes' "$ERR" &&
	ok "a server answering without end: sct-ship stops past --max-response, exit 1" ||
	{ bad "endless answer: exit $rc"; cat "$ERR" >&2; }
stop_fakes

# --- 8. a file the server refuses (a column no table has, named with terminal escapes):
# quarantined after --quarantine-after runs, the files after it shipped, the text escaped
mkdir -p "$T/q"
gen badcol "$T/q/1-bad.sct" "$(printf 'evil\033]2;pwned\007\033[2J')"
gen one "$T/q/2-good.sct" 200 good 99999999999999999999999999999999 1
qship() { "$SCT_SHIP" --url "$URL" --state "$ST/q" --retries 1 --backoff 10 --quarantine-after 2 --settle 0 "$T/q"; }
qship 2>"$ERR.1"
rc1=$?
good1=$(rows_of syscall "host = 'good'")
qship 2>"$ERR.2"
rc2=$?
qship 2>"$ERR.3"
rc3=$?
[ $rc1 = 1 ] && [ "$good1" = 0 ] && grep -q 'failed in 1 of 2 runs' "$ERR.1" &&
	ok "run 1: the refused file fails (exit 1), the next one waits" || { bad "quarantine run 1: exit $rc1"; cat "$ERR.1" >&2; }
[ $rc2 = 5 ] && grep -q 'quarantined: HTTP' "$ERR.2" && grep -q '2-good.sct: shipped' "$ERR.2" &&
	[ "$(rows_of syscall "host = 'good'")" = 200 ] && [ "$(rows_of sessions "host = 'crafthost'")" = 0 ] &&
	ok "run 2: quarantined (exit 5), its sessions row deleted, the next file shipped" ||
	{ bad "quarantine run 2: exit $rc2"; cat "$ERR.2" >&2; }
[ $rc3 = 5 ] && [ "$(grep -c . "$ERR.3")" = 1 ] && grep -q '1-bad.sct: quarantined: HTTP' "$ERR.3" &&
	[ "$(rows_of syscall "host = 'good'")" = 200 ] && ok "run 3: it stays quarantined and says why, nothing sent again" ||
	{ bad "quarantine run 3: exit $rc3"; cat "$ERR.3" >&2; }
[ "$(grep -c . "$ST/q/failed")" = 1 ] && grep -q $'^[0-9 ]* 2\t'".*1-bad.sct"$'\t''HTTP' "$ST/q/failed" &&
	ok "STATE/failed: one line, 2 runs, the path and the server's reason" || { bad "STATE/failed"; cat "$ST/q/failed" >&2; }
if cat "$ERR".[123] "$ST/q/failed" | grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; then
	bad "a control byte of the server's text reached stderr or the state"
	cat -v "$ERR".[123] >&2
else
	grep -qF 'evil\x1b]2;pwned\x07\x1b[2J' "$ERR.1" &&
		ok "the server's text (the column's name with ESC and BEL) printed escaped" ||
		{ bad "the column's name not in the error"; cat -v "$ERR.1" >&2; }
fi

echo "fleet security: $PASS passed, $FAIL failed"
[ $FAIL = 0 ]
