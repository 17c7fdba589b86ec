# a log merged with itself gives two processes: caps, capsets, threads and every (colliding) task renumbered
cmd: evtool merge -v @DATA@/merge-a.eventlog @DATA@/merge-a.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (processes|process [0-9]|capabilities|capsets|events) ' && evtool validate out.eventlog 2>/dev/null
exit: 0
--- stdout
  processes        2
  process 1        capset 0, 1 capability: 0
  process 2        capset 2, 1 capability: 1
  capabilities     2: 0 1
  capsets          4: 0 (os-process), 2 (os-process), 1 (clock-domain), 3 (clock-domain)
  events           286 in 3 blocks, 1 session
out.eventlog: valid (0 warnings, 286 events)
--- stderr
input 1 @DATA@/merge-a.eventlog: 143 events, shift +0.000000000 s; caps 0 -> 0; capsets 0-1 -> 0-1 (process 0, clock 1); threads 1-9 -> 1-9; tasks 4 (0 renamed)
input 2 @DATA@/merge-a.eventlog: 143 events, shift +0.000000000 s; caps 0 -> 1; capsets 0-1 -> 2-3 (process 2, clock 3); threads 1-9 -> 10-18; tasks 4 (4 renamed)
merged 2 inputs: 286 events
