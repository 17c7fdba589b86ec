# --tolerance takes a whole number of nanoseconds
cmd: evtool validate --tolerance 1ms @DATA@/user-n1.eventlog
exit: 2
--- stdout
--- stderr
evtool: --tolerance: '1ms' is not a whole number
