# aligned by start, the killed log is merged up to its last complete event (exit 3) and its missing creation events are synthesised
cmd: head -c 5417 @DATA@/merge-b.eventlog > killed.eventlog; evtool merge -v --align start @DATA@/merge-a.eventlog killed.eventlog -o out.eventlog; rc=$?; evtool info out.eventlog | grep -E '^  (status|capabilities|capsets|events) '; evtool validate out.eventlog 2>/dev/null || exit 9; exit $rc
exit: 3
--- stdout
  status           complete
  capabilities     3: 0 1 2
  capsets          4: 2 (os-process), 3 (clock-domain), 0 (os-process), 1 (clock-domain)
  events           292 in 5 blocks, 1 session
out.eventlog: valid (0 warnings, 292 events)
--- stderr
input 1 @DATA@/merge-a.eventlog: 143 events, shift -0.000122720 s; caps 0 -> 0; capsets 0-1 -> 0-1 (process 0, clock 1); threads 1-9 -> 1-9; tasks 4 (0 renamed)
input 2 killed.eventlog: 141 events, shift -0.000135710 s; caps 0-1 -> 1-2; capsets 0-1 -> 2-3 (process 2, clock 3); threads 1-10 -> 10-19; synthesised 8 creation events it lacks: CAPSET_CREATE (OS process), CAPSET_CREATE (clock domain), CAP_CREATE, CAPSET_ASSIGN_CAP
evtool merge: killed.eventlog: offset 5412: warning: the log ends inside an event (5 of 24 bytes present); merged its 141 complete events
merged 2 inputs: 292 events
