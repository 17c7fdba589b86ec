# option errors: a time without a unit, session 0, --in-place with -o, a negative count
cmd: evtool truncate --at 5 x.eventlog -o y; echo "exit $?"; evtool truncate --session 0 x -o y; echo "exit $?"; evtool truncate --in-place x -o y; echo "exit $?"; evtool truncate --events -3 x -o y; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool: --at: '5' is not a time: a number with a unit, ns, us, ms or s, from the first event (5s, 1.5ms), @ and one for a raw timestamp (@250ms), or an ISO 8601 date and time (2024-05-01T12:00:00Z)
evtool: --session counts from 1, as 'evtool info' lists the sessions
Run 'evtool truncate --help' for usage.
evtool: --in-place takes an input file and no -o
Run 'evtool truncate --help' for usage.
evtool: --events: '-3' is not a number from 0 to 18446744073709551614
