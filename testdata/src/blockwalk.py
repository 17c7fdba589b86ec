#!/usr/bin/env python3
"""blockwalk.py LOG[.gz] [--expect-killed]: walk a GHC eventlog event by event.

Reads the header (event types and their sizes), then every event after
"datb", following the block markers (id 18: u32 size including the 24-byte
marker event, u64 end time, u16 cap; see doc/format.md). Prints the blocks,
caps, event counts by type, whether the global block (cap 0xffff) is
present and how the file ends. Used by generate.sh on
killed-blocks.eventlog.gz; standard library only.

With --expect-killed it exits 1 unless the log has the header, at least
two whole blocks, no data-end marker (ff ff), and ends exactly where its
last block ends.
"""
import collections
import gzip
import struct
import sys


def walk(d):
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
        if u32(o) != 0x65746500:                     # "ete\0"
            raise SystemExit('bad event type entry at %d' % o)
        o += 4
        sizes[tid] = size
    if d[o:o + 12] != b'hetehdredatb':
        raise SystemExit('bad header end at %d' % o)
    o += 12
    r = dict(header=o, blocks=[], counts=collections.Counter(), events=0,
             outside=0, window=0, end=None, ending=None)
    block_end, cur = None, None
    while True:
        if o == len(d):
            r['ending'] = 'eof'
            break
        if o + 2 > len(d):
            r['ending'] = 'cut in an event type at %d' % o
            break
        t = u16(o)
        if t == 0xffff:
            r['ending'] = 'data-end ff ff at %d' % o
            break
        if t not in sizes:
            r['ending'] = 'undeclared event type %d at %d' % (t, o)
            break
        if sizes[t] == -1:
            if o + 12 > len(d):
                r['ending'] = 'cut in an event header at %d' % o
                break
            n = 12 + u16(o + 10)
        else:
            n = 10 + sizes[t]
        if o + n > len(d):
            r['ending'] = 'cut in an event (type %d) at %d' % (t, o)
            break
        ts = struct.unpack_from('>Q', d, o + 2)[0]
        if t == 18:
            if block_end is not None and o != block_end:
                r['ending'] = 'block at %d does not start where the last ended (%d)' % (o, block_end)
                break
            size, end_time, cap = struct.unpack_from('>IQH', d, o + 10)
            cur = (o, size, ts, end_time, cap)
            r['blocks'].append(cur)
            block_end = o + size
        else:
            r['events'] += 1
            r['counts'][t] += 1
            if block_end is None or o >= block_end:
                r['outside'] += 1
            elif not cur[2] <= ts <= cur[3] and t != 10:   # GC_END steps back
                r['window'] += 1
        o += n
    r['end'] = o
    r['block_end'] = block_end
    return r


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    expect_killed = '--expect-killed' in sys.argv[1:]
    if len(args) != 1:
        raise SystemExit(__doc__)
    path = args[0]
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        d = f.read()
    r = walk(d)
    blocks = r['blocks']
    whole = [b for b in blocks if b[0] + b[1] <= len(d)]
    caps = sorted({b[4] for b in blocks})
    print('%s: %d bytes, header %d bytes' % (path, len(d), r['header']))
    for (o, size, start, end, cap) in blocks:
        print('  block at %9d: %8d bytes, cap %s, %d..%d ns%s' % (
            o, size, 'global' if cap == 0xffff else cap, start, end,
            '' if o + size <= len(d) else ', CUT (%d bytes present)' % (len(d) - o)))
    print('blocks %d (whole %d), caps %s, global block %s' % (
        len(blocks), len(whole), [c for c in caps if c != 0xffff],
        'present' if 0xffff in caps else 'absent'))
    print('events %d (+ %d block markers); outside blocks %d; outside their block window %d (GC_END not counted)' % (
        r['events'], len(blocks), r['outside'], r['window']))
    print('by type: ' + ', '.join('%d:%d' % kv for kv in sorted(r['counts'].items())))
    at_boundary = r['block_end'] == len(d)
    print('ends: %s; last block ends at %s, file ends at %d (%s); last two bytes %s' % (
        r['ending'], r['block_end'], len(d),
        'exactly at a block boundary' if at_boundary else 'NOT at a block boundary',
        d[-2:].hex()))
    if expect_killed:
        problems = []
        if len(whole) < 2:
            problems.append('fewer than two whole blocks')
        if r['ending'] != 'eof':
            problems.append('walk ended with: %s' % r['ending'])
        if d[-2:] == b'\xff\xff':
            problems.append('ends with ff ff')
        if not at_boundary:
            problems.append('does not end at a block boundary')
        if r['outside'] or r['window']:
            problems.append('events outside blocks or windows')
        if problems:
            print('blockwalk.py: ' + '; '.join(problems), file=sys.stderr)
            sys.exit(1)


if __name__ == '__main__':
    main()
