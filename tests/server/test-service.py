#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-service.py - the controller process and NBD exports, as users meet them.

"raidcli /cN serve" in the foreground stops cleanly on SIGTERM and refuses
a second copy; with it running, every command is sent to it and prints
exactly what it prints without it; "start export" starts it on demand;
nbdinfo and qemu-img (real NBD clients) see the VD's size and geometry and
read back what they wrote, across a restart and a kill -9; bad input gets
a clear message and a StorCLI-style status. Each case has its own state
directory (rcltest.fixture_parent()).
"""
import calendar
import errno
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nbd"))

import nbdclient as nbd  # noqa: E402
from rcltest import (BUILD_ROOT, MIB, RAIDCLI, Fixture, bad_drive, check, drive_field, fill_export,
                     fx_vd_bytes, nbd_uri, patrol_pause_recorded, proc_stat, qemu_img, run_cases,
                     start_export, summary, task_record, vd_consistent, wait_consistent,
                     wait_for)  # noqa: E402

def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def case_serve_foreground(fx):
    p = fx.serve()
    info = fx.service()
    check(info["Status"] == "Running" and info["PID"] == p.pid,
          "show service reports the foreground process and its pid", info)
    check(mode_of(info["Control Socket"]) == 0o600, "the control socket is mode 0600",
          oct(mode_of(info["Control Socket"])))
    second = fx.run("/c0", "serve", timeout=10)
    check(second.returncode == 243, "a second serve fails with 243 (busy)", second.returncode)
    check("already running (pid %d)" % p.pid in second.stdout,
          "the second serve names the running process", second.stdout)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    check(p.returncode == 0, "SIGTERM stops serve with status 0", p.returncode)
    check("The controller process of /c0 stopped." in out, "serve says it stopped", out)
    lines = err.strip().split("\n")
    check(all(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ raidcli\[%d\]" % p.pid, l)
              for l in lines), "every log line starts with the time and the pid", err)
    check(any("stopping on" in l for l in lines) and lines[-1].endswith("stopped"),
          "the log records the signal and the stop", err)
    check(not os.path.exists(info["Control Socket"]), "the control socket is removed")
    check(fx.service()["Status"] == "Not Running", "show service: not running after")


def case_sigint(fx):
    p = fx.serve()
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=30)
    check(p.returncode == 0, "SIGINT stops serve with status 0", p.returncode)


# Commands whose output does not carry the current time (so two runs agree).
SAME_OUTPUT = [
    ["/c0/vall", "show"], ["/c0/v0", "show", "all"], ["/c0/eall/sall", "show"],
    ["/c0/e252/s0", "show", "all"], ["/c0/dall", "show"], ["/c0/d0", "show", "all"],
    ["/c0/eall", "show"], ["/c0", "show", "events"], ["/c0/v9", "show"],
    ["/c0/vall", "show", "export"], ["/call/vall", "show"], ["/c0/v0", "show", "export"],
]


def case_forwarding_same_output(fx):
    # The process starts a new VD's BGI, which makes it consistent mid-way: let it end first.
    if not start_export(fx) or not wait_consistent(fx):
        return
    fx.ok("/c0/v0", "stop", "export")
    fx.ok("/c0", "stop", "service")
    fx.ok("add", "controller", "type=soft", "drives=1", "size=16MB")  # /c1, not served
    local = {}
    for words in SAME_OUTPUT:
        for j in ([], ["J"]):
            r = fx.run(*words, *j)
            local[tuple(words + j)] = (r.returncode, r.stdout, r.stderr)
    p = fx.serve()
    for words in SAME_OUTPUT:
        for j in ([], ["J"]):
            r = fx.run(*words, *j)
            key = tuple(words + j)
            check((r.returncode, r.stdout, r.stderr) == local[key],
                  "'%s' through the process is byte-identical to running it locally"
                  % " ".join(key), "local:\n%s\nforwarded:\n%s" % (local[key][1], r.stdout))
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    ran = [l for l in err.split("\n") if "ran '" in l and "show service" not in l]
    check(len(ran) == 2 * len(SAME_OUTPUT), "the process ran every one of them (its log)",
          err)
    check(any("ran '/call/vall show': ok" in l for l in ran),
          "/call was sent for /c0 alone, /c1 ran locally", err)


def raw_request(path, data):
    """Send @data on the control socket as a client would; the reply's text."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: sock.recv(65536), b"")).decode()


def case_control_socket_robust(fx):
    """What no raidcli sends (a hand-made client: no real peer speaks this protocol)."""
    p = fx.serve()
    sock = fx.control_socket()
    for data, want in [(b"not json", "malformed request"),
                       (b'{"argv": [1, 2], "ctrl": 0}', "malformed request"),
                       (b'{"argv": ["/c0", "show"], "ctrl": 0, "version": "0.0.1"}',
                        "runs raidcli %s, this is raidcli 0.0.1" % fx.version()),
                       (b'{"argv": ["/c0", "serve"], "ctrl": 0, "version": "%s"}'
                        % fx.version().encode(), "does not run this command")]:
        reply = json.loads(raw_request(sock, data))["results"][0]
        check(reply["status"] != 0 and want in reply["description"],
              "a bad request (%r) gets a failure saying '%s'" % (data[:40], want), reply)
    check(p.poll() is None and fx.run("/c0", "show").returncode == 0,
          "the process keeps serving after bad requests")
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=30)


class DyingProcess:
    """Plays a controller process of @fx's /c0 that dies while a command is
    sent to it: it holds the owner lock, accepts one connection on the control
    socket, then closes it and drops the lock as the kernel does after a
    kill -9 (a fake: no real process can be killed at that exact moment on
    demand). With @lock_kept it keeps the lock: a process that drops a
    connection and lives on. A context manager: on leaving, the lock and the
    socket are let go whatever happened."""

    def __init__(self, fx, lock_kept=False):
        sock = fx.control_socket()
        owner = os.path.join(fx.state, "locks", os.path.basename(sock)[:-len(".sock")] + ".owner")
        os.makedirs(os.path.dirname(owner), exist_ok=True)
        os.makedirs(os.path.dirname(sock), exist_ok=True)
        self.owner = open(owner, "w")
        fcntl.flock(self.owner, fcntl.LOCK_EX)
        self.owner.write(str(os.getpid()))
        self.owner.flush()
        if os.path.exists(sock):
            os.unlink(sock)  # the last one's, left behind as a kill -9 leaves it
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(sock)
        self.listener.listen()
        self.listener.settimeout(60)  # a CLI that never connects fails the check, not the run
        self.lock_kept = lock_kept
        self.accepted = False
        self.thread = threading.Thread(target=self.die_on_request, daemon=True)
        self.thread.start()

    def die_on_request(self):
        try:
            conn, _ = self.listener.accept()
            conn.close()
            self.accepted = True
        except OSError:
            pass
        self.listener.close()
        if not self.lock_kept:
            self.owner.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.thread.join(timeout=60)
        self.listener.close()
        self.owner.close()


def case_process_dies_mid_request(fx):
    """A command sent to a controller process that dies before answering is
    not killed by SIGPIPE: one that changes nothing runs without the process;
    with the process still there, a failure says what went wrong."""
    deaths = []
    # The peer's close and the CLI's send race; without MSG_NOSIGNAL 3 to 9 of
    # these 10 died of SIGPIPE (exit status -13) where this was written.
    for _ in range(10):
        with DyingProcess(fx) as dying:
            r = fx.run("/c0/v0", "show", "J")
        deaths.append(r.returncode if dying.accepted else "not sent")
    check(deaths == [0] * 10, "'/c0/v0 show' after the process died mid-request runs "
          "without it, every time (exit statuses)", deaths)
    r = fx.run("/c0/v0", "show", "J")
    check(r.returncode == 0 and json.loads(r.stdout)["Controllers"][0]["Response Data"]
          ["Virtual Drives"][0]["TYPE"] == "RAID5", "and prints the VD", r.stdout)
    with DyingProcess(fx, lock_kept=True):
        r = fx.run("/c0/v0", "show", "J")
    status = json.loads(r.stdout)["Controllers"][0]["Command Status"] if r.stdout else {}
    check(r.returncode > 0 and status.get("Status") == "Failure" and
          "the controller process of /c0 (pid %d) dropped the connection before it took the "
          "command" % os.getpid() in status.get("Description", ""),
          "a process that drops the connection and lives on: a failure that says so", r)


def case_process_killed_as_change_sent(fx):
    """A change sent to a process killed before it took it (the kernel
    resets the connection: nothing read it) is made, not reported "took
    effect unknown": without a process, or, for a command that needs one,
    in the next process it starts. vm-stops met this on a "start export"
    sent just after a kill -9."""
    outcomes = []
    for n in range(5):
        with DyingProcess(fx) as dying:
            r = fx.run("/c0/v0", "set", "name=after%d" % n, "J")
        outcomes.append((r.returncode, dying.accepted))
    check(outcomes == [(0, True)] * 5 and vd_name_events(fx) == ["after%d" % n for n in range(5)],
          "'set name' sent to a process that died before reading it: made, every time "
          "(exit statuses, sent; then the names the event log recorded)",
          (outcomes, vd_name_events(fx)))
    with DyingProcess(fx) as dying:
        r = fx.run("/c0/v0", "start", "export", "J")
    rows = json.loads(r.stdout)["Controllers"][0].get("Response Data", {}).get("Export LIST", [])
    check(dying.accepted and r.returncode == 0 and len(rows) == 1,
          "'start export' sent to a process that died before reading it: served by a new one",
          r.stdout)
    check(fx.service().get("PID") not in (None, os.getpid()),
          "and that new process runs", fx.service())


def vd_name_events(fx):
    """The names 'set name' gave /c0/v0, oldest first, from the event log."""
    status, doc = fx.json("/c0", "show", "events")
    return [m.group(1) for e in doc["Response Data"].get("Events", [])
            if (m := re.fullmatch(r"VD 0 properties updated: name=(\S+)",
                                  e["Event Description"]))]


def case_commands_during_stop(fx):
    """20 'set name' sent at once while 'stop service' stops the process (the
    issue's scenario, three times): the stopping process answers every
    command it accepted, and a CLI it no longer accepts runs the command
    itself once the process is gone. So each one succeeds, its name in the
    event log, or fails saying that it did not run; none leaves its user
    not knowing (exit status 242, 'whether the command took effect is
    unknown')."""
    outcomes = []
    for round_ in range(3):
        p = fx.serve()
        names = ["n%d-%d" % (round_, i) for i in range(20)]
        cmds = [subprocess.Popen([RAIDCLI, "/c0/v0", "set", "name=" + n], env=fx.env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for n in names]
        stop = fx.run("/c0", "stop", "service")
        check(stop.returncode == 0, "stop service succeeds", stop.stdout)
        p.communicate(timeout=60)
        outcomes += [(n, c.wait(timeout=120),
                      re.search(r"^Description = (.*)$", c.communicate()[0], re.M).group(1))
                     for n, c in zip(names, cmds)]
    logged = vd_name_events(fx)
    unknown = [o for o in outcomes if o[1] == 242 or "unknown" in o[2]]
    check(not unknown, "no command ends with 'whether the command took effect is unknown'",
          unknown)
    ok = [n for n, rc, out in outcomes if rc == 0]
    check(all(n in logged for n in ok), "every command that succeeded is in the event log",
          (ok, logged))
    failed = [o for o in outcomes if o[1] != 0]
    check(all("did not run" in out and o not in logged for o, rc, out in failed),
          "every one that failed says it did not run, and did not", failed)
    status, doc = fx.json("/c0/v0", "show")
    check(ok and doc["Response Data"]["Virtual Drives"][0]["Name"] == logged[-1],
          "the VD has the name the last one set", (logged[-1:], doc))


def case_changes_through_process(fx):
    fx.run("/c0/v0", "del", "force")
    p = fx.serve()
    r = fx.run("/c0", "add", "vd", "r1", "drives=252:0-1", "name=first")
    check(r.returncode == 0, "add vd through the process", r.stdout)
    r = fx.run("/c0/v0", "set", "name=renamed")
    check(r.returncode == 0, "set name through the process", r.stdout)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=30)
    status, doc = fx.json("/c0/v0", "show")
    vds = doc["Response Data"]["Virtual Drives"]
    check(vds[0]["Name"] == "renamed" and vds[0]["TYPE"] == "RAID1",
          "the changes are there after the process stopped", vds)


def case_export_auto_start(fx):
    check(fx.service()["Status"] == "Not Running", "no process before start export")
    export = start_export(fx)
    if not export:
        return
    info = fx.service()
    check(info["Status"] == "Running", "start export started the process", info)
    pid = info["PID"]
    st = proc_stat(pid)
    check(st and st[0] != "Z" and st[2] != os.getsid(0),
          "the process runs in a session of its own (setsid), not a zombie", st)
    check(st and st[1] != os.getpid(), "the process is not this test's child", st)
    fds = {fd: os.readlink("/proc/%d/fd/%s" % (pid, fd)) for fd in ("0", "1", "2")}
    check(fds == {"0": "/dev/null", "1": info["Log"], "2": info["Log"]},
          "its standard input is /dev/null, its output goes to the log", fds)
    serial = fx.serial()
    check(export["Export Name"] == "%s-v0" % serial, "the default name is <serial>-v0", export)
    sock = export["Address"][len("unix:"):]
    check(export["Address"] == "unix:%s/run/%s-v0.sock" % (fx.state, serial),
          "the default socket is in the state directory's run/", export)
    check(os.path.exists(sock) and mode_of(sock) == 0o600, "the export socket is mode 0600")
    check(export["State"] == "Serving" and export["Clients"] == 0,
          "it is serving, with no clients yet", export)
    check(os.path.exists(info["Log"]) and "serving v0" in open(info["Log"]).read(),
          "the process logs to the log file in the state directory")
    status, doc = fx.json("/c0/vall", "show", "export")
    check(doc["Response Data"]["Export LIST"] == [export], "show export lists it", doc)
    status, doc = fx.json("/c0", "show", "service")
    check(doc.get("Response Data", {}).get("Export LIST") == [export], "show service lists it", doc)


def case_nbdinfo(fx):
    export = start_export(fx)
    if not export:
        return
    r = subprocess.run(["nbdinfo", "--json", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    if not check(r.returncode == 0, "nbdinfo connects", r.stderr):
        return
    info = json.loads(r.stdout)["exports"][0]
    vd_bytes = fx_vd_bytes(fx)
    check(info["export-size"] == vd_bytes, "nbdinfo reports the VD's size",
          (info["export-size"], vd_bytes))
    # RAID5 over 3 drives, 64 KiB strips: a full stripe is 2 data strips (NBD
    # wants a power of two, which this is).
    check(info.get("block_size_preferred") == 2 * 64 * 1024,
          "the preferred block size is one full stripe (128 KiB)", info)
    check(info.get("block_size_minimum") == 512, "the minimum is the sector size", info)
    check(info.get("is_read_only") is False, "a RW VD is writable", info)


def case_read_only_export(fx):
    """accesspolicy=ro exports read-only; blocked is not exported."""
    fx.ok("/c0/v0", "set", "accesspolicy=ro")
    export = start_export(fx)
    if not export:
        return
    r = subprocess.run(["nbdinfo", "--json", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    check(r.returncode == 0 and json.loads(r.stdout)["exports"][0]["is_read_only"] is True,
          "a read-only VD is exported read-only", r.stdout + r.stderr)
    fx.ok("/c0/v0", "set", "accesspolicy=rw")
    r = subprocess.run(["nbdinfo", "--json", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    check(r.returncode == 0 and json.loads(r.stdout)["exports"][0]["is_read_only"] is False,
          "set accesspolicy=rw on the exported VD makes the export writable",
          r.stdout + r.stderr)
    fx.ok("/c0/v0", "set", "accesspolicy=blocked")
    status, doc = fx.json("/c0/v0", "show", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    check(rows and rows[0]["State"] == "Failed",
          "blocking an exported VD stops serving it (the export is kept)", rows)
    fx.ok("/c0/v0", "stop", "export")
    r = fx.run("/c0/v0", "start", "export")
    check(r.returncode == 255 and "blocked" in r.stdout, "a blocked VD is not exported (255)",
          r.stdout)


def case_qemu_img_roundtrip(fx):
    export = start_export(fx)
    if not export:
        return
    src = fill_export(fx, export, 32)
    uri = nbd_uri(export)
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, uri)
    check(r.returncode == 0, "qemu-img reads back the same data", r.stdout + r.stderr)
    old_pid = fx.service()["PID"]
    r = fx.run("/c0", "stop", "service")
    check(r.returncode == 0 and "Stopped the controller process of /c0 (pid %d)." % old_pid
          in r.stdout, "stop service stops it, naming the pid", r.stdout)
    check(proc_stat(old_pid) is None or proc_stat(old_pid)[0] == "Z",
          "the process is gone once stop service returns")
    check(not os.path.exists(uri.split("socket=")[1]), "its export socket is removed")
    status, doc = fx.json("/c0/vall", "show", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    check(len(rows) == 1 and rows[0]["State"] == "Stopped",
          "the export is kept (persisted), stopped while no process runs", rows)
    again = start_export(fx)
    check(again and again["Address"] == export["Address"] and again["State"] == "Serving",
          "start export again serves it at the same place", again)
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, uri)
    check(r.returncode == 0, "the data survived the restart", r.stdout + r.stderr)


def case_member_failure(fx):
    """A member that fails under I/O is recorded failed; the VD is served degraded."""
    path, why = bad_drive(fx)
    if not path:
        print("SKIP: case_member_failure: " + why)
        return
    fx.ok("/c0/v0", "del", "force")
    fx.ok("/c0/e252/s3", "del")
    fx.ok("/c0", "add", "drive", "path=" + path)
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-1,3")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    src = fill_export(fx, export, 32)
    uri = nbd_uri(export)
    fx.ok("/c0", "stop", "service")  # flushed: what the drive holds is on it
    with open(path, "rb") as f:  # and read from it, not the page cache, from now on
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    open(os.path.join(fx.root, "trigger"), "w").close()
    again = start_export(fx)
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(again))
    check(r.returncode == 0, "the data reads back identical through a failing member",
          r.stdout + r.stderr)
    log = open(fx.service()["Log"]).read()
    check(re.search(r"v0: member 2 failed \(Input/output error\); serving degraded", log),
          "the process logs the member failure", log)
    check("recorded /c0/e252/s3 as failed" in log, "and records it in the configuration", log)
    check(drive_field(fx, 3, "State") == "UBad", "the drive shows as UBad",
          drive_field(fx, 3, "State"))
    status, doc = fx.json("/c0/v0", "show")
    check(doc["Response Data"]["Virtual Drives"][0]["State"] == "Dgrd",
          "the VD shows as degraded", doc)
    status, doc = fx.json("/c0", "show", "events")
    events = [e["Event Description"] for e in doc["Response Data"].get("Events", [])]
    check(any("252/s3" in e or "s3" in e for e in events[-3:]),
          "the failure is in the event log", events)
    fx.ok("/c0", "stop", "service")
    status, doc = fx.json("/c0/v0", "show")
    check(doc["Response Data"]["Virtual Drives"][0]["State"] == "Dgrd",
          "the failure is kept after the process stopped", doc)
    again = start_export(fx)
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(again))
    check(r.returncode == 0, "a new process serves the degraded VD, data intact",
          r.stdout + r.stderr)


def case_restart_serves_persisted(fx):
    export = start_export(fx)
    if not export:
        return
    fx.ok("/c0", "stop", "service")
    p = fx.serve()
    status, doc = fx.json("/c0/v0", "show", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    check(rows and rows[0]["State"] == "Serving", "a restarted process serves the export", rows)
    r = subprocess.run(["nbdinfo", "--size", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    check(r.returncode == 0, "and a client reaches it", r.stderr)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    check(p.returncode == 0 and "stopped serving v0" in err,
          "SIGTERM stops the export and the process cleanly", err)


def case_kill_9_recovers(fx):
    export = start_export(fx)
    if not export:
        return
    info = fx.service()
    os.kill(info["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
          "after kill -9 the process is reported not running")
    check(os.path.exists(info["Control Socket"]), "(the control socket is left behind)")
    r = fx.run("/c0/v0", "show")
    check(r.returncode == 0, "commands run locally with a stale socket", r.stdout)
    again = start_export(fx)
    new = fx.service()
    check(new["Status"] == "Running" and new["PID"] != info["PID"],
          "start export starts a new process over the stale socket and lock", new)
    check(again and again["State"] == "Serving", "the export is served again", again)
    r = subprocess.run(["nbdinfo", "--size", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    check(r.returncode == 0, "a client reaches the export again", r.stderr)


def case_tcp_export(fx):
    status, doc = fx.json("/c0/v0", "start", "export", "address=127.0.0.1:0", "name=tcpdisk")
    check(status == 0, "an export on TCP, any free port", doc)
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    if not rows:
        return
    m = re.match(r"^127\.0\.0\.1:(\d+)$", rows[0]["Address"])
    check(m and int(m.group(1)) > 0, "show reports the port bound", rows)
    if m:
        r = subprocess.run(["nbdinfo", "--size", "nbd://127.0.0.1:%s/tcpdisk" % m.group(1)],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 0 and int(r.stdout) == fx_vd_bytes(fx),
              "nbdinfo over TCP sees the VD", r.stdout + r.stderr)


def case_delete_exported(fx):
    start_export(fx)
    r = fx.run("/c0/v0", "del")
    check(r.returncode == 245 and "is exported" in r.stdout,
          "deleting an exported VD asks for force (245)", r.stdout)
    r = fx.run("/c0/v0", "del", "force")
    check(r.returncode == 0, "with force it stops the export and deletes", r.stdout)
    status, doc = fx.json("/c0/vall", "show", "export")
    check(not doc.get("Response Data", {}).get("Export LIST"), "no export is left", doc)
    pid = fx.service()["PID"]
    r = fx.run("/c0", "del")
    check(r.returncode == 0, "deleting the controller with its process running", r.stdout)
    check(wait_for(lambda: proc_stat(pid) is None or proc_stat(pid)[0] == "Z"),
          "stops the process first")
    left = os.listdir(os.path.join(fx.state, "run"))
    check(not left, "and leaves no socket or log behind", left)


def export_clients(fx):
    status, doc = fx.json("/c0/vall", "show", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    return rows[0]["Clients"] if rows else None


def case_delete_ctrl_with_client(fx):
    """/c0 del, as /c0/v0 del, asks for force while a VD is exported to a client."""
    export = start_export(fx)
    if not export:
        return
    client = nbd.Client(export["Address"])
    client.go(export["Export Name"])
    check(wait_for(lambda: export_clients(fx) == 1), "the NBD client is connected")
    pid = fx.service()["PID"]
    r = fx.run("/c0", "del")
    check(r.returncode == 245 and "/c0/v0 is exported" in r.stdout and "'force'" in r.stdout
          and "stop export" in r.stdout,
          "/c0 del with a client connected asks for force (245), saying why and how", r.stdout)
    check(fx.service().get("PID") == pid, "the controller process still runs")
    error, data = client.read(0, 4096)
    check(error == 0 and len(data) == 4096, "the client is still served", error)
    check(fx.run("/c0", "show").returncode == 0, "the controller is still there")
    r = fx.run("/c0", "del", "force")
    check(r.returncode == 0, "/c0 del force deletes it", r.stdout)
    check(nbd.closed_by_peer(client.sock), "and drops the client")
    client.close()


def case_bad_input(fx):
    fx.ok("/c0", "show", "service")
    cases = [
        (["/c0/v7", "start", "export"], 35, "/c0/v7 not found"),
        (["/c0/v0", "start", "export", "address=nowhere"], 3, "is not HOST:PORT"),
        (["/c0/v0", "start", "export", "address=127.0.0.1:70000"], 3, "is not HOST:PORT"),
        (["/c0/v0", "start", "export", "socket=/tmp/" + "x" * 120], 3, "at most 107"),
        (["/c0/v0", "start", "export", "socket=relative.sock"], 3, "must be absolute"),
        (["/c0/v0", "start", "export", "socket=/tmp/a.sock", "address=127.0.0.1:1"], 3,
         "not both"),
        (["/c0/v0", "stop", "export"], 35, "is not exported"),
        (["/c0/vall", "stop", "export"], 35, "no exports to stop"),
        (["/c9", "show", "service"], 35, "/c9 not found"),
        (["/call", "serve"], 1, "name one"),
    ]
    for words, status, text in cases:
        r = fx.run(*words)
        check(r.returncode == status and text in r.stdout,
              "'%s' fails with %d and says '%s'" % (" ".join(words), status, text),
              "%d\n%s" % (r.returncode, r.stdout))
    status, doc = fx.json("/c0/vall", "show", "export")
    check(not doc.get("Response Data", {}).get("Export LIST"), "no bad request left an export", doc)


def case_state_dir_deleted(fx):
    """A process whose state directory is deleted (a test's rm -rf) stops by itself, stopping
    its exports, and says why: a new process would lock a new file and serve /c0 beside it."""
    p = fx.serve()
    if start_export(fx) and wait_consistent(fx):
        stops_when_deleted(fx, p)


def remove_tree(path):
    """rm -rf @path until it is gone: a process still working in it (opening its controller
    again makes locks/'s lock file; a rebuild's checkpoint, an event) can add an entry between
    rmtree's listing of a directory and its rmdir, which then fails with ENOTEMPTY, as rm -rf
    would; the process stops adding once it finds its lock file gone, so a few tries do it.
    Unlike run-golden.py's remove_state_dir(), a cleanup that may give up, this deletion is
    the step under test: any other error, or one that outlasts the tries, is raised."""
    for _ in range(50):
        try:
            shutil.rmtree(path)
            return
        except OSError as e:
            if e.errno != errno.ENOTEMPTY:
                raise
    shutil.rmtree(path)


def stops_when_deleted(fx, p):
    """Delete the state directory of serve @p: it exits, says why, and leaves it deleted."""
    remove_tree(fx.state)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "the process exits once its state directory is deleted")
        return
    check(p.returncode == 35, "it exits with status 35 (not found)", p.returncode)
    check("the lock file '%s/locks/" % fx.state in out and "is gone (was the state directory "
          "'%s' deleted or moved?)" % fx.state in out, "its result says why", out)
    lines = err.strip().split("\n")
    check(any("is gone" in l and "stopping" in l for l in lines) and lines[-1].endswith("stopped"),
          "its log says why, then that it stopped", err)
    check(not os.path.exists(fx.state), "stopping does not create the directory again")


def case_state_dir_deleted_rebuilding(fx):
    """The same with a rebuild running, whose last checkpoint has nowhere to go."""
    p = fx.serve()
    export, src = rebuild_fixture(fx, 1)
    if not export:
        return
    fx.ok("/c0/e252/s1", "set", "offline")
    if check(wait_for(lambda: rebuild_row(fx, 3).get("Status") == "In progress"),
             "the spare's rebuild runs", rebuild_row(fx, 3)):
        stops_when_deleted(fx, p)


def case_state_dir_too_long(fx):
    long_state = os.path.join(fx.root, "d" * 100, "state")
    env = dict(fx.env, RAIDCLI_STATE_DIR=long_state)
    subprocess.run([RAIDCLI, "add", "controller", "type=soft", "drives=0"], env=env,
                   capture_output=True, check=True)
    r = subprocess.run([RAIDCLI, "/c0", "serve"], env=env, capture_output=True, text=True,
                       timeout=30)
    check(r.returncode == 3 and "control socket path" in r.stdout and "at most 107" in r.stdout,
          "serve refuses a control socket path longer than sun_path, saying why",
          "%d %s" % (r.returncode, r.stdout))
    r = subprocess.run([RAIDCLI, "/c0", "show"], env=env, capture_output=True, text=True)
    check(r.returncode == 0, "other commands still work there", r.stdout)


def case_systemd_unit():
    unit = os.path.join(BUILD_ROOT, "systemd", "raidcli@.service")
    text = open(unit).read()
    check(re.search(r"^ExecStart=/\S*/raidcli /c%i serve$", text, re.M) and
          re.search(r"^Type=simple$", text, re.M) and
          re.search(r"^Restart=on-failure$", text, re.M),
          "the unit runs 'raidcli /c%i serve', Type=simple, Restart=on-failure", text)
    if not shutil.which("systemd-analyze"):
        print("SKIP: systemd-analyze verify: systemd-analyze is not installed")
        return
    tmp = tempfile.mkdtemp(prefix="rcl-unit-")
    try:
        # verify checks that ExecStart exists and that man:raidcli(8) opens: point
        # them at the built binary and page.
        local = re.sub(r"^ExecStart=\S+", "ExecStart=" + RAIDCLI, text, flags=re.M)
        with open(os.path.join(tmp, "raidcli@.service"), "w") as f:
            f.write(local)
        os.makedirs(os.path.join(tmp, "man", "man8"))
        shutil.copy(os.path.join(BUILD_ROOT, "man", "raidcli.8"),
                    os.path.join(tmp, "man", "man8"))
        r = subprocess.run(["systemd-analyze", "verify", os.path.join(tmp, "raidcli@.service")],
                           env=dict(os.environ, MANPATH=os.path.join(tmp, "man")),
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 0 and not r.stderr.strip() and not r.stdout.strip(),
              "systemd-analyze verify accepts the unit without a warning", r.stdout + r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# Rebuilds onto hot spares (lib/soft/service/tasks.c).

def rebuild_row(fx, slot):
    status, doc = fx.json("/c0/e252/s%d" % slot, "show", "rebuild")
    rows = doc.get("Response Data", [])
    # As StorCLI's (pystorcli2 reads response_data[0]['Progress%']): a bare list.
    check(isinstance(rows, list), "show rebuild's Response Data is a list of rows", doc)
    return rows[0] if rows else {}


def drive_state(fx, slot):
    status, doc = fx.json("/c0/e252/s%d" % slot, "show")
    rows = doc.get("Response Data", {}).get("Drive Information", [])
    return rows[0]["State"] if rows else None


def rebuild_fixture(fx, rate):
    """A slow rebuild rate, a global spare, 96 MiB of random data on the exported RAID5, made
    consistent first (degraded before, it would wait for force: case_dirty_degraded)."""
    fx.ok("/c0", "set", "rebuildrate=%d" % rate, "bgirate=100")
    fx.ok("/c0/e252/s3", "add", "hotsparedrive")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return None, None
    return export, fill_export(fx, export, 96)


def wait_online(fx, slot, timeout=60):
    return wait_for(lambda: drive_state(fx, slot) == "Onln", timeout)


def case_rebuild_spare(fx):
    """A member set offline is rebuilt onto the global spare, under host writes."""
    # At 1% a rebuild rests 99 times as long as each step took: the steps below (pause,
    # resume, stop) find it running however slow the machine, as its steps slow down too.
    export, src = rebuild_fixture(fx, 1)
    if not export:
        return
    uri = nbd_uri(export)
    fx.ok("/c0/e252/s1", "set", "offline")
    check(wait_for(lambda: rebuild_row(fx, 3).get("Status") == "In progress"),
          "the spare's rebuild starts by itself", rebuild_row(fx, 3))
    check(drive_state(fx, 3) == "Rbld" and drive_state(fx, 1) == "UGood",
          "the spare is Rbld, the replaced drive left the group (UGood)",
          (drive_state(fx, 3), drive_state(fx, 1)))
    r = fx.run("/c0/e252/s3", "pause", "rebuild")
    check(r.returncode == 0 and rebuild_row(fx, 3).get("Status") == "Paused",
          "pause rebuild pauses it", r.stdout + str(rebuild_row(fx, 3)))
    r = fx.run("/c0/e252/s3", "pause", "rebuild")
    check(r.returncode == 255 and "the rebuild of /c0/e252/s3 is paused already" in r.stdout,
          "a second pause rebuild fails with 255: it is paused already", r.stdout)
    row = rebuild_row(fx, 3)
    check(isinstance(row.get("Progress%"), int) and 0 <= row["Progress%"] < 100,
          "show rebuild reports a percent", row)
    # New data while the member is half rebuilt: it must land on the spare too.
    with open(src, "r+b") as f:
        f.seek(40 * MIB)
        f.write(os.urandom(24 * MIB))
    r = qemu_img("convert", "-n", "-f", "raw", "-O", "raw", src, uri)
    check(r.returncode == 0, "qemu-img writes during the rebuild", r.stderr)
    r = fx.run("/c0/e252/s3", "resume", "rebuild")
    check(r.returncode == 0 and rebuild_row(fx, 3).get("Status") == "In progress",
          "resume rebuild resumes it", r.stdout)
    r = fx.run("/c0/e252/s3", "resume", "rebuild")
    check(r.returncode == 255 and "is not paused" in r.stdout,
          "resuming a running rebuild fails with 255", r.stdout)
    r = fx.run("/c0/e252/s3", "stop", "rebuild")
    row = rebuild_row(fx, 3)
    check(r.returncode == 0 and row.get("Status") == "Not in progress" and
          drive_state(fx, 3) == "Rbld", "stop rebuild stops it; the drive stays Rbld",
          r.stdout + str(row))
    time.sleep(1.5)
    check(rebuild_row(fx, 3).get("Status") == "Not in progress",
          "a stopped rebuild does not start again by itself", rebuild_row(fx, 3))
    r = fx.run("/c0/e252/s3", "start", "rebuild")
    check(r.returncode == 0 and rebuild_row(fx, 3).get("Status") == "In progress",
          "start rebuild goes on", r.stdout)
    fx.ok("/c0", "set", "rebuildrate=100")
    check(wait_online(fx, 3), "the spare becomes Onln when the rebuild completes",
          drive_state(fx, 3))
    check(rebuild_row(fx, 3).get("Status") == "Not in progress", "show rebuild: done")
    events = fx.ok("/c0", "show", "events").stdout
    check("Rebuild started on PD 252:3 (replacing 252:1 in DG 0)" in events and
          "Rebuild complete on PD 252:3" in events, "both ends are in the event log", events)
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, uri)
    check(r.returncode == 0, "the export reads back what was written before and during",
          r.stdout + r.stderr)
    check_rebuilt_md(fx, "spare", [0, 3, 2], 3)
    # Only the rebuilt drive can hold s0's share now: the data must come from it.
    fx.ok("/c0/e252/s0", "set", "offline")
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, uri)
    check(r.returncode == 0, "and the same with another member offline (the spare's data)",
          r.stdout + r.stderr)


def case_rebuild_resumes_after_kill(fx):
    """kill -9 during a rebuild: the next process goes on from the recorded checkpoint."""
    export, src = rebuild_fixture(fx, 1)
    if not export:
        return
    fx.ok("/c0/e252/s1", "set", "offline")
    check(wait_for(lambda: (rebuild_row(fx, 3).get("Progress%") or 0) >= 3, 30),
          "the rebuild moves", rebuild_row(fx, 3))
    fx.ok("/c0/e252/s3", "pause", "rebuild")
    check(wait_for(lambda: rebuild_pause_recorded(fx), 60, 0.2),
          "the pause's checkpoint reaches the record", rebuild_row(fx, 3))
    pid = fx.service()["PID"]
    os.kill(pid, signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"), "the process is killed")
    row = rebuild_row(fx, 3)
    recorded = row.get("Progress%")
    check(isinstance(recorded, int) and recorded > 0 and row["Status"] == "Not in progress",
          "without a process, show rebuild gives the recorded progress (> 0)", row)
    check(drive_state(fx, 3) == "Rbld", "the spare is still Rbld", drive_state(fx, 3))
    # Degraded, and the kill may have left bitmap bits set: force, as mdadm --run would need.
    start_export(fx, "force")
    first = rebuild_row(fx, 3)
    check(first.get("Status") == "In progress" and first.get("Progress%", -1) >= recorded,
          "the restarted process resumes from the checkpoint, not from 0 (%s%%)" % recorded,
          first)
    fx.ok("/c0", "set", "rebuildrate=100")
    check(wait_online(fx, 3), "and completes the rebuild", drive_state(fx, 3))
    fx.ok("/c0/e252/s0", "set", "offline")
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(export))
    check(r.returncode == 0, "the data reads back through the rebuilt drive",
          r.stdout + r.stderr)


def rebuild_pause_recorded(fx):
    """Whether the configuration record says s3 is rebuilt as far as show rebuild says: a
    paused rebuild checkpoints, and the process's loop records that at its next tick. The
    record has the LBA below which the member holds its data; the percent is of the group's
    VDs' sectors below it."""
    for dg in recorded_config(image_of(fx, 3)).get("groups", []):
        lba = next((m["rebuilt_lba"] for m in dg.get("members", [])
                    if m.get("slot") == 3 and "rebuilt_lba" in m), None)
        if lba is None:
            continue
        sizes = [(vd["first_lba"], vd["last_lba"] + 1 - vd["first_lba"]) for vd in dg["vds"]]
        done = sum(min(max(lba - first, 0), size) for first, size in sizes)
        return done * 100 // sum(size for _, size in sizes) == \
            rebuild_row(fx, 3).get("Progress%")
    return False


def drive_ops(fx, slot):
    """The "Active Operations" of a drive's show all."""
    status, doc = fx.json("/c0/e252/s%d" % slot, "show", "all")
    name = "Drive /c0/e252/s%d" % slot
    detail = doc["Response Data"][name + " - Detailed Information"]
    return detail[name + " State"]["Active Operations"]


def vd_ops(fx):
    status, doc = fx.json("/c0/v0", "show", "all")
    return doc["Response Data"]["VD0 Properties"]["Active Operations"]


def case_rebuild_onto_unconfigured(fx):
    """No spare: start rebuild on an unconfigured good drive puts it in the lost
    member's place and rebuilds it; show all says what runs."""
    fx.ok("/c0", "set", "rebuildrate=2")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    src = fill_export(fx, export, 64)
    r = fx.run("/c0/e252/s3", "start", "rebuild")
    check(r.returncode == 255 and "no disk group has a lost member" in r.stdout,
          "start rebuild on a UGood drive with nothing to replace fails with 255", r.stdout)
    fx.ok("/c0/e252/s1", "set", "offline")
    time.sleep(1.5)
    check(drive_state(fx, 3) == "UGood", "without a spare nothing replaces it by itself",
          drive_state(fx, 3))
    r = fx.run("/c0/e252/s3", "start", "rebuild")
    check(r.returncode == 0 and drive_state(fx, 3) == "Rbld",
          "start rebuild on UGood s3: it takes s1's place, Rbld", r.stdout)
    check(rebuild_row(fx, 3).get("Status") == "In progress", "and its rebuild runs",
          rebuild_row(fx, 3))
    check(re.match(r"Rebuild \(\d+%\)$", drive_ops(fx, 3)),
          "the drive's show all: Active Operations Rebuild (n%)", drive_ops(fx, 3))
    check(re.match(r"Rebuild \(\d+%\)$", vd_ops(fx)),
          "the VD's show all: Active Operations Rebuild (n%)", vd_ops(fx))
    fx.ok("/c0", "set", "rebuildrate=100")
    r = fx.run("/c0/e252/s3", "show", "rebuild", "wait")
    check(r.returncode == 0 and "Not in progress" in r.stdout and drive_state(fx, 3) == "Onln",
          "show rebuild wait returns when the rebuild is done; s3 Onln", r.stdout)
    check(vd_ops(fx) == "None" and drive_ops(fx, 3) == "None",
          "show all: Active Operations None once done", (vd_ops(fx), drive_ops(fx, 3)))
    events = fx.ok("/c0", "show", "events").stdout
    check("Rebuild started on PD 252:3 (replacing 252:1 in DG 0)" in events,
          "the event log says which drive replaced which", events)
    check_rebuilt_md(fx, "start rebuild", [0, 3, 2], 3)
    fx.ok("/c0/e252/s0", "set", "offline")
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(export))
    check(r.returncode == 0, "the data reads back through the rebuilt drive",
          r.stdout + r.stderr)


def case_rebuild_no_spare(fx):
    """Without a usable spare nothing happens; stop rebuild needs a rebuild."""
    start_export(fx)
    fx.ok("/c0/e252/s1", "set", "offline")
    time.sleep(1.5)
    check(drive_state(fx, 1) == "Offln" and drive_state(fx, 3) == "UGood",
          "no spare: the member stays Offln, the free drive is not taken",
          (drive_state(fx, 1), drive_state(fx, 3)))
    r = fx.run("/c0/e252/s1", "stop", "rebuild")
    check(r.returncode == 255 and "is not being rebuilt" in r.stdout,
          "stop rebuild on a drive that is not Rbld fails with 255", r.stdout)


def cc_row(fx):
    status, doc = fx.json("/c0/v0", "show", "cc")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    return rows[0] if rows else {}


def run_cc(fx, *opts):
    r = fx.run("/c0/v0", "start", "cc", "force", *opts)
    check(r.returncode == 0, "start cc force %s succeeds" % " ".join(opts), r.stdout)
    check(wait_for(lambda: cc_row(fx).get("Status") == "Not in progress", 60),
          "the check ends", cc_row(fx))
    return cc_row(fx).get("Mismatches")


def image_of(fx, slot):
    status, doc = fx.json("/c0/e252/s%d" % slot, "show", "all")
    paths = []

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "Path" and isinstance(v, str):
                    paths.append(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(doc)
    return paths[0] if paths else None


def case_consistency_check(fx):
    """cc finds no mismatch on written data, finds a corrupted strip, repair fixes it."""
    fx.ok("/c0", "set", "ccrate=100")
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 245 and "not consistent" in r.stdout,
          "start cc on a VD never initialized needs force (245)", r.stdout)
    export = start_export(fx)
    if not export:
        return
    fill_export(fx, export, 96)
    check(run_cc(fx) == 0, "cc on consistent data finds 0 mismatches", cc_row(fx))
    image = image_of(fx, 1)
    check(image and os.path.exists(image), "the member's image file is known", image)
    if not image:
        return
    with open(image, "r+b") as f:  # one strip's bytes changed behind the VD's back
        f.seek(30 * MIB)
        f.write(os.urandom(4096))
    found = run_cc(fx)
    check(isinstance(found, int) and found > 0, "cc finds the corrupted strip", cc_row(fx))
    check(run_cc(fx, "repair") == found and cc_row(fx).get("Repair") == "Yes",
          "cc repair finds and repairs the same", cc_row(fx))
    check(run_cc(fx) == 0, "after the repair cc finds 0 mismatches", cc_row(fx))
    r = fx.run("/c0/v0", "stop", "cc")
    check(r.returncode == 255 and "no consistency check" in r.stdout,
          "stop cc with none running fails with 255", r.stdout)
    # Full init: zeros everywhere, and the VD consistent (cc needs no force then).
    fx.ok("/c0", "set", "bgirate=100")
    r = fx.run("/c0/v0", "start", "init", "full")
    check(r.returncode == 245 and "destroying its data" in r.stdout,
          "start init without force is refused (245)", r.stdout)
    fx.ok("/c0/v0", "start", "init", "full", "force")
    status, doc = fx.json("/c0/v0", "show", "init")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    check(rows and rows[0]["Operation"] == "INIT", "show init has the INIT row", doc)
    check(wait_for(lambda: fx.json("/c0/v0", "show", "init")[1]["Response Data"]
                   ["VD Operation Status"][0]["Status"] == "Not in progress", 60),
          "the init ends")
    size = subprocess.run(["nbdinfo", "--size", nbd_uri(export)], capture_output=True,
                          text=True, timeout=60).stdout.strip()
    zeros = os.path.join(fx.root, "zeros.img")
    with open(zeros, "wb") as f:
        f.truncate(int(size or 0))
    r = qemu_img("compare", "-f", "raw", "-F", "raw", zeros, nbd_uri(export))
    check(r.returncode == 0, "after init the VD reads zeros", r.stdout + r.stderr)
    check(wait_for(lambda: fx.run("/c0/v0", "start", "cc").returncode == 0),
          "after init the VD is consistent: start cc needs no force")
    check(wait_for(lambda: cc_row(fx).get("Status") == "Not in progress", 60) and
          cc_row(fx).get("Mismatches") == 0, "and finds 0 mismatches", cc_row(fx))


def bgi_row(fx):
    status, doc = fx.json("/c0/v0", "show", "bgi")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    return rows[0] if rows else {}


def case_background_init(fx):
    """A new RAID5 VD gets a BGI by itself and becomes consistent; pause, resume, stop."""
    for slot in range(3):  # stripes whose parity disagrees, as on drives used before
        image = image_of(fx, slot)
        if not check(image and os.path.exists(image), "member %d's image is known" % slot):
            return
        with open(image, "r+b") as f:
            f.seek(30 * MIB)
            f.write(os.urandom(MIB))
    fx.ok("/c0", "set", "bgirate=1")  # slow enough to be steered
    export = start_export(fx)
    if not export:
        return
    check(wait_for(lambda: bgi_row(fx).get("Status") == "In progress"),
          "exporting a VD that is not consistent starts its BGI", bgi_row(fx))
    check(bgi_row(fx).get("Operation") == "BGI", "show bgi has the BGI row", bgi_row(fx))
    fx.ok("/c0/v0", "pause", "bgi")
    check(bgi_row(fx).get("Status") == "Paused", "pause bgi pauses it", bgi_row(fx))
    r = fx.run("/c0/v0", "pause", "bgi")
    check(r.returncode == 255 and
          "the background initialization of /c0/v0 is paused already" in r.stdout and
          bgi_row(fx).get("Status") == "Paused",
          "a second pause bgi fails with 255: it is paused already", r.stdout)
    fx.ok("/c0/v0", "resume", "bgi")
    check(bgi_row(fx).get("Status") == "In progress", "resume bgi resumes it", bgi_row(fx))
    r = fx.run("/c0/v0", "resume", "bgi")
    check(r.returncode == 255 and
          "the background initialization of /c0/v0 is not paused" in r.stdout,
          "resume bgi of a running one fails with 255: it is not paused", r.stdout)
    fx.ok("/c0/v0", "stop", "bgi")
    check(bgi_row(fx).get("Status") == "Not in progress" and not vd_consistent(fx),
          "stop bgi stops it; the VD stays not consistent", bgi_row(fx))
    time.sleep(0.5)
    check(bgi_row(fx).get("Status") == "Not in progress",
          "a stopped BGI does not start again by itself", bgi_row(fx))
    fx.ok("/c0", "set", "ccrate=100")
    found = run_cc(fx)
    check(isinstance(found, int) and found > 0,
          "before its BGI, cc force finds the stripes that disagree", cc_row(fx))
    # The next start of the process starts it again; at full rate it ends.
    fx.ok("/c0", "set", "bgirate=100")
    fx.ok("/c0", "stop", "service")
    if not start_export(fx) or not wait_consistent(fx):
        return
    check(bgi_row(fx).get("Status") == "Not in progress", "the BGI has ended", bgi_row(fx))
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 0, "a consistent VD's cc needs no force", r.stdout)
    check(wait_for(lambda: cc_row(fx).get("Status") == "Not in progress", 60) and
          cc_row(fx).get("Mismatches") == 0,
          "and finds 0 mismatches: the BGI rewrote the parity that disagreed", cc_row(fx))
    # A new VD takes the deleted one's id: it gets a BGI of its own, not the old one's result.
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok("/c0/v0", "del", "force")
    fx.ok("/c0", "add", "vd", "r5", "drives=252:0-2")
    check(wait_for(lambda: bgi_row(fx).get("Status") == "In progress"),
          "a new VD given a deleted VD's id starts its own BGI", bgi_row(fx))
    fx.ok("/c0", "set", "bgirate=100")
    wait_consistent(fx)


def vd_partition(image, vd=0):
    """Where VD @vd's partition ("raidcli vN") begins in member @image, in bytes (its GPT)."""
    return partition(image, "raidcli v%d" % vd)


def partition(image, label):
    """Where the partition named @label begins in drive @image, in bytes (its GPT)."""
    with open(image, "rb") as f:
        f.seek(512)
        header = f.read(92)
        entries, count, size = struct.unpack_from("<QII", header, 72)
        f.seek(entries * 512)
        table = f.read(count * size)
    for i in range(count):
        entry = table[i * size:(i + 1) * size]
        name = entry[56:128].decode("utf-16-le").rstrip("\0")
        if name == label:
            return struct.unpack_from("<Q", entry, 32)[0] * 512
    return None


def recorded_config(image):
    """The configuration drive @image's record holds (lib/soft/format/record.h): the payload
    of its slot with the highest generation committed, its CRC checked (a slot being written
    is PENDING or fails it). {} if none."""
    start, best = partition(image, "raidcli metadata"), (0, {})
    with open(image, "rb") as f:
        for slot in (0, 512 * 1024):
            f.seek(start + slot)
            header = f.read(4096)
            generation, state, length, crc = struct.unpack_from("<QIII", header, 16)
            payload = f.read(length)
            if (header[:8] == b"RCLCFG01" and state == 2 and zlib.crc32(payload) == crc and
                    generation > best[0]):
                best = (generation, json.loads(payload))
    return best[1]


def md_examine(image):
    """mdadm --examine of VD 0's md superblock on member @image: its fields by name. It reads
    the partition's head (the superblock 4 KiB in) copied to a file, as md_events() does: 12
    KiB, as mdadm finds no superblock in a file of 8."""
    with open(image, "rb") as f:
        f.seek(vd_partition(image))
        head = f.read(4096 + 16 * 512)
    path = os.path.join(BUILD_ROOT, "service-examine-%d" % os.getpid())
    with open(path, "wb") as f:
        f.write(head)
    out = subprocess.run(["mdadm", "--examine", path], capture_output=True, text=True).stdout
    os.unlink(path)
    return dict((k.strip(), v.strip()) for k, v in re.findall(r"^ *([^:\n]+) : (.*)$", out,
                                                               re.M))


def settled_superblocks(fx, members):
    """mdadm --examine of each drive in @members, and their events, read again until the
    events agree or 20 s pass. The volume marks its array clean 5 s after its last write,
    writing one member after another (md_update_sb() does too): a read in between sees the
    members that have it a step apart, with nothing wrong."""
    deadline = time.monotonic() + 20
    while True:
        sbs = {slot: md_examine(image_of(fx, slot)) for slot in members}
        events = {slot: sb.get("Events") for slot, sb in sbs.items()}
        if len(set(events.values())) == 1 or time.monotonic() > deadline:
            return sbs, events
        time.sleep(0.2)


def check_rebuilt_md(fx, what, members, rebuilt):
    """After a rebuild onto drive @rebuilt: mdadm --examine of every member of v0 (the drives
    in @members, by role) shows md's end of a recovery. The rebuilt member is in sync (no
    Recovery Offset, its role active), every superblock at the same events with every role
    active, all with the array's name: md assembles it whole, as raidcli serves it."""
    sbs, events = settled_superblocks(fx, members)
    check(len(set(events.values())) == 1, "%s: every member's md superblock has the same "
          "events" % what, events)
    # Feature bit 2: md's recovery offset is valid (the member is still being recovered).
    check("Recovery Offset" not in sbs[rebuilt] and
          not int(sbs[rebuilt].get("Feature Map", "0x2"), 16) & 2,
          "%s: mdadm --examine shows no recovery offset on the rebuilt member" % what,
          sbs[rebuilt])
    for role, slot in enumerate(members):
        check(sbs[slot].get("Device Role") == "Active device %d" % role and
              sbs[slot].get("Array State", "").startswith("AAA "),
              "%s: s%d is active device %d, the array AAA" % (what, slot, role), sbs[slot])
    names = {slot: sb.get("Name") for slot, sb in sbs.items()}
    check(len(set(names.values())) == 1, "%s: every member has the array's name" % what, names)


def bitmap_dirty(image):
    """The dirty bits of the write-intent bitmap on member @image, as mdadm -X reads it. mdadm
    reads an internal bitmap only on a block device: it gets the bitmap (8 sectors past the
    superblock, itself 4 KiB into the partition) as a bitmap file, outside tmpfs (O_DIRECT)."""
    with open(image, "rb") as f:
        f.seek(vd_partition(image) + 16 * 512)
        bitmap = f.read(4096)
    path = os.path.join(BUILD_ROOT, "service-bitmap-%d" % os.getpid())
    with open(path, "wb") as f:
        f.write(bitmap)
    out = subprocess.run(["mdadm", "-X", path], capture_output=True, text=True).stdout
    os.unlink(path)
    m = re.search(r"Bitmap : (\d+) bits \(chunks\), (\d+) dirty", out)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def md_events(image):
    """The events of VD 0's md superblock on member @image and of its bitmap, as mdadm
    --examine and mdadm -X read them, and the bitmap's Events Cleared. Both get the
    partition's head (superblock 4 KiB in, bitmap 8 sectors past it) as a file."""
    with open(image, "rb") as f:
        f.seek(vd_partition(image))
        head = f.read(4096 + 16 * 512)
    path = os.path.join(BUILD_ROOT, "service-md-%d" % os.getpid())
    found = {}
    for option, data in (("--examine", head), ("-X", head[8192:])):
        with open(path, "wb") as f:
            f.write(data)
        out = subprocess.run(["mdadm", option, path], capture_output=True, text=True).stdout
        for key, value in re.findall(r"^ *(Events(?: Cleared)?) : (\d+)$", out, re.M):
            found[(option, key)] = int(value)
    os.unlink(path)
    return (found.get(("--examine", "Events")), found.get(("-X", "Events")),
            found.get(("-X", "Events Cleared")))


def settled_md_events(image):
    """md_events() of member @image, read again until its superblock's and its bitmap's
    events agree or 20 s pass. The volume marks its array clean 5 s after its last write, and
    that mark, as a configuration change, moves the bitmap's events first, then the
    superblock's (volume-bitmap.c): a read in between sees the two a step apart, with nothing
    wrong. Events that stay apart are still seen, as settled_superblocks() sees members'."""
    deadline = time.monotonic() + 20
    while True:
        events = md_events(image)
        if events[0] == events[1] or time.monotonic() > deadline:
            return events
        time.sleep(0.2)


def data_offset(image):
    """Where VD 0's data begins in member @image, in bytes: its partition, then md's offset."""
    with open(image, "rb") as f:
        f.seek(vd_partition(image) + 4096 + 128)  # md v1.2's data_offset, in sectors
        return vd_partition(image) + struct.unpack("<Q", f.read(8))[0] * 512


def service_log(fx):
    run = os.path.join(fx.state, "run")
    return "".join(open(os.path.join(run, n), errors="replace").read()
                   for n in sorted(os.listdir(run)) if n.endswith(".log"))


def write_regions(fx, export, regions):
    """Write random bytes to the VD at each (offset, length) of @regions, nothing else."""
    src = os.path.join(fx.root, "regions.img")
    with open(src, "wb") as f:
        f.truncate(fx_vd_bytes(fx))
        for offset, length in regions:
            f.seek(offset)
            f.write(os.urandom(length))
    # The source's holes are skipped: only the regions reach the VD.
    r = subprocess.run(["nbdcopy", "--destination-is-zero", "--flush", src, nbd_uri(export)],
                       capture_output=True, text=True, timeout=120)
    return check(r.returncode == 0, "nbdcopy writes %d regions" % len(regions), r.stderr)


def scribble(image, offset):
    """One 4 KiB block of a member changed behind the VD's back: a stripe torn by a crash."""
    with open(image, "r+b") as f:
        f.seek(offset)
        f.write(os.urandom(4096))


def kill_9(fx):
    """kill -9 the controller process; False (and nothing killed) when none runs."""
    pid = fx.service().get("PID")
    if not check(isinstance(pid, int) and pid > 1, "the controller process runs", pid):
        return False
    os.kill(pid, signal.SIGKILL)
    return check(wait_for(lambda: fx.service()["Status"] == "Not Running"),
                 "kill -9 ends the process")


def crash_after_writes(fx, regions):
    """Write @regions and kill -9 at once, within md's daemon_sleep (5 s): their bits stay set."""
    export = start_export(fx)
    if not export or not wait_consistent(fx) or not write_regions(fx, export, regions):
        return False
    return kill_9(fx)


def case_crash_resync(fx):
    """kill -9 right after writes: the restart resyncs only the bitmap's dirty regions."""
    # 320 MiB members: five 64 MiB bitmap regions. RAID5 on 3: VD byte x is near member x / 2.
    if not crash_after_writes(fx, [(0, 8 * MIB), (264 * MIB, 8 * MIB)]):
        return
    image = image_of(fx, 1)
    if not check(image and os.path.exists(image), "the member's image file is known", image):
        return
    bits, dirty = bitmap_dirty(image)
    check(bits == 5 and dirty == 2, "mdadm -X: 2 of 5 bitmap regions dirty", (bits, dirty))
    start = data_offset(image)
    scribble(image, start + 2 * MIB)    # in a dirty region: the resync rewrites its parity
    scribble(image, start + 260 * MIB)  # in a clean one: the resync does not go there
    fx.ok("/c0", "set", "bgirate=100")
    log = len(service_log(fx))
    if not start_export(fx):
        return
    check(wait_for(lambda: "ended: done" in service_log(fx)[log:], 120),
          "the resync ends", service_log(fx)[log:])
    check("v0 was not shut down cleanly" in service_log(fx)[log:] and
          "128 MiB swept per member" in service_log(fx)[log:],
          "it swept the 2 dirty regions only (2 x 64 MiB of each member)",
          service_log(fx)[log:])
    check(bitmap_dirty(image)[1] == 0,
          "mdadm -X: the resync cleared the bits as it passed them (the repaired region's too)",
          bitmap_dirty(image))
    fx.ok("/c0", "set", "ccrate=100")
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 0, "start cc (no force) after the resync", r.stdout)
    check(wait_for(lambda: cc_row(fx).get("Status") == "Not in progress", 60) and
          cc_row(fx).get("Mismatches") == 8,
          "cc finds the clean region's torn block only (8 sectors): the dirty one's was "
          "resynced", cc_row(fx))
    check(bitmap_dirty(image)[1] == 0, "mdadm -X: no dirty region left on the member",
          bitmap_dirty(image))
    check(run_cc(fx, "repair") == 8 and run_cc(fx) == 0,
          "after cc repair, cc finds 0 mismatches", cc_row(fx))
    fx.ok("/c0", "stop", "service")
    if start_export(fx):
        time.sleep(0.3)
        check(bgi_row(fx).get("Status") == "Not in progress",
              "after a clean stop no resync runs at the next start", bgi_row(fx))


def case_bitmap_events(fx):
    """The bitmap's events follow the md superblock's through a configuration change made
    while the VD is written (md takes a bitmap behind them as stale: a full resync)."""
    export = start_export(fx)
    if not export or not wait_consistent(fx) or not write_regions(fx, export, [(0, MIB)]):
        return
    images = [image_of(fx, slot) for slot in range(3)]
    before = settled_md_events(images[0])
    check(None not in before and before[0] == before[1],
          "mdadm: the bitmap's events are the superblock's", before)
    # A dedicated spare joins the array: every member's superblock events go one up.
    fx.ok("/c0/e252/s3", "add", "hotsparedrive", "dgs=0")
    # Within md's daemon_sleep: this write sets a bit in the bitmap's first sector again.
    if not write_regions(fx, export, [(264 * MIB, MIB)]):
        return
    for slot, image in enumerate(images):
        events = settled_md_events(image)
        check(events[0] is not None and events[0] > before[0] and events[0] == events[1],
              "member %d: mdadm -X's events are mdadm --examine's, after the change" % slot,
              (before, events))
    fx.ok("/c0/v0", "stop", "export")
    fx.ok("/c0", "stop", "service")
    for slot, image in enumerate(images):
        events = md_events(image)
        check(events[0] == events[1] == events[2] and bitmap_dirty(image)[1] == 0,
              "member %d: a clean stop clears the bits, Events Cleared = Events" % slot, events)


def case_crash_resync_resumes(fx):
    """kill -9 during the resync: the next start resyncs what was left, and only that."""
    if not crash_after_writes(fx, [(0, 8 * MIB), (264 * MIB, 8 * MIB)]):
        return
    image = image_of(fx, 1)
    # At 5% a 64 MiB region takes 20 times its I/O time (seconds, under ASan tens): time to
    # see the resync skip from the first region to the second (at 40% of the VD) and pause
    # it there; the pause's checkpoint clears the bit of the region passed.
    fx.ok("/c0", "set", "bgirate=5")
    if not start_export(fx):
        return
    check(wait_for(lambda: 40 <= (bgi_row(fx).get("Progress%") or 0) < 100, 180),
          "the resync skips from the first dirty region to the second", bgi_row(fx))
    fx.ok("/c0/v0", "pause", "bgi")
    check(wait_for(lambda: bitmap_dirty(image)[1] == 1, 30),
          "mdadm -X: the resync cleared the first region's bit", bitmap_dirty(image))
    if not kill_9(fx):
        return
    check(bitmap_dirty(image)[1] == 1, "one region is left dirty", bitmap_dirty(image))
    fx.ok("/c0", "set", "bgirate=100")
    log = len(service_log(fx))
    if not start_export(fx):
        return
    check(wait_for(lambda: "ended: done" in service_log(fx)[log:], 120) and
          "64 MiB swept per member" in service_log(fx)[log:],
          "the next start resyncs the one region left", service_log(fx)[log:])
    check(wait_for(lambda: bitmap_dirty(image)[1] == 0),
          "mdadm -X: no dirty region left", bitmap_dirty(image))
    fx.ok("/c0", "set", "ccrate=100")
    check(run_cc(fx) == 0, "cc finds 0 mismatches", cc_row(fx))


case_crash_resync.fixture = case_crash_resync_resumes.fixture = case_bitmap_events.fixture = lambda: Fixture(size="320MB")


def case_cc_degraded_refused(fx):
    """A degraded VD is not checked (MegaRAID refuses it) nor initialized in the background."""
    if not start_export(fx) or not wait_consistent(fx):
        return
    fx.ok("/c0/e252/s1", "set", "offline")
    for opts in ((), ("force",), ("force", "repair")):
        r = fx.run("/c0/v0", "start", "cc", *opts)
        check(r.returncode == 255 and "is not optimal" in r.stdout and
              "rebuild it first" in r.stdout,
              "start cc %s on a degraded VD is refused (255)" % " ".join(opts), r.stdout)
    check(cc_row(fx).get("Status") == "Not in progress" and cc_row(fx).get("Mismatches") == "-",
          "and no check ran", cc_row(fx))
    fx.ok("/c0/e252/s1", "set", "online")
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 0, "once optimal again, start cc runs", r.stdout)


def export_state(fx):
    status, doc = fx.json("/c0/v0", "show", "export")
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    return rows[0]["State"] if rows else None


def restart_dirty_degraded(fx, spare=False):
    """Write 16 MiB to the consistent VD and kill -9 within md's daemon_sleep (its bitmap bits
    stay set), set s2 offline and start the process again in the foreground: v0 is degraded
    and dirty; with @spare, a global hot spare is there to take s2's place. Return: the data
    written and the process's log file, or None."""
    if spare:
        fx.ok("/c0/e252/s3", "add", "hotsparedrive")
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return None
    src = fill_export(fx, export, 16)
    if not kill_9(fx):
        return None
    fx.ok("/c0/e252/s2", "set", "offline")
    check(not vd_consistent(fx), "with no process running, show does not call the degraded "
          "VD the crash left dirty consistent (Consist No)", fx.run("/c0/v0", "show").stdout)
    serve_log = os.path.join(fx.root, "serve.log")
    with open(serve_log, "w") as log:
        fx.foreground = subprocess.Popen([RAIDCLI, "/c0", "serve"], env=fx.env, stdout=log,
                                         stderr=log)
    if not check(wait_for(lambda: fx.service()["Status"] == "Running", timeout=30),
                 "serve starts", "exit status %s, log:\n%s" %
                 (fx.foreground.poll(), open(serve_log).read())):
        return None
    return src, serve_log


def case_dirty_degraded(fx):
    """A VD both degraded and dirty is served only with force (md's write hole rule)."""
    fx.ok("/c0/e252/s2", "set", "offline")  # never initialized, now degraded
    r = fx.run("/c0/v0", "start", "export")
    check(r.returncode == 245 and "degraded and not consistent" in r.stdout and
          "force" in r.stdout, "a degraded VD never initialized is refused (245)", r.stdout)
    check(start_export(fx, "force") is not None, "start export force serves it")
    fx.ok("/c0/e252/s2", "set", "online")
    fx.ok("/c0/v0", "stop", "export")
    fx.ok("/c0", "stop", "service")
    restarted = restart_dirty_degraded(fx)
    if not restarted:
        return
    src, serve_log = restarted
    # The persisted export is not served by the restarted process: it says why.
    check(export_state(fx) == "Needs force",
          "restarted, the process holds the persisted export of the dirty degraded VD",
          export_state(fx))
    check("not serving v0: it is degraded and was not shut down cleanly" in
          open(serve_log).read(), "its log says why", open(serve_log).read())
    status, doc = fx.json("/c0/v0", "show", "export")
    export = doc["Response Data"]["Export LIST"][0]
    r = subprocess.run(["nbdinfo", "--size", nbd_uri(export)], capture_output=True, text=True,
                       timeout=60)
    check(r.returncode != 0, "no client reaches it", r.stdout)
    r = fx.run("/c0/v0", "start", "export")
    check(r.returncode == 245 and "not shut down cleanly" in r.stdout,
          "a degraded VD a crash left dirty is refused (245)", r.stdout)
    check(not vd_consistent(fx), "and show does not call it consistent (Consist No)",
          fx.run("/c0/v0", "show").stdout)
    again = start_export(fx, "force")
    check(again is not None and again["State"] == "Serving", "start export force serves it",
          again)
    if again:
        r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(again))
        check(r.returncode == 0, "and the data reads back degraded", r.stdout + r.stderr)


def wait_rebuild_held(fx, serve_log):
    """The spare took s2's place, and its rebuild waits for force: the log says so."""
    check(wait_for(lambda: drive_state(fx, 3) == "Rbld"), "the hot spare takes s2's place",
          drive_state(fx, 3))
    check(wait_for(lambda: "the rebuild of /c0/e252/s3 waits at v0: it is degraded and was "
                           "not shut down cleanly" in open(serve_log).read()),
          "its rebuild waits for force, as the export does: the log says why",
          open(serve_log).read())
    row = rebuild_row(fx, 3)
    check(row.get("Status") == "Waiting for force" and row.get("Progress%") == 0,
          "show rebuild: waiting for force, nothing rebuilt", row)
    check(drive_ops(fx, 3) == "Rebuild (0%, waiting for force)",
          "the drive's show all: Active Operations says the rebuild waits for force",
          drive_ops(fx, 3))
    check(export_state(fx) == "Needs force", "the export is held", export_state(fx))
    check(force_notes(fx) == (True, True, True),
          "show rebuild, /c0/v0 show and /c0 show say what waits and the command that goes on",
          force_notes(fx))


def force_notes(fx):
    """Whether the footnotes of show rebuild (s3), /c0/v0 show and /c0 show say that the rebuild
    or v0 waits for force, each with the command that goes on."""
    rebuild = fx.ok("/c0/e252/s3", "show", "rebuild").stdout
    vd = fx.ok("/c0/v0", "show").stdout
    ctrl = fx.ok("/c0", "show").stdout
    held = "/c0/v0 waits for force: it is degraded and was not shut down cleanly"
    go_on = "'raidcli /c0/v0 start export force' serves it"
    return ("/c0/e252/s3 waits for force at /c0/v0: it is degraded and was not shut down "
            "cleanly" in rebuild and "'raidcli /c0/e252/s3 start rebuild force' goes on" in rebuild,
            held in vd and go_on in vd, held in ctrl and go_on in ctrl)


def resynced_once_whole(fx, serve_log):
    """Whole again, the VD gets the resync the crash called for: no dirty region is left."""
    check(wait_for(lambda: "v0 was not shut down cleanly: resyncing it" in
                   open(serve_log).read(), 60), "whole again, v0 is resynced",
          open(serve_log).read())
    check(wait_for(lambda: bgi_row(fx).get("Status") == "Not in progress", 60),
          "the resync ends", bgi_row(fx))
    image = image_of(fx, 0)
    check(bitmap_dirty(image)[1] == 0, "mdadm -X: no dirty region left", bitmap_dirty(image))


def case_dirty_degraded_rebuild_force(fx):
    """A hot spare's rebuild of a degraded dirty VD waits for the force the export waits
    for: 'start rebuild force' gives it to both."""
    restarted = restart_dirty_degraded(fx, spare=True)
    if not restarted:
        return
    src, serve_log = restarted
    wait_rebuild_held(fx, serve_log)
    r = fx.run("/c0/e252/s3", "start", "rebuild")
    check(r.returncode == 245 and "waits at /c0/v0" in r.stdout and "force" in r.stdout,
          "start rebuild without force is refused (245), saying why", r.stdout)
    # At 1% the rebuild is still running when show rebuild looks (case_rebuild_spare).
    fx.ok("/c0", "set", "rebuildrate=1")
    r = fx.run("/c0/e252/s3", "start", "rebuild", "force")
    check(r.returncode == 0, "start rebuild force starts it", r.stdout)
    check(rebuild_row(fx, 3).get("Status") == "In progress",
          "show rebuild: in progress once forced", rebuild_row(fx, 3))
    check(force_notes(fx) == (False, False, False), "and no footnote says it waits any more",
          force_notes(fx))
    check(export_state(fx) == "Serving", "and the export is served: the same force",
          export_state(fx))
    fx.ok("/c0", "set", "rebuildrate=100")
    check(wait_online(fx, 3), "the rebuild completes", drive_state(fx, 3))
    status, doc = fx.json("/c0/v0", "show", "export")
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src,
                 nbd_uri(doc["Response Data"]["Export LIST"][0]))
    check(r.returncode == 0, "the data reads back", r.stdout + r.stderr)
    resynced_once_whole(fx, serve_log)


def case_dirty_degraded_export_force(fx):
    """'start export force' lets the waiting rebuild go on too."""
    restarted = restart_dirty_degraded(fx, spare=True)
    if not restarted:
        return
    src, serve_log = restarted
    wait_rebuild_held(fx, serve_log)
    check(start_export(fx, "force") is not None and export_state(fx) == "Serving",
          "start export force serves it", export_state(fx))
    check(wait_online(fx, 3), "and the rebuild goes on by itself to the end",
          drive_state(fx, 3))


def case_dirty_degraded_member_back(fx):
    """The export held for force is served once the VD is no longer degraded: the member
    came back with its data, and the resync puts the parity right."""
    restarted = restart_dirty_degraded(fx)
    if not restarted:
        return
    src, serve_log = restarted
    check(export_state(fx) == "Needs force", "the export is held", export_state(fx))
    fx.ok("/c0/e252/s2", "set", "online")
    check(export_state(fx) == "Serving", "set online: the export is served without force",
          export_state(fx))
    check("v0 needs no force now: serving it" in open(serve_log).read(), "the log says so",
          open(serve_log).read())
    resynced_once_whole(fx, serve_log)
    status, doc = fx.json("/c0/v0", "show", "export")
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src,
                 nbd_uri(doc["Response Data"]["Export LIST"][0]))
    check(r.returncode == 0, "the data reads back", r.stdout + r.stderr)


# ---------------------------------------------------------------------------
# Patrol reads (lib/soft/service/patrol.c).

def patrol(fx):
    """show patrolread as a dict of Ctrl_Prop: Value."""
    status, doc = fx.json("/c0", "show", "patrolread")
    rows = doc.get("Response Data", {}).get("Controller Properties", [])
    return {row["Ctrl_Prop"]: row["Value"] for row in rows}


def patrol_percent(fx):
    value = patrol(fx).get("PR Progress%", "-")
    return int(value) if value.isdigit() else -1


def case_patrol_read(fx):
    """Manual patrol read: start, pause, kill -9 while paused, resumed paused by
    the next process from its checkpoint, resume, completes; events logged."""
    start_export(fx)  # the process runs the VD's BGI
    check(wait_consistent(fx), "the VD's BGI completes first")
    fx.ok("/c0", "set", "patrolread=on", "mode=manual", "prrate=1")
    check(patrol(fx).get("PR Mode") == "Manual", "set patrolread=on mode=manual", patrol(fx))
    r = fx.run("/c0", "start", "patrolread")
    check(r.returncode == 0, "start patrolread", r.stdout)
    check(patrol(fx).get("PR Current State") == "Active", "show patrolread: Active", patrol(fx))
    r = fx.run("/c0", "start", "patrolread")
    check(r.returncode == 255 and "in progress already" in r.stdout,
          "a second start patrolread fails with 255", r.stdout)
    check(wait_for(lambda: patrol_percent(fx) >= 3, 60), "the patrol read moves", patrol(fx))
    left = patrol(fx).get("PR Estimated Time Left", "")
    check(re.search(r"\d+ (Seconds|Minutes|Hours)", left), "it says the time left", left)
    r = fx.run("/c0", "resume", "patrolread")
    check(r.returncode == 255 and "/c0: the patrol read is not paused" in r.stdout,
          "resume patrolread of a running one fails with 255", r.stdout)
    fx.ok("/c0", "pause", "patrolread")
    check(patrol(fx).get("PR Current State") == "Paused", "pause patrolread", patrol(fx))
    r = fx.run("/c0", "pause", "patrolread")
    check(r.returncode == 255 and "/c0: the patrol read is paused already" in r.stdout,
          "a second pause patrolread fails with 255: it is paused already", r.stdout)
    check(wait_for(lambda: patrol_pause_recorded(fx, patrol_percent(fx)), 60, 0.2),
          "the pause's checkpoint reaches the record", patrol(fx))
    os.kill(fx.service()["PID"], signal.SIGKILL)
    check(wait_for(lambda: fx.service()["Status"] == "Not Running"), "the process is killed")
    row = patrol(fx)
    recorded = patrol_percent(fx)
    check(row.get("PR Current State") == "Interrupted" and recorded >= 3,
          "without a process: Interrupted, with the recorded progress", row)
    start_export(fx)
    row = patrol(fx)
    check(row.get("PR Current State") == "Paused" and patrol_percent(fx) >= recorded,
          "the next process resumes it where it stood, still paused (%d%%)" % recorded, row)
    fx.ok("/c0", "set", "prrate=100")
    fx.ok("/c0", "resume", "patrolread")
    check(wait_for(lambda: patrol(fx).get("PR Current State") == "Stopped", 60),
          "the patrol read completes", patrol(fx))
    row = patrol(fx)
    check(row.get("PR iterations completed") == "1" and row.get("PR Media Errors") == "0",
          "one iteration, no media error", row)
    events = fx.ok("/c0", "show", "events").stdout
    check("Patrol Read started (by the user)" in events and
          "Patrol Read complete (0 media errors)" in events and
          "Background Initialization started on VD 0" in events and
          "Background Initialization complete on VD 0" in events,
          "the patrol read's and the BGI's starts and ends are in the event log", events)


def case_patrol_auto_and_stop(fx):
    """Auto mode plans the next start delay= hours ahead; stop ends one; off stops it."""
    start_export(fx)
    check(wait_consistent(fx), "the VD's BGI completes first")
    fx.ok("/c0", "set", "patrolread=on", "mode=auto", "delay=24", "prrate=1")
    row = patrol(fx)
    planned = row.get("PR Next Start time", "-")
    check(row.get("PR Mode") == "Auto" and re.match(r"\d\d/\d\d/\d{4}, ", planned),
          "auto mode shows the next start", row)
    when = calendar.timegm(time.strptime(planned, "%m/%d/%Y, %H:%M:%S"))
    check(abs(when - time.time() - 24 * 3600) < 120, "24 hours from now", planned)
    fx.ok("/c0", "start", "patrolread")
    check(patrol(fx).get("PR Next Start time") == "-", "none is planned while one runs",
          patrol(fx))
    r = fx.run("/c0", "stop", "patrolread")
    row = patrol(fx)
    check(r.returncode == 0 and row.get("PR Current State") == "Stopped" and
          row.get("PR iterations completed") == "0", "stop patrolread stops it", row)
    r = fx.run("/c0", "stop", "patrolread")
    check(r.returncode == 255 and "no patrol read is in progress" in r.stdout,
          "stopping none fails with 255", r.stdout)
    fx.ok("/c0", "start", "patrolread")
    fx.ok("/c0", "set", "patrolread=off")
    row = patrol(fx)
    check(row.get("PR Mode") == "Disable" and row.get("PR Current State") == "Stopped",
          "set patrolread=off stops the one running", row)
    check("Patrol Read stopped at" in fx.ok("/c0", "show", "events").stdout,
          "the stop is in the event log")


def patrol_once(fx):
    """Run one manual patrol read to its end; its show patrolread rows."""
    fx.ok("/c0", "start", "patrolread")
    check(wait_for(lambda: patrol(fx).get("PR Current State") == "Stopped", 60, 0.2),
          "the patrol read completes", patrol(fx))
    return patrol(fx)


def arm_bad_drive(fx, path):
    """Make the reads of @path's bad sectors fail, none of them cached."""
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    open(os.path.join(fx.root, "trigger"), "w").close()


def case_patrol_uncfgareas_drive(fx):
    """uncfgareas=on: the patrol read also reads the unconfigured good drives;
    one whose reads fail is counted and logged. Off: they are not read."""
    path, why = bad_drive(fx)
    if not path:
        print("SKIP: case_patrol_uncfgareas_drive: " + why)
        return
    fx.ok("/c0/e252/s3", "del")
    fx.ok("/c0", "add", "drive", "path=" + path)
    start_export(fx)
    check(wait_consistent(fx), "the VD's BGI completes first")
    fx.ok("/c0", "set", "patrolread=on", "mode=manual", "prrate=100")
    fx.ok("/c0", "set", "patrolread", "uncfgareas=off")
    arm_bad_drive(fx, path)
    row = patrol_once(fx)
    check(row.get("PR Unconfigured Areas") == "Disabled" and row.get("PR Media Errors") == "0",
          "uncfgareas=off: the unconfigured drive is not read", row)
    check(str(drive_field(fx, 3, "Media Error Count")) == "0", "its count stays 0",
          drive_field(fx, 3, "Media Error Count"))
    fx.ok("/c0", "set", "patrolread", "uncfgareas=on")
    row = patrol_once(fx)
    check(row.get("PR Unconfigured Areas") == "Enabled" and row.get("PR Media Errors") != "0",
          "uncfgareas=on: the unconfigured drive's failing reads are counted", row)
    events = fx.ok("/c0", "show", "events").stdout
    check(re.search(r"Patrol Read found \d+ media errors on unconfigured drive /c0/e252/s3",
                    events), "and logged as an event", events)
    check(drive_field(fx, 3, "State") == "UGood", "the drive stays unconfigured good",
          drive_field(fx, 3, "State"))
    check(str(drive_field(fx, 3, "Media Error Count")) == row.get("PR Media Errors"),
          "its Media Error Count is raised by them", drive_field(fx, 3, "Media Error Count"))
    fx.ok("/c0", "stop", "service")
    check(str(drive_field(fx, 3, "Media Error Count")) == row.get("PR Media Errors"),
          "and kept without the process", drive_field(fx, 3, "Media Error Count"))


def case_patrol_uncfgareas_free_space(fx):
    """uncfgareas=on: the patrol read also reads the free space of a group's
    members; a member whose reads fail there is failed, as in the VD's data."""
    path, why = bad_drive(fx)
    if not path:
        print("SKIP: case_patrol_uncfgareas_free_space: " + why)
        return
    fx.ok("/c0/v0", "del", "force")
    fx.ok("/c0/e252/s3", "del")
    fx.ok("/c0", "add", "drive", "path=" + path)
    # The VD's data lies below 12 MiB, the drive's bad sectors in the free space above.
    fx.ok("/c0", "add", "vd", "r1", "drives=252:0,3", "size=8MB")
    start_export(fx)
    check(wait_consistent(fx), "the VD's BGI completes first")
    fx.ok("/c0", "set", "patrolread=on", "mode=manual", "prrate=100")
    arm_bad_drive(fx, path)
    row = patrol_once(fx)
    check(row.get("PR Media Errors") == "0" and drive_field(fx, 3, "State") == "Onln",
          "uncfgareas=off: the free space is not read", row)
    fx.ok("/c0", "set", "patrolread", "uncfgareas=on")
    row = patrol_once(fx)
    check(row.get("PR Media Errors") != "0", "uncfgareas=on: the failing reads are counted", row)
    check(wait_for(lambda: drive_field(fx, 3, "State") == "UBad", step=0.2),
          "the member is failed", drive_field(fx, 3, "State"))
    status, doc = fx.json("/c0/v0", "show")
    check(doc["Response Data"]["Virtual Drives"][0]["State"] == "Dgrd",
          "the VD is degraded", doc)


def case_patrol_starttime(fx):
    """set patrolread starttime=: in auto mode the next patrol read starts at
    that hour, not delay= hours after the last; the settings survive a
    restart. The hour is real, but the process's schedule clock is shifted
    by RAIDCLI_TEST_CLOCK_SHIFT (a test-only variable: schedule_now() in
    lib/soft/service/settings.c) to a few seconds before it, so that the
    test need not wait for an hour to come."""
    hour = (int(time.time()) // 3600 + 2) * 3600
    lead = 15  # seconds of the shifted clock before the hour
    fx.env["RAIDCLI_TEST_CLOCK_SHIFT"] = str(hour - int(time.time()) - lead)
    fx.ok("/c0", "set", "patrolread=on", "mode=auto", "prrate=100")
    day, hh = time.strftime("%Y/%m/%d %H", time.gmtime(hour)).split()
    fx.ok("/c0", "set", "pr", "starttime=" + day, hh, "maxconcurrentpd=2", "includessds=off")
    planned = time.strftime("%m/%d/%Y, %H:%M:%S", time.gmtime(hour))
    row = patrol(fx)
    check(row.get("PR Next Start time") == planned and row.get("PR MaxConcurrentPd") == "2" and
          row.get("PR on SSD") == "Disabled", "show patrolread plans it for that hour", row)
    start_export(fx)
    row = patrol(fx)
    check(row.get("PR Current State") == "Stopped" and row.get("PR iterations completed") == "0",
          "none starts before the hour", row)
    check(wait_for(lambda: patrol(fx).get("PR iterations completed") == "1", 90),
          "the patrol read starts at the hour and runs to its end", patrol(fx))
    events = fx.ok("/c0", "show", "events").stdout
    check("Patrol Read started (auto mode)" in events, "the event log has the auto start", events)
    after = patrol(fx).get("PR Next Start time", "-")
    when = calendar.timegm(time.strptime(after, "%m/%d/%Y, %H:%M:%S")) if after != "-" else 0
    check(0 <= when - hour - 168 * 3600 < 600,
          "the next is delay= (168) hours after that one ended", after)
    fx.ok("/c0", "stop", "service")
    start_export(fx)
    row = patrol(fx)
    check(row.get("PR MaxConcurrentPd") == "2" and row.get("PR on SSD") == "Disabled" and
          row.get("PR iterations completed") == "1", "the settings survive a restart", row)


# ---------------------------------------------------------------------------
# The scheduled consistency check (lib/soft/service/cc-schedule.c).

def cc_sched(fx):
    """/c0 show cc as a dict of Ctrl_Prop: Value."""
    status, doc = fx.json("/c0", "show", "cc")
    rows = doc.get("Response Data", {}).get("Controller Properties", [])
    return {row["Ctrl_Prop"]: row["Value"] for row in rows}


def checking(fx):
    """The VDs whose consistency check is in progress, from /c0/vall show cc."""
    status, doc = fx.json("/c0/vall", "show", "cc")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    return sorted(row["VD"] for row in rows if row["Status"] == "In progress")


def schedule_at(fx, hour, lead):
    """Shift the schedule clock of the next controller process (the test-only
    RAIDCLI_TEST_CLOCK_SHIFT of case_patrol_starttime) to @lead seconds
    before @hour; return @hour as starttime= words."""
    fx.env["RAIDCLI_TEST_CLOCK_SHIFT"] = str(hour - int(time.time()) - lead)
    day, hh = time.strftime("%Y/%m/%d %H", time.gmtime(hour)).split()
    return ["starttime=" + day, hh]


def cc_schedule_fixture():
    """Three redundant VDs: v0 RAID5, v1 and v2 RAID1."""
    fx = Fixture(drives=7)
    fx.ok("/c0", "add", "vd", "r1", "drives=252:3-4")
    fx.ok("/c0", "add", "vd", "r1", "drives=252:5-6")
    fx.ok("/c0", "set", "bgirate=100", "ccrate=1")
    return fx


def case_cc_schedule(fx):
    """set cc=seq: at the start time the redundant VDs are checked one at a
    time; set cc=conc: all at once, but the excluded one; show cc counts the
    runs and the VDs they checked. The hours are real; the process's clock
    is shifted to shortly before them."""
    hour = (int(time.time()) // 3600 + 2) * 3600
    fx.ok("/c0", "set", "cc=seq", *schedule_at(fx, hour, 40))
    row = cc_sched(fx)
    check(row.get("CC Operation Mode") == "Sequential" and
          row.get("CC Next Starttime") == time.strftime("%m/%d/%Y, %H:%M:%S",
                                                        time.gmtime(hour)),
          "show cc plans the run for that hour", row)
    start_export(fx)
    for vd in range(3):
        wait_consistent(fx, vd)
    check(checking(fx) == [], "no check before the hour", checking(fx))
    check(wait_for(lambda: checking(fx) == [0], 60),
          "at the hour the first VD's check starts, and it alone", checking(fx))
    row = cc_sched(fx)
    check(row.get("CC Current State") == "Active" and row.get("CC Next Starttime") == "-",
          "show cc: Active", row)
    fx.ok("/c0", "set", "ccrate=100")
    check(wait_for(lambda: cc_sched(fx).get("CC Number of iterations") == "1", 60),
          "the run ends", cc_sched(fx))
    row = cc_sched(fx)
    check(row.get("CC Number of VD completed") == "3" and row.get("CC Current State") == "Stopped",
          "it checked the three VDs to their end", row)
    events = fx.ok("/c0", "show", "events").stdout
    check("Scheduled Consistency Check started (Sequential)" in events and
          "Scheduled Consistency Check complete (3 VDs checked)" in events,
          "the run's start and end are events", events)

    fx.ok("/c0", "stop", "service")
    fx.ok("/c0", "set", "ccrate=1")
    fx.ok("/c0", "set", "cc=conc", "excludevd=1", *schedule_at(fx, hour + 3600, 15))
    start_export(fx)
    check(wait_for(lambda: checking(fx) == [0, 2], 60),
          "conc: the VDs not excluded are checked at once", checking(fx))
    check(cc_sched(fx).get("CC Excluded VDs") == "1", "show cc lists the excluded VD",
          cc_sched(fx))
    fx.ok("/c0", "set", "ccrate=100")
    check(wait_for(lambda: cc_sched(fx).get("CC Number of iterations") == "2", 60),
          "the second run ends", cc_sched(fx))
    check(cc_sched(fx).get("CC Number of VD completed") == "2",
          "it checked two VDs, not the excluded one", cc_sched(fx))
    fx.ok("/c0", "set", "cc=off")
    check(cc_sched(fx).get("CC Next Starttime") == "-", "cc=off plans none", cc_sched(fx))


case_cc_schedule.fixture = cc_schedule_fixture


def vd_cc_row(fx, vd):
    status, doc = fx.json("/c0/v%d" % vd, "show", "cc")
    rows = doc.get("Response Data", {}).get("VD Operation Status", [])
    return rows[0] if rows else {}


def kill_9_scheduled_check(fx, hour):
    """A torn stripe at v0's start; at @hour a sequential scheduled check
    (delay=24) starts with v0, finds it, is paused past 5% and recorded,
    and the process is killed. Return: v0's paused cc row, or None when no
    process could be killed."""
    start_export(fx)
    for vd in range(3):
        wait_consistent(fx, vd)
    fx.ok("/c0", "stop", "service")
    image = image_of(fx, 0)
    scribble(image, data_offset(image))
    fx.ok("/c0", "set", "cc=seq", "delay=24", *schedule_at(fx, hour, 15))
    start_export(fx)
    check(wait_for(lambda: checking(fx) == [0], 60), "at the hour v0's check starts",
          checking(fx))
    check(wait_for(lambda: (vd_cc_row(fx, 0).get("Progress%") or 0) >= 5, 60),
          "v0's check moves", vd_cc_row(fx, 0))
    fx.ok("/c0/v0", "pause", "cc")
    paused = vd_cc_row(fx, 0)
    check(paused.get("Mismatches") == 8, "it found the torn block (8 sectors)", paused)
    check(wait_for(lambda: cc_pause_recorded(fx), 60, 0.2),
          "the pause's checkpoint reaches the record", task_record(fx, "-cc"))
    return paused if kill_9(fx) else None


def cc_pause_recorded(fx):
    """Whether the scheduled run's record holds v0's check where show cc says it stands: a
    paused check checkpoints, and the process's loop records that at its next tick. The
    mark's position counts each member's bytes (v0: RAID5 on 3, two members' worth of data)."""
    row = vd_cc_row(fx, 0)
    mark = next((m for m in task_record(fx, "-cc").get("marks", []) if m.get("vd") == 0), {})
    return (mark.get("mismatches") == row.get("Mismatches") and
            mark.get("position", 0) * 100 // (fx_vd_bytes(fx) // 2) == row.get("Progress%"))


def case_cc_schedule_kill_9(fx):
    """kill -9 while the scheduled check runs: without a process show cc says
    Interrupted; the next process goes on with the same run, the VD's check
    from where it stood (not from 0) with the mismatches it had found, to
    its end; the run is not begun anew, and the next one is planned delay=
    hours after it ended."""
    hour = (int(time.time()) // 3600 + 2) * 3600
    paused = kill_9_scheduled_check(fx, hour)
    if not paused:
        return
    image = image_of(fx, 0)
    row = cc_sched(fx)
    check(row.get("CC Current State") == "Interrupted" and
          row.get("CC Number of iterations") == "0",
          "without a process show cc says the run was interrupted", row)
    # Torn below where the check stood (5% of 64 MiB and more): found only if it starts over.
    scribble(image, data_offset(image) + MIB)
    start_export(fx)
    check(wait_for(lambda: vd_cc_row(fx, 0).get("Status") == "In progress", 30),
          "the next process goes on with the run", vd_cc_row(fx, 0))
    first = vd_cc_row(fx, 0)
    check((first.get("Progress%") or 0) >= paused.get("Progress%"),
          "the next process goes on with v0's check from where it stood (%s%%), not from 0"
          % paused.get("Progress%"), first)
    check(cc_sched(fx).get("CC Current State") == "Active", "show cc: the run is Active",
          cc_sched(fx))
    fx.ok("/c0", "set", "ccrate=100")
    check(wait_for(lambda: cc_sched(fx).get("CC Number of iterations") == "1", 60),
          "the run ends", cc_sched(fx))
    row = cc_sched(fx)
    check(row.get("CC Number of VD completed") == "3", "it checked the three VDs to their end",
          row)
    found = [vd_cc_row(fx, vd).get("Mismatches") for vd in range(3)]
    check(found == [8, 0, 0],
          "v0's check counts the torn block it found before the kill, and not the one put "
          "where it had been already", found)
    events = fx.ok("/c0", "show", "events").stdout
    check(events.count("Scheduled Consistency Check started") == 1 and
          "Scheduled Consistency Check complete (3 VDs checked)" in events,
          "the event log has one run, begun once and complete", events)
    planned = row.get("CC Next Starttime", "-")
    when = calendar.timegm(time.strptime(planned, "%m/%d/%Y, %H:%M:%S")) if planned != "-" else 0
    check(0 <= when - hour - 24 * 3600 < 600,
          "the next run is planned delay= (24) hours after this one ended", planned)


case_cc_schedule_kill_9.fixture = cc_schedule_fixture


def case_cc_schedule_mark_of_another_vd(fx):
    """The scheduled check's record names the VD each checkpoint belongs to
    (its UUID): when the VD with that number is another one by the time a
    process starts (deleted and another made or imported with its number
    while none ran, here: the record's UUID changed), its check begins at
    its start, and the log says why."""
    hour = (int(time.time()) // 3600 + 2) * 3600
    paused = kill_9_scheduled_check(fx, hour)
    if not paused:
        return
    tasks = os.path.join(fx.state, "tasks")
    path = os.path.join(tasks, [n for n in os.listdir(tasks) if n.endswith("-cc.json")][0])
    record = json.load(open(path))
    marks = record.get("marks", [])
    check(len(marks) == 1 and marks[0].get("vd") == 0 and marks[0].get("position", 0) > 0 and
          re.fullmatch(r"[0-9A-F-]{36}", marks[0].get("uuid", "")),
          "the record keeps v0's checkpoint with the VD's UUID", marks)
    marks[0]["uuid"] = "0123ABCD-0000-4000-8000-0123456789AB"
    with open(path, "w") as f:
        json.dump(record, f)
    log = len(service_log(fx))
    # Paced to 1 %, the check begun anew is still below where it was paused
    # when first looked at (at full rate it can pass 10% before that).
    fx.ok("/c0", "set", "ccrate=1")
    start_export(fx)
    check(wait_for(lambda: vd_cc_row(fx, 0).get("Status") == "In progress", 30),
          "the next process goes on with the run", vd_cc_row(fx, 0))
    first = vd_cc_row(fx, 0)
    check((first.get("Progress%") or 0) < paused.get("Progress%"),
          "v0's check begins at its start, not where the other VD's stood (%s%%)"
          % paused.get("Progress%"), first)
    check("starts v0 from its start" in service_log(fx)[log:],
          "the log says why it starts over", service_log(fx)[log:])


case_cc_schedule_mark_of_another_vd.fixture = cc_schedule_fixture


def case_cc_schedule_waits_for_resync(fx):
    """A scheduled check that comes due while a crash's resync runs waits for
    it, and does not take its place: a check (no repair) in its stead would
    leave the dirty regions' parity stale until the next restart. The
    user's start cc is refused while the resync runs, for the same reason."""
    if not crash_after_writes(fx, [(0, 8 * MIB), (264 * MIB, 8 * MIB)]):
        return
    fx.ok("/c0", "set", "bgirate=1", "ccrate=100")
    hour = (int(time.time()) // 3600 + 2) * 3600
    fx.ok("/c0", "set", "cc=seq", *schedule_at(fx, hour, 5))
    log = len(service_log(fx))
    if not start_export(fx):
        return
    check(wait_for(lambda: "scheduled consistency check started" in service_log(fx)[log:], 60),
          "the scheduled check comes due", service_log(fx)[log:])
    time.sleep(2)
    check("v0 was not shut down cleanly" in service_log(fx)[log:] and
          "the BGI of v0 ended" not in service_log(fx)[log:] and checking(fx) == [],
          "the resync goes on, and v0's check waits for it", (checking(fx), service_log(fx)[log:]))
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode != 0 and "background initialization of /c0/v0" in r.stdout and
          "comes first" in r.stdout,
          "start cc is refused while the resync runs", r.stdout)
    fx.ok("/c0", "set", "bgirate=100")
    check(wait_for(lambda: cc_sched(fx).get("CC Number of iterations") == "1", 120),
          "the run ends", cc_sched(fx))
    check("the BGI of v0 ended: done" in service_log(fx)[log:] and
          cc_sched(fx).get("CC Number of VD completed") == "1",
          "the resync ended done, then the check of v0 ran to its end",
          (cc_sched(fx), service_log(fx)[log:]))


case_cc_schedule_waits_for_resync.fixture = lambda: Fixture(size="320MB")


def case_cc_after_crash_waits_for_resync(fx):
    """After a kill -9 with regions to resync, a start cc (no repair) with no
    process running is refused before it starts one, as the process refuses
    it while the resync runs: a check that only counts in its place would
    leave the dirty regions' parity stale. With repair it runs."""
    if not crash_after_writes(fx, [(0, 8 * MIB), (264 * MIB, 8 * MIB)]):
        return
    r = fx.run("/c0/v0", "start", "cc")
    check(r.returncode == 255 and "resync" in r.stdout and "repair" in r.stdout,
          "start cc is refused, saying the resync comes first and naming repair",
          r.stdout + service_log(fx))
    check(fx.service()["Status"] == "Not Running", "and starts no controller process",
          fx.service())
    r = fx.run("/c0/v0", "start", "cc", "repair")
    check(r.returncode == 0, "start cc repair runs: it rewrites what the resync would",
          r.stdout)


case_cc_after_crash_waits_for_resync.fixture = lambda: Fixture(size="320MB")


def case_cc_schedule_skips_raid0(fx):
    """A scheduled check skips a RAID0 VD (nothing to compare) and checks the
    others; the RAID0 VD's export goes on serving what was written to it."""
    fx.ok("/c0", "add", "vd", "r1", "drives=252:2-3")
    fx.ok("/c0", "set", "bgirate=100", "ccrate=100")
    start_export(fx)
    wait_consistent(fx, 1)
    fx.ok("/c0", "stop", "service")
    hour = (int(time.time()) // 3600 + 2) * 3600
    fx.ok("/c0", "set", "cc=seq", *schedule_at(fx, hour, 10))
    export = start_export(fx)
    if not export:
        return
    src = fill_export(fx, export, 16)
    check(wait_for(lambda: cc_sched(fx).get("CC Number of iterations") == "1", 60),
          "the run ends", (cc_sched(fx), service_log(fx)))
    check(cc_sched(fx).get("CC Number of VD completed") == "1" and
          "skips v0" in service_log(fx), "it checked the RAID1 VD and skipped the RAID0 one",
          (cc_sched(fx), service_log(fx)))
    r = qemu_img("compare", "-f", "raw", "-F", "raw", src, nbd_uri(export))
    check(r.returncode == 0, "the RAID0 VD's export still reads back what was written",
          r.stdout + r.stderr + service_log(fx))
    check(fx.service()["Status"] == "Running", "the controller process still runs",
          service_log(fx))


case_cc_schedule_skips_raid0.fixture = lambda: Fixture(vd=("r0", "drives=252:0-1"))


def case_expand_initializes(fx):
    """A VD grown while the process runs is initialized again, over its new size."""
    export = start_export(fx)
    if not export or not wait_consistent(fx):
        return
    fx.ok("/c0/v0", "stop", "export")
    check(fx.service()["Status"] == "Running", "the process stays after the export stops")
    before = fx_vd_bytes(fx)
    # Paced to 1 %, the new BGI is still under way when looked at (at full
    # rate it can end before "show" runs on an idle machine).
    fx.ok("/c0", "set", "bgirate=1")
    fx.ok("/c0/v0", "expand", "size=16MB")
    check(fx_vd_bytes(fx) > before and not vd_consistent(fx),
          "the grown VD is larger and not consistent", fx_vd_bytes(fx))
    fx.ok("/c0", "set", "bgirate=100")
    wait_consistent(fx)
    check(bgi_row(fx).get("Status") == "Not in progress", "its new BGI has ended",
          bgi_row(fx))


case_expand_initializes.fixture = lambda: Fixture(vd=("r5", "drives=252:0-2", "size=32MB"))


CASES = [case_serve_foreground, case_sigint, case_forwarding_same_output,
         case_control_socket_robust, case_process_dies_mid_request,
         case_process_killed_as_change_sent, case_commands_during_stop,
         case_changes_through_process,
         case_export_auto_start, case_nbdinfo,
         case_read_only_export, case_qemu_img_roundtrip, case_member_failure,
         case_restart_serves_persisted, case_kill_9_recovers, case_tcp_export,
         case_delete_exported, case_delete_ctrl_with_client, case_bad_input, case_state_dir_too_long, case_state_dir_deleted,
         case_state_dir_deleted_rebuilding, case_rebuild_spare,
         case_rebuild_resumes_after_kill, case_rebuild_no_spare, case_rebuild_onto_unconfigured,
         case_consistency_check, case_background_init, case_crash_resync,
         case_crash_resync_resumes, case_bitmap_events, case_dirty_degraded,
         case_dirty_degraded_rebuild_force, case_dirty_degraded_export_force,
         case_dirty_degraded_member_back, case_cc_degraded_refused,
         case_patrol_read, case_patrol_auto_and_stop, case_patrol_starttime,
         case_patrol_uncfgareas_drive, case_patrol_uncfgareas_free_space,
         case_cc_schedule, case_cc_schedule_kill_9, case_cc_schedule_mark_of_another_vd,
         case_cc_schedule_waits_for_resync, case_cc_schedule_skips_raid0,
         case_cc_after_crash_waits_for_resync, case_expand_initializes]


def main():
    only = sys.argv[1:]
    run_cases(CASES, only)
    if not only or "case_systemd_unit" in only:
        case_systemd_unit()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
