# a USER_MSG stamped 1000 ns before the event before it: an error, unless --tolerance accepts it
cmd: cp @DATA@/user-n1.eventlog t.eventlog && chmod u+w t.eventlog && printf '\000\000\000\000\000\052\241\336' | dd of=t.eventlog bs=1 seek=3133 conv=notrunc 2>/dev/null && evtool validate --tolerance 1000 t.eventlog && evtool validate --tolerance 999 t.eventlog
exit: 1
--- stdout
t.eventlog: valid (0 warnings, 107 events)
t.eventlog: invalid (1 error, 0 warnings, 107 events)
--- stderr
evtool validate: t.eventlog: offset 3131: error: event 22 USER_MSG on cap 0 at 2793950 ns: time goes back by 1000 ns: an earlier event of this cap is at 2794950 ns [time-order]
