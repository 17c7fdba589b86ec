#!/usr/bin/env python3
"""evtool view's API, with curl against a real server on real logs.

For each log of testdata/ (and the corpus, when given) of one session:
the tiles of the whole run hold each capability's mutator and GC time
exactly as `evtool stats --caps --json` gives them, in one span and in
spans that cut no bucket; /api/events, paged through to its end, gives
each capability's events as `evtool show` prints them, in the same order;
a search finds the thread labels show prints. Then the refusals: no
token, a wrong token, a foreign Host, bad parameters, an unknown path, a
method other than GET and HEAD; the server is still up after them.

usage: api.py EVTOOL TESTDATA [CORPUS]
"""
import glob
import json
import os
import re
import subprocess
import sys
import urllib.parse

import shutil

if not shutil.which("curl"):
    print("0 passed, 0 failed, 1 skipped: no curl")
    sys.exit(77)
EVTOOL = sys.argv[1]
LOGS = sorted(glob.glob(os.path.join(sys.argv[2], "*.eventlog")))
if len(sys.argv) > 3 and os.path.isdir(sys.argv[3]):
    LOGS += sorted(glob.glob(os.path.join(sys.argv[3], "*.eventlog")))[:6]
failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


class Server:
    def __init__(self, *logs):
        self.proc = subprocess.Popen([EVTOOL, "view", *logs],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        url = self.proc.stdout.readline().strip()
        m = re.match(r"(http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{32})$", url)
        if not m:
            self.stop()
            raise SystemExit("no URL from evtool view: %r %s"
                             % (url, self.proc.stderr.read()))
        self.base, self.token = m.group(1), m.group(2)

    def curl(self, path, *extra):
        """(status, body) of GET path (token added unless path has one)."""
        sep = "&" if "?" in path else "?"
        url = self.base + path
        if "token=" not in path:
            url += sep + "token=" + self.token
        out = subprocess.run(["curl", "-s", "-m", "10", "-w", "\n%{http_code}",
                              *extra, url], capture_output=True, text=True,
                             check=True).stdout
        body, _, status = out.rpartition("\n")
        return int(status), body

    def json(self, path):
        status, body = self.curl(path)
        if status != 200:
            raise AssertionError("%s: %d %s" % (path, status, body))
        return json.loads(body)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def wait_complete(s):
    for _ in range(200):
        meta = s.json("/api/meta")
        if meta["at_end"]:
            return meta
    raise AssertionError("the index never completed")


def one_session(log):
    info = subprocess.run([EVTOOL, "info", log], capture_output=True,
                          text=True).stdout
    return re.search(r"\b1 session\b", info) is not None


def tiles_agree(s, log, meta):
    stats = json.loads(subprocess.run(
        [EVTOOL, "stats", "--caps", "--json", log], capture_output=True,
        text=True).stdout)
    if not stats["files"]:  # a log of no events: nothing to compare
        return
    caps = stats["files"][0]["capabilities"]
    w = meta["bucket_ns"] * 16
    to = (meta["end_ns"] // w + 1) * w
    for width in (1, 16):
        t = s.json("/api/tiles?from=0&to=%d&width=%d" % (to, width))
        rows = {r["cap"]: r for r in t["caps"]}
        for c in caps:
            r = rows.get(c["cap"])
            check(r is not None and sum(r["run_ns"]) == c["mutator_ns"]
                  and sum(r["gc_ns"]) == c["gc_ns"],
                  "%s cap %d width %d: tiles %s/%s, stats --caps %d/%d" % (
                      log, c["cap"], width,
                      r and sum(r["run_ns"]), r and sum(r["gc_ns"]),
                      c["mutator_ns"], c["gc_ns"]))


def show_lines(log, cap):
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    mark = ": cap %d: " % cap
    return [l for l in out.splitlines()
            if mark in l and "event block" not in l]


def events_agree(s, log, meta, cap):
    got, cursor = [], "from=0&to=%d" % (meta["end_ns"] + 1)
    for _ in range(10000):
        page = s.json("/api/events?cap=%d&limit=1000&%s" % (cap, cursor))
        got += [(e["time"], e["show"]) for e in page["events"]]
        if page["next"] is None:
            break
        cursor = "from=0&to=%d&block=%d&after=%d" % (
            meta["end_ns"] + 1, page["next"]["block"], page["next"]["after"])
    # show sorts by time, stably: the API gives the log's order.
    got = [line for _, line in sorted(got, key=lambda e: e[0])]
    want = show_lines(log, cap)
    check(got == want, "%s cap %d: %d events from the API, %d from show%s" % (
        log, cap, len(got), len(want),
        "" if got == want else ": first difference %r" % (next(
            ((a, b) for a, b in zip(got, want) if a != b), None),)))


def refusals(s):
    status, _ = s.curl("/api/meta?token=")
    check(status == 403, "an empty token: %d" % status)
    status, _ = s.curl("/api/meta?token=" + "0" * 32)
    check(status == 403, "a wrong token: %d" % status)
    status, _ = s.curl("/api/meta", "-H", "Host: evil.example:80")
    check(status == 403, "a foreign Host: %d" % status)
    for bad in ("width=0", "width=100000", "from=5&to=3", "from=1",
                "from=x&to=2", "limit=0&cap=0", "cap=-1"):
        status, body = s.curl("/api/tiles?" + bad)
        check(status == 400 and body.startswith("bad parameter"),
              "tiles?%s: %d %r" % (bad, status, body))
    status, _ = s.curl("/api/events")
    check(status == 400, "events without a cap: %d" % status)
    status, _ = s.curl("/api/search?q=")
    check(status == 400, "an empty search: %d" % status)
    status, _ = s.curl("/etc/passwd")
    check(status == 404, "a path: %d" % status)
    status, _ = s.curl("/api/meta", "-X", "POST")
    check(status == 405, "POST: %d" % status)
    # The token in the query sets a cookie that serves without it.
    jar = "/tmp/evtool-view-api-%d.cookies" % os.getpid()
    s.curl("/", "-c", jar)
    status, _ = s.curl("/api/meta?token=", "-b", jar)
    check(status == 403, "a wrong token in the query beats the cookie")
    out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                          "-b", jar, s.base + "/api/meta"],
                         capture_output=True, text=True).stdout
    os.unlink(jar)
    check(out == "200", "the cookie alone: %s" % out)
    status, body = s.curl("/api/meta")
    check(status == 200, "still serving after the refusals")


def search_finds_labels(s, log):
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    labels = re.findall(r"thread (\d+) has label \"([^\"]+)\"", out)
    if not labels:
        return
    tid, label = labels[0]
    hits = s.json("/api/search?q=" + urllib.parse.quote(label))["hits"]
    check(any(h["kind"] == "label" and str(h["tid"]) == tid and
              h["text"] == label for h in hits),
          "%s: search %r: %s" % (log, label, hits[:3]))


for i, log in enumerate(LOGS):
    if not one_session(log):
        continue
    s = Server(log)
    try:
        meta = wait_complete(s)
        tiles_agree(s, log, meta)
        for cap in range(min(meta["capabilities"], 2)):
            events_agree(s, log, meta, cap)
        search_finds_labels(s, log)
        if i == 0:
            refusals(s)
    finally:
        s.stop()

# Several logs are one timeline, as `evtool merge` aligns them.
a, b = (os.path.join(sys.argv[2], n) for n in ("merge-a.eventlog",
                                               "merge-b.eventlog"))
merged = "/tmp/evtool-view-api-%d.eventlog" % os.getpid()
subprocess.run([EVTOOL, "merge", a, b, "-o", merged], check=True)
s = Server(a, b)
try:
    meta = wait_complete(s)
    tiles_agree(s, merged, meta)
    check([p["pid"] is not None and p["program"] for p in meta["processes"]]
          == ["./worker", "./worker"], "two processes: %s" % meta["processes"])
finally:
    s.stop()
    os.unlink(merged)

# unix:PATH, the socket of a program using eventlog-socket: a log sent
# in pieces grows on the server, then its tiles are stats --caps'.
import socket
import threading
import time

sock_path = "/tmp/evtool-view-api-%d.sock" % os.getpid()
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(sock_path)
listener.listen(1)
log = os.path.join(sys.argv[2], "gc-n2.eventlog")
data = open(log, "rb").read()


def send_in_pieces():
    conn, _ = listener.accept()
    for at in range(0, len(data), 20000):
        conn.sendall(data[at:at + 20000])
        time.sleep(0.1)
    conn.close()


threading.Thread(target=send_in_pieces, daemon=True).start()
s = Server("unix:" + sock_path)
try:
    ends = []
    for _ in range(100):
        meta = s.json("/api/meta")
        if not ends or meta["end_ns"] != ends[-1]:
            ends.append(meta["end_ns"])
        if meta["complete"]:
            break
        time.sleep(0.05)
    check(meta["complete"] and len(ends) >= 3,
          "unix: socket: the run grew %s and completed" % ends)
    tiles_agree(s, log, meta)
finally:
    s.stop()
    listener.close()
    os.unlink(sock_path)

print("%d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
