#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test-nbd.py FIXTURE CASE - the NBD server (server/) against real clients.

FIXTURE is nbd-file-export, a test program serving an image file through
the server. Each CASE is one meson test: it starts the fixture, drives it
with nbdinfo, qemu-img, qemu-io, nbdcopy, fio, nbdfuse or (for what no real
client does) the raw-socket client in nbdclient.py, then stops the fixture
with SIGTERM and requires a clean exit (under ASan this includes no leaks).
"""
import json
import os
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time

import nbdclient as nbd

FIXTURE = sys.argv[1]
MiB = 1 << 20
SKIP = 77


class Fixture:
    """nbd-file-export serving @image; .address is what it bound."""

    def __init__(self, image, *args, umask=None):
        def set_umask():
            if umask is not None:
                os.umask(umask)

        self.proc = subprocess.Popen([FIXTURE, *args, image], stdout=subprocess.PIPE,
                                     preexec_fn=set_umask, text=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            self.proc.wait(timeout=10)
            raise AssertionError(f"fixture failed to start: exit {self.proc.returncode}")

    @property
    def uri(self):
        if self.address.startswith("unix:"):
            return f"nbd+unix:///?socket={self.address[5:]}"
        return f"nbd://{self.address}/"

    def alive(self):
        return self.proc.poll() is None

    def stop(self, timeout=30):
        """SIGTERM, then require exit status 0 within @timeout seconds."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=timeout)
        assert rc == 0, f"fixture exited with status {rc}"

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.stop()
        else:
            self.proc.kill()
            self.proc.wait()


# The real clients, and the Debian packages that carry them (scripts/setup).
PACKAGES = {"nbdinfo": "libnbd-bin", "nbdcopy": "libnbd-bin", "qemu-img": "qemu-utils",
            "qemu-io": "qemu-utils", "qemu-nbd": "qemu-utils", "fio": "fio"}


def run(*cmd, check=True, **kw):
    if cmd[0] in PACKAGES and not shutil.which(cmd[0]):
        raise AssertionError(f"{cmd[0]} is missing: install the Debian package "
                             f"{PACKAGES[cmd[0]]}")
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    if check and res.returncode:
        raise AssertionError(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stdout}{res.stderr}")
    return res


def random_image(path, size):
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def zero_image(path, size):
    with open(path, "wb") as f:
        f.truncate(size)


def same_file(a, b):
    return run("cmp", a, b, check=False).returncode == 0


def nbdinfo(uri, *args):
    return json.loads(run("nbdinfo", "--json", *args, uri).stdout)


def expect(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what)


# ---- cases ----

def case_info(tmp):
    image = f"{tmp}/img"
    zero_image(image, 64 * MiB)
    sock = f"{tmp}/s"
    with Fixture(image, "--socket", sock, "--name", "vol0", "--description", "RAID-5 volume",
                 "--blocks", "512:262144:4194304") as fx:
        j = nbdinfo(f"nbd+unix:///vol0?socket={sock}")
        expect(j["structured"] is True, "nbdinfo: structured replies negotiated")
        e = j["exports"][0]
        expect(e["export-size"] == 64 * MiB, "nbdinfo: export-size is the image size")
        expect((e["block_size_minimum"], e["block_size_preferred"], e["block_size_maximum"]) ==
               (512, 262144, 4194304), "nbdinfo: block sizes as exported (preferred: a stripe)")
        for flag in ("can_flush", "can_fua", "can_trim", "can_zero", "can_multi_conn"):
            expect(e[flag] is True, f"nbdinfo: {flag}")
        expect(e["is_read_only"] is False, "nbdinfo: writable")
        expect(e["description"] == "RAID-5 volume", "nbdinfo: description")
        e = nbdinfo(f"nbd+unix:///?socket={sock}")["exports"][0]
        expect(e["export-name"] == "vol0", "the empty name selects the export, named vol0")
        res = run("nbdinfo", f"nbd+unix:///nosuch?socket={sock}", check=False)
        expect(res.returncode != 0, "nbdinfo: an unknown export name fails")
        c = nbd.Client(fx.address)
        expect(c.go("nosuch", nbd.OPT_INFO)["reply"] == nbd.REP_ERR_UNKNOWN,
               "INFO for an unknown name: NBD_REP_ERR_UNKNOWN")
        c.send_option(nbd.OPT_STARTTLS)
        expect(c.option_reply()[1] == nbd.REP_ERR_POLICY, "STARTTLS: NBD_REP_ERR_POLICY")
        c.send_option(nbd.OPT_STRUCTURED_REPLY, b"x")
        expect(c.option_reply()[1] == nbd.REP_ERR_INVALID, "STRUCTURED_REPLY with data: INVALID")
        c.send_option(9, struct.pack(">I", 0) + struct.pack(">I", 0))
        expect(c.option_reply()[1] == nbd.REP_ERR_UNSUP, "LIST_META_CONTEXT: UNSUP")
        c.send_option(4242, b"x" * 100)
        expect(c.option_reply()[1] == nbd.REP_ERR_UNSUP, "unknown option: NBD_REP_ERR_UNSUP")
        info = c.go("vol0")
        expect(info["reply"] == nbd.REP_ACK and info["name"] == "vol0" and
               info["blocks"] == (512, 262144, 4194304), "GO after refused options succeeds")
        c.send_request(nbd.CMD_DISC, 0, 0)
        expect(nbd.closed_by_peer(c.sock), "NBD_CMD_DISC: the server closes the connection")
    with Fixture(image, "--socket", sock, "--no-trim", "--no-zero",
                 "--blocks", "4096:196608:0") as fx:
        e = nbdinfo(fx.uri)["exports"][0]
        expect(not e["can_trim"] and not e["can_zero"], "no trim/zero operation: not advertised")
        expect((e["block_size_minimum"], e["block_size_preferred"], e["block_size_maximum"]) ==
               (4096, 131072, 32 * MiB), "a 192 KiB stripe is advertised as 128 KiB "
               "(a power of two), no maximum as 32 MiB")


def case_list(tmp):
    image = f"{tmp}/img"
    zero_image(image, MiB)
    with Fixture(image, "--socket", f"{tmp}/s", "--name", "vd3",
                 "--description", "RAID-5 volume") as fx:
        exports = nbdinfo(fx.uri, "--list")["exports"]
        expect([(e["export-name"], e["description"]) for e in exports] ==
               [("vd3", "RAID-5 volume")], "nbdinfo --list: the one export, described")
        out = run("qemu-nbd", "--list", "-k", fx.address[5:]).stdout
        expect("export: 'vd3'" in out and "description: RAID-5 volume" in out and
               "min block: 1\n" in out and "opt block: 4096\n" in out and
               "max block: 33554432\n" in out,
               f"qemu-nbd --list: name, description, the spec's default block sizes\n{out}")
        c = nbd.Client(fx.address)
        c.send_option(nbd.OPT_LIST, b"junk")
        expect(c.option_reply()[1] == nbd.REP_ERR_INVALID, "LIST with data: ERR_INVALID")
        c.send_option(nbd.OPT_ABORT)
        expect(c.option_reply()[1] == nbd.REP_ACK and nbd.closed_by_peer(c.sock),
               "ABORT: acknowledged, then closed")
        for client_flags, pad in ((1, 124), (3, 0)):
            c = nbd.Client(fx.address, hello=False)
            c.hello(client_flags)
            c.send_option(nbd.OPT_EXPORT_NAME, b"vd3")
            size, flags = struct.unpack(">QH", c.recv(10))
            expect(size == MiB and c.recv(pad) == bytes(pad) and
                   c.read(0, 512) == (0, bytes(512)),
                   f"EXPORT_NAME, client flags {client_flags}: size, {pad} zero bytes, "
                   "then transmission")


def case_qemu_img(tmp):
    src, image, back = f"{tmp}/src", f"{tmp}/img", f"{tmp}/back"
    random_image(src, 64 * MiB)
    zero_image(image, 64 * MiB)
    with Fixture(image, "--socket", f"{tmp}/s", "--blocks", "512:65536:33554432") as fx:
        run("qemu-img", "convert", "-n", "-f", "raw", "-O", "raw", src, fx.uri)
        res = run("qemu-img", "compare", "-f", "raw", "-F", "raw", src, fx.uri)
        expect("identical" in res.stdout, "qemu-img compare: the export holds the source")
        run("qemu-img", "convert", "-f", "raw", "-O", "raw", fx.uri, back)
        expect(same_file(src, back), "qemu-img convert back out: identical")
        run("qemu-io", "-f", "raw", "-c", "write -z 1M 3M", "-c", "flush", fx.uri)
    with open(src, "r+b") as f:
        f.seek(MiB)
        f.write(bytes(3 * MiB))
    expect(same_file(src, image), "the image file holds the writes and the zeroed range")


def case_nbdcopy(tmp):
    src, image, back = f"{tmp}/src", f"{tmp}/img", f"{tmp}/back"
    random_image(src, 64 * MiB)
    zero_image(image, 64 * MiB)
    with Fixture(image, "--socket", f"{tmp}/s", "--threads", "4") as fx:
        run("nbdcopy", "--connections=4", "--requests=16", "--flush", src, fx.uri)
        expect(same_file(src, image), "nbdcopy file -> nbd, 4 connections: identical")
        run("nbdcopy", "--connections=4", "--requests=16", fx.uri, back)
        expect(same_file(src, back), "nbdcopy nbd -> file, 4 connections: identical")
        run("nbdcopy", "--connections=4", fx.uri, "null:")


def fio_run(uri, *args):
    out = run("fio", "--name=nbd", "--ioengine=nbd", f"--uri={uri}", "--rw=randwrite",
              "--bs=4k", "--size=32m", "--iodepth=16", "--verify=crc32c", "--verify_fatal=1",
              "--randseed=4242", "--output-format=json", *args).stdout
    return json.loads(out[out.index("{"):])["jobs"][0]


def case_fio(tmp):
    image = f"{tmp}/img"
    zero_image(image, 32 * MiB)
    with Fixture(image, "--socket", f"{tmp}/s") as fx:
        job = fio_run(fx.uri, "--do_verify=1")
        expect(job["error"] == 0 and job["write"]["io_bytes"] == 32 * MiB and
               job["read"]["io_bytes"] == 32 * MiB, "fio: random writes, verified with crc32c")
    with Fixture(image, "--socket", f"{tmp}/s") as fx:
        job = fio_run(fx.uri, "--verify_only=1")
        expect(job["error"] == 0 and job["read"]["io_bytes"] == 32 * MiB,
               "fio: verify-only pass through a new server reads back every block")


def fuse_usable():
    if not shutil.which("nbdfuse") or not shutil.which("fusermount3"):
        return "nbdfuse or fusermount3 not installed"
    try:
        os.close(os.open("/dev/fuse", os.O_RDWR))
    except OSError as e:
        return f"/dev/fuse unusable: {e.strerror}"
    return None


def case_nbdfuse(tmp):
    reason = fuse_usable()
    if reason:
        print("SKIP:", reason)
        sys.exit(SKIP)
    image, mnt = f"{tmp}/img", f"{tmp}/mnt"
    random_image(image, 8 * MiB)
    os.mkdir(mnt)
    with open(image, "rb") as f:
        original = f.read()
    with Fixture(image, "--socket", f"{tmp}/s") as fx:
        fuse = subprocess.Popen(["nbdfuse", mnt, fx.uri], stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(100):
                if os.path.ismount(mnt) or fuse.poll() is not None:
                    break
                time.sleep(0.1)
            if not os.path.ismount(mnt):
                print("SKIP: nbdfuse cannot mount here:", fuse.stderr.read() if fuse.poll() is not None else "timeout")
                sys.exit(SKIP)
            with open(f"{mnt}/nbd", "r+b") as f:
                expect(f.read() == original, "nbdfuse: the file reads as the image")
                f.seek(MiB)
                f.write(b"\xa5" * 65536)
                f.flush()
                os.fsync(f.fileno())
        finally:
            run("fusermount3", "-u", mnt, check=False)
            fuse.wait(timeout=30)
    with open(image, "rb") as f:
        data = f.read()
    expect(data == original[:MiB] + b"\xa5" * 65536 + original[MiB + 65536:],
           "nbdfuse: a write through the mount reaches the image")


def case_read_only(tmp):
    src, image = f"{tmp}/src", f"{tmp}/img"
    random_image(image, 4 * MiB)
    shutil.copy(image, src)
    with Fixture(image, "--socket", f"{tmp}/s", "--read-only") as fx:
        e = nbdinfo(fx.uri)["exports"][0]
        expect(e["is_read_only"] and not e["can_trim"] and not e["can_zero"],
               "nbdinfo: read-only, no trim or zero")
        res = run("nbdcopy", src, fx.uri, check=False)
        expect(res.returncode != 0, "nbdcopy into the read-only export fails")
        c = nbd.Client(fx.address)
        info = c.go()
        expect(info["flags"] & nbd.FLAG_READ_ONLY, "INFO_EXPORT carries READ_ONLY")
        expect(c.write(0, b"x" * 4096) == nbd.EPERM, "WRITE on a read-only export: EPERM")
        expect(c.request(nbd.CMD_TRIM, 0, 4096)[0] == nbd.EPERM, "TRIM: EPERM")
        expect(c.request(nbd.CMD_WRITE_ZEROES, 0, 4096)[0] == nbd.EPERM, "WRITE_ZEROES: EPERM")
        err, data = c.read(0, 4096)
        expect(err == 0 and len(data) == 4096, "reads still work on that connection")
    expect(same_file(src, image), "the image is unchanged")


def case_bounds(tmp):
    image = f"{tmp}/img"
    random_image(image, MiB)
    with Fixture(image, "--socket", f"{tmp}/s", "--blocks", "512:4096:65536") as fx:
        c = nbd.Client(fx.address)
        c.go()
        end = MiB
        checks = [
            ("READ past the end", (nbd.CMD_READ, end - 512, 1024), nbd.EINVAL),
            ("READ at an offset that wraps", (nbd.CMD_READ, 2**64 - 512, 1024), nbd.EINVAL),
            ("WRITE past the end", (nbd.CMD_WRITE, end, 512, 0, b"y" * 512), nbd.ENOSPC),
            ("WRITE_ZEROES past the end", (nbd.CMD_WRITE_ZEROES, end - 512, 4096), nbd.ENOSPC),
            ("TRIM past the end", (nbd.CMD_TRIM, end, 512), nbd.EINVAL),
            ("unaligned READ offset", (nbd.CMD_READ, 100, 512), nbd.EINVAL),
            ("unaligned WRITE length", (nbd.CMD_WRITE, 0, 100, 0, b"z" * 100), nbd.EINVAL),
            ("READ above the maximum payload", (nbd.CMD_READ, 0, 131072), nbd.EINVAL),
            ("WRITE above the maximum payload",
             (nbd.CMD_WRITE, 0, 131072, 0, b"w" * 131072), nbd.EINVAL),
            ("unknown command", (99, 0, 512), nbd.EINVAL),
            ("unknown command flag", (nbd.CMD_READ, 0, 512, 0x40), nbd.EINVAL),
            ("NO_HOLE on a write", (nbd.CMD_WRITE, 0, 512, nbd.FLAG_NO_HOLE, b"q" * 512),
             nbd.EINVAL),
        ]
        for what, args, want in checks:
            err, _ = c.request(*args)
            expect(err == want, f"{what}: error {want} (got {err})")
        with open(image, "rb") as f:
            original = f.read()
        expect(c.read(0, 4096) == (0, original[:4096]), "the connection survives the errors")
        expect(c.read(0, 0) == (0, b""), "zero-length READ succeeds")
        expect(c.write(end - 4096, b"\x5a" * 4096, nbd.FLAG_FUA) == 0, "FUA WRITE at the end")
        expect(c.request(nbd.CMD_WRITE_ZEROES, 8192, 8192, nbd.FLAG_NO_HOLE)[0] == 0,
               "WRITE_ZEROES with NO_HOLE")
        expect(c.request(nbd.CMD_WRITE_ZEROES, 65536, 131072, nbd.FLAG_FUA)[0] == 0,
               "WRITE_ZEROES longer than the maximum payload")
        expect(c.request(nbd.CMD_TRIM, 262144, 4096)[0] == 0, "TRIM")
        expect(c.request(nbd.CMD_FLUSH, 0, 0)[0] == 0, "FLUSH")
        expect(c.read(8192, 8192) == (0, bytes(8192)), "zeroed range reads back as zeros")
        # Pipelined: many requests before any reply; every cookie answered once.
        cookies = {c.send_request(nbd.CMD_READ, i * 4096, 4096) for i in range(64)}
        got = set()
        for _ in range(64):
            err, cookie, data = c.reply(4096)
            assert err == 0 and cookie in cookies and cookie not in got
            got.add(cookie)
        expect(got == cookies, "64 pipelined READs: one reply each")
        structured_reads(fx.address, original)
    with open(image, "rb") as f:
        data = f.read()
    expect(data[end - 4096:] == b"\x5a" * 4096 and data[8192:16384] == bytes(8192) and
           data[65536:196608] == bytes(131072), "the image holds the writes and zeroes")


def structured_reads(address, original):
    """READ replies once structured replies are negotiated: one chunk each."""
    c = nbd.Client(address)
    c.send_option(nbd.OPT_STRUCTURED_REPLY)
    expect(c.option_reply()[1] == nbd.REP_ACK, "STRUCTURED_REPLY: ACK")
    c.go()
    cookie = c.send_request(nbd.CMD_READ, 4096, 4096)
    flags, rtype, got, payload = c.chunk()
    expect((flags, rtype, got) == (nbd.REPLY_FLAG_DONE, nbd.REPLY_TYPE_OFFSET_DATA, cookie) and
           payload == struct.pack(">Q", 4096) + original[4096:8192],
           "structured READ: one OFFSET_DATA chunk, DONE, offset then data")
    cookie = c.send_request(nbd.CMD_READ, MiB, 4096)
    flags, rtype, got, payload = c.chunk()
    expect((flags, rtype, got) == (nbd.REPLY_FLAG_DONE, nbd.REPLY_TYPE_ERROR, cookie) and
           struct.unpack(">IH", payload[:6]) == (nbd.EINVAL, 0),
           "structured READ past the end: an ERROR chunk with EINVAL")
    cookie = c.send_request(nbd.CMD_READ, 0, 0)
    expect(c.chunk() == (nbd.REPLY_FLAG_DONE, nbd.REPLY_TYPE_NONE, cookie, b""),
           "structured zero-length READ: a NONE chunk")
    expect(c.request(nbd.CMD_FLUSH, 0, 0)[0] == 0, "other commands keep simple replies")
    c.close()


def hostile_attempts(address):
    """(what, action) pairs; each action runs on a fresh connection of its own."""

    def client_flags_garbage(c):
        c.hello(client_flags=0xFFFFFFFF)
        return nbd.closed_by_peer(c.sock)

    def option_magic_garbage(c):
        c.hello()
        c.sock.sendall(b"GARBAGE!" * 4)
        return nbd.closed_by_peer(c.sock)

    def truncated_option(c):
        c.hello()
        c.sock.sendall(struct.pack(">QI", nbd.IHAVEOPT, nbd.OPT_GO) + b"\x00")
        c.sock.shutdown(socket.SHUT_WR)
        return nbd.closed_by_peer(c.sock)

    def absurd_option_length(c):
        c.hello()
        c.sock.sendall(struct.pack(">QII", nbd.IHAVEOPT, nbd.OPT_GO, 0xFFFFFFFF))
        return nbd.closed_by_peer(c.sock)

    def long_option_refused(c):
        c.hello()
        c.send_option(nbd.OPT_INFO, b"\x00" * 100000)
        ok = c.option_reply()[1] == nbd.REP_ERR_TOO_BIG
        return ok and c.go()["reply"] == nbd.REP_ACK

    def malformed_info(c):
        c.hello()
        c.send_option(nbd.OPT_INFO, struct.pack(">I", 1000) + b"ab" + b"\x00\x00")
        return c.option_reply()[1] == nbd.REP_ERR_INVALID and c.go()["reply"] == nbd.REP_ACK

    def option_flood(c):
        c.hello()
        for _ in range(300):
            try:
                c.send_option(4242)
            except OSError:
                break
        replies = 0
        try:
            while True:
                c.option_reply()
                replies += 1
        except (nbd.Closed, ConnectionResetError):
            pass
        return 0 < replies < 300

    def unknown_export_name(c):
        c.hello()
        c.send_option(nbd.OPT_EXPORT_NAME, b"nosuch")
        return nbd.closed_by_peer(c.sock)

    def request_magic_garbage(c):
        c.hello()
        c.go()
        c.sock.sendall(b"\x00" * 28)
        return nbd.closed_by_peer(c.sock)

    def huge_write(c):
        c.hello()
        c.go()
        c.send_request(nbd.CMD_WRITE, 0, 0xFFFFFFFF)
        try:
            c.sock.sendall(b"\x00" * 65536)
        except OSError:
            pass  # already cut
        return nbd.closed_by_peer(c.sock)

    def disconnect_mid_write(c):
        c.hello()
        c.go()
        c.send_request(nbd.CMD_WRITE, 0, MiB)
        c.sock.sendall(b"\xee" * 1000)
        return True

    def truncated_request(c):
        c.hello()
        c.go()
        c.sock.sendall(struct.pack(">IHH", nbd.REQUEST_MAGIC, 0, nbd.CMD_READ))
        return True

    def reads_never_collected(c):
        c.hello()
        c.go()
        for i in range(64):
            c.send_request(nbd.CMD_READ, 0, MiB)
        return True

    def hang_up_at_once(c):
        return True

    return [
        ("garbage client flags: closed", client_flags_garbage),
        ("garbage option magic: closed", option_magic_garbage),
        ("truncated option: closed", truncated_option),
        ("option length 4 GiB: closed", absurd_option_length),
        ("100 KB option: TOO_BIG, then GO works", long_option_refused),
        ("name length beyond the option: INVALID, then GO works", malformed_info),
        ("flood of 300 options: cut after a bounded number", option_flood),
        ("EXPORT_NAME of an unknown export: closed", unknown_export_name),
        ("garbage request magic: closed", request_magic_garbage),
        ("4 GiB WRITE: closed", huge_write),
        ("disconnect in the middle of a WRITE payload", disconnect_mid_write),
        ("disconnect in the middle of a request header", truncated_request),
        ("64 large READs, then gone without reading replies", reads_never_collected),
        ("connect and hang up", hang_up_at_once),
    ]


def stalled_client_does_not_stall_others(address, good, original):
    """A client that stops reading holds its own connection's threads, no other's."""
    stalled = nbd.Client(address)
    stalled.go()
    for i in range(16):
        stalled.send_request(nbd.CMD_READ, (i % 4) * MiB, MiB)
    # Served well before the server's 30 s send timeout would cut the stalled one.
    good.sock.settimeout(20)
    for i in range(32):
        assert good.read(i * 4096, 4096) == (0, original[i * 4096:(i + 1) * 4096])
    print("ok: 32 READs on another connection while a client leaves 16 MiB unread")
    replies = collect_replies_n(stalled, MiB, 16)
    expect(replies == 16, "the stalled client, reading again, gets all 16 replies")
    stalled.close()


def collect_replies_n(client, length, n):
    got = 0
    for _ in range(n):
        err, _, data = client.reply(length)
        got += err == 0 and len(data) == length
    return got


def case_hostile(tmp):
    image = f"{tmp}/img"
    random_image(image, 4 * MiB)
    with open(image, "rb") as f:
        original = f.read()
    with Fixture(image, "--socket", f"{tmp}/s", "--threads", "2") as fx:
        good = nbd.Client(fx.address)
        good.go()
        for what, attempt in hostile_attempts(fx.address):
            c = nbd.Client(fx.address, hello=False)
            try:
                expect(attempt(c), what)
            finally:
                c.close()
            expect(fx.alive(), "  the server is running")
            expect(good.read(0, 65536) == (0, original[:65536]),
                   "  a connection opened before keeps working")
        stalled_client_does_not_stall_others(fx.address, good, original)
        crowd = []
        for _ in range(100):
            crowd.append(nbd.connect(fx.address))
        for s in crowd:
            s.close()
        time.sleep(0.5)
        e = nbdinfo(fx.uri)["exports"][0]
        expect(e["export-size"] == 4 * MiB, "after 100 idle connections came and went, "
               "new clients are served")
        expect(good.read(MiB, 4096) == (0, original[MiB:MiB + 4096]), "and the old one too")
        good.close()


def case_tcp(tmp):
    src, image = f"{tmp}/src", f"{tmp}/img"
    random_image(src, 16 * MiB)
    zero_image(image, 16 * MiB)
    with Fixture(image, "--tcp", ":0") as fx:
        host, port = fx.address.rsplit(":", 1)
        expect(host == "127.0.0.1" and int(port) > 0,
               f"TCP with no host binds 127.0.0.1 on a real port ({fx.address})")
        run("qemu-img", "convert", "-n", "-f", "raw", "-O", "raw", src, fx.uri)
        res = run("qemu-img", "compare", "-f", "raw", "-F", "raw", src, fx.uri)
        expect("identical" in res.stdout, "qemu-img over nbd://127.0.0.1: identical")
        e = nbdinfo(fx.uri)["exports"][0]
        expect(e["can_multi_conn"], "nbdinfo over TCP")
        run("nbdcopy", "--connections=4", fx.uri, f"{tmp}/back")
        expect(same_file(src, f"{tmp}/back"), "nbdcopy over TCP, 4 connections")
    res = subprocess.run([FIXTURE, "--tcp", "256.1.1.1:0", image], capture_output=True,
                         text=True, timeout=30)
    expect(res.returncode == 1 and "256.1.1.1" in res.stderr,
           f"an address that cannot be bound is named: {res.stderr.strip()}")


def case_socket_file(tmp):
    image, sock = f"{tmp}/img", f"{tmp}/s"
    zero_image(image, MiB)
    with Fixture(image, "--socket", sock, umask=0) as fx:
        mode = stat.S_IMODE(os.stat(sock).st_mode)
        expect(mode == 0o600, f"socket mode {mode:o} under umask 0 is 0600")
        res = subprocess.run([FIXTURE, "--socket", sock, image], capture_output=True,
                             text=True, timeout=30)
        expect(res.returncode == 1 and sock in res.stderr,
               "a second server on a live socket fails, naming it")
        expect(nbdinfo(fx.uri)["exports"][0]["export-size"] == MiB, "the first still serves")
    expect(not os.path.exists(sock), "stop removes the socket file")
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(sock)
    stale.close()
    with Fixture(image, "--socket", sock) as fx:
        expect(nbdinfo(fx.uri)["exports"][0]["export-size"] == MiB, "a stale socket is replaced")
    with open(sock, "w") as f:
        f.write("not a socket")
    res = subprocess.run([FIXTURE, "--socket", sock, image], capture_output=True, text=True,
                         timeout=30)
    with open(sock) as f:
        kept = f.read() == "not a socket"
    expect(res.returncode == 1 and kept, "a regular file in the way is an error, and kept")


def collect_replies(client, length):
    """Read whole READ replies until the server closes; return how many came."""
    answered = 0
    try:
        while True:
            err, _, data = client.reply(length)
            assert err == 0 and len(data) == length, "a broken reply before the end"
            answered += 1
    except (nbd.Closed, ConnectionResetError):
        return answered


def case_stop(tmp):
    src, image = f"{tmp}/src", f"{tmp}/img"
    random_image(src, 64 * MiB)
    zero_image(image, 64 * MiB)
    fx = Fixture(image, "--socket", f"{tmp}/s", "--threads", "2")
    try:
        in_handshake = nbd.Client(fx.address)
        idle = nbd.Client(fx.address)
        idle.go()
        busy = nbd.Client(fx.address)
        busy.go()
        # A client that stops reading: stop must not wait on it for ever.
        stalled = nbd.Client(fx.address)
        stalled.go()
        for i in range(16):
            busy.send_request(nbd.CMD_READ, i * 4096, 4096)
            stalled.send_request(nbd.CMD_READ, i * MiB, MiB)
        copy = subprocess.Popen(["nbdcopy", "--connections=4", src, fx.uri],
                                stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        fx.stop(timeout=60)
        print("stopped with 8 clients connected, 2 of them mid-request")
        for what, c in [("mid-handshake", in_handshake), ("idle", idle)]:
            expect(nbd.closed_by_peer(c.sock, timeout=5), f"the {what} client sees the end")
        answered = collect_replies(busy, 4096)
        print(f"the busy client got {answered} whole replies, then the end")
        copy.wait(timeout=60)
        expect(not os.path.exists(f"{tmp}/s"), "the socket file is gone")
    finally:
        if fx.alive():
            fx.proc.kill()


CASES = {
    "info": case_info, "list": case_list, "qemu-img": case_qemu_img, "nbdcopy": case_nbdcopy,
    "fio": case_fio, "nbdfuse": case_nbdfuse, "read-only": case_read_only,
    "bounds": case_bounds, "hostile": case_hostile, "tcp": case_tcp,
    "socket-file": case_socket_file, "stop": case_stop,
}


def main():
    case = CASES[sys.argv[2]]
    with tempfile.TemporaryDirectory(prefix="nbd-test-") as tmp:
        case(tmp)


if __name__ == "__main__":
    main()
