#!/bin/bash
# SPDX-License-Identifier: MIT
#
# test-storcli-py.sh - Prometheus' storcli.py exporter (Debian package
# prometheus-node-exporter-collectors), unchanged, pointed at raidcli.
#
# storcli.py gives full metrics only for the megaraid_sas and mpt3sas
# drivers. raidcli reports its own driver, so by default the exporter emits
# the controller_info metric alone; with "set storclicompat=megaraid_sas"
# it must take its MegaRAID path and report every controller, VD and drive
# with its state, writing nothing to stderr.
set -euo pipefail
exporter=/usr/share/prometheus-node-exporter-collectors/storcli.py
if [ ! -f "$exporter" ]; then
	echo "SKIP: $exporter not installed (scripts/setup installs it)"
	exit 77
fi
RAIDCLI_STATE_DIR=$(mktemp -d /dev/shm/raidcli-consumer.XXXXXX)
export RAIDCLI_STATE_DIR
trap 'rm -rf "$RAIDCLI_STATE_DIR"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# The exporter's metrics; its stderr must stay empty.
scrape() {
	/usr/bin/python3 "$exporter" --storcli_path "$RAIDCLI" 2>"$RAIDCLI_STATE_DIR/stderr"
	if [ -s "$RAIDCLI_STATE_DIR/stderr" ]; then
		fail "storcli.py wrote to stderr:"
		cat "$RAIDCLI_STATE_DIR/stderr"
	fi
}

expect() {
	grep -qxF "$1" <<<"$metrics" || fail "expected metric line: $1"
}

"$RAIDCLI" add controller type=soft drives=4 size=64MB >/dev/null
"$RAIDCLI" add controller type=soft drives=2 size=64MB >/dev/null
"$RAIDCLI" /c0 add vd r1 drives=252:0-1 name=mirror >/dev/null
serial=$("$RAIDCLI" /c0 show J | /usr/bin/python3 -c \
	'import json,sys; print(json.load(sys.stdin)["Controllers"][0]["Response Data"]["Serial Number"])')
info="megaraid_controller_info{controller=\"0\",model=\"raidcli Soft RAID\",serial=\"$serial\",fwversion=\"0.1.0\"} 1.0"

# Off (the default): raidcli's own driver name, which the exporter does not know.
metrics=$(scrape)
expect "$info"
if grep -q '^megaraid_healthy' <<<"$metrics"; then
	fail "the MegaRAID path was taken without storclicompat"
fi

"$RAIDCLI" /c0 set storclicompat=megaraid_sas >/dev/null
"$RAIDCLI" /c1 set storclicompat=megaraid_sas >/dev/null
# The mode is persisted, and show all says why the driver name changed.
grep -qxF 'StorCLI Compatibility = megaraid_sas' <<<"$("$RAIDCLI" /c0 show all)" ||
	fail "show all does not show the compatibility mode"
"$RAIDCLI" /c0/e252/s1 set offline >/dev/null
metrics=$(scrape)
echo "$metrics"
expect "$info"
for c in 0 1; do
	expect "megaraid_healthy{controller=\"$c\"} 1.0"
	expect "megaraid_scheduled_patrol_read{controller=\"$c\"} 1.0"
done
expect 'megaraid_physical_drives{controller="0"} 4.0'
expect 'megaraid_physical_drives{controller="1"} 2.0'
expect 'megaraid_drive_groups{controller="0"} 1.0'
expect 'megaraid_virtual_drives{controller="0"} 1.0'
expect 'megaraid_virtual_drives{controller="1"} 0.0'
expect 'megaraid_vd_info{controller="0",DG="0",VG="0",name="mirror",cache="RWTD",type="RAID1",state="Dgrd"} 1.0'
for pd in 0:0:Onln:0 0:1:Offln:0 0:2:UGood:- 0:3:UGood:- 1:0:UGood:- 1:1:UGood:-; do
	IFS=: read -r c s state dg <<<"$pd"
	grep -q "^megaraid_pd_info{controller=\"$c\",enclosure=\"252\",slot=\"$s\",.*DG=\"$dg\",state=\"$state\"" <<<"$metrics" ||
		fail "no pd_info for /c$c/e252/s$s in state $state"
	grep -q "^megaraid_pd_media_errors{controller=\"$c\",enclosure=\"252\",slot=\"$s\"} 0.0" <<<"$metrics" ||
		fail "no pd_media_errors for /c$c/e252/s$s"
done
names=$(grep -v '^#' <<<"$metrics" | sed 's/[{ ].*//' | sort -u | wc -l)
echo "$names metric names"
echo "$((1 - (failed > 0))) passed, $((failed > 0)) failed"
exit $((failed > 0))
