#!/usr/bin/env python3
"""Damage for the golden cases: re-declare one event type of a real GHC log
as another program's (Mercury's) type of the same id would be declared.

    redeclare.py IN OUT ID DESCRIPTION

Type ID becomes variable-size with DESCRIPTION in the header, and every
event of that type in the first session gets the 2-byte length a
variable-size event carries (its payload unchanged); the sizes of the
blocks holding them grow to match. Reads doc/format.md's layout directly,
sharing no code with evtool.
"""
import struct
import sys


def main():
    src, dst, target, desc = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = open(src, "rb").read()
    assert data[:8] == b"hdrbhetb"
    out, at, sizes = bytearray(data[:8]), 8, {}
    while data[at:at + 4] == b"etb\0":
        id_, size, dlen = struct.unpack_from(">HhI", data, at + 4)
        elen = struct.unpack_from(">I", data, at + 12 + dlen)[0]
        end = at + 12 + dlen + 4 + elen + 4
        sizes[id_] = size
        if id_ == target:
            d = desc.encode()
            out += b"etb\0" + struct.pack(">HhI", id_, -1, len(d)) + d
            out += data[at + 12 + dlen:end]
        else:
            out += data[at:end]
        at = end
    assert data[at:at + 12] == b"hetehdredatb" and target in sizes
    out += data[at:at + 12]
    at += 12
    events = []  # (type, bytes) of the first session, in file order
    while True:
        type_ = struct.unpack_from(">H", data, at)[0]
        if type_ == 0xFFFF:
            break
        head = 10 if sizes[type_] >= 0 else 12
        size = sizes[type_] if head == 10 else struct.unpack_from(">H", data, at + 10)[0]
        raw = data[at:at + head + size]
        if type_ == target:
            raw = raw[:10] + struct.pack(">H", size) + raw[10:]
        events.append((type_, at, bytearray(raw)))
        at += head + size
    # Block markers (type 18): u32 size from the marker's first byte.
    for i, (type_, start, raw) in enumerate(events):
        if type_ != 18:
            continue
        end = start + struct.unpack_from(">I", raw, 10)[0]
        grow = sum(2 for t, s, _ in events[i + 1:] if t == target and s < end)
        struct.pack_into(">I", raw, 10, end - start + grow)
    for _, _, raw in events:
        out += raw
    out += data[at:]
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
