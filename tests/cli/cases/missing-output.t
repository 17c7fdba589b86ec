# cat without -o says how to give one
cmd: evtool cat @DATA@/user-n1.eventlog
exit: 2
--- stderr
evtool cat: no output given: use -o FILE (or -o - for standard output)
