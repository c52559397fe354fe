#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""test-service.py - the Redfish test service (service.py) does what its
README says, over TLS verified against the CA it made.

raidcli's Redfish tests trust this peer, so each behaviour is checked the
way a client sees it: links followed from the service root (never built),
every property name and enum value checked against the DMTF schema facts in
schema.json, status codes, headers and @Message.ExtendedInfo bodies.
"""
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVICE = os.path.join(HERE, "service.py")
checks = 0
failures = []


def check(cond, what, detail=""):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL: " + what + ("\n  " + str(detail)[:2000] if detail else ""), flush=True)
    return cond


class Service:
    """service.py started with @args, stopped by stop()."""

    def __init__(self, tmp, *args):
        self.ready = os.path.join(tmp, "ready-%d.json" % time.monotonic_ns())
        self.proc = subprocess.Popen(
            [sys.executable, SERVICE, "--tls-dir", os.path.join(tmp, "tls"), "--quiet",
             "--ready-file", self.ready, *args])
        for _ in range(600):
            if os.path.exists(self.ready) or self.proc.poll() is not None:
                break
            time.sleep(0.05)
        with open(self.ready) as f:
            self.info = json.load(f)
        self.ctx = ssl.create_default_context(cafile=self.info["ca"])
        self.control_port = int(self.info["control"].rsplit(":", 1)[1])

    def port(self, i=0):
        return self.info["hosts"][i]["port"]

    def client(self, i=0, auth=None):
        tree = self.info["tree"]
        if auth is None:
            auth = (self.info["user"], PASSWORDS[tree])
        return Client(self.port(i), self.ctx, auth)

    def control(self, method, path, body=None):
        c = http.client.HTTPConnection("127.0.0.1", self.control_port, timeout=30)
        c.request(method, path, body=json.dumps(body) if body is not None else None)
        r = c.getresponse()
        out = json.loads(r.read())
        c.close()
        return r.status, out

    def faults(self, i, **faults):
        status, out = self.control("POST", "/hosts/%s/faults" % i, faults)
        assert status == 200, out

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)


class Client:
    """One keep-alive HTTPS connection; Basic auth or a session token."""

    def __init__(self, port, ctx, auth=None, timeout=30):
        self.port, self.ctx, self.auth, self.timeout = port, ctx, auth, timeout
        self.token = None
        self.conn = None

    def request(self, method, path, body=None, headers=None, raw=False):
        h = {"OData-Version": "4.0", "Accept": "application/json"}
        if self.token:
            h["X-Auth-Token"] = self.token
        elif self.auth:
            import base64
            h["Authorization"] = "Basic " + base64.b64encode(
                ("%s:%s" % self.auth).encode()).decode()
        if body is not None:
            h["Content-Type"] = "application/json"
            body = body if isinstance(body, (bytes, str)) else json.dumps(body)
        h.update(headers or {})
        if self.conn is None:
            self.conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.ctx,
                                                    timeout=self.timeout)
        try:
            self.conn.request(method, path, body=body, headers=h)
            r = self.conn.getresponse()
            data = r.read()
        except Exception:
            self.conn.close()
            self.conn = None
            raise
        if raw:
            return r.status, r.headers, data
        return r.status, r.headers, json.loads(data) if data else None

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def login(self, user, password):
        s, h, b = self.request("POST", "/redfish/v1/SessionService/Sessions",
                               {"UserName": user, "Password": password})
        if s == 201:
            self.token = h["X-Auth-Token"]
        return s, h, b


PASSWORDS = {}
SCHEMA = {}


def load_trees():
    for name in ("idrac", "modern"):
        with open(os.path.join(HERE, "trees", name + ".json")) as f:
            PASSWORDS[name] = json.load(f)["Config"]["Password"]


def is_error(status, body, code, msg_id):
    """A Redfish error: @code and an ExtendedInfo entry @msg_id (suffix)
    with Message and Resolution."""
    try:
        infos = body["error"]["@Message.ExtendedInfo"]
        ok = status == code and any(i["MessageId"].endswith("." + msg_id) and i["Message"]
                                    and i["Resolution"] for i in infos)
        return ok and body["error"]["code"] and body["error"]["message"]
    except (TypeError, KeyError):
        return False


def refs(node, links=False):
    """Every @odata.id reference inside @node (not its own)."""
    out = []
    if isinstance(node, dict):
        if list(node) == ["@odata.id"]:
            return [node["@odata.id"]]
        for k, v in node.items():
            if k != "@odata.id":
                out += refs(v)
    elif isinstance(node, list):
        for v in node:
            out += refs(v)
    return out


def walk(c):
    """Every resource reachable from the service root, by its links."""
    seen, todo = {}, ["/redfish/v1/"]
    while todo:
        uri = todo.pop()
        if uri in seen:
            continue
        s, _, b = c.get(uri)
        check(s == 200, "link %s resolves" % uri, s)
        seen[uri] = b
        for r in refs(b):
            if "#" not in r and r not in seen:
                todo.append(r)
    return seen


def conforms(body, where):
    """Property names and enum values of @body against schema.json."""
    t = body.get("@odata.type", "")
    kind = t[1:].split(".")[0] if t else ""
    spec = SCHEMA["types"].get(t[1:] if t else "")
    if not check(spec is not None, "%s: type %s is in schema.json" % (where, t)):
        return
    conforms_object(body, spec, SCHEMA["types"], "%s (%s)" % (where, kind))


def conforms_object(obj, spec, types, where):
    for k, v in obj.items():
        if k.startswith("@") and k not in spec["props"]:
            continue
        if "@Redfish." in k:
            continue
        if not check(k in spec["props"], "%s: property %s is in the schema" % (where, k),
                     sorted(spec["props"])):
            continue
        p = spec["props"][k]
        if "enum" in p and isinstance(v, str):
            check(v in p["enum"], "%s: %s=%s is one of %s" % (where, k, v, p["enum"]))
        sub = p.get("object")
        if sub and isinstance(v, dict) and list(v) != ["@odata.id"]:
            conforms_object(v, types[sub], types, where + "." + k)
        if sub and isinstance(v, list):
            for item in v:
                if isinstance(item, dict) and list(item) != ["@odata.id"]:
                    conforms_object(item, types[sub], types, where + "." + k + "[]")


# ------------------------------------------------------------------ cases
def case_tls_and_auth(svc, tree):
    port = svc.port()
    try:
        Client(port, ssl.create_default_context()).get("/redfish/v1/")
        check(False, "%s: the system CAs do not verify the test certificate" % tree)
    except ssl.SSLCertVerificationError:
        check(True, "")
    anon = Client(port, svc.ctx)
    s, _, b = anon.get("/redfish")
    check(s == 200 and b == {"v1": "/redfish/v1/"}, "%s: /redfish names v1" % tree, b)
    s, _, root = anon.get("/redfish/v1/")
    check(s == 200 and root["Links"]["Sessions"]["@odata.id"].endswith("/Sessions"),
          "%s: the service root needs no credentials" % tree, root)
    s, h, b = anon.get(root["Systems"]["@odata.id"])
    check(is_error(s, b, 401, "NoValidSession"), "%s: 401 without credentials" % tree, b)
    check("Basic" in (h.get("WWW-Authenticate") or ""), "%s: 401 names Basic" % tree)
    s, _, b = Client(port, svc.ctx, (svc.info["user"], "wrong")).get("/redfish/v1/Systems")
    check(is_error(s, b, 401, "NoValidSession"), "%s: 401 with a wrong password" % tree, b)
    c = svc.client()
    s, _, b = c.get(root["Systems"]["@odata.id"])
    check(s == 200 and b["Members"], "%s: Basic auth reads Systems" % tree, b)

    # Sessions: 201 + X-Auth-Token + Location; DELETE ends it.
    sc = Client(port, svc.ctx)
    s, _, b = sc.login(svc.info["user"], "wrong")
    check(is_error(s, b, 401, "NoValidSession"), "%s: a session needs the password" % tree, b)
    s, _, b = sc.request("POST", root["Links"]["Sessions"]["@odata.id"], {"UserName": "x"})
    check(is_error(s, b, 400, "PropertyMissing"), "%s: a session needs Password" % tree, b)
    s, h, b = sc.login(svc.info["user"], PASSWORDS[tree])
    loc = h.get("Location")
    check(s == 201 and h.get("X-Auth-Token") and loc and b["@odata.id"] == loc
          and b["UserName"] == svc.info["user"] and "Password" not in b,
          "%s: POST Sessions gives a token, its Location and the session" % tree, (s, dict(h), b))
    s, _, b = sc.get(root["Links"]["Sessions"]["@odata.id"])
    check(s == 200 and {"@odata.id": loc} in b["Members"], "%s: the session is listed" % tree, b)
    s, _, _ = sc.get(loc)
    check(s == 200, "%s: the token reads the session" % tree)
    s, _, _ = sc.request("DELETE", loc)
    check(s == 204, "%s: DELETE ends the session" % tree, s)
    s, _, b = sc.get("/redfish/v1/Systems")
    check(is_error(s, b, 401, "NoValidSession"), "%s: an ended session's token is refused" % tree)


def case_tree(svc, tree):
    c = svc.client()
    seen = walk(c)
    for uri, body in seen.items():
        if uri != "/redfish/v1/":
            check(body.get("@odata.id") == uri, "%s: %s names itself" % (tree, uri), body)
        conforms(body, "%s %s" % (tree, uri))
    kinds = {b["@odata.type"].split(".")[0] for b in seen.values()}
    for k in ("#ServiceRoot", "#ComputerSystem", "#StorageCollection", "#Storage", "#Drive",
              "#Volume", "#VolumeCollection", "#Chassis", "#SessionService", "#TaskService"):
        check(k in kinds, "%s: the tree has a %s" % (tree, k), sorted(kinds))
    storage = [b for b in seen.values() if b["@odata.type"].startswith("#Storage.")]
    drives = [u for u, b in seen.items() if b["@odata.type"].startswith("#Drive.")]
    if tree == "idrac":
        check(all("StorageControllers" in s and "Controllers" not in s for s in storage),
              "idrac: controllers inline (StorageControllers[])")
        check(all("/Storage/" in d and ":Enclosure" in d or "Disk.Direct" in d for d in drives),
              "idrac: FQDD drives under Storage", drives)
        check("/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1/Drives/"
              "Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1" in seen,
              "idrac: Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1 exists")
        check(all("IndicatorLED" in seen[d] and "LocationIndicatorActive" not in seen[d]
                  and "Location" in seen[d] for d in drives), "idrac: IndicatorLED, Location[]")
        vd1 = seen["/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1/Volumes/"
                   "Disk.Virtual.1:RAID.Integrated.1-1"]
        check(vd1["Operations"] == [{"OperationName": "Rebuild", "PercentageComplete": 42}],
              "idrac: a volume rebuilding at 42%", vd1)
    else:
        check(all("Controllers" in s and "StorageControllers" not in s for s in storage),
              "modern: a Controllers collection")
        check(any(b["@odata.type"].startswith("#StorageController.") for b in seen.values()),
              "modern: StorageController resources")
        check(all(d.startswith("/redfish/v1/Chassis/") for d in drives),
              "modern: drives under Chassis", drives)
        check(all("LocationIndicatorActive" in seen[d] and "PhysicalLocation" in seen[d]
                  and "IndicatorLED" not in seen[d] for d in drives),
              "modern: LocationIndicatorActive, PhysicalLocation")
        vd1 = seen["/redfish/v1/Systems/1/Storage/1/Volumes/1"]
        check(vd1["Operations"][0]["Operation"] == "CheckConsistency",
              "modern: a volume checking consistency", vd1)
        vd2 = seen["/redfish/v1/Systems/1/Storage/1/Volumes/2"]
        d5 = seen["/redfish/v1/Chassis/1/Drives/5"]
        check(vd2["Operations"][0]["Operation"] == "Rebuild" and vd2["Status"]["Health"] ==
              "Warning" and d5["Operations"][0]["PercentageComplete"] == 60
              and d5["StatusIndicator"] == "Rebuild", "modern: drive 5 rebuilding volume 2")
        d3 = seen["/redfish/v1/Chassis/1/Drives/3"]
        m3 = seen[d3["Metrics"]["@odata.id"]]
        e3 = seen[d3["EnvironmentMetrics"]["@odata.id"]]
        check(d3["FailurePredicted"] and m3["UncorrectableIOReadErrorCount"] == 3
              and m3["BadBlockCount"] == 17 and e3["TemperatureCelsius"]["Reading"] == 43.0,
              "modern: drive 3's media errors and temperature", (m3, e3))
    # Static progress stays: golden tests read the same numbers every time.
    s, _, again = c.get(vd1["@odata.id"])
    check(again["Operations"] == vd1["Operations"], "%s: tree operations do not move" % tree)


def case_expand(svc, tree):
    c = svc.client()
    _, _, root = c.get("/redfish/v1/")
    eq = root["ProtocolFeaturesSupported"]["ExpandQuery"]
    storage = "/redfish/v1/Systems/1/Storage/1" if tree == "modern" else \
        "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1"
    s, _, b = c.get(storage + "?$expand=.($levels=1)")
    if tree == "idrac":
        check(not any(eq.values()), "idrac: $expand not advertised", eq)
        check(is_error(s, b, 501, "QueryNotSupported"), "idrac: $expand refused (501)", b)
        return
    check(eq["ExpandAll"] and eq["Levels"] and eq["NoLinks"] and eq["Links"],
          "modern: $expand advertised", eq)
    check(s == 200 and all("CapacityBytes" in d for d in b["Drives"])
          and "Members" in b["Controllers"] and "Members" in b["Volumes"]
          and list(b["Volumes"]["Members"][0]) == ["@odata.id"]
          and list(b["Links"]["Enclosures"][0]) == ["@odata.id"],
          "modern: $expand=. expands one level, not Links", b)
    s, _, b = c.get(storage + "?$expand=.($levels=2)")
    check(s == 200 and "RAIDType" in b["Volumes"]["Members"][0], "modern: $levels=2", b)
    s, _, b = c.get(storage + "?$expand=~")
    check(s == 200 and "ChassisType" in b["Links"]["Enclosures"][0]
          and list(b["Drives"][0]) == ["@odata.id"], "modern: $expand=~ expands Links only", b)
    s, _, b = c.get("/redfish/v1/Chassis/1/Drives?$expand=*")
    check(s == 200 and len(b["Members"]) == 18 and all("SerialNumber" in m for m in b["Members"]),
          "modern: a collection's Members expanded", b)
    s, _, b = c.get(storage + "?$expand=x")
    check(is_error(s, b, 400, "QueryParameterValueFormatError"), "modern: a bad $expand", b)


def follow_task(c, status, headers, body, polls):
    """202 + Location: the task monitor answers 202 @polls - 1 times, then
    the change's result. Returns that result."""
    if not check(status == 202 and headers.get("Location"), "202 names a task monitor",
                 (status, body)):
        return status, headers, body
    mon, task_uri = headers["Location"], body["@odata.id"]
    check(body["TaskState"] == "Running" and body["TaskMonitor"] == mon,
          "the 202 body is a running Task", body)
    for n in range(1, polls):
        s, h, b = c.get(mon)
        check(s == 202 and b["TaskState"] == "Running" and 0 <= b["PercentComplete"] < 100,
              "poll %d of the monitor: still running" % n, (s, b))
    s, h, b = c.get(mon)
    task = c.get(task_uri)[2]
    conforms(task, "task " + task_uri)
    check(task["TaskState"] in ("Completed", "Exception") and task["PercentComplete"] == 100,
          "the Task is done after %d polls" % polls, task)
    return s, h, b


def volume_request(tree, storage, drives):
    body = {"Name": "vdnew", "RAIDType": "RAID1", "ReadCachePolicy": "Off",
            "WriteCachePolicy": "WriteThrough", "StripSizeBytes": 131072}
    if tree == "idrac":
        body["Drives"] = [{"@odata.id": d} for d in drives]
    else:
        body["Links"] = {"Drives": [{"@odata.id": d} for d in drives]}
    return body


def free_drives(c, storage):
    _, _, st = c.get(storage)
    out = []
    for r in st["Drives"]:
        d = c.get(r["@odata.id"])[2]
        if not d["Links"]["Volumes"] and d["HotspareType"] == "None" \
                and d["Status"]["Health"] == "OK" and not d.get("Operations"):
            out.append(d["@odata.id"])
    return out


def case_volumes(svc, tree):
    c = svc.client()
    storage = "/redfish/v1/Systems/1/Storage/1" if tree == "modern" else \
        "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1"
    _, _, st = c.get(storage)
    coll = st["Volumes"]["@odata.id"]
    free = free_drives(c, storage)
    check(len(free) >= 2, "%s: two free drives" % tree, free)
    before = c.get(coll)[2]["Members"]

    # Refusals first: nothing changes, each says why and what to do.
    bad = volume_request(tree, storage, free[:2])
    for change, code, msg_id in (
            ({"RAIDType": "RAID7"}, 400, "PropertyValueNotInList"),
            ({"RAIDType": "RAID5"}, 400, "PropertyValueConflict"),
            ({"CapacityBytes": "big"}, 400, "PropertyValueTypeError"),
            ({"CapacityBytes": 1 << 60}, 400, "PropertyValueOutOfRange"),
            ({"StripSizeBytes": 64}, 400, "PropertyValueOutOfRange"),
            ({"ReadCachePolicy": "Sometimes"}, 400, "PropertyValueNotInList"),
            ({"Colour": "blue"}, 400, "PropertyUnknown")):
        s, _, b = c.request("POST", coll, dict(bad, **change))
        check(is_error(s, b, code, msg_id), "%s: create with %s: %s" % (tree, change, msg_id), b)
    s, _, b = c.request("POST", coll, "{\"RAIDType\": ")
    check(is_error(s, b, 400, "MalformedJSON"), "%s: malformed JSON refused" % tree, b)
    used = c.get(before[0]["@odata.id"])[2]["Links"]["Drives"][0]["@odata.id"]
    s, _, b = c.request("POST", coll, volume_request(tree, storage, [free[0], used]))
    check(is_error(s, b, 400, "ResourceInUse"), "%s: a drive in a volume refused" % tree, b)
    check(c.get(coll)[2]["Members"] == before, "%s: refusals change nothing" % tree)

    # The tree's own way: idrac 202 + task, modern 201 + body.
    s, h, b = c.request("POST", coll, volume_request(tree, storage, free[:2]))
    if tree == "idrac":
        s, h, b = follow_task(c, s, h, b, 3)
    check(s == 201 and h.get("Location") and b["@odata.id"] == h["Location"]
          and b["RAIDType"] == "RAID1" and b["Name"] == "vdnew"
          and b["StripSizeBytes"] == 131072 and b["ReadCachePolicy"] == "Off",
          "%s: the create gives 201, Location and the volume" % tree, (s, dict(h), b))
    vol = h.get("Location")
    if tree == "modern":
        check(h.get("ETag") == b["@odata.etag"], "modern: the 201 carries the ETag", dict(h))
    s, _, b = c.get(vol)
    conforms(b, tree + " new volume")
    check(s == 200 and sorted(r["@odata.id"] for r in b["Links"]["Drives"]) == sorted(free[:2]),
          "%s: the new volume's drives" % tree, b)
    check({"@odata.id": vol} in c.get(coll)[2]["Members"], "%s: the volume is listed" % tree)
    d0 = c.get(free[0])[2]
    check(d0["Links"]["Volumes"] == [{"@odata.id": vol}], "%s: the drive links its volume" % tree)

    # 204 with Location, chosen by the test.
    svc.faults(0, responses={"create": 204})
    s, h, b = c.request("POST", coll, volume_request(tree, storage, free[2:4]))
    check(s == 204 and b is None and h.get("Location", "").startswith(coll + "/"),
          "%s: a 204 create names the volume in Location" % tree, (s, dict(h)))
    vol2 = h.get("Location")
    check(c.get(vol2)[0] == 200, "%s: the 204-created volume exists" % tree)
    svc.faults(0, responses={"create": 202}, task_polls=2)
    s, h, b = c.request("POST", coll, volume_request(tree, storage, free[4:6]))
    s, h, b = follow_task(c, s, h, b, 2)
    check(s == 201, "%s: a 202 create chosen by the test, 2 polls" % tree, (s, b))
    svc.faults(0, responses=None, task_polls=None)

    # A task that fails: the monitor's last answer is the error, the Task
    # says Exception with the message, and nothing is created.
    svc.faults(0, responses={"create": 202}, task_polls=1,
               task_error={"message_id": "IDRAC.2.9.STOR023", "message": "The controller "
                           "refused the configuration.", "resolution": "Check the drives."})
    members = c.get(coll)[2]["Members"]
    s, h, b = c.request("POST", coll, volume_request(tree, storage, free[6:8]))
    task_uri = b["@odata.id"]
    monitor = h["Location"]
    s, h, b = follow_task(c, s, h, b, 1)
    check(is_error(s, b, 400, "STOR023"), "%s: a failed task gives its error" % tree, b)
    s, _, b = c.request("DELETE", monitor)
    check(is_error(s, b, 405, "OperationNotAllowed"), "%s: tasks cannot be cancelled" % tree, b)
    task = c.get(task_uri)[2]
    check(task["TaskState"] == "Exception" and task["TaskStatus"] == "Critical"
          and task["Messages"][0]["Resolution"] == "Check the drives.",
          "%s: the failed Task carries the message" % tree, task)
    check(c.get(coll)[2]["Members"] == members, "%s: a failed task creates nothing" % tree)
    svc.faults(0, responses=None, task_polls=None, task_error=None)

    # Apply time OnReset: a task that stays Pending (no reset comes).
    body = volume_request(tree, storage, free[6:8])
    body["@Redfish.OperationApplyTime"] = "OnReset"
    s, h, b = c.request("POST", coll, body)
    polls = [c.get(h["Location"])[0] for _ in range(5)] if s == 202 else []
    check(s == 202 and b["TaskState"] == "Pending" and polls == [202] * 5,
          "%s: an OnReset create stays pending" % tree, (s, b, polls))
    check(c.get(coll)[2]["Members"] == members, "%s: pending creates nothing yet" % tree)
    body["@Redfish.OperationApplyTime"] = "AtMaintenanceWindowStart"
    s, _, b = c.request("POST", coll, body)
    check(is_error(s, b, 400, "PropertyValueNotInList"), "%s: an apply time not offered" % tree, b)

    # Delete: modern 204, idrac 202 + task; the drives come free.
    s, h, b = c.request("DELETE", vol)
    if tree == "idrac":
        s, h, b = follow_task(c, s, h, b, 3)
    check(s == 204, "%s: DELETE the volume" % tree, (s, b))
    s, _, b = c.get(vol)
    check(is_error(s, b, 404, "ResourceMissingAtURI"), "%s: the volume is gone" % tree, b)
    check({"@odata.id": vol} not in c.get(coll)[2]["Members"], "%s: no longer listed" % tree)
    check(c.get(free[0])[2]["Links"]["Volumes"] == [], "%s: its drives are free" % tree)
    s, _, b = c.request("DELETE", storage)
    check(is_error(s, b, 405, "ResourceCannotBeDeleted"), "%s: a storage is not deletable" % tree)


def case_patch(svc, tree):
    c = svc.client()
    if tree == "modern":
        vol = "/redfish/v1/Systems/1/Storage/1/Volumes/2"
        s, h, b = c.get(vol)
        etag = h.get("ETag")
        check(etag and etag == b["@odata.etag"], "modern: ETag header = @odata.etag", (etag, b))
        s, _, b = c.request("PATCH", vol, {"WriteCachePolicy": "WriteThrough"},
                            headers={"If-Match": '"0bad0bad"'})
        check(is_error(s, b, 412, "PreconditionFailed"), "modern: a stale ETag gives 412", b)
        check(c.get(vol)[2]["WriteCachePolicy"] == "ProtectedWriteBack",
              "modern: 412 changes nothing")
        s, h, b = c.request("PATCH", vol, {"WriteCachePolicy": "WriteThrough", "DisplayName": "d2"},
                            headers={"If-Match": etag})
        check(s == 200 and b["WriteCachePolicy"] == "WriteThrough" and b["DisplayName"] == "d2"
              and h.get("ETag") and h["ETag"] != etag, "modern: PATCH with the ETag", (s, b))
        s, _, b = c.request("PATCH", vol, {"WriteCachePolicy": "Sometimes"})
        check(is_error(s, b, 400, "PropertyValueNotInList"), "modern: a bad cache policy", b)
        drive = "/redfish/v1/Chassis/1/Drives/7"
        s, _, b = c.request("PATCH", drive, {"LocationIndicatorActive": True})
        check(s == 200 and b["LocationIndicatorActive"] is True, "modern: locate on", b)
        check(c.get(drive)[2]["LocationIndicatorActive"] is True, "modern: locate reads back")
        s, _, b = c.request("PATCH", drive, {"LocationIndicatorActive": "yes"})
        check(is_error(s, b, 400, "PropertyValueTypeError"), "modern: locate needs a bool", b)
        s, _, b = c.request("PATCH", drive, {"IndicatorLED": "Blinking"})
        check(is_error(s, b, 400, "PropertyUnknown"), "modern: no IndicatorLED", b)
        s, _, b = c.request("PATCH", drive, {"HotspareType": "Global"})
        check(s == 200 and b["HotspareType"] == "Global" and b["Status"]["State"] == "StandbySpare",
              "modern: a global hot spare", b)
        s, _, b = c.request("PATCH", "/redfish/v1/Chassis/1/Drives/0", {"HotspareType": "Global"})
        check(is_error(s, b, 400, "ResourceInUse"), "modern: a volume's drive is no spare", b)
    else:
        drive = ("/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1/Drives/"
                 "Disk.Bay.6:Enclosure.Internal.0-1:RAID.Integrated.1-1")
        s, h, b = c.get(drive)
        check(s == 200 and "ETag" not in h and "@odata.etag" not in b, "idrac: no ETags", dict(h))
        s, _, b = c.request("PATCH", drive, {"IndicatorLED": "Blinking"})
        check(s == 200 and b["IndicatorLED"] == "Blinking", "idrac: IndicatorLED Blinking", b)
        s, _, b = c.request("PATCH", drive, {"LocationIndicatorActive": True})
        check(is_error(s, b, 400, "PropertyUnknown"), "idrac: no LocationIndicatorActive", b)
        s, _, b = c.request("PATCH", drive, {"IndicatorLED": "On"})
        check(is_error(s, b, 400, "PropertyValueNotInList"), "idrac: IndicatorLED values", b)
        s, _, b = c.request("PATCH", drive, {"HotspareType": "Global"})
        check(is_error(s, b, 400, "PropertyNotWritable"), "idrac: HotspareType read-only", b)
        s, _, b = c.request("PATCH", drive, {"CapacityBytes": 1})
        check(is_error(s, b, 400, "PropertyNotWritable"), "idrac: CapacityBytes read-only", b)


def progress(c, uri, name):
    """PercentageComplete of @name in @uri's Operations, GET after GET, until gone."""
    seen = []
    for _ in range(10):
        ops = [o for o in c.get(uri)[2].get("Operations", [])
               if o.get("OperationName") == name]
        if not ops:
            break
        seen.append(ops[0]["PercentageComplete"])
    return seen


def case_actions(svc, tree):
    c = svc.client()
    storage = "/redfish/v1/Systems/1/Storage/1" if tree == "modern" else \
        "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1"
    free = free_drives(c, storage)
    drive = c.get(free[-1])[2]
    target = drive["Actions"]["#Drive.SecureErase"]["target"]
    s, _, b = c.request("POST", target, {"SanitizationType": "Scrub"})
    check(is_error(s, b, 400, "ActionParameterValueNotInList"), "%s: a bad erase type" % tree, b)
    s, _, b = c.request("POST", target, {"Passes": 3})
    check(is_error(s, b, 400, "ActionParameterUnknown"), "%s: an unknown parameter" % tree, b)
    s, h, b = c.request("POST", target, {"SanitizationType": "Overwrite"})
    check(s == 202 and h.get("Location"), "%s: SecureErase gives 202 + monitor" % tree, (s, b))
    s, _, b = c.request("POST", target, {})
    check(is_error(s, b, 400, "ResourceInUse"), "%s: a second erase while one runs" % tree, b)
    seen = progress(c, free[-1], "Sanitize")
    check(seen == [25, 50, 75], "%s: the erase's progress in Operations" % tree, seen)
    if tree == "modern":
        ops = c.get(free[-1])[2]["Operations"]
        check(ops == [], "modern: the erase ended", ops)
    volumes = c.get(c.get(storage)[2]["Volumes"]["@odata.id"])[2]
    _, _, vol0 = c.get(volumes["Members"][0]["@odata.id"])
    used = vol0["Links"]["Drives"][0]["@odata.id"]
    s, _, b = c.request("POST", c.get(used)[2]["Actions"]["#Drive.SecureErase"]["target"], {})
    check(is_error(s, b, 400, "ResourceInUse"), "%s: no erase of a volume's drive" % tree, b)

    target = vol0["Actions"]["#Volume.Initialize"]["target"]
    s, _, b = c.request("POST", target, {"InitializeType": "Medium"})
    check(is_error(s, b, 400, "ActionParameterValueNotInList"), "%s: a bad init type" % tree, b)
    s, h, b = c.request("POST", target, {"InitializeType": "Fast"})
    want = 202 if tree == "idrac" else 204
    check(s == want, "%s: Initialize gives %d" % (tree, want), (s, b))
    seen = progress(c, vol0["@odata.id"], "Initialize")
    check(seen == [25, 50, 75], "%s: the init's progress in Operations" % tree, seen)
    s, _, b = c.request("POST", vol0["@odata.id"] + "/Actions/Volume.Frobnicate", {})
    check(is_error(s, b, 400, "ActionNotSupported"), "%s: an unknown action" % tree, b)


def case_faults(svc, tree):
    c = svc.client()
    port = svc.port()
    # A delay the test chose (the service sleeps at least that long).
    svc.faults(0, delay_ms=[300, 300])
    t = time.monotonic()
    c.get("/redfish/v1/Systems")
    check(time.monotonic() - t >= 0.3, "%s: delay_ms 300" % tree)
    svc.faults(0, delay_ms=None)

    # Dead hosts: hang (TCP accepted, no TLS answer), stall, refuse; and back.
    # Connections made before the death die with the host too.
    for mode in ("hang", "stall"):
        svc.faults(0, dead=None)
        before = Client(port, svc.ctx, c.auth, timeout=1)
        before.get("/redfish/v1/")
        svc.faults(0, dead=mode)
        for who, client in (("a new", Client(port, svc.ctx, c.auth, timeout=1)),
                            ("an old", before)):
            try:
                client.get("/redfish/v1/")
                check(False, "%s: a %s host answers nothing on %s connection" % (tree, mode, who))
            except (socket.timeout, TimeoutError):
                check(True, "")
    svc.faults(0, dead=None)
    before = Client(port, svc.ctx, c.auth, timeout=5)
    before.get("/redfish/v1/")
    svc.faults(0, dead="refuse")
    try:
        Client(port, svc.ctx, timeout=5).get("/redfish/v1/")
        check(False, "%s: a refusing host refuses" % tree)
    except ConnectionRefusedError:
        check(True, "")
    try:
        before.get("/redfish/v1/")
        check(False, "%s: a refusing host cut its connections" % tree)
    except (ConnectionError, http.client.HTTPException, ssl.SSLError):
        check(True, "")
    svc.faults(0, dead=None)
    c = svc.client()
    s, _, _ = c.get("/redfish/v1/Systems")
    check(s == 200, "%s: the host is back on its port" % tree, s)

    # Session expiry mid-run: after N requests, or when the test says.
    svc.faults(0, session_expire_after=2)
    sc = Client(port, svc.ctx)
    sc.login(svc.info["user"], PASSWORDS[tree])
    got = [sc.get("/redfish/v1/Systems")[0] for _ in range(3)]
    check(got == [200, 200, 401], "%s: the session expires after 2 requests" % tree, got)
    svc.faults(0, session_expire_after=None)
    sc.token = None
    sc.login(svc.info["user"], PASSWORDS[tree])
    check(sc.get("/redfish/v1/Systems")[0] == 200, "%s: a new session works" % tree)
    svc.control("POST", "/hosts/0/expire-sessions")
    s, _, b = sc.get("/redfish/v1/Systems")
    check(is_error(s, b, 401, "NoValidSession"), "%s: expire-sessions ends it" % tree, b)

    # Bodies: malformed JSON, wrong types, huge.
    systems = "/redfish/v1/Systems"
    svc.faults(0, malformed=[systems])
    s, _, raw = c.get(systems, raw=True)
    try:
        json.loads(raw)
        check(False, "%s: malformed JSON is malformed" % tree, raw)
    except ValueError:
        check(s == 200, "%s: malformed JSON with 200" % tree)
    svc.faults(0, malformed=None, wrong_types=["/redfish/v1/Systems/*"])
    _, _, sys_ = c.get(c.get(systems)[2]["Members"][0]["@odata.id"])
    check(isinstance(sys_["Status"], dict) and isinstance(sys_["Status"]["State"], int)
          and isinstance(sys_["Links"]["Chassis"], dict), "%s: wrong types" % tree, sys_)
    svc.faults(0, wrong_types=None, huge=["/redfish/v1/Chassis"], huge_bytes=4 << 20)
    s, h, b = c.get("/redfish/v1/Chassis")
    check(s == 200 and int(h["Content-Length"]) >= 4 << 20 and b["Members"],
          "%s: a huge valid body" % tree, h)
    svc.faults(0, huge=None, huge_bytes=None)

    # A refusal the test scripts, with its message and resolution.
    svc.faults(0, errors=[{"method": "GET", "path": "/redfish/v1/Chassis*", "status": 503,
                           "message_id": "IDRAC.2.9.SYS446", "message": "The BMC is busy.",
                           "resolution": "Retry later."}])
    s, _, b = c.get("/redfish/v1/Chassis")
    check(is_error(s, b, 503, "SYS446") and b["error"]["@Message.ExtendedInfo"][0]["Message"]
          == "The BMC is busy.", "%s: a scripted refusal" % tree, b)
    svc.faults(0, errors=None)

    # Few sessions at once, redirects, a request body over 1 MiB.
    svc.faults(0, max_sessions=1)
    a, b_ = Client(port, svc.ctx), Client(port, svc.ctx)
    s1, h1, _ = a.login(svc.info["user"], PASSWORDS[tree])
    s2, _, b = b_.login(svc.info["user"], PASSWORDS[tree])
    check(s1 == 201 and is_error(s2, b, 503, "SessionLimitExceeded"),
          "%s: the session limit" % tree, (s1, s2, b))
    a.request("DELETE", h1["Location"])
    s2 = b_.login(svc.info["user"], PASSWORDS[tree])[0]
    check(s2 == 201, "%s: a session after a logout" % tree, s2)
    svc.faults(0, max_sessions=None, redirects=[
        {"path": "/redfish/v1/Chassis", "location": "https://127.0.0.1:%d/redfish/v1/Chassis"
         % svc.port(1)}])
    s, h, _ = c.get("/redfish/v1/Chassis", raw=True)
    check(s == 307 and h["Location"].endswith(":%d/redfish/v1/Chassis" % svc.port(1)),
          "%s: a redirect to another host" % tree, (s, dict(h)))
    svc.faults(0, redirects=None)
    s, _, b = c.request("POST", "/redfish/v1/SessionService/Sessions",
                        b"{" + b" " * (2 << 20) + b"}")
    check(is_error(s, b, 413, "PayloadTooLarge"), "%s: a request body over 1 MiB" % tree, b)
    s, out = svc.control("GET", "/hosts/0")
    check(s == 200 and ["GET", "/redfish/v1/Chassis", 503, "basic"] in out["requests"]
          and ["POST", "/redfish/v1/SessionService/Sessions", 201, "none"] in out["requests"]
          and ["DELETE", h1["Location"], 204, "session"] in out["requests"],
          "%s: the control endpoint logs requests" % tree, out.get("requests", [])[-3:])


def case_fleet(tmp):
    """Many hosts in one process, independent, some dead."""
    svc = Service(tmp, "--tree", "modern", "--hosts", "1000", "--dead-hosts", "3,500",
                  "--dead-mode", "refuse", "--delay-ms", "1-2")
    try:
        hosts = svc.info["hosts"]
        ports = {h["port"] for h in hosts}
        check(len(hosts) == 1000 and len(ports) == 1000, "fleet: 1000 hosts on 1000 ports")
        check([h["index"] for h in hosts if h["dead"]] == [3, 500], "fleet: dead hosts listed")
        for i in (0, 1, 999):
            s, _, b = svc.client(i).get("/redfish/v1/Systems/1")
            check(s == 200 and b["Id"] == "1", "fleet: host %d answers" % i, s)
        try:
            svc.client(3).get("/redfish/")
            check(False, "fleet: host 3 is dead")
        except ConnectionRefusedError:
            check(True, "")
        c1 = svc.client(1)
        s, _, _ = c1.request("PATCH", "/redfish/v1/Chassis/1/Drives/7",
                             {"LocationIndicatorActive": True})
        check(s == 200, "fleet: host 1 changed")
        check(svc.client(2).get("/redfish/v1/Chassis/1/Drives/7")[2]["LocationIndicatorActive"]
              is False, "fleet: host 2 is independent of host 1")
        # A fleet client holds a connection to every host at once.
        held = [svc.client(i) for i in range(600, 900)]
        for cl in held:
            cl.get("/redfish/v1/")
        with open("/proc/%d/status" % svc.proc.pid) as f:
            rss = [int(line.split()[1]) for line in f if line.startswith("VmRSS")][0]
        print("fleet: 1000 hosts, 300 TLS connections open: VmRSS %d MiB" % (rss >> 10))
        check(rss < 100 << 10, "fleet: 1000 hosts, 300 connections in under 100 MiB", rss)
        for cl in held:
            cl.conn.close()
    finally:
        svc.stop()


def case_ports(tmp):
    """--base-port: host i on P+i, the same lines on stdout as in the ready
    file. P is tried a few times, as another process may hold a port."""
    for attempt in range(5):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        ready = os.path.join(tmp, "ports-%d.json" % attempt)
        proc = subprocess.Popen(
            [sys.executable, SERVICE, "--tls-dir", os.path.join(tmp, "tls"), "--hosts", "3",
             "--base-port", str(base), "--ready-file", ready], stdout=subprocess.PIPE, text=True)
        lines = [proc.stdout.readline().strip() for _ in range(4)]
        if proc.poll() is None and os.path.exists(ready):
            break
        proc.wait()
    with open(ready) as f:
        info = json.load(f)
    check([h["port"] for h in info["hosts"]] == [base, base + 1, base + 2],
          "--base-port: hosts on P, P+1, P+2", info["hosts"])
    check(lines == ["control " + info["control"]] +
          ["host %d https://127.0.0.1:%d" % (i, base + i) for i in range(3)],
          "the listeners on stdout", lines)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)


def load_schema():
    with open(os.path.join(HERE, "schema.json")) as f:
        SCHEMA.update(json.load(f))


def main():
    load_trees()
    load_schema()
    with tempfile.TemporaryDirectory(prefix="rfservice-") as tmp:
        for tree in ("idrac", "modern"):
            svc = Service(tmp, "--tree", tree, "--hosts", "2")
            try:
                for case in (case_tls_and_auth, case_tree, case_expand, case_volumes,
                             case_patch, case_actions, case_faults):
                    try:
                        case(svc, tree)
                    except Exception as e:  # a crash is one failure, not the end
                        import traceback
                        traceback.print_exc()
                        check(False, "%s: %s raised %r" % (tree, case.__name__, e))
                    svc.control("POST", "/hosts/0/reset")
            finally:
                svc.stop()
            check(svc.proc.returncode == 0, "%s: the service stops cleanly" % tree,
                  svc.proc.returncode)
        case_ports(tmp)
        case_fleet(tmp)
    print("%d checks, %d failed" % (checks, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
