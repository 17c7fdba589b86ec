# the output may not be an input: the input stays untouched, and the refusal points at --in-place
cmd: cp @DATA@/user-n1.eventlog in.eventlog; evtool cat in.eventlog -o in.eventlog; rc=$?; cmp @DATA@/user-n1.eventlog in.eventlog && exit $rc
exit: 2
--- stderr
evtool cat: in.eventlog: refusing to overwrite an input file
hint: to replace the input with the result, use --in-place instead of -o
