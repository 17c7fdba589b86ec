# option errors: a time in an unknown unit, session 0, --in-place with -o, a negative count
cmd: evtool truncate --at 5parsecs x.eventlog -o y; echo "exit $?"; evtool truncate --session 0 x -o y; echo "exit $?"; evtool truncate --in-place x -o y; echo "exit $?"; evtool truncate --events -3 x -o y; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool truncate: --at: '5parsecs' is not a time (a timestamp as show prints it: 1979690 ns, or with units ns us ms s m h, 1.5s; +TIME after the first event; or ISO 8601 2024-05-01T12:00:00Z)
Run 'evtool truncate --help' for usage.
evtool truncate: --session counts from 1, as 'evtool info' lists the sessions
Run 'evtool truncate --help' for usage.
evtool truncate: --in-place takes an input file and no -o
Run 'evtool truncate --help' for usage.
evtool truncate: --events: '-3' is not a whole number
Run 'evtool truncate --help' for usage.
