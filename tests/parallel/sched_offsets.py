#!/usr/bin/env python3
"""Prints the byte offsets of COUNT of a plain log's events of the given
types, spread evenly over them, by walking its header's declarations and
its events (doc/format.md sections 1 and 2).

    python3 sched_offsets.py LOG COUNT TYPE...
"""
import struct
import sys


def declarations(data):
    """The declared payload sizes by type id (-1: variable), and the
    offset where the events start."""
    at = data.index(b"hetb") + 4
    sizes = {}
    while data[at:at + 4] == b"etb\0":
        ident, size = struct.unpack(">Hh", data[at + 4:at + 8])
        desc = struct.unpack(">I", data[at + 8:at + 12])[0]
        extra = struct.unpack(">I", data[at + 12 + desc:at + 16 + desc])[0]
        sizes[ident] = size
        at += 16 + desc + extra + 4
    return sizes, data.index(b"datb", at) + 4


def main():
    data = open(sys.argv[1], "rb").read()
    count = int(sys.argv[2])
    wanted = {int(t) for t in sys.argv[3:]}
    sizes, at = declarations(data)
    found = []
    while at + 2 <= len(data):
        ident = struct.unpack(">H", data[at:at + 2])[0]
        if ident == 0xFFFF or ident not in sizes:
            break
        size, head = sizes[ident], 10
        if size < 0:
            size, head = struct.unpack(">H", data[at + 10:at + 12])[0], 12
        if ident in wanted:
            found.append(at)
        at += head + size
    for i in range(count):
        print(found[(2 * i + 1) * len(found) // (2 * count)])


if __name__ == "__main__":
    main()
