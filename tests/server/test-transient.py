#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-transient.py - issue 21's case 4 as it was seen: a full file system.

The drive images on a 150 MB tmpfs, a RAID5 of 4 x 64 MB exported by its
controller process, and nbdcopy --flush of a whole VD of random data: the
writes beyond the space fail with ENOSPC. That used to fail every member
(all four UBad, the VD OfLn, no way back but wiping), and "start export
force" then called the dead VD Serving. Now the client is told ENOSPC, no
member fails, the VD stays optimal and reads; once the tmpfs is made larger
the same copy succeeds and reads back identical, and the restarted process
resyncs what the failed writes touched, after which a consistency check
finds no mismatch. A VD that is offline (two RAID5 members taken offline) is
never reported Serving and "start export" refuses it, force or not; its
members set online again, it is served again.

Needs root (to mount a tmpfs) and nbdcopy (libnbd-bin); exits 77 (skipped)
without them.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from rcltest import (Fixture, check, fixture_parent, nbd_uri, run_cases, start_export,
                     summary, wait_consistent, wait_for)

SKIP = 77


def vd_row(fx):
    status, doc = fx.json("/c0/v0", "show")
    return doc["Response Data"]["Virtual Drives"][0]


def drive_states(fx):
    status, doc = fx.json("/c0/eall/sall", "show")
    return [d["State"] for d in doc["Response Data"]["Drive Information"]]


def export_state(fx):
    status, doc = fx.json("/c0/v0", "show", "export")
    return doc["Response Data"]["Export LIST"][0]["State"]


def task_status(fx, task):
    """The VD's row of show bgi or show cc: Status, Mismatches, ..."""
    status, doc = fx.json("/c0/v0", "show", task)
    return doc["Response Data"]["VD Operation Status"][0]


def cc_status(fx):
    return task_status(fx, "cc")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def nbdcopy(*args):
    return subprocess.run(["nbdcopy", *args], capture_output=True, text=True, timeout=300)


def full_fs_fixture():
    """Four 64 MiB drives whose images are on a tmpfs of 150 MB, and no VD yet."""
    mnt = tempfile.mkdtemp(prefix="rcl-fullfs-", dir=fixture_parent())
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=150m", "tmpfs", mnt], check=True)
    try:
        fx = Fixture(size="64MB", vd=(), image_dir=mnt)
    except Exception:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)
        raise
    fx.mnt = mnt
    fx.cleanups.append(lambda: (subprocess.run(["umount", mnt]), os.rmdir(mnt)))
    return fx


def case_full_file_system(fx):
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-3")
    export = start_export(fx)
    wait_consistent(fx)
    uri = nbd_uri(export)
    size = int(subprocess.run(["nbdinfo", "--size", uri], capture_output=True, text=True,
                              check=True).stdout)
    data = os.path.join(fx.root, "data")
    with open(data, "wb") as f:
        f.write(os.urandom(size))

    r = nbdcopy("--flush", data, uri)
    check(r.returncode != 0 and "No space left on device" in r.stderr,
          "a copy larger than the file system's space fails with ENOSPC", r.stderr)
    check(drive_states(fx) == ["Onln"] * 4, "no member failed for the full file system",
          drive_states(fx))
    check(vd_row(fx)["State"] == "Optl", "the VD stays optimal", vd_row(fx))
    check(export_state(fx) == "Serving", "the export still serves", export_state(fx))
    back = os.path.join(fx.root, "back")
    r = nbdcopy(uri, back)
    check(r.returncode == 0, "the VD still reads", r.stderr)
    os.unlink(back)

    # Space freed: the same copy succeeds, and reads back as written.
    subprocess.run(["mount", "-o", "remount,size=400m", fx.mnt], check=True)
    r = nbdcopy("--flush", data, uri)
    check(r.returncode == 0, "with space again the copy succeeds", r.stderr)
    r = nbdcopy(uri, back)
    check(r.returncode == 0 and sha256(back) == sha256(data),
          "the VD reads back what was copied", r.stderr)
    os.unlink(back)

    # The regions the failed writes touched are owed a resync, which a restart runs.
    fx.ok("/c0", "stop", "service")
    export = start_export(fx)
    check(wait_for(lambda: task_status(fx, "bgi")["Status"] != "In progress", 120),
          "the restart's resync ends", task_status(fx, "bgi"))
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 0, "start cc", r.stdout)
    check(wait_for(lambda: cc_status(fx)["Status"] != "In progress", 120),
          "the consistency check ends", cc_status(fx))
    check(cc_status(fx)["Mismatches"] == 0, "a consistency check finds no mismatch",
          cc_status(fx))
    r = nbdcopy(nbd_uri(export), back)
    check(r.returncode == 0 and sha256(back) == sha256(data),
          "after the restart the VD reads back what was copied", r.stderr)
    os.unlink(back)
    os.unlink(data)

    # Offline: never Serving, and not served, force or not; set online, served again.
    fx.ok("/c0/e252/s1", "set", "offline")
    fx.ok("/c0/e252/s2", "set", "offline", "force")
    check(vd_row(fx)["State"] == "OfLn", "two RAID5 members offline: the VD is OfLn",
          vd_row(fx))
    check(export_state(fx) == "Offline", "the export of an OfLn VD is not Serving",
          export_state(fx))
    for words in ([], ["force"]):
        r = fx.run("/c0/v0", "start", "export", *words)
        check(r.returncode != 0 and "is offline (OfLn)" in r.stdout,
              "start export %s refuses an OfLn VD, saying why" % " ".join(words), r.stdout)
    fx.ok("/c0/e252/s1", "set", "online")
    fx.ok("/c0/e252/s2", "set", "online")
    check(export_state(fx) == "Serving", "set online again, the VD is served",
          export_state(fx))


def main():
    if os.geteuid() != 0 or not shutil.which("nbdcopy") or not shutil.which("nbdinfo"):
        print("SKIP: needs root (mount -t tmpfs) and nbdcopy, nbdinfo (libnbd-bin)")
        return SKIP
    run_cases([case_full_file_system], sys.argv[1:], full_fs_fixture)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
