#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# libsct exports exactly the functions sct.h declares, from the archive and the shared
# library alike: no internal name (they would collide with a program's or another library's
# symbols) and none missing (a declaration without a definition fails only at link time).
#   usage: lib_symbols.sh libsct.a libsct.so.N sct.h
set -eu
archive=$1 shared=$2 header=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Function declarations start at the beginning of a line (doc comments and members do not).
sed -n 's/^[A-Za-z].*[ *]\(sct_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u > "$tmp/api"
nm -g --defined-only "$archive" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/a"
nm -D --defined-only "$shared" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/so"

pass=0 fail=0
if [ ! -s "$tmp/api" ]; then
	echo "FAIL: no declaration found in $header"
	fail=$((fail + 1))
fi
for lib in "$archive" "$shared"; do
	list=$tmp/a
	[ "$lib" = "$shared" ] && list=$tmp/so
	if cmp -s "$tmp/api" "$list"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $lib exports other names than $header declares (< missing, > extra):"
		diff "$tmp/api" "$list" | grep '^[<>]' || true
		fail=$((fail + 1))
	fi
done
echo "lib-symbols: $(wc -l < "$tmp/api") functions in $header, exported by $archive and $shared"
echo "lib-symbols: $pass passed, $fail failed"
test $fail -eq 0
