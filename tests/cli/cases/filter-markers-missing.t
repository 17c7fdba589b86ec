# a start marker that matches nothing gives an empty window, with a warning
cmd: evtool filter @DATA@/user-n1.eventlog --between-markers 'checkpoint,end*' -o out.eventlog && evtool info out.eventlog | grep -E '^  events |by class'
exit: 0
--- stdout
  events           18 in 2 blocks, 1 session
  by class         scheduler 2 gc 1 meta 5 cap 10
--- stderr
evtool filter: @DATA@/user-n1.eventlog: warning: no user marker matches the start of the marker window (in 1 session): that window is empty
