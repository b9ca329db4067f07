#!/bin/busybox sh
# shellcheck shell=dash
# /init of the test VM, PID 1 in its initramfs (run-in-vm.sh builds it). It mounts the host's
# root read-only over 9p under a tmpfs overlay, gives it the kernel filesystems the recorder and
# its tests use, runs /cmd.sh there with its output on ttyS1, writes "EXIT=<status>" on ttyS2 and
# powers off.
/bin/busybox mkdir -p /bin /proc /sys /dev /host /layer /newroot /keep
/bin/busybox --install -s /bin
export PATH=/bin

report() {
	echo "EXIT=$1" > /dev/ttyS2
	poweroff -f
}

fail() {
	echo "init: $*" > /dev/console
	report 125
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r ko; do
	insmod "/modules/$ko" || fail "insmod $ko failed"
done < /modules/order

mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostroot /host ||
	fail "cannot mount the host's root over 9p"
# Writes stay in the guest's memory; they let /boot hold the kernel's config as on a Debian host,
# where libbpf and bpftool look for it, even if this host has no /boot.
mount -t tmpfs -o mode=755 tmpfs /layer
mkdir /layer/upper /layer/work
r=/newroot
mount -t overlay -o lowerdir=/host,upperdir=/layer/upper,workdir=/layer/work overlay $r ||
	fail "cannot mount an overlay on the host's root"
read -r dir < /dir
# The fresh tmpfs on /tmp and /run would hide a working directory under them (a clone in /tmp):
# keep it aside and put it back on top, read-only, as a test must not write into the tree.
mount --bind "/host$dir" /keep || fail "no $dir on the host"
mount -t tmpfs -o mode=1777 tmpfs $r/tmp
mount -t tmpfs -o mode=755 tmpfs $r/run
mkdir -p "$r$dir"
mount --move /keep "$r$dir"

mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount -t devtmpfs devtmpfs $r/dev
mkdir -p $r/dev/pts $r/dev/shm
mount -t devpts devpts $r/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $r/dev/shm
mount -t bpf bpf $r/sys/fs/bpf
mount -t tracefs tracefs $r/sys/kernel/tracing
mount -t debugfs debugfs $r/sys/kernel/debug
# cgroup v2 only, where the recorder and the tests look it up (/proc/self/mountinfo). A
# controller enabled at the root, as systemd does at boot, gives the implicit ones (perf_event)
# their state below the root: per-cgroup perf events and PERF_SAMPLE_CGROUP then work as on a
# production host (the recorder's fallback without it runs on the host under SCT_RECORD_FORCE).
mount -t cgroup2 cgroup2 $r/sys/fs/cgroup
echo +pids > $r/sys/fs/cgroup/cgroup.subtree_control || fail "cannot enable a cgroup2 controller"
# The loopback interface up, as on any booted host: tests connect to 127.0.0.1 and ::1.
ip link set lo up || fail "cannot bring the loopback interface up"
mkdir -p $r/boot
mount --bind /boot $r/boot
cp /cmd.sh $r/run/cmd.sh
echo "init: running the command in $dir" > /dev/console

stty -F /dev/ttyS1 raw -echo
chroot $r /bin/bash /run/cmd.sh < /dev/null > /dev/ttyS1 2>&1
status=$?
echo "init: the command exited with status $status" > /dev/console
report $status
