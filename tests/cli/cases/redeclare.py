#!/usr/bin/env python3
"""Damage for the golden cases and the sweep: re-declare one event type of
a real GHC log as another program's (Mercury's) type of the same id would
be declared.

    redeclare.py IN OUT ID DESCRIPTION
    redeclare.py --mercury IN OUT
    redeclare.py --drop ID IN OUT

Type ID becomes variable-size with DESCRIPTION in the header, and every
event of that type in the first session gets the 2-byte length a
variable-size event carries (its payload unchanged); the sizes of the
blocks holding them grow to match. A type the log does not declare is
declared (it has no events to change). A log cut short (no data end) keeps
its cut tail as it is.

--mercury imitates the header Mercury's runtime writes
(runtime/mercury_threadscope.c): id 39 is its variable-size "Register an
id->string mapping" (MR_TS_EVENT_STRING; GHC's 39 is SPARK_STEAL, 2
bytes), and the declarations are in the order of its table, STARTUP (17),
SHUTDOWN (7) and BLOCK_MARKER (18) first, not in GHC's ascending order.

--drop removes type ID from the header and its events from the first
session, as an older GHC wrote the log: --drop 165 gives heap censuses
without HEAP_PROF_SAMPLE_END.

Reads doc/format.md's layout directly, sharing no code with evtool.
"""
import struct
import sys

MERCURY_ID = 39
MERCURY_DESC = 'Register an id->string mapping'
MERCURY_FIRST = (17, 7, 18)


class CannotWalk(Exception):
    """The events cannot be walked with the declared sizes (GHC 6.12's
    header declares 8-byte thread ids and writes 4)."""


def parse_header(data):
    """Returns ([(id, size, declaration bytes)], offset past "datb")."""
    if data[:8] != b"hdrbhetb":
        raise CannotWalk('no eventlog header')
    at, decls = 8, []
    while data[at:at + 4] == b"etb\0":
        id_, size, dlen = struct.unpack_from(">HhI", data, at + 4)
        elen = struct.unpack_from(">I", data, at + 12 + dlen)[0]
        end = at + 12 + dlen + 4 + elen + 4
        decls.append((id_, size, data[at:end]))
        at = end
    if data[at:at + 12] != b"hetehdredatb":
        raise CannotWalk('no end of header')
    return decls, at + 12


def declaration(id_, desc):
    d = desc.encode()
    return (b"etb\0" + struct.pack(">HhI", id_, -1, len(d)) + d +
            struct.pack(">I", 0) + b"ete\0")


def walk(data, at, sizes):
    """The events of the first session from `at`: [(type, start, bytes)],
    and the offset where they stop (the data end, or a cut)."""
    events = []
    while at + 2 <= len(data):
        type_ = struct.unpack_from(">H", data, at)[0]
        if type_ == 0xFFFF:
            break
        if type_ not in sizes:
            raise CannotWalk('event type %d at offset %d is not declared'
                             % (type_, at))
        head = 10 if sizes[type_] >= 0 else 12
        if at + head > len(data):
            break
        size = sizes[type_] if head == 10 else \
            struct.unpack_from(">H", data, at + 10)[0]
        if at + head + size > len(data):
            break
        events.append((type_, at, bytearray(data[at:at + head + size])))
        at += head + size
    return events, at


def redeclare(data, target, desc, first=()):
    """The log `data` with `target` re-declared variable-size as `desc`,
    the declarations of the ids in `first` moved to the front."""
    decls, at = parse_header(data)
    sizes = {id_: size for id_, size, _ in decls}
    new = [(id_, declaration(id_, desc) if id_ == target else raw)
           for id_, _, raw in decls]
    if target not in sizes:
        new.append((target, declaration(target, desc)))
    new.sort(key=lambda d: first.index(d[0]) if d[0] in first
             else len(first))
    out = bytearray(b"hdrbhetb") + b"".join(raw for _, raw in new)
    out += b"hetehdredatb"
    if target not in sizes or sizes[target] < 0:
        return bytes(out + data[at:])  # no event changes
    events, stop = walk(data, at, sizes)
    for _, _, raw in events:
        if raw[:2] == struct.pack(">H", target):
            raw[10:10] = struct.pack(">H", len(raw) - 10)
    # Block markers (type 18): u32 size from the marker's first byte.
    for i, (type_, start, raw) in enumerate(events):
        if type_ != 18:
            continue
        end = start + struct.unpack_from(">I", raw, 10)[0]
        grow = sum(2 for t, s, _ in events[i + 1:] if t == target and s < end)
        struct.pack_into(">I", raw, 10, end - start + grow)
    for _, _, raw in events:
        out += raw
    out += data[stop:]
    return bytes(out)


def without(data, target):
    """The log with type `target` neither declared nor written (its events
    dropped, the blocks holding them shrunk): for 165, a log of a GHC
    whose heap censuses had no HEAP_PROF_SAMPLE_END."""
    decls, at = parse_header(data)
    sizes = {id_: size for id_, size, _ in decls}
    out = bytearray(b"hdrbhetb")
    out += b"".join(raw for id_, _, raw in decls if id_ != target)
    out += b"hetehdredatb"
    events, stop = walk(data, at, sizes)
    for i, (type_, start, raw) in enumerate(events):
        if type_ != 18:
            continue
        end = start + struct.unpack_from(">I", raw, 10)[0]
        gone = sum(len(r) for t, s, r in events[i + 1:]
                   if t == target and s < end)
        struct.pack_into(">I", raw, 10, end - start - gone)
    for type_, _, raw in events:
        if type_ != target:
            out += raw
    out += data[stop:]
    return bytes(out)


def mercury(data):
    """The log as Mercury's runtime would declare it (see above)."""
    return redeclare(data, MERCURY_ID, MERCURY_DESC, MERCURY_FIRST)


def main():
    args = sys.argv[1:]
    if args[:1] == ['--mercury']:
        src, dst = args[1:3]
        out = mercury(open(src, "rb").read())
    elif args[:1] == ['--drop']:
        target, src, dst = int(args[1]), args[2], args[3]
        out = without(open(src, "rb").read(), target)
    else:
        src, dst, target, desc = args[0], args[1], int(args[2]), args[3]
        out = redeclare(open(src, "rb").read(), target, desc)
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
