#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-safety.py - raidcli keeps its state safe: damage, races, leftovers, reuse.

Runs the raidcli named by $RAIDCLI against throwaway state directories:
 (a) damaged state files (registry.json and soft/<serial>.json: truncated,
     empty, garbage, NUL bytes, valid JSON of the wrong shape, relative or
     duplicated slots, duplicated controllers) make reads and writes fail
     with 241, a message naming the file, no crash, and the damaged file
     byte-identical afterwards: never a silent reset;
 (b) parallel writers: 8 'add drive' runs on one controller get 8 slots,
     6 'add controller' runs get 6 numbers, and one file offered to several
     controllers at once ends up in exactly one;
 (c) no temporary state file (*.tmp.*) is left behind by any of it;
 (d) a deleted controller's number goes to the next new controller (the
     lowest free one) while higher numbers stay where they are;
 (e) a command either completes or changes nothing, and names the real
     cause: add vd over an immutable image (chattr +i; root) writes no other
     drive and says EPERM, del of a member whose image was truncated
     succeeds once, del of online members without force removes no drive,
     start rebuild on a UGood drive is not beaten to the slot by a hot
     spare when the process starts for it, and a refused start rebuild,
     export, cc, init, migrate or patrolread starts no controller process
     and changes nothing;
 (f) one storage under two paths (an image and a loop device over it, a
     disk and its partition; root and losetup) is refused as a second
     drive on any controller, and add vd refuses such a pair.
Sub-cases that need root or a tool this machine lacks say why they skip.
"""
import contextlib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, run_parts  # noqa: E402

CORRUPT, EXISTS = 241, 246
CRASH_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
               "runtime error:", "Traceback", "Segmentation fault", "core dumped")
MIB = 1 << 20

def tmp_root():
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Env:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="raidcli-safety.", dir=tmp_root())
        self.state = os.path.join(self.root, "state")
        self.files = os.path.join(self.root, "files")
        os.mkdir(self.files)
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state)

    def run(self, *args, stdin=None):
        return subprocess.run([RAIDCLI] + list(args), env=self.env, input=stdin,
                              capture_output=True, text=True, timeout=60)

    def start(self, *args):
        return subprocess.Popen([RAIDCLI] + list(args), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def must(self, *args):
        proc = self.run(*args)
        if proc.returncode != 0:
            raise RuntimeError("%r failed (%d):\n%s%s" % (args, proc.returncode, proc.stdout,
                                                         proc.stderr))
        return proc

    def registry_path(self):
        return os.path.join(self.state, "registry.json")

    def registry(self):
        with open(self.registry_path()) as f:
            return json.load(f)

    def soft_path(self, ctrl=0):
        key = [c["key"] for c in self.registry()["controllers"] if c["id"] == ctrl][0]
        return os.path.join(self.state, "soft", key + ".json")

    def make_file(self, name, size):
        path = os.path.join(self.files, name)
        with open(path, "wb") as f:
            f.truncate(size)
        return path

    def leftovers(self):
        found = []
        for dirpath, _, filenames in os.walk(self.state):
            found += [os.path.join(dirpath, n) for n in filenames if ".tmp." in n]
        return found

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def snapshot(root):
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not (dirpath == root and d == "locks"))
        snap[dirpath] = sorted(dirnames + filenames)
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.endswith(".lock") or not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            with open(path, "rb") as f:
                snap[path] = (os.path.getsize(path), hashlib.sha256(f.read()).hexdigest())
    return snap


def crashed(proc):
    if proc.returncode < 0:
        return "killed by signal %d" % -proc.returncode
    for mark in CRASH_MARKS:
        if mark in proc.stdout or mark in proc.stderr:
            return "crash output %r" % mark
    return None


def description(proc, json_mode):
    if json_mode:
        doc = json.loads(proc.stdout)
        cs = doc["Controllers"][0]["Command Status"]
        return cs["Description"], cs["Detailed Status"][0]["ErrCd"], cs["Status"]
    desc = [l[len("Description = "):] for l in proc.stdout.splitlines()
            if l.startswith("Description = ")]
    status = "Failure" if "Status = Failure" in proc.stdout.splitlines() else None
    return (desc[0] if desc else ""), proc.returncode, status


# ---------------------------------------------------------------------------
# (a) damaged state files

def truncations(good):
    """Prefixes of @good that cannot be valid JSON (the closing brace is gone)."""
    body = good.rstrip()
    offsets = sorted({1, 2, len(body) // 4, len(body) // 2, (3 * len(body)) // 4,
                      len(body) - 1})
    return [("truncated at %d of %d" % (o, len(good)), body[:o]) for o in offsets if o > 0]


def garbage_variants(good):
    return [
        ("empty", b""),
        ("only blanks", b" \n\t\n"),
        ("garbage bytes", bytes(range(1, 256)) * 3),
        ("binary garbage starting with a brace", b"{" + bytes(range(128, 256))),
        ("a NUL byte inside", good[:len(good) // 2] + b"\0" + good[len(good) // 2:]),
        ("only NUL bytes", b"\0" * 64),
        ("NUL after the object", good.rstrip() + b"\0"),
        ("data after the object", good.rstrip() + b"garbage\n"),
        ("a second object after the first", good.rstrip() + b"{}\n"),
        ("a byte-order mark", b"\xef\xbb\xbf" + good),
        ("a flipped brace", good.replace(b"{", b"[", 1)),
    ]


def as_bytes(obj):
    return json.dumps(obj, indent=2).encode() + b"\n"


def registry_variants(good):
    reg = json.loads(good)
    entry = reg["controllers"][0]
    out = truncations(good) + garbage_variants(good)
    shapes = [
        ("a JSON array", []),
        ("a JSON string", "registry"),
        ("a JSON number", 42),
        ("JSON null", None),
        ("an empty object", {}),
        ("format 2", dict(reg, format=2)),
        ("format as a string", dict(reg, format="1")),
        ("controllers as an object", dict(reg, controllers={"0": entry})),
        ("controllers missing", {"format": 1}),
        ("a controller that is not an object", dict(reg, controllers=[7])),
        ("a controller without id", dict(reg, controllers=[{k: v for k, v in entry.items()
                                                            if k != "id"}])),
        ("a negative id", dict(reg, controllers=[dict(entry, id=-1)])),
        ("an id as a string", dict(reg, controllers=[dict(entry, id="0")])),
        ("an unknown backend", dict(reg, controllers=[dict(entry, backend="quantum")])),
        ("a key that walks out", dict(reg, controllers=[dict(entry, key="../../etc/passwd")])),
        ("an empty key", dict(reg, controllers=[dict(entry, key="")])),
        ("duplicate controller ids", dict(reg, controllers=[
            entry, dict(entry, key="RCLC000000000000")])),
        ("one controller under two numbers", dict(reg, controllers=[
            entry, dict(entry, id=1)])),
    ]
    out += [(name, as_bytes(obj)) for name, obj in shapes]
    return out


def soft_variants(good):
    soft = json.loads(good)
    slot = soft["slots"][0]
    other = soft["slots"][1]
    out = truncations(good) + garbage_variants(good)

    def with_slots(*slots):
        return dict(soft, slots=list(slots))

    shapes = [
        ("a JSON array", []),
        ("an empty object", {}),
        ("format 2", dict(soft, format=2)),
        ("serial missing", {k: v for k, v in soft.items() if k != "serial"}),
        ("sector size 1024", dict(soft, sector_size=1024)),
        ("a relative image dir", dict(soft, image_dir="images/x")),
        ("slots as an object", dict(soft, slots={"0": slot})),
        ("a slot that is not an object", with_slots("drive0.img")),
        ("a slot without wwn", with_slots({k: v for k, v in slot.items() if k != "wwn"})),
        ("owned as a string", with_slots(dict(slot, owned="yes"))),
        ("slot number 240", with_slots(dict(slot, slot=240))),
        ("a negative slot number", with_slots(dict(slot, slot=-1))),
        ("a slot with a relative path", with_slots(dict(slot, path="images/drive0.img"),
                                                   other)),
        ("a slot with an empty path", with_slots(dict(slot, path=""), other)),
        ("a serial too long for its field", with_slots(dict(slot, serial="S" * 200), other)),
        ("duplicate slot numbers", with_slots(slot, dict(other, slot=slot["slot"]))),
        ("one drive in two slots", with_slots(slot, dict(other, path=slot["path"]))),
        ("more slots than a controller has",
         with_slots(*[dict(slot, slot=i, path="%s.%d" % (slot["path"], i))
                      for i in range(241)])),
    ]
    out += [(name, as_bytes(obj)) for name, obj in shapes]
    return out


def corrupt_case(env, target, label, content, commands):
    """Write @content over @target, run @commands, restore the good file."""
    with open(target, "rb") as f:
        good = f.read()
    try:
        with open(target, "wb") as f:
            f.write(content)
        real = os.path.realpath(target)
        for args in commands:
            json_mode = args[-1] == "J"
            before = snapshot(env.state)
            proc = env.run(*args)
            after = snapshot(env.state)
            problems = []
            crash = crashed(proc)
            if crash:
                problems.append(crash)
            if proc.returncode != CORRUPT:
                problems.append("exit status %d, expected %d" % (proc.returncode, CORRUPT))
            try:
                message, errcd, status = description(proc, json_mode)
                if status != "Failure":
                    problems.append("status is %r, not Failure" % status)
                if errcd != proc.returncode:
                    problems.append("ErrCd %r differs from exit status" % errcd)
                if real not in message:
                    problems.append("message %r does not name %s" % (message, real))
            except (ValueError, KeyError, IndexError, TypeError) as e:
                problems.append("output does not parse (%s)" % e)
            with open(target, "rb") as f:
                if f.read() != content:
                    problems.append("the damaged file was rewritten")
            if before != after:
                problems.append("state changed: %s" % sorted(
                    k for k in set(before) | set(after) if before.get(k) != after.get(k)))
            if env.leftovers():
                problems.append("temporary files left: %s" % env.leftovers())
            detail = ""
            if problems:
                detail = "\n".join(problems) + "\nstdout:\n%s\nstderr:\n%s" % (
                    proc.stdout[:1500], proc.stderr[:1500])
            check(not problems,
                  "corrupt %s, %s: raidcli %s" % (label, content_name(label), " ".join(args)),
                  detail)
    finally:
        with open(target, "wb") as f:
            f.write(good)


def content_name(label):
    return label.split(": ", 1)[1] if ": " in label else label


READS = [["show"], ["/c0", "show"], ["/call", "show", "all", "J"]]


def corrupt_tests():
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=2", "size=16MB")
        spare = env.make_file("spare.img", 16 * MIB)
        with open(env.registry_path(), "rb") as f:
            reg_good = f.read()
        soft_path = env.soft_path(0)
        with open(soft_path, "rb") as f:
            soft_good = f.read()
        # Writers must refuse as well: a damaged registry must not be replaced
        # by a fresh one, nor a damaged controller's state by a rewritten one.
        reg_cmds = READS + [["add", "controller", "type=soft", "drives=1", "size=16MB"],
                            ["/c0", "add", "drive", "path=" + spare]]
        soft_cmds = READS + [["/c0", "add", "drive", "path=" + spare], ["/c0/s1", "del"],
                             ["/c0", "del", "delete=files", "force"]]
        for name, content in registry_variants(reg_good):
            corrupt_case(env, env.registry_path(), "registry.json: " + name, content,
                         reg_cmds)
        for name, content in soft_variants(soft_good):
            corrupt_case(env, soft_path, "soft state: " + name, content, soft_cmds)
        # A damaged controller stops a write to another one that must read it
        # (add drive checks every controller's slots), and names the right file.
        env.must("add", "controller", "type=soft", "drives=0")
        with open(soft_path, "wb") as f:
            f.write(b"{")
        try:
            proc = env.run("/c1", "add", "drive", "path=" + spare)
            check(proc.returncode == CORRUPT and os.path.realpath(soft_path) in proc.stdout
                  and not crashed(proc),
                  "add drive to /c1 while /c0's state is damaged", proc.stdout + proc.stderr)
        finally:
            with open(soft_path, "wb") as f:
                f.write(soft_good)
        # And after all that, the restored state works again.
        proc = env.run("/call", "show", "J")
        check(proc.returncode == 0, "restored state reads again", proc.stdout + proc.stderr)
    finally:
        env.close()


# ---------------------------------------------------------------------------
# (b) parallel writers, (c) leftovers

def added_slot(proc):
    doc = json.loads(proc.stdout)
    desc = doc["Controllers"][0]["Command Status"]["Description"]
    # "Added drive /c0/e252/s3."
    return int(desc.rstrip(".").rsplit("/s", 1)[1])


def added_ctrl(proc):
    doc = json.loads(proc.stdout)
    return doc["Controllers"][0]["Response Data"]["Controller"]


def parallel_tests():
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=0")
        paths = [env.make_file("p%d.img" % i, 16 * MIB) for i in range(8)]
        procs = [env.start("/c0", "add", "drive", "path=" + p, "J") for p in paths]
        outs = [(p, p.communicate(timeout=120)) for p in procs]
        problems = []
        slots = []
        for proc, (out, err) in outs:
            proc.stdout, proc.stderr = out, err
            if proc.returncode != 0 or crashed(proc):
                problems.append("exit %d: %s %s" % (proc.returncode, out[-400:], err))
            else:
                slots.append(added_slot(proc))
        check(not problems, "8 parallel add drive all succeed", "\n".join(problems))
        check(sorted(slots) == list(range(8)), "8 parallel add drive get 8 distinct slots",
              "slots: %r" % sorted(slots))
        try:
            with open(env.soft_path(0)) as f:
                soft = json.load(f)
            listed = sorted(s["path"] for s in soft["slots"])
            ok = listed == sorted(os.path.realpath(p) for p in paths)
            check(ok, "state file is valid JSON listing all 8 drives", "listed: %r" % listed)
        except (ValueError, OSError) as e:
            check(False, "state file is valid JSON listing all 8 drives", str(e))
        proc = env.run("/c0", "show", "J")
        pds = json.loads(proc.stdout)["Controllers"][0]["Response Data"].get("PD LIST", [])
        check(len(pds) == 8, "/c0 show lists the 8 drives", proc.stdout[-600:])
        check(not env.leftovers(), "no temporary files after parallel add drive",
              repr(env.leftovers()))

        procs = [env.start("add", "controller", "type=soft", "drives=1", "size=16MB", "J")
                 for _ in range(6)]
        numbers, problems = [], []
        for proc in procs:
            proc.stdout, proc.stderr = proc.communicate(timeout=120)
            if proc.returncode != 0 or crashed(proc):
                problems.append("exit %d: %s %s" % (proc.returncode, proc.stdout[-400:],
                                                    proc.stderr))
            else:
                numbers.append(added_ctrl(proc))
        check(not problems, "6 parallel add controller all succeed", "\n".join(problems))
        check(sorted(numbers) == list(range(1, 7)),
              "6 parallel add controller get 6 distinct numbers", "numbers: %r" % sorted(numbers))
        ids = sorted(c["id"] for c in env.registry()["controllers"])
        check(ids == list(range(7)), "registry lists the 7 controllers", repr(ids))
        check(not env.leftovers(), "no temporary files after parallel add controller",
              repr(env.leftovers()))

        # One file offered to every controller at once: exactly one may take it.
        owners_all = []
        for round_ in range(15):
            shared = env.make_file("shared%d.img" % round_, 16 * MIB)
            procs = [env.start("/c%d" % c, "add", "drive", "path=" + shared, "J")
                     for c in range(7)]
            codes = []
            for proc in procs:
                proc.stdout, proc.stderr = proc.communicate(timeout=120)
                codes.append(-999 if crashed(proc) else proc.returncode)
            owners = []
            for c in range(7):
                with open(env.soft_path(c)) as f:
                    if any(s["path"] == os.path.realpath(shared) for s in json.load(f)["slots"]):
                        owners.append(c)
            owners_all += owners
            check(sorted(codes) == [0] + [EXISTS] * 6 and len(owners) == 1,
                  "round %d: one file offered to 7 controllers at once lands in one" % round_,
                  "exit codes %r, controllers holding it %r" % (codes, owners))
        check(not env.leftovers(), "no temporary files after the contended add drive",
              repr(env.leftovers()))

        # Readers alongside writers never see a half-written file.
        writers = [env.start("/c0/s%d" % i, "del") for i in range(8)]
        readers = [env.start("/call", "show", "J") for _ in range(8)]
        bad = []
        for proc in writers + readers:
            proc.stdout, proc.stderr = proc.communicate(timeout=120)
            if proc.returncode != 0 or crashed(proc):
                bad.append("%r exit %d: %s %s" % (proc.args[1:], proc.returncode,
                                                 proc.stdout[-300:], proc.stderr))
        check(not bad, "parallel del and show all succeed", "\n".join(bad))
        with open(env.soft_path(0)) as f:
            remaining = sorted(s["slot"] for s in json.load(f)["slots"])
        check(not [s for s in remaining if s < 8] and
              len(remaining) == len([1 for o in owners_all if o == 0]),
              "slots 0-7 of /c0 emptied, the others kept", repr(remaining))
        check(not env.leftovers(), "no temporary files after parallel del and show",
              repr(env.leftovers()))
    finally:
        env.close()


# ---------------------------------------------------------------------------
# (d) numbers: reuse of the lowest free one, stability of the others

def serial_of(env, ctrl):
    return [c["key"] for c in env.registry()["controllers"] if c["id"] == ctrl][0]


def numbering_tests():
    env = Env()
    try:
        for _ in range(3):
            env.must("add", "controller", "type=soft", "drives=1", "size=16MB")
        serial0, serial2 = serial_of(env, 0), serial_of(env, 2)
        proc = env.run("/c0", "del")
        check(proc.returncode == 0, "/c0 del succeeds", proc.stdout + proc.stderr)
        kept = os.path.join(env.state, "images", serial0, "drive0.img")
        check(os.path.isfile(kept), "/c0 del without delete=files keeps its image", kept)
        proc = env.run("show", "J")
        ok = proc.returncode == 0
        if ok:
            data = json.loads(proc.stdout)["Controllers"][0]["Response Data"]
            ctls = sorted(r["Ctl"] for r in data.get("System Overview", []))
            ok = data["Number of Controllers"] == 2 and ctls == [1, 2]
        check(ok, "show works after /c0 del and lists /c1 and /c2", proc.stdout + proc.stderr)
        proc = env.run("/c0", "show")
        check(proc.returncode == 35, "/c0 show after del says not found",
              proc.stdout + proc.stderr)
        proc = env.run("add", "controller", "type=soft", "drives=1", "size=16MB", "J")
        check(proc.returncode == 0 and added_ctrl(proc) == 0,
              "next add controller reuses number 0", proc.stdout + proc.stderr)
        check(serial_of(env, 2) == serial2, "/c2 keeps its number")
        proc = env.run("/c1", "del", "delete=files", "force")
        check(proc.returncode == 0, "/c1 del delete=files force succeeds",
              proc.stdout + proc.stderr)
        proc = env.run("add", "controller", "type=soft", "drives=0", "J")
        check(proc.returncode == 0 and added_ctrl(proc) == 1,
              "next add controller takes the lowest free number, 1", proc.stdout + proc.stderr)
        proc = env.run("add", "controller", "type=soft", "drives=0", "J")
        check(proc.returncode == 0 and added_ctrl(proc) == 3,
              "the one after takes 3, past the kept /c2", proc.stdout + proc.stderr)
        check(serial_of(env, 2) == serial2, "/c2 still keeps its number")
        proc = env.run("/c2", "show", "J")
        ok = proc.returncode == 0 and serial2 in proc.stdout
        check(ok, "/c2 still shows its own controller", proc.stdout + proc.stderr)
        # /call with a writer: each handler reloads the registry under its
        # lock, and every addressed controller must still get its turn.
        spare = env.make_file("spare.img", 16 * MIB)
        proc = env.run("/call", "add", "drive", "path=" + spare, "J")
        codes = []
        if not crashed(proc) and proc.stdout.startswith("{"):
            codes = [c["Command Status"]["Detailed Status"][0]["ErrCd"]
                     if c["Command Status"]["Status"] == "Failure" else 0
                     for c in json.loads(proc.stdout)["Controllers"]]
        check(proc.returncode == EXISTS and codes == [0, EXISTS, EXISTS, EXISTS],
              "/call add drive puts one file in the first controller only",
              proc.stdout[-1500:] + proc.stderr[-1500:])
        # Deleting every controller at once leaves a working, empty registry.
        proc = env.run("/call", "del", "delete=files", "force", "J")
        ok = proc.returncode == 0 and not crashed(proc)
        if ok:
            results = json.loads(proc.stdout)["Controllers"]
            ok = [r["Command Status"]["Controller"] for r in results] == [0, 1, 2, 3]
        check(ok, "/call del delete=files force deletes each of the 4 controllers",
              proc.stdout[-1500:] + proc.stderr[-1500:])
        check(os.path.isfile(spare), "the file added by /call add drive is kept", spare)
        proc = env.run("show", "J")
        ok = proc.returncode == 0 and json.loads(proc.stdout)["Controllers"][0][
            "Response Data"]["Number of Controllers"] == 0
        check(ok, "show works with no controllers left", proc.stdout + proc.stderr)
        images = os.path.join(env.state, "images")
        left = os.listdir(images) if os.path.isdir(images) else []
        check(left == [serial0] and os.listdir(os.path.join(images, serial0)) == ["drive0.img"],
              "delete=files force removed every image directory but the kept one",
              repr(left))
        check(not env.leftovers(), "no temporary files after delete and reuse",
              repr(env.leftovers()))
    finally:
        env.close()


# ---------------------------------------------------------------------------
# (e) half-done changes

def skip(name, why):
    print("SKIP %s: %s" % (name, why))


def images_digest(env, paths):
    return {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths}


def pd_states(env):
    proc = env.run("/c0", "show", "J")
    rows = json.loads(proc.stdout)["Controllers"][0]["Response Data"].get("PD LIST", [])
    return {r["EID:Slt"]: r["State"] for r in rows}


def service_status(env):
    proc = env.run("/c0", "show", "service", "J")
    return json.loads(proc.stdout)["Controllers"][0]["Response Data"]["Controller Process"][
        "Status"]


def immutable_member_case():
    name = "add vd over an immutable image"
    if os.geteuid() != 0 or not shutil.which("chattr"):
        skip(name, "needs root and chattr to make an image immutable")
        return
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=4", "size=64MB", "dir=" + env.files)
        images = [os.path.join(env.files, "drive%d.img" % i) for i in range(4)]
        before = images_digest(env, images)
        proc = subprocess.run(["chattr", "+i", images[3]], capture_output=True, text=True)
        if proc.returncode != 0:
            skip(name, "chattr +i fails here: %s" % proc.stderr.strip())
            return
        try:
            proc = env.run("/c0", "add", "vd", "r5", "drives=252:0-3")
        finally:
            subprocess.run(["chattr", "-i", images[3]])
        desc, code, status = description(proc, False)
        check(code == 242 and status == "Failure" and "252:3" in desc and images[3] in desc
              and "Operation not permitted" in desc and "Bad file descriptor" not in desc,
              "%s fails, naming the drive and EPERM" % name,
              proc.stdout + proc.stderr)
        check(images_digest(env, images) == before,
              "%s writes nothing on the other drives" % name, repr(images_digest(env, images)))
        check(set(pd_states(env).values()) == {"UGood"},
              "%s leaves every drive UGood" % name, repr(pd_states(env)))
    finally:
        env.close()


def truncated_member_delete_case():
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=4", "size=64MB", "dir=" + env.files)
        env.must("/c0", "add", "vd", "r5", "drives=252:0-3")
        env.must("/c0", "stop", "service")
        with open(os.path.join(env.files, "drive0.img"), "r+b") as f:
            f.truncate(10 * MIB)
        proc = env.run("/c0/e252/s0", "del")
        desc, code, status = description(proc, False)
        check(code == 0 and desc == "Removed drive /c0/e252/s0; the backing store is kept.",
              "del of a truncated member succeeds and says so",
              proc.stdout + proc.stderr)
        with open(env.soft_path(0)) as f:
            slots = sorted(s["slot"] for s in json.load(f)["slots"])
        check(slots == [1, 2, 3], "the slot is emptied", repr(slots))
        states = pd_states(env)
        check(states.get("252:0") == "Msng", "the group shows its place missing", repr(states))
        before = snapshot(env.state)
        proc = env.run("/c0/e252/s0", "del")
        check(proc.returncode == 35 and snapshot(env.state) == before,
              "a second del finds no drive (35) and changes nothing", proc.stdout)
    finally:
        env.close()


def member_delete_case():
    """del of online members asks for force, and removes none of the slots named without it."""
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=4", "size=64MB", "dir=" + env.files)
        env.must("/c0", "add", "vd", "r5", "drives=252:0-2")
        env.must("/c0", "stop", "service")
        before = snapshot(env.state), pd_states(env)
        proc = env.run("/c0/e252/sall", "del")
        desc, code, status = description(proc, False)
        check(code == 245 and "degrades the RAID5 virtual drives" in desc,
              "del of online RAID5 members and a UGood drive asks for force (245)", proc.stdout)
        check((snapshot(env.state), pd_states(env)) == before,
              "and removes no drive, the UGood one included", repr(pd_states(env)))
        proc = env.run("/c0/e252/s1", "del", "force")
        states = pd_states(env)
        check(proc.returncode == 0 and states.get("252:1") == "Msng",
              "del force of a member removes it, its place Msng", proc.stdout)
    finally:
        env.run("/c0", "stop", "service")
        env.close()


@contextlib.contextmanager
def offline_member_beside_spare(drives):
    """An Env whose /c0 has @drives drives of 64 MB: a RAID5 VD on 252:0-3
    with s3 offline, s4 a global hot spare, no controller process running
    (a start would give s3's place to the spare)."""
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=%d" % drives, "size=64MB")
        env.must("/c0", "add", "vd", "r5", "drives=252:0-3")
        env.must("/c0", "stop", "service")
        env.must("/c0/e252/s4", "add", "hotsparedrive")
        env.must("/c0/e252/s3", "set", "offline")
        yield env
    finally:
        env.run("/c0", "stop", "service")
        env.close()


def refused_rebuild_case():
    with offline_member_beside_spare(5) as env:
        proc = env.run("/c0/e252/s0", "start", "rebuild")
        desc, code, status = description(proc, False)
        check(code == 255 and "is not being rebuilt" in desc,
              "start rebuild of an online member is refused (255)", proc.stdout + proc.stderr)
        check(service_status(env) == "Not Running",
              "the refused start rebuild starts no controller process",
              env.run("/c0", "show", "service").stdout)
        states = pd_states(env)
        check(states.get("252:4") == "GHS" and states.get("252:3") == "Offln",
              "the hot spare stays a spare, the member offline", repr(states))


def rebuild_beside_spare_case():
    """start rebuild on a UGood drive, the process started for it, is not beaten by a spare."""
    with offline_member_beside_spare(6) as env:
        proc = env.run("/c0/e252/s5", "start", "rebuild")
        check(proc.returncode == 0,
              "start rebuild on a UGood drive while a spare could serve succeeds",
              proc.stdout + proc.stderr)
        states = pd_states(env)
        check(states.get("252:5") in ("Rbld", "Onln") and states.get("252:4") == "GHS",
              "the named drive takes the place, the spare stays a spare", repr(states))


def refused_starts_case():
    """Each command that starts the controller process, refused, starts none."""
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=5", "size=64MB", "dir=" + env.files)
        env.must("/c0", "add", "vd", "r5", "drives=252:0-3")
        env.must("/c0", "add", "vd", "r0", "drives=252:4")
        env.must("/c0", "stop", "service")
        env.must("/c0", "set", "patrolread=off")
        images = [os.path.join(env.files, "drive%d.img" % i) for i in range(5)]
        refused = [
            ("/c0/v9", "start", "export"),
            ("/c0/v0", "start", "export", "socket=relative.sock"),
            ("/c0/v9", "start", "cc"),
            ("/c0/v1", "start", "cc", "force"),
            ("/c0/v9", "start", "init", "force"),
            ("/c0/v0", "start", "init"),
            ("/c0/v9", "start", "migrate", "type=raid5"),
            ("/c0/v0", "start", "migrate", "type=raid5", "option=add", "drives=252:1"),
            ("/c0", "start", "patrolread"),
        ]
        for args in refused:
            before = snapshot(env.state), images_digest(env, images)
            proc = env.run(*args)
            name = " ".join(args)
            check(proc.returncode not in (0, 242) and "Status = Failure" in proc.stdout,
                  "%s is refused" % name, proc.stdout + proc.stderr)
            check(service_status(env) == "Not Running", "%s starts no controller process" % name,
                  env.run("/c0", "show", "service").stdout)
            check((snapshot(env.state), images_digest(env, images)) == before,
                  "%s changes nothing" % name)
            env.run("/c0", "stop", "service")  # one that started must not hide the next
    finally:
        env.run("/c0", "stop", "service")
        env.close()


# ---------------------------------------------------------------------------
# (f) one storage under two paths

SBIN_PATH = os.environ.get("PATH", "") + ":/sbin:/usr/sbin"


def attach_loop(backing, *opts):
    """A loop device over @backing, or (None, why)."""
    proc = subprocess.run(["losetup", "--find", "--show", *opts, backing], capture_output=True,
                          text=True, env=dict(os.environ, PATH=SBIN_PATH))
    if proc.returncode != 0:
        return None, "losetup cannot attach a loop device: %s" % proc.stderr.strip()
    return proc.stdout.strip(), None


def detach_loop(loop):
    subprocess.run(["losetup", "-d", loop], env=dict(os.environ, PATH=SBIN_PATH))


def alias_cases():
    name = "one storage under two paths"
    if os.geteuid() != 0 or not shutil.which("losetup", path=SBIN_PATH):
        skip(name, "needs root and losetup for a loop device")
        return
    env = Env()
    loops = []
    try:
        env.must("add", "controller", "type=soft", "drives=2", "size=64MB", "dir=" + env.files)
        env.must("add", "controller", "type=soft", "drives=0")
        image = env.make_file("alias.img", 64 * MIB)
        loop, why = attach_loop(image)
        if not loop:
            skip(name, why)
            return
        loops.append(loop)
        env.must("/c0", "add", "drive", "path=" + image)
        for ctrl in ("/c0", "/c1"):
            before = snapshot(env.state)
            proc = env.run(ctrl, "add", "drive", "path=" + loop)
            desc = description(proc, False)[0]
            check(proc.returncode == EXISTS and "/c0/e252/s2" in desc and image in desc
                  and "same storage" in desc and snapshot(env.state) == before,
                  "%s add drive of a loop device over drive /c0/e252/s2 is refused" % ctrl,
                  proc.stdout + proc.stderr)
        env.must("/c0/e252/s2", "del")
        env.must("/c1", "add", "drive", "path=" + loop)
        proc = env.run("/c0", "add", "drive", "path=" + image)
        check(proc.returncode == EXISTS and "/c1/e252/s0" in proc.stdout,
              "the image of a loop device that is a drive of /c1 is refused", proc.stdout)
        env.must("/c1/e252/s0", "del")

        # A registry written before the check: add vd itself must refuse the pair.
        env.must("/c0", "add", "drive", "path=" + image)
        other = env.make_file("other.img", 64 * MIB)
        env.must("/c0", "add", "drive", "path=" + other)
        with open(env.soft_path(0)) as f:
            soft = json.load(f)
        for slot in soft["slots"]:
            if slot["path"] == os.path.realpath(other):
                slot["path"] = loop
        with open(env.soft_path(0), "w") as f:
            json.dump(soft, f)
        before = snapshot(env.state)
        digest = images_digest(env, [image])
        proc = env.run("/c0", "add", "vd", "r1", "drives=252:2-3")
        desc, code, status = description(proc, False)
        check(code != 0 and status == "Failure" and "same storage" in desc
              and snapshot(env.state) == before and images_digest(env, [image]) == digest,
              "add vd r1 over an image and a loop device over it is refused",
              proc.stdout + proc.stderr)
        check("252:2" in pd_states(env) and set(pd_states(env).values()) == {"UGood"},
              "and makes no VD", repr(pd_states(env)))
        partition_alias_case(env, loops)
    finally:
        env.run("/c0", "stop", "service")
        for loop in loops:
            detach_loop(loop)
        env.close()


def partition_alias_case(env, loops):
    name = "a disk and its partition"
    if not shutil.which("sgdisk", path=SBIN_PATH):
        skip(name, "needs sgdisk")
        return
    disk_image = env.make_file("disk.img", 80 * MIB)
    proc = subprocess.run(["sgdisk", "-n", "1:2048:+40M", disk_image], capture_output=True,
                          text=True, env=dict(os.environ, PATH=SBIN_PATH))
    if proc.returncode != 0:
        skip(name, "sgdisk failed: %s" % proc.stderr.strip())
        return
    loop, why = attach_loop(disk_image, "--partscan")
    if not loop:
        skip(name, why)
        return
    loops.append(loop)
    # losetup --partscan has the kernel read the table before it returns; a
    # kernel without the GPT parser gets it from partx (BLKPG). With no udev
    # here to make the node, make one from sysfs.
    sysdev = "/sys/class/block/%sp1/dev" % os.path.basename(loop)
    if not os.path.exists(sysdev) and shutil.which("partx", path=SBIN_PATH):
        subprocess.run(["partx", "-a", loop], capture_output=True,
                       env=dict(os.environ, PATH=SBIN_PATH))
    if not os.path.exists(sysdev):
        skip(name, "the kernel shows no partition of %s" % loop)
        return
    with open(sysdev) as f:
        major, minor = (int(n) for n in f.read().split(":"))
    part = os.path.join(env.files, "part1")
    os.mknod(part, 0o600 | stat.S_IFBLK, os.makedev(major, minor))
    env.must("/c1", "add", "drive", "path=" + part)
    proc = env.run("/c0", "add", "drive", "path=" + loop)
    check(proc.returncode == EXISTS and part in proc.stdout and "same storage" in proc.stdout,
          "the disk of a partition that is a drive is refused",
          proc.stdout)
    env.must("/c1/e252/s0", "del")


def main():
    return run_parts([corrupt_tests, parallel_tests, numbering_tests, immutable_member_case,
                      truncated_member_delete_case, member_delete_case, refused_rebuild_case,
                      rebuild_beside_spare_case, refused_starts_case, alias_cases])


if __name__ == "__main__":
    sys.exit(main())
