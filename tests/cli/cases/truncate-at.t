# --at +T keeps the events stamped less than T after the first event, in every block; the result is a valid log; exit 0
cmd: evtool truncate --at +10ms @DATA@/threads-n2.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (status|time|events) ' && evtool validate --strict out.eventlog
exit: 0
--- stdout
  status           complete
  time             first 227240 ns, last 10099009 ns, duration 0.009872 s
  events           1981 in 3 blocks, 1 session
  time inversions  0 (0 of them GC_END)
out.eventlog: valid (0 warnings, 1981 events)
--- stderr
evtool truncate: @DATA@/threads-n2.eventlog: offset 2688: block of cap 0 cut from 36464 to 20666 bytes, end time 10099009 ns (declared 30291288)
evtool truncate: @DATA@/threads-n2.eventlog: offset 39152: block of cap 1 cut from 33932 to 12148 bytes, end time 10096299 ns (declared 30310488)
evtool truncate: @DATA@/threads-n2.eventlog: offset 73084: the global block cut from 908 to 592 bytes, end time 5791000 ns (declared 30319408)
evtool truncate: @DATA@/threads-n2.eventlog: kept 1981 events in 3 blocks, times 227240 to 10099009 ns (0.009872 s); cut 2269 events stamped 10000000 ns or more after the first; dropped 37898 of 73994 bytes
