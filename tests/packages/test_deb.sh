#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The Debian packages from a clean clone of HEAD (make deb: one dpkg-buildpackage, no tests),
# installed into a fresh Debian 12 root that mmdebstrap makes (minbase and what the checks
# use), where in_root.sh uses, upgrades, removes and purges them.
#   usage: test_deb.sh REPO   (root; the machine must reach Debian's archive)
#   env: SCT_DEB_CACHE: the .deb files mmdebstrap and apt download, kept between runs
#        (default /var/cache/sct-test-deb); SCT_DEB_MIRROR (default http://deb.debian.org/debian)
set -eu
repo=$(cd "$1" && pwd)
cache=${SCT_DEB_CACHE:-/var/cache/sct-test-deb}
mirror=${SCT_DEB_MIRROR:-http://deb.debian.org/debian}
t0=$(date +%s)
say() { printf 'test-deb: %s (%ds)\n' "$*" $(($(date +%s) - t0)); }

if [ "$(id -u)" != 0 ]; then
	if [ "${CI:-}" = true ]; then echo "FAIL: make test-deb needs root"; exit 1; fi
	echo "SKIP: make test-deb needs root (mmdebstrap --mode=root, chroot, BPF)"
	exit 0
fi
for tool in git mmdebstrap dpkg-buildpackage lintian unshare; do
	command -v "$tool" > /dev/null || { echo "FAIL: $tool is missing (make deps)"; exit 1; }
done

# Everything in a tmpfs of its own (the root holds ~0.6 GB): unpacking and removing tens of
# thousands of files on a busy disk took as long as all the rest.
tmp=$(mktemp -d /tmp/sct-test-deb.XXXXXX)
mount -t tmpfs -o size=2G,mode=0700 sct-test-deb "$tmp"
trap 'umount -l "$tmp"; rmdir "$tmp"' EXIT

git clone -q "$repo" "$tmp/src"
say "building the packages from a clone of $(git -C "$tmp/src" rev-parse --short HEAD)"
make -C "$tmp/src" -s deb > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; echo "FAIL: make deb"; exit 1; }
grep -E '^[EW]: ' "$tmp/build.log" || true
mkdir "$tmp/debs"
# sct, libsct-dev and the library's package libsctN (not the -dbgsym packages)
lib=$(cd "$tmp/src/build/deb" && ls | grep -E '^libsct[0-9]+_.*\.deb$')
cp "$tmp/src/build/deb/sct_"*.deb "$tmp/src/build/deb/$lib" "$tmp/src/build/deb/libsct-dev_"*.deb "$tmp/debs/"

say "a Debian 12 root (mmdebstrap minbase, package cache in $cache)"
mkdir -p "$cache"
# The cache is bound over the root's /var/cache/apt/archives while mmdebstrap downloads and
# unbound before its cleanup empties that folder; lists are kept for apt-get -f install in the
# root; no documentation (but sct's) or translations of the other packages (time).
mmdebstrap --quiet --mode=root --variant=minbase --skip=essential/unlink --skip=cleanup/apt/lists \
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-include=/usr/share/doc/sct/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--include=systemd,man-db,bash-completion,gcc,g++,libc6-dev,pkg-config,python3,procps \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
	--setup-hook="mount --bind $cache \"\$1\"/var/cache/apt/archives" \
	--customize-hook='umount "$1"/var/cache/apt/archives' \
	bookworm "$tmp/root" "$mirror" > "$tmp/mmdebstrap.log" 2>&1 ||
	{ umount "$tmp/root/var/cache/apt/archives" 2> /dev/null; tail -40 "$tmp/mmdebstrap.log"; echo "FAIL: mmdebstrap"; exit 1; }

say "installing and using the packages in the root"
mkdir -p "$tmp/root/tmp/debs" "$tmp/root/tmp/src"
cp "$tmp/debs/"*.deb "$tmp/root/tmp/debs/"
cp -a "$tmp/src/tests" "$tmp/src/spec" "$tmp/root/tmp/src/"
cp /etc/resolv.conf "$tmp/root/etc/resolv.conf"
# A mount namespace of its own: every bind goes away with it, even on failure.
rc=0
unshare --mount --fork sh -c '
	set -e
	root=$1 cache=$2
	mount --make-rprivate /
	mount --bind /proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mount --bind "$cache" "$root/var/cache/apt/archives"
	chroot "$root" bash /tmp/src/tests/packages/in_root.sh /tmp/debs /tmp/src
' sh "$tmp/root" "$cache" || rc=$?
du -sh "$tmp/root" | sed "s/^/test-deb: the root: /"
say "done"
exit $rc
