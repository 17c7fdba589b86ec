# -o - writes the log to standard output
cmd: evtool cat @DATA@/user-n1.eventlog -o - > out.eventlog && cmp @DATA@/user-n1.eventlog out.eventlog
exit: 0
--- stderr
