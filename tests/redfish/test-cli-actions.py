#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-cli-actions.py - raidcli's changing commands on redfish controllers.

Runs the raidcli named by $RAIDCLI against service.py (both trees, one host
each) through "add controller type=redfish", in text and in JSON:
 (a) add vd (idrac: 202 and a task followed; modern: 201), with the name,
     strip and cache policies the BMC then holds;
 (b) del vd: refused without force (raidcli cannot see the data through a
     BMC), done with it;
 (c) set wrcache/rdcache/name: a PATCH with If-Match where the BMC gives
     ETags; a 412 and a read-only property refused in the service's words;
 (d) start/stop locate by IndicatorLED (idrac) or LocationIndicatorActive
     (modern);
 (e) start erase (force needed) and start init, their progress in show
     erase / show init from Operations[], and show rebuild of the tree's own;
 (f) add/delete hotsparedrive, refused where the BMC keeps HotspareType
     read-only;
 (g) every refusal shows the service's Message and Resolution with
     Status = Failure, and leaves the BMC and the controller's model as
     they were.
Every command's output, ports and times normalized as test-backend.py
does, is compared with expected/actions-<tree>.txt (each action in text or
JSON, each refusal in both). Regenerate with
    RAIDCLI=build/cli/raidcli tests/redfish/test-cli-actions.py --regenerate
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RAIDCLI = os.environ.get("RAIDCLI", "raidcli")
NEED_FORCE = 245



def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Service and Client come from the service's own test, normalize() and
# compare() (of goldens in expected/) from the backend's.
ts = _load("test_service", "test-service.py")
tb = _load("test_backend", "test-backend.py")
import rcltest  # noqa: E402 (on the path test-backend.py set): compare()'s counts
check = ts.check

PERC = "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1"


def BAY(n):
    return PERC + "/Drives/Disk.Bay.%d:Enclosure.Internal.0-1:RAID.Integrated.1-1" % n


def VD(n):
    return PERC + "/Volumes/Disk.Virtual.%d:RAID.Integrated.1-1" % n


def DRIVE(n):  # modern: slot N is drive N
    return "/redfish/v1/Chassis/1/Drives/%d" % n


def VOLUME(n):  # modern: /vN is volume N+1
    return "/redfish/v1/Systems/1/Storage/1/Volumes/%d" % n



class Cli:
    """raidcli in its own state directory."""

    def __init__(self, tmp):
        self.state = os.path.join(tmp, "state")
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state)
        self.transcript = []

    def run(self, *args, record=True):
        p = subprocess.run([RAIDCLI, *args], env=self.env, capture_output=True, text=True,
                           timeout=120)
        if record:
            self.transcript.append("$ raidcli %s\n%s" % (" ".join(args), tb.normalize(
                p.stdout + p.stderr, self.state)))
        return p.returncode, p.stdout + p.stderr

    def text(self, *args):
        """Exit status and the text's Status and Description."""
        rc, out = self.run(*args)
        fields = dict(line.split(" = ", 1) for line in out.splitlines() if " = " in line)
        return rc, fields.get("Status"), fields.get("Description", "")

    def json(self, *args, record=True):
        rc, out = self.run(*args, "J", record=record)
        try:
            ctrl = json.loads(out)["Controllers"][0]
        except (ValueError, KeyError, IndexError):
            check(False, "raidcli %s J prints storcli JSON" % " ".join(args), out)
            return rc, {}, {}
        return rc, ctrl["Command Status"], ctrl.get("Response Data", {})

    def both(self, what, args, ok=True, says=(), rc_want=None):
        """@args in text and JSON: Success (or Failure with @says in the message)."""
        rc, status, desc = self.text(*args)
        want = "Success" if ok else "Failure"
        check(status == want, "%s: text says Status = %s" % (what, want), (rc, status, desc))
        for s in says:
            check(s in desc, "%s: text says %r" % (what, s), desc)
        if rc_want is not None:
            check(rc == rc_want, "%s: exit status %d" % (what, rc_want), rc)
        return rc, desc

    def both_json(self, what, args, ok=True, says=()):
        rc, cs, _ = self.json(*args)
        want = "Success" if ok else "Failure"
        check(cs.get("Status") == want, "%s: JSON Status %s" % (what, want), cs)
        detail = cs.get("Detailed Status", [{}])[0] if not ok else {}
        for s in says:
            check(s in cs.get("Description", ""), "%s: JSON Description has %r" % (what, s),
                  cs)
            check(s in detail.get("ErrMsg", ""), "%s: JSON ErrMsg has %r" % (what, s), cs)
        return rc, cs

    def model(self, ctrl):
        """What the controller shows of its drives and VDs (no Operations, which move)."""
        return [self.json("/c%d/%s" % (ctrl, what), "show", record=False)[2]
                for what in ("vall", "eall/sall")]


def prop(svc, uri, key):
    status, _, body = svc.client().get(uri)
    check(status == 200, "GET %s" % uri, status)
    return (body or {}).get(key)


def refused(cli, svc, ctrl, what, args, says, rc_want=None):
    """@args is refused (text, then JSON, each its own try) with @says, and
    changes nothing: no change on the BMC, the same model."""
    before = cli.model(ctrl)
    changed = svc.control("GET", "/hosts/0")[1]["changed"]
    cli.both(what, args, ok=False, says=says, rc_want=rc_want)
    cli.both_json(what, args, ok=False, says=says)
    after_changed = svc.control("GET", "/hosts/0")[1]["changed"]
    config = [u for u in changed if "/SessionService/" not in u and "/TaskService/" not in u]
    check([u for u in after_changed if "/SessionService/" not in u and "/TaskService/" not in u]
          == config,
          "%s: nothing changed on the BMC" % what, (changed, after_changed))
    check(cli.model(ctrl) == before, "%s: the controller shows what it showed" % what)


def idrac_cases(cli, svc):
    """/c0: the PERC of the idrac tree (202 tasks, no ETags, IndicatorLED)."""
    cli.both("add vd (202 task)",
             ["/c0", "add", "vd", "type=raid5", "drives=252:6-8", "name=db", "strip=128",
              "wb", "nora"], says=["Add VD Succeeded."])
    check(prop(svc, VD(2), "Name") == "db", "add vd: the BMC has the volume named db")
    check(prop(svc, VD(2), "StripSizeBytes") == 131072, "add vd: strip 128 KB")
    check(prop(svc, VD(2), "WriteCachePolicy") == "ProtectedWriteBack", "add vd: wb")
    check(prop(svc, VD(2), "ReadCachePolicy") == "Off", "add vd: nora")
    _, _, data = cli.json("/c0/v2", "show")
    rows = data.get("Virtual Drives", [{}])
    check(rows[0].get("Name") == "db" and rows[0].get("TYPE") == "RAID5",
          "add vd: /c0/v2 shows the new RAID5 db", rows)
    refused(cli, svc, 0, "del vd without force", ["/c0/v2", "del"],
            ["cannot see through the BMC whether /c0/v2 holds", "repeat with 'force'"],
            rc_want=NEED_FORCE)
    cli.both("del vd force", ["/c0/v2", "del", "force"], says=["Delete VD succeeded"])
    check(svc.client().get(VD(2))[0] == 404, "del vd: the volume is gone from the BMC")
    cli.both_json("add vd J", ["/c0", "add", "vd", "type=raid1", "drives=252:9-10"])
    cli.both("set wrcache", ["/c0/v1", "set", "wrcache=wt"])
    check(prop(svc, VD(1), "WriteCachePolicy") == "WriteThrough", "set wrcache=wt: on the BMC")
    refused(cli, svc, 0, "set name (read-only on this BMC)", ["/c0/v1", "set", "name=scratch"],
            ["(400 Bad Request): Name is read-only here. (Base.1.18.PropertyNotWritable) "
             "Resolution: Leave the property out of the request."])
    cli.both("start locate", ["/c0/e252/s3", "start", "locate"])
    check(prop(svc, BAY(3), "IndicatorLED") == "Blinking", "start locate: IndicatorLED Blinking")
    cli.both_json("stop locate", ["/c0/e252/s3", "stop", "locate"])
    check(prop(svc, BAY(3), "IndicatorLED") == "Off", "stop locate: IndicatorLED Off")
    refused(cli, svc, 0, "add hotsparedrive (read-only here)",
            ["/c0/e252/s11", "add", "hotsparedrive"],
            ["HotspareType is read-only here. (Base.1.18.PropertyNotWritable)"])
    # a task that fails on the BMC: its message, and no VD
    svc.faults(0, task_error={"message_id": "IDRAC.2.8.STOR023",
                              "message": "The controller is busy.",
                              "resolution": "Retry once the job queue is empty."})
    refused(cli, svc, 0, "add vd whose task fails",
            ["/c0", "add", "vd", "type=raid0", "drives=252:12"],
            ["The controller is busy. (IDRAC.2.8.STOR023) Resolution: Retry once the job "
             "queue is empty."])
    svc.faults(0, task_error=None)
    rc, out = cli.run("/c0/e252/s4", "show", "rebuild")
    check(rc == 0 and " 42 In progress" in out, "show rebuild: the BMC's 42%", out)


def modern_cases(cli, svc):
    """/c2: storage 1 of the modern tree (201/204, ETags, LocationIndicatorActive)."""
    cli.both("add vd (201)", ["/c2", "add", "vd", "type=raid1", "drives=252:7-8", "name=logs"])
    check(prop(svc, VOLUME(3), "DisplayName") == "logs", "add vd: the BMC has logs")
    cli.both("set wrcache rdcache name (If-Match)",
             ["/c2/v0", "set", "wrcache=awb", "rdcache=nora", "name=boot"])
    check(prop(svc, VOLUME(1), "WriteCachePolicy") == "UnprotectedWriteBack", "set: awb")
    check(prop(svc, VOLUME(1), "DisplayName") == "boot", "set: the name")
    svc.faults(0, errors=[{"method": "PATCH", "path": VOLUME(1), "status": 412,
                           "message_id": "PreconditionFailed",
                           "message": "The ETag did not match: the volume changed.",
                           "resolution": "Read it again and retry."}])
    refused(cli, svc, 2, "set with a stale ETag (412)", ["/c2/v0", "set", "wrcache=wt"],
            ["(412 Precondition Failed): The ETag did not match: the volume changed. "
             "(Base.1.18.PreconditionFailed) Resolution: Read it again and retry."])
    svc.faults(0, errors=None)
    cli.both("start locate", ["/c2/e252/s9", "start", "locate"])
    check(prop(svc, DRIVE(9), "LocationIndicatorActive") is True,
          "start locate: LocationIndicatorActive")
    cli.both("stop locate", ["/c2/e252/s9", "stop", "locate"])
    check(prop(svc, DRIVE(9), "LocationIndicatorActive") is False, "stop locate: off")
    cli.both("add hotsparedrive", ["/c2/e252/s10", "add", "hotsparedrive"])
    check(prop(svc, DRIVE(10), "HotspareType") == "Global", "add hotsparedrive: Global")
    cli.both_json("delete hotsparedrive", ["/c2/e252/s10", "delete", "hotsparedrive"])
    check(prop(svc, DRIVE(10), "HotspareType") == "None", "delete hotsparedrive: None")
    refused(cli, svc, 2, "start erase without force", ["/c2/e252/s12", "start", "erase"],
            ["repeat with 'force'"], rc_want=NEED_FORCE)
    # raidcli's own rule, as for every kind: the BMC is not asked
    refused(cli, svc, 2, "start erase of a member",
            ["/c2/e252/s0", "start", "erase", "force"],
            ["drive 252:0 is a member of disk group 0: take it out of the configuration"])
    cli.both("start erase", ["/c2/e252/s12", "start", "erase", "crypto", "force"],
             says=["Start Drive Erase Succeeded."])
    rc, out = cli.run("/c2/e252/s12", "show", "erase")
    check(rc == 0 and "/c2/e252/s12" in out and "In progress" in out,
          "show erase: in progress from the drive's Operations[]", out)
    cli.both("start init", ["/c2/v1", "start", "init", "force"])
    rc, _, data = cli.json("/c2/v1", "show", "init")
    check(rc == 0 and "In progress" in json.dumps(data), "show init J: in progress", data)
    refused(cli, svc, 2, "stop init", ["/c2/v1", "stop", "init"],
            ["not supported by this controller (redfish)"])


def main():
    ts.load_trees()
    with tempfile.TemporaryDirectory(prefix="rfcli-") as tmp:
        cli = Cli(tmp)
        for tree, cases in (("idrac", idrac_cases), ("modern", modern_cases)):
            svc = ts.Service(tmp, "--tree", tree)
            try:
                pw = os.path.join(tmp, tree + ".pw")
                with open(os.open(pw, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                    f.write(ts.PASSWORDS[tree] + "\n")
                rc, out = cli.run("add", "controller", "type=redfish",
                                  "host=" + svc.info["hosts"][0]["url"],
                                  "user=" + svc.info["user"], "credfile=" + pw,
                                  "cafile=" + svc.info["ca"])
                check(rc == 0, "%s: add controller type=redfish" % tree, out)
                cli.transcript = []
                cases(cli, svc)
                tb.compare("actions-%s.txt" % tree, "".join(cli.transcript))
            except Exception as e:  # a crash is one failure, not the end
                import traceback
                traceback.print_exc()
                check(False, "%s raised %r" % (cases.__name__, e))
            finally:
                svc.stop()
    failed = ts.failures + rcltest.failures
    print("%d checks, %d failed" % (ts.checks + rcltest.checks, len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
