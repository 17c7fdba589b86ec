#!/usr/bin/env python3
"""evtool stats --follow (and show --follow) on logs being written.

    tests/stats/follow.py socket EVTOOL LOG
    tests/stats/follow.py ghc EVTOOL SOURCE.hs

socket: a Unix socket at which this script plays a program instrumented
with eventlog-socket: it listens, evtool (started first, so it must wait
for the socket) connects, and LOG is sent in pieces with pauses, cutting
the header and many events, then the connection is closed. `stats
--follow unix:PATH` must exit 0 and print exactly what it prints for the
complete file (but for the name) (its intervals are of the log's time, so they do not depend
on how the bytes arrive), whose summary is `evtool stats LOG`'s, and
whose interval lines count every collection; `show --follow unix:PATH`
must print what `show --follow LOG` prints. The same holds for a file the
log is written into in pieces while evtool follows it.

ghc: SOURCE.hs is compiled with GHC (exit 77, a skip, without ghc) and
run with `+RTS -l -olFIFO -sRTS.txt -N2 -A64k`: its log goes into a FIFO
that `evtool stats --follow` reads while the program runs. The summary's
bytes allocated and collections per generation must equal the RTS's own
`-s` report, and the GC counts of the interval lines must add up to them.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

PAUSE = 0.05


def pieces(data):
    cuts = [7, 100, 1000]
    step = 1 + len(data) // 9
    cuts += list(range(1001, len(data), step)) + [len(data) - 1]
    cuts = sorted(set(c for c in cuts if 0 < c < len(data)))
    start = 0
    for cut in cuts + [len(data)]:
        yield data[start:cut]
        start = cut


def interval_gcs(text):
    """The GCs column of the interval lines (before the summary)."""
    lines = text.split("\n")
    if not lines or not lines[0].split()[:2] == ["time", "alloc"]:
        return None
    total = 0
    for line in lines[1:]:
        if not line.strip():
            break
        gcs = line.split()[-3]
        total += 0 if gcs == "-" else int(gcs)  # "-": none recorded yet
    return total


def summary_colls(text):
    """[(gen, colls, par)] of the summary's Gen lines."""
    return [tuple(int(x) for x in m.groups()) for m in
            re.finditer(r"Gen +(\d+) +(\d+) colls, +(\d+) par", text)]


def serve(path, data, argv):
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.3)  # evtool waits for the socket to appear
    server.bind(path)
    server.listen(1)
    server.settimeout(10)
    conn, _ = server.accept()
    for piece in pieces(data):
        conn.sendall(piece)
        time.sleep(PAUSE)
    conn.close()
    server.close()
    os.unlink(path)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out.decode(), err.decode()


def grow(path, data, argv):
    """Writes the log into a file in pieces, as the RTS does, while evtool
    follows it (started on its first piece)."""
    chunks = list(pieces(data))
    with open(path, "wb") as f:
        f.write(chunks[0])
        f.flush()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        for piece in chunks[1:]:
            time.sleep(PAUSE)
            f.write(piece)
            f.flush()
    out, err = proc.communicate(timeout=30)
    os.unlink(path)
    return proc.returncode, out.decode(), err.decode()


def run_socket(evtool, log):
    """The log served on a Unix socket, and written into a growing file."""
    data = open(log, "rb").read()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (argv, what), (feed, name, kind) in (
                ((["stats", "--follow", "--every", "5ms"], "stats"),
                 (serve, "unix:" + os.path.join(tmp, "eventlog.sock"), "unix:")),
                ((["show", "--follow"], "show"),
                 (serve, "unix:" + os.path.join(tmp, "eventlog.sock"), "unix:")),
                ((["stats", "--follow", "--every", "5ms"], "stats"),
                 (grow, os.path.join(tmp, "growing.eventlog"), "a growing file")),
                ((["show", "--follow"], "show"),
                 (grow, os.path.join(tmp, "growing.eventlog"), "a growing file"))):
            want = subprocess.run([evtool] + argv + [log], capture_output=True,
                                  check=True).stdout.decode()
            path = name[len("unix:"):] if feed is serve else name
            rc, out, err = feed(path, data, [evtool] + argv + [name])
            out = out.replace(name, log)  # the summary's name
            problem = None
            if rc != 0:
                problem = "exit %d: %s" % (rc, err[:200])
            elif out != want:
                problem = "not the output for the complete file"
            elif what == "stats":
                plain = subprocess.run([evtool, "stats", log], capture_output=True,
                                       check=True).stdout.decode()
                colls = sum(c for _, c, _ in summary_colls(plain))
                if not out.endswith(plain):
                    problem = "the summary is not evtool stats'"
                elif interval_gcs(out) != colls:
                    problem = "interval lines count %s GCs, want %d" % (
                        interval_gcs(out), colls)
            print(("FAIL %s --follow %s: %s" % (what, kind, problem)) if problem
                  else "ok %s --follow %s" % (what, kind))
            failed += problem is not None
    return failed


def rts_report(path):
    text = open(path).read()
    allocated = int(re.search(r"([\d,]+) bytes allocated", text).group(1)
                    .replace(",", ""))
    return allocated, summary_colls(text)


def run_ghc(evtool, source):
    ghc = shutil.which("ghc")
    if not ghc:
        print("skip: no ghc")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "prog")
        shutil.copy(source, os.path.join(tmp, "prog.hs"))
        subprocess.run([ghc, "-O1", "-threaded", "-rtsopts", "-eventlog", "-v0",
                        "-outputdir", tmp, "-o", prog, os.path.join(tmp, "prog.hs")],
                       check=True)
        fifo, rts = os.path.join(tmp, "fifo"), os.path.join(tmp, "rts.txt")
        os.mkfifo(fifo)
        follow = subprocess.Popen([evtool, "stats", "--follow", "--every", "10ms", fifo],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        subprocess.run([prog, "+RTS", "-l", "-ol" + fifo, "-s" + rts, "-N2",
                        "-A64k", "-RTS"], check=True, stdout=subprocess.DEVNULL,
                       timeout=120)
        out, err = follow.communicate(timeout=30)
        out = out.decode()
        allocated, colls = rts_report(rts)
        problem = None
        if follow.returncode != 0:
            problem = "exit %d: %s" % (follow.returncode, err.decode()[:200])
        elif "%s bytes allocated" % format(allocated, ",") not in out:
            problem = "bytes allocated differ from the RTS's %d" % allocated
        elif summary_colls(out) != colls:
            problem = "collections %s, the RTS's %s" % (summary_colls(out), colls)
        elif interval_gcs(out) != sum(c for _, c, _ in colls):
            problem = "interval lines count %s GCs" % interval_gcs(out)
        print(("FAIL ghc fifo: %s" % problem) if problem
              else "ok stats --follow on a GHC program's FIFO")
        return 1 if problem else 0


def main():
    mode, evtool, arg = sys.argv[1:4]
    if mode == "socket":
        failed = run_socket(evtool, arg)
    else:
        failed = run_ghc(evtool, arg)
        if failed is None:
            sys.exit(77)
    print("%d failed" % failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
