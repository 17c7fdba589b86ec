#!/usr/bin/env python3
"""Consecutive slices of real logs add up to the whole run.

    tests/filter/slices.py EVTOOL LOG_OR_DIR...

Each LOG (or every *.eventlog of a DIR; a DIR that does not exist is
skipped, as the corpus may be) is cut by `evtool filter --from --to` at
raw timestamps b1 < b2 < b3 (a quarter, a half and three quarters of its
work, those at least 6 ms after its first event, so that stats tells every
slice but the first from a whole run: lib/inspect/slice.h) into slices
[0, b1), [b1, b2), [b2, b3), [b3, end). Every slice must pass `evtool
validate`, and:

- its window: its last event (metadata too: filter drops what comes after
  the window) is before the next boundary; stats --json starts it at the run's start (the first) or at
  b_i or later (the others, "slice": true), and ends it before the next
  boundary; elapsed is at most the window. report draws it inside the
  window (its grid's first_ns and last_ns), and its allocation chart adds
  up to stats' allocation of the slice; a heap profile exported with
  --format hp starts at b_i or later;
- the sums: the slices' figures add up to those of stats on the whole
  log, but for what straddles a boundary, bounded here from the log's
  bytes (tests/show/ndjson.py's walk, which shares no code with evtool):
  allocation loses, per capability and boundary, what its first
  HEAP_ALLOCATED (49) after the boundary adds to its last before it (a
  slice counts a running total from its first value); collections and
  copied bytes (GC_STATS_GHC, 53) add up within the collections whose
  GC_START (9) and GC_END (10) lie on both sides of a boundary, GC time
  within their pauses; elapsed within the idle time around each boundary
  (from the last event that is not metadata before it to the first one
  after it) and after the run's last such event.

A log with no quarter of its work 6 ms after its start, of several sessions, or that stats does not
summarise cleanly (exit other than 0) is skipped, saying why. Prints one
line per log and "N passed, M failed, K skipped"; exits 1 if any failed,
77 if none ran.
"""
import glob
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "show"))
from ndjson import BLOCK_MARKER, METADATA, walk  # noqa: E402

GC_START, GC_END = 9, 10
HEAP_ALLOCATED, GC_STATS_GHC = 49, 53
SLICES = 4
MIN_GAP_NS = 6000000  # above lib/inspect/slice.h's 5 ms


def run(evtool, *args):
    p = subprocess.run([evtool] + list(args), capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def work(events):
    """Times of the events of a capability that are not metadata."""
    return sorted(t for t, c, ty, _ in events
                  if c is not None and ty != BLOCK_MARKER
                  and ty not in METADATA)


def boundaries(events):
    times = work(events)
    first = min(t for t, _, ty, _ in events if ty != BLOCK_MARKER)
    if not times:
        return None
    lo, hi = times[0], times[-1]
    out = [lo + (hi - lo) * k // SLICES for k in range(1, SLICES)]
    out = sorted({b for b in out if b - first >= MIN_GAP_NS})
    return out or None


def gc_straddles(events, bounds):
    """Collections (per cap: GC_START to GC_END, led by the cap that posts
    GC_STATS_GHC in between) with a boundary in (start, end]: their count,
    copied bytes and pause."""
    start, stats_seen = {}, {}
    count = copied = pause = 0
    for t, c, ty, p in events:
        if ty == GC_START:
            start[c] = t
            stats_seen[c] = 0
        elif ty == GC_STATS_GHC and c in start:
            stats_seen[c] = struct.unpack_from(">Q", p, 6)[0] + 1
        elif ty == GC_END and c in start:
            s = start.pop(c)
            led = stats_seen.pop(c)
            lo, hi = min(s, t), max(s, t)
            if led and any(lo < b <= hi for b in bounds):
                count += 1
                copied += led - 1
                pause += hi - lo
    return count, copied, pause


def alloc_loss(events, bounds):
    """Per cap and boundary: the first HEAP_ALLOCATED at or after it minus
    the last before it."""
    values = {}
    for t, c, ty, p in events:
        if ty == HEAP_ALLOCATED and c is not None:
            values.setdefault(c, []).append((t, struct.unpack_from(">Q", p, 4)[0]))
    loss = 0
    for series in values.values():
        for b in bounds:
            before = [v for t, v in series if t < b]
            after = [v for t, v in series if t >= b]
            if after:
                loss += after[0] - (before[-1] if before else 0)
    return loss


def idle_around(events, bounds, whole_end):
    times = work(events)
    gaps = 0
    for b in bounds:
        before = [t for t in times if t < b]
        after = [t for t in times if t >= b]
        if before and after:
            gaps += after[0] - before[-1]
    return gaps + max(0, whole_end - times[-1])


def totals(stats_json):
    procs = [p for f in stats_json["files"] for p in f["processes"]]
    keys = ("allocated_bytes", "collections", "copied_bytes",
            "gc_elapsed_ns", "elapsed_ns")
    return {k: sum(p[k] for p in procs) for k in keys}, procs


def report_facts(html):
    grid = re.search(rb'"grid":\{"start_ns":\d+,"width_ns":\d+,"buckets":([1-9]\d*),'
                     rb'"first_ns":(\d+),"last_ns":(\d+)\}', html)
    allocated = sum(sum(int(x) for x in m.group(1).split(b",") if x)
                    for m in re.finditer(rb'"allocated":\[([0-9,]*)\]', html))
    return (int(grid.group(2)), int(grid.group(3))) if grid else None, allocated


def check_slice(evtool, log, out, i, lo, hi, whole_start, why):
    """Cuts [lo, hi) of `log` (None: open) into `out`, checks it and
    returns its totals, or None when it could not."""
    args = ["filter", "--no-progress", log]
    if lo is not None:
        args += ["--from", str(lo)]
    if hi is not None:
        args += ["--to", str(hi)]
    rc, _, err = run(evtool, *args, "-o", out)
    if rc != 0:
        why.append("slice %d: filter exit %d: %s" % (i, rc, err.strip()))
        return None
    rc, _, err = run(evtool, "validate", "--no-progress", out)
    if rc != 0:
        why.append("slice %d: validate: %s" % (i, err.strip()[:200]))
    rc, info, _ = run(evtool, "info", out)
    last = re.search(rb"^  time +first \d+ ns, last (\d+) ns", info, re.M)
    if hi is not None and last and int(last.group(1)) >= hi:
        why.append("slice %d to %d ns: filter kept an event at %d ns"
                   % (i, hi, int(last.group(1))))
    rc, text, err = run(evtool, "stats", "--json", out)
    if rc != 0:
        why.append("slice %d: stats exit %d: %s" % (i, rc, err.strip()))
        return None
    sums, procs = totals(json.loads(text))
    for p in procs:
        if p["elapsed_ns"] == 0 and p["end_ns"] == 0:
            continue  # no event of a capability in the window
        if lo is None and p["start_ns"] != whole_start:
            why.append("slice %d starts at %d ns, not at the run's %d ns"
                       % (i, p["start_ns"], whole_start))
        if lo is not None and (not p["slice"] or p["start_ns"] < lo):
            why.append("slice %d from %d ns: stats starts it at %d ns "
                       "(slice %s)" % (i, lo, p["start_ns"], p["slice"]))
        if hi is not None and p["end_ns"] >= hi:
            why.append("slice %d to %d ns: stats ends it at %d ns"
                       % (i, hi, p["end_ns"]))
        if lo is not None and hi is not None and p["elapsed_ns"] > hi - lo:
            why.append("slice %d: elapsed %d ns > its window %d ns"
                       % (i, p["elapsed_ns"], hi - lo))
    rc, html, err = run(evtool, "report", out)
    grid, allocated = report_facts(html) if rc == 0 else (None, 0)
    if rc != 0:
        why.append("slice %d: report exit %d: %s" % (i, rc, err.strip()))
    elif grid:
        if (lo is not None and grid[0] < lo) or (hi is not None and grid[1] >= hi):
            why.append("slice %d [%s, %s): report draws %d..%d ns"
                       % (i, lo, hi, grid[0], grid[1]))
        if allocated != sums["allocated_bytes"]:
            why.append("slice %d: report's allocation chart holds %d bytes, "
                       "stats %d" % (i, allocated, sums["allocated_bytes"]))
    rc, hp, _ = run(evtool, "export", "--format", "hp", out)
    first = re.search(rb"^BEGIN_SAMPLE ([0-9.]+)$", hp, re.M) if rc == 0 else None
    if first and lo is not None and round(float(first.group(1)) * 1e9) < lo - 1000:
        why.append("slice %d from %d ns: its .hp starts at %s s"
                   % (i, lo, first.group(1).decode()))
    return sums


def check_log(evtool, log, tmp):
    with (gzip.open if log.endswith(".gz") else open)(log, "rb") as f:
        data = f.read()
    rc, info, _ = run(evtool, "info", log)
    m = re.search(rb"events +\d+ in \d+ blocks?, (\d+) sessions?", info)
    if not m or int(m.group(1)) != 1:
        return "skip", "not one session"
    rc, text, _ = run(evtool, "stats", "--json", log)
    if rc != 0:
        return "skip", "stats exits %d on the whole log" % rc
    whole, procs = totals(json.loads(text))
    try:
        events = walk(data)
    except (KeyError, AssertionError, struct.error) as e:
        return "skip", "the walker cannot read it (%r)" % e
    bounds = boundaries(events)
    if not bounds:
        return "skip", "no boundary %d ms after its start" % (MIN_GAP_NS // 1000000)
    why, parts = [], []
    edges = [None] + bounds + [None]
    for i in range(len(edges) - 1):
        s = check_slice(evtool, log, os.path.join(tmp, "slice.eventlog"), i,
                        edges[i], edges[i + 1], procs[0]["start_ns"], why)
        if s is None:
            return "fail", "; ".join(why)
        parts.append(s)
    got = {k: sum(p[k] for p in parts) for k in whole}
    n, copied, pause = gc_straddles(events, bounds)
    bound = {
        "allocated_bytes": (0, alloc_loss(events, bounds)),
        "collections": (-n, n),
        "copied_bytes": (-copied, copied),
        "gc_elapsed_ns": (-pause, pause),
        "elapsed_ns": (0, idle_around(events, bounds, max(p["end_ns"] for p in procs))),
    }
    for k, (low, high) in bound.items():
        lost = whole[k] - got[k]
        if not low <= lost <= high:
            why.append("%s: whole %d, slices %d (lost %d, straddling %d..%d)"
                       % (k, whole[k], got[k], lost, low, high))
    summary = "%d slices at %s; lost allocated %d of %d, GC %d ns, elapsed %d ns" % (
        len(parts), ",".join(str(b) for b in bounds),
        whole["allocated_bytes"] - got["allocated_bytes"],
        whole["allocated_bytes"], whole["gc_elapsed_ns"] - got["gc_elapsed_ns"],
        whole["elapsed_ns"] - got["elapsed_ns"])
    return ("fail", "; ".join(why)) if why else ("ok", summary)


def logs_of(args):
    for a in args:
        if os.path.isdir(a):
            yield from sorted(glob.glob(os.path.join(a, "*.eventlog")))
        elif os.path.exists(a):
            yield a


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    evtool = sys.argv[1]
    counts = {"ok": 0, "fail": 0, "skip": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for log in logs_of(sys.argv[2:]):
            verdict, what = check_log(evtool, log, tmp)
            counts[verdict] += 1
            print("%-4s %s: %s" % (verdict.upper(), os.path.basename(log), what))
    print("%d passed, %d failed, %d skipped"
          % (counts["ok"], counts["fail"], counts["skip"]))
    if counts["fail"]:
        return 1
    return 0 if counts["ok"] else 77


if __name__ == "__main__":
    sys.exit(main())
