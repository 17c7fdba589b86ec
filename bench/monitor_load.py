#!/usr/bin/env python3
"""evtool monitor under load, on loopback: a benchmark, not a test.

    bench/monitor_load.py EVTOOL TESTDATA [SOURCES [SECONDS]]

SOURCES (default 200) FIFOs in a directory the monitor follows; four
writer processes replay real logs of TESTDATA into them at full speed,
each FIFO one log again and again (a new writer per replay, as a program
restarting), for SECONDS (default 30) while a client scrapes /metrics
every 100 ms. Then the writers stop and the figures are checked: every
replay was read as one session (ghc_eventlog_source_sessions_total), and
the last session of every FIFO served the allocated bytes, collections
and events of `evtool stats --json` / `evtool monitor --once` of its log:
nothing lost. Prints the throughput, the scrapes' latency and size, and
the monitor's peak resident memory (VmHWM), which must stay under 64 MB.
"""
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

LOGS = ["gc-n2", "threads-n4", "sparks-n2", "heap-n1", "user-n1",
        "threads-n2", "merge-b", "nonmoving-n2"]
LIMIT_MB = 64


def writer(fifos, logs, seconds, counts):
    """Replays each FIFO's log into it, round robin, until time is up."""
    data = {p: open(l, "rb").read() for p, l in zip(fifos, logs)}
    end = time.time() + seconds
    n = {p: 0 for p in fifos}
    while time.time() < end:
        for p in fifos:
            with open(p, "wb") as f:
                f.write(data[p])
            n[p] += 1
    counts.update(n)


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def values(page, name, extra=""):
    """{source: [values in page order]} of one metric family."""
    out = {}
    for m in re.finditer(r'^%s\{[^}]*source="([^"]*)"%s\} (\S+)$' % (
            re.escape(name), re.escape(extra)), page, re.M):
        out.setdefault(m.group(1), []).append(float(m.group(2)))
    return out


def vmhwm(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def main():
    evtool, testdata = sys.argv[1:3]
    sources = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 30
    logs = [os.path.join(testdata, LOGS[i % len(LOGS)] + ".eventlog")
            for i in range(sources)]
    want = {}
    for log in set(logs):
        p = json.loads(subprocess.run([evtool, "stats", "--json", log],
                                      capture_output=True).stdout)
        p = p["files"][0]["processes"][0]
        once = subprocess.run([evtool, "monitor", "--once", log],
                              capture_output=True).stdout.decode()
        events = values(once, "ghc_eventlog_events_total")[log][0]
        want[log] = (p["allocated_bytes"], p["collections"], events)
    with tempfile.TemporaryDirectory() as tmp:
        watched = os.path.join(tmp, "fifos")
        os.mkdir(watched)
        fifos = [os.path.join(watched, "p%03d.fifo" % i) for i in range(sources)]
        for f in fifos:
            os.mkfifo(f)
        mon = subprocess.Popen([evtool, "monitor", watched, "--listen",
                                "127.0.0.1:0", "--max-sources", str(sources)],
                               stderr=subprocess.PIPE)
        port = int(mon.stderr.readline().decode().rsplit(":", 1)[1].split("/")[0])
        url = "http://127.0.0.1:%d/metrics" % port
        while get(url).count("ghc_eventlog_source_sessions_total{") < sources:
            time.sleep(0.2)
        # The monitor's messages (one per session) are drained, not kept.
        drain = subprocess.Popen(["cat"], stdin=mon.stderr,
                                 stdout=subprocess.DEVNULL)
        manager = multiprocessing.Manager()
        counts = manager.dict()
        procs = [multiprocessing.Process(target=writer, args=(
            fifos[k::4], logs[k::4], seconds, counts)) for k in range(4)]
        start = time.time()
        for p in procs:
            p.start()
        latencies, sizes = [], []
        while any(p.is_alive() for p in procs):
            t = time.time()
            page = get(url)
            latencies.append(time.time() - t)
            sizes.append(len(page))
            time.sleep(max(0, 0.1 - (time.time() - t)))
        elapsed = time.time() - start
        time.sleep(1.0)
        page = get(url)
        hwm = vmhwm(mon.pid)
        mon.send_signal(signal.SIGTERM)
        mon.wait(timeout=30)
        drain.wait(timeout=30)

    sessions = values(page, "ghc_eventlog_source_sessions_total")
    alloc = values(page, "ghc_eventlog_heap_allocated_bytes_total")
    events = values(page, "ghc_eventlog_events_total")
    lost = 0
    for f, log in zip(fifos, logs):
        a, _, e = want[log]
        if sessions.get(f) != [counts[f]] or alloc.get(f, [None])[0] != a or \
                events.get(f, [None])[0] != e:
            lost += 1
            print("lost %s (%s): sessions %s of %d, allocated %s of %d, "
                  "events %s of %d" % (os.path.basename(f),
                  os.path.basename(log), sessions.get(f), counts[f],
                  alloc.get(f), a, events.get(f), e))
    total_sessions = sum(counts.values())
    total_bytes = sum(counts[f] * os.path.getsize(l) for f, l in zip(fifos, logs))
    total_events = sum(counts[f] * want[l][2] for f, l in zip(fifos, logs))
    latencies.sort()
    print("sources                 %d" % sources)
    print("seconds                 %.1f" % elapsed)
    print("sessions read           %d (%.0f/s)" % (total_sessions,
                                                    total_sessions / elapsed))
    print("events read             %d (%.2f M/s)" % (total_events,
                                                     total_events / elapsed / 1e6))
    print("bytes read              %.1f MB (%.1f MB/s)" % (
        total_bytes / 1e6, total_bytes / elapsed / 1e6))
    print("scrapes                 %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
        len(latencies), 1000 * latencies[len(latencies) // 2],
        1000 * latencies[int(len(latencies) * 0.99)], 1000 * latencies[-1]))
    print("page size               %.0f KB (max)" % (max(sizes) / 1024))
    print("peak RSS (VmHWM)        %.1f MB (limit %d MB)" % (hwm, LIMIT_MB))
    print("sources with a loss     %d" % lost)
    sys.exit(1 if lost or hwm > LIMIT_MB else 0)


if __name__ == "__main__":
    main()
