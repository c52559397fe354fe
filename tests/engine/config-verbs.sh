#!/bin/bash
# SPDX-License-Identifier: MIT
#
# config-verbs.sh VOLTOOL MDREAD - what the configuration verbs do to data:
# "delete config" keeps every VD while one holds a file system, and takes
# them all with force; "expand" grows RAID0, RAID1 (after expandarray),
# RAID5 and RAID10 VDs with their data unchanged, the new space readable
# and writable through the engine (voltool), and the members still what
# md assembles (mdread: the grown md superblocks, the data read md's way).
set -euo pipefail
voltool=$1 mdread=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export RAIDCLI_STATE_DIR=$dir/state
MiB=1048576

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# raidcli WORDS... - run it, its text output in $out, its exit status in $rc.
rc=0 out=
raidcli() {
	rc=0
	out=$("$RAIDCLI" "$@") || rc=$?
}

vd_count() {
	"$RAIDCLI" /c0/vall show J | python3 -c '
import json, sys
data = json.load(sys.stdin)["Controllers"][0].get("Response Data", {})
print(len(data.get("Virtual Drives", [])))'
}

# --- delete config: all or nothing ---
raidcli add controller type=soft drives=4 size=64MB
raidcli /c0 add vd r1 drives=252:0-1
raidcli /c0 add vd r1 drives=252:2-3
printf 'XFSB' >"$dir/xfs"
head -c 508 /dev/zero >>"$dir/xfs"
"$voltool" "$RAIDCLI_STATE_DIR" 0 1 write 0 512 "$dir/xfs"
raidcli /c0 delete config
[ "$rc" = 245 ] || fail "delete config of a VD holding XFS gave $rc: $out"
grep -q "/v1 holds an XFS file system" <<<"$out" || fail "the refusal names no VD: $out"
[ "$(vd_count)" = 2 ] || fail "a refused delete config deleted VDs"
raidcli /c0 delete config force
[ "$rc" = 0 ] || fail "delete config force: $out"
[ "$(vd_count)" = 0 ] || fail "delete config force left VDs"
raidcli /c0 delete force
echo "ok delete config"

# expand_case NAME DRIVES SIZE ADD_MB "ADD VD WORDS" [shell step before expand] [expandarray]
# VD 0 of a new controller gets random data over its first SIZE MB,
# grows by ADD_MB, and must read the same; its new space takes new data.
expand_case() {
	local name=$1 drives=$2 size=$3 add=$4 words=$5 before=${6:-} array=${7:-}
	local old new images
	rm -rf "$RAIDCLI_STATE_DIR"
	raidcli add controller type=soft drives="$drives" size="$size"MB
	# shellcheck disable=SC2086
	raidcli /c0 add vd $words
	[ "$rc" = 0 ] || fail "$name: add vd: $out"
	old=$("$RAIDCLI" /c0/v0 show J | python3 -c '
import json, sys
row = json.load(sys.stdin)["Controllers"][0]["Response Data"]["Virtual Drives"][0]
print(row["Size"])')
	head -c $((8 * MiB)) /dev/urandom >"$dir/old"
	"$voltool" "$RAIDCLI_STATE_DIR" 0 0 write 0 $((8 * MiB)) "$dir/old"
	[ -z "$before" ] || eval "$before"
	# shellcheck disable=SC2086 # no word when there is no expandarray
	raidcli /c0/v0 expand size="$add"MB $array
	[ "$rc" = 0 ] || fail "$name: expand: $out"
	grep -q "expansion operation succeeded" <<<"$out" || fail "$name: $out"
	new=$("$RAIDCLI" /c0/v0 show J | python3 -c '
import json, sys
row = json.load(sys.stdin)["Controllers"][0]["Response Data"]["Virtual Drives"][0]
print(row["Size"])')
	[ "$new" != "$old" ] || fail "$name: still $old after expand"
	"$voltool" "$RAIDCLI_STATE_DIR" 0 0 read 0 $((8 * MiB)) "$dir/back"
	cmp -s "$dir/old" "$dir/back" || fail "$name: the data changed with the expand"
	# Everything past the first 8 MiB, the new space included: written, no
	# copy or parity of the grown VD holds what was on the drives before
	# (the background initialization's work, which no process runs here).
	local bytes
	bytes=$("$RAIDCLI" /c0/v0 show all J | python3 -c '
import json, sys
data = json.load(sys.stdin)["Controllers"][0]["Response Data"]
print(int(data["VD0 Properties"]["Number of Blocks"]) * 512)')
	head -c $((bytes - 8 * MiB)) /dev/urandom >"$dir/tail"
	"$voltool" "$RAIDCLI_STATE_DIR" 0 0 write $((8 * MiB)) $((bytes - 8 * MiB)) "$dir/tail"
	"$voltool" "$RAIDCLI_STATE_DIR" 0 0 read $((8 * MiB)) $((bytes - 8 * MiB)) "$dir/tail-back"
	cmp -s "$dir/tail" "$dir/tail-back" || fail "$name: the new space does not keep data"
	# shellcheck disable=SC2012 # the images' names are raidcli's: driveN.img
	images=$(ls "$RAIDCLI_STATE_DIR"/images/*/drive*.img | sort -V | head -n "$8")
	# shellcheck disable=SC2086
	"$mdread" 4096 "$bytes" "$dir/md" $images || fail "$name: md reads the grown members wrong"
	cmp -s -n $((8 * MiB)) "$dir/md" "$dir/old" || fail "$name: md reads other data"
	cmp -s -i $((8 * MiB)):0 "$dir/md" "$dir/tail" || fail "$name: md misses the new space"
	# shellcheck disable=SC2086
	examine "$name" "$bytes" $images
	echo "ok expand $name ($old -> $new)"
}

# examine NAME BYTES IMAGE... - mdadm --examine of each member's grown
# partition (copied out of its image: mdadm reads files too) says the
# array is BYTES, and its bitmap (mdadm -X on the bitmap's 4 KiB) covers
# each member's new size. Without mdadm and sfdisk, skipped.
examine() {
	local name=$1 bytes=$2 image part start size used avail sync
	shift 2
	command -v mdadm >/dev/null && command -v sfdisk >/dev/null || return 0
	for image in "$@"; do
		part=$(sfdisk --json "$image" | python3 -c '
import json, sys
for p in json.load(sys.stdin)["partitiontable"]["partitions"]:
    if p.get("name") == "raidcli v0":
        print(p["start"], p["size"])')
		read -r start size <<<"$part"
		dd if="$image" of="$dir/part" bs=512 skip="$start" count="$size" \
			conv=sparse status=none
		mdadm --examine "$dir/part" >"$dir/examine"
		avail=$(sed -n 's/^ *Avail Dev Size : \([0-9]*\) sectors.*/\1/p' "$dir/examine")
		# RAID0 has no size of its own: its members' data, in whole 64 KiB chunks.
		grep -q "Array Size : $((bytes / 1024)) KiB" "$dir/examine" ||
			{ grep -q "Raid Level : raid0" "$dir/examine" &&
				[ $((avail / 128 * 128 * 512 * $#)) = "$bytes" ]; } ||
			fail "$name: mdadm sees another size: $(grep -E 'Array Size|Avail' "$dir/examine")"
		# mdadm prints the size each member gives only when it is not all it has.
		used=$(sed -n 's/^ *Used Dev Size : \([0-9]*\) sectors.*/\1/p' "$dir/examine")
		[ -n "$used" ] || used=$avail
		# A bitmap covers a member's size; RAID10's, the array's (as mdadm sizes it).
		sync=$((used / 2))
		! grep -q "Raid Level : raid10" "$dir/examine" || sync=$((bytes / 1024))
		if grep -q "Internal Bitmap : 8 sectors" "$dir/examine"; then
			dd if="$dir/part" of="$dir/bitmap" bs=512 skip=16 count=8 status=none
			mdadm --examine-bitmap "$dir/bitmap" | grep -q "Sync Size : $sync " ||
				fail "$name: the bitmap does not cover $sync KiB"
		fi
	done
}

# shellcheck disable=SC2016 # expanded by expand_case's eval
grow_images='truncate -s 128M "$RAIDCLI_STATE_DIR"/images/*/drive*.img'
expand_case raid0 2 64 24 "r0 drives=252:0-1 size=32MB" "" "" 2
expand_case raid5 3 96 40 "r5 drives=252:0-2 size=48MB" "" "" 3
expand_case raid10 4 64 16 "r10 drives=252:0-3 size=32MB" "" "" 4
expand_case raid1-array 2 64 50 "r1 drives=252:0-1" "$grow_images" expandarray 2

# A redundant VD is not consistent after it grew; RAID0 stays consistent.
consist=$("$RAIDCLI" /c0/v0 show J | python3 -c '
import json, sys
print(json.load(sys.stdin)["Controllers"][0]["Response Data"]["Virtual Drives"][0]["Consist"])')
[ "$consist" = No ] || fail "a grown RAID1 says Consist $consist"
echo ok
