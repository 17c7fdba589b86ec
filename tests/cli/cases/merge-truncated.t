# a log cut mid-event is merged up to its last complete event, with a warning and exit 3
cmd: head -c 30000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool merge --align start @DATA@/merge-a.eventlog cut.eventlog -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E '^  (status|events) '; evtool validate out.eventlog 2>/dev/null || exit 9; exit $rc
exit: 3
--- stdout
  status           complete
  events           1787 in 4 blocks, 1 session
out.eventlog: valid (0 warnings, 1787 events)
--- stderr
evtool merge: cut.eventlog: offset 29992: warning: the log ends inside an event (8 of 20 bytes present); merged its 1636 complete events
