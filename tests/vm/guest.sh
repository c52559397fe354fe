# SPDX-License-Identifier: MIT
#
# guest.sh - shell functions for the scripts the vm tests run inside the VM
# (busybox sh). vmtest.py puts this file in front of each script.
#
# Output for the host is "KEY=VALUE" lines under a "@ KIND NAME" header, so
# the host parses one simple format (vmtest.parse_records).

# sysattr VAR FILE: VAR set to FILE's first line (a sysfs attribute), or
# empty when FILE cannot be read, with no process started: under TCG a
# $(cat FILE) forks and execs for some 7 ms, the shell's read takes 0.1 ms,
# and the loops below read hundreds of attributes.
sysattr() {
	eval "$1="
	IFS= read -r "$1" 2>/dev/null <"$2"
	return 0
}

# disks: one "@ disk NAME" record per attached disk with its kernel name and
# its partitions (GPT names, which the kernel reads into PARTNAME).
disks() {
	for link in /dev/disk/by-name/*; do
		dev=$(readlink "$link")
		dev=${dev##*/}
		echo "@ disk ${link##*/}"
		echo "dev=$dev"
		for part in "/sys/block/$dev/$dev"*; do
			[ -e "$part/partition" ] || continue
			name=$(sed -n 's/^PARTNAME=//p' "$part/uevent")
			echo "part_${part##*/}=$name"
		done
	done
}

# arrays KIND: one "@ KIND mdN" record per running md array: mdadm --detail
# --export (MD_UUID, MD_LEVEL, MD_DEVICES, MD_DEVICE_dev_X_ROLE, ...) and
# what the kernel says in sysfs.
arrays() {
	for md in /sys/block/md*; do
		[ -e "$md/md/array_state" ] || continue
		name=${md##*/}
		echo "@ $1 $name"
		mdadm --detail --export "/dev/$name"
		for attr in level raid_disks chunk_size array_state degraded sync_action \
			resync_start mismatch_cnt layout; do
			sysattr value "$md/md/$attr"
			echo "sys_$attr=$value"
		done
		sysattr value "$md/size"
		echo "sys_sectors=$value"
	done
}

# wait_idle MD: wait until md MD's resync, recovery or check has finished.
wait_idle() {
	while sysattr action "/sys/block/$1/md/sync_action" && [ "$action" != idle ]; do
		sleep 0.2
	done
	# md marks an idle array clean after safe_mode_delay (200 ms)
	sleep 0.5
}

# wait_all_idle: wait_idle for every running md array (safe_mode_delay's
# sleep once, not once an array: tens of arrays idle at once).
wait_all_idle() {
	for md in /sys/block/md*; do
		[ -e "$md/md/sync_action" ] || continue
		while sysattr action "$md/md/sync_action" && [ "$action" != idle ]; do
			sleep 0.2
		done
	done
	sleep 0.5
}

# check_array MD: md's own consistency check (parity, mirrors); the count of
# mismatching sectors it found is in the next arrays record.
check_array() {
	echo check >"/sys/block/$1/md/sync_action"
	wait_idle "$1"
}

# stop_all: stop every md array, top arrays (those on other arrays) first,
# and wait until the kernel has removed them.
stop_all() {
	for _ in 1 2; do
		for md in /sys/block/md*; do
			[ -e "$md/md/array_state" ] || continue
			[ -n "$(ls "$md/holders")" ] && continue
			mdadm --stop "/dev/${md##*/}" >/dev/null 2>&1
		done
	done
	tries=0
	while set -- /sys/block/md* && [ -e "$1" ]; do
		tries=$((tries + 1))
		[ $tries -lt 50 ] || { echo "stop_all: arrays left:" /sys/block/md*; return 1; }
		sleep 0.1
	done
}

# md_by_uuid UUID: the kernel name (mdN) of the running array with md UUID
# UUID (as mdadm prints it); fails when none runs.
md_by_uuid() {
	for md in /sys/block/md*; do
		[ -e "$md/md/array_state" ] || continue
		mdadm --detail --export "/dev/${md##*/}" 2>/dev/null | grep -qx "MD_UUID=$1" || continue
		echo "${md##*/}"
		return 0
	done
	echo "md_by_uuid: no running array has UUID $1" >&2
	return 1
}

# check_redundant: md's check of every running array that has redundancy,
# all at once (md runs those sharing disks one after another), then one
# wait_all_idle rather than one wait each.
check_redundant() {
	for md in /sys/block/md*; do
		[ -e "$md/md/level" ] || continue
		sysattr level "$md/md/level"
		[ "$level" = raid0 ] || echo check >"$md/md/sync_action"
	done
	wait_all_idle
}

# host_qmp COMMAND [ARGUMENTS]: have the host run QEMU monitor (QMP) command
# COMMAND with ARGUMENTS (a JSON object) and wait until it is done
# (run-in-vm.sh's vmhost.py, over the third serial port; a device_del is done
# once the device is gone from the guest). Prints QMP's return value as JSON;
# fails with QEMU's error on stderr.
host_qmp() {
	echo "$1 ${2:-}" >&9
	IFS= read -r reply <&9 || { echo "host_qmp $1: no answer from the host" >&2; return 1; }
	case $reply in
	"ok "*) echo "${reply#ok }" ;;
	*) echo "host_qmp $1: ${reply#error }" >&2; return 1 ;;
	esac
}

# nvme_unplug ID: hot-unplug NVMe controller ID (run-in-vm.sh --nvme-ctrl
# ID:...) and wait until the guest has let it go.
nvme_unplug() {
	host_qmp device_del "{\"id\": \"$1\"}" >/dev/null
}

# nvme_replug ID: plug NVMe controller ID back in (after nvme_unplug) as
# run-in-vm.sh had it, and wait until the kernel has it live. QEMU 7.2 cannot
# hot-plug namespaces: a controller of a subsystem comes back with the
# subsystem's shared namespaces, one alone with its first namespace only, as
# nsid 1 (vmhost.py). wait_for nvme_ns ID NSID waits for a namespace.
nvme_replug() {
	host_qmp replug "{\"id\": \"$1\"}" >/dev/null &&
		wait_for eval "[ \"\$(cat /sys/class/nvme/\$(nvme_ctrl $1)/state)\" = live ]"
}

# nvme_critical_warning ID BITS: set the critical warning of controller ID's
# SMART / health log (QEMU's smart_critical_warning; 0 clears it).
nvme_critical_warning() {
	host_qmp qom-set "{\"path\": \"/machine/peripheral/$1\", \
\"property\": \"smart_critical_warning\", \"value\": $2}" >/dev/null
}

# nvme_ctrl ID: the kernel's name (nvmeN) of NVMe controller ID
# (run-in-vm.sh --nvme-ctrl ID:...), found by its PCI slot; fails when it is
# not there (never was, or unplugged).
nvme_ctrl() {
	slot=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^vm\.nvme_slots=//p" | tr , '\n' |
		sed -n "s/^$1@//p")
	for ctrl in /sys/class/nvme/nvme*; do
		if [ -n "$slot" ] && [ "$(cat "$ctrl/address" 2>/dev/null)" = "0000:00:$slot.0" ]; then
			echo "${ctrl##*/}"
			return 0
		fi
	done
	echo "nvme_ctrl: no NVMe controller $1 here" >&2
	return 1
}

# nvme_namespaces: one "@ nvme_ns nvmeXnY" record per NVMe namespace block
# device: its nsid, logical block size, size in 512-byte sectors and the
# controllers (nvmeN, comma-separated) it is reached through: one, or a
# subsystem's shared namespace's paths (nvmeXcNnY).
nvme_namespaces() {
	for ns in /sys/block/nvme*n*; do
		[ -e "$ns/nsid" ] || continue
		name=${ns##*/}
		case $name in nvme*c*n*) continue ;; esac
		echo "@ nvme_ns $name"
		echo "nsid=$(cat "$ns/nsid")"
		echo "lbs=$(cat "$ns/queue/logical_block_size")"
		echo "sectors=$(cat "$ns/size")"
		ctrls=
		for path in "$ns" "/sys/block/${name%n*}c"*"n${name##*n}"; do
			ctrl=$(readlink "$path/device" 2>/dev/null) || continue
			case ${ctrl##*/} in nvme[0-9]*) ctrls=${ctrls:+$ctrls,}${ctrl##*/} ;; esac
		done
		echo "ctrls=$ctrls"
	done
}

# nvme_ns ID NSID: the block device (nvmeXnY) of namespace NSID as NVMe
# controller ID reaches it (a subsystem's shared namespace: its multipath
# device); fails when NSID is not attached to ID.
nvme_ns() {
	ctrl=$(nvme_ctrl "$1") || return 1
	for path in "/sys/class/nvme/$ctrl/nvme"*n*; do
		[ "$(cat "$path/nsid" 2>/dev/null)" = "$2" ] || continue
		name=${path##*/}
		case $name in
		nvme*c*n*) echo "${name%%c*}n${name##*n}" ;;
		*) echo "$name" ;;
		esac
		return 0
	done
	return 1
}

# wait_for COMMAND...: run COMMAND until it succeeds, for up to 20 s (the
# kernel scans NVMe namespaces in the background after an attach, detach or
# format); fails if it never does.
wait_for() {
	tries=0
	until "$@" >/dev/null 2>&1; do
		tries=$((tries + 1))
		[ $tries -lt 200 ] || { echo "wait_for: $* never succeeded" >&2; return 1; }
		sleep 0.1
	done
}

# cmd_record NAME COMMAND...: record "@ cmd NAME" with COMMAND's exit status
# (rc), its output on one line (out: nvme-cli's -o json, say, for
# vmtest.cmd_records to parse) and its stderr on one line (err).
cmd_record() {
	echo "@ cmd $1"
	shift
	out=$("$@" 2>/tmp/cmd_record.err)
	echo "rc=$?"
	echo "out=$(printf %s "$out" | tr '\n' ' ')"
	echo "err=$(tr '\n' ' ' </tmp/cmd_record.err)"
}

# megaraid_hosts: one "@ scsi_host hostN" record per SCSI host of the
# megaraid_sas driver (QEMU's megasas-gen2 cards): its PCI address and ids as
# the kernel read them, the driver bound to the PCI device and its version.
megaraid_hosts() {
	for host in /sys/class/scsi_host/host*; do
		[ "$(cat "$host/proc_name" 2>/dev/null)" = megaraid_sas ] || continue
		pci=$(readlink -f "$host/device/..")
		echo "@ scsi_host ${host##*/}"
		echo "proc_name=megaraid_sas"
		echo "pci=${pci##*/}"
		for id in vendor device subsystem_vendor subsystem_device; do
			echo "$id=$(cat "$pci/$id")"
		done
		driver=$(readlink "$pci/driver")
		echo "driver=${driver##*/}"
		echo "driver_version=$(cat /sys/module/megaraid_sas/version 2>/dev/null)"
	done
}

# scsi_disks: one "@ scsi_disk sdX" record per SCSI disk: its host, channel,
# target and LUN, what its standard INQUIRY and VPD page 0x80 say (through
# sysfs, and sg_inq's raw bytes in hex), its size in 512-byte sectors and
# READ CAPACITY's answer (sg_readcap: last LBA, block length).
scsi_disks() {
	for disk in /sys/block/sd*; do
		[ -e "$disk/device" ] || continue
		hctl=$(readlink -f "$disk/device")
		echo "@ scsi_disk ${disk##*/}"
		echo "hctl=${hctl##*/}"
		for attr in vendor model rev; do
			echo "$attr=$(sed 's/ *$//' "$disk/device/$attr")"
		done
		# VPD 0x80: a 4-byte header, then the serial
		echo "serial=$(tail -c +5 "$disk/device/vpd_pg80" 2>/dev/null)"
		echo "sectors=$(cat "$disk/size")"
		echo "lbs=$(cat "$disk/queue/logical_block_size")"
		echo "inquiry=$(sg_inq -r "/dev/${disk##*/}" 2>/dev/null | od -An -tx1 | tr -d ' \n')"
		sg_readcap "/dev/${disk##*/}" 2>/dev/null |
			sed -n 's/.*Last LBA=\([0-9]*\).*/readcap_last_lba=\1/p
s/.*Logical block length=\([0-9]*\) bytes.*/readcap_block_length=\1/p'
	done
}
