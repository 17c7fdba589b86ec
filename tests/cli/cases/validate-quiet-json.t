# --quiet and --json exclude each other
cmd: evtool validate --quiet --json @DATA@/user-n1.eventlog
exit: 2
--- stdout
--- stderr
evtool validate: --quiet and --json exclude each other
Run 'evtool validate --help' for usage.
