#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-completion.py - the generated bash, zsh and fish completion scripts.

Usage: test-completion.py BASH_SCRIPT ZSH_SCRIPT FISH_SCRIPT (the files the
build generates with "raidcli __completion SHELL"; $RAIDCLI is the binary).

Against a fresh $RAIDCLI_STATE_DIR holding /c0 (four drives) and /c1 (two):
- each file is what the binary prints now, and passes its shell's syntax
  check (bash -n, zsh -n, fish -n);
- bash: _raidcli is called with COMP_LINE, COMP_POINT, COMP_WORDS and
  COMP_CWORD set as bash sets them (split at COMP_WORDBREAKS, so "type=so"
  is three words), and COMPREPLY is compared;
- bash and zsh: a real interactive shell on a pty (pexpect), its screen
  emulated (pyte), gets "raidcli /c0 sh<TAB>" and the like typed, and the
  edited line and the candidate lists are checked as a user would see them;
- fish: "complete -C" with the file found through fish_complete_path.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import pexpect
import pyte

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, failures, summary  # noqa: E402

TIMEOUT = 10
COLS, ROWS = 120, 30
BREAKS = " \t\n\"'@><=;|&(:"  # bash's default COMP_WORDBREAKS


def bash_words(line, point, breaks=BREAKS):
    """COMP_WORDS and COMP_CWORD for @line with the cursor at @point, as bash splits them."""
    words, cword, i = [], None, 0
    cur = None  # index in words of the word being built
    while i < len(line):
        c = line[i]
        if i == point and cword is None:
            cword = len(words) - 1 if cur is not None else len(words)
        if c in " \t\n":
            cur = None
        elif c in breaks:
            # A run of break characters is a word of its own.
            if cur is None or not all(ch in breaks for ch in words[cur]):
                words.append("")
                cur = len(words) - 1
            words[cur] += c
        else:
            if cur is None or all(ch in breaks for ch in words[cur]):
                words.append("")
                cur = len(words) - 1
            words[cur] += c
        i += 1
    if cword is None:
        if cur is None:
            words.append("")
        cword = len(words) - 1
    return words, cword


class Terminal:
    """A program on a pty whose output is fed to an emulated screen."""

    def __init__(self, argv, env):
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.child = pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8",
                                   codec_errors="replace", dimensions=(ROWS, COLS),
                                   timeout=TIMEOUT)

    def _read(self, wait):
        try:
            self.stream.feed(self.child.read_nonblocking(65536, timeout=wait))
            return True
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            return None

    def line(self):
        return self.screen.display[self.screen.cursor.y].rstrip()

    def text(self):
        return "\n".join(row.rstrip() for row in self.screen.display)

    def shows(self, expected):
        return self.line() == expected.rstrip() and self.screen.cursor.x == len(expected)

    def wait(self, cond, what):
        deadline = time.monotonic() + TIMEOUT
        while not cond():
            left = deadline - time.monotonic()
            if left <= 0 or self._read(min(left, 0.2)) is None:
                break
        while self._read(0.05):
            pass
        return check(cond(), what, "screen:\n" + self.text())

    def wait_line(self, expected, what):
        return self.wait(lambda: self.shows(expected), "%s: line reads %r" % (what, expected))

    def wait_list(self, pattern, what):
        return self.wait(lambda: re.search(pattern, self.text(), re.M), what + " (list)")

    def send(self, keys):
        self.child.send(keys)

    def close(self):
        self.child.close(force=True)


def case_generated(scripts, env):
    for shell, path in scripts.items():
        r = subprocess.run([RAIDCLI, "__completion", shell], env=env, capture_output=True,
                           text=True)
        with open(path) as f:
            check(f.read() == r.stdout and r.stdout, "%s: %s is what the binary prints now"
                  % (shell, os.path.basename(path)))
        r = subprocess.run([shell, "-n", path], env=env, capture_output=True, text=True)
        check(r.returncode == 0 and not r.stderr, "%s -n %s" % (shell, path), r.stderr)


BASH_CASES = [
    # (line, cursor or None for the end, COMPREPLY sorted)
    ("raidcli /c", None, ["/c0", "/c1", "/call"]),
    ("raidcli /c0/e252/s", None,
     ["/c0/e252/s0", "/c0/e252/s1", "/c0/e252/s2", "/c0/e252/s3", "/c0/e252/sall"]),
    ("raidcli /c0/", None, ["/c0/dall", "/c0/e252", "/c0/eall", "/c0/fall", "/c0/s0", "/c0/s1",
                            "/c0/s2", "/c0/s3", "/c0/sall", "/c0/vall"]),
    ("raidcli /c0 /e", None, ["/e252", "/eall"]),
    ("raidcli /c0 sh", None, ["show"]),
    ("raidcli /c0 show a", None, ["all", "autorebuild"]),
    ("raidcli /c0 show ", None, ["J", "all", "autorebuild", "bgirate", "bootdrive", "cc", "ccrate",
                                  "eventloginfo", "events", "foreignautoimport", "freespace",
                                  "jbod", "metrics", "nolog", "patrolread", "prrate",
                                  "rebuildpriority", "rebuildrate", "reconrate", "service",
                                  "time"]),
    ("raidcli /c0 show J ", None, ["all", "autorebuild", "bgirate", "bootdrive", "cc", "ccrate",
                                    "eventloginfo", "events", "foreignautoimport", "freespace",
                                    "jbod", "metrics", "nolog", "patrolread", "prrate",
                                    "rebuildpriority", "rebuildrate", "reconrate", "service",
                                    "time"]),
    # A drive's own actions (format, download, namespaces, telemetry) are
    # offered where the caps say the drives do them: not on a soft one; nor
    # insert, a card's (inserts_drives), which a soft controller refuses.
    ("raidcli /c0/e252/s0 ", None, ["add", "delete", "help", "pause", "resume", "set",
                                  "show", "start", "stop"]),
    ("raidcli show ", None, ["J", "all", "ctrlcount", "metrics", "nolog"]),
    ("raidcli ", None, ["/c0", "/c1", "/call", "add", "help", "show", "version"]),
    ("raidcli add controller ty", None, ["type="]),
    ("raidcli add controller type=", None, ["mock", "redfish", "soft"]),
    ("raidcli /c0 set patrolread ", None, ["J", "delay=", "excludevd=", "includessds=",
                                           "maxconcurrentpd=", "nolog", "starttime=",
                                           "uncfgareas="]),
    ("raidcli /c0 set pr includessds=", None, ["off", "on", "onlymixed"]),
    # StorCLI's one-command form: the patrol read settings after patrolread=on mode=.
    ("raidcli /c0 set patrolread=on mode=auto ", None,
     ["J", "bgirate=", "ccrate=", "delay=", "excludevd=", "includessds=", "jbod=",
      "maxconcurrentpd=", "nolog", "prrate=", "rebuildpriority=", "rebuildrate=", "reconrate=",
      "starttime=", "uncfgareas="]),
    ("raidcli /c0 set patrolread=on mode=auto uncfgareas=", None, ["off", "on"]),
    ("raidcli /c0 set pa", None, ["patrolread", "patrolread="]),
    ("raidcli /c0 set cc ", None, ["J", "cc=", "delay=", "excludevd=", "nolog", "starttime="]),
    ("raidcli /c0 set cc cc=", None, ["conc", "off", "seq"]),
    ("raidcli add controller type=so", None, ["soft"]),
    ("raidcli add controller sectorsize=", None, ["4096", "512"]),
    ("raidcli add controller sectorsize=40", None, ["4096"]),
    # Only the options of the type= given; before it, every type's.
    ("raidcli add controller type=soft ", None,
     ["J", "dir=", "drives=", "nolog", "sectorsize=", "size="]),
    ("raidcli add controller type=mock ", None, ["J", "fixture=", "nolog"]),
    ("raidcli add controller type=redfish user=root ", None,
     ["J", "cafile=", "credfile=", "host=", "hostsfile=", "insecure", "nolog", "passenv=",
      "timeout="]),
    ("raidcli add controller ", None,
     ["J", "cafile=", "credfile=", "dir=", "drives=", "fixture=", "host=", "hostsfile=",
      "insecure", "nolog", "passenv=", "sectorsize=", "size=", "timeout=", "type=", "user="]),
    ("raidcli /c0 del ", None, ["J", "config", "delete=", "events", "force", "nolog"]),
    ("raidcli /c0 delete delete=", None, ["files"]),
    ("raidcli /c0 sh all", len("raidcli /c0 sh"), ["show"]),
    ("raidcli /c0 bogus ", None, []),
    ("raidcli", None, []),
]


def case_bash_function(script, env):
    """Call _raidcli the way bash's programmable completion does."""
    prog = ["source " + shlex.quote(script)]
    runs = []
    for line, point, want in BASH_CASES:
        runs.append((line, point, None, want))
    # Someone who took '=' out of COMP_WORDBREAKS gets whole words back.
    runs.append(("raidcli add controller type=s", None, BREAKS.replace("=", ""), ["type=soft"]))
    # The command word may be a path; it is the binary run for candidates.
    runs.append((RAIDCLI + " /c0 sh", None, None, ["show"]))
    for n, (line, point, breaks, want) in enumerate(runs):
        point = len(line) if point is None else point
        words, cword = bash_words(line, point, breaks or BREAKS)
        if breaks:
            prog.append("COMP_WORDBREAKS=%s" % shlex.quote(breaks))
        prog.append("COMP_LINE=%s COMP_POINT=%d COMP_WORDS=(%s) COMP_CWORD=%d COMPREPLY=()"
                    % (shlex.quote(line), point, " ".join(shlex.quote(w) for w in words), cword))
        prog.append("_raidcli raidcli %s %s" % (shlex.quote(words[cword]),
                                                 shlex.quote(words[cword - 1] if cword else "")))
        prog.append("printf '%%s\\n' '@@%d' \"${COMPREPLY[@]}\"" % n)
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(prog)], env=env,
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, "bash: the cases ran", r.stderr)
    got = {}
    for block in r.stdout.split("@@")[1:]:
        n, *reply = block.rstrip("\n").split("\n")
        got[int(n)] = sorted(reply)
    for n, (line, point, breaks, want) in enumerate(runs):
        what = "bash: %r%s%s" % (line, "" if point is None else " (cursor at %d)" % point,
                                 " without '=' in COMP_WORDBREAKS" if breaks else "")
        check(got.get(n) == sorted(want), what, "COMPREPLY %r, want %r" % (got.get(n), want))
    check(bash_words("raidcli add controller type=so", 30)[0][-3:] == ["type", "=", "so"],
          "the test splits words as bash does")


def case_bash_pty(script, env):
    """A real interactive bash: source the script, type, press TAB."""
    t = Terminal(["bash", "--norc", "--noprofile", "-i"], dict(env, INPUTRC="/dev/null"))
    p = "bash$ "
    try:
        t.send("PS1=%s; source %s\r" % (shlex.quote(p), shlex.quote(script)))
        t.wait_line(p, "bash: prompt")
        t.send("raidcli /c0 sh\t")
        t.wait_line(p + "raidcli /c0 show ", "bash: /c0 sh<TAB>")
        t.send("\x15raidcli show ctr\t")
        t.wait_line(p + "raidcli show ctrlcount ", "bash: show ctr<TAB>")
        t.send("\r")
        t.wait(lambda: "Controller Count = 2" in t.text() and t.shows(p),
               "bash: the completed command ran")
        t.send("raidcli add controller ty\t")
        t.wait_line(p + "raidcli add controller type=", "bash: ty<TAB> (no space after '=')")
        t.send("s\t")
        t.wait_line(p + "raidcli add controller type=soft ", "bash: type=s<TAB>")
        t.send("sectorsize=\t\t")
        t.wait_list(r"^4096 +512\s*$", "bash: sectorsize=<TAB><TAB>")
        t.wait_line(p + "raidcli add controller type=soft sectorsize=", "bash: line kept")
        t.send("5\t")
        t.wait_line(p + "raidcli add controller type=soft sectorsize=512 ",
                    "bash: sectorsize=5<TAB>")
        t.send("\x15clear\r")
        t.wait_line(p, "bash: clear")
        t.send("raidcli /c\t\t")
        t.wait_list(r"^/c0 +/c1 +/call\s*$", "bash: /c<TAB><TAB>")
        t.send("0/e252/s\t\t")
        t.wait_list(r"^/c0/e252/s0 +/c0/e252/s1 +/c0/e252/s2 +/c0/e252/s3 +/c0/e252/sall\s*$",
                    "bash: /c0/e252/s<TAB><TAB>")
        t.send("\x15exit\r")
        t.wait(lambda: not t.child.isalive() or t._read(0.2) is None, "bash: exits")
    finally:
        t.close()


def case_zsh_pty(script, env, home):
    """A real zsh with compinit, the generated _raidcli found through fpath."""
    t = Terminal(["zsh", "-f", "-i"], dict(env, ZDOTDIR=home))
    p = "zsh$ "
    try:
        t.send("PS1=%s; unsetopt PROMPT_SP BEEP; fpath=(%s $fpath); autoload -Uz compinit; "
               "compinit -u -D\r" % (shlex.quote(p), shlex.quote(os.path.dirname(script))))
        t.wait_line(p, "zsh: prompt")
        t.send("raidcli /c0 sh\t")
        t.wait_line(p + "raidcli /c0 show ", "zsh: /c0 sh<TAB>")
        t.send("\x15raidcli add controller ty\t")
        t.wait_line(p + "raidcli add controller type=", "zsh: ty<TAB> (no space after '=')")
        t.send("s\t")
        t.wait_line(p + "raidcli add controller type=soft ", "zsh: type=s<TAB>")
        t.send("sectorsize=\t")
        t.wait_list(r"^sectorsize=4096 +sectorsize=512\s*$", "zsh: sectorsize=<TAB>")
        t.send("\x15raidcli /c\t")
        t.wait_list(r"^/c0 +/c1 +/call\s*$", "zsh: /c<TAB>")
        t.send("\x15raidcli /c0 /e\t")
        t.wait_list(r"^/e252 +/eall\s*$", "zsh: /c0 /e<TAB>")
        t.send("\x15exit\r")
        t.wait(lambda: not t.child.isalive() or t._read(0.2) is None, "zsh: exits")
    finally:
        t.close()


FISH_CASES = [
    ("raidcli /c0 sh", ["show"]),
    ("raidcli /c", ["/c0", "/c1", "/call"]),
    ("raidcli /c0/e252/s", ["/c0/e252/s0", "/c0/e252/s1", "/c0/e252/s2", "/c0/e252/s3",
                            "/c0/e252/sall"]),
    ("raidcli /c0 /e", ["/e252", "/eall"]),
    ("raidcli show a", ["all"]),
    ("raidcli add controller ty", ["type="]),
    ("raidcli add controller type=", ["type=mock", "type=redfish", "type=soft"]),
    ("raidcli add controller sectorsize=", ["sectorsize=4096", "sectorsize=512"]),
    ("raidcli /c0 show ", ["J", "all", "autorebuild", "bgirate", "bootdrive", "cc", "ccrate",
                           "eventloginfo", "events", "foreignautoimport", "freespace", "jbod",
                           "metrics", "nolog", "patrolread", "prrate", "rebuildpriority",
                           "rebuildrate", "reconrate", "service", "time"]),
]


def case_fish(script, env, home):
    """fish finds the file through fish_complete_path, as once installed."""
    prog = ["set -p fish_complete_path %s" % shlex.quote(os.path.dirname(script))]
    for n, (line, want) in enumerate(FISH_CASES):
        prog.append("echo @@%d; complete -C %s" % (n, shlex.quote(line)))
    fenv = dict(env, XDG_CONFIG_HOME=os.path.join(home, "config"),
                XDG_DATA_HOME=os.path.join(home, "data"), XDG_CACHE_HOME=os.path.join(home, "cache"))
    r = subprocess.run(["fish", "--no-config", "-c", "; ".join(prog)], env=fenv,
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, "fish: the cases ran", r.stderr)
    got = {}
    for block in r.stdout.split("@@")[1:]:
        n, *reply = block.rstrip("\n").split("\n")
        got[int(n)] = sorted(w.split("\t")[0] for w in reply)
    for n, (line, want) in enumerate(FISH_CASES):
        check(got.get(n) == sorted(want), "fish: %r" % line, "got %r, want %r" % (got.get(n), want))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: test-completion.py BASH_SCRIPT ZSH_SCRIPT FISH_SCRIPT")
    scripts = dict(zip(("bash", "zsh", "fish"), (os.path.abspath(a) for a in sys.argv[1:])))
    root = tempfile.mkdtemp(prefix="raidcli-completion-")
    home = os.path.join(root, "home")
    os.mkdir(home)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BASH_FUNC_", "COMP"))}
    env.update(RAIDCLI_STATE_DIR=os.path.join(root, "state"), HOME=home, TERM="xterm",
               LANG="C.UTF-8", PATH=os.path.dirname(os.path.abspath(RAIDCLI)) + ":" +
               env.get("PATH", "/usr/bin:/bin"))
    cases = [("generated", lambda: case_generated(scripts, env)),
             ("bash-function", lambda: case_bash_function(scripts["bash"], env)),
             ("bash-pty", lambda: case_bash_pty(scripts["bash"], env)),
             ("zsh-pty", lambda: case_zsh_pty(scripts["zsh"], env, home)),
             ("fish", lambda: case_fish(scripts["fish"], env, home))]
    try:
        for drives in ("4", "2"):
            subprocess.run([RAIDCLI, "add", "controller", "type=soft", "drives=" + drives,
                            "size=64MB"], env=env, check=True, stdout=subprocess.DEVNULL)
        for name, run in cases:
            before = len(failures)
            try:
                run()
            except Exception as e:  # a crash in one case must not hide the others
                check(False, "%s raised %r" % (name, e))
            print("%s %s" % ("ok  " if len(failures) == before else "FAIL", name), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
