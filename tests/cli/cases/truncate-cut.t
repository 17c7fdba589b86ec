# a copy cut mid-event (head -c): the complete events are kept, the cut block's size and end time fixed, the data end appended; exit 3
cmd: head -c 40013 @DATA@/threads-n2.eventlog > cut.eventlog; evtool truncate cut.eventlog -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E '^  (status|events|size) '; cmp -n 39152 cut.eventlog out.eventlog && evtool validate --strict out.eventlog && exit $rc
exit: 3
--- stdout
  status           complete
  events           2227 in 2 blocks, 1 session
  size             40002 bytes
out.eventlog: valid (0 warnings, 2227 events)
--- stderr
evtool truncate: cut.eventlog: offset 40000: the log ends inside an event (13 of 14 bytes present); dropped the 13 bytes after the last complete event
evtool truncate: cut.eventlog: offset 39152: block of cap 1 cut from 33932 to 848 bytes, end time 6404760 ns (declared 30310488)
evtool truncate: cut.eventlog: kept 2227 events in 2 blocks, times 229770 to 30233468 ns (0.030004 s); dropped 13 of 40013 bytes
