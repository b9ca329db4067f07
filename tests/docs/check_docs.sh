#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The documents against the programs and the tree:
# - every option a program's --help prints, short and long form, is in its man page's OPTIONS;
# - every man page renders without a warning, from groff's strictest check (-ww) and from man(1)
#   at 80 columns, the width a person reads it at;
# - every link of README.md and of the documents to a file of the tree resolves.
#   usage: check_docs.sh MANDIR PROGRAM=PAGE... -- DOCUMENT...
#   (PROGRAM: the built program; PAGE: its page's file name in MANDIR, such as sct-record.8;
#   PAGE alone: a page without a program, such as sct.5)
set -eu
mandir=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Every option token of a --help text: on the usage lines and the lines that describe options
# (they start with a dash once indented), before the examples (which run other programs too);
# a word that merely contains a dash is not one.
help_options() {
	sed '/^Examples:/,$d' "$1" | grep -E '^[[:space:]]*-|^[Uu]sage:|^[[:space:]]+sct-[a-z]+ ' |
		grep -oP '(?<![A-Za-z0-9_-])(--[a-z][a-z0-9-]*|-[A-Za-z])(?![A-Za-z0-9_-])' | sort -u
}

check_renders() {
	page=$1
	if groff -k -ww -z -t -man -Tutf8 "$page" > "$tmp/groff" 2>&1 && [ ! -s "$tmp/groff" ]; then
		ok
	else
		ko "$page: groff -ww warns:"
		sed 's/^/    /' "$tmp/groff"
	fi
	if MANWIDTH=80 man -l -Tutf8 "$page" > /dev/null 2> "$tmp/man" && [ ! -s "$tmp/man" ]; then
		ok
	else
		ko "$page: man -l warns:"
		sed 's/^/    /' "$tmp/man"
	fi
}

check_options() {
	prog=$1 page=$2
	if ! "$prog" --help > "$tmp/help" 2>&1; then
		ko "$prog --help failed"
		return
	fi
	help_options "$tmp/help" > "$tmp/opts"
	if [ ! -s "$tmp/opts" ]; then
		ko "$prog --help: no option found"
		return
	fi
	# The OPTIONS section, where a reader looks for an option (an example elsewhere is no manual)
	# (one line per paragraph, unhyphenated: no option broken across lines)
	groff -k -t -man -Tascii -P-cbou -rLL=4000n -rHY=0 "$page" 2> /dev/null |
		awk '/^[A-Z][A-Z ]*$/ { in_options = ($0 == "OPTIONS") } in_options' > "$tmp/text"
	missing=
	while read -r opt; do
		grep -qP -- "(?<![A-Za-z0-9_-])\Q$opt\E(?![A-Za-z0-9_-])" "$tmp/text" ||
			missing="$missing $opt"
	done < "$tmp/opts"
	if [ -z "$missing" ]; then
		ok
	else
		ko "$page: OPTIONS lacks options that $prog --help prints:$missing"
	fi
	echo "docs: $(basename "$page"): $(wc -l < "$tmp/opts") options of --help"
}

while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	*=*) prog=${1%%=*} page=$mandir/${1#*=} ;;
	*) prog= page=$mandir/$1 ;;
	esac
	shift
	if [ ! -f "$page" ]; then
		ko "$page: no such man page"
		continue
	fi
	check_renders "$page"
	[ -z "$prog" ] || check_options "$prog" "$page"
done
[ $# -gt 0 ] && shift

# Links to files, relative to the document; a web address or an anchor of the page itself is
# not a file. Fenced code is not text: a link-like string there is not a link.
for doc in "$@"; do
	dir=$(dirname "$doc")
	awk '/^```/ { code = !code; next } !code' "$doc" |
		grep -oP '\]\(\K[^)\s]+(?=\))' | grep -v -e '^[a-z]*://' -e '^#' -e '^mailto:' > "$tmp/links" || true
	bad=
	while read -r link; do
		[ -e "$dir/${link%%#*}" ] || bad="$bad $link"
	done < "$tmp/links"
	if [ -z "$bad" ]; then
		ok
	else
		ko "$doc links to files that are not there:$bad"
	fi
	echo "docs: $doc: $(wc -l < "$tmp/links") links to files"
done

echo "docs: $pass passed, $fail failed"
test "$fail" -eq 0
