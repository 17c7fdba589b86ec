# merge renumbers three processes (-N1, -N2, -N3) and aligns them by wall clock; -v says how
cmd: evtool merge -v @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog @DATA@/merge-c.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (status|capabilities|capsets|events) ' && evtool validate out.eventlog 2>/dev/null
exit: 0
--- stdout
  status           complete
  capabilities     6: 0 1 2 3 4 5
  capsets          6: 0 (os-process), 1 (clock-domain), 2 (os-process), 3 (clock-domain), 4 (os-process), 5 (clock-domain)
  events           530 in 7 blocks, 1 session
out.eventlog: valid (0 warnings, 530 events)
--- stderr
input 1 @DATA@/merge-a.eventlog: 143 events, shift +0.000000000 s; caps 0 -> 0; capsets 0-1 -> 0-1 (process 0, clock 1); threads 1-9 -> 1-9; tasks 4 (0 renamed)
input 2 @DATA@/merge-b.eventlog: 179 events, shift +0.051040520 s; caps 0-1 -> 1-2; capsets 0-1 -> 2-3 (process 2, clock 3); threads 1-10 -> 10-19; tasks 6 (0 renamed)
input 3 @DATA@/merge-c.eventlog: 208 events, shift +0.102283360 s; caps 0-2 -> 3-5; capsets 0-1 -> 4-5 (process 4, clock 5); threads 1-11 -> 20-30; tasks 8 (0 renamed)
merged 3 inputs: 530 events
