#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-metrics.py - "raidcli show metrics" read as Prometheus reads it.

One state directory holds /c0, a soft controller whose RAID5 is degraded
with its hot spare's rebuild under way (paused, so its progress holds
still), /c1 and /c2, mock controllers from the MegaRAID and NVMe fixtures,
/c3, a soft controller whose state file is damaged, and /c4-/c7, redfish
controllers of two BMCs of tests/redfish/service.py, the second one dead
(its port refuses). The exposition is
parsed by prometheus_client's text parser (python3-prometheus-client) and
read by node_exporter's own textfile collector (prometheus-node-exporter),
which refuses a file that is not valid text format 0.0.4 (a family twice,
a duplicate series, bad escaping) with node_textfile_scrape_error 1.
"""
import importlib.util
import os
import socket
import stat
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rcltest import Fixture, check, summary, wait_for, start_export, wait_consistent  # noqa: E402

from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "mock")
NODE_EXPORTER = "/usr/bin/prometheus-node-exporter"


def samples(text):
    """{(name, frozenset(labels)): value} of exposition @text; each series once."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            key = (s.name, frozenset(s.labels.items()))
            check(key not in out, "series %s is given once" % (key,))
            out[key] = s.value
    return out


def value(found, metric, **labels):
    return found.get((metric, frozenset((k, str(v)) for k, v in labels.items())))


def rebuild_row(fx, slot):
    status, doc = fx.json("/c0/e252/s%d" % slot, "show", "rebuild")
    rows = doc.get("Response Data", [])
    return rows[0] if rows else {}


def degrade_and_rebuild(fx):
    """/c0's RAID5 made consistent, s1 set offline: the global spare s3
    rebuilds it at 1%, paused so that its progress holds still."""
    fx.ok("/c0", "set", "rebuildrate=1", "bgirate=100")
    fx.ok("/c0/e252/s3", "add", "hotsparedrive")
    if not start_export(fx) or not wait_consistent(fx):
        return False
    fx.ok("/c0/e252/s1", "set", "offline")
    if not check(wait_for(lambda: rebuild_row(fx, 3).get("Status") == "In progress"),
                 "the spare's rebuild starts", rebuild_row(fx, 3)):
        return False
    fx.ok("/c0/e252/s3", "pause", "rebuild")
    return True


def check_soft(found, fx):
    row = rebuild_row(fx, 3)
    check(value(found, "raidcli_scrape_success", controller=0) == 1, "/c0 is read")
    check(value(found, "raidcli_vd_state", controller=0, vd=0) == 2, "/c0/v0 is Dgrd (2)",
          value(found, "raidcli_vd_state", controller=0, vd=0))
    check(value(found, "raidcli_vd_healthy", controller=0, vd=0) == 0, "/c0/v0 is not healthy")
    check(value(found, "raidcli_controller_healthy", controller=0) == 0,
          "/c0 needs attention while v0 is degraded")
    check(value(found, "raidcli_drive_state", controller=0, enclosure=252, slot=3) == 7,
          "the spare is Rbld (7)")
    labels = dict(controller=0, enclosure=252, slot=3, task="rebuild")
    check(value(found, "raidcli_drive_task_state", **labels) == 2, "its rebuild is paused (2)",
          value(found, "raidcli_drive_task_state", **labels))
    check(value(found, "raidcli_drive_task_progress_ratio", **labels) ==
          row.get("Progress%", -1) / 100,
          "its progress is show rebuild's Progress%", (row, found.get(
              ("raidcli_drive_task_progress_ratio", frozenset(
                  (k, str(v)) for k, v in labels.items())))))
    check(value(found, "raidcli_drive_temperature_celsius", controller=0, enclosure=252,
                slot=0) is None, "an image file reports no temperature")
    check(value(found, "raidcli_vd_info", controller=0, vd=0, dg=0, name='a"b\\c',
                raid="RAID5") == 1, "/c0/v0's name reads back through the escapes",
          [k for k in found if k[0] == "raidcli_vd_info"])


def check_mock(found):
    check(value(found, "raidcli_controller_info", controller=1, kind="mock",
                model="MegaRAID 9560-8i 4GB", serial="SKC4027193",
                firmware="5.220.02-3691") == 1, "/c1's info names the MegaRAID card")
    d = dict(controller=1, enclosure=252)
    check(value(found, "raidcli_drive_temperature_celsius", slot=0, **d) == 31,
          "the fixture's 31 C of /c1/e252/s0")
    check(value(found, "raidcli_drive_media_errors_total", slot=2, **d) == 12,
          "the fixture's 12 media errors of /c1/e252/s2")
    check(value(found, "raidcli_drive_predictive_failures_total", slot=2, **d) == 1,
          "its predictive failure")
    check(value(found, "raidcli_drive_smart_alert", slot=2, **d) == 1, "its SMART alert")
    check(value(found, "raidcli_drive_healthy", slot=2, **d) == 0, "it is not healthy")
    check(value(found, "raidcli_drive_state", slot=6, **d) == 5, "/c1/e252/s6 is a GHS (5)")
    t = dict(controller=1, vd=1, task="cc")
    check(value(found, "raidcli_vd_task_progress_ratio", **t) == 0.42,
          "the fixture's consistency check of /c1/v1 at 42%")
    check(value(found, "raidcli_vd_task_remaining_seconds", **t) == 1740, "with 1740 s left")
    check(value(found, "raidcli_drive_temperature_celsius", controller=2, enclosure=1,
                slot=0) == 36, "the NVMe fixture's 36 C of /c2/e1/s0")


def check_failed(found, text):
    check(value(found, "raidcli_scrape_success", controller=3) == 0, "/c3 is not read")
    check(value(found, "raidcli_scrape_error", controller=3, reason="corrupt state",
                code=241) == 1,
          "/c3's reason is its status: corrupt state (241)",
          [k for k in found if k[0] == "raidcli_scrape_error"])
    check("# /c3: " in text, "a comment gives /c3's message")
    for c in range(4):
        d = value(found, "raidcli_scrape_duration_seconds", controller=c)
        check(d is not None and d >= 0, "/c%d's scrape duration is given" % c)


def redfish_service(root):
    """tests/redfish/test-service.py's Service, serving two BMCs of the
    modern tree (two controllers each)."""
    spec = importlib.util.spec_from_file_location(
        "test_service", os.path.join(HERE, "..", "redfish", "test-service.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.load_trees()
    return module.Service(root, "--tree", "modern", "--hosts", "2"), module.PASSWORDS["modern"]


def add_bmcs(fx, svc, password):
    """/c4-/c7 from @svc's two BMCs; the second one then dies."""
    hosts = os.path.join(fx.root, "hosts")
    with open(hosts, "w") as f:
        f.write("".join(h["url"] + "\n" for h in svc.info["hosts"]))
    fx.env["BMC_PASSWORD"] = password
    fx.ok("add", "controller", "type=redfish", "hostsfile=" + hosts, "user=" + svc.info["user"],
          "passenv=BMC_PASSWORD", "cafile=" + svc.info["ca"], "timeout=5")
    svc.faults(1, dead="refuse")


def check_redfish(found, svc):
    """Each redfish controller's info and scrape series name its BMC, also
    the dead BMC's, which was never read."""
    live, dead = ("127.0.0.1:%d" % svc.port(i) for i in range(2))
    for c, host in ((4, live), (5, live)):
        info = [dict(k[1]) for k in found
                if k[0] == "raidcli_controller_info" and ("controller", str(c)) in k[1]]
        check(len(info) == 1 and info[0].get("host") == host and
              info[0].get("kind") == "redfish", "/c%d's info names its BMC %s" % (c, host),
              info)
        check(value(found, "raidcli_scrape_success", controller=c, host=host) == 1,
              "/c%d is read, its scrape labelled with its host" % c)
    for c in (6, 7):
        check(value(found, "raidcli_scrape_success", controller=c, host=dead) == 0,
              "/c%d of the dead BMC is not read, its scrape naming %s" % (c, dead),
              [k for k in found if k[0] == "raidcli_scrape_success"])
        check(value(found, "raidcli_scrape_duration_seconds", controller=c, host=dead)
              is not None, "/c%d's scrape duration names its host" % c)
        check(any(k[0] == "raidcli_scrape_error" and ("controller", str(c)) in k[1] and
                  ("host", dead) in k[1] for k in found),
              "/c%d's scrape error names its host" % c)
    check(value(found, "raidcli_scrape_success", controller=0) == 1,
          "a local controller's scrape has no host label")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def node_exporter_reads(directory):
    """What node_exporter's textfile collector serves from @directory's *.prom."""
    port = free_port()
    proc = subprocess.Popen([NODE_EXPORTER, "--collector.disable-defaults",
                             "--collector.textfile",
                             "--collector.textfile.directory=" + directory,
                             "--web.listen-address=127.0.0.1:%d" % port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = "http://127.0.0.1:%d/metrics" % port
    try:
        body = None
        end = time.monotonic() + 20
        while body is None and time.monotonic() < end:
            try:
                body = urllib.request.urlopen(url, timeout=5).read().decode()
            except OSError:
                time.sleep(0.1)
        return body or ""
    finally:
        proc.terminate()
        for line in proc.communicate(timeout=10)[1].splitlines():
            if "level=error" in line:
                print(line)


def check_textfile(fx):
    directory = os.path.join(fx.root, "textfile")
    os.mkdir(directory)
    path = os.path.join(directory, "raidcli.prom")
    r = fx.run("show", "metrics", "file=" + path)
    check(r.returncode == 241, "show metrics file= fails with /c3's status", r.returncode)
    check("Written to '%s'." % path in r.stdout, "it says where it wrote", r.stdout)
    check(os.path.exists(path) and stat.S_IMODE(os.stat(path).st_mode) == 0o644,
          "the file is 0644, readable by the collector's user")
    check(sorted(os.listdir(directory)) == ["raidcli.prom"], "no temporary file is left",
          os.listdir(directory))
    r = fx.run("show", "metrics", "file=" + os.path.join(fx.root, "none", "raidcli.prom"))
    check(r.returncode == 242 and "cannot write" in r.stdout,
          "file= in a folder that does not exist fails with 242, saying why", r.stdout)
    served = node_exporter_reads(directory)
    found = samples(served)
    check(value(found, "node_textfile_scrape_error") == 0,
          "node_exporter's textfile collector reads the file without error",
          [line for line in served.splitlines() if "textfile" in line])
    check(value(found, "raidcli_vd_state", controller=0, vd=0) == 2,
          "node_exporter serves /c0/v0's state")


def check_kept(fx):
    """A failure of the command itself (the registry damaged) leaves the
    last file as it was: the collector keeps serving it, and its mtime
    (node_textfile_mtime_seconds) tells it is getting old."""
    path = os.path.join(fx.root, "textfile", "raidcli.prom")
    before = open(path).read()
    fx.ok("/c0", "stop", "service")  # while the registry can still name it
    with open(os.path.join(fx.state, "registry.json"), "w") as f:
        f.write('{"garbage')
    r = fx.run("show", "metrics", "file=" + path)
    check(r.returncode == 241 and open(path).read() == before,
          "a damaged registry fails the command and leaves the file alone", r.stdout)
    r = fx.run("show", "metrics")
    check(r.returncode == 241 and not r.stdout and "corrupt" in r.stderr,
          "without file=, the command's failure goes to stderr, nothing to stdout",
          r.stdout + r.stderr)


def main():
    if not os.path.exists(NODE_EXPORTER):
        print("SKIP: %s not installed (scripts/setup installs it)" % NODE_EXPORTER)
        return 77
    # A name with what the format escapes: it must read back as it is.
    fx = Fixture(drives=4, vd=("r5", "drives=252:0-2", 'name=a"b\\c'))
    svc, password = redfish_service(fx.root)
    try:
        if not degrade_and_rebuild(fx):
            return summary()
        for name in ("megaraid.json", "nvme.json"):
            fx.ok("add", "controller", "type=mock", "fixture=" + os.path.join(FIXTURES, name))
        fx.ok("add", "controller", "type=soft", "drives=1", "size=16MB")
        serial = [f for f in os.listdir(os.path.join(fx.state, "soft"))
                  if f.endswith(".json")]
        # /c3's state file: the one created last.
        newest = max(serial, key=lambda f: os.stat(os.path.join(fx.state, "soft", f)).st_mtime)
        with open(os.path.join(fx.state, "soft", newest), "w") as f:
            f.write('{"garbage')
        add_bmcs(fx, svc, password)
        r = fx.run("show", "metrics")
        check(r.returncode == 241, "show metrics exits with the failed controller's status",
              r.returncode)
        check("# EOF" not in r.stdout, "text format 0.0.4 has no # EOF")
        found = samples(r.stdout)
        check_soft(found, fx)
        check_mock(found)
        check_failed(found, r.stdout)
        check_redfish(found, svc)
        one = samples(fx.ok("/c1", "show", "metrics").stdout)
        check({k[1] and dict(k[1]).get("controller") for k in one} == {"1", None},
              "/c1 show metrics has /c1's samples alone")
        check_textfile(fx)
        check_kept(fx)
    finally:
        svc.stop()
        fx.close()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
