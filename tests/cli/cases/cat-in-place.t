# --in-place rewrites the input through a temporary file; the result is re-blocked and reads the same
cmd: cp @DATA@/threads-n4.eventlog in.eventlog && evtool cat --reblock --block-size 4096 --in-place in.eventlog && ls -A && evtool info in.eventlog | grep -E 'status|events ' && evtool validate --strict in.eventlog
exit: 0
--- stdout
in.eventlog
  status           complete
  events           5286 in 25 blocks, 1 session
in.eventlog: valid (0 warnings, 5286 events)
--- stderr
