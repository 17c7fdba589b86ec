# report takes one log (standard input without one) or two (base and new) and writes standard output without -o
cmd: evtool report @DATA@/user-n1.eventlog @DATA@/user-n1.eventlog @DATA@/user-n1.eventlog -o x.html; echo "exit $?"; evtool report @DATA@/user-n1.eventlog | head -c 15; echo; evtool report < @DATA@/user-n1.eventlog | grep -c '"file":"<stdin>"'; ls -A
exit: 0
--- stdout
exit 2
<!DOCTYPE html>
1
--- stderr
evtool report: too many operands ([LOG | BASE NEW] [-o FILE])
Run 'evtool report --help' for usage.
