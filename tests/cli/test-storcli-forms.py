#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-storcli-forms.py - every StorCLI 007.x command form gets a StorCLI answer.

storcli-forms.txt lists the 385 forms StorCLI's help knows in 387
concrete commands (set patrolread has three). Each runs, with J, against its own copy of one state
directory: a soft controller /c0 with four drives and VD 0 (RAID1 of
252:0-1). It must parse and answer as StorCLI does: Success, or a Failure
other than "invalid command" (1) or "invalid parameter" (3), never naming
an unknown word, object or option, and never a did-you-mean. A form the
soft controller cannot do answers "... not supported by this controller
(soft)". Help prints plain text. A controller process a form starts is
stopped after it.

"show events file=" writes the events to the file. Did-you-mean stays for
true typos: a few misspellings still get their hint, and "add vd r7" is an
invalid level, not a misspelt "ra".

The same walk runs against the mock backend, once per fixture of
tests/fixtures/mock (a controller added with fixture=, its enclosure's id
in place of 252). There a refusal names the kind "(mock)", and the reads
of the part the fixture's "backup" names (/cx/cv show on the MegaRAID
card, /cx/bbu show on the PERC) answer with data, not a refusal. A
Failure changes nothing, so the forms share one copy of the state, made
anew after each Success. Batch mode would stop at the first failing line,
and most forms on a mock are refusals: each form is its own process.

The last lines count the commands that answer; -v lists each answer.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

RAIDCLI = os.environ.get("RAIDCLI")
HERE = os.path.dirname(os.path.abspath(__file__))
FORMS = os.path.join(HERE, "storcli-forms.txt")
FIXTURES = os.path.join(HERE, "..", "fixtures", "mock")
PARSE_ERRORS = (1, 3)
REFUSALS = (34, 244)  # StorCLI's "hardware missing" and "not supported"
# A refusal of what the controller has but raidcli does not drive yet.
NOT_YET_TEXT = "raidcli does not drive it yet"
NOT_YET = "Failure, not driven yet"
PARSE_WORDS = ("unknown object", "unknown word", "unknown option", "did you mean",
               "has no command", "incomplete command", "missing option")


def raidcli(state, words):
    env = dict(os.environ, RAIDCLI_STATE_DIR=state)
    return subprocess.run([RAIDCLI] + words, env=env, capture_output=True, text=True,
                          timeout=60)


def forms():
    with open(FORMS, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                obj, verb, command = line.split("|")
                yield "%s %s" % (obj, verb), command.split()


def description(out):
    """Status and description of the first controller's (or the only) result."""
    data = json.loads(out)["Controllers"][0]["Command Status"]
    details = data.get("Detailed Status") or []
    reason = " ".join(str(d.get("ErrMsg", "")) for d in details)
    return data["Status"], "%s %s" % (data.get("Description", ""), reason)


def answer(state, words, kind="soft"):
    """(None if @words get a StorCLI answer in @state, else why not; the status)."""
    if "help" in words:
        run = raidcli(state, words)
        ok = run.returncode == 0 and run.stdout
        return (None, "Success") if ok else ("help fails: %s" % run.stderr, None)
    run = raidcli(state, words + ["J"])
    if kind == "soft" and words and words[0].startswith("/c0"):
        raidcli(state, ["/c0", "stop", "service"])
    try:
        status, text = description(run.stdout)
    except (ValueError, KeyError, IndexError):
        return "no StorCLI JSON (exit %d): %s" % (run.returncode,
                                                  (run.stdout + run.stderr)[:200]), None
    if run.returncode in PARSE_ERRORS or any(w in text for w in PARSE_WORDS):
        return "exit %d: %s" % (run.returncode, text.strip()), status
    if status not in ("Success", "Failure"):
        return "status %r" % status, status
    refused = "not supported by this controller" in text
    if refused and ("(%s)" % kind not in text or run.returncode not in REFUSALS):
        return "refusal (exit %d) not of a %s controller: %s" % (
            run.returncode, kind, text.strip()), status
    return None, NOT_YET if NOT_YET_TEXT in text else status


def fresh(template, work):
    """A copy of @template at @work."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(template, work, symlinks=True)
    return work


# The reads of the cache backup module a fixture's "backup" names.
BACKUP_READS = {"cachevault": ("/cx/cv", ("show", "show all", "show status")),
                "bbu": ("/cx/bbu", ("show", "show all", "show status"))}


def offered(fixture, form):
    """Whether @fixture's caps offer @form ("/cx/cv show all"): it must answer with data."""
    obj, verbs = BACKUP_READS.get(fixture["caps"]["backup"], ("", ()))
    return any(form == "%s %s" % (obj, verb) for verb in verbs)


def walk_mock(root, name, all_forms, verbose):
    """The forms on a mock controller of fixture @name, as (form, words, why) failures."""
    path = os.path.join(FIXTURES, name + ".json")
    with open(path, encoding="utf-8") as f:
        fixture = json.load(f)
    template = os.path.join(root, "mock-" + name)
    run = raidcli(template, ["add", "controller", "type=mock", "fixture=" + path])
    if run.returncode:
        return [("add controller", [], "fixture %s: %s" % (name, run.stdout))]
    enclosure = str(fixture["enclosures"][0]["id"])
    failed, not_yet = [], 0
    # A Failure changes nothing: only a Success may leave the copy changed.
    work = fresh(template, os.path.join(root, "work"))
    for form, words in all_forms:
        words = [w.replace("252", enclosure) for w in words]
        why, status = answer(work, words, "mock")
        if status == "Success":
            work = fresh(template, work)
        elif not why and offered(fixture, form):
            why = "the fixture has the part, yet it fails"
        not_yet += status == NOT_YET
        if why:
            failed.append(("%s on %s" % (form, name), words, why))
        if verbose:
            print("%-8s %-40s %s" % (name, form, why or status))
    # Not a failure: what raidcli is yet to drive, for the record.
    print("%s: %d forms refused as not driven yet" % (name, not_yet))
    return failed


# Did-you-mean is for true typos: a level StorCLI's syntax allows is a level,
# and a misspelt part command still gets its hint.
TYPOS = [
    (["/c0", "add", "vd", "r7", "drives=252:2-3"],
     "invalid value 'r7' for 'type=': expected one of raid0, raid1"),
    (["/c0", "show", "alarn"], "unknown option 'alarn'; did you mean 'alarm'?"),
    (["/c0", "flushcahce"], "unknown word 'flushcahce'; did you mean 'flushcache'?"),
    (["/c0/bbu", "shwo"], "unknown word 'shwo'; did you mean 'show'?"),
    (["/c0", "show", "tiem"], "unknown option 'tiem'; did you mean 'time'?"),
    (["/c0/cv"], "incomplete command: after '/c0/cv' expected 'show', 'start'"),
]


def check_typos(template, work):
    """The failures of TYPOS' commands, as (words, why)."""
    failed = []
    for words, expected in TYPOS:
        run = raidcli(fresh(template, work), words + ["J"])
        try:
            text = description(run.stdout)[1]
        except (ValueError, KeyError, IndexError):
            text = run.stdout + run.stderr
        if expected not in text:
            failed.append((words, "expected %r, got %r" % (expected, text.strip())))
    return failed


def check_events_file(template, work):
    """show events file=: the events in the file, "Written to" on stdout; [why] if not."""
    path = os.path.join(fresh(template, work), "events.txt")
    run = raidcli(work, ["/c0", "show", "events", "file=" + path])
    try:
        with open(path, encoding="utf-8") as f:
            written = f.read()
    except OSError as e:
        return ["show events file=: %s" % e]
    if "Event Description = Controller created" not in written or "seqNum" in run.stdout \
            or "Written to '%s'." % path not in run.stdout:
        return ["show events file=: stdout %r, file %r" % (run.stdout, written[:200])]
    return []


def main():
    if not RAIDCLI:
        sys.exit("RAIDCLI must name the built raidcli binary")
    verbose = "-v" in sys.argv
    root = tempfile.mkdtemp(prefix="raidcli-forms-")
    try:
        template = os.path.join(root, "template")
        os.mkdir(template)
        for words in (["add", "controller", "type=soft", "drives=4", "size=16MB"],
                      ["/c0", "add", "vd", "r1", "drives=252:0-1"]):
            run = raidcli(template, words)
            if run.returncode:
                sys.exit("setup '%s' failed: %s" % (" ".join(words), run.stdout))
        failed = []
        all_forms = list(forms())
        for form, words in all_forms:
            why = answer(fresh(template, os.path.join(root, "work")), words)[0]
            if why:
                failed.append((form, words, why))
            if verbose:
                print("%-40s %s" % (form, why or "ok"))
        mock_failed = []
        for name in ("nvme", "megaraid", "redfish"):
            mock_failed += walk_mock(root, name, all_forms, verbose)
        for form, words, why in failed + mock_failed:
            print("FAIL %s (raidcli %s): %s" % (form, " ".join(words), why))
        typos = check_typos(template, os.path.join(root, "work"))
        typos += [([], why) for why in check_events_file(template, os.path.join(root, "work"))]
        for words, why in typos:
            print("FAIL raidcli %s: %s" % (" ".join(words), why))
        print("%d of %d StorCLI forms answer; %d do not" % (len(all_forms) - len(failed),
                                                           len(all_forms), len(failed)))
        print("on the three mock fixtures, %d of %d answer; %d do not" % (
            3 * len(all_forms) - len(mock_failed), 3 * len(all_forms), len(mock_failed)))
        sys.exit(1 if failed or mock_failed or typos else 0)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
