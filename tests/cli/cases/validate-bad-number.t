# --tolerance takes a duration (ns, or with a unit), --max-errors a whole number: anything else is a usage error
cmd: evtool validate --tolerance 1mss @DATA@/user-n1.eventlog; echo "exit $?"; evtool validate --max-errors 1.5 @DATA@/user-n1.eventlog; echo "exit $?"; evtool validate --tolerance 1ms --max-errors 3 @DATA@/user-n1.eventlog
exit: 0
--- stdout
exit 2
exit 2
@DATA@/user-n1.eventlog: valid (0 warnings, 107 events)
--- stderr
evtool validate: --tolerance: '1mss' is not a duration (ns, or with units ns us ms s m h: 1000, 1.5ms)
Run 'evtool validate --help' for usage.
evtool validate: --max-errors: '1.5' is not a whole number
Run 'evtool validate --help' for usage.
