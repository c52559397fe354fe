#!/bin/bash
# SPDX-License-Identifier: MIT
#
# check-layering.sh ROOT - fail, naming file:line, when a .c or .h
# file under ROOT reaches across a layer:
#
#   - a file under lib/ or server/ includes a header of cli/ (the library
#     and the controller process never depend on the CLI);
#   - a file under lib/ outside lib/soft/, under server/ or under cli/
#     includes a header of lib/soft/ or names an rcl_soft_ symbol (only
#     the soft backend knows the soft backend: the others reach it through
#     lib/backend.h's contract), but for a kind hosting the soft engine:
#     a file that includes lib/soft/host.h (the engine host interface).
#
# An #include "x.h" is followed as the build finds it: the including
# file's folder first, then the include directories (lib/, server/, cli/,
# lib/soft/service/), so cli/'s #include "export.h" is lib/soft/service/'s.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 ROOT" >&2
	exit 2
fi
root=$1
include_dirs=(lib server cli lib/soft/service)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The path #include "$2" in file $1 finds, or nothing.
resolve() {
	local d
	for d in "${1%/*}" "${include_dirs[@]}"; do
		if [ -f "$d/$2" ]; then
			echo "$d/$2"
			return
		fi
	done
}

# Whether file $1 may know the soft backend: its own, or an engine host's.
soft_allowed() {
	grep -q '^#include "soft/host.h"' "$1" 2>/dev/null && return 0
	case $1 in
	lib/soft/*) return 0 ;;
	lib/* | server/* | cli/*) return 1 ;;
	*) return 0 ;;
	esac
}

cd "$root"
find lib server cli -name '*.[ch]' | sort >"$tmp/files"

# Every violation as "file:line: what", "what" a header path or a symbol.
: >"$tmp/found"
while IFS=: read -r file line text; do
	name=${text#*\"}
	name=${name%%\"*}
	header=$(resolve "$file" "$name")
	case $file:$header in
	lib/*:cli/* | server/*:cli/*) echo "$file:$line: $header" >>"$tmp/found" ;;
	*:lib/soft/*) soft_allowed "$file" || echo "$file:$line: $header" >>"$tmp/found" ;;
	esac
done < <(xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' <"$tmp/files")
while read -r file; do
	soft_allowed "$file" || grep -HnoE '\brcl_soft_[A-Za-z0-9_]*' "$file" || true
done <"$tmp/files" | sed 's/:\([^:]*\)$/: \1/' >>"$tmp/found"

if [ -s "$tmp/found" ]; then
	awk '{
		what = $NF ~ /^cli\// ? "includes a header of the CLI" : \
		       $NF ~ /^lib\/soft\// ? "includes a header of the soft backend" : \
		       "names a symbol of the soft backend"
		print "check-layering: " $0 ": " what
	}' "$tmp/found" >&2
	exit 1
fi
echo "check-layering: $(wc -l <"$tmp/files") files: no layer crossed"
