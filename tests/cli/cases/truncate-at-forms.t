# --at takes every time form: 10ms after the first event (+10ms), the same cut as a timestamp (@10227240ns, and bare as show prints it) and as an ISO 8601 wall-clock time (by the log's WALL_CLOCK_TIME); all write the same valid log
cmd: evtool truncate -q --at +10ms @DATA@/threads-n2.eventlog -o a.eventlog && evtool truncate --at @10227240ns @DATA@/threads-n2.eventlog -o b.eventlog && evtool truncate -q --at 10227240 @DATA@/threads-n2.eventlog -o d.eventlog && cmp a.eventlog d.eventlog && evtool truncate -q --at 2026-11-22T04:25:56.008437550+01:00 @DATA@/threads-n2.eventlog -o c.eventlog && cmp a.eventlog b.eventlog && cmp a.eventlog c.eventlog && evtool validate --strict c.eventlog
exit: 0
--- stdout
c.eventlog: valid (0 warnings, 1981 events)
--- stderr
evtool truncate: @DATA@/threads-n2.eventlog: offset 2688: block of cap 0 cut from 36464 to 20666 bytes, end time 10099009 ns (declared 30291288)
evtool truncate: @DATA@/threads-n2.eventlog: offset 39152: block of cap 1 cut from 33932 to 12148 bytes, end time 10096299 ns (declared 30310488)
evtool truncate: @DATA@/threads-n2.eventlog: offset 73084: the global block cut from 908 to 592 bytes, end time 5791000 ns (declared 30319408)
evtool truncate: @DATA@/threads-n2.eventlog: kept 1981 events in 3 blocks, times 227240 to 10099009 ns (0.009872 s); cut 2269 events stamped at or after 10227240 ns; dropped 37898 of 73994 bytes
