# SPDX-License-Identifier: MIT
"""oracle.py - what the format tests share: asking the tools that define
the on-disk formats (sfdisk, mdadm) about sparse drive images, and
collecting failures so that one run reports them all.

The tests import it from their own folder (Python puts a script's folder
first on sys.path).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

SBIN = ':/usr/sbin:/sbin'

failures = []


def check(cond, what):
    """Record @what as a failure unless @cond; the run goes on."""
    if not cond:
        failures.append(what)


def finish():
    """Print the failures; the test's exit status."""
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


def have_tools(*tools):
    """Whether every tool is installed (saying which is not), then put
    /usr/sbin and /sbin on PATH, where they live."""
    for tool in tools:
        if not shutil.which(tool, path=os.environ.get('PATH', '') + SBIN):
            print(f'SKIP: {tool} not installed (scripts/setup installs it)')
            return False
    os.environ['PATH'] += SBIN
    return True


def scratch(prefix):
    """A temporary directory in the build tree, not a tmpfs $TMPDIR: mdadm
    opens with O_DIRECT, which tmpfs refuses."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=os.environ.get('BUILD_ROOT'))


def run(*argv, stdin=None):
    """(exit status, stdout, stderr) of @argv."""
    p = subprocess.run(argv, capture_output=True, text=True, input=stdin)
    return p.returncode, p.stdout, p.stderr


def fields(text):
    """'   Key : value' lines of mdadm's output as a dict."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'\s*([A-Za-z][A-Za-z .\']*?)\s+:\s?(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def copy_sparse(src, dst, offset, length):
    """dd conv=sparse: the images are mostly holes, keep the copies so."""
    with open(src, 'rb') as f, open(dst, 'wb') as g:
        f.seek(offset)
        left = length
        while left:
            block = f.read(min(left, 1 << 20))
            if block.count(0) != len(block):
                g.seek(length - left)
                g.write(block)
            left -= len(block)
        g.truncate(length)


def partition_table(image):
    """sfdisk --json's partition table of @image, or None when it has none."""
    rc, out, _ = run('sfdisk', '--json', image)
    return None if rc else json.loads(out)['partitiontable']


def copy_partition(image, dst, start, sectors, sector_size=512):
    """Copy the partition of @sectors at @start out of @image to @dst."""
    copy_sparse(image, dst, start * sector_size, sectors * sector_size)


def examine(path, tag):
    """mdadm --examine @path: (its fields, its stderr); failing is a failure."""
    rc, out, err = run('mdadm', '--examine', path)
    check(rc == 0, f'{tag}: mdadm --examine failed: {err}')
    return fields(out), err


def examine_bitmap(part, offset, workdir):
    """mdadm --examine-bitmap of the bitmap at byte @offset of the member
    partition @part: (exit status, fields, stderr). mdadm -X finds an
    internal bitmap only on block devices; on a file it reads a bitmap
    file, so it gets the bitmap region itself."""
    bitmap = os.path.join(workdir, 'bitmap')
    copy_sparse(part, bitmap, offset, 4096)
    rc, out, err = run('mdadm', '--examine-bitmap', bitmap)
    return rc, fields(out), err


def expect_fields(f, want, tag):
    """Every field in @want is in @f, as it is or followed by ' (...)'."""
    for key, value in want.items():
        got = f.get(key, '<missing>')
        check(got == value or got.startswith(value + ' ('),
              f'{tag}: {key}: mdadm says {got!r}, expected {value!r}')
