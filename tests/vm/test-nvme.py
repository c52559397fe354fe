#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-nvme.py - the nvme controller against nvme-cli, in the VM: QEMU's
NVMe controllers (one alone with namespaces of 512 and 4096-byte blocks,
one alone with a namespace used as swap, two in a subsystem sharing a
namespace and holding a detached one) are the drives of one discovered
nvme controller, in stable slots; every value of
`raidcli /c0/eall/sall show all J` and `show smart J` for each drive
(and the WWN, the first namespace's EUI-64 or NGUID) equals what
nvme-cli (id-ctrl, id-ns, smart-log, error-log, fw-log,
self-test-log, sanitize-log, -o json) says of the same device (the
table below maps each raidcli key to its nvme-cli field); log pages
identify says the drive lacks are "Not Supported" where nvme-cli is
refused; the swap namespace shows as in use; after a
controller is unplugged its drive is Msng in its slot and no other drive
moved. One VM boot.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmtest import (RAIDCLI, NvmeTopology, check, cmd_records, expect, finish,  # noqa: E402
                    parse_records, run_vm, scratch)

MIB = 1 << 20

SCRIPT = r'''
export RAIDCLI_STATE_DIR=/tmp/raidcli
echo "@ ctrl names"
for id in ca cb cc cd; do echo "$id=$(nvme_ctrl $id)"; done
SWAP=$(nvme_ns cd 1)
mkswap "/dev/$SWAP" >/dev/null && swapon "/dev/$SWAP"
echo "@ swap dev"
echo "name=$SWAP"
# raidcli reads no data from the drives: nvme-cli's SMART counters after
# it are those it read.
cmd_record show-all raidcli /c0/eall/sall show all J
cmd_record show-smart raidcli /c0/eall/sall show smart J
for c in /sys/class/nvme/nvme*; do
	n=${c##*/}
	echo "@ sysfs $n"
	echo "address=$(cat $c/address)"
	cmd_record "id-ctrl-$n" nvme id-ctrl "/dev/$n" -o json
	cmd_record "smart-$n" nvme smart-log "/dev/$n" -o json
	cmd_record "error-$n" nvme error-log "/dev/$n" -o json
	cmd_record "fw-$n" nvme fw-log "/dev/$n" -o json
	cmd_record "self-test-$n" nvme self-test-log "/dev/$n" -o json
	cmd_record "sanitize-$n" nvme sanitize-log "/dev/$n" -o json
	for nsid in 1 2; do
		cmd_record "id-ns-$n-$nsid" nvme id-ns "/dev/$n" --namespace-id=$nsid -o json
	done
done
cmd_record list-before raidcli /c0/eall/sall show J
# The actions, on ca (two namespaces) and cb (in ss0, with a detached one).
# A fresh state directory numbers the drives in their kernel names' order.
slot_of() { i=0; for n in $(ls /sys/class/nvme | sort); do [ "$n" = "$1" ] && echo $i; i=$((i+1)); done; }
A=$(nvme_ctrl ca); SA=/c0/e252/s$(slot_of "$A")
B=$(nvme_ctrl cb); SB=/c0/e252/s$(slot_of "$B")
cmd_record fmt-which raidcli $SA format blocksize=4096 force J
cmd_record fmt-unforced raidcli $SA format blocksize=4096 nsid=1 J
cmd_record fmt-no-ns raidcli $SA format lbaf=0 nsid=9 force J
cmd_record fmt-4k raidcli $SA format blocksize=4096 nsid=1 force J
cmd_record id-ns-4k nvme id-ns "/dev/$A" --namespace-id=1 -o json
cmd_record fmt-512 raidcli $SA format lbaf=0 nsid=1 force J
cmd_record id-ns-512 nvme id-ns "/dev/$A" --namespace-id=1 -o json
cmd_record diag raidcli $SA start diag J
cmd_record sanitize raidcli $SA start erase blockerase force J
printf 'abc' >/tmp/odd.bin
cmd_record fw-odd raidcli $SA download src=/tmp/odd.bin J
cmd_record attach raidcli $SB attach namespace nsid=2 J
cmd_record ns-attached nvme list-ns "/dev/$B" -o json
cmd_record detach-unforced raidcli $SB detach namespace nsid=2 J
cmd_record detach raidcli $SB detach namespace nsid=2 force J
cmd_record ns-detached nvme list-ns "/dev/$B" -o json
swapoff "/dev/$SWAP"
nvme_unplug cb
echo "@ unplug cb"
echo "rc=$?"
cmd_record list-after raidcli /c0/eall/sall show J
'''


def kelvin(k):
    return f'{k - 273}C ({k} Kelvin)'


def pct(v):
    return f'{v}%'


def yes_no(v):
    return 'Yes' if v else 'No'


def strip(v):
    return v.strip()


def num(v):
    """nvme-cli prints 128-bit counters as numbers or strings, by version."""
    return int(float(v))


def bit(i):
    return lambda v: yes_no(v >> i & 1)


# raidcli's "NVMe Controller" section <- nvme id-ctrl -o json.
ID_CTRL = [
    ('Serial Number', 'sn', strip),
    ('Model Number', 'mn', strip),
    ('Firmware Revision', 'fr', strip),
    ('PCI Vendor Id', 'vid', lambda v: f'0x{v:04x}'),
    ('PCI Subsystem Vendor Id', 'ssvid', lambda v: f'0x{v:04x}'),
    ('Controller Id', 'cntlid', int),
    ('NVMe Version', 'ver', lambda v: f'{v >> 16}.{v >> 8 & 0xff}.{v & 0xff}'),
    ('Subsystem NQN', 'subnqn', strip),
    ('Number of Namespaces', 'nn', int),
    ('Total NVM Capacity', 'tnvmcap', num),
    ('Unallocated NVM Capacity', 'unvmcap', num),
    ('Warning Composite Temperature Threshold', 'wctemp', kelvin),
    ('Critical Composite Temperature Threshold', 'cctemp', kelvin),
    ('Error Log Page Entries', 'elpe', lambda v: v + 1),
    ('Firmware Slots', 'frmw', lambda v: v >> 1 & 7),
    ('Firmware Slot 1 Read Only', 'frmw', bit(0)),
]

# raidcli's "SMART/Health Information" section <- nvme smart-log -o json.
SMART = [
    ('Critical Warning', 'critical_warning', int),
    ('Available Spare Below Threshold', 'critical_warning', bit(0)),
    ('Temperature Threshold Exceeded', 'critical_warning', bit(1)),
    ('Reliability Degraded', 'critical_warning', bit(2)),
    ('Media Read Only', 'critical_warning', bit(3)),
    ('Volatile Memory Backup Failed', 'critical_warning', bit(4)),
    ('Persistent Memory Region Read Only', 'critical_warning', bit(5)),
    ('Composite Temperature', 'temperature', kelvin),
    ('Available Spare', 'avail_spare', pct),
    ('Available Spare Threshold', 'spare_thresh', pct),
    ('Percentage Used', 'percent_used', pct),
    ('Endurance Group Critical Warning Summary', 'endurance_grp_critical_warning_summary', int),
    ('Data Units Read', 'data_units_read', num),
    ('Data Units Written', 'data_units_written', num),
    ('Host Read Commands', 'host_read_commands', num),
    ('Host Write Commands', 'host_write_commands', num),
    ('Controller Busy Time', 'controller_busy_time', num),
    ('Power Cycles', 'power_cycles', num),
    ('Power On Hours', 'power_on_hours', num),
    ('Unsafe Shutdowns', 'unsafe_shutdowns', num),
    ('Media and Data Integrity Errors', 'media_errors', num),
    ('Error Information Log Entries', 'num_err_log_entries', num),
    ('Warning Temperature Time', 'warning_temp_time', int),
    ('Critical Composite Temperature Time', 'critical_comp_time', int),
    ('Thermal Management T1 Transition Count', 'thm_temp1_trans_count', int),
    ('Thermal Management T2 Transition Count', 'thm_temp2_trans_count', int),
    ('Thermal Management T1 Total Time', 'thm_temp1_total_time', int),
    ('Thermal Management T2 Total Time', 'thm_temp2_total_time', int),
] + [(f'Temperature Sensor {i}', f'temperature_sensor_{i}', kelvin) for i in range(1, 9)]

# Each namespace of raidcli's "Namespaces" <- nvme id-ns -o json.
ID_NS = [
    ('Namespace Size', 'nsze', int),
    ('Namespace Capacity', 'ncap', int),
    ('Namespace Utilization', 'nuse', int),
    ('LBA Format In Use', 'flbas', lambda v: v & 0xf),
]

# Each row of a namespace's "LBA Formats" <- id-ns's lbafs[i].
LBAF = [
    ('Data Size', 'ds', lambda v: 1 << v),
    ('Metadata Size', 'ms', int),
    ('Relative Performance', 'rp', int),
]


def field(obj, name):
    """nvme-cli's field @name of @obj (case aside: "Temperature" in newer
    nvme-cli), or None when nvme-cli leaves it out."""
    for key, value in obj.items():
        if key.lower() == name.lower():
            return value
    return None


def compare(ours, theirs, table, what):
    """Each raidcli key of @table in @ours against its nvme-cli field in @theirs."""
    for key, name, conv in table:
        value = field(theirs, name)
        if value is None:
            check(key not in ours, f'{what}: {key} shown, nvme-cli has no {name}')
            continue
        expect(ours.get(key), conv(value), f'{what}: {key} (nvme-cli {name})')


def response(cmd, what):
    """The Response Data of a raidcli J command, which must have succeeded."""
    expect(cmd['rc'], 0, f'{what}: exit status ({cmd["err"]})')
    ctrls = (cmd['json'] or {}).get('Controllers', [{}])
    return ctrls[0].get('Response Data', {})


def drive_rows(data):
    """{slot: PD LIST row} of a drive list's Response Data."""
    rows = {}
    for key, value in data.items():
        if key == 'Drive Information' or key.startswith('Drive /c') and isinstance(value, list):
            for row in value:
                rows[int(row['EID:Slt'].split(':')[1])] = row
    return rows


def check_namespaces(ours, cmds, name, what):
    for ns in ours:
        nsid = ns['NSID']
        idns = cmds.get(f'id-ns-{name}-{nsid}', {}).get('json')
        if not check(idns, f'{what} namespace {nsid}: nvme id-ns'):
            continue
        compare(ns, idns, ID_NS, f'{what} namespace {nsid}')
        lbafs = idns['lbafs']
        expect(len(ns.get('LBA Formats', [])), idns['nlbaf'] + 1, f'{what} ns {nsid}: formats')
        for i, (row, lbaf) in enumerate(zip(ns.get('LBA Formats', []), lbafs)):
            compare(row, lbaf, LBAF, f'{what} namespace {nsid} LBA format {i}')
            expect(row['In Use'], yes_no(i == idns['flbas'] & 0xf), f'{what} ns {nsid} lbaf {i}')
        in_use = lbafs[idns['flbas'] & 0xf]
        expect(ns['Logical Sector Size'], 1 << in_use['ds'], f'{what} ns {nsid}: sector size')
        expect(ns['Metadata Size'], in_use['ms'], f'{what} ns {nsid}: metadata size')


def check_fw(ours, fw, what):
    """nvme-cli's fw-log: {"nvmeN": {"Active Firmware Slot (afi)": afi,
    "Firmware Rev Slot N": "<number> (<revision>)"}}."""
    slots = next(iter(fw.values()), {}) if fw else {}
    afi = field(slots, 'Active Firmware Slot (afi)')
    if check(afi is not None, f'{what}: nvme fw-log afi ({fw})'):
        expect(ours.get('Active Slot'), afi & 7, f'{what}: Active Slot (afi)')
        expect(ours.get('Next Reset Slot'), afi >> 4 & 7, f'{what}: Next Reset Slot (afi)')
    for key, value in slots.items():
        if key.startswith('Firmware Rev Slot '):
            # nvme-cli shows the revision's NUL padding as dots
            rev = str(value).rpartition('(')[2].rstrip(')').rstrip('. ')
            slot = 'Slot ' + key.rsplit(' ', 1)[1]
            expect((ours.get(slot) or '').strip(), rev, f'{what}: {slot} ({key})')


def check_errors(ours, log, what):
    entries = next((v for v in (log or {}).values() if isinstance(v, list)), None)
    if not check(entries is not None, f'{what}: nvme error-log entries ({log})'):
        return
    used = [e for e in entries if field(e, 'error_count')]
    expect(ours.get('Entries'), len(used), f'{what}: Error Log Entries')
    for row, e in zip(ours.get('Errors', []), used):
        expect(row['Error Count'], num(field(e, 'error_count')), f'{what}: error count')
        expect(row['Command Id'], field(e, 'cmdid'), f'{what}: error command id')


def check_optional(ours, supported, cli, what):
    """A log page not every drive has: "Not Supported" where identify says
    so; where the drive refuses nvme-cli (@cli, None: not asked), the same
    refusal, its status by name; else the page (returned for its values)."""
    status = ours.get('Status')
    if not supported:
        expect(status, 'Not Supported', f'{what}: identify says the drive lacks it')
        if cli is not None:
            expect(cli['rc'] != 0, True, f'{what}: nvme-cli is refused too ({cli["out"]})')
        return None
    if cli is not None and cli['rc'] != 0:
        name = (status or '').partition(' failed: ')[2].partition(' (NVMe status')[0]
        if check(name != '', f'{what}: the refusal by name ({status})'):
            check(name in cli['err'] + cli['out'],
                  f'{what}: "{name}" is what nvme-cli was told ({cli["err"]})')
        return None
    check(status is None, f'{what}: shown ({status})')
    return ours


def check_logs(detail, prefix, idc, cmds, name, what):
    """Self-test, sanitize, telemetry and FDP: per identify, as nvme-cli."""
    oacs, sanicap = idc.get('oacs', 0), idc.get('sanicap', 0)
    st = check_optional(detail.get(f'{prefix} Self-test Log', {}), oacs & 1 << 4,
                        cmds[f'self-test-{name}'], f'{what} self-test log')
    log = next(iter((cmds[f'self-test-{name}']['json'] or {}).values()), None)
    if st is not None and isinstance(log, dict):
        expect(st.get('Current Completion'),
               f'{field(log, "Current Device Self-Test Completion")}%',
               f'{what}: self-test completion')
    san = check_optional(detail.get(f'{prefix} Sanitize Status', {}), sanicap & 7,
                         cmds[f'sanitize-{name}'], f'{what} sanitize status')
    log = next(iter((cmds[f'sanitize-{name}']['json'] or {}).values()), None)
    if san is not None and isinstance(log, dict) and isinstance(field(log, 'sstat'), int):
        expect(san.get('Sanitize Status (SSTAT)'), field(log, 'sstat') & 7,
               f'{what}: SSTAT')
    # nvme-cli's telemetry-log would create a capture: identify is the oracle.
    check_optional(detail.get(f'{prefix} Telemetry', {}), idc.get('lpa', 0) & 1 << 3, None,
                   f'{what} telemetry')
    check_optional(detail.get(f'{prefix} Flexible Data Placement', {}),
                   idc.get('ctratt', 0) & 1 << 19, None, f'{what} FDP')


def refused(cmd, words, what):
    """@cmd failed, its message (JSON's Description or ErrMsg) holding @words."""
    check(cmd['rc'] != 0, f'{what}: refused (exit status {cmd["rc"]})')
    check(words in cmd['out'], f'{what}: says "{words}" ({cmd["out"]})')


def nsids(cmd):
    """Every "nsid" value in nvme list-ns's JSON."""
    found = []

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                found.append(x) if k == 'nsid' else walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(cmd['json'])
    return sorted(found)


def check_actions(cmds):
    """Format round trip, namespace attach/detach and the refusals, each
    as nvme-cli then sees the drive."""
    refused(cmds['fmt-which'], 'has 2 namespaces attached', 'format without nsid=')
    refused(cmds['fmt-unforced'], 'repeat with force', 'format without force')
    refused(cmds['fmt-no-ns'], 'namespace 9 does not exist', 'format of a missing namespace')
    for name, size in (('4k', 12), ('512', 9)):
        expect(cmds[f'fmt-{name}']['rc'], 0, f'format to {name}: {cmds[f"fmt-{name}"]["out"]}')
        ns = cmds[f'id-ns-{name}']['json'] or {}
        lbaf = (ns.get('lbafs') or [{}] * 16)[ns.get('flbas', 0) & 0xf]
        expect(lbaf.get('ds'), size, f'nvme id-ns after the format to {name}: block size')
    # QEMU 7.2 has neither self-test, sanitize nor firmware download: refused, by name.
    refused(cmds['diag'], 'not supported', 'self-test on QEMU')
    refused(cmds['sanitize'], 'not supported', 'sanitize on QEMU')
    check(cmds['fw-odd']['rc'] != 0, f'firmware of 3 bytes refused ({cmds["fw-odd"]["out"]})')
    expect(cmds['attach']['rc'], 0, f'attach namespace 2: {cmds["attach"]["out"]}')
    expect(nsids(cmds['ns-attached']), [1, 2], 'nvme list-ns after the attach')
    refused(cmds['detach-unforced'], 'force', 'detach without force')
    expect(cmds['detach']['rc'], 0, f'detach namespace 2: {cmds["detach"]["out"]}')
    expect(nsids(cmds['ns-detached']), [1], 'nvme list-ns after the detach')


def wwn_of(namespaces, cmds, name):
    """What StorCLI's WWN should be: the lowest namespace's EUI-64 from
    nvme id-ns, else its NGUID, as uppercase hex; "" for none."""
    for nsid in sorted(ns['NSID'] for ns in namespaces):
        idns = cmds.get(f'id-ns-{name}-{nsid}', {}).get('json') or {}
        for key in ('eui64', 'nguid'):
            if int(idns.get(key, '0') or '0', 16):
                return idns[key].upper()
    return ''


def data_row_wwn(detail, prefix):
    return detail.get(f'{prefix} Device attributes', {}).get('WWN')


def check_drive(data, smart_data, slot, name, cmds, sysfs, what):
    """Every NVMe value raidcli shows of drive @slot (kernel name @name)."""
    prefix = f'Drive /c0/e252/s{slot}'
    detail = data.get(f'{prefix} - Detailed Information', {})
    idc = cmds[f'id-ctrl-{name}']['json'] or {}
    attrs = detail.get(f'{prefix} Device attributes', {})
    expect(attrs.get('SN'), idc.get('sn', '').strip(), f'{what}: SN')
    expect(attrs.get('Model Number'), idc.get('mn', '').strip(), f'{what}: Model Number')
    expect(attrs.get('Firmware Revision'), idc.get('fr', '').strip(), f'{what}: Firmware')
    expect(attrs.get('PCI Address'), sysfs['address'], f'{what}: PCI Address')
    expect(data_row_wwn(detail, prefix), wwn_of(detail.get(f'{prefix} Namespaces', []), cmds, name),
           f'{what}: WWN')
    ctrl = detail.get(f'{prefix} NVMe Controller', {})
    expect(ctrl.get('Controller'), name, f'{what}: Controller')
    expect(ctrl.get('PCI Address'), sysfs['address'], f'{what}: PCI Address (identify)')
    compare(ctrl, idc, ID_CTRL, f'{what} id-ctrl')
    smart = cmds[f'smart-{name}']['json'] or {}
    compare(detail.get(f'{prefix} SMART/Health Information', {}), smart, SMART, f'{what} smart')
    compare(smart_data.get(f'{prefix} SMART/Health Information', {}), smart, SMART,
            f'{what} show smart')
    check_namespaces(detail.get(f'{prefix} Namespaces', []), cmds, name, what)
    check_errors(detail.get(f'{prefix} Error Log', {}), cmds[f'error-{name}']['json'], what)
    check_fw(detail.get(f'{prefix} Firmware Slots', {}), cmds[f'fw-{name}']['json'], what)
    check_logs(detail, prefix, idc, cmds, name, what)
    return attrs


def main():
    with scratch('raidcli-vm-nvme-show.') as work:
        topo = NvmeTopology(work)
        topo.subsystem('ss0')
        topo.controller('ca', 'RCLSHOW-A')
        topo.controller('cb', 'RCLSHOW-S', subsys='ss0')
        topo.controller('cc', 'RCLSHOW-S', subsys='ss0')
        topo.controller('cd', 'RCLSHOW-D')
        topo.namespace('ca', 64 * MIB, lbs=512, nsid=1)
        # ca's WWN: its namespace 2's EUI-64, namespace 1 having none
        topo.namespace('ca', 32 * MIB, lbs=4096, nsid=2, eui64='0123456789abcdef')
        topo.namespace('ss0', 48 * MIB, lbs=4096, nsid=1)
        topo.namespace('ss0', 16 * MIB, lbs=512, nsid=2, detached=True)
        topo.namespace('cd', 16 * MIB, lbs=4096, nsid=1)
        rc, out = run_vm(topo.args, SCRIPT, bins=(RAIDCLI,))
        print(out)
        expect(rc, 0, 'guest script exit status')
        records = parse_records(out)
        cmds = cmd_records(records)
        names = records[('ctrl', 'names')]
        check(all(names.values()), f'every controller found by its id: {names}')
        data = response(cmds['show-all'], 'show all J')
        smart_data = response(cmds['show-smart'], 'show smart J')
        rows = drive_rows(response(cmds['list-before'], 'show J'))
        # Four NVMe controllers, four drives in slots 0-3, each its own.
        expect(sorted(rows), [0, 1, 2, 3], 'one drive a controller, slots from 0')
        by_name = {}
        for slot in rows:
            attrs = data.get(f'Drive /c0/e252/s{slot} - Detailed Information', {}).get(
                f'Drive /c0/e252/s{slot} Device attributes', {})
            by_name[attrs.get('NVMe Controller')] = slot
            expect(rows[slot]['State'], 'JBOD', f'slot {slot}: state')
            expect(rows[slot]['Intf'], 'NVMe', f'slot {slot}: interface')
        expect(sorted(by_name), sorted(names.values()), 'each controller is a drive')
        for ident, name in names.items():
            slot = by_name.get(name)
            if check(slot is not None, f'{ident} ({name}) is a drive'):
                attrs = check_drive(data, smart_data, slot, name, cmds,
                                    records[('sysfs', name)], f'{ident} (/c0/e252/s{slot})')
                swap = records[('swap', 'dev')]['name']
                expect(attrs.get('In Use'), f'{swap} is swap space' if ident == 'cd' else 'No',
                       f'{ident}: In Use')
        check_actions(cmds)
        # cb unplugged: Msng in its slot, with its serial; no other drive moved.
        expect(records[('unplug', 'cb')].get('rc'), '0', 'nvme_unplug cb')
        after = drive_rows(response(cmds['list-after'], 'show J after the unplug'))
        expect(sorted(after), sorted(rows), 'the same slots after the unplug')
        gone = by_name.get(names['cb'])
        for slot, row in after.items():
            expect(row['State'], 'Msng' if slot == gone else 'JBOD', f'slot {slot} after unplug')
            expect(row['Model'], rows[slot]['Model'], f'slot {slot}: model after unplug')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
