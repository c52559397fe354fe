#!/bin/bash
# SPDX-License-Identifier: MIT
#
# test-harness.sh - run-in-vm.sh does what the vm tests rely on: the script
# runs under the Debian kernel with the md personalities loaded, sees each
# disk under its name, its writes reach the image file, a --ro-disk refuses
# writes, and its output and exit status come back; a guest that never
# reaches /init (held in early boot, or panicked) is booted once more.
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

# A guest held before /init (QEMU started with its CPU stopped, as a boot
# hung early would be) is killed and booted once more, not waited for.
fake_qemu() { # ARGUMENT-REWRITE: a qemu-system-x86_64 in $work/bin that runs the real one
	mkdir -p "$work/bin"
	printf '#!/bin/bash
exec %s %s
' "$(command -v qemu-system-x86_64)" "$1" \
		>"$work/bin/qemu-system-x86_64"
	chmod +x "$work/bin/qemu-system-x86_64"
}
fake_qemu '-S "$@"'
status=0
PATH=$work/bin:$PATH VM_ACCEL=tcg VM_BOOT_TIMEOUT=2 \
	"$here/run-in-vm.sh" --timeout 600 "$work/script.sh" >/dev/null 2>"$work/hung.txt" ||
	status=$?
expect "exit status of a VM that never boots" "$status" 124
expect "retry of a VM held in early boot" \
	"$(grep -c '/init within 2 s (VM_BOOT_TIMEOUT): killed QEMU; booting once more' \
		"$work/hung.txt")" 1
expect "second hold said" "$(grep -c 'within 2 s (VM_BOOT_TIMEOUT): killed QEMU again' \
	"$work/hung.txt")" 1

# A kernel that panics before /init (as one did under TCG on a loaded host:
# "IO-APIC + timer doesn't work!"; here: no /init to run) is booted once more.
fake_qemu '"${@/rdinit=\/init/rdinit=/absent}"'
status=0
PATH=$work/bin:$PATH VM_ACCEL=tcg \
	"$here/run-in-vm.sh" --timeout 600 "$work/script.sh" >/dev/null 2>"$work/panic.txt" ||
	status=$?
expect "exit status of a VM that panics in early boot" "$status" 124
expect "retry of a VM that panics in early boot" \
	"$(grep -c 'stopped before /init started; booting once more' "$work/panic.txt")" 1
[ $fail = 0 ] && echo "run-in-vm: 8 checks passed"
exit $fail
