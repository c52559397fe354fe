#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-md-oracle.py MKMEMBERS - show the members the soft RAID engine's
format code writes to the tools that define the formats.

MKMEMBERS writes sparse images (a GPT with one Linux RAID partition, an md
v1.2 superblock and bitmap in it) and describes them in JSON. Each image's
GPT must pass sgdisk -v and sfdisk --verify (fdisk -b 4096 for 4 KiB
sectors) and list the partition as written. The partition, copied out
sparse, goes to mdadm --examine, its bitmap to mdadm --examine-bitmap, and
every field they print must be what the engine meant. Data offsets are the
values mdadm 4.2 picks for these sizes, worked out by hand: they check the
geometry code, not just the codec.
"""
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from oracle import (check, copy_partition, examine, examine_bitmap,  # noqa: E402
                    expect_fields, finish, have_tools, partition_table, run, scratch)

GPT_LINUX_RAID = 'A19D880F-05FC-4D3B-A006-743F0F84911E'

# Per array: level name, layout name, chunk in sectors, and mdadm 4.2's
# data offset on a 95 MiB partition (headroom halves to two chunks' worth,
# or to ~0.1% of the device without a chunk, then rounds up to 1 MiB).
EXPECT = {
    'r0': ('raid0', None, 1024, 4096),
    'r1': ('raid1', None, 0, 2048),
    'r5': ('raid5', 'left-symmetric', 128, 2048),
    'r6': ('raid6', 'left-symmetric', 1024, 4096),
    'r10': ('raid10', 'near=2', 1024, 4096),
    'r5spare': ('raid5', 'left-symmetric', 128, 2048),
    'r1-4k': ('raid1', None, 0, 2048),
}

def check_gpt(m):
    img, ss = m['image'], m['sector_size']
    tag = os.path.basename(img)
    if ss == 512:
        rc, out, err = run('sgdisk', '-v', img)
        check(rc == 0 and 'No problems found' in out, f'{tag}: sgdisk -v: {out}{err}')
        rc, out, err = run('sfdisk', '--verify', img)
        check(rc == 0 and 'No errors detected' in out, f'{tag}: sfdisk --verify: {out}{err}')
        table = partition_table(img)
    else:
        # sfdisk 2.38 has no --sector-size; fdisk does.
        rc, out, err = run('fdisk', '-b', str(ss), img, stdin='v\nq\n')
        check('No errors detected' in out, f'{tag}: fdisk -b {ss} v: {out}{err}')
        rc, out, err = run('fdisk', '-b', str(ss), '-l', '-o',
                           'Start,Sectors,Type-UUID,UUID,Name', img)
        rows = [line.split(maxsplit=4) for line in out.splitlines()[-1:]]
        table = {'label': 'gpt' if 'Disklabel type: gpt' in out else out,
                 'sectorsize': ss,
                 'partitions': [{'start': int(r[0]), 'size': int(r[1]), 'type': r[2],
                                 'uuid': r[3], 'name': r[4]} for r in rows]}
    check(table['label'] == 'gpt', f'{tag}: not a GPT: {table}')
    check(table['sectorsize'] == ss, f'{tag}: sector size {table["sectorsize"]}')
    parts = table['partitions']
    check(len(parts) == 1, f'{tag}: partitions {parts}')
    p = parts[0]
    check(p['type'] == GPT_LINUX_RAID, f'{tag}: partition type {p["type"]}')
    check(p['start'] == m['first_lba'], f'{tag}: start {p["start"]}')
    check(p['size'] == m['last_lba'] + 1 - m['first_lba'], f'{tag}: size {p["size"]}')
    check(p['uuid'] == m['part_guid'], f'{tag}: partition GUID {p["uuid"]}')
    check(p['name'] == m['part_name'], f'{tag}: name {p["name"]}')


def used_size(m, part_sectors):
    """Sectors of each member in use: the data area in whole chunks (RAID1:
    64 KiB), 0 for RAID0 as mdadm writes it."""
    level, _, chunk, data_offset = EXPECT[m['array']]
    unit = chunk or 128
    return 0 if level == 'raid0' else (part_sectors - data_offset) // unit * unit


def expected_array_kib(m, level, size):
    data = {'raid1': 1, 'raid5': m['raid_disks'] - 1, 'raid6': m['raid_disks'] - 2,
            'raid10': m['raid_disks'] / 2}[level]
    return int(size * data) // 2


def check_examine(m, part, part_sectors):
    tag = os.path.basename(m['image'])
    level, layout, chunk, data_offset = EXPECT[m['array']]
    f, err = examine(part, tag)
    check(not err, f'{tag}: mdadm --examine failed: {err}')
    data_size = part_sectors - data_offset
    size = used_size(m, part_sectors)
    want = {
        'Magic': 'a92b4efc',
        'Version': '1.2',
        'Feature Map': '0x0' if level == 'raid0' else '0x1',
        'Array UUID': m['uuid'],
        'Name': m['name'],
        'Raid Level': level,
        'Raid Devices': str(m['raid_disks']),
        'Avail Dev Size': f'{data_size} sectors',
        'Data Offset': f'{data_offset} sectors',
        'Super Offset': '8 sectors',
        'State': 'clean',
        'Device UUID': m['device_uuid'],
        'Events': str(m['events']),
        'Device Role': 'spare' if m['role'] == 'spare' else f'Active device {m["role"]}',
    }
    if level != 'raid0':
        want['Internal Bitmap'] = '8 sectors from superblock'
        want['Array Size'] = f'{expected_array_kib(m, level, size)} KiB'
        want['Used Dev Size'] = f'{size} sectors'
        # The bad-block log follows the bitmap's 4 KiB.
        want['Bad Block Log'] = '512 entries available at offset 16 sectors'
    else:
        want['Bad Block Log'] = '512 entries available at offset 8 sectors'
        check('Internal Bitmap' not in f, f'{tag}: md gives raid0 no bitmap')
    if layout:
        want['Layout'] = layout
    if chunk:
        want['Chunk Size'] = f'{chunk // 2}K'
    check(m['size'] == size, f'{tag}: superblock size {m["size"]}, expected {size}')
    expect_fields(f, want, tag)
    check(re.fullmatch(r'[0-9a-f]+ - correct', f.get('Checksum', '')),
          f'{tag}: Checksum: {f.get("Checksum")}')
    # mdadm counts 36 KiB from the superblock as metadata, more if the
    # bitmap or bad-block log reached further; ours end before that.
    after = data_size - size if size else 0
    want_unused = f'before={data_offset - 8 - 72} sectors, after={after} sectors'
    check(f.get('Unused Space') == want_unused,
          f'{tag}: Unused Space: {f.get("Unused Space")}, expected {want_unused}')
    check(f.get('Array State', '').startswith('A' * m['raid_disks'] + ' '),
          f'{tag}: Array State: {f.get("Array State")}')


def check_bitmap(m, part, part_sectors, workdir):
    tag = os.path.basename(m['image'])
    rc, f, err = examine_bitmap(part, (8 + m['bitmap_offset']) * 512, workdir)
    check(rc == 0 and not err, f'{tag}: mdadm -X failed: {err}')
    # RAID10's bitmap covers the array, the others' a member.
    sync = used_size(m, part_sectors) * (m['raid_disks'] // 2 if m['level'] == 10 else 1)
    bits = -(-sync * 512 // m['bitmap_chunk'])
    want = {
        'Magic': '6d746962',
        'Version': '4',
        'UUID': m['uuid'],
        'Events': str(m['events']),
        'Events Cleared': str(m['events']),
        'State': 'OK',
        'Chunksize': '64 MB',
        'Daemon': '5s flush period',
        'Write Mode': 'Normal',
        'Sync Size': str(sync // 2),
        'Bitmap': f'{bits} bits (chunks), 0 dirty (0.0%)',
    }
    check(m['bitmap_sync_size'] == sync, f'{tag}: bitmap sync size {m["bitmap_sync_size"]}')
    expect_fields(f, want, f'{tag}: bitmap')


def main():
    if not have_tools('mdadm', 'sgdisk', 'sfdisk', 'fdisk'):
        return 77
    with scratch('format-') as workdir:
        out = subprocess.run([sys.argv[1], workdir], capture_output=True, text=True, check=True)
        members = json.loads(out.stdout)
        check({m['array'] for m in members} == set(EXPECT), 'arrays written')
        for m in members:
            check_gpt(m)
            ss = m['sector_size']
            part_bytes = (m['last_lba'] + 1 - m['first_lba']) * ss
            part = os.path.join(workdir, 'part')
            copy_partition(m['image'], part, m['first_lba'], part_bytes // ss, ss)
            check_examine(m, part, part_bytes // 512)
            if m['level'] != 0:
                check_bitmap(m, part, part_bytes // 512, workdir)
        print(f'{len(members)} members of {len(EXPECT)} arrays examined')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
