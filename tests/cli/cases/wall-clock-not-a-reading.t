# a WALL_CLOCK_TIME whose nanoseconds are 10^9 (the log's own reading, rewritten in place) is not a clock reading: every command that reads the wall clock refuses the log with its offset and exit 1, as merge always did (merge, filter and truncate with a wall-clock time, info); filter by cap, which needs no wall clock, still copies it
cmd: evtool show --format ndjson @DATA@/threads-n2.eventlog > s.ndjson; python3 -c 'import json, struct, sys; e = next(json.loads(l) for l in open("s.ndjson") if "WALL_CLOCK_TIME" in l)["fields"]; b = open(sys.argv[1], "rb").read(); old = struct.pack(">QI", e["sec"], e["nsec"]); assert b.count(old) == 1; open("bad.eventlog", "wb").write(b.replace(old, struct.pack(">QI", e["sec"], 10**9)))' @DATA@/threads-n2.eventlog; evtool merge bad.eventlog @DATA@/threads-n2.eventlog -o m.eventlog; echo "merge $?"; evtool filter bad.eventlog --from 2026-11-22T03:25:56Z -o f.eventlog; echo "filter $?"; evtool truncate --at 2026-11-22T03:25:56Z bad.eventlog -o t.eventlog; echo "truncate $?"; evtool info bad.eventlog | head -n 2; echo "info ${PIPESTATUS[0]}"; evtool filter bad.eventlog --cap 0 -o c.eventlog; echo "filter --cap $?"; ls -A
exit: 0
--- stdout
merge 1
filter 1
truncate 1
bad.eventlog
  status           invalid at offset 73228: WALL_CLOCK_TIME 1795317955 s 1000000000 ns is not a clock reading
info 1
filter --cap 0
bad.eventlog
c.eventlog
s.ndjson
--- stderr
evtool merge: bad.eventlog: offset 73228: WALL_CLOCK_TIME 1795317955 s 1000000000 ns is not a clock reading
evtool filter: bad.eventlog: offset 73228: WALL_CLOCK_TIME 1795317955 s 1000000000 ns is not a clock reading
evtool truncate: bad.eventlog: --at: offset 73228: WALL_CLOCK_TIME 1795317955 s 1000000000 ns is not a clock reading
evtool info: bad.eventlog: offset 73228: WALL_CLOCK_TIME 1795317955 s 1000000000 ns is not a clock reading
