#!/usr/bin/env python3
"""evtool view's speed and memory on one log.

usage: bench/view.py EVTOOL LOG [N]

Prints the time of `evtool info LOG`; the time from starting `evtool view
LOG` to its first tile (the server is ready), to its first tile that
covers the whole run (the preview's, or the index's once complete) and to
the index's completion, with the CPU time each took (user + system: what a loaded
machine does not change much); the server's peak memory (VmHWM); and the
p50/p99/max time of
N (default 1000) /api/tiles (width 1500) at random viewports, N at random
deep zooms (at most 64 buckets), N /api/events (limit 100), N
/api/threads (width 1500, 32 rows), N /api/window (the figures of
filter | stats, at random ranges) and N /api/bands requests: the
server's own time per answer (its Server-Timing header: the handler's
wall time, and its thread's CPU time in it), the time on the client over
loopback, and the bytes the server read from the disk (not the page
cache) while answering them (/proc/PID/io read_bytes).
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


def get(path, timing=None):
    """The answer to `path`; its Server-Timing figures (ms) in `timing`."""
    sep = "&" if "?" in path else "?"
    with urllib.request.urlopen(base + path + sep + "token=" + token) as r:
        if timing is not None:
            for part in r.headers.get("Server-Timing", "").split(","):
                name, _, dur = part.strip().partition(";dur=")
                timing[name] = float(dur)
        return r.read()


def disk_read(pid):
    """The bytes process `pid` has had read from storage."""
    return int(re.search(r"read_bytes:\s+(\d+)",
                         open("/proc/%d/io" % pid).read()).group(1))


tile = json.loads(get("/api/tiles?width=1500"))
ready_s = time.time() - t0
answers = [(ready_s, tile["to"], tile.get("preview", False))]
while True:
    meta = json.loads(get("/api/meta"))
    if meta["at_end"]:
        break
    time.sleep(0.05)
    tile = json.loads(get("/api/tiles?width=1500"))
    answers.append((time.time() - t0, tile["to"], tile.get("preview", False)))
index_s = time.time() - t0
# The first answer whose range reached the run's end: the whole run's
# picture (the preview's, or the index's once it is complete).
whole_s, whole_preview = next(((t, pv) for t, to, pv in answers
                               if to >= meta["end_ns"]), (index_s, False))
index_cpu = cpu_of(p.pid)
random.seed(1)
kinds = ("tiles", "zoomed", "events", "threads", "window", "bands")
lat = {k: [] for k in kinds}     # on the client
answer = {k: [] for k in kinds}  # the server's handler, wall
cpu = {k: [] for k in kinds}     # the server's thread, CPU
disk = {k: 0 for k in kinds}     # bytes read from storage
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
        timing = {}
        d = disk_read(p.pid)
        t = time.perf_counter()
        get(path, timing)
        lat[kind].append((time.perf_counter() - t) * 1000)
        disk[kind] += disk_read(p.pid) - d
        answer[kind].append(timing.get("answer", float("nan")))
        cpu[kind].append(timing.get("cpu", float("nan")))
hwm = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % p.pid).read()).group(1))
p.terminate()
p.wait()
print("log %s: %.0f MB, %d capabilities, bucket %d ns" % (
    log, meta["log_bytes"] / 1e6, meta["capabilities"], meta["bucket_ns"]))
print("evtool info            %.2f s (CPU %.2f s)" % (info_s, info_cpu))
print("view: first tile       %.2f s" % ready_s)
print("view: whole run shown  %.2f s (target %.2f s)%s" % (
    min(whole_s, index_s), 1.5 * info_s + 1,
    " (the preview)" if whole_preview else ""))
print("view: index complete   %.2f s (CPU %.2f s)%s" % (
    index_s, index_cpu, " (from the cache)" if meta.get("from_cache") else ""))
print("view: peak memory      %.1f MB (target 128 MB)" % (hwm / 1024))
print("machine load average %.1f (1 min) at the end" % os.getloadavg()[0])


def quantiles(v):
    v = sorted(v)
    return "p50 %6.1f  p99 %6.1f  max %6.1f" % (
        v[len(v) // 2], v[int(len(v) * 0.99)], v[-1])


print("ms over %d each (target: the server's p99 at most 50 ms)" % n)
for kind in kinds:
    print("%-7s server %s | cpu %s | client %s | disk %.1f MB" % (
        kind, quantiles(answer[kind]), quantiles(cpu[kind]),
        quantiles(lat[kind]), disk[kind] / 1e6))
