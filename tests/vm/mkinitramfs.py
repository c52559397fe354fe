#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""mkinitramfs.py - the initramfs archives that tests/vm/run-in-vm.sh boots.

  mkinitramfs.py base KVER OUT    busybox, mdadm, nvme-cli, sg3-utils' sg_inq
                                  and sg_readcap, lsscsi (those four when
                                  installed) and their libraries, the md,
                                  virtio, nvme and megaraid_sas modules of
                                  kernel KVER and tests/vm/init;
                                  rebuilt only when one of these inputs changed
  mkinitramfs.py bin OUT FILE...  each FILE (a program of the build, say
                                  raidcli) as /bin/NAME with the libraries ldd
                                  lists; rebuilt only when one of them changed
  mkinitramfs.py script FILE OUT  FILE as /test/script, to be appended to a base
  mkinitramfs.py kernel VMLINUZ OUT
                                  the ELF kernel that bzImage VMLINUZ holds,
                                  when it is xz or gzip compressed and has a
                                  PVH entry (QEMU boots it as it is); else no
                                  OUT. Rebuilt only when VMLINUZ changed

All are uncompressed newc cpio archives; the kernel unpacks archives
concatenated in one initrd in order, so a run only writes its small script
archive. Only Debian's packages are used: busybox-static, mdadm, nvme-cli,
sg3-utils, lsscsi and the modules of linux-image-amd64 found through
modules.dep. The modules' load
order (dependencies first) goes to /etc/modules-order for /init's insmod.
"""
import hashlib
import lzma
import os
import re
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BUSYBOX = '/bin/busybox'
MDADM = '/usr/sbin/mdadm'
NVME = '/usr/sbin/nvme'
# The guest's own view of SCSI disks (QEMU's MegaRAID card's), optional like
# nvme-cli: the tests that need them say so.
SCSI_TOOLS = ['/usr/bin/sg_inq', '/usr/bin/sg_readcap', '/usr/bin/lsscsi']
# What the tests need, by module name; modules.dep adds what these need.
# crc32c_generic first: libcrc32c (a dependency of raid456) asks the crypto
# API for crc32c when it loads, and no modprobe is there to load it on demand.
# nvme brings nvme-core; PCI hotplug (ACPI, for the pc machine's slots) is
# built into Debian's kernel. sd_mod's crc-t10dif asks for crct10dif as
# libcrc32c does for crc32c; megaraid_sas (QEMU's megasas-gen2) brings
# scsi_mod, sd_mod and sg give its disks block and SCSI generic devices.
MODULES = ['virtio_pci', 'virtio_blk', 'crc32c_generic', 'md-mod', 'raid0', 'raid1',
           'raid10', 'raid456', 'nvme', 'crct10dif_generic', 'sd_mod', 'sg',
           'megaraid_sas']


def module_order(kver):
    """Module files of MODULES and their dependencies, dependencies first."""
    root = f'/lib/modules/{kver}'
    deps = {}
    with open(f'{root}/modules.dep') as f:
        for line in f:
            path, _, rest = line.partition(':')
            deps[path] = rest.split()
    by_name = {}
    for path in deps:
        name = re.sub(r'\.ko(\.[a-z]+)?$', '', os.path.basename(path))
        by_name[name] = by_name[name.replace('-', '_')] = path
    order = []

    def visit(path):
        if path in order:
            return
        # modules.dep lists a module's dependencies last-loaded first
        for dep in reversed(deps[path]):
            visit(dep)
        order.append(path)

    for name in MODULES:
        if name not in by_name:
            sys.exit(f'mkinitramfs: kernel {kver} has no module {name} '
                     f'(is linux-image-{kver} installed?)')
        visit(by_name[name])
    return [(f'{root}/{p}', p) for p in order]


def shared_libraries(binary):
    """The libraries ldd reports for @binary, with the loader."""
    # ldd fails on a static binary (busybox-static): it needs none
    out = subprocess.run(['ldd', binary], capture_output=True, text=True).stdout
    return sorted(set(re.findall(r'(/\S+) \(0x', out)))


def with_libraries(programs):
    """(path in archive, file on host) for @programs, (path in archive, file
    on host) pairs, and every library they need, each once."""
    libs = set()
    for _, path in programs:
        libs |= set(shared_libraries(path))
    return programs + [(lib.lstrip('/'), lib) for lib in sorted(libs)]


def base_inputs(kver):
    """(path in archive, file on host) for every file of the base archive."""
    programs = [('bin/busybox', BUSYBOX), ('sbin/mdadm', MDADM)]
    # nvme-cli is optional: run-in-vm.sh asks for it only with NVMe devices
    if os.path.exists(NVME):
        programs.append(('sbin/nvme', NVME))
    programs += [(f'bin/{os.path.basename(p)}', p) for p in SCSI_TOOLS if os.path.exists(p)]
    files = with_libraries(programs) + [('init', os.path.join(HERE, 'init'))]
    files += [(f'lib/modules/{kver}/{rel}', path) for path, rel in module_order(kver)]
    return files


def bin_inputs(programs):
    """(path in archive, file on host) for the bin archive of @programs."""
    return with_libraries([(f'bin/{os.path.basename(p)}', os.path.abspath(p))
                           for p in programs])


class Cpio:
    """A newc archive written in one go: the format is small enough to write
    here, and doing so needs neither cpio nor root for device nodes."""

    def __init__(self, out):
        self.out, self.ino = out, 0

    def entry(self, name, mode, data=b''):
        self.ino += 1
        name_b = name.encode() + b'\0'
        fields = [self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
        hdr = b'070701' + b''.join(b'%08X' % v for v in fields)
        self.out.write(hdr + name_b + b'\0' * (-(len(hdr) + len(name_b)) % 4))
        self.out.write(data + b'\0' * (-len(data) % 4))

    def directory(self, name):
        self.entry(name, 0o40755)

    def file(self, name, data, mode=0o755):
        self.entry(name, 0o100000 | mode, data)

    def symlink(self, name, target):
        self.entry(name, 0o120777, target.encode())

    def close(self):
        self.entry('TRAILER!!!', 0)


def parents(paths):
    dirs = set()
    for p in paths:
        d = os.path.dirname(p)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    return sorted(dirs)


def busybox_applets(files):
    """busybox's applets but those @files hold (mdadm, nvme, ...)."""
    out = subprocess.run([BUSYBOX, '--list-full'], capture_output=True, text=True,
                         check=True).stdout
    ours = {name for name, _ in files}
    return [a for a in out.split() if a not in ours]


def write_archive(out, files, dirs=(), symlinks=(), extra=()):
    """@files ((path in archive, file on host)), @symlinks ((path, target))
    and @extra ((path, bytes)) with their parent folders and @dirs, written
    to @out at once (a reader never sees half an archive)."""
    tmp = out + '.tmp'
    with open(tmp, 'wb') as f:
        cpio = Cpio(f)
        names = [n for n, _ in files] + [n for n, _ in symlinks] + [n for n, _ in extra]
        for d in parents(names) + list(dirs):
            cpio.directory(d)
        for name, src in files:
            with open(src, 'rb') as s:
                cpio.file(name, s.read(), os.stat(src).st_mode & 0o777)
        for name, target in symlinks:
            cpio.symlink(name, target)
        for name, data in extra:
            cpio.file(name, data, 0o644)
        cpio.close()
    os.replace(tmp, out)


def write_base(kver, out):
    files = base_inputs(kver)
    order = '\n'.join(name for name, _ in files if name.startswith('lib/modules/')) + '\n'
    write_archive(out, files, dirs=['dev', 'proc', 'sys', 'run', 'tmp', 'test'],
                  symlinks=[(a, '/bin/busybox') for a in busybox_applets(files)],
                  extra=[('etc/modules-order', order.encode())])


def fingerprint(files):
    """What an archive of @files depends on: this builder, every input file's
    path, size, time and mode (the archive keeps the mode: an init that
    lost its x bit must not stay cached). The base's applet list is
    busybox's, so busybox's entry covers it."""
    h = hashlib.sha256()
    for name, src in files + [('builder', os.path.abspath(__file__))]:
        st = os.stat(src)
        h.update(f'{name} {src} {st.st_size} {st.st_mtime_ns} {st.st_mode:o}\n'.encode())
    return h.hexdigest()


def build_cached(out, files, write):
    """write() unless @out was written from the same @files."""
    stamp = out + '.inputs'
    want = fingerprint(files)
    try:
        with open(stamp) as f:
            if f.read() == want and os.path.exists(out):
                return
    except FileNotFoundError:
        pass
    write()
    with open(stamp, 'w') as f:
        f.write(want)


def build_script(script, out):
    with open(script, 'rb') as s, open(out, 'wb') as f:
        cpio = Cpio(f)
        cpio.file('test/script', s.read())
        cpio.close()


# A PVH entry's ELF note: name "Xen", an address of 4 or 8 bytes,
# XEN_ELFNOTE_PHYS32_ENTRY (18)
PVH_NOTE = re.compile(rb'\x04\0\0\0[\x04\x08]\0\0\0\x12\0\0\0Xen\0')


# The compressions of a bzImage's payload that Python reads: magic, unpacker
PAYLOADS = [(b'\xfd7zXZ\0', lambda data: lzma.LZMADecompressor().decompress(data)),
            (b'\x1f\x8b\x08',
             lambda data: zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data))]


def pvh_kernel(image):
    """The ELF kernel with a PVH entry in bzImage @image, or None."""
    for magic, unpack in PAYLOADS:
        at = image.find(magic)
        if at < 0:
            continue
        try:
            kernel = unpack(image[at:])
        except (lzma.LZMAError, zlib.error):
            continue
        if kernel.startswith(b'\x7fELF') and PVH_NOTE.search(kernel):
            return kernel
    return None


def write_pvh_kernel(vmlinuz, out):
    """The ELF kernel in bzImage @vmlinuz to @out, for QEMU's -kernel to
    boot at its PVH entry: under TCG a bzImage's own decompression of its
    xz payload takes 8 s of CPU before the kernel's first line. No @out
    when @vmlinuz has no such kernel: run-in-vm.sh boots the bzImage."""
    with open(vmlinuz, 'rb') as f:
        kernel = pvh_kernel(f.read())
    if kernel:
        with open(out + '.tmp', 'wb') as f:
            f.write(kernel)
        os.replace(out + '.tmp', out)
    elif os.path.exists(out):
        os.unlink(out)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'base':
        kver, out = sys.argv[2:]
        build_cached(out, base_inputs(kver), lambda: write_base(kver, out))
    elif len(sys.argv) >= 4 and sys.argv[1] == 'bin':
        out, files = sys.argv[2], bin_inputs(sys.argv[3:])
        build_cached(out, files, lambda: write_archive(out, files))
    elif len(sys.argv) == 4 and sys.argv[1] == 'kernel':
        vmlinuz, out = sys.argv[2:]
        build_cached(out, [('vmlinuz', vmlinuz)], lambda: write_pvh_kernel(vmlinuz, out))
    elif len(sys.argv) == 4 and sys.argv[1] == 'script':
        build_script(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__.strip().split('\n\n')[0])


if __name__ == '__main__':
    main()
