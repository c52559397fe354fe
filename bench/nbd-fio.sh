#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/nbd-fio.sh - soft RAID volumes served over NBD by the controller
# process, next to a JBOD of the same member files served by nbdkit's file
# plugin (one export per member, the fio jobs spread over them), measured
# in the same run with the fio profiles that reviews of NVMe RAID cards
# use. Each profile runs --repeat times on each side in alternating order
# (JBOD VD VD JBOD ...); the table shows the medians of each side, the
# median of the ratios of the runs made one after the other (these
# machines go through phases of several seconds in which every run is
# twice as fast or slow, both sides alike: a ratio of medians taken
# across phases measures the phases), the issue's target, and the spread
# of those ratios (max/min - 1), so a noisy machine shows as such. Then: RAID5 random reads with a
# member offline against the same VD whole, and the controller process's
# memory with 16 VDs exported and in use.
#
# Usage: bench/nbd-fio.sh [--backing tmpfs|disk] [--levels raid0,raid5,...]
#                         [--member-size 1GB] [--runtime SECONDS]
#                         [--repeat N] [--wrcache wt|wb] [--profiles a,b]
#                         [--strip KB] [--cache cold|warm] [--no-rss] [raidcli]
# --backing disk puts the member files under /var/tmp (default /dev/shm).
# --strip gives the VDs that strip size (default: add vd's, 64 KB).
# --cache, on disk: each run starts with the member files out of the page
# cache (cold, the default) or read back into it (warm): see
# drop_member_cache.
# --wrcache gives the VDs that write policy (default: the VD default, wt).
# --profiles runs only the named profiles (default: all), e.g.
# seq-write-128k,rand-write-4k; the degraded row comes with rand-read-4k.
set -euo pipefail
cd "$(dirname "$0")/.."

backing=tmpfs
levels=raid0,raid1,raid10,raid5,raid6
member_size=1GB
runtime=5
repeat=2
wrcache=wt
strip=
cache=cold
only=
rss=1
while [ $# -gt 0 ]; do
	case "$1" in
	--backing) backing=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--member-size) member_size=$2; shift 2 ;;
	--runtime) runtime=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--wrcache) wrcache=$2; shift 2 ;;
	--strip) strip=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--profiles) only=,$2,; shift 2 ;;
	--no-rss) rss=0; shift ;;
	-*) echo "bench: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
raidcli=$(realpath "${1:-build/cli/raidcli}")
for tool in fio nbdkit python3; do
	command -v $tool >/dev/null || { echo "bench: needs $tool (scripts/setup)" >&2; exit 1; }
done

case "$backing" in
tmpfs) base=/dev/shm ;;
disk) base=/var/tmp ;;
*) echo "bench: --backing is tmpfs or disk" >&2; exit 2 ;;
esac
case "$cache" in
cold | warm) ;;
*) echo "bench: --cache is cold or warm" >&2; exit 2 ;;
esac
work=$(mktemp -d "$base/raidcli-bench.XXXXXX")
export RAIDCLI_STATE_DIR=$work/state
nbdkit_pids=()
stop_jbod() {
	for pid in "${nbdkit_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${nbdkit_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	nbdkit_pids=()
}
cleanup() {
	stop_jbod
	"$raidcli" /c0 stop service >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

declare -A members=([raid0]=4 [raid1]=2 [raid10]=4 [raid5]=4 [raid6]=5)
declare -A parity=([raid5]=1 [raid6]=2)

wait_socket() {
	for _ in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.05; done
	echo "bench: no socket at $1" >&2
	exit 1
}

# drop_member_cache: on disk, every member file (the VD's and the JBOD's)
# is written back and leaves the page cache before each run, so each run
# finds both sides the same: else a file's cached folios are as large as
# the writes that last filled it (the VD's fill, cp for the JBOD), and on
# ext4 a 4K write into a large folio costs several times one into a small
# one, which measured the way each side was filled, not its engine.
# --cache warm then reads every file back the same way: cold, a RAID5/6
# random write reads its old data and parity from the device while the
# JBOD's writes land in the page cache and never wait for it; warm, both
# sides write into the page cache and the device takes the writeback.
drop_member_cache() {
	[ "$backing" = disk ] || return 0
	local f
	for f in "$RAIDCLI_STATE_DIR"/images/*/drive*.img "$work"/m*.img; do
		[ -e "$f" ] || continue
		dd of="$f" oflag=nocache conv=notrunc,fdatasync count=0 status=none
		[ "$cache" = cold ] || dd if="$f" of=/dev/null bs=1M status=none
	done
}

# fio_run RW BS QD JOBS MIX URI... -> prints MB/s. The jobs spread over the
# URIs keeping the total I/O depth (JOBS x QD) and at least one connection
# per URI, so one VD and N member exports get the same load. Both sides get
# at least $min_conns connections (fio jobs, each a client thread of its
# own), the JBOD's member count: else a 1-job profile would have N clients
# and N connections on the JBOD and one of each on the VD, which
# advertises multi-conn for clients to use.
min_conns=1
fio_run() {
	drop_member_cache
	local rw=$1 bs=$2 qd=$3 jobs=$4 mix=$5; shift 5
	if [ "$jobs" -lt "$min_conns" ]; then
		qd=$(((qd * jobs + min_conns - 1) / min_conns))
		jobs=$min_conns
	fi
	local per_uri_jobs=$(((jobs + $# - 1) / $#)) depth job=$work/job.fio i=0
	depth=$((qd * jobs / ($# * per_uri_jobs)))
	[ "$depth" -ge 1 ] || depth=1
	{
		printf '[global]\nioengine=nbd\nrw=%s\nbs=%s\niodepth=%s\n' "$rw" "$bs" "$depth"
		printf 'time_based=1\nruntime=%s\nramp_time=1\ngroup_reporting=1\n' "$runtime"
		[ -n "$mix" ] && printf 'rwmixread=%s\n' "$mix"
		# Clones of a job on one URI each get their own slice of it, as
		# each JBOD job has a member of its own: else the VD's sequential
		# writers would all write the same stripes at once.
		if [ "$per_uri_jobs" -gt 1 ]; then
			printf 'size=%d%%\noffset_increment=%d%%\n' \
				$((100 / per_uri_jobs)) $((100 / per_uri_jobs))
		fi
		for uri in "$@"; do
			printf '[j%d]\nuri=%s\nnumjobs=%d\n' $i "$uri" $per_uri_jobs
			i=$((i + 1))
		done
	} >"$job"
	# fio's nbd engine chats on stdout, so the report goes to a file.
	fio --output-format=json --output="$job.json" "$job" >/dev/null 2>&1
	python3 -c '
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
print("%.1f" % ((job["read"]["bw_bytes"] + job["write"]["bw_bytes"]) / 1e6))' "$job.json"
}

# stats MB/s... -> "median spread": spread is max/min - 1, in percent.
stats() {
	python3 -c '
import statistics, sys
v = [float(x) for x in sys.argv[1:]]
print("%.1f %.0f" % (statistics.median(v), (max(v) / max(min(v), 0.1) - 1) * 100))' "$@"
}

# ratios A... B... -> "median spread": the median of B_i / A_i, and the
# spread of those ratios (max/min - 1) in percent.
ratios() {
	python3 -c '
import statistics, sys
v = [float(x) for x in sys.argv[1:]]
n = len(v) // 2
r = [b / max(a, 0.1) for a, b in zip(v[:n], v[n:])]
print("%.2f %.0f" % (statistics.median(r), (max(r) / max(min(r), 0.001) - 1) * 100))' "$@"
}

# measure A_URIS B_URIS PROFILE -> "A_median B_median ratio spread%":
# --repeat runs of each, alternating which goes first (A B B A A B ...),
# and the median of the B/A ratios of the pairs run back to back.
measure() {
	local -n a_uris=$1 b_uris=$2
	local rw bs qd jobs mix a=() b=() r
	read -r _ rw bs qd jobs mix <<<"$3"
	[ "$mix" = - ] && mix=
	for ((r = 0; r < repeat; r++)); do
		if ((r % 2 == 0)); then
			a+=("$(fio_run "$rw" "$bs" "$qd" "$jobs" "$mix" "${a_uris[@]}")")
			b+=("$(fio_run "$rw" "$bs" "$qd" "$jobs" "$mix" "${b_uris[@]}")")
		else
			b+=("$(fio_run "$rw" "$bs" "$qd" "$jobs" "$mix" "${b_uris[@]}")")
			a+=("$(fio_run "$rw" "$bs" "$qd" "$jobs" "$mix" "${a_uris[@]}")")
		fi
	done
	read -r a_med _ < <(stats "${a[@]}")
	read -r b_med _ < <(stats "${b[@]}")
	echo "$a_med $b_med $(ratios "${a[@]}" "${b[@]}")"
}

profiles=(
	# name rw bs qd jobs rwmixread
	"seq-read-128k read 128k 64 1 -"
	"seq-write-128k write 128k 16 1 -"
	"rand-read-4k randread 4k 32 4 -"
	"rand-write-4k randwrite 4k 32 4 -"
	"mixed-70/30-4k randrw 4k 32 4 70"
)

# target LEVEL PROFILE -> the issue's target as a fraction of JBOD, or "-".
# RAID5/6 sequential writes: 0.85 of the data drives' share of the JBOD.
target() {
	local level=$1 n=${members[$1]} p=${parity[$1]:-0}
	case "$level:$2" in
	raid0:*) echo 0.90 ;;
	raid1:*read* | raid10:*read*) echo 0.90 ;;
	raid1:rand-write* | raid10:rand-write*) echo 0.45 ;;
	raid5:rand-write*) echo 0.22 ;;
	raid6:rand-write*) echo 0.15 ;;
	raid5:seq-write* | raid6:seq-write*) python3 -c "print('%.2f' % (0.85 * ($n - $p) / $n))" ;;
	*) echo - ;;
	esac
}

row() { # level profile a b ratio spread target
	local verdict=
	if [ "$7" != - ]; then
		verdict=$(python3 -c "print('ok' if $5 >= $7 else 'BELOW')")
	fi
	printf '%-7s %-18s %10s %10s %6s %6s %-5s %5s%%\n' "$1" "$2" "$3" "$4" "$5" "$7" \
		"$verdict" "$6"
}

# start_vd LEVEL: a fresh controller with one VD of LEVEL over all its
# drives, exported; sets vd_uri and fills the VD with data (and parity):
# sparse files read back as zeros at a speed no drive has. Then waits for
# the background initialization of a redundant VD, which else reads every
# member under the first profiles measured.
start_vd() {
	local n=${members[$1]} sock=$work/vd.sock
	"$raidcli" /c0 stop service >/dev/null 2>&1 || true
	rm -rf "$RAIDCLI_STATE_DIR"
	"$raidcli" add controller type=soft drives="$n" size="$member_size" >/dev/null
	"$raidcli" /c0 add vd type="$1" drives=252:0-$((n - 1)) wrcache="$wrcache" \
		${strip:+strip=$strip} >/dev/null
	"$raidcli" /c0/v0 start export socket="$sock" >/dev/null
	vd_uri=("nbd+unix:///?socket=$sock")
	fio --name=fill --ioengine=nbd --uri="${vd_uri[0]}" --rw=write --bs=1M --iodepth=16 \
		>/dev/null 2>&1
	"$raidcli" /c0/v0 show bgi wait >/dev/null
}

# start_jbod: nbdkit serves a copy of each member image file (written
# through the JBOD, the members themselves would lose their superblocks and
# the VD its data); sets jbod_uris.
start_jbod() {
	local i=0 img
	jbod_uris=()
	for img in "$RAIDCLI_STATE_DIR"/images/*/drive*.img; do
		cp "$img" "$work/m$i.img"
		rm -f "$work/m$i.sock" # a socket left behind would pass for this one
		nbdkit -f -U "$work/m$i.sock" file file="$work/m$i.img" &
		nbdkit_pids+=($!)
		wait_socket "$work/m$i.sock"
		jbod_uris+=("nbd+unix:///?socket=$work/m$i.sock")
		i=$((i + 1))
	done
}

# The RAID5 VD with member 0 offline, against itself whole (the issue:
# degraded random reads >= 0.50 of optimal).
degraded_row() {
	local p="rand-read-4k randread 4k 32 4 -" whole degraded state
	read -r whole _ _ _ < <(measure vd_uri vd_uri "$p")
	"$raidcli" /c0/e252/s0 set offline >"$work/offline.txt" || { cat "$work/offline.txt" >&2; exit 1; }
	state=$("$raidcli" /c0/v0 show J | python3 -c '
import json, sys
print(json.load(sys.stdin)["Controllers"][0]["Response Data"]["Virtual Drives"][0]["State"])')
	[ "$state" = Dgrd ] || { echo "bench: v0 is $state, not Dgrd" >&2; exit 1; }
	local runs=()
	for ((r = 0; r < repeat; r++)); do
		runs+=("$(fio_run randread 4k 32 4 "" "${vd_uri[@]}")")
	done
	read -r degraded spread < <(stats "${runs[@]}")
	echo "(the ratio is degraded / whole, medians; columns: whole MB/s, degraded MB/s;"
	echo " spread: of the degraded runs)"
	row raid5 "dgrd-rand-read-4k" "$whole" "$degraded" \
		"$(python3 -c "print('%.2f' % ($degraded / max($whole, 0.1)))")" "$spread" 0.50
}

# The controller process's memory with 16 VDs exported, each read and
# written by a client for a second (so every export's threads and request
# buffers exist): VmRSS now and VmHWM, its peak.
rss_row() {
	local i pid
	"$raidcli" /c0 stop service >/dev/null 2>&1 || true
	rm -rf "$RAIDCLI_STATE_DIR"
	# A drive group takes at most 8 VDs: two groups of 4 drives.
	"$raidcli" add controller type=soft drives=8 size="$member_size" >/dev/null
	for i in $(seq 0 15); do
		"$raidcli" /c0 add vd type=raid5 drives=252:$((i / 8 * 4))-$((i / 8 * 4 + 3)) \
			size=32MB wrcache="$wrcache" >/dev/null
		"$raidcli" /c0/v$i start export socket="$work/v$i.sock" >/dev/null
	done
	for i in $(seq 0 15); do
		fio --name=warm --ioengine=nbd --uri="nbd+unix:///?socket=$work/v$i.sock" \
			--rw=randrw --bs=128k --iodepth=16 --numjobs=2 --time_based --runtime=1 \
			>/dev/null 2>&1
	done
	pid=$("$raidcli" /c0 show service J | python3 -c '
import json, sys
print(json.load(sys.stdin)["Controllers"][0]["Response Data"]["Controller Process"]["PID"])')
	echo
	echo "controller process with 16 exported VDs (target: RSS <= 64 MiB plus the configured cache):"
	awk '/^(VmRSS|VmHWM|Threads)/ {print "  " $0}' "/proc/$pid/status"
}

echo "members on $backing ($work), $member_size each, $runtime s per run," \
	"$repeat runs per side, $(nproc) CPUs, fio $(fio --version), $(nbdkit --version)," \
	"VDs wrcache=$wrcache strip=${strip:-default}$([ "$backing" = disk ] && echo ", cache $cache")"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-7s %-18s %10s %10s %6s %6s %-5s %6s\n' level profile "JBOD MB/s" "VD MB/s" ratio \
	target "" spread
for level in ${levels//,/ }; do
	[ -n "${members[$level]:-}" ] || { echo "bench: no level $level" >&2; exit 2; }
	min_conns=${members[$level]}
	start_vd "$level"
	start_jbod
	for p in "${profiles[@]}"; do
		[ -z "$only" ] || [[ "$only" == *",${p%% *},"* ]] || continue
		read -r jbod vd ratio spread < <(measure jbod_uris vd_uri "$p")
		row "$level" "${p%% *}" "$jbod" "$vd" "$ratio" "$spread" \
			"$(target "$level" "${p%% *}")"
	done
	stop_jbod
	rm -f "$work"/m*.img
	[ "$level" = raid5 ] && { [ -z "$only" ] || [[ "$only" == *,rand-read-4k,* ]]; } &&
		degraded_row
done
[ "$rss" = 1 ] && rss_row
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
