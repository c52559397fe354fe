#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-stops.py - after every kind of stop, the kernel's md assembles every
VD and reads back what raidcli's export served (issue 21, "Done when").

One soft controller per kind of stop, each with every level twice over:
RAID0, 1, 5, 6, 10 (two spans of 2), 50 (two of 3) and 60 (two of 4) on
their own drives, and RAID1 to RAID60 again on other drives; each drive
group holds two VDs. The controller process fills every VD with random data
through its NBD export, all at once, and the data is read back through the
export. The exports start the background initializations (bgirate=1): the
larger VD of each optimal group has its BGI paused after its first step
while the first half of its fill is written, then resumed as the whole is
written again; at least one VD's BGI must still be paused once its first
half is written.
Then one member of each second group goes offline (two for RAID6 and 60,
both in RAID60's first span) and the first half of its VDs is written
again, degraded, and read back. Then the controller stops:
  export   every export stopped (/c0/vall stop export) with the process
           still running; the images are copied once its BGIs are done
  service  /c0 stop service
  sigterm  SIGTERM to the process started on demand
  systemd  what systemd does to raidcli@.service: the unit runs
           "raidcli /cN serve" (Type=simple) and has no ExecStop, so stop
           sends SIGTERM to its control group and waits (TimeoutStopSec,
           90 s) before SIGKILL. systemd itself cannot run here (it is not
           PID 1), so the test does that: serve in a process group of its
           own, SIGTERM to the group, wait.
  kill9    SIGKILL to the process once the degraded VDs have been idle
           long enough that their arrays are clean again (md's safe mode:
           a crash while they are active leaves them dirty, which md
           rightly refuses degraded), a new process started (start export),
           its crash resync of the optimal VDs waited for, /c0 stop service.
In a VM that has one controller's drives, mdadm --assemble --scan (with
the mdadm.conf that mdadm --examine --scan writes) must start every VD,
optimal or degraded, its sha256 must be what the export returned, and
md's check of every optimal redundant array (RAID50/60: each span) must
find no mismatch.

Arguments (for a run by hand): the kinds of stop to test, all by default.
"""
import hashlib
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from vmtest import (Controller, by_kind, check, expect, finish,  # noqa: E402
                    parse_records, run_vm, scratch)

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'server'))
from rcltest import wait_for  # noqa: E402

# Level, drives, drives a span, members taken offline (first group: none).
LEVELS = [('RAID0', 2, None, 0), ('RAID1', 2, None, 1), ('RAID5', 3, None, 1),
          ('RAID6', 4, None, 2), ('RAID10', 4, 2, 1), ('RAID50', 6, 3, 1),
          ('RAID60', 8, 4, 2)]
# Two VDs in each drive group: small, so fills, hashes and md's checks are
# quick under TCG, yet several stripes of every layout. The BGI sweeps 4 MiB
# of member space a step (lib/soft/tasks/sweep.c) and ends at its last step: the
# first VD of each optimal redundant group, three steps or more at every
# level, is the one whose BGI can still be running when its fill starts.
VD_SIZES = ['2MB', '1MB']
BGI_VD_SIZES = ['10MB', '1MB']
STOPS = ['export', 'service', 'sigterm', 'systemd', 'kill9']
# Disks a VM: run-in-vm.sh takes 224, but under TCG a Debian kernel with
# 150 or 168 did not reach the script's output (write error on its serial
# port), and 56 boot in about 9 s of CPU time: one controller a VM.
MAX_DISKS = 56


def md_super(image, vd):
    """(events, clean) of VD @vd's md superblock on drive @image: in its GPT
    partition "raidcli vN" (512-byte sectors), 4 KiB in (md v1.2); clean
    when resync_offset is all ones. None when there is no such partition."""
    with open(image, 'rb') as f:
        f.seek(512)
        entries, count, size = struct.unpack_from('<QII', f.read(92), 72)
        f.seek(entries * 512)
        table = f.read(count * size)
        for i in range(count):
            entry = table[i * size:(i + 1) * size]
            if entry[56:128].decode('utf-16-le').rstrip('\0') == f'raidcli v{vd}':
                f.seek(struct.unpack_from('<Q', entry, 32)[0] * 512 + 4096 + 200)
                events, resync = struct.unpack('<QQ', f.read(16))
                return events, resync == (1 << 64) - 1
    return None


def gone(pid):
    """Whether process @pid has exited (a zombie counts: it holds nothing)."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'Z'
    except OSError:
        return True


class Scenario:
    """A controller for one kind of stop: its drive groups, VDs and what
    their exports returned."""

    def __init__(self, stop, root):
        self.stop = stop
        self.root = root
        self.groups = []  # (level, slots, degraded: slots taken offline)
        self.serve = None
        slots = []
        for degraded in (False, True):
            for level, n, per_span, offline in LEVELS:
                if degraded and not offline:
                    continue
                first = len(slots)
                slots += range(first, first + n)
                self.groups.append((level, list(range(first, first + n)), per_span,
                                    list(range(first, first + offline)) if degraded else []))
        self.ctl = Controller(os.path.join(root, 's'), len(slots), size='16MB',
                              prefix=f'{stop[0]}', label=stop)
        self.ctl.cli('/c0', 'set', 'bgirate=1')
        for level, group, per_span, offline in self.groups:
            long_bgi = not offline and level != 'RAID0'
            for size in BGI_VD_SIZES if long_bgi else VD_SIZES:
                args = ['/c0', 'add', 'vd', f'type={level.lower()}',
                        f'drives=252:{group[0]}-{group[-1]}', f'size={size}']
                if per_span:
                    args.append(f'pdperarray={per_span}')
                self.ctl.cli(*args)
        self.vds = {vd['vd']: vd for vd in self.ctl.vds()}
        # the VDs paused in their BGI until their fills: each group's first
        self.bgi_vds = [min(self.group_vds(group)) for level, group, _, offline in self.groups
                        if not offline and level != 'RAID0']
        self.expected = {}  # VD number -> sha256 the export returned
        self.degraded_vds = set()
        self.filled_during_bgi = set()

    def tag(self, vd):
        return f'{self.stop}: v{vd} {self.vds[vd]["level"]}' + (
            ' degraded' if vd in self.degraded_vds else '')

    def group_vds(self, group):
        return [n for n, vd in self.vds.items() if {m[0] for m in vd['members']} == set(group)]

    @staticmethod
    def uri(row):
        return f'nbd+unix:///{row["Export Name"]}?socket={row["Address"][len("unix:"):]}'

    def export(self, vd):
        return self.uri(self.ctl.json(f'/c0/v{vd}', 'start', 'export')['Export LIST'][0])

    def export_all(self):
        """Every VD's export, started in one command: VD number -> NBD URI."""
        rows = self.ctl.json('/c0/vall', 'start', 'export')['Export LIST']
        return {int(r['DG/VD'].split('/')[1]): self.uri(r) for r in rows}

    def pid(self):
        proc = self.ctl.json('/c0', 'show', 'service')['Controller Process']
        return proc.get('PID')

    def consistent(self, vds):
        rows = self.ctl.json('/c0/vall', 'show').get('Virtual Drives', [])
        return all(r['Consist'] == 'Yes' for r in rows
                   if int(r['DG/VD'].split('/')[1]) in vds)

    def paused_bgis(self, vds):
        """Which of VDs @vds have their BGI paused (so still in progress)."""
        target = '/c0/v' + ','.join(map(str, vds))
        return {int(r['VD']) for r in self.ctl.json(target, 'show', 'bgi').get(
            'VD Operation Status', []) if r.get('Status') == 'Paused'}

    def pause_bgis(self):
        """Pauses the BGIs of self.bgi_vds the process started as it started
        (in the rest after their first step): which ones it paused."""
        self.ctl.cli('/c0/v' + ','.join(map(str, self.bgi_vds)), 'pause', 'bgi',
                     expect_rc=None)
        return self.paused_bgis(self.bgi_vds)

    def fill(self, vd, uri, length, paused=False):
        """Writes @length random bytes at the start of VD @vd through its
        export, then reads the whole VD back: its sha256 is what md must read.
        @paused: the VD's BGI is paused after its first step. The first half
        is written while it stays so, and the VD counts as filled during its
        BGI if it is still paused then: a paused BGI neither ends nor moves,
        so it was in progress for each of those writes. The BGI is resumed
        once the whole has begun to be written again, so that these writes
        meet its steps too (a resumed BGI runs its next step at once); they
        go one 4 KiB request at a time, so that they last: at bgirate=1 a
        BGI rests 99 times as long as a step took, yet on tmpfs a step takes
        well under a millisecond. Whether they outlast the BGI is up to the
        scheduler, so it is not what counts (under load they did not)."""
        data = os.urandom(length)
        if paused:
            if not self.write(vd, uri, data[:length // 2]):
                return
            if vd in self.paused_bgis([vd]):
                self.filled_during_bgi.add(vd)

        def resume():
            self.ctl.cli(f'/c0/v{vd}', 'resume', 'bgi', expect_rc=None)

        if not self.write(vd, uri, data, ['--connections=1', '--requests=1',
                                          '--request-size=4096'], resume if paused else None):
            return
        p = subprocess.run(['nbdcopy', uri, '-'], capture_output=True)
        if check(p.returncode == 0, f'{self.tag(vd)}: nbdcopy from the export: exit '
                 f'{p.returncode}'):
            self.expected[vd] = hashlib.sha256(p.stdout).hexdigest()

    def write(self, vd, uri, data, options=(), meanwhile=None):
        """nbdcopy of @data to the start of VD @vd's export @uri, with
        @options; @meanwhile() runs once it has started. Whether it wrote."""
        src = os.path.join(self.root, f'fill{vd}.bin')
        with open(src, 'wb') as f:
            f.write(data)
        p = subprocess.Popen(['nbdcopy', *options, src, uri], stderr=subprocess.PIPE,
                             text=True)
        if meanwhile:
            meanwhile()
        err = p.communicate()[1]
        os.unlink(src)
        return check(p.returncode == 0, f'{self.tag(vd)}: nbdcopy to the export: exit '
                     f'{p.returncode}: {err.strip()}')

    def run(self):
        if self.stop == 'systemd':
            # ExecStart=raidcli /c%i serve, Type=simple; own group as a cgroup
            self.serve = subprocess.Popen([os.environ.get('RAIDCLI', 'raidcli'), '/c0', 'serve'],
                                          env=self.ctl.env, start_new_session=True,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            check(wait_for(lambda: self.pid() is not None, 30, 0.5), f'{self.stop}: serve answers')
            paused = self.pause_bgis()
        uris = self.export_all()
        if self.stop != 'systemd':
            paused = self.pause_bgis()
        # The process starts every BGI as it starts (serve, or the exports'
        # start): a VD of one sweep step is done at once, the larger ones
        # rest 99 times as long as a step took (bgirate=1) and are paused in
        # that rest: half of each one's fill is written while it stays paused,
        # then it is resumed as the whole is written again (fill()).
        with ThreadPoolExecutor(8) as pool:
            fills = [pool.submit(self.fill, vd, uri, self.vds[vd]['blocks'] * 512,
                                 vd in paused)
                     for vd, uri in uris.items()]
            for f in fills:
                f.result()
        print(f'{self.stop}: {len(self.filled_during_bgi)} of {len(uris)} VDs filled '
              f'with their BGI in progress: {sorted(self.filled_during_bgi)}')
        check(self.filled_during_bgi, f'{self.stop}: no VD was filled during its BGI')
        self.ctl.cli('/c0/vall', 'resume', 'bgi', expect_rc=None)
        self.ctl.cli('/c0', 'set', 'bgirate=100')
        # a member goes offline only once its VDs are consistent: before,
        # their parity is not yet the data's (rcltest.wait_consistent())
        check(wait_for(lambda: self.consistent(set(self.vds)), 600, 0.5),
              f'{self.stop}: the BGIs make every VD consistent')
        for level, group, _, offline in self.groups:
            if not offline:
                continue
            for slot in offline:
                self.ctl.cli(f'/c0/e252/s{slot}', 'set', 'offline')
            for vd in self.group_vds(group):
                self.degraded_vds.add(vd)
                self.fill(vd, uris[vd], self.vds[vd]['blocks'] * 512 // 2)
        getattr(self, 'stop_' + self.stop)()

    def stop_export(self):
        self.ctl.cli('/c0/vall', 'stop', 'export')
        check(wait_for(lambda: self.consistent(set(self.vds) - self.degraded_vds), 600, 0.5),
              'export: the BGIs end')
        # the images as they are with every export stopped and the process
        # still running (it keeps its locks: copies, not the files, go to the VM)
        copies = os.path.join(self.root, 'copies')
        os.mkdir(copies)
        for slot, path in enumerate(self.ctl.images):
            copy = os.path.join(copies, os.path.basename(path))
            shutil.copyfile(path, copy)
            self.ctl.images[slot] = copy
        self.stop_service()

    def stop_service(self):
        self.ctl.cli('/c0', 'stop', 'service')

    def stop_sigterm(self):
        pid = self.pid()
        os.kill(pid, signal.SIGTERM)
        check(wait_for(lambda: gone(pid), 90), 'sigterm: the process exits on SIGTERM')

    def stop_systemd(self):
        os.killpg(self.serve.pid, signal.SIGTERM)
        try:
            status = self.serve.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(self.serve.pid, signal.SIGKILL)
            status = self.serve.wait()
        expect(status, 0, 'systemd: the exit status of "raidcli /c0 serve" on SIGTERM')

    def degraded_clean(self):
        """Whether the md superblocks of every degraded VD say clean on each
        member still in use."""
        for level, group, _, offline in self.groups:
            for vd in self.group_vds(group) if offline else []:
                for slot in set(group) - set(offline):
                    sb = md_super(self.ctl.images[slot], vd)
                    if not sb or not sb[1]:
                        return False
        return True

    def stop_kill9(self):
        check(wait_for(self.degraded_clean, 120, 0.5),
              'kill9: the degraded VDs\' arrays turn clean once idle')
        pid = self.pid()
        os.kill(pid, signal.SIGKILL)
        check(wait_for(lambda: gone(pid), 30), 'kill9: the process dies')
        self.export(min(self.vds))
        check(wait_for(lambda: self.consistent(set(self.vds) - self.degraded_vds), 600, 0.5),
              'kill9: the restarted process resyncs the optimal VDs')
        self.stop_service()


SCRIPT = '''
stage() { echo "stage $1 at $(cut -d' ' -f1 /proc/uptime) s"; }
stage start
# mdadm.conf as Debian's mkconf writes it (mdadm --examine --scan), then
# --assemble --scan: each array from the devices its ARRAY line names. With
# no mdadm.conf mdadm reads every block device again for each array (56
# disks, some 170 partitions: 20-110 s under TCG, 4 s this way). Once more
# for the arrays on the arrays just started (RAID50 and 60's RAID0); there
# mdadm says that the others are already active.
mkdir -p /etc/mdadm
for round in 1 2; do
	mdadm --examine --scan --verbose >/etc/mdadm/mdadm.conf
	mdadm --assemble --scan >>/tmp/assemble 2>&1
done
rc=$?
sed 's/^/said: /' /tmp/assemble
dmesg | grep -E 'md/|md:' | sed 's/^/kernel: /'
echo "@ mdadm assemble"
echo "rc=$rc"
stage assembled
# Every array's name and UUID from one mdadm --detail --scan, its devices
# (/dev/md/NAME) to mdN by the links mdadm made: an mdadm --detail --export
# an array took 250 ms under TCG with these 56 disks, some 15 s a VM for
# the 40 arrays and their 26 tops. ident mdN sets md_name and md_uuid as
# that would have (one lookup: a shell loop an array costs seconds too).
mdadm --detail --scan >/tmp/scan
ls -l /dev/md/ >/tmp/links 2>/dev/null
awk 'FILENAME == ARGV[1] {
	if ($(NF - 1) == "->") { t = $NF; sub(".*/", "", t); dev["/dev/md/" $(NF - 2)] = t }
	next
}
{
	md = $2
	if (md in dev) md = dev[md]; else sub("^/dev/", "", md)
	n = u = ""
	for (i = 3; i <= NF; i++) {
		if ($i ~ /^name=/) n = substr($i, 6)
		if ($i ~ /^UUID=/) u = substr($i, 6)
	}
	print md, n, u
}' /tmp/links /tmp/scan >/tmp/ident
while read -r md n u; do
	eval "name_$md=\$n uuid_$md=\$u"
done </tmp/ident
ident() { eval "md_name=\${name_$1:-} md_uuid=\${uuid_$1:-}"; }
for md in /sys/block/md*; do
	[ -e "$md/md/array_state" ] || continue
	set -- "$md"/holders/*
	[ ! -e "$1" ] || continue
	name=${md##*/}
	echo "@ top $name"
	ident "$name"
	echo "MD_UUID=$md_uuid"
	echo "MD_NAME=$md_name"
	echo "sha256=$(sha256sum "/dev/$name" | cut -d' ' -f1)"
done
stage hashed
wait_all_idle
stage idle
# every check at once (md runs those on the same disks one after another):
# one wait, not one each
for md in /sys/block/md*; do
	[ -e "$md/md/level" ] || continue
	sysattr level "$md/md/level"
	[ "$level" != raid0 ] || continue
	sysattr degraded "$md/md/degraded"
	[ "$degraded" = 0 ] && echo check >"$md/md/sync_action"
done
wait_all_idle
stage checked
for md in /sys/block/md*; do
	[ -e "$md/md/array_state" ] || continue
	echo "@ checked ${md##*/}"
	ident "${md##*/}"
	echo "MD_UUID=$md_uuid"
	echo "MD_NAME=$md_name"
	for attr in level raid_disks chunk_size array_state degraded sync_action \
		resync_start mismatch_cnt layout; do
		sysattr value "$md/md/$attr"
		echo "sys_$attr=$value"
	done
done
stage recorded
# no stop_all: the images are thrown away, and stopping some 40 arrays one
# mdadm at a time took 40 s under TCG
'''


def check_boot(scenarios, out):
    records = parse_records(out)
    said = [line for line in out.splitlines() if line.startswith('said: ')]
    tops = {rec.get('MD_UUID'): rec for rec in by_kind(records, 'top').values()}
    checked = by_kind(records, 'checked')
    for sc in scenarios:
        for n, vd in sorted(sc.vds.items()):
            tag = sc.tag(n)
            top = tops.get(vd['uuid'])
            name = f'{sc.ctl.serial}:v{n}'
            # what mdadm said of the VD's arrays (NAME, NAME-0, ...), once each
            about = dict.fromkeys(line[len('said: '):] for line in said
                                  if re.search(re.escape(name) + r'(\b|-)', line))
            if not check(top is not None, f'{tag}: md did not start it; mdadm said: '
                         + ' / '.join(about)):
                continue
            expect(top.get('sha256'), sc.expected.get(n), f'{tag}: sha256 md read')
            if n in sc.degraded_vds:
                continue
            # the VD's array and its spans' (NAME-0, NAME-1)
            mine = [rec for rec in checked.values()
                    if rec.get('MD_NAME', '').partition('-')[0] == name
                    and rec.get('sys_level') != 'raid0']
            for rec in mine:
                expect(rec.get('sys_mismatch_cnt'), '0',
                       f'{tag}: {rec.get("MD_NAME")} mismatch_cnt after md check')
            if vd['level'] != 'RAID0':
                check(mine, f'{tag}: md checked none of its arrays')


def main():
    stops = sys.argv[1:] or STOPS
    roots = [scratch(f'raidcli-vm-stops-{stop}.') for stop in stops]
    try:
        scenarios = []
        for stop, root in zip(stops, roots):
            start = time.monotonic()
            sc = Scenario(stop, root.name)
            sc.run()
            scenarios.append(sc)
            print(f'{stop}: {len(sc.vds)} VDs on {len(sc.ctl.images)} drives made, filled '
                  f'and stopped in {time.monotonic() - start:.1f} s', flush=True)
        per_boot = MAX_DISKS // max(len(sc.ctl.images) for sc in scenarios)
        boots = [scenarios[i:i + per_boot] for i in range(0, len(scenarios), per_boot)]
        # even boots: as many as needed, as alike as can be
        size = -(-len(scenarios) // len(boots))
        boots = [scenarios[i:i + size] for i in range(0, len(scenarios), size)]
        for group in boots:
            start = time.monotonic()
            rc, out = run_vm([a for sc in group for a in sc.ctl.disk_args()], SCRIPT,
                             timeout=600)
            print(out)
            print(f'VM of {", ".join(sc.stop for sc in group)}: '
                  f'{time.monotonic() - start:.1f} s', flush=True)
            expect(rc, 0, 'the VM script\'s exit status')
            check_boot(group, out)
    finally:
        for root in roots:
            root.cleanup()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
