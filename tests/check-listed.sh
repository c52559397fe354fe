#!/bin/bash
# SPDX-License-Identifier: MIT
# check-listed.sh DIR GLOB NAME... - fail if a file matching GLOB in DIR is
# not among the NAMEs listed in that folder's meson.build.
set -euo pipefail
dir=$1 glob=$2
shift 2
status=0
for f in "$dir"/$glob; do
	[ -e "$f" ] || continue
	base=$(basename "$f")
	found=0
	for name in "$@"; do [ "$name" = "$base" ] && found=1; done
	if [ $found = 0 ]; then
		echo "tests: $f is not listed in $dir/meson.build" >&2
		status=1
	fi
done
exit $status
