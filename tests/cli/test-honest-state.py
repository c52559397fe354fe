#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-honest-state.py - what raidcli shows is what it enforces, and nothing
is lost without a word (issue 21, case 8; its (b), Consist of a degraded VD a
crash left dirty, needs the controller process: test-service.py).

Runs the raidcli named by $RAIDCLI against throwaway state directories:
 (a) with the state directory's file system full (a small tmpfs; needs
     root, skipped saying so without it), every change still succeeds and
     each one whose event the log could not take says so in its result;
     the log holds whole lines only, and takes events again once there is
     room;
 (c) a former member truncated behind raidcli's back (its GPT damaged),
     which no command will use, shows UBad, not UGood; every refusal says
     why and names the command that erases it, which then makes it usable;
 (d) a foreign configuration's Importable is what fall import does: one
     whose group lacks more drives than it can lose shows Importable No,
     with the reason import gives when it refuses (status 59); one that
     lacks fewer shows Yes and imports;
 (e) with the state directory read-only (a read-only bind mount; needs
     root, skipped saying so without it), with or without its lock files,
     every show command works and every change fails, naming the
     directory, with nothing changed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, run_parts  # noqa: E402


class Env:
    """A state directory under @root (a new temporary directory if None)."""

    def __init__(self, root=None):
        self.root = root or tempfile.mkdtemp(prefix="raidcli-honest.")
        self.state = os.path.join(self.root, "s")
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state, TZ="UTC")

    def run(self, *args):
        return subprocess.run([RAIDCLI] + list(args), env=self.env, capture_output=True,
                              text=True, timeout=120)

    def must(self, *args):
        r = self.run(*args)
        if r.returncode:
            raise RuntimeError("%r failed (%d):\n%s%s" % (args, r.returncode, r.stdout,
                                                         r.stderr))
        return r

    def json(self, *args):
        r = self.run(*args, "J")
        return r.returncode, json.loads(r.stdout)["Controllers"][0]


def description(r):
    m = re.search(r"^Description = (.*)$", r.stdout, re.M)
    return m.group(1) if m else r.stdout


def event_log(env):
    """The raw text of /c0's event log."""
    folder = os.path.join(env.state, "events")
    return "".join(open(os.path.join(folder, name)).read() for name in os.listdir(folder))


def fill(path):
    """Fill the file system of @path to its last page, then give back two."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    os.ftruncate(fd, max(0, os.fstat(fd).st_size - 8192))
    os.close(fd)


def full_state_dir_tests():
    mount = tempfile.mkdtemp(prefix="raidcli-full.")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount],
                       capture_output=True, text=True)
    if r.returncode:
        print("skip full state directory: cannot mount a tmpfs (%s)" % r.stderr.strip())
        os.rmdir(mount)
        return
    try:
        full_state_dir(Env(mount))
    finally:
        subprocess.run(["umount", mount])
        os.rmdir(mount)


def full_state_dir(env):
    env.must("add", "controller", "type=soft", "drives=2", "size=16MB")
    env.must("/c0", "add", "vd", "r1", "drives=252:0-1")
    filler = os.path.join(env.root, "filler")
    fill(filler)
    names = ["name%d" % i for i in range(60)]
    runs = [env.run("/c0/v0", "set", "name=" + n) for n in names]
    check(all(r.returncode == 0 for r in runs),
          "60 'set name' on a full state directory succeed: each change is made",
          [(r.returncode, description(r)) for r in runs])
    text = event_log(env)
    logged = re.findall(r"properties updated: name=(name\d+)", text)
    lost = [n for n, r in zip(names, runs) if "The event log did not record it" in r.stdout]
    check(lost, "the log is full: some events could not be written", text[-300:])
    check(sorted(lost + logged) == sorted(names),
          "each one the log lacks says so in its result, and only those", (lost, logged))
    check(all("No space left on device" in description(r)
              for n, r in zip(names, runs) if n in lost),
          "the reason is given: no space", [description(r) for r in runs[-1:]])
    check(text.endswith("\n") and all(json.loads(line) for line in text.splitlines()),
          "the log holds whole lines only (no torn line)",
          text[-300:])
    status, doc = env.json("/c0/v0", "show")
    check(doc["Response Data"]["Virtual Drives"][0]["Name"] == names[-1],
          "the VD has the last name set", doc)
    os.unlink(filler)
    r = env.run("/c0/v0", "set", "name=roomy")
    check(r.returncode == 0 and "event log" not in r.stdout and
          event_log(env).endswith("properties updated: name=roomy\"}\n"),
          "with room again, a change is logged and says nothing more", r.stdout)


def pd_row(env, slot):
    rc, doc = env.json("/c0/eall/sall", "show")
    rows = doc["Response Data"]["Drive Information"]
    return [r for r in rows if r["EID:Slt"] == "252:%d" % slot][0]


def truncated_member_tests():
    env = Env()
    try:
        img = os.path.join(env.root, "img")
        env.must("add", "controller", "type=soft", "drives=4", "size=64MB", "dir=" + img)
        env.must("/c0", "add", "vd", "r1", "drives=252:0-1")
        os.truncate(os.path.join(img, "drive1.img"), 40 << 20)
        row = pd_row(env, 1)
        check(row["State"] == "UBad" and row["DG"] == "-",
              "a truncated former member shows UBad, not foreign", row)
        way_out = "raidcli /c0/e252/s1 set good force"
        for words in (["/c0", "add", "vd", "r1", "drives=252:1-2", "force"],
                      ["/c0", "add", "vd", "r1", "drives=252:2-3", "spares=252:1"],
                      ["/c0/e252/s1", "add", "hotsparedrive"]):
            r = env.run(*words)
            check(r.returncode != 0 and "damaged or unknown GPT" in description(r) and
                  way_out in description(r),
                  "'%s' is refused, saying why and naming '%s'" % (" ".join(words), way_out),
                  description(r))
        r = env.run("/c0/e252/s1", "set", "good")
        check(r.returncode == 245 and "use force to erase it" in description(r),
              "set good without force is refused: it erases the drive", description(r))
        r = env.run("/c0/e252/s1", "set", "good", "force")
        check(r.returncode == 0 and pd_row(env, 1)["State"] == "UGood",
              "set good force erases it: UGood", (description(r), pd_row(env, 1)))
        r = env.run("/c0", "add", "vd", "r1", "drives=252:1-2")
        check(r.returncode == 0, "and it makes a new VD", description(r))
    finally:
        shutil.rmtree(env.root, ignore_errors=True)


def move(env, images):
    """Delete /c0 keeping its images; a new /c0 gets @images."""
    env.must("/c0", "del")
    env.must("add", "controller", "type=soft", "drives=0")
    for path in images:
        env.must("/c0", "add", "drive", "path=" + path)


def foreign_row(env):
    rc, doc = env.json("/c0/fall", "show")
    data = doc.get("Response Data", {})
    return data["Foreign Configurations"][0], [p["Reason"] for p in
                                               data.get("Import Problems", [])]


def importable_tests():
    for level, members, lost, importable in (("r0", 2, 1, False), ("r1", 2, 1, True),
                                             ("r5", 3, 2, False)):
        env = Env()
        try:
            img = os.path.join(env.root, "img")
            env.must("add", "controller", "type=soft", "drives=3", "size=64MB", "dir=" + img)
            env.must("/c0", "add", "vd", level, "drives=252:0-%d" % (members - 1))
            move(env, [os.path.join(img, "drive%d.img" % n) for n in range(lost, members)])
            row, reasons = foreign_row(env)
            r = env.run("/c0/fall", "import")
            what = "%s lacking %d of %d drives: " % (level, lost, members)
            check(row["Complete"] == "No" and
                  row["Importable"] == ("Yes" if importable else "No"),
                  what + "Complete No, Importable %s" % ("Yes" if importable else "No"), row)
            check((r.returncode == 0) == importable,
                  what + "fall import does what Importable says", r.stdout)
            if not importable:
                check(r.returncode == 59 and reasons == [description(r)],
                      what + "refused as incomplete (59), for the reason show gives",
                      (reasons, description(r)))
        finally:
            shutil.rmtree(env.root, ignore_errors=True)


READS = [["show"], ["show", "all"], ["/c0", "show"], ["/call", "show", "all"],
         ["/c0/eall/sall", "show", "all"], ["/c0/vall", "show", "all"], ["/c0", "show", "events"]]
WRITES = [["/c0", "set", "rebuildrate=20"], ["/c0/v0", "set", "name=x"], ["/c0/v0", "del", "force"],
          ["add", "controller", "type=soft", "drives=1", "size=16MB"]]


def read_only_state_dir_tests():
    env = Env()
    view = Env(tempfile.mkdtemp(prefix="raidcli-ro."))
    try:
        env.must("add", "controller", "type=soft", "drives=2", "size=16MB")
        env.must("/c0", "add", "vd", "r1", "drives=252:0-1")
        os.mkdir(view.state)
        r = subprocess.run("mount --bind %s %s && mount -o remount,ro,bind %s" %
                           (env.state, view.state, view.state), shell=True,
                           capture_output=True, text=True)
        if r.returncode:
            print("skip read-only state directory: cannot bind-mount it read-only (%s)"
                  % r.stderr.strip())
            return
        try:
            read_only_state_dir(env, view, "with its lock files")
            # Lock files a reader cannot create: it reads without them.
            for folder in (env.state, os.path.join(env.state, "locks")):
                for name in os.listdir(folder):
                    if name.endswith(".lock"):
                        os.unlink(os.path.join(folder, name))
            read_only_state_dir(env, view, "without lock files")
        finally:
            subprocess.run(["umount", view.state])
    finally:
        shutil.rmtree(env.root, ignore_errors=True)
        shutil.rmtree(view.root, ignore_errors=True)


def read_only_state_dir(env, view, how):
    """(e) @view is @env's state directory mounted read-only: every show works, every
    change fails naming the directory, and nothing changes."""
    before = env.must("/c0/vall", "show", "all").stdout
    for args in READS:
        r = view.run(*args)
        check(r.returncode == 0, "read-only state directory %s: '%s' works" % (how, " ".join(args)),
              "%d: %s" % (r.returncode, description(r)))
    want = ("the state directory '%s' is read-only (Read-only file system): nothing can be "
            "changed; show commands still work" % view.state)
    for args in WRITES:
        r = view.run(*args)
        check(r.returncode == 242 and description(r) == want,
              "read-only state directory %s: '%s' fails naming it" % (how, " ".join(args)),
              "%d: %s" % (r.returncode, description(r)))
    check(env.must("/c0/vall", "show", "all").stdout == before,
          "read-only state directory %s: nothing changed" % how)


def main():
    return run_parts([full_state_dir_tests, truncated_member_tests, importable_tests,
                      read_only_state_dir_tests])


if __name__ == "__main__":
    sys.exit(main())
