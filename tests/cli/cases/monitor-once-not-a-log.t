# monitor --once on bytes that are no eventlog: an error naming the file, exit 1, nothing printed
cmd: printf 'not a log at all' > x.eventlog; evtool monitor --once x.eventlog
exit: 1
--- stdout
--- stderr
evtool monitor: x.eventlog: offset 0: expected header begin "hdrb", found "not ": not a GHC eventlog
