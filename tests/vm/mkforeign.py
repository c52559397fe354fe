#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""mkforeign.py DIR - drives with arrays made by mdadm itself, for foreign
import tests: what a user brings from another Linux machine.

Blank images get a GPT with one Linux RAID partition each (sgdisk, on the
host); in the VM, mdadm --create makes v1.2 arrays with an internal bitmap
on those partitions: a RAID1 (r1-0.img, r1-1.img) and a RAID5 (r5-0.img ..
r5-2.img), waits for their initial sync, writes a seeded pattern over each
whole array and stops it. DIR/arrays.json lists each array: name, level,
md UUID, size in bytes, its images in role order and the pattern file
(DIR/NAME.pattern) a test compares an imported VD with.
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from vmtest import SKIP, parse_records, pattern, run_vm  # noqa: E402

DRIVE_MB = 32
ARRAYS = [('r1', 'raid1', 2), ('r5', 'raid5', 3)]
BLOCK = 1 << 16


def partition(image, room_mb=0):
    """A GPT with one Linux RAID (FD00) partition over the whole image, or
    all of it but @room_mb MiB at its end."""
    sgdisk = shutil.which('sgdisk', path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')
    if not sgdisk:
        print('SKIP: sgdisk not installed (Debian package gdisk)')
        sys.exit(SKIP)
    with open(image, 'wb') as f:
        f.truncate(DRIVE_MB << 20)
    end = f'-{room_mb}M' if room_mb else '0'
    subprocess.run([sgdisk, f'--new=1:2048:{end}', '--typecode=1:FD00',
                    '--change-name=1:linux-raid', image],
                   check=True, capture_output=True)


def capacity(level, n):
    """An upper bound of the array's size: the pattern disk's room for it."""
    return (DRIVE_MB << 20) * (n - 1 if level == 'raid5' else 1)


def script(arrays):
    """Create each array, wait for its initial sync, write its region of
    the pattern disk over it whole, print its record, stop it."""
    lines = []
    offset = 0
    for name, level, n in arrays:
        parts = ' '.join(f'/dev/disk/by-name/{name}-{i}1' for i in range(n))
        lines.append(f'''
for i in $(seq 0 {n - 1}); do
	dev=$(readlink /dev/disk/by-name/{name}-$i)
	ln -s ${{dev}}1 /dev/disk/by-name/{name}-${{i}}1
done
mdadm --create /dev/md/{name} --run --metadata=1.2 --level={level} --raid-devices={n} \\
	--bitmap=internal --assume-clean --name={name} {parts} 2>&1 || exit 1
md=$(readlink -f /dev/md/{name}); md=${{md##*/}}
wait_idle $md
bytes=$(($(cat /sys/block/$md/size) * 512))
dd if=/dev/disk/by-name/pattern bs={BLOCK} skip={offset // BLOCK} 2>/dev/null |
	head -c $bytes >/dev/$md || exit 1
sync
echo "@ created {name}"
echo "bytes=$bytes"
mdadm --detail --export /dev/$md | grep MD_UUID
''')
        offset += capacity(level, n)
    return '\n'.join(lines) + '\nstop_all\n'


def make(directory, room_mb=0):
    """Make the images (their partitions leaving @room_mb MiB free at the
    end), DIR/NAME.pattern and DIR/arrays.json; return the list that
    arrays.json holds."""
    disks = []
    for name, _, n in ARRAYS:
        for i in range(n):
            image = os.path.join(directory, f'{name}-{i}.img')
            partition(image, room_mb)
            disks += ['--disk', f'{name}-{i}={image}']
    pattern_disk = os.path.join(directory, 'patterns.img')
    data = {}
    with open(pattern_disk, 'wb') as f:
        for name, level, n in ARRAYS:
            data[name] = pattern(f'mdadm-{name}', capacity(level, n))
            f.write(data[name])
    rc, out = run_vm(disks + ['--ro-disk', f'pattern={pattern_disk}'], script(ARRAYS))
    os.unlink(pattern_disk)
    if rc:
        sys.exit(f'mkforeign: making the arrays failed in the VM:\n{out}')
    created = {n: rec for (k, n), rec in parse_records(out).items() if k == 'created'}
    manifest = []
    for name, level, n in ARRAYS:
        size = int(created[name]['bytes'])
        path = os.path.join(directory, f'{name}.pattern')
        with open(path, 'wb') as p:
            p.write(data[name][:size])
        manifest.append({'name': name, 'level': level, 'uuid': created[name]['MD_UUID'],
                         'bytes': size, 'pattern': path,
                         'images': [os.path.join(directory, f'{name}-{i}.img')
                                    for i in range(n)]})
    with open(os.path.join(directory, 'arrays.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
    return manifest


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__.split('\n')[0])
    json.dump(make(sys.argv[1]), sys.stdout, indent=1)
