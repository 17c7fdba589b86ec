# a log cut short: the complete events are filtered, with a warning and exit 3
cmd: head -c 30000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool filter cut.eventlog --class s -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E 'status|^  events'; exit $rc
exit: 3
--- stdout
  status           complete
  events           1635 in 1 block, 1 session
--- stderr
evtool filter: cut.eventlog: offset 29992: warning: the log ends inside an event (8 of 20 bytes present); filtered the 1636 complete events
