#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The bash completion as bash runs it: bash-completion loads the file, `complete -p` names its
# function for the four programs, and COMP_WORDS/COMP_CWORD drive it as a shell would.
#   usage: test_completion.sh COMPLETIONS_DIR   (the programs are found in PATH)
# Needs tracefs readable (root) for the tracepoint and syscall names; under CI=true its absence
# fails the test.

dir=$1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

. /usr/share/bash-completion/bash_completion || { echo "FAIL: no bash-completion"; exit 1; }
. "$dir/sct-record"
# compopt only works inside a completion that readline started; here it would fail loudly.
compopt() { :; }

for p in sct-record sct-report sct-convert sct-ship; do
	spec=$(complete -p "$p" 2>&1)
	[[ $spec == "complete -F _sct $p" ]] && ok || ko "complete -p $p: $spec"
	[[ $(readlink -f "$dir/$p") == $(readlink -f "$dir/sct-record") ]] && ok ||
		ko "$dir/$p is not the one completion file"
done

# comp WORD...: the completions of the last WORD, one a line, sorted.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_sct "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	[[ ${#COMPREPLY[@]} -gt 0 ]] && printf '%s\n' "${COMPREPLY[@]}" | sort
}
# expect WANT WORD...: the completions are exactly WANT (lines).
expect() {
	local want=$1 got
	shift
	got=$(comp "$@")
	[[ $got == "$want" ]] && ok || ko "'$*': got [$(echo $got)], want [$(echo $want)]"
}
# expect_has WANT WORD...: WANT is among the completions.
expect_has() {
	local want=$1
	shift
	comp "$@" | grep -qxF -- "$want" && ok || ko "'$*': no '$want' among [$(comp "$@" | head -20 | tr '\n' ' ')...]"
}
lines() { printf '%s\n' "$@"; }

# Options: each program's --help is the list, whatever it holds.
for p in sct-record sct-report sct-convert sct-ship; do
	want=$("$p" --help 2>&1 | sed '/^Examples:/,$d' | grep -E '^[[:space:]]*-' |
		grep -oP '(?<![A-Za-z0-9_-])--[a-z][a-z0-9-]*(?![A-Za-z0-9_-])' | sort -u)
	expect "$want" "$p" --
done
expect "$(lines --rotate-count --rotate-interval --rotate-size)" sct-record --rot
# An option that takes a value (its --help names one after it) completes no option after it.
for p in sct-record sct-report sct-convert sct-ship; do
	for o in $("$p" --help 2>&1 | sed '/^Examples:/,$d' |
		grep -oP '^[[:space:]]*(-[A-Za-z], )?\K--[a-z][a-z0-9-]* (?=[^[:space:]-])'); do
		comp "$p" "$o" - | grep -q '^-' && ko "'$p $o -' offers options: it takes a value" || ok
	done
done
expect "$(lines --password-file)" sct-ship --pass
expect "$(lines -S)" sct-report -S

# Fixed argument lists.
expect "$(lines auto bpf perf)" sct-record --backend ''
expect "$(lines clickhouse csv folded jsonl perfetto)" sct-convert --to ''
expect "$(lines calls time)" sct-convert --by ''
expect "$(lines rowbinary tsv)" sct-ship --clickhouse-format ''
expect "$(lines cgroup,syscall)" sct-report --by cgroup,s
expect "$(lines p99)" sct-report --sort p

# Pids, and the last item of a list.
expect_has "$$" sct-record -p ''
expect_has "1,$$" sct-record --pid "1,$$"
expect_has "$$" sct-record -t "$$"

# cgroup directories, as -G takes them (absolute under the cgroup2 mount).
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [[ -n $mnt ]]; then
	want=$(find "$mnt" -mindepth 1 -maxdepth 1 -type d -printf '/%f/\n' | sort)
	expect "$want" sct-record -G /
else
	ko "no cgroup2 mount"
fi

# Tracepoints and syscall names from tracefs.
tracefs=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[[ -r $d/events ]] && { tracefs=$d; break; }
done
if [[ -n $tracefs ]]; then
	expect "$(lines sched:sched_switch)" sct-record -e sched:sched_swit
	expect "$(lines raw_syscalls:sys_enter,sched:sched_switch)" sct-record -e raw_syscalls:sys_enter,sched:sched_swit
	expect "$(lines sched:sched_switch)" sct-convert --event sched:sched_swit
	expect "$(lines openat openat2)" sct-report -S opena
	expect "$(lines openat openat2)" sct-record -S opena
	expect "$(lines read,write read,writev)" sct-report --syscall read,writ
elif [[ ${CI:-} == true ]]; then
	ko "tracefs is not readable (mount -t tracefs nodev /sys/kernel/tracing, as root)"
else
	echo "SKIP: tracepoint and syscall names: tracefs is not readable (not root?)"
fi
# strace's classes, from the --help of the program.
expect "$(lines %file)" sct-report -S %fi
expect "$(lines %file)" sct-record --syscall %fi
expect "$(lines read,%fstat read,%fstatfs)" sct-report -S read,%fst

# Files for traces and outputs; the command after sct-record's --.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/web1.sct" "$tmp/web2.sct"
mkdir "$tmp/web3"
cd "$tmp"
expect "$(lines web1.sct web2.sct web3)" sct-report we
expect "$(lines web1.sct web2.sct web3)" sct-convert --to csv -o we
expect "$(lines web1.sct web2.sct web3)" sct-ship --url http://h:8123/ we
expect_has sct-report sct-record -o x.sct -- sct-rep
cd - > /dev/null

echo "completion: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
