#!/usr/bin/env python3
"""Checks the Trace Event Format rules on perfetto exports (evtool export
--format perfetto): valid JSON with a traceEvents list; every event has a
phase, a name and integer pid; timed events a numeric ts; every B has its
E on the same track; complete (X) slices have a duration >= 0 and on one
track (pid, tid) never partly overlap (a slice is either disjoint from or
inside another); counters (C) have numeric args; instants (i) a scope;
each tid belongs to one pid; every pid used has a process_name and every
track a thread_name metadata event.

usage: tef_check.py FILE.json...        exit 0 when all pass, 1 otherwise
       tef_check.py --self-test         each rule fails a document made
                                        to break it"""
import json
import sys
from collections import defaultdict


def ns(x):
    """A ts or dur in microseconds (three decimals) as integer ns."""
    return round(x * 1000)


def check(path):
    errors = []

    def err(msg):
        if len(errors) < 20:
            errors.append(msg)

    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"], {}
    slices = defaultdict(list)
    open_b = defaultdict(list)
    pid_of_tid = {}
    used_pids, used_tracks = set(), set()
    named_pids, named_tracks = set(), set()
    counts = defaultdict(int)
    for i, e in enumerate(events):
        ph = e.get("ph")
        counts[ph] += 1
        if not isinstance(e.get("name"), str):
            err(f"event {i}: no name")
        if not isinstance(e.get("pid"), int) or isinstance(e.get("pid"), bool):
            err(f"event {i}: pid is not an integer")
            continue
        pid, tid = e["pid"], e.get("tid")
        if ph == "M":
            if not isinstance(e.get("args", {}).get("name"), str):
                err(f"event {i}: metadata without args.name")
            if e["name"] == "process_name":
                named_pids.add(pid)
            elif e["name"] == "thread_name":
                named_tracks.add((pid, tid))
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0:
            err(f"event {i}: ts {ts!r} is not a time")
            continue
        used_pids.add(pid)
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool)
                    for v in args.values()):
                err(f"event {i}: counter args are not numbers: {args!r}")
            continue
        if not isinstance(tid, int):
            err(f"event {i}: tid is not an integer")
            continue
        if pid_of_tid.setdefault(tid, pid) != pid:
            err(f"event {i}: tid {tid} in pid {pid} and pid {pid_of_tid[tid]}")
        used_tracks.add((pid, tid))
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                err(f"event {i}: X without a duration >= 0")
                continue
            slices[(pid, tid)].append((ns(ts), ns(ts) + ns(dur), i))
        elif ph == "B":
            open_b[(pid, tid)].append(i)
        elif ph == "E":
            if not open_b[(pid, tid)]:
                err(f"event {i}: E without its B")
            else:
                open_b[(pid, tid)].pop()
        elif ph == "i":
            if e.get("s", "t") not in ("g", "p", "t"):
                err(f"event {i}: instant scope {e.get('s')!r}")
        else:
            err(f"event {i}: unexpected phase {ph!r}")
    for track, left in open_b.items():
        if left:
            err(f"track {track}: {len(left)} B without their E")
    for track, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, i in ss:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                err(f"track {track}: slice {i} [{start}, {end}] ns overlaps "
                    f"slice {stack[-1][2]} [{stack[-1][0]}, {stack[-1][1]}]")
            stack.append((start, end, i))
    for pid in sorted(used_pids - named_pids):
        err(f"pid {pid} has no process_name")
    for track in sorted(used_tracks - named_tracks):
        err(f"track {track} has no thread_name")
    return errors, counts


def self_test():
    import os
    import tempfile
    meta = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "p"}},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1,
             "args": {"name": "cap 0"}}]
    x = {"ph": "X", "name": "s", "pid": 1, "tid": 1, "ts": 1.0, "dur": 2.0}
    broken = {
        "partly overlapping slices": [x, dict(x, ts=2.0)],
        "B without E": [dict(x, ph="B")],
        "E without B": [dict(x, ph="E")],
        "counter of text": [{"ph": "C", "name": "c", "pid": 1, "ts": 1.0,
                             "args": {"v": "1"}}],
        "tid in two pids": [x, dict(x, pid=2, ts=5.0)],
        "track without thread_name": [dict(x, tid=2)],
        "negative duration": [dict(x, dur=-1.0)],
    }
    good = [x, dict(x, ts=1.5, dur=1.0), dict(x, ts=3.0)]
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        for what, evs in list(broken.items()) + [("good", good)]:
            path = os.path.join(d, "t.json")
            with open(path, "w") as f:
                json.dump({"traceEvents": meta + evs}, f)
            errors, _ = check(path)
            if bool(errors) != (what != "good"):
                print(f"self-test: {what}: {errors or 'not caught'}")
                failed = 1
    print("self-test", "failed" if failed else "passed")
    return failed


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    status = 0
    for path in sys.argv[1:]:
        errors, counts = check(path)
        summary = " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))
        if errors:
            status = 1
            print(f"FAIL {path}")
            for e in errors:
                print(f"  {e}")
        else:
            print(f"ok {path} ({summary})")
    return status


if __name__ == "__main__":
    sys.exit(main())
