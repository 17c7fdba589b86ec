# what evtool sort, merge, filter and truncate write validates (sort's output with --sorted)
cmd: evtool sort @DATA@/threads-n4.eventlog -o s.eventlog && evtool validate --strict --sorted s.eventlog && evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog @DATA@/merge-c.eventlog -o m.eventlog && evtool filter @DATA@/threads-n2.eventlog --class s --from 5ms -o f.eventlog && { evtool truncate @DATA@/killed-blocks.eventlog.gz -o t.eventlog 2>/dev/null; test $? = 3; } && evtool validate --strict m.eventlog f.eventlog t.eventlog
exit: 0
--- stdout
s.eventlog: valid (0 warnings, 5286 events)
m.eventlog: valid (0 warnings, 530 events)
f.eventlog: valid (0 warnings, 3326 events)
t.eventlog: valid (0 warnings, 12921 events)
--- stderr
