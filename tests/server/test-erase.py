#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-erase.py - erasing virtual drives (/cx/vx start|stop|show erase) in
the controller process, end to end, and autobgi (/cx/vx set|show autobgi).

A VD of each redundant level, filled with random data through its NBD
export, is erased (simple, normal with patternA and patternB, thorough);
then every byte read back through the export is pattern A and a
consistency check finds 0 mismatches (the erase wrote parity and copies
through the engine). A stopped erase leaves the VD "Not in progress" and
its record empty, as does deleting the VD; a controller process killed mid-erase leaves it Halted
at its checkpoint, and the next process goes on from there to the end.
Refusals: an exported VD without force, a VD another task keeps busy, a
bad pattern, two modes at once; each changes nothing.

A VD set autobgi=off gets no background initialization from a controller
process, through a restart (the setting is in the VD's record); set back
on, its BGI starts and makes it consistent.
"""
import json
import os
import signal
import subprocess
import sys

from rcltest import (Fixture, check, fx_vd_bytes, nbd_uri, run_cases, start_export,  # noqa: E402
                     summary, vd_consistent, wait_consistent, wait_for)


def erase_row(fx, vd=0):
    status, doc = fx.json("/c0/v%d" % vd, "show", "erase")
    check(status == 0, "show erase succeeds", doc)
    return doc["Response Data"]["VD Operation Status"][0]


def read_vd(fx, export):
    """Every byte of the VD that @export serves, read by qemu-img (a real NBD client)."""
    out = os.path.join(fx.root, "vd.img")
    r = subprocess.run(["qemu-img", "convert", "-f", "raw", "-O", "raw", nbd_uri(export), out],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "qemu-img reads the export", r.stderr)
    with open(out, "rb") as f:
        data = f.read()
    os.unlink(out)
    return data


def fill(fx, export):
    size = fx_vd_bytes(fx)
    src = os.path.join(fx.root, "data.img")
    with open(src, "wb") as f:
        f.write(os.urandom(size))
    r = subprocess.run(["qemu-img", "convert", "-n", "-f", "raw", "-O", "raw", src,
                        nbd_uri(export)], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "qemu-img fills the export", r.stderr)
    os.unlink(src)


def check_erased(fx, byte, what):
    """The VD reads as @byte everywhere, and a consistency check finds no mismatch."""
    export = start_export(fx)
    data = read_vd(fx, export)
    check(len(data) == fx_vd_bytes(fx) and data.count(byte) == len(data),
          "%s: every byte of the VD reads 0x%02x" % (what, byte[0]),
          "%d of %d bytes differ" % (len(data) - data.count(byte), len(data)))
    fx.ok("/c0/v0", "stop", "export")
    status, doc = fx.json("/c0/v0", "start", "cc", "wait")
    row = doc.get("Response Data", {}).get("VD Operation Status", [{}])[0]
    check(status == 0 and row.get("Mismatches") == 0,
          "%s: a consistency check after the erase finds 0 mismatches" % what, doc)


def erase_case(name, vd, words, byte):
    def case(fx):
        fx.ok("/c0", "add", "vd", *vd)
        export = start_export(fx)
        wait_consistent(fx)
        fill(fx, export)
        fx.ok("/c0/v0", "stop", "export")
        status, doc = fx.json("/c0/v0", "start", "erase", *words, "wait")
        row = doc.get("Response Data", {}).get("VD Operation Status", [{}])[0]
        check(status == 0 and row.get("Operation") == "Erase" and
              row.get("Status") == "Not in progress",
              "%s: start erase ... wait runs it to its end" % name, doc)
        check_erased(fx, bytes([byte]), name)
    case.__name__ = "case_" + name
    return case


def case_two_vds(fx):
    """Two VDs erased at once, one ending before the other."""
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2", "size=4MB")
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2", "size=12MB")
    fx.ok("/c0", "set", "bgirate=100")
    status, doc = fx.json("/c0/vall", "start", "erase", "patternA=11001100", "wait")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    check(status == 0 and [r["Status"] for r in rows] == ["Not in progress"] * 2,
          "both erases run to their ends", doc)
    for vd in (0, 1):
        status, doc = fx.json("/c0/v%d" % vd, "start", "export")
        export = doc["Response Data"]["Export LIST"][0]
        data = read_vd(fx, export)
        check(data and data.count(b"\xcc") == len(data), "v%d reads as 0xcc" % vd)
        fx.ok("/c0/v%d" % vd, "stop", "export")


def slow_erase(fx, *words):
    """Start an erase paced to 1 % of the time, so it is under way for long."""
    fx.serve()
    wait_consistent(fx)
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok("/c0/v0", "start", "erase", *words)
    check(wait_for(lambda: erase_row(fx)["Status"] == "In progress"),
          "the erase is in progress")


def record_of(fx):
    tasks = os.path.join(fx.state, "tasks")
    names = [n for n in os.listdir(tasks) if n.endswith("-erase.json")]
    if not names:
        return None
    with open(os.path.join(tasks, names[0])) as f:
        return json.load(f)


def case_stop(fx):
    slow_erase(fx, "normal")
    status, doc = fx.json("/c0/v0", "stop", "erase")
    check(status == 0 and doc["Command Status"]["Description"] ==
          "Stop Erase Operation Success.", "stop erase succeeds", doc)
    row = erase_row(fx)
    check(row["Status"] == "Not in progress" and row["Progress%"] == "-",
          "a stopped erase is not in progress", row)
    check(record_of(fx)["vds"] == [], "a stopped erase leaves no record to resume")
    status, doc = fx.json("/c0/v0", "stop", "erase")
    check(status != 0 and "no erase of /c0/v0 is in progress" in
          doc["Command Status"]["Description"], "stop erase with none refused", doc)


def case_vd_deleted(fx):
    slow_erase(fx)
    fx.ok("/c0/v0", "delete", "force")
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2")
    check(erase_row(fx)["Status"] == "Not in progress" and record_of(fx)["vds"] == [],
          "deleting a VD stops its erase: the VD made in its place is not erased")


def case_resume_after_kill(fx):
    slow_erase(fx, "normal", "patternA=01011010")
    check(wait_for(lambda: (record_of(fx)["vds"] or [{}])[0].get("position", 0) > 0, 30),
          "the erase records a checkpoint")
    pid = fx.service()["PID"]
    os.kill(pid, signal.SIGKILL)
    check(wait_for(lambda: fx.service().get("Status") != "Running"), "the process is gone")
    row = erase_row(fx)
    check(row["Status"] == "Halted" and isinstance(row["Progress%"], int),
          "with no process, the erase is Halted at its checkpoint", row)
    fx.ok("/c0", "set", "bgirate=100")
    fx.serve()
    check(wait_for(lambda: erase_row(fx)["Status"] == "Not in progress", 120),
          "the next process goes on with the erase to its end")
    check(record_of(fx)["vds"] == [], "the finished erase leaves no record")
    check_erased(fx, bytes([0x5a]), "resumed")


def case_refusals(fx):
    export = start_export(fx)
    wait_consistent(fx)
    status, doc = fx.json("/c0/v0", "start", "erase")
    desc = doc["Command Status"]["Description"]
    check(status != 0 and "/c0/v0 is exported as" in desc and "'force'" in desc,
          "an exported VD is not erased without force", doc)
    for words, why in ((["patternA=0101"], "is not a pattern: give 8 binary digits"),
                       (["patternB=2"], "is not a pattern"),
                       (["simple", "thorough", "force"], "give one of simple, normal and thorough")):
        status, doc = fx.json("/c0/v0", "start", "erase", *words)
        check(status != 0 and why in doc["Command Status"]["Description"],
              "start erase %s refused" % " ".join(words), doc)
    check(erase_row(fx)["Status"] == "Not in progress", "the refusals started no erase")
    data = read_vd(fx, export)
    fx.ok("/c0/v0", "stop", "export")
    fx.ok("/c0", "set", "ccrate=1")
    fx.ok("/c0/v0", "start", "cc")
    status, doc = fx.json("/c0/v0", "start", "erase")
    check(status != 0 and "another task runs on /c0/v0" in doc["Command Status"]["Description"],
          "a VD under a consistency check is not erased", doc)
    fx.ok("/c0/v0", "stop", "cc")
    export = start_export(fx)
    check(read_vd(fx, export) == data, "the refusals left the data as it was")
    status, doc = fx.json("/c0/v0", "start", "erase", "force", "wait")
    check(status == 0, "with force, an exported VD is erased", doc)
    data = read_vd(fx, export)
    check(data.count(b"\0") == len(data), "the exported VD's clients read zeros after it")


def autobgi(fx):
    status, doc = fx.json("/c0/v0", "show", "autobgi")
    return doc["Response Data"]["VD Operation Status"][0]["AutoBGI"]


def case_autobgi(fx):
    check(autobgi(fx) == "On", "a new VD has autobgi on")
    fx.ok("/c0/v0", "set", "autobgi=off")
    for turn in ("started", "restarted"):
        start_export(fx)
        # A command the process runs comes after its look for BGIs to start.
        fx.ok("/c0/v0", "set", "autobgi=off")
        check(autobgi(fx) == "Off",
              "autobgi stays off when the process is %s" % turn)
        status, doc = fx.json("/c0/v0", "show", "bgi")
        row = doc["Response Data"]["VD Operation Status"][0]
        check(row["Status"] == "Not in progress" and not vd_consistent(fx),
              "autobgi=off: no BGI (running or done) when the process is %s" % turn, row)
        fx.ok("/c0/v0", "stop", "export")
        fx.ok("/c0", "stop", "service")
    start_export(fx)
    fx.ok("/c0/v0", "set", "autobgi=on")
    wait_consistent(fx)


CASES = [
    erase_case("raid5_simple", ["r5", "drives=252:0-2"], [], 0),
    erase_case("raid6_normal", ["r6", "drives=252:0-3"],
               ["normal", "patternA=10101010", "patternB=01010101"], 0xaa),
    erase_case("raid10_thorough", ["r10", "drives=252:0-3", "pdperarray=2"],
               ["thorough", "patternA=11110000"], 0xf0),
    erase_case("raid1_simple", ["r1", "drives=252:0-1"], ["simple", "patternA=00000001"], 1),
    case_two_vds,
    case_stop,
    case_vd_deleted,
    case_resume_after_kill,
    case_refusals,
    case_autobgi,
]


def main():
    vd_cases = {c.__name__ for c in CASES[:5]}
    run_cases([c for c in CASES if c.__name__ in vd_cases], sys.argv[1:],
              lambda: Fixture(drives=4, size="16MB", vd=()))
    run_cases([c for c in CASES if c.__name__ not in vd_cases], sys.argv[1:],
              lambda: Fixture(drives=4, size="32MB"))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
