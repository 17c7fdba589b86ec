# --process selects by OS pid: the log's own process is all of it, another pid is nothing
cmd: evtool filter @DATA@/user-n1.eventlog --process 8543 -o a.eventlog && evtool info a.eventlog | grep -E '^  events '; evtool filter @DATA@/user-n1.eventlog --process 1 -o b.eventlog && evtool info b.eventlog | grep -E 'status|^  events '
exit: 0
--- stdout
  events           107 in 2 blocks, 1 session
  status           complete
  events           0 in 0 blocks, 1 session
--- stderr
