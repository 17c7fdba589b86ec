#!/usr/bin/env python3
"""stats gives the figures of the events, whatever order they come in.

    tests/stats/order.py EVTOOL TESTDATA [CORPUS] [--rows testdata|corpus]

For every log of TESTDATA (*.eventlog, *.eventlog.gz; --rows testdata,
the default) or of CORPUS (--rows corpus: exit 77, skipped, when the
folder is absent):
- `evtool sort LOG` (time order: GHC stamps GC_END before the
  GC_GLOBAL_SYNC and GC_STATS_GHC it writes just ahead of it, so sorting
  moves it) and `evtool cat --reblock LOG` (new block markers) must get
  the same `stats --json --threads --caps` and `stats --threads --caps`
  as LOG itself, and the same data in `evtool report`'s page (figures,
  pauses, each capability's running, GC and idle time per bucket), but
  for the file's name and, for a cut log, its status (the copies are
  complete);
- each process of `evtool merge LOG LOG` must get the input's figures:
  the same counts, sizes and pauses; its times moved by the input's shift
  (what `merge -v` prints), its capabilities and threads renumbered as
  `merge -v` says. Its elapsed and MUT time count from the process's
  first event, its CAPSET_CREATE (which merge synthesises at the input's
  first event when it lacks one), else its capabilities' first event,
  instead of the RTS's start, time 0 of the input: shorter by that
  event's time in the input, read here from the log's bytes
  (tests/show/ndjson.py's walk, which shares no code with evtool).
Prints one line per log and "N passed, M failed"; exits 1 when one failed.
"""
import argparse
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
from ndjson import walk  # noqa: E402

BLOCK_MARKER, CAPSET_CREATE, OS_PROCESS = 18, 25, 2
# What a copy of a cut log says differently: it is complete.
STATUS_KEYS = ("file", "status", "problem_offset", "problem")


def run(evtool, *args):
    p = subprocess.run([evtool] + list(args), capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode(
        "utf-8", "replace")


def stats(evtool, path, name):
    """(exit code, JSON file object, text) of stats on `path`; the text
    names the file `name`, the exit code of a cut log (3) reads as 0."""
    rc, out, err = run(evtool, "stats", "--json", "--threads", "--caps", path)
    rc_text, text, _ = run(evtool, "stats", "--threads", "--caps", path)
    doc = None
    if rc in (0, 3):
        doc = json.loads(out)["files"][0]
        for key in STATUS_KEYS:
            doc.pop(key, None)
    cut = lambda code: 0 if code == 3 else code  # noqa: E731
    return (cut(rc), cut(rc_text)), doc, text.replace(path, name)


def first_difference(a, b, path=""):
    """Where two JSON values differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return "%s.%s: only in one" % (path, key)
            found = first_difference(a[key], b[key], path + "." + key)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return "%s: %d entries, not %d" % (path, len(b), len(a))
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, "%s[%d]" % (path, i))
            if found:
                return found
        return None
    return None if a == b else "%s: %r, not %r" % (path, b, a)


def report(evtool, path, work):
    """The data of `evtool report`'s page (its figures come from the
    stats accumulator, its charts from the same events), None when it
    refuses the log (exit 1: no events)."""
    page = os.path.join(work, "report.html")
    rc, _, err = run(evtool, "report", path, "-o", page)
    if rc == 1:
        return None
    assert rc in (0, 3), "report: exit %d: %s" % (rc, err[:200])
    text = open(page, encoding="utf-8").read()
    data = re.search(r'<script type="application/json" id="report-data">'
                     r'(.*?)</script>', text, re.S).group(1)
    doc = json.loads(data)
    for key in STATUS_KEYS:
        doc.pop(key, None)
    return doc


def check_copy(evtool, log, base, command, work):
    """stats and report of LOG's copy by `command` equal `base`, LOG's."""
    copy = os.path.join(work, command[-1].lstrip("-") + ".eventlog")
    rc, _, err = run(evtool, *command, log, "-o", copy)
    if rc not in (0, 3):
        return "%s: exit %d: %s" % (" ".join(command), rc, err[:200])
    got = stats(evtool, copy, log)
    if got[0] != base[0]:
        return "%s: stats exits %s, not %s" % (command[0], got[0], base[0])
    found = first_difference(base[1], got[1])
    if found:
        return "%s: %s" % (" ".join(command), found)
    if got[2] != base[2]:
        line = next((a, b) for a, b in zip(base[2].splitlines() + [""],
                                           got[2].splitlines() + [""])
                    if a != b)
        return "%s: the text has %r, not %r" % (command[0], line[1], line[0])
    found = first_difference(base[3], report(evtool, copy, work))
    return found and "%s: report: %s" % (" ".join(command), found)


# ---- the self-merge ----

def renumbering(verbose, what):
    """Per input, the first local id and the first merged one of `what`
    (caps, threads) as `merge -v` prints them ("caps 0-1 -> 2-3")."""
    found = re.findall(r"^input \d+ .*?\b%s (\d+)(?:-\d+)? -> (\d+)" % what,
                       verbose, re.M)
    return [(int(a), int(b)) for a, b in found]


def shifts(verbose):
    return [round(float(s) * 1e9) for s in
            re.findall(r"^input \d+ .*?, shift ([-+][0-9.]+) s", verbose, re.M)]


def events_of(evtool, log, data):
    """The log's events, (time, cap, type, payload), from its bytes; for a
    log the walk cannot read (GHC 6.12's STARTUP, longer than its header
    says), from evtool's NDJSON, with the CAPSET_CREATE type field."""
    try:
        return walk(data)
    except (KeyError, AssertionError, struct.error):
        pass
    _, out, _ = run(evtool, "show", "--format", "ndjson", log)
    events = []
    for line in out.splitlines():
        e = json.loads(line)
        kind = e["fields"].get("type", 0) if e["id"] == CAPSET_CREATE else 0
        events.append((e["time"], e["cap"], e["id"],
                       b"\0" * 4 + kind.to_bytes(2, "big")))
    return events


def first_event(events):
    """The time in the input of its process's first event, where a merged
    log's process starts: its OS-process CAPSET_CREATE, or, without one,
    the log's first event (where merge synthesises it); its caps' first
    event when that comes earlier."""
    creates = [t for t, _, type_, p in events if type_ == CAPSET_CREATE and
               int.from_bytes(p[4:6], "big") == OS_PROCESS]
    start = min(creates) if creates else min(t for t, _, _, _ in events)
    return min([start] + [t for t, c, type_, _ in events
                          if c is not None and type_ != BLOCK_MARKER])


def moved_pauses(pauses, shift, cap_map):
    """The input's pauses as the merged log has them: moved and renumbered."""
    if not pauses:
        return pauses
    pauses = json.loads(json.dumps(pauses))
    for group in [pauses["all"]] + pauses["generations"]:
        for p in group["longest"]:
            p["start_ns"] += shift
            p["cap"] += cap_map
    return pauses


def expected_process(want, shift, cap_map, capset, start_delta):
    """The input's process `want` as a merged log shows it, but for the
    figures derived from its elapsed time (productivity, rates)."""
    want = json.loads(json.dumps(want))
    want["capset"] = capset
    want["start_ns"] += shift + start_delta
    want["end_ns"] += shift
    want["pauses"] = moved_pauses(want["pauses"], shift, cap_map)
    for times, elapsed, mut in ((want, "elapsed_ns", "mut_elapsed_ns"),
                                (want["figures"], "elapsed", "mut-time")):
        times[elapsed] = max(0, times[elapsed] - start_delta)
        if times[mut] is not None:  # null: a run without GC events
            times[mut] = max(0, times[elapsed] - want["gc_elapsed_ns"])
    return want


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1.0)


def check_derived(p):
    """Productivity and allocation rate follow the process's times."""
    mut, elapsed = p["mut_elapsed_ns"], p["elapsed_ns"]
    ratios = (("productivity", mut / elapsed if elapsed else 0.0),
              ("alloc_rate", p["allocated_bytes"] * 1e9 / mut if mut else 0.0))
    for key, value in ratios:
        if p[key] is not None and not close(p[key], value):
            return "%s %r, not %r" % (key, p[key], value)
    return None


def without_derived(p):
    p = dict(p, productivity=None, alloc_rate=None)
    p["figures"] = dict(p["figures"], productivity=None)
    p["figures"]["alloc-rate"] = None
    return p


def check_process(got, want, shift, cap_map, first):
    """Process `got` of the merged log against the input's `want`: a
    process of a one-process log counts from time 0, the RTS's start,
    and in the merged log from its first event."""
    start_delta = got["start_ns"] - shift - want["start_ns"]
    if want["start_ns"] == 0 and start_delta != first:
        return "starts at %d, not at its first event %d + shift %d" % (
            got["start_ns"], first, shift)
    want = expected_process(want, shift, cap_map, got["capset"], start_delta)
    return check_derived(got) or first_difference(without_derived(want),
                                                  without_derived(got))


def check_threads(got, want, thread_maps):
    """Each input thread is in the merged log twice, renumbered."""
    by_tid = {t["thread"]: t for t in got["list"]}
    for local, merged in thread_maps:
        for t in want["list"]:
            mine = by_tid.get(t["thread"] - local + merged)
            if mine is None:
                return "thread %d: not in the merged log" % t["thread"]
            found = first_difference(dict(t, thread=None),
                                     dict(mine, thread=None))
            if found:
                return "thread %d%s" % (t["thread"], found)
    return None


def check_caps(got, want, cap_maps, deltas):
    """Each input cap is in the merged log twice, renumbered, with the
    same times but its span, its process's elapsed time."""
    by_cap = {c["cap"]: c for c in got}
    for (local, merged), delta in zip(cap_maps, deltas):
        for c in want:
            mine = by_cap.get(c["cap"] - local + merged)
            if mine is None:
                return "cap %d: not in the merged log" % c["cap"]
            same = ("mutator_ns", "gc_ns", "runs", "migrations_out",
                    "migrations_in")
            for key in same:
                if mine[key] != c[key]:
                    return "cap %d: %s %d, not %d" % (c["cap"], key,
                                                      mine[key], c[key])
            if mine["span_ns"] != c["span_ns"] - delta:
                return "cap %d: span %d, not %d" % (
                    c["cap"], mine["span_ns"], c["span_ns"] - delta)
    return None


def check_merge(evtool, log, base, events, work):
    merged = os.path.join(work, "merged.eventlog")
    rc, _, verbose = run(evtool, "merge", "-v", "--no-progress", log, log,
                         "-o", merged)
    if rc not in (0, 3):
        return "merge: exit %d: %s" % (rc, verbose[:200])
    (rc_json, _), doc, _ = stats(evtool, merged, log)
    if (rc_json, base[0][0]) != (0, 0):
        return None if rc_json == base[0][0] else "merge: stats exits %d" % rc_json
    want = base[1]
    moves, cap_maps = shifts(verbose), renumbering(verbose, "caps")
    n = len(want["processes"])
    if len(doc["processes"]) != 2 * n or len(moves) != 2:
        return "merge: %d processes, %d shifts; want %d and 2" % (
            len(doc["processes"]), len(moves), 2 * n)
    first = first_event(events)
    deltas = []
    for k in range(2):
        cap_map = cap_maps[k][1] - cap_maps[k][0] if cap_maps else 0
        for i, process in enumerate(want["processes"]):
            got = doc["processes"][k * n + i]
            deltas.append(got["start_ns"] - moves[k] - process["start_ns"])
            found = check_process(got, process, moves[k], cap_map, first)
            if found:
                return "merge: process %d: %s" % (k * n + i, found)
    if doc["unattributed_capabilities"] != 2 * want["unattributed_capabilities"]:
        return "merge: %d unattributed capabilities" % (
            doc["unattributed_capabilities"])
    found = check_threads(doc["threads"], want["threads"],
                          renumbering(verbose, "threads") or [(0, 0)] * 2)
    if n == 1:
        found = found or check_caps(doc["capabilities"], want["capabilities"],
                                    cap_maps, deltas)
    return found and "merge: " + found


def check(evtool, log):
    data = open(log, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    with tempfile.TemporaryDirectory(prefix="evtool-order-") as work:
        base = stats(evtool, log, log) + (report(evtool, log, work),)
        if base[0][0] not in (0, 1):
            return "stats exits %d" % base[0][0]
        for command in (["sort"], ["cat", "--reblock"]):
            found = check_copy(evtool, log, base, command, work)
            if found:
                return found
        if base[1] is None:  # no events: nothing to merge
            return None
        return check_merge(evtool, log, base,
                           events_of(evtool, log, data), work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("evtool")
    ap.add_argument("testdata")
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("--rows", choices=["testdata", "corpus"],
                    default="testdata")
    a = ap.parse_args()
    if a.rows == "corpus":
        if not a.corpus or not os.path.isdir(a.corpus):
            print("skip: no corpus at %s" % (a.corpus or "(none given)"))
            return 77
        logs = sorted(glob.glob(os.path.join(a.corpus, "*.eventlog")))
    else:
        logs = sorted(glob.glob(os.path.join(a.testdata, "*.eventlog")) +
                      glob.glob(os.path.join(a.testdata, "*.eventlog.gz")))
    failed = 0
    for log in logs:
        problem = check(a.evtool, log)
        print(("FAIL %s: %s" % (os.path.basename(log), problem)) if problem
              else "ok " + os.path.basename(log))
        failed += problem is not None
    print("%d passed, %d failed" % (len(logs) - failed, failed))
    return 1 if failed or not logs else 0


if __name__ == "__main__":
    sys.exit(main())
