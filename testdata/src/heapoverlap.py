#!/usr/bin/env python3
"""heapoverlap.py [--tick-inside] A.eventlog B.eventlog: count the heap
samples that overlap.

Puts both logs on the Unix clock by their WALL_CLOCK_TIME (id 43: capset
u32, seconds u64, nanoseconds u32, posted at the timestamp it names; see
doc/format.md section 6) and pairs each HEAP_PROF_SAMPLE_BEGIN (162) with the
HEAP_PROF_SAMPLE_END (165) that closes it. Prints the samples of each log
and how many of A's overlap one of B's in time, and exits 1 when none do.
With --tick-inside it counts instead the samples of A that hold a
time-profile tick, a PROF_SAMPLE_COST_CENTRE (167) that the profiling timer
posted into the global buffer between a sample's begin and end (a -hc -p
run), and exits 1 when none does. Used by generate.sh to keep a
heap-a/heap-b pair only when a merge of the two must keep overlapping
samples apart, and a prof-a/prof-b pair only when a merge of prof-a with
anything must keep a census whole with the ticks inside it; standard
library only.
"""
import struct
import sys


def events(d):
    """Yields (type, time, payload) of every event after the header."""
    u32 = lambda o: struct.unpack_from('>I', d, o)[0]
    u16 = lambda o: struct.unpack_from('>H', d, o)[0]
    if d[:8] != b'hdrbhetb':
        raise SystemExit('no eventlog header')
    o, sizes = 8, {}
    while u32(o) == 0x65746200:                      # "etb\0"
        tid, size = struct.unpack_from('>Hh', d, o + 4)
        o += 8
        o += 4 + u32(o)                              # description
        o += 4 + u32(o)                              # extra info
        o += 4                                       # "ete\0"
        sizes[tid] = size
    o += 12                                          # "hetehdredatb"
    while o + 2 <= len(d) and u16(o) != 0xffff:
        t = u16(o)
        time = struct.unpack_from('>Q', d, o + 2)[0]
        if sizes[t] == -1:
            n, head = u16(o + 10), 12
        else:
            n, head = sizes[t], 10
        yield t, time, d[o + head:o + head + n]
        o += head + n


def samples(path):
    """The [begin, end] Unix-ns intervals of the log's heap samples, and
    how many of them hold a PROF_SAMPLE_COST_CENTRE (167)."""
    origin, out, begin, ticks, ticked = None, [], None, 0, 0
    for t, time, p in events(open(path, 'rb').read()):
        if t == 43:
            sec, nsec = struct.unpack_from('>QI', p, 4)
            origin = sec * 10**9 + nsec - time
        elif t == 162:
            begin, ticks = time, 0
        elif t == 167 and begin is not None:
            ticks += 1
        elif t == 165 and begin is not None:
            out.append((begin, time))
            ticked += ticks > 0
            begin = None
    if origin is None:
        raise SystemExit('%s: no WALL_CLOCK_TIME' % path)
    return [(b + origin, e + origin) for b, e in out], ticked


def main():
    args = sys.argv[1:]
    tick_inside = args[:1] == ['--tick-inside']
    if tick_inside:
        args = args[1:]
    (a, a_ticked), (b, _) = samples(args[0]), samples(args[1])
    both = sum(1 for x in a if any(x[0] <= y[1] and y[0] <= x[1] for y in b))
    print('%d and %d heap samples, %d of the first overlap one of the second'
          % (len(a), len(b), both))
    if tick_inside:
        print('%d of the first hold a time-profile tick' % a_ticked)
        return 0 if a_ticked else 1
    return 0 if both else 1


if __name__ == '__main__':
    sys.exit(main())
