#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-foreign.py - drives holding arrays that mdadm made are not blank
to raidcli.

mkforeign.py makes a RAID1 and a RAID5 with mdadm --create (v1.2, internal
bitmap, GPT Linux RAID partitions) in the VM and writes a pattern over
each. Added to a soft controller with `/c0 add drive`, every such drive
must either be refused with a reason, or be listed in `/c0 show`'s PD LIST
as foreign (DG "F", as StorCLI shows a drive of a foreign configuration),
not as a blank unconfigured drive. `/c0 add vd` over them must be refused,
and must leave the data as mdadm wrote it.
"""
import hashlib
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import mkforeign  # noqa: E402
from vmtest import Controller, check, expect, finish, scratch  # noqa: E402


def image_digests(manifest):
    out = {}
    for array in manifest:
        for image in array['images']:
            with open(image, 'rb') as f:
                out[image] = hashlib.sha256(f.read()).hexdigest()
    return out


def main():
    with scratch('raidcli-vm-foreign.') as work:
        manifest = mkforeign.make(work)
        before = image_digests(manifest)
        ctl = Controller(work, 0)
        slots = {}
        for array in manifest:
            for image in array['images']:
                out = ctl.cli('/c0', 'add', 'drive', f'path={image}', 'J', expect_rc=None)
                status = ctl.parse(out)
                if status['Status'] == 'Success':
                    slot = int(status['Description'].rsplit('/s', 1)[1].rstrip('.'))
                    slots[slot] = (array, image)
                else:
                    print(f'{image}: add drive refused: {status["Description"]}')
                    check(status['Description'], f'{image}: refused with no reason')
        pds = {int(pd['EID:Slt'].split(':')[1]): pd
               for pd in ctl.json('/c0', 'show').get('PD LIST', [])}
        for slot, (array, image) in sorted(slots.items()):
            pd = pds.get(slot, {})
            print(f'{image} ({array["level"]} member made by mdadm) as 252:{slot}: '
                  f'State {pd.get("State")} DG {pd.get("DG")}')
            expect(pd.get('DG'), 'F', f'{image} as 252:{slot}: PD LIST DG (F: foreign)')
        for array in manifest:
            members = sorted(s for s, (a, _) in slots.items() if a is array)
            if not members:
                continue
            level = {'raid1': 'r1', 'raid5': 'r5'}[array['level']]
            drives = ','.join(f'252:{s}' for s in members)
            out = ctl.cli('/c0', 'add', 'vd', level, f'drives={drives}', 'J', expect_rc=None)
            status = ctl.parse(out)
            print(f'add vd {level} drives={drives}: {status["Status"]}: {status["Description"]}')
            expect(status['Status'], 'Failure', f'add vd over the {array["name"]} members')
        expect(image_digests(manifest), before, 'the mdadm members after all this')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
