#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-foreign.py - arrays that mdadm made are foreign to raidcli, and
import as they are.

mkforeign.py makes, in one VM boot, md v1.2 arrays with mdadm --create on
GPT Linux RAID partitions of 16 MiB drives and writes a pattern over each:
RAID1, RAID5, RAID6 and RAID10 with mdadm's defaults (no bitmap on drives
this small), a RAID1 and a RAID5 with --bitmap=internal, partitions from
2 MiB (a free MiB before them) and as "sgdisk -n 1:0:0" makes them (from
1 MiB to the end, no free MiB), a RAID5 whose third drive stays
behind, and a RAID0 over two 3-drive RAID5s (imported as one RAID50 VD
that serves the RAID0's data). Added to a soft controller with `/c0 add drive`, every drive must
show DG F in `/c0 show`, and `/c0 add vd` over one array's drives must be
refused. `/c0/fall import` must adopt every array: one VD each with md's
level, UUID and capacity, optimal, or degraded for the RAID5 lacking a
member; every VD read through its NBD export (nbdcopy) must have the
sha256 md read.
"""
import hashlib
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import mkforeign  # noqa: E402
from mkforeign import Array  # noqa: E402
from vmtest import SKIP, Controller, check, expect, finish, scratch  # noqa: E402

MB = 16
ARRAYS = [Array('d1', 'raid1', 2, bitmap=False, start=4096, drive_mb=MB),
          Array('d5', 'raid5', 3, bitmap=False, start=4096, drive_mb=MB),
          Array('d6', 'raid6', 4, bitmap=False, start=4096, drive_mb=MB),
          Array('d10', 'raid10', 4, bitmap=False, start=4096, drive_mb=MB),
          Array('b1', 'raid1', 2, bitmap=True, start=4096, drive_mb=MB),
          Array('b5', 'raid5', 3, bitmap=True, start=4096, drive_mb=MB),
          Array('f5', 'raid5', 3, bitmap=False, start=2048, drive_mb=MB),
          Array('f1', 'raid1', 2, bitmap=True, start=2048, drive_mb=MB),
          Array('m5', 'raid5', 3, bitmap=False, start=4096, drive_mb=MB),
          Array('s50', 'raid5', 3, bitmap=False, start=4096, drive_mb=MB, spans=2)]
LEFT_BEHIND = {'m5': 2}  # the member of each array that is not added
LEVELS = {'raid1': 'RAID1', 'raid5': 'RAID5', 'raid6': 'RAID6', 'raid10': 'RAID10',
          'raid50': 'RAID50'}


def vds_by_uuid(ctl):
    """Every VD by md UUID (hex digits only): number, level, state, blocks.
    (Controller.vds() wants every member in a slot; m5 lacks one.)"""
    out = {}
    for entry in ctl.json('/c0', 'show')['VD LIST']:
        vd = int(entry['DG/VD'].split('/')[1])
        props = ctl.json(f'/c0/v{vd}', 'show', 'all')[f'VD{vd} Properties']
        out[props['md Array UUID'].replace(':', '').lower()] = {
            'vd': vd, 'level': entry['TYPE'], 'state': entry['State'],
            'blocks': props['Number of Blocks']}
    return out


def export_sha(ctl, vd, work):
    """sha256 of VD @vd read whole through its NBD export."""
    rows = ctl.json(f'/c0/v{vd}', 'start', 'export').get('Export LIST', [])
    if not check(rows, f'/v{vd}: start export lists the export'):
        return None
    sock = rows[0]['Address'][len('unix:'):]
    out = os.path.join(work, f'v{vd}.read')
    p = subprocess.run(['nbdcopy', f'nbd+unix:///{rows[0]["Export Name"]}?socket={sock}', out],
                       capture_output=True, text=True)
    ctl.cli(f'/c0/v{vd}', 'stop', 'export')
    if not check(p.returncode == 0, f'/v{vd}: nbdcopy: {p.stderr.strip()}'):
        return None
    with open(out, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    os.unlink(out)
    return digest


def main():
    if not shutil.which('nbdcopy'):
        print('SKIP: nbdcopy not installed (Debian package libnbd-bin)')
        return SKIP
    with scratch('raidcli-vm-foreign.') as work:
        manifest = mkforeign.make(work, arrays=ARRAYS)
        ctl = Controller(os.path.join(work, 'state'), 0)
        added = {}
        for array in manifest:
            for role, image in enumerate(array['images']):
                if LEFT_BEHIND.get(array['name']) != role:
                    ctl.add_drive(image)
                    added[len(ctl.images) - 1] = array['name']
        pds = {int(pd['EID:Slt'].split(':')[1]): pd
               for pd in ctl.json('/c0', 'show').get('PD LIST', [])}
        for slot, name in sorted(added.items()):
            expect(pds.get(slot, {}).get('DG'), 'F', f'{name} member as 252:{slot}: DG')
        d5 = ','.join(f'252:{s}' for s, n in added.items() if n == 'd5')
        out = ctl.cli('/c0', 'add', 'vd', 'r5', f'drives={d5}', 'J', expect_rc=None)
        expect(ctl.parse(out)['Status'], 'Failure', 'add vd over the d5 members')
        print(ctl.cli('/c0/fall', 'show', 'all', expect_rc=None))
        out = ctl.cli('/c0/fall', 'import', 'J', expect_rc=None)
        status = ctl.parse(out)
        expect(status['Status'], 'Success', f'fall import: {status["Description"]}')
        vds = vds_by_uuid(ctl)
        for array in manifest:
            name = array['name']
            vd = vds.get(array['uuid'].replace(':', '').lower())
            if not check(vd, f'{name}: a VD with md UUID {array["uuid"]}'):
                continue
            expect(vd['level'], LEVELS[array['level']], f'{name}: level')
            expect(vd['state'], 'Dgrd' if name in LEFT_BEHIND else 'Optl', f'{name}: state')
            expect(vd['blocks'] * 512, array['bytes'], f'{name}: capacity')
            expect(export_sha(ctl, vd['vd'], work), array['sha256'],
                   f'{name}: sha256 through the export, against md\'s')
        ctl.cli('/c0', 'stop', 'service', expect_rc=None)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
