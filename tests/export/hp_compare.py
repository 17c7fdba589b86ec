#!/usr/bin/env python3
"""Compares the RTS's own .hp file of a run with `evtool export --format hp`
of the same run's eventlog: the same samples in the same order, each with
the same bands and values. Header lines (JOB, DATE, ...) and sample times
are left aside: the RTS stamps samples with mutator CPU seconds, the log
with elapsed time. A -hc band loses the RTS's "(ccsID)" prefix, which the
log does not hold, and is compared without it.

usage: hp_compare.py RTS.hp EXPORT.hp     exit 0 when they agree"""
import re
import sys
from collections import Counter


def samples(path):
    out, cur = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("BEGIN_SAMPLE"):
            cur = Counter()
        elif line.startswith("END_SAMPLE"):
            out.append(cur)
            cur = None
        elif cur is not None:
            band, value = line.rsplit("\t", 1)
            cur[(re.sub(r"^\(\d+\)", "", band), int(value))] += 1
    return out


def main():
    rts, ours = samples(sys.argv[1]), samples(sys.argv[2])
    if len(rts) != len(ours):
        print(f"{len(rts)} samples in {sys.argv[1]}, {len(ours)} in {sys.argv[2]}")
        return 1
    for i, (a, b) in enumerate(zip(rts, ours)):
        if a != b:
            print(f"sample {i} differs: only in the RTS's {sorted(a - b)[:5]}, "
                  f"only in the export {sorted(b - a)[:5]}")
            return 1
    bands = sum(sum(s.values()) for s in rts)
    print(f"{sys.argv[2]}: {len(rts)} samples, {bands} band values, as the RTS's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
