#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""vmhost.py QMP CHANNEL QEMU-COMMAND... - run QEMU and serve the guest's
requests for QEMU monitor commands (tests/vm/run-in-vm.sh starts QEMU so).

QMP and CHANNEL are unix socket paths this listens on before it starts
QEMU; the command must connect to both (QEMU as the client: no race with a
server that is not up yet): QMP as a QMP monitor, CHANNEL as the guest's
third serial port. Each line the guest writes there is a request

    COMMAND [ARGUMENTS]      a QMP command and its arguments as one JSON
                             object, e.g. device_del {"id": "n1"}

answered with one line: "ok RETURN" (QMP's return value as JSON) or
"error CLASS: DESCRIPTION". A device_del is answered once QEMU reports the
device gone (its DEVICE_DELETED event: the guest has released it), so the
guest knows the device has left when the answer comes. One request is this
helper's own:

    replug {"id": ID}        device_add NVMe controller ID (after a
                             device_del) again as the command line had it

QEMU 7.2 cannot hot-plug namespaces (nvme-ns: "Bus does not support
hotplugging"), so a controller of a subsystem comes back with the
subsystem's shared namespaces, and a lone controller with its first
namespace only, through its legacy drive property (nsid 1). Exits with
QEMU's status; each request and answer is logged on stderr.
"""
import json
import os
import selectors
import socket
import subprocess
import sys
import time

# Longest wait for a QMP answer or for a device_del's guest to let go. Under
# TCG an ACPI eject takes about a second.
WAIT_S = 120


def listen(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(1)
    return sock


class Lines:
    """A socket read a line at a time."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b''

    def pending(self):
        """The next complete line, or None."""
        line, sep, rest = self.buf.partition(b'\n')
        if not sep:
            return None
        self.buf = rest
        return line.decode(errors='replace').strip('\r')

    def fill(self):
        """Read what the socket has; False at its end."""
        data = self.sock.recv(65536)
        self.buf += data
        return bool(data)


class Monitor:
    """A QMP connection: commands, and the events that come between."""

    def __init__(self, sock):
        self.lines, self.events = Lines(sock), []
        self.message()  # the greeting
        self.execute('qmp_capabilities', {})

    def message(self, deadline=None):
        """The next message QEMU sends (None past @deadline)."""
        while True:
            line = self.lines.pending()
            if line is not None:
                return json.loads(line)
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            self.lines.sock.settimeout(left)
            try:
                if not self.lines.fill():
                    raise EOFError('QEMU closed its monitor')
            except socket.timeout:
                return None

    def execute(self, command, arguments):
        """QMP's answer to @command: {"return": ...} or {"error": ...}."""
        request = {'execute': command}
        if arguments:
            request['arguments'] = arguments
        self.lines.sock.sendall(json.dumps(request).encode() + b'\n')
        deadline = time.monotonic() + WAIT_S
        while True:
            msg = self.message(deadline)
            if msg is None:
                return {'error': {'class': 'Timeout', 'desc': f'no answer in {WAIT_S} s'}}
            if 'event' in msg:
                self.events.append(msg)
            else:
                return msg

    def wait_event(self, name, match):
        """Wait for event @name whose data has the items of @match."""
        deadline = time.monotonic() + WAIT_S
        while True:
            for i, ev in enumerate(self.events):
                data = ev.get('data', {})
                if ev['event'] == name and all(data.get(k) == v for k, v in match.items()):
                    del self.events[i]
                    return True
            msg = self.message(deadline)
            if msg is None:
                return False
            if 'event' in msg:
                self.events.append(msg)


def command_line_devices(command):
    """The -device options of QEMU's @command: [{property: value}], the
    driver as 'driver' (the values hold no comma: run-in-vm.sh's never do)."""
    devices = []
    for opt, value in zip(command, command[1:]):
        if opt == '-device':
            driver, *props = value.split(',')
            devices.append(dict([('driver', driver)] + [p.partition('=')[::2] for p in props]))
    return devices


def replug_arguments(devices, ident):
    """device_add's arguments to plug NVMe controller @ident back in, or None
    if the command line has no such controller."""
    ctrl = next((d for d in devices if d['driver'] == 'nvme' and d.get('id') == ident), None)
    if ctrl is None:
        return None
    ctrl = dict(ctrl)
    first_ns = next((d for d in devices if d['driver'] == 'nvme-ns' and d['bus'] == ident), None)
    if 'subsys' not in ctrl and first_ns:
        ctrl['drive'] = first_ns['drive']
        for size in ('logical_block_size', 'physical_block_size'):
            ctrl[size] = int(first_ns[size])
    return ctrl


def answer(monitor, devices, request):
    """The answer line to the guest's @request line."""
    command, _, rest = request.strip().partition(' ')
    try:
        arguments = json.loads(rest) if rest.strip() else {}
    except json.JSONDecodeError as e:
        return f'error BadRequest: arguments are not JSON: {e}'
    if not command or not isinstance(arguments, dict):
        return 'error BadRequest: expected COMMAND [JSON-OBJECT]'
    if command == 'replug':
        ident = arguments.get('id')
        command, arguments = 'device_add', replug_arguments(devices, ident)
        if arguments is None:
            return f'error BadRequest: no NVMe controller {ident} on the command line'
    reply = monitor.execute(command, arguments)
    if 'error' in reply:
        err = reply['error']
        return f'error {err.get("class")}: {err.get("desc")}'
    # device_del only asks the guest to let the device go
    if command == 'device_del' and not monitor.wait_event(
            'DEVICE_DELETED', {'device': arguments.get('id')}):
        return f'error Timeout: {arguments.get("id")} not deleted in {WAIT_S} s'
    return 'ok ' + json.dumps(reply.get('return', {}))


def accept_both(servers, qemu):
    """The connections QEMU makes to @servers (None if it exits first)."""
    conns = [None] * len(servers)
    sel = selectors.DefaultSelector()
    for i, srv in enumerate(servers):
        sel.register(srv, selectors.EVENT_READ, i)
    while None in conns:
        if qemu.poll() is not None:
            return None
        for key, _ in sel.select(0.2):
            conns[key.data] = key.fileobj.accept()[0]
            sel.unregister(key.fileobj)
    return conns


def serve(monitor, devices, channel):
    lines = Lines(channel)
    while True:
        line = lines.pending()
        if line is not None:
            reply = answer(monitor, devices, line)
            print(f'vmhost: {line} -> {reply}', file=sys.stderr, flush=True)
            channel.sendall(reply.encode() + b'\n')
            continue
        channel.settimeout(None)
        if not lines.fill():
            return  # QEMU has exited (or closed the port)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().split('\n\n')[0])
    qmp_path, channel_path, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    servers = [listen(qmp_path), listen(channel_path)]
    qemu = subprocess.Popen(command)
    try:
        conns = accept_both(servers, qemu)
        if conns is not None:
            try:
                serve(Monitor(conns[0]), command_line_devices(command), conns[1])
            except (EOFError, OSError) as e:
                print(f'vmhost: {e}', file=sys.stderr)
        status = qemu.wait()
    finally:
        if qemu.poll() is None:
            qemu.kill()
        for path in (qmp_path, channel_path):
            os.unlink(path)
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == '__main__':
    main()
