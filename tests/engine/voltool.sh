#!/bin/bash
# SPDX-License-Identifier: MIT
#
# voltool.sh VOLTOOL - voltool writes a file into a RAID1 VD and reads it
# back; the data lands on each member's partition where md keeps it (past
# the data offset in the md superblock, read with od); bad usage and a
# missing VD are refused with their exit codes.
set -euo pipefail
voltool=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export RAIDCLI_STATE_DIR=$dir/state
"$RAIDCLI" add controller type=soft drives=2 size=32MB >/dev/null
"$RAIDCLI" /c0 add vd type=raid1 drives=252:0-1 >/dev/null

head -c 1048576 /dev/urandom >"$dir/in"
"$voltool" "$RAIDCLI_STATE_DIR" 0 0 write 65536 1048576 "$dir/in"
"$voltool" "$RAIDCLI_STATE_DIR" 0 0 read 65536 1048576 "$dir/out"
cmp "$dir/in" "$dir/out"

# The VD's partition starts at LBA 4096 (raidcli-format(7)); md's
# data_offset is the little-endian 64-bit field 128 bytes into the
# superblock, which sits 4 KiB into the partition.
for image in "$RAIDCLI_STATE_DIR"/images/*/*; do
	part=$((4096 * 512))
	data=$(od -An -t u8 -j $((part + 4096 + 128)) -N 8 "$image" | tr -d ' ')
	cmp -n 1048576 -i $((part + data * 512 + 65536)):0 "$image" "$dir/in"
done

status=0
"$voltool" "$RAIDCLI_STATE_DIR" 0 0 read 1 512 "$dir/out" 2>/dev/null || status=$?
[ "$status" = 3 ] || { echo "a misaligned read gave $status, not 3" >&2; exit 1; }
status=0
"$voltool" "$RAIDCLI_STATE_DIR" 0 7 read 0 512 "$dir/out" 2>/dev/null || status=$?
[ "$status" = 2 ] || { echo "a missing VD gave $status, not 2" >&2; exit 1; }
status=0
"$voltool" "$RAIDCLI_STATE_DIR" 0 0 copy 0 512 "$dir/out" 2>/dev/null || status=$?
[ "$status" = 1 ] || { echo "bad usage gave $status, not 1" >&2; exit 1; }
echo ok
