# input that is not an eventlog: an error naming the file and offset, exit 1, no page left behind
cmd: printf 'not an eventlog at all' > x.eventlog && evtool report x.eventlog -o out.html; echo "exit $?"; ls -A
exit: 0
--- stdout
exit 1
x.eventlog
--- stderr
evtool report: x.eventlog: offset 0: expected header begin "hdrb", found "not ": not a GHC eventlog
