#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-md-foreign.py MKMEMBERS - md arrays raidcli did not make show as foreign.

MKMEMBERS writes md v1.2 members as mdadm lays them out (in a Linux RAID
GPT partition; mdadm --examine reads them, test-md-oracle.py checks that).
No kernel md is available here to let mdadm create arrays itself, so these
stand in for mdadm's; the VM tests must repeat this with arrays mdadm
--create made (see raidcli-format(7), "Foreign configurations"). Whole-drive
members are the same members with the GPT cut away (the partition copied
out to an image of its own), which mdadm --examine also reads.

On a soft controller ($RAIDCLI) such drives must show DG F, make one
foreign configuration per array (owner: the md UUID mdadm reports), with
its level, members and completeness. Members whose GPT has a free MiB for
raidcli's metadata partition (sgdisk makes that GPT here) are adopted in
place: the same level, UUID, chunk and member order, every byte of the md
partitions unchanged, a GPT sgdisk -v accepts. So are members filling
their drives from 1 MiB ("sgdisk -n 1:0:0"): the metadata partition goes
in the GPT's gap before them. Whole drives are refused with the reason
and no byte changed; "fall del force" wipes them so that mdadm finds no
superblock and the drives are blank.

"mkmembers DIR plain" makes the arrays mdadm makes with its defaults on
small drives (no bitmap) or with a data offset of its own: they import,
one with a member absent degraded (its present members' superblocks then
count that one out, one event on; rebuilt onto a blank drive after), and
the engine (tests/engine/voltool) reads the pattern the RAID1s hold. A
layout raidcli cannot keep is refused naming the field that differs.

"import bitmap=internal" gives the arrays without a bitmap the one "mdadm
--grow --bitmap=internal" adds, data in place (mdadm --examine and
--examine-bitmap read it), and refuses an array without room for it.

"mkmembers DIR stack" makes an md RAID0 over two md RAID5s (mdadm's
"RAID0 over RAID5s", the RAID0's superblock inside each RAID5's data):
it imports as one RAID50 VD, whole and with a RAID5 lacking the member
that holds the RAID0's superblock (degraded: read through parity), and
the engine reads the pattern the RAID0 holds. "stack0", the same over two
md RAID0s, imports as one RAID00 VD.
"""
import hashlib
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from oracle import (check, copy_partition, examine, examine_bitmap,  # noqa: E402
                    expect_fields, finish, have_tools, run, scratch)

RAIDCLI = os.environ.get('RAIDCLI')
VOLTOOL = os.path.join(os.environ.get('BUILD_ROOT', ''), 'tests', 'engine', 'voltool')
META_TYPE = '0A511BD4-1AB7-4BFC-BE0F-14838F789FCD'


def raidcli(state, *args):
    """(exit status, the first controller's JSON) of raidcli @args J."""
    env = dict(os.environ, RAIDCLI_STATE_DIR=state)
    p = subprocess.run([RAIDCLI] + list(args) + ['J'], capture_output=True, text=True,
                       env=env, timeout=60)
    return p.returncode, json.loads(p.stdout)['Controllers'][0]


def sha(paths):
    out = {}
    for p in paths:
        with open(p, 'rb') as f:
            out[p] = hashlib.sha256(f.read()).hexdigest()
    return out


def controller(state, images):
    rc, _ = raidcli(state, 'add', 'controller', 'type=soft', 'drives=0')
    check(rc == 0, 'add controller')
    for img in images:
        rc, out = raidcli(state, '/c0', 'add', 'drive', 'path=' + img)
        check(rc == 0, f'add drive {img}: {out}')


def test_partitions(work, members):
    """The RAID5 array's four members, then three of them."""
    r5 = [m for m in members if m['array'] == 'r5']
    uuid = r5[0]['uuid']
    part = os.path.join(work, 'r5-part')
    copy_partition(r5[0]['image'], part, r5[0]['first_lba'], r5[0]['last_lba'] + 1 -
                   r5[0]['first_lba'])
    f, _ = examine(part, 'r5-0')
    check(f.get('Array UUID') == uuid, f'mdadm sees UUID {f.get("Array UUID")}, not {uuid}')

    state = os.path.join(work, 'state-gpt')
    images = [m['image'] for m in r5]
    controller(state, images)
    rc, out = raidcli(state, '/c0', 'show')
    dgs = [r['DG'] for r in out['Response Data']['PD LIST']]
    check(dgs == ['F'] * 4, f'md members in GPT partitions show DG F: {dgs}')
    rc, out = raidcli(state, '/c0/fall', 'show', 'all')
    data = out['Response Data']
    cfgs = data.get('Foreign Configurations', [])
    check(rc == 0 and len(cfgs) == 1 and cfgs[0]['Source'] == 'mdadm' and
          cfgs[0]['Owner'] == uuid and cfgs[0]['Complete'] == 'Yes' and
          cfgs[0]['PDs'] == '4/4' and cfgs[0]['Importable'] == 'Yes',
          f'fall show lists the md array: {cfgs}')
    rows = data.get('FOREIGN CONFIGURATION', [])
    check([r['Type'] for r in rows] == ['RAID5'], f'the md array is a RAID5 group: {rows}')
    props = data.get('VD Properties', [{}])[0]
    check(props.get('md UUID') == uuid and props.get('Strip Size') == '64 KB',
          f'the md VD has mdadm UUID and chunk: {props}')
    copies = [sparse_copy(img, os.path.join(work, 'partial-%d.img' % i))
              for i, img in enumerate(images)]
    before = [part_sha(m['image'], m['first_lba'], m['last_lba']) for m in r5]
    rc, out = raidcli(state, '/c0/fall', 'import')
    check(rc == 0, f'md members filling their drives from 1 MiB are imported: {rc} {out}')
    for m, digest in zip(r5, before):
        img = m['image']
        check(part_sha(img, m['first_lba'], m['last_lba']) == digest,
              f'{img}: the md partition is byte for byte intact')
        meta = [p for p in gpt_parts(img) if p[0] == META_TYPE]
        check(len(meta) == 1 and meta[0][2] < m['first_lba'] and
              (meta[0][2] + 1 - meta[0][1]) * 512 >= 768 << 10,
              f'{img}: the metadata partition lies in the gap before the md one: {meta}')
        rc, out_v, _ = run('sgdisk', '-v', img)
        check(rc == 0 and 'No problems found' in out_v, f'{img}: sgdisk -v: {out_v}')
    rc, out = raidcli(state, '/c0/v0', 'show')
    rows = out.get('Response Data', {}).get('Virtual Drives', [])
    check(rc == 0 and rows and rows[0]['State'] == 'Optl', f'the adopted RAID5 is optimal: {rows}')

    images = copies
    state = os.path.join(work, 'state-partial')
    controller(state, images[:3])
    rc, out = raidcli(state, '/c0/fall', 'show')
    cfgs = out['Response Data'].get('Foreign Configurations', [])
    check(rc == 59 and cfgs and cfgs[0]['Complete'] == 'No' and cfgs[0]['PDs'] == '3/4',
          f'three members of four: incomplete (status 59): {rc} {cfgs}')
    rc, out = raidcli(state, '/c0/fall', 'del', 'force')
    check(rc == 0, f'fall del force: {out}')
    for img in images[:3]:
        with open(img, 'rb') as f:
            f.seek(512)
            check(f.read(8) != b'EFI PART', f'{img}: the GPT is gone')
    rc, out = raidcli(state, '/c0', 'show')
    rows = out['Response Data']['PD LIST']
    check(all(r['DG'] == '-' for r in rows), f'wiped md members are not foreign: {rows}')


def part_sha(img, first, last):
    """SHA-256 of LBAs @first..@last of @img."""
    h = hashlib.sha256()
    with open(img, 'rb') as f:
        f.seek(first * 512)
        left = (last + 1 - first) * 512
        while left:
            block = f.read(min(left, 1 << 20))
            h.update(block)
            left -= len(block)
    return h.hexdigest()


def gpt_parts(img):
    """(type GUID, first LBA, last LBA) of each GPT entry of @img, by sfdisk."""
    rc, out, _ = run('sfdisk', '--json', img)
    parts = json.loads(out)['partitiontable'].get('partitions', []) if rc == 0 else []
    return [(p['type'], p['start'], p['start'] + p['size'] - 1) for p in parts]


def sparse_copy(src, dst):
    subprocess.run(['cp', '--sparse=always', src, dst], check=True)
    return dst


def blank(work, name):
    """A blank 96 MiB image, as big as mkmembers' drives."""
    img = os.path.join(work, name + '.img')
    with open(img, 'wb') as f:
        f.truncate(96 << 20)
    return img


def pattern_sha(sectors):
    """SHA-256 of mkmembers' pattern over @sectors: sector k holds k, 64 times."""
    h = hashlib.sha256()
    for k in range(0, sectors, 2048):
        h.update(b''.join(struct.pack('<Q', j) * 64 for j in range(k, min(k + 2048, sectors))))
    return h.hexdigest()


def vd_sha(state, vd, length):
    """SHA-256 of VD @vd's first @length bytes, as the engine reads them."""
    out = os.path.join(os.path.dirname(state), 'vd-read')
    p = subprocess.run([VOLTOOL, state, '0', str(vd), 'read', '0', str(length), out],
                       capture_output=True, text=True,
                       env=dict(os.environ, RAIDCLI_STATE_DIR=state))
    if p.returncode:
        check(False, f'voltool read /v{vd}: {p.stderr}')
        return None
    with open(out, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def md_patch(img, first_lba, values):
    """Set fields of the md v1.2 superblock of the member at @first_lba of
    @img ({byte offset: (struct format, value)}) and its checksum, as md
    computes it."""
    at = (first_lba + 8) * 512
    with open(img, 'r+b') as f:
        f.seek(at)
        sb = bytearray(f.read(4096))
        for offset, (fmt, value) in values.items():
            struct.pack_into(fmt, sb, offset, value)
        max_dev = struct.unpack_from('<I', sb, 220)[0]
        struct.pack_into('<I', sb, 216, 0)
        words = sb[:256 + 2 * max_dev]
        csum = sum(struct.unpack_from('<%dI' % (len(words) // 4), words))
        if len(words) % 4:
            csum += struct.unpack_from('<H', words, len(words) - 2)[0]
        struct.pack_into('<I', sb, 216, ((csum & 0xffffffff) + (csum >> 32)) & 0xffffffff)
        f.seek(at)
        f.write(sb)


def vd_rows(state):
    rc, out = raidcli(state, '/c0/vall', 'show')
    return {r['Name']: r for r in out['Response Data'].get('Virtual Drives', [])}


def test_plain(work, members):
    """Arrays as mdadm makes them by default (no bitmap), with a data offset
    of their own, and with a member absent: adopted as they are."""
    by = {}
    for m in members:
        by.setdefault(m['array'], []).append(m)
    images = {a: [m['image'] for m in sorted(ms, key=lambda m: m['role'])]
              for a, ms in by.items()}
    everything = {a: [part_sha(m['image'], m['first_lba'], m['last_lba']) for m in ms]
                  for a, ms in by.items()}
    odd = [sparse_copy(img, os.path.join(work, 'odd-%d.img' % i))
           for i, img in enumerate(images['p1'])]
    state = os.path.join(work, 'state-plain')
    controller(state, images['p1'] + images['p1off'] + images['p5'][:2] + images['p10'])
    rc, out = raidcli(state, '/c0/fall', 'show')
    cfgs = {c['Owner']: c for c in out['Response Data'].get('Foreign Configurations', [])}
    p5 = cfgs.get(by['p5'][0]['uuid'], {})
    check(rc == 59 and len(cfgs) == 4 and all(c['Importable'] == 'Yes' for c in cfgs.values())
          and p5.get('Complete') == 'No' and p5.get('PDs') == '2/3',
          f'md arrays without bitmap, with a data offset of their own, one lacking a member: '
          f'all importable: {rc} {cfgs}')
    rc, out = raidcli(state, '/c0/fall', 'import')
    check(rc == 0, f'they import: {rc} {out["Command Status"]}')
    rows = vd_rows(state)
    states = {n: r['State'] for n, r in rows.items()}
    check(states == {'p1': 'Optl', 'p1off': 'Optl', 'p5': 'Dgrd', 'p10': 'Optl'},
          f'each is a VD, the RAID5 lacking a member degraded: {states}')
    for a, ms in by.items():
        for m, digest in zip(ms, everything[a]):
            if a != 'p5':
                check(part_sha(m['image'], m['first_lba'], m['last_lba']) == digest,
                      f'{m["image"]}: the md member is byte for byte intact')
    # The degraded one's present members count the one left behind out, as md would.
    for m in by['p5'][:2]:
        part = os.path.join(work, 'p5-examine')
        copy_partition(m['image'], part, m['first_lba'], m['last_lba'] + 1 - m['first_lba'])
        f, _ = examine(part, m['image'])
        check(f.get('Events') == str(m['events'] + 1) and
              f.get('Array State', '').startswith('AA.') and
              f.get('Data Offset') == '%d sectors' % m['data_offset'],
              f'{m["image"]}: after a degraded import md sees member 2 gone, one event on, '
              f'and the data where it was: {f}')
    for name in ('p1', 'p1off'):
        m = by[name][0]
        vd = int(rows.get(name, {}).get('DG/VD', '0/0').split('/')[1])
        check(vd_sha(state, vd, m['size'] * 512) == pattern_sha(m['size']),
              f'{name}: the engine reads what md holds at data offset {m["data_offset"]}')
    spare = blank(work, 'p5-new')
    raidcli(state, '/c0', 'add', 'drive', 'path=' + spare)
    rc, out = raidcli(state, '/c0', 'show')
    slot = out['Response Data']['PD LIST'][-1]['EID:Slt'].split(':')[1]
    rc, out = raidcli(state, '/c0/e252/s' + slot, 'start', 'rebuild', 'wait')
    raidcli(state, '/c0', 'stop', 'service')
    check(vd_rows(state).get('p5', {}).get('State') == 'Optl',
          f'the degraded RAID5 rebuilds onto a blank drive: {rc} {out["Command Status"]}')
    parts = [p for p in gpt_parts(spare) if p[0] != META_TYPE]
    check(len(parts) == 1, f'the new member has the md partition: {parts}')
    if len(parts) == 1:
        part = os.path.join(work, 'p5-new.part')
        copy_partition(spare, part, parts[0][1], parts[0][2] + 1 - parts[0][1])
        f, _ = examine(part, 'p5-new')
        check(f.get('Array UUID') == by['p5'][0]['uuid'] and
              f.get('Data Offset') == '%d sectors' % by['p5'][0]['data_offset'] and
              'Internal Bitmap' not in f,
              f'the new member has md layout (no bitmap, data offset): {f}')
        # md's end of a recovery: the member in sync, at the others' events, in the array's name.
        others = []
        for m in by['p5'][:2]:
            copy_partition(m['image'], part, m['first_lba'], m['last_lba'] + 1 - m['first_lba'])
            others.append(examine(part, m['image'])[0])
        check('Recovery Offset' not in f and f.get('Device Role') == 'Active device 2' and
              all(o.get('Events') == f.get('Events') and o.get('Name') == f.get('Name') and
                  o.get('Array State', '').startswith('AAA') for o in others),
              f'mdadm --examine: the rebuilt member in sync, every member at its events, '
              f'with the array\'s name, AAA: {f} {others}')

    # A member whose data starts elsewhere: md takes it, raidcli cannot keep it.
    m = by['p1'][1]
    md_patch(odd[1], m['first_lba'], {128: ('<Q', m['data_offset'] + 2048),
                                      136: ('<Q', m['data_size'] - 2048)})
    state = os.path.join(work, 'state-odd')
    controller(state, odd)
    before = sha(odd)
    rc, out = raidcli(state, '/c0/fall', 'import')
    msg = out['Command Status']['Description']
    check(rc == 255 and 'data offset: md member' in msg,
          f'a layout raidcli cannot keep is refused naming the field: {rc} {msg}')
    check(sha(odd) == before, 'a refused md import changes no byte')


def data_sha(m):
    """SHA-256 of member @m's md data area, from its data offset to the partition's end."""
    return part_sha(m['image'], m['first_lba'] + m['data_offset'], m['last_lba'])


def test_bitmap(work, members):
    """bitmap=internal: md arrays without a bitmap gain the one "mdadm --grow
    --bitmap=internal" adds, their data where it was; one with no room for
    it is refused naming the array and the room."""
    by = {}
    for m in sorted(members, key=lambda m: m['role']):
        by.setdefault(m['array'], []).append(m)
    # No room: the bad-block log right after the superblock, as md allows.
    cramped = [sparse_copy(m['image'], os.path.join(work, 'cramped-%d.img' % m['role']))
               for m in by['p1']]
    for img, m in zip(cramped, by['p1']):
        md_patch(img, m['first_lba'], {188: ('<I', 8)})
    state = os.path.join(work, 'state-cramped')
    controller(state, cramped)
    before = sha(cramped)
    rc, out = raidcli(state, '/c0/fall', 'import', 'bitmap=internal')
    msg = out['Command Status'].get('Description', '')
    check(rc == 255 and by['p1'][0]['uuid'] in msg and 'needs 8 sectors' in msg and
          'there are 0' in msg,
          f'an array without room for a bitmap is refused, naming it and the room: {rc} {msg}')
    check(sha(cramped) == before, 'a refused bitmap import changes no byte')

    # p10 not in sync: its bitmap gets every bit set, so md resyncs it all.
    for m in by['p10']:
        md_patch(m['image'], m['first_lba'], {208: ('<Q', 0)})
    images = [m['image'] for ms in by.values() for m in ms]
    data = {m['image']: data_sha(m) for ms in by.values() for m in ms}
    state = os.path.join(work, 'state-bitmap')
    controller(state, images)
    everything = sha(images)
    rc, out = raidcli(state, '/c0/fall', 'import', 'preview', 'bitmap=internal')
    changes = out.get('Response Data', {}).get('Import Changes', [])
    check(rc == 0 and len(changes) == 3 and sha(images) == everything and
          all('md write-intent bitmap: 4 KiB at superblock + 8 sectors, 65536 KiB chunks'
              in c['Change'] for c in changes),
          f'the preview shows a bitmap for each array without one, writing nothing: '
          f'{rc} {changes}')
    rc, out = raidcli(state, '/c0/fall', 'import', 'bitmap=internal')
    check(rc == 0, f'import bitmap=internal: {rc} {out["Command Status"]}')
    rows = vd_rows(state)
    raidcli(state, '/c0', 'stop', 'service')
    part = os.path.join(work, 'bitmap-part')
    for name, ms in by.items():
        for m in ms:
            tag = f'{name} {os.path.basename(m["image"])}'
            check(data_sha(m) == data[m['image']], f'{tag}: the md data did not move')
            copy_partition(m['image'], part, m['first_lba'],
                           m['last_lba'] + 1 - m['first_lba'])
            f, _ = examine(part, tag)
            check(f.get('Internal Bitmap') == '8 sectors from superblock' and
                  f.get('Data Offset') == '%d sectors' % m['data_offset'],
                  f'{tag}: mdadm --examine: an internal bitmap, data where it was: {f}')
            if name == 'p1off':
                continue  # it had one: kept as it was
            sync = m['size'] * (m['raid_disks'] // 2 if m['level'] == 10 else 1)
            bits = -(-sync * 512 // (64 << 20))
            dirty = f'{bits} dirty (100.0%)' if name == 'p10' else '0 dirty (0.0%)'
            rc, b, err = examine_bitmap(part, (8 + 8) * 512, work)
            want = {'Magic': '6d746962', 'Version': '4', 'UUID': m['uuid'],
                    'Events': f.get('Events'), 'Events Cleared': f.get('Events'),
                    'State': 'OK', 'Chunksize': '64 MB', 'Sync Size': str(sync // 2),
                    'Bitmap': f'{bits} bits (chunks), {dirty}'}
            check(rc == 0, f'{tag}: mdadm --examine-bitmap: {err}')
            expect_fields(b, want, f'{tag}: bitmap')
    for name in ('p1', 'p1off'):
        m = by[name][0]
        vd = int(rows.get(name, {}).get('DG/VD', '0/0').split('/')[1])
        check(vd_sha(state, vd, m['size'] * 512) == pattern_sha(m['size']),
              f'{name}: the engine reads what md held before the bitmap came')


def regpt(work, m):
    """Member @m moved by sgdisk's GPT to a partition at 2 MiB, 1 MiB left free before it."""
    sectors = m['last_lba'] + 1 - m['first_lba']
    img = os.path.join(work, 'moved-%d.img' % m['role'])
    with open(img, 'wb') as f:
        f.truncate(104 << 20)
    rc, out, err = run('sgdisk', '-n', '1:4096:%d' % (4096 + sectors - 1), '-t', '1:FD00', img)
    check(rc == 0, f'sgdisk: {out}{err}')
    part = os.path.join(work, 'part')
    copy_partition(m['image'], part, m['first_lba'], sectors)
    with open(part, 'rb') as src, open(img, 'r+b') as dst:
        dst.seek(4096 * 512)
        dst.write(src.read())
    return img


def part_digest(img, m):
    """The md partition regpt() placed at 2 MiB: every byte of member @m."""
    with open(img, 'rb') as f:
        f.seek(4096 * 512)
        return hashlib.sha256(f.read((m['last_lba'] + 1 - m['first_lba']) * 512)).hexdigest()


def test_adopt(work, members):
    """The RAID5 array's members with room for the metadata partition: adopted in place."""
    r5 = sorted((m for m in members if m['array'] == 'r5'), key=lambda m: m['role'])
    images = [regpt(work, m) for m in r5]
    before = [part_digest(img, m) for img, m in zip(images, r5)]
    state = os.path.join(work, 'state-adopt')
    controller(state, [images[i] for i in (2, 0, 3, 1)])
    rc, out = raidcli(state, '/c0/fall', 'show')
    cfgs = out['Response Data'].get('Foreign Configurations', [])
    check(cfgs and cfgs[0]['Importable'] == 'Yes', f'md members with room are importable: {cfgs}')
    everything = sha(images)
    rc, out = raidcli(state, '/c0/fall', 'import', 'preview')
    check(rc == 0 and sha(images) == everything, f'md import preview writes nothing: {rc}')
    rc, out = raidcli(state, '/c0/fall', 'import')
    check(rc == 0, f'md import: {out["Command Status"]}')
    if rc:
        return
    rc, out = raidcli(state, '/c0/v0', 'show', 'all')
    data = out.get('Response Data', {})
    row = data.get('/c0/v0', [{}])[0]
    props = data.get('VD0 Properties', {})
    slots = [r['EID:Slt'] for r in data.get('PDs for VD 0', [])]
    check(row.get('TYPE') == 'RAID5' and row.get('Name') == 'r5' and
          props.get('md Array UUID') == r5[0]['uuid'] and props.get('Strip Size') == '64 KB',
          f'the adopted VD is the md array: {row} {props}')
    check(slots == ['252:1', '252:3', '252:0', '252:2'], f'members in md role order: {slots}')
    for img, m, digest in zip(images, r5, before):
        check(part_digest(img, m) == digest, f'{img}: the md member is byte for byte intact')
        rc, out, err = run('sgdisk', '-v', img)
        check(rc == 0 and 'No problems found' in out, f'{img}: sgdisk -v after import: {out}')
        part = os.path.join(work, 'examine')
        copy_partition(img, part, 4096, m['last_lba'] + 1 - m['first_lba'])
        f, _ = examine(part, img)
        check(f.get('Array UUID') == m['uuid'] and f.get('Events') == str(m['events']),
              f'{img}: mdadm --examine still reads the member: {f}')
    rc, out = raidcli(state, '/c0', 'show')
    dgs = [r['DG'] for r in out['Response Data']['PD LIST']]
    check(dgs == [0, 0, 0, 0], f'the adopted members are group 0 members: {dgs}')


def test_whole_drives(work, members):
    """The RAID1 array's members as whole drives (no GPT)."""
    r1 = [m for m in members if m['array'] == 'r1']
    images = []
    for m in r1:
        img = os.path.join(work, 'whole-%d.img' % m['role'])
        copy_partition(m['image'], img, m['first_lba'], m['last_lba'] + 1 - m['first_lba'])
        f, _ = examine(img, img)
        check(f.get('Array UUID') == m['uuid'], f'{img}: mdadm reads the whole-drive member')
        images.append(img)
    state = os.path.join(work, 'state-whole')
    controller(state, images)
    rc, out = raidcli(state, '/c0/fall', 'show', 'all')
    data = out['Response Data']
    cfgs = data.get('Foreign Configurations', [])
    reasons = [p['Reason'] for p in data.get('Import Problems', [])]
    check(len(cfgs) == 1 and cfgs[0]['Owner'] == r1[0]['uuid'] and
          cfgs[0]['Complete'] == 'Yes' and reasons and 'whole drives' in reasons[0],
          f'whole-drive md members: one configuration, not importable: {cfgs} {reasons}')
    before = sha(images)
    rc, out = raidcli(state, '/c0/fall', 'import', 'preview')
    msg = out['Command Status']['Description']
    check(rc == 255 and 'whole drives' in msg and 'GPT' in msg,
          f'import preview of whole-drive members is refused: {rc} {msg}')
    check(sha(images) == before, 'a refused preview changes no byte')
    rc, out = raidcli(state, '/c0/fall', 'del', 'force')
    check(rc == 0, f'fall del force: {out}')
    for img in images:
        rc, _, err = run('mdadm', '--examine', img)
        check(rc != 0, f'{img}: mdadm still finds a superblock after fall del')
    rc, out = raidcli(state, '/c0', 'add', 'vd', 'r1', 'drives=252:0-1')
    check(rc == 0, f'the wiped drives make a new VD: {out}')


def resync_offset(m):
    """The resync_offset of member @m's md superblock: all ones clean, else active."""
    with open(m['image'], 'rb') as f:
        f.seek((m['first_lba'] + 8) * 512 + 208)
        return struct.unpack('<Q', f.read(8))[0]


def service_log(state):
    run = os.path.join(state, 'run')
    return ''.join(open(os.path.join(run, n), errors='replace').read()
                   for n in sorted(os.listdir(run)) if n.endswith('.log'))


def wait_for(cond, seconds):
    for _ in range(seconds * 10):
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def test_crash(work, members):
    """kill -9 of the controller process with arrays without a bitmap open:
    md finds them active and resyncs them whole, or refuses a degraded one;
    so does raidcli, instead of marking them clean at its next stop."""
    by = {}
    for m in members:
        by.setdefault(m['array'], []).append(m)
    p1, p5 = by['p1'], by['p5'][:2]
    state = os.path.join(work, 'state-crash')
    controller(state, [m['image'] for m in p1 + p5])
    rc, out = raidcli(state, '/c0/fall', 'import')
    check(rc == 0, f'RAID1 and degraded RAID5 without bitmap import: {rc} {out}')
    vd = {n: r['DG/VD'].split('/')[1] for n, r in vd_rows(state).items()}
    for name in ('p1', 'p5'):
        rc, out = raidcli(state, '/c0/v' + vd.get(name, '9'), 'start', 'export')
        check(rc == 0, f'start export {name}: {rc} {out["Command Status"]}')
    check(all(resync_offset(m) == 0 for m in p1 + p5),
          'mdadm --examine: open arrays are active')
    rc, out = raidcli(state, '/c0', 'show', 'service')
    pid = out['Response Data']['Controller Process'].get('PID')
    check(isinstance(pid, int) and pid > 1, f'the controller process runs: {pid}')
    if not isinstance(pid, int) or pid <= 1:
        return
    os.kill(pid, signal.SIGKILL)
    check(wait_for(lambda: raidcli(state, '/c0', 'show', 'service')[1]['Response Data']
                   ['Controller Process']['Status'] == 'Not Running', 30), 'kill -9 ends it')
    row = vd_rows(state).get('p5', {})
    check(row.get('State') == 'Dgrd' and row.get('Consist') == 'No',
          f'the degraded RAID5 left active shows Consist No: {row}')
    rc, out = raidcli(state, '/c0/v' + vd.get('p5', '9'), 'start', 'export')
    msg = out['Command Status'].get('Description', '')
    check(rc != 0 and 'not shut down cleanly' in msg,
          f'start export refuses it without force, as md refuses to start it: {rc} {msg}')
    rc, out = raidcli(state, '/c0/v' + vd.get('p1', '9'), 'start', 'export')
    check(rc == 0, f'start export of the RAID1: {rc} {out["Command Status"]}')
    check(wait_for(lambda: 'ended: done' in service_log(state), 60) and
          'v%s was not shut down cleanly' % vd.get('p1') in service_log(state),
          f'the RAID1 left active is resynced: {service_log(state)}')
    swept = re.search(r'ended: done, \d+ mismatches, (\d+) MiB swept', service_log(state))
    whole = p1[0]['size'] * 512 >> 20
    check(swept and abs(int(swept.group(1)) - whole) <= 1,
          f'the resync swept all of each member ({whole} MiB), having no bitmap to go by: '
          f'{swept and swept.group(0)}')
    rc, out = raidcli(state, '/c0', 'stop', 'service')
    check(all(resync_offset(m) == 2**64 - 1 for m in p1),
          'mdadm --examine: the resynced RAID1 is clean after a clean stop')
    check(all(resync_offset(m) == 0 for m in p5),
          'mdadm --examine: the degraded RAID5 never resynced stays active, for md to refuse')


def test_stack(work, lose, kind='stack', level='RAID50'):
    """An md RAID0 over two md RAID5s (@kind stack0: RAID0s), without drive
    @lose (or all): one @level VD serving the RAID0's data."""
    top = os.path.join(work, kind + '-' + ('degraded' if lose else 'whole'))
    os.mkdir(top)
    out = subprocess.run([sys.argv[1], top, kind], capture_output=True, text=True,
                         check=True)
    images = [m['image'] for m in json.loads(out.stdout) if m['image'] != lose]
    state = os.path.join(top, 'state')
    controller(state, images)
    rc, out = raidcli(state, '/c0/fall', 'show')
    cfgs = out['Response Data'].get('Foreign Configurations', [])
    check(len(cfgs) == 1 and cfgs[0]['Importable'] == 'Yes',
          f'the {kind} RAID0 is one importable configuration: {cfgs}')
    rc, out = raidcli(state, '/c0/fall', 'import')
    check(rc == 0, f'it imports: {rc} {out["Command Status"]}')
    rows = list(vd_rows(state).values())
    want = 'Dgrd' if lose else 'Optl'
    check(len(rows) == 1 and rows[0]['TYPE'] == level and rows[0]['State'] == want,
          f'one {want} {level} VD: {rows}')
    if len(rows) == 1:
        sectors = int(float(rows[0]['Size'].split()[0]) * 2048)
        check(vd_sha(state, 0, sectors * 512) == pattern_sha(sectors),
              f'the engine reads the data of the {kind} RAID0')


def main():
    if len(sys.argv) != 2 or not RAIDCLI:
        print('usage: RAIDCLI=... test-md-foreign.py MKMEMBERS', file=sys.stderr)
        return 1
    if not have_tools('mdadm', 'sgdisk'):
        return 77
    with scratch('md-foreign.') as work:
        out = subprocess.run([sys.argv[1], work], capture_output=True, text=True, check=True)
        members = json.loads(out.stdout)
        test_adopt(work, members)  # first: test_partitions wipes the originals
        test_partitions(work, members)
        test_whole_drives(work, members)
        out = subprocess.run([sys.argv[1], work, 'plain'], capture_output=True, text=True,
                             check=True)
        test_plain(work, json.loads(out.stdout))
        crash = os.path.join(work, 'crash')
        os.mkdir(crash)
        out = subprocess.run([sys.argv[1], crash, 'plain'], capture_output=True, text=True,
                             check=True)
        test_crash(crash, json.loads(out.stdout))
        bitmap = os.path.join(work, 'bitmap')
        os.mkdir(bitmap)
        out = subprocess.run([sys.argv[1], bitmap, 'plain'], capture_output=True, text=True,
                             check=True)
        test_bitmap(bitmap, json.loads(out.stdout))
        test_stack(work, None)
        test_stack(work, os.path.join(work, 'stack-degraded', 'p50-1-0.img'))
        test_stack(work, None, 'stack0', 'RAID00')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
