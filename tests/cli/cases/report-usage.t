# report takes one log and needs -o
cmd: evtool report @DATA@/user-n1.eventlog; echo "exit $?"; evtool report @DATA@/user-n1.eventlog @DATA@/user-n1.eventlog -o x.html; echo "exit $?"; evtool report -o x.html; echo "exit $?"; ls -A
exit: 0
--- stdout
exit 2
exit 2
exit 2
--- stderr
evtool: no output given: use -o FILE (or -o - for standard output)
evtool: report: too many operands (LOG -o run.html)
Run 'evtool report --help' for usage.
evtool: report: missing operand (LOG -o run.html)
Run 'evtool report --help' for usage.
