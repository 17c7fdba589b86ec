#!/usr/bin/env python3
"""Writes copies of a plain log of blocks in which one thread runs on two
caps at once, found only across blocks: one run of another thread on a
cap (its RUN_THREAD and the STOP_THREAD that ends it) is given the
thread id of a thread that runs on another cap at the same time, in a
block read earlier (doc/format.md sections 1 and 2: event heads, block
markers; RUN_THREAD's u32 thread id at +10, STOP_THREAD's too, its u16
status at +14). The cap's own stream stays consistent (its RUN and STOP
still pair up), so only the check across caps can see it.

    python3 two_caps.py LOG OUT_PREFIX

Writes, where the log has such runs, OUT_PREFIX-closed.eventlog (the
renamed run lies inside the thread's run on the other cap, which ended
in an earlier block) and OUT_PREFIX-crossing.eventlog (the renamed run
begins in one block of its cap and ends in a later one, and the thread
runs on the other cap from a time inside it, in a block read after
it), and prints the paths written.
"""
import struct
import sys

from sched_offsets import declarations

MARKER, RUN, STOP = 18, 1, 2
FINISHED = 5


def runs(data):
    """Every run on a cap with both ends in the log: dicts of tid, cap,
    start, end, the RUN's and STOP's offsets and blocks, the STOP's
    status, in the file order of their RUNs."""
    sizes, at = declarations(data)
    block, cap, block_end = -1, None, 0
    open_runs, found = {}, []
    while at + 10 <= len(data):
        ident, time = struct.unpack(">HQ", data[at:at + 10])
        if ident == 0xFFFF or ident not in sizes:
            break
        size, head = sizes[ident], 10
        if size < 0:
            size, head = struct.unpack(">H", data[at + 10:at + 12])[0], 12
        if at >= block_end:
            cap = None
        if ident == MARKER:
            block += 1
            block_end = at + struct.unpack(">I", data[at + 10:at + 14])[0]
            cap = struct.unpack(">H", data[at + 22:at + 24])[0]
        elif ident in (RUN, STOP) and cap not in (None, 0xFFFF):
            tid = struct.unpack(">I", data[at + 10:at + 14])[0]
            if ident == RUN:
                run = dict(tid=tid, cap=cap, start=time, run_at=at,
                           run_block=block)
                open_runs[cap] = run
                found.append(run)
            elif cap in open_runs and open_runs[cap]["tid"] == tid:
                run = open_runs.pop(cap)
                run.update(end=time, stop_at=at, stop_block=block,
                           status=struct.unpack(
                               ">H", data[at + 14:at + 16])[0])
            else:
                open_runs.pop(cap, None)
        at += head + size
    return [r for r in found if "end" in r]


def renamed(data, run, tid, path):
    """A copy of `data` with `run` given thread id `tid`, written."""
    copy = bytearray(data)
    for at in (run["run_at"], run["stop_at"]):
        copy[at + 10:at + 14] = struct.pack(">I", tid)
    with open(path, "wb") as out:
        out.write(copy)
    print(path)


def closed(runs_):
    """A run, and a thread whose latest run on another cap (by file
    order) ended in an earlier block and holds it."""
    for a in runs_:
        if a["run_block"] != a["stop_block"] or a["status"] == FINISHED:
            continue
        latest = {}
        for b in runs_:
            if b["stop_at"] < a["run_at"] and b["cap"] != a["cap"]:
                latest[(b["tid"], b["cap"])] = b
        for b in latest.values():
            if b["tid"] != a["tid"] and \
               b["start"] < a["start"] and \
               a["end"] < b["end"]:
                return a, b["tid"]
    return None


def crossing(runs_):
    """A run across its cap's blocks, and a thread that runs on another
    cap, in a block read after the run's end, from a time inside it: the
    run given that thread's id is its latest on the cap then."""
    for a in runs_:
        if a["run_block"] == a["stop_block"] or a["status"] == FINISHED:
            continue
        later = [b for b in runs_ if b["run_at"] > a["run_at"]]
        for b in later:
            if b["run_at"] > a["stop_at"] and b["cap"] != a["cap"] and \
               b["tid"] != a["tid"] and \
               a["start"] < b["start"] and \
               b["start"] < a["end"] and \
               not any(c["tid"] == b["tid"] and c["cap"] == a["cap"] and
                       c["run_at"] < b["run_at"] for c in later):
                return a, b["tid"]
    return None


def main():
    data = open(sys.argv[1], "rb").read()
    found = runs(data)
    for name, pick in (("closed", closed), ("crossing", crossing)):
        chosen = pick(found)
        if chosen:
            renamed(data, chosen[0], chosen[1],
                    "%s-%s.eventlog" % (sys.argv[2], name))


if __name__ == "__main__":
    main()
