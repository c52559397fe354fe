# SPDX-License-Identifier: MIT
#
# guest.sh - shell functions for the scripts the vm tests run inside the VM
# (busybox sh). vmtest.py puts this file in front of each script.
#
# Output for the host is "KEY=VALUE" lines under a "@ KIND NAME" header, so
# the host parses one simple format (vmtest.parse_records).

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
			echo "sys_$attr=$(cat "$md/md/$attr" 2>/dev/null)"
		done
		echo "sys_sectors=$(cat "$md/size")"
	done
}

# wait_idle MD: wait until md MD's resync, recovery or check has finished.
wait_idle() {
	while [ "$(cat "/sys/block/$1/md/sync_action")" != idle ]; do
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
		while [ "$(cat "$md/md/sync_action")" != idle ]; do
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
		[ "$(cat "$md/md/level")" = raid0 ] || echo check >"$md/md/sync_action"
	done
	wait_all_idle
}
