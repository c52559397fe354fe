#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-foreign.py - drives moved between soft controllers keep their VDs and data.

A controller with RAID1, RAID5 (with a dedicated spare), RAID10 and RAID50
VDs and a global spare is deleted, keeping its image files, and its images
go into a new controller in another slot order. There they must show as a
foreign configuration (PD LIST DG "F", no VDs, /fall show listing them),
"fall import preview" must write nothing, and "fall import" must give back
the same VDs (levels, sizes, names, strips, policies, creation times, md
UUIDs, members in the same order, spares) with every byte outside the
metadata partition (where only the configuration records change) as it was.
Partial configurations show with status 59 (as StorCLI's), import degraded,
or fail with status 59 and change nothing; "fall del" blanks the drives.

Runs the raidcli named by $RAIDCLI in throwaway state directories.
"""
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rcltest import RAIDCLI, check, run_parts  # noqa: E402

MIB = 1 << 20
META_TYPE = "0A511BD4-1AB7-4BFC-BE0F-14838F789FCD"
SECTOR = 512

def guid_text(b):
    a, b2, c = struct.unpack("<IHH", b[:8])
    return "%08X-%04X-%04X-%s-%s" % (a, b2, c, b[8:10].hex().upper(), b[10:].hex().upper())


def gpt_parts(path):
    """(type GUID text, first byte, end byte) of each used GPT entry of @path."""
    with open(path, "rb") as f:
        f.seek(SECTOR)
        hdr = f.read(92)
        if hdr[:8] != b"EFI PART":
            return []
        entries_lba, count, size = struct.unpack("<QII", hdr[72:88])
        f.seek(entries_lba * SECTOR)
        table = f.read(count * size)
    parts = []
    for i in range(count):
        e = table[i * size:(i + 1) * size]
        if e[:16] == bytes(16):
            continue
        first, last = struct.unpack("<QQ", e[32:48])
        parts.append((guid_text(e[:16]), first * SECTOR, (last + 1) * SECTOR))
    return parts


def digest(path, skip_meta):
    """SHA-256 of @path; with @skip_meta, without its metadata partition (the records)."""
    skip = [(a, b) for t, a, b in gpt_parts(path) if t == META_TYPE] if skip_meta else []
    h = hashlib.sha256()
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    for a, b in sorted(skip):
        h.update(data[pos:a])
        pos = b
    h.update(data[pos:])
    return h.hexdigest()


def fill_data(path, rng):
    """Random bytes near the end of each VD partition: array data md never rewrites."""
    with open(path, "r+b") as f:
        for t, a, b in gpt_parts(path):
            if t != META_TYPE:
                f.seek(b - 256 * 1024)
                f.write(rng.randbytes(128 * 1024))


class Env:
    def __init__(self):
        root = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.root = tempfile.mkdtemp(prefix="raidcli-foreign.", dir=root)
        self.img = os.path.join(self.root, "img")
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=os.path.join(self.root, "state"))

    def run(self, *args):
        return subprocess.run([RAIDCLI] + list(args), env=self.env, capture_output=True,
                              text=True, timeout=120)

    def must(self, *args):
        proc = self.run(*args)
        if proc.returncode:
            raise RuntimeError("raidcli %s failed (%d):\n%s%s" %
                               (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
        return proc

    def json(self, *args):
        proc = self.run(*(list(args) + ["J"]))
        return proc.returncode, json.loads(proc.stdout)["Controllers"][0]

    def image(self, n):
        return os.path.join(self.img, "drive%d.img" % n)

    def images(self):
        return sorted(os.path.join(self.img, n) for n in os.listdir(self.img))

    def digests(self, skip_meta):
        return {p: digest(p, skip_meta) for p in self.images()}

    def slot_paths(self, ctrl):
        """slot -> backing path of controller @ctrl."""
        rc, out = self.json("/c%d/eall/sall" % ctrl, "show", "all")
        paths = {}
        for key, value in out["Response Data"].items():
            if key.endswith("Detailed Information"):
                slot = int(key.split("/s")[1].split()[0])
                paths[slot] = value[key.replace(" - Detailed Information", " Device attributes")]["Path"]
        return paths

    def move(self, order):
        """Delete /c0 keeping its images; a new /c0 gets them in @order."""
        self.must("/c0", "del")
        self.must("add", "controller", "type=soft", "drives=0")
        for n in order:
            self.must("/c0", "add", "drive", "path=" + self.image(n))

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def vd_view(env, ctrl):
    """Per VD id: its row, its properties and its members' backing paths, in order."""
    rc, out = env.json("/c%d/vall" % ctrl, "show", "all")
    data = out.get("Response Data", {})
    paths = env.slot_paths(ctrl)
    view = {}
    for key, value in data.items():
        if key.startswith("/c") and "/v" in key:
            vd = int(key.split("/v")[1])
            members = [paths[int(r["EID:Slt"].split(":")[1])] for r in data["PDs for VD %d" % vd]]
            view[vd] = {"row": value[0], "props": data["VD%d Properties" % vd],
                        "members": members}
    return view


def spares(env, ctrl):
    """Backing path -> (state, DG) of every hot spare of @ctrl."""
    rc, out = env.json("/c%d/eall/sall" % ctrl, "show")
    paths = env.slot_paths(ctrl)
    return {paths[int(r["EID:Slt"].split(":")[1])]: (r["State"], r["DG"])
            for r in out["Response Data"]["Drive Information"] if r["State"] in ("GHS", "DHS")}


def build(env):
    env.must("add", "controller", "type=soft", "drives=17", "size=64MB", "dir=" + env.img)
    env.must("/c0", "add", "vd", "r1", "drives=252:0-1", "name=boot", "wb")
    env.must("/c0", "add", "vd", "r5", "drives=252:2-4", "name=data", "strip=128", "nora",
             "spares=252:16")
    env.must("/c0", "add", "vd", "r10", "drives=252:5-8", "name=ten", "size=40MB")
    env.must("/c0", "add", "vd", "r10", "drives=252:5-8", "name=ten2")
    env.must("/c0", "add", "vd", "r50", "drives=252:9-14", "pdperarray=3", "name=fifty",
             "strip=256")
    env.must("/c0/v1", "set", "accesspolicy=ro")
    env.must("/c0/e252/s15", "add", "hotsparedrive")
    rng = random.Random(7)
    for p in env.images():
        fill_data(p, rng)


def test_move_and_import():
    env = Env()
    try:
        build(env)
        before_vds = vd_view(env, 0)
        before_spares = spares(env, 0)
        rc, out = env.json("/c0", "show", "all")
        serial = out["Response Data"]["Basics"]["Serial Number"]
        order = list(range(17))
        random.Random(3).shuffle(order)
        env.move(order)
        data_before = env.digests(skip_meta=True)

        rc, out = env.json("/c0", "show")
        dgs = [r["DG"] for r in out["Response Data"]["PD LIST"]]
        check(dgs == ["F"] * 17, "moved drives show DG F in PD LIST", repr(dgs))
        rc, out = env.json("/c0/vall", "show")
        check(not out.get("Response Data", {}).get("Virtual Drives"),
              "the new controller shows no VDs before import", json.dumps(out)[:300])
        rc, out = env.json("/c0/fall", "show")
        data = out["Response Data"]
        cfgs = data.get("Foreign Configurations", [])
        check(rc == 0 and data["Total foreign Drive Groups"] == 4 and len(cfgs) == 1 and
              cfgs[0]["Owner"] == serial and cfgs[0]["Complete"] == "Yes" and
              cfgs[0]["PDs"] == "17/17", "fall show lists the old controller's configuration",
              json.dumps(data)[:600])
        types = sorted(r["Type"] for r in data["FOREIGN CONFIGURATION"])
        check(types == sorted(["RAID1", "RAID5", "RAID10", "RAID50"]),
              "fall show lists one row per foreign group", repr(types))

        everything = env.digests(skip_meta=False)
        rc, out = env.json("/c0/fall", "import", "preview")
        check(rc == 0 and len(out["Response Data"]["VD LIST"]) == 5,
              "import preview lists the five VDs", json.dumps(out)[:400])
        check(env.digests(skip_meta=False) == everything, "import preview writes nothing")
        rc, out = env.json("/c0/vall", "show")
        check(not out.get("Response Data", {}).get("Virtual Drives"),
              "after a preview there are still no VDs")

        rc, out = env.json("/c0/fall", "import")
        check(rc == 0 and out["Command Status"]["Description"] ==
              "Successfully imported foreign configuration", "fall import succeeds",
              json.dumps(out)[:400])
        after_vds = vd_view(env, 0)
        check(sorted(after_vds) == sorted(before_vds), "the same VD ids after import",
              "%r vs %r" % (sorted(before_vds), sorted(after_vds)))
        for vd in sorted(before_vds):
            b, a = before_vds[vd], after_vds.get(vd, {})
            check(a.get("row") == b["row"], "VD %d: row (level, size, name, policies)" % vd,
                  "%r vs %r" % (b["row"], a.get("row")))
            check(a.get("props") == b["props"], "VD %d: strip, spans, md UUID, times" % vd,
                  "%r vs %r" % (b["props"], a.get("props")))
            check(a.get("members") == b["members"], "VD %d: members in the same order" % vd,
                  "%r vs %r" % (b["members"], a.get("members")))
        check(spares(env, 0) == before_spares, "global and dedicated spares come along",
              "%r vs %r" % (before_spares, spares(env, 0)))
        check(env.digests(skip_meta=True) == data_before,
              "every byte outside the metadata partitions is unchanged")
        rc, out = env.json("/c0", "show")
        dgs = [r["DG"] for r in out["Response Data"]["PD LIST"]]
        check("F" not in dgs, "no drive is foreign after import", repr(dgs))
        rc, out = env.json("/c0/fall", "show")
        check(rc == 0 and out["Response Data"]["Total foreign Drive Groups"] == 0,
              "fall show finds nothing after import")
    finally:
        env.close()


def test_partial():
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=5", "size=64MB", "dir=" + env.img)
        env.must("/c0", "add", "vd", "r1", "drives=252:0-1", "name=boot")
        env.must("/c0", "add", "vd", "r5", "drives=252:2-4", "name=data")
        env.move([0, 2, 3])  # boot lacks one mirror, data one of three
        rc, out = env.json("/c0/fall", "show", "all")
        cfg = out["Response Data"]["Foreign Configurations"][0]
        states = [r["State"] for r in out["Response Data"]["VD LIST"]]
        check(cfg["Complete"] == "No" and cfg["PDs"] == "3/5" and states == ["Dgrd", "Dgrd"],
              "a partial configuration shows incomplete, its VDs degraded",
              json.dumps(out["Response Data"])[:500])
        check(rc == 59 and out["Command Status"]["Description"] ==
              "Incomplete foreign configuration" and
              out["Response Data"]["Total Foreign PDs"] == 3,
              "fall show of a partial configuration fails as StorCLI's does (59)",
              json.dumps(out["Command Status"]))
        rc, out = env.json("/c0/fall", "import")
        check(rc == 0, "a degraded configuration imports", json.dumps(out)[:300])
        rc, out = env.json("/c0/vall", "show")
        states = [r["State"] for r in out["Response Data"]["Virtual Drives"]]
        check(states == ["Dgrd", "Dgrd"], "imported degraded VDs stay degraded", repr(states))
        # The missing drives come back later: each belongs to this controller now.
        env.must("/c0", "add", "drive", "path=" + env.image(1))
        env.must("/c0", "add", "drive", "path=" + env.image(4))
        rc, out = env.json("/c0", "show")
        dgs = [r["DG"] for r in out["Response Data"]["PD LIST"]]
        check("F" in dgs, "a member left behind still carries the old record (foreign)",
              repr(dgs))
    finally:
        env.close()


def test_delete():
    env = Env()
    try:
        env.must("add", "controller", "type=soft", "drives=3", "size=64MB", "dir=" + env.img)
        env.must("/c0", "add", "vd", "r5", "drives=252:0-2")
        env.move([2, 1, 0])
        everything = env.digests(skip_meta=False)
        rc, out = env.json("/c0/fall", "del")
        check(rc == 245 and env.digests(skip_meta=False) == everything,
              "fall del without force changes nothing (status 245)", "rc %d" % rc)
        rc, out = env.json("/c0/fall", "del", "force")
        check(rc == 0, "fall del force succeeds", json.dumps(out)[:300])
        rc, out = env.json("/c0", "show")
        rows = out["Response Data"]["PD LIST"]
        check(all(r["DG"] == "-" and r["State"] == "UGood" for r in rows),
              "deleted foreign drives are unconfigured good", repr(rows)[:300])
        check(all(not gpt_parts(p) for p in env.images()), "their GPTs are gone")
        proc = env.run("/c0", "add", "vd", "r5", "drives=252:0-2")
        check(proc.returncode == 0, "the wiped drives make a new VD", proc.stdout[-300:])
    finally:
        env.close()


def main():
    return run_parts([test_move_and_import, test_partial, test_delete])


if __name__ == "__main__":
    sys.exit(main())
