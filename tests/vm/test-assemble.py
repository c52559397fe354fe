#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-assemble.py - arrays that raidcli creates assemble under Linux md.

A soft controller made with the raidcli binary gets a RAID0, RAID1, RAID5,
RAID6, RAID10 and RAID50 VD, each on its own drives. A Debian kernel in a VM
sees the drives as virtio disks; there `mdadm --assemble --scan` must start
every VD's array (RAID50: each span as an md RAID5, then an md RAID0 on the
span arrays) with the level, member count, chunk, size and UUID that
`/c0/vX show all J` reports, each member in the role of its topology row,
and not degraded. The kernel must read each VD's GPT partition by its name.
An array raidcli calls consistent must need no resync; md's own check of
every redundant array, once any resync is done, must find no mismatch, and
leave the array clean. The same goes for a RAID1 and a RAID5 made on drives
that held other data before: a new array md is told to resync must be
resynced, not left with mirrors and parity that disagree with the data.
And a RAID5 whose members were rebuilt, one by a hot spare taking over, one
by 'start rebuild' onto an unconfigured drive: md must start it with every
member in sync in its new role (none recovering), and find it consistent.
"""
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from vmtest import (Controller, by_kind, check, controller_on_used_drives,  # noqa: E402
                    controller_with_every_level, expect, finish, parse_records, run_vm,
                    scratch)

MD_LEVEL = {'RAID0': 'raid0', 'RAID1': 'raid1', 'RAID5': 'raid5', 'RAID6': 'raid6',
            'RAID10': 'raid10', 'RAID50': 'raid0'}
SPAN_LEVEL = {'RAID50': 'raid5', 'RAID60': 'raid6'}

SCRIPT = '''
disks
out=$(mdadm --assemble --scan 2>&1)
rc=$?
echo "$out"
echo "@ mdadm assemble"
echo "rc=$rc"
arrays assembled
wait_all_idle
check_redundant
arrays checked
stop_all
'''


def member_partitions(disks, prefix, vd):
    """Slot -> the kernel's name of VD @vd's partition on that drive, for
    the drives named @prefix and their slot."""
    out = {}
    for name, rec in disks.items():
        if not re.fullmatch(f'{prefix}[0-9]+', name):
            continue
        for key, value in rec.items():
            if key.startswith('part_') and value == f'raidcli v{vd}':
                out[int(name[len(prefix):])] = key[len('part_'):]
    return out


def check_array(rec, tag, level, devices, chunk, sectors=None):
    expect(rec.get('MD_LEVEL'), level, f'{tag}: level')
    expect(rec.get('MD_DEVICES'), str(devices), f'{tag}: raid devices')
    expect(rec.get('sys_chunk_size'), str(chunk if level != 'raid1' else 0), f'{tag}: chunk')
    if sectors is not None:
        expect(rec.get('sys_sectors'), str(sectors), f'{tag}: size in sectors')
    if level != 'raid0':
        expect(rec.get('sys_degraded'), '0', f'{tag}: degraded members')


def check_roles(rec, tag, want):
    """@want: member device (kernel name) -> md role."""
    for dev, role in want.items():
        expect(rec.get(f'MD_DEVICE_dev_{dev}_ROLE'), str(role), f'{tag}: role of {dev}')


def check_vd(ctl, vd, disks, assembled, checked, said):
    """@said: what mdadm --assemble printed."""
    tag = f'{ctl.label} v{vd["vd"]} {vd["level"]}'
    top = [name for name, rec in assembled.items() if rec.get('MD_UUID') == vd['uuid']]
    mdadm = sorted({line for line in said if re.search(f'{ctl.serial}:v{vd["vd"]}[- ]', line)})
    if not check(len(top) == 1, f'{tag}: no running md array has UUID {vd["uuid"]}; '
                 f'mdadm said: {" / ".join(mdadm) or "nothing"}'):
        return
    md = top[0]
    parts = member_partitions(disks, ctl.prefix, vd['vd'])
    for slot, _, _ in vd['members']:
        check(slot in parts, f'{tag}: the kernel sees no partition "raidcli v{vd["vd"]}" '
              f'on drive {slot}')
    nested = vd['level'] in SPAN_LEVEL
    devices = vd['spans'] if nested else len(vd['members'])
    check_array(assembled[md], tag, MD_LEVEL[vd['level']], devices, vd['strip'], vd['blocks'])
    if nested:
        spans = {int(v): k[len('MD_DEVICE_dev_'):-len('_ROLE')]
                 for k, v in assembled[md].items()
                 if k.startswith('MD_DEVICE_dev_') and k.endswith('_ROLE')}
        expect(sorted(spans), list(range(vd['spans'])), f'{tag}: span roles in the top array')
        arrays = [(f'{tag} span {arr}', spans.get(arr), [m for m in vd['members'] if m[1] == arr])
                  for arr in range(vd['spans'])]
    else:
        arrays = [(tag, md, vd['members'])]
    for atag, name, members in arrays:
        rec = assembled.get(name)
        if not check(rec is not None, f'{atag}: not running'):
            continue
        if nested:
            check_array(rec, atag, SPAN_LEVEL[vd['level']], vd['per_span'], vd['strip'])
        # md RAID10 near=2: the mirror pairs are consecutive roles
        check_roles(rec, atag, {parts[slot]: (arr * vd['per_span'] + row
                                              if vd['level'] == 'RAID10' else row)
                                for slot, arr, row in members if slot in parts})
        check_consistency(rec, checked.get(name, {}), atag, vd['consistent'])


def check_consistency(assembled, checked, tag, consistent):
    if assembled.get('MD_LEVEL') == 'raid0':
        return
    if consistent:
        expect(assembled.get('sys_resync_start'), 'none',
               f'{tag}: raidcli calls it consistent; md resync_start')
    expect(checked.get('sys_mismatch_cnt'), '0', f'{tag}: mismatch_cnt after md check')
    expect(checked.get('sys_array_state'), 'clean', f'{tag}: array state after check')
    expect(checked.get('sys_resync_start'), 'none', f'{tag}: resync_start after check')


def controller_rebuilt(state):
    """A RAID5 on drives 0-2 (initialized by the controller process), whose
    member 1 a hot spare (drive 3) replaced and member 2 drive 4 ('start
    rebuild'), both rebuilds done; the process stopped."""
    ctl = Controller(state, 5, prefix='r', label='rebuilt:')
    ctl.add_vd('RAID5', '0-2')
    ctl.cli('/c0/e252/s3', 'add', 'hotsparedrive')
    ctl.cli('/c0', 'set', 'rebuildrate=100', 'bgirate=100')
    ctl.cli('/c0/v0', 'start', 'export')
    ctl.cli('/c0/v0', 'show', 'bgi', 'wait')
    ctl.cli('/c0/e252/s1', 'set', 'offline')
    # The process's next tick puts the spare in s1's place: wait until it has.
    for _ in range(300):
        if ctl.json('/c0/e252/s3', 'show')['Drive Information'][0]['State'] != 'GHS':
            break
        time.sleep(0.1)
    ctl.cli('/c0/e252/s3', 'show', 'rebuild', 'wait')
    ctl.cli('/c0/e252/s2', 'set', 'offline')
    ctl.cli('/c0/e252/s4', 'start', 'rebuild')
    ctl.cli('/c0/e252/s4', 'show', 'rebuild', 'wait')
    ctl.cli('/c0/v0', 'stop', 'export')
    ctl.cli('/c0', 'stop', 'service')
    return ctl


def member_disk_args(ctl):
    """disk_args() for the drives of @ctl's VDs alone: the VM has PCI slots for 30 disks."""
    slots = sorted({slot for vd in ctl.vds() for slot, _, _ in vd['members']})
    return [arg for slot in slots for arg in ('--disk', f'{ctl.prefix}{slot}={ctl.images[slot]}')]


def main():
    with scratch('raidcli-vm-assemble.') as state, scratch('raidcli-vm-used.') as used, \
            scratch('raidcli-vm-rebuilt.') as rebuilt:
        ctl = controller_with_every_level(state)
        old = controller_on_used_drives(used, 'u')
        done = controller_rebuilt(rebuilt)
        vds = [(c, vd) for c in (ctl, old, done) for vd in c.vds()]
        rc, out = run_vm(ctl.disk_args() + old.disk_args() + member_disk_args(done), SCRIPT)
        print(out)
        expect(rc, 0, 'the VM script (stop_all) exit status')
        records = parse_records(out)
        expect(records.get(('mdadm', 'assemble'), {}).get('rc'), '0',
               'mdadm --assemble --scan exit status')
        disks, assembled, checked = (by_kind(records, k)
                                     for k in ('disk', 'assembled', 'checked'))
        said = [line for line in out.splitlines() if line.startswith('mdadm: ')]
        for c, vd in vds:
            check_vd(c, vd, disks, assembled, checked, said)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
