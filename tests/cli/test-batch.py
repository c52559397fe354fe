#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-batch.py - batch mode: raidcli with no arguments and a pipe on stdin.

raidcli runs one command a line; blank lines and '#' comments are skipped;
"exit" or "quit" ends the run. At the first failing line it prints that
command's Failure block, says "raidcli: line N failed (status S); stopping"
on stderr (N counts every line, as an editor does) and exits with S; no
later line runs, which the cases prove with a later line that would have
created a controller. Output to a pipe carries no escape codes, whatever
$TERM says. Each case uses a fresh $RAIDCLI_STATE_DIR holding /c0.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, failures, summary  # noqa: E402

ADD = "add controller type=soft drives=1 size=64MB"


class Fixture:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="raidcli-batch-")
        self.env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        # A terminal type that has color: only the pipe must keep it off.
        self.env.update(RAIDCLI_STATE_DIR=os.path.join(self.root, "state"), TERM="xterm",
                        HOME=self.root)
        self.run_args("add", "controller", "type=soft", "drives=2", "size=64MB")

    def run_args(self, *args):
        return subprocess.run([RAIDCLI, *args], env=self.env, capture_output=True, text=True,
                              timeout=30)

    def batch(self, script):
        return subprocess.run([RAIDCLI], input=script, env=self.env, capture_output=True,
                              text=True, timeout=30)

    def ctrl_count(self):
        out = self.run_args("show", "ctrlcount").stdout
        m = re.search(r"^Controller Count = (\d+)$", out, re.M)
        return int(m.group(1)) if m else None

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def case_runs_every_line(fx):
    r = fx.batch("/c0 show\n\n# a comment\n   \t\n  # an indented comment\nshow ctrlcount\n"
                 "/c0/eall/sall show   # a trailing comment\n")
    check(r.returncode == 0, "a good script exits 0", r.stderr)
    check(r.stderr == "", "nothing on stderr", r.stderr)
    check(r.stdout.count("Status = Success") == 3, "three commands ran", r.stdout)
    check("Controller Count = 1" in r.stdout, "show ctrlcount ran", r.stdout)
    check(re.search(r"^252:1 ", r.stdout, re.M), "the drive list ran", r.stdout)
    want = fx.run_args("/c0", "show").stdout + fx.run_args("show", "ctrlcount").stdout + \
        fx.run_args("/c0/eall/sall", "show").stdout
    # The clock lines differ when a second ticks between the two runs (ASan is slow).
    clock = re.compile(r"^(System|Controller) Time = .*$", re.M)
    check(clock.sub("", r.stdout) == clock.sub("", want),
          "output is that of the commands run one by one", r.stdout + "\n---\n" + want)
    check("\x1b" not in r.stdout, "no escape codes on a pipe, even with TERM=xterm")


def case_stops_at_failure(fx):
    r = fx.batch("show ctrlcount\n\n/c9 show\n" + ADD + "\n")
    check(r.returncode == 35, "exit status is the failing line's (35: not found)",
          str(r.returncode))
    check(r.stderr == "raidcli: line 3 failed (status 35); stopping\n",
          "stderr names the line (blank lines count) and status", repr(r.stderr))
    check("Controller Count = 1" in r.stdout, "lines before the failure ran", r.stdout)
    check(re.search(r"^Status = Failure$", r.stdout, re.M) and
          re.search(r"^Description = .*9.* not found$", r.stdout, re.M),
          "the Failure block is printed", r.stdout)
    check(fx.ctrl_count() == 1, "the line after the failure did not run")

    r = fx.batch("# setup\n/c0 bogus\n" + ADD + "\n")
    check(r.returncode == 1, "a parse error exits 1", str(r.returncode))
    check(r.stderr == "raidcli: line 2 failed (status 1); stopping\n",
          "parse error: line 2 (comments count)", repr(r.stderr))
    check("Status Code = 1" in r.stdout and "unknown word 'bogus'" in r.stdout,
          "parse error: Failure block", r.stdout)
    check(fx.ctrl_count() == 1, "parse error: the next line did not run")

    r = fx.batch("show 'oops\n" + ADD + "\n")
    check(r.returncode == 1, "an unterminated quote fails", str(r.returncode))
    check(re.search(r"^Status = Failure$", r.stdout, re.M) and
          re.search(r"^Description = unterminated ' quote", r.stdout, re.M),
          "unterminated quote: Failure block on stdout", r.stdout)
    check(r.stderr == "raidcli: line 1 failed (status 1); stopping\n",
          "unterminated quote: stderr", repr(r.stderr))
    check(fx.ctrl_count() == 1, "unterminated quote: the next line did not run")

    # No current object in batch mode: a path alone is an incomplete command.
    r = fx.batch("/c0\n" + ADD + "\n")
    check(r.returncode == 1 and "incomplete command" in r.stdout,
          "a path alone fails in batch mode", r.stdout)
    check(fx.ctrl_count() == 1, "path alone: the next line did not run")

    # A command that parses but fails when it runs.
    r = fx.batch("/c0 show J\n/c0/e252/s9 delete\n" + ADD + "\n")
    check(r.returncode == 35 and "no drive at /c0/e252/s9" in r.stdout,
          "a failing change stops the run", r.stdout)
    check(r.stderr == "raidcli: line 2 failed (status 35); stopping\n",
          "failing change: stderr", repr(r.stderr))
    check(fx.ctrl_count() == 1, "failing change: the next line did not run")


def case_writes(fx):
    r = fx.batch(ADD + "\n" + ADD + "\nshow ctrlcount\n")
    check(r.returncode == 0, "a script that writes exits 0", r.stderr)
    check(re.search(r"^Controller Count = 3$", r.stdout, re.M),
          "a later line sees an earlier line's change", r.stdout)
    check(fx.ctrl_count() == 3, "the changes persist")


def case_exit_and_edges(fx):
    r = fx.batch("show ctrlcount\n  exit  \n" + ADD + "\n")
    check(r.returncode == 0 and r.stderr == "", "exit ends a script with status 0", r.stderr)
    check(fx.ctrl_count() == 1, "lines after exit do not run")
    r = fx.batch("quit\n" + ADD + "\n")
    check(r.returncode == 0 and r.stdout == "", "quit ends a script", r.stdout)
    check(fx.ctrl_count() == 1, "lines after quit do not run")

    r = fx.batch("")
    check(r.returncode == 0 and r.stdout == "" and r.stderr == "", "empty input does nothing")
    r = fx.batch("show ctrlcount")
    check(r.returncode == 0 and "Controller Count = 1" in r.stdout,
          "a last line without a newline runs", r.stdout)
    r = fx.batch("show ctrlcount\r\n/c0 show\r\n")
    check(r.returncode == 0 and r.stdout.count("Status = Success") == 2,
          "CRLF line ends are accepted", r.stdout + r.stderr)

    r = fx.batch("/c0 show J\n")
    try:
        doc = json.loads(r.stdout)
        ok = doc["Controllers"][0]["Command Status"]["Status"] == "Success"
    except (ValueError, KeyError, IndexError, TypeError):
        ok = False
    check(ok, "J in batch mode prints the JSON document", r.stdout)

    r = fx.run_args("/c0", "show")
    check(r.returncode == 0 and "Status = Success" in r.stdout and "\x1b" not in r.stdout,
          "a one-shot command to a pipe has no escape codes", repr(r.stdout[:200]))


CASES = [case_runs_every_line, case_stops_at_failure, case_writes, case_exit_and_edges]


def main():
    for case in CASES:
        fx = Fixture()
        before = len(failures)
        try:
            case(fx)
        except Exception as e:  # a crash in one case must not hide the others
            check(False, "%s raised %r" % (case.__name__, e))
        finally:
            fx.close()
        print("%s %s" % ("ok  " if len(failures) == before else "FAIL", case.__name__), flush=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
