#!/usr/bin/env python3
"""evtool view's speed and memory on one log.

usage: bench/view.py EVTOOL LOG [N]

Prints the time of `evtool info LOG`; the time from starting `evtool view
LOG` to its first whole-run tile (the server is ready) and to the index's
completion; the server's peak memory (VmHWM); and the p50/p99/max time of
N (default 1000) /api/tiles (width 1500) at random viewports, N at random
deep zooms (at most 64 buckets) and N /api/events
(limit 100) requests, measured on the client over loopback (so
an upper bound of the server's time)."""
import json
import random
import re
import subprocess
import sys
import time
import urllib.request

evtool, log = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
t0 = time.time()
subprocess.run([evtool, "info", log], stdout=subprocess.DEVNULL, check=True)
info_s = time.time() - t0

t0 = time.time()
p = subprocess.Popen([evtool, "view", log], stdout=subprocess.PIPE, text=True)
url = p.stdout.readline().strip()
base, token = re.match(r"(http://[^/]+)/\?token=(\w+)", url).groups()


def get(path):
    sep = "&" if "?" in path else "?"
    with urllib.request.urlopen(base + path + sep + "token=" + token) as r:
        return r.read()


get("/api/tiles?width=1500")
ready_s = time.time() - t0
while True:
    meta = json.loads(get("/api/meta"))
    if meta["at_end"]:
        break
    time.sleep(0.05)
index_s = time.time() - t0
random.seed(1)
lat = {"tiles": [], "zoomed": [], "events": []}
for i in range(n):
    a = random.randint(meta["start_ns"], meta["end_ns"] - 1)
    b = random.randint(a + 1, meta["end_ns"])
    # A deep zoom: at most 64 buckets (drawn from the events themselves
    # when their blocks span at most 4 MiB).
    z = random.randint(1000, 64 * meta["bucket_ns"])
    za = random.randint(meta["start_ns"], max(meta["start_ns"], meta["end_ns"] - z))
    for kind, path in (("tiles", "/api/tiles?from=%d&to=%d&width=1500" % (a, b)),
                       ("zoomed", "/api/tiles?from=%d&to=%d&width=1500" % (za, za + z)),
                       ("events", "/api/events?cap=%d&from=%d&to=%d&limit=100"
                        % (random.randrange(meta["capabilities"]), a, b))):
        t = time.perf_counter()
        get(path)
        lat[kind].append((time.perf_counter() - t) * 1000)
hwm = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % p.pid).read()).group(1))
p.terminate()
p.wait()
print("log %s: %.0f MB, %d capabilities, bucket %d ns" % (
    log, meta["log_bytes"] / 1e6, meta["capabilities"], meta["bucket_ns"]))
print("evtool info            %.2f s" % info_s)
print("view: first whole tile %.2f s (target %.2f s)" % (ready_s, 1.5 * info_s + 1))
print("view: index complete   %.2f s" % index_s)
print("view: peak memory      %.1f MB (target 128 MB)" % (hwm / 1024))
for kind, v in lat.items():
    v.sort()
    print("%-6s p50 %.1f ms  p99 %.1f ms  max %.1f ms over %d (target p99 50 ms)" % (
        kind, v[len(v) // 2], v[int(len(v) * 0.99)], v[-1], len(v)))
