#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-in-vm.sh - run a shell script inside a Debian kernel booted in QEMU,
# with image files attached as disks, and return its output and exit status.
#
#   run-in-vm.sh [--disk [NAME=]IMAGE]... [--ro-disk [NAME=]IMAGE]...
#                [--nvme-subsys NAME]... [--nvme-ctrl ID:SERIAL[:subsys=NAME]]...
#                [--nvme-ns OWNER:IMAGE[:nsid=N][:lbs=512|4096][:eui64=HEX][:detached][:private]]...
#                [--megasas ID[:serial=S][:jbod]]... [--megasas-disk ID:IMAGE[:PROP=V]...]...
#                [--bin FILE]... [--timeout SECONDS] [--memory MB] [--log FILE] SCRIPT
#
# Each IMAGE becomes a raw virtio disk /dev/vdX in the order given (vda
# first) and /dev/disk/by-name/NAME (NAME defaults to the file's name less
# .img; a virtio serial holds at most 20 characters). Writes go to the
# files (snapshot=off); --ro-disk attaches read-only. SCRIPT runs under
# busybox sh with mdadm, nvme-cli, the md modules and busybox's applets; its
# stdout and stderr are printed here, and its exit status is this script's. A
# VM that does not finish (timeout, panic) exits 124 with the console log on
# stderr. A guest that has not started /init within VM_BOOT_TIMEOUT seconds
# (60 under KVM, 240 under TCG) hangs in early boot: QEMU is killed and the
# VM booted once more, as stderr says; so is one that stopped (panicked)
# before /init.
#
# NVMe: --nvme-subsys NAME makes an NVM subsystem (NQN
# nqn.2019-08.org.qemu:NAME); --nvme-ctrl a controller, QEMU device ID, with
# serial SERIAL, in subsystem NAME or alone; --nvme-ns a namespace on IMAGE
# (raw, writes reach it) of controller or subsystem OWNER. nsid= picks its
# id, lbs= its logical block size (512 by default), eui64= its EUI-64 (16
# hex digits; QEMU 7.2 gives none by default). A namespace in a
# subsystem is attached to all its controllers, unless detached (attached to
# none) or private (to one at a time). Each controller has a hot-pluggable
# PCI slot of its own: the guest may have it removed and plugged back
# (guest.sh's nvme_unplug, nvme_replug: the host channel, vmhost.py). --bin
# puts FILE (the build's raidcli, say) in the guest's /bin with its
# libraries.
#
# MegaRAID: --megasas makes a megasas-gen2 controller (QEMU's emulated LSI
# MegaRAID SAS 9260-8i, driven by the guest's megaraid_sas), device ID,
# with HBA serial S (QEMU's default QEMU123456) and in JBOD mode or not;
# --megasas-disk a scsi-hd disk on IMAGE (raw, writes reach it) behind
# controller ID, SCSI targets 0, 1, ... in the order given, with the
# properties serial=, vendor=, product= and rev= (QEMU's INQUIRY and VPD
# 0x80 data). tests/vm/README has the details, and what the emulated card
# reports.
#
# The kernel is the newest /boot/vmlinuz-*; VM_KERNEL=/boot/vmlinuz-VER
# picks another; QEMU boots the ELF kernel inside it where it has one (on one
# vCPU). The initramfs and that kernel are cached in $VM_CACHE_DIR (default
# $BUILD_ROOT/tests/vm when run by meson, else ~/.cache/raidcli-vm) and
# rebuilt when busybox, mdadm, nvme-cli, the modules, the init, a --bin
# FILE or the kernel change. VM_VERBOSE=1 prints the boot time and the console log. Debian
# packages: qemu-system-x86, linux-image-amd64, busybox-static, mdadm,
# nvme-cli (with NVMe devices), sg3-utils and lsscsi (for the guest, when
# installed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
timeout=120
memory=512
log=
disks=()
ndisks=0
bins=()

usage() {
	sed -n '7,11s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

die() {
	echo "run-in-vm: $*" >&2
	exit 2
}

add_disk() { # MODE SPEC
	local mode=$1 spec=$2 name path
	if [[ $spec == *=* ]]; then
		name=${spec%%=*} path=${spec#*=}
	else
		path=$spec name=$(basename "$spec" .img)
	fi
	[ -f "$path" ] || die "no such image: $path"
	[ ${#name} -le 20 ] || die "disk name over 20 characters: $name"
	# QEMU's -drive splits options at commas: a comma in a path is doubled
	path=${path//,/,,}
	# eight disks a PCI slot (functions 0-7) from slot 4 on: the 28 slots
	# left of the pc machine's 32 hold 224 disks instead of 28, in the
	# order given (the kernel probes by slot, then function)
	local slot=$((4 + ndisks / 8)) fn=$((ndisks % 8)) addr
	[ $slot -le 31 ] || die "more than 224 disks"
	addr=$(printf %x.%x $slot $fn)
	disks+=(-drive "file=$path,format=raw,if=none,id=d$ndisks,cache=writeback,snapshot=off,$mode"
		-device "virtio-blk-pci,drive=d$ndisks,serial=$name,addr=$addr,multifunction=on")
	ndisks=$((ndisks + 1))
}

# The NVMe options, turned into QEMU devices once all are read (the
# controllers' slots follow the disks'): subsystems, then controllers, then
# namespaces, as QEMU needs them. nvme_attached counts the namespaces that
# are attached at boot, for /init to wait for.
nvme_subsys=() nvme_ctrls=() nvme_nss=() nvme=()
nvme_attached=0 nvme_slots=''
declare -A nvme_ids=() ctrl_subsys=() subsys_ctrl=() subsys_serial=()

nvme_id() { # WHAT ID: ID as a new QEMU device id
	[[ $2 =~ ^[A-Za-z][A-Za-z0-9_.-]*$ ]] ||
		die "$1 '$2' is not a QEMU id (a letter, then letters, digits, '_', '.', '-')"
	[ -z "${nvme_ids[$2]+x}" ] || die "NVMe id '$2' given twice"
	nvme_ids[$2]=$1
}

add_nvme_ctrl() { # SLOT ID:SERIAL[:subsys=NAME]
	local fields opt subsys=''
	IFS=: read -ra fields <<<"$2"
	[ ${#fields[@]} -ge 2 ] || die "--nvme-ctrl ID:SERIAL[:subsys=NAME]: $2"
	nvme_id controller "${fields[0]}"
	[[ ${fields[1]} =~ ^[^,]{1,20}$ ]] ||
		die "controller serial: 1 to 20 characters, no comma: '${fields[1]}'"
	for opt in "${fields[@]:2}"; do
		case $opt in
		subsys=*) subsys=${opt#subsys=} ;;
		*) die "--nvme-ctrl $2: unknown option '$opt'" ;;
		esac
	done
	local dev
	dev="nvme,id=${fields[0]},serial=${fields[1]},addr=$(printf %x "$1")"
	if [ -n "$subsys" ]; then
		[ "${nvme_ids[$subsys]:-}" = subsystem ] || die "--nvme-ctrl $2: no --nvme-subsys $subsys"
		# NVMe: the serial number is the subsystem's (QEMU refuses others)
		[ "${subsys_serial[$subsys]:-${fields[1]}}" = "${fields[1]}" ] ||
			die "--nvme-ctrl $2: subsystem $subsys has serial ${subsys_serial[$subsys]}"
		dev+=",subsys=$subsys"
		ctrl_subsys[${fields[0]}]=$subsys subsys_serial[$subsys]=${fields[1]}
		[ -n "${subsys_ctrl[$subsys]:-}" ] || subsys_ctrl[$subsys]=${fields[0]}
	fi
	nvme+=(-device "$dev")
	# for guest.sh's nvme_ctrl ID, on the kernel command line
	nvme_slots+="${nvme_slots:+,}${fields[0]}@$(printf %02x "$1")"
}

add_nvme_ns() { # N OWNER:IMAGE[:nsid=N][:lbs=512|4096][:detached][:private]
	local fields opt bus='' lbs=512 props='' detached=''
	IFS=: read -ra fields <<<"$2"
	[ ${#fields[@]} -ge 2 ] || die "--nvme-ns OWNER:IMAGE[:OPTION]...: $2"
	case ${nvme_ids[${fields[0]}]:-} in
	controller) bus=${fields[0]} ;;
	# a subsystem's namespace hangs on its first controller; QEMU moves
	# it to the subsystem, where every controller can have it attached
	subsystem) bus=${subsys_ctrl[${fields[0]}]:-} ;;
	esac
	[ -n "$bus" ] ||
		die "--nvme-ns $2: '${fields[0]}' is neither a controller nor a subsystem with one"
	[ -f "${fields[1]}" ] || die "no such image: ${fields[1]}"
	for opt in "${fields[@]:2}"; do
		case $opt in
		nsid=*)
			[[ ${opt#nsid=} =~ ^[1-9][0-9]*$ ]] || die "--nvme-ns $2: bad $opt"
			props+=",nsid=${opt#nsid=}"
			;;
		lbs=512|lbs=4096) lbs=${opt#lbs=} ;;
		eui64=*)
			[[ ${opt#eui64=} =~ ^[0-9a-fA-F]{16}$ ]] || die "--nvme-ns $2: bad $opt (16 hex digits)"
			props+=",eui64=0x${opt#eui64=}"
			;;
		detached) detached=1 props+=",detached=on" ;;
		private) props+=",shared=off" ;;
		*) die "--nvme-ns $2: unknown option '$opt' (nsid=N, lbs=512|4096, eui64=HEX, detached, private)" ;;
		esac
	done
	[ -z "$detached" ] || [ -n "${ctrl_subsys[$bus]:-}" ] ||
		die "--nvme-ns $2: a detached namespace needs a controller in a subsystem"
	local size
	size=$(stat -c %s "${fields[1]}")
	if [ "$size" -eq 0 ] || [ $((size % lbs)) -ne 0 ]; then
		die "--nvme-ns $2: the image's size ($size) is not a multiple of $lbs"
	fi
	[ -n "$detached" ] || nvme_attached=$((nvme_attached + 1))
	nvme+=(-drive "file=${fields[1]//,/,,},format=raw,if=none,id=nvd$1,cache=writeback,snapshot=off"
		-device "nvme-ns,drive=nvd$1,bus=$bus,logical_block_size=$lbs,physical_block_size=$lbs$props")
}

add_nvme() {
	local name spec i
	for name in "${nvme_subsys[@]}"; do
		nvme_id subsystem "$name"
		nvme+=(-device "nvme-subsys,id=$name,nqn=$name")
	done
	# a PCI slot of its own each, after the disks', where ACPI hotplug
	# (the pc machine's, on the root bus) can remove it
	local slot=$((4 + (ndisks + 7) / 8))
	for spec in "${nvme_ctrls[@]}"; do
		[ $slot -le 31 ] || die "more disks and NVMe controllers than PCI slots"
		add_nvme_ctrl $slot "$spec"
		slot=$((slot + 1))
	done
	i=0
	for spec in "${nvme_nss[@]}"; do
		add_nvme_ns $i "$spec"
		i=$((i + 1))
	done
}

# The MegaRAID options, turned into QEMU devices after the NVMe ones (each
# controller a PCI slot after theirs). megasas_disks counts the disks the
# guest gets a block device for, for /init: each an LD; in JBOD mode the PD
# on target 0 alone (megaraid_sas keeps 256 device ids, QEMU's are target *
# 256 + LUN).
megasas_ctrls=() megasas_specs=() megasas=()
megasas_disks=0
declare -A megasas_targets=() megasas_jbod=()

add_megasas_ctrl() { # SLOT ID[:serial=S][:jbod]
	local fields opt dev
	IFS=: read -ra fields <<<"$2"
	nvme_id 'MegaRAID controller' "${fields[0]:-}"
	dev="megasas-gen2,id=${fields[0]},addr=$(printf %x "$1")"
	for opt in "${fields[@]:1}"; do
		case $opt in
		serial=*)
			[[ ${opt#serial=} =~ ^[^,]{1,31}$ ]] ||
				die "--megasas $2: serial: 1 to 31 characters, no comma"
			dev+=",hba_serial=${opt#serial=}"
			;;
		jbod) dev+=",use_jbod=on" megasas_jbod[${fields[0]}]=1 ;;
		*) die "--megasas $2: unknown option '$opt' (serial=S, jbod)" ;;
		esac
	done
	megasas_targets[${fields[0]}]=0
	megasas+=(-device "$dev")
}

add_megasas_disk() { # N ID:IMAGE[:serial=S][:vendor=V][:product=P][:rev=R]
	local fields opt props='' limit ctrl target
	IFS=: read -ra fields <<<"$2"
	ctrl=${fields[0]:-}
	if [ -z "$ctrl" ] || [ -z "${megasas_targets[$ctrl]+x}" ]; then
		die "--megasas-disk $2: no --megasas '$ctrl'"
	fi
	[ ${#fields[@]} -ge 2 ] || die "--megasas-disk ID:IMAGE[:PROP=V]...: $2"
	[ -f "${fields[1]}" ] || die "no such image: ${fields[1]}"
	for opt in "${fields[@]:2}"; do
		# QEMU's limits: the INQUIRY fields' widths, VPD 0x80's 36
		case ${opt%%=*} in
		serial) limit=36 ;;
		vendor) limit=8 ;;
		product) limit=16 ;;
		rev) limit=4 opt=ver=${opt#rev=} ;;
		*) die "--megasas-disk $2: unknown option '$opt' (serial=, vendor=, product=, rev=)" ;;
		esac
		[[ ${opt#*=} =~ ^[^,]{1,$limit}$ ]] ||
			die "--megasas-disk $2: ${opt%%=*}: 1 to $limit characters, no comma"
		props+=",$opt"
	done
	# QEMU's card finds an LD by target id (lun 0), up to its 64 LDs
	target=${megasas_targets[$ctrl]}
	[ "$target" -lt 64 ] || die "--megasas-disk $2: more than 64 disks on $ctrl"
	megasas_targets[$ctrl]=$((target + 1))
	[ -n "${megasas_jbod[$ctrl]:-}" ] && [ "$target" -gt 0 ] || megasas_disks=$((megasas_disks + 1))
	megasas+=(-drive "file=${fields[1]//,/,,},format=raw,if=none,id=mdd$1,cache=writeback,snapshot=off"
		-device "scsi-hd,drive=mdd$1,bus=$ctrl.0,scsi-id=$target,lun=0$props")
}

add_megasas() {
	local spec i slot=$((4 + (ndisks + 7) / 8 + ${#nvme_ctrls[@]}))
	for spec in "${megasas_ctrls[@]}"; do
		[ $slot -le 31 ] || die "more disks and controllers than PCI slots"
		add_megasas_ctrl $slot "$spec"
		slot=$((slot + 1))
	done
	i=0
	for spec in "${megasas_specs[@]}"; do
		add_megasas_disk $i "$spec"
		i=$((i + 1))
	done
}

while [ $# -gt 0 ]; do
	case $1 in
	--disk) add_disk readonly=off "${2:?}"; shift 2 ;;
	--ro-disk) add_disk readonly=on "${2:?}"; shift 2 ;;
	--nvme-subsys) nvme_subsys+=("${2:?}"); shift 2 ;;
	--nvme-ctrl) nvme_ctrls+=("${2:?}"); shift 2 ;;
	--nvme-ns) nvme_nss+=("${2:?}"); shift 2 ;;
	--megasas) megasas_ctrls+=("${2:?}"); shift 2 ;;
	--megasas-disk) megasas_specs+=("${2:?}"); shift 2 ;;
	--bin) bins+=("${2:?}"); shift 2 ;;
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
[ -f "$script" ] || die "no such script: $script"
add_nvme
add_megasas
for bin in "${bins[@]}"; do
	[ -x "$bin" ] || die "--bin $bin: no such program"
done

# shellcheck disable=SC2012 # ls -v: version order, for kernel file names
kernel=${VM_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
	echo "run-in-vm: no readable /boot/vmlinuz-*: apt-get install linux-image-amd64" >&2
	exit 77
fi
kver=${kernel#*/vmlinuz-}
tools=(qemu-system-x86_64 mdadm busybox)
[ ${#nvme[@]} -eq 0 ] || tools+=(nvme)
for tool in "${tools[@]}"; do
	command -v "$tool" >/dev/null || [ -x "/sbin/$tool" ] || [ -x "/usr/sbin/$tool" ] || {
		echo "run-in-vm: $tool missing: apt-get install qemu-system-x86 mdadm" \
			"busybox-static nvme-cli" >&2
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
archives=("$base")
# what QEMU boots: the ELF kernel inside the bzImage where mkinitramfs.py
# finds one, which spares the guest the bzImage's decompression
vmlinux=$VM_CACHE_DIR/vmlinux-$kver
flock "$vmlinux.lock" /usr/bin/python3 "$here/mkinitramfs.py" kernel "$kernel" "$vmlinux"
[ -f "$vmlinux" ] || vmlinux=$kernel
if [ ${#bins[@]} -gt 0 ]; then
	# an archive for each set of programs (the build's raidcli, say),
	# named after their paths; mkinitramfs.py rebuilds it when they change
	key=$(realpath "${bins[@]}" | sha256sum)
	archives+=("$VM_CACHE_DIR/bin-${key:0:16}.cpio")
	flock "${archives[1]}.lock" /usr/bin/python3 "$here/mkinitramfs.py" bin "${archives[1]}" \
		"${bins[@]}"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/run-in-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT

boot() { # ACCEL TIMEOUT DEVICE-ARGS...: runs $script; its output in $work/output.txt
	local accel=$1 limit=$2 cpio=$work/script.cpio status=0
	shift 2
	/usr/bin/python3 "$here/mkinitramfs.py" script "$script" "$cpio"
	cat "${archives[@]}" "$cpio" >"$work/initrd"
	local cpu=() firmware=()
	# qboot, where QEMU has it, only loads the kernel: SeaBIOS sets up
	# every virtio disk as a boot disk first (56 disks: 46 s under TCG, 15
	# with qboot)
	[ -f /usr/share/qemu/qboot.rom ] && firmware=(-bios qboot.rom)
	# arch-capabilities: some KVM hosts refuse to set the MSR QEMU copies
	[ "$accel" = kvm ] && cpu=(-cpu "host,-arch-capabilities")
	# for /init (what to wait for) and guest.sh (NVMe controller ids)
	local cmdline="vm.disks=$ndisks vm.nvme=$nvme_attached vm.nvme_slots=$nvme_slots"
	cmdline+=" vm.scsi=$megasas_disks"
	# no_timer_check: under TCG on a loaded host the kernel's test that the
	# timer interrupt arrives through the IO-APIC can time out and panic
	# ("IO-APIC + timer doesn't work!"); QEMU's timer is known to work
	cmdline+=" no_timer_check"
	# What a throwaway VM can do without, each a cost under TCG (CPU time of a
	# boot with 56 disks: 34 s before, 9 s with these, one vCPU and the ELF
	# kernel): acpi=noirq: no ACPI IRQ routing, whose AML took 0.3-0.4 s a
	# PCI device (virtio, NVMe and MegaRAID use MSI-X); rodata=off: no read-only
	# remapping and W+X scan of the kernel; cryptomgr.notests: no crypto
	# self-tests; mitigations=off: no retpolines
	cmdline+=" acpi=noirq rodata=off cryptomgr.notests mitigations=off"
	rm -f "$work/console" "$work/output" "$work/qmp.sock" "$work/host.sock"
	# vmhost.py serves the guest's host_qmp requests on the third serial
	# port with the QMP monitor, and exits with QEMU's status. One vCPU: a
	# second cost CPU time under TCG (a boot with 56 disks: 13 s, not 9)
	timeout --kill-after=5 "$limit" /usr/bin/python3 "$here/vmhost.py" \
		"$work/qmp.sock" "$work/host.sock" qemu-system-x86_64 \
		-machine pc "${firmware[@]}" -accel "$accel" "${cpu[@]}" -smp 1 -m "$memory" \
		-nographic -nodefaults -no-reboot -monitor none \
		-chardev "socket,id=qmp,path=$work/qmp.sock" -mon chardev=qmp,mode=control \
		-chardev "socket,id=host,path=$work/host.sock" \
		-serial "file:$work/console" -serial "file:$work/output" -serial chardev:host \
		-kernel "$vmlinux" -initrd "$work/initrd" \
		-append "console=ttyS0 loglevel=3 panic=-1 rdinit=/init $cmdline" \
		"$@" </dev/null >"$work/qemu" 2>&1 &
	local vm=$!
	boot_watch $vm $((limit < boot_limit ? limit : boot_limit))
	wait $vm || status=$?
	: >>"$work/output"
	tr -d '\r' <"$work/output" >"$work/output.txt"
	return $status
}

# boot_watch PID LIMIT: until the VM of PID (its timeout process) ends, or its
# /init prints the begin marker, or LIMIT seconds pass. A guest that never
# reached /init failed in early boot, not in the script: boot_failed says how
# (held: once, TCG stopped after "Probing EDD"; it is killed) or (ended: a
# panic in early boot on a loaded host).
boot_watch() {
	local deadline=$((SECONDS + $2))
	boot_failed=''
	while kill -0 "$1" 2>/dev/null; do
		started && return
		if [ $SECONDS -ge $deadline ]; then
			boot_failed="did not start /init within $2 s (VM_BOOT_TIMEOUT): killed QEMU"
			kill -TERM "$1" 2>/dev/null || true
			return
		fi
		sleep 1
	done
	started || boot_failed="stopped before /init started"
}

started() { grep -aq '@@RAIDCLI-VM-BEGIN@@' "$work/output" 2>/dev/null; }

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
	(script=$probe ndisks=0 nvme_attached=0 nvme_slots='' megasas_disks=0; boot kvm 15) &&
		finished >/dev/null && answer=yes
	printf '%s\n%s\n' "$key" "$answer" >"$cache"
	[ $answer = yes ]
}

# the probe's boot below is bounded by its own short limit
boot_limit=${VM_BOOT_TIMEOUT:-60}
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
[ $accel = kvm ] || boot_limit=${VM_BOOT_TIMEOUT:-240}

start=$(date +%s%N)
status=0
boot $accel "$timeout" "${disks[@]}" "${nvme[@]}" "${megasas[@]}" || status=$?
if [ -n "$boot_failed" ]; then
	echo "run-in-vm: the guest $boot_failed; booting once more; its console ended with:" >&2
	tail -n 3 "$work/console" >&2 || true
	status=0
	boot $accel "$timeout" "${disks[@]}" "${nvme[@]}" "${megasas[@]}" || status=$?
	[ -z "$boot_failed" ] || echo "run-in-vm: the guest $boot_failed again" >&2
fi
elapsed_ms=$((($(date +%s%N) - start) / 1000000))

[ -z "$log" ] || cp "$work/console" "$log"
end=$(finished || true)
if [ "$status" -ne 0 ] || [ -z "$end" ]; then
	echo "run-in-vm: the VM did not finish the script (qemu exit $status," \
		"time limit ${timeout}s${boot_failed:+; the guest $boot_failed})" >&2
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
