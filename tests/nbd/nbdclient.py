# SPDX-License-Identifier: MIT
"""nbdclient.py - a minimal raw-socket NBD client for the tests.

It exists for what no real client sends: bad magic, truncated and oversized
messages, requests out of range, disconnects mid-request. Everything a well
behaved client does is tested with real clients (nbdinfo, qemu-img, nbdcopy,
fio, nbdfuse). Written from the protocol spec (NetworkBlockDevice doc/proto.md).
"""
import socket
import struct

NBDMAGIC = 0x4E42444D41474943
IHAVEOPT = 0x49484156454F5054
OPT_REPLY_MAGIC = 0x3E889045565A9
REQUEST_MAGIC = 0x25609513
SIMPLE_REPLY_MAGIC = 0x67446698
STRUCTURED_REPLY_MAGIC = 0x668E33EF
REPLY_FLAG_DONE = 1
REPLY_TYPE_NONE, REPLY_TYPE_OFFSET_DATA, REPLY_TYPE_ERROR = 0, 1, 2**15 + 1

OPT_EXPORT_NAME, OPT_ABORT, OPT_LIST, OPT_STARTTLS = 1, 2, 3, 5
OPT_INFO, OPT_GO, OPT_STRUCTURED_REPLY = 6, 7, 8
REP_ACK, REP_SERVER, REP_INFO = 1, 2, 3
REP_ERR_UNSUP, REP_ERR_POLICY, REP_ERR_INVALID = 2**31 + 1, 2**31 + 2, 2**31 + 3
REP_ERR_UNKNOWN, REP_ERR_TOO_BIG = 2**31 + 6, 2**31 + 9
INFO_EXPORT, INFO_NAME, INFO_DESCRIPTION, INFO_BLOCK_SIZE = 0, 1, 2, 3

CMD_READ, CMD_WRITE, CMD_DISC, CMD_FLUSH, CMD_TRIM, CMD_WRITE_ZEROES = 0, 1, 2, 3, 4, 6
FLAG_FUA, FLAG_NO_HOLE = 1, 2
EPERM, EIO, EINVAL, ENOSPC = 1, 5, 22, 28
FLAG_READ_ONLY = 1 << 1


class Closed(Exception):
    """The server closed the connection."""


def connect(address, timeout=30):
    """A socket to "unix:PATH" or "HOST:PORT" (the server's address string)."""
    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        sock.connect(address[5:])
    else:
        host, port = address.rsplit(":", 1)
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    return sock


def closed_by_peer(sock, timeout=10):
    """True when the server closes @sock (reads reach EOF) within @timeout."""
    sock.settimeout(timeout)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


class Client:
    """One connection. Methods raise Closed when the server hangs up."""

    def __init__(self, address, hello=True):
        self.sock = connect(address)
        self.cookie = 0
        if hello:
            self.hello()

    def close(self):
        self.sock.close()

    def recv(self, n):
        buf = b""
        while len(buf) < n:
            part = self.sock.recv(n - len(buf))
            if not part:
                raise Closed()
            buf += part
        return buf

    def hello(self, client_flags=3):
        magic, opt_magic, flags = struct.unpack(">QQH", self.recv(18))
        assert (magic, opt_magic) == (NBDMAGIC, IHAVEOPT), "bad server greeting"
        assert flags == 3, f"handshake flags {flags:#x}: want FIXED_NEWSTYLE|NO_ZEROES"
        self.sock.sendall(struct.pack(">I", client_flags))

    def send_option(self, opt, data=b""):
        self.sock.sendall(struct.pack(">QII", IHAVEOPT, opt, len(data)) + data)

    def option_reply(self):
        magic, opt, rtype, length = struct.unpack(">QIII", self.recv(20))
        assert magic == OPT_REPLY_MAGIC, f"bad option reply magic {magic:#x}"
        return opt, rtype, self.recv(length)

    def go(self, name="", opt=OPT_GO):
        """INFO or GO for @name; returns {'reply': type, 'size', 'flags', 'blocks', ...}."""
        name = name.encode()
        self.send_option(opt, struct.pack(">I", len(name)) + name +
                         struct.pack(">HHHH", 3, INFO_NAME, INFO_DESCRIPTION, INFO_BLOCK_SIZE))
        info = {}
        while True:
            _, rtype, data = self.option_reply()
            if rtype != REP_INFO:
                info["reply"] = rtype
                break
            (kind,) = struct.unpack(">H", data[:2])
            if kind == INFO_EXPORT:
                info["size"], info["flags"] = struct.unpack(">QH", data[2:])
            elif kind == INFO_BLOCK_SIZE:
                info["blocks"] = struct.unpack(">III", data[2:])
            elif kind == INFO_NAME:
                info["name"] = data[2:].decode()
            elif kind == INFO_DESCRIPTION:
                info["description"] = data[2:].decode()
        if rtype == REP_ACK:
            self.export = info
        return info

    def send_request(self, cmd, offset, length, flags=0, data=b""):
        self.cookie += 1
        self.sock.sendall(struct.pack(">IHHQQI", REQUEST_MAGIC, flags, cmd, self.cookie,
                                      offset, length) + data)
        return self.cookie

    def reply(self, read_length=0):
        """(error, cookie, data): data follows only a successful read."""
        magic, error, cookie = struct.unpack(">IIQ", self.recv(16))
        assert magic == SIMPLE_REPLY_MAGIC, f"bad reply magic {magic:#x}"
        return error, cookie, (self.recv(read_length) if read_length and not error else b"")

    def chunk(self):
        """One structured reply chunk: (flags, type, cookie, payload)."""
        magic, flags, rtype, cookie, length = struct.unpack(">IHHQI", self.recv(20))
        assert magic == STRUCTURED_REPLY_MAGIC, f"bad structured reply magic {magic:#x}"
        return flags, rtype, cookie, self.recv(length)

    def request(self, cmd, offset, length, flags=0, data=b""):
        cookie = self.send_request(cmd, offset, length, flags, data)
        error, got, payload = self.reply(length if cmd == CMD_READ else 0)
        assert got == cookie, f"reply cookie {got} for request {cookie}"
        return error, payload

    def read(self, offset, length):
        return self.request(CMD_READ, offset, length)

    def write(self, offset, data, flags=0):
        return self.request(CMD_WRITE, offset, len(data), flags, data)[0]
