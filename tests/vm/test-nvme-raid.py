#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-nvme-raid.py - RAID over NVMe namespaces, the VROC way, in the VM:
nine QEMU NVMe controllers of one namespace each are the nvme controller's
drives; raidcli builds a RAID5 (three drives and a dedicated hot spare)
and a RAID10 (four drives and a dedicated hot spare) on them and exports
both over NBD; data with a known sha256 goes through each export, and one
member of each VD is hot-unplugged (QMP device_del) while nbdcopy writes
to it: the NBD client sees no error, the VD goes degraded, its spare
rebuilds it to Optl and the export reads the same sha256. With raidcli's
process stopped, mdadm --examine finds md members on the namespaces and
the kernel's md assembles both arrays with that sha256. A tenth drive, of
two namespaces, is refused for RAID naming them; a RAID member's namespace
is refused to a soft controller, naming the nvme drive that holds it, and
the other way: a twelfth drive's namespace, taken by a soft controller's
VD, is foreign to the nvme kind, which neither imports nor deletes it
(refused naming the soft drive that holds it) nor builds a VD on it. An
eleventh, made the RAID5's spare again, takes the place of a member
unplugged while no I/O reaches the VD, with no raidcli command to tell the
process. One VM boot.
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmtest import (RAIDCLI, NvmeTopology, check, cmd_records, expect, finish,  # noqa: E402
                    parse_records, run_vm, scratch)

MIB = 1 << 20
DRIVES = 9
IDLE_SPARE = DRIVES + 1  # after the two-namespace drive
SOFT_HELD = IDLE_SPARE + 1

# The guest's side. Controller dI is slot I (check_slots); VD 0 (RAID5) on
# slots 0-2 with 3 its spare, VD 1 (RAID10) on 4-7 with 8; 8 MiB of data
# through each export, then the whole VD read back.
SCRIPT = r'''
export RAIDCLI_STATE_DIR=/tmp/raidcli
# controller dI is in slot I (discovery by PCI address): the host checks it
cmd_record pds-before raidcli /c0/eall/sall show all J
cmd_record good raidcli /c0/e252/s0-8,10-11 set good J
cmd_record multi-ns raidcli /c0/e252/s9 set good J
cmd_record r5 raidcli /c0 add vd type=raid5 drives=252:0-2 J
cmd_record r5-spare raidcli /c0/e252/s3 add hotsparedrive dgs=0 J
cmd_record r10 raidcli /c0 add vd type=raid10 drives=252:4-7 pdperarray=2 J
cmd_record r10-spare raidcli /c0/e252/s8 add hotsparedrive dgs=1 J
# a RAID5 member's namespace is not a soft controller's to take
raidcli add controller type=soft drives=0 >/dev/null
ns=$(raidcli /c0/e252/s0 show all J | sed -n 's/.*"Namespaces" : "\([^",]*\).*/\1/p')
cmd_record soft-held raidcli /c1 add drive path=/dev/$ns J
# nor is a namespace a soft controller's VD stands on the nvme kind's
ns=$(raidcli /c0/e252/s11 show all J | sed -n 's/.*"Namespaces" : "\([^",]*\).*/\1/p')
cmd_record soft-take raidcli /c1 add drive path=/dev/$ns J
cmd_record soft-vd raidcli /c1 add vd type=raid0 drives=252:0 J
cmd_record nvme-import raidcli /c0/fall import J
cmd_record nvme-del raidcli /c0/fall del force J
cmd_record nvme-vd raidcli /c0 add vd type=raid0 drives=252:11 J
cmd_record soft-vd-del raidcli /c1/v0 del force J
cmd_record export raidcli /c0/vall start export J
uri() { raidcli /c0/v$1 show export J |
	sed -n 's/.*"Export Name" : "\([^"]*\)".*/\1/p;s/.*"Address" : "unix:\([^"]*\)".*/\1/p' |
	{ read -r n; read -r a; echo "nbd+unix:///$n?socket=$a"; }; }
for v in 0 1; do
	dd if=/dev/urandom of=/data$v bs=1M count=8 2>/dev/null
	u=$(uri $v)
	echo "@ io v$v"; echo "uri=$u"
	nbdcopy /data$v "$u"
	echo "copy_rc=$?"
	echo "before=$(nbdcopy "$u" - | sha256sum | cut -d' ' -f1)"
	# a second pass: half of it written, the member leaves, then the rest
	# (nvme_unplug returns once the guest has let the controller go)
	rm -f /tmp/gate; mkfifo /tmp/gate
	{
		dd if=/data$v bs=1M count=4 2>/dev/null
		read -r _ </tmp/gate
		dd if=/data$v bs=1M skip=4 count=4 2>/dev/null
	} | nbdcopy --connections=1 --requests=1 - "$u" 2>/tmp/copy.err &
	pid=$!
	sleep 1
	kill -0 $pid && echo "inflight=1"
	if [ $v = 0 ]; then nvme_unplug d1; else nvme_unplug d5; fi
	echo "unplug_rc=$?"
	echo >/tmp/gate
	wait $pid
	echo "io_rc=$?"
	echo "io_err=$(tr '\n' ' ' </tmp/copy.err)"
	cmd_record "degraded-v$v" raidcli /c0/v$v show J
	tries=0
	until raidcli /c0/v$v show J | grep -q '"State" *: *"Optl"'; do
		tries=$((tries + 1)); [ $tries -lt 120 ] || break; sleep 1
	done
	cmd_record "rebuilt-v$v" raidcli /c0/v$v show J
	echo "@ after v$v"
	echo "sha256=$(nbdcopy "$u" - | sha256sum | cut -d' ' -f1)"
done
# v0 idle: its export stopped (a served VD's own I/O meets a gone drive),
# a member unplugged. No raidcli command until the process, watching the
# NVMe devices, started the rebuild onto the new spare (its event log says
# so); then v0 is served again, for its sha256.
cmd_record idle-spare raidcli /c0/e252/s10 add hotsparedrive dgs=0 J
# (after the rebuild v0 has a BGI: its I/O would meet the gone drive)
raidcli /c0/v0 show bgi wait >/dev/null
cmd_record idle-stop raidcli /c0/v0 stop export J
# the process polls after each command: let that poll end before the
# unplug, so that it cannot be what sees the drive gone
sleep 5
nvme_unplug d2
rc=$?
echo "@ idle v0"; echo "unplug_rc=$rc"
tries=0
until grep -qs 'Rebuild started on PD 252:10' "$RAIDCLI_STATE_DIR"/events/*.log; do
	tries=$((tries + 1)); [ $tries -lt 60 ] || break; sleep 1
done
echo "waited=$tries"
# what the process did, for the record of a failure
tail -n 5 "$RAIDCLI_STATE_DIR"/run/*.log
cmd_record idle-started raidcli /c0/e252/s10 show J
tries=0
until raidcli /c0/v0 show J | grep -q '"State" *: *"Optl"'; do
	tries=$((tries + 1)); [ $tries -lt 120 ] || break; sleep 1
done
cmd_record idle-rebuilt raidcli /c0/v0 show J
cmd_record idle-export raidcli /c0/v0 start export J
echo "@ idle v0"
echo "sha256=$(nbdcopy "$(uri 0)" - | sha256sum | cut -d' ' -f1)"
cmd_record pds raidcli /c0/eall/sall show J
cmd_record stop-export raidcli /c0/vall stop export J
cmd_record stop-service raidcli /c0 stop service J
# the kernel reads the GPTs raidcli wrote (no udev here to ask it)
for d in /dev/nvme*n1; do blockdev --rereadpt "$d"; done
cmd_record examine sh -c 'for p in /dev/nvme*n1p*; do mdadm --examine "$p" | grep -E "Array UUID|Raid Level|Device Role"; done'
cmd_record assemble mdadm --assemble --scan
arrays md
for md in /sys/block/md*; do
	[ -e "$md/md/array_state" ] || continue
	echo "@ sha ${md##*/}"; echo "sha256=$(sha256sum "/dev/${md##*/}" | cut -d' ' -f1)"
done
'''


def response(cmd, what):
    """The Response Data of a raidcli J command, which must have succeeded."""
    expect(cmd['rc'], 0, f'{what}: exit status ({cmd["err"]} {cmd["out"][:300]})')
    ctrls = (cmd['json'] or {}).get('Controllers', [{}])
    return ctrls[0].get('Response Data', {})


def vd_state(cmd, what):
    rows = response(cmd, what).get('Virtual Drives', [{}])
    return rows[0].get('State') if rows else None


def drive_rows(data):
    """{slot: PD LIST row} of a drive list's Response Data."""
    rows = {}
    for key, value in data.items():
        if key == 'Drive Information' or key.startswith('Drive /c') and isinstance(value, list):
            for row in value:
                rows[int(row['EID:Slt'].split(':')[1])] = row
    return rows


def check_slots(cmds):
    """Controller dI is drive /c0/e252/sI, its serial NRI: the slots the script names."""
    data = response(cmds['pds-before'], 'show all J')
    for i in range(DRIVES):
        attrs = data.get(f'Drive /c0/e252/s{i} - Detailed Information', {}).get(
            f'Drive /c0/e252/s{i} Device attributes', {})
        expect(attrs.get('SN'), f'NR{i}', f'slot {i}: serial')
    rows = drive_rows(data)
    expect(sorted(r['State'] for r in rows.values()), ['JBOD'] * (SOFT_HELD + 1),
           'drives start JBOD')


def check_build(cmds):
    for name in ('good', 'r5', 'r5-spare', 'r10', 'r10-spare', 'export'):
        response(cmds[name], name)
    multi = cmds['multi-ns']
    check(multi['rc'] != 0 and 'nsid 1, 2' in multi['out'],
          f'set good of a drive with two namespaces: refused naming them ({multi["out"][:400]})')
    held = cmds['soft-held']
    check(held['rc'] != 0 and 'drive /c0/e252/s0 is a member of disk group 0' in held['out'],
          f'a RAID member\'s namespace added to a soft controller: refused naming its holder '
          f'({held["out"][:400]})')
    for name in ('soft-take', 'soft-vd', 'soft-vd-del'):
        response(cmds[name], name)
    for name in ('nvme-import', 'nvme-del'):
        out = cmds[name]
        check(out['rc'] != 0 and 'drive /c1/e252/s0 is a member of disk group 0' in out['out'],
              f'{name} of a soft controller\'s VD over a namespace: refused naming its holder '
              f'({out["out"][:400]})')
    out = cmds['nvme-vd']
    check(out['rc'] != 0 and 'drive 252:11 holds a foreign configuration' in out['out'],
          f'a VD over a soft controller\'s namespace: refused ({out["out"][:400]})')


def check_unplug(records, cmds, vd, spare, gone):
    io = records.get(('io', f'v{vd}'), {})
    tag = f'v{vd}'
    expect(io.get('copy_rc'), '0', f'{tag}: nbdcopy to the export')
    expect(io.get('inflight'), '1', f'{tag}: nbdcopy still writing when the member left')
    expect(io.get('unplug_rc'), '0', f'{tag}: QMP device_del')
    expect(io.get('io_rc'), '0', f'{tag}: no error to the NBD client ({io.get("io_err")})')
    expect(vd_state(cmds[f'degraded-v{vd}'], f'{tag} after the unplug') in ('Dgrd', 'Pdgd'), True,
           f'{tag}: degraded after the unplug')
    expect(vd_state(cmds[f'rebuilt-v{vd}'], f'{tag} rebuilt'), 'Optl',
           f'{tag}: optimal once its spare rebuilt it')
    after = records.get(('after', tag), {}).get('sha256')
    expect(after, io.get('before'), f'{tag}: sha256 through the export after the rebuild')
    rows = drive_rows(response(cmds['pds'], 'show J at the end'))
    expect(rows.get(spare, {}).get('State'), 'Onln', f'{tag}: spare s{spare} is a member')
    expect(rows.get(gone, {}).get('State') != 'Onln', True, f'{tag}: s{gone} no longer a member')
    return after


def check_idle_unplug(records, cmds, sha):
    """A member of idle v0 unplugged: the spare rebuilds it with no command."""
    response(cmds['idle-spare'], 'add hotsparedrive s10')
    response(cmds['idle-stop'], 'stop export v0')
    response(cmds['idle-export'], 'start export v0')
    expect(records.get(('idle', 'v0'), {}).get('unplug_rc'), '0', 'idle v0: QMP device_del')
    rows = drive_rows(response(cmds['idle-started'], 'show s10 after the idle unplug'))
    expect(rows.get(IDLE_SPARE, {}).get('State') in ('Rbld', 'Onln'), True,
           f'idle v0: the process started the rebuild onto s{IDLE_SPARE} by itself '
           f'({rows.get(IDLE_SPARE)})')
    expect(vd_state(cmds['idle-rebuilt'], 'idle v0 rebuilt'), 'Optl', 'idle v0: rebuilt to Optl')
    expect(records.get(('idle', 'v0'), {}).get('sha256'), sha,
           'idle v0: sha256 through the export after the rebuild')


def check_md(records, cmds, shas):
    response(cmds['stop-export'], 'stop export')
    response(cmds['stop-service'], 'stop service')
    expect(cmds['assemble']['rc'], 0, f'mdadm --assemble --scan: {cmds["assemble"]["err"]}')
    examine = cmds['examine']['out']
    expect(examine.count('Raid Level : raid5'), 3, f'mdadm --examine: RAID5 members ({examine})')
    expect(examine.count('Raid Level : raid10'), 4, 'mdadm --examine: RAID10 members')
    md = {r.get('sha256') for (k, _), r in records.items() if k == 'sha'}
    for sha in shas:
        check(sha in md, f'md assembled an array with sha256 {sha}: {sorted(md)}')


def main():
    with scratch('raidcli-vm-nvme-raid.') as work:
        topo = NvmeTopology(work)
        for i in range(DRIVES):
            topo.controller(f'd{i}', f'NR{i}')
            topo.namespace(f'd{i}', 32 * MIB, lbs=512, nsid=1)
        # a drive of two namespaces: no RAID on it
        topo.controller(f'd{DRIVES}', 'NRMULTI')
        topo.namespace(f'd{DRIVES}', 16 * MIB, lbs=512, nsid=1)
        topo.namespace(f'd{DRIVES}', 16 * MIB, lbs=512, nsid=2)
        for i in (IDLE_SPARE, SOFT_HELD):
            topo.controller(f'd{i}', f'NR{i}')
            topo.namespace(f'd{i}', 32 * MIB, lbs=512, nsid=1)
        rc, out = run_vm(topo.args, SCRIPT, timeout=300,
                         bins=(RAIDCLI, shutil.which('nbdcopy') or 'nbdcopy'))
        print(out)
        expect(rc, 0, 'guest script exit status')
        records = parse_records(out)
        cmds = cmd_records(records)
        check_slots(cmds)
        check_build(cmds)
        shas = [check_unplug(records, cmds, 0, 3, 1), check_unplug(records, cmds, 1, 8, 5)]
        check_idle_unplug(records, cmds, shas[0])
        check_md(records, cmds, shas)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
