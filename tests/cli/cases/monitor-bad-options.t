# monitor: malformed --keep-ended, --stall, --max-markers and --max-sources
cmd: evtool monitor --keep-ended soon .; echo "exit $?"; evtool monitor --stall -1s .; echo "exit $?"; evtool monitor --max-markers x .; echo "exit $?"; evtool monitor --max-sources 0 .; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool monitor: --keep-ended: 'soon' is not a duration (ns, or with units ns us ms s m h: 1000, 1.5ms)
Run 'evtool monitor --help' for usage.
evtool monitor: --stall: '-1s' is not a duration (ns, or with units ns us ms s m h: 1000, 1.5ms)
Run 'evtool monitor --help' for usage.
evtool monitor: --max-markers: 'x' is not a whole number from 0 to 100000
Run 'evtool monitor --help' for usage.
evtool monitor: --max-sources: '0' is not a whole number from 1 to 100000
Run 'evtool monitor --help' for usage.
