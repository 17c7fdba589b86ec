#!/usr/bin/env python3
"""evtool view follows a FIFO fed by a running GHC program.

tests/view/ticker.hs is compiled with GHC (exit 77, a skip, without ghc)
and run with +RTS -l -ol FIFO while `evtool view FIFO` serves: /api/meta,
asked every 50 ms, must show the run's end time growing at least twice
while the program runs, then the index complete; the search must find
the program's last marker.

usage: follow.py EVTOOL
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

evtool = os.path.abspath(sys.argv[1])
ghc = shutil.which("ghc")
if not ghc:
    print("0 passed, 0 failed, 1 skipped: no ghc")
    sys.exit(77)
here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    prog = os.path.join(tmp, "ticker")
    subprocess.run([ghc, "-O1", "-threaded", "-rtsopts", "-eventlog", "-v0",
                    "-outputdir", tmp, "-o", prog,
                    os.path.join(here, "ticker.hs")], check=True)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    view = subprocess.Popen([evtool, "view", fifo], stdout=subprocess.PIPE,
                            text=True)
    program = subprocess.Popen([prog, "+RTS", "-l", "-ol" + fifo, "-RTS"])
    try:
        url = view.stdout.readline().strip()
        base, token = re.match(r"(http://[^/]+)/\?token=(\w+)$", url).groups()

        def get(path):
            sep = "&" if "?" in path else "?"
            with urllib.request.urlopen(base + path + sep + "token=" + token,
                                        timeout=10) as r:
                return json.loads(r.read())

        ends = []
        while program.poll() is None:
            end = get("/api/meta")["end_ns"]
            if not ends or end != ends[-1]:
                ends.append(end)
            time.sleep(0.05)
        meta = get("/api/meta")
        for _ in range(100):
            if meta["complete"]:
                break
            time.sleep(0.05)
            meta = get("/api/meta")
        hits = get("/api/search?q=tick%2040")["hits"]
    finally:
        program.wait(60)
        view.terminate()
        view.wait(10)
checks = [
    (len([e for e in ends if e > 0]) >= 2 and ends == sorted(ends),
     "the end time grew while the program ran: %s" % ends),
    (meta["complete"] and meta["end_ns"] >= ends[-1],
     "complete at the end: %s" % meta),
    (any(h["text"] == "tick 40" for h in hits), "the last marker found: %s" % hits),
]
for ok, what in checks:
    print(("ok " if ok else "FAIL ") + what)
failed = sum(not ok for ok, _ in checks)
print("%d passed, %d failed" % (len(checks) - failed, failed))
sys.exit(1 if failed else 0)
