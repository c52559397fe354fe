#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-backend.py - raidcli's redfish controllers against service.py.

build/cli/raidcli ($RAIDCLI) adds controllers from test BMCs (both trees)
and shows them at every level, in text and JSON, compared with goldens in
expected/ (ports, times and the OS normalized as tests/golden does); a
fleet with a dead BMC fails that BMC's controllers only, naming the host;
a slow BMC delays only its own controllers;
the password never reaches a command line, an output or a state file;
libcurl is loaded by the commands that talk to a BMC only, and without it
they fail saying what to install while the others work.

    RAIDCLI=build/cli/raidcli tests/redfish/test-backend.py [--regenerate]
"""
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "server"))
from rcltest import check, summary  # noqa: E402

RAIDCLI = os.environ.get("RAIDCLI", os.path.join(HERE, "..", "..", "build", "cli", "raidcli"))
EXPECTED = os.path.join(HERE, "expected")
REGENERATE = "--regenerate" in sys.argv

spec = importlib.util.spec_from_file_location(
    "run_golden", os.path.join(HERE, "..", "golden", "run-golden.py"))
golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(golden)
service_spec = importlib.util.spec_from_file_location(
    "test_service", os.path.join(HERE, "test-service.py"))
test_service = importlib.util.module_from_spec(service_spec)
service_spec.loader.exec_module(test_service)
Service = test_service.Service
test_service.load_trees()
PASSWORDS = test_service.PASSWORDS

# What changes from run to run: the ports, and how long libcurl waited.
PORT = re.compile(r"127\.0\.0\.1:\d+|(?<=127\.0\.0\.1 port )\d+|(?<=after )\d+(?= m)")
SHOWS = [["show"], ["/c0", "show", "all"], ["/c0/vall", "show", "all"], ["/c0/eall", "show"],
         ["/c0/eall/sall", "show"], ["/c0/e252/s4", "show", "all"], ["/call", "show"]]


class Env:
    """A state directory and the environment raidcli runs in."""

    def __init__(self, tmp, name):
        self.state = os.path.join(tmp, name)
        os.makedirs(self.state)
        self.env = dict(os.environ, RAIDCLI_STATE_DIR=self.state)
        self.outputs = []

    def run(self, *words, watch=None):
        """Run raidcli @words; @watch(pid) is called while it runs."""
        p = subprocess.Popen([RAIDCLI, *words], env=self.env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        if watch:
            watch(p.pid)
        out, err = p.communicate(timeout=120)
        self.outputs.append(out + err)
        return p.returncode, out, err


def normalize(text, state):
    return PORT.sub(lambda m: "N" if m.group(0).isdigit() else "127.0.0.1:PORT",
                    golden.normalize(text, state))


def compare(name, text):
    path = os.path.join(EXPECTED, name)
    if REGENERATE:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    with open(path, encoding="utf-8") as f:
        want = f.read()
    check(text == want, "output matches expected/" + name,
          "".join(__import__("difflib").unified_diff(want.splitlines(True),
                                                     text.splitlines(True), "expected",
                                                     "actual")))


def credfile(tmp, tree, mode=0o600):
    path = os.path.join(tmp, tree + ".pw")
    with open(path, "w") as f:
        f.write(PASSWORDS[tree] + "\n")
    os.chmod(path, mode)
    return path


def add(env, svc, tmp, tree, *extra):
    return env.run("add", "controller", "type=redfish", "host=" + svc.info["hosts"][0]["url"],
                   "user=" + svc.info["user"], "credfile=" + credfile(tmp, tree),
                   "cafile=" + svc.info["ca"], *extra)


def case_tree(tmp, tree):
    """Both storages of @tree's BMC, shown at every level, text and JSON."""
    svc = Service(tmp, "--tree", tree)
    try:
        env = Env(tmp, "state-" + tree)
        status, out, err = add(env, svc, tmp, tree)
        check(status == 0, tree + ": add controller succeeds", out + err)
        text, js = [], []
        for words in SHOWS:
            for mode, sink in (([], text), (["J"], js)):
                status, out, err = env.run(*words, *mode)
                check(status == 0, "%s: %s succeeds" % (tree, " ".join(words + mode)), out + err)
                sink.append("$ raidcli %s\n%s" % (" ".join(words + mode),
                                                  normalize(out, env.state)))
                if mode:
                    check(all(c["Command Status"].get("Host", "").startswith("127.0.0.1:")
                              for c in json.loads(out)["Controllers"]
                              if "Controller" in c["Command Status"]),
                          "%s: %s names the host" % (tree, " ".join(words)))
        compare(tree + ".txt", "".join(text))
        compare(tree + ".json", "".join(js))
        check_secret(env, tree)
    finally:
        svc.stop()


def check_secret(env, tree):
    """The password is in no output and no file under the state directory."""
    secret = PASSWORDS[tree]
    check(all(secret not in o for o in env.outputs), tree + ": no output holds the password")
    for root, _, files in os.walk(env.state):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                check(secret.encode() not in f.read(),
                      "%s: state file %s does not hold the password" % (tree, name))


def case_fleet(tmp):
    """Three BMCs from a hosts file; one hangs, one refuses: only theirs fail."""
    svc = Service(tmp, "--tree", "modern", "--hosts", "3")
    try:
        env = Env(tmp, "state-fleet")
        env.env["BMC_PASSWORD"] = PASSWORDS["modern"]
        hosts = os.path.join(tmp, "hosts")
        with open(hosts, "w") as f:
            f.write("# the fleet\n" + "".join(h["url"] + "\n" for h in svc.info["hosts"]))
        status, out, err = env.run("add", "controller", "type=redfish", "hostsfile=" + hosts,
                                   "user=admin", "passenv=BMC_PASSWORD",
                                   "cafile=" + svc.info["ca"], "timeout=2")
        check(status == 0, "fleet: add controller from a hosts file", out + err)
        check("Description = Added controllers /c0-/c5." in out,
              "fleet: add names every controller it added", out)
        status, out, _ = env.run("show", "ctrlcount")
        check("Controller Count = 6" in out, "fleet: two controllers per BMC", out)
        logins = [len([r for r in svc.control("GET", "/hosts/%d" % i)[1]["requests"]
                       if r[0] == "POST" and r[1].endswith("/Sessions")]) for i in range(3)]
        check(logins == [1, 1, 1], "fleet: add logs in to each BMC once", logins)
        svc.faults(1, dead="hang")
        svc.faults(2, dead="refuse")
        status, out, err = env.run("/call", "show", "J")
        check(status == 247, "fleet: /call show fails with 247", (status, err))
        result = json.loads(out)["Controllers"]
        hosts_of = [c["Command Status"]["Host"] for c in result]
        states = [c["Command Status"]["Status"] for c in result]
        check(states == ["Success"] * 2 + ["Failure"] * 4, "fleet: only the dead BMCs fail",
              states)
        for c in result[2:]:
            msg = c["Command Status"]["Description"]
            check(c["Command Status"]["Detailed Status"][0]["ErrCd"] == 247 and
                  c["Command Status"]["Host"] in msg,
                  "fleet: a dead BMC's controller says why, naming its host", msg)
        check(len(set(hosts_of)) == 3, "fleet: each result names its host", hosts_of)
        compare("fleet.json", normalize(out, env.state))
    finally:
        svc.stop()


def case_slow(tmp):
    """A slow BMC among fast ones: they finish while it is still answering
    its first request, and its controllers still show in full."""
    svc = Service(tmp, "--tree", "modern", "--hosts", "4")
    try:
        env = Env(tmp, "state-slow")
        env.env["BMC_PASSWORD"] = PASSWORDS["modern"]
        hosts = os.path.join(tmp, "hosts-slow")
        with open(hosts, "w") as f:
            f.write("".join(h["url"] + "\n" for h in svc.info["hosts"]))
        status, out, err = env.run("add", "controller", "type=redfish", "hostsfile=" + hosts,
                                   "user=admin", "passenv=BMC_PASSWORD",
                                   "cafile=" + svc.info["ca"], "timeout=10")
        check(status == 0, "slow: add controller from a hosts file", out + err)
        svc.faults(0, delay_ms=[1000, 1000])
        svc.control("POST", "/stats/reset")
        status, out, err = env.run("/call", "show", "all", "J")
        served = svc.control("GET", "/stats")[1]["served"]
        check(status == 0, "slow: /call show all succeeds", (status, err))
        result = json.loads(out)["Controllers"]
        by_host = {}
        for c in result:
            data = json.dumps(c["Response Data"], indent=1)
            by_host.setdefault(c["Command Status"]["Host"], []).append(
                re.sub(r'"Controller": \d+', "", normalize(data, env.state)))
        slow = "127.0.0.1:%d" % svc.port(0)
        check(len(by_host) == 4 and all(len(v) == 2 for v in by_host.values()) and
              len(set(tuple(v) for v in by_host.values())) == 1,
              "slow: the slow BMC's controllers show as the fast ones' do",
              "".join(__import__("difflib").unified_diff(*[v[0].splitlines(True) for v in list(by_host.values())[:2]])))
        order = [(i, method) for i, method, _, _ in served]
        second = [k for k, (i, _) in enumerate(order) if i == 0][1:2]
        last_fast = max((k for k, (i, m) in enumerate(order) if i != 0 and m == "GET"),
                        default=None)
        check(second and last_fast is not None and last_fast < second[0],
              "slow: the fast BMCs were read in full before the slow one's second answer",
              served)
        check(slow in by_host, "slow: the slow BMC is in the reply", by_host.keys())
    finally:
        svc.stop()


def case_requests(tmp):
    """Nothing is asked twice: logging in reads the service root, so add
    reads it no more; a service offering $expand gives each Storage
    expanded, never also plain; the Chassis of both Storages is read once."""
    svc = Service(tmp, "--tree", "modern")
    try:
        env = Env(tmp, "state-requests")
        status, out, err = add(env, svc, tmp, "modern")
        check(status == 0, "requests: add controller succeeds", out + err)
        log = svc.control("GET", "/hosts/0")[1]["requests"]
        roots = [r for r in log if r[:2] == ["GET", "/redfish/v1/"]]
        logins = [r for r in log if r[0] == "POST" and r[1].endswith("/Sessions")]
        check(len(roots) == len(logins), "requests: add reads the service root once a login",
              log)
        check(len(logins) == 1, "requests: add logs in to the BMC once", log)
        status, out, err = env.run("/call", "show", "all", "J")
        check(status == 0, "requests: /call show all succeeds", out + err)
        shown = svc.control("GET", "/hosts/0")[1]["requests"][len(log):]
        plain = [r for r in shown if r[0] == "GET" and re.search(r"/Storage/[^/?]+$", r[1])]
        check(not plain and any("$expand" in r[1] for r in shown),
              "requests: each Storage is read expanded only", shown)
        gets = [r[1] for r in shown if r[0] == "GET"]
        check(len(gets) == len(set(gets)),
              "requests: a resource both Storages link to is read once", shown)
    finally:
        svc.stop()


def case_credentials(tmp):
    """The password stays in its file: not on argv, refused when others may read it."""
    svc = Service(tmp, "--tree", "idrac", "--delay-ms", "200")
    try:
        env = Env(tmp, "state-cred")
        seen = []

        def watch(pid):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    with open("/proc/%d/cmdline" % pid, "rb") as f:
                        seen.append(f.read())
                except OSError:
                    break
                time.sleep(0.02)

        url, ca = svc.info["hosts"][0]["url"], svc.info["ca"]
        status, out, err = env.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "credfile=" + credfile(tmp, "idrac"),
                                   "cafile=" + ca, watch=watch)
        check(status == 0, "cred: add with a 0600 file", out + err)
        check(seen and all(b"calvin" not in s for s in seen),
              "cred: the password is never on the command line", len(seen))
        st = os.stat(os.path.join(env.state, "redfish"))
        check(stat.S_IMODE(st.st_mode) == 0o700, "cred: the redfish state directory is 0700")
        status, out, err = env.run("/c0", "show", "J")
        check(status == 0, "cred: show reads the password from its file", out + err)
        check_secret(env, "idrac")

        other = Env(tmp, "state-cred-bad")
        status, out, _ = other.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "credfile=" + credfile(tmp, "idrac", 0o644),
                                   "cafile=" + ca)
        check(status == 255 and "0644" in out, "cred: a file others may read is refused",
              (status, out))
        status, out, _ = other.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "passenv=NOT_SET_ANYWHERE", "cafile=" + ca)
        check(status == 3, "cred: an unset variable is refused", (status, out))
        wrong = os.path.join(tmp, "wrong.pw")
        with open(wrong, "w") as f:
            f.write("not-the-password\n")
        os.chmod(wrong, 0o600)
        status, out, _ = other.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "credfile=" + wrong, "cafile=" + ca)
        check(status != 0 and "not-the-password" not in out,
              "cred: a wrong password is refused, and not shown", out)
        status, out, _ = other.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "credfile=" + wrong + "x", "cafile=" + ca)
        check(status != 0, "cred: a missing credentials file is refused", out)
        credfile(tmp, "idrac")
        status, out, _ = other.run("add", "controller", "type=redfish", "host=" + url,
                                   "user=root", "credfile=" + os.path.join(tmp, "idrac.pw"))
        check(status == 247 and "certificate" in out.lower(),
              "cred: an unknown CA fails verification by default", out)
        status, out, _ = other.run("show", "ctrlcount")
        check("Controller Count = 0" in out, "cred: refusals register nothing", out)
        loose = Env(tmp, "state-insecure")
        status, out, err = loose.run("add", "controller", "type=redfish", "host=" + url,
                                     "user=root", "credfile=" + os.path.join(tmp, "idrac.pw"),
                                     "insecure")
        check(status == 0 and err.count("verification is off") == 1,
              "cred: insecure connects, and says loudly (once) that it does not verify", err)
        status, out, err = loose.run("/c0", "show")
        check(status == 0 and err.count("verification is off") == 1,
              "cred: every command says it once again", err)
    finally:
        svc.stop()


# The loader's trace of one library loaded (LD_DEBUG=files): how it came in.
CURL_LOADED = re.compile(r"file=libcurl\.so\.4 \[0\];\s+(needed|dynamically loaded) by")


def loaded_curl(env, *words):
    """Run raidcli @words traced by the loader: its status, output, and
    how libcurl came into the process ("needed", "dynamically loaded" or None)."""
    traced = dict(env.env, LD_DEBUG="files")
    p = subprocess.run([RAIDCLI, *words], env=traced, capture_output=True, text=True,
                       timeout=120)
    m = CURL_LOADED.search(p.stderr)
    return p.returncode, p.stdout, m.group(1) if m else None


def case_lazy_curl(tmp):
    """raidcli does not link libcurl: a command that talks to no BMC never
    loads it, a Redfish command loads it when it needs it; without a usable
    libcurl.so.4, Redfish commands fail naming it and the rest still work."""
    linked = subprocess.run(["ldd", RAIDCLI], capture_output=True, text=True).stdout
    check(linked and "libcurl" not in linked, "lazy: raidcli does not link libcurl", linked)
    env = Env(tmp, "state-lazy")
    for words in (["--version"], ["show"]):
        status, out, how = loaded_curl(env, *words)
        check(status == 0 and how is None,
              "lazy: %s does not load libcurl" % " ".join(words), (status, how, out))

    svc = Service(tmp, "--tree", "modern")
    try:
        env.env["BMC_PASSWORD"] = PASSWORDS["modern"]
        add_words = ["add", "controller", "type=redfish", "host=" + svc.info["hosts"][0]["url"],
                     "user=" + svc.info["user"], "passenv=BMC_PASSWORD",
                     "cafile=" + svc.info["ca"]]
        status, out, how = loaded_curl(env, *add_words)
        check(status == 0 and how == "dynamically loaded",
              "lazy: add controller type=redfish loads libcurl when it needs it",
              (status, how, out))
        status, out, how = loaded_curl(env, "/c0", "show")
        check(status == 0 and how == "dynamically loaded" and "Status = Success" in out,
              "lazy: /c0 show on a BMC loads libcurl and succeeds", (status, how, out))

        # A libcurl.so.4 found first that does not load: as if it were missing or broken.
        bad = os.path.join(tmp, "bad-libcurl")
        os.makedirs(bad)
        open(os.path.join(bad, "libcurl.so.4"), "w").close()
        broken = Env(tmp, "state-nocurl")
        broken.env["LD_LIBRARY_PATH"] = ":".join(
            filter(None, [bad, os.environ.get("LD_LIBRARY_PATH")]))
        broken.env["BMC_PASSWORD"] = PASSWORDS["modern"]
        env.env["LD_LIBRARY_PATH"] = broken.env["LD_LIBRARY_PATH"]
        for who, words in ((broken, add_words), (env, ["/c0", "show"])):
            status, out, _ = who.run(*words)
            check(status == 242 and "Redfish needs libcurl.so.4 (Debian package libcurl4): " +
                  os.path.join(bad, "libcurl.so.4") in out,
                  "lazy: without libcurl, %s fails naming libcurl.so.4 and why" % words[0],
                  (status, out))
        status, out, _ = broken.run("add", "controller", "type=soft", "drives=2", "size=64MB")
        check(status == 0, "lazy: without libcurl, a soft controller is added", out)
        status, out, _ = broken.run("/c0", "show")
        check(status == 0 and "Status = Success" in out,
              "lazy: without libcurl, a soft controller shows", out)
    finally:
        svc.stop()


def main():
    tmp = tempfile.mkdtemp(prefix="rcl-redfish-backend-")
    try:
        case_tree(tmp, "idrac")
        case_tree(tmp, "modern")
        case_fleet(tmp)
        case_slow(tmp)
        case_requests(tmp)
        case_credentials(tmp)
        case_lazy_curl(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
