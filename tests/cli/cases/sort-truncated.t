# a log cut short: its complete events are sorted, with a warning and exit 3
cmd: head -c 40000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool sort cut.eventlog -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E 'status|^  events'; evtool validate --sorted out.eventlog 2>/dev/null || exit 9; exit $rc
exit: 3
--- stdout
  status           complete
  events           2227 in 15 blocks, 1 session
out.eventlog: valid (0 warnings, 2227 events)
--- stderr
evtool sort: cut.eventlog: offset 40000: warning: the log ends without the data-end marker (after 2227 events); sorted the 2227 complete events
