# an unknown option is a usage error
cmd: evtool stats --bogus @DATA@/gc-n2.eventlog; exit $?
exit: 2
--- stdout
--- stderr
evtool: unknown option '--bogus'
Run 'evtool stats --help' for usage.
