#!/usr/bin/env python3
"""evtool view's speed and memory on one log.

usage: bench/view.py EVTOOL LOG [N]

Prints the time of `evtool info LOG`; the time from starting `evtool view
LOG` to its first whole-run tile (the server is ready) and to the index's
completion, with the CPU time each took (user + system: what a loaded
machine does not change much); the server's peak memory (VmHWM); and the
p50/p99/max time of
N (default 1000) /api/tiles (width 1500) at random viewports, N at random
deep zooms (at most 64 buckets), N /api/events (limit 100), N
/api/threads (width 1500, 32 rows), N /api/window (the figures of
filter | stats, at random ranges) and N /api/bands requests, measured
on the client over loopback (so an upper bound of the server's time).
With --cache DIR, the server keeps its index there: run twice, the
second start reads the cache."""
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.request

args = sys.argv[1:]
cache = []
if "--cache" in args:
    i = args.index("--cache")
    cache = ["--cache", args[i + 1]]
    del args[i:i + 2]
evtool, log = args[0], args[1]
n = int(args[2]) if len(args) > 2 else 1000
t0 = time.time()
c0 = os.times()
subprocess.run([evtool, "info", log], stdout=subprocess.DEVNULL, check=True)
info_s = time.time() - t0
c1 = os.times()
info_cpu = c1.children_user + c1.children_system - c0.children_user - c0.children_system


def cpu_of(pid):
    """The CPU time (user + system) process `pid` has taken, in seconds."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


t0 = time.time()
p = subprocess.Popen([evtool, "view", *cache, log], stdout=subprocess.PIPE,
                     text=True)
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
index_cpu = cpu_of(p.pid)
random.seed(1)
lat = {"tiles": [], "zoomed": [], "events": [], "threads": [], "window": [], "bands": []}
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
                        % (random.randrange(meta["capabilities"]), a, b)),
                       ("threads", "/api/threads?from=%d&to=%d&width=1500&limit=32"
                        % (a, b)),
                       ("window", "/api/window?from=%d&to=%d" % (a, b)),
                       ("bands", "/api/bands?from=%d&to=%d&width=1500" % (a, b))):
        t = time.perf_counter()
        get(path)
        lat[kind].append((time.perf_counter() - t) * 1000)
hwm = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % p.pid).read()).group(1))
p.terminate()
p.wait()
print("log %s: %.0f MB, %d capabilities, bucket %d ns" % (
    log, meta["log_bytes"] / 1e6, meta["capabilities"], meta["bucket_ns"]))
print("evtool info            %.2f s (CPU %.2f s)" % (info_s, info_cpu))
print("view: first whole tile %.2f s (target %.2f s)" % (ready_s, 1.5 * info_s + 1))
print("view: index complete   %.2f s (CPU %.2f s)%s" % (
    index_s, index_cpu, " (from the cache)" if meta.get("from_cache") else ""))
print("view: peak memory      %.1f MB (target 128 MB)" % (hwm / 1024))
for kind, v in lat.items():
    v.sort()
    print("%-6s p50 %.1f ms  p99 %.1f ms  max %.1f ms over %d (target p99 50 ms)" % (
        kind, v[len(v) // 2], v[int(len(v) * 0.99)], v[-1], len(v)))
