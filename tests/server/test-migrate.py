#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-migrate.py - RAID level migration and online capacity expansion
(start|show migrate) of an exported VD, end to end.

For each supported migration (RAID5 plus a drive, RAID5 -> RAID6, RAID0 ->
RAID5, RAID1 -> RAID5, RAID6 plus a drive, RAID5/RAID6/RAID1 -> RAID0,
RAID6 -> RAID5) a VD takes fio's seeded random
writes (crc32c-verified) through its NBD export, migrates while exported
(with fio writing and verifying during the migration in some cases), and
then: its data verifies, show reports the new level and size (an expansion
grows the VD), a consistency check finds 0 mismatches, and mdadm --examine
of a member (its partition copied out) reports the new level and member
count. Then kill -9 of the controller process mid-migration: the next
process resumes the migration from its checkpoint, completes it, and the
data verifies; the same when a member failed during the migration, which
then resumes degraded without it; the same kill -9 while option=remove
takes the last drive out of a RAID6 becoming a RAID5, which leaves the
group as Unconfigured Good. A member whose reads fail mid-migration
(nbdkit behind nbdfuse) fails, and the migration goes on degraded and a
spare rebuilds it after, or (RAID0 source) stops, offline. A dedicated spare stays valid.
Refusals (levels, drives, sizes, what MegaRAID refuses) change nothing.
"""
import hashlib
import json
import os
import signal
import subprocess
import sys

from rcltest import (MIB, Fixture, array_state, bad_drive, check, drive_field,  # noqa: E402
                     examine_member, fill_export, fx_vd_bytes, nbd_uri, run_cases, start_export,
                     summary, wait_consistent, wait_for)

DRIVE_MB = 32


def fio_process(uri, seed, size, verify_only=False):
    """fio's nbd engine over the first @size bytes: random writes of 4-192
    KiB blocks, each with a crc32c header, read back and verified."""
    return subprocess.Popen(["fio", "--name=migrate", "--ioengine=nbd", "--uri=" + uri,
                             "--rw=randwrite", "--bssplit=4k/50:64k/30:192k/20",
                             "--size=%d" % size, "--iodepth=8", "--verify=crc32c",
                             "--verify_fatal=1", "--verify_state_save=0", "--randseed=%d" % seed,
                             "--output-format=terse"] +
                            (["--verify_only"] if verify_only else []),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def fio(uri, seed, size, verify_only=False):
    p = fio_process(uri, seed, size, verify_only)
    out, _ = p.communicate(timeout=240)
    return p.returncode, out


def migrate_status(fx):
    status, doc = fx.json("/c0/v0", "show", "migrate")
    return doc["Response Data"]["VD Operation Status"][0]


def vd_row(fx):
    status, doc = fx.json("/c0/v0", "show")
    return doc["Response Data"]["Virtual Drives"][0]


def wait_migrated(fx, what, timeout=180):
    return check(wait_for(lambda: migrate_status(fx)["Status"] == "Not in progress", timeout),
                 "%s: the migration ends" % what, migrate_status(fx))


def start_migrate(fx, what, *words):
    """start migrate @words on /c0/v0. Return: whether it started."""
    r = fx.run("/c0/v0", "start", "migrate", *words)
    return check(r.returncode == 0, "%s: start migrate" % what, r.stdout + r.stderr)


def migrate_to_end(fx, what, words, during=None, during_what=None, started=None):
    """start migrate @words on /c0/v0 and wait for it to end; @during: a
    fio_process() writing meanwhile, checked to verify (@during_what says
    what that shows); @started: called once the migration has started.
    Return: whether the migration ended."""
    if not start_migrate(fx, what, *words):
        return False
    if started:
        started()
    if during:
        out, _ = during.communicate(timeout=240)
        check(during.returncode == 0, "%s: %s" % (what, during_what), out)
    return wait_migrated(fx, what)


def data_verifies(uri, seed, size, what):
    """Whether fio's writes of @seed over @size bytes read back verified, checked as @what."""
    status, out = fio(uri, seed, size, verify_only=True)
    return check(status == 0, what, out)


def check_consistent(fx, what):
    r = fx.run("/c0/v0", "start", "cc", "force")
    check(r.returncode == 0, "%s: start cc" % what, r.stdout + r.stderr)
    row = lambda: fx.json("/c0/v0", "show", "cc")[1]["Response Data"]["VD Operation Status"][0]
    check(wait_for(lambda: row()["Status"] != "In progress", 120),
          "%s: the consistency check ends" % what, row())
    check(row()["Mismatches"] == 0, "%s: the consistency check finds 0 mismatches" % what, row())


def written_export(fx, name, initialized, io_during):
    """Export v0 (once initialized, with @initialized), let migrations run at
    full speed, and write fio's seeded data and verify it; with @io_during,
    start a second seeded workload to run during what the case does next.
    Return: (uri, size, the seed the VD will hold, the workload or None), or
    None when the export did not come up."""
    export = start_export(fx)
    if not export or (initialized and not wait_consistent(fx)):
        return None
    fx.ok("/c0", "set", "reconrate=100")
    uri = nbd_uri(export)
    size = fx_vd_bytes(fx)
    status, out = fio(uri, 1, size)
    check(status == 0, "%s: fio's seeded writes read back verified before" % name, out)
    if not io_during:
        return uri, size, 1, None
    return uri, size, 2, fio_process(uri, 2, size)


def migration_case(name, level, members, target, added, io_during):
    """@level on @members drives to @target, adding @added drives (removing
    the last -@added when negative, which end unconfigured good)."""
    def case(fx):
        fx.ok("/c0", "add", "vd", level, "drives=252:0-%d" % (members - 1))
        written = written_export(fx, name, level != "raid0", io_during)
        if not written:
            return
        uri, size, seed, during = written
        opts = ["option=add", "drives=252:%d-%d" % (members, members + added - 1)] if added > 0 \
            else ["option=remove", "drives=252:%d-%d" % (members + added, members - 1)] if added \
            else []
        if not migrate_to_end(fx, name, ["type=" + target] + opts, during,
                              "fio's writes during the migration read back verified"):
            return
        data_verifies(uri, seed, size, "%s: the data verifies after the migration" % name)
        events = fx.run("/c0", "show", "events").stdout
        check("Reconstruction of VD 00 to %s started" % target.upper() in events and
              "Reconstruction complete on VD 00" in events,
              "%s: the event log has the migration's start and end" % name, events)
        row = vd_row(fx)
        check(row["TYPE"] == target.upper(), "%s: show reports %s" % (name, target.upper()), row)
        n = members + added
        data = {"raid0": n, "raid5": n - 1, "raid6": n - 2}[target]
        old_data = {"raid0": members, "raid1": 1, "raid5": members - 1,
                    "raid6": members - 2}[level]
        grown = fx_vd_bytes(fx)
        if data > old_data:
            check(grown > size, "%s: the VD grows (%d -> %d bytes)" % (name, size, grown))
        else:
            check(grown >= size, "%s: the VD keeps its size (%d -> %d bytes)"
                  % (name, size, grown))
        if target != "raid0":
            check_consistent(fx, name)
        for slot in (0, n - 1):
            rc, fields, text = examine_member(fx, slot)
            check(rc == 0 and fields.get("Raid Level") == target and
                  fields.get("Raid Devices") == str(n) and "Reshape pos'n" not in fields,
                  "%s: mdadm --examine of s%d reports %s on %d devices" % (name, slot, target, n),
                  text)
        for slot in range(n, members):
            check(drive_state(fx, slot) == "UGood",
                  "%s: the removed drive s%d is unconfigured good" % (name, slot),
                  drive_state(fx, slot))
        # The grown VD takes new data past its old end too.
        if grown > size:
            status, out = fio(uri, 3, grown)
            check(status == 0, "%s: writes over the grown VD read back verified" % name, out)

    case.__name__ = "case_" + name
    return case


def case_kill_9_mid_migration(fx):
    """kill -9 of the controller process while a RAID5 gains a drive: the
    record and md superblocks show the reshape, the next process resumes it
    from its checkpoint and completes it, and the data verifies."""
    fx.ok("/c0", "add", "vd", "raid5", "drives=252:0-2")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    uri = nbd_uri(export)
    size = fx_vd_bytes(fx)
    status, out = fio(uri, 1, size)
    check(status == 0, "kill -9: fio's seeded writes read back verified before", out)
    fx.ok("/c0", "set", "reconrate=5")
    if not start_migrate(fx, "kill -9", "type=raid5", "option=add", "drives=252:3"):
        return
    progress = lambda: migrate_status(fx)["Progress%"]
    check(wait_for(lambda: isinstance(progress(), int) and progress() >= 10, 120),
          "kill -9: the migration makes progress", migrate_status(fx))
    rc, fields, text = examine_member(fx, 3)
    check(rc == 0 and "Reshape pos'n" in fields and fields.get("Delta Devices", "").startswith("1"),
          "kill -9: mdadm --examine shows the reshape under way", text)
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
          "kill -9: the killed process is gone")
    row = migrate_status(fx)
    check(row["Status"] == "Halted", "kill -9: show migrate says Halted with no process", row)
    fx.ok("/c0", "set", "reconrate=100")
    export = start_export(fx)
    if not export:
        return
    if not wait_migrated(fx, "kill -9"):
        return
    data_verifies(nbd_uri(export), 1, size,
                  "kill -9: the data verifies after the resumed migration")
    check(fx_vd_bytes(fx) > size, "kill -9: the VD grows")
    # Host writes the kill cut short may have left parity behind: a resync follows.
    bgi = lambda: fx.json("/c0/v0", "show", "bgi")[1]["Response Data"]["VD Operation Status"][0]
    check(wait_for(lambda: "resyncing" in open(log_path(fx)).read(), 30),
          "kill -9: a resync (BGI) follows the resumed migration", open(log_path(fx)).read())
    check(wait_for(lambda: bgi()["Status"] == "Not in progress", 120),
          "kill -9: the resync ends", bgi())
    check_consistent(fx, "kill -9")


def export_sha256(fx, uri, size):
    """The sha256 of the first @size bytes the export at @uri serves (nbdcopy)."""
    back = os.path.join(fx.root, "back.img")
    r = subprocess.run(["nbdcopy", uri, back], capture_output=True, text=True, timeout=300)
    check(r.returncode == 0, "nbdcopy reads the export back", r.stderr)
    with open(back, "rb") as f:
        digest = hashlib.sha256(f.read(size)).hexdigest()
    os.unlink(back)
    return digest


def case_remove_kill_9(fx):
    """option=remove: a RAID6 of five drives becomes a RAID5 of the first
    four. A drive that is not the last member is refused, naming the one
    that may go; the removed drive stays in the group while the reshape
    runs (md's negative Delta Devices on it); kill -9 mid-way, the next
    process resumes; then the data reads back with the same sha256, mdadm
    --examine of each member left reports a RAID5 of 4 devices, all in
    sync, and the removed drive is unconfigured good."""
    name = "remove kill -9"
    fx.ok("/c0", "add", "vd", "raid6", "drives=252:0-4")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    uri = nbd_uri(export)
    data = fill_export(fx, export, fx_vd_bytes(fx) // MIB)
    with open(data, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    r = fx.run("/c0/v0", "start", "migrate", "type=raid5", "option=remove", "drives=252:1")
    check(r.returncode == 3 and "only the last 1 may go (drives=252:4)" in r.stdout,
          "%s: removing a member that is not the last is refused" % name, r.stdout + r.stderr)
    fx.ok("/c0", "set", "reconrate=5")
    if not start_migrate(fx, name, "type=raid5", "option=remove", "drives=252:4"):
        return
    progress = lambda: migrate_status(fx)["Progress%"]
    check(wait_for(lambda: isinstance(progress(), int) and progress() >= 10, 120),
          "%s: the migration makes progress" % name, migrate_status(fx))
    check(drive_state(fx, 4) == "Onln", "%s: the removed drive is online while it runs" % name,
          drive_state(fx, 4))
    rc, fields, text = examine_member(fx, 4)
    check(rc == 0 and "Reshape pos'n" in fields and
          fields.get("Delta Devices", "").startswith("-1"),
          "%s: mdadm --examine of the removed drive shows the shrink under way" % name, text)
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
          "%s: the killed process is gone" % name)
    check(migrate_status(fx)["Status"] == "Halted", "%s: show migrate says Halted" % name,
          migrate_status(fx))
    fx.ok("/c0", "set", "reconrate=100")
    export = start_export(fx)
    if not export or not wait_migrated(fx, name):
        return
    check(export_sha256(fx, nbd_uri(export), os.path.getsize(data)) == digest,
          "%s: the data reads back with its sha256" % name)
    check(vd_row(fx)["TYPE"] == "RAID5", "%s: show reports RAID5" % name, vd_row(fx))
    for slot in range(4):
        rc, fields, text = examine_member(fx, slot)
        check(rc == 0 and fields.get("Raid Level") == "raid5" and
              fields.get("Raid Devices") == "4" and "Reshape pos'n" not in fields and
              array_state(fields) == "AAAA",
              "%s: mdadm --examine of s%d reports raid5 on 4 devices, in sync" % (name, slot),
              text)
    check(drive_state(fx, 4) == "UGood", "%s: the removed drive is unconfigured good" % name,
          drive_state(fx, 4))
    check_consistent(fx, name)


def vd_state(fx):
    return vd_row(fx)["State"]


def drive_state(fx, slot):
    status, doc = fx.json("/c0/e252/s%d" % slot, "show")
    return doc["Response Data"]["Drive Information"][0]["State"]


def arm_bad_drive(fx, path):
    """Make the bad drive's reads at 12-40 MiB fail, from the drive itself."""
    open(os.path.join(fx.root, "trigger"), "w").close()
    with open(path, "rb") as f:  # reads go to the drive, not the page cache
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def add_bad_drive(fx, label):
    """Add the bad drive (bad_drive(); 252:5) to the controller: its path, or
    None after a SKIP line for @label where it cannot be made."""
    path, why = bad_drive(fx)
    if not path:
        print("SKIP: %s: %s" % (label, why))
        return None
    fx.ok("/c0", "add", "drive", "path=" + path)
    return path


def member_fails_case(name, level, drives, added, spare, workload):
    """@level over @drives (252:5, the bad drive, first among them) migrates
    to RAID6 adding drive @added, the bad drive's reads failing from just
    after the start (@workload: while fio writes and verifies; else the copy
    itself meets the errors): the member fails (UBad, events), the migration goes
    on degraded to its end, the data verifies, mdadm --examine shows the
    RAID6 with the member missing. Drive @spare, a hot spare then, rebuilds
    it in the new layout, after which a check finds 0 mismatches."""
    def case(fx):
        path = add_bad_drive(fx, name)
        if not path:
            return
        fx.ok("/c0", "add", "vd", level, "drives=252:" + drives)
        written = written_export(fx, name, True, workload)
        if not written:
            return
        uri, size, seed, during = written

        # The workload's reads would fail the member before the migration
        # starts: the drive goes bad once it has, the copy held to its
        # slowest until then.
        def go_bad():
            arm_bad_drive(fx, path)
            fx.ok("/c0", "set", "reconrate=100")

        fx.ok("/c0", "set", "reconrate=1")
        if not migrate_to_end(fx, name, ["type=raid6", "option=add", "drives=252:%d" % added],
                              during, "the workload sees no error while the member fails", go_bad):
            return
        log = open(fx.service()["Log"]).read()
        started = log.find("migration of v0 to RAID6 started")
        check(0 <= started < log.find("member 0 failed (Input/output error)"),
              "%s: the process logs the member's failure during the migration" % name, log)
        check(drive_state(fx, 5) == "UBad", "%s: the failed drive is UBad" % name,
              fx.run("/c0/e252/s5", "show").stdout)
        events = fx.run("/c0", "show", "events").stdout
        check("s5 state changed from Onln to UBad (I/O error)" in events and
              "Reconstruction complete on VD 00" in events,
              "%s: the events have the drive's failure and the migration's end" % name,
              events)
        row = vd_row(fx)
        n = len(drives.split(",")) + 1
        check(row["TYPE"] == "RAID6" and row["State"] == "Pdgd",
              "%s: the VD is a partially degraded RAID6" % name, row)
        data_verifies(uri, seed, size,
                      "%s: the data verifies after the degraded migration" % name)
        rc, fields, text = examine_member(fx, 0)
        check(rc == 0 and fields.get("Raid Level") == "raid6" and
              fields.get("Raid Devices") == str(n) and "Reshape pos'n" not in fields and
              array_state(fields) == "." + "A" * (n - 1),
              "%s: mdadm --examine shows the RAID6 with the failed member missing" % name,
              text)
        # The failed drive's place is rebuilt in the new layout by a hot spare.
        fx.ok("/c0/e252/s%d" % spare, "add", "hotsparedrive")
        check(wait_for(lambda: vd_state(fx) == "Optl", 180),
              "%s: a hot spare rebuilds the RAID6 to optimal" % name, vd_row(fx))
        data_verifies(uri, seed, size, "%s: the data verifies after the rebuild" % name)
        check_consistent(fx, name + ", rebuilt")

    case.__name__ = "case_" + name
    return case


def case_removed_member_fails(fx):
    """option=remove of the bad drive (252:5, the last member of a RAID6 of
    four) while its reads fail: it fails (UBad), the copy goes on from the
    RAID6's parity, the VD ends an optimal RAID5 of the three others with
    its data, and the failed drive leaves the group."""
    name = "removed member fails"
    path = add_bad_drive(fx, name)
    if not path:
        return
    fx.ok("/c0", "add", "vd", "raid6", "drives=252:0,1,2,5")
    written = written_export(fx, name, True, False)
    if not written:
        return
    uri, size, seed, during = written
    arm_bad_drive(fx, path)
    # Slow enough that the process takes the failure's report before the end.
    fx.ok("/c0", "set", "reconrate=20")
    if not migrate_to_end(fx, name, ["type=raid5", "option=remove", "drives=252:5"]):
        return
    log = open(fx.service()["Log"]).read()
    check("member 3 failed (Input/output error)" in log,
          "%s: the process logs the removed member's failure" % name, log)
    events = fx.run("/c0", "show", "events").stdout
    check("s5 state changed from Onln to UBad (I/O error)" in events,
          "%s: the events have the removed drive's failure" % name, events)
    row = vd_row(fx)
    check(row["TYPE"] == "RAID5" and row["State"] == "Optl",
          "%s: the VD is an optimal RAID5" % name, row)
    data_verifies(uri, seed, size, "%s: the data verifies after the migration" % name)
    for slot in range(3):
        rc, fields, text = examine_member(fx, slot)
        check(rc == 0 and fields.get("Raid Level") == "raid5" and
              fields.get("Raid Devices") == "3" and array_state(fields) == "AAA",
              "%s: mdadm --examine of s%d reports raid5 on 3 devices, in sync" % (name, slot),
              text)
    check(drive_state(fx, 5) != "Onln" and
          fx.json("/c0/e252/s5", "show")[1]["Response Data"]["Drive Information"][0]["DG"]
          in ("-", None),
          "%s: the failed drive is in no group" % name, fx.run("/c0/e252/s5", "show").stdout)
    check_consistent(fx, name)


def case_kill_9_degraded_migration(fx):
    """A RAID5 (252:5, the bad drive, first among its members) gains a
    drive; reading the data back during the migration fails the bad drive,
    and the migration goes on degraded. kill -9 then: the next process
    resumes it from its checkpoint without the failed member and completes
    it; the data verifies, the VD is a degraded RAID5 over 4 drives (mdadm
    --examine: the member missing), a hot spare rebuilds it, and a check
    finds 0 mismatches."""
    name = "kill -9 degraded"
    path = add_bad_drive(fx, "case_kill_9_degraded_migration")
    if not path:
        return
    fx.ok("/c0", "add", "vd", "raid5", "drives=252:5,0,1")
    fx.ok("/c0", "set", "bgirate=100")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    uri = nbd_uri(export)
    size = fx_vd_bytes(fx)
    status, out = fio(uri, 1, size)
    check(status == 0, "%s: fio's seeded writes read back verified before" % name, out)
    # Slow: each step of the copy rests 99 times as long as it took (5 s at most).
    fx.ok("/c0", "set", "reconrate=1")
    arm_bad_drive(fx, path)
    r = fx.run("/c0/v0", "start", "migrate", "type=raid5", "option=add", "drives=252:2")
    if not check(r.returncode == 0, "%s: start migrate" % name, r.stdout + r.stderr):
        return
    status, out = fio(uri, 1, size, verify_only=True)
    check(status == 0, "%s: the data reads back verified while the member fails" % name, out)
    check(wait_for(lambda: drive_state(fx, 5) == "UBad"), "%s: the failed drive is UBad" % name,
          fx.run("/c0/e252/s5", "show").stdout)
    # The failure held the migration for its record; it goes on (progress shown) after.
    def progress():
        p = migrate_status(fx)["Progress%"]
        return p if isinstance(p, int) else -1

    wait_for(lambda: progress() >= 0, 30)
    failed_at = progress()
    check(wait_for(lambda: progress() > failed_at, 60) and
          migrate_status(fx)["Status"] == "In progress",
          "%s: the migration goes on degraded (from %d%%)" % (name, failed_at),
          migrate_status(fx))
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
          "%s: the killed process is gone" % name)
    row = migrate_status(fx)
    check(row["Status"] == "Halted", "%s: show migrate says Halted with no process" % name, row)
    fx.ok("/c0", "set", "reconrate=100", "rebuildrate=100")
    # Degraded, and the kill may have left bitmap bits set: force, as mdadm --run would need.
    export = start_export(fx, "force")
    if not export or not wait_migrated(fx, name):
        return
    log = open(log_path(fx)).read()
    check("migration of v0 complete" in log, "%s: the next process completes it" % name, log)
    row = vd_row(fx)
    check(row["TYPE"] == "RAID5" and row["State"] == "Dgrd" and drive_state(fx, 5) == "UBad",
          "%s: the VD is a degraded RAID5, the failed drive still out" % name, row)
    status, out = fio(nbd_uri(export), 1, size, verify_only=True)
    check(status == 0, "%s: the data verifies after the resumed migration" % name, out)
    check(fx_vd_bytes(fx) > size, "%s: the VD grows" % name)
    rc, fields, text = examine_member(fx, 0)
    check(rc == 0 and fields.get("Raid Level") == "raid5" and
          fields.get("Raid Devices") == "4" and "Reshape pos'n" not in fields and
          array_state(fields) == ".AAA",
          "%s: mdadm --examine shows the RAID5 over 4 with the failed member missing" % name,
          text)
    fx.ok("/c0/e252/s3", "add", "hotsparedrive")
    check(wait_for(lambda: vd_state(fx) == "Optl", 180),
          "%s: a hot spare rebuilds the RAID5 to optimal" % name, vd_row(fx))
    status, out = fio(nbd_uri(export), 1, size, verify_only=True)
    check(status == 0, "%s: the data verifies after the rebuild" % name, out)
    # The resumed migration's end calls for a resync once the VD is whole again.
    bgi = lambda: fx.json("/c0/v0", "show", "bgi")[1]["Response Data"]["VD Operation Status"][0]
    check(wait_for(lambda: "resyncing" in open(log_path(fx)).read(), 30),
          "%s: a resync (BGI) follows the rebuild" % name, open(log_path(fx)).read())
    check(wait_for(lambda: bgi()["Status"] == "Not in progress", 120),
          "%s: the resync ends" % name, bgi())
    check_consistent(fx, name)


def fio_range(uri, seed, offset, size, verify_only=False):
    """fio_process()'s writes (or their verification) over [@offset, @offset + @size)."""
    p = subprocess.Popen(["fio", "--name=migrate", "--ioengine=nbd", "--uri=" + uri,
                          "--rw=randwrite", "--bs=64k", "--offset=%d" % offset,
                          "--size=%d" % size, "--iodepth=8", "--verify=crc32c",
                          "--verify_fatal=1", "--randseed=%d" % seed, "--output-format=terse"] +
                         (["--verify_only"] if verify_only else []),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out, _ = p.communicate(timeout=240)
    return p.returncode, out


def case_member_fails_raid0_source(fx):
    """A RAID0 (one member on a drive whose reads start failing) migrating
    to RAID5: its old layout cannot do without the member, so the migration
    stops: the drive is UBad, show migrate says Failed, the event log says
    why, the VD is offline (its data not yet migrated is lost), the part
    already migrated still reads back verified (degraded RAID5), and the VD
    can be deleted."""
    name = "raid0 source"
    path = add_bad_drive(fx, "case_member_fails_raid0_source")
    if not path:
        return
    fx.ok("/c0", "add", "vd", "raid0", "drives=252:5,0")
    export = start_export(fx)
    if not export:
        return
    uri = nbd_uri(export)
    size = fx_vd_bytes(fx)
    # The first 8 MiB are migrated before the copy meets the bad range
    # (member bytes 12-40 MiB, VD bytes from about 20 MiB on).
    head = 8 * MIB
    status, out = fio_range(uri, 1, 0, head)
    check(status == 0, "%s: fio's writes to the first 8 MiB verified" % name, out)
    status, out = fio_range(uri, 2, head, size - head)
    check(status == 0, "%s: fio's writes to the rest verified" % name, out)
    fx.ok("/c0", "set", "reconrate=100")
    arm_bad_drive(fx, path)
    if not start_migrate(fx, name, "type=raid5", "option=add", "drives=252:1"):
        return
    check(wait_for(lambda: migrate_status(fx)["Status"] == "Failed", 120),
          "%s: show migrate says Failed" % name, migrate_status(fx))
    events = fx.run("/c0", "show", "events").stdout
    check("s5 state changed from Onln to UBad (I/O error)" in events and
          "Reconstruction of VD 00 failed: it lost more drives than its old or new RAID level "
          "survives" in events, "%s: the events have the failure and why" % name, events)
    check(vd_state(fx) == "OfLn", "%s: the VD is offline" % name, vd_row(fx))
    status, out = fio_range(uri, 1, 0, head, verify_only=True)
    check(status == 0, "%s: the migrated part reads back verified" % name, out)
    status, out = fio_range(uri, 2, head, size - head, verify_only=True)
    check(status != 0 and "Input/output error" in out,
          "%s: the part left in the RAID0 layout fails to read" % name, out)
    r = fx.run("/c0/v0", "del", "force")
    check(r.returncode == 0, "%s: the VD can be deleted" % name, r.stdout + r.stderr)
    check(drive_state(fx, 0) == "UGood", "%s: its drives are unconfigured again" % name,
          fx.run("/c0/eall/sall", "show").stdout)


def case_dedicated_spare_stays_valid(fx):
    """A RAID5 with a dedicated hot spare gains a drive, which takes the md
    device number the spare had: the spare gets a free one and joins the
    new array (mdadm --examine: a spare of the RAID5 over 4 devices, events
    in step with the members' once the array is idle and clean), and it still rebuilds a member that goes
    offline afterwards; the data verifies and a check finds 0 mismatches."""
    name = "dedicated spare"
    fx.ok("/c0", "add", "vd", "raid5", "drives=252:0-2", "spares=252:4")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    fx.ok("/c0", "set", "reconrate=100")
    uri = nbd_uri(export)
    size = fx_vd_bytes(fx)
    status, out = fio(uri, 1, size)
    check(status == 0, "%s: fio's writes read back verified before" % name, out)
    if not migrate_to_end(fx, name, ["type=raid5", "option=add", "drives=252:3"]):
        return
    check(drive_state(fx, 4) == "DHS", "%s: s4 is still a dedicated hot spare" % name,
          fx.run("/c0/e252/s4", "show").stdout)
    # md writes no spare as an array that is not degraded turns active (its
    # events one up) and back clean (one back): in step once it is idle
    wait_for(lambda: examine_member(fx, 0)[1].get("State") == "clean", 60)
    rc, member, text = examine_member(fx, 0)
    rc2, spare, text2 = examine_member(fx, 4)
    check(rc == 0 and rc2 == 0 and spare.get("Device Role") == "spare" and
          spare.get("Raid Level") == "raid5" and spare.get("Raid Devices") == "4" and
          spare.get("Array UUID") == member.get("Array UUID") and
          spare.get("Events") == member.get("Events") and "Reshape pos'n" not in spare,
          "%s: mdadm --examine shows s4 a spare of the RAID5 over 4 devices" % name,
          text + text2)
    fx.ok("/c0/e252/s1", "set", "offline")
    check(wait_for(lambda: vd_state(fx) == "Optl" and drive_state(fx, 4) == "Onln", 120),
          "%s: the spare rebuilds the member set offline" % name, vd_row(fx))
    data_verifies(uri, 1, size, "%s: the data verifies after the rebuild" % name)
    check_consistent(fx, name)


def refusal_case(name, make, words, code, text, degrade=False):
    """What MegaRAID refuses to migrate is refused with a message naming the
    reason, and changes no file: after @make (a VD, or two when it names a
    size), start migrate @words answers status @code and @text."""
    def case(fx):
        fx.ok("/c0", "add", "vd", *make)
        vds = 1
        if any(w.startswith("size=") for w in make):
            fx.ok("/c0", "add", "vd", make[0], make[1], "size=all")
            vds = 2
        # The controller process's background initializations run to their
        # end first: they write to the drives. (A refusal starts no process.)
        fx.serve()
        for vd in range(vds):
            wait_consistent(fx, vd)
        if degrade:
            fx.ok("/c0/e252/s1", "set", "offline")
        before = state_files(fx)
        r = fx.run("/c0/v0", "start", "migrate", *words)
        check(r.returncode == code and text in r.stdout,
              "%s: start migrate %s: status %d, '%s'" % (name, " ".join(words), code, text),
              r.stdout + r.stderr)
        check(state_files(fx) == before, "%s: the refusal changes no file" % name)

    case.__name__ = "case_refuses_" + name
    return case


def log_path(fx):
    """The controller process's log (run/<backend>-<key>.log)."""
    run = os.path.join(fx.state, "run")
    return [os.path.join(run, n) for n in os.listdir(run) if n.endswith(".log")][0]


def state_files(fx):
    """A hash of every file of the state directory (drive images included)
    but the process's log, socket and lock files."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(fx.state):
        dirnames[:] = [d for d in dirnames if d not in ("run", "locks")]
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as f:
                out[os.path.join(dirpath, name)] = hashlib.sha256(f.read()).hexdigest()
    return out


def case_refusals_change_nothing(fx):
    """Each refusal of the controller process answers with a storcli-style
    status and a clear description, and changes no file: record, drives."""
    small = os.path.join(fx.root, "small.img")
    with open(small, "wb") as f:
        f.truncate(16 * MIB)
    fx.ok("/c0", "add", "drive", "path=" + small)
    fx.ok("/c0", "add", "vd", "raid0", "drives=252:0-1")
    refusals = [
        (["type=raid6", "option=add", "drives=252:2-3"], 244, "RAID0 to RAID6 is not supported"),
        (["type=raid5", "option=add", "drives=252:1"], 255, "252:1 is not unconfigured good"),
        (["type=raid5"], 3, "RAID5 needs 3 to 32 drives, not 2"),
        (["type=raid5", "option=add", "drives=252:5"], 13, "252:5 is too small"),
        (["type=raid5", "option=add", "drives=252:9"], 35, "252:9 not found"),
        (["type=raid5", "option=remove", "drives=252:1"], 3, "RAID5 needs at least 3"),
        (["type=raid0", "option=remove", "drives=252:1"], 3, "do not fit on the 1 drives left"),
        (["type=raid5", "drives=252:2"], 3, "option=add|remove and drives= go together"),
    ]
    # The first refusal starts the controller process; the others meet it running.
    fx.run("/c0/v0", "start", "migrate", *refusals[0][0])
    before = state_files(fx)
    for words, code, text in refusals:
        r = fx.run("/c0/v0", "start", "migrate", *words)
        check(r.returncode == code and text in r.stdout,
              "start migrate %s: status %d, '%s'" % (" ".join(words), code, text),
              r.stdout + r.stderr)
    check(state_files(fx) == before, "the refusals change no file")
    check(migrate_status(fx)["Status"] == "Not in progress", "no migration runs",
          migrate_status(fx))


def case_changes_wait_for_migration(fx):
    """While a group migrates, deleting its VD, changing a member's state and
    a dedicated spare are refused; once it has ended they work again."""
    fx.ok("/c0", "add", "vd", "raid0", "drives=252:0-1")
    fx.ok("/c0", "set", "reconrate=1")
    if not start_migrate(fx, "refusals", "type=raid5", "option=add", "drives=252:2"):
        return
    for words in (["/c0/v0", "del", "force"], ["/c0/e252/s1", "set", "offline"],
                  ["/c0/e252/s4", "add", "hotsparedrive", "dgs=0"]):
        r = fx.run(*words)
        check(r.returncode == 255 and "disk group 0 is migrating" in r.stdout,
              "%s is refused while the group migrates" % " ".join(words), r.stdout + r.stderr)
    check(vd_row(fx)["TYPE"] == "RAID5", "the VD is still there", vd_row(fx))
    # Halted, no process running: the next one resumes the migration as it
    # starts, and then refuses a check or init, so these start none.
    fx.ok("/c0", "stop", "service")
    for words in (["start", "cc", "force"], ["start", "init", "force"]):
        r = fx.run("/c0/v0", *words)
        check(r.returncode == 255 and "/c0/v0 is migrating" in r.stdout,
              "%s is refused while the group migrates" % " ".join(words), r.stdout + r.stderr)
        check(fx.service()["Status"] == "Not Running",
              "the refused %s starts no controller process" % " ".join(words), fx.service())
    fx.ok("/c0", "set", "reconrate=100")
    fx.serve()
    if wait_migrated(fx, "refusals"):
        r = fx.run("/c0/e252/s4", "add", "hotsparedrive", "dgs=0")
        check(r.returncode == 0, "a dedicated spare is added after the migration",
              r.stdout + r.stderr)


CASES = [
    migration_case("raid5_add_drive", "raid5", 3, "raid5", 1, True),
    migration_case("raid5_to_raid6", "raid5", 3, "raid6", 1, False),
    migration_case("raid0_to_raid5", "raid0", 2, "raid5", 1, True),
    migration_case("raid1_to_raid5", "raid1", 2, "raid5", 1, False),
    migration_case("raid6_add_drive", "raid6", 4, "raid6", 1, False),
    migration_case("raid5_to_raid0", "raid5", 3, "raid0", 0, True),
    migration_case("raid6_to_raid5", "raid6", 4, "raid5", 0, False),
    migration_case("raid6_to_raid0", "raid6", 4, "raid0", 0, False),
    migration_case("raid1_to_raid0", "raid1", 2, "raid0", 0, True),
    migration_case("raid6_to_raid0_remove_two", "raid6", 5, "raid0", -2, True),
    case_kill_9_mid_migration,
    case_kill_9_degraded_migration,
    case_remove_kill_9,
    case_removed_member_fails,
    member_fails_case("member_fails_raid5_to_raid6", "raid5", "5,0,1", 2, 3, True),
    member_fails_case("member_fails_raid6_add_drive", "raid6", "5,0,1,2", 3, 4, False),
    case_member_fails_raid0_source,
    case_dedicated_spare_stays_valid,
    refusal_case("spanned", ["r10", "drives=252:0-3", "pdperarray=2"], ["type=raid5"], 244,
                 "disk group 0 is a RAID10: spanned drive groups (RAID10, RAID50, RAID60) "
                 "cannot migrate"),
    refusal_case("two_vds", ["r5", "drives=252:0-2", "size=16MB"],
                 ["type=raid6", "option=add", "drives=252:3"], 244,
                 "disk group 0 holds 2 virtual drives: only a group with a single VD can "
                 "migrate"),
    refusal_case("degraded", ["r5", "drives=252:0-2"],
                 ["type=raid6", "option=add", "drives=252:3"], 255,
                 "/v0 is not optimal (the member in slot 1 is not online)", degrade=True),
    refusal_case("raid0_with_spares", ["r5", "drives=252:0-2", "spares=252:4"], ["type=raid0"],
                 255, "disk group 0 has dedicated hot spares, which a RAID0 cannot have"),
    case_refusals_change_nothing,
    case_changes_wait_for_migration,
]


def main():
    only = sys.argv[1:]
    run_cases(CASES, only,
              lambda: Fixture(drives=5, size="%dMB" % DRIVE_MB, vd=()))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
