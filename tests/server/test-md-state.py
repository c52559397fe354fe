#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-md-state.py MDREAD - what md finds on the members once the
controller process has stopped cleanly (issue 21, cases 2 and 3).

- Degraded, then stopped: RAID5 (size=15MB of 16 MiB drives; the issue's
  was 60MB of 64 MiB) and RAID6 on four drives each and a second RAID5 in
  the first group, filled through their exports (nbdcopy). Exported and
  idle, mdadm --examine calls every member's array clean (md's safe
  mode); after the process stops too. Then a member of each group is set
  offline, more data written, the process stopped: every surviving member is clean (the kernel starts
  a degraded array only if it is), raidcli still shows the VDs degraded,
  and the exports read back the last data.
- Degraded and idle, then kill -9: a RAID5 with a member offline and a
  RAID6 with two, written, idle: clean with the process running and after
  a kill -9, served again without force, read back; a read moves no md
  events, a write after idle moves them two up (active, then clean), and
  the RAID6 member set offline last is more than one event behind.
- A VD's BGI paused while it is exported, its export stopped, the BGI
  resumed to its end, the process stopped: every member clean (the BGI's
  volume closed before the VD was recorded consistent left them active).
- Served, then on the members: six VDs of every redundant layout (RAID5,
  RAID6, RAID10, RAID50, RAID1, a second RAID5), each exported in turn,
  filled by nbdcopy without a flush, read back, its export stopped; then
  the process stopped. MDREAD (tests/engine/mdread.c: md's layouts, the
  shapes from every member's md superblock and every span's top one) must
  read from the members exactly what the exports returned, and find the
  parity of every stripe md takes for in sync to be its data's (md reads
  through it once a member is gone). Several rounds: a race at stop shows
  in some only. Then the process is started and stopped with no write:
  what md assembles from (every superblock but its update time, events
  and checksum) and what it reads stay as they were. The RAID50's top
  raid0 has its spans' creation time (mdadm --detail shows it).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from rcltest import (MIB, Fixture, check, drive_field, fixture_parent, nbd_uri, run_cases,
                     summary, wait_consistent, wait_for)

MDREAD = sys.argv[1] if len(sys.argv) > 1 else None
ROUNDS = 2


def export(fx, vd):
    """Start @vd's export: its NBD URI."""
    status, doc = fx.json("/c0/v%d" % vd, "start", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    if not check(status == 0 and rows, "v%d: start export succeeds" % vd, doc):
        raise RuntimeError("no export")
    return nbd_uri(rows[0])


def fill(fx, vd, uri):
    """nbdcopy random bytes over the whole export, no flush; read them back
    through it. Return: the bytes the export returned."""
    size = int(subprocess.run(["nbdinfo", "--size", uri], capture_output=True, text=True,
                              check=True).stdout)
    src, back = (os.path.join(fx.root, "v%d.%s" % (vd, kind)) for kind in ("in", "back"))
    with open(src, "wb") as f:
        f.write(os.urandom(size))
    r = subprocess.run(["nbdcopy", src, uri], capture_output=True, text=True)
    check(r.returncode == 0, "v%d: nbdcopy writes the export" % vd, r.stderr)
    r = subprocess.run(["nbdcopy", uri, back], capture_output=True, text=True)
    check(r.returncode == 0, "v%d: nbdcopy reads the export" % vd, r.stderr)
    with open(src, "rb") as f, open(back, "rb") as g:
        data = g.read()
        check(f.read() == data, "v%d: the export reads back what was written" % vd)
    os.unlink(src)
    os.unlink(back)
    return data


def drive_path(fx, slot):
    """The image of drive @slot, asked of raidcli once per fixture: it stays
    where "add controller" made it, and check_states() and md_superblocks()
    would otherwise run two raidcli processes per member each time (about
    a second each under load)."""
    paths = fx.__dict__.setdefault("drive_paths", {})
    if slot not in paths:
        paths[slot] = drive_field(fx, slot, "Path")
    return paths[slot]


def vd_partition(fx, vd, slot):
    """(start sector, sectors) of VD @vd's partition on drive @slot (its GPT
    read each time)."""
    out = subprocess.run(["sfdisk", "--json", drive_path(fx, slot)],
                         capture_output=True, text=True, check=True).stdout
    for p in json.loads(out)["partitiontable"]["partitions"]:
        if p.get("name") == "raidcli v%d" % vd:
            return p["start"], p["size"]
    raise RuntimeError("drive %d has no partition of v%d" % (slot, vd))


def examine(path, at, sectors):
    """mdadm --examine of the md superblock of a device at byte @at of
    @path, @sectors long (its first MiB copied out, sparse): {field: value},
    or {"none": what mdadm said}."""
    with open(path, "rb") as f, tempfile.NamedTemporaryFile(dir=fixture_parent()) as g:
        f.seek(at)
        g.write(f.read(MIB))
        g.truncate(sectors * 512)
        g.flush()
        r = subprocess.run(["mdadm", "--examine", g.name], capture_output=True, text=True,
                           env=dict(os.environ, PATH=os.environ["PATH"] + ":/usr/sbin:/sbin"))
    fields = dict(line.strip().partition(" : ")[::2] for line in r.stdout.splitlines()
                  if " : " in line)
    return fields or {"none": r.stderr.strip()}


def md_state(fx, vd, slot):
    """mdadm --examine's State of VD @vd's superblock on drive @slot."""
    fields = md_examine(fx, vd, slot)
    return fields.get("State", "none (%s)" % fields.get("none"))


def md_events(fx, vd, slot):
    """mdadm --examine's Events of VD @vd's superblock on drive @slot."""
    return int(md_examine(fx, vd, slot).get("Events", -1))


def md_examine(fx, vd, slot):
    """mdadm --examine of VD @vd's superblock on drive @slot: its fields."""
    start, sectors = vd_partition(fx, vd, slot)
    return examine(drive_path(fx, slot), start * 512, sectors)


def check_states(fx, members, want, when, wait=False):
    """Every VD in @members (vd -> slots) says @want on each of its slots
    (@wait: once idle long enough, md's safe mode, 60 s at most)."""
    def states(vd, slots):
        return {slot: md_state(fx, vd, slot) for slot in slots}

    for vd, slots in members.items():
        if wait:
            wait_for(lambda: set(states(vd, slots).values()) == {want}, 60, step=0.25)
        got = states(vd, slots)
        check(all(s == want for s in got.values()),
              "v%d %s: mdadm --examine says %s on every member" % (vd, when, want), got)


def vd_states(fx):
    status, doc = fx.json("/c0/vall", "show")
    return {int(r["DG/VD"].split("/")[1]): r["State"]
            for r in doc.get("Response Data", {}).get("Virtual Drives", [])}


def degraded_clean_stop(fx):
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-3", "size=15MB")
    fx.ok("/c0", "add", "vd", "r6", "drives=252:4-7")
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-3")
    members = {0: [0, 1, 2, 3], 1: [4, 5, 6, 7], 2: [0, 1, 2, 3]}
    uris = {vd: export(fx, vd) for vd in members}
    for vd, uri in uris.items():
        fill(fx, vd, uri)
    check_states(fx, members, "clean", "exported and idle", wait=True)
    fx.ok("/c0", "stop", "service")
    check_states(fx, members, "clean", "after a clean stop")
    fx.ok("/c0/e252/s2", "set", "offline")
    fx.ok("/c0/e252/s5", "set", "offline")
    check_states(fx, {0: [0, 1, 3], 1: [4, 6, 7], 2: [0, 1, 3]}, "clean", "set degraded")
    data = {vd: fill(fx, vd, export(fx, vd)) for vd in members}
    fx.ok("/c0", "stop", "service")
    check_states(fx, {0: [0, 1, 3], 1: [4, 6, 7], 2: [0, 1, 3]}, "clean",
                 "written degraded and stopped")
    check(vd_states(fx) == {0: "Dgrd", 1: "Pdgd", 2: "Dgrd"},
          "raidcli still shows the VDs degraded", vd_states(fx))
    for vd in members:
        uri = export(fx, vd)
        back = os.path.join(fx.root, "back")
        subprocess.run(["nbdcopy", uri, back], check=True)
        with open(back, "rb") as f:
            check(f.read() == data[vd], "v%d: reads back what was written degraded" % vd)
        os.unlink(back)


def small_fixture(drives):
    """@drives drives of the smallest size (16 MiB): what these cases check
    holds at any size, and each fill() writes and reads a whole VD through
    its export. BGIs at bgirate=100, as they only have to end first."""
    fx = Fixture(drives=drives, size="16MB", vd=None)
    fx.ok("/c0", "set", "bgirate=100")
    return fx


degraded_clean_stop.fixture = lambda: small_fixture(8)

def migrated_while_exported(fx):
    uri = export(fx, 0)
    wait_consistent(fx)
    fill(fx, 0, uri)
    fx.ok("/c0/v0", "start", "migrate", "type=raid5", "option=add", "drives=252:3", "wait")
    check_states(fx, {0: [0, 1, 2, 3]}, "clean", "migrated while exported, idle", wait=True)
    fx.ok("/c0", "stop", "service")
    check_states(fx, {0: [0, 1, 2, 3]}, "clean", "migrated and stopped")


migrated_while_exported.fixture = lambda: Fixture(drives=4, size="16MB",
                                                  vd=("r5", "drives=252:0-2"))

def kill_9(fx):
    pid = fx.service()["PID"]
    os.kill(pid, signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"), "kill -9 ends the process")


def read_back(fx, vd, uri, want, when):
    back = os.path.join(fx.root, "back")
    r = subprocess.run(["nbdcopy", uri, back], capture_output=True, text=True)
    with open(back, "rb") as f:
        check(r.returncode == 0 and f.read() == want,
              "v%d %s: the export reads back what was written" % (vd, when), r.stderr)
    os.unlink(back)


def degraded_idle_kill_9(fx):
    """Degraded arrays turn clean once idle, as md's safe mode leaves them,
    and a kill -9 then leaves them so: a RAID5 with one member offline and
    a RAID6 with two, written through their exports, then idle: mdadm
    --examine calls the survivors clean with the process still running and
    after a kill -9; the next process serves them without force and they
    read back. Each turn moves md's events (a degraded array's always up):
    a read does not; a write turns them active before it lands and clean
    again once idle, two events up, so the member of the RAID6 set offline
    last is more than one event behind the survivors (mdadm takes a member
    one behind for current, and would refuse the array as not clean)."""
    survivors = {0: [0, 1, 3], 1: [4, 7]}

    def events():
        return {vd: md_events(fx, vd, slots[0]) for vd, slots in survivors.items()}

    uris = {vd: export(fx, vd) for vd in survivors}
    for vd in survivors:
        wait_consistent(fx, vd)
    for slot in (2, 5, 6):
        fx.ok("/c0/e252/s%d" % slot, "set", "offline")
    data = {vd: fill(fx, vd, uri) for vd, uri in uris.items()}
    check_states(fx, survivors, "clean", "degraded, exported and idle", wait=True)
    kill_9(fx)
    check_states(fx, survivors, "clean", "idle, then kill -9")
    uris = {vd: export(fx, vd) for vd in survivors}
    for vd, uri in uris.items():
        read_back(fx, vd, uri, data[vd], "after kill -9, served without force")
    check_states(fx, survivors, "clean", "served again, idle", wait=True)
    idle = events()
    for vd, uri in uris.items():
        read_back(fx, vd, uri, data[vd], "idle")
    check(events() == idle, "reads move no events", (idle, events()))
    data = {vd: fill(fx, vd, uri) for vd, uri in uris.items()}
    check_states(fx, survivors, "clean", "written again, idle", wait=True)
    after = events()
    check(all(after[vd] >= idle[vd] + 2 for vd in survivors),
          "a write after idle turns the arrays active, and idle clean again: events up by 2",
          (idle, after))
    check(md_events(fx, 1, 6) + 1 < after[1],
          "the member set offline last is more than one event behind",
          (md_events(fx, 1, 6), after[1]))
    kill_9(fx)
    check_states(fx, survivors, "clean", "written after idle, idle, then kill -9")
    for vd in survivors:
        read_back(fx, vd, export(fx, vd), data[vd], "written after idle, after kill -9")


def degraded_idle_kill_9_fixture():
    fx = small_fixture(8)
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-3")
    fx.ok("/c0", "add", "vd", "r6", "drives=252:4-7")
    return fx


degraded_idle_kill_9.fixture = degraded_idle_kill_9_fixture


def bgi_ends_unexported(fx):
    """A VD's BGI outlives its export: once it ends, the stopped process
    leaves the arrays clean, as md leaves an idle array it has resynced
    (active, md would resync it again, and refuse it degraded)."""
    uri = export(fx, 0)
    check(fx.run("/c0/v0", "pause", "bgi").returncode == 0, "the BGI pauses while exported")
    fill(fx, 0, uri)
    fx.ok("/c0/v0", "stop", "export")
    fx.ok("/c0", "set", "bgirate=100")
    fx.ok("/c0/v0", "resume", "bgi")
    wait_consistent(fx)
    fx.ok("/c0", "stop", "service")
    check_states(fx, {0: [0, 1, 2, 3]}, "clean", "initialized after its export stopped")


def bgi_ends_unexported_fixture():
    fx = Fixture(drives=4, size="16MB", vd=None)
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-3")
    return fx


bgi_ends_unexported.fixture = bgi_ends_unexported_fixture

# (add vd words, the member slots in md role order); the issue's, on drives
# of a quarter of its size (16 MiB, the first RAID5 15MB of them, the
# issue's 60MB of 64 MiB): each round writes and reads every VD whole
# through its export, and md's layouts, superblocks and parity do not
# depend on the size.
LAYOUT = [
    (["r5", "drives=252:0-3", "size=15MB"], [0, 1, 2, 3]),
    (["r6", "drives=252:4-7"], [4, 5, 6, 7]),
    (["r10", "drives=252:8-11", "pdperarray=2"], [8, 9, 10, 11]),
    (["r50", "drives=252:12-17", "pdperarray=3"], [12, 13, 14, 15, 16, 17]),
    (["r1", "drives=252:18-19"], [18, 19]),
    (["r5", "drives=252:0-3"], [0, 1, 2, 3]),
]


def md_read(fx, vd, slots, size):
    """What md would read of VD @vd (@size bytes) from its member drives."""
    start, _ = vd_partition(fx, vd, slots[0])
    out = os.path.join(fx.root, "md")
    r = subprocess.run([MDREAD, str(start), str(size), out] +
                       [drive_path(fx, s) for s in slots],
                       capture_output=True, text=True)
    check(r.returncode == 0, "v%d: mdread reads the members" % vd, r.stderr)
    with open(out, "rb") as f:
        data = f.read()
    os.unlink(out)
    return data


def md_superblocks(fx):
    """What md assembles the LAYOUT VDs from: mdadm --examine of every
    member's superblock and of each RAID50 span's top raid0 superblock (in
    the span's data, on its first member), less what a clean open and close
    may move (Update Time, Events, Checksum)."""
    moving = {"Update Time", "Events", "Checksum"}
    supers = {}
    for vd, (words, slots) in enumerate(LAYOUT):
        for slot in slots:
            start, sectors = vd_partition(fx, vd, slot)
            path = drive_path(fx, slot)
            fields = examine(path, start * 512, sectors)
            supers[vd, slot] = {k: v for k, v in fields.items() if k not in moving}
            if words[0] == "r50" and slots.index(slot) % 3 == 0:
                offset = int(fields["Data Offset"].split()[0])
                span = int(fields["Array Size"].split()[0]) * 2
                top = examine(path, (start + offset) * 512, span)
                supers[vd, slot, "top"] = {k: v for k, v in top.items() if k not in moving}
    return supers


def served_is_on_members(fx):
    for words, _ in LAYOUT:
        fx.ok("/c0", "add", "vd", *words)
    for rnd in range(ROUNDS):
        served = {}
        for vd in range(len(LAYOUT)):
            served[vd] = fill(fx, vd, export(fx, vd))
            fx.ok("/c0/v%d" % vd, "stop", "export")
        fx.ok("/c0", "stop", "service")
        for vd, (words, slots) in enumerate(LAYOUT):
            got = md_read(fx, vd, slots, len(served[vd]))
            check(got == served[vd], "round %d: v%d (%s): md reads from the members what the "
                  "export returned" % (rnd, vd, words[0]))
    # The issue saw md read the served bytes only after the process had been
    # started and stopped once more, with no write: such a start and stop
    # must change nothing md reads, data or superblocks.
    before = md_superblocks(fx)
    for key, top in before.items():
        if key[2:]:
            check(top.get("Creation Time") == before[key[:2]].get("Creation Time"),
                  "v%d: the top raid0 was created with its spans" % key[0],
                  (top.get("Creation Time"), before[key[:2]].get("Creation Time")))
    fx.serve()
    fx.ok("/c0", "stop", "service")
    fx.foreground.wait(timeout=60)
    after = md_superblocks(fx)
    for key in before:
        check(before[key] == after[key], "%s: a start and stop with no write leaves what md "
              "assembles from as it was" % (key,),
              {k: (v, after[key].get(k)) for k, v in before[key].items()
               if after[key].get(k) != v})
    for vd, (words, slots) in enumerate(LAYOUT):
        got = md_read(fx, vd, slots, len(served[vd]))
        check(got == served[vd], "v%d (%s): md reads the same after a start and stop with no "
              "write" % (vd, words[0]))


served_is_on_members.fixture = lambda: Fixture(drives=20, size="16MB", vd=None)


def main():
    tools = [t for t in ("nbdcopy", "nbdinfo", "sfdisk") if not shutil.which(t)]
    if not shutil.which("mdadm", path=os.environ["PATH"] + ":/usr/sbin:/sbin"):
        tools.append("mdadm")
    if tools or not MDREAD:
        print("SKIP: needs %s" % (", ".join(tools) or "MDREAD"))
        return 77
    # the longest first: run_jobs() starts them in this order, RCLTEST_JOBS at once
    run_cases([served_is_on_members, degraded_clean_stop, degraded_idle_kill_9, bgi_ends_unexported,
               migrated_while_exported],
              sys.argv[2:])
    return summary()


if __name__ == "__main__":
    sys.exit(main())
