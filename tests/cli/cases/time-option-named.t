# a time that does not parse is named by its own option: --to here, though --from (valid) comes first; the same for --exclude-to and truncate's --at
cmd: evtool filter @DATA@/threads-n1.eventlog --from 1s --to 5x -o a.eventlog; echo "exit $?"; evtool filter @DATA@/threads-n1.eventlog --exclude-from +1ms --exclude-to 2q -o a.eventlog; echo "exit $?"; evtool truncate @DATA@/threads-n1.eventlog --at soon -o a.eventlog; echo "exit $?"; ls
exit: 0
--- stdout
exit 2
exit 2
exit 2
--- stderr
evtool filter: --to: '5x' is not a time (a timestamp as show prints it: 1979690 ns, or with units ns us ms s m h, 1.5s; +TIME after the first event; or ISO 8601 2024-05-01T12:00:00Z)
Run 'evtool filter --help' for usage.
evtool filter: --exclude-to: '2q' is not a time (a timestamp as show prints it: 1979690 ns, or with units ns us ms s m h, 1.5s; +TIME after the first event; or ISO 8601 2024-05-01T12:00:00Z)
Run 'evtool filter --help' for usage.
evtool truncate: --at: 'soon' is not a time (a timestamp as show prints it: 1979690 ns, or with units ns us ms s m h, 1.5s; +TIME after the first event; or ISO 8601 2024-05-01T12:00:00Z)
Run 'evtool truncate --help' for usage.
