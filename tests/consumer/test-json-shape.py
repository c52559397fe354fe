#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compare the shape of raidcli's JSON with real StorCLI captures.

For every key path that raidcli prints and a real StorCLI 007.x capture
(shared/research/storcli-samples, beside the checkout) also has, the JSON
types must agree: a script that reads "DID" as a number or "Size" as a
string keeps working. "show all" must print every key path of its capture:
StorCLI prints each section whatever the card has, and a script may read any
of them ("Scheduled Tasks/Patrol Read Reoccurrence"). Keys only raidcli
prints are listed but not failures.
"""
import json
import os
import subprocess
import sys
import tempfile

RAIDCLI = os.environ["RAIDCLI"]
SAMPLES = os.path.join(os.environ.get("SOURCE_ROOT", "."), "..", "shared", "research",
                       "storcli-samples", "node-exporter")
# Keys StorCLI itself types both ways: "DG" is a number for a member drive and
# "-" (or "F" for foreign) otherwise; "BBU Status" is a number, or "NA" when the
# controller has no battery. Either type is what StorCLI prints.
# TOPOLOGY's "Arr", "Row" and "DID" are numbers on the rows they apply to and
# "-" on the others (a group row has no array index, row or device id).
EITHER_TYPE = {"DG", "BBU Status", "Arr", "Row", "DID"}
# StorCLI's word for a value the card does not have (no PCI function, no
# sensor): it stands where the card would print a number.
ABSENT = "NA"
NAMED = os.path.join("..", "pystorcli2", "namedSet")
# Keys StorCLI prints only when the card has the part (the key path that
# says it is absent): none of raidcli's controllers has a temperature sensor.
WITH_PART = {"ROC temperature(Degree Celsius)": ("HwCfg", "Temperature Sensor for ROC")}
# The replies that must have every key path of their capture ("/c0 show":
# its PCI and BIOS header).
COMPLETE = {"/cALL show all J", "/cALL/eALL/sALL show all J", "/c0 show J"}
PAIRS = [("/cALL show all J", "storcli_-cALL_show_all.json"),
         ("/cALL/eALL/sALL show all J", "storcli_-cALL-eALL-sALL_show_all.json"),
         # With a VD: TOPOLOGY, VD LIST and the VD's own show.
         ("/c0 show J", os.path.join(NAMED, "create_vd_raid1_00", "__c0_show_J.json")),
         ("/c0/v0 show J", os.path.join(NAMED, "create_vd_raid1_00", "__c0_v1_show_J.json"))]


def shape(node, path, out):
    """Map each key path to its JSON types; drive and list keys are generalized."""
    types = out.setdefault(path, set())
    if isinstance(node, dict):
        types.add("object")
        for key, value in node.items():
            key = generic_key(key)
            shape(value, path + (key,), out)
    elif isinstance(node, list):
        types.add("list")
        for item in node:
            shape(item, path + ("[]",), out)
    elif node != ABSENT:
        types.add(type(node).__name__)


def generic_key(key):
    """'Drive /c0/e252/s3 State' -> 'Drive <d> State', so drives line up."""
    if key.startswith("Drive /c"):
        rest = key.split(" ", 2)
        return "Drive <d>" + (" " + rest[2] if len(rest) > 2 else "")
    return key


def absent_part(path, reply):
    """Whether @path is a key StorCLI leaves out because @reply says its part is absent."""
    if path[-1] not in WITH_PART:
        return False
    section, key = WITH_PART[path[-1]]
    return all(c["Response Data"][section][key] == "Absent" for c in reply["Controllers"])


def run(args):
    out = subprocess.run([RAIDCLI] + args.split(), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    if not os.path.isdir(SAMPLES):
        print("SKIP: no StorCLI samples at %s" % SAMPLES)
        return 77
    failures = 0
    with tempfile.TemporaryDirectory(dir="/dev/shm") as state:
        os.environ["RAIDCLI_STATE_DIR"] = state
        subprocess.run([RAIDCLI, "add", "controller", "type=soft", "drives=4", "size=64MB"],
                       check=True, capture_output=True)
        subprocess.run([RAIDCLI, "/c0", "add", "vd", "r1", "drives=252:0-1"],
                       check=True, capture_output=True)
        for command, sample in PAIRS:
            ours, theirs = {}, {}
            reply = run(command)
            shape(reply, (), ours)
            with open(os.path.join(SAMPLES, sample)) as f:
                shape(json.load(f), (), theirs)
            common = sorted(set(ours) & set(theirs))
            for path in common:
                if ours[path] and ours[path] != theirs[path] and path[-1] not in EITHER_TYPE:
                    print("FAIL %s: %s is %s in raidcli, %s in StorCLI" %
                          (command, "/".join(path), ours[path], theirs[path]))
                    failures += 1
            print("%s: %d shared key paths, %d only in StorCLI, %d only in raidcli" %
                  (command, len(common), len(set(theirs) - set(ours)),
                   len(set(ours) - set(theirs))))
            missing = [path for path in sorted(set(theirs) - set(ours))
                       if command in COMPLETE and not absent_part(path, reply)]
            for path in missing:
                print("FAIL %s: no %s" % (command, "/".join(path)))
                failures += 1
            # A small reply (one VD row) need only share all of its paths.
            if len(common) < min(20, len(theirs)):
                print("FAIL %s: too few key paths in common (%d)" % (command, len(common)))
                failures += 1
    print("%d passed, %d failed" % (len(PAIRS) - min(failures, len(PAIRS)), min(failures, len(PAIRS))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
