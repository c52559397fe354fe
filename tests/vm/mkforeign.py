#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""mkforeign.py DIR - drives with arrays made by mdadm itself, for foreign
import tests: what a user brings from another Linux machine.

Blank images get a GPT with one Linux RAID partition each (sgdisk, on the
host); in the VM, mdadm --create makes v1.2 arrays on those partitions,
waits for their initial sync, writes a seeded pattern over each whole
array, reads it back (its sha256 as md reads it) and stops it. By default
(ARRAYS) a RAID1 (r1-0.img, r1-1.img) and a RAID5 (r5-0.img .. r5-2.img)
with an internal bitmap; a caller may pass its own list of Array()s,
among them an md RAID0 over md RAID5s or RAID6s (spans=2: mdadm's
defaults, the images of span 0's members, then span 1's).
DIR/arrays.json lists each array: name, level, md UUID, size in bytes,
md's sha256 of it, its images in role order and the pattern file
(DIR/NAME.pattern) a test compares an imported VD with.
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from vmtest import SKIP, parse_records, pattern, run_vm  # noqa: E402

BLOCK = 1 << 16


class Array:
    """An array to make: @n members of @level on @drive_mb MiB drives, with
    an internal bitmap or (@bitmap False) mdadm's default (none on small
    drives), its partitions from LBA @start ("sgdisk -n 1:0:0" starts at
    2048, the first 1 MiB boundary). With @spans over 1, @spans such arrays
    and an md RAID0 over them: the array is that RAID0 (raid50, raid60)."""

    def __init__(self, name, level, n, bitmap=True, start=2048, drive_mb=32, spans=1):
        self.name, self.level, self.n = name, level, n
        self.bitmap, self.start, self.drive_mb = bitmap, start, drive_mb
        self.spans = spans
        self.kind = level if spans == 1 else level + '0'

    def capacity(self):
        """An upper bound of the array's size: the pattern disk's room for it."""
        data = {'raid5': self.n - 1, 'raid6': self.n - 2, 'raid10': self.n // 2}
        return (self.drive_mb << 20) * data.get(self.level, 1) * self.spans


def create(a):
    """Shell lines creating @a's array as /dev/md/NAME, its spans' first."""
    bitmap = '--bitmap=internal ' if a.bitmap else ''
    common = '--run --metadata=1.2 --assume-clean'
    if a.spans == 1:
        parts = ' '.join(f'/dev/disk/by-name/{a.name}-{i}1' for i in range(a.n))
        return (f'mdadm --create /dev/md/{a.name} {common} --level={a.level} '
                f'--raid-devices={a.n} {bitmap}--name={a.name} {parts} 2>&1 || exit 1\n')
    lines = ''
    for s in range(a.spans):
        parts = ' '.join(f'/dev/disk/by-name/{a.name}-{i}1'
                         for i in range(s * a.n, (s + 1) * a.n))
        lines += (f'mdadm --create /dev/md/{a.name}-s{s} {common} --level={a.level} '
                  f'--raid-devices={a.n} {bitmap}--name={a.name}-s{s} {parts} 2>&1 || exit 1\n'
                  f'wait_idle $(basename $(readlink -f /dev/md/{a.name}-s{s}))\n')
    spans = ' '.join(f'/dev/md/{a.name}-s{s}' for s in range(a.spans))
    return lines + (f'mdadm --create /dev/md/{a.name} --run --metadata=1.2 --level=0 '
                    f'--raid-devices={a.spans} --name={a.name} {spans} 2>&1 || exit 1\n')


ARRAYS = [Array('r1', 'raid1', 2), Array('r5', 'raid5', 3)]


def partition(image, array, room_mb=0):
    """A GPT with one Linux RAID (FD00) partition from LBA @array.start to
    the end of the image, or to @room_mb MiB before it."""
    sgdisk = shutil.which('sgdisk', path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')
    if not sgdisk:
        print('SKIP: sgdisk not installed (Debian package gdisk)')
        sys.exit(SKIP)
    with open(image, 'wb') as f:
        f.truncate(array.drive_mb << 20)
    end = f'-{room_mb}M' if room_mb else '0'
    subprocess.run([sgdisk, f'--new=1:{array.start}:{end}', '--typecode=1:FD00',
                    '--change-name=1:linux-raid', image],
                   check=True, capture_output=True)


def script(arrays):
    """Create each array, wait for its initial sync, write its region of
    the pattern disk over it whole, print its record with md's sha256 of
    it, stop it."""
    lines = []
    offset = 0
    for a in arrays:
        name, n = a.name, a.n * a.spans
        lines.append(f'''
for i in $(seq 0 {n - 1}); do
	dev=$(readlink /dev/disk/by-name/{name}-$i)
	ln -s ${{dev}}1 /dev/disk/by-name/{name}-${{i}}1
done
{create(a)}md=$(readlink -f /dev/md/{name}); md=${{md##*/}}
{'wait_idle $md' if a.spans == 1 else 'sleep 0.5  # a RAID0 has no sync to wait for'}
bytes=$(($(cat /sys/block/$md/size) * 512))
dd if=/dev/disk/by-name/pattern bs={BLOCK} skip={offset // BLOCK} 2>/dev/null |
	head -c $bytes >/dev/$md || exit 1
sync
echo "@ created {name}"
echo "bytes=$bytes"
set -- $(sha256sum /dev/$md)
echo "sha256=$1"
mdadm --detail --export /dev/$md | grep MD_UUID
''')
        offset += a.capacity()
    return '\n'.join(lines) + '\nstop_all\n'


def make(directory, room_mb=0, arrays=None):
    """Make @arrays' images (ARRAYS by default; their partitions leaving
    @room_mb MiB free at the end), DIR/NAME.pattern and DIR/arrays.json;
    return the list that arrays.json holds."""
    arrays = arrays or ARRAYS
    disks = []
    for a in arrays:
        for i in range(a.n * a.spans):
            image = os.path.join(directory, f'{a.name}-{i}.img')
            partition(image, a, room_mb)
            disks += ['--disk', f'{a.name}-{i}={image}']
    pattern_disk = os.path.join(directory, 'patterns.img')
    data = {}
    with open(pattern_disk, 'wb') as f:
        for a in arrays:
            data[a.name] = pattern(f'mdadm-{a.name}', a.capacity())
            f.write(data[a.name])
    rc, out = run_vm(disks + ['--ro-disk', f'pattern={pattern_disk}'], script(arrays),
                     timeout=900)
    os.unlink(pattern_disk)
    if rc:
        sys.exit(f'mkforeign: making the arrays failed in the VM:\n{out}')
    created = {n: rec for (k, n), rec in parse_records(out).items() if k == 'created'}
    manifest = []
    for a in arrays:
        size = int(created[a.name]['bytes'])
        path = os.path.join(directory, f'{a.name}.pattern')
        with open(path, 'wb') as p:
            p.write(data[a.name][:size])
        manifest.append({'name': a.name, 'level': a.kind, 'uuid': created[a.name]['MD_UUID'],
                         'bytes': size, 'sha256': created[a.name]['sha256'], 'pattern': path,
                         'images': [os.path.join(directory, f'{a.name}-{i}.img')
                                    for i in range(a.n * a.spans)]})
    with open(os.path.join(directory, 'arrays.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
    return manifest


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__.split('\n')[0])
    json.dump(make(sys.argv[1]), sys.stdout, indent=1)
