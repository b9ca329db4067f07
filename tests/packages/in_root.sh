#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Inside a fresh Debian 12 root (test_deb.sh made it, /proc, /sys and /dev bound): installs the
# packages as a person would, uses them from their installed paths only, upgrades over them,
# removes and purges them, and checks that nothing of them is left.
#   usage: in_root.sh DEBDIR SRCDIR   (SRCDIR: a copy of the tree for the tests' own files)
set -u
debs=$1 src=$2
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { if "$@"; then ok; else ko "$*"; fi; }
step() { printf '  -- %s\n' "$*"; }
work=$(mktemp -d)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
# The shared library's package, named after its SONAME's major (libsctN: libsct.so.N).
lib=$(cd "$debs" && ls | grep -E '^libsct[0-9]+_' | cut -d_ -f1)
somajor=${lib#libsct}

step "dpkg -i, then apt-get -f install for the dependencies"
dpkg -i "$debs"/sct_*.deb "$debs"/"$lib"_*.deb "$debs"/libsct-dev_*.deb > "$work/dpkg" 2>&1
apt-get -f install -y -q=2 > "$work/apt" 2>&1 || { cat "$work/apt"; ko "apt-get -f install"; }
for p in sct "$lib" libsct-dev; do
	check test "$(dpkg-query -W -f='${Status}' "$p")" = "install ok installed"
done
check test -e "/usr/lib/$ma/libsct.so.$somajor"
check test -e "/usr/lib/$ma/libsct.a"
check test -e "/usr/lib/$ma/pkgconfig/libsct.pc"

step "sct-record --probe"
/usr/bin/sct-record --probe > "$work/probe" 2>&1 || { cat "$work/probe"; ko "sct-record --probe"; }
check grep -qE '^backend-auto +(bpf|perf) ' "$work/probe"

step "a recording into /var/lib/sct (made by systemd-tmpfiles), sct-report, sct-convert"
trace=/var/lib/sct/test.sct
if /usr/bin/sct-record -q -o "$trace" -- /usr/bin/cat /etc/hostname > "$work/rec" 2>&1; then
	ok
	check cmp -s "$work/rec" /etc/hostname
	/usr/bin/sct-report "$trace" > "$work/report" 2>&1 || ko "sct-report: $(cat "$work/report")"
	check grep -qE '^ +1 +0 +.* execve$' "$work/report"
	check grep -qxF -- '-- lost events: 0 (ring buffer full 0, no room in flight 0) in 0 records' "$work/report"
	/usr/bin/sct-convert --to csv --records exec "$trace" > "$work/exec.csv" 2>/dev/null ||
		ko "sct-convert --records exec"
	check test "$(tail -n +2 "$work/exec.csv" | cut -d, -f8 | tr -d '\r')" = /usr/bin/cat
	# Every syscall record sct-report counted is one line of sct-convert's.
	calls=$(awk '/ total of [0-9]+ groups$/ { print $1 }' "$work/report")
	/usr/bin/sct-convert --to jsonl "$trace" > "$work/calls.jsonl" 2>/dev/null || ko "sct-convert --to jsonl"
	check test "$(wc -l < "$work/calls.jsonl")" = "${calls:-none}"
	check test "${calls:-0}" -gt 10
else
	cat "$work/rec"
	ko "sct-record -- cat /etc/hostname"
fi

step "man -l of every page, without a warning at 80 columns"
pages=$(dpkg -L sct | grep -E '^/usr/share/man/man[0-9]/.*\.gz$')
check test "$(echo "$pages" | wc -l)" = 5
for p in $pages; do
	out=$(MANWIDTH=80 man --warnings -l "$p" 2>&1 > "$work/page")
	check test -z "$out"
	check grep -q '^NAME' "$work/page"
done
# sct(5) names the specification where the package puts it.
for f in $(MANWIDTH=1000 man -l /usr/share/man/man5/sct.5.gz 2>/dev/null | grep -oE '/usr/share/doc/sct/[^ ,;)]+'); do
	check test -s "$f"
done
check test -s /usr/share/doc/sct/FORMAT.md
check sh -c "man sct-record | grep -q 'sct-record'"
check sh -c "man 5 sct | grep -q 'sct'"

step "systemd-analyze verify, units disabled and stopped"
units="/lib/systemd/system/sct-record.service /lib/systemd/system/sct-ship.service /lib/systemd/system/sct-ship.timer"
# shellcheck disable=SC2086
out=$(systemd-analyze verify $units 2>&1)
check test -z "$out"
[ -z "$out" ] || echo "$out"
for u in sct-record.service sct-ship.timer; do
	check test "$(systemctl is-enabled "$u" 2>&1)" = disabled
done

step "the recorder unit's command, as systemd runs it (no systemd in the root)"
check test "$(stat -c %a /var/lib/sct)" = 700
cmd=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/sct-record.service | sed 's/%%/%/g')
ls /var/lib/sct > "$work/before"
(. /etc/default/sct-record && export SCT_RECORD_OPTIONS="$SCT_RECORD_OPTIONS -d 0.5" &&
	eval "$cmd") > "$work/unit" 2>&1 || { cat "$work/unit"; ko "the unit's ExecStart"; }
new=$(ls /var/lib/sct | grep -vxF -f "$work/before")
check test "$(echo "$new" | grep -cE '^host-[0-9]{8}T[0-9]{6}\.000001\.sct$')" = 1
/usr/bin/sct-report --strict "/var/lib/sct/$(echo "$new" | head -1)" > "$work/report" 2>&1 ||
	ko "sct-report of the unit's recording: $(tail -3 "$work/report")"
# The next run may start within the same second, under the same name (which it refuses).
rm -f /var/lib/sct/host-*

step "the same under the unit's confinement: its capability bounding set, no new privileges, / read-only but /var/lib/sct"
# What systemd does with CapabilityBoundingSet=, NoNewPrivileges= and ProtectSystem=strict plus
# ReadWritePaths=, done with setpriv and a read-only bind of the root in a mount namespace (the
# root is no mount point of its own, and test_deb.sh's namespace is already private).
caps=$(sed -n 's/^CapabilityBoundingSet=//p' /lib/systemd/system/sct-record.service |
	tr 'A-Z ' 'a-z\n' | sed -n 's/^cap_/+/p' | paste -sd,)
check test "$caps" = +bpf,+perfmon,+ipc_lock
# confined OPTIONS: the unit's command with OPTIONS added to its settings, confined.
confined() {
	(. /etc/default/sct-record && export SCT_RECORD_OPTIONS="$SCT_RECORD_OPTIONS $1" &&
		unshare --mount --propagation unchanged sh -c '
		set -e
		mount --rbind / /mnt
		mount -o remount,bind,ro /mnt
		mount --bind /var/lib/sct /mnt/var/lib/sct
		if chroot /mnt touch /etc/sct-probe 2> /dev/null; then echo "/ is writable"; exit 1; fi
		exec chroot /mnt setpriv --bounding-set=-all,$1 --inh-caps=-all --no-new-privs sh -c "$2"
		' sh "$caps" "$cmd") > "$work/unit" 2>&1 || { cat "$work/unit"; ko "the unit's command confined, $1"; }
}
for opts in "--backend bpf --args" "--backend perf -e sched:sched_switch"; do
	ls /var/lib/sct > "$work/before"
	confined "-d 0.5 $opts"
	new=$(ls /var/lib/sct | grep -vxF -f "$work/before")
	check test "$(echo "$new" | grep -cE '^host-[0-9]{8}T[0-9]{6}\.000001\.sct$')" = 1
	/usr/bin/sct-report --strict "/var/lib/sct/$(echo "$new" | head -1)" > "$work/report" 2>&1 ||
		ko "sct-report of the confined recording ($opts): $(tail -3 "$work/report")"
	rm -f /var/lib/sct/host-*
done

step "bash completion"
bash "$src/tests/packages/test_completion.sh" /usr/share/bash-completion/completions 2>&1 |
	tee "$work/completion" | grep -v '^completion:'
check grep -q 'completion: [0-9]* passed, 0 failed' "$work/completion"

step "a program linked with pkg-config libsct against the installed libsct-dev"
(cd "$src" && SOMAJOR=$somajor sh tests/lib/lib_link.sh "/usr/lib/$ma" spec/examples/concatenated.sct \
	spec/examples/concatenated.json "$work") > "$work/link" 2>&1
cat "$work/link"
check grep -q 'lib-link: [0-9]* passed, 0 failed' "$work/link"

step "upgrade (the same packages again): settings and state survive"
echo 'SCT_RECORD_OPTIONS="--rotate-size 64M --rotate-count 2"' >> /etc/default/sct-record
cp /etc/default/sct-record "$work/settings"
dpkg -i --force-confold "$debs"/sct_*.deb "$debs"/"$lib"_*.deb "$debs"/libsct-dev_*.deb > "$work/dpkg" 2>&1 ||
	{ cat "$work/dpkg"; ko "dpkg -i over the installed packages"; }
check cmp -s /etc/default/sct-record "$work/settings"
check test -s "$trace"

step "remove keeps settings and state; purge removes them and every file of the packages"
for d in "$debs"/sct_*.deb "$debs"/"$lib"_*.deb "$debs"/libsct-dev_*.deb; do
	dpkg-deb -c "$d"
done | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' > "$work/files"
check test "$(wc -l < "$work/files")" -gt 15
apt-get remove -y -q=2 sct libsct-dev "$lib" > "$work/apt" 2>&1 || { cat "$work/apt"; ko "apt-get remove"; }
check test -e /etc/default/sct-record
check test -e "$trace"
dpkg --purge sct libsct-dev "$lib" > "$work/dpkg" 2>&1 || { cat "$work/dpkg"; ko "dpkg --purge"; }
check test -z "$(dpkg -l 'sct' 'libsct*' 2>/dev/null | grep '^[a-z][a-z] ')"
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done < "$work/files")
check test -z "$left"
# Anything named like sct's files, made by the packages or the units' state, outside the
# packages' own copies, apt's and man-db's caches (man sct-record above leaves a cat page that
# mandb prunes) and the logs.
left=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path "$src" -o -path "$debs" \
	-o -path "$work" -o -path /var/cache/apt -o -path /var/cache/man -o -path /var/log \) -prune \
	-o \( -name sct -o -name 'sct[-_.]*' -o -name 'libsct*' \) -print)
check test -z "$left"
[ -z "$left" ] || echo "left after purge: $left"

rm -rf "$work"
echo "packages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
