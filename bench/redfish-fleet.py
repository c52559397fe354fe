#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/redfish-fleet.py - `raidcli /call show all J` over a fleet of
simulated BMCs (tests/redfish/service.py on loopback, each answering every
request after 20-50 ms), against the same command over one BMC.

For each size N (default 1, 100 and 1000) it starts N BMCs plus, for N > 1,
10 dead ones (they accept the TCP connection and never answer TLS; they
were alive when added), adds them all from a hosts file, then times --runs
runs of `/call show all J`. Per size it prints the median wall time, its
ratio to the one-BMC run, the CPU seconds raidcli and the services spent,
raidcli's peak RSS, and the failed controllers by reason (the dead ones'
must fail, the others must not); the services' CPU is part of the wall
time (they share the machine's cores with raidcli). Target (issue 25):
1000 BMCs in at most 3x the time of one, the dead ones costing at most one
timeout: a hung TLS handshake is bounded by the connect timeout, the
smaller of 5 s and --timeout, so a run's floor with dead hosts is that.

The BMCs are spread over --procs service processes (each an asyncio loop
on one core): one process serving a thousand TLS hosts was the bottleneck,
not raidcli. Each raidcli run is a new process, so every BMC costs a full
TLS handshake on both sides (no session to resume across runs).

Usage: bench/redfish-fleet.py [--sizes 1,100,1000] [--runs 3] [--timeout 10]
                              [--procs 4] [--tree modern] [RAIDCLI]

Measured (2026-12-07 03:00, the 2-core machine shared with other engineers'
builds and VMs, load average 16-21; modern tree, 2 storages a BMC, $expand:
4 GETs a BMC plus login and logout; 4 service processes; --runs 1
--timeout 30):
          BMCs  wall s  x one raidcli CPU  ms/BMC x floor service CPU w/o svc  x one  peak RSS
             1    0.45   1.00      0.02 s   20.73    0.05      0.02 s    0.43   1.00    16 MiB
           110    3.99   8.93      0.51 s    4.62    1.14      0.62 s    3.37   7.89    71 MiB
   100+10 dead    5.57  12.46      0.49 s    4.85    1.09      0.58 s    4.99  11.68    67 MiB
          1010   31.40  70.23      4.52 s    4.48   10.12      5.17 s   26.23  61.41   504 MiB
  1000+10 dead   36.98  82.71      4.11 s    4.11    9.20      4.53 s   32.45  75.98   501 MiB
Only the dead hosts' 20 controllers failed (TLS connect timeout, 5 s: the
dead hosts cost that once, together, while the rest went on).

Before this round of work (same bench, load 10-18): 1010 BMCs took 6.99 s
of raidcli CPU (x floor 20) and 559 MiB. What went: the CA file parsed for
every TLS connection (libcurl keeps it per run only from a file alone,
without Debian's default CA directory), a second connection per BMC in a
fleet that fills the run anyway, and curl_multi_perform()/curl_multi_poll()
walking every transfer and socket on each answer (now epoll and
curl_multi_socket_action()).

Why the 3x target (about 1.3 s for 1000 BMCs) is out of reach here:
raidcli alone needs 4.5 CPU seconds on one core for 1010 BMCs (x floor
10): each BMC costs it about 4.5 ms, of which a TLS handshake (an SSL_CTX
per connection in libcurl 7.88, ECDHE, ECDSA verify), JSON parsing of its
40 KB of answers and the model. The simulated BMCs need as much again on
the same two cores, and the other engineers' work took most of the rest:
in 31 s of wall time raidcli and the services used under 10 CPU seconds
of the 62 the two cores had. The "w/o svc" column subtracts the services'
CPU only; it cannot subtract the machine's load, so it is a bound, not a
measurement of raidcli alone.

Peak RSS at 1000 BMCs is mostly the json-c caches of the 2020 controllers
(about 225 KB each: json-c spends a 16-entry hash table on every object,
for 20 KB of JSON text), held from the crawl until each controller has
been shown; libcurl's and OpenSSL's state per connection is most of the
rest.
"""
import argparse
import collections
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
x one:   wall time over one BMC's.
ms/BMC:  raidcli's CPU (user + system) per live BMC.
x floor: raidcli's CPU time over one BMC's wall time: the best ratio raidcli
         could reach on one core, even with the services and the machine to spare.
service CPU: the simulated BMCs (Python, on the same cores as raidcli): their
         CPU is part of the wall time measured here, as the machine's load is.
w/o svc: max(raidcli CPU, wall - service CPU), an estimate of the wall time
         with the services on cores of their own, and its ratio to one BMC's.
load:    the 1-minute load average after the size's runs (other work too)."""
SERVICE = os.path.join(HERE, "..", "tests", "redfish", "service.py")
TREES = os.path.join(HERE, "..", "tests", "redfish", "trees")
DEAD = 10
TICK = os.sysconf("SC_CLK_TCK")


class Services:
    """@total BMCs over @procs service.py processes sharing one CA; the
    last @dead of them to be made dead."""

    def __init__(self, tmp, tree, total, dead, procs):
        procs = max(1, min(procs, total))
        share = [total // procs + (i < total % procs) for i in range(procs)]
        self.procs, self.infos = [], []
        # The first makes the CA in tls/; the others then find it there.
        self.start(tmp, tree, share[0], 0)
        for i in range(1, procs):
            self.start(tmp, tree, share[i], i, wait=False)
        for i in range(1, procs):
            self.infos.append(self.wait(tmp, i))
        self.hosts = [h for info in self.infos for h in info["hosts"]]
        self.dead = dead

    def start(self, tmp, tree, hosts, i, wait=True):
        # asyncio's complaints about clients closing TLS go to a log, not the table.
        with open(os.path.join(tmp, "service-%d.log" % i), "w") as log:
            self.procs.append(subprocess.Popen(
                [sys.executable, SERVICE, "--tree", tree, "--hosts", str(hosts), "--delay-ms",
                 "20-50", "--seed", str(i + 1), "--tls-dir", os.path.join(tmp, "tls"),
                 "--quiet", "--ready-file", os.path.join(tmp, "ready-%d.json" % i)],
                stderr=log))
        if wait:
            self.infos.append(self.wait(tmp, i))

    def wait(self, tmp, i):
        ready = os.path.join(tmp, "ready-%d.json" % i)
        while not os.path.exists(ready):
            if self.procs[i].poll() is not None:
                with open(os.path.join(tmp, "service-%d.log" % i)) as log:
                    sys.exit("service.py failed to start:\n" + log.read())
            time.sleep(0.1)
        with open(ready) as f:
            return json.load(f)

    def kill_dead(self):
        """The last @dead hosts hang from now on."""
        body = json.dumps({"dead": "hang"}).encode()
        where = [(info["control"], i) for info in self.infos for i in range(len(info["hosts"]))]
        for control, i in where[len(where) - self.dead:]:
            subprocess.run(["curl", "-s", "-o", "/dev/null", "--data-binary", "@-",
                            "%s/hosts/%d/faults" % (control, i)], input=body, check=True)

    def cpu(self):
        """CPU seconds the service processes have used so far."""
        total = 0
        for p in self.procs:
            with open("/proc/%d/stat" % p.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / TICK

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
    p.returncode = os.waitstatus_to_exitcode(status)
    return (time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            p.returncode, out)


def failures(out):
    """The failed controllers of a JSON reply, by reason (numbers as N)."""
    return collections.Counter(
        re.sub(r"\d+", "N", c["Command Status"]["Description"])[:100]
        for c in json.loads(out)["Controllers"] if c["Command Status"]["Status"] != "Success")


def measure(args, env, svc):
    """--runs runs of /call show all J: medians, peak RSS, the last run's failures."""
    times, cpu, svc_cpu, peak, why = [], [], [], 0, collections.Counter()
    for _ in range(args.runs):
        before = svc.cpu()
        t, used, rss, status, out = run(args.raidcli, env, "/call", "show", "all", "J")
        svc_cpu.append(svc.cpu() - before)
        times.append(t)
        cpu.append(used)
        peak = max(peak, rss)
        why = failures(out)
    return {"wall": statistics.median(times), "cpu": statistics.median(cpu),
            "svc_cpu": statistics.median(svc_cpu), "rss": peak, "why": why,
            "load": os.getloadavg()[0]}


def one_size(args, n):
    # tmpfs when there is one: adding a thousand controllers syncs each state file.
    tmp = tempfile.mkdtemp(prefix="rcl-fleet-",
                           dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    dead = DEAD if n > 1 else 0
    svc = Services(tmp, args.tree, n + dead, dead, args.procs)
    try:
        with open(os.path.join(TREES, args.tree + ".json")) as f:
            config = json.load(f)["Config"]
        env = dict(os.environ, RAIDCLI_STATE_DIR=os.path.join(tmp, "state"),
                   BENCH_BMC_PASSWORD=config["Password"])
        # Added 100 at a time: under load, a thousand TLS handshakes at once miss
        # the 5 s connect timeout, and add is all or nothing.
        t = 0
        for first in range(0, len(svc.hosts), 100):
            hosts = os.path.join(tmp, "hosts")
            with open(hosts, "w") as f:
                f.write("".join(h["url"] + "\n" for h in svc.hosts[first:first + 100]))
            took, _, _, status, out = run(
                args.raidcli, env, "add", "controller", "type=redfish", "hostsfile=" + hosts,
                "user=" + svc.infos[0]["user"], "passenv=BENCH_BMC_PASSWORD",
                "cafile=" + svc.infos[0]["ca"], "timeout=%d" % args.timeout)
            t += took
            if status:
                sys.exit("add controller failed (%d): %s" % (status, out.decode()[-500:]))
        print("  %d BMCs (+%d dead) in %d service processes added in %.1f s"
              % (n, dead, len(svc.procs), t), file=sys.stderr)
        rows = [("%d" % (n + dead), measure(args, env, svc))]
        if dead:
            svc.kill_dead()
            rows.append(("%d+%d dead" % (n, dead), measure(args, env, svc)))
        return rows
    finally:
        svc.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,100,1000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--procs", type=int, default=4,
                    help="service.py processes the BMCs are spread over")
    ap.add_argument("--tree", default="modern")
    ap.add_argument("raidcli", nargs="?", default=os.path.join(HERE, "..", "build", "cli",
                                                               "raidcli"))
    args = ap.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    base = None
    print("%14s %7s %6s %11s %7s %7s %11s %7s %6s %9s %5s  %s" % (
        "BMCs", "wall s", "x one", "raidcli CPU", "ms/BMC", "x floor", "service CPU",
        "w/o svc", "x one", "peak RSS", "load", "failed"))
    for n in (int(s) for s in args.sizes.split(",")):
        for name, r in one_size(args, n):
            bmcs = int(name.split("+")[0]) if "dead" in name else int(name)
            own = max(r["cpu"], r["wall"] - r["svc_cpu"])
            base = base or (r["wall"], own)
            print(("%14s %7.2f %6.2f %9.2f s %7.2f %7.2f %9.2f s %7.2f %6.2f %5.0f MiB"
                   " %5.1f  %d") % (
                name, r["wall"], r["wall"] / base[0], r["cpu"], 1000 * r["cpu"] / bmcs,
                r["cpu"] / base[0], r["svc_cpu"], own, own / base[1], r["rss"] / 1024,
                r["load"], sum(r["why"].values())), flush=True)
            for text, count in r["why"].most_common(3):
                print("%14d failed: %s" % (count, text), flush=True)
    print(LEGEND)

if __name__ == "__main__":
    main()
