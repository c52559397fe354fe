#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-repl.py - the interactive shell, driven through a pseudo-terminal.

Runs the raidcli named by $RAIDCLI with no arguments on a pty (pexpect) and
feeds everything it writes to a terminal emulator (pyte), so the assertions
are about what a user sees: the prompt, the edited line after TAB, the
candidate list readline prints on a second TAB, command output. Every case
gets a fresh $RAIDCLI_STATE_DIR (two soft controllers, /c0 and /c1, of four
and two drives) and a fresh $XDG_STATE_HOME for the history file.

Needs python3-pexpect and python3-pyte (scripts/setup installs both).
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

import pexpect
import pyte

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, failures, summary  # noqa: E402

TIMEOUT = 10  # seconds for anything to show up; a passing run needs far less
COLS, ROWS = 120, 40
SGR = re.compile(r"\x1b\[[0-9;]*m")
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>])")


def plain(text):
    """Terminal output as text: escape sequences, bells and CRs removed."""
    return ANSI.sub("", text).replace("\x07", "").replace("\r", "")


class Fixture:
    """A state directory with /c0 (4 drives) and /c1 (2 drives), and a home."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="raidcli-repl-")
        self.env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        self.env.update(RAIDCLI_STATE_DIR=os.path.join(self.root, "state"),
                        XDG_STATE_HOME=os.path.join(self.root, "xdg-state"),
                        HOME=os.path.join(self.root, "home"), TERM="xterm", LANG="C.UTF-8")
        os.mkdir(self.env["HOME"])
        for drives in ("4", "2"):
            subprocess.run([RAIDCLI, "add", "controller", "type=soft", "drives=" + drives,
                            "size=64MB"], env=self.env, check=True, stdout=subprocess.DEVNULL)

    def run(self, *args):
        return subprocess.run([RAIDCLI, *args], env=self.env, capture_output=True, text=True)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


class Shell:
    """raidcli on a pty; what it writes is fed to an emulated terminal."""

    def __init__(self, env, term="xterm"):
        env = dict(env, TERM=term)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.child = pexpect.spawn(RAIDCLI, [], env=env, encoding="utf-8",
                                   codec_errors="replace", dimensions=(ROWS, COLS),
                                   timeout=TIMEOUT)

    def _read(self, wait):
        try:
            data = self.child.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            return None
        self.raw += data
        self.stream.feed(data)
        return True

    def line(self):
        """The line the cursor is on, as displayed."""
        return self.screen.display[self.screen.cursor.y].rstrip()

    def shows(self, expected, at_end=True):
        """Whether the cursor line reads @expected, the cursor right after it."""
        return (self.line() == expected.rstrip() and
                (not at_end or self.screen.cursor.x == len(expected)))

    def text(self):
        return "\n".join(row.rstrip() for row in self.screen.display)

    def wait(self, cond, what):
        """Read output until @cond() holds; check that it did within TIMEOUT."""
        deadline = time.monotonic() + TIMEOUT
        while not cond():
            left = deadline - time.monotonic()
            if left <= 0 or self._read(min(left, 0.2)) is None:
                break
        # Let a beep or a redraw that follows settle.
        while self._read(0.05):
            pass
        return check(cond(), what, "screen:\n" + self.text())

    def wait_line(self, expected, what, at_end=True):
        return self.wait(lambda: self.shows(expected, at_end),
                         "%s: line reads %r" % (what, expected))

    def send(self, keys):
        self.child.send(keys)

    def run(self, command, prompt, what=None):
        """Type @command and Enter; return its output once @prompt is back."""
        start = len(self.raw)
        self.send(command + "\r")
        self.wait(lambda: len(self.raw) > start + len(command) + 1 and self.shows(prompt),
                  (what or command) + ": prompt %r comes back" % prompt)
        out = self.raw[start:]
        return out[:out.rfind(prompt)] if prompt in out else out

    def clear_line(self, prompt):
        self.send("\x15")  # Ctrl-U: kill the line
        self.wait_line(prompt, "Ctrl-U clears the line")

    def finish(self):
        """Wait for the process to end; return its exit status."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and self._read(0.2) is not None:
            pass
        self.child.close()
        return self.child.exitstatus

    def kill(self):
        if self.child.isalive():
            self.child.close(force=True)


def case_banner_help_exit(fx):
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "first prompt")
    check(re.search(r"^raidcli \S+ interactive shell\. Type 'help' for commands, 'exit' to leave\.$",
                    sh.text(), re.M), "banner", sh.text())
    out = plain(sh.run("help", "raidcli> "))
    check("Usage: raidcli [object] verb" in out, "help prints the usage", out)
    check("raidcli add controller type=soft" in out, "help lists system commands", out)
    out = plain(sh.run("/c0", "raidcli /c0> "))
    out = plain(sh.run("help", "raidcli /c0> "))
    check("raidcli /cx show" in out and "raidcli add controller" not in out,
          "help at /c0 lists controller commands", out)
    sh.send("exit\r")
    check(sh.finish() == 0, "exit ends the shell with status 0")

    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    sh.send("  quit  \r")
    check(sh.finish() == 0, "quit (with blanks around it) ends the shell")

    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    sh.send("\x04")
    check(sh.finish() == 0, "Ctrl-D on an empty line ends the shell")
    check(sh.raw.endswith("\n"), "Ctrl-D leaves the terminal on a new line", repr(sh.raw[-20:]))


def case_current_object(fx):
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    out = plain(sh.run("/c0", "raidcli /c0> "))
    check(out.strip() == "/c0", "a path alone prints nothing", repr(out))
    out = plain(sh.run("show", "raidcli /c0> "))
    check("Controller = 0" in out and "Status = Success" in out and "Physical Drives = 4" in out,
          "show at /c0 is /c0 show", out)
    # The shell runs a relative path below the current controller; the
    # output must be what the absolute command prints.
    out = plain(sh.run("/eall/sall show", "raidcli /c0> "))
    want = fx.run("/c0/eall/sall", "show").stdout
    check(out.split("\n", 1)[1].strip() == want.strip(),
          "/eall/sall show at /c0 is /c0/eall/sall show", out + "\n---\n" + want)
    out = plain(sh.run("/c1", "raidcli /c1> "))
    out = plain(sh.run("show", "raidcli /c1> "))
    check("Controller = 1" in out and "Physical Drives = 2" in out, "show at /c1", out)
    # An enclosure as current object; a slot is taken below it.
    sh.run("/C0/E252", "raidcli /c0/e252> ", "an upper-case path is normalized")
    out = plain(sh.run("/s1 show", "raidcli /c0/e252> "))
    check(re.search(r"^252:1 ", out, re.M) and not re.search(r"^252:0 ", out, re.M),
          "/s1 show at /c0/e252 shows slot 1 only", out)
    sh.run("/s3", "raidcli /c0/e252/s3> ", "a slot below the current enclosure")
    out = plain(sh.run("show", "raidcli /c0/e252/s3> "))
    check(re.search(r"^252:3 ", out, re.M), "show at /c0/e252/s3", out)
    # "/ cmd" runs one command at the system level, "/" goes there.
    out = plain(sh.run("/ show ctrlcount", "raidcli /c0/e252/s3> "))
    check("Controller Count = 2" in out, "/ show ctrlcount keeps the current object", out)
    sh.run("/", "raidcli> ", "/ returns to the system level")
    out = plain(sh.run("show", "raidcli> "))
    check("Status = Success" in out and re.search(r"^\s*0 ", out, re.M) and
          re.search(r"^\s*1 ", out, re.M), "show at the system level lists both controllers", out)
    # A path that does not exist or does not parse leaves the prompt alone.
    out = plain(sh.run("/c9", "raidcli> "))
    check("raidcli: controller '/c9' not found; 'show' lists the controllers" in out,
          "a missing controller is refused", out)
    sh.run("/c0", "raidcli /c0> ")
    out = plain(sh.run("/x1", "raidcli /c0> "))
    check("unknown object '/x1'" in out, "a bad path is refused and the prompt kept", out)
    sh.send("\x04")
    sh.finish()


def case_errors(fx):
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    out = plain(sh.run("bogus", "raidcli> "))
    check(re.search(r"^Status = Failure$", out, re.M) and "Status Code = 1" in out and
          re.search(r"^Description = unknown word 'bogus'", out, re.M),
          "an error prints the Failure block", out)
    out = plain(sh.run("/c0 show all extra=1", "raidcli> "))
    check("Status = Failure" in out and "unknown option 'extra='" in out,
          "an unknown option prints the Failure block", out)
    out = plain(sh.run("show 'oops", "raidcli> "))
    check("unterminated ' quote" in out, "an unterminated quote is reported", out)
    out = plain(sh.run("show ctrlcount", "raidcli> "))
    check("Controller Count = 2" in out and "Status = Success" in out,
          "the shell goes on after errors", out)
    out = plain(sh.run("   ", "raidcli> "))
    check("Status" not in out, "a blank line runs nothing", out)
    sh.run("/c9 show", "raidcli> ")
    sh.send("\x04")
    # The shell's status is that of the last command, as in sh.
    check(sh.finish() == 35, "exit status is the last command's (35: not found)")


def case_ctrl_c(fx):
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    sh.send("/c0 sh")
    sh.wait_line("raidcli> /c0 sh", "typed text shows")
    sh.send("\x03")
    sh.wait_line("raidcli> ", "Ctrl-C drops the line and prompts again")
    check(sh.child.isalive(), "Ctrl-C does not end the shell")
    out = plain(sh.run("show ctrlcount", "raidcli> "))
    check("Controller Count = 2" in out, "the shell works after Ctrl-C", out)
    sh.send("exit\r")
    check(sh.finish() == 0, "exit after Ctrl-C")


def case_complete(fx):
    sh = Shell(fx.env)
    p = "raidcli> "
    sh.wait_line(p, "prompt")

    # Several candidates: the first TAB completes the common part, the
    # second lists them under the line and redraws it.
    sh.send("/c\t")
    sh.wait_line(p + "/c", "/c<TAB> keeps the common part")
    sh.send("\t")
    sh.wait(lambda: re.search(r"^/c0 +/c1 +/call\s*$", sh.text(), re.M),
            "/c<TAB><TAB> lists /c0 /c1 /call")
    sh.wait_line(p + "/c", "the line is redrawn after the list")
    sh.send("0/e252/s\t\t")
    sh.wait(lambda: re.search(r"^/c0/e252/s0 +/c0/e252/s1 +/c0/e252/s2 +/c0/e252/s3 +"
                              r"/c0/e252/sall\s*$", sh.text(), re.M),
            "/c0/e252/s<TAB><TAB> lists the real slots")
    sh.send("1\t")
    sh.wait_line(p + "/c0/e252/s1 ", "a unique slot completes with a space")
    sh.clear_line(p)

    # Verbs, second verb words, options, enum values, J and nolog.
    sh.send("/c0 sh\t")
    sh.wait_line(p + "/c0 show ", "/c0 sh<TAB> -> show")
    sh.send("al\t")
    sh.wait_line(p + "/c0 show all ", "show al<TAB> -> all")
    sh.send("\t\t")
    sh.wait(lambda: re.search(r"^J +nolog\s*$", sh.text(), re.M),
            "show all <TAB><TAB> offers J and nolog")
    sh.clear_line(p)
    sh.send("/c0 del \t\t")
    sh.wait(lambda: re.search(r"^config +delete= +events +force +J +nolog\s*$", sh.text(), re.M),
            "/c0 del <TAB><TAB> offers the options, J and nolog")
    sh.clear_line(p)
    sh.send("add controller ty\t")
    sh.wait_line(p + "add controller type=", "ty<TAB> -> type= with no space after '='")
    sh.send("s\t")
    sh.wait_line(p + "add controller type=soft ", "type=s<TAB> -> type=soft")
    sh.send("se\t")
    sh.wait_line(p + "add controller type=soft sectorsize=", "se<TAB> -> sectorsize=")
    sh.send("\t\t")
    sh.wait(lambda: re.search(r"^sectorsize=4096 +sectorsize=512\s*$", sh.text(), re.M),
            "sectorsize=<TAB><TAB> lists 512 and 4096")
    sh.send("4\t")
    sh.wait_line(p + "add controller type=soft sectorsize=4096 ", "sectorsize=4<TAB> -> 4096")
    sh.send("\t\t")
    # The candidates fill as many lines as the terminal's width needs.
    want = {"dir=", "drives=", "J", "nolog", "size="}
    sh.wait(lambda: any(want == set(part.split())
                        for part in sh.text().split(p + "add controller type=soft sectorsize=4096")),
            "options already given, and other types' options, are not offered")
    sh.clear_line(p)
    sh.send("add controller type=redfish \t\t")
    want = {"cafile=", "credfile=", "host=", "hostsfile=", "insecure", "J", "nolog",
            "passenv=", "timeout=", "user="}
    sh.wait(lambda: any(want == set(part.split())
                        for part in sh.text().split(p + "add controller type=redfish")),
            "type=redfish <TAB><TAB> offers only redfish's options")
    sh.clear_line(p)

    # A completed line runs.
    sh.send("show ctr\t")
    sh.wait_line(p + "show ctrlcount ", "show ctr<TAB> -> ctrlcount")
    out = plain(sh.run("", p))
    check("Controller Count = 2" in out, "the completed line runs", out)

    # Relative to the current object.
    p = "raidcli /c0> "
    sh.run("/c0", p)
    sh.send("sh\t")
    sh.wait_line(p + "show ", "sh<TAB> at /c0 -> show")
    sh.send("\t\t")
    words = ("all", "autorebuild", "bgirate", "bootdrive", "cc", "ccrate", "eventloginfo",
             "events", "foreignautoimport", "freespace", "J", "jbod", "nolog", "patrolread",
             "prrate", "rebuildpriority", "rebuildrate", "reconrate", "service", "time")
    sh.wait(lambda: set(re.findall(r"\S+", sh.text())) >= set(words),
            "show <TAB><TAB> at /c0 offers the controller's words")
    sh.clear_line(p)
    sh.send("/e\t\t")
    sh.wait(lambda: re.search(r"^/e252 +/eall\s*$", sh.text(), re.M),
            "/e<TAB><TAB> at /c0 offers the enclosures below it")
    sh.send("252/s\t\t")
    sh.wait(lambda: re.search(r"^/e252/s0 +/e252/s1 +/e252/s2 +/e252/s3 +/e252/sall\s*$",
                              sh.text(), re.M), "/e252/s<TAB><TAB> at /c0 offers its slots")
    sh.clear_line(p)
    sh.send("/\t\t")
    sh.wait(lambda: "/c1" in sh.text() and "/vall" in sh.text() and "/s3" in sh.text(),
            "a lone / at /c0 offers absolute and relative paths")
    sh.clear_line(p)
    sh.send("/c1 sh\t")
    sh.wait_line(p + "/c1 show ", "an absolute path completes at /c0")
    sh.clear_line(p)
    sh.send("/ show ctr\t")
    sh.wait_line(p + "/ show ctrlcount ", "'/ ' completes at the system level")
    sh.clear_line(p)
    sh.send("\x04")
    sh.finish()


def case_history(fx):
    hist = os.path.join(fx.env["XDG_STATE_HOME"], "raidcli", "history")
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    sh.run("show ctrlcount", "raidcli> ")
    sh.run("/c1", "raidcli /c1> ")
    sh.send("\x1b[A")  # Up: the previous command, in this session
    sh.wait_line("raidcli /c1> /c1", "Up recalls the previous line")
    sh.send("\x1b[A")
    sh.wait_line("raidcli /c1> show ctrlcount", "Up again recalls the one before")
    sh.clear_line("raidcli /c1> ")
    sh.send("\x04")
    sh.finish()
    check(os.path.isfile(hist), "history is saved in $XDG_STATE_HOME/raidcli/history")
    if os.path.isfile(hist):
        check(stat.S_IMODE(os.stat(hist).st_mode) == 0o600, "the history file is private (0600)")

    # A new session recalls the last one's lines.
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    sh.send("\x1b[A")
    sh.wait_line("raidcli> /c1", "Up in a new session recalls the last command")
    sh.send("\x1b[A")
    sh.wait_line("raidcli> show ctrlcount", "and the one before it")
    out = plain(sh.run("", "raidcli> "))
    check("Controller Count = 2" in out, "a recalled line runs", out)
    sh.send("\x04")
    sh.finish()

    # Without XDG_STATE_HOME, ~/.local/state/raidcli/history.
    env = dict(fx.env)
    del env["XDG_STATE_HOME"]
    sh = Shell(env)
    sh.wait_line("raidcli> ", "prompt")
    sh.run("version", "raidcli> ")
    sh.send("\x04")
    sh.finish()
    check(os.path.isfile(os.path.join(env["HOME"], ".local", "state", "raidcli", "history")),
          "history falls back to ~/.local/state/raidcli/history")


def case_color(fx):
    sh = Shell(fx.env)
    sh.wait_line("raidcli> ", "prompt")
    out = sh.run("show ctrlcount", "raidcli> ")
    check("Status = \x1b[32mSuccess\x1b[0m" in out, "the Status line is green on a terminal",
          repr(out))
    check(len(SGR.findall(out)) == 2, "color only on the Status line", repr(out))
    sh.send("\x04")
    sh.finish()

    for name, env, term in (("NO_COLOR set", dict(fx.env, NO_COLOR="1"), "xterm"),
                            ("TERM=dumb", fx.env, "dumb")):
        sh = Shell(env, term)
        sh.wait_line("raidcli> ", "prompt with " + name)
        out = sh.run("show ctrlcount", "raidcli> ")
        check("Status = Success" in out and not SGR.search(out), "no color with " + name,
              repr(out))
        out = sh.run("bogus", "raidcli> ")
        check("Status = Failure" in out and not SGR.search(out), "no color on Failure with " + name,
              repr(out))
        sh.send("/c0 sh\t")
        sh.wait_line("raidcli> /c0 show ", "completion works with " + name)
        sh.clear_line("raidcli> ")
        sh.send("\x04")
        check(sh.finish() == 1, "shell ends with " + name)


BAR = re.compile(r"\r\[[#.]{30}\] +(\d+)%  ")


def spawn(fx, *args):
    """raidcli @args (not the shell) on a pty, fed to an emulated terminal."""
    sh = Shell.__new__(Shell)
    sh.screen = pyte.Screen(COLS, ROWS)
    sh.stream = pyte.Stream(sh.screen)
    sh.raw = ""
    sh.child = pexpect.spawn(RAIDCLI, list(args), env=fx.env, encoding="utf-8",
                             codec_errors="replace", dimensions=(ROWS, COLS), timeout=TIMEOUT)
    return sh


def case_wait_progress_bar(fx):
    """start cc wait on a terminal: a bar with the percent is redrawn in place
    until the check ends, then the last show cc; on a pipe, only the result;
    Ctrl-C stops the waiting, not the check."""
    try:
        fx.run("/c0", "add", "vd", "r5", "drives=252:0-2")
        fx.run("/c0", "set", "ccrate=1")
        r = fx.run("/c0/v0", "start", "init", "full", "force", "wait")
        check(r.returncode == 0 and "Not in progress" in r.stdout and "\r" not in r.stdout,
              "start init wait on a pipe: only the final show init", r.stdout + r.stderr)
        sh = spawn(fx, "/c0/v0", "start", "cc", "wait")
        sh.wait(lambda: len(BAR.findall(sh.raw)) >= 2, "the bar is drawn, then redrawn")
        bar = sh.line()
        check(re.match(r"\[[#.]{30}\] +\d+%  .*\(cc\)$", bar), "the bar line: percent, task",
              bar)
        # Seen twice at the slowest rate: now let the check run to its end.
        fx.run("/c0", "set", "ccrate=100")
        check(sh.finish() == 0, "start cc wait ends, status 0, when the check ends")
        percents = [int(p) for p in BAR.findall(sh.raw)]
        check(percents == sorted(percents) and percents[-1] > 0,
              "the percent grows as the check goes", str(percents))
        screen = sh.text()
        check("VD Operation Status" in screen and "Not in progress" in screen and
              not re.search(r"\[[#.]{30}\]", screen),
              "the bar is gone; the last show cc is printed", screen)
        fx.run("/c0", "set", "ccrate=1")
        fx.run("/c0/v0", "start", "cc")
        r = subprocess.run([RAIDCLI, "/c0/v0", "show", "cc", "wait", "J"], env=fx.env,
                           capture_output=True, text=True, timeout=2)
        check(False, "show cc wait on a pipe returned while the check runs", r.stdout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        check(out in (b"", None), "on a pipe nothing is printed while waiting", repr(out))
    try:
        sh = spawn(fx, "/c0/v0", "show", "cc", "wait")
        sh.wait(lambda: BAR.search(sh.raw), "show cc wait draws the bar of a running check")
        sh.send("\x03")
        check(sh.finish() == 0, "Ctrl-C ends the waiting, status 0")
        check("stopped waiting; the cc goes on" in sh.raw, "and says the check goes on", sh.raw)
        r = fx.run("/c0/v0", "show", "cc")
        check("In progress" in r.stdout, "the check still runs after Ctrl-C", r.stdout)
    finally:
        fx.run("/c0", "stop", "service")


CASES = [case_banner_help_exit, case_current_object, case_errors, case_ctrl_c, case_complete,
         case_history, case_color, case_wait_progress_bar]


def main():
    only = sys.argv[1:]
    for case in CASES:
        if only and case.__name__ not in only:
            continue
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
