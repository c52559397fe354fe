#!/bin/bash
# SPDX-License-Identifier: MIT
#
# test-storcli-py.sh - Prometheus' storcli.py exporter (Debian package
# prometheus-node-exporter-collectors), unchanged, pointed at raidcli.
#
# storcli.py gives full metrics only for megaraid_sas and mpt3sas drivers;
# for any other driver (raidcli reports its own, honestly) it emits the
# controller_info metric. We check that it runs without error, parses our
# JSON, and reports the controller's real model, serial and firmware.
set -euo pipefail
exporter=/usr/share/prometheus-node-exporter-collectors/storcli.py
if [ ! -f "$exporter" ]; then
	echo "SKIP: $exporter not installed (scripts/setup installs it)"
	exit 77
fi
RAIDCLI_STATE_DIR=$(mktemp -d /dev/shm/raidcli-consumer.XXXXXX)
export RAIDCLI_STATE_DIR
trap 'rm -rf "$RAIDCLI_STATE_DIR"' EXIT

"$RAIDCLI" add controller type=soft drives=4 size=64MB >/dev/null
"$RAIDCLI" add controller type=soft drives=2 size=64MB >/dev/null
serial=$("$RAIDCLI" /c0 show J | /usr/bin/python3 -c \
	'import json,sys; print(json.load(sys.stdin)["Controllers"][0]["Response Data"]["Serial Number"])')

metrics=$(/usr/bin/python3 "$exporter" --storcli_path "$RAIDCLI" 2>"$RAIDCLI_STATE_DIR/stderr")
if [ -s "$RAIDCLI_STATE_DIR/stderr" ]; then
	echo "FAIL: storcli.py wrote to stderr:"
	cat "$RAIDCLI_STATE_DIR/stderr"
	exit 1
fi
echo "$metrics"
expected="megaraid_controller_info{controller=\"0\",model=\"raidcli Soft RAID\",serial=\"$serial\",fwversion=\"0.1.0\"} 1.0"
if ! grep -qxF "$expected" <<<"$metrics"; then
	echo "FAIL: expected metric line: $expected"
	exit 1
fi
echo "1 passed, 0 failed"
