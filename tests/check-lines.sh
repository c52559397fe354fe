#!/bin/bash
# SPDX-License-Identifier: MIT
#
# check-lines.sh ROOT DIR... - fail if a .c or .h file under ROOT/DIR is
# longer than 800 lines and its opening comment does not say why.
#
# A long file usually holds more than one concern; splitting it is the fix
# (lib/soft/ is split by concern for that reason: format/, config/, engine/,
# tasks/). Where a file is long for a reason (one table read whole, code
# about to be reworked), its opening comment, before the first line of
# code, has a line that starts with "Over 800 lines:" followed by the
# reason, e.g.
#
#	/*
#	 * grammar.c - the command table: ...
#	 *
#	 * Over 800 lines: one table, cli_commands[], read whole by ...
#	 */
#
# so the reason is read where the file is, and is seen again when the
# file changes.
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 ROOT DIR..." >&2
	exit 2
fi
root=$1
shift
limit=800

# Exit 0 when the comments before the first line of code hold the marker.
has_reason() {
	awk '
	function check() { if ($0 ~ /^[[:space:]]*(\/\*+|\*|\/\/)[[:space:]]*Over 800 lines:[[:space:]]*[^[:space:]]/) found = 1 }
	/^[[:space:]]*$/ { next }
	in_comment { check(); if ($0 ~ /\*\//) in_comment = 0; next }
	/^[[:space:]]*\/\// { check(); next }
	/^[[:space:]]*\/\*/ { check(); if ($0 !~ /\*\/[[:space:]]*$/) in_comment = 1; next }
	{ exit }
	END { exit !found }' "$1"
}

status=0
checked=0
cd "$root"
while IFS= read -r -d '' f; do
	checked=$((checked + 1))
	lines=$(wc -l <"$f")
	[ "$lines" -gt $limit ] || continue
	if ! has_reason "$f"; then
		echo "check-lines: $f has $lines lines (over $limit): split it by concern," \
			"or give the reason in its opening comment on a line starting" \
			"\"Over $limit lines:\"" >&2
		status=1
	fi
done < <(find "$@" -name '*.[ch]' -print0 | sort -z)

[ $status = 0 ] && echo "check-lines: $checked files in $*: none over $limit lines without a reason"
exit $status
