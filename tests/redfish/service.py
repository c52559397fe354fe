#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""service.py - a Redfish service for raidcli's tests, on loopback with TLS.

One process serves N independent hosts (BMCs), each on its own loopback
port, from a resource tree in trees/ (see README). Every host keeps its
changes in an overlay over the shared tree, so a thousand hosts cost little
memory; one asyncio loop serves them all. A plain-HTTP control endpoint on
127.0.0.1 lets a test inject faults per host. Python's standard library
only; the certificates come from the openssl command line (make_tls()).

Run by tests as:
  service.py --tree idrac --hosts 1000 --delay-ms 20-50 --tls-dir D --ready-file F
F gets a JSON object (ca, control, hosts[] with their URLs) once every host
listens; stdout gets one line per listener too.
"""
import argparse
import asyncio
import base64
import collections
import copy
import fnmatch
import itertools
import json
import os
import random
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = "Base.1.18."
ROOT = "/redfish/v1/"
SESSIONS = "/redfish/v1/SessionService/Sessions"
TASKS = "/redfish/v1/TaskService/Tasks"
MONITORS = "/redfish/v1/TaskService/TaskMonitors/"
MAX_BODY = 1 << 20
SERVED_LOG = 100000  # answers GET /stats keeps, across all hosts
REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
           400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
           405: "Method Not Allowed", 411: "Length Required",
           412: "Precondition Failed", 413: "Content Too Large",
           428: "Precondition Required", 500: "Internal Server Error",
           501: "Not Implemented", 503: "Service Unavailable", 301: "Moved Permanently",
           302: "Found", 307: "Temporary Redirect", 308: "Permanent Redirect"}
# Drives a RAID level needs: (minimum, multiple of).
RAID_DRIVES = {"RAID0": (1, 1), "RAID1": (2, 2), "RAID5": (3, 1), "RAID6": (4, 1),
               "RAID10": (4, 2), "RAID50": (6, 2), "RAID60": (8, 2)}
READ_CACHE = ["ReadAhead", "AdaptiveReadAhead", "Off"]
WRITE_CACHE = ["WriteThrough", "ProtectedWriteBack", "UnprotectedWriteBack", "Off"]
VOLUME_TYPE = {"RAID0": "NonRedundant", "RAID1": "Mirrored", "RAID5": "StripedWithParity",
               "RAID6": "StripedWithParity", "RAID10": "SpannedMirrors",
               "RAID50": "SpannedStripesWithParity", "RAID60": "SpannedStripesWithParity"}
DELETED = object()

# Faults a test may set per host (POST /hosts/N/faults), with their defaults.
FAULTS = {
    "delay_ms": [0, 0],        # each response waits a random time in [lo, hi] ms
    "dead": None,              # "hang" (TCP accepted, never a TLS answer),
                               # "stall" (TLS, no HTTP answer), "refuse" (RST)
    "session_expire_after": None,  # a session dies after this many requests
    "malformed": [],           # path patterns answered with broken JSON
    "wrong_types": [],         # path patterns answered with every value mistyped
    "huge": [],                # path patterns answered with a huge (valid) body
    "huge_bytes": 64 << 20,
    "errors": [],              # [{method, path, status, message_id, message, resolution}]
    "responses": {},           # override the tree's create/delete/... status
    "task_polls": None,        # override the tree's polls until a task completes
    "operation_step": 25,      # PercentageComplete gained per GET of a resource
    "task_error": None,        # {message_id, message, resolution}: tasks end in Exception
    "max_sessions": None,      # more sessions than this: 503 SessionLimitExceeded
    "redirects": [],           # [{path, location, status}]: answered with a redirect
}


class Refusal(Exception):
    """A refused request: its HTTP status and Redfish error body."""

    def __init__(self, status, msg_id, message, resolution="None.", args=(), related=()):
        super().__init__(message)
        self.status = status
        self.body = error_body(msg_id, message, resolution, args, related)


def error_body(msg_id, message, resolution, args=(), related=()):
    if "." not in msg_id:
        msg_id = BASE + msg_id
    info = {"@odata.type": "#Message.v1_1_1.Message", "MessageId": msg_id,
            "Message": message, "MessageArgs": [str(a) for a in args],
            "MessageSeverity": "Critical" if msg_id.endswith("InternalError") else "Warning",
            "Resolution": resolution}
    if related:
        info["RelatedProperties"] = list(related)
    return {"error": {"code": msg_id, "message": message, "@Message.ExtendedInfo": [info]}}


# The refusals, one helper each; the wording is this service's own (clients
# must show whatever Message and Resolution a BMC sends).
def pointer(prop):
    return ["#/" + prop.replace(".", "/")]


def missing(uri, status=404, related=()):
    return Refusal(status, "ResourceMissingAtURI", "Nothing exists at %s." % uri,
                   "Use a URI taken from the service's own links.", [uri], related)


def type_error(prop, value):
    return Refusal(400, "PropertyValueTypeError",
                   "%s cannot hold the value %s: wrong JSON type." % (prop, value),
                   "Send the property with the type the schema gives it.", [value, prop],
                   pointer(prop))


def not_in_list(prop, value, allowed):
    return Refusal(400, "PropertyValueNotInList",
                   "%s cannot be '%s' here; allowed: %s." % (prop, value, ", ".join(allowed)),
                   "Pick one of the allowed values.", [value, prop], pointer(prop))


def out_of_range(prop, value, allowed):
    return Refusal(400, "PropertyValueOutOfRange",
                   "%s %s is out of range (%s)." % (prop, value, allowed),
                   "Send a value inside the range.", [value, prop], pointer(prop))


def unknown_prop(prop):
    return Refusal(400, "PropertyUnknown", "%s is not a property of this resource." % prop,
                   "Leave the property out of the request.", [prop], pointer(prop))


def missing_prop(prop):
    return Refusal(400, "PropertyMissing", "The request lacks the required property %s." % prop,
                   "Add the property to the request body.", [prop], pointer(prop))


def not_allowed(method, path):
    return Refusal(405, "OperationNotAllowed", "%s is not allowed on %s." % (method, path),
                   "Read with GET; change volumes, drives and sessions, or post to a Volumes "
                   "collection or to an action's target.")


def in_use(what, resolution, uri):
    return Refusal(400, "ResourceInUse", "%s is in use or busy, so it cannot change now." % what,
                   resolution, [], [uri])


def no_session(resolution):
    return Refusal(401, "NoValidSession", "The request carries no valid session or credentials.",
                   resolution)


class Tree:
    """A resource tree file: its resources (read-only, shared by every host)
    and its config (how it answers changes)."""

    def __init__(self, name):
        path = name if os.path.sep in name else os.path.join(HERE, "trees", name + ".json")
        with open(path) as f:
            data = json.load(f)
        self.name = os.path.basename(path)[:-5]
        self.config = data["Config"]
        self.resources = data["Resources"]
        self.encoded = {}  # URI -> (JSON bytes, ETag) of an unchanged resource

    def encode(self, uri, with_etag):
        """An unchanged resource as every host sends it, encoded once: what
        keeps a thousand hosts' GETs cheap."""
        hit = self.encoded.get(uri)
        if hit is None:
            body = self.resources[uri]
            etag = None
            if with_etag:
                etag = etag_of(body)
                body = dict(body, **{"@odata.etag": etag})
            hit = self.encoded[uri] = (json.dumps(body).encode(), etag)
        return hit


class Task:
    """An asynchronous change: done after @polls GETs of its monitor or task."""

    def __init__(self, tid, uri, polls, apply, pending=False):
        self.id = tid
        self.pending = pending  # applied at a reset that never comes
        self.uri = uri
        self.monitor = MONITORS + tid
        self.polls = polls
        self.done = 0
        self.apply = apply
        self.result = None
        self.start = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())

    def poll(self):
        """Counts a poll; on the last one applies the change once."""
        if self.result is None and not self.pending:
            self.done += 1
            if self.done >= self.polls:
                try:
                    self.result = self.apply()
                except Refusal as r:
                    self.result = (r.status, {}, r.body)

    def body(self):
        state = "Pending" if self.pending else "Running" if self.result is None else (
            "Completed" if self.result[0] < 400 else "Exception")
        pct = 100 if self.result is not None else min(99, 100 * self.done // max(1, self.polls))
        b = {"@odata.id": self.uri, "@odata.type": "#Task.v1_7_4.Task", "Id": self.id,
             "Name": "Task " + self.id, "TaskState": state,
             "TaskStatus": "OK" if state != "Exception" else "Critical",
             "PercentComplete": pct, "StartTime": self.start, "TaskMonitor": self.monitor,
             "Messages": []}
        if self.result is not None:
            status, headers, body = self.result
            if "Location" in headers:
                b["Links"] = {"CreatedResources": [{"@odata.id": headers["Location"]}]}
            if status >= 400:
                b["Messages"] = body["error"]["@Message.ExtendedInfo"]
        return b


class Host:
    """One simulated BMC: the shared tree plus this host's changes."""

    def __init__(self, index, tree, faults, rng_seed, user, password, log_size):
        self.index = index
        self.log_size = log_size
        self.conns = set()  # open connections' writers, cut when the host dies
        self.tree = tree
        self.cfg = tree.config
        self.user = user
        self.password = password
        self.default_faults = faults
        self.rng = random.Random(rng_seed)
        self.port = None
        self.server = None
        self.holder = None
        self.reset()

    def reset(self):
        self.overlay = {}
        self.sessions = {}  # token -> [uri, requests left or None]
        self.tasks = {}
        self.pending = set()  # volumes that tasks will create
        self.ops = {}  # uri -> Operations entry driven by GETs
        self.ids = {"session": itertools.count(1), "task": itertools.count(1)}
        self.faults = copy.deepcopy(self.default_faults)
        self.log = collections.deque(maxlen=self.log_size)
        self.counts = {}

    # ------------------------------------------------------------ resources
    def get(self, uri):
        r = self.overlay.get(uri)
        if r is DELETED:
            return None
        return r if r is not None else self.tree.resources.get(uri)

    def mutable(self, uri):
        """The resource at @uri, copied into the overlay to be changed."""
        r = self.overlay.get(uri)
        if r is None:
            r = self.overlay[uri] = copy.deepcopy(self.tree.resources[uri])
        return r

    def put(self, uri, body):
        self.overlay[uri] = body

    def delete(self, uri):
        self.overlay[uri] = DELETED

    def add_member(self, coll, uri):
        c = self.mutable(coll)
        c["Members"].append({"@odata.id": uri})
        c["Members@odata.count"] = len(c["Members"])

    def drop_member(self, coll, uri):
        c = self.mutable(coll)
        c["Members"] = [m for m in c["Members"] if m["@odata.id"] != uri]
        c["Members@odata.count"] = len(c["Members"])

    def setting(self, what):
        return self.faults["responses"].get(what, self.cfg["Responses"][what])

    def task_polls(self):
        p = self.faults["task_polls"]
        return self.cfg["TaskPolls"] if p is None else p


def parse_query(query):
    q = {}
    for part in query.split("&") if query else []:
        k, _, v = part.partition("=")
        q[urllib.parse.unquote(k)] = urllib.parse.unquote_plus(v)
    return q


def parse_expand(value):
    """$expand=*|.|~ with an optional ($levels=n): (kind, levels) or None."""
    kind, levels = value[:1], 1
    rest = value[1:]
    if kind not in "*.~" or not kind:
        return None
    if rest:
        if not (rest.startswith("($levels=") and rest.endswith(")")):
            return None
        try:
            levels = int(rest[9:-1])
        except ValueError:
            return None
    return kind, levels


def etag_of(body):
    return '"%08x"' % zlib.crc32(json.dumps(body, sort_keys=True).encode())


def mistype(value):
    """The same data with every value of another JSON type (the wrong_types
    fault); @odata.id stays so a client can still name what it read."""
    if isinstance(value, dict):
        return {k: (v if k == "@odata.id" else mistype(v)) for k, v in value.items()}
    if isinstance(value, list):
        return {str(i): mistype(v) for i, v in enumerate(value)}
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return len(value)
    return "null"


class Service:
    def __init__(self, tree, args):
        self.tree = tree
        self.args = args
        self.ssl = None
        faults = copy.deepcopy(FAULTS)
        faults["delay_ms"] = list(args.delay_ms)
        user = args.user or tree.config["UserName"]
        password = tree.config["Password"]
        if args.password_file:
            with open(args.password_file) as f:
                password = f.read().rstrip("\n")
        self.hosts = []
        dead = set(args.dead_hosts)
        for i in range(args.hosts):
            f = copy.deepcopy(faults)
            if i in dead:
                f["dead"] = args.dead_mode
            self.hosts.append(Host(i, tree, f, args.seed * 100003 + i, user, password,
                                   args.log_requests))
        self.control_port = None
        # Connections dead hosts hold open now, and the most at once: how
        # the fleet tests see that a client waits on dead hosts together.
        self.hung = 0
        self.hung_peak = 0
        # Every host's answers in the order they went out: how the fleet
        # tests see which host a client asked what, and when.
        self.served = collections.deque(maxlen=SERVED_LOG)

    # ---------------------------------------------------------- listeners
    async def listen(self, host):
        """Opens (or re-opens) @host's port the way its dead fault wants."""
        port = host.port or (self.args.base_port + host.index if self.args.base_port else 0)
        if host.server:
            host.server.close()
            host.server = None
        if host.holder:
            host.holder.close()
            host.holder = None
        if host.faults["dead"] == "refuse":
            # Bound but not listening: the port stays ours and connects get RST.
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            host.holder = s
            host.port = s.getsockname()[1]
            return
        host.server = await asyncio.start_server(
            lambda r, w: self.connection(host, r, w), "127.0.0.1", port,
            reuse_address=True, backlog=1024, limit=64 * 1024)
        host.port = host.server.sockets[0].getsockname()[1]

    async def connection(self, host, reader, writer):
        host.conns.add(writer)
        try:
            if host.faults["dead"] == "hang":
                self.hung += 1
                self.hung_peak = max(self.hung_peak, self.hung)
                try:
                    while await reader.read(65536):
                        pass
                finally:
                    self.hung -= 1
                return
            await writer.start_tls(self.ssl, ssl_handshake_timeout=30)
            await self.serve_requests(reader, writer, lambda *a: self.handle(host, *a))
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, OSError,
                asyncio.TimeoutError, asyncio.LimitOverrunError, ValueError,
                asyncio.CancelledError):  # the last: stopped while serving
            pass
        finally:
            host.conns.discard(writer)
            writer.close()

    async def control_connection(self, reader, writer):
        try:
            await self.serve_requests(reader, writer, self.control)
        except (ConnectionError, asyncio.IncompleteReadError, OSError, ValueError,
                asyncio.LimitOverrunError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def serve_requests(self, reader, writer, handler):
        """HTTP/1.1 with keep-alive: one request after the other."""
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                return
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
            if headers.get("transfer-encoding", "").lower() == "chunked":
                await respond(writer, 411, {}, None, close=True)
                return
            length = int(headers.get("content-length", "0") or 0)
            expect = headers.get("expect", "").lower() == "100-continue"
            if length > MAX_BODY:
                # Read it first (unless the client waits for a 100): a client
                # still sending would miss the answer.
                while length > 0 and not expect:
                    length -= len(await reader.readexactly(min(length, 65536)))
                await respond(writer, 413, {}, error_body(
                    "PayloadTooLarge", "The request body is over %d bytes." % MAX_BODY,
                    "Send a smaller request body."), close=True)
                return
            if length and expect:
                writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            body = await reader.readexactly(length) if length else b""
            close = headers.get("connection", "").lower() == "close"
            keep = await handler(writer, method, target, headers, body, close)
            if close or keep is False:
                return

    # ------------------------------------------------------------ requests
    async def handle(self, host, writer, method, target, headers, body, close):
        path, _, query = target.partition("?")
        path = urllib.parse.unquote(path)
        f = host.faults
        if f["dead"] in ("hang", "stall"):  # also on connections made before
            await asyncio.sleep(3600)
            return False
        lo, hi = f["delay_ms"]
        if hi > 0:
            await asyncio.sleep(host.rng.uniform(lo, hi) / 1000.0)
        status, rheaders, rbody = self.answer(host, method, path, query, headers, body)
        auth = "session" if "x-auth-token" in headers else \
            "basic" if "authorization" in headers else "none"
        host.counts[method] = host.counts.get(method, 0) + 1
        host.log.append((method, target, status, auth))
        self.served.append((host.index, method, target, status))
        if method == "GET" and status == 200 and self.faulted(f["huge"], path):
            await respond_huge(writer, rbody, f["huge_bytes"], close)
            return True
        if method == "GET" and status == 200 and self.faulted(f["malformed"], path):
            raw = json.dumps(rbody).encode()
            rbody = raw[: max(1, len(raw) // 2)] + b'",}{'
        elif method == "GET" and status == 200 and self.faulted(f["wrong_types"], path):
            rbody = mistype(rbody)
        await respond(writer, status, rheaders, rbody, close)
        return True

    def answer(self, host, method, path, query, headers, body):
        """A request's status, headers and body (a dict, or bytes already encoded)."""
        try:
            status, rheaders, rbody = self.dispatch(host, method, path, query, headers, body)
        except Refusal as r:
            status, rheaders, rbody = r.status, {}, r.body
        except Exception as e:  # a bug here: the test sees a 500, not a hang
            print("service.py: %s %s?%s: %r" % (method, path, query, e), file=sys.stderr)
            status, rheaders, rbody = 500, {}, error_body(
                "InternalError", "The test service failed: %r." % e, "Fix service.py.")
        if status == 401:
            rheaders["WWW-Authenticate"] = 'Basic realm="RedfishService"'
        return status, rheaders, rbody

    @staticmethod
    def faulted(patterns, path):
        return any(fnmatch.fnmatchcase(path, p) for p in patterns)

    def dispatch(self, host, method, path, query, headers, body):
        if path != ROOT and path.endswith("/"):
            path = path.rstrip("/")
        if path == "/redfish/v1":
            path = ROOT
        for e in host.faults["errors"]:
            if e.get("method", method) == method and fnmatch.fnmatchcase(path, e.get("path", "*")):
                raise Refusal(e.get("status", 400), e.get("message_id", "GeneralError"),
                              e.get("message", "The request failed (injected fault)."),
                              e.get("resolution", "None."))
        for r in host.faults["redirects"]:
            if fnmatch.fnmatchcase(path, r.get("path", "*")):
                return r.get("status", 307), {"Location": r["location"]}, None
        if path == "/redfish" and method == "GET":
            return 200, {}, {"v1": ROOT}
        if method == "GET" and path == ROOT:
            return self.get(host, path, query)
        if method == "POST" and path == SESSIONS:
            return self.login(host, body)
        self.authenticate(host, headers)
        if method == "GET":
            return self.get(host, path, query)
        if path.startswith(MONITORS):  # tasks cannot be cancelled here
            raise not_allowed(method, path)
        action = "/Actions/" in path
        if method == "POST" and action:
            return self.post(host, path, parse_json(body))
        if host.get(path) is None:
            raise missing(path)
        if method == "DELETE" and not action:
            return self.delete(host, path)
        if method == "PATCH" and not action:
            return self.patch(host, path, headers, parse_json(body))
        if method == "POST":
            return self.post(host, path, parse_json(body))
        raise not_allowed(method, path)

    # --------------------------------------------------------------- auth
    def authenticate(self, host, headers):
        token = headers.get("x-auth-token")
        if token is not None:
            s = host.sessions.get(token)
            if s is not None:
                if s[1] is not None:
                    s[1] -= 1
                    if s[1] < 0:
                        self.end_session(host, token)
                        s = None
                if s is not None:
                    return
        else:
            auth = headers.get("authorization", "")
            if auth.startswith("Basic "):
                try:
                    user, _, pw = base64.b64decode(auth[6:]).decode().partition(":")
                except (ValueError, UnicodeDecodeError):
                    user = pw = None
                if user == host.user and pw == host.password:
                    return
        raise no_session("Log in (POST to the Sessions collection) or send Basic credentials.")

    def login(self, host, body):
        req = parse_json(body)
        for prop in ("UserName", "Password"):
            if prop not in req:
                raise missing_prop(prop)
        if req["UserName"] != host.user or req["Password"] != host.password:
            raise no_session("Give a valid user name and password.")
        limit = host.faults["max_sessions"]
        if limit is not None and len(host.sessions) >= limit:
            raise Refusal(503, "SessionLimitExceeded",
                          "No new session: %d are open, the most this BMC keeps." % limit,
                          "Log out of sessions no longer used, or wait for them to time out.")
        sid = str(next(host.ids["session"]))
        token = secrets.token_hex(16)
        uri = SESSIONS + "/" + sid
        s = {"@odata.id": uri, "@odata.type": "#Session.v1_7_0.Session", "Id": sid,
             "Name": "User Session", "UserName": req["UserName"]}
        host.put(uri, s)
        host.add_member(SESSIONS, uri)
        host.sessions[token] = [uri, host.faults["session_expire_after"]]
        return 201, {"Location": uri, "X-Auth-Token": token}, s

    def end_session(self, host, token):
        uri = host.sessions.pop(token)[0]
        host.delete(uri)
        host.drop_member(SESSIONS, uri)

    # ---------------------------------------------------------------- GET
    def get(self, host, path, query):
        q = parse_query(query)
        expand = None
        if "$expand" in q:
            if not host.cfg["Expand"]:
                raise Refusal(501, "QueryNotSupported", "This service takes no $expand.",
                              "Read the members one by one instead.")
            expand = parse_expand(q["$expand"])
            if expand is None:
                raise Refusal(400, "QueryParameterValueFormatError",
                              "$expand=%s is not of the form *, . or ~ with an optional "
                              "($levels=N)." % q["$expand"], "Fix the $expand value.",
                              [q["$expand"], "$expand"])
        if path.startswith(MONITORS):
            return self.monitor(host, path)
        f = host.faults
        if not (expand or path in host.overlay or path in host.ops or f["malformed"]
                or f["wrong_types"] or f["huge"]) and path in self.tree.resources:
            raw, etag = self.tree.encode(path, host.cfg["ETag"])
            return 200, {"ETag": etag} if etag else {}, raw
        if path.startswith(TASKS + "/"):
            task = host.tasks.get(path[len(TASKS) + 1:])
            if task is None:
                raise missing(path)
            task.poll()
            return 200, {}, task.body()
        r = self.view(host, path)
        if r is None:
            raise missing(path)
        if expand:
            r = self.expand(host, r, expand[0], min(expand[1], 3), False)
        headers = {}
        if host.cfg["ETag"]:
            headers["ETag"] = r["@odata.etag"]
        return 200, headers, r

    def view(self, host, path):
        """The resource as a client sees it now: live operations advanced
        one step, @odata.etag added where the tree gives ETags."""
        r = host.get(path)
        if r is None:
            return None
        op = host.ops.get(path)
        if op is not None:
            step = host.faults["operation_step"]
            op["PercentageComplete"] = min(100, op["PercentageComplete"] + step)
            if op["PercentageComplete"] >= 100:
                del host.ops[path]
                res = host.mutable(path)
                res["Operations"] = [o for o in res["Operations"] if o is not op]
            r = host.get(path)
        if path.startswith(TASKS + "/") and path[len(TASKS) + 1:] in host.tasks:
            r = host.tasks[path[len(TASKS) + 1:]].body()
        if host.cfg["ETag"]:
            r = dict(r)
            r["@odata.etag"] = etag_of(r)
        return r

    def expand(self, host, node, kind, levels, in_links):
        """$expand: references replaced by the resources (per DMTF: "." not in
        Links, "~" only in Links, "*" both), @levels deep."""
        if isinstance(node, list):
            return [self.expand(host, v, kind, levels, in_links) for v in node]
        if not isinstance(node, dict):
            return node
        if list(node) == ["@odata.id"] and levels > 0:
            want = kind == "*" or (kind == "~") == in_links
            target = self.view(host, node["@odata.id"]) if want else None
            if target is not None:
                return self.expand(host, target, kind, levels - 1, False)
            return node
        return {k: self.expand(host, v, kind, levels, in_links or k == "Links")
                for k, v in node.items()}

    def monitor(self, host, path):
        task = host.tasks.get(path[len(MONITORS):])
        if task is None:
            raise missing(path)
        task.poll()
        if task.result is None:
            return 202, {"Location": task.monitor, "Retry-After": "0"}, task.body()
        status, headers, body = task.result
        return status, dict(headers), body

    # ------------------------------------------------------ changes, async
    def respond_change(self, host, what, apply, created=False, apply_time="Immediate"):
        """Runs @apply now (201/200/204) or behind a task (202), as the tree
        or the responses fault says for @what. A task_error fault makes the
        task fail instead; an OnReset apply time leaves it Pending."""
        status = host.setting(what)
        if status == 202 or apply_time != "Immediate":
            n = next(host.ids["task"])
            tid = host.cfg["TaskId"].format(n=n)
            err = host.faults["task_error"]
            if err:
                def apply():
                    raise Refusal(400, err.get("message_id", "GeneralError"),
                                  err.get("message", "The task failed (injected fault)."),
                                  err.get("resolution", "None."))
            task = Task(tid, TASKS + "/" + tid, host.task_polls(),
                        lambda: self.finish(apply, 201 if created else 204),
                        pending=apply_time != "Immediate")
            host.tasks[tid] = task
            host.put(task.uri, {"@odata.id": task.uri})  # listed; body is task.body()
            host.add_member(TASKS, task.uri)
            return 202, {"Location": task.monitor, "Retry-After": "0"}, task.body()
        return self.finish(apply, status)

    @staticmethod
    def finish(apply, status):
        uri, body = apply()
        headers = {"Location": uri} if uri else {}
        if body and "@odata.etag" in body:
            headers["ETag"] = body["@odata.etag"]
        if status == 204:
            return 204, headers, None
        return status, headers, body

    def post(self, host, path, req):
        r = host.get(path)
        if r is not None and r.get("@odata.type", "").startswith("#VolumeCollection."):
            return self.create_volume(host, path, req)
        owner, _, action = path.partition("/Actions/")
        if not action:
            raise not_allowed("POST", path)
        res = host.get(owner)
        if res is None or "#" + action not in res.get("Actions", {}):
            raise Refusal(400 if res is not None else 404, "ActionNotSupported",
                          "%s has no action %s." % (owner, action),
                          "Post to a target listed in the resource's Actions.", [action])
        if action == "Drive.SecureErase":
            return self.secure_erase(host, owner, res, req)
        if action == "Volume.Initialize":
            return self.initialize(host, owner, res, req)
        raise Refusal(400, "ActionNotSupported", "This service does not run %s." % action,
                      "Use SecureErase or Initialize.", [action])

    def delete(self, host, path):
        r = host.get(path)
        if path.startswith(SESSIONS + "/"):
            for token, s in list(host.sessions.items()):
                if s[0] == path:
                    self.end_session(host, token)
            return 204, {}, None
        if not r.get("@odata.type", "").startswith("#Volume."):
            raise Refusal(405, "ResourceCannotBeDeleted", "%s cannot be deleted." % path,
                          "Only volumes and sessions can be deleted.")
        busy(host, path)

        def apply():
            if host.get(path) is None:
                raise missing(path)
            for d in r["Links"]["Drives"]:
                drive = host.mutable(d["@odata.id"])
                drive["Links"]["Volumes"] = [v for v in drive["Links"]["Volumes"]
                                             if v["@odata.id"] != path]
                drive["Links"]["Volumes@odata.count"] = len(drive["Links"]["Volumes"])
                dell_status(drive, "Ready")
            host.delete(path)
            host.drop_member(path.rsplit("/", 1)[0], path)
            return None, None
        return self.respond_change(host, "delete", apply)

    # ------------------------------------------------------------- create
    def create_volume(self, host, coll, req):
        """POST to a Volumes collection: checked whole before anything
        changes, applied now or by a task."""
        spec = volume_spec(host, coll, req)
        apply_time = req.get("@Redfish.OperationApplyTime", "Immediate")
        times = host.get(coll).get("@Redfish.OperationApplyTimeSupport", {}).get(
            "SupportedValues", ["Immediate", "OnReset"])
        if apply_time not in times:
            raise not_in_list("@Redfish.OperationApplyTime", apply_time, times)
        vid = self.free_volume_id(host, coll, spec["storage"]["Id"])
        uri = coll + "/" + vid
        host.pending.add(uri)

        def apply():
            host.pending.discard(uri)
            for u in spec["drives"]:  # a task's drives may be taken meanwhile
                if host.get(u)["Links"]["Volumes"]:
                    raise in_use("Drive " + u, "Choose other drives.", u)
            host.put(uri, new_volume(host, uri, vid, spec))
            host.add_member(coll, uri)
            for u in spec["drives"]:
                drive = host.mutable(u)
                drive["Links"]["Volumes"] = [{"@odata.id": uri}]
                drive["Links"]["Volumes@odata.count"] = 1
                dell_status(drive, "Online")
            return uri, self.view(host, uri)
        return self.respond_change(host, "create", apply, created=True, apply_time=apply_time)

    @staticmethod
    def free_volume_id(host, coll, storage_id):
        taken = {m["@odata.id"] for m in host.get(coll)["Members"]}
        for n in itertools.count(host.cfg["VolumeIdFrom"]):
            uri = coll + "/" + host.cfg["VolumeId"].format(n=n, storage=storage_id)
            if uri not in taken and uri not in host.pending:
                return uri.rsplit("/", 1)[1]

    # -------------------------------------------------------------- PATCH
    def patch(self, host, path, headers, req):
        r = self.view(host, path)
        t = r.get("@odata.type", "")
        if t.startswith("#Drive."):
            writable = host.cfg["DriveWritable"]
        elif t.startswith("#Volume."):
            writable = host.cfg["VolumeWritable"]
        else:
            writable = []
        match = headers.get("if-match")
        if match is not None and host.cfg["ETag"] and match != "*" and match != r["@odata.etag"]:
            raise Refusal(412, "PreconditionFailed",
                          "If-Match %s is not the resource's ETag: it changed since." % match,
                          "Read the resource again and retry with its new ETag.")
        for k, v in req.items():
            if k not in r or k.startswith("@"):
                raise unknown_prop(k)
            if k not in writable:
                raise Refusal(400, "PropertyNotWritable", "%s is read-only here." % k,
                              "Leave the property out of the request.", [k], pointer(k))
            check_value(k, v)
        if "HotspareType" in req and req["HotspareType"] != "None":
            if r["Links"]["Volumes"] or r["Status"]["Health"] == "Critical":
                raise in_use("Drive " + r["Id"], "Choose a drive in no volume, and healthy, as "
                             "a spare.", path)
        res = host.mutable(path)
        res.update(req)
        if "HotspareType" in req:
            res["Status"]["State"] = "StandbySpare" if req["HotspareType"] != "None" else "Enabled"
        if "DisplayName" in req and "Name" in res:
            res["Name"] = req["DisplayName"]
        out = self.view(host, path)
        rheaders = {"ETag": out["@odata.etag"]} if host.cfg["ETag"] else {}
        if host.setting("patch") == 204:
            return 204, rheaders, None
        return 200, rheaders, out

    # ------------------------------------------------------------ actions
    def secure_erase(self, host, uri, drive, req):
        allowed = drive["Actions"]["#Drive.SecureErase"].get(
            "SanitizationType@Redfish.AllowableValues",
            ["BlockErase", "CryptographicErase", "Overwrite"])
        check_params(req, {"SanitizationType": allowed, "OverwritePasses": None}, "SecureErase")
        if drive["Links"]["Volumes"] or drive.get("HotspareType", "None") != "None":
            raise in_use("Drive " + drive["Id"], "Delete its volume or unassign the spare "
                         "first.", uri)
        busy(host, uri)
        self.start_op(host, uri, "Sanitize")
        return self.respond_change(host, "secure_erase", lambda: (None, None))

    def initialize(self, host, uri, vol, req):
        allowed = vol["Actions"]["#Volume.Initialize"].get(
            "InitializeType@Redfish.AllowableValues", ["Fast", "Slow"])
        check_params(req, {"InitializeType": allowed,
                           "InitializeMethod": ["Skip", "Background", "Foreground"]}, "Initialize")
        busy(host, uri)
        self.start_op(host, uri, "Initialize")
        return self.respond_change(host, "initialize", lambda: (None, None))

    @staticmethod
    def start_op(host, uri, name):
        """An Operations[] entry that GETs of @uri advance (operation_step);
        Operation (the enum) only where the resource's schema version has it."""
        res = host.mutable(uri)
        op = {"OperationName": name, "PercentageComplete": 0}
        kind, version = res["@odata.type"][1:].split(".")[:2]
        minor = int(version.split("_")[1])
        if minor >= {"Drive": 17, "Volume": 9}[kind]:
            op = {"Operation": name, **op}
        res.setdefault("Operations", []).append(op)
        host.ops[uri] = op

    # ------------------------------------------------------------ control
    async def control(self, writer, method, target, headers, body, close):
        """GET /hosts, GET /hosts/N, GET /stats, POST /stats/reset,
        POST /hosts/N|all/{faults,reset,expire-sessions}."""
        parts = [p for p in target.split("?")[0].split("/") if p]
        try:
            status, out = await self.control_request(method, parts, body)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            status, out = 400, {"error": str(e)}
        await respond(writer, status, {}, out, close)
        return True

    async def control_request(self, method, parts, body):
        if parts == ["hosts"] and method == "GET":
            return 200, [self.describe(h) for h in self.hosts]
        if parts == ["stats"] and method == "GET":
            return 200, {"hung_now": self.hung, "hung_peak": self.hung_peak,
                         "served": list(self.served)}
        if parts == ["stats", "reset"] and method == "POST":
            self.hung_peak = self.hung
            self.served.clear()
            return 200, {"hung_now": self.hung, "hung_peak": self.hung_peak, "served": []}
        if len(parts) < 2 or parts[0] != "hosts":
            return 404, {"error": "no such control resource"}
        hosts = self.hosts if parts[1] == "all" else [self.hosts[int(parts[1])]]
        if len(parts) == 2 and method == "GET":
            h = hosts[0]
            return 200, dict(self.describe(h), faults=h.faults, requests=list(h.log),
                             counts=h.counts,
                             sessions=len(h.sessions), tasks=len(h.tasks),
                             changed=sorted(h.overlay))
        if method != "POST" or len(parts) != 3:
            return 405, {"error": "POST /hosts/N|all/faults|reset|expire-sessions"}
        req = json.loads(body or b"{}")
        for h in hosts:
            was = h.faults["dead"]
            if parts[2] == "faults":
                for k, v in req.items():
                    if k not in FAULTS:
                        raise KeyError("unknown fault " + k)
                    h.faults[k] = copy.deepcopy(FAULTS[k] if v is None else v)
            elif parts[2] == "reset":
                h.reset()
            elif parts[2] == "expire-sessions":
                for token in list(h.sessions):
                    self.end_session(h, token)
            else:
                return 404, {"error": "no such control action"}
            if h.faults["dead"] != was and ("refuse" in (was, h.faults["dead"])):
                await self.listen(h)
            if h.faults["dead"] == "refuse":  # a dead host's connections die too
                for w in list(h.conns):
                    w.transport.abort()
        return 200, [self.describe(h) for h in hosts]

    @staticmethod
    def describe(h):
        return {"index": h.index, "url": "https://127.0.0.1:%d" % h.port, "port": h.port,
                "dead": h.faults["dead"]}


# ----------------------------------------------------------- volume create
CREATE_PROPS = {"Name", "DisplayName", "RAIDType", "VolumeType", "CapacityBytes",
                "StripSizeBytes", "OptimumIOSizeBytes", "ReadCachePolicy", "WriteCachePolicy",
                "Encrypted", "Links", "Drives", "InitializeMethod", "@Redfish.OperationApplyTime",
                "Oem"}


def volume_spec(host, coll, req):
    """What a create asks for, every property checked: a refusal names the
    first wrong one."""
    for k in req:
        if k not in CREATE_PROPS:
            raise unknown_prop(k)
    storage_uri = coll.rsplit("/", 1)[0]
    storage = host.get(storage_uri)
    ctrl = controller_of(host, storage)
    raid = raid_type(req, ctrl)
    drives, where = chosen_drives(host, req, storage)
    least, multiple = RAID_DRIVES.get(raid, (1, 1))
    if len(drives) < least or len(drives) % multiple:
        raise Refusal(400, "PropertyValueConflict", "%s takes %d or more drives%s, not %d." % (
            raid, least, ", a multiple of %d" % multiple if multiple > 1 else "", len(drives)),
            "Change the RAID level or the number of drives.", ["RAIDType", where])
    full = usable(raid, len(drives), min(host.get(u)["CapacityBytes"] for u in drives))
    cap = integer(req, "CapacityBytes", full)
    if cap <= 0 or cap > full:
        raise out_of_range("CapacityBytes", cap, "1 to %d" % full)
    strip = integer(req, "StripSizeBytes", integer(req, "OptimumIOSizeBytes", 65536))
    if strip < 65536 or strip > 1 << 20 or strip & (strip - 1):
        raise out_of_range("StripSizeBytes", strip, "65536 to 1048576 bytes, a power of two")
    for prop, values in (("ReadCachePolicy", READ_CACHE), ("WriteCachePolicy", WRITE_CACHE),
                         ("InitializeMethod", ["Skip", "Background", "Foreground"])):
        if prop in req and req[prop] not in values:
            raise not_in_list(prop, req[prop], values)
    name = req.get("Name", req.get("DisplayName"))
    if not isinstance(name, (str, type(None))):
        raise type_error("Name", json.dumps(name))
    if not isinstance(req.get("Encrypted", False), bool):
        raise type_error("Encrypted", json.dumps(req["Encrypted"]))
    return {"storage": storage, "controller": ctrl, "raid": raid, "drives": drives,
            "capacity": cap, "strip": strip, "name": name, "request": req}


def raid_type(req, ctrl):
    """RAIDType, or the deprecated VolumeType old iDRACs take instead."""
    raid = req.get("RAIDType")
    if raid is None and "VolumeType" in req:
        by_type = {v: k for k, v in reversed(list(VOLUME_TYPE.items()))}
        raid = by_type.get(req["VolumeType"])
        if raid is None:
            raise not_in_list("VolumeType", req["VolumeType"], sorted(set(VOLUME_TYPE.values())))
    if raid is None:
        raise missing_prop("RAIDType")
    if not isinstance(raid, str):
        raise type_error("RAIDType", json.dumps(raid))
    if raid not in ctrl["SupportedRAIDTypes"]:
        raise not_in_list("RAIDType", raid, ctrl["SupportedRAIDTypes"])
    return raid


def chosen_drives(host, req, storage):
    """The drive URIs of a create (from where the tree takes them: Links.Drives
    and/or Drives), each the storage's and free; and where they were found."""
    refs = where = None
    for at in host.cfg["CreateDrivesAt"]:
        src = req.get("Links", {}) if at == "Links.Drives" else req
        if isinstance(src, dict) and "Drives" in src:
            refs, where = src["Drives"], at
    if refs is None:
        raise missing_prop(host.cfg["CreateDrivesAt"][-1])
    if not isinstance(refs, list) or not all(
            isinstance(d, dict) and isinstance(d.get("@odata.id"), str) for d in refs):
        raise type_error(where, json.dumps(refs))
    uris = [d["@odata.id"] for d in refs]
    if len(set(uris)) != len(uris):
        raise Refusal(400, "PropertyValueConflict", "A drive is named twice in %s." % where,
                      "Name each drive once.", [where, where])
    members = [d["@odata.id"] for d in storage["Drives"]]
    for u in uris:
        if u not in members:
            raise missing(u, 400, pointer(where))
        d = host.get(u)
        if d["Links"]["Volumes"] or d.get("HotspareType", "None") != "None" or \
                d["Status"]["Health"] == "Critical" or u in host.ops:
            raise in_use("Drive " + d["Id"], "Choose drives that are free: in no volume, "
                         "no spare, healthy and idle.", u)
    return uris, where


def integer(req, prop, default):
    v = req.get(prop, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise type_error(prop, json.dumps(v))
    return v


def new_volume(host, uri, vid, spec):
    """A new Volume shaped like the tree's existing ones (their @odata.type
    and which optional properties they carry)."""
    sample = next((v for v in host.tree.resources.values()
                   if v.get("@odata.type", "").startswith("#Volume.")), {})
    req, raid = spec["request"], spec["raid"]
    name = spec["name"] or "Volume " + vid
    v = {"@odata.id": uri, "@odata.type": sample.get("@odata.type", "#Volume.v1_9_0.Volume"),
         "Id": vid, "Name": name, "RAIDType": raid, "CapacityBytes": spec["capacity"],
         "BlockSizeBytes": 512, "StripSizeBytes": spec["strip"],
         "Encrypted": req.get("Encrypted", False),
         "ReadCachePolicy": req.get("ReadCachePolicy", "ReadAhead"),
         "WriteCachePolicy": req.get("WriteCachePolicy", "WriteThrough"),
         "Status": {"State": "Enabled", "Health": "OK"}, "Operations": [],
         "Links": {"Drives": [{"@odata.id": u} for u in spec["drives"]],
                   "Drives@odata.count": len(spec["drives"])},
         "Actions": {"#Volume.Initialize": {
             "target": uri + "/Actions/Volume.Initialize",
             "InitializeType@Redfish.AllowableValues": ["Fast", "Slow"]}}}
    if "DisplayName" in sample:
        v["DisplayName"] = name
    if "VolumeType" in sample:
        v["VolumeType"] = VOLUME_TYPE[raid]
    if "OptimumIOSizeBytes" in sample:
        v["OptimumIOSizeBytes"] = spec["strip"]
    if "Controllers" in sample.get("Links", {}):
        v["Links"]["Controllers"] = [{"@odata.id": spec["controller"]["@odata.id"]}]
        v["Links"]["Controllers@odata.count"] = 1
        v["Links"]["OwningStorageResource"] = {"@odata.id": spec["storage"]["@odata.id"]}
    return v


# ------------------------------------------------------------- helpers
def parse_json(body):
    try:
        req = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refusal(400, "MalformedJSON", "The request body is not valid JSON.",
                      "Send the body as valid JSON.")
    if not isinstance(req, dict):
        raise Refusal(400, "MalformedJSON", "The request body is not a JSON object.",
                      "Send a JSON object.")
    return req


def controller_of(host, storage):
    if "StorageControllers" in storage:
        return storage["StorageControllers"][0]
    coll = host.get(storage["Controllers"]["@odata.id"])
    return host.get(coll["Members"][0]["@odata.id"])


def usable(raid, n, size):
    data = {"RAID0": n, "RAID1": n // 2, "RAID5": n - 1, "RAID6": n - 2, "RAID10": n // 2,
            "RAID50": n - 2, "RAID60": n - 4}.get(raid, 1)
    return data * size


def busy(host, uri):
    if uri in host.ops:
        raise in_use(uri, "Wait for the operation in its Operations property to finish.", uri)


def dell_status(drive, status):
    dell = drive.get("Oem", {}).get("Dell", {}).get("DellPhysicalDisk")
    if dell is not None:
        dell["RaidStatus"] = status


ENUMS = {"ReadCachePolicy": READ_CACHE, "WriteCachePolicy": WRITE_CACHE,
         "IndicatorLED": ["Lit", "Blinking", "Off"],
         "HotspareType": ["None", "Global", "Chassis", "Dedicated"]}


def check_value(prop, value):
    if prop == "LocationIndicatorActive":
        if not isinstance(value, bool):
            raise type_error(prop, json.dumps(value))
    elif prop == "DisplayName":
        if not isinstance(value, str):
            raise type_error(prop, json.dumps(value))
    elif prop in ENUMS:
        if not isinstance(value, str):
            raise type_error(prop, json.dumps(value))
        if value not in ENUMS[prop]:
            raise not_in_list(prop, value, ENUMS[prop])
        if prop == "HotspareType" and value not in ("None", "Global"):
            raise not_in_list(prop, value, ["None", "Global"])


def check_params(req, params, action):
    for k, v in req.items():
        if k not in params:
            raise Refusal(400, "ActionParameterUnknown", "%s takes no parameter %s."
                          % (action, k), "Leave the parameter out.", [action, k])
        if params[k] is not None and v not in params[k]:
            raise Refusal(400, "ActionParameterValueNotInList",
                          "%s of %s cannot be '%s'; allowed: %s." % (k, action, v,
                                                                   ", ".join(params[k])),
                          "Pick one of the allowed values.", [v, k, action])


def head_bytes(status, headers, length, close):
    lines = ["HTTP/1.1 %d %s" % (status, REASONS.get(status, "Status"))]
    if length is not None:
        lines.append("Content-Type: application/json; charset=utf-8")
        lines.append("Content-Length: %d" % length)
    else:
        lines.append("Content-Length: 0")
    lines.append("OData-Version: 4.0")
    lines.append("Cache-Control: no-store")
    for k, v in headers.items():
        lines.append("%s: %s" % (k, v))
    lines.append("Connection: close" if close else "Connection: keep-alive")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def respond(writer, status, headers, body, close=False):
    if body is None:
        writer.write(head_bytes(status, headers, None, close))
    else:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        writer.write(head_bytes(status, headers, len(raw), close) + raw)
    await writer.drain()


async def respond_huge(writer, body, size, close):
    """A valid JSON body of about @size bytes, written in pieces so neither
    side of the service holds it whole. A client that cuts it off closes
    the connection: the rest is not written (drain() no longer waits on a
    closed one, and the loop would hold every other host until 1 GiB of
    writes were dropped). Each piece yields to the loop: a write into a
    lost connection is dropped without a wait, and over TLS is_closing()
    turns true only once the loop has run the loss's callbacks; without
    the yield the loop encrypted the whole 1 GiB first, and under load
    the other hosts' requests meanwhile timed out."""
    head = json.dumps(body)[:-1].encode() + b', "Oem": {"Padding": "'
    tail = b'"}}'
    pad = max(0, size - len(head) - len(tail))
    writer.write(head_bytes(200, {}, len(head) + pad + len(tail), close) + head)
    chunk = b"x" * 65536
    while pad:
        if writer.is_closing():
            return
        n = min(pad, len(chunk))
        writer.write(chunk if n == len(chunk) else chunk[:n])
        pad -= n
        await writer.drain()
        await asyncio.sleep(0)
    writer.write(tail)
    await writer.drain()


# ----------------------------------------------------------------- TLS
def make_tls(directory):
    """A CA (ca.pem) and a server certificate for localhost/127.0.0.1 signed
    by it (server.pem, server.key) in @directory, made once by openssl."""
    ca, key, cert = (os.path.join(directory, n) for n in ("ca.pem", "server.key", "server.pem"))
    if os.path.exists(cert):
        return ca, cert, key
    os.makedirs(directory, exist_ok=True)

    def run(*argv):
        subprocess.run(["openssl", *argv], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    ca_key = os.path.join(directory, "ca.key")
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *curve, "-keyout", ca_key, "-out", ca, "-days", "2",
        "-subj", "/CN=raidcli test Redfish CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    csr = os.path.join(directory, "server.csr")
    run("req", "-new", *curve, "-keyout", key, "-out", csr, "-subj", "/CN=localhost")
    ext = os.path.join(directory, "server.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
        "-out", cert + ".tmp", "-days", "2", "-extfile", ext)
    os.rename(cert + ".tmp", cert)
    return ca, cert, key


# ---------------------------------------------------------------- main
def parse_range(text):
    lo, _, hi = text.partition("-")
    lo = int(lo)
    hi = int(hi) if hi else lo
    if lo < 0 or hi < lo:
        raise argparse.ArgumentTypeError("a delay is MS or LO-HI")
    return [lo, hi]


def parse_list(text):
    return [int(x) for x in text.split(",") if x]


def options(argv):
    p = argparse.ArgumentParser(description="A Redfish test service (tests/redfish/README).")
    p.add_argument("--tree", default="idrac", help="trees/NAME.json or a path (default idrac)")
    p.add_argument("--hosts", type=int, default=1, help="how many hosts, one port each")
    p.add_argument("--base-port", type=int, default=0,
                   help="host i listens on P+i (default: any free ports)")
    p.add_argument("--control-port", type=int, default=0, help="the control endpoint's port")
    p.add_argument("--delay-ms", type=parse_range, default=[0, 0], metavar="MS|LO-HI",
                   help="delay every response by MS, or a random LO..HI ms")
    p.add_argument("--dead-hosts", type=parse_list, default=[], metavar="I,J,...",
                   help="hosts (0-based) that are dead from the start")
    p.add_argument("--dead-mode", choices=["hang", "stall", "refuse"], default="hang")
    p.add_argument("--user", help="the user name (default: the tree's)")
    p.add_argument("--password-file", help="a file holding the password (default: the tree's)")
    p.add_argument("--tls-dir", help="where the CA and server certificate are (made if absent)")
    p.add_argument("--ready-file", help="JSON written here once every host listens")
    p.add_argument("--seed", type=int, default=1, help="seed of the delays")
    p.add_argument("--log-requests", type=int, default=256, metavar="N",
                   help="requests each host remembers for the control endpoint (default 256)")
    p.add_argument("--quiet", action="store_true", help="no listener lines on stdout")
    p.add_argument("--dump", metavar="FILE",
                   help="write one host's answers for bench/bmc-fleet.c to FILE and exit")
    return p.parse_args(argv)


def small_tls_buffers():
    """asyncio gives every TLS connection a 256 KiB read buffer, touched
    whole: 260 MB for a fleet client holding a connection to each of 1000
    hosts. One TLS record (16 KiB) per read is plenty here."""
    import asyncio.sslproto
    asyncio.sslproto.SSLProtocol.max_size = 16 * 1024


async def amain(args):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tls_dir = args.tls_dir or os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                           "rfservice-%d" % os.getpid())
    ca, cert, key = make_tls(tls_dir)
    small_tls_buffers()
    svc = Service(Tree(args.tree), args)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    svc.ssl = ctx
    for h in svc.hosts:
        await svc.listen(h)
    control = await asyncio.start_server(svc.control_connection, "127.0.0.1", args.control_port,
                                         reuse_address=True)
    svc.control_port = control.sockets[0].getsockname()[1]
    ready = {"pid": os.getpid(), "tree": svc.tree.name, "ca": ca,
             "control": "http://127.0.0.1:%d" % svc.control_port,
             "user": svc.hosts[0].user, "hosts": [svc.describe(h) for h in svc.hosts]}
    if args.ready_file:
        tmp = args.ready_file + ".tmp"
        with open(tmp, "w") as f:
            json.dump(ready, f, indent=1)
        os.rename(tmp, args.ready_file)
    if not args.quiet:  # after the ready file: whoever reads this may use it
        print("control http://127.0.0.1:%d" % svc.control_port)
        for h in svc.hosts:
            dead = h.faults["dead"]
            print("host %d https://127.0.0.1:%d%s" % (h.index, h.port,
                                                       " dead=" + dead if dead else ""))
        sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


def dump(svc, path):
    """--dump: the answers bench/bmc-fleet.c serves for this tree, taken from
    this service's own answers to a fresh host, so the two cannot drift apart.
    After a head (user and password), records "R KEYLEN STATUS HEADLEN
    BODYLEN\n" then the key, the extra header lines and the body (BODYLEN -1:
    none). Keys: "GET PATH" and, where the tree expands, "GET PATH?$expand=V"
    for every form with up to 3 levels; the other answers by name, carrying
    @PATH@, @METHOD@, @VALUE@, @SID@ and @TOKEN@ for the simulator to fill."""
    host = svc.hosts[0]
    basic = {"authorization": "Basic " + base64.b64encode(
        ("%s:%s" % (host.user, host.password)).encode()).decode()}
    records = []

    def record(key, answer, marks=()):
        status, headers, body = answer
        head = "".join("%s: %s\r\n" % kv for kv in headers.items()).encode("latin-1")
        raw = None if body is None else body if isinstance(body, bytes) else \
            json.dumps(body).encode()
        for was, mark in marks:
            head = head.replace(was, mark)
            raw = raw and raw.replace(was, mark)
        records.append(b"R %d %d %d %d\n" % (len(key), status, len(head),
                                             -1 if raw is None else len(raw)))
        records.append(key.encode() + head + (raw or b""))

    queries = [""]
    if svc.tree.config["Expand"]:
        queries += ["$expand=" + kind + levels for kind in ".~*"
                    for levels in ("", "($levels=1)", "($levels=2)", "($levels=3)")]
    for uri in svc.tree.resources:
        for q in queries:
            record("GET " + uri + ("?" + q if q else ""),
                   svc.answer(host, "GET", uri, q, basic, b""))
    record("GET /redfish", svc.answer(host, "GET", "/redfish", "", {}, b""))
    record("NO-SESSION", svc.answer(host, "GET", "/redfish/v1/Systems", "", {}, b""))
    record("MISSING", svc.answer(host, "GET", "@PATH@", "", basic, b""))
    record("EXPAND-BAD", svc.answer(host, "GET", ROOT, "$expand=@VALUE@", basic, b""))
    refusal = not_allowed("@METHOD@", "@PATH@")
    record("NOT-ALLOWED", (refusal.status, {}, refusal.body))
    login = {"UserName": host.user, "Password": host.password}
    record("LOGIN-REFUSED", svc.answer(host, "POST", SESSIONS, "", {}, json.dumps(
        dict(login, Password=host.password + "-not")).encode()))
    answer = svc.answer(host, "POST", SESSIONS, "", {}, json.dumps(login).encode())
    uri, token = answer[1]["Location"], answer[1]["X-Auth-Token"]
    record("LOGIN", answer, [(uri.encode(), SESSIONS.encode() + b"/@SID@"),
                             (b'"Id": "1"', b'"Id": "@SID@"'), (token.encode(), b"@TOKEN@")])
    record("DELETE-SESSION", svc.answer(host, "DELETE", uri, "", {"x-auth-token": token}, b""))
    with open(path, "wb") as f:
        f.write(b"raidcli-bmc-dump 1\nuser %s\npassword %s\n" % (
            host.user.encode(), host.password.encode()))
        f.write(b"".join(records))


def main(argv=None):
    args = options(argv)
    if args.hosts < 1:
        sys.exit("service.py: --hosts must be 1 or more")
    if args.dump:
        dump(Service(Tree(args.tree), args), args.dump)
        return
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
