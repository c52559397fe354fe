#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""
run-golden.py - golden-file tests for the text and JSON output of raidcli.

Each case in cases.txt runs in a throwaway RAIDCLI_STATE_DIR under /dev/shm
(tmpfs, so the "Med" column is always "Unknown"): the setup steps first, which
must succeed, then the command under test. A case runs twice, each time in a
fresh state directory: once as typed (text) and once with "J" (JSON). The
output, normalized (see normalize()), plus the exit status, must equal
expected/<name>.txt and expected/<name>.json. JSON output must also be a valid
StorCLI v1 envelope (check_envelope()).

    run-golden.py [RAIDCLI]                   run every case, diff the goldens
    run-golden.py --regenerate [RAIDCLI]      rewrite the goldens, drop stale ones
    run-golden.py --check-coverage [RAIDCLI]  fail if a grammar entry has no case
    run-golden.py -k NAME ...                 only the cases named (any mode)

The binary is $RAIDCLI (meson sets it), else the RAIDCLI argument.

Cases file format (one block per case, blank lines and '#' comments between):

    == name                  the case's name: [a-z0-9-]+, names the goldens
    setup WORDS...           raidcli arguments (shell-style quoting); must exit 0
    shell COMMAND            a /bin/sh command line; must exit 0
    run WORDS...             the command under test (exactly one per case)
    after WORDS...           raidcli arguments run after it, whatever happened
                             (to stop a controller process it started)
    env NAME=VALUE           set in the environment of every step of the case
    text-only                no JSON run (help prints plain text and ignores J)

and, outside cases, for a grammar entry no golden can run (one that runs
until it is signalled):

    uncovered SYNOPSIS -- WHERE IT IS TESTED

In setup, shell and run, $STATE is the state directory and $FIXTURES the
folder of the mock backend's fixtures (tests/fixtures/mock), "<FIXTURES>" in
goldens. In run, "{J}" marks
where the JSON run puts "J" ("{j}": a lower-case "j"); without a marker "J"
is appended. The text run drops the marker.

Times: a soft controller prints the current time and its creation time, at
one-second resolution; every time normalizes to the same placeholder, so no
golden depends on which of them fall in one second.
"""

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
STATE_PREFIX = "raidcli-golden."
# What the state directory becomes in goldens: as long as the real one
# (mkdtemp's suffix is 8 characters), so table columns keep their width.
STATE_TOKEN = "/dev/shm/" + STATE_PREFIX + "XXXXXXXX"
HOST_TOKEN = "<HOSTNAME>"
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "fixtures", "mock"))
FIXTURES_TOKEN = "<FIXTURES>"
OS_TOKEN = "<OS>"
MODES = ("text", "json")
EXT = {"text": "txt", "json": "json"}
COMMAND_TIMEOUT = 30


class CaseError(Exception):
    pass


# ---------------------------------------------------------------------------
# The cases file.

class Case:
    def __init__(self, name, lineno):
        self.name = name
        self.lineno = lineno
        self.setup = []  # ("raidcli", [words]) or ("shell", "command")
        self.run = None  # the words of the command under test, with {J}/{j}
        self.after = []  # [words] run after the command under test
        self.text_only = False
        self.env = {}  # NAME -> VALUE, with $STATE and $FIXTURES

    @property
    def modes(self):
        return ("text",) if self.text_only else MODES

    def command(self, mode):
        """The argv (after the binary) of the command under test in @mode."""
        words, marked = [], False
        for word in self.run:
            if word in ("{J}", "{j}"):
                marked = True
                if mode == "json":
                    words.append(word[1])
            else:
                words.append(word)
        if mode == "json" and not marked:
            words.append("J")
        return words


# Grammar synopses exempt from the coverage check ("uncovered" lines).
UNCOVERED = {}


def parse_cases(path):
    cases, names, case = [], set(), None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = "%s:%d" % (path, lineno)
            if line.startswith("== "):
                name = line[3:].strip()
                if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
                    raise CaseError("%s: bad case name '%s' (use [a-z0-9-]+)" % (where, name))
                if name in names:
                    raise CaseError("%s: case '%s' is defined twice" % (where, name))
                names.add(name)
                case = Case(name, lineno)
                cases.append(case)
                continue
            if line.startswith("uncovered "):
                synopsis, sep, reason = line[len("uncovered "):].partition(" -- ")
                if not sep or not reason.strip():
                    raise CaseError("%s: 'uncovered' needs ' -- ' and where it is tested" % where)
                UNCOVERED[synopsis.strip()] = reason.strip()
                continue
            if case is None:
                raise CaseError("%s: '%s' comes before the first '== name' line" % (where, line))
            keyword, _, rest = line.partition(" ")
            rest = rest.strip()
            if keyword == "setup" and rest:
                case.setup.append(("raidcli", shlex.split(rest)))
            elif keyword == "shell" and rest:
                case.setup.append(("shell", rest))
            elif keyword == "run" and rest:
                if case.run is not None:
                    raise CaseError("%s: case '%s' has a second 'run'" % (where, case.name))
                case.run = shlex.split(rest)
            elif keyword == "after" and rest:
                case.after.append(shlex.split(rest))
            elif keyword == "env" and "=" in rest:
                name, _, value = rest.partition("=")
                case.env[name] = value
            elif keyword == "text-only" and not rest:
                case.text_only = True
            else:
                raise CaseError("%s: unknown line '%s' (expected setup, shell, run, after, "
                                "env or text-only)" % (where, line))
    for case in cases:
        if case.run is None:
            raise CaseError("%s:%d: case '%s' has no 'run' line" % (path, case.lineno, case.name))
    return cases


# ---------------------------------------------------------------------------
# Normalization: what differs between runs and hosts becomes a placeholder.
# Serials, WWNs and times get placeholders of the same length, numbered by
# first appearance, so columns stay aligned and equal values stay equal.

SERIAL_CTRL = re.compile(r"RCLC[0-9A-F]{12}")
SERIAL_DRIVE = re.compile(r"RCLD[0-9A-F]{12}")
WWN = re.compile(r"\b3[0-9A-F]{15}\b")
TIMESTAMP = re.compile(r"\b(\d\d)/(\d\d)/(\d{4})(,?) (\d\d):(\d\d):(\d\d)\b")
# A VD's md UUID as mdadm prints it, and its StorCLI-style creation date and time.
MD_UUID = re.compile(r"\b[0-9a-f]{8}(?::[0-9a-f]{8}){3}\b")
VD_DATE = re.compile(r"\b\d\d-\d\d-\d{4}\b")
VD_TIME = re.compile(r"\b\d\d:\d\d:\d\d [AP]M\b")
# How long each controller took to read: "show metrics" (render-metrics.c).
SCRAPE_SECONDS = re.compile(r"^(raidcli_scrape_duration_seconds\{[^}]*\}) [0-9.]+$", re.M)
HOST_TEXT = re.compile(r"^(Host Name = ).*$", re.M)
HOST_JSON = re.compile(r'^(\s*"Host Name" : ").*(",?)$', re.M)


def os_string():
    """What raidcli prints as the OS: uname -sr."""
    u = os.uname()
    return "%s %s" % (u.sysname, u.release)


def numbered(pattern, make):
    def sub(text):
        seen = {}

        def one(m):
            key = m.group(0)
            if key not in seen:
                seen[key] = make(len(seen) + 1)
            return seen[key]

        return pattern.sub(one, text)

    return sub


def normalize_times(text):
    # Every instant reads the same: whether two of them (the controller's
    # creation and "now", say) fall in one second depends on timing alone.
    def one(m):
        return "MM/DD/YYYY%s hh:mm:ss" % m.group(4)

    return TIMESTAMP.sub(one, text)


normalize_ctrl_serials = numbered(SERIAL_CTRL, lambda n: "RCLC-SERIAL-%04d" % n)
normalize_drive_serials = numbered(SERIAL_DRIVE, lambda n: "RCLD-SERIAL-%04d" % n)
normalize_wwns = numbered(WWN, lambda n: "3-WWN-%010d" % n)
normalize_md_uuids = numbered(MD_UUID, lambda n: "md-uuid-%027d" % n)


def normalize(text, state_dir):
    text = text.replace(state_dir, STATE_TOKEN)
    text = text.replace(FIXTURES, FIXTURES_TOKEN)
    text = text.replace(os_string(), OS_TOKEN)
    text = HOST_TEXT.sub(lambda m: m.group(1) + HOST_TOKEN, text)
    text = HOST_JSON.sub(lambda m: m.group(1) + HOST_TOKEN + m.group(2), text)
    text = normalize_ctrl_serials(text)
    text = normalize_drive_serials(text)
    text = normalize_wwns(text)
    text = normalize_md_uuids(text)
    text = SCRAPE_SECONDS.sub(r"\1 <SECONDS>", text)
    text = VD_DATE.sub("DD-MM-YYYY", text)
    text = VD_TIME.sub("hh:mm:ss XM", text)
    return normalize_times(text)


# ---------------------------------------------------------------------------
# What every output must satisfy, whatever the golden says.

def check_envelope(out, status):
    """Problems with @out as StorCLI v1 JSON from a command that exited @status."""
    try:
        doc = json.loads(out)
    except ValueError as e:
        return ["not valid JSON: %s" % e]
    if not isinstance(doc, dict) or list(doc) != ["Controllers"]:
        return ['the top level is not {"Controllers": [...]}']
    ctrls = doc["Controllers"]
    if not isinstance(ctrls, list) or not ctrls:
        return ['"Controllers" is not a non-empty list']
    problems, statuses = [], []
    for i, entry in enumerate(ctrls):
        where = "Controllers[%d]" % i
        if not isinstance(entry, dict) or "Command Status" not in entry:
            problems.append('%s has no "Command Status"' % where)
            continue
        extra = set(entry) - {"Command Status", "Response Data"}
        if extra:
            problems.append("%s has unexpected keys %s" % (where, sorted(extra)))
        # An object, or (StorCLI's PD "show rebuild") a bare list of row objects.
        data = entry.get("Response Data", {})
        if not isinstance(data, dict) and not (
                isinstance(data, list) and all(isinstance(row, dict) for row in data)):
            problems.append('%s "Response Data" is neither an object nor a list of rows' % where)
        cs = entry["Command Status"]
        if not isinstance(cs, dict):
            problems.append('%s "Command Status" is not an object' % where)
            continue
        for key in ("CLI Version", "Operating system", "Description"):
            if not isinstance(cs.get(key), str):
                problems.append('%s "Command Status" lacks the string "%s"' % (where, key))
        ids = [k for k in ("Controller", "Status Code") if k in cs]
        if len(ids) != 1 or type(cs[ids[0]]) is not int:
            problems.append('%s "Command Status" needs exactly one integer "Controller" or '
                            '"Status Code"' % where)
        st = cs.get("Status")
        if st not in ("Success", "Failure"):
            problems.append('%s "Status" is %r, not "Success" or "Failure"' % (where, st))
            continue
        statuses.append(st)
        errcd = 0
        if st == "Failure":
            detail = cs.get("Detailed Status")
            if (not isinstance(detail, list) or not detail or not isinstance(detail[0], dict)
                    or type(detail[0].get("ErrCd")) is not int):
                problems.append('%s failed without a "Detailed Status" list carrying "ErrCd"'
                                % where)
                continue
            errcd = detail[0]["ErrCd"]
            if statuses.count("Failure") == 1 and errcd != status:
                problems.append('%s "ErrCd" %d is not the exit status %d' % (where, errcd, status))
        if "Status Code" in cs and type(cs["Status Code"]) is int and cs["Status Code"] != errcd:
            problems.append('%s "Status Code" %d disagrees with "Status" %s' %
                            (where, cs["Status Code"], st))
    if statuses and (status == 0) != all(s == "Success" for s in statuses):
        problems.append('exit status %d but "Status" %s' % (status, statuses))
    return problems


def check_metrics(lines, status):
    """Problems with @lines, show metrics' Prometheus text, from a command that
    exited @status (tests/server/test-metrics.py parses it for real)."""
    families, problems = [], []
    for line in lines:
        if line.startswith("# TYPE "):
            if line.split()[2] in families:
                problems.append("family %s given twice" % line.split()[2])
            families.append(line.split()[2])
        elif line and not line.startswith("#") and not re.match(r"%s\b" % families[-1], line):
            problems.append("sample %r is not of family %s" % (line, families[-1]))
    failed = any(re.match(r"raidcli_scrape_success\{.*\} 0$", line) for line in lines)
    if (status == 0) == failed:
        problems.append("exit status %d disagrees with raidcli_scrape_success" % status)
    return problems


def check_text(out, status):
    """Problems with @out as raidcli text from a command that exited @status."""
    lines = out.splitlines()
    if lines and lines[0].startswith("# HELP raidcli_"):
        return check_metrics(lines, status)
    if not any(line in ("Status = Success", "Status = Failure") for line in lines):
        return ['no "Status = Success" or "Status = Failure" line']
    if (status == 0) == ("Status = Failure" in lines):
        return ['exit status %d disagrees with the "Status =" lines' % status]
    return []


# ---------------------------------------------------------------------------
# Running a case.

def run_raidcli(binary, words, env):
    return subprocess.run([binary] + words, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT)


def state_parent():
    return "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


def golden_text(out, err, status, state_dir):
    text = normalize(out, state_dir)
    if text and not text.endswith("\n"):
        text += "\n[no newline at end of stdout]\n"
    if err:
        text += "[stderr]\n" + normalize(err, state_dir)
        if not err.endswith("\n"):
            text += "\n"
    return text + "[exit status: %d]\n" % status


def expand(words, state_dir):
    """@words with $STATE and $FIXTURES replaced."""
    return [w.replace("$STATE", state_dir).replace("$FIXTURES", FIXTURES) for w in words]


def without_leak_check(env):
    """@env for a raidcli built with AddressSanitizer that skips its leak
    check at exit: some 3,000 page faults, half the run of a command. A
    setup step needs none, being the command of a case of its own, where
    it is checked (--check-coverage)."""
    return dict(env, ASAN_OPTIONS=":".join(filter(None, [env.get("ASAN_OPTIONS"),
                                                         "detect_leaks=0"])))


def run_case_mode(binary, case, mode):
    """Run @case in @mode. Return (golden text, [problems])."""
    state_dir = tempfile.mkdtemp(prefix=STATE_PREFIX, dir=state_parent())
    try:
        env = dict(os.environ, RAIDCLI_STATE_DIR=state_dir, STATE=state_dir, LC_ALL="C",
                   TZ="UTC", NO_COLOR="1", FIXTURES=FIXTURES)
        env.pop("RAIDCLI_MOCK_DIR", None)
        env.update({k: expand([v], state_dir)[0] for k, v in case.env.items()})
        for kind, step in case.setup:
            if kind == "shell":
                p = subprocess.run(["/bin/sh", "-c", step], env=env, capture_output=True,
                                   text=True, stdin=subprocess.DEVNULL, timeout=COMMAND_TIMEOUT)
                shown = step
            else:
                p = run_raidcli(binary, expand(step, state_dir), without_leak_check(env))
                shown = "raidcli " + shlex.join(step)
            if p.returncode:
                return None, ["setup step '%s' failed with status %d:\n%s%s" %
                              (shown, p.returncode, p.stdout, p.stderr)]
        words = expand(case.command(mode), state_dir)
        try:
            p = run_raidcli(binary, words, env)
        finally:
            for after in case.after:
                run_raidcli(binary, expand(after, state_dir), without_leak_check(env))
        problems = []
        if mode == "json":
            problems += check_envelope(p.stdout, p.returncode)
        elif not case.text_only:
            problems += check_text(p.stdout, p.returncode)
        return golden_text(p.stdout, p.stderr, p.returncode, state_dir), problems
    finally:
        remove_state_dir(state_dir)


def remove_state_dir(state_dir):
    """Remove @state_dir even while a controller process a case started writes into it (a
    removal racing a new file fails): once it is gone, that process sees its lock file gone
    and exits, rather than living on."""
    for _ in range(50):
        shutil.rmtree(state_dir, ignore_errors=True)
        if not os.path.exists(state_dir):
            return
        time.sleep(0.1)


def golden_path(expected_dir, case, mode):
    return os.path.join(expected_dir, "%s.%s" % (case.name, EXT[mode]))


def expected_files(cases):
    return {"%s.%s" % (c.name, EXT[m]) for c in cases for m in c.modes}


def run_all(binary, cases, expected_dir, regenerate, jobs, selected):
    todo = [(c, m) for c in cases for m in c.modes if not selected or c.name in selected]
    failures, lock = [], threading.Lock()

    def one(item):
        case, mode = item
        label = "%s (%s)" % (case.name, mode)
        try:
            got, problems = run_case_mode(binary, case, mode)
        except (OSError, subprocess.SubprocessError) as e:
            got, problems = None, ["cannot run: %s" % e]
        path = golden_path(expected_dir, case, mode)
        if got is not None and regenerate:
            with open(path, "w", encoding="utf-8") as f:
                f.write(got)
        elif got is not None:
            try:
                with open(path, encoding="utf-8") as f:
                    want = f.read()
            except FileNotFoundError:
                want = None
                problems.append("no golden %s; run with --regenerate and review it"
                                % os.path.relpath(path))
            if want is not None and want != got:
                diff = difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "expected/" + os.path.basename(path), "actual")
                problems.append("output differs from the golden:\n" + "".join(diff))
        with lock:
            if problems:
                failures.append(label)
                print("FAIL %s" % label)
                for problem in problems:
                    print("    " + problem.rstrip("\n").replace("\n", "\n    "))
            else:
                print("ok   %s" % label)
            sys.stdout.flush()

    # Cases are independent (each has its own state directory): run several at once.
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, todo))

    stale = sorted(set(os.listdir(expected_dir)) - expected_files(cases)) if not selected else []
    for name in stale:
        if regenerate:
            os.unlink(os.path.join(expected_dir, name))
            print("removed stale golden expected/%s" % name)
        else:
            failures.append(name)
            print("FAIL expected/%s belongs to no case in cases.txt" % name)
    print("%d case runs, %d failed" % (len(todo), len(failures)))
    if failures and not regenerate:
        print("if the new output is right: RAIDCLI=%s %s --regenerate, then review "
              "git diff tests/golden" % (binary, os.path.relpath(__file__)))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# Coverage: every grammar entry needs a case that succeeds as text and as JSON.

ALIASES = {"del": "delete", "-v": "version", "v": "version", "-version": "version",
           "--version": "version"}


def grammar_entries(binary):
    """[(kind, verb words, synopsis)] from raidcli __grammar."""
    out = subprocess.run([binary, "__grammar"], capture_output=True, text=True, check=True,
                         timeout=COMMAND_TIMEOUT).stdout
    entries = []
    for line in out.splitlines():
        words = line.split()[1:]  # drop "raidcli"
        path = [words.pop(0)] if words and words[0].startswith("/") else []
        verb = []
        for word in words:
            if "=" in word or word.startswith("["):
                break
            verb.append(word.lower())
        entries.append((path_kind(path), tuple(verb), line))
    return entries


def path_kind(path_words):
    """The object kind a path addresses: system, controller, enclosure, drive, vd, dg."""
    parts = "".join(path_words).lower().split("/")
    letters = {p[0] for p in parts if p}
    if not letters:
        return "system"
    for letter, kind in (("s", "drive"), ("v", "vd"), ("d", "dg"), ("e", "enclosure")):
        if letter in letters:
            return kind
    return "controller"


def case_words(case, keyed=False):
    """(kind, verb words) of a case's command: path tokens, then words, without J/nolog.

    With @keyed, a key=value word gives its key, as the verb of "set cc=seq".
    """
    words = [w for w in case.run if w not in ("{J}", "{j}") and w.lower() not in ("j", "nolog")]
    path = []
    while words and words[0].startswith("/"):
        path.append(words.pop(0))
    if keyed:
        words = [w.split("=", 1)[0] for w in words]
    verb = [ALIASES.get(w.lower(), w.lower()) for w in words if "=" not in w]
    # A verb's last word may carry its value, as in "set time=systemtime".
    keyed = [w.split("=", 1)[0].lower() for w in words if "=" in w]
    if keyed and len(verb) == 1:
        verb.append(keyed[0])
    return path_kind(path), verb


def case_covers(case, kind, verb, synopsis, same_kind):
    """Whether @case runs the entry; "set cc [cc=...]" also as "set cc=seq"."""
    if case_words(case)[0] != kind or "help" in case_words(case)[1]:
        return False
    if covers(verb, case_words(case)[1], same_kind):
        return True
    return "[%s=" % verb[-1] in synopsis and covers(verb, case_words(case, True)[1], same_kind)


def covers(entry_verb, verb, all_verbs):
    """Whether the words @verb select @entry_verb (the longest matching entry wins)."""
    def matches(candidate):
        return tuple(verb[:len(candidate)]) == candidate

    if not matches(entry_verb):
        return False
    return not any(len(v) > len(entry_verb) and matches(v) for v in all_verbs)


def exit_status_of(path):
    try:
        with open(path, encoding="utf-8") as f:
            last = f.read().splitlines()[-1]
    except (OSError, IndexError):
        return None
    m = re.fullmatch(r"\[exit status: (\d+)\]", last)
    return int(m.group(1)) if m else None


def check_coverage(binary, cases, expected_dir):
    entries = grammar_entries(binary)
    missing = 0
    for kind, verb, synopsis in entries:
        if synopsis in UNCOVERED:
            print("exempt  %-10s %-46s %s" % (kind, " ".join(verb), UNCOVERED[synopsis]))
            continue
        same_kind = [v for k, v, _ in entries if k == kind]
        for mode in MODES:
            hits = [c for c in cases
                    if mode in c.modes and case_covers(c, kind, verb, synopsis, same_kind)
                    and exit_status_of(golden_path(expected_dir, c, mode)) == 0]
            if not hits:
                missing += 1
                print("MISSING %s: no successful %s golden for '%s'" % (kind, mode, synopsis))
            else:
                print("ok      %-10s %-5s %-40s %s" % (kind, mode, " ".join(verb),
                                                       ", ".join(c.name for c in hits)))
    print("%d grammar entries, %d missing a text or JSON golden" % (len(entries), missing))
    return 1 if missing else 0


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raidcli", nargs="?", help="the raidcli binary (default: $RAIDCLI)")
    ap.add_argument("--regenerate", action="store_true", help="rewrite the goldens")
    ap.add_argument("--check-coverage", action="store_true",
                    help="fail if a grammar entry lacks a successful text and JSON golden")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.txt"))
    ap.add_argument("--expected", default=os.path.join(HERE, "expected"))
    ap.add_argument("-j", "--jobs", type=int, default=32)
    ap.add_argument("-k", dest="only", action="append", default=[], metavar="NAME",
                    help="run only this case (repeatable)")
    args = ap.parse_args()

    binary = os.environ.get("RAIDCLI") or args.raidcli
    if not binary or not os.access(binary, os.X_OK):
        print("run-golden: no raidcli binary: set RAIDCLI or pass its path", file=sys.stderr)
        return 2
    try:
        cases = parse_cases(args.cases)
    except (CaseError, ValueError) as e:
        print("run-golden: %s" % e, file=sys.stderr)
        return 2
    unknown = set(args.only) - {c.name for c in cases}
    if unknown:
        print("run-golden: no such case: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    if args.check_coverage:
        return check_coverage(binary, cases, args.expected)
    os.makedirs(args.expected, exist_ok=True)
    return run_all(binary, cases, args.expected, args.regenerate, args.jobs, set(args.only))


if __name__ == "__main__":
    sys.exit(main())
