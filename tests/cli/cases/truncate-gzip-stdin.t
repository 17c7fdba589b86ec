# a cut log arriving gzip'd on standard input, written to standard output
cmd: head -c 50000 @DATA@/threads-n4.eventlog | gzip | evtool truncate - -o - > out.eventlog; echo "exit $?"; evtool info out.eventlog | grep -E '^  (status|events) ' && evtool validate --strict out.eventlog
exit: 0
--- stdout
exit 3
  status           complete
  events           2839 in 2 blocks, 1 session
out.eventlog: valid (0 warnings, 2839 events)
--- stderr
evtool truncate: <stdin>: offset 49988: the log ends inside an event (12 of 20 bytes present); dropped the 12 bytes after the last complete event
evtool truncate: <stdin>: offset 32338: block of cap 1 cut from 24822 to 17650 bytes, end time 24740819 ns (declared 40327158)
evtool truncate: <stdin>: kept 2839 events in 2 blocks, times 226450 to 40238288 ns (0.040012 s); dropped 12 of 50000 bytes
