#!/usr/bin/env python3
"""evtool monitor scraped by a real Prometheus server.

    tests/monitor/prometheus.py EVTOOL SRCDIR

SRCDIR is testdata/src. Real GHC programs (gc.hs, sparks.hs, and
flooder.hs, killed with SIGKILL midway) are compiled in a temporary
directory and run with `+RTS -l -olFIFO`; `tee` copies each FIFO into a
file and into a FIFO of a directory that `evtool monitor` follows (the
FIFOs are made after the monitor started: the directory picks them up).
gc.hs runs twice on the same FIFO (a restart: a new session, a new pid).
Prometheus (Debian's prometheus package) runs on a loopback port with a
temporary storage directory and scrapes the monitor every 250 ms.

After the programs end, Prometheus' HTTP API must give, for each run, the
allocated bytes and the collections per generation that `evtool stats
--json` gives for the copy of its log; `evtool monitor --once` on the
copies must print the very samples the monitor served at the end; the
scrape target must be up with no error (Prometheus asks for OpenMetrics);
`promtool check metrics` must accept every /metrics page the test read
while the programs ran; and the monitor must exit 0 on SIGTERM.

Exit 77 (a skip) without prometheus, promtool or ghc.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

SCRAPE = "250ms"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get(url, accept=None, timeout=5):
    req = urllib.request.Request(url)
    if accept:
        req.add_header("Accept", accept)
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.status, r.headers.get("Content-Type"), r.read().decode()


def wait_for(what, check, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("FAIL: timed out waiting for %s" % what)


def compile_program(ghc, src, tmp, name):
    shutil.copy(src, os.path.join(tmp, name + ".hs"))
    exe = os.path.join(tmp, name)
    subprocess.run([ghc, "-O1", "-threaded", "-rtsopts", "-eventlog", "-v0",
                    "-outputdir", os.path.join(tmp, name + ".o"), "-o", exe,
                    os.path.join(tmp, name + ".hs")], check=True)
    return exe


class Scraper(threading.Thread):
    """Reads /metrics every 100 ms while the programs run."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url, self.pages, self.stop = url, {}, threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                _, _, page = get(self.url)
                self.pages[hash(page)] = page
            except OSError:
                pass
            time.sleep(0.1)


def run_program(exe, args, prog_fifo, mon_fifo, copy, kill_at=None):
    """Runs exe with its log in prog_fifo, tee'd into copy and mon_fifo."""
    os.mkfifo(prog_fifo)
    tee = subprocess.Popen(["sh", "-c", 'exec tee "$1" < "$2" > "$3"', "tee",
                            copy, prog_fifo, mon_fifo])
    prog = subprocess.Popen([exe] + args + ["+RTS", "-l", "-ol" + prog_fifo,
                                            "-N2", "-A64k", "-RTS"],
                            stdout=subprocess.DEVNULL)
    if kill_at:
        wait_for("the log to grow", lambda: os.path.exists(copy) and
                 os.path.getsize(copy) > kill_at, timeout=60)
        prog.send_signal(signal.SIGKILL)
    prog.wait(timeout=120)
    tee.wait(timeout=30)
    return prog.pid


def query(prom, expr):
    url = prom + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    _, _, body = get(url)
    return json.loads(body)["data"]["result"]


def series_of(results, source, pid):
    """The results of one run: its source, and its pid when the log has
    one (a log without one, cut before its global buffer was written, is
    labelled with the pid of its FIFO's writer, tee here)."""
    return [r for r in results if r["metric"].get("source") == source and
            (pid is None or r["metric"].get("pid") == str(pid))]


def check_run(prom, evtool, copy, source):
    out = subprocess.run([evtool, "stats", "--json", copy],
                         capture_output=True).stdout
    proc = json.loads(out)["files"][0]["processes"][0]
    pid = proc.get("pid")
    problems = []
    alloc = series_of(query(prom, "ghc_eventlog_heap_allocated_bytes_total"),
                      source, pid)
    if len(alloc) != 1 or int(alloc[0]["value"][1]) != proc["allocated_bytes"]:
        problems.append("allocated %s, stats %d" % (
            [a["value"][1] for a in alloc], proc["allocated_bytes"]))
    colls = series_of(query(prom, "ghc_gc_collections_total"), source, pid)
    got = sorted((int(c["metric"]["generation"]), int(c["value"][1]))
                 for c in colls)
    want = [(g["gen"], g["collections"]) for g in proc["generations"]]
    if got != want:
        problems.append("collections %s, stats %s" % (got, want))
    return pid, proc, problems


def samples(text):
    """The sample lines, without the program and pid labels (a log cut
    before it names them is labelled with its FIFO's writer, tee, when
    served; --once has no writer)."""
    return set(re.sub(r'program="[^"]*",pid="[^"]*",', "", l)
               for l in text.split("\n") if l and not l.startswith("#"))


def main():
    evtool, srcdir = sys.argv[1:3]
    tools = {t: shutil.which(t) for t in ("prometheus", "promtool", "ghc")}
    missing = [t for t, path in tools.items() if not path]
    if missing:
        print("skip: no %s" % ", ".join(missing))
        sys.exit(77)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        exes = {n: compile_program(tools["ghc"], os.path.join(srcdir, n + ".hs"),
                                   tmp, n) for n in ("gc", "sparks", "flooder")}
        watched = os.path.join(tmp, "fifos")
        os.mkdir(watched)
        port, pport = free_port(), free_port()
        metrics = "http://127.0.0.1:%d/metrics" % port
        monitor = subprocess.Popen([evtool, "monitor", watched, "--listen",
                                    "127.0.0.1:%d" % port],
                                   stderr=subprocess.PIPE)
        wait_for("the monitor", lambda: get(metrics)[0] == 200)
        config = os.path.join(tmp, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n  scrape_interval: %s\n  scrape_timeout: %s\n"
                    "scrape_configs:\n  - job_name: evtool\n    static_configs:\n"
                    "      - targets: ['127.0.0.1:%d']\n" % (SCRAPE, SCRAPE, port))
        prom = "http://127.0.0.1:%d" % pport
        prometheus = subprocess.Popen(
            [tools["prometheus"], "--config.file=" + config,
             "--storage.tsdb.path=" + os.path.join(tmp, "data"),
             "--web.listen-address=127.0.0.1:%d" % pport, "--log.level=warn"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for("prometheus", lambda: get(prom + "/-/ready")[0] == 200)
            # Discovery hands targets over every 5 s: wait for a scrape.
            wait_for("a first scrape", lambda: query(prom, 'up{job="evtool"}')
                     and query(prom, 'up{job="evtool"}')[0]["value"][1] == "1")
            names = ["gc", "sparks", "restart", "killed"]
            for n in names:
                os.mkfifo(os.path.join(watched, n + ".fifo"))
            wait_for("the FIFOs to be followed", lambda: all(
                os.path.join(watched, n + ".fifo") in get(metrics)[2]
                for n in names))
            scraper = Scraper(metrics)
            scraper.start()
            runs = [("gc", "gc", [], None), ("sparks", "sparks", [], None),
                    ("restart", "gc", [], None), ("restart", "gc", [], None),
                    ("killed", "flooder", [], 4500000)]
            done = []
            for i, (fifo, exe, args, kill_at) in enumerate(runs):
                copy = os.path.join(tmp, "run%d.eventlog" % i)
                mon_fifo = os.path.join(watched, fifo + ".fifo")
                run_program(exes[exe], args, os.path.join(tmp, "prog%d" % i),
                            mon_fifo, copy, kill_at)
                done.append((copy, mon_fifo, exe))
            time.sleep(2)  # the last sessions end, and are scraped
            scraper.stop.set()
            scraper.join()
            pids = {}
            for copy, mon_fifo, exe in done:
                pid, proc, problems = check_run(prom, evtool, copy, mon_fifo)
                pids.setdefault(mon_fifo, []).append(pid)
                label = "%s (pid %s)" % (exe, pid)
                for p in problems:
                    print("FAIL %s: %s" % (label, p))
                failed += len(problems) > 0
                if not problems:
                    print("ok %s: allocated %d and collections as stats" % (
                        label, proc["allocated_bytes"]))
            restart = pids[os.path.join(watched, "restart.fifo")]
            if len(set(restart)) != 2:
                print("FAIL restart: pids %s, want two" % restart)
                failed += 1
            # --once on the copies: the very samples the monitor serves.
            _, _, final = get(metrics)
            served = samples(final)
            for copy, mon_fifo, exe in done:
                once = subprocess.run([evtool, "monitor", "--once", copy],
                                      capture_output=True).stdout.decode()
                once = once.replace('source="%s"' % copy,
                                    'source="%s"' % mon_fifo)
                lost = samples(once) - served
                if lost or not samples(once):
                    print("FAIL --once %s: %d samples not served, e.g. %s" % (
                        exe, len(lost), sorted(lost)[:2]))
                    failed += 1
            print("ok --once prints the samples served")
            targets = json.loads(get(prom + "/api/v1/targets")[2])
            health = [(t["health"], t["lastError"])
                      for t in targets["data"]["activeTargets"]]
            if health != [("up", "")]:
                print("FAIL scrape target: %s" % health)
                failed += 1
            _, ctype, om = get(metrics, "application/openmetrics-text;"
                               "version=1.0.0,text/plain;q=0.5")
            if not ctype.startswith("application/openmetrics-text") or \
                    not om.endswith("# EOF\n"):
                print("FAIL OpenMetrics: %s" % ctype)
                failed += 1
            pages = list(scraper.pages.values()) + [final]
            bad = 0
            for page in pages:
                check = subprocess.run([tools["promtool"], "check", "metrics"],
                                       input=page.encode(), capture_output=True)
                if check.returncode != 0:
                    bad += 1
                    print("FAIL promtool: %s" % check.stdout.decode()[:300])
            failed += bad > 0
            print("ok promtool check metrics: %d pages" % len(pages)
                  if not bad else "")
        finally:
            prometheus.terminate()
            prometheus.wait(timeout=30)
            monitor.send_signal(signal.SIGTERM)
            _, err = monitor.communicate(timeout=30)
        if monitor.returncode != 0:
            print("FAIL monitor exit %d: %s" % (monitor.returncode, err[-300:]))
            failed += 1
        sys.stderr.write(err.decode())
    print("%d failed" % failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
