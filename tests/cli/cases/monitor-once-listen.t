# monitor --once serves nothing: with --listen it is a usage error
cmd: evtool monitor --once --listen 9000 @DATA@/gc-n2.eventlog
exit: 2
--- stdout
--- stderr
evtool monitor: --once prints the metrics: it serves nothing (no --listen)
Run 'evtool monitor --help' for usage.
