#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-bad-input.py - every class of bad input fails cleanly and changes nothing.

Each case runs the raidcli named by $RAIDCLI against a fresh state directory
holding one soft controller (/c0, four 16 MiB images), twice: as typed and
with J appended. Both runs must report Failure with the expected StorCLI-style
code as exit status (and as ErrCd in JSON), name the offending token (and the
nearest valid spelling where one is close), and leave every file under the
state directory and every backing file involved byte-identical. Lock files
may appear; they are not state.

Sub-cases that need something this machine lacks (root for loop devices, a
non-root user for permission checks) print why they are skipped.
"""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

RAIDCLI = os.environ.get("RAIDCLI")
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:", "Traceback", "Segmentation fault", "core dumped")
MIB = 1 << 20

failures = []
skips = []
passed = 0


def tmp_root():
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def snapshot(roots):
    """Type, mode, size and content hash of everything under @roots, lock files excepted."""
    snap = {}
    for root in roots:
        if not os.path.lexists(root):
            snap[root] = None
            continue
        if not os.path.isdir(root) or os.path.islink(root):
            snap[root] = describe(root)
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames
                                 if not (dirpath == root and d == "locks"))
            snap[dirpath] = ("dir", sorted(dirnames + filenames))
            for name in filenames:
                if name.endswith(".lock"):
                    continue
                path = os.path.join(dirpath, name)
                snap[path] = describe(path)
    return snap


def describe(path):
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        extents, digest = data_extents(path, st.st_size)
        return ("file", stat.S_IMODE(st.st_mode), st.st_size, extents, digest)
    return ("other", stat.S_IFMT(st.st_mode), getattr(st, "st_rdev", 0))


def data_extents(path, size):
    """The data extents of @path (its holes read as zeros) and a hash of their bytes: the
    same pair means the same bytes. The drive images are sparse: hashing only what they
    hold keeps each snapshot quick. A write of zeros into a hole shows as a change too, which
    is right here: a refused command writes nothing."""
    digest = hashlib.sha256()
    extents = []
    with open(path, "rb") as f:
        fd, at = f.fileno(), 0
        while at < size:
            try:
                start = os.lseek(fd, at, os.SEEK_DATA)
            except OSError:  # ENXIO: only a hole is left
                break
            end = os.lseek(fd, start, os.SEEK_HOLE)
            extents.append((start, end))
            f.seek(start)
            left = end - start
            while left:
                chunk = f.read(min(left, 1 << 20))
                if not chunk:
                    break
                digest.update(chunk)
                left -= len(chunk)
            at = end
    return tuple(extents), digest.hexdigest()


def diff_snapshots(before, after):
    lines = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            lines.append("  %s: %r -> %r" % (key, before.get(key), after.get(key)))
    return "\n".join(lines)


class Env:
    """A throwaway state directory with /c0, and a folder for extra files."""

    def __init__(self, drives=4, size="16MB"):
        self.root = tempfile.mkdtemp(prefix="raidcli-bad-input.", dir=tmp_root())
        self.state = os.path.join(self.root, "state")
        self.files = os.path.join(self.root, "files")
        os.mkdir(self.files)
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state)
        self.env.pop("NO_COLOR", None)
        self.must("add", "controller", "type=soft", "drives=%d" % drives, "size=%s" % size)

    def run(self, args, stdin=None, preexec=None):
        return subprocess.run([RAIDCLI] + list(args), env=self.env, input=stdin,
                              capture_output=True, text=True, timeout=60,
                              preexec_fn=preexec)

    def must(self, *args):
        proc = self.run(args)
        if proc.returncode != 0:
            raise RuntimeError("setup command %r failed (%d):\n%s%s" %
                               (args, proc.returncode, proc.stdout, proc.stderr))
        return proc

    def image(self, ctrl_index=0, slot=0):
        """The path of slot @slot of the soft controller registered as @ctrl_index."""
        with open(os.path.join(self.state, "registry.json")) as f:
            reg = json.load(f)
        key = [c["key"] for c in reg["controllers"] if c["id"] == ctrl_index][0]
        with open(os.path.join(self.state, "soft", key + ".json")) as f:
            soft = json.load(f)
        return [s["path"] for s in soft["slots"] if s["slot"] == slot][0]

    def make_file(self, name, size):
        path = os.path.join(self.files, name)
        with open(path, "wb") as f:
            f.truncate(size)
        return path

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def json_status(stdout):
    """(Status, first ErrCd, Description) of the first Command Status."""
    doc = json.loads(stdout)
    cs = doc["Controllers"][0]["Command Status"]
    return cs["Status"], cs["Detailed Status"][0]["ErrCd"], cs["Description"]


def text_description(stdout):
    for line in stdout.splitlines():
        if line.startswith("Description = "):
            return line[len("Description = "):]
    return None


def check_run(name, proc, code, needles, json_mode, problems):
    if proc.returncode < 0:
        problems.append("killed by signal %d" % -proc.returncode)
        return
    for mark in SANITIZER_MARKS:
        if mark in proc.stderr or mark in proc.stdout:
            problems.append("crash or sanitizer output: %r" % mark)
    if proc.returncode != code:
        problems.append("exit status %d, expected %d" % (proc.returncode, code))
    if json_mode:
        try:
            status, errcd, message = json_status(proc.stdout)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            problems.append("no StorCLI JSON failure (%s): %r" % (e, proc.stdout[:400]))
            return
        if status != "Failure":
            problems.append('"Status" is %r, expected "Failure"' % status)
        if errcd != proc.returncode:
            problems.append("ErrCd %r differs from exit status %d" % (errcd, proc.returncode))
    else:
        if "Status = Failure" not in proc.stdout.splitlines():
            problems.append("no 'Status = Failure' line: %r" % proc.stdout[:400])
        message = text_description(proc.stdout) or ""
        if not message:
            problems.append("no 'Description = ' line")
    for needle in needles:
        if needle not in message:
            problems.append("message %r lacks %r" % (message, needle))


def case(name, args, code, needles, env=None, stdin=None, extra_roots=(), preexec=None,
         prepare=None):
    """Run @args (a list, or a callable taking the Env) as text and JSON; check both."""
    global passed
    own = env is None
    try:
        env = env or Env()
    except Exception as e:  # setup failing is a failure of the case, not a crash
        failures.append("%s: setup: %s" % (name, e))
        return
    try:
        if prepare:
            prepare(env)
        argv = args(env) if callable(args) else list(args)
        roots = [env.state, env.files] + [r(env) if callable(r) else r for r in extra_roots]
        problems = []
        for json_mode in (False, True):
            before = snapshot(roots)
            if stdin is not None:
                text = stdin(env) if callable(stdin) else stdin
                if json_mode:
                    # J right after the path: a J at the end would sit inside an open quote.
                    text = "\n".join(l.replace(" ", " J ", 1) if l.strip() else l
                                     for l in text.split("\n"))
                proc = env.run([], stdin=text, preexec=preexec)
            else:
                proc = env.run(argv + (["J"] if json_mode else []), preexec=preexec)
            after = snapshot(roots)
            mode = "JSON" if json_mode else "text"
            sub = []
            check_run(name, proc, code, needles(env) if callable(needles) else needles,
                      json_mode, sub)
            changes = diff_snapshots(before, after)
            if changes:
                sub.append("state changed:\n" + changes)
            problems += ["[%s] %s" % (mode, p) for p in sub]
            if sub:
                problems.append("[%s] stdout:\n%s\n[%s] stderr:\n%s" %
                                (mode, proc.stdout, mode, proc.stderr))
        if problems:
            failures.append("%s (raidcli %s):\n  %s" % (name, " ".join(argv) or "<stdin>",
                                                        "\n  ".join(problems)))
            print("FAIL %s" % name)
        else:
            passed += 1
            print("ok   %s" % name)
    except Exception as e:
        failures.append("%s: %s: %s" % (name, type(e).__name__, e))
        print("FAIL %s (%s)" % (name, e))
    finally:
        if own:
            env.close()


def skip(name, reason):
    skips.append(name)
    print("SKIP %s: %s" % (name, reason))


INVALID_COMMAND, INVALID_PARAM, NOT_FOUND = 1, 3, 35
DRIVE_TOO_SMALL = 13
SYSTEM, BUSY, NEED_FORCE, EXISTS = 242, 243, 245, 246
ADD = ["add", "controller", "type=soft"]


def grammar_cases():
    # Unknown objects: the nearest valid object where one is close.
    case("unknown object /x0", ["/x0", "show"], INVALID_COMMAND, ["'/x0'", "did you mean '/c0'?"])
    case("unknown object /cc0", ["/cc0", "show"], INVALID_COMMAND,
         ["'/cc0'", "did you mean '/c0'?"])
    # No object is nearer than another: the message lists the valid forms.
    case("unknown object /c0/q1", ["/c0/q1", "show"], INVALID_COMMAND,
         ["'/q1'", "/cN/eN/sN", "/cN/vN"])
    # Unknown verbs, at the first word and deeper.
    case("unknown verb shwo", ["/c0", "shwo"], INVALID_COMMAND,
         ["'shwo'", "did you mean 'show'?"])
    case("unknown system verb", ["shwo"], INVALID_COMMAND, ["'shwo'", "did you mean 'show'?"])
    case("unknown second verb word", ["/c0", "add", "drvie", "path=/x"], INVALID_COMMAND,
         ["'drvie'", "did you mean 'drive'?"])
    case("unknown second system verb word", ["add", "controler", "type=soft"],
         INVALID_COMMAND, ["'controler'", "did you mean 'controller'?"])
    case("incomplete verb", ["/c0", "add"], INVALID_COMMAND, ["'add'", "'drive'"])
    case("verb with no close match", ["/c0", "frobnicate"], INVALID_COMMAND,
         ["'frobnicate'", "'show'"])
    # Unknown option keys.
    case("unknown option sise=", ADD + ["drives=2", "sise=1GB"], INVALID_COMMAND,
         ["'sise='", "did you mean 'size='?"])
    case("unknown flag forse", ["/c0", "del", "forse"], INVALID_COMMAND,
         ["'forse'", "did you mean 'force'?"])
    case("unknown option pth=", ["/c0", "add", "drive", "pth=/x"], INVALID_COMMAND,
         ["'pth='", "did you mean 'path='?"])
    case("unknown option with no close match", ["/c0", "show", "colour=red"], INVALID_COMMAND,
         ["'colour='"])
    # Enumerations.
    case("bad enum type=sotf", ["add", "controller", "type=sotf", "drives=2", "size=1GB"],
         INVALID_PARAM, ["'sotf'", "did you mean 'type=soft'?"])
    case("bad enum sectorsize=1024", ADD + ["drives=2", "size=1GB", "sectorsize=1024"],
         INVALID_PARAM, ["'1024'", "sectorsize=", "512", "4096"])
    case("bad enum delete=file", ["/c0", "del", "delete=file", "force"], INVALID_PARAM,
         ["'file'", "did you mean 'delete=files'?"])
    # Numbers out of range or malformed.
    for value in ("999", "241", "-1", "abc", "1.5", "0x10", "2x", "+2",
                  "99999999999999999999"):
        case("bad number drives=%s" % value, ADD + ["drives=" + value, "size=1GB"],
             INVALID_PARAM, ["'%s'" % value, "drives=", "0 to 240"])
    case("empty value drives=", ADD + ["drives=", "size=1GB"], INVALID_PARAM,
         ["'drives='", "needs a value"])
    # Sizes.
    for value in ("12XB", "GB", "-5GB", "1,5GB", "1.2.3GB", "1 GB", "nan", "inf"):
        case("bad size size=%s" % value, ADD + ["drives=2", "size=" + value], INVALID_PARAM,
             ["'%s'" % value, "100GB"])
    case("size too large", ADD + ["drives=2", "size=99999999PB"], INVALID_PARAM,
         ["'99999999PB'", "too large"])
    for value in ("1KB", "15MB", "0"):
        case("size below minimum size=%s" % value, ADD + ["drives=2", "size=" + value],
             INVALID_PARAM, ["'%s'" % value, "size=", "16 MiB"])
    # Required options.
    case("missing type=", ["add", "controller", "drives=2", "size=1GB"], INVALID_COMMAND,
         ["missing option 'type='", "raidcli add controller"])
    case("missing drives=", ADD + ["size=1GB"], INVALID_COMMAND, ["missing option 'drives='"])
    case("missing size=", ADD + ["drives=2"], INVALID_COMMAND, ["missing option 'size='"])
    case("add drive without path", ["/c0", "add", "drive"], INVALID_COMMAND,
         ["missing option 'path='", "path=/dev/sdb"])
    case("add drive with empty path", ["/c0", "add", "drive", "path="], INVALID_PARAM,
         ["'path='", "needs a value"])
    # Options given twice, flags with values, keys without.
    case("option given twice", ADD + ["drives=2", "drives=3", "size=1GB"], INVALID_COMMAND,
         ["'drives'", "twice"])
    case("flag given twice", ["/c0", "del", "force", "force"], INVALID_COMMAND,
         ["'force'", "twice"])
    case("flag given a value", ["/c0", "del", "force=yes"], INVALID_COMMAND,
         ["'force'", "takes no value"])
    case("key without value", ["/c0", "del", "delete"], INVALID_COMMAND,
         ["'delete'", "needs a value"])
    case("key without value type", ["add", "controller", "type", "drives=2", "size=1GB"],
         INVALID_COMMAND, ["'type'", "needs a value"])
    # Patrol read settings.
    case("bad enum patrolread=maybe", ["/c0", "set", "patrolread=maybe"], INVALID_PARAM,
         ["'maybe'", "patrolread=", "on", "off"])
    case("bad enum mode=auto2", ["/c0", "set", "mode=auto2"], INVALID_PARAM,
         ["'auto2'", "did you mean 'mode=auto'?"])
    for value in ("0", "8761", "-1", "1h"):
        case("bad number delay=%s" % value, ["/c0", "set", "patrolread=on", "delay=" + value],
             INVALID_PARAM, ["'%s'" % value, "delay=", "1 to 8760"])
    case("mode= with patrolread=off", ["/c0", "set", "patrolread=off", "mode=manual"],
         INVALID_PARAM, ["mode= goes with patrolread=on"])
    for option in ("delay=24", "starttime=2030/01/01 02", "maxconcurrentpd=2",
                   "includessds=off", "uncfgareas=on", "excludevd=none"):
        key = option.split("=")[0]
        case("%s= with patrolread=off" % key, ["/c0", "set", "patrolread=off", option],
             INVALID_PARAM, ["%s= goes with patrolread=on, not with patrolread=off" % key])
    case("start patrolread takes no option", ["/c0", "start", "patrolread", "force"],
         INVALID_COMMAND, ["'force'"])
    # set patrolread and set cc: each bad value fails alone, and a good one given with it is
    # not kept. They share one state directory: each case checks it is left as it was.
    shared = Env()

    def shared_case(name, args, code, needles):
        case(name, args, code, needles, env=shared)

    for value in ("0", "256", "x"):
        shared_case("bad number maxconcurrentpd=%s" % value,
                    ["/c0", "set", "patrolread", "maxconcurrentpd=" + value], INVALID_PARAM,
                    ["'%s'" % value, "maxconcurrentpd=", "1 to 255"])
    shared_case("bad enum includessds=mixed", ["/c0", "set", "pr", "includessds=mixed"],
                INVALID_PARAM, ["'mixed'", "includessds="])
    for value in ("2026/13/01 03", "2026/02/30 03", "2026/12/01", "2026/12/01 24", "tomorrow"):
        shared_case("bad starttime=%s" % value, ["/c0", "set", "pr", "starttime=" + value],
                    INVALID_PARAM, ["'%s'" % value, "starttime=", "2026/12/01 03"])
    shared_case("starttime in the past",
                ["/c0", "set", "pr", "maxconcurrentpd=2", "starttime=2020/01/01", "00"],
                INVALID_PARAM, ["starttime=2020/01/01 00 is in the past"])
    for value in ("1-", "a", "0,,1", "64", "3-1"):
        shared_case("bad excludevd=%s" % value, ["/c0", "set", "pr", "excludevd=" + value],
                    INVALID_PARAM, ["'%s'" % value, "excludevd=", "none"])
    shared_case("excludevd of a VD that does not exist",
                ["/c0", "set", "pr", "delay=5", "excludevd=0"], INVALID_PARAM, ["no VD 0"])
    # StorCLI's one-command form: a bad value keeps patrolread=on mode=manual from taking
    # effect too.
    combined = ["/c0", "set", "patrolread=on", "mode=manual"]
    shared_case("combined bad number maxconcurrentpd=0", combined + ["maxconcurrentpd=0"],
                INVALID_PARAM, ["'0'", "maxconcurrentpd=", "1 to 255"])
    shared_case("combined bad enum includessds=mixed", combined + ["includessds=mixed"],
                INVALID_PARAM, ["'mixed'", "includessds="])
    shared_case("combined bad enum uncfgareas=yes", combined + ["uncfgareas=yes"],
                INVALID_PARAM, ["'yes'", "uncfgareas="])
    shared_case("combined bad starttime", combined + ["starttime=2026/13/01", "03"],
                INVALID_PARAM, ["'2026/13/01 03'", "starttime="])
    shared_case("combined starttime in the past",
                combined + ["maxconcurrentpd=2", "starttime=2020/01/01", "00"], INVALID_PARAM,
                ["starttime=2020/01/01 00 is in the past"])
    shared_case("combined excludevd of a VD that does not exist",
                combined + ["delay=5", "excludevd=0"], INVALID_PARAM, ["no VD 0"])
    shared_case("set patrolread with nothing", ["/c0", "set", "patrolread"], INVALID_COMMAND,
                ["nothing to set"])
    shared_case("set patrolread takes no rate", ["/c0", "set", "patrolread", "prrate=5"],
                INVALID_COMMAND, ["'prrate='"])
    # set cc: the same checks, for the scheduled consistency check.
    shared_case("bad enum cc=sequential", ["/c0", "set", "cc=sequential"], INVALID_PARAM,
                ["'sequential'", "cc=", "seq"])
    shared_case("bad enum consistencycheck=x", ["/c0", "set", "consistencycheck=x", "delay=5"],
                INVALID_PARAM, ["'x'", "cc="])
    for value in ("0", "8761"):
        shared_case("bad number cc delay=%s" % value, ["/c0", "set", "cc=seq", "delay=" + value],
                    INVALID_PARAM, ["'%s'" % value, "delay=", "1 to 8760"])
    shared_case("cc starttime in the past",
                ["/c0", "set", "cc=conc", "starttime=2020/01/01", "00"], INVALID_PARAM,
                ["starttime=2020/01/01 00 is in the past"])
    shared_case("cc excludevd of a VD that does not exist",
                ["/c0", "set", "cc=seq", "excludevd=3"], INVALID_PARAM, ["no VD 3"])
    shared_case("set cc with nothing", ["/c0", "set", "cc"], INVALID_COMMAND, ["nothing to set"])
    shared_case("set cc takes no maxconcurrentpd",
                ["/c0", "set", "cc=seq", "maxconcurrentpd=2"], INVALID_COMMAND,
                ["'maxconcurrentpd='"])
    shared.close()


def path_cases():
    case("missing controller /c9", ["/c9", "show"], NOT_FOUND, ["/c9", "not found"])
    case("missing controller /c9 write", ["/c9", "del"], NOT_FOUND, ["/c9", "not found"])
    case("missing controller /c9 add drive",
         lambda e: ["/c9", "add", "drive", "path=" + e.make_file("d.img", 64 * MIB)],
         NOT_FOUND, ["/c9", "not found"])
    case("missing enclosure /c0/e9/s0", ["/c0/e9/s0", "show"], NOT_FOUND, ["/c0/e9"])
    case("missing slot /c0/s99", ["/c0/s99", "show"], NOT_FOUND, ["/c0/s99"])
    case("missing slot /c0/e252/s99 del", ["/c0/e252/s99", "del"], NOT_FOUND,
         ["/c0/e252/s99"])
    case("missing slot in list /c0/s0,99 del", ["/c0/s0,99", "del"], NOT_FOUND, ["/c0/s99"])
    case("missing vd /c0/v0", ["/c0/v0", "show"], NOT_FOUND, ["/c0/v0"])
    case("missing dg /c0/d3", ["/c0/d3", "show"], NOT_FOUND, ["/c0/d3"])
    case("objects that do not nest", ["/c0/e252/s0", "/v0", "show"], INVALID_COMMAND,
         ["do not nest", "/cN/eN/sN"])
    case("enclosure without controller", ["/e252", "show"], INVALID_COMMAND,
         ["'/e252'", "needs a controller", "/c0/e252"])
    case("object given twice", ["/c0/c1", "show"], INVALID_COMMAND, ["'/c'", "twice"])
    for sel in ("s1--3", "s3-1", "s1,", "s1-", "s1,,2"):
        case("selector junk /c0/%s" % sel, ["/c0/" + sel, "show"], INVALID_COMMAND,
             ["'/%s'" % sel, "a range (0-3)"])
    for sel in ("sfoo", "s-1"):
        case("selector junk /c0/%s" % sel, ["/c0/" + sel, "show"], INVALID_COMMAND,
             ["'/%s'" % sel])
    case("selector too wide", ["/c0/s0-100", "show"], INVALID_PARAM,
         ["'/s0-100'", "more than 64"])
    case("path component too long", ["/c" + "0" * 80, "show"], INVALID_COMMAND,
         ["too long"])
    case("path after verb", ["show", "/c0"], INVALID_COMMAND,
         ["'/c0'", "before the verb", "raidcli /c0 show"])
    case("second path after verb", ["/c0", "show", "/e252"], INVALID_COMMAND,
         ["'/e252'", "before the verb"])


def add_drive_cases():
    case("add drive: nonexistent path",
         lambda e: ["/c0", "add", "drive", "path=" + os.path.join(e.files, "nope.img")],
         NOT_FOUND, lambda e: ["'%s'" % os.path.join(e.files, "nope.img"), "No such file"])
    case("add drive: a directory", lambda e: ["/c0", "add", "drive", "path=" + e.files],
         INVALID_PARAM, lambda e: ["'%s'" % e.files, "neither a regular file nor a block"])
    case("add drive: /dev/null", ["/c0", "add", "drive", "path=/dev/null"], INVALID_PARAM,
         ["'/dev/null'", "neither a regular file nor a block"])
    case("add drive: file below 16 MiB",
         lambda e: ["/c0", "add", "drive", "path=" + e.make_file("small.img", 16 * MIB - 512)],
         INVALID_PARAM, lambda e: ["'%s'" % os.path.join(e.files, "small.img"), "16 MiB"])
    case("add drive: empty file",
         lambda e: ["/c0", "add", "drive", "path=" + e.make_file("empty.img", 0)],
         INVALID_PARAM, ["16 MiB"])
    case("add drive: already a drive of the same controller",
         lambda e: ["/c0", "add", "drive", "path=" + e.image(0, 2)], EXISTS,
         lambda e: ["'%s'" % e.image(0, 2), "already a drive of /c0"])

    def second_ctrl(env):
        env.must("add", "controller", "type=soft", "drives=1", "size=16MB")

    case("add drive: already a drive of another controller",
         lambda e: ["/c1", "add", "drive", "path=" + e.image(0, 1)], EXISTS,
         lambda e: ["'%s'" % e.image(0, 1), "already a drive of /c0"], prepare=second_ctrl)

    def symlink(env):
        os.symlink(env.image(0, 3), os.path.join(env.files, "alias.img"))

    case("add drive: symlink to a drive in use",
         lambda e: ["/c0", "add", "drive", "path=" + os.path.join(e.files, "alias.img")],
         EXISTS, ["alias.img", "already a drive of /c0"], prepare=symlink)
    unreadable_case()
    busy_block_device_case()


def unreadable_case():
    name = "add drive: unreadable file"
    if os.geteuid() != 0:
        case(name, lambda e: ["/c0", "add", "drive", "path=" + unreadable(e)], SYSTEM,
             lambda e: ["'%s'" % os.path.join(e.files, "locked.img"), "Permission denied"])
        return
    # Root ignores file modes. Run this one as an unprivileged user instead,
    # with a state directory that user owns; skip if the system has none.
    uid = gid = 65534
    try:
        import pwd
        entry = pwd.getpwuid(uid)
        uid, gid = entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        pass
    if not os.access(RAIDCLI, os.X_OK) or not world_reachable(RAIDCLI):
        skip(name, "running as root, and %s is not reachable by uid %d" % (RAIDCLI, uid))
        return

    def drop():
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)

    def prepare(env):
        unreadable(env)
        os.chmod(env.root, 0o755)
        for dirpath, dirnames, filenames in os.walk(env.root):
            for n in dirnames + filenames:
                os.lchown(os.path.join(dirpath, n), uid, gid)
        os.chown(env.root, uid, gid)

    probe = subprocess.run([RAIDCLI, "-v"], capture_output=True, preexec_fn=drop,
                           env=dict(os.environ, RAIDCLI_STATE_DIR="/nonexistent/x"))
    if probe.returncode not in (0, SYSTEM):
        skip(name, "running as root and raidcli cannot run as uid %d" % uid)
        return
    print("note %s: running as root, so this case runs as uid %d" % (name, uid))
    case(name, lambda e: ["/c0", "add", "drive", "path=" + os.path.join(e.files, "locked.img")],
         SYSTEM, lambda e: ["'%s'" % os.path.join(e.files, "locked.img"), "Permission denied"],
         prepare=prepare, preexec=drop)


def unreadable(env):
    path = os.path.join(env.files, "locked.img")
    if not os.path.exists(path):
        env.make_file("locked.img", 64 * MIB)
        os.chmod(path, 0)
    return path


def world_reachable(path):
    """Whether every directory above @path lets others search it."""
    path = os.path.dirname(os.path.realpath(path))
    while path != "/":
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
        path = os.path.dirname(path)
    return True


def busy_block_device_case():
    name = "add drive: mounted block device"
    if os.geteuid() != 0:
        skip(name, "needs root to set up and mount a loop device")
        return
    for tool in ("losetup", "mkfs.ext4", "mount", "umount"):
        if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/sbin:/usr/sbin"):
            skip(name, "%s is not installed" % tool)
            return
    sbin = os.environ.get("PATH", "") + ":/sbin:/usr/sbin"
    env = None
    loop = None
    mnt = None
    try:
        env = Env()
        backing = env.make_file("loop-backing.img", 64 * MIB)
        proc = subprocess.run(["losetup", "--find", "--show", backing], capture_output=True,
                              text=True, env=dict(os.environ, PATH=sbin))
        if proc.returncode != 0:
            skip(name, "losetup cannot attach a loop device: %s" % proc.stderr.strip())
            return
        loop = proc.stdout.strip()
        # No lazy initialization: the kernel must not write while we compare.
        proc = subprocess.run(["mkfs.ext4", "-q", "-F", "-E",
                               "lazy_itable_init=0,lazy_journal_init=0", loop],
                              capture_output=True, text=True, env=dict(os.environ, PATH=sbin))
        if proc.returncode != 0:
            skip(name, "mkfs.ext4 failed on %s: %s" % (loop, proc.stderr.strip()))
            return
        mnt = tempfile.mkdtemp(prefix="raidcli-mnt.", dir=tmp_root())
        proc = subprocess.run(["mount", loop, mnt], capture_output=True, text=True,
                              env=dict(os.environ, PATH=sbin))
        if proc.returncode != 0:
            os.rmdir(mnt)
            mnt = None
            skip(name, "cannot mount %s: %s" % (loop, proc.stderr.strip()))
            return
        case(name, ["/c0", "add", "drive", "path=" + loop], BUSY,
             ["'%s'" % loop, "in use", "mounted"], env=env)
    finally:
        if mnt:
            subprocess.run(["umount", mnt], env=dict(os.environ, PATH=sbin))
            os.rmdir(mnt)
        if loop:
            subprocess.run(["losetup", "-d", loop], env=dict(os.environ, PATH=sbin))
        if env:
            env.close()


def delete_cases():
    case("delete=files without force", ["/c0", "del", "delete=files"], NEED_FORCE,
         ["'force'", "raidcli /c0 del delete=files force"])

    # Images in a dir= of the user's: they must survive too.
    def own_dir(env):
        env.must("add", "controller", "type=soft", "drives=2", "size=16MB",
                 "dir=" + os.path.join(env.files, "imgs"))

    case("delete=files without force, user dir", ["/c1", "del", "delete=files"], NEED_FORCE,
         ["raidcli /c1 del delete=files force"], prepare=own_dir)
    case("delete drive of missing slot keeps others", ["/c0/s7", "del"], NOT_FOUND,
         ["/c0/s7"])


NOT_ALLOWED, UNSUPPORTED = 255, 244
INCOMPLETE = 59
VD = ["/c0", "add", "vd"]


def eight_drives():
    return Env(drives=8)


def with_vd(env):
    """Make /c0/v0, a RAID1 on 252:0-1; skip the case if the backend cannot yet."""
    proc = env.run(VD + ["r1", "drives=252:0-1"])
    if proc.returncode == UNSUPPORTED:
        raise SkipCase("the backend cannot create VDs yet")
    if proc.returncode != 0:
        raise RuntimeError("add vd failed (%d): %s" % (proc.returncode, proc.stdout))


class SkipCase(Exception):
    pass


def vd_case(name, args, code, needles, drives=4, prepare=None, size="16MB"):
    """An add vd / vd case on a fresh controller of @drives @size drives."""
    try:
        env = Env(drives=drives, size=size)
    except Exception as e:
        failures.append("%s: setup: %s" % (name, e))
        return
    try:
        if prepare:
            prepare(env)
        case(name, args, code, needles, env=env)
    except SkipCase as e:
        skip(name, str(e))
    finally:
        env.close()


def add_vd_cases():
    # Drives: listed twice, unknown, in use, malformed lists.
    vd_case("add vd: drive listed twice", VD + ["r1", "drives=252:0,252:0"], INVALID_PARAM,
            ["drive 252:0 is listed twice"])
    vd_case("add vd: drive listed twice by a range", VD + ["r5", "drives=252:0-2,1"],
            INVALID_PARAM, ["drive 252:1 is listed twice"])
    vd_case("add vd: member also a spare", VD + ["r5", "drives=252:0-2", "spares=252:2"],
            INVALID_PARAM, ["drive 252:2 is listed both as a member and as a spare"])
    vd_case("add vd: unknown drive", VD + ["r5", "drives=252:0-2,9"], NOT_FOUND,
            ["drive 252:9 not found on /c0"])
    vd_case("add vd: unknown enclosure", VD + ["r1", "drives=7:0-1"], NOT_FOUND,
            ["drive 7:0 not found on /c0"])
    vd_case("add vd: unknown bare slot", VD + ["r1", "drives=0,9"], NOT_FOUND,
            ["drive in slot 9 not found on /c0"])
    vd_case("add vd: drive in use", VD + ["r1", "drives=252:1-2"], NOT_ALLOWED,
            ["drive 252:1 is already in use"], prepare=with_vd)
    vd_case("add vd: part of a group", VD + ["r0", "drives=252:0"], NOT_ALLOWED,
            ["drive 252:0 is already in use by drive group 0", "list all 2 of its members"],
            prepare=with_vd)
    vd_case("add vd: group has no free space", VD + ["r1", "drives=252:0-1"], NOT_ALLOWED,
            ["drive group 0 has no free space"], prepare=with_vd)
    def small_vd(env):
        env.must(*(VD + ["r1", "drives=252:0-1", "size=4MB"]))
    vd_case("add vd: size beyond a group's free space",
            VD + ["r1", "drives=252:0-1", "size=100MB"], INVALID_PARAM,
            ["size=100.000 MB is beyond the free space"], prepare=small_vd)
    vd_case("add vd: other level on a group", VD + ["r0", "drives=252:0-1"], INVALID_PARAM,
            ["drive group 0 is RAID1; a VD on it must be RAID1 too"], prepare=with_vd)
    vd_case("add vd: spare in use", VD + ["r1", "drives=252:2-3", "spares=252:0"],
            NOT_ALLOWED, ["drive 252:0 is already in use"], prepare=with_vd)
    for value in ("252:", ":1", "252:1-", "252:3-1", "a", "252:0,,1", "252:0;1", "-1"):
        vd_case("add vd: malformed drives=%s" % value, VD + ["r0", "drives=" + value],
                INVALID_PARAM, ["'drives=%s'" % value, "252:0-3,5"])
    # Drive counts for each level.
    vd_case("add vd: RAID1 with 3 drives", VD + ["r1", "drives=252:0-2"], INVALID_PARAM,
            ["RAID1 needs exactly 2 drives; drives= lists 3"])
    vd_case("add vd: RAID5 with 2 drives", VD + ["r5", "drives=252:0-1"], INVALID_PARAM,
            ["RAID5 needs at least 3 drives; drives= lists 2"])
    vd_case("add vd: RAID6 with 3 drives", VD + ["type=raid6", "drives=252:0-2"],
            INVALID_PARAM, ["RAID6 needs at least 4 drives; drives= lists 3"])
    vd_case("add vd: RAID10 with 3 drives", VD + ["RAID10", "drives=252:0-2"], INVALID_PARAM,
            ["pdperarray=2 does not divide 3 drives", "equal size"])
    vd_case("add vd: RAID10 with 4 per span", VD + ["r10", "drives=252:0-7", "pdperarray=4"],
            INVALID_PARAM, ["RAID10 needs 2 drives per span; pdperarray=4"], drives=8)
    vd_case("add vd: RAID10 with one span", VD + ["r10", "drives=252:0-1"], INVALID_PARAM,
            ["RAID10 needs at least 2 spans"])
    vd_case("add vd: RAID50 spans not equal", VD + ["r50", "drives=252:0-7", "PDperArray=3"],
            INVALID_PARAM, ["pdperarray=3 does not divide 8 drives"], drives=8)
    vd_case("add vd: RAID50 without pdperarray", VD + ["r50", "drives=252:0-5"],
            INVALID_PARAM, ["RAID50 needs pdperarray=N"], drives=8)
    vd_case("add vd: RAID60 spans of 3", VD + ["r60", "drives=252:0-5", "pdperarray=3"],
            INVALID_PARAM, ["RAID60 needs 4 to 32 drives per span; pdperarray=3"], drives=8)
    vd_case("add vd: RAID5 pdperarray not the count", VD + ["r5", "drives=252:0-3",
                                                           "pdperarray=2"],
            INVALID_PARAM, ["RAID5 has a single span: pdperarray=2 must equal the 4 drives"])
    # Size, strip, name, level, policies.
    vd_case("add vd: size beyond the drives", VD + ["r5", "drives=252:0-2", "size=1GB"],
            INVALID_PARAM, ["size=1.000 GB is beyond the free space", "32.000 MB at most"])
    vd_case("add vd: bad size", VD + ["r0", "drives=252:0", "size=lots"], INVALID_PARAM,
            ["'lots'"])
    for value in ("48", "100", "1023"):
        vd_case("add vd: strip=%s" % value, VD + ["r0", "drives=252:0", "strip=" + value],
                INVALID_PARAM, ["strip=%s is not a power of two from 8 to 1024" % value])
    for value in ("4", "2048"):
        vd_case("add vd: strip=%s out of range" % value,
                VD + ["r0", "drives=252:0", "Strip=" + value], INVALID_PARAM,
                ["'%s'" % value, "8 to 1024"])
    vd_case("add vd: name too long", VD + ["r0", "drives=252:0", "name=abcdefghijklmnop"],
            INVALID_PARAM, ["name 'abcdefghijklmnop' is longer than 15 characters"])
    vd_case("add vd: unknown level", VD + ["type=raid7", "drives=252:0"], INVALID_PARAM,
            ["'raid7'", "did you mean 'type=raid0'?"])
    vd_case("add vd: unknown bare level", VD + ["raid7", "drives=252:0"], INVALID_PARAM,
            ["'raid7'", "did you mean 'type=raid0'?"])
    vd_case("add vd: bare level far from any", VD + ["r7", "drives=252:0"], INVALID_PARAM,
            ["'r7'", "expected one of raid0, raid1"])
    vd_case("add vd: no level", VD + ["drives=252:0"], INVALID_COMMAND,
            ["missing option 'type='"])
    vd_case("add vd: two levels", VD + ["r5", "type=raid6", "drives=252:0-3"], INVALID_COMMAND,
            ["'type'", "twice"])
    vd_case("add vd: no drives", VD + ["r0"], INVALID_COMMAND, ["missing option 'drives='"])
    vd_case("add vd: wt and wb", VD + ["r0", "drives=252:0", "wt", "WB"], INVALID_COMMAND,
            ["'wt' and 'wb' exclude each other"])
    vd_case("add vd: ra and nora", VD + ["r0", "drives=252:0", "nora", "ra"], INVALID_COMMAND,
            ["'nora' and 'ra' exclude each other"])
    vd_case("add vd: bad pdperarray", VD + ["r10", "drives=252:0-3", "pdperarray=0"],
            INVALID_PARAM, ["'0'", "pdperarray="])
    # Other VD commands on VDs that do not exist.
    vd_case("vd del: missing vd", ["/c0/v3", "del"], NOT_FOUND, ["/c0/v3 not found"])
    vd_case("vd set: missing vd", ["/c0/v0", "set", "name=x"], NOT_FOUND,
            ["/c0/v0 not found"])
    vd_case("vd set: nothing to set", ["/c0/vall", "set"], INVALID_COMMAND,
            ["nothing to set", "wrcache="])
    vd_case("vd set: bad wrcache", ["/c0/v0", "set", "wrcache=wx"], INVALID_PARAM,
            ["'wx'", "wrcache="])
    vd_case("vd set: name too long", ["/c0/v0", "set", "name=abcdefghijklmnop"],
            INVALID_PARAM, ["longer than 15"], prepare=with_vd)


def poke(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def migrate_cases():
    # Refused by the grammar, before a VD is looked up or a controller process
    # starts (the refusals the process makes are in tests/golden and
    # tests/server/test-migrate.py: its log grows).
    MIGRATE = ["/c0/v0", "start", "migrate"]
    case("start migrate: unknown level", MIGRATE + ["type=raid7"], INVALID_PARAM,
         ["'raid7'", "did you mean 'type=raid0'?"])
    case("start migrate: level no migration reaches", MIGRATE + ["type=raid10"],
         INVALID_PARAM, ["'raid10'", "type="])
    case("start migrate: no type", MIGRATE + ["option=add", "drives=252:2"], INVALID_COMMAND,
         ["missing option 'type='"])
    case("start migrate: unknown option=", MIGRATE + ["type=raid5", "option=del",
                                                      "drives=252:2"],
         INVALID_PARAM, ["'del'", "option="])


def spare_cases():
    HS = ["add", "hotsparedrive"]
    vd_case("add hotsparedrive: member", ["/c0/e252/s0"] + HS, NOT_ALLOWED,
            ["252:0", "in use (Onln)"], prepare=with_vd)
    vd_case("add hotsparedrive: already a spare", ["/c0/e252/s3"] + HS, NOT_ALLOWED,
            ["252:3 is already a hot spare"],
            prepare=lambda env: env.must("/c0/e252/s3", *HS))
    # An md superblock at 4 KiB (v1.2's place) makes the drive foreign.
    vd_case("add hotsparedrive: foreign drive", ["/c0/e252/s3"] + HS, NOT_ALLOWED,
            ["252:3", "foreign"],
            prepare=lambda env: poke(env.image(slot=3), 4096, b"\xfc\x4e\x2b\xa9"))
    # The ext2/3/4 magic at byte 1080.
    vd_case("add hotsparedrive: holds a file system", ["/c0/e252/s3"] + HS, NEED_FORCE,
            ["252:3", "use force"],
            prepare=lambda env: poke(env.image(slot=3), 1080, b"\x53\xef"))
    vd_case("add hotsparedrive: too small", ["/c0/e252/s4"] + HS, DRIVE_TOO_SMALL,
            ["252:4 is too small", "disk group 0"], size="32MB",
            prepare=lambda env: (with_vd(env), env.must(
                "/c0", "add", "drive", "path=" + env.make_file("small.img", 16 * MIB))))
    vd_case("add hotsparedrive: more than 8", ["/c0/e252/s8"] + HS, NOT_ALLOWED,
            ["already has 8 hot spares"], drives=9,
            prepare=lambda env: env.must("/c0/e252/s0-7", *HS))
    vd_case("add hotsparedrive: unknown drive", ["/c0/e252/s9"] + HS, NOT_FOUND,
            ["no drive at /c0/e252/s9"])
    vd_case("delete hotsparedrive: not a spare", ["/c0/e252/s1", "delete", "hotsparedrive"],
            NOT_ALLOWED, ["252:1 is not a hot spare (UGood)"])
    vd_case("delete hotsparedrive: a member", ["/c0/e252/s0", "delete", "hotsparedrive"],
            NOT_ALLOWED, ["252:0 is not a hot spare (Onln)"], prepare=with_vd)
    # Dedicated spares: dgs= names one existing group that can rebuild.
    vd_case("add hotsparedrive: malformed dgs", ["/c0/e252/s3"] + HS + ["dgs=0,x"],
            INVALID_PARAM, ["dgs='0,x'", "dgs=0,1"], prepare=with_vd)
    vd_case("add hotsparedrive: unknown group", ["/c0/e252/s3"] + HS + ["dgs=5"], NOT_FOUND,
            ["disk group 5 not found"], prepare=with_vd)
    vd_case("add hotsparedrive: a group twice", ["/c0/e252/s3"] + HS + ["dgs=0,0"],
            INVALID_PARAM, ["disk group 0 twice"], prepare=with_vd)
    vd_case("add hotsparedrive: one of two groups unknown", ["/c0/e252/s3"] + HS + ["dgs=0,1"],
            NOT_FOUND, ["disk group 1 not found"], prepare=with_vd)
    vd_case("add hotsparedrive: a RAID0 group among two", ["/c0/e252/s4"] + HS + ["dgs=0,1"],
            NOT_ALLOWED, ["RAID0"], drives=5,
            prepare=lambda env: (with_vd(env), env.must(*(VD + ["r0", "drives=252:2-3"]))))
    vd_case("add hotsparedrive: RAID0 group", ["/c0/e252/s3"] + HS + ["dgs=0"], NOT_ALLOWED,
            ["RAID0", "no dedicated spare"],
            prepare=lambda env: env.must(*VD, "r0", "drives=252:0-1"))
    vd_case("add hotsparedrive: too small for its group", ["/c0/e252/s4"] + HS + ["dgs=0"],
            DRIVE_TOO_SMALL, ["252:4 is too small", "disk group 0"], size="32MB",
            prepare=lambda env: (with_vd(env), env.must(
                "/c0", "add", "drive", "path=" + env.make_file("small.img", 16 * MIB))))
    vd_case("add vd: spares for an existing group", VD + ["r1", "drives=252:0-1", "size=1MB",
                                                          "spares=252:3"],
            NOT_ALLOWED, ["new disk group", "dgs=0"],
            prepare=lambda env: env.must(*VD, "r1", "drives=252:0-1", "size=1MB"))
    vd_case("add vd: spares of a RAID0 group", VD + ["r0", "drives=252:0-1", "spares=252:3"],
            NOT_ALLOWED, ["RAID0", "no dedicated spare"])
    # Locate: a slot with no drive, and StorCLI's verb misspelt.
    vd_case("start locate: no drive", ["/c0/e252/s7", "start", "locate"], NOT_FOUND,
            ["no drive at /c0/e252/s7"])
    vd_case("start locate: misspelt", ["/c0/e252/s1", "start", "locat"], INVALID_COMMAND,
            ["'locat'", "locate"])
    # JBOD: only with the controller's mode on, only from UGood, and back.
    JBOD_ON = ["/c0", "set", "jbod=on"]
    vd_case("set jbod: mode off", ["/c0/e252/s1", "set", "jbod"], NOT_ALLOWED,
            ["JBOD mode is off", "/c0 set jbod=on"])
    vd_case("set jbod: a member", ["/c0/e252/s0", "set", "jbod"], NOT_ALLOWED,
            ["252:0 is Onln, not UGood"],
            prepare=lambda env: (env.must(*JBOD_ON), with_vd(env)))
    vd_case("set good: not JBOD", ["/c0/e252/s1", "set", "good"], NOT_ALLOWED,
            ["252:1 is UGood", "set good takes a UBad or JBOD drive"])
    vd_case("ctrl set: jbod=maybe", ["/c0", "set", "jbod=maybe"], INVALID_PARAM,
            ["'maybe'", "jbod="])
    vd_case("ctrl set: nothing to set", ["/c0", "set"], INVALID_COMMAND, ["nothing to set"])
    vd_case("ctrl set: jbod=off with a JBOD drive", ["/c0", "set", "jbod=off"], NOT_ALLOWED,
            ["252:1 is JBOD", "set good"],
            prepare=lambda env: (env.must(*JBOD_ON), env.must("/c0/e252/s1", "set", "jbod")))
    vd_case("add vd: a JBOD drive", VD + ["r1", "drives=252:0-1"], NOT_ALLOWED,
            ["252:1 is already in use (JBOD)"],
            prepare=lambda env: (env.must(*JBOD_ON), env.must("/c0/e252/s1", "set", "jbod")))


def state_cases():
    def raid(level, drives, *offline):
        def prepare(env):
            env.must(*(VD + [level, "drives=" + drives]))
            for slot in offline:
                env.must("/c0/e252/s%d" % slot, "set", "offline")
        return prepare
    OFF, ON, MISS = ["set", "offline"], ["set", "online"], ["set", "missing"]
    vd_case("set offline: a RAID0 member", ["/c0/e252/s0"] + OFF, NEED_FORCE,
            ["252:0 offline", "RAID0", "use force"], prepare=raid("r0", "252:0-1"))
    vd_case("set offline: the last RAID1 mirror", ["/c0/e252/s1"] + OFF, NEED_FORCE,
            ["252:1 offline", "use force"], prepare=raid("r1", "252:0-1", 0))
    vd_case("set offline: a third RAID6 drive", ["/c0/e252/s2"] + OFF, NEED_FORCE,
            ["252:2 offline", "RAID6", "use force"], prepare=raid("r6", "252:0-3", 0, 1))
    vd_case("set offline: both drives of a RAID10 pair", ["/c0/e252/s3"] + OFF, NEED_FORCE,
            ["252:3 offline", "RAID10"], prepare=raid("r10", "252:0-3", 2))
    vd_case("set offline: not a member", ["/c0/e252/s3"] + OFF, NOT_ALLOWED,
            ["252:3 is UGood", "set offline takes an Onln drive"], prepare=raid("r5", "252:0-2"))
    vd_case("set offline: offline already", ["/c0/e252/s1"] + OFF + ["force"], NOT_ALLOWED,
            ["252:1 is Offln", "an Onln drive"], prepare=raid("r5", "252:0-2", 1))
    vd_case("set offline: no such drive", ["/c0/e252/s7"] + OFF, NOT_FOUND, ["252/s7"])
    vd_case("set offline: misspelt", ["/c0/e252/s1", "set", "ofline"], INVALID_COMMAND,
            ["'ofline'", "offline"])
    vd_case("set online force: an Onln member", ["/c0/e252/s1"] + ON + ["force"], NOT_ALLOWED,
            ["252:1 is Onln", "a failed member (UBad) with force"], prepare=raid("r5", "252:0-2"))
    vd_case("set online: an Onln member", ["/c0/e252/s1"] + ON, NOT_ALLOWED,
            ["252:1 is Onln", "set online takes an Offln drive"], prepare=raid("r5", "252:0-2"))
    vd_case("set missing: an Onln member", ["/c0/e252/s1"] + MISS, NOT_ALLOWED,
            ["252:1 is Onln", "set offline first"], prepare=raid("r5", "252:0-2"))
    vd_case("set missing: unconfigured", ["/c0/e252/s3"] + MISS, NOT_ALLOWED,
            ["252:3 is UGood"])
    vd_case("set good: an Onln member", ["/c0/e252/s0", "set", "good", "force"], NOT_ALLOWED,
            ["252:0 is Onln", "a UBad or JBOD drive"], prepare=raid("r5", "252:0-2"))
    vd_case("add vd: a group with an Offln member", VD + ["r5", "drives=252:0-2", "size=4MB"],
            NOT_ALLOWED, ["disk group 0 is not optimal", "slot 1"],
            prepare=lambda env: (env.must(*(VD + ["r5", "drives=252:0-2", "size=4MB"])),
                                 env.must("/c0/e252/s1", "set", "offline")))
    vd_case("set good: an Offln member", ["/c0/e252/s1", "set", "good"], NOT_ALLOWED,
            ["252:1 is Offln"], prepare=raid("r5", "252:0-2", 1))
def moved(env, drives, commands, add=None, size="64MB"):
    """/c1 with @drives images in files/img, configured by @commands (each run on
    /c1), deleted with its images kept; /c0 gets the images numbered @add (all)."""
    img = os.path.join(env.files, "img")
    env.must("add", "controller", "type=soft", "drives=%d" % drives, "size=" + size,
             "dir=" + img)
    for command in commands:
        env.must(*command)
    env.must("/c1", "del")
    for n in (range(drives) if add is None else add):
        env.must("/c0", "add", "drive", "path=%s/drive%d.img" % (img, n))
    return img


def left_behind(env):
    """Import a RAID1 with one member, then bring the other back: it is foreign still."""
    img = moved(env, 2, [["/c1", "add", "vd", "r1", "drives=252:0-1"]], add=[0])
    env.must("/c0/fall", "import")
    env.must("/c0", "add", "drive", "path=%s/drive1.img" % img)


def copied(env):
    """A foreign RAID1 and a byte copy of one of its drives."""
    img = moved(env, 2, [["/c1", "add", "vd", "r1", "drives=252:0-1"]])
    shutil.copyfile(os.path.join(img, "drive0.img"), os.path.join(env.files, "copy.img"))
    env.must("/c0", "add", "drive", "path=" + os.path.join(env.files, "copy.img"))


def foreign_cases():
    R1 = [["/c1", "add", "vd", "r1", "drives=252:0-1"]]
    for verb in (["import"], ["import", "preview"], ["del", "force"]):
        vd_case("fall %s: no foreign configuration" % " ".join(verb), ["/c0/fall"] + verb,
                NOT_FOUND, ["no foreign configuration found on /c0"])
    vd_case("fall del: without force", ["/c0/fall", "del"], NEED_FORCE,
            ["destroys its 1 virtual drive", "/c0/fall del force"],
            prepare=lambda env: moved(env, 2, R1))
    vd_case("fall import: incomplete", ["/c0/fall", "import"], INCOMPLETE,
            ["Incomplete foreign configuration", "RAID5"],
            prepare=lambda env: moved(env, 3, [["/c1", "add", "vd", "r5", "drives=252:0-2"]],
                                      add=[0]))
    vd_case("fall import preview: incomplete", ["/c0/fall", "import", "preview"], INCOMPLETE,
            ["Incomplete foreign configuration"],
            prepare=lambda env: moved(env, 3, [["/c1", "add", "vd", "r5", "drives=252:0-2"]],
                                      add=[1]))
    vd_case("fall import: a copy of a drive", ["/c0/fall", "import"], NOT_ALLOWED,
            ["same identity", "copy"], prepare=copied)
    vd_case("fall import: a member left behind", ["/c0/fall", "import"], NOT_ALLOWED,
            ["already has", "left behind", "fall del force"], prepare=left_behind)
    vd_case("fall import: too many hot spares", ["/c0/fall", "import"], NOT_ALLOWED,
            ["9 hot spares would exceed", "8"], size="16MB",
            prepare=lambda env: (env.must("/c0/e252/s0-3", "add", "hotsparedrive"),
                                 moved(env, 5, [["/c1/e252/s0-4", "add", "hotsparedrive"]],
                                       size="16MB")))
    vd_case("fall: a numbered foreign object", ["/c0/f0", "show"], INVALID_COMMAND,
            ["'/f0'", "/fall"])
    vd_case("fall: mixed with a VD", ["/c0/fall/v0", "show"], INVALID_COMMAND,
            ["mixes /fall"])
    vd_case("fall: unknown verb", ["/c0/fall", "imprt"], INVALID_COMMAND,
            ["'imprt'", "did you mean 'import'?"])


def event_cases():
    show = ["/c0", "show", "events"]
    for value in ("latest=0", "latest=x", "latest=", "latest=-1", "latest=1000001",
                  "latest", "sinceshutdown", "bogus"):
        case("show events: bad type " + value, show + ["type=" + value], INVALID_PARAM,
             ["'%s'" % value, "type=", "latest=<n>"])
    case("show events: misspelt class", show + ["filter=info,warnin"], INVALID_PARAM,
         ["'warnin'", "'warning'"])
    for value in ("bogus", "info,,fatal", "info,"):
        case("show events: bad filter " + value, show + ["filter=" + value], INVALID_PARAM,
             ["filter=" + value, "info, warning, critical, fatal"])
    case("show events: type twice", show + ["type=latest=1", "type=latest=2"],
         INVALID_COMMAND, ["'type'", "twice"])
    case("show events: no such controller", ["/c9", "show", "events"], NOT_FOUND, ["/c9"])
    case("delete events: takes no option", ["/c0", "del", "events", "force"], INVALID_COMMAND,
         ["'force'"])


def batch_cases():
    case("batch: unterminated quote", [], INVALID_COMMAND, ["unterminated", '"abc'],
         stdin='/c0 show "abc\n')
    case("batch: unterminated single quote", [], INVALID_COMMAND, ["unterminated", "'abc"],
         stdin="/c0 show 'abc\n")
    # A bad line stops the batch: the write after it must not run.
    case("batch: stops at the first bad line", [], INVALID_COMMAND, ["'shwo'"],
         stdin="/c0 shwo\nadd controller type=soft drives=1 size=16MB\n")


def main():
    if not RAIDCLI or not os.access(RAIDCLI, os.X_OK):
        print("RAIDCLI must name the raidcli binary", file=sys.stderr)
        return 1
    grammar_cases()
    path_cases()
    add_drive_cases()
    delete_cases()
    add_vd_cases()
    migrate_cases()
    spare_cases()
    state_cases()
    foreign_cases()
    event_cases()
    batch_cases()
    print("\n%d passed, %d failed, %d skipped" % (passed, len(failures), len(skips)))
    for f in failures:
        print("\nFAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
