#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/redfish-fleet.py - `raidcli /call show all J` over a fleet of
simulated BMCs on loopback, each answering every request after 20-50 ms,
against the same command over one BMC.

The BMCs are bench/bmc-fleet (--fleet, C: one process, epoll, OpenSSL), which
serves what tests/redfish/service.py serves for the tree (it dumps its own
answers for the simulator) at a small fraction of its CPU, so the wall time
is raidcli's; --python serves them from service.py processes instead, as
this bench did before (their CPU then filled the machine's two cores).
Before measuring, --fleet checks that raidcli's output for the same BMC is
the same from both (--check does only that, for both trees).

For each size N (default 1, 100 and 1000) it starts N BMCs plus, for N > 1,
10 dead ones (alive when added, then they accept TCP connections and never
answer TLS, as service.py's "hang" fault), adds them all from a hosts file,
then times --runs runs of `/call show all J`, each right after a run over
one BMC (the peer, its own simulator and state), so the ratio compares runs
made under the same load, and one of curl reading each live BMC's service
root (curl_floor()). Per size it prints the median wall time, the peer's,
their ratio, curl's over the peer's, raidcli's CPU seconds and peak RSS, the
simulator's CPU
seconds, and the failed controllers by reason (the dead ones' must fail,
the others must not). Target (issue 25): 1000 BMCs in at most 3x the time
of one, the dead ones costing at most one timeout: a hung TLS handshake is
bounded by the connect timeout, the smaller of 5 s and --timeout, so a
run's floor with dead hosts is that. Each raidcli run is a new process, so
every BMC costs a full TLS handshake on both sides.

Usage: bench/redfish-fleet.py [--sizes 1,100,1000] [--runs 3] [--timeout 10]
           [--tree modern] [--fleet BMC_FLEET | --python [--procs 4]] [--check]
           [RAIDCLI]

Measured (2026-12-07 12:49-12:57, the 2-core machine after other
engineers' work, load average 2-6; modern tree, 2 storages a BMC, $expand:
4 GETs a BMC plus login and logout; --runs 3):
          BMCs  wall s peer s  x one curl x raidcli CPU  ms/BMC x floor   sim CPU  peak RSS
             1    0.21   0.23   0.91   0.29      0.04 s   35.20    0.16    0.00 s    26 MiB
           110    0.59   0.22   2.71   0.94      0.51 s    4.67    2.37    0.11 s    64 MiB
   100+10 dead    5.22   0.20  25.51   1.02      0.48 s    4.78    2.33    0.10 s    61 MiB
          1010    3.80   0.20  19.14   6.90      3.72 s    3.68   18.75    0.89 s   177 MiB
  1000+10 dead    8.03   0.21  39.17   6.95      3.36 s    3.36   16.40    0.97 s   203 MiB
Only the dead hosts' 20 controllers failed (TLS connect timeout, 5 s, paid
once and alongside the rest). A hundred BMCs take 2.7 times one; a
thousand 19 times, where the same run measured curl itself, only shaking
hands with each BMC and reading its service root, at 6.9 times: on two
cores that the client shares with the thousand simulated BMCs, the TLS
handshakes alone are more than twice the 3x target, whatever the client.
raidcli's own CPU (3.7 ms a BMC: perf puts a quarter of it in json-c's
parser and glibc malloc, a fifth in OpenSSL) is what separates it from
curl. The previous version of this bench (2026-12-07 05:46, load 17-22)
measured 5.4-6.0 ms a BMC and 509-515 MiB at 1010 BMCs: the caches of
every BMC and the whole reply were held to the end; now each controller's
result is printed, and its cache freed, as soon as it is in.
"""
import argparse
import collections
import filecmp
import importlib.util
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LEGEND = """\
peer s:  the median wall time of the one-BMC runs made between this size's runs.
x one:   wall time over the peer's.
curl x:  curl --parallel reading only each live BMC's service root (a TLS
         handshake and one small GET a BMC, nothing parsed), over the peer's
         time: a floor for any client's ratio on this machine.
ms/BMC:  raidcli's CPU (user + system) per live BMC.
x floor: raidcli's CPU time over the peer's wall time: the best ratio raidcli
         could reach on one core.
sim CPU: the simulated BMCs' CPU in this size's runs (same cores as raidcli).
load:    the 1-minute load average after the size's runs (other work too)."""
REDFISH = os.path.join(HERE, "..", "tests", "redfish")
SERVICE = os.path.join(REDFISH, "service.py")
DEAD = 10
DELAY = "20-50"
TICK = os.sysconf("SC_CLK_TCK")
CHECKED = [["/call", "show", "all", "J"], ["/call", "show", "all"], ["/call", "show"],
           ["/call/vall", "show", "all", "J"], ["/call/eall/sall", "show", "all", "J"],
           ["/call/eall/sall", "show"]]


def service_module():
    spec = importlib.util.spec_from_file_location("service", SERVICE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_of(pids):
    """CPU seconds the processes @pids have used so far."""
    total = 0
    for pid in pids:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def wait_ready(path, proc, log):
    while not os.path.exists(path):
        if proc.poll() is not None:
            with open(log) as f:
                sys.exit("a simulator failed to start:\n" + f.read())
        time.sleep(0.05)
    with open(path) as f:
        return json.load(f)


class Fleet:
    """@total BMCs served by one bmc-fleet process; the last @dead of them
    to be made dead."""

    def __init__(self, tmp, tls, binary, tree, total, dead, vary=True):
        self.ca = tls[0]
        dump = os.path.join(os.path.dirname(tls[0]), tree + ".dump")
        if not os.path.exists(dump):
            subprocess.run([sys.executable, SERVICE, "--tree", tree, "--dump", dump], check=True)
        ready, log = os.path.join(tmp, "fleet-ready.json"), os.path.join(tmp, "fleet.log")
        with open(log, "w") as err:
            self.proc = subprocess.Popen(
                [binary, "--dump", dump, "--cert", tls[1], "--key", tls[2], "--hosts",
                 str(total), "--delay-ms", DELAY, "--ready-file", ready]
                + (["--vary-serials"] if vary else []),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
        info = wait_ready(ready, self.proc, log)
        self.user, self.hosts, self.dead, self.log = info["user"], info["hosts"], dead, log

    def died(self):
        """Why the simulator stopped, if it did."""
        if self.proc.poll() is None:
            return None
        with open(self.log) as f:
            return "bmc-fleet exited (%d):\n%s" % (self.proc.returncode, f.read()[-2000:])

    def kill_dead(self):
        """The last @dead hosts hang from now on."""
        if self.died():
            sys.exit(self.died())
        self.proc.stdin.write("hang %d %d\n" % (len(self.hosts) - self.dead, self.dead))
        self.proc.stdin.flush()
        if self.proc.stdout.readline() != "ok\n":
            sys.exit("bmc-fleet refused to make hosts dead")

    def cpu(self):
        return cpu_of([self.proc.pid])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
        self.proc.wait()


class Services:
    """@total BMCs over @procs service.py processes sharing one CA; the
    last @dead of them to be made dead."""

    def __init__(self, tmp, tls, procs, tree, total, dead):
        procs = max(1, min(procs, total))
        share = [total // procs + (i < total % procs) for i in range(procs)]
        self.ca = tls[0]
        self.procs, infos = [], []
        for i in range(procs):
            with open(os.path.join(tmp, "service-%d.log" % i), "w") as log:
                self.procs.append(subprocess.Popen(
                    [sys.executable, SERVICE, "--tree", tree, "--hosts", str(share[i]),
                     "--delay-ms", DELAY, "--seed", str(i + 1), "--tls-dir",
                     os.path.dirname(tls[0]), "--quiet",
                     "--ready-file", os.path.join(tmp, "ready-%d.json" % i)], stderr=log))
        for i, p in enumerate(self.procs):
            infos.append(wait_ready(os.path.join(tmp, "ready-%d.json" % i), p,
                                    os.path.join(tmp, "service-%d.log" % i)))
        self.user = infos[0]["user"]
        self.hosts = [h for info in infos for h in info["hosts"]]
        self.control = [(info["control"], i) for info in infos
                        for i in range(len(info["hosts"]))]
        self.dead = dead

    def died(self):
        return next(("service.py exited (%d)" % p.returncode for p in self.procs
                     if p.poll() is not None), None)

    def kill_dead(self):
        body = json.dumps({"dead": "hang"}).encode()
        for control, i in self.control[len(self.control) - self.dead:]:
            subprocess.run(["curl", "-s", "-o", "/dev/null", "--data-binary", "@-",
                            "%s/hosts/%d/faults" % (control, i)], input=body, check=True)

    def cpu(self):
        return cpu_of([p.pid for p in self.procs])

    def stop(self):
        for p in self.procs:
            p.send_signal(signal.SIGTERM)
        for p in self.procs:
            p.wait()


def run(raidcli, env, *words):
    """Run raidcli; return (seconds, CPU seconds, peak RSS in KiB, exit status, stdout)."""
    start = time.monotonic()
    p = subprocess.Popen([raidcli, *words], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    return (time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            os.waitstatus_to_exitcode(status), out)


def failures(out):
    """The failed controllers of a JSON reply, by reason (numbers as N)."""
    return collections.Counter(
        re.sub(r"\d+", "N", c["Command Status"]["Description"])[:100]
        for c in json.loads(out)["Controllers"] if c["Command Status"]["Status"] != "Success")


class Side:
    """BMCs and a raidcli state directory holding them as controllers."""

    def __init__(self, args, tmp, tls, tree, n, dead):
        os.makedirs(tmp)
        self.tmp = tmp
        self.svc = (Services(tmp, tls, args.procs, tree, n + dead, dead) if args.python else
                    Fleet(tmp, tls, args.fleet, tree, n + dead, dead, vary=not args.check))
        with open(os.path.join(REDFISH, "trees", tree + ".json")) as f:
            password = json.load(f)["Config"]["Password"]
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=os.path.join(tmp, "state"),
                        BENCH_BMC_PASSWORD=password)
        # Added 100 at a time: under load, a thousand TLS handshakes at once
        # may miss the 5 s connect timeout, and add is all or nothing.
        took = 0
        for first in range(0, len(self.svc.hosts), 100):
            hosts = os.path.join(tmp, "hosts")
            with open(hosts, "w") as f:
                f.write("".join(h["url"] + "\n" for h in self.svc.hosts[first:first + 100]))
            t, _, _, status, out = self.raidcli(
                args.raidcli, "add", "controller", "type=redfish", "hostsfile=" + hosts,
                "user=" + self.svc.user, "passenv=BENCH_BMC_PASSWORD", "cafile=" + self.svc.ca,
                "timeout=%d" % args.timeout)
            took += t
            if status:
                sys.exit("add controller failed (%d): %s" % (status, out.decode()[-500:]))
        self.added = took

    def raidcli(self, raidcli, *words):
        return run(raidcli, self.env, *words)


def curl_floor(side, tmp):
    """Seconds curl's own parallel client takes to read the service root of
    @side's live BMCs: one TLS handshake and one small GET each, nothing
    parsed, a sixth of the requests `/call show all J` makes. Any client
    that reads the fleet shakes hands with each BMC, so this over the
    peer's time is a floor for the ratio on this machine."""
    config = os.path.join(tmp, "curl-floor")
    live = side.svc.hosts[:len(side.svc.hosts) - side.svc.dead]
    with open(config, "w") as f:
        f.write("".join('url = "%s/redfish/v1/"\noutput = /dev/null\n' % h["url"] for h in live))
    start = time.monotonic()
    # 300 at once is curl's most; at 20-50 ms a GET that is 6000 GETs a second.
    subprocess.run(["curl", "--no-progress-meter", "--parallel", "--parallel-max", "300",
                    "--cacert", side.svc.ca, "--connect-timeout", "5", "--config", config],
                   check=True)
    return time.monotonic() - start


def measure(args, side, peer):
    """--runs runs of /call show all J, each after one over @peer and one of
    curl_floor(): medians, peak RSS, the last run's failures."""
    times, peer_times, cpu, sim_cpu, peak, why = [], [], [], [], 0, collections.Counter()
    floor_times = []
    for _ in range(args.runs):
        peer_times.append(peer.raidcli(args.raidcli, "/call", "show", "all", "J")[0])
        floor_times.append(curl_floor(side, side.tmp))
        before = side.svc.cpu()
        t, used, rss, _, out = side.raidcli(args.raidcli, "/call", "show", "all", "J")
        if side.svc.died():
            sys.exit(side.svc.died())
        sim_cpu.append(side.svc.cpu() - before)
        times.append(t)
        cpu.append(used)
        peak = max(peak, rss)
        why = failures(out)
    return {"wall": statistics.median(times), "peer": statistics.median(peer_times),
            "curl": statistics.median(floor_times),
            "cpu": statistics.median(cpu), "sim_cpu": statistics.median(sim_cpu), "rss": peak,
            "why": why, "load": os.getloadavg()[0]}


def check(args, tmp, tls, tree):
    """raidcli's output from bmc-fleet equals its output from service.py, for
    two BMCs of @tree and the commands in CHECKED (their ports and the local
    clock aside); returns how many differ."""
    python = argparse.Namespace(**dict(vars(args), python=True, procs=1))
    c = argparse.Namespace(**dict(vars(args), python=False, check=True))
    sides = [Side(python, os.path.join(tmp, tree + "-python"), tls, tree, 2, 0),
             Side(c, os.path.join(tmp, tree + "-fleet"), tls, tree, 2, 0)]
    differ = 0
    try:
        for words in CHECKED:
            outs = []
            for side, name in zip(sides, ("python", "fleet")):
                status, out = side.raidcli(args.raidcli, *words)[3:]
                out = re.sub(rb"127\.0\.0\.1:\d+", b"127.0.0.1:PORT", out)
                # The clock raidcli shows is the local one, not the BMC's.
                out = re.sub(rb"\d\d/\d\d/\d{4},? \d\d:\d\d:\d\d", b"DATE TIME", out)
                path = os.path.join(tmp, "%s-%s-%s.out" % (tree, name, "_".join(words)
                                                            .replace("/", "")))
                with open(path, "wb") as f:
                    f.write(b"exit %d\n" % status + out)
                outs.append(path)
            same = filecmp.cmp(*outs, shallow=False)
            differ += not same
            print("  %s %-30s %s" % (tree, " ".join(words), "same" if same else
                                     "DIFFERS: diff %s %s" % tuple(outs)), file=sys.stderr)
    finally:
        for side in sides:
            side.svc.stop()
    return differ


def row(name, bmcs, r):
    print(("%14s %7.2f %6.2f %6.2f %6.2f %9.2f s %7.2f %7.2f %7.2f s %5.0f MiB %5.1f  %d") % (
        name, r["wall"], r["peer"], r["wall"] / r["peer"], r["curl"] / r["peer"], r["cpu"],
        1000 * r["cpu"] / bmcs, r["cpu"] / r["peer"], r["sim_cpu"], r["rss"] / 1024, r["load"],
        sum(r["why"].values())), flush=True)
    for text, count in r["why"].most_common(3):
        print("%14d failed: %s" % (count, text), flush=True)


def bench(args, tmp, tls):
    peer = Side(args, os.path.join(tmp, "peer"), tls, args.tree, 1, 0)
    print("%14s %7s %6s %6s %6s %11s %7s %7s %9s %9s %5s  %s" % (
        "BMCs", "wall s", "peer s", "x one", "curl x", "raidcli CPU", "ms/BMC", "x floor", "sim CPU",
        "peak RSS", "load", "failed"))
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            dead = DEAD if n > 1 else 0
            side = Side(args, os.path.join(tmp, "fleet-%d" % n), tls, args.tree, n, dead)
            try:
                print("  %d BMCs (+%d dead) added in %.1f s" % (n, dead, side.added),
                      file=sys.stderr)
                row("%d" % (n + dead), n + dead, measure(args, side, peer))
                if dead:
                    side.svc.kill_dead()
                    row("%d+%d dead" % (n, dead), n, measure(args, side, peer))
            finally:
                side.svc.stop()
    finally:
        peer.svc.stop()
    print(LEGEND)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,100,1000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--tree", default="modern")
    ap.add_argument("--fleet", help="bench/bmc-fleet, the simulated BMCs (built by meson)")
    ap.add_argument("--python", action="store_true",
                    help="serve the BMCs from service.py processes instead")
    ap.add_argument("--procs", type=int, default=4,
                    help="service.py processes the BMCs are spread over (--python)")
    ap.add_argument("--check", action="store_true",
                    help="only check that bmc-fleet and service.py give raidcli the same")
    ap.add_argument("raidcli", nargs="?", default=os.path.join(HERE, "..", "build", "cli",
                                                               "raidcli"))
    args = ap.parse_args()
    if not args.python and not args.fleet:
        ap.error("give --fleet BMC_FLEET (ninja bench/bmc-fleet) or --python")
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    # tmpfs when there is one: adding a thousand controllers syncs each state file.
    tmp = tempfile.mkdtemp(prefix="rcl-fleet-",
                           dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        tls = service_module().make_tls(os.path.join(tmp, "tls"))
        if args.fleet:
            trees = ["idrac", "modern"] if args.check else [args.tree]
            if sum(check(args, tmp, tls, tree) for tree in trees):
                tmp = None  # kept for the diffs
                sys.exit("bmc-fleet and service.py differ: the bench would measure another BMC")
        if not args.check:
            bench(args, tmp, tls)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
