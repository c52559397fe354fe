#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-adopt.py VOLTOOL - arrays that mdadm --create made (in the VM, with
the kernel's md: tests/vm/mkforeign.py), on GPT partitions that leave 2 MiB
free at the end of each drive, are adopted in place by /c0/fall import:
each becomes a VD with mdadm's level, size and md UUID, and the engine
(VOLTOOL, tests/engine/voltool.c) reads back exactly the pattern md wrote.
"""
import filecmp
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkforeign  # noqa: E402
from vmtest import Controller, check, expect, finish, scratch  # noqa: E402

LEVELS = {'raid1': 'RAID1', 'raid5': 'RAID5'}


def main():
    tool = sys.argv[1]
    with scratch('raidcli-vm-adopt.') as work:
        manifest = mkforeign.make(work, room_mb=2)
        ctl = Controller(os.path.join(work, 'state'), 0)
        for array in manifest:
            for image in array['images']:
                ctl.add_drive(image)
        foreign = ctl.cli('/c0/fall', 'show', 'all')
        print(foreign)
        for array in manifest:
            check(array['uuid'].replace(':', '')[:8] in foreign.replace(':', ''),
                  f'{array["name"]}: /c0/fall show all lists md array {array["uuid"]}')
        print(ctl.cli('/c0/fall', 'import'))
        vds = {vd['uuid'].replace(':', ''): vd for vd in ctl.vds()}
        for array in manifest:
            vd = vds.get(array['uuid'].replace(':', ''))
            if not check(vd, f'{array["name"]}: a VD with md UUID {array["uuid"]}'):
                continue
            expect(vd['level'], LEVELS[array['level']], f'{array["name"]}: level')
            expect(vd['state'], 'Optl', f'{array["name"]}: state')
            expect(vd['blocks'] * 512, array['bytes'], f'{array["name"]}: capacity')
            back = os.path.join(work, array['name'] + '.read')
            p = subprocess.run([tool, ctl.state, '0', str(vd['vd']), 'read', '0',
                                str(array['bytes']), back],
                               capture_output=True, text=True, env=ctl.env)
            if check(p.returncode == 0, f'{array["name"]}: voltool read: {p.stderr.strip()}'):
                check(filecmp.cmp(back, array['pattern'], shallow=False),
                      f'{array["name"]}: the engine reads what md wrote')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
