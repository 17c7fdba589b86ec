# --events N keeps the first N events (block markers not counted) and stops reading
cmd: evtool truncate --events 100 @DATA@/threads-n2.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (status|events) ' && evtool validate --strict out.eventlog
exit: 0
--- stdout
  status           complete
  events           100 in 1 block, 1 session
out.eventlog: valid (0 warnings, 100 events)
--- stderr
evtool truncate: @DATA@/threads-n2.eventlog: offset 2688: block of cap 0 cut from 36464 to 1756 bytes, end time 1985000 ns (declared 30291288)
evtool truncate: @DATA@/threads-n2.eventlog: kept 100 events in 1 block, times 229770 to 1985000 ns (0.001755 s); stopped reading at offset 4444
