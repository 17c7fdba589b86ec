#!/usr/bin/env python3
"""evtool view's API, with curl against a real server on real logs.

For each log of testdata/ (and the corpus, when given) of one session:
the tiles of the whole run hold each capability's mutator and GC time
exactly as `evtool stats --caps --json` gives them, in one span and in
spans that cut no bucket, and those of sub-ranges (random, inside a run,
across a GC, at either end) what `evtool filter --from --to | evtool
stats --caps` gives once the runs and GCs crossing the edges are taken
off; /api/window gives each capability's and each process's figures
(allocation, GC pauses) as stats of the slice does; /api/events, paged through to its end, gives
each capability's events as `evtool show` prints them, in the same order;
a search finds the thread labels show prints. Then the refusals: no
token, a wrong token, a foreign Host, bad parameters, an unknown path, a
method other than GET and HEAD; the server is still up after them.
Zoomed in, each thread row's intervals are those of show's events. A
gzip log and standard input give the plain log's tiles, a growing file
and a socket grow on the server; the log is
opened read-only; --listen serves the port named, and warns for an
address other than loopback, where the Host must name that address (any
IP address or localhost on 0.0.0.0).

usage: api.py EVTOOL TESTDATA [CORPUS]
"""
import glob
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse

import shutil
import socket

if not shutil.which("curl"):
    print("0 passed, 0 failed, 1 skipped: no curl")
    sys.exit(77)
PREVIEW = sys.argv[1] == "--preview"
if PREVIEW:
    del sys.argv[1]
    if not shutil.which("ghc"):
        print("0 passed, 0 failed, 1 skipped: no ghc for a large log")
        sys.exit(77)
EVTOOL = sys.argv[1]
LOGS = sorted(glob.glob(os.path.join(sys.argv[2], "*.eventlog")))
if len(sys.argv) > 3 and os.path.isdir(sys.argv[3]):
    LOGS += sorted(glob.glob(os.path.join(sys.argv[3], "*.eventlog")))[:6]
failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


class Server:
    def __init__(self, *logs, options=(), env=None, stdin=None,
                 host=r"127\.0\.0\.1"):
        self.proc = subprocess.Popen([EVTOOL, "view", *options, *logs],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env=env, stdin=stdin)
        url = self.proc.stdout.readline().strip()
        m = re.match(r"(http://%s:\d+)/\?token=([0-9a-f]{32})$" % host, url)
        if not m:
            self.stop()
            raise SystemExit("no URL from evtool view: %r %s"
                             % (url, self.proc.stderr.read()))
        self.base, self.token = m.group(1), m.group(2)

    def curl(self, path, *extra):
        """(status, body) of GET path (token added unless path has one)."""
        sep = "&" if "?" in path else "?"
        url = self.base + path
        if "token=" not in path:
            url += sep + "token=" + self.token
        out = subprocess.run(["curl", "-s", "-m", "10", "-w", "\n%{http_code}",
                              *extra, url], capture_output=True, text=True,
                             check=True).stdout
        body, _, status = out.rpartition("\n")
        return int(status), body

    def json(self, path):
        status, body = self.curl(path)
        if status != 200:
            raise AssertionError("%s: %d %s" % (path, status, body))
        return json.loads(body)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def wait_complete(s):
    for _ in range(200):
        meta = s.json("/api/meta")
        if meta["at_end"]:
            return meta
    raise AssertionError("the index never completed")


def one_session(log):
    info = subprocess.run([EVTOOL, "info", log], capture_output=True,
                          text=True).stdout
    return re.search(r"\b1 session\b", info) is not None


def tiles_agree(s, log, meta):
    stats = json.loads(subprocess.run(
        [EVTOOL, "stats", "--caps", "--json", log], capture_output=True,
        text=True).stdout)
    if not stats["files"]:  # a log of no events: nothing to compare
        return
    caps = stats["files"][0]["capabilities"]
    w = meta["bucket_ns"] * 16
    to = (meta["end_ns"] // w + 1) * w
    for width in (1, 16):
        t = s.json("/api/tiles?from=0&to=%d&width=%d" % (to, width))
        rows = {r["cap"]: r for r in t["caps"]}
        for c in caps:
            r = rows.get(c["cap"])
            check(r is not None and sum(r["run_ns"]) == c["mutator_ns"]
                  and sum(r["gc_ns"]) == c["gc_ns"],
                  "%s cap %d width %d: tiles %s/%s, stats --caps %d/%d" % (
                      log, c["cap"], width,
                      r and sum(r["run_ns"]), r and sum(r["gc_ns"]),
                      c["mutator_ns"], c["gc_ns"]))


def runs_of_show(log):
    """Each cap's runs and GCs from show's events (in time order), as
    stats --caps pairs them: running thread T to stopping thread T (a
    running line while a run is open replaces it), starting GC to finished
    GC; and the times of all its events. Runs and GCs still open at the
    log's end are left out (they count nothing)."""
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    caps = {}
    for line in out.splitlines():
        m = re.match(r"(\d+): cap (\d+): (.*)$", line)
        if not m or m.group(3) == "event block":
            continue
        t, what = int(m.group(1)), m.group(3)
        c = caps.setdefault(int(m.group(2)), {"runs": [], "gcs": [],
                                              "times": [], "run": None,
                                              "gc": None})
        c["times"].append(t)
        run = re.match(r"(running|stopping) thread (\d+)", what)
        if run and run.group(1) == "running":
            c["run"] = (int(run.group(2)), t)
        elif run and c["run"] and c["run"][0] == int(run.group(2)):
            c["runs"].append((c["run"][1], t))
            c["run"] = None
        elif what == "starting GC":
            c["gc"] = t
        elif what == "finished GC" and c["gc"] is not None:
            c["gcs"].append((c["gc"], t))
            c["gc"] = None
    return caps


def edge_parts(spans, times, a, b, open_at_end):
    """The part of [a, b) that tiles count of `spans` (runs or GCs) and
    `evtool filter --from a --to b | evtool stats --caps` does not: the
    tiles clip each span to the range; the slice holds only the events of
    [a, b), so a span that began before `a` counts nothing there, and one
    still open at `b` that began inside counts up to the cap's last event
    before `b` (a run, `open_at_end`) or nothing (a GC)."""
    extra = 0
    for s, e in spans:
        if s < a and e > a:
            extra += min(e, b) - a
        elif a <= s < b <= e:
            last = max(t for t in times if t < b)
            extra += b - last if open_at_end else b - s
    return extra


def sub_ranges(caps, meta, rng):
    """Ranges of the run to compare the tiles with the slice's stats on:
    random ones, one inside a run, one across a GC, one at either end."""
    first, last = meta["start_ns"], meta["end_ns"]
    ranges = [(0, (first + last) // 3), (2 * (first + last) // 3, last + 1)]
    runs = [r for c in caps.values() for r in c["runs"] if r[1] - r[0] > 2]
    gcs = [g for c in caps.values() for g in c["gcs"]]
    if runs:
        s, e = max(runs, key=lambda r: r[1] - r[0])
        ranges.append((s + 1, e - 1))
    if gcs:
        s, e = gcs[len(gcs) // 2]
        ranges.append((s - 1, e + 1))
    for _ in range(4):
        a = rng.randint(first, last - 1)
        ranges.append((a, rng.randint(a + 1, last + 1)))
    return ranges


def sub_tiles_agree(s, log, meta, rng):
    """Tiles of sub-ranges agree with `evtool filter --from --to | evtool
    stats --caps` of the same range. The two count the runs and GCs that
    cross the range's edges differently (edge_parts), so each cap's
    running and GC time from the tiles, summed over the range's spans,
    less those edge parts (from show's events) must be stats' mutator and
    GC time exactly; the idle time cannot be stats' (stats' idle is the
    rest of the slice's own first to last event, the tiles' the rest of
    the range within the log's), so it must be the rest of the range
    within the log's first and last event. A range whose tiles are not
    exact (its events span more than 4 MiB) is taken at whole buckets,
    where they are."""
    if meta["end_ns"] <= meta["start_ns"]:
        return
    caps = runs_of_show(log)
    w = meta["bucket_ns"]
    for a, b in sub_ranges(caps, meta, rng):
        if b <= a:
            continue
        t = s.json("/api/tiles?from=%d&to=%d&width=3" % (a, b))
        if not t["exact"]:
            a, b = a // w * w, (b // w + 1) * w
            t = s.json("/api/tiles?from=%d&to=%d&width=3" % (a, b))
        st = sliced_stats(log, a, b)
        want = {c["cap"]: c for c in st["capabilities"]} if st else {}
        inside = max(0, min(b, meta["end_ns"]) - max(a, meta["start_ns"]))
        for r in t["caps"]:
            c = caps.get(r["cap"], {"runs": [], "gcs": [], "times": []})
            sc = want.get(r["cap"], {"mutator_ns": 0, "gc_ns": 0})
            run = sum(r["run_ns"]) - edge_parts(c["runs"], c["times"], a, b,
                                                True)
            gc = sum(r["gc_ns"]) - edge_parts(c["gcs"], c["times"], a, b,
                                              False)
            busy = sum(r["run_ns"]) + sum(r["gc_ns"])
            check(run == sc["mutator_ns"] and gc == sc["gc_ns"] and
                  sum(r["idle_ns"]) == max(0, inside - busy),
                  "%s tiles [%d, %d) cap %d: %d/%d less the edges, idle %d; "
                  "filter | stats --caps %d/%d, idle of the range %d" % (
                      log, a, b, r["cap"], run, gc, sum(r["idle_ns"]),
                      sc["mutator_ns"], sc["gc_ns"], max(0, inside - busy)))


def phases_of_show(log, to):
    """Each cap's GC phases over [0, to), from show's lines, by
    ThreadScope's rules (Events/EventDuration.hs): starting GC opens sync;
    GC working, GC idle and GC done each end the phase open unless it is
    their own and open theirs; finished GC ends it; a running/stopping
    thread or spark stats line turns the open phase into sync from its
    start. A GC lasts from its start to its end, as stats counts it."""
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    names = {"GC working": 1, "GC idle": 2, "GC done": 3, "finished GC": -1}
    state, phases = {}, {}
    for line in out.splitlines():
        m = re.match(r"(\d+): cap (\d+): (.*)$", line)
        if not m:
            continue
        t, cap, what = int(m.group(1)), int(m.group(2)), m.group(3)
        ph, since = state.get(cap, (None, 0))
        acc = phases.setdefault(cap, [0, 0, 0, 0])
        if what == "starting GC":
            state[cap] = (0, t)
        elif what in names and ph is not None and ph != names[what]:
            acc[ph] += t - since
            state[cap] = (None if names[what] < 0 else names[what], t)
        elif ph is not None and (what.startswith("running thread") or
                                 what.startswith("stopping thread") or
                                 what.startswith("spark stats")):
            state[cap] = (0, since)
    for cap, (ph, since) in state.items():
        if ph is not None:  # open at the end: counts nothing, as stats
            pass
    return phases


PHASES = ("gc_sync_ns", "gc_work_ns", "gc_idle_ns", "gc_done_ns")


def phases_agree(s, log, meta):
    """The tiles' GC phases add up to stats --caps' GC time and are those
    of show's events by ThreadScope's rules."""
    stats = json.loads(subprocess.run(
        [EVTOOL, "stats", "--caps", "--json", log], capture_output=True,
        text=True).stdout)
    if not stats["files"]:
        return
    w = meta["bucket_ns"] * 16
    to = (meta["end_ns"] // w + 1) * w
    want = phases_of_show(log, to)
    for width in (1, 16):
        rows = {r["cap"]: r for r in s.json(
            "/api/tiles?from=0&to=%d&width=%d" % (to, width))["caps"]}
        for c in stats["files"][0]["capabilities"]:
            r = rows[c["cap"]]
            got = [sum(r[k]) for k in PHASES]
            check(sum(got) == c["gc_ns"] and
                  got == want.get(c["cap"], [0, 0, 0, 0]),
                  "%s cap %d width %d: GC phases %s (sum %d), stats --caps "
                  "GC %d, show's events %s" % (log, c["cap"], width, got,
                                               sum(got), c["gc_ns"],
                                               want.get(c["cap"])))


def threads_agree(s, log, meta):
    """Each thread row's running time over the run is stats --threads'."""
    stats = json.loads(subprocess.run(
        [EVTOOL, "stats", "--threads", "--json", log], capture_output=True,
        text=True).stdout)
    if not stats["files"]:
        return
    want = {t["thread"]: t["run_ns"] for t in
            stats["files"][0]["threads"]["list"]}
    # Spans of whole thread buckets: exact.
    w = s.json("/api/threads?limit=1")["bucket_ns"] * 4
    t = s.json("/api/threads?from=0&to=%d&width=4&limit=64"
               % ((meta["end_ns"] // w + 1) * w))
    got = {r["tid"]: sum(r["run_ns"]) for r in t["threads"]}
    check(len(got) == min(64, len(want)) and
          all(want.get(tid) == ns for tid, ns in got.items()),
          "%s: thread rows' run time %s, stats --threads %s" % (
              log, sorted(got.items())[:5], sorted(want.items())[:5]))
    # The rows come busiest first; an asked thread comes first.
    runs = [sum(r["run_ns"]) for r in t["threads"]]
    check(runs == sorted(runs, reverse=True), "%s: rows by run time" % log)
    if want:
        last = min(want, key=lambda k: want[k])
        first = s.json("/api/threads?tid=%d&limit=1" % last)["threads"]
        check([r["tid"] for r in first] == [last],
              "%s: thread %d asked for comes first: %s" % (
                  log, last, [r["tid"] for r in first]))


def thread_states_of_show(lines, tid):
    """Thread `tid`'s states [from, to, state, why] from show's lines in
    their (time) order, by the thread rows' rules: created is runnable
    (when it had no state), running from its RUN, a stop leaves it
    runnable (overflow, yielding, migrating), finished or blocked (why:
    show's reason), woken or made runnable a blocked thread is runnable.
    The state its last event begins is not counted (the rows count a state
    from the event that begins it to the next)."""
    out, state, since, why = [], None, 0, ""
    for line in lines:
        m = re.match(r"(\d+): cap \d+: (?:(creating|running) thread (\d+)$|"
                     r"stopping thread (\d+) \((.*)\)$|thread (\d+) is "
                     r"runnable$|waking up thread (\d+) on cap \d+$)", line)
        if not m or tid not in (m.group(3), m.group(4), m.group(6),
                                m.group(7)):
            continue
        t, nwhy = int(m.group(1)), ""
        if m.group(2) == "creating":
            nxt = "runnable" if state is None else "same"
        elif m.group(2) == "running":
            nxt = "running"
        elif m.group(4):
            # show names a black hole's owner when the event carries it
            # (as ghc-events does); the rows' reason is the status alone.
            nwhy = re.sub(r"^blocked on black hole owned by thread \d+$",
                          "blocked on a black hole", m.group(5))
            nxt = ("runnable" if re.match(r"(heap overflow|stack overflow|"
                                          r"thread yielding|thread migrating)",
                                          nwhy) else
                   None if nwhy.startswith("thread finished") else "blocked")
        else:
            nxt = "runnable" if state == "blocked" else "same"
        if nxt == "same":
            continue
        if state is not None and t > since:
            out.append((since, t, state, why))
        state, since, why = nxt, t, nwhy
    return out


def thread_intervals_agree(s, log, meta, rng):
    """Zoomed in (a range whose events the server reads again), each
    thread row lists its states exactly as show's events give them (its
    intervals, cut to the range), and its spans add them up."""
    if meta["end_ns"] <= meta["start_ns"]:
        return
    lines = subprocess.run([EVTOOL, "show", log], capture_output=True,
                           text=True).stdout.splitlines()
    runs = [re.match(r"(\d+): cap \d+: running thread (\d+)$", l)
            for l in lines]
    runs = [(int(m.group(1)), m.group(2)) for m in runs if m]
    if not runs:
        return
    reasons = s.json("/api/threads?limit=1")["reasons"]
    for _ in range(3):
        t, tid = runs[rng.randrange(len(runs))]
        half = rng.choice((2000, 20000, 200000))
        a, b = max(meta["start_ns"], t - half), t + half
        want = [(max(x, a), min(y, b), st, why)
                for x, y, st, why in thread_states_of_show(lines, tid)
                if x < b and y > a]
        r = s.json("/api/threads?from=%d&to=%d&width=7&limit=1&tid=%s"
                   % (a, b, tid))
        row = r["threads"][0] if r["threads"] else {}
        got = [(i["from"], i["to"], i["state"], reasons[i["reason"]])
               for i in row.get("intervals", [])]
        ok = (r.get("exact") and row.get("tid") == int(tid) and
              row.get("intervals_more") == 0 and len(got) == len(want) and
              all(g[:3] == w[:3] and (g[2] != "blocked" or
                                      w[3].startswith(g[3]))
                  for g, w in zip(got, want)))
        check(ok, "%s thread %s zoomed to [%d, %d): exact %s, intervals %s,"
              " show's events %s" % (log, tid, a, b, r.get("exact"),
                                     got[:4], want[:4]))
        sums = {k: sum(y - x for x, y, st, _ in want if st == k)
                for k in ("running", "runnable", "blocked")}
        check(row and sum(row["run_ns"]) == sums["running"] and
              sum(row["runnable_ns"]) == sums["runnable"] and
              sum(row["blocked_ns"]) == sums["blocked"],
              "%s thread %s [%d, %d): spans %s, show's events %s" % (
                  log, tid, a, b, row and [sum(row[k]) for k in (
                      "run_ns", "runnable_ns", "blocked_ns")], sums))


def spans_agree(s, log):
    """The spans of the whole run, per name, are stats --spans': count,
    total and first start."""
    stats = json.loads(subprocess.run(
        [EVTOOL, "stats", "--spans", "--json", log], capture_output=True,
        text=True).stdout)
    if not stats["files"]:
        return
    names = s.json("/api/meta")["span_names"]
    spans = s.json("/api/tiles?width=8192")["spans"]
    for want in stats["files"][0]["spans"]["list"]:
        mine = [x for x in spans if names[x["name"]] == want["name"]]
        got = (len(mine), sum(x["duration_ns"] for x in mine),
               min([x["start_ns"] for x in mine], default=None))
        check(got == (want["count"], want["total_ns"],
                      want["first_ns"] if want["count"] else None),
              "%s span %s: %s, stats --spans %s" % (
                  log, want["name"], got,
                  (want["count"], want["total_ns"], want["first_ns"])))


def show_lines(log, cap):
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    if cap == "global":  # the events without a cap
        out = out[out.index("\nEvents:\n"):]
        return [l for l in out.splitlines()
                if re.match(r"\d+: (?!cap \d+: )", l) and "event block" not in l]
    mark = ": cap %d: " % cap
    return [l for l in out.splitlines()
            if mark in l and "event block" not in l]


def events_agree(s, log, meta, cap):
    got, cursor = [], "from=0&to=%d" % (meta["end_ns"] + 1)
    for _ in range(10000):
        page = s.json("/api/events?cap=%s&limit=1000&%s" % (cap, cursor))
        got += [(e["time"], e["show"]) for e in page["events"]]
        if page["next"] is None:
            break
        cursor = "from=0&to=%d&block=%d&after=%d" % (
            meta["end_ns"] + 1, page["next"]["block"], page["next"]["after"])
    # show sorts by time, stably: the API gives the log's order.
    got = [line for _, line in sorted(got, key=lambda e: e[0])]
    want = show_lines(log, cap)
    check(got == want, "%s cap %s: %d events from the API, %d from show%s" % (
        log, cap, len(got), len(want),
        "" if got == want else ": first difference %r" % (next(
            ((a, b) for a, b in zip(got, want) if a != b), None),)))


def sliced_stats(log, a, b):
    """`evtool filter --from a --to b LOG | evtool stats --caps --json`:
    its file, or None for a slice of no events."""
    sliced = subprocess.run([EVTOOL, "filter", log, "--from", str(a),
                             "--to", str(b)], capture_output=True,
                            check=True).stdout
    out = subprocess.run([EVTOOL, "stats", "--caps", "--json", "-"],
                         input=sliced, capture_output=True).stdout
    files = json.loads(out)["files"] if out else []
    return files[0] if files else None


def window_ranges(meta, rng, n):
    """`n` random ranges of the run, and the edge cases: the whole run,
    from the log's start, to its end."""
    first, last = meta["start_ns"], meta["end_ns"]
    ranges = [(0, last + 1), (first, (first + last) // 2 + 1),
              ((first + last) // 2, last + 1)]
    for _ in range(n):
        a = rng.randint(first, last - 1)
        ranges.append((a, rng.randint(a + 1, last + 1)))
    return ranges


def window_processes_agree(log, a, b, w, st):
    """Each process's bytes allocated and pauses (all generations) in the
    window are those of stats of the slice."""
    want = {p["capset"]: p for p in st["processes"]} if st else {}
    for p in w["processes"]:
        sp = want.get(p["capset"], {"allocated_bytes": 0, "pauses": None})
        pauses = sp["pauses"]["all"] if sp["pauses"] else None
        check(p["allocated_bytes"] == sp["allocated_bytes"] and
              p["pauses_complete"] and
              (p["pauses"] if p["pauses"]["count"] else None) == pauses,
              "%s window [%d, %d) process %d: allocated %d, pauses %s; "
              "filter | stats %d, %s" % (
                  log, a, b, p["capset"], p["allocated_bytes"],
                  p["pauses"], sp["allocated_bytes"], pauses))


def windows_agree(s, log, meta, rng):
    """/api/window at random ranges (and the whole run, its first and
    last half) gives each capability's mutator and GC time, and each
    process's bytes allocated and GC pauses (count, total, min, max,
    p50/p90/p99, the longest) exactly as `evtool filter --from --to |
    evtool stats --caps --json` does: the runs and GCs whose start and end
    both lie in the window, the pauses whose three events do."""
    if meta["end_ns"] <= meta["start_ns"]:
        return
    check(len(s.json("/api/window")["processes"]) == len(meta["processes"]),
          "%s: /api/window names each process of /api/meta" % log)
    for a, b in window_ranges(meta, rng, 4):
        w = s.json("/api/window?from=%d&to=%d" % (a, b))
        st = sliced_stats(log, a, b)
        want = {c["cap"]: c for c in st["capabilities"]} if st else {}
        for c in w["caps"]:
            sc = want.get(c["cap"], {"mutator_ns": 0, "gc_ns": 0})
            check(c["mutator_ns"] == sc["mutator_ns"] and
                  c["gc_ns"] == sc["gc_ns"],
                  "%s window [%d, %d) cap %d: %d/%d, filter | stats %d/%d" % (
                      log, a, b, c["cap"], c["mutator_ns"], c["gc_ns"],
                      sc["mutator_ns"], sc["gc_ns"]))
        window_processes_agree(log, a, b, w, st)


def refusals(s):
    status, _ = s.curl("/api/meta?token=")
    check(status == 403, "an empty token: %d" % status)
    status, _ = s.curl("/api/meta?token=" + "0" * 32)
    check(status == 403, "a wrong token: %d" % status)
    status, _ = s.curl("/api/meta", "-H", "Host: evil.example:80")
    check(status == 403, "a foreign Host: %d" % status)
    for bad in ("width=0", "width=100000", "from=5&to=3", "from=1",
                "from=x&to=2", "limit=0&cap=0", "cap=-1"):
        status, body = s.curl("/api/tiles?" + bad)
        check(status == 400 and body.startswith("bad parameter"),
              "tiles?%s: %d %r" % (bad, status, body))
    status, _ = s.curl("/api/events")
    check(status == 400, "events without a cap: %d" % status)
    status, _ = s.curl("/api/search?q=")
    check(status == 400, "an empty search: %d" % status)
    status, _ = s.curl("/etc/passwd")
    check(status == 404, "a path: %d" % status)
    status, _ = s.curl("/api/meta", "-X", "POST")
    check(status == 405, "POST: %d" % status)
    # The token in the query sets a cookie that serves without it.
    jar = "/tmp/evtool-view-api-%d.cookies" % os.getpid()
    s.curl("/", "-c", jar)
    status, _ = s.curl("/api/meta?token=", "-b", jar)
    check(status == 403, "a wrong token in the query beats the cookie")
    out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                          "-b", jar, s.base + "/api/meta"],
                         capture_output=True, text=True).stdout
    os.unlink(jar)
    check(out == "200", "the cookie alone: %s" % out)
    status, body = s.curl("/api/meta")
    check(status == 200, "still serving after the refusals")


def search_finds_labels(s, log):
    out = subprocess.run([EVTOOL, "show", log], capture_output=True,
                         text=True).stdout
    labels = re.findall(r"thread (\d+) has label \"([^\"]+)\"", out)
    if not labels:
        return
    tid, label = labels[0]
    hits = s.json("/api/search?q=" + urllib.parse.quote(label))["hits"]
    check(any(h["kind"] == "label" and str(h["tid"]) == tid and
              h["text"] == label for h in hits),
          "%s: search %r: %s" % (log, label, hits[:3]))


def server_timing(s):
    """Each answer's Server-Timing: its handler's wall time and the CPU
    time of that, in ms (doc/view-api.md); a 400 has it too."""
    for path, want in (("/api/tiles?width=64", "200"),
                       ("/api/tiles?width=0", "400")):
        out = subprocess.run(["curl", "-s", "-D", "-", "-o", "/dev/null",
                              s.base + path + "&token=" + s.token],
                             capture_output=True, text=True).stdout
        m = re.search(r"(?im)^Server-Timing: answer;dur=(\d+\.\d{3}), "
                      r"cpu;dur=(\d+\.\d{3})\r?$", out)
        check(out.split()[1:2] == [want] and m is not None and
              float(m.group(2)) <= float(m.group(1)) + 1.0,
              "%s: Server-Timing: %r" % (path, out))


def preview_cells(t):
    """Each capability's (run_ns, gc_ns) per span of a tiles answer."""
    return {r["cap"]: list(zip(r["run_ns"], r["gc_ns"])) for r in t["caps"]}


def preview_agrees(work):
    """api.py --preview: on a log large enough that the index takes a
    while (bench/make-large-log.sh, 150 MB of a real GHC run), the first
    answer of the whole run's tiles, before the index completes, comes
    from the preview and covers the whole run; at the preview's
    resolution (one span per bucket of its grid) its figures are those of
    the complete index."""
    log = os.path.join(work, "large.eventlog")
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(["bash", os.path.join(here, "..", "..", "bench",
                                         "make-large-log.sh"), log, "150"],
                   check=True, stdout=subprocess.DEVNULL)
    s = Server(log, options=("-T", "2"))
    try:
        first = s.json("/api/tiles?width=1500")
        if not first.get("preview"):
            check(False, "--preview: the first answer is the index's so far, "
                  "%d..%d ns" % (first["from"], first["to"]))
            return
        b = first["bucket_ns"]
        grid = "/api/tiles?from=0&to=%d&width=%d" % (
            (first["to"] // b + 1) * b, first["to"] // b + 1)
        coarse = s.json(grid)
        early = s.json("/api/meta")
        meta = wait_complete(s)
        check(first["preview"] and coarse["preview"] and not early["complete"],
              "--preview: the first answers came from the preview: %r %r"
              % (first["preview"], coarse["preview"]))
        print("the index had reached %.0f%% of the run after them"
              % (100 * (early["indexed_ns"] - meta["start_ns"])
                 / max(1, meta["end_ns"] - meta["start_ns"])))
        check(first["from"] == meta["start_ns"] and first["to"] == meta["end_ns"]
              and early["end_ns"] == meta["end_ns"]
              and early["capabilities"] == meta["capabilities"],
              "--preview: the first answer covers the whole run: %d..%d, "
              "the run %d..%d" % (first["from"], first["to"],
                                  meta["start_ns"], meta["end_ns"]))
        full = s.json(grid)
        check(not full["preview"] and b % full["bucket_ns"] == 0,
              "--preview: the complete index answers, in buckets of %d ns "
              "that divide the preview's %d" % (full["bucket_ns"], b))
        got, want = preview_cells(coarse), preview_cells(full)
        busy = sum(r + g for cells in want.values() for r, g in cells)
        check(got == want and busy > 0,
              "--preview: the preview's spans are the complete index's "
              "(%d caps, %d ns busy)" % (len(want), busy))
    finally:
        s.stop()


if PREVIEW:
    import tempfile
    with tempfile.TemporaryDirectory() as work:
        preview_agrees(work)
    print("%d passed, %d failed" % (passed, len(failures)))
    sys.exit(1 if failures else 0)

rng = random.Random(25)
for i, log in enumerate(LOGS):
    if not one_session(log):
        continue
    s = Server(log)
    try:
        meta = wait_complete(s)
        tiles_agree(s, log, meta)
        phases_agree(s, log, meta)
        threads_agree(s, log, meta)
        thread_intervals_agree(s, log, meta, rng)
        spans_agree(s, log)
        for cap in range(min(meta["capabilities"], 2)):
            events_agree(s, log, meta, cap)
        search_finds_labels(s, log)
        windows_agree(s, log, meta, rng)
        sub_tiles_agree(s, log, meta, random.Random(i))
        if i == 0:
            refusals(s)
            server_timing(s)
    finally:
        s.stop()

# /api/events never gives up: gc-n2 has one block per capability and
# one global block; copies of its cap 0 block (events repeated, times as
# they were) are put before cap 1's until 34 MB of cap 0's events lie
# between the data start and cap 1's block. Paged through, cap 1's and
# the global buffer's events are still show's.
import struct

data = open(os.path.join(sys.argv[2], "gc-n2.eventlog"), "rb").read()
at = data.index(b"hdredatb") + 8
blocks = []
while data[at:at + 2] == b"\x00\x12":  # BLOCK_MARKER: size u32 at 10
    size = struct.unpack(">I", data[at + 10:at + 14])[0]
    blocks.append(data[at:at + size])
    at += size
padded = "/tmp/evtool-view-api-padded-%d.eventlog" % os.getpid()
with open(padded, "wb") as f:
    f.write(data[:data.index(b"hdredatb") + 8])
    f.write(blocks[0] * (34000000 // len(blocks[0]) + 1))
    f.write(b"".join(blocks[1:]) + data[at:])
s = Server(padded)
try:
    meta = wait_complete(s)
    check(os.path.getsize(padded) > 34000000 and len(blocks) == 3,
          "the padded log: %d bytes, %d blocks" % (os.path.getsize(padded),
                                                   len(blocks)))
    events_agree(s, padded, meta, 1)
    events_agree(s, padded, meta, "global")
finally:
    s.stop()
    os.unlink(padded)

# Several logs are one timeline, as `evtool merge` aligns them.
a, b = (os.path.join(sys.argv[2], n) for n in ("merge-a.eventlog",
                                               "merge-b.eventlog"))
merged = "/tmp/evtool-view-api-%d.eventlog" % os.getpid()
subprocess.run([EVTOOL, "merge", a, b, "-o", merged], check=True)
s = Server(a, b)
try:
    meta = wait_complete(s)
    tiles_agree(s, merged, meta)
    check([p["pid"] is not None and p["program"] for p in meta["processes"]]
          == ["./worker", "./worker"], "two processes: %s" % meta["processes"])
    # Each process's heap apart: its bytes allocated and largest live
    # bytes are stats' for that process.
    procs = json.loads(subprocess.run(
        [EVTOOL, "stats", "--json", merged], capture_output=True,
        text=True).stdout)["files"][0]["processes"]
    heaps = {h["capset"]: h for h in s.json("/api/tiles?width=64")["heaps"]}
    for p, mp in zip(procs, meta["processes"]):
        h = heaps.get(mp["capset"])
        check(h is not None and p["pid"] == mp["pid"] and
              sum(h["allocated_bytes"]) == p["allocated_bytes"] and
              max(h["live_bytes"]) == p["max_live_bytes"],
              "process %s: heap %s, stats %d allocated %d live" % (
                  mp["pid"], h and (sum(h["allocated_bytes"]),
                                    max(h["live_bytes"])),
                  p["allocated_bytes"], p["max_live_bytes"]))
    # A window of the two processes: each one's allocation and pauses.
    for lo, hi in window_ranges(meta, rng, 3):
        window_processes_agree(merged, lo, hi,
                               s.json("/api/window?from=%d&to=%d" % (lo, hi)),
                               sliced_stats(merged, lo, hi))
finally:
    s.stop()
    os.unlink(merged)

# A log of two sessions (two logs concatenated, as a restarted eventlog
# leaves them): both processes are shown, aligned as `evtool merge`
# aligns the two logs, whose tiles are merge's stats --caps.
both = "/tmp/evtool-view-api-sessions-%d.eventlog" % os.getpid()
merged = "/tmp/evtool-view-api-%d.eventlog" % os.getpid()
with open(both, "wb") as f:
    f.write(open(a, "rb").read() + open(b, "rb").read())
subprocess.run([EVTOOL, "merge", a, b, "-o", merged], check=True)
s = Server(both)
try:
    meta = wait_complete(s)
    check(meta["sessions"] == 2 and
          [p["pid"] for p in meta["processes"]] == [8605, 8613],
          "two sessions, two processes: %s %s" % (meta["sessions"],
                                                  meta["processes"]))
    tiles_agree(s, merged, meta)
finally:
    s.stop()
    os.unlink(both)
    os.unlink(merged)

# The log's forms: gzip (inflated into an unnamed temporary file) and
# standard input (`-`, spooled) give the plain log's tiles; a plain log is
# opened read-only (its descriptors' access mode in /proc), and nothing is
# written beside it.
import gzip
import tempfile as _tempfile

plain = os.path.join(sys.argv[2], "threads-n2.eventlog")
with _tempfile.TemporaryDirectory() as d:
    gz = os.path.join(d, "threads-n2.eventlog.gz")
    with open(plain, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    for form, logs, stdin in (("gzip", (gz,), None),
                              ("standard input", ("-",), open(plain, "rb"))):
        s = Server(*logs, stdin=stdin)
        try:
            tiles_agree(s, plain, wait_complete(s))
        finally:
            s.stop()
            if stdin:
                stdin.close()
    check(os.listdir(d) == ["threads-n2.eventlog.gz"],
          "nothing beside the gzip log: %s" % os.listdir(d))
s = Server(plain)
try:
    wait_complete(s)
    modes = []
    for fd in os.listdir("/proc/%d/fd" % s.proc.pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (s.proc.pid, fd))
        except OSError:
            continue
        if os.path.realpath(target) == os.path.realpath(plain):
            info = open("/proc/%d/fdinfo/%s" % (s.proc.pid, fd)).read()
            modes.append(int(re.search(r"flags:\s+(\d+)", info).group(1), 8)
                         & 3)
    check(modes and all(m == os.O_RDONLY for m in modes),
          "the log opened read-only: access modes %s" % modes)
finally:
    s.stop()

# --listen: a port named is the port served; an address other than
# loopback is served, with a warning.
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
s = Server(plain, options=("--listen", "127.0.0.1:%d" % port))
try:
    check(s.base == "http://127.0.0.1:%d" % port,
          "--listen 127.0.0.1:%d: served at %s" % (port, s.base))
    check(s.curl("/api/meta")[0] == 200, "--listen: it answers")
finally:
    s.stop()


def host_refused(s, host, message):
    status, body = s.curl("/api/meta", "-H", "Host: " + host)
    check(status == 403 and body == message,
          "%s: Host %s: %d %r" % (s.base, host, status, body))


s = Server(plain, options=("--listen", "0.0.0.0:0"), host=r"0\.0\.0\.0")
try:
    port = int(s.base.rsplit(":", 1)[1])
    s.base = "http://127.0.0.1:%d" % port
    check(s.curl("/api/meta")[0] == 200, "--listen 0.0.0.0: it answers")
    check(s.curl("/api/meta", "-H", "Host: localhost:%d" % port)[0] == 200,
          "--listen 0.0.0.0: it answers to localhost")
    only = "this server answers to an IP address or localhost only\n"
    host_refused(s, "evil.example:%d" % port, only)
    host_refused(s, "127.0.0.1:%d" % (port ^ 1), only)
finally:
    s.stop()
warned = s.proc.stderr.read()
check("warning: not a loopback address" in warned,
      "--listen 0.0.0.0: the warning %r" % warned)

# An address of this machine other than loopback (the one a route to
# TEST-NET-1 leaves from; none on a machine without a network): served
# to a Host naming it, refused to any other name or port.
try:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.connect(("192.0.2.1", 9))
    address = probe.getsockname()[0]
    probe.close()
except OSError:
    address = None
if address and not address.startswith("127."):
    s = Server(plain, options=("--listen", address + ":0"),
               host=re.escape(address))
    try:
        port = int(s.base.rsplit(":", 1)[1])
        check(s.curl("/api/meta")[0] == 200,
              "--listen %s: it answers" % address)
        check(s.curl("/api/meta", "-H", "Host: " + address)[0] == 200,
              "--listen %s: it answers to a Host without port" % address)
        only = "this server answers to its --listen address only\n"
        host_refused(s, "evil.example:%d" % port, only)
        host_refused(s, "%s.nip.io:%d" % (address, port), only)
        host_refused(s, "%s:%d" % (address, port ^ 1), only)
        host_refused(s, "localhost:%d" % port, only)
    finally:
        s.stop()
else:
    print("skipped: no address other than loopback for --listen")

# --cache DIR|FILE: the index is written once the log is read, used again
# while the log is unchanged (the answers are the same), made anew when its
# modification time or bytes change or the file is damaged; nothing is
# written beside the log; a log on standard input is not cached.
import shutil as _shutil
import tempfile

work = tempfile.mkdtemp(prefix="evtool-view-api-cache-")
cache_dir = os.path.join(work, "cache")
os.mkdir(cache_dir)
logdir = os.path.join(work, "logs")
os.mkdir(logdir)
log = os.path.join(logdir, "prof-n2.eventlog")
_shutil.copy(os.path.join(sys.argv[2], "prof-n2.eventlog"), log)
QUERIES = ("/api/tiles?from=0&to=1048576000&width=64", "/api/bands?width=50",
           "/api/window?from=100000000&to=500000000",
           "/api/events?cap=1&limit=1000", "/api/thread?tid=3",
           "/api/search?q=main")


def answers(where):
    """/api/meta's from_cache and the answers of QUERIES."""
    s = Server(log, options=("--cache", where))
    try:
        meta = wait_complete(s)
        got = [s.curl(q) for q in QUERIES]
        for _ in range(100):  # the cache is written once complete
            if meta["complete"]:
                break
            time.sleep(0.05)
            meta = s.json("/api/meta")
        return meta["from_cache"], got
    finally:
        s.stop()


import time
fresh, first = answers(cache_dir)
files = os.listdir(cache_dir)
check(not fresh and len(files) == 1 and files[0].endswith(".cache"),
      "--cache DIR: one cache file written: %s" % files)
cached, again = answers(cache_dir)
check(cached and again == first, "--cache DIR: used again, same answers "
      "(%s)" % [q for q, a, b in zip(QUERIES, first, again) if a != b])
os.utime(log, None)  # touched: another modification time
cached, again = answers(cache_dir)
check(not cached and again == first, "--cache: a touched log is read again")
cached, _ = answers(cache_dir)
check(cached, "--cache: and the new cache used after")
# The same size and time, other bytes: the last bit of the timestamp (u64
# after the u16 type) of cap 1's first event.
at = json.loads(first[3][1])["events"][0]["offset"] + 2 + 7
with open(log, "r+b") as f:
    st = os.stat(log)
    f.seek(at)
    byte = f.read(1)
    f.seek(at)
    f.write(bytes([byte[0] ^ 1]))
os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
cached, _ = answers(cache_dir)
check(not cached, "--cache: a log whose first MiB changed is read again")
path = os.path.join(cache_dir, files[0])
with open(path, "r+b") as f:  # damaged: cut in the middle
    f.truncate(os.path.getsize(path) // 2)
_shutil.copy(os.path.join(sys.argv[2], "prof-n2.eventlog"), log)
cached, again = answers(cache_dir)
check(not cached and again == first, "--cache: a damaged cache is made anew")
one = os.path.join(work, "one.cache")
answers(one)
cached, again = answers(one)
check(cached and again == first and os.path.exists(one),
      "--cache FILE: written and used")
check(os.listdir(logdir) == ["prof-n2.eventlog"],
      "nothing beside the log: %s" % os.listdir(logdir))
p = subprocess.Popen([EVTOOL, "view", "--cache", cache_dir, "-"],
                     stdin=open(log, "rb"), stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
p.stdout.readline()
p.terminate()
err = p.communicate(timeout=10)[1]
check("not a file: not cached" in err, "--cache with standard input: %r" % err)
_shutil.rmtree(work)

# --open starts the browser as xdg-open does: each command of $BROWSER
# (colon-separated) until one succeeds, the URL for its %s or as its last
# argument; without $BROWSER, xdg-open (here a script first in PATH).
tmp = "/tmp/evtool-view-api-open-%d" % os.getpid()
os.mkdir(tmp)
record = os.path.join(tmp, "record")
with open(record, "w") as f:
    f.write("#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > \"" + tmp +
            "/args-$(basename \"$0\")\"\n")
os.chmod(record, 0o755)
os.symlink(record, os.path.join(tmp, "xdg-open"))
one = os.path.join(sys.argv[2], "merge-a.eventlog")


def opened(browser, name):
    """The arguments the browser command `name` got, and the URL."""
    env = dict(os.environ, PATH=tmp + ":" + os.environ["PATH"])
    env.pop("BROWSER", None)
    if browser is not None:
        env["BROWSER"] = browser
    s = Server(one, options=("--open",), env=env)
    try:
        path = os.path.join(tmp, "args-" + name)
        for _ in range(100):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        args = open(path).read().split("\n")[1:-1] if os.path.exists(path) else None
        status, _ = s.curl("/api/meta")
        check(status == 200, "--open: still serving")
        return args, s.base + "/?token=" + s.token
    finally:
        s.stop()
        for f in os.listdir(tmp):
            if f.startswith("args-"):
                os.unlink(os.path.join(tmp, f))


import time
args, url = opened(record, "record")
check(args == [url], "BROWSER=record: %s, want [%s]" % (args, url))
args, url = opened("false:" + record + " --new-window %s", "record")
check(args == ["--new-window", url], "BROWSER=false:record --new-window %%s: %s"
      % args)
args, url = opened(None, "xdg-open")
check(args == [url], "no BROWSER, xdg-open: %s, want [%s]" % (args, url))
for f in ("record", "xdg-open"):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)

# unix:PATH, the socket of a program using eventlog-socket: a log sent
# in pieces grows on the server, then its tiles are stats --caps'.
import socket
import threading
import time

sock_path = "/tmp/evtool-view-api-%d.sock" % os.getpid()
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(sock_path)
listener.listen(1)
log = os.path.join(sys.argv[2], "gc-n2.eventlog")
data = open(log, "rb").read()


def send_in_pieces():
    conn, _ = listener.accept()
    for at in range(0, len(data), 20000):
        conn.sendall(data[at:at + 20000])
        time.sleep(0.1)
    conn.close()


threading.Thread(target=send_in_pieces, daemon=True).start()
s = Server("unix:" + sock_path)
try:
    ends = []
    for _ in range(100):
        meta = s.json("/api/meta")
        if not ends or meta["end_ns"] != ends[-1]:
            ends.append(meta["end_ns"])
        if meta["complete"]:
            break
        time.sleep(0.05)
    check(meta["complete"] and len(ends) >= 3,
          "unix: socket: the run grew %s and completed" % ends)
    tiles_agree(s, log, meta)
finally:
    s.stop()
    listener.close()
    os.unlink(sock_path)

# A log file still being written: its first 20 kB, then the rest in
# pieces; the run grows on the server, then its tiles are stats --caps'.
growing = "/tmp/evtool-view-api-growing-%d.eventlog" % os.getpid()
with open(growing, "wb") as f:
    f.write(data[:20000])
s = Server(growing)
try:
    ends = []
    for at in range(20000, len(data) + 20000, 20000):
        meta = s.json("/api/meta")
        if not ends or meta["end_ns"] != ends[-1]:
            ends.append(meta["end_ns"])
        with open(growing, "ab") as f:
            f.write(data[at:at + 20000])
        time.sleep(0.3)
    for _ in range(100):
        meta = s.json("/api/meta")
        if meta["complete"]:
            break
        time.sleep(0.1)
    check(meta["complete"] and len(ends) >= 3 and ends == sorted(ends),
          "a growing file: the run grew %s and completed" % ends)
    tiles_agree(s, log, meta)
finally:
    s.stop()
    os.unlink(growing)

print("%d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
