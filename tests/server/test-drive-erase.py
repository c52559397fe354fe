#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-drive-erase.py - initializing and erasing unconfigured good drives
(/cx/ex/sx start|stop|show initialization, start|stop|show erase) in the
controller process, end to end.

A drive filled with a pattern is initialized (it reads as zeros) or erased
normal with patterns (it reads as pattern A); a stopped erase is "Not in
progress" and leaves no record; a controller process killed mid-erase
leaves it Halted, the drive kept out of "add vd", "add hotsparedrive" and
"set jbod" (the refusal names the erase), and the next process goes on to
the end, the drive then reading as pattern A. Refusals: a member, a hot
spare, a JBOD drive, a drive being initialized, a cryptographic erase and a
sanitize method; each leaves the drive's data as it was.
"""
import json
import os
import signal
import sys

from rcltest import Fixture, check, run_cases, summary, wait_for  # noqa: E402

DRIVE = "/c0/e252/s3"


def image(fx, drive=DRIVE):
    """The image file behind @drive, as its show all has it."""
    status, doc = fx.json(drive, "show", "all")
    detail = doc["Response Data"]["Drive %s - Detailed Information" % drive]
    return detail["Drive %s Device attributes" % drive]["Path"]


def fill(fx, byte):
    with open(image(fx), "r+b") as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(0)
        f.write(bytes([byte]) * size)


def contents(fx):
    with open(image(fx), "rb") as f:
        return f.read()


def row(fx, what):
    status, doc = fx.json(DRIVE, "show", what)
    check(status == 0, "show %s succeeds" % what, doc)
    return doc["Response Data"]["Drive Status"][0]


def finished(fx, what):
    return wait_for(lambda: row(fx, what)["Status"] == "Not in progress", 120)


def describe(fx, *args):
    status, doc = fx.json(*args)
    return status, doc["Command Status"]["Description"]


def record_of(fx):
    tasks = os.path.join(fx.state, "tasks")
    names = [n for n in os.listdir(tasks) if n.endswith("-erase.json")]
    with open(os.path.join(tasks, names[0])) as f:
        return json.load(f)


def check_reads(fx, byte, what):
    data = contents(fx)
    check(data.count(bytes([byte])) == len(data),
          "%s: every byte of the drive reads 0x%02x" % (what, byte),
          "%d of %d bytes differ" % (len(data) - data.count(bytes([byte])), len(data)))


def case_initialization(fx):
    fill(fx, 0x77)
    status, desc = describe(fx, DRIVE, "start", "initialization")
    check(status == 0 and desc == "Start Drive Initialization Succeeded.",
          "start initialization succeeds", desc)
    check(finished(fx, "initialization"), "the initialization runs to its end")
    check_reads(fx, 0, "initialized")
    fx.ok("/c0", "add", "vd", "r0", "drives=252:3")


def case_erase_normal(fx):
    fill(fx, 0x77)
    fx.ok(DRIVE, "start", "erase", "normal", "patternA=10101010", "patternB=01010101")
    check(finished(fx, "erase"), "the erase runs to its end")
    check_reads(fx, 0xaa, "erased normal")


def slow_erase(fx, *words):
    """Start an erase of the drive paced to 1 % of the time, so it is under way for long."""
    fx.serve()
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok(DRIVE, "start", "erase", *words)
    check(wait_for(lambda: row(fx, "erase")["Status"] == "In progress"),
          "the erase is in progress")


def case_stop(fx):
    slow_erase(fx, "thorough")
    status, desc = describe(fx, DRIVE, "stop", "initialization")
    check(status != 0 and "no initialization of drive 252:3 is in progress" in desc,
          "stop initialization does not stop an erase", desc)
    status, desc = describe(fx, DRIVE, "stop", "erase")
    check(status == 0 and desc == "Stop Drive Erase Succeeded.", "stop erase succeeds", desc)
    check(row(fx, "erase")["Status"] == "Not in progress", "a stopped erase is not in progress")
    check(record_of(fx)["drives"] == [], "a stopped erase leaves no record to resume")
    status, desc = describe(fx, DRIVE, "stop", "erase")
    check(status != 0 and "no erase of drive 252:3 is in progress" in desc,
          "stop erase with none refused", desc)
    fx.ok("/c0/e252/s3", "add", "hotsparedrive")


def case_resume_after_kill(fx):
    fill(fx, 0x77)
    slow_erase(fx, "thorough", "patternA=01011010")
    check(wait_for(lambda: (record_of(fx)["drives"] or [{}])[0].get("position", 0) > 0 or
                   (record_of(fx)["drives"] or [{}])[0].get("pass", 0) > 0, 30),
          "the erase records a checkpoint")
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service().get("Status") != "Running"), "the process is gone")
    halted = row(fx, "erase")
    check(halted["Status"] == "Halted" and isinstance(halted["Progress%"], int),
          "with no process, the erase is Halted at its checkpoint", halted)
    fx.ok("/c0", "set", "jbod=on")
    for words in (["/c0", "add", "vd", "r0", "drives=252:3"],
                  [DRIVE, "add", "hotsparedrive"], [DRIVE, "set", "jbod"]):
        status, desc = describe(fx, *words)
        check(status != 0 and "drive 252:3 is being overwritten by its erase" in desc and
              "stop erase" in desc, "'%s' refused while the drive is erased" % " ".join(words),
              desc)
    fx.ok("/c0", "set", "bgirate=100")
    fx.serve()
    check(finished(fx, "erase"), "the next process goes on with the erase to its end")
    check(record_of(fx)["drives"] == [], "the finished erase leaves no record")
    check_reads(fx, 0x5a, "resumed")
    fx.ok("/c0", "add", "vd", "r0", "drives=252:3")


def case_refusals(fx):
    fill(fx, 0x77)
    status, desc = describe(fx, "/c0/e252/s0", "start", "erase")
    check(status != 0 and "drive 252:0 is a member of disk group 0" in desc,
          "a member is not erased", desc)
    for words, why in ((["crypto"], "a cryptographic erase is not supported by this "
                        "controller (soft)"),
                       (["blockerase"], "a drive's own sanitize or format is not supported"),
                       (["patternA=0101"], "is not a pattern: give 8 binary digits")):
        status, desc = describe(fx, DRIVE, "start", "erase", *words)
        check(status != 0 and why in desc, "start erase %s refused" % " ".join(words), desc)
    fx.ok("/c0", "set", "jbod=on")
    fx.ok(DRIVE, "set", "jbod")
    status, desc = describe(fx, DRIVE, "start", "erase")
    check(status != 0 and "drive 252:3 is JBOD" in desc, "a JBOD drive is not erased", desc)
    fx.ok(DRIVE, "set", "good")
    check(contents(fx).count(b"\x77") == len(contents(fx)),
          "the refusals left the drive's data as it was")
    fx.ok(DRIVE, "add", "hotsparedrive")
    status, desc = describe(fx, DRIVE, "start", "initialization")
    check(status != 0 and "drive 252:3 is a hot spare (GHS)" in desc,
          "a hot spare is not initialized", desc)
    fx.ok(DRIVE, "delete", "hotsparedrive")
    fx.serve()
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok(DRIVE, "start", "initialization")
    status, desc = describe(fx, DRIVE, "start", "erase")
    check(status != 0 and "being overwritten by its drive initialization already" in desc,
          "a drive being initialized is not erased as well", desc)
    fx.ok(DRIVE, "stop", "initialization")


CASES = [
    case_initialization,
    case_erase_normal,
    case_stop,
    case_resume_after_kill,
    case_refusals,
]


def main():
    run_cases(CASES, sys.argv[1:], lambda: Fixture(drives=4, size="64MB"))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
