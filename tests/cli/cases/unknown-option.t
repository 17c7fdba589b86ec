# an unknown option is a usage error naming it
cmd: evtool cat --frob @DATA@/user-n1.eventlog -o out
exit: 2
--- stderr
evtool: unknown option '--frob'
Run 'evtool cat --help' for usage.
