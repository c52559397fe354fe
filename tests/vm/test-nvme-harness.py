#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-nvme-harness.py - run-in-vm.sh's NVMe devices are what the NVMe tests
rely on, checked with nvme-cli in the VM as a user would: controllers and
namespaces with the serials, sizes and LBA sizes given (nvme list, id-ctrl,
id-ns); a subsystem's detached namespace attached to one controller and
detached again (nvme attach-ns / detach-ns), the kernel following; nvme
format from 512 to 4096-byte blocks and back; the SMART log's critical
warning as the host set it (guest.sh's nvme_critical_warning: QMP qom-set);
writes through a namespace reaching its image; a controller unplugged
(host_qmp device_del) under a dd: the dd fails, its namespaces leave, the
guest goes on with the others; that controller and one of the subsystem's
plugged back (nvme_replug), with their namespaces. The build's raidcli runs
beside nvme-cli (run_vm's bins). One VM boot.
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmtest import (RAIDCLI, NvmeTopology, by_kind, check, cmd_records, expect,  # noqa: E402
                    finish, parse_records, run_vm, scratch)

MIB = 1 << 20
SERIAL_A, SERIAL_S = 'RCLNVME-A', 'RCLNVME-S'
SUBNQN = 'nqn.2019-08.org.qemu:ss0'  # QEMU's prefix and the subsystem's name
MARK = b'written through nvme\n'

# The guest's side. ca: a controller alone, namespaces 1 (512-byte blocks)
# and 2 (4096); ss0: a subsystem of controllers cb and cc sharing
# namespace 1 (4096) and holding namespace 2 (512) detached.
SCRIPT = r'''
cmd_record raidcli raidcli show J
echo "@ ctrl names"
for id in ca cb cc; do echo "$id=$(nvme_ctrl $id)"; done
A=$(nvme_ctrl ca) B=$(nvme_ctrl cb) C=$(nvme_ctrl cc)
cmd_record list nvme list -o json
for id in ca cb cc; do cmd_record "id-ctrl-$id" nvme id-ctrl "/dev/$(nvme_ctrl $id)" -o json; done
for ns in "ca 1" "ca 2" "cb 1" "cc 1"; do
	set -- $ns
	cmd_record "id-ns-$1-$2" nvme id-ns "/dev/$(nvme_ns $1 $2)" -o json
done
nvme_namespaces

# the detached namespace: nowhere, then attached to cb alone, then detached
cntlid=$(nvme id-ctrl "/dev/$B" -o json | sed -n 's/.*"cntlid" *: *\([0-9]*\).*/\1/p')
echo "@ attach before"
echo "cb=$(nvme_ns cb 2)"
cmd_record attach nvme attach-ns "/dev/$B" -n 2 -c "$cntlid"
wait_for nvme_ns cb 2
echo "@ attach after"
echo "cb=$(nvme_ns cb 2)"
echo "cc=$(nvme_ns cc 2)"
dev=$(nvme_ns cb 2)
echo "lbs=$(cat /sys/block/$dev/queue/logical_block_size)"
echo "sectors=$(cat /sys/block/$dev/size)"
cmd_record id-ns-attached nvme id-ns "/dev/$dev" -o json
cmd_record detach nvme detach-ns "/dev/$B" -n 2 -c "$cntlid"
wait_for eval '! nvme_ns cb 2'
echo "@ detach after"
echo "cb=$(nvme_ns cb 2)"

# format namespace ca/1: 512 -> 4096 -> 512-byte blocks
dev=$(nvme_ns ca 1)
for lbaf in 4 0; do
	cmd_record "format-$lbaf" nvme format "/dev/$dev" --lbaf=$lbaf --force
	cmd_record "id-ns-format-$lbaf" nvme id-ns "/dev/$dev" -o json
	want=512; [ $lbaf = 0 ] || want=4096
	wait_for eval "[ \$(cat /sys/block/$dev/queue/logical_block_size) = $want ]"
	echo "@ kernel format-$lbaf"
	echo "lbs=$(cat /sys/block/$dev/queue/logical_block_size)"
done

# the critical warning of cb's SMART log, set on the host (QMP qom-set)
nvme_critical_warning cb 5 && echo "@ qom set" && echo "rc=0"
cmd_record smart-cb nvme smart-log "/dev/$B" -o json
cmd_record smart-cc nvme smart-log "/dev/$C" -o json
nvme_critical_warning cb 0
cmd_record smart-cb-cleared nvme smart-log "/dev/$B" -o json

# a write through namespace ca/1 (4 MiB in) reaches its image
printf 'written through nvme\n' | dd of="/dev/$(nvme_ns ca 1)" bs=512 seek=8192 conv=sync \
	oflag=direct 2>/dev/null

# unplug ca under a dd to its namespace 1: dd has written 1 MiB and waits
# at the gate for more input when the controller leaves
dev=$(nvme_ns ca 1)
mkfifo /tmp/gate
{
	dd if=/dev/zero bs=64k count=16 2>/dev/null
	read -r _ </tmp/gate
	dd if=/dev/zero bs=64k count=16 2>/dev/null
} | dd of="/dev/$dev" bs=64k iflag=fullblock oflag=direct 2>/tmp/dd.err &
dd_pid=$!
wait_for eval "[ \$(awk '{print \$7}' /sys/block/$dev/stat) -ge 2048 ]"
echo "@ unplug ca"
nvme_unplug ca
echo "rc=$?"
echo >/tmp/gate
wait $dd_pid
echo "dd_rc=$?"
echo "dd_err=$(tr '\n' ' ' </tmp/dd.err)"
echo "ctrl=$(nvme_ctrl ca 2>/dev/null)"
echo "dev_left=$(ls /dev/$dev 2>/dev/null)"
cmd_record list-after nvme list -o json
cmd_record read-after dd if="/dev/$(nvme_ns cb 1)" of=/dev/null bs=4096 count=16 iflag=direct

# plugged back: ca with its namespace 1 (what was written is there), cc
# with the subsystem's shared namespace
echo "@ replug ca"
nvme_replug ca && wait_for nvme_ns ca 1
echo "rc=$?"
echo "read=$(dd if="/dev/$(nvme_ns ca 1)" bs=512 skip=8192 count=1 2>/dev/null | head -n 1)"
nvme_unplug cc
echo "@ replug cc"
echo "gone=$(nvme_ctrl cc 2>/dev/null)"
nvme_replug cc && wait_for nvme_ns cc 1
echo "rc=$?"
echo "shared=$(nvme_ns cc 1) $(nvme_ns cb 1)"
'''


def lba_bytes(id_ns):
    """The block size of the LBA format id-ns says is in use."""
    return 1 << id_ns['lbafs'][id_ns['flbas'] & 0xf]['ds']


def check_inventory(topo, cmds, ctrl_names, kernel):
    """Controllers and namespaces as configured, in nvme-cli's and the
    kernel's eyes."""
    for ident, ctrl in topo.controllers.items():
        idc = cmds[f'id-ctrl-{ident}']['json'] or {}
        expect(idc.get('sn', '').strip(), ctrl['serial'], f'{ident}: id-ctrl serial')
        if ctrl['subsys']:
            expect(idc.get('subnqn'), SUBNQN, f'{ident}: id-ctrl subsystem NQN')
    listed = {}
    for dev in (cmds['list']['json'] or {}).get('Devices', []):
        listed[(dev['SerialNumber'].strip(), dev['NameSpace'])] = dev
    for ns in topo.namespaces:
        what = f'namespace {ns["owner"]}/{ns["nsid"]}'
        reach = topo.reached_by(ns)
        if not reach:
            continue
        serial = topo.controllers[reach[0]]['serial']
        dev = listed.pop((serial, ns['nsid']), None)
        if check(dev, f'{what}: in nvme list (serial {serial})'):
            expect(dev['PhysicalSize'], ns['size'], f'{what}: nvme list size')
            expect(dev['SectorSize'], ns['lbs'], f'{what}: nvme list sector size')
        for ctrl in reach:
            idns = cmds[f'id-ns-{ctrl}-{ns["nsid"]}']['json']
            if check(idns, f'{what} through {ctrl}: nvme id-ns'):
                expect(lba_bytes(idns), ns['lbs'], f'{what} through {ctrl}: id-ns LBA size')
                expect(idns['nsze'] * ns['lbs'], ns['size'], f'{what} through {ctrl}: id-ns size')
                expect(idns['nmic'] & 1, int(len(reach) > 1),
                       f'{what} through {ctrl}: id-ns NMIC shared bit')
        paths = {ctrl_names[c] for c in reach}
        blk = [r for r in kernel.values()
               if r['nsid'] == str(ns['nsid']) and set(r['ctrls'].split(',')) == paths]
        if check(len(blk) == 1, f'{what}: one block device through {sorted(paths)}: {kernel}'):
            expect(int(blk[0]['lbs']), ns['lbs'], f'{what}: kernel logical block size')
            expect(int(blk[0]['sectors']) * 512, ns['size'], f'{what}: kernel size')
    check(not listed, f'nvme list: unexpected devices {sorted(listed)}')


def check_attach(records, cmds, size):
    before, after = records[('attach', 'before')], records[('attach', 'after')]
    expect(before.get('cb'), '', 'detached namespace: no block device before attach-ns')
    expect(cmds['attach']['rc'], 0, f'nvme attach-ns: {cmds["attach"]["err"]}')
    check(after.get('cb'), 'attach-ns: the kernel has the namespace through cb')
    expect(after.get('cc'), '', 'attach-ns to cb alone: not through cc')
    expect(after.get('lbs'), '512', 'attached namespace: kernel logical block size')
    expect(int(after.get('sectors', 0)) * 512, size, 'attached namespace: kernel size')
    idns = cmds['id-ns-attached']['json'] or {}
    expect(idns.get('nsze', 0) * 512, size, 'attached namespace: id-ns size')
    expect(cmds['detach']['rc'], 0, f'nvme detach-ns: {cmds["detach"]["err"]}')
    expect(records[('detach', 'after')].get('cb'), '', 'detach-ns: the kernel has dropped it')


def check_format(records, cmds):
    for lbaf, lbs in ((4, 4096), (0, 512)):
        expect(cmds[f'format-{lbaf}']['rc'], 0,
               f'nvme format --lbaf={lbaf}: {cmds[f"format-{lbaf}"]["err"]}')
        idns = cmds[f'id-ns-format-{lbaf}']['json'] or {'flbas': -1, 'lbafs': []}
        expect(idns['flbas'] & 0xf, lbaf, f'after format --lbaf={lbaf}: id-ns flbas')
        if idns['lbafs']:
            expect(lba_bytes(idns), lbs, f'after format --lbaf={lbaf}: id-ns LBA size')
        expect(records[('kernel', f'format-{lbaf}')].get('lbs'), str(lbs),
               f'after format --lbaf={lbaf}: kernel logical block size')


def check_smart(records, cmds):
    check(('qom', 'set') in records, 'nvme_critical_warning (host_qmp qom-set) succeeded')
    for name, want in (('smart-cb', 5), ('smart-cc', 0), ('smart-cb-cleared', 0)):
        log = cmds[name]['json'] or {}
        expect(log.get('critical_warning'), want, f'{name}: nvme smart-log critical_warning')


def check_unplug(records, cmds, serial):
    unplug = records[('unplug', 'ca')]
    expect(unplug.get('rc'), '0', 'nvme_unplug ca (host_qmp device_del)')
    check(unplug.get('dd_rc') not in ('0', None), f'dd across the unplug fails: {unplug}')
    check('error writing' in unplug.get('dd_err', ''), f'dd says its write failed: {unplug}')
    expect(unplug.get('ctrl'), '', 'controller ca gone from the guest')
    expect(unplug.get('dev_left'), '', "ca's namespace block device gone")
    devices = (cmds['list-after']['json'] or {}).get('Devices', [])
    left = [d['SerialNumber'].strip() for d in devices]
    check(serial not in left, f'nvme list after the unplug: {serial} gone ({left})')
    check(left, 'nvme list after the unplug: the subsystem namespace still there')
    expect(cmds['read-after']['rc'], 0, f'the guest goes on: reads ss0/1 ({cmds["read-after"]})')


def check_replug(records):
    ca, cc = records[('replug', 'ca')], records[('replug', 'cc')]
    expect(ca.get('rc'), '0', 'nvme_replug ca: its namespace 1 is back')
    expect(ca.get('read'), MARK.decode().strip(), 'replugged ca/1 reads what was written')
    expect(cc.get('gone'), '', 'nvme_unplug cc: gone')
    expect(cc.get('rc'), '0', 'nvme_replug cc: the shared namespace is back through it')
    shared = cc.get('shared', '').split()
    check(len(shared) == 2 and shared[0] == shared[1],
          f'replugged cc reaches the multipath device cb does: {shared}')


def main():
    with scratch('raidcli-vm-nvme.') as work:
        topo = NvmeTopology(work)
        topo.subsystem('ss0')
        topo.controller('ca', SERIAL_A)
        topo.controller('cb', SERIAL_S, subsys='ss0')
        topo.controller('cc', SERIAL_S, subsys='ss0')
        written = topo.namespace('ca', 64 * MIB, lbs=512, nsid=1)
        topo.namespace('ca', 32 * MIB, lbs=4096, nsid=2)
        topo.namespace('ss0', 48 * MIB, lbs=4096, nsid=1)
        detached = topo.namespace('ss0', 16 * MIB, lbs=512, nsid=2, detached=True)
        rc, out = run_vm(topo.args, SCRIPT, bins=[shutil.which(RAIDCLI) or RAIDCLI])
        print(out)
        expect(rc, 0, 'guest script exit status')
        records = parse_records(out)
        if not check(('ctrl', 'names') in records, 'the guest script ran'):
            return finish()
        cmds = cmd_records(records)
        shown = (cmds['raidcli']['json'] or {}).get('Controllers', [{}])[0]
        check('CLI Version' in shown.get('Command Status', {}),
              f'raidcli show J runs in the guest: {cmds["raidcli"]}')
        ctrl_names = records[('ctrl', 'names')]
        check(all(ctrl_names.values()), f'every controller found by its id: {ctrl_names}')
        check_inventory(topo, cmds, ctrl_names, by_kind(records, 'nvme_ns'))
        check_attach(records, cmds, detached['size'])
        check_format(records, cmds)
        check_smart(records, cmds)
        with open(written['image'], 'rb') as f:
            f.seek(4 * MIB)
            expect(f.read(len(MARK)), MARK, 'a write through ca/1 reached its image')
        check_unplug(records, cmds, SERIAL_A)
        check_replug(records)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
