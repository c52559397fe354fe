#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-prompt.py - a BMC password asked on the terminal, against service.py.

"add controller type=redfish" with neither credfile= nor passenv= asks for
the password on the terminal. build/cli/raidcli ($RAIDCLI) runs on a real
pseudo-terminal (python's pty module, the test holding both ends) and the
test types at it as a person would: the question appears, what is typed is
not echoed and the terminal's echo is back afterwards (after Ctrl-C too),
the command works, a one-shot command asks each time while the shell asks
once per session (again after a mistyped answer), and the password is in
no command line, output, state file or event log. Without a terminal the
command fails, naming the options that need none.

    RAIDCLI=build/cli/raidcli tests/redfish/test-prompt.py
"""
import fcntl
import importlib.util
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(HERE, "..", "server"))
from rcltest import RAIDCLI, check, summary  # noqa: E402

# How long anything may take to show up: a hang guard, not a measurement.
PATIENCE = 60

service_spec = importlib.util.spec_from_file_location(
    "test_service", os.path.join(HERE, "test-service.py"))
test_service = importlib.util.module_from_spec(service_spec)
service_spec.loader.exec_module(test_service)
test_service.load_trees()
SECRET = test_service.PASSWORDS["idrac"]


def take_terminal():
    """In the child: make the pty on fd 0 the controlling terminal of its new session."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Tty:
    """raidcli @words on a new pty whose both ends the test keeps open."""

    def __init__(self, env, *words):
        self.master, self.slave = os.openpty()
        self.proc = subprocess.Popen([RAIDCLI, *words], env=env, stdin=self.slave,
                                     stdout=self.slave, stderr=self.slave,
                                     start_new_session=True, preexec_fn=take_terminal)
        self.out = b""
        self.cmdlines = []

    def _pump(self, wait):
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            try:
                self.out += os.read(self.master, 65536)
            except OSError:
                pass
        try:
            with open("/proc/%d/cmdline" % self.proc.pid, "rb") as f:
                self.cmdlines.append(f.read())
        except OSError:
            pass

    def expect(self, text, start=0):
        """Read until @text appears after offset @start; whether it did."""
        deadline = time.monotonic() + PATIENCE
        while text.encode() not in self.out[start:] and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._pump(0.1)
                break
            self._pump(0.1)
        return text.encode() in self.out[start:]

    def type(self, text):
        os.write(self.master, text.encode())

    def echo_on(self):
        return bool(termios.tcgetattr(self.slave)[3] & termios.ECHO)

    def finish(self):
        """Wait for the end; the exit status and everything written, as text."""
        deadline = time.monotonic() + PATIENCE
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._pump(0.1)
        self._pump(0)
        if self.proc.poll() is None:
            self.proc.kill()
        status = self.proc.wait()
        return status, self.out.decode(errors="replace")

    def close(self):
        os.close(self.master)
        os.close(self.slave)


class Env:
    """A state directory, and everything raidcli wrote or was given there."""

    def __init__(self, tmp, name, svc):
        self.state = os.path.join(tmp, name)
        os.makedirs(self.state)
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state, TERM="dumb",
                        XDG_STATE_HOME=os.path.join(tmp, name + "-xdg"))
        self.svc = svc
        self.outputs = []
        self.cmdlines = []

    def add_words(self):
        return ["add", "controller", "type=redfish", "host=" + self.svc.info["hosts"][0]["url"],
                "user=root", "cafile=" + self.svc.info["ca"]]

    def tty(self, *words):
        return Tty(self.env, *words)

    def done(self, t):
        status, out = t.finish()
        check(t.echo_on(), "the terminal echoes again after 'raidcli %s'"
              % " ".join(t.proc.args[1:]))
        t.close()
        self.outputs.append(out)
        self.cmdlines += t.cmdlines
        return status, out

    def detached(self, *words):
        """@words with no controlling terminal at all (as from cron)."""
        p = subprocess.run([RAIDCLI, *words], env=self.env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, start_new_session=True,
                           timeout=PATIENCE)
        self.outputs.append(p.stdout + p.stderr)
        return p.returncode, p.stdout + p.stderr


def question(svc):
    return "Password for 'root' at %s: " % svc.info["hosts"][0]["url"]


def answer(t, svc, keys, what):
    """Wait for the question on @t, then type @keys."""
    if check(t.expect(question(svc), len(t.out)), what + ": the password is asked", t.out):
        check(not t.echo_on(), what + ": echo is off while asking")
        t.type(keys)


def case_one_shot(env):
    """Add, then show: a one-shot command asks each time, and echoes nothing typed."""
    svc = env.svc
    t = env.tty(*env.add_words())
    answer(t, svc, SECRET + "\n", "add")
    status, out = env.done(t)
    check(status == 0 and "Added controllers /c0-/c1." in out, "add: the command works",
          (status, out))
    check(SECRET not in out, "add: the typed password is not echoed", out)
    check(out.count("Password for") == 1, "add: one question for both logins", out)
    t = env.tty("/c0", "show")
    answer(t, svc, SECRET + "\n", "show")
    check(t.expect("Status = Success"), "show: a one-shot command asks again, and works",
          t.out)
    status, out = env.done(t)
    check(status == 0 and SECRET not in out, "show: succeeds, the password not echoed",
          (status, out))


def case_shell(env):
    """The shell asks once per session; a wrong answer is asked for again."""
    svc = env.svc
    t = env.tty()
    check(t.expect("raidcli> "), "shell: starts", t.out)
    t.type("/c0 show\n")
    answer(t, svc, "not-" + SECRET + "\n", "shell")
    check(t.expect("Status = Failure"), "shell: a wrong password fails", t.out)
    mark = len(t.out)
    t.type("/c0 show\n")
    answer(t, svc, SECRET + "\n", "shell, after a wrong answer")
    check(t.expect("Status = Success", mark), "shell: the right password works", t.out)
    mark = len(t.out)
    t.type("/c1 show\n")
    check(t.expect("Status = Success", mark), "shell: the next command works", t.out)
    check(b"Password for" not in t.out[mark:], "shell: and does not ask again", t.out[mark:])
    t.type("exit\n")
    status, out = env.done(t)
    check(status == 0 and SECRET not in out, "shell: ends well, the password not echoed",
          (status, out))
    check(out.count("Password for") == 2, "shell: asked twice in all", out)


def case_interrupt(env):
    """Ctrl-C at the question ends the command, and the terminal echoes again."""
    t = env.tty("/c0", "show")
    answer(t, env.svc, "typed-before-\x03", "Ctrl-C")
    status, out = env.done(t)
    check(status == -signal.SIGINT, "Ctrl-C: ends the command as SIGINT", (status, out))


def case_no_terminal(env, tmp):
    """Without a terminal: a clear failure naming credfile= and passenv=, nothing added."""
    other = Env(tmp, "state-detached", env.svc)
    status, out = other.detached(*other.add_words())
    check(status != 0 and "no terminal" in out and "credfile=" in out and "passenv=" in out,
          "no terminal: add fails, naming the options that need none", (status, out))
    status, out = other.detached("show", "ctrlcount")
    check("Controller Count = 0" in out, "no terminal: nothing is added", out)
    status, out = env.detached("/c0", "show")
    check(status != 0 and "no terminal" in out and "credfile=" in out,
          "no terminal: a controller that asks fails with the same advice", (status, out))


def check_secret(env):
    """The password is on no command line, in no output and no state file or event log."""
    check(env.cmdlines and all(SECRET.encode() not in c for c in env.cmdlines),
          "the password is never on a command line", len(env.cmdlines))
    check(all(SECRET not in o for o in env.outputs), "no output holds the password")
    names = []
    for root, _, files in os.walk(env.state):
        for name in files:
            names.append(name)
            with open(os.path.join(root, name), "rb") as f:
                check(SECRET.encode() not in f.read(),
                      "state file %s does not hold the password" % name)
    check(any(n.endswith(".log") for n in names), "the event log was looked at", names)


def main():
    tmp = tempfile.mkdtemp(prefix="rcl-redfish-prompt-")
    svc = test_service.Service(tmp, "--tree", "idrac")
    try:
        env = Env(tmp, "state", svc)
        case_one_shot(env)
        case_shell(env)
        case_interrupt(env)
        case_no_terminal(env, tmp)
        check_secret(env)
    finally:
        svc.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
