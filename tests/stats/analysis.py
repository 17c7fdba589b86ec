#!/usr/bin/env python3
"""evtool stats --threads --caps --json against an independent reading.

    tests/stats/analysis.py EVTOOL LOG...

For every LOG of one process, the threads, capabilities and GC pauses
that `evtool stats --json --threads --caps` prints must equal what is
computed here from the log's bytes (tests/show/ndjson.py's walk, which
shares no code with evtool), event by event in file order:
- a thread's runs are its RUN_THREAD (1) events; its run time the time
  from each RUN_THREAD to the STOP_THREAD (2) of the same thread on the
  same cap (a run still open at the end lasts to its cap's last event);
  stops are counted by status (codes above 20 as 0); migrations are its
  MIGRATE_THREAD (4) events; its label its last THREAD_LABEL (44);
- a cap's mutator time is the sum of the runs on it, its GC time the sum
  of its own GC_START (9) to GC_END (10) pairs; migrations out are the
  MIGRATE_THREAD events posted on it, in the ones naming it;
- a pause is GC_END - GC_START on the cap that posted GC_STATS_GHC (53)
  between them, in the generation that event names. Percentiles are by
  nearest rank; evtool's may be up to 1/32 above the exact one (its
  histogram), never below it and never above the maximum. The 10
  longest, ties by start time, must be exact.
And `stats --help` names exactly the figures of --json's "figures".
Prints one line per log and "N passed, M failed".
"""
import gzip
import json
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "show"))
from ndjson import walk  # noqa: E402

STOP_REASONS = 21


def thread_entry():
    return {"runs": 0, "run_ns": 0, "migrations": 0, "stops": 0,
            "reasons": [0] * STOP_REASONS, "label": None}


def reference(events):
    threads, caps, pauses = {}, {}, []
    running, gc_start, leader, last_time = {}, {}, {}, {}

    def cap_entry(c):
        return caps.setdefault(c, {"mutator_ns": 0, "gc_ns": 0, "runs": 0,
                                   "migrations_out": 0, "migrations_in": 0})

    def end_run(c, t):
        tid, start = running.pop(c)
        if t >= start:
            threads[tid]["run_ns"] += t - start
            cap_entry(c)["mutator_ns"] += t - start

    for t, c, type_, p in events:
        if c is None:
            continue
        last_time[c] = max(last_time.get(c, t), t)
        cap_entry(c)
        if type_ == 1:
            tid = struct.unpack_from(">I", p)[0]
            threads.setdefault(tid, thread_entry())["runs"] += 1
            caps[c]["runs"] += 1
            running[c] = (tid, t)
        elif type_ == 2:
            tid, status = struct.unpack_from(">IH", p)
            th = threads.setdefault(tid, thread_entry())
            th["stops"] += 1
            th["reasons"][status if status < STOP_REASONS else 0] += 1
            if c in running and running[c][0] == tid:
                end_run(c, t)
            else:
                running.pop(c, None)
        elif type_ == 4:
            tid, to = struct.unpack_from(">IH", p)
            threads.setdefault(tid, thread_entry())["migrations"] += 1
            caps[c]["migrations_out"] += 1
            if to != 0xFFFF:
                cap_entry(to)["migrations_in"] += 1
        elif type_ == 44:
            tid = struct.unpack_from(">I", p)[0]
            label = p[4:].rstrip(b"\0")[:255].decode("utf-8", "replace")
            threads.setdefault(tid, thread_entry())["label"] = label
        elif type_ == 9:
            gc_start[c] = t
            leader.pop(c, None)
        elif type_ == 53:
            leader[c] = struct.unpack_from(">H", p, 4)[0]
        elif type_ == 10:
            start = gc_start.pop(c, None)
            gen = leader.pop(c, None)
            if start is not None and t >= start:
                caps[c]["gc_ns"] += t - start
                if gen is not None:
                    pauses.append((t - start, start, gen, c))
    for c in list(running):
        end_run(c, last_time[c])
    return threads, caps, pauses


def check_pauses(got, pauses, what):
    if not pauses:
        return None if got is None else "%s: pauses where there are none" % what
    if got is None:
        return "%s: no pauses, want %d" % (what, len(pauses))
    durations = sorted(d for d, _, _, _ in pauses)
    n = len(durations)
    want = {"count": n, "total_ns": sum(durations), "min_ns": durations[0],
            "max_ns": durations[-1]}
    for key, value in want.items():
        if got[key] != value:
            return "%s: %s %d, want %d" % (what, key, got[key], value)
    for q, key in ((0.5, "p50_ns"), (0.9, "p90_ns"), (0.99, "p99_ns")):
        exact = durations[max(1, math.ceil(q * n)) - 1]
        if not exact <= got[key] <= min(exact + exact / 32 + 1, durations[-1]):
            return "%s: %s %d, exact %d" % (what, key, got[key], exact)
    longest = sorted(pauses, key=lambda p: (-p[0], p[1]))[:10]
    got_longest = [(l["duration_ns"], l["start_ns"], l["gen"], l["cap"])
                   for l in got["longest"]]
    if got_longest != longest:
        return "%s: longest %s, want %s" % (what, got_longest[:3], longest[:3])
    return None


def check_threads(got, threads):
    listed = {t["thread"]: t for t in got["list"]}
    if sorted(listed) != sorted(threads):
        return "threads %s, want %s" % (sorted(listed)[:10], sorted(threads)[:10])
    total = thread_entry()
    for tid, want in threads.items():
        t = listed[tid]
        reasons = [0] * STOP_REASONS
        for r in t["stop_reasons"]:
            reasons[r["status"]] = r["count"]
        for key in ("runs", "run_ns", "migrations", "stops", "label"):
            if t[key] != want[key]:
                return "thread %d: %s %r, want %r" % (tid, key, t[key], want[key])
        if reasons != want["reasons"]:
            return "thread %d: stops %s, want %s" % (tid, reasons, want["reasons"])
        for key in ("runs", "run_ns", "migrations", "stops"):
            total[key] += want[key]
    for key in ("runs", "run_ns", "migrations", "stops"):
        if got["total"][key] != total[key]:
            return "total %s %d, want %d" % (key, got["total"][key], total[key])
    return None


def check_caps(got, caps, elapsed):
    listed = {c["cap"]: c for c in got}
    if sorted(listed) != sorted(caps):
        return "caps %s, want %s" % (sorted(listed), sorted(caps))
    for cap, want in caps.items():
        c = listed[cap]
        for key, value in want.items():
            if c[key] != value:
                return "cap %d: %s %d, want %d" % (cap, key, c[key], value)
        idle = max(0, elapsed - want["mutator_ns"] - want["gc_ns"])
        if c["span_ns"] != elapsed or c["idle_ns"] != idle:
            return "cap %d: span %d idle %d, want %d and %d" % (
                cap, c["span_ns"], c["idle_ns"], elapsed, idle)
    return None


def check(evtool, path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    out = subprocess.run([evtool, "stats", "--json", "--threads", "--caps", path],
                         capture_output=True)
    if out.returncode not in (0, 3):
        return "exit %d: %s" % (out.returncode, out.stderr[:200])
    doc = json.loads(out.stdout)["files"][0]
    threads, caps, pauses = reference(walk(data))
    if not doc["processes"]:  # a log without events (killed-sigkill)
        if threads or caps or pauses or doc["threads"]["list"] or doc["capabilities"]:
            return "no process, but threads, caps or pauses"
        return None
    if len(doc["processes"]) != 1:
        return "%d processes: this test reads logs of one" % len(doc["processes"])
    process = doc["processes"][0]
    problem = check_threads(doc["threads"], threads)
    problem = problem or check_caps(doc["capabilities"], caps, process["elapsed_ns"])
    got = process["pauses"]
    problem = problem or check_pauses(got and got["all"], pauses, "all pauses")
    for gen in sorted(set(p[2] for p in pauses)):
        per_gen = [g for g in (got["generations"] if got else []) if g["gen"] == gen]
        problem = problem or check_pauses(per_gen[0] if per_gen else None,
                                          [p for p in pauses if p[2] == gen],
                                          "gen %d pauses" % gen)
    return problem


def check_figure_names(evtool, log):
    """--help names exactly the figures --json gives (the keys of
    "figures"), in their order."""
    helptext = subprocess.run([evtool, "stats", "--help"], capture_output=True,
                              check=True).stdout.decode()
    listed = helptext.split('"figures" in --json:', 1)[1].split(".\n", 1)[0]
    listed = [name.strip() for name in listed.replace("\n", " ").split(",")]
    out = subprocess.run([evtool, "stats", "--json", log], capture_output=True)
    keys = list(json.loads(out.stdout)["files"][0]["processes"][0]["figures"])
    return None if listed == keys else "--help lists %s, --json has %s" % (listed, keys)


def main():
    evtool, logs = sys.argv[1], sys.argv[2:]
    problem = check_figure_names(evtool, logs[0])
    print(("FAIL figure names: %s" % problem) if problem else "ok figure names")
    failed = problem is not None
    for log in logs:
        problem = check(evtool, log)
        print(("FAIL %s: %s" % (log, problem)) if problem
              else "ok " + os.path.basename(log))
        failed += problem is not None
    print("%d passed, %d failed" % (len(logs) + 1 - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
