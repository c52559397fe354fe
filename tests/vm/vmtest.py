# SPDX-License-Identifier: MIT
"""vmtest.py - what the vm tests share: a soft controller made with the
raidcli binary, its VDs as raidcli reports them, running a script in the
VM (run-in-vm.sh) with the controller's drives attached, and the records
that script prints.

The tests import it from their own folder (Python puts a script's folder
first on sys.path). Failures are collected so that one run reports them all.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RAIDCLI = os.environ.get('RAIDCLI', 'raidcli')
SKIP = 77

failures = []


def check(cond, what):
    """Record @what as a failure unless @cond; the run goes on."""
    if not cond:
        failures.append(what)
    return cond


def finish():
    """Print the failures; the test's exit status."""
    for f in failures:
        print('FAIL:', f)
    print(f'{len(checked)} checks, {len(failures)} failed')
    return 1 if failures else 0


checked = []


def expect(got, want, what):
    """check(got == want) with both in the message."""
    checked.append(what)
    return check(got == want, f'{what}: got {got!r}, expected {want!r}')


def scratch(prefix):
    """A directory for a test's controller. /dev/shm keeps image I/O off the
    disk; QEMU opens the images with cache=writeback, which tmpfs serves."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir='/dev/shm')


class Controller:
    """A soft controller of @drives image files in its own state directory.
    In the VM its drives are named @prefix and the slot number; @label
    names it in messages."""

    def __init__(self, state, drives, size='16MB', prefix='s', label='c0'):
        self.state, self.prefix, self.label = state, prefix, label
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=state, LC_ALL='C')
        self.cli('add', 'controller', 'type=soft', f'drives={drives}', f'size={size}')
        self.serial = self.json('/c0', 'show')['Serial Number']
        self.images = self.image_paths()

    def add_drive(self, path):
        self.cli('/c0', 'add', 'drive', f'path={path}')
        self.images = self.image_paths()

    def cli(self, *args, expect_rc=0):
        """raidcli's output; exits unless its status is @expect_rc (None: any)."""
        p = subprocess.run([RAIDCLI, *args], capture_output=True, text=True, env=self.env)
        if expect_rc is not None and p.returncode != expect_rc:
            sys.exit(f'raidcli {" ".join(args)}: exit {p.returncode}\n{p.stdout}{p.stderr}')
        return p.stdout

    @staticmethod
    def parse(out):
        """The Command Status of JSON output."""
        return json.loads(out)['Controllers'][0]['Command Status']

    def json(self, *args):
        """The Response Data of `raidcli ARGS J`."""
        out = json.loads(self.cli(*args, 'J'))
        return out['Controllers'][0].get('Response Data', {})

    def image_paths(self):
        """Drive slot -> image file, from /c0/eall/sall show all."""
        data = self.json('/c0/eall/sall', 'show', 'all')
        paths = {}
        for key, value in data.items():
            m = re.match(r'Drive /c0/e252/s(\d+) - Detailed Information$', key)
            if m:
                attrs = value[f'Drive /c0/e252/s{m.group(1)} Device attributes']
                paths[int(m.group(1))] = attrs['Path']
        return [paths[s] for s in sorted(paths)]

    def add_vd(self, level, slots, per_span=None):
        args = ['/c0', 'add', 'vd', f'type={level.lower()}', f'drives=252:{slots}']
        if per_span:
            args.append(f'pdperarray={per_span}')
        self.cli(*args)

    def vds(self):
        """Every VD: number, level, state, blocks (512-byte), strip bytes,
        md UUID and members: (slot, array, row) in md role order."""
        top = self.json('/c0', 'show')
        members = {}
        for row in top['TOPOLOGY']:
            if row['Type'] == 'DRIVE':
                slot = int(row['EID:Slot'].split(':')[1])
                members.setdefault(row['DG'], []).append((slot, row['Arr'], row['Row']))
        out = []
        for entry in top['VD LIST']:
            dg, vd = map(int, entry['DG/VD'].split('/'))
            props = self.json(f'/c0/v{vd}', 'show', 'all')[f'VD{vd} Properties']
            out.append({
                'vd': vd, 'level': entry['TYPE'], 'state': entry['State'],
                'consistent': entry['Consist'] == 'Yes',
                'blocks': props['Number of Blocks'],
                'strip': strip_bytes(props['Strip Size']),
                'spans': props['Span Depth'], 'per_span': props['Number of Drives Per Span'],
                'uuid': props['md Array UUID'],
                'members': sorted(members[dg], key=lambda m: (m[1], m[2])),
            })
        return out

    def disk_args(self):
        """run-in-vm.sh arguments attaching the drives, named after their slots."""
        args = []
        for slot, path in enumerate(self.images):
            args += ['--disk', f'{self.prefix}{slot}={path}']
        return args


def strip_bytes(text):
    """'64 KB' -> 65536; RAID1 has no strip ('N/A'): 0, as md's chunk_size."""
    return 0 if text == 'N/A' else int(text.split()[0]) * 1024


# The test controller: one VD of each level the soft controller makes, each
# on its own drives (RAID50: two spans of three).
LAYOUT = [('RAID0', '0-1', None), ('RAID1', '2-3', None), ('RAID5', '4-6', None),
          ('RAID6', '7-10', None), ('RAID10', '11-14', 2), ('RAID50', '15-20', 3)]
LAYOUT_DRIVES = 21


def controller_with_every_level(state):
    ctl = Controller(state, LAYOUT_DRIVES, label='new drives:')
    for level, slots, per_span in LAYOUT:
        ctl.add_vd(level, slots, per_span)
    return ctl


def controller_on_used_drives(state, prefix):
    """A RAID1 and a RAID5 on drives that held other data before (seeded
    bytes all over): what a user gets reusing old disks."""
    ctl = Controller(state, 0, prefix=prefix, label='used drives:')
    for i in range(5):
        path = os.path.join(state, f'used{i}.img')
        with open(path, 'wb') as f:
            f.write(pattern(f'old data {i}', 16 << 20))
        ctl.add_drive(path)
    ctl.add_vd('RAID1', '0-1')
    ctl.add_vd('RAID5', '2-4')
    return ctl


class NvmeTopology:
    """NVMe devices for the VM (run-in-vm.sh's --nvme-subsys, --nvme-ctrl and
    --nvme-ns), namespaces on sparse image files in @work. args() is what
    run_vm takes; controllers and namespaces say what the guest should see."""

    def __init__(self, work):
        self.work, self.args = work, []
        self.controllers, self.namespaces = {}, []

    def subsystem(self, name):
        self.args += ['--nvme-subsys', name]
        return name

    def controller(self, ident, serial, subsys=None):
        """Controller @ident (QEMU's device id, for device_del and qom-set)
        with @serial, alone or in subsystem @subsys."""
        self.args += ['--nvme-ctrl', f'{ident}:{serial}' + (f':subsys={subsys}' if subsys else '')]
        self.controllers[ident] = {'serial': serial, 'subsys': subsys}
        return ident

    def namespace(self, owner, size, lbs=512, nsid=None, detached=False, private=False,
                  eui64=None):
        """A namespace of @size bytes on controller or subsystem @owner: a
        dict of these arguments and its image file ('image')."""
        image = os.path.join(self.work, f'nvme-ns{len(self.namespaces)}.img')
        with open(image, 'wb') as f:
            f.truncate(size)
        spec = [owner, image, f'lbs={lbs}'] + ([f'nsid={nsid}'] if nsid else [])
        spec += (['detached'] if detached else []) + (['private'] if private else [])
        spec += [f'eui64={eui64}'] if eui64 else []
        self.args += ['--nvme-ns', ':'.join(spec)]
        ns = {'owner': owner, 'image': image, 'size': size, 'lbs': lbs, 'nsid': nsid,
              'detached': detached, 'private': private, 'eui64': eui64}
        self.namespaces.append(ns)
        return ns

    def reached_by(self, ns):
        """The controllers namespace @ns is attached to at boot: all of its
        subsystem's unless it is private; none if detached."""
        if ns['detached']:
            return []
        owner = ns['owner']
        subsys = self.controllers[owner]['subsys'] if owner in self.controllers else owner
        if ns['private'] or not subsys:
            return [owner if owner in self.controllers else self.members(subsys)[0]]
        return self.members(subsys)

    def members(self, subsys):
        return [c for c, ctrl in self.controllers.items() if ctrl['subsys'] == subsys]


def run_vm(disk_args, script, timeout=300, bins=()):
    """Run @script (guest.sh's functions in front) in the VM with the
    programs @bins in its /bin (RAIDCLI, say): (exit status, output). Exit 77
    (skip) when the harness lacks a package."""
    with tempfile.NamedTemporaryFile('w', suffix='.sh', delete=False) as f:
        with open(os.path.join(HERE, 'guest.sh')) as g:
            f.write(g.read())
        f.write('\n' + script)
    bin_args = [arg for b in bins for arg in ('--bin', b)]
    try:
        p = subprocess.run([os.path.join(HERE, 'run-in-vm.sh'), '--timeout', str(timeout),
                            *disk_args, *bin_args, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if p.returncode == SKIP:
        print('SKIP:', p.stderr.strip())
        sys.exit(SKIP)
    if p.returncode == 124:
        sys.exit(f'the VM did not finish:\n{p.stderr}')
    sys.stderr.write(p.stderr)
    return p.returncode, p.stdout


def parse_records(text):
    """'@ KIND NAME' headers and KEY=VALUE lines: {(KIND, NAME): {KEY: VALUE}}.
    Other lines (messages) are ignored."""
    records, current = {}, None
    for line in text.splitlines():
        m = re.match(r'@ (\w+) (\S+)$', line)
        if m:
            current = records.setdefault((m.group(1), m.group(2)), {})
        elif current is not None and '=' in line:
            key, _, value = line.partition('=')
            current[key] = value
    return records


def by_kind(records, kind):
    return {name: rec for (k, name), rec in records.items() if k == kind}


def cmd_records(records):
    """guest.sh's cmd_record records: {NAME: {'rc': int, 'out': str, 'err':
    str, 'json': the output parsed as JSON, or None}}."""
    out = {}
    for name, rec in by_kind(records, 'cmd').items():
        try:
            parsed = json.loads(rec.get('out', ''))
        except json.JSONDecodeError:
            parsed = None
        out[name] = {'rc': int(rec.get('rc', -1)), 'out': rec.get('out', '').strip(),
                     'err': rec.get('err', '').strip(), 'json': parsed}
    return out


def pattern(seed, size):
    """@size deterministic bytes for @seed: what the tests write and expect."""
    return random.Random(seed).randbytes(size)
