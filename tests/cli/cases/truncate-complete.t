# a complete log passes through byte for byte, exit 0, with a one-line summary
cmd: evtool truncate @DATA@/threads-n2.eventlog -o out.eventlog && cmp @DATA@/threads-n2.eventlog out.eventlog && ls -A && evtool validate --strict out.eventlog
exit: 0
--- stdout
out.eventlog
out.eventlog: valid (0 warnings, 4250 events)
--- stderr
evtool truncate: @DATA@/threads-n2.eventlog: kept 4250 events in 3 blocks, times 227240 to 30284298 ns (0.030057 s); the log was complete, nothing dropped
