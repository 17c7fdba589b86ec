# truncate -o onto its own input is refused, with a pointer to --in-place; the input stays untouched
cmd: cp @DATA@/user-n1.eventlog in.eventlog; evtool truncate in.eventlog -o in.eventlog; rc=$?; cmp @DATA@/user-n1.eventlog in.eventlog && exit $rc
exit: 2
--- stderr
evtool truncate: in.eventlog: refusing to overwrite an input file
hint: to replace the input with the result, use --in-place instead of -o
