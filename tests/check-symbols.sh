#!/bin/bash
# SPDX-License-Identifier: MIT
#
# check-symbols.sh LIB MAP HEADER CC... - fail unless three sets agree:
#   - the symbols LIB (libraidcli.so) exports (nm -D --defined-only),
#   - the names MAP (lib/libraidcli.map) lists as global,
#   - the functions HEADER (lib/raidcli.h) declares.
# The header is run through the preprocessor (CC -E), so comments and
# macros such as rcl_fail() and rcl_fail_errno() drop out. As libnvme's
# generated test does, this keeps the version script, the manual and the
# binary from drifting apart. Every export must also carry a version.
set -euo pipefail

if [ $# -lt 4 ]; then
	echo "usage: $0 LIB MAP HEADER CC [CC-ARGS...]" >&2
	exit 2
fi
lib=$1 map=$2 header=$3
shift 3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" >"$tmp/nm"
# "0000000000003a20 T rcl_buf_add@@LIBRAIDCLI_0.1"; the version node itself is type A.
awk '$2 != "A" { print $3 }' "$tmp/nm" >"$tmp/nm-versioned"
sed 's/@.*//' "$tmp/nm-versioned" | sort -u >"$tmp/exported"

# Names between "global:" and "local:" in the version script.
awk '/global:/ { on = 1; next } /local:/ { on = 0 } on' "$map" |
	sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*;.*/\1/p' | sort -u >"$tmp/mapped"

# Identifiers followed by '(' in the preprocessed header that start with
# rcl_: function declarations (the header has no function-pointer members).
"$@" -E -P -x c "$header" >"$tmp/header.i"
grep -o '\brcl_[A-Za-z0-9_]*[[:space:]]*(' "$tmp/header.i" | sed 's/[[:space:]]*($//' |
	sort -u >"$tmp/declared"

status=0
compare() {
	local a=$1 b=$2 what=$3
	if ! diff -u --label "$a" --label "$b" "$tmp/$a" "$tmp/$b" >"$tmp/diff"; then
		echo "check-symbols: $what differ ('-' only in $a, '+' only in $b):" >&2
		tail -n +3 "$tmp/diff" | grep '^[-+]' >&2
		status=1
	fi
}
compare declared mapped "functions declared in $(basename "$header") and names in $(basename "$map")"
compare mapped exported "names in $(basename "$map") and symbols exported by $(basename "$lib")"

unversioned=$(grep -v '@@\?[A-Z]' "$tmp/nm-versioned" || true)
if [ -n "$unversioned" ]; then
	echo "check-symbols: exported without a version node:" >&2
	echo "$unversioned" >&2
	status=1
fi
if [ ! -s "$tmp/declared" ]; then
	echo "check-symbols: found no declarations in $header" >&2
	status=1
fi

[ $status = 0 ] && echo "check-symbols: $(wc -l <"$tmp/exported") symbols agree in header, map and library"
exit $status
