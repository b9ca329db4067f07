#!/usr/bin/env bash
# Usage: fetch.sh CACHE PACKAGE
# Puts the kernel that the Debian package PACKAGE (a metapackage such as linux-image-amd64)
# depends on into CACHE/RELEASE/ and prints that directory. The kernel package is fetched with
# apt-get download and unpacked with dpkg-deb -x, never installed: its postinst would build an
# initramfs and touch /boot. The cache keeps only what a test VM boots with: vmlinuz, config, and
# the modules init.sh needs (uncompressed, in load order, for busybox insmod).
set -euo pipefail

die() { echo "fetch.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: fetch.sh CACHE PACKAGE"
cache=$1 meta=$2
# 9p over virtio-pci for the host's root, overlay for a writable layer on top of it.
modules="9p 9pnet_virtio virtio_pci overlay"

# The release moves with every Debian kernel update, so it is read from the archive's index.
resolve() {
	{ apt-cache depends "$meta" 2> /dev/null || true; } |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}
pkg=$(resolve)
if [ -z "$pkg" ]; then
	apt-get update -qq >&2 || true
	pkg=$(resolve)
fi
[ -n "$pkg" ] || die "cannot resolve $meta: the Debian archive is unreachable or has no such package (apt-get update, then retry)"
release=${pkg#linux-image-}
out=$cache/$release
if [ -f "$out/vmlinuz" ] && [ "$(cat "$out/modules/wanted" 2> /dev/null)" = "$modules" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch-$release.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2) ||
	die "apt-get download $pkg failed: the Debian archive is unreachable (apt-get update, then retry)"
dpkg-deb -x "$work"/*.deb "$work/root"
mods=$work/root/lib/modules/$release
if [ ! -f "$work/root/boot/vmlinuz-$release" ] || [ ! -d "$mods" ]; then
	die "$pkg holds no boot/vmlinuz-$release or lib/modules/$release"
fi
[ -f "$mods/modules.dep" ] || depmod -b "$work/root" "$release"

keep=$work/keep
mkdir -p "$keep/modules"
cp "$work/root/boot/vmlinuz-$release" "$keep/vmlinuz"
cp "$work/root/boot/config-$release" "$keep/config"
# modprobe lists the modules that are not built in, dependencies first.
# shellcheck disable=SC2086 # one word per module
modprobe -a -d "$work/root" -S "$release" --show-depends $modules |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
	name=${ko##*/}
	case $name in
	*.ko) cp "$ko" "$keep/modules/$name" ;;
	*.ko.xz) name=${name%.xz}; xz -dc "$ko" > "$keep/modules/$name" ;;
	*) die "cannot unpack module $name" ;;
	esac
	echo "$name" >> "$keep/modules/order"
done
touch "$keep/modules/order"
echo "$modules" > "$keep/modules/wanted"
rm -rf "$out"
mv "$keep" "$out"
echo "$out"
