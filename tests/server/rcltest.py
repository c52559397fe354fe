# SPDX-License-Identifier: MIT
"""rcltest.py - what the tests of the controller process share.

A state directory with a soft controller (Fixture), raidcli run in it,
counted checks, the NBD address of an export, real clients (qemu-img), and
a drive that fails reads on demand (nbdkit behind nbdfuse). Imported by
the tests here, whose main loops are run_cases() and run_jobs(); the tests
of tests/cli take its counted checks, wait_for() and run_parts() too, and
tests/vm its wait_for() (with the directory of this file on sys.path).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

RAIDCLI = os.environ.get("RAIDCLI", "raidcli")
BUILD_ROOT = os.environ.get("BUILD_ROOT", "")
MIB = 1 << 20

checks = 0
failures = []


def check(cond, what, detail=""):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL: " + what + ("\n" + str(detail) if detail else ""), flush=True)
    return cond


def wait_for(pred, timeout=30.0, step=0.02):
    """Whether @pred() comes true within @timeout s, asked every @step s (a
    longer @step for a @pred that runs commands, which load what they wait on)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


def fixture_parent():
    """Where fixtures go: a short path (Unix socket paths hold 107 bytes), on
    tmpfs where there is one. The tests check what the engine does, not the
    disk, and a kill -9 keeps the page cache either way; on a disk another
    process's writeback slows them (datapath with a dd writing meanwhile: 113 s
    under /tmp, 92 s under /dev/shm)."""
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else "/tmp"


class Fixture:
    """A state directory with /c0: @drives drives of @size (their images in
    @image_dir if given), a VD made by "add vd" with the words in @vd (none if
    empty): by default four 64 MiB drives, a RAID5 VD on three."""

    def __init__(self, drives=4, size="64MB", vd=("r5", "drives=252:0-2"), image_dir=None):
        self.root = tempfile.mkdtemp(prefix="rcl-srv-", dir=fixture_parent())
        self.state = os.path.join(self.root, "s")
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state, HOME=self.root, TZ="UTC")
        self.env.pop("NO_COLOR", None)
        self.ok("add", "controller", "type=soft", "drives=%d" % drives, "size=" + size,
                *(["dir=" + image_dir] if image_dir else []))
        if vd:
            self.ok("/c0", "add", "vd", *vd)
        self.foreground = None
        self.fuses = []
        self.cleanups = []

    def run(self, *args, timeout=60):
        return subprocess.run([RAIDCLI, *args], env=self.env, capture_output=True, text=True,
                              timeout=timeout)

    def ok(self, *args):
        r = self.run(*args)
        if r.returncode:
            raise RuntimeError("raidcli %s: %d\n%s%s" % (" ".join(args), r.returncode,
                                                         r.stdout, r.stderr))
        return r

    def json(self, *args):
        r = self.run(*args, "J")
        try:
            doc = json.loads(r.stdout)["Controllers"][0]
        except ValueError:  # say which command printed what, not just that JSON failed
            raise RuntimeError("raidcli %s J: exit status %d, not JSON:\n%s%s" %
                               (" ".join(args), r.returncode, r.stdout, r.stderr)) from None
        if r.returncode and "Response Data" not in doc:
            print("note: '%s' has no Response Data:\n%s%s" % (" ".join(args), r.stdout,
                                                               r.stderr))
        return r.returncode, doc

    def service(self):
        """The "Controller Process" section of /c0 show service."""
        status, doc = self.json("/c0", "show", "service")
        return doc["Response Data"]["Controller Process"]

    def version(self):
        return re.search(r"^CLI Version = raidcli (\S+)$", self.ok("version").stdout,
                         re.M).group(1)

    def serial(self):
        status, doc = self.json("/c0", "show", "all")
        return doc["Response Data"]["Basics"]["Serial Number"]

    def control_socket(self):
        return self.service()["Control Socket"]

    def serve(self):
        """Start "raidcli /c0 serve" in the foreground; wait until it answers."""
        self.foreground = subprocess.Popen([RAIDCLI, "/c0", "serve"], env=self.env,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)
        sock = self.control_socket()
        check(wait_for(lambda: os.path.exists(sock)), "serve creates its control socket")
        return self.foreground

    def close(self):
        if self.foreground and self.foreground.poll() is None:
            self.foreground.kill()
            self.foreground.wait()
        self.run("/c0", "stop", "service")
        # Processes started on demand report to their log (ASan and UBSan too).
        run = os.path.join(self.state, "run")
        for name in os.listdir(run) if os.path.isdir(run) else []:
            if name.endswith(".log"):
                text = open(os.path.join(run, name), errors="replace").read()
                check("Sanitizer" not in text and "runtime error" not in text,
                      "no sanitizer report in the process's log " + name, text)
        for cleanup in self.cleanups:
            cleanup()
        for fuse in self.fuses:
            fuse.wait(timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)



def task_record(fx, suffix):
    """The record of /c0's process ending in @suffix ("-patrol", "-cc": tasks/*@suffix.json,
    written whole and renamed into place, so never read half written), {} while none is."""
    tasks = os.path.join(fx.state, "tasks")
    names = [n for n in os.listdir(tasks) if n.endswith(suffix + ".json")] \
        if os.path.isdir(tasks) else []
    if not names:
        return {}
    with open(os.path.join(tasks, names[0])) as f:
        return json.load(f)


def patrol_pause_recorded(fx, percent):
    """Whether /c0's patrol read record says paused at @percent, the percent show patrolread
    gives: the pause's checkpoint, which the process's loop writes at its next tick, is what a
    kill -9 leaves."""
    record = task_record(fx, "-patrol")
    return record.get("paused") is True and str(record.get("percent")) == str(percent)


def proc_stat(pid):
    """(state, ppid, session id) of @pid from /proc, or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[3])



def nbd_uri(export):
    return "nbd+unix:///%s?socket=%s" % (export["Export Name"],
                                         export["Address"][len("unix:"):])


def start_export(fx, *opts):
    status, doc = fx.json("/c0/v0", "start", "export", *opts)
    check(status == 0, "start export succeeds", doc)
    rows = doc.get("Response Data", {}).get("Export LIST", [])
    return rows[0] if rows else None



def vd_consistent(fx, vd=0):
    """Whether "show" reports VD @vd consistent (Consist Yes)."""
    status, doc = fx.json("/c0/v%d" % vd, "show")
    rows = doc.get("Response Data", {}).get("Virtual Drives", [])
    return bool(rows) and rows[0].get("Consist") == "Yes"


def wait_consistent(fx, vd=0, timeout=180):
    """Wait for the BGI the controller process starts by itself on a new
    redundant VD to make it consistent, before a test degrades it. Asked
    four times a second, not fifty: each "show" is a process the
    controller process answers, which slowed the BGI it waits for past a
    minute when the tests beside it (a failing member behind nbdkit's sh
    plugin) loaded both cores."""
    return check(wait_for(lambda: vd_consistent(fx, vd), timeout, step=0.25),
                 "v%d becomes consistent by its background initialization" % vd)


def fx_vd_bytes(fx):
    """The VD's size in bytes: its "Number of Blocks" of 512-byte sectors."""
    status, doc = fx.json("/c0/v0", "show", "all")
    return int(doc["Response Data"]["VD0 Properties"]["Number of Blocks"]) * 512


def write_random(path, size):
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def qemu_img(*args):
    return subprocess.run(["qemu-img", *args], capture_output=True, text=True, timeout=120)


def fill_export(fx, export, mib):
    """Write @mib MiB of random data from its start into the VD that @export
    serves (qemu-img, a real NBD client). Return: the file of that data."""
    src = os.path.join(fx.root, "data.img")
    write_random(src, mib * MIB)
    r = qemu_img("convert", "-n", "-f", "raw", "-O", "raw", src, nbd_uri(export))
    check(r.returncode == 0, "qemu-img writes %d MiB into the export" % mib, r.stderr)
    return src



def drive_field(fx, slot, key):
    """@key of drive /c0/e252/s@slot, from show all (its Detailed Information included)."""
    status, doc = fx.json("/c0/e252/s%d" % slot, "show", "all")
    found = []

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == key:
                    found.append(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc.get("Response Data", {}))
    return found[0] if found else None


def examine_member(fx, slot):
    """mdadm --examine of drive @slot's VD partition, copied out of its image."""
    image = drive_field(fx, slot, "Path")
    table = json.loads(subprocess.run(["sfdisk", "--json", image], capture_output=True,
                                      text=True, check=True).stdout)["partitiontable"]
    part = [p for p in table["partitions"] if p.get("name", "").startswith("raidcli v")][0]
    copy = os.path.join(fx.root, "member-%d.part" % slot)
    with open(image, "rb") as f, open(copy, "wb") as g:
        f.seek(part["start"] * 512)
        left = part["size"] * 512
        while left:
            block = f.read(min(left, MIB))
            if block.count(0) != len(block):
                g.seek(part["size"] * 512 - left)
                g.write(block)
            left -= len(block)
        g.truncate(part["size"] * 512)
    r = subprocess.run(["mdadm", "--examine", copy], capture_output=True, text=True)
    os.unlink(copy)
    fields = {}
    for line in r.stdout.splitlines():
        if " : " in line:
            k, v = line.split(" : ", 1)
            fields[k.strip()] = v.strip()
    return r.returncode, fields, r.stdout + r.stderr


def array_state(fields):
    """mdadm --examine's Array State without its legend: "AA.A"."""
    return fields.get("Array State", "").split(" ")[0]


def bad_drive_plugin():
    """The nbdkit plugin of bad_drive() (tests/server/bad-drive.c): the path
    meson gives in BAD_DRIVE_PLUGIN, else the one in BUILD_ROOT; None when it
    was not built (no nbdkit-plugin-dev)."""
    path = os.environ.get("BAD_DRIVE_PLUGIN") or \
        os.path.join(BUILD_ROOT, "tests", "server", "bad-drive.so")
    return path if os.path.isfile(path) else None


def bad_drive(fx, name="drive", bad=True, delay_ms=0):
    """A 64 MiB drive file on nbdfuse whose reads at 12-40 MiB fail with EIO
    while fx.root/trigger exists (with @bad; else one that never fails),
    checked at every request: a drive with bad sectors in its data area and
    readable metadata. Each of its reads and writes first sleeps @delay_ms
    ms: a drive slow by a known amount however fast the machine. Served by
    nbdkit with bad_drive_plugin(). Return: (its path, None), or (None, why
    it cannot be made)."""
    tools = [t for t in ("nbdkit", "nbdfuse", "fusermount3") if not shutil.which(t)]
    if tools or not os.access("/dev/fuse", os.R_OK | os.W_OK):
        return None, "needs nbdkit (Debian nbdkit), nbdfuse (libnbd-bin), fusermount3 (fuse3) " \
                     "and /dev/fuse; missing: %s" % (", ".join(tools) or "/dev/fuse")
    plugin = bad_drive_plugin()
    if not plugin:
        return None, "needs the bad-drive nbdkit plugin, built with nbdkit-plugin-dev " \
                     "(pkg-config nbdkit); not found in BAD_DRIVE_PLUGIN or BUILD_ROOT"
    img = os.path.join(fx.root, name + ".img")
    with open(img, "wb") as f:
        f.truncate(64 * MIB)
    mnt = os.path.join(fx.root, "mnt-" + name)
    os.mkdir(mnt)
    params = ["file=" + img, "delay_ms=%d" % delay_ms]
    if bad:
        params += ["trigger=" + os.path.join(fx.root, "trigger"),
                   "bad_start=%d" % (12 * MIB), "bad_end=%d" % (40 * MIB)]
    fx.fuses.append(subprocess.Popen(["nbdfuse", os.path.join(mnt, name), "--command",
                                      "nbdkit", "-s", plugin] + params,
                                     stderr=subprocess.DEVNULL))
    path = os.path.join(mnt, name)
    if not wait_for(lambda: os.path.exists(path)):
        return None, "nbdfuse did not mount (FUSE not permitted here?)"
    fx.cleanups.append(lambda: subprocess.run(["fusermount3", "-u", mnt]))
    return path, None


def run_case(case, make_fixture):
    """Run @case with a fresh fixture (its own, else @make_fixture's, else
    Fixture's)."""
    start = time.monotonic()
    fx = (getattr(case, "fixture", None) or make_fixture or Fixture)()
    try:
        case(fx)
        print("ok   %s (%.1f s)" % (case.__name__, time.monotonic() - start), flush=True)
    except Exception as e:  # a crash in one case must not hide the others
        check(False, "%s raised %r" % (case.__name__, e))
    finally:
        fx.close()


def case_jobs():
    """How many cases run at once: RCLTEST_JOBS, else 3. The cases spend most
    of their time waiting (for background tasks, restarts, NBD clients), not
    on the CPU: on a busy 2-CPU machine the three server tests took 508 s one
    case at a time and 191 s three at a time (each test running beside the
    others)."""
    try:
        return max(1, int(os.environ.get("RCLTEST_JOBS", "3")))
    except ValueError:
        return 3


def start_case(case, make_fixture):
    """Fork a child that runs @case with its output in a file of its own, so
    cases running at once do not mix their lines. Returns (pid, log path)."""
    fd, log = tempfile.mkstemp(prefix="rcl-case-", suffix=".log")
    pid = os.fork()
    if pid:
        os.close(fd)
        return pid, log
    global checks
    # the parent's counts so far are not this case's
    checks = 0
    del failures[:]
    code = 1
    try:
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        run_case(case, make_fixture)
        code = 1 if failures else 0
        sys.stdout.write("%s: %d checks, %d failed\n" % (case.__name__, checks, len(failures)))
        sys.stdout.flush()
    finally:
        os._exit(code)


def finish_case(case, log, status):
    """Count a child's checks and failures from its log, and print the log."""
    global checks
    with open(log) as f:
        text = f.read()
    os.unlink(log)
    sys.stdout.write(text)
    sys.stdout.flush()
    m = re.search(r"^%s: (\d+) checks, (\d+) failed$" % case.__name__, text, re.M)
    checks += int(m.group(1)) if m else 1
    if not m or status:
        failures.append("%s (exit status %d)" % (case.__name__, status))


def run_jobs(jobs, only):
    """Run each (case, fixture maker) of @jobs whose case is named in @only
    (all when @only is empty), case_jobs() at a time, each in a child of its
    own with a fresh fixture."""
    todo = [(c, mk) for c, mk in jobs if not only or c.__name__ in only]
    if case_jobs() == 1:
        for case, make_fixture in todo:
            run_case(case, make_fixture)
        return
    running = {}
    while todo or running:
        while todo and len(running) < case_jobs():
            case, make_fixture = todo.pop(0)
            pid, log = start_case(case, make_fixture)
            running[pid] = (case, log)
        pid, status = os.wait()
        if pid in running:
            case, log = running.pop(pid)
            finish_case(case, log, os.waitstatus_to_exitcode(status))


def run_cases(cases, only, make_fixture=None):
    """Run each of @cases (those named in @only, if any) with a fresh fixture
    from @make_fixture (default Fixture), as run_jobs() does."""
    run_jobs([(case, make_fixture) for case in cases], only)


def summary():
    """Print the count of checks and failures; the exit status for them."""
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


def run_parts(parts):
    """Call each of @parts (functions of no arguments) in turn: one that
    raises is a failed check, and the others still run. Return: summary(),
    or 1 at once if RAIDCLI names no program."""
    if not shutil.which(RAIDCLI):
        print("RAIDCLI must name the raidcli program; %r does not" % RAIDCLI, file=sys.stderr)
        return 1
    for part in parts:
        try:
            part()
        except Exception:  # report, then go on with the other parts
            check(False, "%s ran to the end" % part.__name__, traceback.format_exc())
    return summary()
