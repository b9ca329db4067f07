#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A program links against an installed libsct through pkg-config alone, dynamically (it then
# needs libsct.so.SOMAJOR, the SONAME), statically and as C++, and reads a trace as sct_dump
# decodes it.
#   usage: lib_link.sh LIBDIR TRACE.sct TRACE.json OUTDIR
#   env: SOMAJOR (format/build.mk's LIBSCT_SOMAJOR), CC, CXX, LDFLAGS (sanitizers)
set -eu
libdir=$1 trace=$2 json=$3 out=$4
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc=${CC:-cc}
pass=0 fail=0
check() {
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $*"; fail=$((fail + 1)); fi
}

python3 - "$json" > "$out/expected" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["events"]
for e in events:
    if e["event"] == "session":
        print("session %d %s" % (e["index"], e["hostname"]))
print("records %d" % sum(e["event"] == "record" for e in events))
PY

# shellcheck disable=SC2046,SC2086 # pkg-config output is a list of flags
$cc ${LDFLAGS:-} -Wall -Wextra -Werror $(pkg-config --cflags libsct) tests/lib/lib_consumer.c \
	-o "$out/consumer" $(pkg-config --libs libsct)
check sh -c "readelf -d '$out/consumer' | grep -q 'NEEDED.*\[libsct\.so\.$SOMAJOR\]'"
LD_LIBRARY_PATH="$libdir" "$out/consumer" "$trace" > "$out/dynamic"
check cmp -s "$out/expected" "$out/dynamic"

# shellcheck disable=SC2046,SC2086
$cc ${LDFLAGS:-} -Wall -Wextra -Werror $(pkg-config --cflags libsct) tests/lib/lib_consumer.c \
	-o "$out/consumer-static" $(pkg-config --static --libs libsct | sed 's/-lsct\b/-l:libsct.a/')
check sh -c "! readelf -d '$out/consumer-static' | grep -q 'libsct'"
"$out/consumer-static" "$trace" > "$out/static"
check cmp -s "$out/expected" "$out/static"

# The header is usable from C++ (extern "C"): the same program compiled as C++.
# shellcheck disable=SC2046,SC2086
${CXX:-c++} ${LDFLAGS:-} -Wall -Wextra -Werror $(pkg-config --cflags libsct) -x c++ tests/lib/lib_consumer.c \
	-x none -o "$out/consumer-cxx" $(pkg-config --libs libsct)
LD_LIBRARY_PATH="$libdir" "$out/consumer-cxx" "$trace" > "$out/cxx"
check cmp -s "$out/expected" "$out/cxx"

echo "lib-link: $pass passed, $fail failed"
test $fail -eq 0
