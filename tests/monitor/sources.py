#!/usr/bin/env python3
"""evtool monitor's sources and server, on real logs, all at once.

    tests/monitor/sources.py EVTOOL TESTDATA

One monitor follows, at the same time:
  clean     a FIFO: threads-n2, written in pieces with pauses;
  damaged   a FIFO: gc-n2 with 64 bytes overwritten in its middle: the
            figures are those of `evtool truncate --resync` of it, the
            skipped bytes the ones truncate reports;
  cut       a FIFO: sparks-n2 cut inside an event, then closed: the
            figures of the cut log, reported truncated;
  garbage   a FIFO: bytes that are no eventlog, then (a new writer) the
            real user-n1: the first is reported, the second read;
  socket    unix:PATH: this script plays eventlog-socket: it serves
            heap-n1, closes, and serves threads-n1 (a restart);
  growing   a file written in pieces: gc-n2;
  stalled   a FIFO whose writer sends a header and some events, then
            nothing: reported stalled (--stall 500ms), its series live;
The series of ended sessions go after --keep-ended (6 s); live ones stay.
A writer whose bytes are no eventlog is read to its end, never cut off
(it gets no SIGPIPE).
Every figure served for a finished source equals `evtool stats --json`
of what was sent. Bad requests get their 4xx (404, 405, 403 for a foreign
Host, 413 for a body, 505 for an unknown HTTP version, 431 for headers too
large); malformed request lines are dropped (libmicrohttpd closes them)
and the server still answers; promtool accepts the pages; doc/evtool.1
documents every metric served; SIGTERM ends the monitor with
exit 0. Exit 77 (a skip) without promtool.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

failed = 0


def check(ok, what):
    global failed
    print(("ok " if ok else "FAIL ") + what)
    failed += not ok


def get(url, headers=None, method="GET", data=None):
    req = urllib.request.Request(url, headers=headers or {}, method=method,
                                 data=data)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def raw(port, request):
    """The status line of the answer; "" when the server closed the
    connection or did not answer within a second."""
    s = socket.create_connection(("127.0.0.1", port), timeout=1)
    s.sendall(request)
    try:
        answer = s.recv(4096).decode(errors="replace")
    except socket.timeout:
        answer = ""
    s.close()
    return answer.split("\r\n")[0]


def status_code(line):
    return line.split(" ")[1] if line.count(" ") >= 2 else ""


def pieces(data, n=7):
    step = 1 + len(data) // n
    return [data[i:i + step] for i in range(0, len(data), step)]


def write_fifo(path, data, pause=0.05, hold=None):
    with open(path, "wb") as f:
        for p in pieces(data):
            f.write(p)
            f.flush()
            time.sleep(pause)
        if hold:
            hold.wait()


def serve_socket(path, logs):
    for data in logs:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        server.settimeout(20)
        conn, _ = server.accept()
        for p in pieces(data):
            conn.sendall(p)
            time.sleep(0.03)
        conn.close()
        server.close()
        os.unlink(path)
        time.sleep(0.3)


def grow(path, data):
    with open(path, "ab") as f:
        for p in pieces(data):
            f.write(p)
            f.flush()
            time.sleep(0.05)


def stats(evtool, path):
    out = subprocess.run([evtool, "stats", "--json", path],
                         capture_output=True).stdout
    return json.loads(out)["files"][0]["processes"][0]


def sample(page, name, source, extra=""):
    """The values of `name` for `source` (a list: one per session)."""
    key = 'source="%s"%s}' % (source, extra)
    return [int(float(l.rsplit(" ", 1)[1])) for l in page.split("\n")
            if l.startswith(name + "{") and key in l]


def same_as_stats(page, source, want, what, sessions=1):
    alloc = sample(page, "ghc_eventlog_heap_allocated_bytes_total", source)
    g0 = sample(page, "ghc_gc_collections_total", source, ',generation="0"')
    check(alloc[:sessions] == [w["allocated_bytes"] for w in want] and
          g0[:sessions] == [w["generations"][0]["collections"] for w in want],
          "%s: allocated %s and gen 0 collections %s as stats" % (
              what, alloc, g0))


def main():
    evtool, testdata = sys.argv[1:3]
    promtool = shutil.which("promtool")
    if not promtool:
        print("skip: no promtool")
        sys.exit(77)
    log = {n: open(os.path.join(testdata, n + ".eventlog"), "rb").read()
           for n in ("threads-n2", "gc-n2", "sparks-n2", "user-n1", "heap-n1",
                     "threads-n1")}
    with tempfile.TemporaryDirectory() as tmp:
        path = {n: os.path.join(tmp, n) for n in
                ("clean", "damaged", "cut", "garbage", "stalled")}
        for p in path.values():
            os.mkfifo(p)
        sock = os.path.join(tmp, "sock")
        growing = os.path.join(tmp, "growing.eventlog")
        open(growing, "wb").close()
        mon = subprocess.Popen(
            [evtool, "monitor", "--listen", "127.0.0.1:0", "--stall", "500ms",
             "--keep-ended", "6s"] + list(path.values()) +
            ["unix:" + sock, growing], stderr=subprocess.PIPE)
        line = mon.stderr.readline().decode()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        url = "http://127.0.0.1:%d" % port
        errors = []
        threading.Thread(target=lambda: errors.append(mon.stderr.read()),
                         daemon=True).start()

        damaged = bytearray(log["gc-n2"])
        mid = len(damaged) // 2
        damaged[mid:mid + 64] = b"\xff" * 64
        fixed = os.path.join(tmp, "fixed.eventlog")
        subprocess.run([evtool, "truncate", "--resync", "-o", fixed, "-"],
                       input=bytes(damaged), capture_output=True)
        cut = log["sparks-n2"][:len(log["sparks-n2"]) * 2 // 3 + 3]
        cut_file = os.path.join(tmp, "cut.eventlog")
        open(cut_file, "wb").write(cut)
        hold = threading.Event()
        stalled = log["threads-n2"][:len(log["threads-n2"]) // 3]
        writers = [
            threading.Thread(target=write_fifo, args=(path["clean"],
                                                      log["threads-n2"])),
            threading.Thread(target=write_fifo, args=(path["damaged"],
                                                      bytes(damaged))),
            threading.Thread(target=write_fifo, args=(path["cut"], cut)),
            threading.Thread(target=lambda: (
                write_fifo(path["garbage"], os.urandom(5000)),
                time.sleep(0.3),
                write_fifo(path["garbage"], log["user-n1"]))),
            threading.Thread(target=serve_socket, args=(
                sock, [log["heap-n1"], log["threads-n1"]])),
            threading.Thread(target=grow, args=(growing, log["gc-n2"])),
        ]
        stall_writer = threading.Thread(target=write_fifo, args=(
            path["stalled"], stalled, 0.01, hold), daemon=True)
        stall_writer.start()
        pages = []
        for w in writers:
            w.start()
        while any(w.is_alive() for w in writers):
            pages.append(get(url + "/metrics")[1])
            time.sleep(0.1)
        time.sleep(1.0)
        status, page = get(url + "/metrics")
        pages.append(page)

        same_as_stats(page, path["clean"], [stats(evtool, os.path.join(
            testdata, "threads-n2.eventlog"))], "a FIFO written in pieces")
        same_as_stats(page, path["damaged"], [stats(evtool, fixed)],
                      "damaged bytes skipped as truncate --resync")
        skipped = sample(page, "ghc_eventlog_source_skipped_bytes_total",
                         path["damaged"])
        check(skipped and skipped[0] > 0, "skipped bytes counted: %s" % skipped)
        same_as_stats(page, path["cut"], [stats(evtool, cut_file)],
                      "a log cut inside an event")
        same_as_stats(page, path["garbage"], [stats(evtool, os.path.join(
            testdata, "user-n1.eventlog"))], "a new writer after garbage")
        check(sample(page, "ghc_eventlog_source_errors_total",
                     path["garbage"]) == [1], "garbage counted as an error")
        same_as_stats(page, "unix:" + sock, [
            stats(evtool, os.path.join(testdata, n + ".eventlog"))
            for n in ("threads-n1", "heap-n1")], "a socket and its restart", 2)
        same_as_stats(page, growing, [stats(evtool, os.path.join(
            testdata, "gc-n2.eventlog"))], "a growing file")
        check(sample(page, "ghc_eventlog_source_stalled", path["stalled"]) ==
              [1] and sample(page, "ghc_eventlog_live", path["stalled"]) == [1],
              "a stalled FIFO is reported and stays live")

        bad = [("/nope", {}, "GET", None, 404),
               ("/metrics", {}, "POST", b"", 405),
               ("/metrics", {"Host": "evil.example.com"}, "GET", None, 403),
               ("/metrics", {"Content-Length": "3"}, "GET", b"abc", 413)]
        for p, h, m, d, code in bad:
            check(get(url + p, h, m, d)[0] == code,
                  "%s %s %s: %d" % (m, p, h, code))
        for request, want in ((b"\x00\x01garbage\r\n\r\n", ("", "400")),
                              (b"GARBAGE\r\n\r\n", ("", "400")),
                              (b"GET /metrics HTTP/9.9\r\n\r\n", ("505",)),
                              (b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n"
                               b"X: " + b"a" * 100000 + b"\r\n\r\n", ("431",))):
            got = status_code(raw(port, request))
            check(got in want and get(url + "/metrics")[0] == 200,
                  "%r...: %s, and the server still answers" % (
                      request[:12], got or "closed"))
        status, html = get(url + "/")
        check(status == 200 and path["clean"] in html, "the status page")

        time.sleep(6.5)  # --keep-ended 6s
        page = get(url + "/metrics")[1]
        check(not sample(page, "ghc_eventlog_heap_allocated_bytes_total",
                         path["clean"]), "ended series go after --keep-ended")
        check(sample(page, "ghc_eventlog_live", path["stalled"]) == [1],
              "the live series stay")
        man = open(os.path.join(testdata, os.pardir, "doc", "evtool.1")).read()
        families = set(l.split()[2] for p in pages + [page]
                       for l in p.split("\n") if l.startswith("# TYPE "))
        undocumented = [f for f in families if f not in man]
        check(len(families) > 25 and not undocumented,
              "the man page documents the %d metrics served (missing: %s)" % (
                  len(families), undocumented))
        bad_pages = 0
        for p in set(pages + [page]):
            r = subprocess.run([promtool, "check", "metrics"], input=p.encode(),
                               capture_output=True)
            bad_pages += r.returncode != 0
        check(bad_pages == 0, "promtool accepts %d pages" % len(set(pages)))
        hold.set()
        mon.send_signal(signal.SIGTERM)
        mon.wait(timeout=10)
        check(mon.returncode == 0, "SIGTERM: exit %d" % mon.returncode)
        time.sleep(0.2)
        err = b"".join(errors).decode()
        # truncate --resync skips 78648 bytes up to the block at 158154.
        for want in ("offset 79506: skipped 78648 bytes to the block at "
                     "offset 158154", "(truncated)", "nothing read for",
                     "not a GHC eventlog"):
            check(want in err, "reported: %s" % want)
        sys.stderr.write(err)
    print("%d failed" % failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
