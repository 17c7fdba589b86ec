# --shift moves inputs (1 = the first) by hand, on top of the alignment
cmd: evtool merge -v --shift 2=-1.5ms,1=+2us @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o out.eventlog && evtool validate out.eventlog 2>/dev/null
exit: 0
--- stdout
out.eventlog: valid (0 warnings, 322 events)
--- stderr
input 1 @DATA@/merge-a.eventlog: 143 events, shift +0.000002000 s; caps 0 -> 0; capsets 0-1 -> 0-1 (process 0, clock 1); threads 1-9 -> 1-9; tasks 4 (0 renamed)
input 2 @DATA@/merge-b.eventlog: 179 events, shift +0.049540520 s; caps 0-1 -> 1-2; capsets 0-1 -> 2-3 (process 2, clock 3); threads 1-10 -> 10-19; tasks 6 (0 renamed)
merged 2 inputs: 322 events
