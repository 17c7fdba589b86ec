# what evtool cat writes validates: copies, re-blocked logs (small blocks too), two sessions, a truncated log's complete events
cmd: evtool cat @DATA@/threads-n4.eventlog -o a.eventlog && evtool cat --reblock @DATA@/threads-n4.eventlog -o b.eventlog && evtool cat --reblock --block-size 4096 @DATA@/gc-n2.eventlog -o c.eventlog && evtool cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog -o d.eventlog && { evtool cat --reblock @DATA@/killed-blocks.eventlog.gz -o e.eventlog 2>/dev/null; test $? = 3; } && evtool validate --strict a.eventlog b.eventlog c.eventlog d.eventlog e.eventlog
exit: 0
--- stdout
a.eventlog: valid (0 warnings, 5286 events)
b.eventlog: valid (0 warnings, 5286 events)
c.eventlog: valid (0 warnings, 7820 events)
d.eventlog: valid (0 warnings, 336 events)
e.eventlog: valid (0 warnings, 12921 events)
--- stderr
