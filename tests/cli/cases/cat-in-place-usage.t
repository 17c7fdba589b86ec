# --in-place with -o is a usage error
cmd: cp @DATA@/user-n1.eventlog in.eventlog; evtool cat --in-place in.eventlog -o out.eventlog
exit: 2
--- stderr
evtool cat: --in-place takes one input file and no -o
Run 'evtool cat --help' for usage.
