# a file that cannot be opened is an I/O error (exit 4); the others are still checked
cmd: evtool validate no-such.eventlog @DATA@/user-n1.eventlog
exit: 4
--- stdout
@DATA@/user-n1.eventlog: valid (0 warnings, 107 events)
--- stderr
evtool validate: no-such.eventlog: cannot open: No such file or directory
