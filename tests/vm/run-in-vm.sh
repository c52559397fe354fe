#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-in-vm.sh - run a shell script inside a Debian kernel booted in QEMU,
# with image files attached as disks, and return its output and exit status.
#
#   run-in-vm.sh [--disk [NAME=]IMAGE]... [--ro-disk [NAME=]IMAGE]...
#                [--timeout SECONDS] [--memory MB] [--log FILE] SCRIPT
#
# Each IMAGE becomes a raw virtio disk /dev/vdX in the order given (vda
# first) and /dev/disk/by-name/NAME (NAME defaults to the file's name less
# .img; a virtio serial holds at most 20 characters). Writes go to the
# files (snapshot=off); --ro-disk attaches read-only. SCRIPT runs under
# busybox sh with mdadm, the md modules and busybox's applets; its stdout and
# stderr are printed here, and its exit status is this script's. A VM that
# does not finish (timeout, panic) exits 124 with the console log on stderr.
#
# The kernel is the newest /boot/vmlinuz-*; VM_KERNEL=/boot/vmlinuz-VER
# picks another. The initramfs is cached in $VM_CACHE_DIR (default
# $BUILD_ROOT/tests/vm when run by meson, else ~/.cache/raidcli-vm) and
# rebuilt when busybox, mdadm, the modules or the init change. VM_VERBOSE=1
# prints the boot time and the console log. Debian packages: qemu-system-x86,
# linux-image-amd64, busybox-static, mdadm.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
timeout=120
memory=512
log=
disks=()
ndisks=0

usage() {
	sed -n '4,8s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

add_disk() { # MODE SPEC
	local mode=$1 spec=$2 name path
	if [[ $spec == *=* ]]; then
		name=${spec%%=*} path=${spec#*=}
	else
		path=$spec name=$(basename "$spec" .img)
	fi
	[ -f "$path" ] || { echo "run-in-vm: no such image: $path" >&2; exit 2; }
	[ ${#name} -le 20 ] || { echo "run-in-vm: disk name over 20 characters: $name" >&2; exit 2; }
	# QEMU's -drive splits options at commas: a comma in a path is doubled
	path=${path//,/,,}
	# eight disks a PCI slot (functions 0-7) from slot 4 on: the 28 slots
	# left of the pc machine's 32 hold 224 disks instead of 28, in the
	# order given (the kernel probes by slot, then function)
	local slot=$((4 + ndisks / 8)) fn=$((ndisks % 8)) addr
	[ $slot -le 31 ] || { echo "run-in-vm: more than 224 disks" >&2; exit 2; }
	addr=$(printf %x.%x $slot $fn)
	disks+=(-drive "file=$path,format=raw,if=none,id=d$ndisks,cache=writeback,snapshot=off,$mode"
		-device "virtio-blk-pci,drive=d$ndisks,serial=$name,addr=$addr,multifunction=on")
	ndisks=$((ndisks + 1))
}

while [ $# -gt 0 ]; do
	case $1 in
	--disk) add_disk readonly=off "${2:?}"; shift 2 ;;
	--ro-disk) add_disk readonly=on "${2:?}"; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--memory) memory=${2:?}; shift 2 ;;
	--log) log=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "run-in-vm: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
script=$1
[ -f "$script" ] || { echo "run-in-vm: no such script: $script" >&2; exit 2; }

# shellcheck disable=SC2012 # ls -v: version order, for kernel file names
kernel=${VM_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
	echo "run-in-vm: no readable /boot/vmlinuz-*: apt-get install linux-image-amd64" >&2
	exit 77
fi
kver=${kernel#*/vmlinuz-}
for tool in qemu-system-x86_64 mdadm busybox; do
	command -v $tool >/dev/null || [ -x /sbin/$tool ] || [ -x /usr/sbin/$tool ] || {
		echo "run-in-vm: $tool missing: apt-get install qemu-system-x86 mdadm busybox-static" >&2
		exit 77
	}
done

if [ -z "${VM_CACHE_DIR:-}" ]; then
	if [ -n "${BUILD_ROOT:-}" ]; then
		VM_CACHE_DIR=$BUILD_ROOT/tests/vm
	else
		VM_CACHE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/raidcli-vm
	fi
fi
mkdir -p "$VM_CACHE_DIR"
base=$VM_CACHE_DIR/initramfs-$kver.cpio
# one builder at a time: meson runs tests in parallel
flock "$base.lock" /usr/bin/python3 "$here/mkinitramfs.py" base "$kver" "$base"

work=$(mktemp -d "${TMPDIR:-/tmp}/run-in-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT

boot() { # ACCEL TIMEOUT DISK-ARGS...: runs $script; its output in $work/output.txt
	local accel=$1 limit=$2 cpio=$work/script.cpio status=0
	shift 2
	/usr/bin/python3 "$here/mkinitramfs.py" script "$script" "$cpio"
	cat "$base" "$cpio" >"$work/initrd"
	local cpu=() firmware=()
	# qboot, where QEMU has it, only loads the kernel: SeaBIOS sets up
	# every virtio disk as a boot disk first (56 disks: 46 s under TCG, 15
	# with qboot)
	[ -f /usr/share/qemu/qboot.rom ] && firmware=(-bios qboot.rom)
	# arch-capabilities: some KVM hosts refuse to set the MSR QEMU copies
	[ "$accel" = kvm ] && cpu=(-cpu "host,-arch-capabilities")
	rm -f "$work/console" "$work/output"
	timeout --kill-after=5 "$limit" qemu-system-x86_64 \
		-machine pc "${firmware[@]}" -accel "$accel" "${cpu[@]}" -smp 2 -m "$memory" \
		-nographic -nodefaults -no-reboot -monitor none \
		-serial "file:$work/console" -serial "file:$work/output" \
		-kernel "$kernel" -initrd "$work/initrd" \
		-append "console=ttyS0 loglevel=3 panic=-1 rdinit=/init vm.disks=$ndisks" \
		"$@" </dev/null >"$work/qemu" 2>&1 || status=$?
	: >>"$work/output"
	tr -d '\r' <"$work/output" >"$work/output.txt"
	return $status
}

finished() { grep -a '^@@RAIDCLI-VM-END rc=[0-9]*@@$' "$work/output.txt"; }

# script_output: what the script printed: between the begin marker's line and
# the newline /init puts before the end marker
script_output() {
	/usr/bin/python3 -c 'import sys
text = open(sys.argv[1], "rb").read()
begin, end = b"@@RAIDCLI-VM-BEGIN@@\n", b"\n@@RAIDCLI-VM-END rc="
start = text.index(begin) + len(begin)
sys.stdout.buffer.write(text[start:text.rindex(end)])' "$work/output.txt"
}

# KVM works only if this kernel boots under it: /dev/kvm can be there and
# still not run a stock kernel (a nested host's paravirtual KVM, say). A
# trivial boot tells, once per host boot and kernel; the answer is cached.
kvm_boots() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	local cache=$VM_CACHE_DIR/kvm-$kver key
	key=$(cat /proc/sys/kernel/random/boot_id)
	if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$key" ]; then
		[ "$(tail -n 1 "$cache")" = yes ]
		return
	fi
	local probe=$work/probe.sh answer=no
	echo 'exit 0' >"$probe"
	(script=$probe; boot kvm 15) && finished >/dev/null && answer=yes
	printf '%s\n%s\n' "$key" "$answer" >"$cache"
	[ $answer = yes ]
}

case ${VM_ACCEL:-auto} in
kvm) accel=kvm ;;
tcg) accel=tcg ;;
*)
	if kvm_boots; then
		accel=kvm
	else
		echo "run-in-vm: KVM cannot boot $kernel here (no usable /dev/kvm, or a boot" \
			"probe under it did not finish): running under TCG emulation, much slower" >&2
		accel=tcg
	fi
	;;
esac
[ $accel = kvm ] || timeout=$((timeout * 5))

start=$(date +%s%N)
status=0
boot $accel "$timeout" "${disks[@]}" || status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))

[ -z "$log" ] || cp "$work/console" "$log"
end=$(finished || true)
if [ "$status" -ne 0 ] || [ -z "$end" ]; then
	echo "run-in-vm: the VM did not finish the script (qemu exit $status, time limit ${timeout}s)" >&2
	cat "$work/qemu" "$work/console" >&2
	sed -n '/^@@RAIDCLI-VM-BEGIN@@$/,$p' "$work/output.txt" | sed 1d >&2
	exit 124
fi
script_output
if [ "${VM_VERBOSE:-0}" != 0 ]; then
	echo "run-in-vm: $accel VM ran for $((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000)))s" \
		"(boot, script and power-off)" >&2
	cat "$work/console" >&2
fi
rc=${end#@@RAIDCLI-VM-END rc=}
exit "${rc%@@}"
