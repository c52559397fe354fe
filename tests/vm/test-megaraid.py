#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-megaraid.py with-megaraid|without-megaraid - the megaraid kind
against QEMU's MegaRAID card, in the VM: a megasas-gen2 (an emulated LSI
MegaRAID SAS 9260-8i) with three scsi-hd disks of different sizes, serials
and INQUIRY data, driven by the guest's megaraid_sas.

First the harness: the driver binds to the card, and each disk is an LD's
block device (channel 2, target = the disk's) with the serial, INQUIRY and
READ CAPACITY given. Then raidcli: `show`, `/c0 show all`, `/c0/eall/sall
show all` and `/c0/vall show all` in JSON against what the guest sees by
itself (sysfs, sg_inq, sg_readcap: the same disks, through the LDs) and
what the card answers that the guest cannot see (megasas-gen2.facts), and
their text against their JSON; the PD values that come from INQUIRY and
READ CAPACITY (pass-through frames); the background tasks, whose DCMDs
QEMU does not implement (an init's unwritten progress refused, no check,
rebuild, patrol read, check schedule or BGI offered); Debian's storcli.py
collector, unchanged, on raidcli's JSON, the card never set to
storclicompat=megaraid_sas (its kind's default); `show all J`'s latency on
the card beside a soft controller's in the same VM, printed. RAIDCLI_VM_VERBOSE=1 prints the
text of `show`, `/c0 show` and `/c0/eall/sall show` too (the README's).
meson says whether the build has the
megaraid kind (the first argument): without it, the raidcli part is
skipped (exit 77) once the harness part has passed. One boot.
"""
import base64
import calendar
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from vmtest import (RAIDCLI, SKIP, by_kind, check, checked, cmd_records, expect,  # noqa: E402
                    failures, finish, parse_records, run_vm, scratch)

MIB = 1 << 20
HBA_SERIAL = 'RCLMFI-0001'
# The card's disks, SCSI targets 0, 1, 2: serial, size and INQUIRY (vendor,
# product, revision; None: QEMU's own). Sizes that no two round alike.
DISKS = [
    ('MRD-A0-4711', 64 * MIB, ('SEAGATE', 'ST300MM0008', 'N004')),
    ('MRD-B1-4712', 48 * MIB, None),
    ('MRD-C2-4713', 24 * MIB + 7 * 512, ('HGST', 'HUC101860CSS200', 'A3B0')),
]
STORCLI_PY = '/usr/share/prometheus-node-exporter-collectors/storcli.py'
RUNS = 5

SCRIPT = r'''
megaraid_hosts
scsi_disks
# text_record NAME COMMAND...: "@ text NAME", the exit status and the
# output, base64 (one line, every byte kept)
text_record() {
	echo "@ text $1"
	shift
	out=$("$@" 2>&1)
	echo "rc=$?"
	echo "b64=$(printf '%s\n' "$out" | base64 | tr -d '\n')"
}
# latency NAME COMMAND...: "@ latency NAME": /proc/uptime around RUNS runs,
# and how many of them failed
latency() {
	name=$1
	shift
	failed=0
	start=$(cut -d' ' -f1 /proc/uptime)
	for i in $(seq RUNS); do "$@" >/dev/null 2>&1 || failed=$((failed + 1)); done
	echo "@ latency $name"
	echo "start=$start"
	echo "end=$(cut -d' ' -f1 /proc/uptime)"
	echo "failed=$failed"
}
export RAIDCLI_STATE_DIR=/tmp/mr
for cmd in show:show ctrl:/c0_show_all drives:/c0/eall/sall_show_all vds:/c0/vall_show_all; do
	args=$(echo "${cmd#*:}" | tr _ ' ')
	cmd_record "${cmd%%:*}" raidcli $args J
	text_record "${cmd%%:*}" raidcli $args
done
# the card's own event log: QEMU's EVENT_GET_INFO answers, its EVENT_GET
# writes nothing (hw/scsi/megasas.c: megasas_dcmd_dummy)
cmd_record events raidcli /c0 show events J
cmd_record eventloginfo raidcli /c0 show eventloginfo J
# the short forms, for the README (RAIDCLI_VM_VERBOSE=1 prints them)
text_record ctrl-brief raidcli /c0 show
text_record drives-brief raidcli /c0/eall/sall show
# background tasks: QEMU's card implements none of their DCMDs (its
# megasas_dcmd_dummy() answers OK and writes nothing back), and, RAID0
# only, offers neither a check nor a rebuild
cmd_record task-show raidcli /c0/v0 show init J
cmd_record task-init raidcli /c0/v0 start init force J
cmd_record task-cc raidcli /c0/v0 start cc force J
cmd_record task-rebuild raidcli /c0/e252/s0 start rebuild J
cmd_record task-pr raidcli /c0 start patrolread J
cmd_record pr-set raidcli /c0 set patrolread=on mode=manual J
# the check's schedule and the BGI: QEMU's card offers no check and no BGI
# rate, so no schedule is asked of it and no BGI offered
cmd_record cc-show raidcli /c0 show cc J
cmd_record cc-set raidcli /c0 set cc=seq J
cmd_record bgi-show raidcli /c0/v0 show bgi J
cmd_record bgi-stop raidcli /c0/v0 stop bgi J
# the card's battery, clock and foreign configurations (megasas-gen2.facts)
cmd_record bbu raidcli /c0/bbu show all J
cmd_record fall raidcli /c0/fall show all J
cmd_record fall-import raidcli /c0/fall import J
cmd_record time raidcli /c0 show time J
echo "@ clock guest"
echo "epoch=$(date +%s)"
cmd_record settime raidcli /c0 set time=systemtime J
# what storcli.py runs, the card answering as its consumers need from the
# start (storclicompat=megaraid_sas, the megaraid kind's default)
cmd_record storcli-ctrl raidcli /cALL show all J nolog
cmd_record storcli-drives raidcli /cALL/eALL/sALL show all J nolog
# a soft controller (RAID5 of three image files in the VM's RAM) in a state
# directory of its own: show all J on it and on the card, RUNS times each
export RAIDCLI_STATE_DIR=/tmp/soft
soft=$(raidcli add controller type=soft drives=3 size=16MB |
	sed -n 's/.*Added controller \/c\([0-9]*\).*/\1/p')
raidcli "/c$soft" add vd type=raid5 drives=252:0-2 >/dev/null
rc=$?
echo "@ setup soft"
echo "controller=$soft"
echo "rc=$rc"
latency soft raidcli "/c$soft" show all J
latency card env RAIDCLI_STATE_DIR=/tmp/mr raidcli /c0 show all J
'''.replace('RUNS', str(RUNS))


def read_facts():
    """megasas-gen2.facts: {KEY: VALUE}."""
    facts = {}
    with open(os.path.join(HERE, 'megasas-gen2.facts')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                key, _, value = line.partition('=')
                facts[key] = value
    return facts


def number(value):
    """A JSON number, or a string of one in decimal or 0x hexadecimal (else
    @value as it is, for the message)."""
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip(), 0)
    except ValueError:
        return value


UNITS = {'KB': 1 << 10, 'MB': 1 << 20, 'GB': 1 << 30, 'TB': 1 << 40}


def size_matches(text, nbytes):
    """StorCLI's "24.003 MB" (three decimals, 1024-based) is @nbytes."""
    m = re.match(r'([0-9.]+) ?([KMGT]B)$', str(text).strip())
    if not m:
        return False
    unit = UNITS[m.group(2)]
    return abs(float(m.group(1)) * unit - nbytes) <= unit / 2000


def expect_size(text, nbytes, what):
    check(size_matches(text, nbytes), f'{what}: got {text!r}, expected {nbytes} bytes')


def expect_sectors(text, sectors, what):
    """StorCLI's "64.000 MB [0x20000 Sectors]": both parts."""
    m = re.match(r'(.*) \[0x([0-9a-fA-F]+) Sectors\]$', str(text))
    if check(m, f'{what}: {text!r} is "SIZE [0xN Sectors]"'):
        expect(int(m.group(2), 16), sectors, f'{what}: sectors')
        expect_size(m.group(1), sectors * 512, f'{what}: size')


def response(cmd, what):
    """The Response Data of a raidcli J command, which must have succeeded."""
    expect(cmd['rc'], 0, f'{what}: exit status ({cmd["err"]} {cmd["out"][:300]})')
    ctrls = (cmd['json'] or {}).get('Controllers', [{}])
    return ctrls[0].get('Response Data', {})


# Read anew by the text command, a second later perhaps
CLOCKS = ('Current Controller Date/Time', 'Current System Date/time')


def text_misses(text, data):
    """What of JSON Response Data @data the text output lacks: each
    "KEY = VALUE" as a line (the clocks' keys alone), each table row as a
    line of its values."""
    lines = {line.strip() for line in text.splitlines()}
    words = [line.split() for line in text.splitlines()]
    misses = []

    def walk(obj):
        if isinstance(obj, dict):
            for key, value in obj.items():
                if isinstance(value, (dict, list)):
                    walk(value)
                elif key in CLOCKS:
                    if not any(line.startswith(f'{key} = ') for line in lines):
                        misses.append(key)
                elif f'{key} = {value}'.strip() not in lines:
                    misses.append(f'{key} = {value}')
        elif isinstance(obj, list):
            for row in obj:
                if isinstance(row, dict) and not any(isinstance(v, (dict, list))
                                                     for v in row.values()):
                    row_words = ' '.join(str(v) for v in row.values()).split()
                    if row_words not in words:
                        misses.append(f'table row {" ".join(row_words)}')
                else:
                    walk(row)
    walk(data)
    return misses


def check_harness(records, facts):
    """The card bound by megaraid_sas, each disk an LD's block device with
    what run-in-vm.sh gave it: {target: the disk's scsi_disk record}."""
    hosts = by_kind(records, 'scsi_host')
    expect(len(hosts), 1, 'megaraid_sas SCSI hosts')
    for name, host in hosts.items():
        expect(host['driver'], 'megaraid_sas', f'{name}: driver bound to {host["pci"]}')
        for key in ('vendor', 'device', 'subsystem_vendor', 'subsystem_device'):
            fact = facts['pci_' + key.replace('subsystem_', 'sub')]
            expect(number(host[key]), number(fact), f'{name}: PCI {key}')
    by_target = {}
    for name, disk in by_kind(records, 'scsi_disk').items():
        host, channel, target, lun = map(int, disk['hctl'].split(':'))
        what = f'{name} ({disk["hctl"]})'
        expect((channel, lun), (2, 0), f'{what}: an LD (channel 2, LUN 0)')
        by_target[target] = dict(disk, name=name)
        if not check(target < len(DISKS), f'{what}: a target run-in-vm.sh gave no disk'):
            continue
        serial, size, inquiry = DISKS[target]
        expect(disk['serial'], serial, f'{what}: VPD 0x80 serial')
        expect(int(disk['sectors']), size // 512, f'{what}: size in sectors')
        expect(int(disk['readcap_last_lba']), size // 512 - 1, f'{what}: READ CAPACITY last LBA')
        expect(int(disk['readcap_block_length']), 512, f'{what}: READ CAPACITY block length')
        raw = bytes.fromhex(disk['inquiry'])
        ident = tuple(raw[a:b].rstrip(b' \0').decode() for a, b in ((8, 16), (16, 32), (32, 36)))
        expect(ident, (disk['vendor'], disk['model'], disk['rev']), f'{what}: sg_inq vs sysfs')
        if inquiry:
            expect(ident, inquiry, f'{what}: INQUIRY vendor, product, revision')
    expect(sorted(by_target), list(range(len(DISKS))), 'a block device per disk')
    return by_target


def check_overview(data, facts):
    rows = [r for r in data.get('System Overview', []) if r.get('Model') == facts['product']]
    if check(len(rows) == 1, f'show: one controller is the card ({data.get("System Overview")})'):
        row = rows[0]
        expect(row['Ctl'], 0, 'show: the card is /c0')
        for key in ('PDs', 'VDs', 'DGs'):
            expect(row.get(key), len(DISKS), f'show: {key}')
        expect(row.get('Ports'), number(facts['port_count']), 'show: Ports (the card\'s)')


def check_controller(data, facts, host, disks, coerced):
    basics, version, bus = data.get('Basics', {}), data.get('Version', {}), data.get('Bus', {})
    expect(basics.get('Controller'), 0, 'Basics: Controller')
    expect(basics.get('Model'), facts['product'], 'Basics: Model')
    expect(basics.get('Serial Number'), HBA_SERIAL, 'Basics: Serial Number')
    domain, bus_no, rest = host['pci'].split(':')
    dev, fn = rest.split('.')
    pci = [int(domain, 16), int(bus_no, 16), int(dev, 16), int(fn, 16)]
    expect(basics.get('PCI Address'), ':'.join(f'{v:02x}' for v in pci), 'Basics: PCI Address')
    expect(version.get('Firmware Package Build'), facts['package_version'],
           'Version: Firmware Package Build')
    expect(version.get('Firmware Version'), facts['firmware_version'], 'Version: Firmware Version')
    expect(version.get('Driver Name'), 'megaraid_sas', 'Version: Driver Name')
    expect(version.get('Driver Version'), host['driver_version'], 'Version: Driver Version')
    for key, sysfs in (('Vendor Id', 'vendor'), ('Device Id', 'device'),
                       ('SubVendor Id', 'subsystem_vendor'), ('SubDevice Id', 'subsystem_device')):
        if check(key in bus, f'Bus: {key} shown'):
            expect(number(bus[key]), number(host[sysfs]), f'Bus: {key}')
    for key, value in (('Domain ID', pci[0]), ('Bus Number', pci[1]), ('Device Number', pci[2]),
                       ('Function Number', pci[3])):
        if check(key in bus, f'Bus: {key} shown'):
            expect(number(bus[key]), value, f'Bus: {key}')
    hw = data.get('HwCfg', {})
    expect(hw.get('On Board Memory Size'), facts['memory_size'] + 'MB', 'HwCfg: memory')
    expect(hw.get('NVRAM Size'), facts['nvram_size'] + 'KB', 'HwCfg: NVRAM')
    expect(hw.get('Flash Size'), facts['flash_size'] + 'MB', 'HwCfg: flash')
    expect(hw.get('Backend Port Count'), number(facts['port_count']), 'HwCfg: Backend Port Count')
    expect(hw.get('BBU'), facts['bbu'].capitalize(), 'HwCfg: BBU')
    expect(data.get('Capabilities', {}).get('RAID Level Supported'), facts['raid_levels'],
           'Capabilities: RAID Level Supported')
    expect(data.get('Status', {}).get('Controller Status'), 'Optimal', 'Status: Controller Status')
    # the rates the card takes; any other shown must hold the card's value too
    table = data.get('Policies', {}).get('Policies Table', [])
    policies = {row.get('Policy'): row for row in table}
    for policy in set(facts['rates_offered'].split(', ')) | set(policies):
        expect(policies.get(policy, {}).get('Current'), f'{facts["rate"]} %', f'Policies: {policy}')
    for key in ('Physical Drives', 'Virtual Drives', 'Drive Groups'):
        expect(data.get(key), len(DISKS), key)
    check_pd_rows(data.get('PD LIST', []), facts, disks, '/c0 show all PD LIST', coerced)
    vds = {}
    for row in data.get('VD LIST', []):
        vds[int(row['DG/VD'].split('/')[1])] = row
    expect(sorted(vds), list(range(len(DISKS))), 'VD LIST: a VD per disk, its target')
    for vd, row in vds.items():
        check_vd_row(row, facts, disks.get(vd), f'VD LIST VD {vd}')
        # groups numbered by array ref (disk N's), not CFG_READ's last-to-first order
        expect(int(row['DG/VD'].split('/')[0]), vd, f'VD LIST VD {vd}: its disk\'s group')


def slot_of(row):
    """The slot of a PD LIST row's EID:Slt ("252:3", or " :3" with no
    enclosure, as StorCLI prints drives that have none)."""
    return int(str(row['EID:Slt']).split(':')[1])


def check_pd_rows(rows, facts, disks, what, coerced=None):
    """PD LIST rows @rows; @coerced: {slot: the Coerced size show all
    gives, which is what StorCLI's Size is}."""
    by_slot = {slot_of(r): r for r in rows}
    expect(sorted(by_slot), list(range(len(DISKS))), f'{what}: a PD per disk, slot = target')
    for slot, row in by_slot.items():
        disk = disks.get(slot, {})
        w = f'{what} slot {slot}'
        expect(row.get('DID'), slot * number(facts['pd_device_id_per_target']), f'{w}: DID')
        expect(row.get('State'), 'Onln', f'{w}: State')
        expect(row.get('Intf'), facts['pd_interface'], f'{w}: Intf')
        expect(row.get('SeSz'), '512B', f'{w}: SeSz')
        expect(str(row.get('Model')).strip(), disk.get('model'), f'{w}: Model (INQUIRY product)')
        if coerced and slot in coerced:
            expect(row.get('Size'), coerced[slot], f'{w}: Size (show all\'s Coerced size)')


def check_vd_row(row, facts, disk, what):
    expect(row.get('TYPE'), facts['ld_level'], f'{what}: TYPE')
    expect(row.get('State'), 'Optl', f'{what}: State')
    expect(row.get('Consist'), facts['ld_consistent'], f'{what}: Consist')
    expect_size(row.get('Size'), int((disk or {}).get('sectors', 0)) * 512, f'{what}: Size')


def check_drives(data, facts, disks):
    """/c0/eall/sall show all: every PD's values against the guest's view of
    the same disk (INQUIRY, VPD 0x80, READ CAPACITY) and the card's facts.
    PD_GET_INFO reaches device ids below 256 alone (megasas-gen2.facts):
    link speed and coerced size are the card's there, elsewhere only the
    drive's own answers are. {slot: its Coerced size, without sectors}."""
    details, coerced = {}, {}
    for key, value in data.items():
        m = re.match(r'Drive (/c0(?:/e\d+)?/s(\d+)) - Detailed Information$', key)
        if m:
            details[int(m.group(2))] = (f'Drive {m.group(1)}', value)
    expect(sorted(details), list(range(len(DISKS))), 'show all: a PD per disk, slot = target')
    rows = [r for k, v in data.items() if k.startswith('Drive /c0') and isinstance(v, list)
            for r in v]
    for slot, (prefix, detail) in details.items():
        disk, w = disks.get(slot, {}), prefix
        sectors = int(disk.get('sectors', 0))
        did = slot * number(facts['pd_device_id_per_target'])
        by_card = did < number(facts['pd_info_ids'])
        state = detail.get(f'{prefix} State', {})
        for key in ('Media Error Count', 'Other Error Count', 'Predictive Failure Count',
                    'Shield Counter'):
            expect(state.get(key), number(facts['pd_errors']), f'{w}: {key}')
        expect(state.get('S.M.A.R.T alert flagged by drive'), 'No', f'{w}: SMART alert')
        attrs = detail.get(f'{prefix} Device attributes', {})
        expect(str(attrs.get('SN')).strip(), disk.get('serial'), f'{w}: SN (VPD 0x80)')
        expect(str(attrs.get('Manufacturer Id')).strip(), disk.get('vendor'),
               f'{w}: Manufacturer Id (INQUIRY)')
        expect(str(attrs.get('Model Number')).strip(), disk.get('model'),
               f'{w}: Model Number (INQUIRY)')
        expect(str(attrs.get('Firmware Revision')).strip(), disk.get('rev'),
               f'{w}: Firmware Revision (INQUIRY)')
        for key in ('Raw size', 'Non Coerced size'):
            expect_sectors(attrs.get(key), sectors, f'{w}: {key}')
        size = str(attrs.get('Coerced size'))
        coerced[slot] = size.partition(' [')[0]
        if by_card:
            expect_sectors(size, sectors, f'{w}: Coerced size (the card\'s)')
        else:
            m = re.search(r'\[0x([0-9a-fA-F]+) Sectors\]$', size)
            check(m and sectors - 2048 < int(m.group(1), 16) <= sectors,
                  f'{w}: Coerced size {size!r}: within 1 MiB below {sectors} sectors')
        expect(attrs.get('Logical Sector Size'), f'{disk.get("readcap_block_length")}B',
               f'{w}: Logical Sector Size (READ CAPACITY)')
        if by_card:
            expect(attrs.get('Link Speed'), facts['pd_link_speed'], f'{w}: Link Speed')
            expect(attrs.get('Device Speed'), facts['pd_link_speed'], f'{w}: Device Speed')
        settings = detail.get(f'{prefix} Policies/Settings', {})
        for key in ('Commissioned Spare', 'Emergency Spare'):
            expect(settings.get(key), 'No', f'{w}: {key}')
        # PD_GET_LIST's SAS address: StorCLI's port table (or an attribute)
        sas = number(facts['pd_sas_address_base']) | did << 24
        ports = settings.get('Port Information', [{}])
        shown = ports[0].get('SAS address') if ports else None
        if shown in (None, 'NA'):
            shown = attrs.get('SAS Address')
        expect(number(shown), sas, f'{w}: SAS address')
        # The standard 36 bytes, but byte 4: QEMU sizes the additional
        # length to the length asked (sg_inq asks 36)
        inquiry = str(detail.get('Inquiry Data', '')).replace(' ', '').lower()
        theirs = disk.get('inquiry', '')
        expect(inquiry[:8] + inquiry[10:72], theirs[:8] + theirs[10:72],
               f'{w}: Inquiry Data but its additional length (sg_inq -r)')
    check_pd_rows(rows, facts, disks, 'show all drive rows', coerced)
    return coerced


def check_vds(data, facts, disks):
    for target, disk in disks.items():
        w = f'/c0/v{target}'
        rows = data.get(w, [])
        if check(len(rows) == 1, f'{w}: its row ({sorted(data)})'):
            check_vd_row(rows[0], facts, disk, w)
        pds = data.get(f'PDs for VD {target}', [])
        expect([slot_of(r) for r in pds], [target], f'{w}: its PD, the disk\'s slot')
        props = data.get(f'VD{target} Properties', {})
        expect(props.get('Strip Size'), facts['ld_strip'], f'{w}: Strip Size')
        expect(props.get('Number of Blocks'), int(disk['sectors']), f'{w}: Number of Blocks')
        expect(props.get('Span Depth'), number(facts['ld_span_depth']), f'{w}: Span Depth')
        expect(props.get('Number of Drives Per Span'), number(facts['ld_drives']),
               f'{w}: Number of Drives Per Span')


def check_storcli_py(cmds, facts, work):
    """Debian's storcli.py, unchanged, on what raidcli printed in the VM
    for the two commands it runs, with the megaraid kind's default
    storclicompat (never set here): its megaraid_sas metrics, no error."""
    if not os.path.exists(STORCLI_PY):
        check(False, f'{STORCLI_PY} missing: apt-get install prometheus-node-exporter-collectors')
        return
    replay = os.path.join(work, 'storcli')
    outputs = {'/cALL show all J nolog': cmds['storcli-ctrl']['out'],
               '/cALL/eALL/sALL show all J nolog': cmds['storcli-drives']['out']}
    with open(replay, 'w') as f:
        f.write('#!/usr/bin/python3\nimport sys\n'
                f'print({outputs!r}[" ".join(sys.argv[1:])])\n')
    os.chmod(replay, 0o755)
    p = subprocess.run(['python3', STORCLI_PY, '--storcli_path', replay],
                       capture_output=True, text=True)
    print(p.stdout)
    expect((p.returncode, p.stderr), (0, ''), 'storcli.py: exit status, stderr')
    metrics = [line for line in p.stdout.splitlines() if not line.startswith('#')]

    def having(name):
        return [m for m in metrics if m.startswith(f'megaraid_{name}{{')]
    info = (f'model="{facts["product"]}",serial="{HBA_SERIAL}",'
            f'fwversion="{facts["firmware_version"]}"')
    check(any(info in m for m in having('controller_info')), f'storcli.py: controller_info {info}')
    expect(len(having('vd_info')), len(DISKS), 'storcli.py: vd_info metrics')
    expect(len(having('pd_info')), len(DISKS), 'storcli.py: pd_info metrics')
    expect([m.rsplit(' ', 1)[1] for m in having('healthy')], ['1.0'], 'storcli.py: healthy')


def check_events(cmds):
    """The card's log, not raidcli's own (which has the controller's
    arrival): QEMU's card keeps no events, so it reads empty."""
    events = response(cmds['events'], '/c0 show events J')
    expect(events.get('Events', []), [], 'show events: the card\'s empty log')
    info = response(cmds['eventloginfo'], '/c0 show eventloginfo J')
    expect(info.get('Event Log Information', {}).get('Event count'), 0,
           'show eventloginfo: Event count')


def check_tasks(cmds):
    """What raidcli says of the tasks on QEMU's card: an init's progress
    (LD_PROGRESS) comes back unwritten, a clear error, so no init starts
    that raidcli could not follow; a check, its schedule, a BGI, a
    rebuild and a patrol read or its schedule are not offered (RAID0
    only, no check, BGI or patrol read rate)."""
    for name, says in (('task-show', 'is malformed: the controller wrote no reply'),
                       ('task-init', '(LD_PROGRESS) is malformed'),
                       ('task-cc', 'has no redundancy to check (RAID0)'),
                       ('task-rebuild', 'rebuild is not supported by this controller'),
                       ('task-pr', 'patrol read is not supported by this controller'),
                       ('pr-set', 'patrol read schedule is not supported by this controller'),
                       ('cc-show', 'consistency check is not supported'),
                       ('cc-set', 'consistency check is not supported'),
                       ('bgi-show', 'background initialization is not supported'),
                       ('bgi-stop', 'background initialization is not supported')):
        cmd = cmds[name]
        status = ((cmd['json'] or {}).get('Controllers', [{}])[0]).get('Command Status', {})
        check(cmd['rc'] != 0 and says in status.get('Description', ''),
              f'{name}: refused, saying "{says}" (rc {cmd["rc"]}: {cmd["out"][:300]})')
    tasks = response(cmds['ctrl'], '/c0 show all J').get('Scheduled Tasks', {})
    expect((tasks.get('Consistency Check Reoccurrence'),
            tasks.get('Next Consistency check launch')),
           ('NA', 'NA'), 'show all: Scheduled Tasks without a check schedule')


def check_card_parts(cmds, records, facts):
    """What QEMU's card answers of its battery (none), ROC sensor (none),
    clock (the RTC's) and foreign configurations (none)."""
    ctrl = response(cmds['ctrl'], '/c0 show all J')
    hw = ctrl.get('HwCfg', {})
    expect(hw.get('Temperature Sensor for ROC'), facts['roc_temperature'].capitalize(),
           'HwCfg: Temperature Sensor for ROC')
    # No sensor, no temperature; but storcli.py reads the key unconditionally,
    # so the kind's default compatibility (megaraid_sas) gives it as 0.
    expect(hw.get('ROC temperature(Degree Celsius)'), 0,
           'HwCfg: ROC temperature 0 without a sensor (storclicompat=megaraid_sas)')
    bbu = response(cmds['bbu'], '/c0/bbu show all J').get('BBU_Info', [{}])[0]
    expect((bbu.get('Model'), bbu.get('State')), ('Absent', 'Absent'), '/c0/bbu show all: absent')
    fall = response(cmds['fall'], '/c0/fall show all J')
    expect(fall.get('Total foreign Drive Groups'), number(facts['foreign_configs']),
           '/c0/fall show all: Total foreign Drive Groups')
    expect(cmds['fall-import']['rc'], 35, '/c0/fall import: none found (status 35)')
    rows = response(cmds['time'], '/c0 show time J').get('Controller Properties', [{}])
    shown = calendar.timegm(time.strptime(rows[0].get('Value', ''), '%m/%d/%Y, %H:%M:%S'))
    guest = int(by_kind(records, 'clock')['guest']['epoch'])
    # The RTC is the guest's clock: a month read wrong would be days away.
    check(abs(shown - guest) < 3600, f'show time: {rows[0].get("Value")} is the guest\'s clock')
    response(cmds['settime'], '/c0 set time=systemtime J')


def check_latency(records):
    """show all J's mean time on the card and on the soft controller (under
    TCG: the emulated CPU's time): printed, not checked; but the soft
    controller's set-up and every run must have succeeded, or the times
    compare nothing."""
    setup = by_kind(records, 'setup').get('soft', {})
    check(setup.get('controller', '') != '', 'soft controller for the latency runs: added')
    expect(setup.get('rc'), '0', 'soft controller for the latency runs: add vd exit status')
    for name, rec in sorted(by_kind(records, 'latency').items()):
        expect(rec.get('failed'), '0', f'latency on the {name} controller: runs that failed')
    for name, rec in sorted(by_kind(records, 'latency').items()):
        ms = (float(rec['end']) - float(rec['start'])) * 1000 / RUNS
        print(f'latency: show all J on the {name} controller: {ms:.0f} ms a run ({RUNS} runs)')


def main():
    with_kind = sys.argv[1:] == ['with-megaraid']
    facts = read_facts()
    with scratch('raidcli-vm-megaraid.') as work:
        args = ['--megasas', f'mr0:serial={HBA_SERIAL}']
        for i, (serial, size, inquiry) in enumerate(DISKS):
            image = os.path.join(work, f'disk{i}.img')
            with open(image, 'wb') as f:
                f.truncate(size)
            spec = f'mr0:{image}:serial={serial}'
            if inquiry:
                spec += ':vendor={}:product={}:rev={}'.format(*inquiry)
            args += ['--megasas-disk', spec]
        rc, out = run_vm(args, SCRIPT, bins=(RAIDCLI,))
        print(out)
        expect(rc, 0, 'guest script exit status')
        records = parse_records(out)
        disks = check_harness(records, facts)
        if not with_kind:
            if failures:
                return finish()
            print(f'SKIP: this build has no megaraid kind (lib/meson.build backend_kinds): '
                  f'the harness part passed ({len(checked)} checks), raidcli not checked')
            return SKIP
        cmds = cmd_records(records)
        host = next(iter(by_kind(records, 'scsi_host').values()), {})
        texts = {name: base64.b64decode(rec.get('b64', '')).decode(errors='replace')
                 for name, rec in by_kind(records, 'text').items()}
        datas = {}
        for name in ('show', 'ctrl', 'drives', 'vds'):
            datas[name] = response(cmds[name], f'{name} J')
            expect(int(by_kind(records, 'text')[name]['rc']), 0, f'{name}: exit status')
            misses = text_misses(texts[name], datas[name])
            check(not misses, f'{name}: text lacks what JSON has: {misses[:8]}')
        check_overview(datas['show'], facts)
        coerced = check_drives(datas['drives'], facts, disks)
        check_controller(datas['ctrl'], facts, host, disks, coerced)
        check_vds(datas['vds'], facts, disks)
        check_events(cmds)
        check('StorCLI Compatibility = megaraid_sas' in texts['ctrl-brief'],
              f'/c0 show: megaraid_sas compatibility from the start: {texts["ctrl-brief"]}')
        check_tasks(cmds)
        check_card_parts(cmds, records, facts)
        check_storcli_py(cmds, facts, tempfile.mkdtemp(dir=work))
        if os.environ.get('RAIDCLI_VM_VERBOSE'):
            for name, line in (('show', 'show'), ('ctrl-brief', '/c0 show'),
                               ('drives-brief', '/c0/eall/sall show')):
                print(f'$ raidcli {line}\n{texts[name]}')
        check_latency(records)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
