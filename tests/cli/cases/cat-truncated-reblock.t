# cat --reblock keeps the complete events of a cut log and exits 3
cmd: head -c 30000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool cat --reblock cut.eventlog -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E 'status|events '; exit $rc
exit: 3
--- stdout
  status           complete
  events           1636 in 1 block, 1 session
--- stderr
evtool cat: cut.eventlog: offset 29992: warning: the log ends inside an event (8 of 20 bytes present); kept the 1636 complete events
