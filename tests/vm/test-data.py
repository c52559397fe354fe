#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-data.py VOLTOOL - data written by Linux md reads back through
raidcli's engine, and the reverse: the two agree on every RAID layout.

On a soft controller with a RAID0, RAID1, RAID5, RAID6, RAID10 and RAID50
VD (made with the raidcli binary):
 1. In a VM, md assembles the VDs (mdadm --assemble --scan) and dd writes
    each one whole from a pattern disk (seeded bytes made here, one pattern
    per VD). md's check of every redundant array must find no mismatch.
    Back on the host, raidcli must still show every VD optimal, and
    VOLTOOL (tests/engine/voltool.c, the engine's own I/O path) must read
    each VD back as exactly its pattern.
 2. VOLTOOL writes a new pattern over each VD whole. In a second VM, the
    md5sum of each md array must be the pattern's, and md's check must
    find no mismatch: the engine's parity (P and RAID6's Q) and mirror
    copies are where md computes them.
"""
import hashlib
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from vmtest import (by_kind, check, controller_with_every_level, expect, finish,  # noqa: E402
                    parse_records, pattern, run_vm, scratch)

BLOCK = 1 << 16  # dd's block size; every VD is a multiple of it


def assemble_script(body):
    """The VM script: assemble, @body, check redundant arrays, stop."""
    return f'''
out=$(mdadm --assemble --scan 2>&1) || {{ echo "$out"; exit 1; }}
{body}
wait_all_idle
check_redundant
arrays checked
stop_all
'''


def check_md_consistent(records, tag):
    """md's check found no mismatch on any redundant array."""
    arrays = by_kind(records, 'checked')
    check(arrays, f'{tag}: no md array was running')
    for name, rec in sorted(arrays.items()):
        if rec.get('sys_level') != 'raid0':
            expect(rec.get('sys_mismatch_cnt'), '0',
                   f'{tag}: {name} ({rec.get("MD_DEVNAME")}) mismatch_cnt after md check')


def voltool(tool, ctl, vd, op, length, path):
    p = subprocess.run([tool, ctl.state, '0', str(vd['vd']), op, '0', str(length), path],
                       capture_output=True, text=True, env=ctl.env)
    return check(p.returncode == 0, f'v{vd["vd"]}: voltool {op}: exit {p.returncode}: '
                 f'{p.stderr.strip()}')


def md_writes_engine_reads(ctl, vds, tool, work):
    """Part 1: md writes each VD from the pattern disk; the engine reads."""
    offsets, body = {}, []
    with open(os.path.join(work, 'pattern.img'), 'wb') as f:
        for vd in vds:
            size = vd['blocks'] * 512
            offsets[vd['vd']] = f.tell()
            f.write(pattern(f'md-v{vd["vd"]}', size))
            body.append(f'md=$(md_by_uuid {vd["uuid"]}) && dd if=/dev/disk/by-name/pattern '
                        f'of=/dev/$md bs={BLOCK} skip={offsets[vd["vd"]] // BLOCK} '
                        f'count={size // BLOCK} conv=fsync 2>/dev/null || '
                        f'echo "v{vd["vd"]}: writing the pattern failed"')
    rc, out = run_vm(ctl.disk_args() + ['--ro-disk', f'pattern={f.name}'],
                     assemble_script('\n'.join(body)))
    print(out)
    expect(rc, 0, 'part 1: the VM script exit status')
    check('failed' not in out, 'part 1: the VM could not write every VD')
    check_md_consistent(parse_records(out), 'part 1')

    states = {vd['vd']: vd['state'] for vd in ctl.vds()}
    for vd in vds:
        expect(states.get(vd['vd']), 'Optl', f'v{vd["vd"]}: raidcli state after md wrote it')
        back = os.path.join(work, 'back')
        size = vd['blocks'] * 512
        if voltool(tool, ctl, vd, 'read', size, back):
            with open(back, 'rb') as b:
                expect(b.read() == pattern(f'md-v{vd["vd"]}', size), True,
                       f'v{vd["vd"]} {vd["level"]}: the engine reads what md wrote')


def engine_writes_md_reads(ctl, vds, tool, work):
    """Part 2: the engine writes each VD; md reads and checks."""
    body = []
    for vd in vds:
        size = vd['blocks'] * 512
        path = os.path.join(work, 'engine.img')
        with open(path, 'wb') as f:
            f.write(pattern(f'engine-v{vd["vd"]}', size))
        voltool(tool, ctl, vd, 'write', size, path)
        body.append(f'echo "@ read v{vd["vd"]}"\n'
                    f'md=$(md_by_uuid {vd["uuid"]}) && echo "md5=$(dd if=/dev/$md bs={BLOCK} '
                    f'count={size // BLOCK} 2>/dev/null | md5sum)"')
    rc, out = run_vm(ctl.disk_args(), assemble_script('\n'.join(body)))
    print(out)
    expect(rc, 0, 'part 2: the VM script exit status')
    records = parse_records(out)
    reads = by_kind(records, 'read')
    for vd in vds:
        want = hashlib.md5(pattern(f'engine-v{vd["vd"]}', vd['blocks'] * 512)).hexdigest()
        got = reads.get(f'v{vd["vd"]}', {}).get('md5', '').split(' ')[0]
        expect(got, want, f'v{vd["vd"]} {vd["level"]}: md5 of what md reads of the engine\'s writes')
    check_md_consistent(records, 'part 2')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split('\n')[0])
    tool = sys.argv[1]
    with scratch('raidcli-vm-data.') as work:
        ctl = controller_with_every_level(work)
        vds = ctl.vds()
        for vd in vds:
            check(vd['blocks'] * 512 % BLOCK == 0, f'v{vd["vd"]}: size not a multiple of {BLOCK}')
        md_writes_engine_reads(ctl, vds, tool, work)
        engine_writes_md_reads(ctl, vds, tool, work)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
