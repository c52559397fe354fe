#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-untrusted-text.py - values from users and disks cannot corrupt the output.

Text output escapes what a terminal acts on (control characters, DEL, bytes
that are not UTF-8) as C escapes, so a value can neither forge a line such as
"Status = Success" nor drive the terminal; JSON escapes them its own way and
shows bytes that are not UTF-8 as U+FFFD, so it stays valid JSON text. The
interactive shell's own messages are escaped as text output is. A message
quotes a long value shortened, so the reason after it is never cut; a
non-ASCII VD name is refused as such.
Each case uses a fresh $RAIDCLI_STATE_DIR holding /c0 (four drives, a RAID 1
on the first two).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pexpect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, run_cases, summary  # noqa: E402

# What a terminal acts on: BEL, ESC (a color change), CSI as C1 (U+009B).
HOSTILE = "a\nStatus = Success\a\x1b[31m\u009b\\"


class Fixture:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="raidcli-untrusted-")
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=os.path.join(self.root, "state"),
                        LC_ALL="C")
        self.must("add", "controller", "type=soft", "drives=4", "size=32MB")
        self.must("/c0", "add", "vd", "r1", "drives=252:0-1")

    def run(self, *args):
        """(exit status, stdout as bytes, stderr)."""
        p = subprocess.run([RAIDCLI, *args], env=self.env, capture_output=True, timeout=30)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")

    def must(self, *args):
        status, out, err = self.run(*args)
        if status:
            raise RuntimeError("raidcli %s failed (%d): %r %s" % (args, status, out, err))
        return out

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def lines(out):
    return out.decode("utf-8", "replace").splitlines()


def clean(what, out):
    """No byte of @out that a terminal acts on, but the newline ending each line."""
    bad = sorted({b for b in out if (b < 0x20 and b != 0x0a) or b == 0x7f})
    check(not bad and b"\xc2\x9b" not in out, "%s: no control characters" % what,
          "bytes %r in %r" % (bad, out[:400]))


def case_forged_status_line(fx):
    status, out, _ = fx.run("/c0/v0", "set", "name=" + HOSTILE)
    check(status == 3, "a name with a newline is refused (status 3)", str(status))
    got = lines(out)
    check([l for l in got if l.startswith("Status")] == ["Status = Failure"],
          "the one Status line is the real one", "\n".join(got))
    want = "name 'a\\nStatus = Success\\x07\\x1b[31m\\xc2\\x9b\\\\'"
    check(any(l.startswith("Description = " + want) for l in got),
          "the Description shows the name escaped", "\n".join(got))
    clean("the refusal", out)

    status, out, _ = fx.run("/c0/v0", "set", "name=" + HOSTILE, "J")
    desc = json.loads(out)["Controllers"][0]["Command Status"]["Description"]
    check(status == 3 and desc.startswith("name '%s'" % HOSTILE),
          "JSON carries the name as it was typed (escaped by JSON)", repr(desc))


def case_drive_path(fx):
    folder = os.path.join(fx.root, "a\nb\x1b[1m")
    fx.must("add", "controller", "type=soft", "drives=1", "size=16MB", "dir=" + folder)
    out = fx.must("/c1/e252/s0", "show", "all")
    want = "Path = %s/a\\nb\\x1b[1m/drive0.img" % fx.root
    check(want in lines(out), "show all prints the drive path escaped", out.decode())
    clean("show all", out)


def case_json_not_utf8(fx):
    # \xff is never UTF-8; \xe2\x82 is a cut three-byte character: one U+FFFD each.
    folder = os.fsencode(fx.root) + b"/a\xffb\xe2\x82z"
    fx.must("add", "controller", "type=soft", "drives=1", "size=16MB", b"dir=" + folder)
    out = fx.must("/c1/e252/s0", "show", "all", "J")
    try:
        doc = json.loads(out.decode("utf-8"))
    except ValueError as e:
        check(False, "JSON with a path that is not UTF-8 is UTF-8 JSON text", str(e))
        return
    info = doc["Controllers"][0]["Response Data"]["Drive /c1/e252/s0 - Detailed Information"]
    path = info["Drive /c1/e252/s0 Device attributes"]["Path"]
    check(path == "%s/a\ufffdb\ufffdz/drive0.img" % fx.root,
          "the bad bytes show as U+FFFD, as Python's 'replace' shows them",
          repr(path))


def case_repl_message(fx):
    # Ctrl-V makes the line editor take the next key, ESC, as typed text.
    shell = pexpect.spawn(RAIDCLI, [], env=dict(fx.env, TERM="xterm", LANG="C.UTF-8"),
                          timeout=10)
    try:
        shell.expect("> ")
        shell.send(b"/c0/v\x16\x1b[31m\r")
        shell.expect("> ")
        said = [l for l in shell.before.split(b"\r\n") if l.startswith(b"raidcli: ")]
    finally:
        shell.close(force=True)
    check(len(said) == 1 and b"'/v\\x1b[31m'" in said[0],
          "the shell's message shows the typed ESC escaped", repr(said))
    clean("the shell's message", b"".join(said))


def case_non_ascii_name(fx):
    # Eight characters in sixteen bytes: refused as not ASCII (MegaRAID keeps
    # 15 ASCII bytes), not as "longer than 15 characters".
    for args in (["/c0/v0", "set"], ["/c0", "add", "vd", "r1", "drives=252:2-3"]):
        status, out, _ = fx.run(*args, "name=" + "\u00e9" * 8)
        got = lines(out)
        check(status == 3 and "Description = name '%s' is not ASCII: a VD name is at most 15 "
              "ASCII characters" % ("\u00e9" * 8) in got,
              "%s: a non-ASCII name is refused as such" % " ".join(args), "\n".join(got))
    vds = json.loads(fx.must("/c0/vall", "show", "J"))["Controllers"][0]["Response Data"]
    check([vd["Name"] for vd in vds["Virtual Drives"]] == [""], "nothing was named or added",
          repr(vds))


def case_long_value(fx):
    # A 100 KB value: the message shows its start, its length and the whole reason.
    value = "9" * 100000
    for args, reason in ((["/c0/v0", "set", "name=" + value], "is longer than 15 characters"),
                         (["/c0", "set", "rebuildrate=" + value],
                          "for 'rebuildrate=': expected a number from 0 to 100")):
        want = "'%s...' (100000 bytes) %s" % ("9" * 100, reason)
        status, out, _ = fx.run(*args)
        check(status == 3 and any(l.startswith("Description = ") and l.endswith(want)
                                  for l in lines(out)),
              "%s: the value is cut, the reason is whole" % args[1], out.decode()[-400:])
        status, out, _ = fx.run(*args, "J")
        desc = json.loads(out)["Controllers"][0]["Command Status"]["Description"]
        check(status == 3 and desc.endswith(want), "%s: so in JSON" % args[1], desc[-300:])


CASES = [case_forged_status_line, case_drive_path, case_json_not_utf8, case_repl_message,
         case_non_ascii_name, case_long_value]


def main():
    run_cases(CASES, sys.argv[1:], Fixture)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
