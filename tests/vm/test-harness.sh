#!/bin/bash
# SPDX-License-Identifier: MIT
#
# test-harness.sh - run-in-vm.sh does what the vm tests rely on: the script
# runs under the Debian kernel with the md personalities loaded, sees each
# disk under its name, its writes reach the image file, a --ro-disk refuses
# writes, and its output and exit status come back.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /dev/shm/raidcli-vm-harness.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
expect() { # WHAT GOT WANT
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: got '$2', expected '$3'"
		fail=1
	fi
}

truncate -s 8M "$work/rw.img"
printf 'read-only disk\n' >"$work/ro.img"
truncate -s 1M "$work/ro.img"
cat >"$work/script.sh" <<'SCRIPT'
grep -o 'raid6' /proc/mdstat | head -n 1
printf 'written in the VM\n' | dd of=/dev/disk/by-name/rw bs=512 seek=1 conv=sync 2>/dev/null
head -n 1 /dev/disk/by-name/ro
echo x | dd of=/dev/disk/by-name/ro 2>/dev/null && echo "ro disk took a write"
cat /sys/block/vda/serial /sys/block/vdb/serial
exit 7
SCRIPT
status=0
out=$("$here/run-in-vm.sh" --disk "$work/rw.img" --ro-disk "$work/ro.img" "$work/script.sh") ||
	status=$?
[ $status -eq 77 ] && exit 77
expect "exit status" "$status" 7
expect "output" "$out" "raid6
read-only disk
rwro"
expect "data written to disk rw" "$(dd if="$work/rw.img" bs=512 skip=1 count=1 2>/dev/null |
	head -n 1)" "written in the VM"
[ $fail = 0 ] && echo "run-in-vm: 4 checks passed"
exit $fail
