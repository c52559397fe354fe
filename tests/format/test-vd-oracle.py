#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-vd-oracle.py VDTOOL - show the VDs a soft controller creates to
sfdisk and mdadm, and check they say what the library's model says.

VDTOOL (tests/format/vdtool.c) drives the public API. On a controller of
38 sparse images it creates RAID0, RAID1, RAID5, RAID6, RAID10, RAID50,
RAID60 and RAID00 VDs and a second VD in the RAID5 group. For every member, the VD's
partition (found with sfdisk --json) goes to mdadm --examine, and its
bitmap to mdadm --examine-bitmap: level, layout, chunk, raid devices, array
UUID, name, sizes and device role must be the model's. RAID00/50/60 nest:
each span is an md RAID0/5/6 array, and the top RAID0's superblock, found in the
span array's first chunk, must name the model's UUID and the span's role. A new process must then read
back the same model; deleting VDs must remove exactly their superblocks
and partitions; foreign drives and file systems must be refused.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from oracle import (check, copy_partition, examine, examine_bitmap,  # noqa: E402
                    expect_fields, fields, finish, have_tools, partition_table, run,
                    scratch)

NOT_ALLOWED, NEED_FORCE = 255, 245
MD_LEVEL = {'RAID0': 'raid0', 'RAID1': 'raid1', 'RAID5': 'raid5', 'RAID6': 'raid6',
            'RAID10': 'raid10', 'RAID50': 'raid5', 'RAID60': 'raid6', 'RAID00': 'raid0'}
MD_LAYOUT = {'RAID5': 'left-symmetric', 'RAID6': 'left-symmetric', 'RAID10': 'near=2',
             'RAID50': 'left-symmetric', 'RAID60': 'left-symmetric'}
NESTED = ('RAID50', 'RAID60', 'RAID00')

class Tool:
    def __init__(self, exe, state):
        self.exe, self.state = exe, state

    def __call__(self, *args, expect=0):
        rc, out, err = run(self.exe, self.state, *map(str, args))
        check(rc == expect, f'vdtool {" ".join(map(str, args))}: exit {rc}, '
              f'expected {expect}: {err.strip()}')
        return out, err

    def create(self, *args):
        out, _ = self(*(('create',) + args))
        return int(out.split('\n', 1)[0]) if out else None

    def show(self):
        out, _ = self('show')
        return json.loads(out)


def partition(image, vd):
    """The VD's partition on @image: (start, size) in sectors, or None."""
    table = partition_table(image)
    if table is None:
        return None
    for p in table['partitions']:
        if p.get('name') == f'raidcli v{vd}':
            return p['start'], p['size']
    return None


def members(model, vd):
    """The VD's member drives, in md role order (span by span)."""
    ms = [d for d in model['drives'] if d['dg'] == vd['dg'] and d['state'] != 'DHS']
    return sorted(ms, key=lambda d: (d['span'], d['row']))


def data_disks(vd):
    """Members' worth of data in each member's md array (a span's, when nested)."""
    n = vd['spans'] * vd['drives_per_span']
    d = vd['drives_per_span']
    return {'RAID0': n, 'RAID1': 1, 'RAID5': n - 1, 'RAID6': n - 2, 'RAID10': n // 2,
            'RAID50': d - 1, 'RAID60': d - 2, 'RAID00': d}[vd['level']]


def chunk_member(level, n, chunk):
    """md's raid0, left-symmetric RAID5/6 (raid5.c): the member and stripe of a chunk."""
    parity = {'RAID6': 2, 'RAID60': 2, 'RAID00': 0}.get(level, 1)
    stripe, data = divmod(chunk, n - parity)
    if not parity:
        return data, stripe
    pd = n - 1 - stripe % n
    return (pd + parity + data) % n, stripe


def expect(f, want, tag):
    expect_fields(f, want, tag)
    check(re.fullmatch(r'[0-9a-f]+ - correct', f.get('Checksum', '')), f'{tag}: checksum')


def check_top(vd, span, part, f, workdir, tag):
    """RAID00/50/60: the top RAID0's superblock in the span array's first chunk."""
    offset = int(f['Data Offset'].split()[0])
    avail = int(f['Avail Dev Size'].split()[0])
    chunk = vd['strip_kib'] * 2
    # A raid0 span array uses each member's data rounded down to the chunk.
    used = int(f.get('Used Dev Size', f'{avail // chunk * chunk} ').split()[0])
    span_array = os.path.join(workdir, 'span')
    with open(part, 'rb') as src, open(span_array, 'wb') as dst:
        src.seek(offset * 512)
        dst.write(src.read(vd['strip_kib'] * 1024))
        dst.truncate(used * 512 * data_disks(vd))
    t, _ = examine(span_array, f'{tag} top')
    expect(t, {'Raid Level': 'raid0', 'Raid Devices': str(vd['spans']), 'Array UUID': vd['uuid'],
               'Device Role': f'Active device {span}', 'Chunk Size': f'{vd["strip_kib"]}K'},
           f'{tag} top')
    top_avail = int(t.get('Avail Dev Size', '0 ').split()[0])
    check(top_avail // chunk * chunk * 512 * vd['spans'] == vd['bytes'],
          f'{tag} top: Avail Dev Size {top_avail} x {vd["spans"]} is not {vd["bytes"]} bytes')
    check(t.get('Name', '').endswith(f':v{vd["id"]}'), f'{tag} top: Name {t.get("Name")}')


def check_member(vd, role, drive, workdir, seen):
    tag = f'v{vd["id"]} member {role} ({os.path.basename(drive["path"])})'
    where = partition(drive['path'], vd['id'])
    check(where is not None, f'{tag}: sfdisk lists no partition "raidcli v{vd["id"]}"')
    if where is None:
        return
    start, size = where
    rc, out, err = run('sgdisk', '-v', drive['path'])
    check(rc == 0 and 'No problems found' in out, f'{tag}: sgdisk -v: {out}{err}')
    part = os.path.join(workdir, 'part')
    copy_partition(drive['path'], part, start, size)
    f, _ = examine(part, tag)
    strip, nested = vd['strip_kib'], vd['level'] in NESTED
    span, row = divmod(role, vd['drives_per_span']) if nested else (0, role)
    n = vd['drives_per_span'] if nested else vd['spans'] * vd['drives_per_span']
    want = {'Version': '1.2', 'Raid Level': MD_LEVEL[vd['level']], 'Raid Devices': str(n),
            'Device Role': f'Active device {row}', 'Super Offset': '8 sectors'}
    if not nested:
        want['Array UUID'] = vd['uuid']
    if vd['level'] in MD_LAYOUT:
        want['Layout'] = MD_LAYOUT[vd['level']]
    if vd['level'] != 'RAID1':
        want['Chunk Size'] = f'{strip}K'
    expect(f, want, tag)
    # A nested VD's span arrays: one UUID per span, named after it.
    uuid = f.get('Array UUID')
    check(seen.setdefault(('uuid', span), uuid) == uuid, f'{tag}: span {span} UUIDs differ')
    name = f':v{vd["id"]}-{span}' if nested else f':v{vd["id"]}'
    check(f.get('Name', '').endswith(name), f'{tag}: Name {f.get("Name")}')
    offset = int(f.get('Data Offset', '0 ').split()[0])
    seen.setdefault('offsets', set()).add(offset)
    avail = int(f.get('Avail Dev Size', '0 ').split()[0])
    check(avail == size - offset, f'{tag}: Avail Dev Size {avail}, partition {size} - {offset}')
    if vd['level'] == 'RAID0':
        chunk = strip * 2
        check(avail // chunk * chunk * 512 * data_disks(vd) == vd['bytes'],
              f'{tag}: Avail Dev Size {avail} in {strip}K chunks is not {vd["bytes"]} bytes')
    if MD_LEVEL[vd['level']] == 'raid0':
        check('Internal Bitmap' not in f, f'{tag}: md gives raid0 no bitmap')
    if vd['level'] == 'RAID0':
        return
    # mdadm prints the used size only when it is not all of it.
    used = int(f.get('Used Dev Size', f'{avail} ').split()[0])
    if not nested:
        check(used * 512 * data_disks(vd) == vd['bytes'],
              f'{tag}: Used Dev Size {used} x {data_disks(vd)} is not {vd["bytes"]} bytes')
    elif row == chunk_member(vd['level'], n, 0)[0]:
        check_top(vd, span, part, f, workdir, tag)
        seen['tops'] = seen.get('tops', 0) + 1
    if vd['level'] == 'RAID00':
        return
    check(f.get('Internal Bitmap') == '8 sectors from superblock', f'{tag}: bitmap')
    rc, b, err = examine_bitmap(part, 16 * 512, workdir)
    check(rc == 0 and b.get('UUID') == uuid and b.get('Magic') == '6d746962',
          f'{tag}: mdadm -X: {b.get("UUID")} {b.get("Magic")} {err}')


def check_vds(model, workdir):
    for vd in model['vds']:
        ms = members(model, vd)
        check(len(ms) == vd['spans'] * vd['drives_per_span'], f'v{vd["id"]}: member count')
        seen = {}
        for role, drive in enumerate(ms):
            check(drive['state'] == 'Onln', f'v{vd["id"]}: drive {drive["slot"]} {drive["state"]}')
            check_member(vd, role, drive, workdir, seen)
        check(len(seen['offsets']) == 1,
              f'v{vd["id"]}: members disagree on the data offset {seen["offsets"]}')
        if vd['level'] in NESTED:
            uuids = {seen[('uuid', s)] for s in range(vd['spans'])}
            check(len(uuids) == vd['spans'] and vd['uuid'] not in uuids,
                  f'v{vd["id"]}: span arrays share a UUID: {uuids}')
            check(seen.get('tops') == vd['spans'], f'v{vd["id"]}: {seen.get("tops")} top superblocks')


def superblock_at(image, start):
    with open(image, 'rb') as f:
        f.seek(start * 512 + 4096)
        return f.read(4) == b'\xfc\x4e\x2b\xa9'


def check_delete(tool, model):
    """Delete the RAID5 group's second VD, then the RAID1 group's only one."""
    r5 = [v for v in model['vds'] if v['level'] == 'RAID5']
    second, first = r5[1], r5[0]
    starts = {d['path']: partition(d['path'], second['id']) for d in members(model, second)}
    tool('delete', second['id'])
    after = tool.show()
    check([v['id'] for v in after['vds']] == [v['id'] for v in model['vds'] if v is not second],
          'delete: the other VDs stay')
    for path, where in starts.items():
        check(where and not superblock_at(path, where[0]), f'delete: md superblock left on {path}')
        check(partition(path, second['id']) is None, f'delete: partition left on {path}')
        check(partition(path, first['id']) is not None, f'delete: lost v{first["id"]} on {path}')
    r1 = next(v for v in after['vds'] if v['level'] == 'RAID1')
    paths = [d['path'] for d in members(after, r1)]
    tool('delete', r1['id'])
    after = tool.show()
    for d in after['drives']:
        if d['path'] in paths:
            check(d['state'] == 'UGood' and d['dg'] == -1, f'delete: {d["path"]} not UGood')
            check(partition_table(d['path']) is None,
                  f'delete: {d["path"]} still has a partition table')
    return after


def check_spare_vd(vd, drive, workdir, events):
    """@drive is a spare in @vd's array: same Array UUID, role spare, the members' events."""
    tag = f'v{vd["id"]} spare ({os.path.basename(drive["path"])})'
    where = partition(drive['path'], vd['id'])
    check(where is not None, f'{tag}: sfdisk lists no partition "raidcli v{vd["id"]}"')
    if where is None:
        return
    part = os.path.join(workdir, 'part')
    copy_partition(drive['path'], part, *where)
    f, _ = examine(part, tag)
    expect(f, {'Array UUID': vd['uuid'], 'Device Role': 'spare',
               'Raid Devices': str(vd['spans'] * vd['drives_per_span'])}, tag)
    check(f.get('Events') == events, f'{tag}: Events {f.get("Events")}, members {events}')
    rc, b, err = examine_bitmap(part, 16 * 512, workdir)
    check(rc == 0 and b.get('UUID') == vd['uuid'], f'{tag}: mdadm -X: {b.get("UUID")} {err}')


def member_events(model, vd, workdir):
    """The Events every member of @vd shows (checked to agree)."""
    seen = set()
    for d in members(model, vd):
        part = os.path.join(workdir, 'part')
        copy_partition(d['path'], part, *partition(d['path'], vd['id']))
        seen.add(examine(part, f'v{vd["id"]} member')[0].get('Events'))
    check(len(seen) == 1, f'v{vd["id"]}: members disagree on Events {seen}')
    return seen.pop()


def check_spares(tool, model, workdir):
    """A dedicated spare of the RAID5 group (two VDs) joins both arrays; a global one has none."""
    r5 = [v for v in model['vds'] if v['level'] == 'RAID5']
    free = [d for d in model['drives'] if d['state'] == 'UGood']
    dhs, ghs = free[0], free[1]
    tool('spare', dhs['slot'], r5[0]['dg'])
    tool('spare', ghs['slot'])
    after = tool.show()
    by_slot = {d['slot']: d for d in after['drives']}
    check(by_slot[dhs['slot']]['state'] == 'DHS' and by_slot[dhs['slot']]['dg'] == r5[0]['dg'],
          f'spare: {by_slot[dhs["slot"]]}')
    check(by_slot[ghs['slot']]['state'] == 'GHS', f'spare: {by_slot[ghs["slot"]]}')
    for vd in r5:
        check_spare_vd(vd, dhs, workdir, member_events(after, vd, workdir))
    table = partition_table(ghs['path'])
    check(table is not None and not any(p.get('name', '').startswith('raidcli v')
                                        for p in table['partitions']),
          'a global spare carries no VD partition')
    check_vds(after, workdir)
    print(f'dedicated spare {dhs["slot"]} examined in {len(r5)} arrays, global spare {ghs["slot"]}')
    return after


def check_record_spares(tool, model, workdir):
    """A RAID50 group's spare and one of two groups are the record's: md's arrays stay as they were."""
    r50 = next(v for v in model['vds'] if v['level'] == 'RAID50')
    r5 = next(v for v in model['vds'] if v['level'] == 'RAID5')
    free = [d for d in model['drives'] if d['state'] == 'UGood']
    events = {v['id']: [examine_member(v, m, workdir, 'before')['Events']
                        for m in members(model, v)] for v in (r50, r5)}
    tool('spare', free[0]['slot'], r50['dg'])
    tool('spare', free[1]['slot'], f'{r5["dg"]},{r50["dg"]}')
    after = tool.show()
    by_slot = {d['slot']: d for d in after['drives']}
    for d, dg in ((free[0], r50['dg']), (free[1], min(r5['dg'], r50['dg']))):
        check(by_slot[d['slot']]['state'] == 'DHS' and by_slot[d['slot']]['dg'] == dg,
              f'record spare: {by_slot[d["slot"]]}')
        table = partition_table(d['path'])
        check(table is not None and [p.get('name') for p in table['partitions']] ==
              ['raidcli metadata'], f'record spare {d["slot"]}: partitions {table}')
    for v in (r50, r5):
        now = [examine_member(v, m, workdir, 'after')['Events'] for m in members(after, v)]
        check(now == events[v['id']], f'v{v["id"]}: events {events[v["id"]]} -> {now}')
    for d in free[:2]:
        tool('unspare', d['slot'])
        check(partition_table(d['path']) is None, f'unspare: {d["path"]} not blank')
    print('spares of a RAID50 group and of two groups leave md\'s arrays alone')
    return tool.show()


def check_spares_after_delete(tool, model, workdir):
    """The dedicated spare lost the deleted VD's partition; removing spares blanks them."""
    for d in model['drives']:
        if d['state'] != 'DHS':
            continue
        vds = [v for v in model['vds'] if v['dg'] == d['dg']]
        names = sorted(p.get('name') for p in partition_table(d['path'])['partitions']
                       if p.get('name', '').startswith('raidcli v'))
        check(names == sorted(f'raidcli v{v["id"]}' for v in vds), f'spare partitions {names}')
        for vd in vds:
            check_spare_vd(vd, d, workdir, member_events(model, vd, workdir))
    for d in model['drives']:
        if d['state'] in ('DHS', 'GHS'):
            tool('unspare', d['slot'])
            check(partition_table(d['path']) is None, f'unspare: {d["path"]} not blank')
    return tool.show()


def examine_member(vd, drive, workdir, tag):
    """mdadm --examine of @drive's partition of @vd: its fields."""
    part = os.path.join(workdir, 'part')
    copy_partition(drive['path'], part, *partition(drive['path'], vd['id']))
    return examine(part, tag)[0]


def array_of(model, vd, member):
    """The members of @vd in the md array @member belongs to (its span's for RAID50/60)."""
    ms = members(model, vd)
    if vd['level'] not in NESTED:
        return ms
    return [m for m in ms if m['span'] == member['span']]


def check_state_change(tool, vd, member, change, workdir):
    """Set @member of @vd to @change and check what md sees in every array of the group.

    The members of @member's array that hold data show its role faulty
    ('.' in Array State) after offline and failed, active after online,
    their events one up; a member taken offline keeps its old superblock,
    as md writes nothing to a device it kicked."""
    model = tool.show()
    peers = array_of(model, vd, member)
    before = {m['slot']: int(examine_member(vd, m, workdir, 'before')['Events']) for m in peers}
    tool('state', member['slot'], change)
    after = tool.show()
    state = {d['slot']: d['state'] for d in after['drives']}
    slots = [m['slot'] for m in peers]
    row = member['row'] if vd['level'] in NESTED else slots.index(member['slot'])
    for m in peers:
        tag = f'v{vd["id"]} {change} {member["slot"]}: member {m["slot"]}'
        f = examine_member(vd, m, workdir, tag)
        if m['slot'] != member['slot'] and m['state'] != 'Onln':
            continue  # kicked before: md writes nothing to it
        if m['slot'] == member['slot'] and change != 'online':
            check(int(f['Events']) == before[m['slot']], f'{tag}: events moved on a kicked member')
            continue
        check(int(f['Events']) == max(before.values()) + 1,
              f'{tag}: Events {f["Events"]}, expected {max(before.values()) + 1}')
        active = f.get('Array State', '')[row:row + 1]
        check(active == ('A' if change == 'online' else '.'),
              f'{tag}: Array State {f.get("Array State")!r} at role {row}')
    want = {'online': 'Onln', 'offline': 'Offln', 'failed': 'UBad'}[change]
    check(state[member['slot']] == want, f'{change}: drive {member["slot"]} is {state[member["slot"]]}')
    return after


def check_states(tool, model, workdir):
    """Offline, online and failed members as md sees them; VD states from member states."""
    states = {}
    for level, pick in (('RAID5', 1), ('RAID50', 4), ('RAID60', 5), ('RAID10', 2)):
        vd = next(v for v in model['vds'] if v['level'] == level)
        member = members(model, vd)[pick]
        after = check_state_change(tool, vd, member, 'offline', workdir)
        states[level] = next(v for v in after['vds'] if v['id'] == vd['id'])['state']
        check_state_change(tool, vd, member, 'online', workdir)
    check(states == {'RAID5': 'Dgrd', 'RAID50': 'Dgrd', 'RAID60': 'Pdgd', 'RAID10': 'Dgrd'},
          f'VD states with one member offline: {states}')
    print('offline and online members examined in RAID5, RAID50, RAID60 and RAID10 arrays')
    return tool.show()


def check_failed(tool, workdir):
    """A RAID6 member fails, another goes offline, a third may not; the failed one leaves."""
    tool.create('RAID6', '7,8,9,10')
    model = tool.show()
    vd = next(v for v in model['vds'] if v['level'] == 'RAID6')
    ms = members(model, vd)
    check_state_change(tool, vd, ms[0], 'failed', workdir)
    check_state_change(tool, vd, ms[1], 'offline', workdir)
    check(next(v for v in tool.show()['vds'] if v['id'] == vd['id'])['state'] == 'Dgrd',
          'RAID6 with two members lost is not Dgrd')
    _, err = tool('state', ms[2]['slot'], 'offline', expect=NEED_FORCE)
    check('offline' in err and 'force' in err, f'a third RAID6 member offline: {err}')
    # A failed member leaves with set good force; md keeps its role faulty.
    tool('state', ms[0]['slot'], 'good', expect=NEED_FORCE)
    tool('state', ms[0]['slot'], 'good', 'force')
    tool('state', ms[1]['slot'], 'online')
    after = tool.show()
    by_slot = {d['slot']: d for d in after['drives']}
    check(by_slot[ms[0]['slot']]['state'] == 'UGood' and partition_table(ms[0]['path']) is None,
          f'set good force: drive {by_slot[ms[0]["slot"]]} not blank')
    f = examine_member(vd, ms[1], workdir, 'RAID6 after set good')
    check(f.get('Array State', '')[:2] == '.A', f'RAID6 Array State {f.get("Array State")!r}')
    check(next(v for v in after['vds'] if v['id'] == vd['id'])['state'] == 'Pdgd',
          'RAID6 with its place missing is not Pdgd')
    print('a failed RAID6 member examined, then made unconfigured good')


def check_refusals(tool, model, workdir):
    spare = [d for d in model['drives'] if d['state'] == 'UGood']
    # A drive partitioned by someone else is not ours to take.
    rc, _, err = run('sgdisk', '-n', '1:0:+1M', spare[0]['path'])
    check(rc == 0, f'sgdisk: {err}')
    _, err = tool('create', 'RAID1', f'{spare[0]["slot"]},{spare[1]["slot"]}', expect=NOT_ALLOWED)
    check('holds a GPT raidcli did not write' in err and 'set good force' in err,
          f'foreign drive: {err}')
    # A file system in a VD needs force. Its first chunk is on role 0, but
    # on role 1 for md's left-symmetric RAID6 (stripe 0 is Q D D P).
    for level, role in (('RAID0', 0), ('RAID6', 1)):
        vd = next(v for v in model['vds'] if v['level'] == level)
        m = members(model, vd)[role]
        start, size = partition(m['path'], vd['id'])
        part = os.path.join(workdir, 'part')
        copy_partition(m['path'], part, start, size)
        offset = int(fields(run('mdadm', '--examine', part)[1])['Data Offset'].split()[0])
        with open(m['path'], 'r+b') as f:
            f.seek((start + offset) * 512)
            f.write(b'XFSB')
        _, err = tool('delete', vd['id'], expect=NEED_FORCE)
        check('XFS' in err, f'delete {level} with a file system: {err}')
        tool('delete', vd['id'], 'force')
    # RAID60: the top RAID0's data starts past its own metadata, in span 0.
    vd = next(v for v in model['vds'] if v['level'] == 'RAID60')
    n, chunk = vd['drives_per_span'], vd['strip_kib'] * 2
    row0 = chunk_member('RAID60', n, 0)[0]
    m = members(model, vd)[row0]
    start, size = partition(m['path'], vd['id'])
    part = os.path.join(workdir, 'part')
    copy_partition(m['path'], part, start, size)
    f, _ = examine(part, 'RAID60')
    span_offset = int(f['Data Offset'].split()[0])
    used = int(f.get('Used Dev Size', f['Avail Dev Size']).split()[0])
    span_array = os.path.join(workdir, 'span')
    copy_partition(part, span_array, span_offset, chunk)
    with open(span_array, 'r+b') as g:
        g.truncate(used * 512 * data_disks(vd))
    top_offset = int(examine(span_array, 'RAID60 top')[0]['Data Offset'].split()[0])
    row, stripe = chunk_member('RAID60', n, top_offset // chunk)
    target = members(model, vd)[row]
    start = partition(target['path'], vd['id'])[0]
    with open(target['path'], 'r+b') as g:
        g.seek((start + span_offset + stripe * chunk) * 512)
        g.write(b'XFSB')
    _, err = tool('delete', vd['id'], expect=NEED_FORCE)
    check('XFS' in err, f'delete RAID60 with a file system: {err}')
    tool('delete', vd['id'], 'force')


def main():
    if not have_tools('mdadm', 'sfdisk', 'sgdisk'):
        return 77
    with scratch('vd-') as workdir:
        tool = Tool(sys.argv[1], os.path.join(workdir, 'state'))
        tool('new', 38, 128)
        tool.create('RAID0', '0,1', 0, 128)
        tool.create('RAID1', '2,3')
        tool.create('RAID5', '4,5,6', 40)
        tool.create('RAID6', '7,8,9,10', 0, 256)
        tool.create('RAID10', '11,12,13,14', 0, 64, 2)
        tool.create('RAID5', '4,5,6')
        tool.create('RAID50', '16,17,18,19,20,21', 0, 64, 3)
        tool.create('RAID60', '22,23,24,25,26,27,28,29', 0, 256, 4)
        tool.create('RAID00', '34,35,36,37', 0, 64, 2)
        model = tool.show()
        check(len(model['vds']) == 9 and len(model['dgs']) == 8,
              f'{len(model["vds"])} VDs in {len(model["dgs"])} groups')
        check_vds(model, workdir)
        check(tool.show() == model, 'a new process reads another model')
        model = check_spares(tool, model, workdir)
        model = check_states(tool, model, workdir)
        model = check_record_spares(tool, model, workdir)
        tool('set', model['vds'][0]['id'], 'renamed')
        check(tool.show()['vds'][0]['name'] == 'renamed', 'set name')
        model = tool.show()
        model = check_delete(tool, model)
        check_vds(model, workdir)
        model = check_spares_after_delete(tool, model, workdir)
        check_refusals(tool, model, workdir)
        check_failed(tool, workdir)
        print(f'{len(model["vds"])} VDs examined after the deletes')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
