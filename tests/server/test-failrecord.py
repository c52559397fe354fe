#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-failrecord.py - a member that failed during I/O stays failed.

Issue 21's first case, as it was seen: a RAID5 of four 64 MB drives,
exported by its controller process and filled through the export; one
member's image is truncated to 40 MB behind the process's back, and a read
through the export meets the hole. New data is written (nbdcopy --flush),
then the member's old image is copied back. The member's failure must have
been recorded on the surviving members before that write was acknowledged:
the VD stays degraded and reads back exactly the new data, in the running
process and after a restart; mdadm --examine of a surviving member marks
the failed role faulty, its events above the restored member's; the
failure is in the event log.
"""
import os
import shutil
import subprocess
import sys

from rcltest import (MIB, Fixture, array_state, check, drive_field, examine_member,  # noqa: E402
                     fx_vd_bytes, nbd_uri, run_cases, start_export, summary, wait_consistent)


def nbdcopy(*args):
    return subprocess.run(["nbdcopy", *args], capture_output=True, text=True, timeout=120)


def vd_state(fx):
    status, doc = fx.json("/c0/v0", "show")
    return doc["Response Data"]["Virtual Drives"][0]["State"]


def reads_back(fx, uri, want, when):
    """The whole VD read through @uri equals the file @want."""
    got = os.path.join(fx.root, "got.bin")
    r = nbdcopy(uri, got)
    same = r.returncode == 0 and open(got, "rb").read() == open(want, "rb").read()
    check(same, "%s: the VD reads back exactly what was written last" % when, r.stderr)
    os.unlink(got)


def degraded(fx, when):
    check(vd_state(fx) == "Dgrd", "%s: the VD stays degraded" % when,
          fx.run("/c0", "show").stdout)
    check(drive_field(fx, 3, "State") == "UBad", "%s: s3 stays failed (UBad)" % when,
          fx.run("/c0/eall/sall", "show").stdout)


def case_truncated_member_comes_back(fx):
    """Issue 21's case 1 as it was seen (the module's docstring)."""
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    uri = nbd_uri(export)
    old, new = os.path.join(fx.root, "old.bin"), os.path.join(fx.root, "new.bin")
    for path in (old, new):
        with open(path, "wb") as f:
            f.write(os.urandom(fx_vd_bytes(fx)))
    r = nbdcopy("--flush", old, uri)
    check(r.returncode == 0, "the first data is written", r.stderr)
    image = drive_field(fx, 3, "Path")
    saved = os.path.join(fx.root, "drive3.saved")
    shutil.copyfile(image, saved)
    os.truncate(image, 40 * MIB)
    reads_back(fx, uri, old, "member 3 truncated")
    r = nbdcopy("--flush", new, uri)
    check(r.returncode == 0, "the new data is written with member 3 failed", r.stderr)
    log = open(fx.service()["Log"]).read()
    check("member 3 failed" in log and "recorded /c0/e252/s3 as failed" in log,
          "the process logs the failure and records it", log)
    shutil.copyfile(saved, image)
    degraded(fx, "member 3's old image back")
    reads_back(fx, uri, new, "member 3's old image back")
    rc, survivor, text = examine_member(fx, 0)
    rc3, stale, text3 = examine_member(fx, 3)
    check(rc == 0 and array_state(survivor) == "AAA.",
          "mdadm --examine of s0 shows member 3 faulty (AAA.)", text)
    check(rc3 == 0 and int(survivor.get("Events", 0)) > int(stale.get("Events", 0)),
          "s0's md events are above the restored s3's", text + text3)
    events = fx.run("/c0", "show", "events").stdout
    check("Drive /c0/e252/s3 state changed from Onln to UBad (I/O error)" in events,
          "the event log has member 3's failure", events)
    stop = fx.run("/c0", "stop", "service")
    check(stop.returncode == 0, "the process stops", stop.stdout)
    export = start_export(fx)
    if not export:
        return
    degraded(fx, "after a restart")
    reads_back(fx, nbd_uri(export), new, "after a restart")


def main():
    only = sys.argv[1:]
    run_cases([case_truncated_member_comes_back], only,
              lambda: Fixture(drives=4, size="64MB", vd=("r5", "drives=252:0-3")))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
