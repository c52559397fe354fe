#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-datapath.py - data written through an export reads back, whatever happens.

Every RAID level's VD, exported by its controller process, takes fio's
seeded random writes (crc32c-verified blocks of mixed sizes) and reads them
back intact: optimal; degraded, with as many members offline as the level
survives (the offline drives' data areas overwritten, so a read that still
went to them would fail); after writes made while degraded; and once the
hot spares have rebuilt the missing members by themselves, when a
consistency check finds no mismatch either. A member whose
reads start failing mid-workload is failed and replaced by its hot spare
while the client sees no error. Then kill
-9 of the process in the middle of a write workload, five times at random
moments: every write acknowledged before a FLUSH that completed reads back
intact after the export is started again, and once the restart's resync
has ended a consistency check finds no mismatch. RAID5 and RAID6 go through all
of it under write back (wrcache=wb) as well, where writes are acknowledged
from the stripe cache.
"""
import os
import random
import re
import signal
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nbd"))

import nbdclient as nbd  # noqa: E402
from rcltest import (MIB, Fixture, bad_drive, check, drive_field, fx_vd_bytes,  # noqa: E402
                     nbd_uri, patrol_pause_recorded, run_jobs, start_export, summary,
                     vd_consistent, wait_consistent, wait_for)

DRIVE_MB = 16
# Level, members, "add vd" options, the members each degraded run sets offline
# (as many as the level survives: one per span of RAID10/50, two per span of 60).
LEVELS = [
    ("raid0", 2, [], []),
    ("raid00", 4, ["pdperarray=2"], []),
    ("raid1", 2, [], [1]),
    ("raid5", 3, [], [1]),
    ("raid6", 4, [], [0, 2]),
    ("raid10", 4, ["pdperarray=2"], [0, 3]),
    ("raid50", 6, ["pdperarray=3"], [1, 3]),
    ("raid60", 8, ["pdperarray=4"], [0, 1, 5, 6]),
    # Write back: reads come from the stripe cache, members go offline with stripes in it.
    ("raid5", 3, ["wb"], [1]),
    ("raid6", 4, ["wb"], [0, 2]),
]


def fio_process(uri, seed, verify_only=False, size="100%"):
    """fio's nbd engine over @size of the export: random writes of 4-192 KiB
    blocks, each with a crc32c header, then read back and verified (with
    @verify_only, only the reading and verifying)."""
    return subprocess.Popen(["fio", "--name=datapath", "--ioengine=nbd", "--uri=" + uri,
                        "--rw=randwrite", "--bssplit=4k/50:64k/30:192k/20", "--size=" + size,
                        "--iodepth=8", "--verify=crc32c", "--verify_fatal=1",
                        # no verify state file left in the working directory
                        "--verify_state_save=0",
                        "--randseed=%d" % seed, "--output-format=terse"] +
                            (["--verify_only"] if verify_only else []),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def fio(uri, seed, verify_only=False, size="100%"):
    """fio_process() run to its end: (exit status, output)."""
    p = fio_process(uri, seed, verify_only, size)
    out, _ = p.communicate(timeout=120)
    return p.returncode, out


def scribble(path):
    """Overwrite a drive's data area (not its metadata at the start, not the
    backup GPT at the end) with random bytes."""
    with open(path, "r+b") as f:
        f.seek(4 * MIB)
        f.write(os.urandom((DRIVE_MB - 5) * MIB))


def vd_state(fx):
    status, doc = fx.json("/c0/v0", "show")
    return doc["Response Data"]["Virtual Drives"][0]["State"]


def cc_status(fx):
    """The VD's row of show cc: Status, Mismatches, ..."""
    status, doc = fx.json("/c0/v0", "show", "cc")
    return doc["Response Data"]["VD Operation Status"][0]


def check_consistent(fx, when):
    """A consistency check (forced: these VDs were never initialized) runs
    to its end and finds no mismatch."""
    r = fx.run("/c0/v0", "start", "cc", "force")
    check(r.returncode == 0, "%s: start cc" % when, r.stdout)
    check(wait_for(lambda: cc_status(fx)["Status"] != "In progress", 60),
          "%s: the consistency check ends" % when, cc_status(fx))
    check(cc_status(fx)["Mismatches"] == 0,
          "%s: the consistency check finds 0 mismatches" % when, cc_status(fx))


def bgi_status(fx):
    status, doc = fx.json("/c0/v0", "show", "bgi")
    return doc["Response Data"]["VD Operation Status"][0]["Status"]


def rebuilt(fx, members):
    """True once @members drives are online and the VD is optimal."""
    status, doc = fx.json("/c0/eall/sall", "show")
    drives = doc["Response Data"]["Drive Information"]
    return sum(d["State"] == "Onln" for d in drives) == members and vd_state(fx) == "Optl"


def level_case(level, members, options, offline):
    def case(fx):
        fx.ok("/c0", "add", "vd", level, "drives=252:0-%d" % (members - 1), *options)
        export = start_export(fx)
        if not export or (offline and not wait_consistent(fx)):
            return
        uri = nbd_uri(export)
        status, out = fio(uri, 1)
        check(status == 0, "%s: fio's seeded random writes read back verified" % level, out)
        if not offline:
            return
        for slot in offline:
            r = fx.run("/c0/e252/s%d" % slot, "set", "offline")
            check(r.returncode == 0, "%s: set s%d offline" % (level, slot), r.stdout)
            scribble(drive_field(fx, slot, "Path"))
        check(vd_state(fx) in ("Dgrd", "Pdgd"), "%s: the VD is degraded" % level, vd_state(fx))
        status, out = fio(uri, 1, verify_only=True)
        check(status == 0, "%s: the data verifies degraded, %d members offline"
              % (level, len(offline)), out)
        status, out = fio(uri, 2)
        check(status == 0, "%s: new writes while degraded read back verified" % level, out)
        # The spares come only now: one there already would start rebuilding at once, and
        # could end before the checks above saw the VD degraded.
        for slot in range(members, members + len(offline)):
            fx.ok("/c0/e252/s%d" % slot, "add", "hotsparedrive", "dgs=0")
        check(wait_for(lambda: rebuilt(fx, members), 60),
              "%s: the hot spares rebuild by themselves, the VD is optimal" % level,
              fx.run("/c0", "show").stdout)
        status, out = fio(uri, 2, verify_only=True)
        check(status == 0, "%s: the data verifies after the rebuild" % level, out)
        # fio wrote every block, so every stripe's parity or mirror went
        # through the engine.
        check_consistent(fx, level + ": after the rebuild")

    case.__name__ = "case_" + level + "".join("_" + o for o in options if o in ("wb", "awb"))
    return case


def fast_rebuild_fixture(drives, size="%dMB" % DRIVE_MB):
    """@drives drives of @size, no VD; rebuilds at full speed (the rate is
    not what these tests are about)."""
    def make():
        fx = Fixture(drives=drives, size=size, vd=())
        fx.ok("/c0", "set", "rebuildrate=100")
        return fx
    return make


# How long each request to a slow member (raid5_on_bad_drive()'s
# @slow_members) sleeps before it is served: this, not the machine's speed,
# makes a patrol read of two such drives at prrate=20 last long enough for
# a pause to catch it (rcltest.bad_drive()'s plugin alone is fast).
SLOW_MEMBER_MS = 10


def raid5_on_bad_drive(fx, case, slow_members=False):
    """A RAID5 over bad_drive() and two good drives (with @slow_members on
    nbdfuse too, never failing, but each request SLOW_MEMBER_MS late), with a
    dedicated hot spare. Return: the bad drive's path, or None (the case
    skipped) when there is none."""
    for name in ("good0", "good1") if slow_members else ():
        path, why = bad_drive(fx, name, bad=False, delay_ms=SLOW_MEMBER_MS)
        if not path:
            print("SKIP: %s: " % case + why)
            return None
        fx.ok("/c0", "add", "drive", "path=" + path)
    path, why = bad_drive(fx)
    if not path:
        print("SKIP: %s: " % case + why)
        return None
    spare = os.path.join(fx.root, "spare.img")
    with open(spare, "wb") as f:
        f.truncate(64 * MIB)
    fx.ok("/c0", "add", "drive", "path=" + path)
    fx.ok("/c0", "add", "drive", "path=" + spare)
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2", "spares=252:3")
    return path


def case_member_fails_mid_workload(fx):
    """A member whose reads start failing while fio writes and verifies: the
    client sees no error, the drive is failed, the spare rebuilds by itself
    and the data verifies after."""
    path = raid5_on_bad_drive(fx, "case_member_fails_mid_workload")
    if not path:
        return
    export = start_export(fx)
    if not export:
        return
    uri = nbd_uri(export)
    # The first 48 MiB: 24 MiB of each member's, into the failing range
    # (rcltest.bad_drive()).
    status, out = fio(uri, 1, size="48m")
    check(status == 0, "fio's writes read back verified before the failure", out)
    # Armed before the workload starts, not a moment after: on a drive this
    # fast the workload could end first. Its own reads of the range (its
    # writes' read-modify-write, its verification) are the first to fail.
    open(os.path.join(fx.root, "trigger"), "w").close()
    with open(path, "rb") as f:  # reads go to the drive, not the page cache
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    workload = fio_process(uri, 2, size="48m")
    out, _ = workload.communicate(timeout=120)
    check(workload.returncode == 0, "the workload sees no error while the member fails", out)
    log = open(fx.service()["Log"]).read()
    check("failed (Input/output error)" in log, "the process logs the member's failure", log)
    check(wait_for(lambda: rebuilt(fx, 3), 60),
          "the hot spare rebuilds by itself, the VD is optimal", fx.run("/c0", "show").stdout)
    status, doc = fx.json("/c0/e252/s2", "show")
    check(doc["Response Data"]["Drive Information"][0]["DG"] == "-",
          "the failing drive is out of the VD", doc)
    status, out = fio(uri, 2, verify_only=True, size="48m")
    check(status == 0, "the data verifies after the rebuild", out)
    check_consistent(fx, "after the failed member's rebuild")


def patrol_props(fx):
    status, doc = fx.json("/c0", "show", "patrolread")
    return {row["Ctrl_Prop"]: row["Value"]
            for row in doc["Response Data"]["Controller Properties"]}


def patrol_errors(fx):
    value = patrol_props(fx).get("PR Media Errors", "0")
    return int(value) if value.isdigit() else 0


def case_patrol_read_finds_media_errors(fx):
    """A patrol read over a member whose reads fail in its data area: with
    its VD excluded nothing is read (no error, the drive stays); then the
    member fails as a failing request's would, the count of errors survives
    a kill -9 mid-way, the spare rebuilds it by itself, and the patrol read
    goes on to its end with the errors counted. Drives here are HDD or
    Unknown, so includessds=off still reads them all; maxconcurrentpd=1
    reads them one at a time."""
    # All members on nbdfuse, the good ones SLOW_MEMBER_MS late at every
    # request: after the bad one fails, the patrol read of the others (at
    # prrate=20) lasts long enough for a pause to catch it before its end.
    path = raid5_on_bad_drive(fx, "case_patrol_read_finds_media_errors", slow_members=True)
    if not path:
        return
    fx.ok("/c0", "set", "patrolread=on", "mode=manual", "prrate=100", "bgirate=100")
    if not start_export(fx) or not wait_consistent(fx):
        return
    open(os.path.join(fx.root, "trigger"), "w").close()
    with open(path, "rb") as f:  # reads go to the drive, not the page cache
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    fx.ok("/c0", "set", "patrolread", "excludevd=0")
    r = fx.run("/c0", "start", "patrolread", "wait")
    props = patrol_props(fx)
    check(r.returncode == 0 and props["PR iterations completed"] == "1" and
          props["PR Media Errors"] == "0" and props["PR Excluded VDs"] == "0",
          "a patrol read with the only VD excluded ends without reading it", props)
    check(rebuilt(fx, 3) and "patrol read skips v0: excluded" in open(fx.service()["Log"]).read(),
          "the failing drive is still online; the log says v0 was skipped",
          fx.run("/c0", "show").stdout)
    fx.ok("/c0", "set", "pr", "excludevd=none", "includessds=off", "maxconcurrentpd=1")
    fx.ok("/c0", "set", "prrate=20")  # errors come early; the rest takes long enough to pause
    fx.ok("/c0", "start", "patrolread")
    check(wait_for(lambda: patrol_errors(fx) > 0, 120), "the patrol read meets the errors",
          patrol_props(fx))
    r = fx.run("/c0", "pause", "patrolread")
    check(r.returncode == 0, "pause patrolread while it still runs", r.stdout)
    check(wait_for(lambda: patrol_pause_recorded(fx, patrol_props(fx).get("PR Progress%")),
                   60, 0.2), "the pause's checkpoint reaches the record", patrol_props(fx))
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"), "the process is killed")
    props = patrol_props(fx)
    check(props["PR Current State"] == "Interrupted" and patrol_errors(fx) > 0,
          "after kill -9 the record keeps the errors of the VD in progress", props)
    start_export(fx)
    fx.ok("/c0", "set", "prrate=100")
    fx.ok("/c0", "resume", "patrolread")
    check(wait_for(lambda: patrol_props(fx)["PR Current State"] == "Stopped", 120),
          "the resumed patrol read runs to its end", patrol_props(fx))
    props = patrol_props(fx)
    check(props["PR iterations completed"] == "2", "the second patrol read completes", props)
    check(int(props["PR Media Errors"]) > 0, "it counts the media errors it met", props)
    log = open(fx.service()["Log"]).read()
    check("failed (Input/output error)" in log, "the process logs the member's failure", log)
    check(wait_for(lambda: rebuilt(fx, 3), 60),
          "the hot spare rebuilds by itself, the VD is optimal", fx.run("/c0", "show").stdout)
    status, doc = fx.json("/c0/e252/s2", "show")
    row = doc["Response Data"]["Drive Information"][0]
    check(row["DG"] == "-" and row["State"] == "UBad",
          "the failing drive is out of the VD, and UBad (as StorCLI keeps it)", doc)
    os.remove(os.path.join(fx.root, "trigger"))
    r = fx.run("/c0/e252/s2", "add", "hotsparedrive")
    check(r.returncode == 255 and "UBad" in r.stdout, "a UBad drive is no hot spare", r.stdout)
    r = fx.run("/c0", "add", "vd", "r0", "drives=252:2")
    check(r.returncode == 255 and "UBad" in r.stdout, "nor a new VD's member", r.stdout)
    r = fx.run("/c0/e252/s2", "set", "good")
    status, doc = fx.json("/c0/e252/s2", "show")
    check(r.returncode == 0 and doc["Response Data"]["Drive Information"][0]["State"] == "UGood",
          "set good makes it UGood", r.stdout)
    events = fx.ok("/c0", "show", "events").stdout
    check(re.search(r"Patrol Read complete \([1-9]\d* media errors\)", events),
          "the event log has the patrol read's end with its errors", events)
    check_consistent(fx, "after the patrol read's rebuild")


# The crash workload: a hand-written NBD client (nbdclient.py), because it
# must know exactly which writes were acknowledged and which FLUSH completed
# when the process died; no real client reports that.
SECTOR = 512
MAGIC = 0x5241494443524153  # "RAIDCRAS"


def sector_data(write_no, sector):
    return struct.pack("<QQQ", MAGIC, write_no, sector) * (SECTOR // 24) + \
        bytes(SECTOR % 24)


class Model:
    """What each sector may hold: the write that was in it when the last
    FLUSH completed, or any write sent to it since."""

    def __init__(self, sectors):
        self.durable = [0] * sectors
        self.since = [set() for _ in range(sectors)]
        self.acked = []  # sectors of writes acknowledged since the last flush

    def sent(self, first, count, write_no):
        for s in range(first, first + count):
            self.since[s].add(write_no)

    def acknowledged(self, first, count, write_no):
        self.acked.append((first, count, write_no))

    def flushed(self, acked):
        """A FLUSH sent after @acked (a prefix of self.acked) completed."""
        for first, count, write_no in acked:
            for s in range(first, first + count):
                self.durable[s] = write_no
        del self.acked[:len(acked)]

    def verify(self, data):
        """(sector, held, allowed) for every sector of @data that holds
        neither its durable write nor one sent since; adopts what is held."""
        bad = []
        for s in range(len(self.durable)):
            held = data[s * SECTOR:(s + 1) * SECTOR]
            magic, write_no, sector = struct.unpack_from("<QQQ", held)
            allowed = {self.durable[s]} | self.since[s]
            if magic != MAGIC or sector != s or held != sector_data(write_no, s) or \
                    write_no not in allowed:
                bad.append((s, write_no if magic == MAGIC else None, sorted(allowed)))
            else:
                self.durable[s] = write_no
            self.since[s] = set()
        self.acked = []
        return bad


def write_sectors(client, first, count, write_no):
    data = b"".join(sector_data(write_no, s) for s in range(first, first + count))
    return client.write(first * SECTOR, data)


def workload(address, name, model, rng, next_write, stop):
    """Seeded random writes of 1-128 sectors with a FLUSH every few, until
    the connection dies (the kill) or @stop is set."""
    try:
        client = nbd.Client(address)
        if client.go(name).get("reply") != nbd.REP_ACK:
            return
        sectors = len(model.durable)
        while not stop.is_set():
            for _ in range(rng.randint(1, 8)):
                count = rng.randint(1, 128)
                first = rng.randrange(sectors - count)
                write_no = next(next_write)
                model.sent(first, count, write_no)
                if write_sectors(client, first, count, write_no) == 0:
                    model.acknowledged(first, count, write_no)
            acked = list(model.acked)
            if client.request(nbd.CMD_FLUSH, 0, 0)[0] == 0:
                model.flushed(acked)
    except (nbd.Closed, OSError):
        pass


def read_all(address, name, size):
    client = nbd.Client(address)
    client.go(name)
    data = bytearray()
    for offset in range(0, size, MIB):
        error, chunk = client.read(offset, min(MIB, size - offset))
        if error:
            raise OSError(error, "read at %d failed" % offset)
        data += chunk
    client.close()
    return bytes(data)


def case_kill_9_during_writes(fx, policy="wt"):
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2", policy)
    export = start_export(fx)
    if not export:
        return
    address, name = export["Address"], export["Export Name"]
    size = fx_vd_bytes(fx)
    model = Model(size // SECTOR)
    client = nbd.Client(address)
    client.go(name)
    for first in range(0, len(model.durable), 512):
        write_sectors(client, first, 512, 0)
    check(client.request(nbd.CMD_FLUSH, 0, 0)[0] == 0, "the initial fill is flushed")
    client.close()
    rng = random.Random(20261130)
    write_numbers = iter(range(1, 1 << 62))
    for round_no in range(1, 6):
        stop = threading.Event()
        worker = threading.Thread(target=workload,
                                  args=(address, name, model, rng, write_numbers, stop))
        worker.start()
        time.sleep(rng.uniform(0.2, 0.8))
        pid = fx.service()["PID"]
        os.kill(pid, signal.SIGKILL)
        worker.join(timeout=30)
        check(not worker.is_alive(), "round %d: the client sees the connection end" % round_no)
        stop.set()
        check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
              "round %d: the killed process is gone" % round_no)
        again = start_export(fx)
        if not again:
            return
        bad = model.verify(read_all(address, name, size))
        check(not bad, "round %d: every write flushed before the kill reads back intact "
              "(%d sectors written so far)" % (round_no, sum(1 for d in model.durable if d)),
              "%d bad sectors, first: %s" % (len(bad), bad[:5]))
        # The restart resyncs what the kill left dirty (or initializes a VD it caught
        # before its first BGI ended): then data and parity agree everywhere.
        check(wait_for(lambda: bgi_status(fx) == "Not in progress" and vd_consistent(fx), 120),
              "round %d: the resync after the restart ends" % round_no, bgi_status(fx))
        check_consistent(fx, "round %d: after the resync" % round_no)


def case_kill_9_during_writes_wb(fx):
    """The same under write back: what a FLUSH returned for is on the members."""
    case_kill_9_during_writes(fx, "wb")


def main():
    only = sys.argv[1:]
    jobs = [(level_case(level, members, options, offline),
             fast_rebuild_fixture(members + len(offline)))
            for level, members, options, offline in LEVELS]
    jobs += [(case_member_fails_mid_workload, fast_rebuild_fixture(2, "64MB")),
             (case_patrol_read_finds_media_errors, fast_rebuild_fixture(0)),
             (case_kill_9_during_writes, fast_rebuild_fixture(4)),
             (case_kill_9_during_writes_wb, fast_rebuild_fixture(4))]
    run_jobs(jobs, only)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
