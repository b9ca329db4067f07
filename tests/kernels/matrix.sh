#!/usr/bin/env bash
# Usage: matrix.sh COMMAND [ARG...]
# Runs COMMAND (Criterion suites, through make) on every kernel of the matrix and prints one line
# per kernel, "kernel RELEASE: N passed, M failed", added up from Criterion's Synthesis lines.
# Exits non-zero if any kernel fails a test, does not boot, or runs out of time.
# The Debian kernels boot in QEMU (run-in-vm.sh); the running kernel runs COMMAND on this host,
# since it has no package to boot and a stock kernel cannot be assumed to boot nested.
# Environment:
#   KERNELS       the matrix: Debian packages whose kernel is booted, and "host" for the running
#                 kernel (default: linux-image-amd64 linux-image-rt-amd64 linux-image-6.12-amd64 host)
#   KERNEL_CACHE  where fetched kernels are kept between runs (default /var/cache/sct-kernels)
#   KERNEL_LOGS   where each kernel's output and console are written (default /var/tmp/sct-kernels)
#   MATRIX_JOBS   how many kernels boot at once (default: the host's CPUs)
#   VM_*          passed on to run-in-vm.sh (accelerator, memory, CPUs, timeout)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernels=${KERNELS:-linux-image-amd64 linux-image-rt-amd64 linux-image-6.12-amd64 host}
cache=${KERNEL_CACHE:-/var/cache/sct-kernels}
logs=${KERNEL_LOGS:-/var/tmp/sct-kernels}

[ $# -ge 1 ] || { echo "usage: matrix.sh COMMAND [ARG...]" >&2; exit 2; }
# A Ctrl-C stops the matrix and every kernel it runs: the kernels run in background subshells,
# which ignore SIGINT, so each one's run-in-vm.sh is sent SIGTERM, and stops its VM.
stop_all() {
	local j

	for j in $(jobs -p); do
		pkill -TERM -P "$j"
		kill "$j" 2> /dev/null
	done
	wait
	exit 130
}
trap stop_all INT TERM HUP
mkdir -p "$logs" || exit 1

# Every kernel is fetched before any runs, so an unreachable archive stops the run at once.
dirs=()
for k in $kernels; do
	[ "$k" = host ] && continue
	dir=$("$here/fetch.sh" "$cache" "$k") || { echo "matrix.sh: cannot fetch the kernel of $k" >&2; exit 1; }
	dirs+=("$dir")
done

# Print the kernel's line; a run that failed with no failed test (a VM that did not boot or timed
# out, a suite that crashed before its summary) counts as one failure, with its output shown.
report() {
	local name=$1 log=$2 status=$3 passed failed

	read -r passed failed < <(awk '/Synthesis: Tested:/ {
			for (i = 1; i <= NF; i++) { if ($i == "Passing:") p += $(i + 1);
				if ($i == "Failing:" || $i == "Crashing:") f += $(i + 1) } }
		END { print p + 0, f + 0 }' "$log")
	if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
		failed=1
	fi
	if [ "$failed" -ne 0 ]; then
		echo "--- $name (status $status), from $log:"
		grep -v 'Synthesis: Tested:' "$log" | tail -n 100 | sed 's/^/  | /'
	fi
	echo "kernel $name: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# Boot the kernel and run the command; status 124 (timeout) or 125 (the VM stopped without
# the command's status: the guest kernel died) says nothing about the tests, so such a run is
# shown and tried once more. A test that fails is never retried.
run_kernel() {
	local dir=$1 release=$2 status=0

	shift 2
	VM_CONSOLE="$logs/$release.console" "$here/run-in-vm.sh" "$dir" -- "$@" > "$logs/$release.log" 2>&1 ||
		status=$?
	if [ "$status" -eq 124 ] || [ "$status" -eq 125 ]; then
		echo "--- $release: the VM failed (status $status); its output, then one more try:"
		grep -v 'Synthesis: Tested:' "$logs/$release.log" | tail -n 60 | sed 's/^/  | /'
		mv "$logs/$release.console" "$logs/$release.console.1" 2>/dev/null
		status=0
		VM_CONSOLE="$logs/$release.console" "$here/run-in-vm.sh" "$dir" -- "$@" > "$logs/$release.log" 2>&1 ||
			status=$?
	fi
	return "$status"
}

# The kernels boot side by side, MATRIX_JOBS at a time: a TCG guest runs its vCPUs in turn on
# one host thread, so one kernel alone leaves the other CPUs idle. Lines come in matrix order.
jobs=${MATRIX_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "matrix.sh: MATRIX_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
running=0
for dir in "${dirs[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	release=${dir##*/}
	rm -f "$logs/$release.status"
	( status=0; run_kernel "$dir" "$release" "$@" || status=$?; echo "$status" > "$logs/$release.status" ) &
	running=$((running + 1))
done
wait
ok=0
for dir in "${dirs[@]}"; do
	release=${dir##*/}
	status=$(cat "$logs/$release.status" 2> /dev/null) || status=1
	report "$release" "$logs/$release.log" "$status" || ok=1
done
case " $kernels " in
*" host "*)
	release=$(uname -r)
	status=0
	"$@" < /dev/null > "$logs/host.log" 2>&1 || status=$?
	report "$release (host)" "$logs/host.log" "$status" || ok=1
	;;
esac
exit $ok
