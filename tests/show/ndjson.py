#!/usr/bin/env python3
"""evtool show --format ndjson against an independent reading of each log.

    tests/show/ndjson.py EVTOOL LOG...

For every LOG: every output line must parse as one JSON object; the
objects must be the log's events (block markers included) in ghc-events'
order (stable by time, ties in file order), each with the time, the cap of
its enclosing block (null outside blocks and for the global buffer), the
type name, and the payload fields decoded here from doc/format.md, sharing no
code with evtool. Prints one line per log and "N passed, M failed".
"""
import json
import struct
import subprocess
import sys

# Payload fields by type id, in wire order: (name, struct code); 's' is
# UTF-8 text to the end, 'z' NUL-terminated text, 'S' NUL-separated
# strings to the end, 'L' u32 values, as many as the field before says. A type with two forms lists the longer one; fields
# the payload does not reach are absent.
FIELDS = {
    0: [("thread", "I")], 1: [("thread", "I")],
    2: [("thread", "I"), ("status", "H"), ("info", "I")],
    4: [("thread", "I"), ("new_cap", "H")],
    8: [("thread", "I"), ("other_cap", "H")],
    16: [("message", "s")], 19: [("message", "s")],
    18: [("size", "I"), ("end_time", "Q"), ("cap", "H")],
    25: [("capset", "I"), ("capset_type", "H")], 26: [("capset", "I")],
    27: [("capset", "I"), ("cap", "H")], 28: [("capset", "I"), ("cap", "H")],
    29: [("capset", "I"), ("rts_id", "s")],
    30: [("capset", "I"), ("args", "S")],
    32: [("capset", "I"), ("pid", "I")], 33: [("capset", "I"), ("ppid", "I")],
    34: [(n, "Q") for n in ("created", "dud", "overflowed", "converted",
                            "gcd", "fizzled", "remaining")],
    43: [("capset", "I"), ("sec", "Q"), ("nsec", "I")],
    44: [("thread", "I"), ("label", "s")],
    45: [("cap", "H")], 46: [("cap", "H")],
    49: [("capset", "I"), ("bytes", "Q")], 50: [("capset", "I"), ("bytes", "Q")],
    51: [("capset", "I"), ("bytes", "Q")],
    52: [("capset", "I"), ("generations", "H"), ("max_heap_size", "Q"),
         ("alloc_area_size", "Q"), ("mblock_size", "Q"), ("block_size", "Q")],
    53: [("capset", "I"), ("generation", "H"), ("copied", "Q"), ("slop", "Q"),
         ("fragmentation", "Q"), ("par_n_threads", "I"),
         ("par_max_copied", "Q"), ("par_tot_copied", "Q"),
         ("par_balanced_copied", "Q")],
    55: [("task", "Q"), ("cap", "H"), ("kernel_thread", "Q")],
    57: [("task", "Q")], 58: [("marker", "s")],
    160: [("profile", "B"), ("sampling_period", "Q"), ("breakdown", "I")] +
         [(n + "_filter", "z") for n in ("module", "closure_descr",
          "type_descr", "cost_centre", "cost_centre_stack", "retainer",
          "biography")],
    161: [("cost_centre", "I"), ("label", "z"), ("module", "z"),
          ("srcloc", "z"), ("flags", "B")],
    162: [("era", "Q")], 165: [("era", "Q")],
    163: [("profile", "B"), ("residency", "Q"), ("depth", "B"), ("stack", "L")],
    167: [("capability", "I"), ("ticks", "Q"), ("depth", "B"), ("stack", "L")],
    168: [("tick_interval", "Q")],
    164: [("profile", "B"), ("residency", "Q"), ("label", "z")],
    201: [("marked_objects", "I")], 206: [("cap", "H")],
    207: [("block_size", "H"), ("active_segments", "I"),
          ("filled_segments", "I"), ("live_blocks", "I")],
}
EMPTY = {3, 9, 10, 11, 12, 20, 21, 22, 35, 36, 37, 38, 40, 41, 54, 200, 202,
         203, 204, 205, 212}
NAMES = {0: "CREATE_THREAD", 1: "RUN_THREAD", 2: "STOP_THREAD",
         18: "BLOCK_MARKER", 53: "GC_STATS_GHC", 30: "PROGRAM_ARGS"}


# Metadata (lib/format/internal.h, evi_type_is_metadata): STARTUP,
# capsets 25-28, RTS identifier, arguments, environment, pids 29-33, wall
# clock 43, THREAD_LABEL 44, caps 45-48, heap info 52, perf name 140,
# heap and time profile begin 160 and 168, cost centre 161, IPE 169, ticky
# counter definition 210. What stats and report time a run by is the other
# events (nor BLOCK_MARKER, 18, which frames events without being one).
METADATA = {17, 25, 26, 27, 28, 29, 30, 31, 32, 33, 43, 44, 45, 46, 47, 48,
            52, 140, 160, 161, 168, 169, 210}
BLOCK_MARKER = 18


def text(b):
    return b.decode("utf-8", "replace")


# ghc-events' ThreadStopStatus constructors by STOP_THREAD status code
# (mkStopStatus; 18 as current ghc-events reads it), and its CapsetType.
STOP_NAMES = ["NoStatus", "HeapOverflow", "StackOverflow", "ThreadYielding",
              "ThreadBlocked", "ThreadFinished", "ForeignCall",
              "BlockedOnMVar", "BlockedOnBlackHole", "BlockedOnRead",
              "BlockedOnWrite", "BlockedOnDelay", "BlockedOnSTM",
              "BlockedOnDoProc", "BlockedOnCCall",
              "BlockedOnCCall_NoUnblockExc", "BlockedOnMsgThrowTo",
              "ThreadMigrating", "BlockedOnMsgThrowTo", "NoStatus",
              "BlockedOnMVarRead"]
# GHC 7.8.2 (USER_MARKER declared, HACK_BUG_T9003 not) numbered them so.
GHC782 = [0, 1, 2, 3, 4, 5, 6, 7, 20, 8, 9, 10, 11, 12, 13, 0, 14, 15, 16,
          17]
CAPSET_TYPES = {1: "CapsetCustom", 2: "CapsetOsProcess",
                3: "CapsetClockDomain"}
# ghc-events' HeapProfBreakdown constructors, by code from 1.
BREAKDOWNS = ["CostCentre", "Module", "ClosureDescr", "TypeDescr",
              "Retainer", "Biography", "ClosureType", "InfoTable", "Era"]


def add_names(type_, fields, ghc782):
    """The names NDJSON gives beside codes, and the "_str" twin of every
    integer a double would round (above 2^53)."""
    out = {}
    for name, value in fields.items():
        out[name] = value
        if isinstance(value, int) and value > 2 ** 53:
            out[name + "_str"] = str(value)
        if type_ == 2 and name == "status":
            code = value
            if ghc782:
                code = GHC782[code] if code < len(GHC782) else 0
            code = code if code < len(STOP_NAMES) else 0
            owned = code == 8 and "info" in fields
            out["status_name"] = ("BlockedOnBlackHoleOwnedBy" if owned
                                  else STOP_NAMES[code])
        if type_ == 25 and name == "capset_type":
            out["capset_type_name"] = CAPSET_TYPES.get(value, "CapsetUnknown")
        if type_ == 160 and name == "breakdown" and \
                1 <= value <= len(BREAKDOWNS):
            out["breakdown_name"] = "HeapProfBreakdown" + BREAKDOWNS[value - 1]
    return out


# Forms that differ in more than appended fields, by (type, size).
OLD_FORMS = {
    (207, 13): [("log2_block_size", "B"), ("active_segments", "I"),
                ("filled_segments", "I"), ("live_blocks", "I")],
}


def decode(type_, payload):
    out, at = {}, 0
    layout = OLD_FORMS.get((type_, len(payload)), FIELDS.get(type_, []))
    for name, code in layout:
        if code in "BHIQ":
            width = struct.calcsize(">" + code)
            if len(payload) - at < width:
                break
            out[name] = struct.unpack_from(">" + code, payload, at)[0]
            at += width
        elif code == "z":
            end = payload.find(b"\0", at)
            end = len(payload) if end < 0 else end
            out[name] = text(payload[at:end])
            at = min(end + 1, len(payload))
        elif code == "L":
            n = min(out[layout[layout.index((name, code)) - 1][0]],
                    (len(payload) - at) // 4)
            out[name] = list(struct.unpack_from(">%dI" % n, payload, at))
            at += 4 * n
        elif code == "S":
            out[name] = [text(s) for s in payload[at:].rstrip(b"\0").split(b"\0")]
            at = len(payload)
        else:
            out[name] = text(payload[at:])
            at = len(payload)
    return out


def declared(data):
    """The header's event types, {id: size}, and where its events start."""
    assert data[:8] == b"hdrbhetb"
    at, sizes = 8, {}
    while data[at:at + 4] == b"etb\0":
        id_, size, dlen = struct.unpack_from(">HhI", data, at + 4)
        at += 12 + dlen
        elen = struct.unpack_from(">I", data, at)[0]
        at += 4 + elen + 4
        sizes[id_] = size
    return sizes, at


def walk(data):
    """The events of the first session in file order: (time, cap, type,
    payload), block markers included, caps per doc/format.md section 2."""
    sizes, at = declared(data)
    assert data[at:at + 12] == b"hetehdredatb"
    at += 12
    events, block_end, block_cap = [], 0, 0xFFFF
    while at + 2 <= len(data):
        type_ = struct.unpack_from(">H", data, at)[0]
        if type_ == 0xFFFF:
            break
        head = 10 if sizes[type_] >= 0 else 12
        if at + head > len(data):
            break
        size = sizes[type_] if head == 10 else struct.unpack_from(">H", data, at + 10)[0]
        if at + head + size > len(data):
            break
        time = struct.unpack_from(">Q", data, at + 2)[0]
        payload = data[at + head:at + head + size]
        if type_ == 18:
            block_end = at + struct.unpack_from(">I", payload, 0)[0]
            block_cap = struct.unpack_from(">H", payload, 12)[0]
            cap = block_cap
        else:
            cap = block_cap if at < block_end else 0xFFFF
        events.append((time, None if cap == 0xFFFF else cap, type_, payload))
        at += head + size
    return events


def check(evtool, path):
    out = subprocess.run([evtool, "show", "--format", "ndjson", path],
                         capture_output=True, check=False)
    if out.returncode not in (0, 3):
        return "exit %d: %s" % (out.returncode, out.stderr[:200])
    lines = out.stdout.decode("utf-8").splitlines()
    data = open(path, "rb").read()
    want = sorted(walk(data), key=lambda e: e[0])
    sizes = declared(data)[0]
    ghc782 = 58 in sizes and 59 not in sizes
    if len(lines) != len(want):
        return "%d lines, %d events" % (len(lines), len(want))
    for n, (line, (time, cap, type_, payload)) in enumerate(zip(lines, want)):
        got = json.loads(line)
        fields = add_names(type_, decode(type_, payload), ghc782)
        if type_ not in FIELDS and type_ not in EMPTY:
            return "line %d: type %d has no decoder here" % (n + 1, type_)
        if time > 2 ** 53 and got.get("time_str") != str(time):
            return "line %d: no time_str for time %d" % (n + 1, time)
        if (got["time"], got["cap"], got["id"]) != (time, cap, type_):
            return "line %d: %s, want time %d cap %s id %d" % (
                n + 1, line, time, cap, type_)
        if type_ in NAMES and got["type"] != NAMES[type_]:
            return "line %d: type %r, want %s" % (n + 1, got["type"], NAMES[type_])
        if got["fields"] != fields:
            return "line %d: %s, want fields %s" % (n + 1, line, fields)
    return None


def main():
    evtool, logs = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in logs:
        problem = check(evtool, path)
        print(("FAIL %s: %s" % (path, problem)) if problem else "ok " + path)
        failed += problem is not None
    print("%d passed, %d failed" % (len(logs) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
