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

The RAID1 and a RAID5 without a bitmap (d1, d5) go to a second controller
imported with `import bitmap=internal`, which writes into them the bitmap
mdadm --grow --bitmap=internal would add. After a clean stop of its
process, a second VM boot hands them back to the kernel: mdadm --assemble
--scan must start both, mdadm --detail must show "Intent Bitmap :
Internal" and /proc/mdstat a bitmap line, md must not find the bitmap out
of date (its events behind the superblocks': "bitmap file is out of date
... forcing full recovery"), and md's sha256 of each must be what the
export returned. A bitmap md cannot load (magic, UUID, offset, chunk) fails
the assembly; a feature bit left unset leaves the bitmap out of --detail.
"""
import hashlib
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import mkforeign  # noqa: E402
from mkforeign import Array  # noqa: E402
from vmtest import (SKIP, Controller, check, expect, finish, parse_records,  # noqa: E402
                    run_vm, scratch)

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
GROWN = ('d1', 'd5')  # imported with bitmap=internal, then assembled by md
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


def add_members(ctl, manifest):
    """Add the drives of @manifest's arrays (but those LEFT_BEHIND) to
    @ctl; each must show as foreign. Slot -> array name."""
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
    return added


def import_all(ctl, *options):
    status = ctl.parse(ctl.cli('/c0/fall', 'import', *options, 'J', expect_rc=None))
    expect(status['Status'], 'Success',
           f'fall import {" ".join(options)}: {status["Description"]}')


# In the VM: md assembles the arrays the bitmap was added to; what md
# printed first (for the log), then one record an array.
ASSEMBLE = '''
mdadm --assemble --scan 2>&1
assembled=$?
cat /proc/mdstat
dmesg | grep -E 'md/|md:|bitmap' | sed 's/^/kernel: /'
for uuid in {uuids}; do
	echo "@ grown $uuid"
	md=$(md_by_uuid $uuid) || continue
	echo "bitmap=$(mdadm --detail /dev/$md | sed -n 's/^ *Intent Bitmap : //p')"
	echo "mdstat=$(grep -A 3 "^$md :" /proc/mdstat | grep -o 'bitmap: .*')"
	set -- $(sha256sum /dev/$md)
	echo "sha256=$1"
done
echo "@ kernel log"
echo "assemble=$assembled"
echo "stale=$(dmesg | grep -c 'bitmap file is out of date')"
'''


def check_grown(ctl, manifest, shas):
    """Boot a VM with @ctl's drives: md starts each GROWN array with the
    internal bitmap, current, and reads the sha256 the export returned."""
    grown = [a for a in manifest if a['name'] in GROWN]
    _, out = run_vm(ctl.disk_args(), ASSEMBLE.format(uuids=' '.join(a['uuid'] for a in grown)))
    print(out)
    records = parse_records(out)
    for array in grown:
        name = array['name']
        md = records.get(('grown', array['uuid']), {})
        expect(md.get('bitmap'), 'Internal', f'{name}: mdadm --detail Intent Bitmap')
        check(md.get('mdstat', '').startswith('bitmap: '),
              f'{name}: no bitmap line in /proc/mdstat: {md.get("mdstat")!r}')
        expect(md.get('sha256'), shas.get(name), f'{name}: md\'s sha256, against the export\'s')
    log = records.get(('kernel', 'log'), {})
    expect(log.get('assemble'), '0', 'mdadm --assemble --scan exit status')
    expect(log.get('stale'), '0', 'md\'s "bitmap file is out of date" warnings')


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
        grow = Controller(os.path.join(work, 'state-grow'), 0, prefix='g', label='bitmap')
        added = add_members(ctl, [a for a in manifest if a['name'] not in GROWN])
        add_members(grow, [a for a in manifest if a['name'] in GROWN])
        d6 = ','.join(f'252:{s}' for s, n in added.items() if n == 'd6')
        out = ctl.cli('/c0', 'add', 'vd', 'r6', f'drives={d6}', 'J', expect_rc=None)
        expect(ctl.parse(out)['Status'], 'Failure', 'add vd over the d6 members')
        print(ctl.cli('/c0/fall', 'show', 'all', expect_rc=None))
        import_all(ctl)
        import_all(grow, 'bitmap=internal')
        vds = {uuid: (c, vd) for c in (ctl, grow) for uuid, vd in vds_by_uuid(c).items()}
        shas = {}
        for array in manifest:
            name = array['name']
            c, vd = vds.get(array['uuid'].replace(':', '').lower(), (None, None))
            if not check(vd, f'{name}: a VD with md UUID {array["uuid"]}'):
                continue
            expect(vd['level'], LEVELS[array['level']], f'{name}: level')
            expect(vd['state'], 'Dgrd' if name in LEFT_BEHIND else 'Optl', f'{name}: state')
            expect(vd['blocks'] * 512, array['bytes'], f'{name}: capacity')
            shas[name] = export_sha(c, vd['vd'], work)
            expect(shas[name], array['sha256'],
                   f'{name}: sha256 through the export, against md\'s')
        ctl.cli('/c0', 'stop', 'service', expect_rc=None)
        grow.cli('/c0', 'stop', 'service', expect_rc=None)
        check_grown(grow, manifest, shas)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
