# --quiet prints nothing; the exit code tells
cmd: cat @DATA@/user-n1.eventlog > bad.eventlog && printf 'garbage' >> bad.eventlog && evtool validate -q @DATA@/user-n1.eventlog bad.eventlog
exit: 1
--- stdout
--- stderr
