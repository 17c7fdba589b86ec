# --extract -o - writes the log to standard output; standard input works too
cmd: evtool archive @DATA@/user-n1.eventlog -o u.gz && evtool archive -x u.gz -o - | cmp - @DATA@/user-n1.eventlog && evtool archive -x - -o u.eventlog < u.gz && cmp u.eventlog @DATA@/user-n1.eventlog && evtool validate --strict u.eventlog && evtool archive -x u.gz -o - | evtool validate --strict -
exit: 0
--- stdout
u.eventlog: valid (0 warnings, 107 events)
<stdin>: valid (0 warnings, 107 events)
--- stderr
