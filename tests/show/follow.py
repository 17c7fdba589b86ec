#!/usr/bin/env python3
"""evtool show --follow on a log that is being written.

    tests/show/follow.py EVTOOL LOG

1. A regular file: LOG is appended to it in pieces, with pauses, cutting
   the header and many events in the middle. evtool must print exactly
   the events of LOG, in file order (the times walked here, doc/format.md),
   with the text `evtool show LOG` gives them, and exit 0 by itself at
   the data end.
2. A FIFO written the same way: the same output, exit 0.
3. An interrupt: SIGINT while waiting on a cut log ends evtool at once
   with exit 0, after printing the complete events.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ndjson import walk  # noqa: E402

PAUSE = 0.12


def pieces(data):
    """Cut points: inside the header, then steps that are not multiples
    of any event size, so that most cuts fall inside an event."""
    cuts = [7, 100, 1000]
    step = 1 + len(data) // 9
    cuts += list(range(1001, len(data), step)) + [len(data) - 1]
    cuts = sorted(set(c for c in cuts if 0 < c < len(data)))
    start = 0
    for cut in cuts + [len(data)]:
        yield data[start:cut]
        start = cut


def expected(evtool, log, data):
    full = subprocess.run([evtool, "show", log], capture_output=True,
                          check=True).stdout.decode()
    times = [t for t, _, _, _ in walk(data)]
    return full, times


def check_output(out, full, times):
    head, _, body = out.partition("\nEvents:\n")
    want_head, _, want_body = full.partition("\nEvents:\n")
    if head != want_head:
        return "the event type list differs"
    # an event line starts with its time; a block marker's has a blank
    # line after it, as in ghc-events' text
    lines = [l for l in body.split("\n") if l]
    want = [l for l in want_body.split("\n") if l]
    if sorted(lines) != sorted(want):
        return "not the events of the log (%d lines, want %d)" % (
            len(lines), len(want))
    got_times = [int(l.split(":", 1)[0]) for l in lines]
    if got_times != times:
        return "not in file order"
    return None


def run_regular(evtool, data, full, times, tmp):
    path = os.path.join(tmp, "growing.eventlog")
    open(path, "wb").close()
    proc = subprocess.Popen([evtool, "show", "--follow", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(path, "ab") as f:
        for piece in pieces(data):
            f.write(piece)
            f.flush()
            time.sleep(PAUSE)
    out, err = proc.communicate(timeout=30)
    if proc.returncode != 0:
        return "exit %d: %s" % (proc.returncode, err.decode()[:200])
    return check_output(out.decode(), full, times)


def run_fifo(evtool, data, full, times, tmp):
    path = os.path.join(tmp, "fifo")
    os.mkfifo(path)
    proc = subprocess.Popen([evtool, "show", "--follow", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(path, "wb", buffering=0) as f:
        for piece in pieces(data):
            f.write(piece)
            time.sleep(PAUSE / 4)
    out, err = proc.communicate(timeout=30)
    if proc.returncode != 0:
        return "exit %d: %s" % (proc.returncode, err.decode()[:200])
    return check_output(out.decode(), full, times)


def run_interrupt(evtool, data, tmp):
    path = os.path.join(tmp, "cut.eventlog")
    cut = len(data) // 2 + 3
    with open(path, "wb") as f:
        f.write(data[:cut])
    proc = subprocess.Popen([evtool, "show", "--follow", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=5)
    if proc.returncode != 0:
        return "exit %d after SIGINT: %s" % (proc.returncode, err.decode()[:200])
    complete = len(walk(data[:cut]))
    lines = [l for l in out.decode().partition("\nEvents:\n")[2].split("\n") if l]
    if len(lines) != complete:
        return "%d events before SIGINT, want %d" % (len(lines), complete)
    return None


def main():
    evtool, log = sys.argv[1], sys.argv[2]
    data = open(log, "rb").read()
    full, times = expected(evtool, log, data)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("regular file", lambda: run_regular(evtool, data, full, times, tmp)),
                         ("fifo", lambda: run_fifo(evtool, data, full, times, tmp)),
                         ("sigint", lambda: run_interrupt(evtool, data, tmp))):
            problem = fn()
            print(("FAIL %s: %s" % (name, problem)) if problem else "ok " + name)
            failed += problem is not None
    print("%d passed, %d failed" % (3 - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
