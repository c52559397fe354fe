#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/cli-latency.sh - how long `raidcli /call show all J` takes on two
# soft controllers of 16 drives each, next to the cost of starting a trivial
# process (/bin/true) measured in the same run. Target: median <= 10 ms.
# Given a second binary (an older build), runs it side by side on its own
# copy of the same configuration and prints new/old ratios: these machines
# are too noisy to compare figures from different runs.
#
# Usage: bench/cli-latency.sh [path/to/raidcli [path/to/baseline-raidcli]]
#        (default: build/cli/raidcli, no baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
raidcli=$(realpath "${1:-build/cli/raidcli}")
baseline=${2:+$(realpath "$2")}
command -v hyperfine >/dev/null || { echo "bench: needs hyperfine (scripts/setup)" >&2; exit 1; }

work=$(mktemp -d /dev/shm/raidcli-bench.XXXXXX)
out=$(mktemp)
trap 'rm -rf "$work" "$out" "$out".?' EXIT

# Each binary gets its own state directory, made by itself.
binaries=(new "$raidcli")
[ -n "$baseline" ] && binaries+=(old "$baseline")
rcl() { # rcl NAME words...: run binary NAME on its own state directory
	local name=$1 bin
	shift
	[ "$name" = new ] && bin=$raidcli || bin=$baseline
	RAIDCLI_STATE_DIR="$work/$name" "$bin" "$@"
}
for ((i = 0; i < ${#binaries[@]}; i += 2)); do
	mkdir -p "$work/${binaries[i]}"
	rcl "${binaries[i]}" add controller type=soft drives=16 size=1GB >/dev/null
	rcl "${binaries[i]}" add controller type=soft drives=16 size=1GB >/dev/null
done

# hyperfine runs one command's runs back to back; load that drifts during
# the run would favour one binary. So the commands run in five rounds of
# 60 runs, every other round in reverse order, and the rounds are pooled.
measure() {
	local cmds=(-n true /bin/true) i name round rev
	for ((i = 0; i < ${#binaries[@]}; i += 2)); do
		name=${binaries[i]}
		cmds+=(-n "show-all-$name" "env RAIDCLI_STATE_DIR=$work/$name ${binaries[i + 1]} /call show all J"
		       -n "drives-all-$name" "env RAIDCLI_STATE_DIR=$work/$name ${binaries[i + 1]} /call/eall/sall show all J")
	done
	for round in 1 2 3 4 5; do
		rev=()
		for ((i = ${#cmds[@]} - 3; i >= 0; i -= 3)); do rev+=("${cmds[@]:i:3}"); done
		if ((round % 2)); then set -- "${cmds[@]}"; else set -- "${rev[@]}"; fi
		hyperfine -N --style none --warmup 10 --runs 60 --export-json "$out.$round" "$@" >/dev/null 2>&1
	done
	python3 - "$title" "$out".? <<'PY'
import json, statistics, sys
runs = {}
for path in sys.argv[2:]:
    for r in json.load(open(path))["results"]:
        runs.setdefault(r["command"], []).extend(r["times"])
med = {name: statistics.median(t) * 1e3 for name, t in runs.items()}
print("\n%s" % sys.argv[1])
print("%-44s %10s %10s %8s" % ("command", "median ms", "p90 ms", "x true"))
labels = {"show-all": "raidcli /call show all J", "drives-all": "raidcli /call/eall/sall show all J"}
for name in sorted(runs, key=lambda n: (n != "true", n)):
    times = runs[name]
    stem, _, build = name.rpartition("-")
    label = "/bin/true" if name == "true" else "%s (%s)" % (labels[stem], build)
    p90 = sorted(times)[int(len(times) * 0.9)] * 1e3
    print("%-44s %10.2f %10.2f %8.1f" % (label, med[name], p90, med[name] / med["true"]))
for stem in labels:
    if stem + "-old" in med:
        print("%s: new/old %.3f (target <= 1.10)" % (labels[stem], med[stem + "-new"] / med[stem + "-old"]))
print("target: /call show all J median <= 10 ms: %s" % ("met" if med["show-all-new"] <= 10 else "NOT met"))
PY
}

title="2 controllers x 16 unconfigured drives" measure
# The same drives carrying their configuration: four RAID5 VDs per controller,
# so every command reads 32 GPTs, records and md superblocks.
for ((i = 0; i < ${#binaries[@]}; i += 2)); do
	for c in 0 1; do
		for first in 0 4 8 12; do
			rcl "${binaries[i]}" /c$c add vd type=raid5 drives=252:$first-$((first + 3)) >/dev/null
		done
	done
done
title="2 controllers x 16 drives in 8 RAID5 VDs" measure
