# a killed GHC 9.0 log without its global block has no wall clock: by default aligned by its start, with a warning naming it; the output validates
cmd: head -c 5417 @DATA@/merge-b.eventlog > killed.eventlog; evtool merge @DATA@/merge-a.eventlog killed.eventlog -o out.eventlog; rc=$?; evtool validate out.eventlog 2>/dev/null || exit 9; exit $rc
exit: 3
--- stdout
out.eventlog: valid (0 warnings, 292 events)
--- stderr
evtool merge: killed.eventlog: offset 5412: warning: the log ends inside an event (5 of 24 bytes present); merged its 141 complete events
evtool merge: killed.eventlog: warning: no WALL_CLOCK_TIME event: aligned by its start, its first event at time 0 (--shift N=TIME moves it; --strict refuses)
