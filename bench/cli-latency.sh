#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/cli-latency.sh - how long `raidcli /call show all J` takes on two
# soft controllers of 16 drives each, next to the cost of starting a trivial
# process (/bin/true) measured in the same run. Target: median <= 10 ms.
#
# Usage: bench/cli-latency.sh [path/to/raidcli]   (default: build/cli/raidcli)
set -euo pipefail
cd "$(dirname "$0")/.."
raidcli=$(realpath "${1:-build/cli/raidcli}")
command -v hyperfine >/dev/null || { echo "bench: needs hyperfine (scripts/setup)" >&2; exit 1; }

RAIDCLI_STATE_DIR=$(mktemp -d /dev/shm/raidcli-bench.XXXXXX)
export RAIDCLI_STATE_DIR
out=$(mktemp)
trap 'rm -rf "$RAIDCLI_STATE_DIR" "$out"' EXIT

"$raidcli" add controller type=soft drives=16 size=1GB >/dev/null
"$raidcli" add controller type=soft drives=16 size=1GB >/dev/null

measure() {
	hyperfine -N --style none --warmup 20 --runs 300 --export-json "$out" \
		-n true /bin/true \
		-n show-all "$raidcli /call show all J" \
		-n drives-all "$raidcli /call/eall/sall show all J" >/dev/null 2>&1
	python3 - "$out" "$1" <<'PY'
import json, statistics, sys
runs = {r["command"]: r["times"] for r in json.load(open(sys.argv[1]))["results"]}
base = statistics.median(runs["true"]) * 1e3
print("\n%s" % sys.argv[2])
print("%-40s %10s %10s %8s" % ("command", "median ms", "p90 ms", "x true"))
labels = {"true": "/bin/true", "show-all": "raidcli /call show all J",
          "drives-all": "raidcli /call/eall/sall show all J"}
for name, times in runs.items():
    med = statistics.median(times) * 1e3
    p90 = sorted(times)[int(len(times) * 0.9)] * 1e3
    print("%-40s %10.2f %10.2f %8.1f" % (labels[name], med, p90, med / base))
med = statistics.median(runs["show-all"]) * 1e3
print("target: /call show all J median <= 10 ms: %s" % ("met" if med <= 10 else "NOT met"))
PY
}

measure "2 controllers x 16 unconfigured drives"
# The same drives carrying their configuration: four RAID5 VDs per controller,
# so every command reads 32 GPTs, records and md superblocks.
for c in 0 1; do
	for first in 0 4 8 12; do
		"$raidcli" /c$c add vd type=raid5 drives=252:$first-$((first + 3)) >/dev/null
	done
done
measure "2 controllers x 16 drives in 8 RAID5 VDs"
