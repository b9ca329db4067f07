#!/usr/bin/env bash
# Usage: run-in-vm.sh KERNEL_DIR -- COMMAND [ARG...]
# Boots the kernel in KERNEL_DIR (as fetch.sh leaves it: vmlinuz, config, modules/) in QEMU with
# this host's root filesystem shared read-only over 9p (init.sh says how the guest sees it), runs
# COMMAND as root in the current directory, and exits with COMMAND's status. COMMAND's output
# goes to stdout. Exit 124: the VM timed out; 125: the VM stopped without COMMAND's status (it did
# not boot, or the kernel panicked or locked up); either way the tail of the guest console is
# printed on stderr.
# Environment:
#   VM_ACCEL    auto (default), kvm or tcg. auto takes KVM only where /dev/kvm is usable and the
#               CPU has vmx or svm: a /dev/kvm without them (a nested or PVM host) emulates a
#               stock kernel far too slowly, and -cpu host aborts there.
#   VM_MEM      guest memory (default 1G)       VM_CPUS     guest CPUs (default 2)
#   VM_TIMEOUT  seconds before the VM is killed (default 2400: the recorder tests with their
#               reruns under every fallback and the perf backend took 5-8 min under TCG)
#   VM_CONSOLE  file to keep the guest's kernel console in (default: a temporary file)
#   CI          passed on to COMMAND; every other variable of the caller is not
set -euo pipefail

die() { echo "run-in-vm.sh: $*" >&2; exit 125; }

if [ $# -lt 3 ] || [ "$2" != -- ]; then
	die "usage: run-in-vm.sh KERNEL_DIR -- COMMAND [ARG...]"
fi
kdir=$1
shift 2
if [ ! -f "$kdir/vmlinuz" ] || [ ! -f "$kdir/modules/order" ]; then
	die "$kdir holds no fetched kernel"
fi
release=${kdir%/}
release=${release##*/}
here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox) || die "busybox is missing (apt-get install busybox-static)"
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 is missing (apt-get install qemu-system-x86)"

case ${VM_ACCEL:-auto} in
auto)
	if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then accel=kvm; else accel=tcg; fi ;;
kvm | tcg) accel=$VM_ACCEL ;;
*) die "VM_ACCEL must be auto, kvm or tcg, not '$VM_ACCEL'" ;;
esac
if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
else
	# Single-threaded TCG runs the vCPUs in turn. With thread=multi a 6.12 guest oopsed on a
	# stray int3 in syscall_trace_enter while tracepoint programs were detached: the kernel
	# patches its own text through int3 (text_poke_bp), and the emulated vCPUs did not agree
	# on that text in time. Slower, but this is a correctness check.
	accel_args=(-accel "tcg,thread=single" -cpu max)
fi

# QEMU runs under timeout, which puts it in a process group of its own: a Ctrl-C or a cancelled
# CI job reaches this script only, so the script stops QEMU itself, and no VM outlives it.
vm_pid=
cleanup() {
	[ -z "$vm_pid" ] || { kill "$vm_pid" 2> /dev/null; wait "$vm_pid"; }
	rm -rf "$work"
}
work=$(mktemp -d /tmp/sct-vm.XXXXXX)
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
console=${VM_CONSOLE:-$work/console.log}

# The initramfs: a static busybox, the 9p modules, /init, and the command with its directory.
ir=$work/initramfs
mkdir -p "$ir/bin" "$ir/boot"
cp "$busybox" "$ir/bin/busybox"
cp "$here/init.sh" "$ir/init"
cp -r "$kdir/modules" "$ir/modules"
cp "$kdir/config" "$ir/boot/config-$release"
printf '%s\n' "$PWD" > "$ir/dir"
{
	printf 'cd %q || exit 125\n' "$PWD"
	printf 'exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8'
	[ -z "${CI:-}" ] || printf ' CI=%q' "$CI"
	printf ' %q' "$@"
	printf '\n'
} > "$ir/cmd.sh"
(cd "$ir" && find . | busybox cpio -o -H newc 2> /dev/null) > "$work/initrd"

# ttyS0: kernel console; ttyS1: the command's output; ttyS2: its exit status. A kernel that
# oopses or locks up a CPU panics and the VM stops at once, with the stack on the console,
# instead of hanging until VM_TIMEOUT.
status=0
timeout -k 5 "${VM_TIMEOUT:-2400}" qemu-system-x86_64 -nodefaults -no-user-config -display none \
	-no-reboot -machine pc "${accel_args[@]}" -smp "${VM_CPUS:-2}" -m "${VM_MEM:-1G}" \
	-kernel "$kdir/vmlinuz" -initrd "$work/initrd" \
	-append "console=ttyS0 rdinit=/init panic=-1 oops=panic softlockup_panic=1" \
	-serial "file:$console" -chardev stdio,id=out,signal=off -serial chardev:out \
	-serial "file:$work/status" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	< /dev/null &
vm_pid=$!
wait "$vm_pid" || status=$?
vm_pid=
exit_line=$(grep -a -m1 '^EXIT=' "$work/status" 2> /dev/null || true)
exit_code=${exit_line#EXIT=}
exit_code=${exit_code%$'\r'}
if [ -n "$exit_line" ] && [ "$exit_code" != 125 ]; then
	exit "$exit_code"
fi
if [ "$status" = 124 ]; then
	echo "run-in-vm.sh: $release: no result within VM_TIMEOUT=${VM_TIMEOUT:-2400} s" >&2
else
	echo "run-in-vm.sh: $release: the VM stopped without the command's status (qemu status $status)" >&2
	status=125
fi
echo "--- last 40 lines of the $release console${VM_CONSOLE:+ ($VM_CONSOLE)}:" >&2
tail -n 40 "$console" >&2 || true
exit "$status"
